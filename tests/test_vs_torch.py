"""minigrad against PyTorch, op by op (PyTorch's answers recorded: tests/oracle.py).

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
# Binary arithmetic: tensor (op) tensor, with broadcasting
# ---------------------------------------------------------------------------------------------

BINARY = {
    "add": lambda lib, a, b: a + b,
    "sub": lambda lib, a, b: a - b,
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / b,
    "pow": lambda lib, a, b: a ** b,
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "torch.add": lambda lib, a, b: lib.add(a, b),
    "torch.mul": lambda lib, a, b: lib.mul(a, b),
    "method.sub": lambda lib, a, b: a.sub(b),
    "method.div": lambda lib, a, b: a.div(b),
}
SHAPES = {
    "same": ((2, 3), (2, 3)),
    "row": ((2, 3), (3,)),
    "col_row": ((2, 1), (1, 3)),
    "lead": ((3,), (2, 3)),
    "scalar0d": ((2, 3), ()),
    "0d_left": ((), (2, 3)),
    "3d": ((2, 1, 3), (4, 1)),
}


@FLOATS
@pytest.mark.parametrize("shapes", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("op", BINARY.values(), ids=BINARY.keys())
@pytest.mark.parametrize("flags", [(True, True), (True, False), (False, True)],
                         ids=["both_rg", "left_rg", "right_rg"])
def test_binary_tensor_tensor(oracle, op, shapes, fdt, flags):
    pos = op in (BINARY["pow"], BINARY["div"], BINARY["method.div"])
    specs = [(shapes[0], "pos" if pos else "f", flags[0]), (shapes[1], "pos" if pos else "f", flags[1])]
    run_case(oracle, op, specs, fdt, grad="rand")


NUMBER_OPS = {
    "x+2": lambda lib, x: x + 2,
    "2+x": lambda lib, x: 2 + x,
    "x+2.5": lambda lib, x: x + 2.5,
    "x-2": lambda lib, x: x - 2,
    "2-x": lambda lib, x: 2 - x,
    "2.5-x": lambda lib, x: 2.5 - x,
    "x*3": lambda lib, x: x * 3,
    "3*x": lambda lib, x: 3 * x,
    "x*0.5": lambda lib, x: x * 0.5,
    "x/2": lambda lib, x: x / 2,
    "x/0.5": lambda lib, x: x / 0.5,
    "2/x": lambda lib, x: 2 / x,
    "2.5/x": lambda lib, x: 2.5 / x,
    "x**2": lambda lib, x: x ** 2,
    "x**3": lambda lib, x: x ** 3,
    "x**0.5": lambda lib, x: x ** 0.5,
    "x**-1": lambda lib, x: x ** -1,
    "x**0": lambda lib, x: x ** 0,
    "2**x": lambda lib, x: 2 ** x,
    "2.5**x": lambda lib, x: 2.5 ** x,
    "-x": lambda lib, x: -x,
    "neg": lambda lib, x: x.neg(),
    "torch.neg": lambda lib, x: lib.neg(x),
}


@FLOATS
@pytest.mark.parametrize("op", NUMBER_OPS.values(), ids=NUMBER_OPS.keys())
def test_number_operand(oracle, op, fdt):
    run_case(oracle, op, [((2, 3), "pos", True)], fdt)


@FLOATS
@pytest.mark.parametrize("op", NUMBER_OPS.values(), ids=NUMBER_OPS.keys())
def test_number_operand_0d(oracle, op, fdt):
    run_case(oracle, op, [((), "pos", True)], fdt, grad="rand")


INT_NUMBER_OPS = {k: v for k, v in NUMBER_OPS.items() if k not in ("x**-1",)}


@pytest.mark.parametrize("op", INT_NUMBER_OPS.values(), ids=INT_NUMBER_OPS.keys())
def test_number_operand_int_tensor(oracle, op):
    run_case(oracle, op, [((2, 3), "nint", False)], None)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "maximum"])
def test_int_tensor_tensor(oracle, op):
    run_case(oracle, BINARY[op], [((2, 3), "nint", False), ((3,), "nint", False)], None)


def test_int_pow_int_tensor(oracle):
    run_case(oracle, BINARY["pow"], [((2, 3), "nint", False), ((3,), "nint", False)], None)


# ---------------------------------------------------------------------------------------------
# dtype promotion
# ---------------------------------------------------------------------------------------------

PROMOTION = {
    "int64+float_number": (lambda lib, a: a + 2.5, [((3,), "int", False)]),
    "int64*float_number": (lambda lib, a: a * 0.5, [((3,), "int", False)]),
    "int64+int_number": (lambda lib, a: a + 2, [((3,), "int", False)]),
    "int64+bool_number": (lambda lib, a: a + True, [((3,), "int", False)]),
    "bool+int_number": (lambda lib, a: a + 1, [((3,), "bool", False)]),
    "bool+float_number": (lambda lib, a: a + 1.5, [((3,), "bool", False)]),
    "int/int true division": (lambda lib, a, b: a / b, [((3,), "int", False), ((3,), "nint", False)]),
    "int/number": (lambda lib, a: a / 2, [((3,), "int", False)]),
    "int exp": (lambda lib, a: a.exp(), [((3,), "int", False)]),
    "int sigmoid": (lambda lib, a: a.sigmoid(), [((3,), "int", False)]),
    "int tanh": (lambda lib, a: lib.tanh(a), [((3,), "int", False)]),
    "int sqrt": (lambda lib, a: a.sqrt(), [((3,), "nint", False)]),
    "int log": (lambda lib, a: a.log(), [((3,), "nint", False)]),
    "int sum": (lambda lib, a: a.sum(), [((2, 3), "int", False)]),
    "int sum dim": (lambda lib, a: a.sum(1), [((2, 3), "int", False)]),
    "bool sum": (lambda lib, a: a.sum(), [((2, 3), "bool", False)]),
    "int abs": (lambda lib, a: a.abs(), [((3,), "int", False)]),
    "int neg": (lambda lib, a: -a, [((3,), "int", False)]),
    "int relu": (lambda lib, a: a.relu(), [((3,), "int", False)]),
    "int clamp": (lambda lib, a: a.clamp(-1, 1), [((3,), "int", False)]),
    "int max": (lambda lib, a: a.max(), [((3,), "int", False)]),
    "bool+int tensor": (lambda lib, a, b: a + b, [((3,), "bool", False), ((3,), "int", False)]),
    "int+float tensor": (lambda lib, a, b: a + b, [((3,), "int", False), ((3,), "f", True)]),
    "int*float tensor": (lambda lib, a, b: a * b, [((3,), "int", False), ((3,), "f", True)]),
    "float*int tensor": (lambda lib, a, b: b * a, [((3,), "int", False), ((3,), "f", True)]),
    "bool*float tensor": (lambda lib, a, b: a * b, [((3,), "bool", False), ((3,), "f", True)]),
    "int64 0-d + float tensor": (lambda lib, a, b: a + b, [((), "int", False), ((3,), "f", True)]),
    "float 0-d + int tensor": (lambda lib, a, b: a + b, [((), "f", True), ((3,), "int", False)]),
    "float32 @ int": (lambda lib, a, b: a.float() @ b.float(), [((2, 3), "f", True), ((3,), "int", False)]),
}


@pytest.mark.parametrize("fn, specs", PROMOTION.values(), ids=PROMOTION.keys())
def test_promotion(oracle, fn, specs):
    run_case(oracle, fn, specs, F32)


MIXED_FLOAT = {
    "f32 * f64 0-d": ((2, 3), F32, (), F64),
    "f64 0-d * f32": ((), F64, (2, 3), F32),
    "f32 * f64 tensor": ((2, 3), F32, (3,), F64),
    "f64 tensor * f32": ((3,), F64, (2, 3), F32),
    "f32 0-d * f64 0-d": ((), F32, (), F64),
    "f64 1-elem * f32 0-d": ((1,), F64, (), F32),
}


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "maximum"])
@pytest.mark.parametrize("case", MIXED_FLOAT.values(), ids=MIXED_FLOAT.keys())
@pytest.mark.parametrize("flags", [(True, True), (True, False), (False, True)],
                         ids=["both_rg", "left_rg", "right_rg"])
def test_promotion_mixed_float(oracle, op, case, flags):
    """Result dtype, values and gradients (with their dtypes) of mixed float32/float64 ops."""
    rng = np.random.default_rng(3)
    sa, da, sb, db = case
    arrays = [gen(rng, sa, "pos", da), gen(rng, sb, "pos", db)]
    compare(oracle, BINARY[op], arrays, list(flags), grad="rand", check_graph=False)


@pytest.mark.parametrize("op", ["add", "mul", "maximum"])
@pytest.mark.parametrize("case", MIXED_FLOAT.values(), ids=MIXED_FLOAT.keys())
@pytest.mark.parametrize("flags", [(True, True), (True, False), (False, True)],
                         ids=["both_rg", "left_rg", "right_rg"])
def test_promotion_mixed_float_graph(oracle, op, case, flags):
    """PyTorch promotes inside the op: no extra node (nor in minigrad)."""
    sa, da, sb, db = case
    rng = np.random.default_rng(3)
    arrays = [gen(rng, sa, "pos", da), gen(rng, sb, "pos", db)]
    compare(oracle, BINARY[op], arrays, list(flags), grad="rand")


@pytest.mark.parametrize("fn", [lambda lib, a: a * 2.123456789, lambda lib, a: a * np.float64(2.5)],
                         ids=["python float", "numpy float64"])
def test_promotion_f32_number_stays_f32(oracle, fn):
    compare(oracle, fn, [np.ones(3, F32)], [True])


# ---------------------------------------------------------------------------------------------
# Matrix multiplication
# ---------------------------------------------------------------------------------------------

MATMUL = {
    "2D@2D": ((2, 3), (3, 4)),
    "2D@1D": ((2, 3), (3,)),
    "1D@1D": ((3,), (3,)),
    "1D@2D": ((3,), (3, 4)),
    "3D@3D": ((5, 2, 3), (5, 3, 4)),
    "3D@2D": ((5, 2, 3), (3, 4)),
    "2D@3D": ((2, 3), (5, 3, 4)),
    "3D@1D": ((5, 2, 3), (3,)),
    "1D@3D": ((3,), (5, 3, 4)),
    "4D@3D broadcast": ((2, 1, 2, 3), (5, 3, 4)),
}
_BATCHED = ("minigrad records one UnsafeViewBackward0 node linked straight to both "
            "AccumulateGrads; PyTorch records its decomposition: ")
MATMUL_DIFFS = {
    "1D@2D": "1D@2D: PyTorch's graph is SqueezeBackward4 -> MmBackward0 -> "
             "(UnsqueezeBackward0 -> AccumulateGrad, AccumulateGrad); minigrad's "
             "SqueezeBackward4 links straight to both AccumulateGrads",
    "3D@3D": "3D@3D: " + _BATCHED + "UnsafeViewBackward0 -> BmmBackward0 -> "
             "(ViewBackward0 -> ExpandBackward0 -> AccumulateGrad) x 2",
    "3D@2D": "3D@2D: " + _BATCHED + "UnsafeViewBackward0 -> MmBackward0 -> "
             "(ViewBackward0 -> AccumulateGrad, AccumulateGrad)",
    "2D@3D": "2D@3D: PyTorch's grad_fn is CloneBackward0 (-> TransposeBackward0 -> "
             "UnsafeViewBackward0 -> MmBackward0 -> ...), minigrad's UnsafeViewBackward0 "
             "linked straight to the leaves",
    "3D@1D": "3D@1D: " + _BATCHED + "UnsafeViewBackward0 -> MvBackward0 -> "
             "(ViewBackward0 -> AccumulateGrad, AccumulateGrad)",
    "1D@3D": "1D@3D: " + _BATCHED + "UnsafeViewBackward0 -> MvBackward0 -> "
             "(UnsafeViewBackward0 -> CloneBackward0 -> TransposeBackward0 -> AccumulateGrad, "
             "AccumulateGrad)",
    "4D@3D broadcast": "(2,1,2,3) @ (5,3,4): " + _BATCHED + "UnsafeViewBackward0 -> "
                       "BmmBackward0 -> (UnsafeViewBackward0 -> CloneBackward0 -> "
                       "ExpandBackward0 -> AccumulateGrad) x 2",
}


MATMUL_BACKWARD_DIFFS = {
}


def _matmul_params(*tables):
    params = []
    for name, shapes in MATMUL.items():
        reasons = [t[name] for t in tables if name in t]
        params.append(pytest.param(shapes, id=name, marks=[diff("; ".join(reasons))] if reasons else []))
    return params


@FLOATS
@pytest.mark.parametrize("shapes", _matmul_params(MATMUL_DIFFS, MATMUL_BACKWARD_DIFFS))
@pytest.mark.parametrize("form", ["@", "matmul", "torch.matmul"])
def test_matmul(oracle, shapes, fdt, form):
    fn = {"@": lambda lib, a, b: a @ b, "matmul": lambda lib, a, b: a.matmul(b),
          "torch.matmul": lambda lib, a, b: lib.matmul(a, b)}[form]
    run_case(oracle, fn, [(shapes[0], "f", True), (shapes[1], "f", True)], fdt, grad="rand")


@pytest.mark.parametrize("shapes", _matmul_params(MATMUL_BACKWARD_DIFFS))
def test_matmul_values_and_grads(oracle, shapes):
    """Values, repr up to the grad_fn, and gradients of every matmul form, leaving the
    graph's shape aside."""
    rng = np.random.default_rng(5)
    arrays = [gen(rng, shapes[0], "f", F64), gen(rng, shapes[1], "f", F64)]

    def program(lib):
        ins = make_inputs(lib, arrays, [True, True])
        out = ins[0] @ ins[1]
        out.sum().backward()
        return out, [x.grad for x in ins]
    (mo, m_grads), (to, t_grads) = oracle.both(program)
    assert mo.shape == to.shape
    np.testing.assert_allclose(mo.values, to.values, rtol=1e-10)
    assert mo.repr.split("grad_fn")[0] == to.repr.split("grad_fn")[0]
    for m, t in zip(m_grads, t_grads):
        np.testing.assert_allclose(m.values, t.values, rtol=1e-10)


