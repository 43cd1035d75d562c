"""Random fills and draws, the dtype questions (promote_types, result_type, can_cast) and the
activations and dropouts of nn.functional that tutorials use, against PyTorch.

Random draws are compared with PyTorch (recorded: tests/oracle.py) in what they record: the
node each records, its zero gradient, dtypes, shapes, the draws with probabilities 0 and 1,
the errors, the generator's state; their values after a seed are compared with PyTorch's in
tests/ops/test_random_torch.py. Their distributions are tested here on their own (mean and
variance with a fixed seed, within several standard errors), with the replay that
``manual_seed`` and ``get_rng_state``/``set_rng_state`` promise. The deterministic functions
are compared in full: values, dtypes, grad_fn names and graphs, first and second
derivatives, errors, module reprs. Finite differences: tests/ops/test_gradcheck.py (NN_OPS).
"""
import math

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
import minigrad.nn.functional as MF
from oracle import caught, error_of

# ---------------------------------------------------------------------------------------------
# Random fills and draws: what they record (compared), and what they draw (statistics)
# ---------------------------------------------------------------------------------------------


def _seen(t):
    """What a learner sees of a random tensor, its values aside."""
    return [t.grad_fn.name() if t.grad_fn is not None else None, str(t.dtype), list(t.shape), t.requires_grad,
            [type(n).__name__ if n is not None else None for n, _ in (t.grad_fn.next_functions if t.grad_fn else ())]]


def _x(lib, dtype=None):
    return lib.tensor([[0.5, 0.2, 0.9], [0.1, 0.4, 0.6]], dtype=dtype or lib.float32, requires_grad=True)


FILLS = {
    "normal_": lambda t: t.normal_(),
    "uniform_": lambda t: t.uniform_(),
    "random_()": lambda t: t.random_(),
    "random_(to)": lambda t: t.random_(5),
    "random_(from, to)": lambda t: t.random_(2, 5),
    "exponential_": lambda t: t.exponential_(2.0),
    "cauchy_": lambda t: t.cauchy_(1.0, 0.5),
    "log_normal_": lambda t: t.log_normal_(0.0, 0.25),
    "geometric_": lambda t: t.geometric_(0.3),
    "bernoulli_(p)": lambda t: t.bernoulli_(0.3),
    "bernoulli_()": lambda t: t.bernoulli_(),
}


@pytest.mark.parametrize("name", FILLS)
def test_random_fill_records_its_node_and_a_zero_gradient(oracle, name):
    def program(lib):
        x = _x(lib, lib.float64)
        y = FILLS[name](x * 1)
        (y * 2).sum().backward()
        plain = FILLS[name](lib.zeros(4, dtype=lib.float64))
        return _seen(y), x.grad, _seen(plain), plain._version
    oracle.same(program)


def test_bernoulli_records_its_nodes(oracle):
    """torch.bernoulli(p): BernoulliBackward0, zeros; x.bernoulli_(p_tensor): BernoulliBackward1
    with p as an input (zeros for both); x.bernoulli(0.3): no derivative (NotImplemented, whose
    backward refuses); probabilities 0 and 1 draw the same in both libraries."""
    def program(lib):
        p = lib.tensor([[0.0, 1.0, 1.0], [0.0, 0.0, 1.0]], requires_grad=True)
        out = lib.bernoulli(p)
        out.sum().backward()
        q = lib.tensor([1.0, 0.0, 1.0], requires_grad=True)
        x = _x(lib)
        y = (x * 1).bernoulli_(q)
        y.sum().backward()
        z = _x(lib).bernoulli(0.3)
        return (out, p.grad, y, _seen(y), q.grad, x.grad, _seen(z), error_of(lambda: z.sum().backward()),
                lib.bernoulli(lib.tensor([0.0, 1.0], dtype=lib.float64)),
                lib.zeros(3, dtype=lib.long).bernoulli_(1.0), lib.zeros(2, dtype=lib.bool).bernoulli_(1),
                lib.ones(3).bernoulli_(0.0), lib.zeros(3).bernoulli_(lib.tensor([1.0, 0.0, 1.0], dtype=lib.float64)),
                lib.zeros(2, 3).bernoulli_(lib.tensor([1.0, 0.0, 1.0])))
    oracle.same(program)


def test_poisson_records_its_node(oracle):
    def program(lib):
        rates = lib.tensor([0.0, 0.0, 0.0], requires_grad=True)
        y = lib.poisson(rates)
        y.sum().backward()
        big = lib.poisson(lib.tensor([3.0, 50.0], dtype=lib.float64))
        return y, rates.grad, _seen(big)
    oracle.same(program)


