"""The Tensor's arithmetic: operators, elementwise functions and their in-place forms.

Comparisons, logic and bitwise operators are in _tensor_logic.py.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/``. This module sits below the Tensor class and reaches it only
through ``autograd.TensorBase``.
"""
import functools
import math
import numbers

import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import ADDCDIV_INTEGER, C_NAMES, check_broadcast, check_matmul_dtypes
from .core.tensor import TensorBase


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _as_tensor(x, dtype):
    """A Python number (or array) as a 0-d tensor of ``dtype``: the other operand of ``x + 1``."""
    if isinstance(x, TensorBase):
        if x.dtype is dtype:
            return x
        if x._requires_grad:
            return x  # float32 meeting float64: the op itself promotes (no extra node, as in PyTorch)
        return TensorBase._wrap(x._data.astype(dtype.np))
    if type(x) is int:
        x = _dtype.wrapped(x, dtype)  # as PyTorch's: uint8 + 300 adds 44, int32 + 2**32 adds 0
    return TensorBase._wrap(np.asarray(x, dtype=dtype.np))


def _binary(op, a, b, alpha=None):
    """Promote both operands to their common dtype (PyTorch's rules), then apply ``op``
    (``alpha``: add's and sub's factor on b, for the ops that take one)."""
    dt = None
    if isinstance(b, TensorBase) and a._data.dtype == b._data.dtype:
        pass  # the common case: nothing to promote
    elif type(b) is float and a._data.dtype.kind == "f":  # x * 0.5: made quick too
        b = TensorBase._wrap(np.array(b, a._data.dtype))
    else:
        b = _dtype.python_number(b)  # np.float64(0.5) is 0.5 to PyTorch
        if not isinstance(b, (TensorBase, numbers.Number, np.ndarray)):
            return NotImplemented
        dt = _dtype.result_type(a, b)
        a, b = _as_tensor(a, dt), _as_tensor(b, dt)
    try:
        out = op.apply(a, b) if alpha is None else op.apply(a, b, alpha)
    except ValueError:
        check_broadcast(a._data.shape, b._data.shape)
        raise
    return _in_dtype(out, dt) if dt is not None else out


def _alpha(alpha, a, b, name):
    """add's and sub's ``alpha``, checked as PyTorch checks it: a number, which must fit the
    result's dtype (it is cast to it)."""
    alpha, b = _dtype.python_number(alpha), _dtype.python_number(b)
    if not isinstance(alpha, numbers.Number):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {type(alpha).__name__}")
    if isinstance(alpha, complex):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    if isinstance(alpha, int) and not -2**63 <= alpha < 2**64:  # (a Python int PyTorch cannot hold)
        raise OverflowError("int too big to convert" if alpha > 0 else
                            "can't convert negative int to unsigned")
    if not isinstance(b, (TensorBase, numbers.Number)):  # (the op's own error follows)
        return alpha
    dt = _dtype.result_type(a, b)
    if isinstance(alpha, bool) and dt is not _dtype.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if not dt.is_floating_point and not isinstance(alpha, int):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    alpha = _dtype.scalar_for(alpha, dt)  # an integer's: checked, then cast as C casts it (-1 is 255 in uint8)
    if dt is _dtype.float32 and _FLOAT32_MAX < abs(alpha) < math.inf:  # (inf and nan fit a float)
        raise RuntimeError("value cannot be converted to type float without overflow")
    return alpha


def _in_dtype(out, dt):
    """The op's result in PyTorch's result dtype: NumPy ranks a 0-d float64 above a float32
    tensor, PyTorch does not (the op's node casts the gradient back, see Node.apply)."""
    if out._data.dtype != dt.np:
        out._data = out._data.astype(dt.np)
    return out


def _no_derivative(op, a, b):
    """An op PyTorch defines no derivative for: its node lists only the inputs that require grad."""
    a, b = _dtype.python_number(a), _dtype.python_number(b)
    dt = _dtype.result_type(a, b) if isinstance(a, TensorBase) else _dtype.result_type(b, a)
    a, b = _as_tensor(a, dt), _as_tensor(b, dt)
    try:
        return op.apply(*(t if t._requires_grad else t._data for t in (a, b)))
    except ValueError:
        check_broadcast(a._data.shape, b._data.shape)
        raise


