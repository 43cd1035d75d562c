"""minigrad against PyTorch (PyTorch's answers recorded: tests/oracle.py): the comparison
machinery, and what is not one op: creating tensors, their attributes, graphs of several ops,
autograd's flags, errors and warnings. The ops themselves are compared in test_ops_vs_torch.py,
from the op table (tests/op_db.py).

Every case runs the same computation in both libraries from the same NumPy
inputs and compares what a learner can see: forward values, dtype, shape,
``repr``, the ``grad_fn`` node name and the shape of the graph behind it
(``next_functions``, recursively), and the gradients that reach the inputs.

Where minigrad is known to differ from PyTorch the test stays as it should be
and is marked ``xfail(strict=True, reason="DIFF: ...")``: the suite stays green,
and fixing minigrad turns the xfail into an XPASS failure, so the mark must go.
"""

import numpy as np
import pytest

from oracle import assert_same_tensor, caught, raised

F32, F64 = np.float32, np.float64
FLOATS = pytest.mark.parametrize("fdt", [F32, F64], ids=["f32", "f64"])


def diff(reason):
    return pytest.mark.xfail(strict=True, reason="DIFF: " + reason)


def _params(table, diffs):
    """pytest params from {id: value}, marked xfail where ``diffs`` names a difference."""
    return [pytest.param(fn, id=name, marks=[diff(diffs[name])] if name in diffs else [])
            for name, fn in table.items()]


# ---------------------------------------------------------------------------------------------
# The comparison machinery
# ---------------------------------------------------------------------------------------------


def _np(t):
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def make_inputs(lib, arrays, flags):
    return [lib.tensor(a.copy(), requires_grad=f) for a, f in zip(arrays, flags)]


def gen(rng, shape, kind, fdt):
    """NumPy input data. kinds: f (normal, no ties, no zeros), pos (in [0.5, 2)),
    int (int64 in [-3, 4)), nint (positive int64), bool."""
    if kind == "f":
        a = rng.standard_normal(shape)
        a = np.where(np.abs(a) < 0.05, 0.3, a)
        return a.astype(fdt)
    if kind == "pos":
        return rng.uniform(0.5, 2.0, shape).astype(fdt)
    if kind == "int":
        return rng.integers(-3, 4, shape).astype(np.int64)
    if kind == "nint":
        return rng.integers(1, 4, shape).astype(np.int64)
    if kind == "cls":
        return rng.integers(0, 3, shape).astype(np.int64)
    if kind == "bool":
        return rng.random(shape) < 0.5
    raise ValueError(kind)


def compare(oracle, fn, arrays, flags, grad="sum", seed=0, check_repr=True, check_graph=True):
    """Run ``fn(lib, *inputs)`` in both libraries and compare outputs and gradients.

    The program makes the inputs, runs ``fn``, sends a gradient back from the (first) output
    (its sum's, or a random one) and answers the outputs and the inputs' gradients.
    Gradients are compared by value (allclose), dtype and shape, not by repr: a backward
    formula may round differently in the last bit. Signed zeros are checked separately
    (test_zero_gradient_sign)."""
    def program(lib):
        ins = make_inputs(lib, arrays, flags)
        out = fn(lib, *ins)
        root = out[0] if isinstance(out, (tuple, list)) else out
        if root.requires_grad:
            if grad == "sum":
                root.sum().backward()
            else:
                g = np.random.default_rng(seed + 100).standard_normal(tuple(root.shape))
                root.backward(lib.tensor(g.astype(_np(root).dtype)))
        return {"output": out, "grads": [x.grad for x in ins]}

    mine, theirs = oracle.both(program)
    kw = dict(check_repr=check_repr, check_graph=check_graph)
    t_out, m_out = theirs["output"], mine["output"]
    if isinstance(t_out, (tuple, list)):
        assert isinstance(m_out, tuple)
        assert len(m_out) == len(t_out)
        for i, (t, m) in enumerate(zip(t_out, m_out)):
            assert_same_tensor(m, t, what=f"output {i}", **kw)
        t_out = t_out[0]
    else:
        assert_same_tensor(m_out, t_out, **kw)
    loose = any(a.dtype == np.float32 for a in arrays) or t_out.values.dtype == np.float32
    tol = dict(rtol=1e-5, atol=1e-6) if loose else {}
    for i, (t, m) in enumerate(zip(theirs["grads"], mine["grads"])):
        if t is None:
            assert m is None, f"input {i}: grad should be None"
            continue
        assert m is not None, f"input {i}: grad missing"
        assert_same_tensor(m, t, check_repr=False, what=f"grad of input {i}", **tol)
    return mine, theirs