def test_randint_like(oracle):
    def program(lib):
        a = lib.randint_like(lib.zeros(2, 3), 10)
        b = lib.randint_like(lib.zeros(4, dtype=lib.uint8), 3, 10)
        c = lib.randint_like(lib.zeros(2), low=2, high=3, dtype=lib.int32)
        d = lib.randint_like(lib.zeros(2), 5, requires_grad=True)
        return ([_seen(t) for t in (a, b, d)], c, bool(((a >= 0) & (a < 10)).all()), bool(((b >= 3) & (b < 10)).all()),
                bool((a == a.round()).all()))
    oracle.same(program)


def test_rng_state_and_seeds(oracle):
    """get_rng_state/set_rng_state replay the same draws (and the state is PyTorch's 5056 bytes);
    seed() returns the new seed, which initial_seed() then answers; manual_seed is initial_seed."""
    def program(lib):
        lib.manual_seed(1234)
        first = lib.initial_seed()
        state = lib.get_rng_state()
        a = lib.randn(5), lib.rand(3), lib.randint(0, 100, (4,)), lib.zeros(3).exponential_()
        lib.set_rng_state(state)
        b = lib.randn(5), lib.rand(3), lib.randint(0, 100, (4,)), lib.zeros(3).exponential_()
        g = lib.Generator().manual_seed(7)
        g_state = g.get_state()
        c = lib.randn(4, generator=g)
        again = g.set_state(g_state) is g
        d = lib.randn(4, generator=g)
        s = lib.seed()
        return (first, state, all(bool((u == v).all()) for u, v in zip(a, b)), g_state,
                bool((c == d).all()), again, type(s).__name__, s == lib.initial_seed(), s >= 0)
    oracle.same(program)


RANDOM_MISTAKES = {
    "bernoulli: probability above 1": lambda lib: lib.bernoulli(lib.tensor([1.5])),
    "bernoulli: negative probability": lambda lib: lib.bernoulli(lib.tensor([-0.5, 0.5])),
    "bernoulli: NaN probability": lambda lib: lib.bernoulli(lib.tensor([float("nan")])),
    "bernoulli: p above 1": lambda lib: lib.bernoulli(lib.tensor([0.5]), 1.5),
    "bernoulli: integer input": lambda lib: lib.bernoulli(lib.tensor([1, 0])),
    "bernoulli: bool input": lambda lib: lib.bernoulli(lib.tensor([True])),
    "bernoulli: not a tensor": lambda lib: lib.bernoulli(0.5),
    "bernoulli_: p above 1": lambda lib: lib.zeros(3).bernoulli_(1.5),
    "bernoulli_: negative p": lambda lib: lib.zeros(3).bernoulli_(-0.1),
    "bernoulli_: int p above 1": lambda lib: lib.zeros(3).bernoulli_(2),
    "bernoulli_: tensor p above 1": lambda lib: lib.zeros(3).bernoulli_(lib.tensor([1.5, 0, 0])),
    "bernoulli_: integer tensor p": lambda lib: lib.zeros(2).bernoulli_(lib.tensor([1, 0])),
    "bernoulli_: p of another shape": lambda lib: lib.zeros(3).bernoulli_(lib.tensor([0.5, 0.5])),
    "bernoulli_: a string": lambda lib: lib.zeros(2).bernoulli_("a"),
    "exponential_: lambda 0": lambda lib: lib.zeros(3).exponential_(0),
    "exponential_: negative lambda": lambda lib: lib.zeros(3).exponential_(-1.5),
    "exponential_: int64": lambda lib: lib.zeros(3, dtype=lib.long).exponential_(),
    "exponential_: int32": lambda lib: lib.zeros(3, dtype=lib.int32).exponential_(),
    "cauchy_: sigma 0": lambda lib: lib.zeros(3).cauchy_(0, 0),
    "cauchy_: int64": lambda lib: lib.zeros(3, dtype=lib.long).cauchy_(),
    "cauchy_: int32": lambda lib: lib.zeros(3, dtype=lib.int32).cauchy_(),
    "cauchy_: bool": lambda lib: lib.zeros(3, dtype=lib.bool).cauchy_(),
    "geometric_: p 0": lambda lib: lib.zeros(3).geometric_(0),
    "geometric_: p 1": lambda lib: lib.zeros(3).geometric_(1),
    "geometric_: bool": lambda lib: lib.zeros(3, dtype=lib.bool).geometric_(0.5),
    "log_normal_: std 0": lambda lib: lib.zeros(3).log_normal_(0, 0),
    "log_normal_: negative std": lambda lib: lib.zeros(3).log_normal_(1, -2),
    "log_normal_: int64": lambda lib: lib.zeros(3, dtype=lib.long).log_normal_(),
    "poisson: negative rate": lambda lib: lib.poisson(lib.tensor([-1.0])),
    "poisson: NaN rate": lambda lib: lib.poisson(lib.tensor([1.0, float("nan")])),
    "poisson: int64": lambda lib: lib.poisson(lib.tensor([1])),
    "poisson: not a tensor": lambda lib: lib.poisson(0.5),
    "randint_like: low >= high": lambda lib: lib.randint_like(lib.zeros(2), 5, 2),
    "randint_like: high 0": lambda lib: lib.randint_like(lib.zeros(2), 0),
    "randint_like: high beyond uint8": lambda lib: lib.randint_like(lib.zeros(2, dtype=lib.uint8), 300),
    "randint_like: int64 requires grad": lambda lib: lib.randint_like(lib.zeros(2), 5, dtype=lib.long,
                                                                      requires_grad=True),
    "set_rng_state: a list": lambda lib: lib.set_rng_state([1, 2]),
    "set_rng_state: a float tensor": lambda lib: lib.set_rng_state(lib.zeros(3)),
    "Generator.set_state: a list": lambda lib: lib.Generator().set_state([1]),
}


