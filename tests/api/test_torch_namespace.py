"""The ``torch.*`` functions made from minigrad/_namespace.py's table, and the namespace's export
list: each row's function is its Tensor method (the same answer), takes PyTorch's argument
names as keywords, and refuses a non-tensor with PyTorch's TypeError (recorded: tests/oracle.py);
each is named and documented as a function of ``torch``; and the export list is the table's
names and the hand-written files' ``__all__``, each name once.
"""
import inspect
import types

import numpy as np
import pytest

import minigrad
from minigrad import _namespace
from oracle import ErrorRecord, assert_same, error_of, record

ROWS = {row.name: row for row in _namespace.ROWS}

# The arguments of one call of each row's function (a Python argument list: the first is the
# tensor whose method is called), on these tensors:
#   x  2x2 float        pos  2x2, > 0        p  2x2 in (0, 1)       v  a float vector
#   i  2x2 int64        b  2x2 bool          m  2x2x2 float          ix 2x2 indices in [0, 2)
#   spd  a 2x2 symmetric positive definite matrix       w  2x3 float
SAMPLES = {
    "exp": "x", "exp2": "x", "expm1": "x", "log": "pos", "log2": "pos", "log10": "pos", "log1p": "pos",
    "sqrt": "pos", "rsqrt": "pos", "square": "x", "sin": "x", "cos": "x", "tan": "x", "asin": "p", "acos": "p",
    "atan": "x", "arcsin": "p", "arccos": "p", "arctan": "x", "sinh": "x", "cosh": "x", "tanh": "x",
    "sigmoid": "x", "relu": "x", "abs": "x", "absolute": "x", "sign": "x", "neg": "x", "negative": "x",
    "positive": "x", "reciprocal": "pos", "floor": "x", "ceil": "x", "trunc": "x", "fix": "x",
    "round": "x, decimals=1", "frac": "x", "nan_to_num": "x, 0.0, 1.0, -1.0", "isnan": "x", "isinf": "x",
    "isfinite": "x", "clamp": "x, -1.0, 1.0", "clip": "x, -1.0, 1.0", "clamp_min": "x, 0.3", "clamp_max": "x, 0.3",
    "add": "x, pos, alpha=2", "sub": "x, pos, alpha=2", "subtract": "x, pos, alpha=2", "mul": "x, pos",
    "multiply": "x, pos", "div": "x, pos, rounding_mode='floor'", "divide": "x, pos, rounding_mode='trunc'",
    "fmod": "x, pos", "atan2": "x, pos", "arctan2": "x, pos", "maximum": "x, pos", "minimum": "x, pos",
    "fmax": "x, pos", "fmin": "x, pos", "lerp": "x, pos, 0.25", "logaddexp": "x, pos",
    "asinh": "x", "acosh": "pos + 1", "atanh": "p", "arcsinh": "x", "arccosh": "pos + 1", "arctanh": "p",
    "deg2rad": "x", "rad2deg": "x", "logit": "p, 0.2", "sinc": "x", "erf": "x", "erfc": "x", "erfinv": "p",
    "lgamma": "pos", "digamma": "pos", "i0": "x", "sgn": "x", "signbit": "x", "isposinf": "x", "isneginf": "x",
    "isreal": "x", "frexp": "x", "logaddexp2": "x, pos", "hypot": "x, pos", "nextafter": "x, pos",
    "ldexp": "x, i", "heaviside": "x, pos", "gcd": "i, i + 2", "lcm": "i, i + 2",
    "logical_and": "x, b", "logical_or": "x, b", "logical_xor": "x, b", "logical_not": "x", "bitwise_not": "i",
    "equal": "x, pos", "allclose": "x, x + 1e-9, 1e-5, 1e-8, True", "isclose": "x, pos, 0.5, 0.1, False",
    "matmul": "x, pos", "mm": "x, pos", "mv": "x, v", "bmm": "m, m", "dot": "v, v", "outer": "v, v",
    "ger": "v, v", "inner": "x, pos", "kron": "x, pos", "vdot": "v, v", "cross": "w, w.flip(1), 1",
    "addmm": "x, x, pos, beta=2, alpha=0.5", "addmv": "v, x, v, beta=2, alpha=0.5",
    "addr": "x, v, v, beta=2, alpha=0.5", "baddbmm": "m, m, m, beta=2, alpha=0.5",
    "addbmm": "x, m, m, beta=2, alpha=0.5", "addcmul": "x, pos, p, value=2", "addcdiv": "x, pos, p, value=2",
    "tril": "x, -1", "triu": "x, 1", "diag": "x, 1", "diagonal": "m, 0, 1, 2", "trace": "x",
    "logdet": "spd", "slogdet": "spd", "inverse": "spd", "pinverse": "x, 1e-10", "cholesky": "spd, True",
    "qr": "spd, False", "svd": "spd, True, False",
    "sum": "x, dim=1, keepdim=True", "mean": "x, dim=0", "nansum": "x, dim=1", "nanmean": "x, dim=1",
    "prod": "x, dim=1", "var": "x, dim=1", "std": "x, dim=0", "norm": "x, p=1", "max": "x, dim=1",
    "min": "x, dim=0", "median": "x, dim=1", "nanmedian": "x, dim=0", "argmax": "x, dim=1", "argmin": "x, dim=1",
    "amax": "x, dim=1", "amin": "x, dim=0", "all": "b, dim=1", "any": "b, dim=0", "sort": "x, dim=0",
    "argsort": "x, dim=1", "topk": "v, 1", "cumsum": "x, 1, dtype=minigrad.float64", "cumprod": "x, 0",
    "count_nonzero": "b, 1", "logsumexp": "x, 1, True", "softmax": "x, 1, minigrad.float64",
    "log_softmax": "x, 0", "cummax": "x, 1", "cummin": "x, 0", "logcumsumexp": "x, 1",
    "kthvalue": "x, 1, 0, True", "mode": "i, 1", "aminmax": "x, dim=1", "quantile": "x, 0.25, 1",
    "nanquantile": "x, 0.5, 0, True, interpolation='nearest'", "msort": "x", "cov": "x, correction=0",
    "corrcoef": "x", "renorm": "x, 1, 0, 1.0", "histc": "x, 4, -2, 2", "histogram": "x, 3, range=(-2.0, 2.0)", "unique_consecutive": "i, True, True",
    "diff": "x, 1, 0",
    "reshape": "x, (4,)", "flatten": "m, 1", "ravel": "x", "unflatten": "v, 0, (2, 1)", "transpose": "m, 0, 2",
    "swapaxes": "m, 0, 1", "swapdims": "m, 1, 2", "permute": "m, (2, 0, 1)", "movedim": "m, 0, 2",
    "moveaxis": "m, 2, 0", "t": "x", "unsqueeze": "x, 1", "squeeze": "m[:1], 0", "broadcast_to": "v, (3, 2)",
    "tile": "v, (2,)", "flip": "x, (0,)", "roll": "x, 1, 0", "chunk": "x, 2, 1", "split": "x, 1, 1",
    "narrow": "x, 1, 1, 1", "unbind": "x, 1",
    "gather": "x, 1, ix", "take_along_dim": "x, ix, 1", "scatter": "x, 1, ix, pos", "scatter_add": "x, 0, ix, pos",
    "index_select": "x, 0, 2 - v.long()", "index_add": "x, 0, v.long() - 1, pos, alpha=2",
    "index_fill": "x, 1, v.long() - 1, -1.0", "index_copy": "x, 0, 2 - v.long(), pos",
    "index_put": "x, (v.long() - 1,), v, True", "masked_fill": "x, b, 0.0", "masked_select": "x, b",
    "nonzero": "b, as_tuple=True", "argwhere": "b",
    "clone": "x", "detach": "x", "numel": "m", "is_floating_point": "i", "is_same_size": "x, pos",
    "rot90": "x, 1, (0, 1)", "fliplr": "x", "flipud": "x", "tensor_split": "x, 2, 1", "hsplit": "x, 2",
    "vsplit": "x, 2", "dsplit": "m, 2", "split_with_sizes": "x, (1, 1), 1", "unsafe_chunk": "x, 2, 0",
    "unsafe_split_with_sizes": "x, (1, 1)", "select": "m, 1, 0", "narrow_copy": "x, 0, 1, 1",
    "diag_embed": "x, 1, 0, 2", "diagflat": "v, -1", "as_strided": "x, (2,), (1,), 1",
    "scatter_reduce": "x, 1, ix, pos, 'amax', include_self=False", "index_reduce": "x, 0, 2 - v.long(), pos, 'prod'",
    "masked_scatter": "x, b, pos", "select_scatter": "x, v, 0, 1", "slice_scatter": "x, pos[:, :1], 1, 1, 2",
    "diagonal_scatter": "x, v, 0", "put": "x, v.long(), v, True",
}
# the in-place functions (torch.sin_(x)): on the same samples as their out-of-place ones
SAMPLES.update({f"{name}_": SAMPLES[name] for name in (
    "abs acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan atanh ceil cos cosh deg2rad detach erf "
    "erfc exp exp2 expm1 fix floor frac i0 log log10 log1p log2 neg negative rad2deg reciprocal relu rsqrt sigmoid "
    "sin sinc sinh sqrt square tan tanh trunc clamp clip clamp_min clamp_max round nan_to_num logit addmv gcd lcm "
    "ldexp").split()})
