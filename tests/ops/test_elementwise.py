"""The rarer elementwise functions tutorials use (asinh, logit, sinc, lgamma, hypot, xlogy,
copysign, float_power, gcd, ...), the bitwise functions and shifts, and PyTorch's in-place
aliases (``eq_``, ``logical_and_``, ``subtract_``, ...) against PyTorch (recorded:
tests/oracle.py): values at the edges (0, -0, +-1, +-inf, NaN), dtypes for integer and bool
inputs, gradients (first and second order), grad_fn names, and the errors of the usual
mistakes in PyTorch's words. Finite differences: tests/ops/test_gradcheck.py ("the rarer
elementwise functions" in its tables).
"""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad

from oracle import assert_same, error_of

INF, NAN = math.inf, math.nan
EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -3.75, 1e-30, 40.0, INF, -INF, NAN]
INTS = [-3, -1, 0, 1, 2, 7]


def _method(name, *args, **kwargs):
    return lambda t: getattr(t, name)(*args, **kwargs)


def _unary_program(f, torch_f, interior, edges=EDGES, ints=True):
    """f's values at ``interior`` points (with gradients) and at the edges, in float32 and
    float64; the torch.* function's too; integer and bool inputs (computed as floats)."""
    def program(lib):
        x = lib.tensor(interior, requires_grad=True)
        y = f(x)
        weights = lib.arange(1.0, len(interior) + 1)
        gx, = lib.autograd.grad((y * weights).sum(), x)
        e32 = lib.tensor(edges, requires_grad=True)
        ge, = lib.autograd.grad(f(e32).sum(), e32)  # the gradient at the edges: 0, inf or NaN
        out = [y, gx, f(e32.detach()), ge, f(lib.tensor(edges, dtype=lib.float64)),
               torch_f(lib)(x.detach())]
        if ints:
            ints_ = INTS if ints is True else ints
            out += [f(lib.tensor(ints_)), f(lib.tensor([True, False])), f(lib.tensor(ints_, dtype=lib.int32))]
        return out
    return program


UNARY = {
    # name: (f, the torch.* function (of lib), interior points)
    "asinh": (_method("asinh"), lambda lib: lib.asinh, [-2.0, -0.5, 0.0, 0.7, 3.0]),
    "arcsinh": (_method("arcsinh"), lambda lib: lib.arcsinh, [-2.0, 0.7]),
    "acosh": (_method("acosh"), lambda lib: lib.acosh, [1.2, 2.0, 5.0]),
    "arccosh": (_method("arccosh"), lambda lib: lib.arccosh, [1.5]),
    "atanh": (_method("atanh"), lambda lib: lib.atanh, [-0.9, -0.3, 0.0, 0.5]),
    "arctanh": (_method("arctanh"), lambda lib: lib.arctanh, [0.25]),
    "deg2rad": (_method("deg2rad"), lambda lib: lib.deg2rad, [-180.0, 0.0, 45.0, 720.5]),
    "rad2deg": (_method("rad2deg"), lambda lib: lib.rad2deg, [-3.0, 0.0, 1.0]),
    "logit": (_method("logit"), lambda lib: lib.logit, [0.1, 0.3, 0.5, 0.9]),
    "logit eps": (_method("logit", 0.2), lambda lib: lambda t: lib.logit(t, eps=0.2), [0.1, 0.3, 0.5, 0.95]),
    "logit eps=0": (_method("logit", eps=0.0), lambda lib: lambda t: lib.logit(t, 0.0), [0.25, 0.5]),
    "special.logit": (_method("logit"), lambda lib: lib.special.logit, [0.3]),
    "sinc": (_method("sinc"), lambda lib: lib.sinc, [-1.5, -0.3, 0.0, 0.4, 2.0]),
    "special.sinc": (_method("sinc"), lambda lib: lib.special.sinc, [0.0, 0.25]),
    "lgamma": (_method("lgamma"), lambda lib: lib.lgamma, [-2.5, -0.5, 0.3, 1.0, 4.2]),
    "special.gammaln": (_method("lgamma"), lambda lib: lib.special.gammaln, [0.5, 3.0]),
    "i0": (_method("i0"), lambda lib: lib.i0, [-2.0, 0.0, 0.5, 3.0]),
    "special.i0": (_method("i0"), lambda lib: lib.special.i0, [1.0]),
}


@pytest.mark.parametrize("name", UNARY)
def test_unary(oracle, name):
    f, torch_f, interior = UNARY[name]
    oracle.same(_unary_program(f, torch_f, interior))