def run_case(oracle, fn, specs, fdt, grad="sum", seed=0, check_repr=True):
    """specs: list of (shape, kind, requires_grad)."""
    rng = np.random.default_rng(seed)
    arrays = [gen(rng, shape, kind, fdt) for shape, kind, _ in specs]
    flags = [rg for _, _, rg in specs]
    return compare(oracle, fn, arrays, flags, grad=grad, seed=seed, check_repr=check_repr)


def same_error(oracle, fn):
    """``fn(lib)`` must raise the same exception type with the same message in both."""
    oracle.same_error(fn)



# ---------------------------------------------------------------------------------------------
# Single ops beyond the op table (tests/op_db.py; its samples are compared in test_ops_vs_torch.py)
# ---------------------------------------------------------------------------------------------

@FLOATS
def test_clamp_min_max_values_and_grads(oracle, fdt):
    """Values and gradients of one-sided clamp, whatever the node is called."""
    rng = np.random.default_rng(9)
    a = gen(rng, (2, 5), "f", fdt)

    def program(lib):
        out = []
        for kwargs in ({"min": 0}, {"max": 0.2}, {"min": -0.1, "max": 0.1}):
            x = lib.tensor(a, requires_grad=True)
            y = x.clamp(**kwargs)
            y.sum().backward()
            out.append((repr(y).split("grad_fn")[0], repr(x.grad)))
        return out
    oracle.same(program)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_relu_bit_for_bit(oracle, dtype):
    """relu keeps x where x is not < 0, bits and all: -0. stays -0., NaN (of either sign) stays
    NaN, a negative number becomes 0.; its backward passes the gradient where the output is
    not <= 0 and gives 0. (not inf * 0 = NaN) where it is, at -0. and at NaN's sign too."""
    a = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, -1.0, 1.0, 1e-45, -1e-45] * 3)
    a = a[np.isfinite(a)].round() if dtype == "int64" else a  # integers: no inf, NaN or -0.
    g = np.tile([np.inf, -np.inf, np.nan, -2.0], a.size)[:a.size]

    def program(lib):
        x = lib.tensor(a.astype(dtype), requires_grad=dtype != "int64")
        y = x.relu()
        if dtype != "int64":
            y.backward(lib.tensor(g.astype(dtype)))
        return [y, x.grad, lib.relu(x.reshape(3, -1).t()).detach()]  # (the last: transposed)
    mine, theirs = oracle.both(program)
    assert mine == theirs


def test_relu_of_bool(oracle):
    oracle.same_error(lambda lib: lib.tensor([True, False]).relu())


NUMPY_WARNINGS = {
    "log(0)": lambda lib: lib.tensor([0.0, 1.0]).log(),
    "exp overflow": lambda lib: lib.tensor([100.0]).exp(),
    "x / 0": lambda lib: lib.tensor([1.0, 0.0]) / 0,
    "sqrt backward at 0": lambda lib: lib.tensor([0.0], requires_grad=True).sqrt().sum().backward(),
    "log backward at 0": lambda lib: lib.tensor([0.0], requires_grad=True).log().sum().backward(),
    "sqrt(-1)": lambda lib: lib.tensor([-1.0]).sqrt(),
}


@pytest.mark.parametrize("fn", _params(NUMPY_WARNINGS, {}))
def test_no_numpy_warnings(oracle, fn):
    """inf and nan results are silent in PyTorch."""
    mine, theirs = oracle.both(lambda lib: caught(fn, lib)[1])
    assert theirs == []
    assert mine == theirs


@pytest.mark.parametrize("shape", [(3,), ((),)], ids=["1-d", "0-d"])
def test_T_deprecation_warning(oracle, shape):
    mine, theirs = oracle.both(lambda lib: caught(lambda: lib.zeros(*shape).T)[1])
    assert len(theirs) == 1 and theirs[0][0] == "UserWarning"
    assert mine == theirs


@pytest.mark.filterwarnings("ignore:The use of `x.T`")
def test_T_of_1d(oracle):
    """x.T of a 1-d tensor (the op table's other samples of T are in tests/op_db.py). Here, after
    test_T_deprecation_warning, because PyTorch gives the warning once per process: where this ran
    first, PyTorch would not warn there."""
    run_case(oracle, lambda lib, x: x.T, [((3,), "f", True)], F32)


def test_max_repr(oracle):
    a = gen(np.random.default_rng(1), (2, 3), "f", F32)

    def program(lib):
        x = lib.tensor(a, requires_grad=True)
        values, indices = x.max(0)
        return repr(x.max(1)), repr(x.max(1, keepdim=True)), repr(values), repr(indices)
    oracle.same(program)


def test_iterate_requires_grad(oracle):
    """``for row in x`` uses unbind in PyTorch."""
    a = gen(np.random.default_rng(2), (2, 3), "f", F32)
    oracle.same(lambda lib: [repr(r).split("grad_fn")[0] for r in lib.tensor(a, requires_grad=True)])