@pytest.mark.parametrize("name", RANDOM_MISTAKES)
def test_random_mistakes(oracle, name):
    oracle.same_error(RANDOM_MISTAKES[name])


def test_set_rng_state_of_the_wrong_size(oracle):
    oracle.same_error(lambda lib: lib.set_rng_state(lib.zeros(3, dtype=lib.uint8)))


def _moments(t):
    x = t.double().numpy().ravel()
    return x.mean(), x.var()


N = 200_000


@pytest.mark.parametrize("name, draw, mean, var", [
    ("normal_", lambda: minigrad.empty(N).normal_(1.5, 2.0), 1.5, 4.0),
    ("uniform_", lambda: minigrad.empty(N).uniform_(-1.0, 3.0), 1.0, 16 / 12),
    ("exponential_", lambda: minigrad.empty(N).exponential_(4.0), 0.25, 1 / 16),
    ("log_normal_", lambda: minigrad.empty(N, dtype=minigrad.float64).log_normal_(0.5, 0.4),
     math.exp(0.5 + 0.08), (math.exp(0.16) - 1) * math.exp(1 + 0.16)),
    ("geometric_", lambda: minigrad.empty(N).geometric_(0.25), 4.0, 0.75 / 0.0625),
    ("bernoulli_", lambda: minigrad.empty(N).bernoulli_(0.3), 0.3, 0.21),
    ("bernoulli", lambda: minigrad.bernoulli(minigrad.full((N,), 0.8)), 0.8, 0.16),
    ("poisson", lambda: minigrad.poisson(minigrad.full((N,), 3.5)), 3.5, 3.5),
    ("random_(to)", lambda: minigrad.empty(N).random_(10), 4.5, 99 / 12),
    ("randint_like", lambda: minigrad.randint_like(minigrad.empty(N), 2, 6), 3.5, 15 / 12),
])
def test_draws_have_their_distribution(name, draw, mean, var):
    """Mean and variance within 6 standard errors (the variance's standard error from the
    sample's fourth moment): a wrong scale, shift or parameterisation fails, a fair draw
    does not (seeded: the same numbers every run)."""
    minigrad.manual_seed(0)
    t = draw()
    m, v = _moments(t)
    x = t.double().numpy().ravel()
    assert abs(m - mean) < 6 * math.sqrt(var / N), (m, mean)
    assert abs(v - var) < 6 * math.sqrt(((x - m) ** 4).mean() / N), (v, var)


def test_draws_stay_in_their_support():
    minigrad.manual_seed(1)
    assert minigrad.empty(1000).exponential_().min() > 0
    g = minigrad.empty(1000, dtype=minigrad.long).geometric_(0.5)
    assert g.min() >= 1 and g.dtype is minigrad.long
    b = minigrad.bernoulli(minigrad.rand(1000))
    assert set(b.unique().tolist()) <= {0.0, 1.0}
    u = minigrad.empty(1000).random_(3, 7)
    assert u.min() >= 3 and u.max() <= 6
    c = minigrad.empty(N).cauchy_(2.0, 0.5)  # no mean: its median and quartiles instead
    q = np.quantile(c.numpy(), [0.25, 0.5, 0.75])
    assert np.allclose(q, [1.5, 2.0, 2.5], atol=0.02), q


def test_bernoulli_follows_each_probability():
    """Each element its own probability: columns of p = 0.1, 0.5, 0.9."""
    minigrad.manual_seed(2)
    p = minigrad.tensor([0.1, 0.5, 0.9]).expand(50_000, 3)
    means = minigrad.bernoulli(p.contiguous()).mean(0).numpy()
    assert np.allclose(means, [0.1, 0.5, 0.9], atol=0.01), means
    means = minigrad.zeros(50_000, 3).bernoulli_(minigrad.tensor([0.9, 0.1, 0.5])).mean(0).numpy()
    assert np.allclose(means, [0.9, 0.1, 0.5], atol=0.01), means