# polygamma's poles and infinities: SciPy and PyTorch's kernels part ways there (PyTorch's
# float32 trigamma gives a large finite number at -1, NaN at -inf), so away from them here;
# and PyTorch's float64 trigamma is good to 5e-10 (SciPy's to the last bit): float32's
# tolerance for both.
POLYGAMMA_EDGES = [0.0, -0.0, 1.0, 0.5, -0.5, 2.5, -3.75, 1e-3, 40.0, INF, NAN]
TRIGAMMA = dict(rtol=1e-5, atol=1e-6)

DIGAMMA = {
    "digamma": (_method("digamma"), lambda lib: lib.digamma, [-2.5, -0.5, 0.3, 1.0, 4.2]),
    "special.digamma": (_method("digamma"), lambda lib: lib.special.digamma, [0.5, 3.0]),
    "special.psi": (_method("digamma"), lambda lib: lib.special.psi, [0.5, 3.0]),
}


@pytest.mark.parametrize("name", DIGAMMA)
def test_digamma(oracle, name):
    f, torch_f, interior = DIGAMMA[name]
    oracle.same(_unary_program(f, torch_f, interior, edges=POLYGAMMA_EDGES, ints=[0, 1, 2, 7]), **TRIGAMMA)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_polygamma(oracle, n):
    oracle.same(_unary_program(_method("polygamma", n), lambda lib: lambda t: lib.polygamma(n, t),
                               [-2.5, -0.5, 0.3, 1.0, 4.2], edges=POLYGAMMA_EDGES, ints=[0, 1, 2, 7]),
                **TRIGAMMA)


def test_special_polygamma_and_i1(oracle):
    def program(lib):
        x = lib.tensor([-2.5, -1e-9, 0.0, 0.5, 3.0], requires_grad=True)
        y = lib.special.i1(x)
        gx, = lib.autograd.grad(y.sum(), x)  # 1/2 at 0 (and near it), i1's limit
        return [y, gx, lib.special.polygamma(1, x.detach()), lib.special.i1(lib.tensor(EDGES)),
                lib.special.i1(lib.tensor([0, 2]))]
    oracle.same(program)


def test_predicates(oracle):
    """signbit, isposinf, isneginf, isreal: bool tensors, for every dtype."""
    def program(lib):
        out = []
        for t in (lib.tensor(EDGES), lib.tensor(EDGES, dtype=lib.float64), lib.tensor(INTS),
                  lib.tensor([True, False]), lib.tensor(INTS, dtype=lib.uint8)):
            out += [t.signbit(), lib.signbit(t), t.isposinf(), lib.isposinf(t), t.isneginf(),
                    lib.isneginf(t), t.isreal(), lib.isreal(t)]
        return out
    oracle.same(program)


def test_frexp_ldexp(oracle):
    def program(lib):
        x = lib.tensor([0.3, -5.0, 1024.0, 0.75], requires_grad=True)
        m, e = x.frexp()
        gx, = lib.autograd.grad((m * lib.arange(1.0, 5)).sum(), x)
        e64 = lib.frexp(lib.tensor(EDGES[:10], dtype=lib.float64))
        r = lib.ldexp(x, lib.tensor([1, -2, 3, 0]))
        gr, = lib.autograd.grad(r.sum(), x)
        w = lib.tensor([1.5, -1.0, 0.0, 2.0], requires_grad=True)
        r2 = x.ldexp(w)
        ga, gb = lib.autograd.grad(r2.sum(), (x, w))
        named = x.detach().frexp()
        return [m, e, repr(named), type(named).__name__, named.mantissa, named.exponent, gx, list(e64), r, gr, r2, ga, gb,
                lib.tensor([1, 2]).ldexp(lib.tensor([3])), lib.ldexp(lib.tensor(EDGES), lib.tensor(2))]
    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# Of two tensors
# ---------------------------------------------------------------------------------------------

A = [[0.3, -1.5, 2.0], [0.0, 4.0, -0.25]]
B = [1.3, -0.5, 3.0]


def _binary_program(f, a=A, b=B, edges=True):
    """f(a, b) with both gradients (b broadcast along a's rows), and f on the edge values."""
    def program(lib):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        out = f(lib, x, y)
        gx, gy = lib.autograd.grad((out * lib.arange(1.0, 7).reshape(2, 3)).sum(), (x, y))
        answer = [out, gx, gy]
        if edges:
            e = lib.tensor(EDGES)
            answer += [f(lib, e.reshape(-1, 1), e), f(lib, e.double(), e.flip(0).double())]
        return answer
    return program


