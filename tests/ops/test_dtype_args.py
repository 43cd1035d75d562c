"""``dtype=`` given as a Python type, or as something that is no dtype, against PyTorch.

PyTorch's argument parser reads ``float``, ``int`` and ``bool`` as torch.float64, torch.int64
and torch.bool wherever a dtype goes (``torch.zeros(3, dtype=float)``, ``x.to(int)``), and
refuses anything else (a string, a NumPy type) with a TypeError naming the function. Each
entry point below is a program ``make(T, d)`` run for every argument (PyTorch's answers
recorded: tests/oracle.py). ``complex`` and the dtypes minigrad leaves out (``torch.float16``)
are refusals, tested on minigrad alone at the end.
"""
import re
import warnings

import numpy as np
import pytest

import minigrad
from oracle import ErrorRecord

PYTHON_TYPES = {"float": float, "int": int, "bool": bool}
# A string, NumPy's type and dtype, a number, a class: PyTorch's TypeError for each
NOT_DTYPES = {"str": "float32", "np_type": np.float32, "np_dtype": np.dtype("float32"), "number": 3,
              "class": list}
# to(x) by position reads a string or a number as a device, so only the others are dtypes there
NOT_DTYPES_TO = {k: v for k, v in NOT_DTYPES.items() if k in ("np_type", "np_dtype", "class")}


def diff(reason):
    return pytest.mark.xfail(strict=True, reason="DIFF: " + reason)


def outcome(make, T, d):
    """What ``make(T, d)`` gives: its result, or the error it raised."""
    try:
        return make(T, d)
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return ErrorRecord(type(e).__name__, str(e))


def each(make, args):
    return lambda T: {name: outcome(make, T, d) for name, d in args.items()}


def x(T):
    return T.tensor([1.5, -2.0, 0.0])


def lazy_linear(T, d):
    with warnings.catch_warnings():  # PyTorch's "Lazy modules are a new feature..."
        warnings.simplefilter("ignore")
        return dtype_of(T.nn.LazyLinear(2, dtype=d).weight)


def dtype_of(t):
    return str(t.dtype)  # of random or uninitialised numbers: their values differ between libraries


# Entry points whose bad dtype gets "f(): argument 'dtype' must be torch.dtype, not str".
ONE_SIGNATURE = {
    "zeros": lambda T, d: T.zeros(2, dtype=d),
    "ones": lambda T, d: T.ones(2, dtype=d),
    "empty": lambda T, d: dtype_of(T.empty(2, dtype=d)),
    "full": lambda T, d: T.full((2,), 1, dtype=d),
    "tensor": lambda T, d: T.tensor([1.5, -2.0, 0.0], dtype=d),
    "zeros_like": lambda T, d: T.zeros_like(x(T), dtype=d),
    "ones_like": lambda T, d: T.ones_like(x(T), dtype=d),
    "full_like": lambda T, d: T.full_like(x(T), 3, dtype=d),
    "empty_like": lambda T, d: dtype_of(T.empty_like(x(T), dtype=d)),
    "new_zeros": lambda T, d: x(T).new_zeros(2, dtype=d),
    "new_ones": lambda T, d: x(T).new_ones(2, dtype=d),
    "new_full": lambda T, d: x(T).new_full((2,), 2, dtype=d),
    "new_empty": lambda T, d: dtype_of(x(T).new_empty(2, dtype=d)),
    "new_tensor": lambda T, d: x(T).new_tensor([2.5, 0.0], dtype=d),
    "sum_dim": lambda T, d: x(T).sum(0, dtype=d),
    "cumsum": lambda T, d: x(T).cumsum(0, dtype=d),
    "torch.cumsum": lambda T, d: T.cumsum(x(T), 0, dtype=d),
    "cumprod": lambda T, d: x(T).cumprod(0, dtype=d),
    "softmax": lambda T, d: x(T).softmax(0, dtype=d),
    "torch.softmax": lambda T, d: T.softmax(x(T), 0, dtype=d),
    "F.softmax": lambda T, d: T.nn.functional.softmax(x(T), 0, dtype=d),
    "log_softmax": lambda T, d: x(T).log_softmax(0, dtype=d),
    "F.log_softmax": lambda T, d: T.nn.functional.log_softmax(x(T), 0, dtype=d),
    "norm": lambda T, d: x(T).norm(dtype=d),
    "nn.Linear": lambda T, d: dtype_of(T.nn.Linear(2, 3, dtype=d).weight),
    "nn.Conv2d": lambda T, d: dtype_of(T.nn.Conv2d(1, 2, 3, dtype=d).weight),
    "nn.LazyLinear": lazy_linear,
    "nn.Embedding": lambda T, d: dtype_of(T.nn.Embedding(4, 2, dtype=d).weight),
    "nn.LayerNorm": lambda T, d: T.nn.LayerNorm(2, dtype=d).weight.detach(),
    "nn.BatchNorm1d": lambda T, d: T.nn.BatchNorm1d(2, dtype=d).running_var,
}