def test_iterate_requires_grad_node(oracle):
    a = gen(np.random.default_rng(2), (2, 3), "f", F32)
    oracle.same(lambda lib: [repr(r) for r in lib.tensor(a, requires_grad=True)])


def test_to_same_dtype_is_self(oracle):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return x.float() is x, x.to(lib.float32) is x, x.double() is x
    assert oracle.same(program) == (True, True, False)


def test_detach_shares_memory(oracle):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        d = x.detach()
        flags = d.is_leaf, d.requires_grad, d.grad_fn is None
        d[0] = 5.0  # shares memory
        return flags, x[0].item()
    assert oracle.same(program) == ((True, False, True), 5.0)


# ---------------------------------------------------------------------------------------------
# Larger graphs: the node names and structure all the way down
# ---------------------------------------------------------------------------------------------

GRAPHS = {
    "mlp": (lambda lib, x, w1, b1, w2: ((x @ w1 + b1).relu() @ w2).sigmoid().mean(),
            [((4, 3), "f", False), ((3, 5), "f", True), ((5,), "f", True), ((5, 2), "f", True)]),
    "cross entropy by hand": (
        lambda lib, x, w, y: -(x @ w).log_softmax(1)[lib.arange(4), y].mean(),
        [((4, 3), "f", False), ((3, 3), "f", True), ((4,), "cls", False)]),
    "reuse": (lambda lib, a, b: (a * b + a).exp() * a,
              [((3,), "f", True), ((3,), "f", True)]),
    "diamond": (lambda lib, a: (lambda h: h.tanh() + h.sigmoid())(a * 3),
                [((2, 2), "f", True)]),
    "softmax attention": (
        lambda lib, q, k, v: ((q @ k.transpose(-2, -1)) / 2.0).softmax(-1) @ v,
        [((2, 3), "f", True), ((4, 3), "f", True), ((4, 3), "f", True)]),
    "mse": (lambda lib, p, y: ((p - y) ** 2).mean(), [((5,), "f", True), ((5,), "f", False)]),
    "normalize": (lambda lib, x: (x - x.mean(1, keepdim=True)) / (x.std_ if False else
                                                                   (x * x).mean(1, keepdim=True).sqrt()),
                  [((3, 4), "f", True)]),
    "logsumexp stable": (lambda lib, x: x.logsumexp(0) - x.max(),
                         [((5,), "f", True)]),
    "cat stack": (lambda lib, a, b: lib.stack([lib.cat([a, b]), lib.cat([b, a])]).sum(0),
                  [((2,), "f", True), ((3,), "f", True)]),
}


@FLOATS
@pytest.mark.parametrize("fn, specs", GRAPHS.values(), ids=GRAPHS.keys())
def test_graph(oracle, fn, specs, fdt):
    run_case(oracle, fn, specs, fdt, grad="rand")


def test_accumulate_grad_is_shared(oracle):
    """``x * x``: both edges lead to the same AccumulateGrad node in both libraries."""
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        (a, _), (b, _) = y.grad_fn.next_functions
        return a is b, type(a).__name__, a.variable is x, a.next_functions
    assert oracle.same(program) == (True, "AccumulateGrad", True, ())


# ---------------------------------------------------------------------------------------------
# Creating tensors
# ---------------------------------------------------------------------------------------------

TENSOR_DATA = {
    "int": 3,
    "float": 2.5,
    "bool": True,
    "neg float": -0.0,
    "int list": [1, 2, 3],
    "float list": [1.0, 2.0, 3.5],
    "mixed int float": [1, 2.5],
    "mixed bool int": [True, 2],
    "bool list": [True, False],
    "nested": [[1.0, 2.0], [3.0, 4.0]],
    "nested int": [[1, 2], [3, 4]],
    "3-d": [[[1.5]], [[2.5]]],
    "empty list": [],
    "tuple": (1.0, 2.0),
    "np f32": np.array([1.5, 2.0], np.float32),
    "np f64": np.array([1.5, 2.0], np.float64),
    "np int64": np.array([1, 2], np.int64),
    "np bool": np.array([True, False]),
    "np 0-d f64": np.array(1.25),
    "np f64 scalar": np.float64(1.25),
    "np int32": np.array([1, 2], np.int32),
    "big int": [10 ** 12, 1],
    "small floats": [1e-5, 1.0],
    "large floats": [1e6, 1.5],
}
TENSOR_DIFFS = {}


@pytest.mark.parametrize("data", [pytest.param(v, id=k, marks=[diff(TENSOR_DIFFS[k])]
                                               if k in TENSOR_DIFFS else [])
                                  for k, v in TENSOR_DATA.items()])