BINARY = {
    "hypot": lambda lib, a, b: a.hypot(b),
    "torch.hypot": lambda lib, a, b: lib.hypot(a, b),
    "logaddexp2": lambda lib, a, b: a.logaddexp2(b),
    "torch.logaddexp2": lambda lib, a, b: lib.logaddexp2(a, b),
    "copysign": lambda lib, a, b: a.copysign(b),
    "torch.copysign": lambda lib, a, b: lib.copysign(a, b),
    "xlogy": lambda lib, a, b: a.xlogy(b.abs() + 0.5),
    "torch.xlogy": lambda lib, a, b: lib.xlogy(a, b.abs()),
    "special.xlogy": lambda lib, a, b: lib.special.xlogy(a, b.abs()),
    "float_power": lambda lib, a, b: a.abs().float_power(b),
    "torch.float_power": lambda lib, a, b: lib.float_power(a.abs() + 1, b),
    "nextafter": lambda lib, a, b: a.nextafter(b),
    "torch.nextafter": lambda lib, a, b: lib.nextafter(a, b),
}


@pytest.mark.parametrize("name", BINARY)
def test_binary(oracle, name):
    # PyTorch's float32 logaddexp2(-1, -1) is -1.06e-08 (its kernel's rounding), NumPy's 0:
    # equal within the tolerance, but not in print
    oracle.same(_binary_program(BINARY[name]), check_repr="logaddexp2" not in name)


WITH_NUMBERS = {
    "copysign number": lambda lib, x: [x.copysign(-1.0), x.copysign(0.0), x.copysign(-0.0), lib.copysign(x, 2)],
    "xlogy number": lambda lib, x: [x.xlogy(2.0), lib.xlogy(x, 0), lib.xlogy(3.0, x.abs()), lib.special.xlogy(0, x)],
    "float_power number": lambda lib, x: [x.float_power(2), x.abs().float_power(0.5), lib.float_power(2, x),
                                          lib.float_power(x, -1)],
}


@pytest.mark.parametrize("name", WITH_NUMBERS)
def test_with_numbers(oracle, name):
    """A number as the other operand: its own node (CopysignBackward1, XlogyBackward1/2,
    PowBackward0/2 for float_power), its dtype, and the gradient."""
    def program(lib):
        x = lib.tensor([0.0, -0.0, 0.5, -2.0, 3.0], requires_grad=True)
        outs = WITH_NUMBERS[name](lib, x)
        return outs + [lib.autograd.grad(o.sum(), x)[0] for o in outs]
    oracle.same(program)


def test_promotion_of_integers_and_bools(oracle):
    """Integers and bools computed as floats (xlogy, copysign, ldexp; float_power in float64);
    float32 with float64 promoted."""
    def program(lib):
        i, j, b = lib.tensor([0, 1, 2, -3]), lib.tensor([2, 0, 5, 1], dtype=lib.int32), lib.tensor([True, False, True, True])
        f32, f64 = lib.tensor([0.5, 1.0, 2.0, -1.0]), lib.tensor([2.0, 3.0, 0.5, 1.0], dtype=lib.float64)
        return [i.xlogy(j), b.xlogy(i), i.copysign(j), b.copysign(lib.tensor(-1)), i.ldexp(j), i.float_power(2),
                b.float_power(j), f32.hypot(f64), f32.copysign(f64), f64.logaddexp2(f32), f32.xlogy(f64),
                f32.float_power(f32), f32.nextafter(f64), f32.xlogy(i), i.xlogy(f32)]
    oracle.same(program)


def test_heaviside(oracle):
    """No derivative: the node (NotImplemented) raises if backward reaches it."""
    def program(lib):
        x = lib.tensor(EDGES, requires_grad=True)
        v = lib.tensor([0.5])
        y = x.heaviside(v)
        return [y, lib.heaviside(x.detach(), lib.tensor(7.0)), lib.tensor(INTS).heaviside(lib.tensor([9])),
                lib.tensor([True, False]).heaviside(lib.tensor([True, False])),
                error_of(lambda: y.sum().backward())]
    oracle.same(program)


def test_gcd_lcm(oracle):
    def program(lib):
        a, b = lib.tensor([-4, 0, 6, 0, 12, 7]), lib.tensor([6, 5, -4, 0, 18, -3])
        u, v = lib.tensor([12, 200], dtype=lib.uint8), lib.tensor([[8], [30]], dtype=lib.uint8)
        return [a.gcd(b), lib.gcd(a, b), a.lcm(b), lib.lcm(a, b), u.gcd(v), u.lcm(v),
                a.gcd(b.to(lib.int32)), lib.tensor([4], dtype=lib.int16).lcm(lib.tensor([6], dtype=lib.int8))]
    oracle.same(program)


