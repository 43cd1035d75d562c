"""int32, minigrad's fifth dtype, against PyTorch (answers recorded: tests/oracle.py).

Karpathy's makemore counts bigrams in ``torch.zeros((27, 27), dtype=torch.int32)``; these
tests follow int32 wherever it meets the rest: making tensors, promotion with the other
dtypes and with Python numbers, in-place ops that keep it (or refuse), reductions (sums
and products of int32 are int64), int32 indices, overflow (int32 wraps), and the errors.
The makemore program itself is a transfer program (tests/transfer/makemore.py).
"""
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import assert_same, error_of
from test_gradcheck import PROFILE

import minigrad


def i32(lib, data):
    return lib.tensor(data, dtype=lib.int32)


# -- the dtype itself and making tensors ---------------------------------------------------------

def test_the_dtype(oracle):
    def program(lib):
        d = lib.int32
        return {"repr": repr(d), "str": str(d), "int is int32": lib.int is d, "float": d.is_floating_point,
                "itemsize": d.itemsize, "hasattr": hasattr(lib, "int32"),
                "to(int)": repr(lib.ones(2).to(int).dtype)}  # Python's int stays int64
    oracle.same(program)


CREATION = {
    "zeros": lambda T: T.zeros((2, 3), dtype=T.int32),
    "ones": lambda T: T.ones(3, dtype=T.int32),
    "full": lambda T: T.full((2,), 7, dtype=T.int32),
    "full float value": lambda T: T.full((2,), 2.7, dtype=T.int32),
    "arange": lambda T: T.arange(5, dtype=T.int32),
    "arange step": lambda T: T.arange(1, 10, 3, dtype=T.int32),
    "tensor": lambda T: T.tensor([[1, -2], [3, 4]], dtype=T.int32),
    "tensor of floats": lambda T: T.tensor([1.7, -2.7], dtype=T.int32),
    "tensor 0-d": lambda T: T.tensor(5, dtype=T.int32),
    "tensor empty": lambda T: T.tensor([], dtype=T.int32),
    "randint dtype": lambda T: repr(T.randint(0, 5, (3,), dtype=T.int32).dtype),
    "zeros_like": lambda T: T.zeros_like(T.ones(2), dtype=T.int32),
    "ones_like of int32": lambda T: T.ones_like(T.zeros(2, dtype=T.int32)),
    "full_like of int32": lambda T: T.full_like(T.zeros(2, dtype=T.int32), 4),
    "new_zeros": lambda T: T.zeros(2, dtype=T.int32).new_zeros(3),
    "new_ones": lambda T: T.zeros(2, dtype=T.int32).new_ones(2),
    "new_full": lambda T: T.zeros(2).new_full((2,), 3, dtype=T.int32),
    "new_tensor": lambda T: T.zeros(2, dtype=T.int32).new_tensor([5, 6]),
    "tensor of np.int32": lambda T: T.tensor(np.array([1, 2], np.int32)),
    "from_numpy of np.int32": lambda T: T.from_numpy(np.array([[1], [2]], np.int32)),
    "to(int32)": lambda T: T.tensor([1.9, -1.9, 3.0]).to(T.int32),
    ".int()": lambda T: T.tensor([[1.5], [2.5]]).int(),
    ".int() of int64": lambda T: T.tensor([1, 2]).int(),
    ".int() of bool": lambda T: T.tensor([True, False]).int(),
    "type(int32)": lambda T: T.tensor([1.5]).type(T.int32),
    "type('torch.IntTensor')": lambda T: T.tensor([1.5]).type("torch.IntTensor"),
    "type()": lambda T: i32(T, [1]).type(),
    "long() back": lambda T: i32(T, [1, 2]).long(),
    "float() back": lambda T: i32(T, [1, 2]).float(),
    "double() back": lambda T: i32(T, [1, 2]).double(),
}


@pytest.mark.parametrize("make", CREATION.values(), ids=CREATION)
def test_creation(oracle, make):
    oracle.same(make)