SAMPLES.update({"zero_": "x", "xlogy_": "x, pos", "fill_": "x, 2.5", "index_put_": "x, (v.long() - 1,), v, True",
                "resize_as_": "x, v", "addmv_": "v * 1, x, v, beta=2, alpha=0.5"})  # (not v: it is read too)
NOT_IN_PYTORCH = {"sum_to_size"}  # (minigrad's extra: PyTorch has only the method x.sum_to_size)
SAMPLES["sum_to_size"] = "x, 1, 2"


def tensors(lib):
    """The tensors SAMPLES' argument lists are written with (each call gets fresh ones)."""
    x = lib.tensor([[0.5, -1.5], [2.0, 0.25]])
    return {"x": x, "pos": x.abs() + 0.5, "p": lib.tensor([[0.1, 0.5], [0.7, 0.9]]), "v": lib.tensor([1.0, 2.0]),
            "i": lib.tensor([[1, 2], [3, 4]]), "b": lib.tensor([[True, False], [False, True]]),
            "m": lib.arange(8.0).reshape(2, 2, 2), "ix": lib.tensor([[0, 1], [1, 1]]),
            "spd": lib.tensor([[2.0, 0.5], [0.5, 1.0]]), "w": lib.tensor([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]]),
            "minigrad": lib}


