"""The fast tier (`make test-fast`, the tests marked `fast` by tests/conftest.py) holds what it
says: every test of tests/core/, a sample of every test of the ops (each test function of
tests/ops/ and of the op tables, at least once), and the course's exercise checks against the
wrong answers (the first exercise of every notebook in a kernel, the checks in process); no
nbval run; and the Makefile's FAST_PATHS reach every test it marks.

What the session collected, when it collected all of tests/ (``make test``); otherwise one
collection of the whole suite (no test runs), in a subprocess with this module as a plugin that
prints each collected test with its markers.
"""
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
LINE = "@@ITEM@@ "


def pytest_collection_finish(session):
    """(As a plugin) one line per collected test: fast or not, file, function, node id."""
    for item in session.items:
        fast, path, name, nodeid = _row(item)
        print(f"{LINE}{int(fast)}\t{path}\t{name}\t{nodeid}")


def _row(item):
    fast = item.get_closest_marker("fast") is not None
    name = getattr(item, "originalname", None) or item.name.split("[")[0]
    return fast, Path(str(item.fspath)).resolve(), name, item.nodeid


@pytest.fixture(scope="module")
def collected(whole_suite):
    if whole_suite is not None:  # this session collected it all (make test): no second collection
        return [_row(item) for item in whole_suite]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "test_fast_tier", "tests"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    items = [line[len(LINE):].split("\t") for line in out.stdout.splitlines() if line.startswith(LINE)]
    assert len(items) > 1000, out.stdout[-3000:] + out.stderr[-3000:]
    return [(fast == "1", Path(path), name, nodeid) for fast, path, name, nodeid in items]


def folder(path):
    rel = path.relative_to(TESTS)
    return rel.parts[0] if len(rel.parts) > 1 else None


def test_the_core_is_all_in(collected):
    core = [(fast, path) for fast, path, _, _ in collected if folder(path) == "core"]
    assert {path.name for _, path in core} >= {"test_autograd.py", "test_graph.py"}
    assert all(fast for fast, _ in core)


def test_every_op_test_is_sampled(collected):
    """Each test function of tests/ops/ and of the op tables (at the top of tests/ until they
    move into tests/ops/) runs at least once in the fast tier, and not all of the larger ones."""
    runs = defaultdict(list)
    for fast, path, name, _ in collected:
        if folder(path) == "ops":
            runs[path.name, name].append(fast)
    assert len({file for file, _ in runs}) >= 10
    assert [k for k, v in runs.items() if not any(v)] == []
    assert sum(map(sum, runs.values())) < sum(map(len, runs.values())) / 4


def test_the_course_checks_are_in_and_the_notebook_runs_out(collected):
    fast = [(path, name) for is_fast, path, name, _ in collected if is_fast]
    checks = defaultdict(list)  # notebook -> fast or not, for each of its exercises
    for is_fast, _, name, nodeid in collected:
        if name == "test_check_rejects_wrong_answers_and_accepts_the_solution":
            checks[nodeid.split("[")[1][:2]].append(is_fast)
    assert len(checks) >= 12 and all(v[0] for v in checks.values())
    assert not [p for p, _ in fast if p.suffix == ".ipynb"]
    assert {folder(p) for p, _ in fast} <= {"core", "ops", "course", None}
    course = {(p.name, name) for p, name in fast if folder(p) == "course"}
    assert course <= {("test_course.py", n) for n in ("test_every_exercise_has_wrong_answers",
                                                       "test_check_rejects_wrong_answers_and_accepts_the_solution",
                                                       "test_checks_in_process",
                                                       "test_a_failed_check_shows_its_hint_only")}


def test_make_test_fast_reaches_every_fast_test(collected):
    makefile = (ROOT / "Makefile").read_text()
    paths = re.search(r"^FAST_PATHS = (.*)$", makefile, re.M).group(1).split()
    top = [str(p.relative_to(ROOT)) for p in TESTS.glob("test_*.py")]
    paths = [p for p in paths if not p.startswith("$(wildcard")] + top
    assert "-m fast $(FAST_PATHS)" in makefile
    missed = {p.relative_to(ROOT).as_posix() for fast, p, _, _ in collected
              if fast and not any(p.relative_to(ROOT).as_posix().startswith(q) for q in paths)}
    assert not missed