def test_tensor_from_data(oracle, data):
    def program(lib):
        t = lib.tensor(data)
        return {"repr": repr(t), "dtype": repr(t.dtype), "shape": repr(t.shape), "tolist": t.tolist(),
                "tolist type": type(t.tolist()).__name__}
    oracle.same(program)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "float", "double", "long"])
def test_tensor_with_dtype(oracle, dtype):
    data = [[1, 0], [2, 3]]
    oracle.same(lambda lib: (repr(lib.tensor(data, dtype=getattr(lib, dtype))), repr(getattr(lib, dtype))))


def test_tensor_requires_grad_repr(oracle):
    def program(lib):
        out = []
        for data in ([1.0, 2.0], 3.0, [[1.0], [2.0]], np.array([1.0, 2.0])):
            t = lib.tensor(data, requires_grad=True)
            out.append((repr(t), t.is_leaf, t.grad_fn is None))
        return out
    assert all(leaf and no_node for _, leaf, no_node in oracle.same(program))


CREATION = {
    "zeros(2, 3)": lambda lib: lib.zeros(2, 3),
    "zeros((2, 3))": lambda lib: lib.zeros((2, 3)),
    "zeros([4])": lambda lib: lib.zeros([4]),
    "zeros(())": lambda lib: lib.zeros(()),
    "zeros(2, dtype=float64)": lambda lib: lib.zeros(2, dtype=lib.float64),
    "zeros(2, dtype=int64)": lambda lib: lib.zeros(2, dtype=lib.int64),
    "zeros(2, dtype=bool)": lambda lib: lib.zeros(2, dtype=lib.bool),
    "zeros rg": lambda lib: lib.zeros(2, requires_grad=True),
    "ones(2, 3)": lambda lib: lib.ones(2, 3),
    "ones((3,))": lambda lib: lib.ones((3,)),
    "ones(2, dtype=long)": lambda lib: lib.ones(2, dtype=lib.long),
    "ones rg f64": lambda lib: lib.ones(2, 2, dtype=lib.float64, requires_grad=True),
    "full int": lambda lib: lib.full((2, 2), 7),
    "full float": lambda lib: lib.full((2,), 1.5),
    "full bool": lambda lib: lib.full((2,), True),
    "full dtype": lambda lib: lib.full((2,), 3, dtype=lib.float32),
    "full [3]": lambda lib: lib.full([3], -1.0),
    "arange(5)": lambda lib: lib.arange(5),
    "arange(2, 7)": lambda lib: lib.arange(2, 7),
    "arange(1, 10, 3)": lambda lib: lib.arange(1, 10, 3),
    "arange(5.0)": lambda lib: lib.arange(5.0),
    "arange(0, 1, 0.25)": lambda lib: lib.arange(0, 1, 0.25),
    "arange(1.5, 4)": lambda lib: lib.arange(1.5, 4),
    "arange(10, 0, -3)": lambda lib: lib.arange(10, 0, -3),
    "arange(3, dtype=float32)": lambda lib: lib.arange(3, dtype=lib.float32),
    "arange(0)": lambda lib: lib.arange(0),
    "eye(3)": lambda lib: lib.eye(3),
    "eye(2, 3)": lambda lib: lib.eye(2, 3),
    "eye(2, dtype=float64)": lambda lib: lib.eye(2, dtype=lib.float64),
    "eye(2, dtype=int64)": lambda lib: lib.eye(2, dtype=lib.int64),
    "zeros_like f32": lambda lib: lib.zeros_like(lib.tensor([[1.0, 2.0]])),
    "zeros_like int": lambda lib: lib.zeros_like(lib.tensor([1, 2])),
    "zeros_like rg source": lambda lib: lib.zeros_like(lib.tensor([1.0], requires_grad=True)),
    "ones_like f64": lambda lib: lib.ones_like(lib.tensor([1.0, 2.0], dtype=lib.float64)),
    "ones_like bool": lambda lib: lib.ones_like(lib.tensor([True, False])),
    "ones_like dtype": lambda lib: lib.ones_like(lib.tensor([1, 2]), dtype=lib.float32),
    "full_like": lambda lib: lib.full_like(lib.tensor([1.0, 2.0]), 4),
    "linspace": lambda lib: lib.linspace(0, 1, 5),
    "empty shape": lambda lib: lib.zeros(0, 3),
}
CREATION_DIFFS = {}


@pytest.mark.parametrize("fn", _params(CREATION, CREATION_DIFFS))
def test_creation(oracle, fn):
    m, t = oracle.both(fn)
    assert_same_tensor(m, t)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_])