def test_seeded_draws_repeat_and_generators_are_separate():
    fills = [lambda: minigrad.empty(5).exponential_(), lambda: minigrad.empty(5).cauchy_(),
             lambda: minigrad.empty(5).log_normal_(), lambda: minigrad.empty(5).geometric_(0.2),
             lambda: minigrad.bernoulli(minigrad.full((5,), 0.5)), lambda: minigrad.poisson(minigrad.full((5,), 4.0)),
             lambda: minigrad.randint_like(minigrad.empty(5), 100), lambda: MF.rrelu(-minigrad.ones(5), training=True),
             lambda: MF.alpha_dropout(minigrad.ones(5), 0.5, True)]
    for fill in fills:
        minigrad.manual_seed(3)
        a = fill()
        minigrad.manual_seed(3)
        assert (fill() == a).all()
        assert not (fill() == a).all()  # the next draws differ
    g1, g2 = minigrad.Generator().manual_seed(5), minigrad.Generator().manual_seed(5)
    assert (minigrad.empty(4).exponential_(generator=g1) == minigrad.empty(4).exponential_(generator=g2)).all()
    state = g1.get_state()
    a = minigrad.bernoulli(minigrad.full((8,), 0.5), generator=g1)
    g1.set_state(state)
    assert (minigrad.bernoulli(minigrad.full((8,), 0.5), generator=g1) == a).all()
    minigrad.manual_seed(0)
    s = minigrad.seed()
    assert minigrad.initial_seed() == s != 0


# ---------------------------------------------------------------------------------------------
# dtype questions
# ---------------------------------------------------------------------------------------------

def test_promote_types_over_every_pair(oracle):
    def program(lib):
        dts = [lib.bool, lib.uint8, lib.int8, lib.int16, lib.int32, lib.int64, lib.float32, lib.float64]
        return ([[str(lib.promote_types(a, b)) for b in dts] for a in dts],
                [[lib.can_cast(a, b) for b in dts] for a in dts],
                str(lib.promote_types(int, lib.int8)), str(lib.promote_types(float, lib.int8)),
                str(lib.promote_types(bool, lib.uint8)), lib.can_cast(float, lib.float32), lib.can_cast(int, bool))
    oracle.same(program)


def test_result_type(oracle):
    def program(lib):
        i, f, d0, u = lib.tensor([1, 2]), lib.tensor([1.0]), lib.tensor(1.0, dtype=lib.float64), lib.tensor(
            [3], dtype=lib.uint8)
        cases = [(i, 2.5), (2.5, i), (2, 2.5), (True, u), (u, 300), (u, -1), (i, d0), (f, d0), (u, lib.tensor(1, dtype=lib.int8)),
                 (u, lib.tensor([1], dtype=lib.int8)), (lib.tensor([True]), False), (f, i), (i, True), (d0, 1)]
        return ([str(lib.result_type(a, b)) for a, b in cases], lib.is_complex(f), lib.is_nonzero(lib.tensor([1.5])),
                lib.is_nonzero(lib.tensor(0)), lib.is_nonzero(lib.tensor([False])))
    oracle.same(program)


DTYPE_MISTAKES = {
    "promote_types: an int": lambda lib: lib.promote_types(lib.uint8, 3),
    "promote_types: a string first": lambda lib: lib.promote_types("float", lib.uint8),
    "can_cast: an int": lambda lib: lib.can_cast(lib.float32, 1),
    "is_complex: a float": lambda lib: lib.is_complex(1.0),
    "is_nonzero: two values": lambda lib: lib.is_nonzero(lib.tensor([1, 2])),
    "is_nonzero: no values": lambda lib: lib.is_nonzero(lib.tensor([])),
    "is_nonzero: an int": lambda lib: lib.is_nonzero(1),
}


@pytest.mark.parametrize("name", DTYPE_MISTAKES)
def test_dtype_mistakes(oracle, name):
    oracle.same_error(DTYPE_MISTAKES[name])


def test_result_type_of_a_list():
    with pytest.raises(TypeError, match=r"result_type\(\) received an invalid combination of arguments"):
        minigrad.result_type(minigrad.tensor([1]), [1])


# ---------------------------------------------------------------------------------------------
# Activations: values, graphs, first and second derivatives
# ---------------------------------------------------------------------------------------------

# -3.5 ... 3.5 with the kinks themselves (0, +-0.5, +-1, +-3, 6) where each op chooses a side
_POINTS = [-7.0, -3.5, -3.0, -2.0, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 3.5, 6.0, 7.0]