def test_from_numpy_shares_memory(oracle):
    def program(lib):
        a = np.array([1, 2], np.int32)
        t = lib.from_numpy(a)
        a[0] = 9
        return t, t.numpy().dtype.name
    oracle.same(program)


def test_conversions_out(oracle):
    def program(lib):
        t = i32(lib, [[1, -2], [3, 4]])
        return {"tolist": t.tolist(), "item": t[1, 0].item(), "item type": type(t[0, 0].item()).__name__,
                "numpy": t.numpy(), "numpy dtype": t.numpy().dtype.name, "repr": repr(t), "str": str(t),
                "element_size": t.element_size(), "is_floating_point": t.is_floating_point()}
    oracle.same(program)


def test_save_and_load_keep_int32(oracle):
    def program(lib):
        buffer = io.BytesIO()
        lib.save({"N": i32(lib, [[1, 2], [3, 4]])}, buffer)
        buffer.seek(0)
        return lib.load(buffer)["N"]
    oracle.same(program)


# -- promotion ------------------------------------------------------------------------------------

OTHERS = {
    "int32 tensor": lambda T: i32(T, [10, 20]),
    "int64 tensor": lambda T: T.tensor([10, 20]),
    "int64 0-d": lambda T: T.tensor(10),
    "int32 0-d": lambda T: T.tensor(10, dtype=T.int32),
    "float32 tensor": lambda T: T.tensor([0.5, 1.5]),
    "float64 0-d": lambda T: T.tensor(0.5, dtype=T.float64),
    "float64 tensor": lambda T: T.tensor([0.5, 1.5], dtype=T.float64),
    "bool tensor": lambda T: T.tensor([True, False]),
    "bool 0-d": lambda T: T.tensor(True),
    "python int": lambda T: 3,
    "python float": lambda T: 2.5,
    "python bool": lambda T: True,
}


@pytest.mark.parametrize("other", OTHERS.values(), ids=OTHERS)
def test_promotion(oracle, other):
    """int32 with each kind of operand, both ways round: the result's dtype and values."""
    def program(lib):
        a = i32(lib, [1, 2])
        b = other(lib)
        return [a + b, b * a, a - b if not isinstance(b, bool) and not (hasattr(b, "dtype") and
                                                                      b.dtype is lib.bool) else None]
    oracle.same(program)


def test_int32_0d_against_dimensioned(oracle):
    """A 0-d int32 tensor does not lift an int64 or bool tensor of dimensions, but an integer
    0-d tensor does lift a bool tensor of dimensions."""
    def program(lib):
        s = lib.tensor(5, dtype=lib.int32)
        return [s + lib.tensor([1, 2]), lib.tensor([True, False]) + s, s + lib.tensor(1),
                lib.tensor([1, 2], dtype=lib.int32) + lib.tensor(5)]
    oracle.same(program)


def test_torch_functions_promote(oracle):
    def program(lib):
        a = i32(lib, [1, 5, 3])
        return [lib.where(a > 2, a, 0), lib.cat([a, lib.tensor([2])]), lib.stack([a, a]),
                lib.maximum(a, lib.tensor([2, 2, 2])), lib.maximum(a, a), a.clamp(2, 4), lib.add(a, 2)]
    oracle.same(program)


# Every dtype against int32, as a tensor with dimensions, a 0-d tensor or a Python number,
# under every binary operator: the result (dtype, values) or the error.
DTYPES = ["int32", "int64", "float32", "float64", "bool"]
KINDS = ["dims", "0-d", "number"]
OPERATORS = {"+": lambda T, a, b: a + b, "-": lambda T, a, b: a - b, "*": lambda T, a, b: a * b,
             "/": lambda T, a, b: a / b, "//": lambda T, a, b: a // b, "%": lambda T, a, b: a % b,
             "**": lambda T, a, b: a ** b, "==": lambda T, a, b: a == b, "<": lambda T, a, b: a < b,
             "&": lambda T, a, b: a & b, "maximum": lambda T, a, b: T.maximum(a, b)}