def test_from_numpy_shares_memory(oracle, dtype):
    a = np.array([[1, 0, 3], [4, 5, 6]]).astype(dtype)

    def program(lib):
        b = a.copy()
        t = lib.from_numpy(b)
        reprs = [repr(t)]
        b[0, 1] = 2
        reprs.append(repr(t))
        t[1, 1] = 0
        return reprs, b, np.shares_memory(t.numpy(), b)
    assert oracle.same(program)[2] is True


def test_numpy_roundtrip(oracle):
    def program(lib):
        x = lib.tensor([1.0, 2.0])
        return type(x.numpy()).__name__, str(x.numpy().dtype)
    assert oracle.same(program) == ("ndarray", "float32")


# ---------------------------------------------------------------------------------------------
# What a tensor is: shape, size, item, tolist, ...
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [1, 2, 3], 7.5, 4, True,
                                  [[True], [False]], [[[1.0]]]],
                         ids=["2x3 float", "int list", "0d float", "0d int", "0d bool",
                              "bool 2x1", "1x1x1"])
def test_tensor_attributes(oracle, data):
    def program(lib):
        t = lib.tensor(data)
        out = {"shape": tuple(t.shape), "shape repr": repr(t.shape), "size() repr": repr(t.size()),
               "shape == size()": t.shape == t.size(), "shape is a tuple": isinstance(t.shape, tuple),
               "dim": t.dim(), "ndim": t.ndim, "numel": t.numel(), "lib.numel": lib.numel(t),
               "numel type": type(t.numel()).__name__, "dtype repr": repr(t.dtype), "dtype str": str(t.dtype),
               "tolist": t.tolist(), "is_floating_point": t.is_floating_point(), "is_leaf": t.is_leaf,
               "requires_grad": t.requires_grad, "is_tensor": lib.is_tensor(t),
               "size(d), size(-1 - d)": [(t.size(d), t.size(-1 - d), type(t.size(d)).__name__)
                                         for d in range(t.dim())]}
        if t.dim() == 0 or t.numel() == 1:
            out["item"] = t.item()
            out["item type"] = type(t.item()).__name__
            out["float, int, bool"] = float(t), int(t), bool(t)
        if t.dim() > 0:
            out["len"] = len(t)
            out["rows"] = [repr(r) for r in t]
        return out
    theirs = oracle.same(program)
    assert theirs["shape is a tuple"] and theirs["is_tensor"]


def test_shape_is_comparable(oracle):
    def program(lib):
        s = lib.zeros(2, 3).shape
        return s == (2, 3), lib.zeros(2, 3).size() == (2, 3), repr(lib.zeros(()).shape), s.numel(), s[1], s[-1]
    assert oracle.same(program) == (True, True, "torch.Size([])", 6, 3, 3)


def test_shape_slice_is_size(oracle):
    oracle.same(lambda lib: repr(lib.zeros(2, 3).shape[1:]))


@pytest.mark.parametrize("name", ["float32", "float64", "int64", "bool", "float", "double", "long"])
def test_dtype_objects(oracle, name):
    def program(lib):
        dtype = getattr(lib, name)
        return repr(dtype), str(dtype), dtype.is_floating_point, dtype.itemsize
    oracle.same(program)


def test_dtype_aliases_are_identical(oracle):
    def program(lib):
        return lib.float is lib.float32, lib.double is lib.float64, lib.long is lib.int64
    assert oracle.same(program) == (True, True, True)


def test_format_0d(oracle):
    def program(lib):
        t = lib.tensor(2.345678)
        return f"{t:.3f}", f"{t}", str(t)
    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# requires_grad, is_leaf, no_grad, equal/allclose
# ---------------------------------------------------------------------------------------------


def test_requires_grad_propagation(oracle):
    def prog(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0])
        c = a * b
        d = b * 2
        e = c + d
        f = d.exp().sum()
        return [(t.requires_grad, t.is_leaf, repr(t)) for t in (a, b, c, d, e, f)]
    oracle.same(prog)


def test_requires_grad_flags(oracle):
    def prog(lib):
        out = []
        x = lib.tensor([1.0, 2.0])
        out.append((x.requires_grad, x.is_leaf))
        x.requires_grad_()
        out.append((x.requires_grad, x.is_leaf, repr(x)))
        x.requires_grad = False
        out.append((x.requires_grad, repr(x)))
        y = lib.tensor([1.0], requires_grad=True).requires_grad_(False)
        out.append((y.requires_grad, repr(y)))
        z = lib.ones(2, requires_grad=True) * 2
        out.append((z.requires_grad, z.is_leaf, z.detach().is_leaf, z.detach().requires_grad))
        i = lib.tensor([1, 2])
        out.append(repr(i.float().requires_grad_()))
        return out
    oracle.same(prog)


