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
"""
import numpy as np
import pytest

from oracle import Oracle, torch_module, require_torch_env


def pytest_configure(config):
    config.addinivalue_line("markers", "oracle: compares with PyTorch through the oracle fixture "
                                       "(recorded); set on every test that takes it")


def pytest_collection_modifyitems(items):
    for item in items:
        if "oracle" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.oracle)


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


@pytest.fixture
def rng():
    return np.random.default_rng(0)
