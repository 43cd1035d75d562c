"""Property-based gradient checks for every differentiable minigrad op.

Each case is checked twice, with float64 central differences:

1. ``minigrad.autograd.gradcheck`` (the library's own checker), and
2. ``check_grads`` below: an independent checker written here with plain NumPy, so a
   bug in ``gradcheck`` itself cannot hide a bug in an op. It rebuilds fresh input
   tensors for every perturbed evaluation (no in-place poking of ``_data``), builds
   the full numerical Jacobian, compares it with the analytical Jacobian obtained
   from one-hot vector-Jacobian products, and also compares a *dense random*
   cotangent VJP (one-hot seeds alone cannot see gradients that fail to accumulate,
   e.g. ``x[[0, 0]]`` whose backward assigns instead of adding). It also checks that
   every gradient has its input's shape and dtype.

Second-order checks run the same checker on ``x -> grad(f(x), x, v, create_graph=True)``:
the analytical side is then a Hessian-vector product obtained by differentiating twice,
the numerical side central differences of the first gradient.

Inputs are kept away from non-differentiable points by the strategies (kinks of
abs/relu/clamp, ties of max/maximum, log/sqrt/div near 0).

Bugs found in minigrad are kept as ``xfail(strict=True)`` tests named ``*_bug_*``.
"""
import math
import operator
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad.autograd import Function, gradcheck
from minigrad.autograd import grad as autograd_grad
from minigrad.autograd.gradcheck import GradcheckError

# A local profile (registered, never loaded globally): modest example counts, no deadline,
# derandomized so that the strict xfails and the run time are reproducible.
settings.register_profile(
    "minigrad_gradcheck", max_examples=40, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture])
PROFILE = settings.get_profile("minigrad_gradcheck")
FEW = settings(PROFILE, max_examples=20)  # for the costlier second-order checks

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-4


# =============================================================================================
# The independent checker
# =============================================================================================


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _float_outputs(outs):
    return [o for o in outs if o.dtype.is_floating_point]


def _fresh(arrays, wrt, dtype=None):
    dtype = dtype or minigrad.float64
    return [minigrad.tensor(np.array(a, dtype=np.float64), dtype=dtype, requires_grad=i in wrt)
            for i, a in enumerate(arrays)]