# Entry points PyTorch overloads: a bad dtype gets "f() received an invalid combination of
# arguments - got (...), but expected one of: <its signatures>" (see test_overloaded_exact_text).
OVERLOADED = {
    "arange": lambda T, d: T.arange(3, dtype=d),
    "linspace": lambda T, d: T.linspace(0, 1, 3, dtype=d),
    "logspace": lambda T, d: T.logspace(0, 1, 3, dtype=d),
    "eye": lambda T, d: T.eye(2, dtype=d),
    "randn": lambda T, d: dtype_of(T.randn(2, dtype=d)),
    "rand": lambda T, d: dtype_of(T.rand(2, dtype=d)),
    "randint": lambda T, d: dtype_of(T.randint(0, 3, (2,), dtype=d)),
    "randperm": lambda T, d: dtype_of(T.randperm(3, dtype=d)),
    "normal": lambda T, d: dtype_of(T.normal(0.0, 1.0, (2,), dtype=d)),
    "randn_like": lambda T, d: dtype_of(T.randn_like(x(T), dtype=d)),
    "rand_like": lambda T, d: dtype_of(T.rand_like(x(T), dtype=d)),
    "sum": lambda T, d: x(T).sum(dtype=d),
    "torch.sum": lambda T, d: T.sum(x(T), dtype=d),
    "mean": lambda T, d: x(T).mean(dtype=d),
    "torch.mean": lambda T, d: T.mean(x(T), dtype=d),
    "prod": lambda T, d: x(T).prod(dtype=d),
    "to(dtype=)": lambda T, d: x(T).to(dtype=d),
    "Module.to(dtype=)": lambda T, d: dtype_of(T.nn.Linear(2, 2).to(dtype=d).weight),
}

# Entry points that take the dtype by position, next to a device.
BY_POSITION = {
    "to": lambda T, d: x(T).to(d),
    "to(device, dtype)": lambda T, d: x(T).to("cpu", d),
    "Module.to": lambda T, d: dtype_of(T.nn.Linear(2, 2).to(d).weight),
    "Module.to(device, dtype)": lambda T, d: dtype_of(T.nn.Linear(2, 2).to("cpu", d).weight),
}

ALL = {**ONE_SIGNATURE, **OVERLOADED, **BY_POSITION}

# PyTorch sums (and multiplies) into a bool when asked; minigrad counts in int64 (its Sum op
# promotes bools), and randint draws into a bool where PyTorch refuses.
BOOL_DIFFS = {
    "sum_dim": "sum(dtype=torch.bool) is a bool tensor in PyTorch; minigrad's is int64",
    "sum": "sum(dtype=torch.bool) is a bool tensor in PyTorch; minigrad's is int64",
    "torch.sum": "sum(dtype=torch.bool) is a bool tensor in PyTorch; minigrad's is int64",
    "prod": "prod(dtype=torch.bool) is a bool tensor in PyTorch; minigrad's is int64",
    "randint": "randint(0, 3, dtype=torch.bool): PyTorch's RuntimeError 'to - 1 is out of bounds "
               "for bool'; minigrad draws the bools",
}


def params(table, diffs=None):
    diffs = diffs or {}
    return [pytest.param(make, id=name, marks=[diff(diffs[name])] if name in diffs else [])
            for name, make in table.items()]


@pytest.mark.parametrize("make", params(ALL))
@pytest.mark.parametrize("kind", ["float", "int"])
def test_python_type(oracle, make, kind):
    """float is float64, int is int64, wherever PyTorch takes a dtype (or the error PyTorch
    raises for that dtype: randn of int64, a Linear layer of integers...)."""
    oracle.same(each(make, {kind: PYTHON_TYPES[kind]}))


@pytest.mark.parametrize("make", params(ALL, BOOL_DIFFS))
def test_python_bool(oracle, make):
    oracle.same(each(make, {"bool": bool}))


GRAPHS = {
    "to": lambda T, x: x.to(float),
    "softmax": lambda T, x: x.softmax(0, dtype=float),
    "F.log_softmax": lambda T, x: T.nn.functional.log_softmax(x, 0, dtype=float),
    "sum": lambda T, x: x.sum(dtype=float),
    "cumsum": lambda T, x: x.cumsum(0, dtype=float),
    "mean": lambda T, x: x.mean(dtype=float),
}
ONE_NODE = "PyTorch's sum, cumsum and mean convert inside their kernel: one node (SumBackward0); " \
           "minigrad converts first, so ToCopyBackward0 stands between it and the leaf (as with " \
           "dtype=torch.float64)"


