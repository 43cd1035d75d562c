"""The Tensor's rarer elementwise functions: inverse hyperbolics, logit, sinc, the gamma
family, i0, hypot, copysign, xlogy, ldexp, frexp, gcd, ... and their in-place forms.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/`` (unary.py, special.py; xlogy's is loss.py's). Integer and bool inputs
are computed in a float dtype, as PyTorch's; the few that have no integer kernel in PyTorch
(hypot, logaddexp2, nextafter) give its error instead.
"""
import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import FrexpResult, check_broadcast
from ._tensor_math import _as_tensor, _floating, _in_dtype, _in_place, check_tensors
from .core.tensor import TensorBase


def _float_pair(op, a, b, kernel=None):
    """``op`` of a and b (a tensor, b a tensor or a number) in their common dtype, a float:
    integers and bools are computed in the default float dtype (xlogy, copysign, ldexp), or,
    given the C++ ``kernel``'s name, refused as PyTorch does (hypot, logaddexp2, nextafter)."""
    dt = _dtype.result_type(a, b)
    if not dt.is_floating_point:
        if kernel:
            raise NotImplementedError(f'"{kernel}" not implemented for \'{dt.legacy_name}\'')
        dt = _dtype.get_default_dtype()
    a, b = _as_tensor(a, dt), _as_tensor(b, dt)
    try:
        return _in_dtype(op.apply(a, b), dt)
    except ValueError:
        check_broadcast(a._data.shape, b._data.shape)
        raise




class SpecialMixin:
    __slots__ = ()

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

    def signbit(self):
        return TensorBase._wrap(np.signbit(self._data) if self.dtype is not _dtype.bool
                                     else np.zeros(self._data.shape, bool))

    def isposinf(self):
        return TensorBase._wrap(np.isposinf(self._data) if self.dtype.is_floating_point
                                     else np.zeros(self._data.shape, bool))

    def isneginf(self):
        return TensorBase._wrap(np.isneginf(self._data) if self.dtype.is_floating_point
                                     else np.zeros(self._data.shape, bool))

    def isreal(self):
        return TensorBase._wrap(np.ones(self._data.shape, bool))  # (no complex tensors here)

    def frexp(self):
        """``(mantissa, exponent)`` with ``self = mantissa * 2 ** exponent``, 0.5 <= |mantissa| < 1."""
        if not self.dtype.is_floating_point:
            raise RuntimeError("torch.frexp() only supports floating-point dtypes")
        exponent = TensorBase._wrap(np.frexp(self._data)[1])  # int32, as PyTorch's
        return FrexpResult(ops.Frexp.apply(self), exponent)

    def ldexp(self, other):
        check_tensors("ldexp", 1, other=other)
        if other.dtype.is_floating_point:
            return _float_pair(ops.Ldexp, self, other)
        # An integer exponent stays one: PyTorch's gradient, grad * 2 ** other, is then computed
        # in integers, so a negative exponent's is 0 (as 2 ** -1 is 0 in integers).
        dt = _dtype.result_type(self, other)
        x = _as_tensor(self, dt if dt.is_floating_point else _dtype.get_default_dtype())
        check_broadcast(x._data.shape, other._data.shape)
        return ops.Ldexp.apply(x, other)

    def hypot(self, other):
        check_tensors("hypot", 1, other=other)
        return _float_pair(ops.Hypot, self, other, "hypot_cpu")

    def logaddexp2(self, other):
        check_tensors("logaddexp2", 1, other=other)
        return _float_pair(ops.Logaddexp2, self, other, "logaddexp2_cpu")

    def nextafter(self, other):
        check_tensors("nextafter", 1, other=other)
        return _float_pair(ops.Nextafter, self, other, "nextafter_cpu")

    def xlogy(self, other):
        """``self * log(other)``, 0 where self is 0 (unless other is NaN)."""
        other = _dtype.python_number(other)
        if isinstance(other, TensorBase):
            return _float_pair(ops.Xlogy, self, other)
        dt = _dtype.result_type(self, other)
        dt = dt if dt.is_floating_point else _dtype.get_default_dtype()
        return _in_dtype(ops.XlogyNumber.apply(_as_tensor(self, dt), other), dt)

    def copysign(self, other):
        other = _dtype.python_number(other)
        if isinstance(other, TensorBase):
            return _float_pair(ops.Copysign, self, other)
        x = _floating(self)
        return ops.CopysignNumber.apply(_as_tensor(x, _dtype.result_type(x, other)), other)

    def float_power(self, exponent):
        """``self ** exponent`` in float64, whatever the dtypes (PyTorch's PowBackward0/1 of ``.double()``)."""
        exponent = _dtype.python_number(exponent)
        if isinstance(exponent, TensorBase):
            return self.double() ** exponent.double()
        return self.double() ** exponent

    def heaviside(self, values, op=ops.Heaviside):
        """0 where self < 0, 1 where self > 0, ``values`` where self is 0 (no derivative)."""
        check_tensors("heaviside", 1, values=values)
        if values.dtype is not self.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        try:
            return op.apply(*(t if t._requires_grad else t._data for t in (self, values)))
        except ValueError:
            check_broadcast(self._data.shape, values._data.shape)
            raise

    def gcd(self, other):
        return self._integer_pair("gcd", np.gcd, other)

    def lcm(self, other):
        return self._integer_pair("lcm", np.lcm, other)

    def _integer_pair(self, name, fn, other):
        check_tensors(name, 1, other=other)
        dt = _dtype.result_type(self, other)
        if dt.is_floating_point or dt is _dtype.bool:
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{dt.legacy_name}\'')
        check_broadcast(self._data.shape, other._data.shape)
        return TensorBase._wrap(np.asarray(fn(self._data.astype(dt.np), other._data.astype(dt.np))))

    def float_power_(self, exponent):
        if self.dtype is not _dtype.float64:  # the result is float64: only a float64 tensor can hold it
            raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype.legacy_name} but the "
                               "operation's result requires dtype Double")
        return _inplace.apply(self, SpecialMixin.float_power, exponent)

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

    def heaviside_(self, values):
        return _inplace.apply(self, lambda t, v: t.heaviside(v, ops.HeavisideInplace), values)

    arcsinh_, arccosh_, arctanh_ = asinh_, acosh_, atanh_
    deg2rad_, rad2deg_, logit_, sinc_ = _in_place(deg2rad), _in_place(rad2deg), _in_place(logit), _in_place(sinc)
    lgamma_, digamma_, i0_ = _in_place(lgamma), _in_place(digamma), _in_place(i0)
    ldexp_, hypot_, nextafter_, xlogy_ = _in_place(ldexp), _in_place(hypot), _in_place(nextafter), _in_place(xlogy)
    copysign_, gcd_, lcm_ = _in_place(copysign), _in_place(gcd), _in_place(lcm)
