"""The course's website (``make site``, tools/site.py), opened in a real browser.

Chromium (Debian's package, or the one ``MINIGRAD_CHROMIUM`` names), driven by Playwright,
opens every page from a local HTTP server: each page has its title, every image decodes, the
mathematics is typeset, the search finds ``retain_graph``, a folded solution opens on click,
the console shows no error, and no request leaves the local server. The site must be built
first (``make site``; .ci/run does). Without a built site, Playwright or Chromium the tests
are skipped, saying which; ``MINIGRAD_REQUIRE_SITE=1`` (.ci/run) makes that a failure.
"""
import functools
import http.server
import os
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402


SITE = ROOT / "build" / "site" / "html"
REQUIRED = os.environ.get("MINIGRAD_REQUIRE_SITE") == "1"


def unavailable(reason):
    if REQUIRED:
        pytest.fail(f"{reason} (MINIGRAD_REQUIRE_SITE=1)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server():
    if not (SITE / "index.html").exists():
        unavailable("the site is not built: run `make site` first")
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed (the [site] extra: make site installs it)")
    executable = os.environ.get("MINIGRAD_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    if not executable:
        unavailable("no Chromium found (apt-get install chromium, or set MINIGRAD_CHROMIUM)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield browser
        browser.close()


class Visit:
    """A browser page that records console errors, page errors and every request that is
    not for the local server (those are blocked)."""

    def __init__(self, browser, server):
        self.server = server
        self.context = browser.new_context()
        self.errors, self.outside = [], []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _route(self, route):
        url = route.request.url
        if url.startswith(self.server + "/") or url == self.server:
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def open(self, path):
        self.page.goto(f"{self.server}/{path}", wait_until="load")
        return self.page


@pytest.fixture
def visit(browser, server):
    v = Visit(browser, server)
    yield v
    v.context.close()


NOTEBOOKS = course.complete_notebooks()
PAGES = ["index.html"] + [f"{p.stem}.html" for p in NOTEBOOKS] + ["instructors.html", "code.html"]


def test_one_page_per_notebook_and_a_home_page(server):
    assert [p.name for p in sorted(SITE.glob("[0-9][0-9]_*.html"))] == [f"{p.stem}.html" for p in NOTEBOOKS]
    assert (SITE / "index.html").exists() and (SITE / "search.html").exists()


@pytest.mark.parametrize("path", PAGES)
def test_page_opens_with_its_title_images_and_math(visit, path):
    page = visit.open(path)
    heading = page.locator("h1").first.inner_text().strip().rstrip("#").strip()
    assert heading and heading in page.title(), (heading, page.title())
    images = page.evaluate("""() => Array.from(document.images).map(
        i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0])""")
    assert all(ok for _, ok in images), [src for src, ok in images if not ok]
    if path != "index.html" and path.startswith(tuple("0123456789")):
        assert images, f"{path} shows no picture"
        assert page.locator("text=Run it yourself").count() == 1
        assert page.locator(f"a[href$='{path[:-5]}.ipynb']").count() >= 1, "no blank notebook to download"
    if page.locator(".math").count():
        page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.document"
                               " && document.querySelectorAll('mjx-container').length > 0")
        page.evaluate("() => MathJax.startup.promise")
        assert page.locator("mjx-merror").count() == 0
        assert page.locator("mjx-container").count() >= page.locator(".math").count()
    assert not visit.errors, visit.errors
    assert not visit.outside, visit.outside


def test_notebook_pages_link_to_the_previous_and_next(visit):
    page = visit.open(f"{NOTEBOOKS[1].stem}.html")
    hrefs = page.eval_on_selector_all(".prev-next-area a", "els => els.map(e => e.getAttribute('href'))")
    assert any(NOTEBOOKS[0].stem in h for h in hrefs) and any(NOTEBOOKS[2].stem in h for h in hrefs), hrefs


def test_search_finds_retain_graph(visit):
    page = visit.open("search.html?q=retain_graph")
    page.wait_for_selector("#search-results ul.search li", timeout=20_000)
    results = page.eval_on_selector_all("#search-results ul.search li a",
                                        "els => els.map(e => e.getAttribute('href'))")
    assert any("08_several_losses" in h for h in results), results
    assert not visit.errors and not visit.outside


def test_a_solution_is_folded_until_clicked(visit):
    page = visit.open(f"{NOTEBOOKS[1].stem}.html")
    solution = page.locator("details.hide.above-input").first
    assert solution.get_attribute("open") is None
    code = solution.locator(".cell_input")
    assert not code.is_visible()
    solution.locator("summary").click()
    assert solution.get_attribute("open") is not None and code.is_visible()
    assert "BEGIN SOLUTION" in code.inner_text()
    assert not visit.errors and not visit.outside


def test_an_answer_is_folded_until_clicked(visit):
    page = visit.open(f"{NOTEBOOKS[1].stem}.html")
    answer = page.locator("details:has(> summary:text-is('Show answer'))").first
    assert answer.get_attribute("open") is None
    answer.locator("summary").click()
    assert answer.get_attribute("open") is not None