def test_no_grad(oracle):
    def prog(lib):
        out = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            y = x * 2
            out.append((repr(y), y.requires_grad, y.is_leaf, y.grad_fn is None,
                        lib.is_grad_enabled()))
            with lib.enable_grad():
                z = x * 2
                out.append((repr(z), lib.is_grad_enabled()))
        out.append(lib.is_grad_enabled())
        with lib.set_grad_enabled(False):
            w = x.exp()
            out.append(repr(w))
        out.append(repr(x.exp()))

        @lib.no_grad()
        def f(t):
            return t * 3
        out.append(repr(f(x)))
        return out
    oracle.same(prog)


def test_no_grad_inplace_on_leaf(oracle):
    def prog(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            w -= 0.5 * lib.tensor([1.0, 1.0])
            w.add_(1)
            w.mul_(2)
        return repr(w), w.is_leaf, w.grad_fn is None, w.requires_grad
    oracle.same(prog)


def test_equal_shape_mismatch(oracle):
    mine, theirs = oracle.both(lambda lib: lib.equal(lib.tensor([1.0]), lib.tensor([1.0, 1.0])))
    assert mine is theirs is False


def test_equal_allclose(oracle):
    def program(lib):
        out = []
        for a, b in [([1.0, 2.0], [1.0, 2.0]), ([1.0, 2.0], [1.0, 2.00001]), ([1.0, 2.0], [1.0, 2.1]),
                     ([1.0], [1.0, 1.0]), ([[1.0, 2.0]], [1.0, 2.0]), ([1, 2], [1, 2])]:
            t1, t2 = lib.tensor(a), lib.tensor(b)
            out.append(lib.equal(t1, t2))
            if len(a) == len(b) or 1 in (len(a), len(b)):
                out.append(lib.allclose(t1.float(), t2.float()))
        out.append(lib.allclose(lib.tensor([1.0]), lib.tensor([1.1]), atol=0.2))
        out.append(lib.allclose(lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.0], requires_grad=True)))
        return out
    theirs = oracle.same(program)
    assert theirs[-1] is True

# ---------------------------------------------------------------------------------------------
# Backward: gradients, accumulation, grads of non-leaves
# ---------------------------------------------------------------------------------------------


def test_gradient_accumulates_and_zero(oracle):
    def prog(lib):
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        out = []
        for _ in range(2):
            (x * x).sum().backward()
            out.append(repr(x.grad))
        x.grad.zero_()
        out.append(repr(x.grad))
        x.grad = None
        (x ** 3).sum().backward()
        out.append(repr(x.grad))
        return out
    oracle.same(prog)


def test_grad_of_integer_scalar_output(oracle):
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.long().sum().backward()
    same_error(oracle, fn)