def rsub(x, other, alpha=1):
    """``torch.rsub(x, other, alpha=)``: ``other - alpha * x``, one node (RsubBackward0; 1 for a number)."""
    other = _dtype.python_number(other)
    _check_bool_sub(x, other)
    alpha = _alpha(alpha, x, other, "rsub")
    if isinstance(other, numbers.Number):
        return ops.Rsub.apply(_as_tensor(x, _dtype.result_type(x, other)), other, alpha)
    if isinstance(other, TensorBase):
        check_broadcast(other._data.shape, x._data.shape)  # PyTorch's words name other as tensor a
    return _binary(ops.RsubTensor, x, other, alpha)


def _check_bool_sub(a, b):
    """PyTorch refuses ``-`` on bools (NumPy's words differ)."""
    bools = [x.dtype is _dtype.bool if isinstance(x, TensorBase) else isinstance(x, bool) for x in (a, b)]
    if all(bools):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if any(bools):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` operator "
                           "instead.")


def _floating(x):
    """Inputs of exp, log, ... : integers (and bools) are computed in the default float dtype
    (float32 unless set_default_dtype changed it), as in PyTorch."""
    if x.dtype.is_floating_point:
        return x
    return TensorBase._wrap(x._data.astype(_dtype.get_default_dtype().np))


def check_tensors(name, first, **args):
    """PyTorch's TypeError for an argument that must be a tensor; ``first``: the position of
    the first one named (a method's ``self`` has none, so ``x.f(a)``'s ``a`` is position 1)."""
    for position, (arg, t) in enumerate(args.items(), first):
        if not isinstance(t, TensorBase):
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                            f"{type(t).__name__}")


def _check_ndim(arg, t, ndim):
    if t._data.ndim != ndim:
        raise RuntimeError(f"{arg} must be a {'matrix' if ndim == 2 else '3D tensor'}")


def _in_place(method):
    """``x.sin_()`` from ``x.sin()``: compute out of place, then write into ``x`` (_inplace.py)."""
    def method_(self, *args, **kwargs):  # (keywords as the method takes them: x.logit_(eps=0.1))
        return _inplace.apply(self, functools.partial(method, **kwargs) if kwargs else method, *args)
    method_.__name__ = method.__name__.strip("_") + "_"
    return method_


def float_only(t, kernel):
    """``t`` itself if it is a float tensor; else PyTorch's error, which names the C++ kernel
    that has no code for integers and bools (``frac``, ``normal_``, ``uniform_``)."""
    if t.dtype.is_floating_point:
        return t
    raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.legacy_name}\'')


def check_normal_std(std):
    """PyTorch's error for a negative std (normal_, nn.init.normal_, torch.normal)."""
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def check_uniform_bounds(a, b):
    """PyTorch's error for bounds the wrong way round (uniform_, nn.init.uniform_)."""
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a:g} > to={b:g}")


def _promoted(t, min=None, max=None, in_place=False):
    """``t`` in the dtype it takes with number bounds: ``int_tensor.clamp(min=0.5)`` is float32,
    ``bool_tensor.clamp(min=1)`` int64 (result_type's promotion). In place (``clamp_``) a
    result that ``t`` cannot hold is PyTorch's error, which names the dtype in C++ words."""
    if t._data.dtype.kind == "f":  # a float tensor keeps its dtype with any number (the usual case)
        return t
    bounds = [b for b in (min, max) if b is not None and not isinstance(b, TensorBase)]
    dt = _dtype.result_type(t, *bounds) if bounds else t.dtype  # (tensor bounds: _inplace's check)
    if dt is _dtype.bool and bounds:  # bools clamped by bools: PyTorch has no kernel for it
        which = "" if min is not None and max is not None else "min_" if min is not None else "max_"
        float_only(t, f"clamp_{which}scalar_cpu")
    if dt is t.dtype:
        return t
    if in_place and dt._category > t.dtype._category:
        raise RuntimeError(f"result type {dt.legacy_name} can't be cast to the desired output type "
                           f"{C_NAMES[t.dtype.name]}")
    return t if in_place else TensorBase._wrap(t._data.astype(dt.np))  # ints need no graph


def _addc(op, name, x, t1, t2, value):
    """``x + value * t1 * t2`` (Addcmul) or ``... / t2`` (Addcdiv): the three tensors promoted
    to their common dtype; ``value`` does not take part, it is cast to that dtype, as PyTorch's."""
    check_tensors(name, 1, tensor1=t1, tensor2=t2)
    if name == "addcdiv" and not (t1.dtype.is_floating_point or t2.dtype.is_floating_point):
        raise RuntimeError(ADDCDIV_INTEGER)
    dt = _dtype.result_type(x, t1, t2)
    if dt is _dtype.bool:
        raise NotImplementedError(f'"{name}_cpu_out" not implemented for \'Bool\'')
    check_broadcast(x._data.shape, t1._data.shape)  # pairwise, in PyTorch's order
    check_broadcast(np.broadcast_shapes(x._data.shape, t1._data.shape), t2._data.shape)
    value = _dtype.python_number(value)
    if not dt.is_floating_point:
        value = int(value)
    return _in_dtype(op.apply(_as_tensor(x, dt), _as_tensor(t1, dt), _as_tensor(t2, dt), value), dt)


class MathMixin:
    __slots__ = ()

    # -- arithmetic ----------------------------------------------------------------------------
    def __add__(self, other):
        return _binary(ops.Add, self, other)

    __radd__ = __add__

    def __sub__(self, other):
        _check_bool_sub(self, other)
        return _binary(ops.Sub, self, other)

    def __rsub__(self, other):
        other = _dtype.python_number(other)
        _check_bool_sub(self, other)
        if isinstance(other, numbers.Number):
            dt = _dtype.result_type(self, other)
            return ops.Rsub.apply(_as_tensor(self, dt), _dtype.wrapped(other, dt), 1)
        return _binary(ops.Sub, _as_tensor(other, self.dtype), self)

    def __mul__(self, other):
        return _binary(ops.Mul, self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not _dtype.result_type(self, other).is_floating_point:
            self = _floating(self)  # int / int is a float (the default one), as in PyTorch
        return _binary(ops.Div, self, other)

    def __rtruediv__(self, other):
        other = _dtype.python_number(other)
        return self.reciprocal() * other  # PyTorch computes 2 / x as x.reciprocal() * 2

    def __pow__(self, exponent):
        exponent = _dtype.python_number(exponent)
        if isinstance(exponent, TensorBase):
            return _binary(ops.PowTensor, self, exponent)
        if isinstance(exponent, float) and not self.dtype.is_floating_point:
            return ops.Pow.apply(_floating(self), exponent)
        if isinstance(exponent, int) and exponent < 0 and not self.dtype.is_floating_point:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return ops.Pow.apply(self, exponent)

    def __rpow__(self, base):
        base = _dtype.python_number(base)
        if isinstance(base, int) and self.dtype._category == 1:  # 2 ** int_tensor: negative powers give 0
            return _binary(ops.PowTensor, _as_tensor(base, self.dtype), self)
        return ops.RPow.apply(_floating(self) if isinstance(base, float) else self, base)

    def __matmul__(self, other):
        a, b = self, other
        if a._data.dtype != b._data.dtype:  # PyTorch does not promote
            check_matmul_dtypes(a.dtype, b.dtype, a._data.ndim, b._data.ndim)
        return ops.matmul_op(a._data.ndim, b._data.ndim).apply(a, b)

    def __rmatmul__(self, other):
        return TensorBase._wrap(np.asarray(other)) @ self

    def __neg__(self):
        if self.dtype is _dtype.bool:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                               "are trying to invert a mask, use the `~` or `logical_not()` operator "
                               "instead.")
        return ops.Neg.apply(self)

    def __pos__(self):
        if self.dtype is _dtype.bool:
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    positive = __pos__

    def __abs__(self):
        return self.abs()

    def reciprocal(self):
        return ops.Reciprocal.apply(_floating(self))

    def add(self, other, *, alpha=1):
        if type(alpha) is not int or alpha != 1:  # (the default, 1, needs no check)
            alpha = _alpha(alpha, self, other, "add")
        if alpha == 1:
            return self + other
        return _binary(ops.AddScaled, self, other, alpha)  # one node, AddBackward0, as in PyTorch

    def sub(self, other, *, alpha=1):
        _check_bool_sub(self, other)
        if type(alpha) is not int or alpha != 1:
            alpha = _alpha(alpha, self, other, "sub")
        if alpha == 1:
            return self - other
        return _binary(ops.SubScaled, self, other, alpha)

    mul = __mul__
    pow = __pow__
    matmul = __matmul__
    neg = negative = __neg__

    def __floordiv__(self, other):
        return _no_derivative(ops.FloorDivide, self, other)

    def __rfloordiv__(self, other):
        return _no_derivative(ops.FloorDivide, other, self)

    def __mod__(self, other):
        other = _dtype.python_number(other)
        if isinstance(other, numbers.Number):
            dt = _dtype.result_type(self, other)
            return ops.RemainderNumber.apply(_as_tensor(self, dt), _dtype.wrapped(other, dt))
        return _binary(ops.Remainder, self, other)

    def __rmod__(self, other):
        other = _dtype.python_number(other)
        if isinstance(other, numbers.Number):
            dt = _dtype.result_type(self, other)
            return ops.RemainderOfNumber.apply(_as_tensor(self, dt), _dtype.wrapped(other, dt))
        return _binary(ops.Remainder, _as_tensor(other, _dtype.result_type(self, other)), self)

    def fmod(self, other):
        other = _dtype.python_number(other)
        if isinstance(other, numbers.Number):
            return ops.FmodNumber.apply(_as_tensor(self, _dtype.result_type(self, other)), other)
        return _binary(ops.Fmod, self, other)

    remainder = __mod__
    floor_divide = __floordiv__

    def div(self, other, *, rounding_mode=None):
        """``self / other``; ``rounding_mode="floor"`` or ``"trunc"`` rounds the quotient."""
        if rounding_mode is None:
            return self / other
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                             f"found '{rounding_mode}'")
        return _binary(ops.DivRounding, self, other) if rounding_mode == "floor" else \
            _binary(ops.DivTrunc, self, other)

    divide = div
    true_divide = __truediv__
    multiply = __mul__
    subtract = sub

    # -- elementwise functions -----------------------------------------------------------------
    # Integer inputs of the non-polynomial ones are computed in the default float dtype, as in PyTorch.
    def exp(self):
        return ops.Exp.apply(_floating(self))

    def exp2(self):
        return ops.Exp2.apply(_floating(self))

    def expm1(self):
        return ops.Expm1.apply(_floating(self))

    def log(self):
        return ops.Log.apply(_floating(self))

    def log2(self):
        return ops.Log2.apply(_floating(self))

    def log10(self):
        return ops.Log10.apply(_floating(self))

    def log1p(self):
        return ops.Log1p.apply(_floating(self))

    def sqrt(self):
        return ops.Sqrt.apply(_floating(self))

    def rsqrt(self):
        return ops.Rsqrt.apply(_floating(self))

    def square(self):
        return self ** 2  # PyTorch records it as pow: PowBackward0

    def sin(self):
        return ops.Sin.apply(_floating(self))

    def cos(self):
        return ops.Cos.apply(_floating(self))

    def tan(self):
        return ops.Tan.apply(_floating(self))

    def asin(self):
        return ops.Asin.apply(_floating(self))

    def acos(self):
        return ops.Acos.apply(_floating(self))

    def atan(self):
        return ops.Atan.apply(_floating(self))

    def sinh(self):
        return ops.Sinh.apply(_floating(self))

    def cosh(self):
        return ops.Cosh.apply(_floating(self))

    arcsin, arccos, arctan = asin, acos, atan

    def erf(self):
        return ops.Erf.apply(_floating(self))

    def erfc(self):
        return ops.Erfc.apply(_floating(self))

    def erfinv(self):
        return ops.Erfinv.apply(_floating(self))

    def abs(self):
        return ops.Abs.apply(self)

    absolute = abs

    def sign(self):
        return ops.Sign.apply(self)

    def sgn(self):
        return ops.Sgn.apply(self)

    def relu(self):
        return ops.Relu.apply(self)

    def sigmoid(self):
        return ops.Sigmoid.apply(_floating(self))

    def tanh(self):
        return ops.Tanh.apply(_floating(self))

    # Rounding: an integer tensor is already whole, and stays itself (a copy).
    def floor(self):
        return ops.Floor.apply(self) if self.dtype.is_floating_point else self.clone()

    def ceil(self):
        return ops.Ceil.apply(self) if self.dtype.is_floating_point else self.clone()

    def trunc(self):
        return ops.Trunc.apply(self) if self.dtype.is_floating_point else self.clone()

    fix = trunc

    def round(self, *, decimals=0):
        if not self.dtype.is_floating_point:
            return self.clone()
        return ops.Round.apply(self) if decimals == 0 else ops.RoundDecimals.apply(self, decimals)

    def frac(self):
        return ops.Frac.apply(float_only(self, "frac_cpu"))

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        """NaN becomes ``nan``, +-inf the largest and smallest finite values (or those given)."""
        return ops.NanToNum.apply(self, nan, posinf, neginf)

    def isnan(self):
        return TensorBase._wrap(np.isnan(self._data))

    def isinf(self):
        return TensorBase._wrap(np.isinf(self._data))

    def isfinite(self):
        return TensorBase._wrap(np.isfinite(self._data))

    def clamp(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        tensors = [b for b in (min, max) if isinstance(b, TensorBase)]
        if not tensors:
            x = _promoted(self, min, max)
            return ops.Clamp.apply(x, _dtype.scalar_for(min, x.dtype), _dtype.scalar_for(max, x.dtype))
        if len(tensors) == 1 and min is not None and max is not None:
            raise TypeError("clamp() received an invalid combination of arguments - got (min and max: "
                            "a Tensor and a number), but expected one of:\n * (Tensor min = None, "
                            "Tensor max = None)\n * (Number min = None, Number max = None)")
        dt = _dtype.result_type(self, tensors[0])
        # A missing bound is the widest one: the node still has its slot (None in next_functions).
        wide = (np.iinfo(dt.np).min, np.iinfo(dt.np).max) if dt._category == 1 else (-np.inf, np.inf)
        lo = _as_tensor(wide[0] if min is None else min, dt)
        hi = _as_tensor(wide[1] if max is None else max, dt)
        try:
            return _in_dtype(ops.ClampTensor.apply(_as_tensor(self, dt), lo, hi, len(tensors) == 2), dt)
        except ValueError:  # NumPy's words for bounds that do not broadcast; PyTorch's instead
            for bound in (lo, hi):  # (both tensors by now)
                check_broadcast(self._data.shape, bound._data.shape)
            raise

    clip = clamp

    def clamp_min(self, min):
        if isinstance(min, TensorBase):
            return self.clamp(min=min)
        return ops.ClampMin.apply(_promoted(self, min=min), min)

    def clamp_max(self, max):
        if isinstance(max, TensorBase):
            return self.clamp(max=max)
        return ops.ClampMax.apply(_promoted(self, max=max), max)

    # -- of two tensors, element by element -------------------------------------------------
    def maximum(self, other):
        check_tensors("maximum", 2, other=other)  # (torch.maximum(t, 2)'s position)
        return _binary(ops.Maximum, self, other)

    def minimum(self, other):
        check_tensors("minimum", 2, other=other)
        return _binary(ops.Minimum, self, other)

    def fmax(self, other):
        return _binary(ops.Fmax, self, other)

    def fmin(self, other):
        return _binary(ops.Fmin, self, other)

    def atan2(self, other):
        return _binary(ops.Atan2, _floating(self), other)

    arctan2 = atan2

    def logaddexp(self, other):
        return _binary(ops.Logaddexp, _floating(self), other)

    def lerp(self, end, weight):
        """``self + weight * (end - self)``: part of the way from self to end."""
        for name, t in (("end", end), ("weight", weight)):  # no promotion: PyTorch refuses
            if isinstance(t, TensorBase) and t.dtype is not self.dtype:
                raise RuntimeError(f"expected dtype {self.dtype.legacy_name.lower()} for `{name}` but "
                                   f"got dtype {t.dtype.legacy_name.lower()}")
        try:
            if isinstance(weight, TensorBase):
                return ops.LerpTensor.apply(self, end, weight)
            return ops.Lerp.apply(self, end, weight)
        except ValueError:  # shapes that do not broadcast: PyTorch's error, naming the first clash
            check_broadcast(self._data.shape, end._data.shape)
            if isinstance(weight, TensorBase):
                check_broadcast(np.broadcast_shapes(self._data.shape, end._data.shape), weight._data.shape)
            raise

    # -- input + value * tensor1 (* or /) tensor2: the steps of Adam and RMSprop --------------
    def addcmul(self, tensor1, tensor2, *, value=1):
        return _addc(ops.Addcmul, "addcmul", self, tensor1, tensor2, value)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return _addc(ops.Addcdiv, "addcdiv", self, tensor1, tensor2, value)

    # -- in-place forms --------------------------------------------------------------------------
    # Each computes out of place and writes the result into this tensor (see _inplace.py).
    def add_(self, other, alpha=1):
        return _inplace.apply(self, MathMixin.add, other, ufunc=np.add, alpha=alpha)

    def sub_(self, other, alpha=1):
        return _inplace.apply(self, MathMixin.sub, other, ufunc=np.subtract, alpha=alpha)

    def mul_(self, other):
        return _inplace.apply(self, MathMixin.__mul__, other, ufunc=np.multiply)

    def div_(self, other):
        return _inplace.apply(self, MathMixin.__truediv__, other, ufunc=np.divide)

    def zero_(self):
        return _inplace.apply(self, ops.Zero.apply, fill=True)

    def fill_(self, value):
        return _inplace.apply(self, ops.Fill.apply, _dtype.scalar_for(value, self.dtype), fill=True)

    def copy_(self, src):
        src = src if isinstance(src, TensorBase) else TensorBase(src)
        check_broadcast(self._data.shape, src._data.shape)
        _inplace._check_shape(np.broadcast_shapes(self._data.shape, src._data.shape), self)  # src may not grow self
        return _inplace.apply(self, ops.Copy.apply, src)

    def clamp_(self, min=None, max=None):
        _promoted(self, min, max, in_place=True)
        return _inplace.apply(self, MathMixin.clamp, min, max)

    clip_ = clamp_

    def clamp_min_(self, min):
        _promoted(self, min=min, in_place=True)
        return _inplace.apply(self, MathMixin.clamp_min, min)

    def clamp_max_(self, max):
        _promoted(self, max=max, in_place=True)
        return _inplace.apply(self, MathMixin.clamp_max, max)

    def lerp_(self, end, weight):
        return _inplace.apply(self, MathMixin.lerp, end, weight)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return _inplace.apply(self, lambda t, t1, t2: t.addcmul(t1, t2, value=value), tensor1, tensor2)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return _inplace.apply(self, lambda t, t1, t2: t.addcdiv(t1, t2, value=value), tensor1, tensor2)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return _inplace.apply(self, MathMixin.nan_to_num, nan, posinf, neginf)

    def round_(self, *, decimals=0):
        return _inplace.apply(self, lambda t: t.round(decimals=decimals))

    pow_ = _in_place(__pow__)
    remainder_ = _in_place(remainder)
    fmod_ = _in_place(fmod)
    floor_divide_ = _in_place(floor_divide)
    neg_ = _in_place(__neg__)
    reciprocal_ = _in_place(reciprocal)
    exp_, exp2_, expm1_ = _in_place(exp), _in_place(exp2), _in_place(expm1)
    log_, log2_, log10_, log1p_ = _in_place(log), _in_place(log2), _in_place(log10), _in_place(log1p)
    sqrt_, rsqrt_, square_ = _in_place(sqrt), _in_place(rsqrt), _in_place(square)
    sin_, cos_, tan_ = _in_place(sin), _in_place(cos), _in_place(tan)
    asin_, acos_, atan_, atan2_ = _in_place(asin), _in_place(acos), _in_place(atan), _in_place(atan2)
    sinh_, cosh_, tanh_, sigmoid_ = _in_place(sinh), _in_place(cosh), _in_place(tanh), _in_place(sigmoid)
    relu_, abs_, sign_, erf_ = _in_place(relu), _in_place(abs), _in_place(sign), _in_place(erf)
    erfc_, erfinv_, sgn_ = _in_place(erfc), _in_place(erfinv), _in_place(sgn)
    floor_, ceil_, trunc_, frac_ = _in_place(floor), _in_place(ceil), _in_place(trunc), _in_place(frac)
    # PyTorch's other names for them
    subtract_, multiply_, true_divide_, negative_, absolute_, fix_ = sub_, mul_, div_, neg_, abs_, trunc_
    arcsin_, arccos_, arctan_, arctan2_ = asin_, acos_, atan_, atan2_

    def divide_(self, other, *, rounding_mode=None):
        return _inplace.apply(self, lambda t, o: t.div(o, rounding_mode=rounding_mode), other)

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_
    __ipow__ = pow_
    __imod__ = remainder_
    __ifloordiv__ = floor_divide_