def arguments(lib, name):
    """(args, kwargs) of the sample call of ``name``."""
    return eval(f"(lambda *args, **kwargs: (args, kwargs))({SAMPLES[name]})", tensors(lib))  # noqa: S307


def keywords(name, args, kwargs):
    """The same call with every argument named (PyTorch's names: the table's)."""
    row = ROWS[name]
    names = [a.arg for a in row.args.posonlyargs + row.args.args]
    assert len(args) <= len(names) or row.args.vararg, f"{name}: more arguments than parameters"
    if len(args) > len(names):  # (*args rows: only the tensor by name, the rest as they are)
        return args, kwargs
    return (), {**dict(zip(names, args)), **kwargs}


def test_every_row_has_a_sample_call():
    assert sorted(SAMPLES) == sorted(ROWS)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_function_is_its_tensor_method(name):
    args, kwargs = arguments(minigrad, name)
    got = getattr(minigrad, name)(*args, **kwargs)
    args, kwargs = arguments(minigrad, name)
    expected = getattr(args[0], ROWS[name].method)(*args[1:], **kwargs)
    assert_same(record(got), record(expected))


# Where PyTorch has several signatures that take as many arguments as the sample call, its parser
# answers a non-tensor with the list of them ("received an invalid combination of arguments -
# got (float, int), but expected one of: ..."); minigrad names the argument, as PyTorch does
# where one signature fits: "argument 'input' (position 1) must be Tensor, not float".
SIGNATURE_LISTS = {"addmm", "all", "any", "argsort", "baddbmm", "clamp", "clamp_max", "clamp_min", "clip",
                   "count_nonzero", "dsplit", "fmod", "hsplit", "index_fill", "lerp", "masked_fill", "max", "mean",
                   "min", "moveaxis", "movedim", "nanquantile", "narrow", "prod", "quantile", "round", "scatter",
                   "sort", "squeeze", "std", "tensor_split", "var", "vsplit",
                   "clamp_", "clamp_max_", "clamp_min_", "clip_", "fill_", "xlogy_", "histogram"}