@pytest.mark.parametrize("shapes", [pytest.param(s, id=n) for n, s in MATMUL.items()])
def test_matmul_no_grad_inputs(oracle, shapes):
    run_case(oracle, lambda lib, a, b: a @ b, [(shapes[0], "f", False), (shapes[1], "f", False)], F32)


@pytest.mark.parametrize("form", ["mm", "torch.mm"])
def test_mm(oracle, form):
    fn = (lambda lib, a, b: a.mm(b)) if form == "mm" else (lambda lib, a, b: lib.mm(a, b))
    run_case(oracle, fn, [((2, 3), "f", True), ((3, 4), "f", False)], F32)


# ---------------------------------------------------------------------------------------------
# Unary elementwise functions
# ---------------------------------------------------------------------------------------------

UNARY = {
    "exp": (lambda lib, x: x.exp(), "f"),
    "torch.exp": (lambda lib, x: lib.exp(x), "f"),
    "log": (lambda lib, x: x.log(), "pos"),
    "torch.log": (lambda lib, x: lib.log(x), "pos"),
    "sqrt": (lambda lib, x: x.sqrt(), "pos"),
    "abs": (lambda lib, x: x.abs(), "f"),
    "builtin abs": (lambda lib, x: abs(x), "f"),
    "torch.abs": (lambda lib, x: lib.abs(x), "f"),
    "relu": (lambda lib, x: x.relu(), "f"),
    "torch.relu": (lambda lib, x: lib.relu(x), "f"),
    "sigmoid": (lambda lib, x: x.sigmoid(), "f"),
    "torch.sigmoid": (lambda lib, x: lib.sigmoid(x), "f"),
    "tanh": (lambda lib, x: x.tanh(), "f"),
    "clamp(-0.5, 0.5)": (lambda lib, x: x.clamp(-0.5, 0.5), "f"),
    "clamp(min=0)": (lambda lib, x: x.clamp(min=0), "f"),
    "clamp(max=0.2)": (lambda lib, x: x.clamp(max=0.2), "f"),
    "torch.clamp": (lambda lib, x: lib.clamp(x, -0.5, 0.5), "f"),
    "clip": (lambda lib, x: x.clip(-0.5, 0.5), "f"),
    "reciprocal": (lambda lib, x: x.reciprocal(), "pos"),
    "sign": (lambda lib, x: x.sign(), "f"),
    "sgn": (lambda lib, x: x.sgn(), "f"),
    "torch.sgn": (lambda lib, x: lib.sgn(x), "f"),
    "clone": (lambda lib, x: x.clone(), "f"),
    "torch.clone": (lambda lib, x: lib.clone(x), "f"),
}
UNARY_DIFFS = {}