def _evaluate(fn, arrays, wrt):
    """Run ``fn`` on fresh tensors built from ``arrays``; outputs as flat float64 arrays."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = _float_outputs(_as_tuple(fn(*_fresh(arrays, wrt))))
    return [np.asarray(o._data, dtype=np.float64).ravel() for o in outs]


def numerical_jacobians(fn, arrays, wrt, eps=EPS):
    """J[k][i][r, j] = d out_k[r] / d in_i[j] by central differences, in plain NumPy."""
    base = [np.array(a, dtype=np.float64) for a in arrays]
    sizes = [o.size for o in _evaluate(fn, base, wrt)]
    jac = [{i: np.zeros((n, base[i].size)) for i in wrt} for n in sizes]
    for i in wrt:
        for j in range(base[i].size):
            plus = [a.copy() for a in base]
            minus = [a.copy() for a in base]
            plus[i].flat[j] += eps
            minus[i].flat[j] -= eps
            for k, (p, m) in enumerate(zip(_evaluate(fn, plus, wrt), _evaluate(fn, minus, wrt))):
                jac[k][i][:, j] = (p - m) / (2 * eps)
    return jac


def _check_grad_meta(g, t, where):
    assert g.shape == t.shape, f"{where}: gradient shape {tuple(g.shape)} != input shape {tuple(t.shape)}"
    assert g.dtype is t.dtype, f"{where}: gradient dtype {g.dtype} != input dtype {t.dtype}"


def analytical_jacobians(fn, arrays, wrt):
    """The same Jacobians from autograd: one VJP with a one-hot seed per output element."""
    ts = _fresh(arrays, wrt)
    outs = _float_outputs(_as_tuple(fn(*ts)))
    diff = [ts[i] for i in wrt]
    jac = []
    for k, out in enumerate(outs):
        jk = {i: np.zeros((out.numel(), ts[i].numel())) for i in wrt}
        if out.requires_grad:
            for r in range(out.numel()):
                seed = np.zeros(out.shape, dtype=out._data.dtype)
                seed.flat[r] = 1
                gs = autograd_grad(out, diff, minigrad.from_numpy(seed), retain_graph=True,
                                   allow_unused=True)
                for i, g in zip(wrt, gs):
                    if g is not None:
                        _check_grad_meta(g, ts[i], f"output {k}, input {i}")
                        jk[i][r] = np.asarray(g._data, dtype=np.float64).ravel()
        jac.append(jk)
    return jac


def check_independent(fn, *arrays, wrt=None, eps=EPS, atol=ATOL, rtol=RTOL, seed=0):
    wrt = tuple(range(len(arrays))) if wrt is None else tuple(wrt)
    num = numerical_jacobians(fn, arrays, wrt, eps)
    ana = analytical_jacobians(fn, arrays, wrt)
    assert len(num) == len(ana)
    for k in range(len(num)):
        for i in wrt:
            np.testing.assert_allclose(ana[k][i], num[k][i], rtol=rtol, atol=atol,
                                       err_msg=f"Jacobian of output {k} w.r.t. input {i}")
    # A dense random cotangent through a fresh graph (also exercises freeing buffers).
    ts = _fresh(arrays, wrt)
    pairs = [(k, o) for k, o in enumerate(_float_outputs(_as_tuple(fn(*ts)))) if o.requires_grad]
    if not pairs:
        return
    idx, outs = zip(*pairs)
    rng = np.random.default_rng(seed)
    vs = [rng.uniform(0.5, 1.5, o.shape) * rng.choice([-1, 1], o.shape) for o in outs]
    gs = autograd_grad(outs, [ts[i] for i in wrt],
                       [minigrad.from_numpy(np.asarray(v, dtype=o._data.dtype)) for v, o in zip(vs, outs)],
                       allow_unused=True)
    for i, g in zip(wrt, gs):
        expected = sum(v.ravel() @ num[k][i] for v, k in zip(vs, idx))
        got = np.zeros(arrays[i].size) if g is None else np.asarray(g._data, np.float64).ravel()
        if g is not None:
            _check_grad_meta(g, ts[i], f"random VJP, input {i}")
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol * 10,
                                   err_msg=f"random-cotangent VJP w.r.t. input {i}")


def check_with_gradcheck(fn, *arrays, wrt=None, eps=EPS, atol=ATOL, rtol=RTOL):
    wrt = tuple(range(len(arrays))) if wrt is None else tuple(wrt)
    assert gradcheck(fn, _fresh(arrays, wrt), eps=eps, atol=atol, rtol=rtol)


def check_grads(fn, *arrays, wrt=None, eps=EPS, atol=ATOL, rtol=RTOL):
    """Both checkers. ``arrays`` are float64 NumPy arrays, made into float64 tensors
    (requiring grad if their index is in ``wrt``, default all) and passed to ``fn``."""
    check_with_gradcheck(fn, *arrays, wrt=wrt, eps=eps, atol=atol, rtol=rtol)
    check_independent(fn, *arrays, wrt=wrt, eps=eps, atol=atol, rtol=rtol)


def first_gradient(f, wrt_count=None, seed=1):
    """``x -> grad(f(x), x, v, create_graph=True)``: its Jacobian is a Hessian (times v)."""
    def g(*ts):
        # enable_grad: minigrad's gradcheck evaluates its finite differences under no_grad()
        # (PyTorch's does not; see test_bug_gradcheck_runs_func_under_no_grad).
        with minigrad.enable_grad():
            out = f(*ts)
            diff = [t for t in ts if t.requires_grad]
            v = np.random.default_rng(seed).uniform(0.5, 1.5, out.shape)
            return autograd_grad(out, diff, minigrad.from_numpy(v.astype(out._data.dtype)),
                                 create_graph=True, allow_unused=True, materialize_grads=True)
    return g


def check_second_order(f, *arrays, wrt=None, atol=1e-4, rtol=1e-4):
    check_grads(first_gradient(f), *arrays, wrt=wrt, atol=atol, rtol=rtol)


# =============================================================================================
# Strategies
# =============================================================================================


def floats(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def away(lo, hi):
    """Magnitude in [lo, hi], either sign: keeps a value away from 0."""
    return st.builds(operator.mul, floats(lo, hi), st.sampled_from([-1.0, 1.0]))


def shapes(min_dims=0, max_dims=3, max_side=3):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=max_side)


def arrays(shape, elements=None):
    return hnp.arrays(np.float64, shape, elements=elements if elements is not None else floats(-2, 2))


def broadcast_pair(max_dims=3):
    return hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=max_dims, max_side=3)


@st.composite
def distinct(draw, shape):
    """Values with no ties (pairwise gaps >= 0.4): max and argmax are differentiable there."""
    n = int(np.prod(shape, dtype=np.int64))
    perm = np.array(draw(st.permutations(range(n))), dtype=np.float64)
    jitter = draw(hnp.arrays(np.float64, n, elements=floats(0, 0.1)))
    offset = draw(floats(-3, 3))
    return (0.5 * perm + jitter + offset - 0.25 * n).reshape(shape)


@st.composite
def dims_arg(draw, ndim, allow_tuple=True):
    """A ``dim`` argument: an int (maybe negative) or a tuple of distinct dims."""
    if allow_tuple and draw(st.booleans()):
        picked = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
        return tuple(d - ndim if draw(st.booleans()) else d for d in picked)
    return draw(st.integers(-ndim, ndim - 1))


# =============================================================================================
# Self-tests: the checkers can fail
# =============================================================================================


class TimesThreeWrongBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3

    @staticmethod
    def backward(ctx, grad):
        return grad * 6  # off by a factor of 2


class IndexNoAccumulate(Function):
    """x[idx] whose backward keeps the largest of the gradients reaching a repeated index
    instead of adding them. One-hot seeds (a Jacobian built row by row) cannot see this:
    only one of the duplicates is ever nonzero. A dense cotangent can."""

    @staticmethod
    def forward(ctx, x, idx):
        ctx.idx, ctx.shape = idx, x.shape
        return minigrad.from_numpy(x.detach().numpy()[idx].copy())

    @staticmethod
    def backward(ctx, grad):
        out = np.full(ctx.shape, -np.inf)
        np.maximum.at(out, ctx.idx, grad.detach().numpy())
        out[np.isinf(out)] = 0
        return minigrad.from_numpy(out), None


class SquareConstantBackward(Function):
    """x**2 with a right first derivative whose graph is cut: the second derivative is 0."""

    @staticmethod
    def forward(ctx, x):
        ctx.x = x.detach().numpy().copy()
        return minigrad.from_numpy(ctx.x ** 2)

    @staticmethod
    def backward(ctx, grad):
        return grad * minigrad.from_numpy(2 * ctx.x)


def test_selftest_factor_two_is_caught_by_both_checkers():
    x = np.array([[0.3, -1.2], [2.0, 0.7]])
    with pytest.raises(AssertionError):
        check_independent(TimesThreeWrongBackward.apply, x)
    with pytest.raises(GradcheckError):
        check_with_gradcheck(TimesThreeWrongBackward.apply, x)
    # ...while the right op passes both.
    check_grads(lambda t: t * 3, x)


def test_selftest_missing_accumulation_is_caught():
    x = np.array([0.3, -1.2, 2.0])
    idx = np.array([0, 0, 2])
    wrong = lambda t: IndexNoAccumulate.apply(t, idx)
    with pytest.raises(AssertionError, match="random-cotangent"):
        check_independent(wrong, x)
    # One-hot Jacobians alone, hence minigrad's gradcheck, are blind to it:
    check_with_gradcheck(wrong, x)
    check_grads(lambda t: t[idx], x)  # minigrad's own indexing accumulates


def test_selftest_wrong_second_derivative_is_caught():
    x = np.array([0.3, -1.2, 2.0])
    check_grads(SquareConstantBackward.apply, x)  # first order is right
    with pytest.raises(AssertionError):
        check_independent(first_gradient(SquareConstantBackward.apply), x)
    check_second_order(lambda t: t ** 2, x)


def test_selftest_wrong_dtype_is_caught():
    class Float64Grad(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = minigrad.tensor([1.0, 2.0], requires_grad=True)  # float32
    g, = autograd_grad(Float64Grad.apply(x).sum(), x)
    assert g.dtype is minigrad.float32  # the engine casts; the helper would flag otherwise
    with pytest.raises(AssertionError):
        _check_grad_meta(minigrad.zeros(2, dtype=minigrad.float64), x, "self-test")


# =============================================================================================
# Arithmetic
# =============================================================================================

BINARY = {
    # name: (op, elements of a, elements of b)
    "add": (operator.add, floats(-2, 2), floats(-2, 2)),
    "sub": (operator.sub, floats(-2, 2), floats(-2, 2)),
    "mul": (operator.mul, floats(-2, 2), floats(-2, 2)),
    "div": (operator.truediv, floats(-2, 2), away(0.5, 2)),
    "pow": (operator.pow, floats(0.5, 2), floats(-2, 2)),  # tensor exponent, positive base
    "maximum": (lambda a, b: a.maximum(b), None, None),  # elements built tie-free below
    "torch.add": (lambda a, b: minigrad.add(a, b), floats(-2, 2), floats(-2, 2)),
    "torch.mul": (lambda a, b: minigrad.mul(a, b), floats(-2, 2), floats(-2, 2)),
    "torch.div": (lambda a, b: minigrad.div(a, b), floats(-2, 2), away(0.5, 2)),
    "torch.pow": (lambda a, b: minigrad.pow(a, b), floats(0.5, 2), floats(-2, 2)),
    "torch.maximum": (lambda a, b: minigrad.maximum(a, b), None, None),
    "max(other)": (lambda a, b: a.max(b), None, None),
}


def _tie_free(shape, shift):
    # integer + shift +- 0.1: a from shift=+0.25, b from shift=-0.25 differ by >= 0.3 everywhere
    return hnp.arrays(np.float64, shape, elements=st.builds(
        lambda k, j: k + shift + j, st.integers(-2, 2), floats(-0.1, 0.1)))


@PROFILE
@pytest.mark.parametrize("name", BINARY)
@given(data=st.data())
def test_binary_tensor_tensor_broadcasting(name, data):
    op, ea, eb = BINARY[name]
    sa, sb = data.draw(broadcast_pair()).input_shapes
    if ea is None:
        a, b = data.draw(_tie_free(sa, 0.25)), data.draw(_tie_free(sb, -0.25))
    else:
        a, b = data.draw(arrays(sa, ea)), data.draw(arrays(sb, eb))
    wrt = data.draw(st.sampled_from([(0, 1), (0,), (1,)]))
    check_grads(op, a, b, wrt=wrt)


@PROFILE
@given(x=arrays(shapes(), floats(0.5, 2)))
def test_same_tensor_on_both_sides(x):
    check_grads(lambda t: t * t + t / t - t ** t + (t - t) + t.maximum(t * 2), x)


NUMBERS = st.one_of(st.integers(-3, 3), floats(-3, 3))
NONZERO_NUMBERS = st.one_of(st.sampled_from([-3, -2, -1, 1, 2, 3]), away(0.5, 3))

TENSOR_NUMBER = {
    # name: (fn(t, c), elements of t, numbers c)
    "t+c": (lambda t, c: t + c, floats(-2, 2), NUMBERS),
    "c+t": (lambda t, c: c + t, floats(-2, 2), NUMBERS),
    "t-c": (lambda t, c: t - c, floats(-2, 2), NUMBERS),
    "c-t": (lambda t, c: c - t, floats(-2, 2), NUMBERS),
    "t*c": (lambda t, c: t * c, floats(-2, 2), NUMBERS),
    "c*t": (lambda t, c: c * t, floats(-2, 2), NUMBERS),
    "t/c": (lambda t, c: t / c, floats(-2, 2), NONZERO_NUMBERS),
    "c/t": (lambda t, c: c / t, away(0.5, 2), NUMBERS),
    "t**c": (lambda t, c: t ** c, floats(0.5, 2), NUMBERS),
    "c**t": (lambda t, c: c ** t, floats(-2, 2), st.one_of(st.sampled_from([2, 3, math.e]),
                                                             floats(0.2, 4))),
    "t+0d": (lambda t, c: t + minigrad.tensor(c, dtype=minigrad.float64), floats(-2, 2), NUMBERS),
    "0d/t": (lambda t, c: minigrad.tensor(c, dtype=minigrad.float64) / t, away(0.5, 2), NUMBERS),
}


@PROFILE
@pytest.mark.parametrize("name", TENSOR_NUMBER)
@given(data=st.data())
def test_tensor_number(name, data):
    fn, et, numbers = TENSOR_NUMBER[name]
    x = data.draw(arrays(shapes(), et))
    c = data.draw(numbers)
    check_grads(lambda t: fn(t, c), x)


@PROFILE
@given(data=st.data())
def test_pow_number_exponent(data):
    p = data.draw(st.sampled_from([0, 1, 2, 3, 2.0, -1, -2, 0.5, 1.5, -0.5, -2.5, 1 / 3]))
    if isinstance(p, int) and p >= 0:
        elements = floats(-2, 2)
    elif float(p).is_integer():
        elements = away(0.3, 2)
    else:
        elements = floats(0.2, 3)
    x = data.draw(arrays(shapes(), elements))
    check_grads(lambda t: t ** p, x)
    check_grads(lambda t: t.pow(p), x)


# =============================================================================================
# Matrix products
# =============================================================================================

MATMUL_KINDS = ["vec.vec", "mat.vec", "vec.mat", "mat.mat", "batch.batch", "batch.vec", "vec.batch",
                "batch.mat", "mat.batch"]


@st.composite
def matmul_shapes(draw, kind):
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    ba, bb = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=1, max_dims=2,
                                                    max_side=2)).input_shapes
    left = {"vec": (k,), "mat": (n, k), "batch": tuple(ba) + (n, k)}
    right = {"vec": (k,), "mat": (k, m), "batch": tuple(bb) + (k, m)}
    a, b = kind.split(".")
    return left[a], right[b]


@PROFILE
@pytest.mark.parametrize("kind", MATMUL_KINDS)
@given(data=st.data())
def test_matmul(kind, data):
    sa, sb = data.draw(matmul_shapes(kind))
    a, b = data.draw(arrays(sa)), data.draw(arrays(sb))
    wrt = data.draw(st.sampled_from([(0, 1), (0,), (1,)]))
    fn = data.draw(st.sampled_from([operator.matmul, minigrad.matmul, lambda x, y: x.matmul(y)]))
    check_grads(fn, a, b, wrt=wrt)
    if kind == "mat.mat":
        check_grads(lambda x, y: x.mm(y), a, b, wrt=wrt)


# =============================================================================================
# Elementwise functions
# =============================================================================================

UNARY = {
    "neg": (lambda t: -t, floats(-3, 3)),
    "neg()": (lambda t: t.neg(), floats(-3, 3)),
    "exp": (lambda t: t.exp(), floats(-3, 3)),
    "torch.exp": (lambda t: minigrad.exp(t), floats(-3, 3)),
    "log": (lambda t: t.log(), floats(0.1, 5)),
    "torch.log": (lambda t: minigrad.log(t), floats(0.1, 5)),
    "sqrt": (lambda t: t.sqrt(), floats(0.1, 5)),
    "abs": (lambda t: t.abs(), away(0.05, 3)),
    "abs()": (lambda t: abs(t), away(0.05, 3)),
    "relu": (lambda t: t.relu(), away(0.05, 3)),
    "torch.relu": (lambda t: minigrad.relu(t), away(0.05, 3)),
    "sigmoid": (lambda t: t.sigmoid(), floats(-10, 10)),
    "tanh": (lambda t: t.tanh(), floats(-4, 4)),
    "reciprocal": (lambda t: t.reciprocal(), away(0.3, 3)),
    "sign": (lambda t: t.sign(), away(0.05, 3)),
    "sgn": (lambda t: minigrad.sgn(t), away(0.05, 3)),
    "clone": (lambda t: t.clone() * 1, floats(-3, 3)),
    "clone-raw": (lambda t: t.clone(), floats(-3, 3)),
    "double": (lambda t: t.double(), floats(-3, 3)),
    "to(float64)": (lambda t: t.to(minigrad.float64) * 2, floats(-3, 3)),
    "to('cpu')": (lambda t: t.to("cpu") * 2, floats(-3, 3)),
    "chain": (lambda t: ((t.tanh() * 2).exp() + 1).log().sigmoid(), floats(-2, 2)),
}


@PROFILE
@pytest.mark.parametrize("name", UNARY)
@given(data=st.data())
def test_unary(name, data):
    fn, elements = UNARY[name]
    check_grads(fn, data.draw(arrays(shapes(), elements)))


@PROFILE
@given(x=arrays(shapes(), floats(-3, 3)))
def test_float_round_trip(x):
    # float64 -> float32 -> float64: the float32 rounding needs a larger step and tolerance.
    check_grads(lambda t: t.float().double() * 2, x, eps=1e-3, atol=2e-3, rtol=2e-3)
    check_grads(lambda t: t.to(minigrad.float32), x, eps=1e-3, atol=2e-3, rtol=2e-3)


@st.composite
def clamp_case(draw):
    which = draw(st.sampled_from(["min", "max", "both", "clip"]))
    lo = draw(floats(-2, 1))
    hi = draw(floats(lo + 0.5, 2.5))
    bounds = {"min": (lo, None), "max": (None, hi), "both": (lo, hi), "clip": (lo, hi)}[which]
    kinks = [b for b in bounds if b is not None]
    elements = floats(-3, 3).filter(lambda v: all(abs(v - b) > 0.02 for b in kinks))
    x = draw(arrays(draw(shapes()), elements))
    return which, bounds, x


@PROFILE
@given(case=clamp_case())
def test_clamp(case):
    which, (lo, hi), x = case
    if which == "min":
        fn = lambda t: t.clamp(min=lo)
    elif which == "max":
        fn = lambda t: t.clamp(max=hi)
    elif which == "both":
        fn = lambda t: minigrad.clamp(t, lo, hi)
    else:
        fn = lambda t: t.clip(lo, hi)
    check_grads(fn, x)


# =============================================================================================
# Reductions
# =============================================================================================


@PROFILE
@pytest.mark.parametrize("op", ["sum", "mean"])
@given(data=st.data())
def test_sum_mean(op, data):
    shape = data.draw(shapes(min_dims=0))
    x = data.draw(arrays(shape))
    if not shape or data.draw(st.booleans()):
        fn = data.draw(st.sampled_from([lambda t: getattr(t, op)(),
                                        lambda t: getattr(minigrad, op)(t)]))
    else:
        dim = data.draw(dims_arg(len(shape)))
        keepdim = data.draw(st.booleans())
        fn = lambda t: getattr(t, op)(dim, keepdim=keepdim)
    check_grads(fn, x)


@PROFILE
@given(data=st.data())
def test_max_all(data):
    x = data.draw(distinct(data.draw(shapes(min_dims=0))))
    check_grads(lambda t: t.max(), x)
    check_grads(lambda t: minigrad.max(t), x)


def _max_dim(data, keepdim):
    shape = data.draw(shapes(min_dims=1))
    x = data.draw(distinct(shape))
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    check_grads(lambda t: t.max(dim, keepdim=keepdim).values, x)
    check_grads(lambda t: t.max(dim=dim, keepdim=keepdim)[0], x)
    check_grads(lambda t: minigrad.max(t, dim, keepdim)[0], x)
    # the indices are what autograd routed the gradient to
    t = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    t.max(dim, keepdim=keepdim).values.sum().backward()
    assert np.array_equal(t.grad.numpy() == 1, x == x.max(axis=dim, keepdims=True))


@PROFILE
@given(data=st.data())
def test_max_dim(data):
    _max_dim(data, keepdim=data.draw(st.booleans()))


OFFSETS = st.sampled_from([0.0, 0.0, 50.0, -50.0, 1000.0, -1000.0])  # 1000: exp() alone overflows


@PROFILE
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "torch.softmax", "torch.log_softmax"])
@given(data=st.data())
def test_softmax(op, data):
    shape = data.draw(shapes(min_dims=1))
    x = data.draw(arrays(shape, floats(-4, 4))) + data.draw(OFFSETS)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    name = op.split(".")[-1]
    fn = (lambda t: getattr(minigrad, name)(t, dim)) if op.startswith("torch.") else \
        (lambda t: getattr(t, name)(dim))
    check_grads(fn, x)


@PROFILE
@given(data=st.data())
def test_logsumexp(data):
    shape = data.draw(shapes(min_dims=1))
    x = data.draw(arrays(shape, floats(-4, 4))) + data.draw(OFFSETS)
    dim = data.draw(dims_arg(len(shape)))
    keepdim = data.draw(st.booleans())
    check_grads(lambda t: t.logsumexp(dim, keepdim=keepdim), x)
    check_grads(lambda t: minigrad.logsumexp(t, dim), x)


@PROFILE
@given(data=st.data())
def test_var_std_norm(data):
    """Spread away from 0 (distinct values): std and norm have a kink where they are 0."""
    shape = data.draw(shapes(min_dims=1))
    x = data.draw(distinct(shape))
    dim = data.draw(dims_arg(len(shape)))
    keepdim = data.draw(st.booleans())
    n = int(np.prod([shape[d] for d in ([dim] if isinstance(dim, int) else dim or range(len(shape)))]))
    correction = data.draw(st.sampled_from([0, 1])) if n > 1 else 0
    check_grads(lambda t: t.var(dim, keepdim=keepdim, correction=correction), x)
    if n > 1:
        check_grads(lambda t: t.std(dim, keepdim=keepdim, correction=correction), x)
    check_grads(lambda t: t.norm(dim=dim, keepdim=keepdim), x + 3.0)  # away from 0


# =============================================================================================
# Shapes
# =============================================================================================


@st.composite
def new_shape(draw, shape):
    """Another shape with as many elements: regroup the sizes' factors, sprinkle 1s, maybe a -1."""
    factors = [f for s in shape for f in ([2, 2] if s == 4 else [s]) if f != 1]
    factors = draw(st.permutations(factors))
    out = []
    for f in factors:
        if out and draw(st.booleans()):
            out[-1] *= f
        else:
            out.append(f)
    for _ in range(draw(st.integers(0, 2))):
        out.insert(draw(st.integers(0, len(out))), 1)
    if out and draw(st.booleans()):
        out[draw(st.integers(0, len(out) - 1))] = -1
    return tuple(out)


@PROFILE
@given(data=st.data())
def test_reshape_view_flatten(data):
    shape = data.draw(shapes(min_dims=0))
    x = data.draw(arrays(shape))
    target = data.draw(new_shape(shape))
    check_grads(lambda t: t.reshape(target), x)
    check_grads(lambda t: t.view(*target) if target else t.view(target), x)
    check_grads(lambda t: minigrad.reshape(t, target), x)
    nd = max(len(shape), 1)
    s = data.draw(st.integers(-nd, nd - 1))
    e = data.draw(st.integers(s % nd, nd - 1))
    check_grads(lambda t: t.flatten(s, e), x)
    check_grads(lambda t: t.flatten(), x)
    if len(shape) >= 2:  # reshape of a transposed (non-contiguous) tensor must copy
        check_grads(lambda t: t.transpose(0, -1).reshape(target), x)