@pytest.mark.parametrize("make", params(GRAPHS, dict.fromkeys(["sum", "cumsum", "mean"], ONE_NODE)))
def test_python_type_keeps_the_graph(oracle, make):
    """A conversion by dtype=float is recorded as PyTorch records it, and backward goes through."""
    def program(T):
        x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
        out = make(T, x)
        (out * T.arange(1.0, out.numel() + 1).reshape(out.shape)).sum().backward()
        return out, x.grad
    oracle.same(program)


@pytest.mark.parametrize("make", params(ONE_SIGNATURE))
def test_not_a_dtype(oracle, make):
    """A string, a NumPy type or dtype, a number: PyTorch's TypeError, word for word."""
    oracle.same(each(make, NOT_DTYPES))


def error_kind(make):
    """The error's type and the function it names (the rest of an overloaded function's text
    lists its signatures, which minigrad does not)."""
    def program(T):
        answer = {}
        for name, d in (NOT_DTYPES_TO if make in BY_POSITION.values() else NOT_DTYPES).items():
            got = outcome(make, T, d)
            answer[name] = (got.type, re.match(r"[\w.]+\(\)", got.message).group()) \
                if isinstance(got, ErrorRecord) else got
        return answer
    return program


@pytest.mark.parametrize("make", params({**OVERLOADED, **BY_POSITION}))
def test_not_a_dtype_overloaded(oracle, make):
    oracle.same(error_kind(make))


@diff("an overloaded function's TypeError lists its signatures in PyTorch; minigrad says "
      "\"arange(): argument 'dtype' must be torch.dtype, not str\"")
def test_overloaded_exact_text(oracle):
    oracle.same(each(OVERLOADED["arange"], {"str": "float32"}))


TYPE_ARGS = {**PYTHON_TYPES, "complex": complex, **NOT_DTYPES, "NoneType": type(None),
             "tensor_type": "torch.DoubleTensor"}


def test_tensor_type(oracle):
    """x.type(float) is no conversion: PyTorch's ValueError (type() takes old tensor types)."""
    oracle.same(each(lambda T, d: x(T).type(d), TYPE_ARGS))


def test_set_default_dtype(oracle):
    """set_default_dtype takes torch.float32 or torch.float64 only, not even float."""
    def program(T):
        try:
            return each(lambda T, d: T.set_default_dtype(d), {**PYTHON_TYPES, **NOT_DTYPES,
                                                               "int64": T.int64})(T)
        finally:
            T.set_default_dtype(T.float32)
    oracle.same(program)


def test_pytorch_dtype_names(oracle):
    """The dtypes torch.* has: minigrad's eight (and their aliases) and those it names as missing."""
    theirs = oracle(lambda T: sorted(n for n in dir(T) if isinstance(getattr(T, n), T.dtype)))
    ours = {n for n in dir(minigrad) if isinstance(getattr(minigrad, n), minigrad.dtype)}
    assert sorted(ours | set(minigrad._dtype._MISSING)) == theirs


# -- minigrad's refusals ------------------------------------------------------------------------

COMPLEX = {
    "zeros": lambda T: T.zeros(2, dtype=complex),
    "tensor": lambda T: T.tensor([1.0], dtype=complex),
    "to": lambda T: T.ones(2).to(complex),
    "sum": lambda T: T.ones(2).sum(dtype=complex),
    "nn.Linear": lambda T: T.nn.Linear(2, 2, dtype=complex),
}


@pytest.mark.parametrize("make", COMPLEX.values(), ids=COMPLEX)
def test_complex_is_refused(make):
    with pytest.raises(NotImplementedError, match=r"^minigrad does not support complex numbers "
                                                  r"\(dtype=complex, PyTorch's complex128\): its dtypes "
                                                  r"are float32, float64, int64, int32, int16, int8, "
                                                  r"uint8 and bool"):
        make(minigrad)


@pytest.mark.parametrize("name, instead", [("uint16", "use torch.int64"), ("uint32", "use torch.int64"),
                                           ("float16", "use torch.float32"), ("half", "use torch.float32"),
                                           ("bfloat16", "use torch.float32"),
                                           ("complex64", "minigrad has no complex numbers"),
                                           ("cdouble", "minigrad has no complex numbers")])
def test_missing_dtype_says_what_to_use(name, instead):
    with pytest.raises(AttributeError) as e:
        getattr(minigrad, name)
    assert str(e.value) == (f"minigrad has eight dtypes (float32, float64, int64, int32, int16, int8, uint8, "
                            f"bool): torch.{name} is not one of them; {instead}")
    assert not hasattr(minigrad, name) and getattr(minigrad, name, None) is None


def test_torch_int_is_int32_as_in_pytorch():
    assert minigrad.int is minigrad.int32 and repr(minigrad.int) == "torch.int32"
    # other names keep Python's error
    with pytest.raises(AttributeError, match=r"^module 'minigrad' has no attribute 'int33'$"):
        minigrad.int33  # noqa: B018
    with pytest.raises(ImportError):
        from minigrad import uint16  # noqa: F401