def _unary_params():
    return [pytest.param(fn, kind, id=name, marks=[diff(UNARY_DIFFS[name])] if name in UNARY_DIFFS else [])
            for name, (fn, kind) in UNARY.items()]


@FLOATS
@pytest.mark.parametrize("fn, kind", _unary_params())
@pytest.mark.parametrize("shape", [(2, 3), ()], ids=["2x3", "0d"])
def test_unary(oracle, fn, kind, fdt, shape):
    run_case(oracle, fn, [(shape, kind, True)], fdt, grad="rand")


@pytest.mark.parametrize("fn, kind", _unary_params())
def test_unary_no_grad_input(oracle, fn, kind):
    run_case(oracle, fn, [((4,), kind, False)], F32)


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


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("fn, a", [
    pytest.param(lambda lib, x: x.relu(), np.array([-1.0, 0.0, 2.0], F32), id="relu"),
    pytest.param(lambda lib, x: x.abs(), np.array([-1.0, 0.0, 2.0], F32), id="abs"),
    pytest.param(lambda lib, x: x.clamp(0.0, 2.0), np.array([-1.0, 0.0, 2.0], F32), id="clamp"),
    pytest.param(lambda lib, x: x.sqrt(), np.array([0.0, 4.0], F32), id="sqrt"),
])
def test_relu_abs_at_zero(oracle, fn, a):
    """The subgradients PyTorch picks at 0: relu' = 0, abs' = 0, clamp passes at the bound."""
    compare(oracle, fn, [a], [True])