@PROFILE
@given(data=st.data())
@pytest.mark.filterwarnings("ignore:The use of `x.T`:UserWarning")  # x.T on non-2-D: deprecated
def test_transpose_permute(data):
    shape = data.draw(shapes(min_dims=1))
    x = data.draw(arrays(shape))
    n = len(shape)
    d0, d1 = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
    perm = data.draw(st.permutations(range(n)))
    perm = [p - n if data.draw(st.booleans()) else p for p in perm]
    check_grads(lambda t: t.transpose(d0, d1), x)
    check_grads(lambda t: minigrad.transpose(t, d0, d1), x)
    check_grads(lambda t: t.permute(*perm), x)
    check_grads(lambda t: t.permute(perm), x)
    check_grads(lambda t: t.T, x)
    if n <= 2:
        check_grads(lambda t: t.t(), x)
    if n >= 2:
        check_grads(lambda t: t.mT, x)


@PROFILE
@given(data=st.data())
def test_unsqueeze_squeeze(data):
    shape = data.draw(shapes(min_dims=0, max_side=2))  # side 2 at most: plenty of size-1 dims
    x = data.draw(arrays(shape))
    n = len(shape)
    u = data.draw(st.integers(-n - 1, n))
    check_grads(lambda t: t.unsqueeze(u), x)
    check_grads(lambda t: t.squeeze(), x)
    check_grads(lambda t: t.unsqueeze(u).squeeze(u), x)
    if n:
        d = data.draw(st.integers(-n, n - 1))
        dims = data.draw(dims_arg(n))
        check_grads(lambda t: t.squeeze(d), x)
        check_grads(lambda t: t.squeeze(dims), x)


@st.composite
def expand_target(draw, shape):
    lead = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    rest = tuple(draw(st.sampled_from([1, 2, 3, -1])) if s == 1 else draw(st.sampled_from([s, -1]))
                 for s in shape)
    return lead + rest


@PROFILE
@given(data=st.data())
def test_expand(data):
    shape = data.draw(shapes(min_dims=0))
    x = data.draw(arrays(shape))
    target = data.draw(expand_target(shape))
    check_grads(lambda t: t.expand(*target) if target else t.expand(target), x)
    check_grads(lambda t: t.expand(target) * 2, x)
    full = tuple(np.broadcast_shapes(shape, tuple(abs(s) for s in target)))
    check_grads(lambda t: t.expand_as(minigrad.zeros(full, dtype=minigrad.float64)), x)


@PROFILE
@given(data=st.data())
def test_sum_to_size(data):
    sa, sb = data.draw(broadcast_pair()).input_shapes
    full = np.broadcast_shapes(sa, sb)
    x = data.draw(arrays(full))
    check_grads(lambda t: t.sum_to_size(*sa) if sa else t.sum_to_size(sa), x)


# -- indexing ---------------------------------------------------------------------------------


@st.composite
def index_component(draw, size, kinds):
    kind = draw(st.sampled_from(kinds))
    if kind == "int":
        return draw(st.integers(-size, size - 1))
    if kind == "slice":
        bound = st.one_of(st.none(), st.integers(-size - 1, size + 1))
        return slice(draw(bound), draw(bound), draw(st.sampled_from([None, 1, 2, 3])))
    if kind == "list":  # repeats are likely: they must accumulate
        return draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=4))
    if kind == "array":
        return np.array(draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=4)))
    if kind == "tensor":
        return minigrad.tensor(draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=4)))
    if kind == "tensor0d":  # a 0-d integer tensor indexes like an int (an advanced index here)
        return minigrad.tensor(draw(st.integers(0, size - 1)))
    return slice(None)


@st.composite
def index_key(draw, shape):
    style = draw(st.sampled_from(["int", "slice", "list", "array", "tensor", "tensor0d", "mask",
                                  "mask-tensor",
                                  "none", "ellipsis", "mixed", "mixed-advanced"]))
    n = len(shape)
    if style in ("int", "slice", "list", "array", "tensor", "tensor0d"):
        comps = [draw(index_component(shape[0], [style]))]
        if n > 1 and style in ("int", "slice") and draw(st.booleans()):
            comps.append(draw(index_component(shape[1], [style])))
        return comps[0] if len(comps) == 1 else tuple(comps)
    if style in ("mask", "mask-tensor"):
        k = draw(st.integers(1, n))  # a mask over the leading k dims
        mask = draw(hnp.arrays(np.bool_, shape[:k]))
        key = mask if style == "mask" else minigrad.tensor(mask)
        return key if k == n or draw(st.booleans()) else (key, Ellipsis)
    if style == "none":
        return draw(st.sampled_from([None, (None, 0), (slice(None), None), (None, Ellipsis, None)]))
    if style == "ellipsis":
        return (Ellipsis, draw(index_component(shape[-1], ["int", "slice", "list"])))
    if style == "mixed":  # basic indices per dim with Nones in between
        key = [draw(index_component(s, ["int", "slice", "full"])) for s in shape]
        for _ in range(draw(st.integers(0, 2))):
            key.insert(draw(st.integers(0, len(key))), None)
        return tuple(key)
    # mixed-advanced: equal-length integer arrays on some dims, slices / ints / None elsewhere
    length = draw(st.integers(1, 3))
    key = []
    for s in shape:
        kind = draw(st.sampled_from(["adv", "slice", "int"]))
        if kind == "adv":
            key.append(draw(st.lists(st.integers(-s, s - 1), min_size=length, max_size=length)))
        else:
            key.append(draw(index_component(s, [kind])))
    if draw(st.booleans()):
        key.insert(draw(st.integers(0, len(key))), None)
    return tuple(key)


@PROFILE
@given(data=st.data())
def test_indexing(data):
    shape = data.draw(shapes(min_dims=1))
    x = data.draw(arrays(shape))
    key = data.draw(index_key(shape))
    check_grads(lambda t: t[key], x)


@PROFILE
@given(x=arrays(shapes(min_dims=1, max_dims=2)))
def test_indexing_repeated_indices_accumulate(x):
    idx = [0, 0, -1, 0]
    t = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    (t[idx] * 1).sum().backward()
    expected = np.zeros(x.shape)
    np.add.at(expected, idx, 1)
    np.testing.assert_array_equal(t.grad.numpy(), expected)
    check_grads(lambda u: u[idx], x)


# -- joining and selecting ------------------------------------------------------------------


@st.composite
def join_case(draw, stack):
    shape = list(draw(shapes(min_dims=0 if stack else 1)))
    n = len(shape) + (1 if stack else 0)
    dim = draw(st.integers(-n, n - 1))
    count = draw(st.integers(1, 3))
    arrs = []
    for _ in range(count):
        s = list(shape)
        if not stack:
            s[dim] = draw(st.integers(1, 3))
        arrs.append(draw(arrays(tuple(s))))
    return dim, arrs


@PROFILE
@pytest.mark.parametrize("op", ["cat", "concat", "stack"])
@given(data=st.data())
def test_cat_stack(op, data):
    dim, arrs = data.draw(join_case(op == "stack"))
    wrt = data.draw(st.lists(st.integers(0, len(arrs) - 1), min_size=1, unique=True))
    fn = getattr(minigrad, op)
    check_grads(lambda *ts: fn(list(ts), dim=dim), *arrs, wrt=sorted(wrt))
    check_grads(lambda *ts: fn(ts, dim), *arrs, wrt=sorted(wrt))


@PROFILE
@given(data=st.data())
def test_where(data):
    sc, sa, sb = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3,
                                                             max_side=3)).input_shapes
    cond = data.draw(hnp.arrays(np.bool_, sc))
    a, b = data.draw(arrays(sa)), data.draw(arrays(sb))
    c = minigrad.tensor(cond)
    number = data.draw(floats(-2, 2))
    check_grads(lambda x, y: minigrad.where(c, x, y), a, b)
    check_grads(lambda x, y: minigrad.where(c, x, y), a, b, wrt=(1,))
    check_grads(lambda x: minigrad.where(c, x, number), a)
    check_grads(lambda y: minigrad.where(c, number, y), b)
    check_grads(lambda x: minigrad.where(c > 0, x * 2, x.exp()), a)  # both branches from one x


# =============================================================================================
# 0-d tensors with a ``dim`` argument: PyTorch accepts dim 0 / -1 there
# =============================================================================================

def _zero_d_bug(op):
    return pytest.mark.xfail(strict=True, raises=np.exceptions.AxisError,
                             reason=f"BUG: {op} on a 0-d tensor raises NumPy's AxisError; PyTorch "
                                    "treats dim 0/-1 of a 0-d tensor as the tensor itself")


ZERO_D_DIM = {
    "sum(0)": lambda t: t.sum(0),
    "sum(-1, keepdim)": lambda t: t.sum(-1, keepdim=True),
    "mean((0,))": lambda t: t.mean((0,)),
    "max(0).values": lambda t: t.max(0).values,
    "max(-1, keepdim).values": lambda t: t.max(-1, keepdim=True).values,
    "softmax(0)": lambda t: t.softmax(0),
    "log_softmax(-1)": lambda t: t.log_softmax(-1),
    "logsumexp(0)": lambda t: t.logsumexp(0),
    "squeeze(0)": lambda t: t.squeeze(0),
    "unsqueeze(-1)": lambda t: t.unsqueeze(-1),
    "transpose(0, -1)": lambda t: t.transpose(0, -1),
    "flatten(0, -1)": lambda t: t.flatten(0, -1),
}
ZERO_D_BUGS = {}


@pytest.mark.parametrize("name", [pytest.param(n, marks=_zero_d_bug(ZERO_D_BUGS[n])) if n in ZERO_D_BUGS
                                  else n for n in ZERO_D_DIM])
def test_zero_dim_tensor_with_dim_argument(name):
    check_grads(ZERO_D_DIM[name], np.array(0.7))


# =============================================================================================
# Second order: Hessian-vector products from create_graph=True vs differences of the gradient
# =============================================================================================

SECOND_ORDER = {
    # name: (fn, number of inputs, elements)
    "mul": (operator.mul, 2, floats(-2, 2)),
    "div": (operator.truediv, 2, away(0.5, 2)),
    "pow(tensor)": (operator.pow, 2, floats(0.5, 2)),
    "pow(number)": (lambda t: t ** 3 + t ** -1.5 + t ** 0.5, 1, floats(0.5, 2)),
    "rpow": (lambda t: 2.5 ** t, 1, floats(-2, 2)),
    "reciprocal": (lambda t: 3 / t, 1, away(0.5, 2)),
    "exp": (lambda t: t.exp(), 1, floats(-2, 2)),
    "log": (lambda t: t.log(), 1, floats(0.2, 3)),
    "sqrt": (lambda t: t.sqrt(), 1, floats(0.2, 3)),
    "tanh": (lambda t: t.tanh(), 1, floats(-3, 3)),
    "sigmoid": (lambda t: t.sigmoid(), 1, floats(-5, 5)),
    "softmax": (lambda t: t.softmax(-1), 1, floats(-3, 3)),
    "log_softmax": (lambda t: t.log_softmax(0), 1, floats(-3, 3)),
    "logsumexp(keepdim)": (lambda t: t.logsumexp(-1, keepdim=True), 1, floats(-3, 3)),
    "sum": (lambda t: (t.sum(0) ** 2).exp(), 1, floats(-1, 1)),
    "mean": (lambda t: t.mean(-1, keepdim=True) ** 3 + t.mean() ** 2, 1, floats(-2, 2)),
    # the std of two values that never meet (its kink is where all values are equal)
    "var-std-norm": (lambda t: t.var(correction=0) * t.norm()
                     + minigrad.stack([t.sum(), 2 * t.exp().sum()]).std(), 1, floats(0.5, 2)),
    "index": (lambda t: (t[[0, 0, -1]] ** 2).sum(0) * t[0] + t[..., ::2].exp().sum(), 1, floats(-2, 2)),
    "max": (lambda t: t.max() * t + t.max(-1).values.exp().unsqueeze(-1), 1, None),
    "abs-relu-clamp": (lambda t: t.abs() * t.relu() * t.clamp(-1, 1) * t, 1, None),
}


@st.composite
def second_order_case(draw, name):
    _, n_inputs, elements = SECOND_ORDER[name]
    if name == "max":
        return [draw(distinct(draw(shapes(min_dims=1, max_dims=2))))]
    if name == "abs-relu-clamp":  # away from the kinks at 0 and +-1
        elements = away(0.05, 2).filter(lambda v: abs(abs(v) - 1) > 0.05)
    if n_inputs == 2:
        sa, sb = draw(broadcast_pair(max_dims=2)).input_shapes
        return [draw(arrays(sa, elements)), draw(arrays(sb, elements))]
    return [draw(arrays(draw(shapes(min_dims=1, max_dims=2)), elements))]


@FEW
@pytest.mark.parametrize("name", SECOND_ORDER)
@given(data=st.data())
def test_second_order(name, data):
    check_second_order(SECOND_ORDER[name][0], *data.draw(second_order_case(name)))


@FEW
@pytest.mark.parametrize("kind", ["mat.mat", "mat.vec", "vec.mat", "vec.vec", "batch.mat"])
@given(data=st.data())
def test_second_order_matmul(kind, data):
    sa, sb = data.draw(matmul_shapes(kind))
    a, b = data.draw(arrays(sa)), data.draw(arrays(sb))
    check_second_order(lambda x, y: (x @ y) ** 2, a, b)


@FEW
@given(data=st.data())
def test_second_order_through_where_cat_stack(data):
    shape = data.draw(shapes(min_dims=1, max_dims=2))
    a = data.draw(arrays(shape))
    mask = minigrad.tensor(data.draw(hnp.arrays(np.bool_, shape)))
    check_second_order(lambda t: minigrad.where(mask, t ** 2, t.exp()), a)
    check_second_order(lambda t: minigrad.cat([t ** 2, t.exp()], 0) * minigrad.stack([t, t], 0).sum(0).sum(), a)


