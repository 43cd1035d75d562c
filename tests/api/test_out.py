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

# (nonzero's sample is as_tuple=True, which takes no out: its out= is with the hand-written ones below)
OUT_ROWS = sorted(row.name for row in _namespace.ROWS if row.out and row.name not in NOT_IN_PYTORCH | {"nonzero"})

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


# -- the hand-written functions' out= -----------------------------------------------------------------
HAND_WRITTEN = {
    "cat": lambda lib, x, y, out: lib.cat([x, y], 1, out=out),
    "concat": lambda lib, x, y, out: lib.concat([x, y], out=out),
    "concatenate": lambda lib, x, y, out: lib.concatenate([x, y], axis=1, out=out),
    "stack": lambda lib, x, y, out: lib.stack([x, y], out=out),
    "hstack": lambda lib, x, y, out: lib.hstack([x, y], out=out),
    "vstack": lambda lib, x, y, out: lib.vstack([x, y], out=out),
    "dstack": lambda lib, x, y, out: lib.dstack([x, y], out=out),
    "column_stack": lambda lib, x, y, out: lib.column_stack([x, y], out=out),
    "where": lambda lib, x, y, out: lib.where(x > 0, x, y, out=out),
    "eq": lambda lib, x, y, out: lib.eq(x, y, out=out),
    "gt": lambda lib, x, y, out: lib.gt(x, 0.5, out=out),
    "greater_equal": lambda lib, x, y, out: lib.greater_equal(x, y, out=out),
    "pow": lambda lib, x, y, out: lib.pow(x, 2, out=out),
    "remainder": lambda lib, x, y, out: lib.remainder(x, 0.75, out=out),
    "floor_divide": lambda lib, x, y, out: lib.floor_divide(x, y, out=out),
    "true_divide": lambda lib, x, y, out: lib.true_divide(x, y, out=out),
    "xlogy": lambda lib, x, y, out: lib.xlogy(x, y.abs(), out=out),
    "copysign": lambda lib, x, y, out: lib.copysign(x, y, out=out),
    "float_power": lambda lib, x, y, out: lib.float_power(x, 2, out=out),
    "polygamma": lambda lib, x, y, out: lib.polygamma(1, y.abs() + 1, out=out),
    "bitwise_and": lambda lib, x, y, out: lib.bitwise_and(x > 0, y > 0, out=out),
    "bucketize": lambda lib, x, y, out: lib.bucketize(x, lib.tensor([0.0, 1.0]), out=out),
    "matrix_power": lambda lib, x, y, out: lib.matrix_power(x, 2, out=out),
    "tensordot": lambda lib, x, y, out: lib.tensordot(x, y, 1, out=out),
    "chain_matmul": lambda lib, x, y, out: lib.chain_matmul(x, y, x, out=out),
    "nonzero": lambda lib, x, y, out: lib.nonzero(x > 0, out=out),
}


@pytest.mark.parametrize("name", HAND_WRITTEN)
def test_out_of_a_hand_written_function(oracle, name):
    def program(lib):
        call = HAND_WRITTEN[name]
        x, y = lib.tensor([[0.5, -1.5], [2.0, 0.25]]), lib.tensor([[1.0, 2.0], [-3.0, 0.5]])
        result = call(lib, x, y, None)
        out = _like(lib, result)
        answer = {"into out": call(lib, x, y, out),
                  "resized": _answer(lambda: call(lib, x, y, _like(lib, result, (3,)))),
                  "no elements": _answer(lambda: call(lib, x, y, _like(lib, result, (0,))))}
        x.requires_grad_()
        answer["input requires grad"] = error_of(lambda: call(lib, x, y, _like(lib, result)))
        for key in ("resized", "no elements"):  # (chain_matmul's deprecation: once a process)
            if isinstance(answer[key], tuple):
                answer[key] = (answer[key][0], [w for w in answer[key][1] if "chain_matmul" not in w[1]])
        return answer

    oracle.same(program, rtol=1e-5, atol=1e-6)
