#!/usr/bin/env python
"""The course as a website (``make site``): Sphinx with myst-nb and the book theme, built from
the complete notebooks' stored outputs (nothing is executed), entirely offline.

    python tools/site.py [--out DIR]    build the site into DIR (default build/site/html)

The Sphinx sources are put together in ``build/site/src`` from ``docs/site/`` (the
configuration, the home, instructors' and code pages, the style) and from the notebooks,
each with, after its title cell, a box to run it yourself and its blank notebook to download.
A solution cell's code is folded away ("Show the solution"); the questions' answers are the
notebooks' own ``<details>``. Sphinx runs with warnings as errors; afterwards every link and
image inside the site is checked (:func:`broken_links`). MathJax comes from the
sphinx-mathjax-offline package (tex-chtml and its fonts only), so that a page asks no other
host for anything; ``tests/site/test_site.py`` opens every page in Chromium to make sure.
"""
from __future__ import annotations

import argparse
import html.parser
import re
import shutil
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402

PAGES = ROOT / "docs" / "site"
BUILD = ROOT / "build" / "site"
OUT = BUILD / "html"

RUN_IT = """\
:::{{admonition}} Run it yourself
:class: tip
Download the blank notebook, {{download}}`{name} <student/{name}>`, and open it in JupyterLab
with minigrad installed; or clone the course, and `make lab` sets up its environment and opens
it, as the [home page](index.md#run-it-yourself) says. The solutions and outputs on this page are the
complete notebook's.
:::
"""


# Documents of the repository that are pages of the site too, by the name of their page; a
# link to one of them (from a notebook, or between them) is a link to its page.
DOCUMENTS = {"docs/jupyterlab.md": "jupyterlab.md"}


def site_links(text: str, source: str) -> str:
    """``text``'s markdown links to the repository's DOCUMENTS (relative to the file
    ``source``, a path in the repository) as links to their pages."""
    def page(match):
        target = (ROOT / source).parent.joinpath(match.group(2)).resolve()
        rel = target.relative_to(ROOT).as_posix() if target.is_relative_to(ROOT) else None
        if rel in DOCUMENTS:
            return f"]({DOCUMENTS[rel]}{match.group(3) or ''})"
        if rel and rel.startswith("notebooks/") and rel.endswith(".ipynb") and "/student/" not in rel:
            return f"]({Path(rel).name}{match.group(3) or ''})"
        return match.group(0)
    return re.sub(r"\]\((?!\w+:)(([^)#\s]+))(#[^)\s]*)?\)", page, text)


def notebook_page(path: Path):
    """The notebook as its page shows it: links to DOCUMENTS as links to their pages, each
    solution cell's code folded away, and the run-it-yourself box after the title cell."""
    nb = course.read(path)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = site_links(cell.source, path.relative_to(ROOT).as_posix())
        elif course.is_solution(cell):
            cell.metadata["tags"] = course.tags(cell) + ["hide-input"]
    nb.cells.insert(1, course.nbformat.v4.new_markdown_cell(RUN_IT.format(name=path.name)))
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    return nb


def toctree() -> str:
    lines = ["```{toctree}", ":hidden:", ":maxdepth: 1", ""]
    lines += [p.stem for p in course.complete_notebooks()]
    lines += [Path(page).stem for page in DOCUMENTS.values()]
    lines += ["instructors", "code", "```", ""]
    return "\n".join(lines)


def contents_table() -> str:
    """The home page's table of notebooks: title, time, link."""
    rows = ["| | notebook | time |", "|---|---|---|"]
    for p in course.complete_notebooks():
        nb = course.read(p)
        title = nb.cells[0].source.split("\n", 1)[0].lstrip("# ").split(" · ", 1)[1]
        rows.append(f"| {p.name[:2]} | [{title}]({p.stem}.ipynb) | {course.minutes(nb)['total']} min |")
    return "\n".join(rows) + "\n"


def core_reading_order() -> str:
    """The teaching core's docstring: where to start reading and in what order."""
    import ast

    tree = ast.parse((ROOT / "minigrad" / "core" / "__init__.py").read_text())
    return ast.get_docstring(tree).strip()


def mathjax_files() -> list[tuple[Path, Path]]:
    """(source, path under _static/mathjax/) of the MathJax the pages load: the tex-chtml
    component, its fonts and the TeX extensions it may load on demand."""
    import importlib.util

    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None:
        raise SystemExit("sphinx-mathjax-offline is not installed: run `make site`, which installs "
                         "the [site] extra")
    root = Path(spec.origin).parent / "static" / "mathjax"
    files = [root / "tex-chtml.js"]
    files += sorted((root / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    files += sorted((root / "input" / "tex" / "extensions").rglob("*.js"))
    return [(f, f.relative_to(root)) for f in files]


def prepare(src: Path) -> None:
    if src.exists():
        shutil.rmtree(src)
    shutil.copytree(PAGES, src, ignore=shutil.ignore_patterns("__pycache__"))
    index = src / "index.md"
    index.write_text(index.read_text().replace("{{contents}}", contents_table())
                     + "\n" + toctree())
    for document, page in DOCUMENTS.items():
        (src / page).write_text(site_links((ROOT / document).read_text(), document))
    code = src / "code.md"
    code.write_text(code.read_text().replace("{{core_doc}}", core_reading_order()))
    for p in course.complete_notebooks():
        course.write(notebook_page(p), src / p.name)
    shutil.copytree(course.STUDENT_DIR, src / "student",
                    ignore=shutil.ignore_patterns(".*", "__pycache__"))
    for f, rel in mathjax_files():
        (src / "_static" / "mathjax" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, src / "_static" / "mathjax" / rel)


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name):
                self.links.append(attrs[name])


def broken_links(out: Path) -> list[str]:
    """Links and images inside the site whose file, or whose #anchor, does not exist."""
    pages, problems = {}, []
    for page in out.rglob("*.html"):
        if page.relative_to(out).parts[0] == "_static":  # the theme's template fragments
            continue
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        pages[page.resolve()] = parser
    for page, parser in pages.items():
        for link in parser.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_relative_to(out.resolve()) or not target.exists():
                problems.append(f"{page.relative_to(out.resolve())}: {link}")
            elif parts.fragment and target.suffix == ".html" and target in pages \
                    and parts.fragment not in pages[target].ids:
                problems.append(f"{page.relative_to(out.resolve())}: {link} (no such anchor)")
    return sorted(set(problems))


def build(out: Path = OUT) -> Path:
    from sphinx.cmd.build import build_main

    src = BUILD / "src"
    prepare(src)
    if out.exists():
        shutil.rmtree(out)
    status = build_main(["-W", "--keep-going", "-q", "-b", "html", "-d", str(BUILD / "doctrees"),
                         str(src), str(out)])
    if status:
        raise SystemExit(f"sphinx-build failed (status {status}): see its warnings above")
    problems = broken_links(out)
    if problems:
        raise SystemExit("broken links in the site:\n  " + "\n  ".join(problems))
    return out


def size(out: Path) -> int:
    return sum(f.stat().st_size for f in out.rglob("*") if f.is_file())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    start = time.perf_counter()
    out = build(args.out.resolve())
    pages = len(list(out.glob("*.html")))
    print(f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: {pages} pages, "
          f"{size(out) / 1e6:.1f} MB, {time.perf_counter() - start:.0f} s; open index.html, or serve "
          f"it: python -m http.server -d {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
