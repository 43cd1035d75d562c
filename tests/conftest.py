"""Shared test set-up.

PyTorch comparison tests take the ``oracle`` fixture (tests/oracle.py): PyTorch's answer to
the test's program, live and checked against its recording under tests/recordings/ where
PyTorch is installed, the recording where it is not. So they run everywhere. ``make record``
writes the recordings (pytest-regressions' ``--regen-all``, PyTorch installed).

Property-based comparisons (Hypothesis draws the inputs, so there is nothing fixed to
record) take the ``torch`` fixture instead: PyTorch itself. They skip where PyTorch is not
installed. Only Hypothesis tests may take it: any other comparison is recorded.

``MINIGRAD_REQUIRE_TORCH=1`` (set by ``.ci/run``) turns a missing PyTorch into a failure of
both fixtures, so CI cannot go green by replaying recordings it was meant to check.

The test files are grouped by subject in folders (core, ops, api, nn, optim, course, project);
the helper modules (oracle.py, misuse_cases.py, known_differences.py, fuzz.py, wrong_answers/,
transfer/) stay here, in tests/, importable from every folder, and tools/ (tools/course.py) too.
The folders are not packages: pytest imports each test file by its basename, so basenames are
unique across the folders (recordings are kept by basename too: tests/recordings/<module>/).
"""
import sys
from pathlib import Path

import numpy as np
import pytest

TESTS = Path(__file__).resolve().parent
# tests/ first, then its subject folders (a test module may import another's helpers, as
# tests/nn/test_conv.py imports tests/ops/test_gradcheck.py's), then tools/ (course.py).
SUBJECTS = [TESTS / name for name in ("core", "ops", "api", "nn", "optim", "course", "project")]
for _path in (TESTS.parent / "tools", *SUBJECTS, TESTS):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from oracle import Oracle, torch_module, require_torch_env


# The fast tier (`make test-fast`, `pytest -m fast`): every test of tests/core/; a sample of the
# ops: of each test function of tests/ops/, one in FAST_SAMPLE parametrizations, its first always
# (of the slow second-order ones, the first only);
# and the course's checks against the wrong answers (the tests marked `fast` in
# tests/course/test_course.py; in a kernel, each notebook's first exercise).
# tests/project/test_fast_tier.py keeps it honest.
FAST_SAMPLE = 8
FAST_DESCRIPTION = ("fast: the fast tier (make test-fast): every test of tests/core/, one in "
                    f"{FAST_SAMPLE} parametrizations of each test of tests/ops/ (the "
                    "first of the second-order ones), the "
                    "course's exercise checks against tests/wrong_answers/ (each notebook's first exercise "
                    "in a kernel); set by tests/conftest.py and tests/course/test_course.py")


def pytest_configure(config):
    config.addinivalue_line("markers", "oracle: compares with PyTorch through the oracle fixture "
                                       "(recorded); set on every test that takes it")
    config.addinivalue_line("markers", FAST_DESCRIPTION)


def subject(item):
    """The folder of tests/ a test file is in ("core", "ops", ...); None outside tests/."""
    path = Path(str(item.fspath)).resolve()
    if TESTS not in path.parents:
        return None
    parts = path.relative_to(TESTS).parts
    return parts[0] if len(parts) > 1 else None


def is_fast(item, index):
    """``index``: the item's place among the parametrizations of its test function."""
    where = subject(item)
    if "second_order" in item.name or "gradgrad" in item.name:
        return where == "core" or (where == "ops" and index == 0)
    return where == "core" or (where == "ops" and index % FAST_SAMPLE == 0)


def pytest_collection_modifyitems(items):
    seen = {}
    for item in items:
        if "oracle" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.oracle)
        function = (str(item.fspath), getattr(item, "cls", None), getattr(item, "originalname", item.name))
        index = seen[function] = seen.get(function, -1) + 1
        if is_fast(item, index):
            item.add_marker(pytest.mark.fast)


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist: unknown without it)
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's loadscope (what `make test` asks for) keeps each test module on one worker:
    a notebook's cells stay in order (nbval), a module's costly fixtures run once. But
    tests/ops/ holds thousands of independent cases, some slow (second-order gradchecks of
    lstm_cell: half a minute): there, each test is its own scope, so both workers share them."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OpsSpreadScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            if nodeid.startswith("tests/ops/"):
                return nodeid
            return super()._split_scope(nodeid)

        def _assign_work_unit(self, node):
            # loadscope hands out the scopes with the most tests first. The longest ones have
            # few tests: started last, one of them would keep one worker busy while the other
            # waits. They go first; the thousands of small tests/ops/ cases fill in at the end.
            if not getattr(self, "_long_first", False):
                self._long_first = True
                for scope in [s for s in self.workqueue if s not in LONG_SCOPES]:
                    self.workqueue.move_to_end(scope)
            super()._assign_work_unit(node)

    return OpsSpreadScheduling(config, log)


# The test modules that take longest (tens of seconds each, of few tests), begun first: `make
# test PYTEST_ARGS=--durations=30` shows them.
LONG_SCOPES = ("tests/api/test_fuzz.py", "tests/api/test_learner_programs.py",
               "tests/course/test_instructors.py", "tests/course/test_course_torch.py",
               "tests/course/test_course.py",
               "tests/course/test_workspace.py", "tests/project/test_docs.py",
               "tests/project/test_fast_tier.py")


@pytest.fixture
def oracle(request):
    return Oracle(request)


def pytest_runtest_setup(item):
    if "torch" in getattr(item, "fixturenames", ()) and not getattr(item.obj, "is_hypothesis_test", False):
        pytest.fail("the `torch` fixture is for Hypothesis tests only (random inputs cannot be "
                    "recorded); a comparison with fixed inputs takes `oracle`", pytrace=False)


@pytest.fixture(scope="session")
def torch():
    """PyTorch itself, for live-only (Hypothesis) comparisons."""
    torch = torch_module()
    if torch is None:
        if require_torch_env():
            pytest.fail("MINIGRAD_REQUIRE_TORCH=1 but PyTorch is not installed", pytrace=False)
        pytest.skip("PyTorch is not installed (a live-only Hypothesis comparison)")
    return torch


@pytest.fixture(scope="session")
def whole_suite(request):
    """The session's tests of tests/ when it collected all of them, unfiltered (make test), so
    that a test about the suite need not collect it again; None otherwise (-k, -m, a file)."""
    config = request.config
    if config.option.keyword or config.option.markexpr or config.option.deselect \
            or not any(Path(a).resolve() == TESTS for a in config.args):
        return None
    return [item for item in request.session.items if TESTS in Path(str(item.fspath)).resolve().parents]


@pytest.fixture
def rng():
    return np.random.default_rng(0)