ZERO_GRAD_OPS = {
    "relu": lambda lib, x: x.relu(),
    "clamp": lambda lib, x: x.clamp(-0.5, 0.5),
    "clamp(min=0)": lambda lib, x: x.clamp(min=0),
    "sign": lambda lib, x: x.sign(),
    "sgn": lambda lib, x: x.sgn(),
    "x**0": lambda lib, x: x ** 0,
    "max()": lambda lib, x: x.max(),
    "max(0)": lambda lib, x: x.max(0).values,
    "maximum": lambda lib, x: lib.maximum(x, lib.zeros(4)),
    "abs": lambda lib, x: x.abs(),
    "x*0": lambda lib, x: x * 0,
    "where": lambda lib, x: lib.where(x > 0, x, 0.0),
    "x[::2]": lambda lib, x: x[::2],
    "x[[0, 0]]": lambda lib, x: x[[0, 0]],
    "x[1]": lambda lib, x: x[1],
    "cat": lambda lib, x: lib.cat([x[:1], x[:1]]),
    "mul by zero tensor": lambda lib, x: x * lib.tensor([0.0, 1.0, 0.0, 1.0]),
}
ZERO_GRAD_DIFFS = {
}


@pytest.mark.parametrize("fn", _params(ZERO_GRAD_OPS, ZERO_GRAD_DIFFS))
def test_zero_gradient_sign(oracle, fn):
    """A zero gradient prints as 0. in PyTorch, also when the upstream gradient is negative:
    x.grad must not show -0."""
    a = np.array([-1.5, 2.0, -0.25, 0.75], F32)

    def program(lib):
        x = lib.tensor(a, requires_grad=True)
        y = fn(lib, x)
        y.backward(-lib.ones_like(y) * 3)
        return x.grad
    m, t = oracle.both(program)
    np.testing.assert_array_equal(m.values, t.values)
    np.testing.assert_array_equal(np.signbit(m.values), np.signbit(t.values))
    assert repr(m) == repr(t)


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


def test_maximum_ties(oracle):
    a = np.array([1.0, 2.0, 3.0], F32)
    b = np.array([1.0, 5.0, 3.0], F32)
    compare(oracle, BINARY["maximum"], [a, b], [True, True])


@pytest.mark.parametrize("fn", [lambda lib, x: x.max(), lambda lib, x: x.max(1), lambda lib, x: x.max(0)],
                         ids=["max()", "max(1)", "max(0)"])
def test_max_ties(oracle, fn):
    a = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], F32)
    compare(oracle, fn, [a], [True])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("fn, a, rg", [
    pytest.param(lambda lib, x: x.exp(), np.array([100.0, -100.0], F32), True, id="exp"),
    pytest.param(lambda lib, x: x.log(), np.array([0.0, 1.0], F32), False, id="log"),
])
def test_exp_overflow_and_log_zero(oracle, fn, a, rg):
    compare(oracle, fn, [a], [rg])


def test_sigmoid_underflow(oracle):
    compare(oracle, lambda lib, x: x.sigmoid(), [np.array([100.0, -100.0], F32)], [True])


# ---------------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------------