# torch.norm is Python in PyTorch: a number fails at its first attribute (x.layout, not x.norm).
OTHER_ATTRIBUTE = {"norm"}
# PyTorch's hsplit takes ``sections=`` or ``indices=`` by name, not the documented ``indices_or_sections=``
# (minigrad's): here only by position.
POSITIONAL = {"hsplit", "vsplit", "dsplit", "tensor_split"}


@pytest.mark.parametrize("name", sorted(set(ROWS) - NOT_IN_PYTORCH))
def test_function_against_pytorch(oracle, name):
    """The sample call, the same call with every argument named, and the first argument not
    a tensor (then each other argument PyTorch wants as a tensor)."""
    row = ROWS[name]

    def program(lib):
        f = getattr(lib, name)
        args, kwargs = arguments(lib, name)
        answer = {"call": f(*args, **kwargs), "a number": error_of(lambda: f(2.0, *args[1:], **kwargs))}
        if name not in POSITIONAL:
            named_args, named = keywords(name, *arguments(lib, name))
            answer["by name"] = f(*named_args, **named)
        for arg, position in row.tensors[1:]:
            wrong = list(args)
            wrong[position - 1] = [1.0]
            answer[f"{arg} a list"] = error_of(lambda: f(*wrong, **kwargs))
        return answer

    mine, theirs = oracle.both(program)
    mine, theirs = dict(mine), dict(theirs)
    if name in OTHER_ATTRIBUTE:
        assert (mine.pop("a number").message, theirs.pop("a number").message) == (
            f"'float' object has no attribute '{name}'", "'float' object has no attribute 'layout'")
    if name in SIGNATURE_LISTS:  # (the other answers, exactly)
        for key in [key for key in theirs if key == "a number" or key.endswith(" a list")]:
            mine_error, their_error = mine.pop(key), theirs.pop(key)
            got = "float" if key == "a number" else "Tensor"
            assert their_error.type == mine_error.type == "TypeError"
            assert their_error.message.startswith(f"{name}() received an invalid combination of arguments - got "
                                                  f"({got}, "), their_error
            arg, position = row.tensors[0] if key == "a number" else next(
                (arg, i) for arg, i in row.tensors if key == f"{arg} a list")
            kind = "float" if key == "a number" else "list"
            assert mine_error.message == f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {kind}"
    assert_same(mine, theirs)


