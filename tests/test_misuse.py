"""The misuse catalogue against PyTorch: what learners do wrong, and what they are told.

Each case of tests/misuse_cases.py runs under PyTorch (its answer recorded: tests/oracle.py)
and under minigrad; the two must raise the same exception with the same message, or give
the same result, with the same warnings. Where minigrad knowingly still differs, the case
is marked ``xfail(strict=True, reason="DIFF: ...")`` below (DIFFS).
"""
import pytest

from misuse_cases import CASES, outcome

# Cases where minigrad still differs from PyTorch, and how.
DIFFS = {
}


def _params():
    return [pytest.param(name, id=name, marks=[pytest.mark.xfail(strict=True, reason="DIFF: " + DIFFS[name])]
                         if name in DIFFS else []) for name in CASES]


@pytest.mark.parametrize("name", _params())
def test_misuse(oracle, name):
    program = CASES[name]
    oracle.same(lambda lib: outcome(program, lib))


def test_catalogue_size():
    """The catalogue is a real one (200 cases or more), and 95% of it matches PyTorch."""
    assert len(CASES) >= 200
    assert set(DIFFS) <= set(CASES), set(DIFFS) - set(CASES)
    assert len(DIFFS) <= 0.05 * len(CASES), f"{len(DIFFS)} of {len(CASES)} cases differ"