REDUCTIONS = {
    "sum()": lambda lib, x: x.sum(),
    "torch.sum": lambda lib, x: lib.sum(x),
    "sum(0)": lambda lib, x: x.sum(0),
    "sum(1)": lambda lib, x: x.sum(1),
    "sum(-1)": lambda lib, x: x.sum(-1),
    "sum(dim=1, keepdim)": lambda lib, x: x.sum(dim=1, keepdim=True),
    "sum((0, 2))": lambda lib, x: x.sum((0, 2)),
    "sum([0, 1], keepdim)": lambda lib, x: x.sum([0, 1], keepdim=True),
    "torch.sum(x, 1)": lambda lib, x: lib.sum(x, 1),
    "mean()": lambda lib, x: x.mean(),
    "torch.mean": lambda lib, x: lib.mean(x),
    "mean(0)": lambda lib, x: x.mean(0),
    "mean(-1, keepdim)": lambda lib, x: x.mean(-1, keepdim=True),
    "mean((1, 2))": lambda lib, x: x.mean((1, 2)),
    "var()": lambda lib, x: x.var(),
    "var(1)": lambda lib, x: x.var(1),
    "var(0, keepdim, correction=0)": lambda lib, x: x.var(0, keepdim=True, correction=0),
    "torch.var(x, (0, 2))": lambda lib, x: lib.var(x, (0, 2)),
    "std()": lambda lib, x: x.std(),
    "std(False)": lambda lib, x: x.std(False),
    "std(-1, keepdim)": lambda lib, x: x.std(-1, keepdim=True),
    "torch.std(x, 0)": lambda lib, x: lib.std(x, 0),
    "norm()": lambda lib, x: x.norm(),
    "norm(dim=1)": lambda lib, x: x.norm(dim=1),
    "torch.norm(x, 2, (0, 2), keepdim)": lambda lib, x: lib.norm(x, 2, (0, 2), True),
    "max()": lambda lib, x: x.max(),
    "torch.max(x)": lambda lib, x: lib.max(x),
    "max(0)": lambda lib, x: x.max(0),
    "max(1)": lambda lib, x: x.max(1),
    "max(dim=-1, keepdim)": lambda lib, x: x.max(dim=-1, keepdim=True),
    "torch.max(x, 1)": lambda lib, x: lib.max(x, 1),
    "max(1).values": lambda lib, x: x.max(1).values,
    "max(1).indices": lambda lib, x: x.max(1).indices,
    "max(1)[0]": lambda lib, x: x.max(1)[0],
    "argmax()": lambda lib, x: x.argmax(),
    "argmax(1)": lambda lib, x: x.argmax(1),
    "softmax(-1)": lambda lib, x: x.softmax(-1),
    "softmax(0)": lambda lib, x: x.softmax(dim=0),
    "torch.softmax": lambda lib, x: lib.softmax(x, 1),
    "log_softmax(-1)": lambda lib, x: x.log_softmax(-1),
    "log_softmax(1)": lambda lib, x: lib.log_softmax(x, dim=1),
    "logsumexp(-1)": lambda lib, x: x.logsumexp(-1),
    "logsumexp(1, keepdim)": lambda lib, x: x.logsumexp(1, keepdim=True),
    "logsumexp((0, 2))": lambda lib, x: lib.logsumexp(x, (0, 2)),
}


REDUCTION_DIFFS = {
}


@FLOATS
@pytest.mark.parametrize("fn", _params(REDUCTIONS, REDUCTION_DIFFS))
def test_reduction(oracle, fn, fdt):
    run_case(oracle, fn, [((2, 3, 4), "f", True)], fdt, grad="rand")


@pytest.mark.parametrize("fn", _params(REDUCTIONS, REDUCTION_DIFFS))
def test_reduction_sum_backward_f32(oracle, fn):
    run_case(oracle, fn, [((2, 3, 4), "f", True)], F32, grad="sum")


def test_max_repr(oracle):
    a = gen(np.random.default_rng(1), (2, 3), "f", F32)

    def program(lib):
        x = lib.tensor(a, requires_grad=True)
        values, indices = x.max(0)
        return repr(x.max(1)), repr(x.max(1, keepdim=True)), repr(values), repr(indices)
    oracle.same(program)


@pytest.mark.parametrize("fn", [lambda lib, x: x.sum(), lambda lib, x: x.mean()], ids=["sum()", "mean()"])
def test_sum_mean_of_0d(oracle, fn):
    compare(oracle, fn, [np.array(2.5, F32)], [True])


@pytest.mark.parametrize("fn", [lambda lib, x: x.sum(0), lambda lib, x: x.mean(-1)],
                         ids=["sum(0)", "mean(-1)"])
def test_sum_dim0_of_0d(oracle, fn):
    compare(oracle, fn, [np.array(2.5, F32)], [True])


# ---------------------------------------------------------------------------------------------
# Shapes and views
# ---------------------------------------------------------------------------------------------

