"""Property-based gradient checks for every differentiable minigrad op: each gradcheck sample of
the op table (tests/op_db.py) is a test of its own (first order, second order, float32, mixed
precision), so that pytest-xdist spreads them over its workers.

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

Inputs are kept away from non-differentiable points by the samples' strategies (kinks of
abs/relu/clamp, ties of max/maximum, log/sqrt/div near 0).
"""
import warnings

import numpy as np
import pytest
from hypothesis import given

import minigrad
import op_db
from minigrad.autograd import Function, gradcheck
from minigrad.autograd import grad as autograd_grad
from minigrad.autograd.gradcheck import GradcheckError
from op_db import FEW, NEW_FEW, PROFILE, Check, arrays, distinct, floats, shapes  # noqa: F401 (FEW, NEW_FEW: for other test files)

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


def check_second_order(f, *arrays, wrt=None, atol=1e-4, rtol=1e-4, checker=None):
    (checker or check_grads)(first_gradient(f), *arrays, wrt=wrt, atol=atol, rtol=rtol)


# =============================================================================================
# Strategies


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
# The op table's samples
# =============================================================================================


def run_sample(sample, checker):
    """Each Check a sample draws (Hypothesis, with the sample's settings), through ``checker``."""
    if isinstance(sample.inputs, list):  # fixed inputs: no drawing
        checker(sample.fn, *sample.inputs)
        return

    @sample.settings
    @given(checks=sample.strategy())
    def run(checks):
        for c in checks:
            checker(c.fn, *c.arrays, wrt=c.wrt, **c.tolerances)
    run()


def both_then_independent():
    """A checker that runs both checkers on the first case it gets, then the independent one
    alone: minigrad's gradcheck (the library's code, with its own self-tests above) is checked
    on every sample; every case drawn is checked by the independent checker, which also tries
    a dense cotangent. (Both on every case computed each numerical Jacobian twice.)"""
    checkers = [check_grads]  # (the first case only)

    def checker(fn, *arrays, **options):
        (checkers.pop() if checkers else check_independent)(fn, *arrays, **options)
    return checker


@pytest.mark.parametrize("sample", op_db.gradcheck_params("first"))
def test_gradcheck(sample):
    """First derivatives, against central differences."""
    run_sample(sample, both_then_independent())


@pytest.mark.parametrize("sample", op_db.gradcheck_params("second"))
def test_gradgradcheck(sample):
    """Second derivatives: Hessian-vector products from create_graph=True against differences of
    the first gradient."""
    checker = both_then_independent()
    run_sample(sample, lambda f, *arrays, **options: check_second_order(f, *arrays, checker=checker, **options))


def _reference_vjp(fn, x, v):
    """The same VJP computed in float64, as the value the float32 gradient should be near."""
    t = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    out = fn(t)
    g, = autograd_grad(out, t, minigrad.from_numpy(v.astype(out._data.dtype)))
    return g.numpy()


@pytest.mark.parametrize("sample", op_db.gradcheck_params("first", "float32"))
def test_float32_gradient_dtype(sample):
    """float32: the gradient keeps its input's dtype, and is near the float64 one."""
    fn = sample.fn

    @sample.settings
    @given(x=sample.inputs)
    def run(x):
        t = minigrad.tensor(x, dtype=minigrad.float32, requires_grad=True)
        out = fn(t)
        assert out.dtype is (minigrad.float64 if sample.result is op_db.F64 else minigrad.float32)
        v = np.random.default_rng(0).uniform(-1, 1, out.shape)
        g, = autograd_grad(out, t, minigrad.from_numpy(v.astype(out._data.dtype)))
        assert g.dtype is minigrad.float32 and g.shape == t.shape
        np.testing.assert_allclose(g.numpy(), _reference_vjp(fn, x.astype(np.float32).astype(np.float64), v),
                                   rtol=1e-4, atol=1e-4)
    run()


@pytest.mark.parametrize("sample", op_db.gradcheck_params("first", "mixed"))
def test_mixed_float32_float64_broadcasting(sample):
    """A float32 and a float64 tensor with dims: the result is float64 (the wider float wins, as
    in PyTorch), each gradient keeps its input's dtype and is the float64 computation's."""
    op = sample.fn
    da, db = ((minigrad.float32, minigrad.float64) if sample.mode == "mixed-f32-f64"
              else (minigrad.float64, minigrad.float32))

    @sample.settings
    @given(pair=sample.inputs)
    def run(pair):
        a, b = pair[0].astype(da.np).astype(np.float64), pair[1].astype(db.np).astype(np.float64)
        ta = minigrad.tensor(a, dtype=da, requires_grad=True)
        tb = minigrad.tensor(b, dtype=db, requires_grad=True)
        out = op(ta, tb)
        assert out.dtype is minigrad.float64
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
    run()


# =============================================================================================
# Properties of several ops at once
# =============================================================================================


@PROFILE
@given(x=arrays(shapes(), floats(0.5, 2)))
def test_same_tensor_on_both_sides(x):
    check_grads(lambda t: t * t + t / t - t ** t + (t - t) + t.maximum(t * 2), x)


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


@PROFILE
@given(data=op_db.st.data())
def test_max_dim_routes_the_gradient_to_its_indices(data):
    """The indices max(dim) answers are where autograd routes the gradient."""
    shape = data.draw(shapes(min_dims=1))
    x = data.draw(distinct(shape))
    dim = data.draw(op_db.st.integers(-len(shape), len(shape) - 1))
    keepdim = data.draw(op_db.st.booleans())
    t = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    t.max(dim, keepdim=keepdim).values.sum().backward()
    assert np.array_equal(t.grad.numpy() == 1, x == x.max(axis=dim, keepdims=True))


def test_gradcheck_of_a_function_that_calls_autograd_grad():
    def first_grad(x):
        return autograd_grad((x ** 3).sum(), x, create_graph=True)[0]

    x = minigrad.tensor([0.5, -1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(first_grad, (x,))
