"""The Tensor's pointwise methods: functions of one tensor, element by element (exp, log, sin,
tanh, floor, clamp, lgamma, logit, ...) and their in-place forms.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/pointwise.py`` (the core's Exp, Log, Relu, ... are in
minigrad/core/ops/elementwise.py). Integer and bool inputs of the non-polynomial ones are
computed in the default float dtype, as PyTorch's.
"""
import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import C_NAMES, FrexpResult, check_broadcast, float_only
from ._tensor_arithmetic import _as_tensor, _floating, _in_dtype, _in_place
from .core.tensor import TensorBase


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


class PointwiseMixin:
    __slots__ = ()

    def reciprocal(self):
        return ops.Reciprocal.apply(_floating(self))

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

    # -- in-place forms ------------------------------------------------------------------------
    # Each computes out of place and writes the result into this tensor (see _inplace.py).
    def clamp_(self, min=None, max=None):
        _promoted(self, min, max, in_place=True)
        return _inplace.apply(self, PointwiseMixin.clamp, min, max)

    clip_ = clamp_

    def clamp_min_(self, min):
        _promoted(self, min=min, in_place=True)
        return _inplace.apply(self, PointwiseMixin.clamp_min, min)

    def clamp_max_(self, max):
        _promoted(self, max=max, in_place=True)
        return _inplace.apply(self, PointwiseMixin.clamp_max, max)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return _inplace.apply(self, PointwiseMixin.nan_to_num, nan, posinf, neginf)

    def round_(self, *, decimals=0):
        return _inplace.apply(self, lambda t: t.round(decimals=decimals))

    reciprocal_ = _in_place(reciprocal)
    exp_, exp2_, expm1_ = _in_place(exp), _in_place(exp2), _in_place(expm1)
    log_, log2_, log10_, log1p_ = _in_place(log), _in_place(log2), _in_place(log10), _in_place(log1p)
    sqrt_, rsqrt_, square_ = _in_place(sqrt), _in_place(rsqrt), _in_place(square)
    sin_, cos_, tan_ = _in_place(sin), _in_place(cos), _in_place(tan)
    asin_, acos_, atan_ = _in_place(asin), _in_place(acos), _in_place(atan)
    sinh_, cosh_, tanh_, sigmoid_ = _in_place(sinh), _in_place(cosh), _in_place(tanh), _in_place(sigmoid)
    relu_, abs_, sign_, erf_ = _in_place(relu), _in_place(abs), _in_place(sign), _in_place(erf)
    erfc_, erfinv_, sgn_ = _in_place(erfc), _in_place(erfinv), _in_place(sgn)
    floor_, ceil_, trunc_, frac_ = _in_place(floor), _in_place(ceil), _in_place(trunc), _in_place(frac)
    # PyTorch's other names for them
    absolute_, fix_ = abs_, trunc_
    arcsin_, arccos_, arctan_ = asin_, acos_, atan_

    def asinh(self):
        return ops.Asinh.apply(_floating(self))

    def acosh(self):
        return ops.Acosh.apply(_floating(self))

    def atanh(self):
        return ops.Atanh.apply(_floating(self))

    arcsinh, arccosh, arctanh = asinh, acosh, atanh

    def deg2rad(self):
        return ops.Deg2Rad.apply(_floating(self))

    def rad2deg(self):
        return ops.Rad2Deg.apply(_floating(self))

    def logit(self, eps=None):
        return ops.Logit.apply(_floating(self), eps)

    def sinc(self):
        return ops.Sinc.apply(_floating(self))

    def lgamma(self):
        return ops.Lgamma.apply(_floating(self))

    def digamma(self):
        return ops.Digamma.apply(_floating(self))

    def polygamma(self, n, op=ops.Polygamma):
        if type(n) is not int:
            raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
        if n < 0:
            raise RuntimeError("polygamma(n, x) does not support negative n.")
        return op.apply(_floating(self), n)

    def i0(self):
        return ops.I0.apply(_floating(self))

    def frexp(self):
        """``(mantissa, exponent)`` with ``self = mantissa * 2 ** exponent``, 0.5 <= |mantissa| < 1."""
        if not self.dtype.is_floating_point:
            raise RuntimeError("torch.frexp() only supports floating-point dtypes")
        exponent = TensorBase._wrap(np.frexp(self._data)[1])  # int32, as PyTorch's
        return FrexpResult(ops.Frexp.apply(self), exponent)

    # -- in-place forms (see _inplace.py): an integer tensor cannot hold a float result
    # (asinh_, acosh_, atanh_, polygamma_ and heaviside_ record nodes of their own, as PyTorch's)
    def asinh_(self):
        return _inplace.apply(self, lambda t: ops.AsinhInplace.apply(_floating(t)))

    def acosh_(self):
        return _inplace.apply(self, lambda t: ops.AcoshInplace.apply(_floating(t)))

    def atanh_(self):
        return _inplace.apply(self, lambda t: ops.AtanhInplace.apply(_floating(t)))

    def polygamma_(self, n):
        return _inplace.apply(self, lambda t: t.polygamma(n, ops.PolygammaInplace))

    arcsinh_, arccosh_, arctanh_ = asinh_, acosh_, atanh_

    deg2rad_, rad2deg_, logit_, sinc_ = _in_place(deg2rad), _in_place(rad2deg), _in_place(logit), _in_place(sinc)

    lgamma_, digamma_, i0_ = _in_place(lgamma), _in_place(digamma), _in_place(i0)