def test_twice(oracle):
    """Differentiated twice (create_graph): the backward formulas are differentiable too."""
    def program(lib):
        x = lib.tensor([0.2, 0.4, 0.7], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([1.5, -0.5, 2.0], dtype=lib.float64, requires_grad=True)
        out = (x.asinh() + (x + 1).acosh() + x.atanh() + x.logit() + x.sinc() + x.lgamma() + x.digamma()
               + x.polygamma(2) + x.i0() + x.deg2rad() * x.rad2deg() + x.hypot(y) + x.copysign(y)
               + x.xlogy(y.abs()) + x.logaddexp2(y) + x.ldexp(y) + x.frexp()[0] * x + lib.special.i1(x)
               + x.logit(0.3) * x)
        gx, gy = lib.autograd.grad((out * out).sum(), (x, y), create_graph=True)
        return [gx.detach(), gy.detach(), lib.autograd.grad(gx.sum() + gy.sum(), (x, y))]
    oracle.same(program, rtol=1e-8, atol=1e-10)  # (trigamma's and tetragamma's accuracy in PyTorch)


# ---------------------------------------------------------------------------------------------
# Bitwise functions and shifts
# ---------------------------------------------------------------------------------------------

def test_bitwise(oracle):
    def program(lib):
        a, b = lib.tensor([-8, 5, 12, 0, 255]), lib.tensor([3, 6, 10, -1, 1])
        t, f = lib.tensor([True, True, False]), lib.tensor([True, False, False])
        u = lib.tensor([200, 3, 255], dtype=lib.uint8)
        return [a.bitwise_and(b), lib.bitwise_and(a, b), a.bitwise_or(b), lib.bitwise_or(a, 3),
                a.bitwise_xor(b), lib.bitwise_xor(6, a), a.bitwise_not(), lib.bitwise_not(u), t.bitwise_not(),
                t.bitwise_and(f), lib.bitwise_or(t, f), t.bitwise_xor(f), u.bitwise_and(lib.tensor(7)),
                u.bitwise_or(a[:3]), t.bitwise_and(a[:3]), lib.bitwise_and(2, lib.tensor([3]))]
    oracle.same(program)


def test_shifts(oracle):
    """<< and >> with PyTorch's answers where C's are undefined: counts that are negative or
    as wide as the type (0 for <<, the sign for >>)."""
    def program(lib):
        a = lib.tensor([-8, 5, 1, 0, -1, 2**40])
        counts = lib.tensor([1, 2, 63, 64, 65, -1])
        u = lib.tensor([200, 3, 1, 128], dtype=lib.uint8)
        i32 = lib.tensor([-7, 1, 3], dtype=lib.int32)
        return [a << 2, a >> 1, a << counts, a >> counts, a.bitwise_left_shift(3), lib.bitwise_left_shift(a, counts),
                a.bitwise_right_shift(counts), lib.bitwise_right_shift(a, 2), u << 1, u >> 1, u << 9, u >> 9,
                u << lib.tensor([0, 7, 8, 20], dtype=lib.uint8), u >> lib.tensor([0, 7, 8, 20], dtype=lib.uint8),
                3 << lib.tensor([1, 2]), 64 >> lib.tensor([1, 2]), i32 << 31, i32 >> 40, i32 << lib.tensor([1, 2, 3]),
                lib.tensor([True, False]) << 1, lib.tensor([1, 2], dtype=lib.int8) << lib.tensor(3)]
    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# In-place forms
# ---------------------------------------------------------------------------------------------

def _plain(lib):
    return lib.tensor([0.25, 0.5, 1.5, -2.5])


IN_PLACE = {
    "asinh_ acosh_ atanh_": lambda lib: [_plain(lib).asinh_(), (_plain(lib) + 2).acosh_(), (_plain(lib) / 4).atanh_(),
                                          _plain(lib).arcsinh_(), (_plain(lib) + 3).arccosh_(), (_plain(lib) / 3).arctanh_()],
    "deg2rad_ rad2deg_ sinc_": lambda lib: [_plain(lib).deg2rad_(), _plain(lib).rad2deg_(), _plain(lib).sinc_()],
    "logit_": lambda lib: [_plain(lib).logit_(), _plain(lib).logit_(0.3), _plain(lib).logit_(eps=0.4)],
    "keywords": lambda lib: [_plain(lib).hypot_(other=lib.tensor(1.0)), _plain(lib).xlogy_(other=2),
                             _plain(lib).eq_(other=0.5), lib.tensor([3, 4]).gcd_(other=lib.tensor(2)),
                             _plain(lib).polygamma_(n=1), _plain(lib).heaviside_(values=lib.tensor(0.5)),
                             _plain(lib).copysign(other=-1), lib.tensor([6]).bitwise_and(other=3),
                             lib.logit(_plain(lib), eps=0.1), lib.polygamma(n=1, input=_plain(lib)),
                             lib.float_power(_plain(lib), exponent=2)],
    "lgamma_ digamma_ polygamma_ i0_": lambda lib: [_plain(lib).lgamma_(), _plain(lib).digamma_(),
                                                    _plain(lib).polygamma_(1), _plain(lib).i0_()],
    "hypot_ copysign_ xlogy_": lambda lib: [_plain(lib).hypot_(lib.tensor([3.0])), _plain(lib).copysign_(lib.tensor(-1.0)),
                                           _plain(lib).copysign_(-2), _plain(lib).xlogy_(lib.tensor([2.0, 0, 1, 3])),
                                           _plain(lib).xlogy_(4)],
    "ldexp_ nextafter_ heaviside_": lambda lib: [_plain(lib).ldexp_(lib.tensor([1, 2, 3, 4])),
                                                 _plain(lib).nextafter_(lib.tensor(0.0)),
                                                 _plain(lib).heaviside_(lib.tensor([1.0]))],
    "float_power_": lambda lib: [_plain(lib).double().float_power_(2), _plain(lib).double().float_power_(lib.tensor([0.5]))],
    "gcd_ lcm_": lambda lib: [lib.tensor([4, 6]).gcd_(lib.tensor([6, 4])), lib.tensor([4, 6]).lcm_(lib.tensor([3]))],
    "comparisons": lambda lib: [_plain(lib).eq_(0.5), _plain(lib).ne_(0.5), _plain(lib).lt_(lib.tensor(1.0)),
                                _plain(lib).le_(0.5), _plain(lib).gt_(0.4), _plain(lib).ge_(0.5),
                                _plain(lib).greater_(0), _plain(lib).less_(0), _plain(lib).greater_equal_(1.5),
                                _plain(lib).less_equal_(0.25), _plain(lib).not_equal_(-2),
                                lib.tensor([1, 2, 3]).eq_(2), lib.tensor([1, 2]).eq_(1.5), lib.tensor([True, False]).lt_(1)],
    "logical": lambda lib: [_plain(lib).logical_and_(lib.tensor([0.0, 1, 1, 0])), _plain(lib).logical_or_(lib.tensor(0)),
                            _plain(lib).logical_xor_(lib.tensor([0.0, 1, 1, 0])), _plain(lib).logical_not_(),
                            lib.tensor([1, 0, 2]).logical_not_(), lib.tensor([1, 2]).logical_xor_(lib.tensor([0, 2]))],
    "bitwise": lambda lib: [lib.tensor([6, 5]).bitwise_and_(lib.tensor([3])), lib.tensor([6, 5]).bitwise_or_(8),
                            lib.tensor([6, 5]).bitwise_xor_(lib.tensor([True])), lib.tensor([6, 5]).bitwise_not_(),
                            lib.tensor([6, 5]).bitwise_left_shift_(2), lib.tensor([6, 5]).bitwise_right_shift_(1),
                            lib.tensor([True, False]).bitwise_not_()],
    "operators": lambda lib: (lambda a: [a.__iand__(lib.tensor([7])), a.__ior__(16), a.__ixor__(1), a.__ilshift__(1),
                                         a.__irshift__(2), a])(lib.tensor([12, 5])),
    "aliases": lambda lib: [_plain(lib).subtract_(1), _plain(lib).subtract_(lib.tensor(1.0), alpha=2), _plain(lib).multiply_(3),
                            _plain(lib).divide_(2), _plain(lib).divide_(0.3, rounding_mode="floor"),
                            _plain(lib).divide_(lib.tensor(0.3), rounding_mode="trunc"), _plain(lib).true_divide_(4),
                            _plain(lib).negative_(), _plain(lib).absolute_(), (_plain(lib) / 2).arcsin_(),
                            (_plain(lib) / 2).arccos_(), _plain(lib).arctan_(), _plain(lib).arctan2_(lib.tensor(-1.0)),
                            _plain(lib).fix_(), _plain(lib).cumsum_(0), _plain(lib).cumprod_(dim=0),
                            lib.tensor([1, 2, 3]).cumsum_(0), lib.tensor([[1, 2], [3, 4]]).cumprod_(1)],
}


@pytest.mark.parametrize("name", IN_PLACE)
def test_in_place(oracle, name):
    oracle.same(IN_PLACE[name])


def test_in_place_recorded(oracle):
    """On a tensor in a graph: the in-place op's node becomes its grad_fn, as out of place."""
    def program(lib):
        x = lib.tensor([0.2, 0.4, 0.7], requires_grad=True)
        outs = [(x * 1).logit_(), (x * 1).sinc_(), (x * 1).lgamma_(), (x * 1).hypot_(x),
                (x * 1).copysign_(-1), (x * 1).xlogy_(x + 1), (x * 2).arctan2_(x), (x * 1).negative_(),
                (x * 1).subtract_(x, alpha=3), (x * 1).divide_(x + 1), (x * 1).cumsum_(0),
                (x.double() * 1).float_power_(x), (x * 1).polygamma_(1), (x * 1).rad2deg_(), (x * 1).ldexp_(x),
                (x * 1).nextafter_(x), (x * 1).arcsin_(), (x * 1).fix_()]
        return outs + [lib.autograd.grad(sum(o.sum() for o in outs), x)[0]]
    oracle.same(program)


def test_in_place_comparisons_in_a_graph(oracle):
    """``y.eq_(z)`` where y requires grad: PyTorch records EqBackward0 (a number) or EqBackward1
    (a tensor), ..., whose gradient is 0; logical_and_ and the others record nothing (y keeps
    its grad_fn, through which the gradient still flows)."""
    def program(lib):
        x = lib.tensor([0.2, 0.4, 0.0], requires_grad=True)
        z = lib.tensor([0.4], requires_grad=True)
        outs = [(x * 1).eq_(0.4), (x * 1).eq_(z), (x * 1).ne_(0.4), (x * 1).lt_(z), (x * 1).le_(0.2),
                (x * 1).gt_(z), (x * 1).ge_(0.2), (x * 1).greater_(z), (x * 1).less_equal_(0.3),
                (x * 2).logical_and_(x), (x * 2).logical_or_(z), (x * 2).logical_xor_(x), (x * 2).logical_not_()]
        return outs + [lib.autograd.grad(sum(o.sum() for o in outs), (x, z))]
    oracle.same(program)


def test_in_place_without_derivative(oracle):
    """asinh_, acosh_, atanh_ and heaviside_ in a graph: PyTorch records nodes whose backward raises."""
    def program(lib):
        x = lib.tensor([0.2, 0.4, 0.7], requires_grad=True)
        outs = [(x * 1).asinh_(), (x + 1).acosh_(), (x * 1).arctanh_(), (x * 1).heaviside_(x)]
        return outs + [error_of(lambda o: o.sum().backward(), o) for o in outs]
    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# The usual mistakes: PyTorch's errors, type and words
# ---------------------------------------------------------------------------------------------

MISTAKES = {
    "hypot of ints": lambda lib: lib.tensor([1, 2]).hypot(lib.tensor([1, 2])),
    "hypot with a number": lambda lib: lib.tensor([1.0]).hypot(2.0),
    "torch.hypot with a number": lambda lib: lib.hypot(lib.tensor([1.0]), 2.0),
    "hypot, shapes": lambda lib: lib.ones(2, 3).hypot(lib.ones(2)),
    "logaddexp2 of ints": lambda lib: lib.tensor([1, 2]).logaddexp2(lib.tensor([1, 2])),
    "logaddexp2 of bools": lambda lib: lib.tensor([True]).logaddexp2(lib.tensor([True])),
    "logaddexp2 with a number": lambda lib: lib.tensor([1.0]).logaddexp2(1.0),
    "nextafter of ints": lambda lib: lib.tensor([1]).nextafter(lib.tensor([2])),
    "nextafter with a number": lambda lib: lib.tensor([1.0]).nextafter(2.0),
    "ldexp with a number": lambda lib: lib.tensor([1.0]).ldexp(2),
    "frexp of ints": lambda lib: lib.tensor([1, 2]).frexp(),
    "heaviside, mixed dtypes": lambda lib: lib.tensor([1, 2]).heaviside(lib.tensor([1.0])),
    "heaviside with a number": lambda lib: lib.tensor([1.0]).heaviside(0.5),
    "heaviside, shapes": lambda lib: lib.ones(2, 3).heaviside(lib.ones(2)),
    "polygamma negative n": lambda lib: lib.tensor([1.0]).polygamma(-1),
    "polygamma float n": lambda lib: lib.tensor([1.0]).polygamma(1.5),
    "torch.polygamma, arguments swapped": lambda lib: lib.polygamma(lib.tensor([1.0]), 1),
    "gcd of floats": lambda lib: lib.tensor([4.0]).gcd(lib.tensor([2.0])),
    "gcd int with float": lambda lib: lib.tensor([4]).gcd(lib.tensor([2.0])),
    "gcd of bools": lambda lib: lib.tensor([True]).gcd(lib.tensor([True])),
    "gcd with a number": lambda lib: lib.tensor([4]).gcd(2),
    "lcm of floats": lambda lib: lib.tensor([4.0]).lcm(lib.tensor([2.0])),
    "bitwise_and of floats": lambda lib: lib.tensor([1.0]).bitwise_and(lib.tensor([1.0])),
    "bitwise_or int with float": lambda lib: lib.tensor([1]).bitwise_or(lib.tensor([1.0])),
    "bitwise_xor with a float": lambda lib: lib.tensor([1]).bitwise_xor(2.5),
    "bitwise_not of floats": lambda lib: lib.tensor([1.0]).bitwise_not(),
    "torch.bitwise_not of floats": lambda lib: lib.bitwise_not(lib.tensor([1.0], dtype=lib.float64)),
    "<< of floats": lambda lib: lib.tensor([1.0]) << 1,
    ">> by a float": lambda lib: lib.tensor([1]) >> 1.5,
    "bitwise_left_shift of bools": lambda lib: lib.tensor([True]).bitwise_left_shift(lib.tensor([True])),
    "bitwise_right_shift of floats": lambda lib: lib.bitwise_right_shift(lib.tensor([1.0]), lib.tensor([1.0])),
    "shift, shapes": lambda lib: lib.ones(2, 3, dtype=lib.long) << lib.ones(2, dtype=lib.long),
    "float_power_ of float32": lambda lib: lib.tensor([1.5, 2.0]).float_power_(2),
    "float_power_ of ints": lambda lib: lib.tensor([1, 2]).float_power_(2),
    "asinh_ of ints": lambda lib: lib.tensor([1, 2]).asinh_(),
    "deg2rad_ of ints": lambda lib: lib.tensor([1, 2]).deg2rad_(),
    "logit_ of ints": lambda lib: lib.tensor([1, 2]).logit_(),
    "copysign_ of ints": lambda lib: lib.tensor([1, 2]).copysign_(-1),
    "xlogy_ of ints": lambda lib: lib.tensor([1, 2]).xlogy_(2),
    "bitwise_or_ of bool by int": lambda lib: lib.tensor([True]).bitwise_or_(lib.tensor([2])),
    "bitwise_xor_ of floats": lambda lib: lib.tensor([1.0]).bitwise_xor_(lib.tensor([1])),
    "true_divide_ of ints": lambda lib: lib.tensor([1, 2]).true_divide_(2),
    "arccos_ of ints": lambda lib: lib.tensor([1, 2]).arccos_(),
    "hypot_, shapes": lambda lib: lib.ones(2).hypot_(lib.ones(3, 2)),
    "in place on a leaf": lambda lib: lib.ones(2, requires_grad=True).asinh_(),
    "torch.asinh of a number": lambda lib: lib.asinh(1.0),
    "torch.arcsinh of a number": lambda lib: lib.arcsinh(1.0),
    "torch.logit of a number": lambda lib: lib.logit(0.5),
    "torch.frexp of a number": lambda lib: lib.frexp(1.0),
    "torch.signbit of a number": lambda lib: lib.signbit(-1),
    "torch.gcd of a number": lambda lib: lib.gcd(4, lib.tensor([2])),
    "torch.copysign of a number": lambda lib: lib.copysign(1.0, lib.tensor([-1.0])),
    "torch.bitwise_not of a number": lambda lib: lib.bitwise_not(3),
    "special.gammaln of a number": lambda lib: lib.special.gammaln(1.0),
    "special.polygamma of a number": lambda lib: lib.special.polygamma(1, 2.0),
    "special.i1 of a number": lambda lib: lib.special.i1(2.0),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_mistakes(oracle, name):
    oracle.same_error(MISTAKES[name])


# ---------------------------------------------------------------------------------------------
# Live against PyTorch (Hypothesis; the recorded cases above are the seeded ones)
# ---------------------------------------------------------------------------------------------

def _live_floats(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


LIVE_UNARY = {
    # name: (f(lib, t), elements)
    "asinh": (lambda lib, t: t.asinh(), _live_floats(-50, 50)),
    "acosh": (lambda lib, t: t.acosh(), _live_floats(1, 50)),
    "atanh": (lambda lib, t: t.atanh(), _live_floats(-0.999, 0.999)),
    "logit": (lambda lib, t: t.logit(), _live_floats(0, 1)),
    "logit(eps)": (lambda lib, t: t.logit(0.25), _live_floats(-0.5, 1.5)),
    "sinc": (lambda lib, t: t.sinc(), _live_floats(-10, 10)),
    "deg2rad": (lambda lib, t: t.deg2rad() + t.rad2deg(), _live_floats(-1000, 1000)),
    "lgamma": (lambda lib, t: t.lgamma(), _live_floats(0.01, 30)),
    "digamma": (lambda lib, t: t.digamma(), _live_floats(0.01, 30)),
    "polygamma": (lambda lib, t: t.polygamma(2), _live_floats(0.1, 30)),
    "i0": (lambda lib, t: lib.i0(t) + lib.special.i1(t), _live_floats(-20, 20)),
    "frexp": (lambda lib, t: t.frexp()[0] * 3, _live_floats(-1e6, 1e6)),
}


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(LIVE_UNARY)), data=st.data(), float64=st.booleans())
def test_unary_live(torch, name, data, float64):
    f, elements = LIVE_UNARY[name]
    values = data.draw(st.lists(elements, min_size=1, max_size=6))

    def program(lib):
        x = lib.tensor(values, dtype=lib.float64 if float64 else lib.float32, requires_grad=True)
        y = f(lib, x)
        return [y, lib.autograd.grad(y.sum(), x)[0]]
    # (SciPy's gamma family and PyTorch's kernels agree to rounding, not to the last bit)
    assert_same(program(minigrad), program(torch), rtol=1e-4 if not float64 else 1e-8, atol=1e-5,
                check_repr=False)


LIVE_BINARY = {
    "hypot": lambda lib, a, b: a.hypot(b),
    "copysign": lambda lib, a, b: a.copysign(b),
    "xlogy": lambda lib, a, b: a.xlogy(b.abs()),
    "logaddexp2": lambda lib, a, b: a.logaddexp2(b),
    "ldexp": lambda lib, a, b: a.ldexp(b.round().clamp(-20, 20)),
    "float_power": lambda lib, a, b: a.abs().float_power(b.clamp(-3, 3)),
    "nextafter": lambda lib, a, b: a.nextafter(b),
}


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(LIVE_BINARY)), data=st.data())
def test_binary_live(torch, name, data):
    elements = _live_floats(-30, 30)
    a = data.draw(st.lists(elements, min_size=1, max_size=4))
    b = data.draw(st.lists(elements, min_size=len(a), max_size=len(a)))

    def program(lib):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        out = LIVE_BINARY[name](lib, x, y)
        return [out, lib.autograd.grad(out.sum(), (x, y), allow_unused=True)]
    assert_same(program(minigrad), program(torch), rtol=1e-4, atol=1e-5, check_repr=False)