ACTIVATIONS = {
    "celu": lambda F, x: F.celu(x),
    "celu(alpha=2)": lambda F, x: F.celu(x, alpha=2.0),
    "threshold": lambda F, x: F.threshold(x, 0.5, -4.0),
    "hardtanh": lambda F, x: F.hardtanh(x),
    "hardtanh(-2, 3)": lambda F, x: F.hardtanh(x, -2.0, 3.0),
    "relu6": lambda F, x: F.relu6(x),
    "hardsigmoid": lambda F, x: F.hardsigmoid(x),
    "hardswish": lambda F, x: F.hardswish(x),
    "mish": lambda F, x: F.mish(x),
    "logsigmoid": lambda F, x: F.logsigmoid(x),
    "hardshrink": lambda F, x: F.hardshrink(x),
    "hardshrink(1)": lambda F, x: F.hardshrink(x, 1.0),
    "softshrink": lambda F, x: F.softshrink(x),
    "softshrink(2)": lambda F, x: F.softshrink(x, lambd=2.0),
    "tanhshrink": lambda F, x: F.tanhshrink(x),
    "softsign": lambda F, x: F.softsign(x),
    "rrelu (eval)": lambda F, x: F.rrelu(x),
    "rrelu (eval, bounds)": lambda F, x: F.rrelu(x, 0.1, 0.5),
    "prelu": lambda F, x: F.prelu(x, x.new_tensor([0.25])),
    "glu": lambda F, x: F.glu(x.reshape(4, 4)),
    "glu(dim=0)": lambda F, x: F.glu(x.reshape(4, 4), dim=0),
}
# (PyTorch has none for hardsigmoid; softsign's is a composition of abs, add and div, whose
# second derivative at 0 is -0. in PyTorch, 0. in minigrad: those ops', tested elsewhere)
SECOND_ORDER = [n for n in ACTIVATIONS if n not in ("hardsigmoid", "softsign")]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation(oracle, name, dtype):
    """Values at and around every kink, the graph, and the gradient of a weighted sum."""
    def program(lib):
        F = lib.nn.functional
        x = lib.tensor(_POINTS, dtype=getattr(lib, dtype), requires_grad=True)
        y = ACTIVATIONS[name](F, x)
        weights = lib.arange(1.0, y.numel() + 1, dtype=y.dtype).reshape(y.shape)
        g, = lib.autograd.grad((y * weights).sum(), x)
        return y, g
    oracle.same(program)


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_activation_second_order(oracle, name):
    """The derivative of the gradient (create_graph=True), and the first graph node of that
    gradient where it is one op in PyTorch (HardtanhBackwardBackward0, ...)."""
    def program(lib):
        F = lib.nn.functional
        x = lib.tensor(_POINTS, dtype=lib.float64, requires_grad=True)
        y = ACTIVATIONS[name](F, x)
        weights = lib.arange(1.0, y.numel() + 1, dtype=y.dtype).reshape(y.shape)
        g, = lib.autograd.grad((y * weights).sum(), x, create_graph=True)
        gg, = lib.autograd.grad((g * g).sum(), x, allow_unused=True)
        return g.detach(), gg, g.grad_fn.name() if g.grad_fn is not None else None
    mine, theirs = oracle.both(program)
    from oracle import assert_same
    same_node = name not in ("mish", "glu")
    # (minigrad's backwards of these are compositions: the same numbers, other nodes)
    assert_same(mine[:2], theirs[:2])
    if same_node:
        assert mine[2] == theirs[2]


def test_hardsigmoid_has_no_second_derivative(oracle):
    def program(lib):
        x = lib.tensor([-4.0, 0.5, 1.0], requires_grad=True)
        g, = lib.autograd.grad(lib.nn.functional.hardsigmoid(x).sum(), x, create_graph=True)
        return g, error_of(lambda: lib.autograd.grad(g.sum(), x))
    mine, theirs = oracle.both(program)
    from oracle import assert_same
    assert_same(mine[0], theirs[0], check_graph=False)  # (minigrad's node prints as NotImplemented)
    assert mine[1] == theirs[1]


def test_prelu_and_glu_gradients(oracle):
    """prelu's weight (one slope, one per channel) and glu's halves get PyTorch's gradients."""
    def program(lib):
        F = lib.nn.functional
        x = lib.tensor([[[-1.0, 2.0], [0.5, -3.0], [-0.5, 0.0]], [[1.0, -2.0], [0.0, 4.0], [-2.0, -1.0]]],
                       requires_grad=True)
        w1 = lib.tensor([0.25], requires_grad=True)
        w3 = lib.tensor([0.1, 0.2, 0.3], requires_grad=True)
        y1, y3 = F.prelu(x, w1), F.prelu(x, w3)
        grads = lib.autograd.grad((y1 * y1).sum() + (y3 * x).sum(), (x, w1, w3))
        h = lib.arange(12.0).reshape(3, 4).requires_grad_() / 4 - 1
        z = F.glu(h, 1)
        gh = lib.autograd.grad((z * z).sum(), h)
        return y1, y3, grads, z, gh, F.prelu(lib.tensor(-2.0), lib.tensor(0.5)), F.prelu(lib.tensor([-2.0, 1.0]),
                                                                                          lib.tensor([0.5]))
    oracle.same(program)