@FEW
@given(x=arrays(shapes(min_dims=1, max_dims=2), floats(-3, 3)))
def test_second_order_logsumexp_no_keepdim(x):
    check_second_order(lambda t: t.logsumexp(-1), x)


def test_gradcheck_of_a_function_that_calls_autograd_grad():
    def first_grad(x):
        return autograd_grad((x ** 3).sum(), x, create_graph=True)[0]

    x = minigrad.tensor([0.5, -1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(first_grad, (x,))


# =============================================================================================
# float32: gradients keep their input's dtype
# =============================================================================================

F32_UNARY = {
    "exp": (lambda t: t.exp(), floats(-2, 2)),
    "log": (lambda t: t.log(), floats(0.2, 3)),
    "sqrt": (lambda t: t.sqrt(), floats(0.2, 3)),
    "abs": (lambda t: t.abs(), away(0.1, 2)),
    "relu": (lambda t: t.relu(), away(0.1, 2)),
    "sigmoid": (lambda t: t.sigmoid(), floats(-4, 4)),
    "tanh": (lambda t: t.tanh(), floats(-3, 3)),
    "neg": (lambda t: -t, floats(-2, 2)),
    "clamp": (lambda t: t.clamp(-0.5, 0.5), floats(-2, 2)),
    "t*2.5": (lambda t: t * 2.5, floats(-2, 2)),
    "1-t": (lambda t: 1 - t, floats(-2, 2)),
    "3/t": (lambda t: 3 / t, away(0.5, 2)),
    "t/3": (lambda t: t / 3, floats(-2, 2)),
    "t**2.5": (lambda t: t ** 2.5, floats(0.2, 2)),
    "t**2": (lambda t: t ** 2, floats(-2, 2)),
    "2.0**t": (lambda t: 2.0 ** t, floats(-2, 2)),
    "2**t": (lambda t: 2 ** t, floats(-2, 2)),
    "t*0d-double": (lambda t: t * minigrad.tensor(1.5, dtype=minigrad.float64), floats(-2, 2)),
    "sum": (lambda t: t.sum(-1, keepdim=True), floats(-2, 2)),
    "mean": (lambda t: t.mean(), floats(-2, 2)),
    "sum(dtype=f64)": (lambda t: t.sum(-1, dtype=minigrad.float64), floats(-2, 2)),
    "mean(dtype=f64)": (lambda t: t.mean(0, dtype=minigrad.float64), floats(-2, 2)),
    "max": (lambda t: t.max(-1).values, None),
    "softmax": (lambda t: t.softmax(-1), floats(-2, 2)),
    "log_softmax": (lambda t: t.log_softmax(-1), floats(-2, 2)),
    "logsumexp": (lambda t: t.logsumexp(-1), floats(-2, 2)),
    "matmul": (lambda t: t.reshape(-1, 1) @ (t.reshape(1, -1) * 2), floats(-2, 2)),
    "index": (lambda t: t[[0, 0]][..., ::2], floats(-2, 2)),
    "reshape": (lambda t: t.transpose(0, -1).reshape(-1), floats(-2, 2)),
    "expand": (lambda t: t.unsqueeze(0).expand(2, *t.shape), floats(-2, 2)),
    "double": (lambda t: t.double(), floats(-2, 2)),
    "to(float64)": (lambda t: t.to(minigrad.float64), floats(-2, 2)),
    "clone": (lambda t: t.clone(), floats(-2, 2)),
    "where": (lambda t: minigrad.where(t > 0, t, 2.0), floats(-2, 2)),
}


def _reference_vjp(fn, x, v):
    """The same VJP computed in float64, as the value the float32 gradient should be near."""
    t = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    out = fn(t)
    g, = autograd_grad(out, t, minigrad.from_numpy(v.astype(out._data.dtype)))
    return g.numpy()


@PROFILE
@pytest.mark.parametrize("name", F32_UNARY)
@given(data=st.data())
def test_float32_gradient_dtype(name, data):
    fn, elements = F32_UNARY[name]
    shape = data.draw(shapes(min_dims=1, max_dims=3))
    x = data.draw(distinct(shape) if elements is None else arrays(shape, elements))
    t = minigrad.tensor(x, dtype=minigrad.float32, requires_grad=True)
    out = fn(t)
    expected_out = minigrad.float64 if name in ("double", "to(float64)") or "f64" in name else minigrad.float32
    assert out.dtype is expected_out
    v = np.random.default_rng(0).uniform(-1, 1, out.shape)
    g, = autograd_grad(out, t, minigrad.from_numpy(v.astype(out._data.dtype)))
    assert g.dtype is minigrad.float32 and g.shape == t.shape
    np.testing.assert_allclose(g.numpy(), _reference_vjp(fn, x.astype(np.float32).astype(np.float64), v),
                               rtol=1e-4, atol=1e-4)


MIXED = {
    "add": (operator.add, floats(-2, 2), floats(-2, 2)),
    "sub": (operator.sub, floats(-2, 2), floats(-2, 2)),
    "mul": (operator.mul, floats(-2, 2), floats(-2, 2)),
    "div": (operator.truediv, floats(-2, 2), away(0.5, 2)),
    "pow": (operator.pow, floats(0.5, 2), floats(-2, 2)),
    "maximum": (lambda a, b: a.maximum(b), None, None),
    "where": (lambda a, b: minigrad.where(a > 0, a, b), floats(-2, 2), floats(-2, 2)),
    "cat": (lambda a, b: minigrad.cat([a.reshape(-1), b.reshape(-1)]), floats(-2, 2), floats(-2, 2)),
    "stack": (lambda a, b: minigrad.stack([a * 1 + b * 0, b * 1 + a * 0]), floats(-2, 2), floats(-2, 2)),
}


@PROFILE
@pytest.mark.parametrize("name", MIXED)
@pytest.mark.parametrize("order", ["f32-f64", "f64-f32"])
@given(data=st.data())
def test_mixed_float32_float64_broadcasting(name, order, data):
    op, ea, eb = MIXED[name]
    sa, sb = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=1, max_dims=3,
                                                         max_side=3)).input_shapes
    if ea is None:
        a, b = data.draw(_tie_free(sa, 0.25)), data.draw(_tie_free(sb, -0.25))
    else:
        a, b = data.draw(arrays(sa, ea)), data.draw(arrays(sb, eb))
    da, db = (minigrad.float32, minigrad.float64) if order == "f32-f64" else (minigrad.float64, minigrad.float32)
    a, b = a.astype(da.np).astype(np.float64), b.astype(db.np).astype(np.float64)
    ta = minigrad.tensor(a, dtype=da, requires_grad=True)
    tb = minigrad.tensor(b, dtype=db, requires_grad=True)
    out = op(ta, tb)
    assert out.dtype is minigrad.float64  # both have dims: the wider float wins, as in PyTorch
    v = np.random.default_rng(0).uniform(-1, 1, out.shape)
    ga, gb = autograd_grad(out, (ta, tb), minigrad.from_numpy(v))
    assert (ga.dtype, gb.dtype) == (da, db)
    assert ga.shape == ta.shape and gb.shape == tb.shape
    t64 = _fresh([a, b], (0, 1))
    ra, rb = autograd_grad(op(*t64), t64, minigrad.from_numpy(v))
    np.testing.assert_allclose(ga.numpy(), ra.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gb.numpy(), rb.numpy(), rtol=1e-5, atol=1e-5)
    # .backward() into .grad keeps the dtypes too
    op(ta, tb).backward(minigrad.from_numpy(v))
    assert (ta.grad.dtype, tb.grad.dtype) == (da, db)


# =============================================================================================
# The ops learners reach for in PyTorch's own material (issue 18): first and second order
# =============================================================================================

NEW_FEW = settings(PROFILE, max_examples=12)


def off_the_grid(lo, hi, step=1.0):
    """Values in [lo, hi] at least 0.1 * step away from every multiple of ``step``: floor,
    round, frac, % and fmod are smooth there."""
    return st.builds(lambda k, f: (k + f) * step, st.integers(int(lo / step), int(hi / step)),
                     floats(0.15, 0.35))


@st.composite
def one(draw, elements=None, min_dims=0, max_dims=3):
    return [draw(arrays(draw(shapes(min_dims, max_dims)), elements))]


@st.composite
def pair(draw, ea=None, eb=None):
    sa, sb = draw(broadcast_pair(max_dims=2)).input_shapes
    return [draw(arrays(sa, ea)), draw(arrays(sb, eb))]


@st.composite
def tie_free_pair(draw):
    sa, sb = draw(broadcast_pair(max_dims=2)).input_shapes
    return [draw(_tie_free(sa, 0.25)), draw(_tie_free(sb, -0.25))]


@st.composite
def matrix(draw, elements=None, square=False):
    n = draw(st.integers(1, 3))
    m = n if square else draw(st.integers(1, 3))
    return [draw(arrays((n, m), elements))]


@st.composite
def distinct_matrix(draw):
    return [draw(distinct((draw(st.integers(1, 3)), draw(st.integers(2, 3)))))]


@st.composite
def remainder_case(draw):
    """a % b away from the jumps of floor(a / b)."""
    b = draw(arrays(draw(shapes(0, 2)), away(0.5, 2)))
    q = draw(arrays(b.shape, st.builds(lambda k, f: k + f, st.integers(-2, 2), floats(0.15, 0.85))))
    return [q * b, b]


@st.composite
def clamp_tensor_case(draw):
    x = draw(arrays((3, 2), floats(-3, 3)))
    lo = draw(arrays((3, 2), floats(-2, 2)))
    hi = lo + draw(arrays((3, 2), floats(0.3, 2)))
    ok = (np.abs(x - lo) > 0.05) & (np.abs(x - hi) > 0.05)
    return [np.where(ok, x, lo - 0.5), lo, hi]


@st.composite
def three(draw):
    shape = draw(shapes(1, 2))
    return [draw(arrays(shape)) for _ in range(3)]


@st.composite
def addmm_case(draw):
    """input (broadcast to the product's shape), mat1 (n, k), mat2 (k, m)."""
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    shape = draw(st.sampled_from([(n, m), (m,), (1, m), (n, 1), ()]))
    return [draw(arrays(shape)), draw(arrays((n, k))), draw(arrays((k, m)))]


def fixed(shape, elements=None):
    return st.builds(lambda a: [a], arrays(shape, elements))


@st.composite
def matmul_pair(draw, sa, sb):
    return [draw(arrays(sa)), draw(arrays(sb))]


IDX = np.array([[0, 2], [1, 1], [2, 0]])  # with a repeated index in row 1


def apart(*shapes):
    """Arrays of these shapes with no two values closer than 0.4 (distinct): differences of
    their elements, and so distances between them, are away from 0, where norms have a kink."""
    sizes = [int(np.prod(s, dtype=np.int64)) for s in shapes]
    return st.builds(lambda a: [p.reshape(s) for p, s in zip(np.split(a, np.cumsum(sizes)[:-1]), shapes)],
                     distinct((sum(sizes),)))

def _SCATTER_IDX():
    return minigrad.tensor([[0, 1, 0, 2], [1, 1, 0, 0], [2, 0, 0, 1]])


def _self_and_src(nonzero=False):
    """Two (3, 4) arrays, no two values closer than 0.4 (no ties for amax, amin); ``nonzero``:
    any values at least 0.3 from 0 instead (a product's gradient divides by them)."""
    return st.builds(lambda a: [a[:3], a[3:]], arrays((6, 4), away(0.3, 1.5)) if nonzero else distinct((6, 4)))


