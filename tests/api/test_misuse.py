"""The misuse catalogue against PyTorch: what learners do wrong, and what they are told.

Each case of tests/misuse_cases.py runs under PyTorch (its answer recorded: tests/oracle.py)
and under minigrad; the two must raise the same exception with the same message, or give
the same result, with the same warnings. Where minigrad knowingly still differs, the case
is marked ``xfail(strict=True, reason="DIFF: ...")`` below (DIFFS).
"""
import pytest

from misuse_cases import CASES, outcome

# Cases where minigrad still differs from PyTorch, and how.
_DEVICE = ("by design, minigrad's message starts with PyTorch's words, then says why: 'minigrad computes "
           "on the CPU, with NumPy...' (tests/ops/test_ops_vs_torch.py::test_accelerators_are_refused_clearly)")
_HOOK = "a hook's result is checked for its size and dtype, not its type (PyTorch raises for a non-tensor)"
DIFFS = {
    "np_0d_array_times_tensor": "a NumPy array operand is taken as a tensor; PyTorch leaves the "
                                "product to NumPy, which asks the tensor for numpy()",
    "hook_returns_wrong_type": _HOOK,
    "cuda_method": _DEVICE,
    "to_cuda": _DEVICE,
    "to_cuda_device": _DEVICE,
    "ones_on_cuda": _DEVICE,
    "tensor_on_cuda": _DEVICE,
    "module_cuda": _DEVICE,
    "module_to_cuda": _DEVICE,
    "index_str": "x['a']: PyTorch warns about a non-tuple sequence and raises TypeError \"new(): invalid "
                 "data type 'str'\"; minigrad raises the IndexError of other invalid indices",
    "index_two_ellipsis": "x[..., 0, ...]: PyTorch indexes as if there were one ellipsis; minigrad "
                          "raises TypeError",
    "var_correction_too_big": "var(correction=n): PyTorch's gradient is +inf everywhere, minigrad's "
                              "(x - mean) * inf, -inf below the mean",
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