def test_in_place_activations(oracle):
    def program(lib):
        F = lib.nn.functional
        x = lib.tensor([-2.0, -0.5, 0.0, 0.5, 3.0, 7.0], requires_grad=True)
        outs = [F.hardtanh(x * 1, inplace=True), F.relu6(x * 1, inplace=True), F.celu(x * 1, 2.0, inplace=True),
                F.threshold(x * 1, 0.1, 20.0, inplace=True), F.hardswish(x * 1, inplace=True),
                F.hardsigmoid(x * 1, inplace=True), F.mish(x * 1, inplace=True), F.rrelu(x * 1, inplace=True),
                F.threshold_(x * 1, 0.0, -1.0), F.hardtanh_(x * 1, -0.5, 0.5), F.celu_(x * 1), F.rrelu_(x * 1),
                F.elu_(x * 1), F.leaky_relu_(x * 1, 0.2), F.selu_(x * 1), F.relu_(x * 1),
                lib.celu_(x * 1), lib.selu_(x * 1), lib.threshold_(x * 1, 1.0, 0.0), lib.rrelu_(x * 1)]
        grads = lib.autograd.grad(sum((o * o).sum() for o in outs), x)
        return outs, grads
    oracle.same(program)


def test_torch_functions_of_activations(oracle):
    def program(lib):
        x = lib.tensor([-2.0, -0.5, 0.0, 0.5, 3.0], dtype=lib.float64, requires_grad=True)
        outs = [lib.celu(x, 0.5), lib.selu(x), lib.threshold(x, 0.0, 5.0), lib.hardshrink(x, 0.4),
                lib.prelu(x, lib.tensor([0.1], dtype=lib.float64)), lib.rrelu(x),
                lib.dropout(x, 0.5, False), lib.alpha_dropout(x, 0.3, False), lib.feature_alpha_dropout(x, 0.3, False),
                lib.dropout(x, 0.0, True), lib.alpha_dropout(x, 0.0, True)]
        return outs, lib.autograd.grad(sum((o * o).sum() for o in outs), x)
    oracle.same(program)


def test_integer_inputs(oracle):
    """Those that take integers keep their dtype (threshold, hardtanh, relu6, tanhshrink and
    softsign promote as their compositions do); the others refuse with their kernel's name."""
    def program(lib):
        F = lib.nn.functional
        i = lib.tensor([-3, 1, 2, 8])
        ok = [F.threshold(i, 1, 5), F.threshold(i, 1, 5.5), F.hardtanh(i, 0, 1), F.relu6(i), F.tanhshrink(i),
              F.softsign(i), F.threshold(lib.tensor([1.0, 2.0]), 1, 5)]
        refused = [error_of(f, i) for f in (F.hardsigmoid, F.logsigmoid, F.celu, F.softshrink, F.hardshrink, F.mish,
                                            F.hardswish, F.glu, F.rrelu)]
        return ok, refused
    oracle.same(program)


ACTIVATION_MISTAKES = {
    "celu: alpha 0": lambda lib: lib.nn.functional.celu(lib.ones(2), alpha=0.0),
    "softshrink: negative lambd": lambda lib: lib.nn.functional.softshrink(lib.ones(2), -1),
    "softshrink: negative lambd, float64": lambda lib: lib.nn.functional.softshrink(lib.ones(2, dtype=lib.float64),
                                                                                    -0.5),
    "glu: odd halving dim": lambda lib: lib.nn.functional.glu(lib.ones(2, 3)),
    "glu: odd dim 0": lambda lib: lib.nn.functional.glu(lib.ones(3, 2), 0),
    "glu: 0-d": lambda lib: lib.nn.functional.glu(lib.tensor(1.0)),
    "glu: dim out of range": lambda lib: lib.nn.functional.glu(lib.ones(2, 4), dim=2),
    "hardtanh: min above max": lambda lib: lib.nn.functional.hardtanh(lib.ones(2), 1.0, -1.0),
    "nn.Hardtanh: min above max": lambda lib: lib.nn.Hardtanh(1.0, -1.0),
    "rrelu: lower above upper": lambda lib: lib.nn.functional.rrelu(lib.ones(2), 0.5, 0.2),
    "rrelu: lower above upper, training": lambda lib: lib.nn.functional.rrelu(lib.ones(2), 0.5, 0.2, training=True),
    "prelu: wrong number of slopes": lambda lib: lib.nn.functional.prelu(lib.ones(2, 3), lib.ones(2)),
    "prelu: 2-D weight": lambda lib: lib.nn.functional.prelu(lib.ones(2, 3), lib.ones(1, 1)),
    "alpha_dropout: p above 1": lambda lib: lib.nn.functional.alpha_dropout(lib.ones(2), 1.5, True),
    "feature_alpha_dropout: negative p": lambda lib: lib.nn.functional.feature_alpha_dropout(lib.ones(2, 2), -0.1),
    "feature_alpha_dropout: 1-D": lambda lib: lib.nn.functional.feature_alpha_dropout(lib.ones(3), 0.5, True),
    "torch.dropout: p above 1": lambda lib: lib.dropout(lib.ones(2), 1.5, True),
    "torch.alpha_dropout: p above 1": lambda lib: lib.alpha_dropout(lib.ones(2), 1.5, True),
    "nn.AlphaDropout: p above 1": lambda lib: lib.nn.AlphaDropout(2.0),
}


