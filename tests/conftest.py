"""Shared test set-up.

PyTorch comparison tests take the ``torch`` fixture. Where PyTorch is not
installed they skip, except when ``MINIGRAD_REQUIRE_TORCH=1`` (set by
``.ci/run``): then a missing PyTorch is a failure, so CI cannot go green by
silently skipping every comparison.
"""
import os

import numpy as np
import pytest


@pytest.fixture(scope="session")
def torch():
    try:
        import torch as _torch
    except ImportError:
        if os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1":
            pytest.fail("MINIGRAD_REQUIRE_TORCH=1 but PyTorch is not installed")
        pytest.skip("PyTorch is not installed")
    _torch.set_default_dtype(_torch.float32)
    return _torch


@pytest.fixture
def rng():
    return np.random.default_rng(0)
