"""The list of minigrad's known differences from PyTorch, generated from the tests' marks.

Each known difference is written where it is tested: an ``xfail(strict=True, reason="DIFF:
...")`` mark on a comparison test, or an entry of the fuzzer's one table
(``tests/fuzz.py``'s ``KNOWN_DIFFERENCES``). This module collects them (a pytest plugin:
``pytest --collect-only -p known_differences``). tools/docs.py (``make docs``) writes
docs/differences.md from them; ``tests/project/test_docs.py`` fails when that file is not the one
generated.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import fuzz

TESTS = Path(__file__).resolve().parent
MARKER = "@@DIFF@@ "


def marks(items):
    """(test name, reason) of each DIFF mark on the pytest ``items``."""
    for item in items:
        for mark in item.iter_markers("xfail"):
            reason = mark.kwargs.get("reason", "")
            if reason.startswith("DIFF:"):
                yield item.nodeid.split("[")[0], " ".join(reason.split())


def pytest_collection_finish(session):
    """(As a plugin) print each collected DIFF reason with the test it marks."""
    for test, reason in marks(session.items):
        print(MARKER + test + "\t" + reason)


def collected():
    """{reason: sorted test names} of every DIFF mark in tests/ and the fuzzer's table. The marks
    come from a collection of tests/ in a subprocess, or, if the environment variable
    MINIGRAD_DIFF_MARKS names a file, from it (a JSON list of [test, reason] pairs that a test
    session which collected all of tests/ wrote: tests/project/test_docs.py)."""
    reasons = defaultdict(set)
    if os.environ.get("MINIGRAD_DIFF_MARKS"):
        pairs = json.loads(Path(os.environ["MINIGRAD_DIFF_MARKS"]).read_text(encoding="utf-8"))
    else:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), str(TESTS.parent),
                                                           os.environ.get("PYTHONPATH", "")]))
        out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "-p", "known_differences", str(TESTS)], cwd=TESTS.parent, env=env,
                             capture_output=True, text=True, check=False)
        pairs = [line[len(MARKER):].split("\t", 1) for line in out.stdout.splitlines() if line.startswith(MARKER)]
    for test, reason in pairs:
        reasons[reason].add(test)
    if not reasons:
        raise RuntimeError(f"collecting the tests found no DIFF mark:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    for name, reason in fuzz.KNOWN_DIFFERENCES.items():
        reasons[" ".join(reason.split())].add(f"tests/fuzz.py::KNOWN_DIFFERENCES[{name!r}]")
    return reasons