def operand(lib, dtype, kind, seed):
    values = np.random.default_rng(seed).integers(-3, 4, size=(2, 3))
    if dtype == "bool":
        values = values > 0
    t = lib.tensor(values / 2 if dtype.startswith("float") else values, dtype=getattr(lib, dtype))
    if kind == "dims":
        return t
    if kind == "0-d":
        return t[0, 0].clone()
    return t[0, 0].item()


def promotion_program(dtype, kind, op, swap, seed):
    def program(lib):
        a, b = operand(lib, "int32", "dims", seed), operand(lib, dtype, kind, seed + 1)
        x, y = (b, a) if swap else (a, b)
        out = []
        error = error_of(lambda: out.append(OPERATORS[op](lib, x, y)))
        return out[0] if out else error
    return program


@settings(PROFILE, max_examples=60)
@given(dtype=st.sampled_from(DTYPES), kind=st.sampled_from(KINDS), op=st.sampled_from(list(OPERATORS)),
       swap=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_promotion_matches_torch_hypothesis(torch, dtype, kind, op, swap, seed):
    program = promotion_program(dtype, kind, op, swap, seed)
    assert_same(program(minigrad), program(torch))


@pytest.mark.parametrize("op", list(OPERATORS))
def test_promotion_seeded_cases(oracle, op):
    """The Hypothesis test's programs, recorded: every dtype and kind of operand, both ways."""
    oracle.same(lambda lib: [promotion_program(d, k, op, swap, 7)(lib)
                             for d in DTYPES for k in KINDS for swap in (False, True)])


# -- in place -------------------------------------------------------------------------------------

def test_count_matrix_in_place(oracle):
    """makemore's ``N[ix1, ix2] += 1``: the counts stay int32."""
    def program(lib):
        N = lib.zeros((3, 3), dtype=lib.int32)
        for a, b in [(0, 1), (1, 2), (0, 1), (2, 0)]:
            N[a, b] += 1
        N[0] += lib.tensor([1, 1, 1])  # an int64 tensor added in place: cast back to int32
        N.add_(2)
        N.mul_(lib.tensor(3))
        N[1, 1] = 7
        return N
    oracle.same(program)


IN_PLACE_REFUSED = {
    "+= float": lambda T: i32(T, [1, 2]).__iadd__(1.5),
    "add_ float tensor": lambda T: i32(T, [1, 2]).add_(T.tensor([0.5, 0.5])),
    "true division in place": lambda T: i32(T, [1, 2]).div_(2),
    "/= in a row": lambda T: i32(T, [[1, 2]])[0].__itruediv__(2),
}


@pytest.mark.parametrize("fn", IN_PLACE_REFUSED.values(), ids=IN_PLACE_REFUSED)
def test_in_place_refused(oracle, fn):
    oracle.same_error(fn)


# -- arithmetic, comparisons, matmul ------------------------------------------------------------

def test_arithmetic(oracle):
    def program(lib):
        a, b = i32(lib, [7, -7, 6]), i32(lib, [2, 3, -4])
        return {"/": a / 2, "/ tensor": a / b, "//": a // 2, "// tensor": a // b, "%": a % 3,
                "% tensor": a % b,
                "**": a ** 2, "** float": b.abs() ** 0.5, "neg": -a, "abs": a.abs(), "==": a == b,
                "== int64": a == lib.tensor([7, 0, 6]), "<": a < 0, "exp": a.exp(), "sign": a.sign(),
                "float()": (a + 1).float(), "&": a & 3, "~": ~a}
    oracle.same(program)


def test_matmul(oracle):
    def program(lib):
        m = i32(lib, [[1, 2], [3, 4]])
        v = i32(lib, [5, 6])
        return [m @ m, m @ v, v @ v, v @ m, lib.mm(m, m), m.t() @ m]
    oracle.same(program)


MIXED_MATMUL = {
    "int32 @ float32": lambda T: T.ones(2, 2, dtype=T.int32) @ T.ones(2, 2),
    "int32 @ int64": lambda T: T.ones(2, 2, dtype=T.int32) @ T.ones(2, 2, dtype=T.int64),
    "float32 @ int32": lambda T: T.ones(2, 2) @ T.ones(2, 2, dtype=T.int32),
}


@pytest.mark.parametrize("fn", MIXED_MATMUL.values(), ids=MIXED_MATMUL)
def test_mixed_matmul_refused(oracle, fn):
    oracle.same_error(fn)


REQUIRES_GRAD = {
    "tensor": lambda T: T.tensor([1, 2], dtype=T.int32, requires_grad=True),
    "requires_grad_": lambda T: i32(T, [1, 2]).requires_grad_(),
    "zeros": lambda T: T.zeros(2, dtype=T.int32, requires_grad=True),
}


@pytest.mark.parametrize("fn", REQUIRES_GRAD.values(), ids=REQUIRES_GRAD)
def test_requires_grad_refused(oracle, fn):
    oracle.same_error(fn)


# -- reductions -----------------------------------------------------------------------------------

def test_reductions(oracle):
    """Sums and products of int32 are int64 (as of bools), max/min/sort keep int32."""
    def program(lib):
        a = i32(lib, [[3, 1, 2], [4, 6, 5]])
        return {"sum": a.sum(), "sum(1)": a.sum(1, keepdim=True), "sum(1, keepdims)": a.sum(1, keepdims=True),
                "sum(dtype=int32)": a.sum(dtype=lib.int32), "sum(dtype=int64)": a.sum(dtype=lib.int64),
                "sum of float as int32": lib.tensor([1.5, 2.5]).sum(dtype=lib.int32),
                "bool sum as int32": lib.tensor([True, True]).sum(dtype=lib.int32),
                "prod": a.prod(), "prod(0)": a.prod(0), "prod(dtype=int32)": a.prod(0, dtype=lib.int32),
                "cumsum": a.cumsum(1), "cumsum(dtype=int32)": a.cumsum(1, dtype=lib.int32),
                "cumprod": a.cumprod(0), "max": a.max(), "min": a.min(), "max(1)": tuple(a.max(1)),
                "min(0)": tuple(a.min(0)), "amax": a.amax(0), "amin": a.amin(1), "argmax": a.argmax(),
                "argmax(1)": a.argmax(1), "sort": tuple(a.sort(1)), "topk": tuple(a.topk(2)),
                "float().mean()": a.float().mean(), "count_nonzero": lib.count_nonzero(a - 3),
                "bincount": i32(lib, [1, 1, 3]).bincount(), "torch.sum": lib.sum(a, 0)}
    oracle.same(program)


def test_mean_refused(oracle):
    oracle.same_error(lambda T: i32(T, [1, 2]).mean())


def test_row_normalisation(oracle):
    """``P = (N + 1).float(); P /= P.sum(1, keepdims=True)``, makemore's probabilities."""
    def program(lib):
        N = i32(lib, [[0, 3, 1], [2, 0, 0], [5, 5, 5]])
        P = (N + 1).float()
        P /= P.sum(1, keepdims=True)
        return P, P.sum(1)
    oracle.same(program)


# -- int32 indices ---------------------------------------------------------------------------------

def test_int32_indices(oracle):
    def program(lib):
        x = lib.arange(12.0).reshape(3, 4).requires_grad_()
        i, j = i32(lib, [2, 0]), i32(lib, [1, 3])
        picked = x[i, j]
        rows = x[i]
        picked.sum().backward()
        return {"x[i, j]": picked, "x[i]": rows, "index_select": x.index_select(1, j),
                "gather": x.gather(1, i32(lib, [[0], [1], [3]])), "grad": x.grad,
                "embedding": lib.nn.functional.embedding(i, lib.ones(3, 2))}
    oracle.same(program)


def test_int32_target_refused_by_cross_entropy(oracle):
    oracle.same_error(lambda T: T.nn.functional.cross_entropy(T.zeros(2, 3), i32(T, [0, 1])))


def test_one_hot_refuses_int32(oracle):
    oracle.same_error(lambda T: T.nn.functional.one_hot(i32(T, [0, 1])))


# -- overflow ---------------------------------------------------------------------------------------

def test_overflow_wraps(oracle):
    def program(lib):
        top = lib.tensor([2 ** 31 - 1], dtype=lib.int32)
        return {"+ 1": top + 1, "* 2": top * 2, "- (-1)": lib.tensor([-2 ** 31], dtype=lib.int32) - 1,
                "+ 2**40": i32(lib, [1, 2]) + 2 ** 40, "* 2**31": i32(lib, [1, 2]) * 2 ** 31,
                "int64 data cast": lib.tensor(np.array([2 ** 40 + 3])).int(),
                "array data": lib.tensor(np.array([2 ** 32 + 1]), dtype=lib.int32),
                "sum does not wrap": lib.tensor([2 ** 31 - 1, 1], dtype=lib.int32).sum()}
    oracle.same(program)


OVERFLOW_REFUSED = {
    "tensor(2**40)": lambda T: T.tensor(2 ** 40, dtype=T.int32),
    "tensor([2**31])": lambda T: T.tensor([1, 2 ** 31], dtype=T.int32),
    "tensor([1e10])": lambda T: T.tensor([1e10], dtype=T.int32),
    "full": lambda T: T.full((2,), 2 ** 40, dtype=T.int32),
    "full nan": lambda T: T.full((1,), float("nan"), dtype=T.int32),
    "tensor nan": lambda T: T.tensor([float("nan")], dtype=T.int32),
    "tensor inf": lambda T: T.tensor([1.0, float("inf")], dtype=T.int32),
    "just above the largest": lambda T: T.tensor(2.0 ** 31 - 0.5, dtype=T.int32),
    "just below the smallest": lambda T: T.tensor([-2.0 ** 31 - 0.5], dtype=T.int32),
    "int64 nan": lambda T: T.tensor([float("nan")], dtype=T.int64),
    "int64 1e19": lambda T: T.tensor([1e19], dtype=T.int64),
}


@pytest.mark.parametrize("fn", OVERFLOW_REFUSED.values(), ids=OVERFLOW_REFUSED)
def test_overflow_refused(oracle, fn):
    oracle.same_error(fn)


def test_the_smallest_int32_is_accepted(oracle):
    oracle.same(lambda T: [T.tensor([-2 ** 31, 2 ** 31 - 1], dtype=T.int32),
                           T.tensor([-2.0 ** 31, 2.0 ** 31 - 1, 1.5], dtype=T.int32),
                           T.tensor([[1.5, -2.5]], dtype=T.int64)])


def test_minigrad_names_int32_among_its_dtypes():
    assert "int32" not in minigrad._dtype._MISSING and "int" not in minigrad._dtype._MISSING
    with pytest.raises(TypeError, match=r"float64, float32, int64, int32, int16, int8, uint8 and bool"):
        minigrad.tensor(np.array([1 + 2j]))


def test_number_to_integer_powers(oracle):
    """``2 ** int_tensor``: negative powers of integers are 0 (or ±1), as PyTorch computes them,
    and the base is cast to the tensor's dtype (so it wraps in int32)."""
    def program(lib):
        out = []
        for d in (lib.int64, lib.int32):
            e = lib.tensor([-2, -1, 0, 1, 3], dtype=d)
            out += [2 ** e, (-1) ** e, 0 ** e.abs(), 2 ** lib.tensor(3, dtype=d), 2 ** 40 ** e.abs()[:2]]
        return out
    oracle.same(program)


def test_bitwise_promotes_as_pytorch(oracle):
    """``&``, ``|``, ``^`` promote by PyTorch's rules; a float operand's error names the
    common dtype."""
    def program(lib):
        a, m = i32(lib, [6, 3, -1]), lib.tensor([True, False, True])
        return [a & lib.tensor(3), m & a, m | a, m ^ a, a ^ 5, m & lib.tensor([1, 2, 3]), m | True,
                error_of(lambda: a & lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64)),
                error_of(lambda: lib.ones(2) | lib.ones(2, dtype=lib.float64)), error_of(lambda: a ^ 2.5)]
    oracle.same(program)


def test_maximum_takes_tensors(oracle):
    oracle.same(lambda T: [error_of(lambda: T.maximum(2, i32(T, [1]))),
                           error_of(lambda: T.minimum(2.5, i32(T, [1])))])