def _answer(f):
    """``f()``, or the exception it raises (as error_of records it)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return ErrorRecord(type(e).__name__, str(e))


def test_pytorchs_words_for_the_usual_mistakes(oracle):
    """A non-tensor, in PyTorch's words; a number where PyTorch takes one (torch.add(2, x)); and
    Python's own errors for a wrong number or name of arguments, which are PyTorch's words."""
    def program(lib):
        x, i = lib.tensor([1.0, 2.0]), lib.tensor([1, 2])
        calls = {"torch.exp(2.0)": lambda: lib.exp(2.0), "torch.erf(2.0)": lambda: lib.erf(2.0),
                 "torch.sum(2.0)": lambda: lib.sum(2.0), "torch.exp(x, 1)": lambda: lib.exp(x, 1),
                 "torch.exp(x, foo=1)": lambda: lib.exp(x, foo=1),
                 "torch.exp(x, input=x)": lambda: lib.exp(x, input=x),
                 "torch.abs(None)": lambda: lib.abs(None), "torch.sin(True)": lambda: lib.sin(True),
                 "torch.reshape([1.0], (1,))": lambda: lib.reshape([1.0], (1,)),
                 "torch.hypot(x, 2)": lambda: lib.hypot(x, 2),
                 "torch.exp(np.ones(2))": lambda: lib.exp(np.ones(2)),
                 "torch.exp(np.float32(1))": lambda: lib.exp(np.float32(1)),
                 "torch.sum(np.ones(2))": lambda: lib.sum(np.ones(2)),
                 "torch.add(2, 3)": lambda: lib.add(2, 3), "torch.mul(2.5, i)": lambda: lib.mul(2.5, i),
                 "torch.sub(True, i)": lambda: lib.sub(True, i), "torch.add([1], x)": lambda: lib.add([1], x)}
        return {call: _answer(f) for call, f in calls.items()}

    oracle.same(program)


# -- what the made functions look like --------------------------------------------------------------
@pytest.mark.parametrize("name", ["exp", "clamp", "sum", "addmm", "swapaxes"])
def test_made_function_is_named_and_documented_as_torchs(name):
    f, row = getattr(minigrad, name), ROWS[name]
    assert isinstance(f, types.FunctionType)
    assert (f.__name__, f.__qualname__, f.__module__) == (name, name, "minigrad")
    assert f.__doc__.startswith(f"{name}({row.params})\n")
    assert f"``{row.call()}``" in f.__doc__
    assert str(inspect.signature(f)) == f"({row.params})"


def test_table_row_reads_as_the_function_it_makes():
    row = ROWS["addmm"]
    assert row.params == "input, mat1, mat2, *, beta=1, alpha=1, out=None"
    assert row.call() == "input.addmm(mat1, mat2, beta=beta, alpha=alpha)"
    assert row.out == "exact" and ROWS["exp"].out == "cast" and ROWS["reshape"].out is None
    assert row.tensors == [("input", 1), ("mat1", 2), ("mat2", 3)]
    assert ROWS["add"].tensors == []  # (input: Number: not checked)
    assert ROWS["arcsin"].method == "asin"


def test_made_function_shows_its_line_in_a_traceback():
    import traceback
    try:
        minigrad.exp(2.0)
    except TypeError as e:
        text = "".join(traceback.format_exception(e))
    assert "return not_tensors(exp, (input,), {'out': out}, ('input', 1, input))" in text


def test_a_stand_in_for_tensors_gets_the_call_through_torch_function():
    """PyTorch's protocol: an argument that is not a tensor but has ``__torch_function__`` is
    handed the call (fusion.py's traced values are such stand-ins)."""
    class StandIn:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return func, types, args, kwargs

    s = StandIn()
    assert minigrad.clamp(s, max=1.0) == (minigrad.clamp, (StandIn,), (s, None, 1.0), {})
    assert minigrad.cumsum(s, 0, dtype=minigrad.float64) == (minigrad.cumsum, (StandIn,), (s, 0),
                                                              {"dtype": minigrad.float64})
    x = minigrad.ones(2)
    assert minigrad.hypot(x, s)[2] == (x, s)


# -- the export list ----------------------------------------------------------------------------------
def test_export_list_is_the_table_and_each_hand_written_files_all():
    names = _namespace.__all__
    assert len(names) == len(set(names)), sorted(n for n in set(names) if names.count(n) > 1)
    namespace = {}
    exec("from minigrad import *", namespace)  # noqa: S102
    for name in names:
        assert namespace[name] is getattr(_namespace, name) is getattr(minigrad, name), name


@pytest.mark.parametrize("module", _namespace.HAND_WRITTEN, ids=lambda m: m.__name__)
def test_each_function_written_in_a_functions_file_is_exported(module):
    """A function written in a _functions*.py file and missing from its ``__all__`` would not be
    a torch.* function."""
    written = {name for name, value in vars(module).items()
               if isinstance(value, types.FunctionType) and value.__module__ == module.__name__
               and not name.startswith("_")}
    assert written <= set(module.__all__), sorted(written - set(module.__all__))