@settings(max_examples=60, deadline=None)
@given(a=st.lists(st.integers(-2**31, 2**31 - 1), min_size=1, max_size=5), data=st.data())
def test_integer_functions_live(torch, a, data):
    b = data.draw(st.lists(st.integers(-70, 70), min_size=len(a), max_size=len(a)))

    def program(lib):
        x, y = lib.tensor(a), lib.tensor(b)
        return [x.gcd(y), x.lcm(y), x << y, x >> y, x & y, x | y, x ^ y, ~x,
                x.to(lib.int32) << y.to(lib.int32), x.to(lib.uint8) >> y.abs().to(lib.uint8)]
    assert_same(program(minigrad), program(torch))


@pytest.mark.xfail(strict=True, reason="DIFF: a NaN made by log or sqrt of a negative number has its sign bit "
                   "set in NumPy (x86's default NaN) and not in PyTorch, so signbit and copysign of such a "
                   "NaN differ (its value, NaN, is the same; 0 / 0 gives the same NaN in both)")
def test_sign_of_a_made_nan(oracle):
    def program(lib):
        x = lib.tensor([-2.0, -1.0])
        return [x.log().signbit(), x.sqrt().signbit(), lib.copysign(lib.tensor([3.0, 3.0]), x.log())]
    oracle.same(program)