NEW_OPS = {
    # name: (fn, strategy of the input arrays)
    "sin": (lambda t: t.sin(), one(floats(-3, 3))),
    "cos": (lambda t: minigrad.cos(t), one(floats(-3, 3))),
    "tan": (lambda t: t.tan(), one(floats(-1.2, 1.2))),
    "asin": (lambda t: t.asin(), one(floats(-0.9, 0.9))),
    "acos": (lambda t: minigrad.acos(t), one(floats(-0.9, 0.9))),
    "atan": (lambda t: t.atan(), one(floats(-3, 3))),
    "sinh": (lambda t: t.sinh(), one(floats(-2, 2))),
    "cosh": (lambda t: t.cosh(), one(floats(-2, 2))),
    "exp2": (lambda t: t.exp2(), one(floats(-2, 2))),
    "expm1": (lambda t: minigrad.expm1(t), one(floats(-2, 2))),
    "log2": (lambda t: t.log2(), one(floats(0.2, 5))),
    "log10": (lambda t: t.log10(), one(floats(0.2, 5))),
    "log1p": (lambda t: t.log1p(), one(floats(-0.5, 5))),
    "rsqrt": (lambda t: t.rsqrt(), one(floats(0.2, 5))),
    "square": (lambda t: t.square(), one()),
    "erf": (lambda t: t.erf(), one(floats(-2, 2))),
    "erfc": (lambda t: minigrad.erfc(t), one(floats(-2, 2))),
    "erfinv": (lambda t: t.erfinv(), one(floats(-0.9, 0.9))),  # (its slope grows without bound at +-1)
    "frac": (lambda t: t.frac() * t, one(off_the_grid(-3, 2))),
    "floor/ceil/trunc/round": (lambda t: (t.floor() + t.ceil() + t.trunc() + t.round()) * t,
                               one(off_the_grid(-3, 2, 0.5))),
    "round(decimals=1)": (lambda t: t.round(decimals=1) * t, one(off_the_grid(-3, 2, 0.05))),
    "nan_to_num": (lambda t: t.nan_to_num() * 2, one()),
    "atan2": (lambda a, b: minigrad.atan2(a, b), pair(away(0.3, 2), away(0.5, 2))),  # off the branch cut
    "logaddexp": (lambda a, b: a.logaddexp(b), pair()),
    "minimum": (lambda a, b: minigrad.minimum(a, b), tie_free_pair()),
    "fmax": (lambda a, b: a.fmax(b), tie_free_pair()),
    "fmin": (lambda a, b: minigrad.fmin(a, b), tie_free_pair()),
    "lerp(number)": (lambda a, b: a.lerp(b, 0.3), pair()),
    "lerp(tensor)": (lambda a, b, w: minigrad.lerp(a, b, w), three()),
    "addcmul": (lambda x, a, b: x.addcmul(a, b, value=0.7), three()),
    "torch.addcdiv": (lambda x, a, b: minigrad.addcdiv(x, a, b * b + 0.5, value=-1.5), three()),
    "addmm(beta, alpha)": (lambda x, a, b: minigrad.addmm(x, a, b, beta=0.5, alpha=-2),
                           addmm_case()),
    "addmm": (lambda x, a, b: x.addmm(a, b), addmm_case()),
    "remainder": (lambda a, b: a % b, remainder_case()),
    "fmod": (lambda a, b: minigrad.fmod(a, b), remainder_case()),
    "clamp(tensors)": (lambda x, lo, hi: x.clamp(lo, hi), clamp_tensor_case()),
    "clamp(min=tensor)": (lambda x, lo, hi: x.clamp(min=lo) + minigrad.clamp(x, max=hi),
                          clamp_tensor_case()),
    "prod()": (lambda t: t.prod(), one(away(0.3, 1.5), max_dims=2)),
    "prod(dim)": (lambda t: t.prod(-1), one(away(0.3, 1.5), min_dims=1, max_dims=2)),
    "prod(dim, keepdim)": (lambda t: minigrad.prod(t, 0, keepdim=True), one(away(0.3, 1.5), 1, 2)),
    "cumsum": (lambda t: t.cumsum(0), one(min_dims=1)),
    "cumprod": (lambda t: minigrad.cumprod(t, -1), one(away(0.3, 1.5), min_dims=1, max_dims=2)),
    "cumprod at zeros": (lambda t: t.cumprod(1), fixed((3, 5), st.sampled_from([0.0, 0.0, 0.5, -1.5, 2.0]))),
    "min()": (lambda t: t.min(), distinct_matrix()),
    "min(dim)": (lambda t: t.min(1).values, distinct_matrix()),
    "amax": (lambda t: t.amax(1), distinct_matrix()),
    "amin": (lambda t: minigrad.amin(t, (0, 1)), distinct_matrix()),
    "norm(p=1)": (lambda t: t.norm(p=1), one(away(0.2, 2), min_dims=1)),
    "norm(p=3, dim)": (lambda t: t.norm(3, dim=-1), one(away(0.2, 2), min_dims=1)),
    "norm(inf)": (lambda t: t.norm(float("inf"), dim=1), distinct_matrix()),
    "norm(-inf)": (lambda t: t.norm(float("-inf"), dim=1) + t.norm(-float("inf")),  # (|x| >= 0.5: no kink)
                   st.builds(lambda a: [a - a.min() + 0.5], distinct((2, 3)))),
    "sort": (lambda t: t.sort(1, descending=True).values, distinct_matrix()),
    "topk": (lambda t: t.topk(2).values, distinct_matrix()),
    "median()": (lambda t: t.median() * t, distinct_matrix()),
    "median(dim)": (lambda t: minigrad.median(t, 1).values, distinct_matrix()),
    "median(0, keepdim)": (lambda t: t.median(0, keepdim=True).values * t, distinct_matrix()),
    "std(axis=, keepdims=)": (lambda t: t.std(axis=1, keepdims=True), st.builds(lambda a: [a], distinct((2, 3)))),
    "dot": (lambda a, b: minigrad.dot(a, b), matmul_pair((3,), (3,))),
    "mv": (lambda a, b: a.mv(b), matmul_pair((2, 3), (3,))),
    "bmm": (lambda a, b: minigrad.bmm(a, b), matmul_pair((2, 2, 3), (2, 3, 2))),
    "outer": (lambda a, b: a.outer(b), matmul_pair((3,), (2,))),
    "einsum(ij,jk->ik)": (lambda a, b: minigrad.einsum("ij,jk->ik", a, b), matmul_pair((2, 3), (3, 2))),
    "einsum(bij,bjk->bik)": (lambda a, b: minigrad.einsum("bij,bjk->bik", a, b),
                             matmul_pair((2, 2, 3), (2, 3, 2))),
    "einsum(ij,jk->ki)": (lambda a, b: minigrad.einsum("ij,jk->ki", a, b), matmul_pair((2, 3), (3, 2))),
    "einsum(ii)": (lambda a: minigrad.einsum("ii", a), matrix(square=True)),
    "einsum(i,j->ij)": (lambda a, b: minigrad.einsum("i,j->ij", a, b), matmul_pair((3,), (2,))),
    "einsum(ij->i)": (lambda a: minigrad.einsum("ij->i", a), matrix()),
    "tril": (lambda t: t.tril(), matrix()),
    "triu(1)": (lambda t: minigrad.triu(t, 1), matrix()),
    "diag(matrix)": (lambda t: t.diag(), matrix()),
    "diag(vector)": (lambda t: minigrad.diag(t, -1), one(min_dims=1, max_dims=1)),
    "diagonal(1)": (lambda t: t.diagonal(1), matrix()),
    "diagonal(-1, 2, 0)": (lambda t: t.diagonal(-1, 2, 0), fixed((3, 2, 4))),
    "trace": (lambda t: t.trace(), matrix()),
    "repeat": (lambda t: t.repeat(2, 1, 2), matrix()),
    "tile": (lambda t: minigrad.tile(t, (2,)), one(min_dims=1, max_dims=2)),
    "flip": (lambda t: t.flip(0), one(min_dims=1)),
    "roll": (lambda t: t.roll(1) + minigrad.roll(t, -1, 0), one(min_dims=1)),
    "chunk": (lambda t: t.chunk(2, 0)[-1] * 2, one(min_dims=1)),
    "split": (lambda t: minigrad.split(t, [1, 2], dim=1)[1], fixed((2, 3))),
    "narrow": (lambda t: t.narrow(-1, 1, 1), one(min_dims=1).filter(lambda a: a[0].shape[-1] >= 2)),
    "gather": (lambda t: t.gather(1, minigrad.tensor(IDX)), fixed((3, 3))),
    "take_along_dim": (lambda t: minigrad.take_along_dim(t, minigrad.tensor([0, 4, 4])),
                       fixed((3, 3))),
    "scatter": (lambda x, s: x.scatter(1, minigrad.tensor([[0, 2], [1, 0], [2, 1]]), s),
                matmul_pair((3, 3), (3, 2))),
    "scatter_add": (lambda x, s: minigrad.scatter_add(x, 1, minigrad.tensor(IDX), s),
                    matmul_pair((3, 3), (3, 2))),
    "index_select": (lambda t: t.index_select(0, minigrad.tensor([2, 0, 2])), fixed((3, 2))),
    "index_add(alpha)": (lambda x, s: x.index_add(1, minigrad.tensor([2, 0, 2]), s, alpha=-1.5) * x,
                         matmul_pair((2, 3), (2, 3))),
    "index_fill": (lambda t: t.index_fill(0, minigrad.tensor([2, -3]), 0.5) * t, fixed((3, 2))),
    "index_fill(tensor)": (lambda t, v: minigrad.index_fill(t, 1, minigrad.tensor([1, 1]), v) * t,
                           matmul_pair((3, 2), ())),
    "index_copy": (lambda x, s: x.index_copy(0, minigrad.tensor([2, 0]), s) * x, matmul_pair((3, 2), (2, 2))),
    "index_put": (lambda x, v: x.index_put((minigrad.tensor([1, 0]), minigrad.tensor([0, 1])), v) * x,
                  matmul_pair((2, 2), (2,))),
    "index_put(accumulate)": (lambda x, v: minigrad.index_put(x, (minigrad.tensor([1, 1]),), v, True) * x,
                              matmul_pair((2, 3), (3,))),
    "masked_fill": (lambda t: t.masked_fill(minigrad.tensor([True, False]), 0.5) * t,
                    fixed((3, 2))),
    "masked_fill(tensor)": (lambda t, v: minigrad.masked_fill(t, minigrad.tensor([True, False]), v) * t,
                            matmul_pair((3, 2), ())),
    "masked_select": (lambda t: t.masked_select(minigrad.tensor([[True, False], [True, True]])),
                      fixed((2, 2))),
    "movedim": (lambda t: t.movedim(0, -1), one(min_dims=2)),
    "unflatten": (lambda t: t.unflatten(0, (2, -1)), fixed((4, 2))),
    # issue 26f: grids, stacks, NaN-skipping reductions, differences
    "meshgrid(xy)": (lambda a, b: _weighted(minigrad.meshgrid(a, b, indexing="xy")), matmul_pair((3,), (2,))),
    "meshgrid(ij, 0-d)": (lambda a, b, c: _weighted(minigrad.meshgrid([a, b, c], indexing="ij")),
                          st.builds(lambda *a: list(a), arrays((2,)), arrays(()), arrays((3,)))),
    "hstack": (lambda a, b: minigrad.hstack([a, b, a]), matmul_pair((2, 3), (2, 1))),
    "hstack(vectors)": (lambda a, b: minigrad.hstack((a, b)), matmul_pair((3,), ())),
    "vstack": (lambda a, b: minigrad.vstack([a, b]), matmul_pair((3,), (2, 3))),
    "row_stack": (lambda a, b: minigrad.row_stack([a, b]), matmul_pair((), ())),
    "column_stack": (lambda a, b: minigrad.column_stack([a, b]), matmul_pair((2,), (2, 2))),
    "dstack": (lambda a, b: minigrad.dstack([a, b]), matmul_pair((2,), (1, 2))),
    "atleast_3d": (lambda t: minigrad.atleast_3d(t) * 2, one(max_dims=2)),
    "nansum(dim)": (lambda t: t.masked_fill(minigrad.tensor([True, False]), float("nan")).nansum(0) * t[0],
                    fixed((3, 2))),
    "nansum(dtype)": (lambda t: minigrad.nansum(t, dtype=minigrad.float64), one()),
    "nanmean": (lambda t: minigrad.nanmean(t.masked_fill(minigrad.tensor([True, False]), float("nan")), 1,
                                           keepdim=True) * t, fixed((3, 2))),
    "diff": (lambda t: t.diff() * 2, one(min_dims=1)),
    "diff(n=2, dim=0)": (lambda t: minigrad.diff(t, n=2, dim=0), fixed((4, 2))),
    "diff(prepend, append)": (lambda a, b: a.diff(dim=1, prepend=b, append=a * a),
                              matmul_pair((2, 3), (2, 1))),
    # the rarer elementwise functions (tests/test_elementwise_more.py): away from poles and kinks
    "asinh": (lambda t: t.asinh(), one(floats(-3, 3))),
    "acosh": (lambda t: minigrad.arccosh(t), one(floats(1.2, 4))),
    "atanh": (lambda t: t.atanh(), one(floats(-0.9, 0.9))),
    "deg2rad, rad2deg": (lambda t: t.deg2rad() * minigrad.rad2deg(t), one()),
    "logit": (lambda t: t.logit(), one(floats(0.05, 0.95))),
    "logit(eps)": (lambda t: minigrad.logit(t, 0.1) * t, one(st.one_of(floats(0.15, 0.85), floats(0.01, 0.05)))),
    "sinc": (lambda t: t.sinc(), one(away(0.05, 2.5))),  # (at 0 the second derivative is NaN, as PyTorch's)
    "lgamma": (lambda t: t.lgamma(), one(st.one_of(floats(0.2, 5), floats(-2.8, -2.2)))),
    "digamma": (lambda t: minigrad.special.psi(t), one(st.one_of(floats(0.3, 5), floats(-1.7, -1.3)))),
    "polygamma": (lambda t: t.polygamma(1) + minigrad.polygamma(2, t), one(floats(0.5, 4))),
    "i0, i1": (lambda t: t.i0() * minigrad.special.i1(t), one(floats(-3, 3))),
    "frexp": (lambda t: t.frexp()[0] * t, one(floats(0.55, 0.95))),  # (within one binade)
    "float_power": (lambda t: t.float_power(3) + minigrad.float_power(2, t), one()),
    "float_power(tensor)": (lambda a, b: a.float_power(b), pair(floats(0.5, 2), floats(0.5, 2))),
    "xlogy": (lambda a, b: a.xlogy(b), pair(floats(-2, 2), floats(0.2, 3))),
    "xlogy(number)": (lambda t: t.xlogy(2.5) + minigrad.xlogy(1.5, t * t + 0.5), one()),
    "hypot": (lambda a, b: a.hypot(b), pair(away(0.2, 2), away(0.2, 2))),
    "copysign": (lambda a, b: a.copysign(b) * a + a.copysign(-1.5), pair(away(0.1, 2), away(0.1, 2))),
    "logaddexp2": (lambda a, b: minigrad.logaddexp2(a, b), pair()),
    "ldexp": (lambda a, b: a.ldexp(b), pair()),
    "nextafter": (lambda a, b: a.nextafter(b) * a, tie_free_pair()),
    # issue 30c: reductions, scans, selections (distinct values: no ties, where the gradient jumps)
    "cummax": (lambda t: t.cummax(1).values * t, distinct_matrix()),
    "cummin": (lambda t: minigrad.cummin(t, 0).values, distinct_matrix()),
    "logcumsumexp": (lambda t: t.logcumsumexp(-1) * t,  # (a zero gradient: NaN second derivative, as
                     one(away(0.2, 2), min_dims=1)),  # PyTorch's log|grad| formula gives)
    "logcumsumexp(dim 0)": (lambda t: minigrad.logcumsumexp(t, 0), one(min_dims=1)),
    "kthvalue": (lambda t: t.kthvalue(2, 1, keepdim=True).values * t,
                 st.builds(lambda a: [a], distinct((2, 3)))),
    "mode": (lambda t: t.mode(0).values, distinct_matrix()),
    "nanmedian()": (lambda t: t.nanmedian() * t, distinct_matrix()),
    "nanmedian(dim)": (lambda t: minigrad.nanmedian(t, 1).values, distinct_matrix()),
    "aminmax": (lambda t: (lambda r: r.min * 2 + r.max)(t.aminmax(dim=1)), distinct_matrix()),
    "aminmax()": (lambda t: (lambda r: r.min * t + r.max)(minigrad.aminmax(t)), distinct_matrix()),
    "quantile": (lambda t: t.quantile(0.3) * t, distinct_matrix()),
    "quantile(q tensor, dim)": (lambda t: minigrad.quantile(t, minigrad.tensor([0.2, 0.9], dtype=minigrad.float64),
                                                            dim=0, keepdim=True), distinct_matrix()),
    "nanquantile(midpoint)": (lambda t: t.nanquantile(0.4, 1, interpolation="midpoint"), distinct_matrix()),
    "std_mean": (lambda t: (lambda r: r[0] * r[1])(minigrad.std_mean(t, 1)),
                 st.builds(lambda a: [a], distinct((2, 3)))),
    "var_mean(correction=0)": (lambda t: (lambda r: r[0] + r[1] * r[1])(minigrad.var_mean(t, correction=0)),
                               one(min_dims=1)),
    "msort": (lambda t: t.msort(), distinct_matrix()),
    "cov": (lambda t: t.cov(), fixed((2, 4))),
    "cov(weights)": (lambda t, a: minigrad.cov(t, correction=2, fweights=minigrad.tensor([1, 3, 2]), aweights=a * a + 0.5),
                     matmul_pair((3, 3), (3,))),
    "corrcoef": (lambda t: (t + minigrad.tensor([[0.0, 0.9, 0.0, 0.0], [0.0] * 4], dtype=minigrad.float64)).corrcoef(),
                 st.builds(lambda a: [a], distinct((2, 4)))),  # (bent: rows on one line correlate 1, at clip's kink)
    "dist": (lambda a, b: a.dist(b), apart((2, 2), (2, 2))),
    "dist(p=3)": (lambda a, b: minigrad.dist(a, b, 3), apart((2, 3), (3,))),
    "dist(p=1.5)": (lambda a, b: minigrad.dist(a, b, 1.5), apart((2, 3), (2, 3))),
    "cdist": (lambda a, b: minigrad.cdist(a, b), apart((3, 2), (4, 2))),
    "cdist(p=1)": (lambda a, b: minigrad.cdist(a, b, p=1), apart((2, 1), (3, 1))),
    "cdist(p=3, batch)": (lambda a, b: minigrad.cdist(a, b, 3), apart((2, 3, 2), (1, 2, 2))),
    "cdist(matrix product)": (lambda a, b: minigrad.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
                              apart((2, 3, 2), (2, 2, 2))),
    "renorm": (lambda t: t.renorm(2, 0, 1.5), fixed((3, 2), away(0.5, 2))),
    "renorm(p=1, dim=1)": (lambda t: minigrad.renorm(t, 1, 1, 0.8), fixed((2, 3), away(0.5, 2))),
    "trapezoid": (lambda t: minigrad.trapezoid(t, dx=0.5), one(min_dims=1)),
    "trapezoid(x)": (lambda y, x: minigrad.trapezoid(y, x, dim=0), matmul_pair((3, 2), (3,))),
    "cumulative_trapezoid(x)": (lambda y, x: minigrad.cumulative_trapezoid(y, x), matmul_pair((2, 3), (2, 3))),
    # linear algebra (torch.linalg, ops/decomp.py): inputs far from singular, singular values
    # and eigenvalues well apart (diag(3, 2, 1) plus a little); a decomposition's factors
    # through sign-invariant functions (Q * Q: a column of Q flips with R's row)
    "linalg.det": (lambda t: minigrad.linalg.det(t),
                   st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
    "linalg.slogdet": (lambda t: minigrad.linalg.slogdet(t).logabsdet * 2,
                       st.builds(lambda a: [a - 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
    "logdet": (lambda t: (t @ t.mT).logdet(),
               st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
    "linalg.inv": (lambda t: minigrad.linalg.inv(t),
                   st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
    "linalg.solve": (lambda a, b: minigrad.linalg.solve(a, b),
                     st.builds(lambda a, b: [a + 3 * np.eye(3), b], arrays((3, 3), floats(-1, 1)), arrays((3, 2)))),
    "linalg.solve vector": (lambda a, b: minigrad.linalg.solve(a, b),
                            st.builds(lambda a, b: [a + 3 * np.eye(3), b], arrays((2, 3, 3), floats(-1, 1)), arrays((3,)))),
    "linalg.solve(left=False)": (lambda a, b: minigrad.linalg.solve(a, b, left=False),
                                 st.builds(lambda a, b: [a + 3 * np.eye(3), b], arrays((3, 3), floats(-1, 1)), arrays((2, 3)))),
    "linalg.pinv": (lambda t: minigrad.linalg.pinv(t),
                    st.builds(lambda a: [a + 3 * np.eye(3)[:, :2]], arrays((3, 2), floats(-1, 1)))),
    "linalg.pinv wide": (lambda t: minigrad.pinverse(t),
                         st.builds(lambda a: [a + 3 * np.eye(3)[:2]], arrays((2, 3), floats(-1, 1)))),
    "linalg.matrix_power": (lambda t: minigrad.linalg.matrix_power(t, 5) + t.matrix_power(-2),
                            st.builds(lambda a: [a + 2 * np.eye(2)], arrays((2, 2), floats(-0.5, 0.5)))),
    "linalg.cholesky": (lambda t: minigrad.linalg.cholesky(t @ t.mT),
                        st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
    "linalg.cholesky(upper=True)": (lambda t: minigrad.linalg.cholesky(t @ t.mT, upper=True),
                                    st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
    "linalg.qr": (lambda t: (lambda q, r: q * q + 2 * r * r)(*minigrad.linalg.qr(t)),
                  st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
    "linalg.qr tall": (lambda t: (lambda q, r: (q * q).sum(0) + 2 * (r * r).sum(0))(*minigrad.linalg.qr(t)),
                       st.builds(lambda a: [a + 3 * np.eye(3)[:, :2]], arrays((3, 2), floats(-1, 1)))),
    "linalg.qr wide": (
        lambda t: (lambda q, r: (q * q).sum(0) + 2 * (r * r).sum(0)[:2])(*minigrad.linalg.qr(t)),
        st.builds(lambda a: [a + 3 * np.eye(3)[:2]], arrays((2, 3), floats(-1, 1)))),
    "linalg.svd": (lambda t: (lambda u, s, vh: u * u * s + vh * vh)(*minigrad.linalg.svd(t)),
                   st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
    "linalg.svd tall": (
        lambda t: (lambda u, s, vh: (u * u * s).sum(0) + 2 * (vh * vh).sum(0))(*minigrad.linalg.svd(t, full_matrices=False)),
        st.builds(lambda a: [a + np.diag([3.0, 2, 1])[:, :2]], arrays((3, 2), floats(-0.2, 0.2)))),
    "linalg.svd wide": (
        lambda t: (lambda u, s, vh: (u * u * s).sum() + 2 * (vh * vh).sum(0))(*minigrad.linalg.svd(t, full_matrices=False)),
        st.builds(lambda a: [a + np.diag([3.0, 2, 1])[:2]], arrays((2, 3), floats(-0.2, 0.2)))),
    "linalg.svdvals": (lambda t: minigrad.linalg.svdvals(t),
                       st.builds(lambda a: [a + np.diag([3.0, 2, 1])[:, :2]], arrays((2, 3, 2), floats(-0.2, 0.2)))),
    "linalg.eigh": (lambda t: (lambda lam, v: v * v * lam)(*minigrad.linalg.eigh(t + t.mT)),
                    st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
    "linalg.eigvalsh": (lambda t: minigrad.linalg.eigvalsh(t + t.mT),
                        st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((2, 3, 3), floats(-0.2, 0.2)))),
    "linalg.matrix_norm": (
        lambda t: minigrad.stack([minigrad.linalg.matrix_norm(t, o) for o in ("fro", "nuc", 2, -2)]),
        st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
    "linalg.matrix_norm(1, inf)": (
        lambda t: minigrad.stack([minigrad.linalg.matrix_norm(t, o) for o in (1, -1, float("inf"), -float("inf"))]),
        st.builds(lambda a: [a + np.array([[3.0, 1, 1], [1, 2, 0], [0, 0, 1]])], arrays((3, 3), floats(0.1, 0.2)))),
    "linalg.cross": (lambda a, b: minigrad.linalg.cross(a, b), matmul_pair((2, 3), (1, 3))),
    "linalg.multi_dot": (lambda a, b, c: minigrad.linalg.multi_dot([a, b, c, a[0]]),
                         st.builds(lambda *m: list(m), arrays((2, 3)), arrays((3, 3)), arrays((3, 3)))),
    "inner, kron, tensordot, vdot": (
        lambda a, b: minigrad.inner(a, b).sum() + minigrad.kron(a, b).sum(-1)[:2] + minigrad.tensordot(a, b.mT, 1).sum() + minigrad.vdot(a[0], b[1] * a[0]),
        matmul_pair((2, 3), (2, 3))),
    "addmv, addr": (
        lambda x, m, v: minigrad.addmv(x[0], m, v, beta=0.5, alpha=2) * minigrad.addr(x, x[0], v[:2] * v[:2], alpha=-1).sum(),
        st.builds(lambda *m: list(m), arrays((2, 2)), arrays((2, 3)), arrays((3,)))),
    "baddbmm, addbmm": (
        lambda x, a, b: minigrad.baddbmm(x, a, b * b, beta=2) + minigrad.addbmm(x[0], a * a, b, alpha=0.5),
        st.builds(lambda *m: list(m), arrays((2, 2, 3)), arrays((2, 2, 4)), arrays((2, 4, 3)))),
    # issue 30d: windows, turns, pieces, diagonals, in-place reshapes (squared: second order
    # then goes through each op's backward twice)
    "unfold": (lambda t: t.unfold(1, 2, 1) ** 2, fixed((2, 4))),
    "unfold(step 2, 3-d)": (lambda t: t.unfold(0, 2, 2) ** 2, fixed((5, 2, 2))),
    "unfold(windows apart)": (lambda t: t.unfold(-1, 2, 3) ** 2, fixed((2, 7))),
    "unfold(0-d)": (lambda t: t.unfold(0, 1, 1) ** 2, fixed(())),
    "as_strided": (lambda t: t.as_strided((2, 2), (1, 2), 1) ** 2, fixed((3, 4))),
    "as_strided(overlapping)": (lambda t: t.as_strided((3, 2), (1, 1)) ** 2, fixed((6,))),
    "rot90": (lambda t: t.rot90() ** 2, one(min_dims=2)),
    "rot90(k=2)": (lambda t: minigrad.rot90(t, 2, (1, 0)) ** 2, one(min_dims=2)),
    "rot90(k=-1)": (lambda t: t.rot90(-1, (-1, 0)) ** 2, one(min_dims=2)),
    "fliplr": (lambda t: t.fliplr() ** 2, one(min_dims=2)),
    "flipud": (lambda t: minigrad.flipud(t) ** 2, one(min_dims=1)),
    "tensor_split": (lambda t: _weighted(t.tensor_split(3, 1)) ** 2, fixed((2, 4))),
    "tensor_split(indices)": (lambda t: _weighted(minigrad.tensor_split(t, [1, 3], 1)) ** 2, fixed((2, 4))),
    "hsplit": (lambda t: _weighted(t.hsplit(2)) ** 2, fixed((2, 4))),
    "vsplit": (lambda t: minigrad.vsplit(t, [1])[1] ** 2, fixed((3, 2))),
    "dsplit": (lambda t: t.dsplit([1])[1] ** 2, fixed((1, 2, 3))),
    "split_with_sizes": (lambda t: t.split_with_sizes([1, 2], 1)[1] ** 2, fixed((2, 3))),
    "select": (lambda t: minigrad.select(t, 1, -1) ** 2, fixed((2, 3))),
    "narrow_copy": (lambda t: t.narrow_copy(1, 1, 2) ** 2, fixed((2, 3))),
    "take": (lambda t: t.take(minigrad.tensor([[0, 5], [5, -1]])) ** 2, fixed((2, 3))),
    "diag_embed": (lambda t: t.diag_embed() ** 2, fixed((2, 3))),
    "diag_embed(-1, 0, 2)": (lambda t: minigrad.diag_embed(t, -1, 0, 2) ** 2, fixed((2, 3))),
    "diagflat": (lambda t: minigrad.diagflat(t, 1) ** 2, one(max_dims=2)),
    "block_diag": (lambda a, b, c: minigrad.block_diag(a, b, c) ** 2,
                   st.builds(lambda *a: list(a), arrays((2, 3)), arrays((2,)), arrays(()))),
    "cartesian_prod": (lambda a, b: minigrad.cartesian_prod(a, b) ** 2, matmul_pair((3,), (2,))),
    "combinations": (lambda t: minigrad.combinations(t, 2) ** 2, fixed((4,))),
    "combinations(with_replacement)": (lambda t: minigrad.combinations(t, 3, True) ** 2, fixed((3,))),
    "t_": (lambda t: (t * 1).t_() ** 2, one(max_dims=2)),
    "transpose_": (lambda t: (t * 1).transpose_(0, -1) ** 2, one(min_dims=1)),
    "unsqueeze_ squeeze_": (lambda t: (t * 1).unsqueeze_(0).squeeze_(0).unsqueeze_(-1).squeeze_() ** 2, one()),
    # scatter and index leftovers of tests/test_scatter_more.py (self and src apart, no ties: distinct)
    "scatter_reduce(sum)": (lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "sum") ** 2, _self_and_src()),
    "scatter_reduce(prod)": (lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "prod"), _self_and_src(True)),
    "scatter_reduce(prod, include_self=False)": (lambda x, s: minigrad.scatter_reduce(
        x, 1, _SCATTER_IDX(), s, "prod", include_self=False), _self_and_src(True)),
    "scatter_reduce(mean)": (lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "mean") ** 2, _self_and_src()),
    "scatter_reduce(mean, include_self=False)": (lambda x, s: x.scatter_reduce(
        1, _SCATTER_IDX(), s, "mean", include_self=False) ** 2, _self_and_src()),
    "scatter_reduce(amax)": (lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "amax") ** 2, _self_and_src()),
    "scatter_reduce(amin, include_self=False)": (lambda x, s: x.scatter_reduce(
        0, _SCATTER_IDX(), s, "amin", include_self=False) ** 2, _self_and_src()),
    "index_reduce(prod)": (lambda x, s: _quiet(x.index_reduce, 0, minigrad.tensor([0, 2, 0]), s, "prod"),
                           _self_and_src(True)),
    "index_reduce(mean, include_self=False)": (lambda x, s: _quiet(
        x.index_reduce, 1, minigrad.tensor([3, 3, 0, 1]), s, "mean", include_self=False) ** 2, _self_and_src()),
    "index_reduce(amax)": (lambda x, s: _quiet(x.index_reduce, 0, minigrad.tensor([2, 2, 0]), s, "amax") ** 2,
                           _self_and_src()),
    "masked_scatter": (lambda x, s: x.masked_scatter(minigrad.tensor([True, False, True, True]), s) ** 2,
                       _self_and_src()),
    "select_scatter": (lambda x, s: minigrad.select_scatter(x, s[1], 0, -1) ** 2, _self_and_src()),
    "slice_scatter": (lambda x, s: x.slice_scatter(s[:, :2], 1, 1, None, 2) ** 2, _self_and_src()),
    "diagonal_scatter": (lambda x, s: x.diagonal_scatter(s[0, :3], 1) ** 2, _self_and_src()),
    "put": (lambda x, s: x.put(minigrad.tensor([0, -1, 5]), s[0, :3]) ** 2, _self_and_src()),
    "put(accumulate)": (lambda x, s: minigrad.put(x, minigrad.tensor([[0, 5], [0, -1]]), s[:2, :2], True) ** 2,
                        _self_and_src()),
    "addmm_": (lambda x, a, b: (x * 1).addmm_(a, b, beta=0.5, alpha=2) ** 2,
               st.builds(lambda *a: list(a), arrays((3, 4)), arrays((3, 2)), arrays((2, 4)))),
    "tril_ triu_": (lambda t: (t * 1).tril_(1).triu_(-1) ** 2, fixed((3, 4))),
    "unsafe_chunk": (lambda t: _weighted(t.unsafe_chunk(2, 1)) ** 2, fixed((2, 4))),
    "unsafe_split_with_sizes": (lambda t: _weighted(minigrad.unsafe_split_with_sizes(t, [1, 2])) ** 2, fixed((3, 2))),
    "broadcast_tensors": (lambda a, b: _weighted(minigrad.broadcast_tensors(a, b)) ** 2, matmul_pair((3, 1), (4,))),
}


def _quiet(method, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (index_reduce's beta warning)
        return method(*args, **kwargs)


def _weighted(grids):
    """Several outputs as one: each grid weighted differently, so a swapped gradient shows."""
    return sum((g * (i + 1) for i, g in enumerate(grids[1:], 1)), grids[0])


def _new_op_case(name, data):
    fn, strategy = NEW_OPS[name]
    return fn, data.draw(strategy)


@NEW_FEW
@pytest.mark.parametrize("name", NEW_OPS)
@given(data=st.data())
def test_new_op(name, data):
    fn, arrays_ = _new_op_case(name, data)
    check_grads(fn, *arrays_)


@NEW_FEW
@pytest.mark.parametrize("name", NEW_OPS)
@given(data=st.data())
def test_new_op_second_order(name, data):
    fn, arrays_ = _new_op_case(name, data)
    check_second_order(fn, *arrays_)


# =============================================================================================
# In-place writes into a view of a tensor that requires grad: the base's node is CopySlices
# (x[mask] = v: IndexPutBackward0). Gradients flow to the base's old values outside the
# written region, through the in-place op inside it, and to the op's other inputs.
# =============================================================================================


def _written(write):
    """``(x, v) -> z``: y = x * 2 (a non-leaf), then ``write(y, v)`` in place, then z = y * y,
    so the gradient of the new values is not constant (second order sees it too)."""
    def fn(x, v):
        y = x * 2
        write(y, v)
        return y * y
    return fn


def _assign(key):
    def write(y, v):
        y[key] = v
    return write


INPLACE_ON_VIEWS = {
    "y[0] = v": (_written(_assign(0)), (3,)),
    "y[:, 1:] = v": (_written(_assign((slice(None), slice(1, None)))), (2,)),
    "y[mask] = v": (_written(_assign(np.array([[True, False, True], [False, True, False]]))), (3,)),
    "y[:, 1].mul_(v)": (_written(lambda y, v: y[:, 1].mul_(v)), (2,)),
    "y[1].add_(v)": (_written(lambda y, v: y[1].add_(v)), (1,)),
    "y[0][1:].sub_(v) (view of a view)": (_written(lambda y, v: y[0][1:].sub_(v)), ()),
    "y[1].sin_(), then y[0] *= v": (_written(lambda y, v: (y[1].sin_(), y[0].__imul__(v))), (3,)),
    "y[:, :2].copy_(v)": (_written(lambda y, v: y[:, :2].copy_(v)), (2, 2)),
}


@FEW
@pytest.mark.parametrize("name", INPLACE_ON_VIEWS)
@given(data=st.data())
def test_inplace_on_view(name, data):
    fn, v_shape = INPLACE_ON_VIEWS[name]
    x, v = data.draw(arrays((2, 3), floats(-1, 1))), data.draw(arrays(v_shape, floats(-1, 1)))
    check_grads(fn, x, v)


@FEW
@pytest.mark.parametrize("name", INPLACE_ON_VIEWS)
@given(data=st.data())
def test_inplace_on_view_second_order(name, data):
    fn, v_shape = INPLACE_ON_VIEWS[name]
    x, v = data.draw(arrays((2, 3), floats(-1, 1))), data.draw(arrays(v_shape, floats(-1, 1)))
    check_second_order(lambda a, b: fn(a, b).sum(), x, v)


# =============================================================================================
# The ops of torch.nn (issue 19): activations, normalisation, embedding, losses
# =============================================================================================

F = minigrad.nn.functional
_RNN = minigrad.nn._functional_rnn
EMB_IDX = minigrad.tensor([[0, 2], [2, 3], [1, 2]])  # row 2 used three times


@st.composite
def loss_pair(draw, max_dims=2):
    """(input, target) of one shape, their differences kept 0.075 away from every multiple
    of 0.5: away from l1's kink at 0 and the squared/absolute seams at beta, delta = 0.5, 1."""
    shape = draw(shapes(min_dims=1, max_dims=max_dims))
    x = draw(arrays(shape))
    return [x, x + draw(arrays(shape, off_the_grid(-2, 2, step=0.5)))]


@st.composite
def rows_and_affine(draw):
    n, k = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    return [draw(arrays((n, k))), draw(arrays((k,))), draw(arrays((k,)))]


@st.composite
def probabilities_pair(draw):
    """Logits and target probabilities (inside (0.05, 0.95), so logs and sigmoids stay tame)."""
    shape = draw(shapes(min_dims=2, max_dims=2))
    return [draw(arrays(shape)), draw(arrays(shape, floats(0.05, 0.95)))]


def _ramp(n):
    """A weight per class: 0.5, 1.0, 1.5, ..."""
    return minigrad.arange(1, n + 1, dtype=minigrad.float64) * 0.5


SDPA_MASK = minigrad.tensor([[True, False, True, True]] * 3)  # (with is_causal: each query keeps key 0)


def shaped(*shapes):
    """Arrays of these shapes."""
    return st.builds(lambda *a: list(a), *(arrays(s) for s in shapes))


def spread(shape, *shapes):
    """An input to normalise, without ties (so every group has a variance well above 0, where
    the normalisations are smooth), and arrays of the other shapes (weight, bias)."""
    return st.builds(lambda *a: list(a), distinct(shape), *(arrays(s) for s in shapes))
# (the recurrent layers' inputs, for the entries at the end of NN_OPS)
@st.composite
def rnn_cell_case(draw, gates, n_states, batch=2, input_size=2, hidden=2):
    """input (batch, input_size), the state(s) (batch, hidden), w_ih, w_hh, b_ih, b_hh (gates * hidden
    rows)."""
    return ([draw(arrays((batch, input_size)))] + [draw(arrays((batch, hidden))) for _ in range(n_states)]
            + [draw(arrays((gates * hidden, input_size), floats(-1, 1))),
               draw(arrays((gates * hidden, hidden), floats(-1, 1))),
               draw(arrays((gates * hidden,), floats(-1, 1))),
               draw(arrays((gates * hidden,), floats(-1, 1)))])


NN_OPS = {
    # name: (fn of float64 tensors, strategy for their arrays)
    "leaky_relu": (lambda t: F.leaky_relu(t, 0.2), one(away(0.05, 2))),
    "elu": (lambda t: F.elu(t, 0.7), one(away(0.05, 2))),
    "selu": (lambda t: F.selu(t), one(away(0.05, 2))),
    "gelu": (lambda t: F.gelu(t), one(floats(-3, 3))),
    "gelu(tanh)": (lambda t: F.gelu(t, approximate="tanh"), one(floats(-3, 3))),
    "silu": (lambda t: F.silu(t), one(floats(-4, 4))),
    "softplus": (lambda t: F.softplus(t, beta=2.0, threshold=3.0), one(off_the_grid(-3, 3, step=1.5))),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b), rows_and_affine()),
    "layer_norm(no affine)": (lambda x: F.layer_norm(x, x.shape[-1:]) * x, fixed((2, 3))),
    # (padding_idx and scale_grad_by_freq change the gradient on purpose, away from the derivative:
    # they are compared with PyTorch in test_nn_surface.py instead)
    "embedding": (lambda w: F.embedding(EMB_IDX, w) ** 2, fixed((4, 2))),
    "pad": (lambda t: F.pad(t, (1, -1, 0, 2), value=0.5) ** 2, fixed((2, 3, 2))),
    "binary_cross_entropy": (lambda x, t: F.binary_cross_entropy(x.sigmoid(), t, reduction="none"),
                             probabilities_pair()),
    "binary_cross_entropy(weight)": (lambda x, t: F.binary_cross_entropy(
        x.sigmoid(), t, weight=_ramp(x.shape[-1])), probabilities_pair()),
    "binary_cross_entropy_with_logits": (lambda x, t: F.binary_cross_entropy_with_logits(x, t, reduction="sum"),
                                         probabilities_pair()),
    "binary_cross_entropy_with_logits(pos_weight)": (lambda x, t: F.binary_cross_entropy_with_logits(
        x, t, pos_weight=_ramp(x.shape[-1]) * 2, reduction="none"),
        probabilities_pair()),
    "l1_loss": (lambda x, t: F.l1_loss(x, t), loss_pair()),
    "smooth_l1_loss": (lambda x, t: F.smooth_l1_loss(x, t, beta=0.5, reduction="none"), loss_pair()),
    "smooth_l1_loss(mean)": (lambda x, t: F.smooth_l1_loss(x, t), loss_pair()),
    "huber_loss": (lambda x, t: F.huber_loss(x, t, delta=0.5, reduction="sum"), loss_pair()),
    "huber_loss(none)": (lambda x, t: F.huber_loss(x, t, reduction="none"), loss_pair()),
    "kl_div": (lambda x, t: F.kl_div(x.log_softmax(-1), t, reduction="batchmean"), probabilities_pair()),
    "kl_div(log_target)": (lambda x, t: F.kl_div(x, t.log(), reduction="sum", log_target=True), probabilities_pair()),
    "cross_entropy(probabilities, smoothing)": (lambda x, t: F.cross_entropy(x, t, label_smoothing=0.2),
                                                probabilities_pair()),
    "cross_entropy(smoothing)": (lambda x: F.cross_entropy(x, minigrad.tensor([1, 0, -100]), label_smoothing=0.3),
                                 fixed((3, 2))),
    "cross_entropy(weight, ignore_index)": (lambda x: F.cross_entropy(
        x, minigrad.tensor([2, 0, 1, 2]), weight=_ramp(3), ignore_index=1), fixed((4, 3))),
    "nll_loss(2-D, none)": (lambda x: F.nll_loss(x.log_softmax(1), minigrad.tensor([[[0, 2]], [[1, 1]]]),
                                                 reduction="none"), fixed((2, 3, 1, 2))),
    # (squared: a pool is linear, so only then has it a second derivative to check)
    "max_pool2d": (lambda t: F.max_pool2d(t, 2) ** 2, st.builds(lambda a: [a], distinct((1, 2, 4, 4)))),
    "avg_pool2d": (lambda t: F.avg_pool2d(t, 2, stride=1, padding=1) ** 2, fixed((1, 2, 3, 3))),
    "adaptive_avg_pool2d": (lambda t: F.adaptive_avg_pool2d(t, (2, 1)) ** 2, fixed((2, 3, 3))),
    # activations of tests/test_random_dtype_nn_more.py (away from their kinks and jumps)
    "celu": (lambda t: F.celu(t, 0.7), one(away(0.05, 2))),
    "threshold": (lambda t: F.threshold(t, 0.5, -1.0) ** 2, one(off_the_grid(-2, 2, step=0.5))),
    "hardtanh": (lambda t: F.hardtanh(t, -1.0, 2.0) ** 2, one(off_the_grid(-3, 3))),
    "relu6": (lambda t: F.relu6(t) * t, one(off_the_grid(-3, 8))),
    "hardswish": (lambda t: F.hardswish(t), one(off_the_grid(-5, 5))),
    "mish": (lambda t: F.mish(t), one(floats(-4, 4))),
    "logsigmoid": (lambda t: F.logsigmoid(t), one(floats(-5, 5))),
    "hardshrink": (lambda t: F.hardshrink(t) ** 2, one(off_the_grid(-2, 2, step=0.5))),
    "softshrink": (lambda t: F.softshrink(t, 0.5) ** 2, one(off_the_grid(-2, 2, step=0.5))),
    "tanhshrink": (lambda t: F.tanhshrink(t), one(floats(-3, 3))),
    "softsign": (lambda t: F.softsign(t), one(away(0.05, 3))),
    "glu": (lambda t: F.glu(t, 0), fixed((4, 3))),
    "prelu": (lambda x, w: F.prelu(x, w), st.builds(lambda a, b: [a, b], arrays((2, 3, 2), away(0.05, 2)),
                                                    arrays((3,)))),
    "prelu(one slope)": (lambda x, w: F.prelu(x, w) ** 2, st.builds(lambda a, b: [a, b], arrays((4,), away(0.05, 2)),
                                                                    arrays((1,)))),
    "rrelu(eval)": (lambda t: F.rrelu(t, 0.1, 0.4) ** 2, one(away(0.05, 2))),
    # losses and distances of tests/test_loss_more.py (inputs apart, kinks out of reach: differences
    # off the grid of 0.5 (or 0.7), margins on it; piecewise linear losses squared)
    "cosine_similarity": (lambda a, b: F.cosine_similarity(a, b), st.builds(
        lambda a, b: [a, b], arrays((3, 4), away(0.2, 2)), arrays((3, 4), away(0.2, 2)))),
    "pairwise_distance": (lambda a, b: F.pairwise_distance(a, b), st.builds(
        lambda a, d: [a, a + d], arrays((3, 4)), arrays((3, 4), off_the_grid(-2, 2, 0.5)))),
    "pairwise_distance(p=3)": (lambda a, b: F.pairwise_distance(a, b, 3, keepdim=True), st.builds(
        lambda a, d: [a, a + d], arrays((2, 3)), arrays((2, 3), off_the_grid(-2, 2, 0.5)))),
    "margin_ranking_loss": (lambda a, b: F.margin_ranking_loss(
        a, b, minigrad.tensor([1.0, -1, 1, -1], dtype=minigrad.float64), margin=0.5, reduction="none") ** 2,
        st.builds(lambda a, b: [a, b], arrays((4,), off_the_grid(-2, 2)), arrays((4,), off_the_grid(-2, 2)))),
    "hinge_embedding_loss": (lambda x: F.hinge_embedding_loss(x, minigrad.tensor(
        [[1.0, -1, -1], [-1, 1, -1]], dtype=minigrad.float64), margin=0.5, reduction="none") ** 2,
        fixed((2, 3), off_the_grid(-2, 2))),
    "cosine_embedding_loss": (lambda a, b: F.cosine_embedding_loss(
        a, b, minigrad.tensor([1.0, -1, -1], dtype=minigrad.float64), margin=-2.0), st.builds(
        lambda a, b: [a, b], arrays((3, 4), away(0.2, 2)), arrays((3, 4), away(0.2, 2)))),
    "soft_margin_loss": (lambda x: F.soft_margin_loss(x, minigrad.tensor(
        [[1.0, -1, 1], [-1, -1, 1]], dtype=minigrad.float64)), fixed((2, 3))),
    "soft_margin_loss(none)": (lambda x: F.soft_margin_loss(x, minigrad.tensor(
        [[1.0, -1, 1], [-1, -1, 1]], dtype=minigrad.float64), reduction="none"), fixed((2, 3))),
    "multilabel_soft_margin_loss": (lambda x, t: F.multilabel_soft_margin_loss(x, t, weight=_ramp(x.shape[-1])),
                                    probabilities_pair()),
    "triplet_margin_loss": (lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=0.37, reduction="none") ** 2,
                            st.builds(lambda a, d, e: [a, a + d, a + e], arrays((2, 3)),
                                      arrays((2, 3), off_the_grid(-2, 2, 0.5)),
                                      arrays((2, 3), off_the_grid(-2, 2, 0.5)))),
    "poisson_nll_loss": (lambda x: F.poisson_nll_loss(x, _ramp(x.shape[-1]) * 2), fixed((2, 3))),
    "poisson_nll_loss(rates, full)": (lambda x: F.poisson_nll_loss(
        x.exp(), _ramp(x.shape[-1]) * 2, log_input=False, full=True, reduction="sum"), fixed((2, 3))),
    "gaussian_nll_loss": (lambda a, t, v: F.gaussian_nll_loss(a, t, v.exp(), full=True, reduction="none"),
                          st.builds(lambda a, t, v: [a, t, v], arrays((2, 3)), arrays((2, 3)), arrays((2,)))),
    "gumbel_softmax(seeded)": (lambda x: (minigrad.manual_seed(0), F.gumbel_softmax(x, tau=0.5))[1], fixed((2, 3))),
    # attention and normalisations (tests/test_attention.py compares them with PyTorch)
    # (sdpa of 4-D inputs, PyTorch's fused kernel, has no second derivative: first order below)
    "scaled_dot_product_attention(3-D, float mask)": (lambda q, k, v, m: F.scaled_dot_product_attention(
        q, k, v, attn_mask=m) ** 2, shaped((2, 3, 2), (2, 4, 2), (2, 4, 3), (3, 4))),
    "group_norm": (lambda x, w, b: F.group_norm(x, 2, w, b) ** 2, spread((2, 4, 3), (4,), (4,))),
    "group_norm(no affine)": (lambda x: F.group_norm(x, 3) * x, spread((2, 6, 2))),
    "instance_norm": (lambda x, w, b: F.instance_norm(x, weight=w, bias=b) ** 2, spread((2, 3, 4), (3,), (3,))),
    "rms_norm": (lambda x, w: F.rms_norm(x, (3,), w) ** 2, spread((2, 3), (3,))),
    "local_response_norm": (lambda x: F.local_response_norm(x, 3, alpha=0.5, k=1.5), shaped((2, 4, 2))),
    # the convolution family of tests/test_conv_more.py (nn/_functional_conv.py)
    "conv_transpose2d": (lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=2),
                         st.builds(lambda *a: list(a), arrays((1, 4, 2, 3)), arrays((4, 1, 3, 2)), arrays((2,)))),
    "conv_transpose1d": (lambda x, w: F.conv_transpose1d(x, w, stride=2, dilation=2) * x.sum(),
                         st.builds(lambda *a: list(a), arrays((2, 2, 3)), arrays((2, 3, 2)))),
    "max_pool1d": (lambda t: F.max_pool1d(t, 3, 2, 1) ** 2, st.builds(lambda a: [a], distinct((2, 2, 7)))),
    "avg_pool1d": (lambda t: F.avg_pool1d(t, 3, 2, 1, count_include_pad=False) ** 2, fixed((2, 6))),
    "adaptive_avg_pool1d": (lambda t: F.adaptive_avg_pool1d(t, 3) ** 2, fixed((2, 2, 5))),
    "adaptive_max_pool1d": (lambda t: F.adaptive_max_pool1d(t, 3) ** 2, st.builds(lambda a: [a], distinct((2, 5)))),
    "adaptive_max_pool2d": (lambda t: F.adaptive_max_pool2d(t, (2, 3)) ** 2,
                            st.builds(lambda a: [a], distinct((1, 2, 5, 4)))),
    "interpolate(nearest)": (lambda t: F.interpolate(t, scale_factor=1.7) ** 2, fixed((1, 2, 3, 4))),
    "interpolate(nearest-exact)": (lambda t: F.interpolate(t, size=3, mode="nearest-exact") ** 2, fixed((2, 1, 5))),
    "interpolate(linear)": (lambda t: F.interpolate(t, size=7, mode="linear") ** 2, fixed((1, 2, 3))),
    "interpolate(bilinear)": (lambda t: F.interpolate(t, size=(4, 3), mode="bilinear") ** 2, fixed((1, 1, 3, 5))),
    "interpolate(bilinear, align_corners)": (lambda t: F.interpolate(t, scale_factor=2, mode="bilinear",
                                                                     align_corners=True) ** 2, fixed((1, 2, 2, 3))),
    "pad(reflect)": (lambda t: F.pad(t, (2, 1, 1, 0), mode="reflect") ** 2, fixed((1, 2, 3, 3))),
    "pad(replicate)": (lambda t: F.pad(t, (2, -1), mode="replicate") ** 2, fixed((2, 3))),
    "pad(circular)": (lambda t: F.pad(t, (1, 2, 2, 0), mode="circular") ** 2, fixed((1, 1, 2, 3))),
    "pixel_shuffle": (lambda t: F.pixel_shuffle(t, 2) ** 2, fixed((1, 4, 2, 3))),
    "pixel_unshuffle": (lambda t: F.pixel_unshuffle(t, 2) ** 2, fixed((2, 1, 2, 4))),
    "unfold": (lambda t: F.unfold(t, 2, padding=1, stride=(1, 2)) ** 2, fixed((1, 2, 3, 3))),
    "fold": (lambda t: F.fold(t, (3, 4), 2) ** 2, fixed((1, 8, 6))),
    # recurrent layers (minigrad/nn/_functional_rnn.py; compared with PyTorch in test_rnn.py): a
    # step of each cell (input, state(s), w_ih, w_hh, b_ih, b_hh); the layers are loops of them
    "rnn_tanh_cell": (lambda x, h, *w: _RNN.cell("RNN_TANH", x, h, *w), rnn_cell_case(1, 1)),
    # (one sample of one feature: the second-order check's cost grows as the square of the inputs)
    "lstm_cell": (lambda x, h, c, *w: _weighted(_RNN.cell("LSTM", x, (h, c), *w)), rnn_cell_case(4, 2, 1, 1)),
    "gru_cell": (lambda x, h, *w: _RNN.cell("GRU", x, h, *w), rnn_cell_case(3, 1, 1, 1)),
}

# losses whose gradient PyTorch does not differentiate again (tests/test_loss_more.py): first order
FIRST_ORDER_LOSSES = {
    "multi_margin_loss": (lambda x: F.multi_margin_loss(x, minigrad.tensor([0, 2, 1])), fixed((3, 4), off_the_grid(-2, 2))),
    "multi_margin_loss(p=2, weight)": (lambda x: F.multi_margin_loss(
        x, minigrad.tensor([0, 2, 1]), p=2, margin=0.5, weight=_ramp(4), reduction="none"),
        fixed((3, 4), off_the_grid(-2, 2))),
    "multilabel_margin_loss": (lambda x: F.multilabel_margin_loss(
        x * 0.7, minigrad.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [2, 2, -1, 0]]), reduction="sum"),
        fixed((3, 4), off_the_grid(-2, 2))),
    "pdist": (lambda x: F.pdist(x), st.builds(lambda a: [a], distinct((4, 3)))),
    "pdist(p=1)": (lambda x: F.pdist(x, 1), st.builds(lambda a: [a], distinct((3, 2)))),
    "pdist(p=3)": (lambda x: F.pdist(x, 3), st.builds(lambda a: [a], distinct((3, 2)))),
}


@NEW_FEW
@pytest.mark.parametrize("name", FIRST_ORDER_LOSSES)
@given(data=st.data())
def test_first_order_loss(name, data):
    fn, strategy = FIRST_ORDER_LOSSES[name]
    check_grads(fn, *data.draw(strategy))


@NEW_FEW
@pytest.mark.parametrize("name", NN_OPS)
@given(data=st.data())
def test_nn_op(name, data):
    fn, strategy = NN_OPS[name]
    check_grads(fn, *data.draw(strategy))


@NEW_FEW
@pytest.mark.parametrize("name", NN_OPS)
@given(data=st.data())
def test_nn_op_second_order(name, data):
    fn, strategy = NN_OPS[name]
    check_second_order(fn, *data.draw(strategy))


# sdpa of 4-D inputs: first order only (PyTorch's fused CPU kernel has no derivative of its
# backward; the refusal is compared in tests/test_attention.py)
SDPA_FUSED = {
    "plain": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v) ** 2,
              shaped((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4))),
    "causal, mask, scale": (lambda q, k, v: F.scaled_dot_product_attention(
        q, k, v, attn_mask=SDPA_MASK, is_causal=True, scale=0.7) ** 2, shaped((2, 1, 3, 2), (2, 1, 4, 2), (2, 1, 4, 2))),
    "gqa": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True) ** 2,
            shaped((1, 4, 2, 3), (1, 2, 3, 3), (1, 2, 3, 3))),
}


@NEW_FEW
@pytest.mark.parametrize("name", SDPA_FUSED)
@given(data=st.data())
def test_sdpa_fused(name, data):
    fn, strategy = SDPA_FUSED[name]
    check_grads(fn, *data.draw(strategy))


# hardsigmoid: first order only (PyTorch has no derivative of hardsigmoid_backward; the refusal
# is compared in tests/test_random_dtype_nn_more.py)
@NEW_FEW
@given(data=st.data())
def test_hardsigmoid(data):
    check_grads(lambda t: F.hardsigmoid(t) * t, *data.draw(one(off_the_grid(-5, 5))))
