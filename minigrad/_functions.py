"""The functions of the ``torch`` namespace that are not about making tensors.

Most are PyTorch's function forms of Tensor methods: ``torch.exp(x)`` is ``x.exp()``,
``torch.sum(x, 1)`` is ``x.sum(1)``. The rest take several tensors (``where``; ``cat``,
``stack``, ``hstack``, ``meshgrid`` are in _joining.py) or compare them. The reductions are
in _functions_reduce.py, the functions of shapes, indexing and copies in _functions_shape.py.
"""
import builtins

import numpy as np

from . import _dtype, _random, ops
from ._creation import arange, tensor
from ._joining import cat, concat, concatenate, stack  # noqa: F401 (torch.cat, ...: written there)
from ._conventions import check_broadcast
from ._tensor import Size, Tensor
from ._conventions import check_tensors
from ._tensor_arithmetic import rsub  # noqa: F401 (torch.rsub: written there)


def is_tensor(obj):
    return isinstance(obj, Tensor)


# -- Tensor methods as functions ---------------------------------------------------------------
# Elementwise functions

def exp(input):
    return input.exp()


def exp2(input):
    return input.exp2()


def expm1(input):
    return input.expm1()


def log(input):
    return input.log()


def log2(input):
    return input.log2()


def log10(input):
    return input.log10()


def log1p(input):
    return input.log1p()


def sqrt(input):
    return input.sqrt()


def rsqrt(input):
    return input.rsqrt()


def square(input):
    return input.square()


def sin(input):
    return input.sin()


def cos(input):
    return input.cos()


def tan(input):
    return input.tan()


def asin(input):
    return input.asin()


def acos(input):
    return input.acos()


def atan(input):
    return input.atan()


arcsin, arccos, arctan = asin, acos, atan


def sinh(input):
    return input.sinh()


def cosh(input):
    return input.cosh()


def erf(input):
    check_tensors("erf", 1, input=input)
    return input.erf()


def erfc(input):
    check_tensors("erfc", 1, input=input)
    return input.erfc()


def erfinv(input):
    check_tensors("erfinv", 1, input=input)
    return input.erfinv()


def abs(input):
    return input.abs()


absolute = abs


def sign(input):
    return input.sign()


def sgn(input):
    check_tensors("sgn", 1, input=input)
    return input.sgn()


def neg(input):
    return input.neg()


negative = neg


def positive(input):
    return input.positive()


def reciprocal(input):
    return input.reciprocal()


def relu(input):
    return input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def floor(input):
    return input.floor()


def ceil(input):
    return input.ceil()


def trunc(input):
    return input.trunc()


fix = trunc


def round(input, *, decimals=0):
    return input.round(decimals=decimals)


def frac(input):
    return input.frac()


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return input.nan_to_num(nan, posinf, neginf)


def isnan(input):
    return input.isnan()


def isinf(input):
    return input.isinf()


def isfinite(input):
    return input.isfinite()


def clamp(input, min=None, max=None):
    return input.clamp(min, max)


clip = clamp


def clamp_min(input, min):
    return input.clamp_min(min)


def clamp_max(input, max):
    return input.clamp_max(max)


# The rarer ones (_tensor_special.py)

def asinh(input):
    check_tensors("asinh", 1, input=input)
    return input.asinh()


def acosh(input):
    check_tensors("acosh", 1, input=input)
    return input.acosh()


def atanh(input):
    check_tensors("atanh", 1, input=input)
    return input.atanh()


def arcsinh(input):  # (its own name in the error: PyTorch's)
    check_tensors("arcsinh", 1, input=input)
    return input.asinh()


def arccosh(input):
    check_tensors("arccosh", 1, input=input)
    return input.acosh()


def arctanh(input):
    check_tensors("arctanh", 1, input=input)
    return input.atanh()


def deg2rad(input):
    check_tensors("deg2rad", 1, input=input)
    return input.deg2rad()


def rad2deg(input):
    check_tensors("rad2deg", 1, input=input)
    return input.rad2deg()


def logit(input, eps=None):
    check_tensors("logit", 1, input=input)
    return input.logit(eps)


def sinc(input):
    check_tensors("sinc", 1, input=input)
    return input.sinc()


def lgamma(input):
    check_tensors("lgamma", 1, input=input)
    return input.lgamma()


def digamma(input):
    check_tensors("digamma", 1, input=input)
    return input.digamma()


def polygamma(n, input):
    if type(n) is not builtins.int:  # (n first: torch.polygamma(x, 1) names it)
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    check_tensors("polygamma", 2, input=input)
    return input.polygamma(n)


def i0(input):
    check_tensors("i0", 1, input=input)
    return input.i0()