SHAPE_OPS = {
    "reshape(3, 8)": lambda lib, x: x.reshape(3, 8),
    "reshape((4, -1))": lambda lib, x: x.reshape((4, -1)),
    "reshape([-1])": lambda lib, x: x.reshape([-1]),
    "torch.reshape": lambda lib, x: lib.reshape(x, (6, 4)),
    "view(6, 4)": lambda lib, x: x.view(6, 4),
    "view(-1)": lambda lib, x: x.view(-1),
    "view((2, 12))": lambda lib, x: x.view((2, 12)),
    "view_as": lambda lib, x: x.view_as(lib.zeros(4, 6)),
    "transpose(0, 1)": lambda lib, x: x.transpose(0, 1),
    "transpose(-1, 0)": lambda lib, x: x.transpose(-1, 0),
    "torch.transpose": lambda lib, x: lib.transpose(x, 1, 2),
    "permute(2, 0, 1)": lambda lib, x: x.permute(2, 0, 1),
    "permute((1, 2, 0))": lambda lib, x: x.permute((1, 2, 0)),
    "torch.permute": lambda lib, x: lib.permute(x, (2, 1, 0)),
    ".T (3-D)": lambda lib, x: x.permute(2, 1, 0),
    ".mT": lambda lib, x: x.mT,
    "unsqueeze(0)": lambda lib, x: x.unsqueeze(0),
    "unsqueeze(-1)": lambda lib, x: x.unsqueeze(-1),
    "unsqueeze(2)": lambda lib, x: lib.unsqueeze(x, 2),
    "flatten()": lambda lib, x: x.flatten(),
    "flatten(1)": lambda lib, x: x.flatten(1),
    "flatten(0, 1)": lambda lib, x: lib.flatten(x, 0, 1),
    "flatten(1, 1)": lambda lib, x: x.flatten(1, 1),
    "expand(2, 2, 3, 4)": lambda lib, x: x.expand(2, 2, 3, 4),
    "expand(-1, -1, -1)": lambda lib, x: x.expand(-1, -1, -1) * 1,
    "expand_as": lambda lib, x: x.expand_as(lib.zeros(5, 2, 3, 4)),
    "transpose then reshape": lambda lib, x: x.transpose(0, 2).reshape(-1),
    "transpose then flatten": lambda lib, x: x.transpose(0, 2).flatten(),
    "transpose then contiguous view": lambda lib, x: x.transpose(0, 1).contiguous().view(-1),
}
SHAPE_DIFFS = {
}


@FLOATS
@pytest.mark.parametrize("fn", _params(SHAPE_OPS, SHAPE_DIFFS))
def test_shape_op(oracle, fn, fdt):
    run_case(oracle, fn, [((2, 3, 4), "f", True)], fdt, grad="rand")


TWO_D_OPS = {
    ".T": lambda lib, x: x.T,
    ".t()": lambda lib, x: x.t(),
    "torch.t": lambda lib, x: lib.t(x),
    "transpose(0, 1)": lambda lib, x: x.transpose(0, 1),
    ".T.T": lambda lib, x: x.T.T,
    "squeeze()": lambda lib, x: x.unsqueeze(1).squeeze(),
    "squeeze(1)": lambda lib, x: x.unsqueeze(1).squeeze(1),
    "squeeze(0) no-op": lambda lib, x: x.squeeze(0),
    "squeeze(-1) on 1": lambda lib, x: x.unsqueeze(-1).squeeze(-1),
    "squeeze((1, 3))": lambda lib, x: x.unsqueeze(1).unsqueeze(3).squeeze((1, 3)),
    "torch.squeeze": lambda lib, x: lib.squeeze(x.unsqueeze(0)),
    "torch.squeeze dim": lambda lib, x: lib.squeeze(x.unsqueeze(0), 0),
    "sum_to_size(1, 3)": lambda lib, x: x.sum_to_size(1, 3),
    "view on .T rows": lambda lib, x: x.T.reshape(3, 2),
}
TWO_D_DIFFS = {}


@FLOATS
@pytest.mark.parametrize("fn", _params(TWO_D_OPS, TWO_D_DIFFS))
def test_shape_op_2d(oracle, fn, fdt):
    run_case(oracle, fn, [((2, 3), "f", True)], fdt, grad="rand")


@pytest.mark.filterwarnings("ignore:The use of `x.T`")
@pytest.mark.parametrize("fn", [pytest.param(lambda lib, x: x.t(), id="1d.t()"),
                                pytest.param(lambda lib, x: x.T, id="1d.T"),
                                pytest.param(lambda lib, x: x.flatten(), id="1d.flatten()"),
                                pytest.param(lambda lib, x: x.squeeze(), id="1d.squeeze()"),
                                pytest.param(lambda lib, x: x.unsqueeze(0), id="1d.unsqueeze")])
def test_shape_op_1d(oracle, fn):
    run_case(oracle, fn, [((3,), "f", True)], F32)


@pytest.mark.parametrize("fn", [pytest.param(lambda lib, x: x.flatten(), id="flatten"),
                                pytest.param(lambda lib, x: x.unsqueeze(0), id="unsqueeze"),
                                pytest.param(lambda lib, x: x.reshape(1, 1), id="reshape(1, 1)"),
                                pytest.param(lambda lib, x: x.view(-1), id="view(-1)"),
                                pytest.param(lambda lib, x: x.t(), id="t()"),
                                pytest.param(lambda lib, x: x.squeeze(), id="squeeze()")])
def test_shape_op_0d(oracle, fn):
    run_case(oracle, fn, [((), "f", True)], F32)


# ---------------------------------------------------------------------------------------------
# Indexing
# ---------------------------------------------------------------------------------------------

INDEXING = {
    "x[1]": lambda lib, x: x[1],
    "x[-1]": lambda lib, x: x[-1],
    "x[1:3]": lambda lib, x: x[1:3],
    "x[::2]": lambda lib, x: x[::2],
    "x[1::2]": lambda lib, x: x[1::2],
    "x[:, 1]": lambda lib, x: x[:, 1],
    "x[..., 2]": lambda lib, x: x[..., 2],
    "x[1, 2]": lambda lib, x: x[1, 2],
    "x[1, 2, 3]": lambda lib, x: x[1, 2, 3],
    "x[[0, 0, 2]]": lambda lib, x: x[[0, 0, 2]],
    "x[tensor([2, 0, 2])]": lambda lib, x: x[lib.tensor([2, 0, 2])],
    "x[mask]": lambda lib, x: x[x > 0],
    "x[bool list]": lambda lib, x: x[[True, False, True, False]],
    "x[None]": lambda lib, x: x[None],
    "x[:, None]": lambda lib, x: x[:, None],
    "x[1, ::2]": lambda lib, x: x[1, ::2],
    "x[1:, 2]": lambda lib, x: x[1:, 2],
    "x[None, 1]": lambda lib, x: x[None, 1],
    "x[[0, 2], 1:]": lambda lib, x: x[[0, 2], 1:],
    "x[[0, 2], [1, 1]]": lambda lib, x: x[[0, 2], [1, 1]],
    "x[:, [2, 2, 0]]": lambda lib, x: x[:, [2, 2, 0]],
    "x[1][2]": lambda lib, x: x[1][2],
}
INDEX_DIFFS = {
    "x[[0, 2], 1:]": "x[[0, 2], 1:]: PyTorch records IndexBackward0 -> SliceBackward0; minigrad "
                     "a single IndexBackward0",
}


