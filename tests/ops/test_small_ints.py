"""uint8, int8 and int16 against PyTorch (answers recorded: tests/oracle.py).

Images come as uint8: ``np.array(PIL_image)``, MNIST's and CIFAR's arrays. These tests follow
uint8 (and int8, int16 beside it) from the array to the model: making tensors (sharing a NumPy
array's memory), converting both ways, printing, promotion with every dtype and with Python
numbers (a Python int wraps modulo 256 where NumPy would raise), arithmetic, comparisons,
reductions (sums are int64), indexing with a uint8 mask (PyTorch's old way, with its warning),
PyTorch's errors (overflow, requires_grad), and the ``img.float() / 255`` pipeline into a model.
"""
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import assert_same, caught, error_of
from test_gradcheck import PROFILE

import minigrad

SMALL = ["uint8", "int8", "int16"]


def answer(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, or the error it raises (both are answers to compare)."""
    out = []
    error = error_of(lambda: out.append(fn(*args, **kwargs)))
    return out[0] if out else error


# -- the dtypes themselves ------------------------------------------------------------------------

@pytest.mark.parametrize("name", SMALL)
def test_the_dtype(oracle, name):
    def program(lib):
        d = getattr(lib, name)
        info = lib.iinfo(d)
        return {"repr": repr(d), "str": str(d), "itemsize": d.itemsize, "float": d.is_floating_point,
                "signed": d.is_signed, "hasattr": hasattr(lib, name), "iinfo": repr(info),
                "limits": (info.min, info.max, info.bits, info.dtype),
                "finfo": answer(lib.finfo, d), "type()": lib.zeros(1, dtype=d).type()}
    oracle.same(program)


def test_aliases(oracle):
    oracle.same(lambda lib: {"short is int16": lib.short is lib.int16, "repr short": repr(lib.short),
                             "ByteTensor": repr(lib.ByteTensor([1, 255])), "CharTensor": repr(lib.CharTensor([-1])),
                             "ShortTensor": lib.ShortTensor(2, 1).shape,
                             "isinstance": isinstance(lib.tensor([1], dtype=lib.uint8), lib.ByteTensor),
                             "not a CharTensor": isinstance(lib.tensor([1], dtype=lib.uint8), lib.CharTensor)})


# -- making tensors ---------------------------------------------------------------------------------

CREATION = {
    "zeros": lambda T, d: T.zeros((2, 3), dtype=d),
    "ones": lambda T, d: T.ones(3, dtype=d),
    "empty": lambda T, d: T.empty(0, dtype=d),
    "full": lambda T, d: T.full((2,), 7, dtype=d),
    "full -1": lambda T, d: T.full((2,), -1, dtype=d),
    "full float": lambda T, d: T.full((2,), 2.7, dtype=d),
    "full 300": lambda T, d: answer(T.full, (2,), 300, dtype=d),
    "full 40000": lambda T, d: answer(T.full, (2,), 40000, dtype=d),
    "arange": lambda T, d: T.arange(5, dtype=d),
    "arange step": lambda T, d: T.arange(1, 10, 3, dtype=d),
    "tensor": lambda T, d: T.tensor([[1, 2], [3, 127]], dtype=d),
    "tensor -1": lambda T, d: T.tensor([-1, -100], dtype=d),
    "tensor -255": lambda T, d: answer(T.tensor, [-255], dtype=d),
    "tensor 300": lambda T, d: answer(T.tensor, [300], dtype=d),
    "tensor of floats": lambda T, d: T.tensor([1.7, 100.9], dtype=d),
    "tensor of -1.5": lambda T, d: answer(T.tensor, [-1.5], dtype=d),
    "tensor of 200.5": lambda T, d: answer(T.tensor, [200.5], dtype=d),
    "tensor 0-d": lambda T, d: T.tensor(5, dtype=d),
    "tensor empty": lambda T, d: T.tensor([], dtype=d),
    "randint dtype": lambda T, d: repr(T.randint(0, 5, (3,), dtype=d).dtype),
    "randint from -1": lambda T, d: answer(lambda: T.randint(-1, 3, (2,), dtype=d).shape),
    "randint to 256": lambda T, d: answer(lambda: T.randint(0, 256, (2,), dtype=d).shape),
    "randint to 257": lambda T, d: answer(lambda: T.randint(0, 257, (2,), dtype=d).shape),
    "randint to 40000": lambda T, d: answer(lambda: T.randint(0, 40000, (2,), dtype=d).shape),
    "randint from -129": lambda T, d: answer(lambda: T.randint(-129, 0, (2,), dtype=d).shape),
    "zeros_like": lambda T, d: T.zeros_like(T.ones(2), dtype=d),
    "ones_like": lambda T, d: T.ones_like(T.zeros(2, dtype=d)),
    "full_like": lambda T, d: T.full_like(T.zeros(2, dtype=d), 4),
    "full_like -1": lambda T, d: T.full_like(T.zeros(2, dtype=d), -1),
    "full_like 300": lambda T, d: answer(T.full_like, T.zeros(2, dtype=d), 300),
    "new_zeros": lambda T, d: T.zeros(2, dtype=d).new_zeros(3),
    "new_full": lambda T, d: T.zeros(2).new_full((2,), 3, dtype=d),
    "new_full 300": lambda T, d: answer(T.zeros(2, dtype=d).new_full, (2,), 300),
    "new_tensor": lambda T, d: T.zeros(2, dtype=d).new_tensor([5, 6]),
    "to": lambda T, d: T.tensor([1.9, -1.9, 3.0, 127.5]).to(d),
    "type(d)": lambda T, d: T.tensor([1.5]).type(d),
    "float back": lambda T, d: T.tensor([1, 2], dtype=d).float(),
    "double back": lambda T, d: T.tensor([1, 2], dtype=d).double(),
    "long back": lambda T, d: T.tensor([1, 2], dtype=d).long(),
    "int back": lambda T, d: T.tensor([1, 2], dtype=d).int(),
    "bool back": lambda T, d: T.tensor([0, 2], dtype=d).bool(),
    "from bool": lambda T, d: T.tensor([True, False]).to(d),
    "from int64 wraps": lambda T, d: T.tensor([255, 256, -1, 40000, -40000]).to(d),
    "from float wraps": lambda T, d: T.tensor([200.0, 255.9, 300.0]).to(d),
}


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("case", CREATION)
def test_creation(oracle, case, name):
    oracle.same(lambda lib: CREATION[case](lib, getattr(lib, name)))


METHODS = {"byte": "uint8", "char": "int8", "short": "int16"}
LEGACY = {"byte": "torch.ByteTensor", "char": "torch.CharTensor", "short": "torch.ShortTensor"}


@pytest.mark.parametrize("method", METHODS)
def test_conversion_methods(oracle, method):
    """``.byte()``, ``.char()``, ``.short()``: from floats they truncate, then wrap; the type's
    name in both spellings."""
    def program(lib):
        f = lib.tensor([[0.2, 1.7], [255.9, -1.0], [300.0, 127.0]])
        i = lib.tensor([1, 128, 255, 256, -129])
        return [getattr(f, method)(), getattr(i, method)(), getattr(lib.tensor([True]), method)(),
                f.type(getattr(lib, METHODS[method])), f.to(getattr(lib, METHODS[method])).type(),
                i.type(LEGACY[method]), getattr(lib, LEGACY[method][6:])([1.5, 2.0])]
    oracle.same(program)


@pytest.mark.parametrize("name", SMALL)
def test_numpy_both_ways_shares_memory(oracle, name):
    """``from_numpy``, ``as_tensor`` and ``asarray`` of such an array share its memory, as that
    dtype; ``numpy()`` gives it back; ``torch.tensor`` copies."""
    def program(lib):
        a = np.array([[1, 2], [3, 4]], getattr(np, name))
        t, s, r, c = lib.from_numpy(a), lib.as_tensor(a), lib.asarray(a), lib.tensor(a)
        a[0, 0] = 99
        back = t.numpy()
        return {"from_numpy": t, "as_tensor": s, "asarray": r, "tensor copies": c,
                "numpy dtype": back.dtype.name, "numpy shares": bool(np.shares_memory(back, a)),
                "as_tensor float": lib.as_tensor(a, dtype=lib.float32),
                "asarray no copy": answer(lib.asarray, a, copy=False),
                "asarray no copy as float": answer(lib.asarray, a, dtype=lib.float32, copy=False),
                "tolist": t.tolist(), "item": t[0, 1].item(), "item type": type(t[0, 1].item()).__name__,
                "element_size": t.element_size(), "is_floating_point": t.is_floating_point()}
    oracle.same(program)


def test_data_of_numpy_integers(oracle):
    """NumPy's small-integer scalars and arrays in a list promote as PyTorch promotes them."""
    def program(lib):
        return [lib.tensor(np.uint8(250)), lib.tensor([np.uint8(3), np.uint8(4)]), lib.tensor([np.uint8(3), 4]),
                lib.tensor([np.uint8(3), np.int8(-4)]), lib.tensor([np.int16(3), np.uint8(4)]),
                lib.tensor([[np.uint8(3)], [np.float32(2.5)]]), lib.tensor(np.array([1, 2], np.int8))]
    oracle.same(program)


def test_unsupported_array_is_refused():
    """NumPy dtypes PyTorch has but minigrad has not: from_numpy names minigrad's, in PyTorch's words."""
    for t in (np.uint16, np.uint32, np.uint64):  # (float16 minigrad has)
        with pytest.raises(TypeError, match=rf"^can't convert np.ndarray of type numpy.{t.__name__}. The only "
                                            r"supported types are: float64, float32, float16, int64, int32, int16, "
                                            r"int8, uint8, and bool.$"):
            minigrad.from_numpy(np.zeros(2, t))


def test_save_and_load_keep_the_dtype(oracle):
    def program(lib):
        buffer = io.BytesIO()
        lib.save({d: lib.tensor([1, 2], dtype=getattr(lib, d)) for d in SMALL}, buffer)
        buffer.seek(0)
        return lib.load(buffer)
    oracle.same(program)


# -- promotion: every dtype, as a tensor with dimensions, a 0-d tensor or a Python number ----------

DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float32", "float64", "bool"]
KINDS = ["dims", "0-d", "number"]
OPERATORS = {"+": lambda T, a, b: a + b, "-": lambda T, a, b: a - b, "*": lambda T, a, b: a * b,
             "/": lambda T, a, b: a / b, "//": lambda T, a, b: a // b, "%": lambda T, a, b: a % b,
             "**": lambda T, a, b: a ** b, "==": lambda T, a, b: a == b, "<": lambda T, a, b: a < b,
             "&": lambda T, a, b: a & b, "maximum": lambda T, a, b: T.maximum(a, b),
             "cat": lambda T, a, b: T.cat([a.reshape(-1), (b if isinstance(b, T.Tensor) else T.tensor(b)).reshape(-1)])}


def operand(lib, dtype, kind, seed):
    values = np.random.default_rng(seed).integers(-3, 4, size=(2, 3))
    if dtype == "bool":
        values = values > 0
    elif dtype == "uint8":
        values = values + 3
    t = lib.tensor(values / 2 if dtype.startswith("float") else values, dtype=getattr(lib, dtype))
    if kind == "dims":
        return t
    if kind == "0-d":
        return t[0, 0].clone()
    return t[0, 0].item()


def promotion_program(base, dtype, kind, op, swap, seed):
    def program(lib):
        a, b = operand(lib, base, "dims", seed), operand(lib, dtype, kind, seed + 1)
        x, y = (b, a) if swap else (a, b)
        return answer(OPERATORS[op], lib, x, y)
    return program


@settings(PROFILE, max_examples=80)
@given(base=st.sampled_from(SMALL), dtype=st.sampled_from(DTYPES), kind=st.sampled_from(KINDS),
       op=st.sampled_from(list(OPERATORS)), swap=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_promotion_matches_torch_hypothesis(torch, base, dtype, kind, op, swap, seed):
    program = promotion_program(base, dtype, kind, op, swap, seed)
    assert_same(program(minigrad), program(torch))


@pytest.mark.parametrize("base", SMALL)
@pytest.mark.parametrize("op", list(OPERATORS))
def test_promotion_seeded_cases(oracle, base, op):
    """The Hypothesis test's programs, recorded: every dtype and kind of operand, both ways."""
    oracle.same(lambda lib: [promotion_program(base, d, k, op, swap, 7)(lib)
                             for d in DTYPES for k in KINDS for swap in (False, True)])


def test_promotion_table(oracle):
    """The result dtype of each pair of dtypes (tensors with dimensions), as PyTorch's table."""
    def program(lib):
        return {f"{a} {b}": repr((lib.ones(1, dtype=getattr(lib, a)) + lib.ones(1, dtype=getattr(lib, b))).dtype)
                for a in DTYPES for b in DTYPES if a != "bool" or b != "bool"}
    oracle.same(program)


# -- arithmetic wraps around, as C's does ----------------------------------------------------------

def test_python_ints_wrap(oracle):
    """A Python int meets a uint8 tensor as a uint8: 300 is 44 and -1 is 255, in arithmetic and
    in comparisons (NumPy 2 raises OverflowError, or compares exactly)."""
    def program(lib):
        u = lib.tensor([1, 2, 250], dtype=lib.uint8)
        c = lib.tensor([1, -2, 100], dtype=lib.int8)
        return {"u + 10": u + 10, "u + 300": u + 300, "u - 5": u - 5, "u + -1": u + -1, "u * 2": u * 2,
                "u - u": u - u.flip(0), "-u": -u, "u / 2": u / 2, "u // 3": u // 3, "u % 7": u % 7,
                "u ** 2": u ** 2, "2 ** u": 2 ** u, "u & 3": u & 3, "~u": ~u, "u + 1.5": u + 1.5,
                "u + True": u + True, "u > -1": u > -1, "u == 256": u == 256, "u < 300": u < 300,
                "u + 2**63": u + 2 ** 63, "u + 2**64": answer(lambda: u + 2 ** 64),
                "u + -2**63-1": answer(lambda: u + (-2 ** 63 - 1)),
                "c * 2": c * 2, "c - 200": c - 200, "-c": -c, "c.abs()": c.abs(), "c // -1": c // -1,
                "c > -300": c > -300, "int16 + 40000": lib.zeros(2, dtype=lib.int16) + 40000,
                "u + np.uint8": u + np.uint8(10), "u + np.int64(300)": u + np.int64(300),
                "u.add(1, alpha=-1)": u.add(1, alpha=-1), "alpha 256": answer(u.add, 1, alpha=256),
                "u.sub(c)": u.sub(c), "u.div(2, floor)": u.div(2, rounding_mode="floor"),
                "u / 0": u / 0, "u // 0": answer(lambda: u // 0), "u % 0": answer(lambda: u % 0),
                "u.exp()": u.exp(), "u.sqrt()": u.sqrt(), "u.sign()": u.sign(), "u.abs()": u.abs()}
    oracle.same(program)


OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
       "//": lambda a, b: a // b, "%": lambda a, b: a % b}
values = st.lists(st.integers(0, 255), min_size=1, max_size=6)


def wrap_program(op, xs, ys, scalar):
    """uint8 ``xs op ys`` (a tensor) and ``xs op scalar`` (a Python int, any 64-bit value)."""
    def program(lib):
        x, y = (lib.tensor(v, dtype=lib.uint8) for v in (xs, ys))
        return [answer(OPS[op], x, y), answer(OPS[op], x, scalar), answer(OPS[op], scalar, x)]
    return program


def modular(op, xs, ys):
    """What uint8 arithmetic is: the integers' answer modulo 256 (floor division and remainder
    of the values, which are never negative)."""
    xs, ys = np.array(xs, np.int64), np.array(ys, np.int64) % 256
    return OPS[op](xs, ys) % 256


@settings(PROFILE, max_examples=100)
@given(op=st.sampled_from(list(OPS)), xs=values, y=st.integers(1, 255), scalar=st.integers(-2 ** 63, 2 ** 63 - 1))
def test_uint8_wraps_as_modular_arithmetic(op, xs, y, scalar):
    """Against the integers modulo 256 (no PyTorch needed): a tensor operand and a Python int."""
    x = minigrad.tensor(xs, dtype=minigrad.uint8)
    ys = [y] * len(xs)
    assert (OPS[op](x, minigrad.tensor(ys, dtype=minigrad.uint8)).numpy() == modular(op, xs, ys)).all()
    if op in ("//", "%") and scalar % 256 == 0:
        return  # (a division by 0: PyTorch's error, in the seeded cases)
    out = OPS[op](x, scalar)
    assert out.dtype is minigrad.uint8 and (out.numpy() == modular(op, xs, [scalar] * len(xs))).all()


@settings(PROFILE, max_examples=60)
@given(op=st.sampled_from(list(OPS)), data=st.data(), scalar=st.integers(-2 ** 63, 2 ** 64 - 1))
def test_uint8_wraps_as_torch_hypothesis(torch, op, data, scalar):
    xs = data.draw(values)
    ys = data.draw(st.lists(st.integers(0, 255), min_size=len(xs), max_size=len(xs)))
    program = wrap_program(op, xs, ys, scalar)
    assert_same(program(minigrad), program(torch))


@pytest.mark.parametrize("op", list(OPS))
def test_uint8_wraps_seeded_cases(oracle, op):
    rng = np.random.default_rng(3)
    xs, ys = rng.integers(0, 256, 8).tolist(), rng.integers(0, 256, 8).tolist()
    oracle.same(lambda lib: [wrap_program(op, xs, ys, s)(lib)
                             for s in (0, 1, 255, 256, 300, -1, -255, 2 ** 40 + 3, -2 ** 63, 2 ** 64 - 1)])


# -- reductions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SMALL)
def test_reductions(oracle, name):
    def program(lib):
        t = lib.tensor([[1, 2, 120], [7, 0, 120]], dtype=getattr(lib, name))
        return {"sum": t.sum(), "sum dim": t.sum(0), "sum keepdim": t.sum(1, keepdim=True),
                "sum dtype": t.sum(dtype=getattr(lib, name)), "sum dtype int16": t.sum(dtype=lib.int16),
                "prod": t.prod(), "prod dim": t.prod(1), "cumsum": t.cumsum(1), "cumprod": t.cumprod(1),
                "cumsum dtype": t.cumsum(1, dtype=getattr(lib, name)), "mean": answer(t.mean),
                "mean dtype": t.mean(dtype=lib.float32), "std": answer(t.std), "float mean": t.float().mean(),
                "max": t.max(), "min": t.min(), "max dim": tuple(t.max(1)), "argmax": t.argmax(),
                "argmin dim": t.argmin(0), "amax": t.amax(0), "sort": tuple(t.sort(1)),
                "topk": tuple(t.topk(2)), "median": t.median(), "unique": t.unique(),
                "count_nonzero": t.count_nonzero(), "trace": t.trace(), "any": t.any(), "all": t.all(),
                "bincount": t.reshape(-1).bincount() if name == "uint8" else None}
    oracle.same(program)


# -- gradients: only float tensors -----------------------------------------------------------------

@pytest.mark.parametrize("name", SMALL)
def test_requires_grad_is_refused(oracle, name):
    def program(lib):
        d = getattr(lib, name)
        return [answer(lib.tensor, [1, 2], dtype=d, requires_grad=True),
                answer(lib.zeros, 2, dtype=d, requires_grad=True),
                answer(lambda: lib.tensor([1, 2], dtype=d).requires_grad_()),
                answer(lambda: lib.nn.Parameter(lib.tensor([1], dtype=d)))]
    oracle.same(program)


def test_image_pipeline_into_a_model(oracle):
    """A uint8 image batch, scaled to [0, 1] and normalised, through a model: the loss's
    gradients reach the float parameters; the image itself has none. Then back to uint8."""
    def program(lib):
        lib.manual_seed(0)
        img = lib.from_numpy(np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4) * 10)
        x = (img.float() / 255 - 0.5) / 0.25
        model = lib.nn.Sequential(lib.nn.Flatten(), lib.nn.Linear(12, 3))
        with lib.no_grad():
            for p in model.parameters():
                p.copy_(lib.linspace(-0.5, 0.7, p.numel()).reshape(p.shape))
        labels = lib.tensor([2, 0], dtype=lib.uint8)
        loss = lib.nn.functional.cross_entropy(model(x), labels)
        loss.backward()
        back = (x * 0.25 + 0.5) * 255
        return {"x": x, "loss": loss, "grads": [p.grad for p in model.parameters()],
                "img grad": img.grad, "img requires_grad": img.requires_grad,
                "back": back.round().to(lib.uint8), "clamp byte": (back * 2).clamp(0, 255).byte(),
                "to uint8 truncates": (lib.tensor([0.2, 0.7, 1.0]) * 255).to(lib.uint8),
                "nll Byte": lib.nn.functional.nll_loss(lib.zeros(2, 3), labels),
                "one_hot": answer(lib.nn.functional.one_hot, labels)}
    oracle.same(program)


# -- indexing -------------------------------------------------------------------------------------

def test_uint8_tensor_as_index_is_a_mask(oracle):
    """PyTorch still reads a uint8 tensor in a key as a mask (as a bool one), and warns."""
    def program(lib):
        x = lib.arange(10).reshape(5, 2)
        m = lib.tensor([1, 0, 1, 0, 1], dtype=lib.uint8)
        return [caught(lambda: x[m]), caught(lambda: x[m, 1]), caught(lambda: x[lib.zeros(5, dtype=lib.uint8)]),
                caught(lambda: answer(lambda: x[lib.tensor([1, 0], dtype=lib.uint8)])),
                caught(lambda: x[lib.ones((5, 2), dtype=lib.uint8)]),
                answer(lambda: x[lib.tensor([0, 1], dtype=lib.int8)]),
                answer(lambda: x[lib.tensor([0, 1], dtype=lib.int16)])]
    oracle.same(program)


def test_setitem_with_a_uint8_mask(oracle):
    """``x[mask] = number`` is masked_fill_, which takes bool masks only; a tensor of values goes."""
    def program(lib):
        x = lib.arange(4.0)
        m = lib.tensor([1, 0, 0, 1], dtype=lib.uint8)
        errors = [answer(x.__setitem__, m, 7.0), answer(x.__setitem__, m, lib.tensor(5.0))]
        _, warned = caught(x.__setitem__, m, lib.tensor([1.0, 2.0]))
        return errors, warned, x
    oracle.same(program)


def test_indexing_a_uint8_tensor(oracle):
    def program(lib):
        u = lib.tensor([[1, 2, 3], [250, 251, 252]], dtype=lib.uint8)
        v = u.clone()
        v[0] = 255
        v[1, 1:] = lib.tensor([7, 8], dtype=lib.uint8)
        v[1, 0] = -1  # (255)
        v[0, 0] = 2.7
        errors = [answer(v.__setitem__, 0, 300), answer(v.__setitem__, (1, 1), -1.5)]
        return [u[1], u[:, 1], u[1, 2], u[u > 2], u[[1, 0]], u[lib.tensor([1])], u.T, u.reshape(6), u.flip(1),
                u.unsqueeze(0).expand(2, 2, 3), lib.stack([u[0], u[1]]), v, errors, answer(lambda: u.view(-1, 2))]
    oracle.same(program)


# -- numbers that do not fit: PyTorch's errors -----------------------------------------------------

FITS = {
    "fill_ -1": lambda T, t: t.fill_(-1),
    "fill_ 300": lambda T, t: t.fill_(300),
    "fill_ 2.5": lambda T, t: t.fill_(2.5),
    "fill_ -255.5": lambda T, t: t.fill_(-255.5),
    "fill_ 128": lambda T, t: t.fill_(128),
    "masked_fill -3": lambda T, t: t.masked_fill(t > 1, -3),
    "masked_fill 1000.5": lambda T, t: t.masked_fill(t > 1, 1000.5),
    "masked_fill 40000": lambda T, t: t.masked_fill(t > 1, 40000),
    "where -1": lambda T, t: T.where(t > 1, t, -1),
    "where 300": lambda T, t: T.where(t > 1, t, 300),
    "where 2.5": lambda T, t: T.where(t > 1, t, 2.5),
    "clamp min -1": lambda T, t: t.clamp(min=-1),
    "clamp max 300": lambda T, t: t.clamp(max=300),
    "clamp 0 3": lambda T, t: t.clamp(0, 3),
    "clamp min 0.5": lambda T, t: t.clamp(min=0.5),
    "clamp max tensor": lambda T, t: t.clamp(max=T.tensor(50, dtype=t.dtype)),
    "clamp min tensor": lambda T, t: t.clamp(min=T.tensor([3, 1, 5], dtype=t.dtype)),
    "clamp_ min 1.5": lambda T, t: t.clamp_(min=1.5),
    "mul_ 1.5": lambda T, t: t.mul_(1.5),
    "add_ 300": lambda T, t: t.add_(300),
    "iadd float": lambda T, t: t.__iadd__(0.5),
    "add_ int64 tensor": lambda T, t: t.add_(T.tensor([1, 2, 3])),
    "div_": lambda T, t: t.div_(2),
    "fill_ 2**40": lambda T, t: t.fill_(2 ** 40),
    "fill_ 2**63": lambda T, t: t.fill_(2 ** 63),
    "masked_fill 2**40": lambda T, t: t.masked_fill(t > 1, 2 ** 40),
    "where 2**40": lambda T, t: T.where(t > 1, t, 2 ** 40),
    "clamp max 2**40": lambda T, t: t.clamp(max=2 ** 40),
    "setitem 2**40": lambda T, t: t.__setitem__(0, 2 ** 40),
}


@pytest.mark.parametrize("name", SMALL + ["int32", "int64"])
@pytest.mark.parametrize("case", FITS)
def test_numbers_that_do_not_fit(oracle, case, name):
    def program(lib):
        t = lib.tensor([1, 2, 100], dtype=getattr(lib, name))
        return answer(FITS[case], lib, t), t
    oracle.same(program)