def signbit(input):
    check_tensors("signbit", 1, input=input)
    return input.signbit()


def isposinf(input):
    check_tensors("isposinf", 1, input=input)
    return input.isposinf()


def isneginf(input):
    check_tensors("isneginf", 1, input=input)
    return input.isneginf()


def isreal(input):
    check_tensors("isreal", 1, input=input)
    return input.isreal()


def frexp(input):
    check_tensors("frexp", 1, input=input)
    return input.frexp()


# Of two tensors (either may be a number where PyTorch allows it)

def add(input, other, *, alpha=1):
    return input.add(other, alpha=alpha)


def sub(input, other, *, alpha=1):
    return input.sub(other, alpha=alpha)


subtract = sub


def mul(input, other):
    return input.mul(other)


multiply = mul


def div(input, other, *, rounding_mode=None):
    return input.div(other, rounding_mode=rounding_mode)


divide = div


def true_divide(input, other):
    return input / other


def floor_divide(input, other):
    return input // other


def remainder(input, other):
    return input % other


def fmod(input, other):
    return input.fmod(other)


def pow(input, exponent):
    return input ** exponent  # input may be a number: torch.pow(2, x)


def atan2(input, other):
    return input.atan2(other)


arctan2 = atan2


def maximum(input, other):
    check_tensors("maximum", 1, input=input)  # torch.maximum(2, t): PyTorch's TypeError
    return input.maximum(other)


def minimum(input, other):
    check_tensors("minimum", 1, input=input)
    return input.minimum(other)


def fmax(input, other):
    return input.fmax(other)


def fmin(input, other):
    return input.fmin(other)


def lerp(input, end, weight):
    return input.lerp(end, weight)


def logaddexp(input, other):
    return input.logaddexp(other)


def logaddexp2(input, other):
    check_tensors("logaddexp2", 1, input=input, other=other)
    return input.logaddexp2(other)


def hypot(input, other):
    check_tensors("hypot", 1, input=input, other=other)
    return input.hypot(other)


def nextafter(input, other):
    check_tensors("nextafter", 1, input=input, other=other)
    return input.nextafter(other)


def ldexp(input, other):
    check_tensors("ldexp", 1, input=input, other=other)
    return input.ldexp(other)


def xlogy(input, other):
    """``input * log(other)``, 0 where input is 0; either may be a number (not both)."""
    if not isinstance(input, Tensor):  # a number times the log of a tensor: XlogyBackward1
        check_tensors("xlogy", 2, other=other)
        dt = _dtype.result_type(other, input)
        dt = dt if dt.is_floating_point else _dtype.get_default_dtype()
        return ops.NumberXlogy.apply(input, other.to(dt))
    return input.xlogy(other)


def copysign(input, other):
    if not isinstance(input, Tensor):
        raise TypeError(f"copysign() received an invalid combination of arguments - got ({type(input).__name__}, "
                        f"{type(other).__name__}), but expected one of:\n * (Tensor input, Tensor other, *, Tensor "
                        "out = None)\n * (Tensor input, Number other, *, Tensor out = None)\n")
    return input.copysign(other)


def float_power(input, exponent):
    if not isinstance(input, Tensor):  # a number to tensor powers: PowBackward2, in float64
        return builtins.float(input) ** exponent.double()
    return input.float_power(exponent)


def heaviside(input, values):
    check_tensors("heaviside", 1, input=input)
    return input.heaviside(values)


def gcd(input, other):
    check_tensors("gcd", 1, input=input)
    return input.gcd(other)


def lcm(input, other):
    check_tensors("lcm", 1, input=input)
    return input.lcm(other)


# Comparisons and logic (bool results, no gradients)

def eq(input, other):
    return input == other


def ne(input, other):
    return input != other


def lt(input, other):
    return input < other


def le(input, other):
    return input <= other


def gt(input, other):
    return input > other


def ge(input, other):
    return input >= other


greater, less, greater_equal, less_equal, not_equal = gt, lt, ge, le, ne


def logical_and(input, other):
    return input.logical_and(other)


def logical_or(input, other):
    return input.logical_or(other)


def logical_xor(input, other):
    return input.logical_xor(other)


def logical_not(input):
    return input.logical_not()


def bitwise_and(input, other):
    return input & other  # (input may be a number: torch.bitwise_and(2, t))


def bitwise_or(input, other):
    return input | other  # (input may be a number: torch.bitwise_or(2, t))


def bitwise_xor(input, other):
    return input ^ other  # (input may be a number: torch.bitwise_xor(2, t))


def bitwise_not(input):
    check_tensors("bitwise_not", 1, input=input)
    return input.bitwise_not()


