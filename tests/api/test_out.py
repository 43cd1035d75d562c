"""``out=``: a torch.* function's result written into a tensor given to it, against PyTorch
(recorded: tests/oracle.py). For every function of minigrad/_namespace.py's table that takes
``out=`` (those whose row has it), on the sample call of test_torch_namespace.py: the result in
an ``out`` of its shape (the very tensor returned), in one of another shape (resized, with
PyTorch's warning if it had elements), in one of no elements (no warning), in ``out``s of other
dtypes (cast, or PyTorch's error), and PyTorch's error when an input requires grad. Then the
creation functions' ``out=`` and the hand-written functions that take it.
"""
import pytest

import minigrad
from minigrad import _namespace
from oracle import ErrorRecord, assert_same, caught, error_of
from test_torch_namespace import NOT_IN_PYTORCH, arguments

OUT_ROWS = sorted(row.name for row in _namespace.ROWS if row.out and row.name not in NOT_IN_PYTORCH)

# PyTorch's kernels word the error for an ``out`` of the wrong dtype in many ways; minigrad has
# four (its table's marks): for these functions it raises PyTorch's error type, in another's words
# (``Found dtype Double but expected Float``, abs's, for quantile's "quantile() out tensor must be
# same dtype as the input tensor"), and the test compares the type only.
OWN_WORDS = {"addbmm", "all", "amax", "amin", "any", "cholesky", "cummax", "cummin", "dot", "frexp",
             "heaviside", "histc", "histogram", "index_select", "inner", "isneginf", "isposinf", "kthvalue", "ldexp",
             "logcumsumexp", "logsumexp", "masked_select", "median", "mv", "nan_to_num", "nanmean",
             "nanmedian", "nanquantile", "nansum", "narrow_copy", "quantile", "signbit", "svd", "vdot"}


def _like(lib, result, shape=None, dtype=None):
    """An out for ``result`` (a tensor or a tuple of them): of ``shape`` and ``dtype`` if given,
    else result's."""
    if isinstance(result, tuple):
        return tuple(_like(lib, r, shape, dtype if r.dtype.is_floating_point else None) for r in result)
    return lib.zeros(result.shape if shape is None else shape, dtype=dtype or result.dtype)


def _answer(f):
    try:
        result, warned = caught(f)
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return error_of(lambda: (_ for _ in ()).throw(e))
    return result, warned

# What else differs, answer by answer: not compared.
# - resized: PyTorch's kernels resize some outs before computing, with the warning for another
#   shape (addbmm, ger), or not at all and silently (svd's, mode's...);
# - cumprod computes in the dtype of ``out`` (an int64 out: products of the truncated numbers).
# - ger and index_reduce warn once a process (deprecated; in beta), at whichever call is first.
NOT_COMPARED = {"addbmm": {"resized"}, "narrow_copy": {"resized"}, "svd": {"resized"}, "mode": {"resized"},
                **dict.fromkeys(("ger", "index_reduce"), {"resized", "no elements", "torch.float64 out",
                                                          "torch.float32 out"}),
                "cumprod": {"torch.int64 out", "torch.int32 out", "torch.bool out"}, "ldexp": {"torch.float64 out"}}


@pytest.mark.parametrize("name", OUT_ROWS)
def test_out_of_a_table_function(oracle, name):
    def program(lib):
        f = getattr(lib, name)
        args, kwargs = arguments(lib, name)
        result = f(*args, **kwargs)
        out = _like(lib, result)
        answer = {"into out": f(*args, **kwargs, out=out),
                  "returns out": f(*args, **kwargs, out=out) is out if not isinstance(out, tuple) else
                  all(a is b for a, b in zip(f(*args, **kwargs, out=out), out)),
                  "resized": _answer(lambda: f(*args, **kwargs, out=_like(lib, result, (3,)))),
                  "no elements": _answer(lambda: f(*args, **kwargs, out=_like(lib, result, (0,))))}
        for dtype in (lib.float64, lib.float32, lib.int64, lib.int32, lib.bool):
            answer[f"{dtype} out"] = _answer(lambda: f(*args, **kwargs, out=_like(lib, result, dtype=dtype)))
        answer["out a list"] = error_of(lambda: f(*args, **kwargs, out=[1.0]))
        floats = [a for a in args if isinstance(a, lib.Tensor) and a.dtype.is_floating_point]
        if floats:
            floats[0].requires_grad_()
            answer["input requires grad"] = error_of(lambda: f(*args, **kwargs, out=_like(lib, result)))
            with lib.no_grad():
                answer["under no_grad"] = f(*args, **kwargs, out=_like(lib, result))
        return answer

    mine, theirs = oracle.both(program)
    mine, theirs = dict(mine), dict(theirs)
    for key in NOT_COMPARED.get(name, ()):
        del mine[key], theirs[key]
    if name in OWN_WORDS:
        for key in [k for k in theirs if k.endswith(" out") and isinstance(theirs[k], ErrorRecord)]:
            assert isinstance(mine[key], ErrorRecord), (key, mine[key])
            assert mine.pop(key).type == theirs.pop(key).type or name in ("nansum", "nanmean"), key
    if not theirs["out a list"].message.startswith(f"{name}(): argument 'out' must be Tensor"):
        # (where PyTorch has several signatures it lists them: "received an invalid combination")
        assert mine.pop("out a list").type == theirs.pop("out a list").type == "TypeError"
    assert_same(mine, theirs, rtol=1e-5, atol=1e-6)  # (float32 results in a float64 out)


def test_out_is_written_in_place(oracle):
    """``out`` keeps its identity and memory: a view given as ``out`` writes into its base, and
    the version counter moves."""
    def program(lib):
        base = lib.zeros(2, 3)
        row = base[1]
        version = base._version
        lib.mul(lib.tensor([1.0, 2.0, 3.0]), 2, out=row)
        lib.exp(lib.zeros(3), out=base[0])
        return {"base": base, "version moved": base._version > version,
                "matmul into a row": lib.matmul(lib.ones(3, 3), lib.arange(3.0), out=base[0]),
                "base after": base.clone()}

    oracle.same(program)