@pytest.mark.parametrize("name", ACTIVATION_MISTAKES)
def test_activation_mistakes(oracle, name):
    oracle.same_error(ACTIVATION_MISTAKES[name])


def test_softmin(oracle):
    def program(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]], requires_grad=True)
        y, z = lib.nn.functional.softmin(x, 1), lib.nn.functional.softmin(x, 0, dtype=lib.float64)
        implicit, warned = caught(lambda: lib.nn.functional.softmin(x))
        m = lib.nn.Softmin(dim=1)
        return y, z, implicit, warned, lib.autograd.grad((y * z).sum(), x), repr(m), repr(lib.nn.Softmin()), m(x)
    oracle.same(program)


def test_modules(oracle):
    """Reprs, parameters and outputs of the modules (in train and eval mode)."""
    def program(lib):
        nn = lib.nn
        mods = [nn.CELU(), nn.CELU(2.0, True), nn.Threshold(0.1, 20.0), nn.Threshold(1, 2, True), nn.PReLU(),
                nn.PReLU(3, 0.1), nn.Hardshrink(), nn.Softshrink(0.05), nn.Tanhshrink(), nn.RReLU(),
                nn.RReLU(0.1, 0.2, True), nn.Hardtanh(), nn.Hardtanh(-2, 2, True), nn.ReLU6(), nn.ReLU6(True),
                nn.Hardswish(), nn.Hardsigmoid(), nn.Mish(), nn.LogSigmoid(), nn.Softsign(), nn.GLU(),
                nn.GLU(0), nn.AlphaDropout(), nn.FeatureAlphaDropout(0.2)]
        x = lib.tensor([[-2.0, -0.5, 0.0, 0.5], [1.0, 3.0, -7.0, 7.0], [0.1, -0.1, 0.2, 6.0]]).expand(2, 3, 4)
        outs = []
        for m in mods:
            m.eval()
            outs.append(m(x * 1))
        prelu = nn.PReLU(3)
        y = prelu(x[0].t())
        y.sum().backward()
        return ([repr(m) for m in mods], outs, [(n, p) for n, p in nn.PReLU(2).named_parameters()], prelu.weight.grad,
                str(nn.Sequential(nn.Linear(2, 2), nn.ReLU6(), nn.AlphaDropout(0.1))),
                nn.ReLU6().min_val, nn.ReLU6().max_val, isinstance(nn.ReLU6(), nn.Hardtanh))
    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# The random ones in training: what they record, and their statistics
# ---------------------------------------------------------------------------------------------

def test_random_activations_record_pytorchs_nodes(oracle):
    def program(lib):
        F = lib.nn.functional
        x = lib.tensor([[-2.0, -0.5, 0.0], [0.5, 3.0, -1.0]], requires_grad=True)
        r = F.rrelu(x, training=True)
        a = F.alpha_dropout(x, 0.5, True)
        f = F.feature_alpha_dropout(x.reshape(2, 3, 1), 0.5, True)
        d = lib.dropout(x, 0.5, True)
        ones = F.alpha_dropout(x, 1.0, True)
        m = lib.nn.AlphaDropout(0.3)
        return ([_seen(t) for t in (r, a, f, d)], ones, lib.autograd.grad(ones.sum(), x),
                r[x > 0], m.training, _seen(m(x)), m.eval()(x) is x, F.feature_alpha_dropout(x, 0.5, False) is x)
    oracle.same(program)


def test_channel_dropouts(oracle):
    """dropout1d and dropout3d: graphs (an unbatched input is a batch of one), eval mode, p = 1,
    warnings and errors; each channel is dropped or kept whole."""
    def program(lib):
        F = lib.nn.functional
        x, v = lib.ones(3, 4, requires_grad=True), lib.ones(2, 3, 2, 2, 2, requires_grad=True)
        outs = [F.dropout1d(x, 0.5), F.dropout1d(x, 0.5, training=False), F.dropout1d(x.reshape(1, 3, 4), 0.5),
                F.dropout3d(v, 0.5), F.dropout3d(v[0], 0.5), F.dropout1d(x.reshape(1, 3, 4) * 1, 0.3, inplace=True)]
        kept = [bool(((o == 0).all(-1) | (o != 0).all(-1)).all()) for o in outs[:3] + [outs[5]]]
        warned = caught(lambda: F.dropout3d(x, 0.5))[1]
        return ([_seen(o) for o in outs], kept, F.dropout1d(x, 1.0), warned, F.dropout3d(v, 0.5, False) is v,
                error_of(F.dropout1d, lib.ones(3)), error_of(F.dropout1d, x, 1.5), repr(lib.nn.Dropout1d()),
                repr(lib.nn.Dropout3d(0.2)), lib.nn.Dropout1d(0.5).eval()(x) is x)
    oracle.same(program)