def bitwise_left_shift(input, other):
    return input << other


def bitwise_right_shift(input, other):
    return input >> other


# Products

def matmul(input, other):
    return input.matmul(other)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``: what ``nn.Linear`` computes, with factors."""
    check_tensors("addmm", 1, input=input, mat1=mat1, mat2=mat2)
    return input.addmm(mat1, mat2, beta=beta, alpha=alpha)


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``"""
    check_tensors("addcmul", 1, input=input, tensor1=tensor1, tensor2=tensor2)
    return input.addcmul(tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``"""
    check_tensors("addcdiv", 1, input=input, tensor1=tensor1, tensor2=tensor2)
    return input.addcdiv(tensor1, tensor2, value=value)


def mm(input, mat2):
    return input.mm(mat2)


def mv(input, vec):
    return input.mv(vec)


def dot(input, other):
    check_tensors("dot", 1, input=input, tensor=other)
    return input.dot(other)


def bmm(input, mat2):
    return input.bmm(mat2)


def outer(input, vec2):
    check_tensors("outer", 1, input=input, vec2=vec2)
    return input.outer(vec2)


ger = outer


def tril(input, diagonal=0):
    return input.tril(diagonal)


def triu(input, diagonal=0):
    return input.triu(diagonal)


def diag(input, diagonal=0):
    return input.diag(diagonal)


def diagonal(input, offset=0, dim1=0, dim2=1):
    return input.diagonal(offset, dim1, dim2)


def trace(input):
    return input.trace()


# -- several tensors (cat, stack, hstack, meshgrid... are in _joining.py) --------------------

def diff(input, n=1, dim=-1, prepend=None, append=None):
    """Differences of neighbours along ``dim``, ``n`` times over: ``x[1:] - x[:-1]`` written with
    narrow, as PyTorch does (SubBackward0 over SliceBackward0s; logical_xor for bools)."""
    return input.diff(n, dim, prepend, append)


def where(condition, input=None, other=None):
    """``input`` where ``condition`` holds, else ``other`` (either may be a number);
    ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``."""
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    if not isinstance(input, Tensor):  # torch.where(mask, 0.0, x)
        input = tensor(input, dtype=_dtype.result_type(input, other))
    return input.where(condition, other)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices drawn with the probabilities in ``input``, row by row (see Tensor.multinomial)."""
    check_tensors("multinomial", 1, input=input)
    return Tensor._wrap(_random.multinomial(input._data, num_samples, replacement, generator, first=2))


# -- comparing tensors -------------------------------------------------------------------------

def equal(input, other):
    """True if both tensors have the same shape and the same elements."""
    check_tensors("equal", 1, input=input, other=other)
    return input.equal(other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    check_tensors("allclose", 1, input=input, other=other)
    return input.allclose(other, rtol, atol, equal_nan)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    check_tensors("isclose", 1, input=input, other=other)
    return input.isclose(other, rtol, atol, equal_nan)


# -- broadcasting ---------------------------------------------------------------------------------
def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (a tensor already of that shape: itself)."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    shape = ()
    for t in tensors:
        check_broadcast(shape, t.shape)
        shape = np.broadcast_shapes(shape, t.shape)
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)


def broadcast_shapes(*shapes):
    """The shape tensors of these shapes broadcast to (PyTorch's torch._refs._broadcast_shapes:
    its checks, its words)."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for s in shapes:
        if not isinstance(s, (tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}")
    common = [1] * builtins.max((len(s) for s in shapes), default=0)
    for k, s in enumerate(shapes):
        for i in range(-1, -1 - len(s), -1):
            if s[i] == common[i]:
                continue
            if common[i] == 1:
                if s[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = s[i]
            if s[i] != 1 and common[i] != s[i]:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[i]} at {i}! Mismatching "
                                   f"argument at index {k} had {s}; but expected shape should be broadcastable "
                                   f"to {common}")
    return Size(common)


# -- torch.set_warn_always ----------------------------------------------------------------------
# PyTorch gives a few warnings only once per process (TORCH_WARN_ONCE in its C++); this flag
# makes those appear every time. minigrad has no once-per-process warnings: each of its
# warnings goes through Python's ``warnings.warn`` every time, and Python's filters decide
# what is shown (by default, once per line of code that triggers it). So the flag is kept and
# read back, as in PyTorch, and changes nothing; ``warnings.simplefilter("always")`` is what
# shows every repeat.
_warn_always = False


def set_warn_always(b, /):
    """Set the flag that ``is_warn_always_enabled()`` reads back (it changes no warning)."""
    global _warn_always
    if type(b) is not builtins.bool:
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _warn_always = b


def is_warn_always_enabled():
    return _warn_always