@FLOATS
@pytest.mark.parametrize("fn", _params(INDEXING, INDEX_DIFFS))
def test_indexing(oracle, fn, fdt):
    run_case(oracle, fn, [((4, 3, 5), "f", True)], fdt, grad="rand")


@pytest.mark.parametrize("fn", INDEXING.values(), ids=INDEXING.keys())
def test_indexing_values_and_grads(oracle, fn):
    """Values and gradients of every index form, leaving the graph's shape aside."""
    a = gen(np.random.default_rng(2), (4, 3, 5), "f", F64)

    def program(lib):
        x = lib.tensor(a, requires_grad=True)
        out = fn(lib, x)
        out.backward(lib.tensor(np.random.default_rng(3).standard_normal(tuple(out.shape))))
        return out, x.grad
    (mo, m_grad), (to, t_grad) = oracle.both(program)
    assert mo.shape == to.shape
    np.testing.assert_array_equal(mo.values, to.values)
    np.testing.assert_allclose(m_grad.values, t_grad.values, rtol=1e-12)


@pytest.mark.parametrize("fn", [lambda lib, x: x[1:, [0, 0]], lambda lib, x: x[x > 5]],
                         ids=["x[1:, [0, 0]]", "x[x > 5]"])
def test_indexing_int_tensor(oracle, fn):
    compare(oracle, fn, [np.arange(12).reshape(3, 4)], [False])


def test_iterate_requires_grad(oracle):
    """``for row in x`` uses unbind in PyTorch."""
    a = gen(np.random.default_rng(2), (2, 3), "f", F32)
    oracle.same(lambda lib: [repr(r).split("grad_fn")[0] for r in lib.tensor(a, requires_grad=True)])


def test_iterate_requires_grad_node(oracle):
    a = gen(np.random.default_rng(2), (2, 3), "f", F32)
    oracle.same(lambda lib: [repr(r) for r in lib.tensor(a, requires_grad=True)])


# ---------------------------------------------------------------------------------------------
# Joining, selecting, copying, converting
# ---------------------------------------------------------------------------------------------

JOIN = {
    "cat dim0": (lambda lib, a, b: lib.cat([a, b]), ((2, 3), (4, 3))),
    "cat dim1": (lambda lib, a, b: lib.cat((a, b), dim=1), ((2, 3), (2, 1))),
    "cat dim-1": (lambda lib, a, b: lib.cat([a, b], -1), ((2, 3), (2, 2))),
    "cat three": (lambda lib, a, b: lib.cat([a, b, a]), ((2, 3), (1, 3))),
    "concat": (lambda lib, a, b: lib.concat([a, b]), ((3,), (2,))),
    "stack dim0": (lambda lib, a, b: lib.stack([a, b]), ((2, 3), (2, 3))),
    "stack dim1": (lambda lib, a, b: lib.stack((a, b), dim=1), ((2, 3), (2, 3))),
    "stack dim-1": (lambda lib, a, b: lib.stack([a, b, b], -1), ((2, 3), (2, 3))),
    "stack 0d": (lambda lib, a, b: lib.stack([a, b]), ((), ())),
}
JOIN_DIFFS = {}
WHERE = {
    "where": (lambda lib, a, b: lib.where(a > 0, a, b), ((2, 3), (2, 3))),
    "where broadcast": (lambda lib, a, b: lib.where(a > 0, a, b), ((2, 3), (3,))),
    "where number": (lambda lib, a, b: lib.where(a > b, a, 0.0), ((2, 3), (3,))),
    "where number left": (lambda lib, a, b: lib.where(a > b, 1.0, b), ((2, 3), (3,))),
    "where 0-d other": (lambda lib, a, b: lib.where(a > 0, a, b), ((2, 3), ())),
}
@FLOATS
@pytest.mark.parametrize("fn, shapes", [pytest.param(*WHERE[k], id=k) for k in WHERE])
@pytest.mark.parametrize("flags", [(True, True), (True, False), (False, True), (False, False)],
                         ids=["both_rg", "left_rg", "right_rg", "no_rg"])
def test_where(oracle, fn, shapes, fdt, flags):
    rng = np.random.default_rng(4)
    arrays = [gen(rng, shapes[0], "f", fdt), gen(rng, shapes[1], "f", fdt)]
    compare(oracle, fn, arrays, list(flags), grad="rand")


@FLOATS
@pytest.mark.parametrize("fn, shapes", [pytest.param(*JOIN[k], id=k, marks=[diff(JOIN_DIFFS[k])]
                                                     if k in JOIN_DIFFS else [])
                                        for k in JOIN])
@pytest.mark.parametrize("flags", [(True, True), (True, False)], ids=["both_rg", "left_rg"])
def test_join(oracle, fn, shapes, fdt, flags):
    run_case(oracle, fn, [(shapes[0], "f", flags[0]), (shapes[1], "f", flags[1])], fdt, grad="rand")