def test_channel_dropouts_in_place_need_a_batch():
    """(minigrad has no unsqueeze_: in place, an unbatched input is refused, saying what to do)"""
    with pytest.raises(NotImplementedError, match="in place on a batched input only"):
        MF.dropout1d(minigrad.ones(3, 4) * 1, 0.5, inplace=True)
    x = minigrad.ones(1, 3, 4)
    assert MF.dropout1d(x, 0.5, inplace=True) is x


def test_rrelu_training_draws_its_slopes():
    minigrad.manual_seed(0)
    x = minigrad.full((N,), -1.0, requires_grad=True)
    y = MF.rrelu(x, 0.1, 0.3, training=True)
    slopes = -y.detach().numpy()
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3
    assert abs(slopes.mean() - 0.2) < 6 * math.sqrt(0.04 / 12 / N)
    assert abs(slopes.var() - 0.04 / 12) < 1e-4
    y.sum().backward()  # the gradient is the slope each element drew
    assert np.array_equal(x.grad.numpy(), slopes)
    positive = minigrad.ones(5)
    assert (MF.rrelu(positive, training=True) == positive).all()


@pytest.mark.parametrize("feature", [False, True])
def test_alpha_dropout_keeps_mean_and_variance(feature):
    """Standard normal inputs come out with mean 0 and variance 1 (the point of alpha
    dropout); a dropped element is the same value everywhere, -alpha * a + b."""
    minigrad.manual_seed(4)
    shape = (200, 250, 4) if feature else (400, 500)
    x = minigrad.randn(*shape, dtype=minigrad.float64)
    p = 0.2
    y = (MF.feature_alpha_dropout if feature else MF.alpha_dropout)(x, p, True)
    assert abs(y.mean().item()) < 0.02 and abs(y.var().item() - 1) < 0.02
    alpha = 1.7580993408473766
    a = 1 / math.sqrt((alpha ** 2 * p + 1) * (1 - p))
    dropped = np.isclose(y.numpy(), -alpha * a + alpha * a * p)
    assert abs(dropped.mean() - p) < 0.01
    if feature:  # whole channels: dropped or kept together
        assert (dropped.all(-1) == dropped.any(-1)).all()


# ---------------------------------------------------------------------------------------------
# Live against PyTorch (Hypothesis; skipped without PyTorch: the recorded cases above stand in)
# ---------------------------------------------------------------------------------------------

@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@pytest.mark.parametrize("name", ACTIVATIONS)
@given(data=st.data())
def test_activation_random_inputs_against_pytorch(torch, name, data):
    """Values, gradients and grad_fn names on random inputs of random shapes (float64; an
    even last dim for glu: the programs reshape to (4, 4), so 16 elements)."""
    x = data.draw(hnp.arrays(np.float64, 16, elements=st.floats(-8, 8, allow_nan=False)))
    weights = data.draw(hnp.arrays(np.float64, 16, elements=st.floats(-2, 2, allow_nan=False)))
    results = []
    for lib in (minigrad, torch):
        xt = lib.tensor(x, requires_grad=True)
        out = ACTIVATIONS[name](lib.nn.functional, xt)
        (out * lib.tensor(weights[:out.numel()]).reshape(out.shape)).sum().backward()
        results.append((out.detach().numpy(), xt.grad.numpy(), out.grad_fn.name()))
    (om, gm, nm), (ot, gt, nt) = results
    assert nm == nt
    np.testing.assert_allclose(om, ot, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gm, gt, rtol=1e-12, atol=1e-14)


def test_threshold_keeps_nan(oracle):
    """threshold replaces what is <= threshold; NaN is not, so it stays NaN and its gradient
    passes (a difference the fuzzer found: minigrad replaced it). Short and long tensors, as
    PyTorch's scalar and vectorised kernels agree here."""
    def program(lib):
        out = []
        for n in (1, 20):
            x = lib.tensor([float("nan"), float("inf"), -float("inf"), 0.1, 0.5] * n, requires_grad=True)
            y = lib.nn.functional.threshold(x, 0.1, -1.0)
            g, = lib.autograd.grad(y, x, lib.full_like(x, 3.0))
            out += [y[:5], g[:5], lib.nn.Threshold(0.0, 7.0)(x.detach())[:5],
                    lib.nn.functional.threshold_(x.detach().clone(), 0.2, 2.0)[:5]]
        return out
    oracle.same(program)