def test_non_leaf_grad_warning(oracle):
    def read(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.sum().backward()
        return caught(lambda: y.grad)
    (mgg, mw), (tg, tw) = oracle.both(read)
    assert tg is None and mgg is None
    assert len(mw) == len(tw) == 1
    assert mw[0][0] == tw[0][0] == "UserWarning"
    assert mw[0][1] == tw[0][1]


def test_retain_grad_no_warning(oracle):
    def read(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        (y * y).sum().backward()
        g, log = caught(lambda: y.grad)
        return repr(g), len(log), y.retains_grad, x.retains_grad
    oracle.same(read)


def test_backward_gradient_argument_dtypes(oracle):
    def prog(lib):
        x = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        y = x * 2
        y.backward(lib.tensor([1.0, 0.5, 0.25], dtype=lib.float64))
        return repr(x.grad)
    oracle.same(prog)


def test_second_backward_allowed_without_saved_tensors(oracle):
    """PyTorch frees only saved tensors: a graph that saved none can be run again."""
    def prog(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        z = (x.reshape(2, 1).t() - 3).mean()
        z.backward()
        z.backward()
        return repr(x.grad)
    oracle.same(prog)


def test_retain_graph(oracle):
    def prog(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        y.backward()
        return repr(x.grad)
    oracle.same(prog)


# ---------------------------------------------------------------------------------------------
# Error messages
# ---------------------------------------------------------------------------------------------


def _second_backward_mul(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _second_backward_exp(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward()
    y.backward()


def _saved_input_modified(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    b = a * a
    a.add_(1)
    b.sum().backward()


def _saved_input_modified_sigmoid_via_mul(lib):
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = x.clone()
    y = h.log()
    h.mul_(2)
    y.sum().backward()


def _saved_output_exp_modified(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    y.sum().backward()


def _saved_output_exp_modified_f64(lib):
    x = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    y = x.exp()
    y.mul_(2)
    y.sum().backward()


def _saved_output_sigmoid_modified(lib):
    x = lib.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = x.sigmoid()
    z = y * 1
    y.sub_(1)
    (z + y).sum().backward()


def _saved_leaf_modified(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0])
    y = x * w
    w.add_(1)
    y.sum().backward()


def _saved_leaf_requiring_grad_modified_no_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with lib.no_grad():
        x.add_(1)
    y.backward()


def _saved_modified_twice(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    a = x.tanh()
    a.mul_(2)
    a.mul_(3)
    a.sum().backward()


def _saved_modified_via_setitem(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0])
    y = x * w
    w[0] = 7.0
    y.sum().backward()


ERRORS = {
    "backward without grad_fn": lambda lib: lib.tensor([1.0, 2.0]).sum().backward(),
    "backward of a leaf without requires_grad": lambda lib: lib.tensor(2.0).backward(),
    "non-scalar backward": lambda lib: (lib.tensor([1.0, 2.0], requires_grad=True) * 2).backward(),
    "second backward (mul)": _second_backward_mul,
    "second backward (exp)": _second_backward_exp,
    "in-place on leaf": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True).add_(1),
    "in-place += on leaf": lambda lib: lib.tensor([1.0], requires_grad=True).__iadd__(1),
    "in-place mul_ on leaf": lambda lib: lib.tensor([1.0], requires_grad=True).mul_(2),
    "in-place zero_ on leaf": lambda lib: lib.tensor([1.0], requires_grad=True).zero_(),
    "saved input modified": _saved_input_modified,
    "saved input modified (log)": _saved_input_modified_sigmoid_via_mul,
    "saved output modified (exp)": _saved_output_exp_modified,
    "saved output modified (exp, float64)": _saved_output_exp_modified_f64,
    "saved output modified (sigmoid)": _saved_output_sigmoid_modified,
    "saved leaf modified": _saved_leaf_modified,
    "saved leaf requiring grad modified under no_grad": _saved_leaf_requiring_grad_modified_no_grad,
    "saved tensor modified twice": _saved_modified_twice,
    "saved tensor modified by setitem": _saved_modified_via_setitem,
    "int tensor requires_grad=True": lambda lib: lib.tensor([1, 2], requires_grad=True),
    "bool tensor requires_grad=True": lambda lib: lib.tensor([True], requires_grad=True),
    "int requires_grad_()": lambda lib: lib.tensor([1, 2]).requires_grad_(),
    "int .requires_grad = True": lambda lib: setattr(lib.tensor([1, 2]), "requires_grad", True),
    "int zeros requires_grad": lambda lib: lib.zeros(2, dtype=lib.int64, requires_grad=True),
    "matmul 2D@2D": lambda lib: lib.ones(2, 3) @ lib.ones(4, 5),
    "matmul 1D@1D": lambda lib: lib.ones(3) @ lib.ones(4),
    "matmul 2D@1D": lambda lib: lib.ones(2, 3) @ lib.ones(4),
    "matmul 1D@2D": lambda lib: lib.ones(3) @ lib.ones(4, 5),
    "matmul 3D@3D": lambda lib: lib.ones(2, 2, 3) @ lib.ones(2, 4, 5),
    "matmul 3D@2D": lambda lib: lib.ones(2, 2, 3) @ lib.ones(4, 5),
    "matmul 0-d": lambda lib: lib.ones(()) @ lib.ones(3),
    "broadcast mismatch +": lambda lib: lib.ones(2, 3) + lib.ones(4),
    "broadcast mismatch * 2-d": lambda lib: lib.ones(2, 3) * lib.ones(3, 2),
    "broadcast mismatch - lead": lambda lib: lib.ones(5, 2, 3) - lib.ones(4, 1),
    "wrong gradient shape": lambda lib: (lib.ones(3, requires_grad=True) * 2).backward(lib.ones(2)),
    "wrong gradient shape 2-d": lambda lib: (lib.ones(2, 3, requires_grad=True) * 2).backward(
        lib.ones(3, 2)),
    "item of multi-element": lambda lib: lib.ones(2, 3).item(),
    "float() of multi-element": lambda lib: float(lib.ones(2)),
    "bool() of multi-element": lambda lib: bool(lib.ones(2)),
    "len of 0-d": lambda lib: len(lib.tensor(1.0)),
    "iter of 0-d": lambda lib: iter(lib.tensor(1.0)),
    "requires_grad on non-leaf": lambda lib: setattr(
        lib.ones(2, requires_grad=True) * 2, "requires_grad", False),
    "requires_grad_ on non-leaf": lambda lib: (lib.ones(2, requires_grad=True) * 2).requires_grad_(False),
    "view on non-contiguous": lambda lib: lib.ones(2, 3).t().view(6),
    "view on permuted": lambda lib: lib.ones(2, 3, 4).permute(2, 0, 1).view(-1),
    "bad reshape": lambda lib: lib.ones(2, 3).reshape(4, 2),
    "bad view": lambda lib: lib.ones(2, 3).view(5),
    "bad reshape -1": lambda lib: lib.ones(2, 3).reshape(-1, 4),
    "two -1 in reshape": lambda lib: lib.ones(2, 3).reshape(-1, -1),
    "dim out of range sum": lambda lib: lib.ones(2, 3).sum(2),
    "dim out of range negative": lambda lib: lib.ones(2, 3).sum(-3),
    "dim out of range softmax": lambda lib: lib.ones(2, 3).softmax(5),
    "dim out of range unsqueeze": lambda lib: lib.ones(2, 3).unsqueeze(4),
    "dim out of range transpose": lambda lib: lib.ones(2, 3).transpose(0, 2),
    "dim out of range max": lambda lib: lib.ones(3).max(1),
    "dim out of range 0-d": lambda lib: lib.tensor(1.0).sum(1),
    "dim out of range cat": lambda lib: lib.cat([lib.ones(2), lib.ones(2)], 1),
    "mean of int tensor": lambda lib: lib.tensor([1, 2]).mean(),
    "mean of bool tensor": lambda lib: lib.tensor([True]).mean(),
    "t() of 3-d": lambda lib: lib.ones(2, 3, 4).t(),
    "clamp without bounds": lambda lib: lib.ones(2).clamp(),
    "index out of range": lambda lib: lib.ones(2, 3)[2],
    "numpy of requires_grad": lambda lib: lib.ones(2, requires_grad=True).numpy(),
    "retain_grad without requires_grad": lambda lib: lib.ones(2).retain_grad(),
    "register_hook without requires_grad": lambda lib: lib.ones(2).register_hook(lambda g: g),
    "grad of unused input": lambda lib: lib.autograd.grad(
        (lib.ones(2, requires_grad=True) * 2).sum(), lib.ones(2, requires_grad=True)),
    "grad of input without requires_grad": lambda lib: lib.autograd.grad(
        (lib.ones(2, requires_grad=True) * 2).sum(), lib.ones(2)),
    "assigned grad of wrong shape": lambda lib: setattr(
        lib.ones(2, requires_grad=True), "grad", lib.ones(3)),
    "in-place result type": lambda lib: lib.tensor([1, 2]).mul_(1.5),
    "expand bad size": lambda lib: lib.ones(2, 3).expand(4, 3),
    "cat shape mismatch": lambda lib: lib.cat([lib.ones(2, 3), lib.ones(2, 4)]),
    "stack shape mismatch": lambda lib: lib.stack([lib.ones(2, 3), lib.ones(3, 2)]),
    "tensor from ragged list": lambda lib: lib.tensor([[1.0, 2.0], [3.0]]),
    "squeeze dim out of range": lambda lib: lib.ones(2, 1).squeeze(2),
    "permute wrong number of dims": lambda lib: lib.ones(2, 3).permute(1, 0, 2),
    "permute repeated dim": lambda lib: lib.ones(2, 3).permute(0, 0),
    "flatten start > end": lambda lib: lib.ones(2, 3, 4).flatten(2, 1),
    "softmax of int tensor": lambda lib: lib.tensor([1, 2]).softmax(0),
    "backward of int sum": lambda lib: lib.tensor([1, 2]).sum().backward(),
}
_BROADCAST = ("a shape mismatch in an elementwise op raises NumPy's ValueError 'operands could not "
              "be broadcast together with shapes (2,3) (4,)'; PyTorch raises RuntimeError 'The size "
              "of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1'")
ERROR_DIFFS = {}


@pytest.mark.parametrize("fn", _params(ERRORS, ERROR_DIFFS))
def test_error(oracle, fn):
    same_error(oracle, fn)


def test_no_error_on_second_backward_without_saved(oracle):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        return x.grad.tolist()
    assert oracle.same(program) == [2.0, 2.0]


def test_std_var_norm_of_constant_and_int(oracle):
    """Where the std or the norm is 0, both send a gradient of 0 (not 0/0); integer input is refused."""
    def program(lib):
        grads = []
        for f in (lambda t: t.std(), lambda t: t.norm(), lambda t: t.std(0)):
            z = lib.zeros(3, 2, requires_grad=True)
            f(z).sum().backward()
            grads.append(z.grad)
        errors = [raised(lambda lib, f=f: f(lib.arange(3)))(lib)
                  for f in (lambda t: t.std(), lambda t: t.var(), lambda t: t.norm())]
        return grads, errors
    grads, errors = oracle.same(program)
    assert all(np.array_equal(g.values, np.zeros((3, 2))) for g in grads)
    assert [(e.type, e.message) for e in errors] == [
        ("RuntimeError", "std and var only support floating point and complex dtypes"),
        ("RuntimeError", "std and var only support floating point and complex dtypes"),
        ("RuntimeError", "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long")]