@pytest.mark.parametrize("name", list(WHERE))
def test_where_values_and_grads(oracle, name):
    fn, shapes = WHERE[name]
    rng = np.random.default_rng(4)
    arrays = [gen(rng, shapes[0], "f", F32), gen(rng, shapes[1], "f", F32)]

    def program(lib):
        ins = make_inputs(lib, arrays, [True, True])
        out = fn(lib, *ins)
        out.sum().backward()
        return repr(out), [repr(x.grad) for x in ins]
    oracle.same(program)


CONVERT = {
    ".double()": lambda lib, x: x.double(),
    ".float()": lambda lib, x: x.float(),
    ".long()": lambda lib, x: x.long(),
    ".bool()": lambda lib, x: x.bool(),
    ".to(float64)": lambda lib, x: x.to(lib.float64),
    ".to(float32)": lambda lib, x: x.to(lib.float32),
    ".to(int64)": lambda lib, x: x.to(lib.int64),
    ".to(torch.double)": lambda lib, x: x.to(lib.double),
    ".to('cpu')": lambda lib, x: x.to("cpu"),
    ".double() * 2": lambda lib, x: x.double() * 2,
    ".float().exp()": lambda lib, x: x.float().exp(),
    "x.long() + x": lambda lib, x: x.long() + x,
}


@FLOATS
@pytest.mark.parametrize("fn", CONVERT.values(), ids=CONVERT.keys())
@pytest.mark.parametrize("rg", [True, False], ids=["rg", "no_rg"])
def test_convert(oracle, fn, fdt, rg):
    run_case(oracle, fn, [((2, 3), "f", rg)], fdt, grad="rand")


@pytest.mark.parametrize("fn", [lambda lib, x: x.double(), lambda lib, x: x.float(),
                                lambda lib, x: x.long(), lambda lib, x: x.bool(),
                                lambda lib, x: x.to(lib.float32)],
                         ids=["double", "float", "long", "bool", "to(float32)"])
@pytest.mark.parametrize("kind", ["int", "bool"])
def test_convert_int_bool(oracle, fn, kind):
    run_case(oracle, fn, [((2, 3), kind, False)], None)


def test_to_same_dtype_is_self(oracle):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return x.float() is x, x.to(lib.float32) is x, x.double() is x
    assert oracle.same(program) == (True, True, False)


def test_detach(oracle):
    def fn(lib, x):
        return (x * 2).detach()
    run_case(oracle, fn, [((3,), "f", True)], F32)


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


_A, _B = np.array([1.0, 2.0, 3.0], F32), np.array([2.0, 2.0, 2.0], F32)


@pytest.mark.parametrize("fn, arrays, flags", [
    pytest.param(lambda lib, a, b: a > b, [_A, _B], [True, False], id="a > b"),
    pytest.param(lambda lib, a, b: (a == b) | (a < 1.5), [_A, _B], [False, False], id="(a == b) | (a < 1.5)"),
    pytest.param(lambda lib, a: ~(a >= 2), [_A], [True], id="~(a >= 2)"),
])
def test_comparisons(oracle, fn, arrays, flags):
    compare(oracle, fn, arrays, flags)


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


# ---------------------------------------------------------------------------------------------
# Backward recorded (create_graph=True): the backward ops' own nodes and second derivatives
# ---------------------------------------------------------------------------------------------

SECOND = {
    "relu": lambda lib, x, v: (x.relu() * v).sum(),
    "log_softmax": lambda lib, x, v: (x.log_softmax(1) * v).sum(),
    "nll mean": lambda lib, x, v: lib.nn.functional.nll_loss(x * v, lib.tensor([0, 2, 1, 2])),
    "nll sum": lambda lib, x, v: lib.nn.functional.nll_loss(x * v, lib.tensor([1, 0, 0, 2]), reduction="sum"),
    "nll none": lambda lib, x, v: (lib.nn.functional.nll_loss(x * v, lib.tensor([1, 0, 0, 2]),
                                                              reduction="none") ** 2).sum(),
    "nll weight": lambda lib, x, v: lib.nn.functional.nll_loss(
        x * v, lib.tensor([1, 0, 0, 2]), weight=lib.tensor([0.5, 2.0, 1.0], dtype=lib.float64)),
    "cross_entropy": lambda lib, x, v: lib.nn.functional.cross_entropy(x * v, lib.tensor([2, 0, 1, 1])),
}


@pytest.mark.parametrize("fn", SECOND.values(), ids=SECOND.keys())
def test_second_derivative_graph_and_values(oracle, fn):
    """``grad(f(x), x, create_graph=True)``: the gradient's graph has PyTorch's node names
    (ThresholdBackwardBackward0, ...), and differentiating it again gives PyTorch's numbers."""
    rng = np.random.default_rng(0)
    x0, v0, u0 = (rng.standard_normal((4, 3)) for _ in range(3))

    def program(lib):
        x = lib.tensor(x0, requires_grad=True)
        v = lib.tensor(v0, requires_grad=True)
        g, = lib.autograd.grad(fn(lib, x, v), x, create_graph=True)
        hx, hv = lib.autograd.grad((g * lib.tensor(u0)).sum(), (x, v), allow_unused=True,
                                   materialize_grads=True)
        return type(g.grad_fn).__name__, g, hx, hv
    mine, theirs = oracle.both(program)
    assert mine[0] == theirs[0]
    for a, b in zip(mine[1:], theirs[1:]):
        np.testing.assert_allclose(a.values, b.values, rtol=1e-10, atol=1e-12)


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
