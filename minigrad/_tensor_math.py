"""The Tensor's arithmetic: operators, comparisons, elementwise functions and their in-place forms.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/``. This module sits below the Tensor class and reaches it only
through ``autograd.function.Tensor``.
"""
import numbers

import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import check_broadcast
from .autograd import function


def _as_tensor(x, dtype):
    """A Python number (or array) as a 0-d tensor of ``dtype``: the other operand of ``x + 1``."""
    if isinstance(x, function.Tensor):
        if x.dtype is dtype:
            return x
        if x._requires_grad:
            return x  # float32 meeting float64: the op itself promotes (no extra node, as in PyTorch)
        return function.Tensor._wrap(x._data.astype(dtype.np))
    return function.Tensor._wrap(np.asarray(x, dtype=dtype.np))


def _binary(op, a, b):
    """Promote both operands to their common dtype (PyTorch's rules), then apply ``op``."""
    dt = None
    if type(b) is float and a._data.dtype.kind == "f":  # x * 0.5: the common case, made quick
        b = function.Tensor._wrap(np.array(b, a._data.dtype))
    elif not (isinstance(b, function.Tensor) and a._data.dtype == b._data.dtype):
        if not isinstance(b, (function.Tensor, numbers.Number, np.ndarray)):
            return NotImplemented
        dt = _dtype.result_type(a, b)
        a, b = _as_tensor(a, dt), _as_tensor(b, dt)
    try:
        out = op.apply(a, b)
    except ValueError:
        check_broadcast(a._data.shape, b._data.shape)
        raise
    if dt is not None and out._data.dtype != dt.np:  # NumPy ranks a 0-d float64 above a
        out._data = out._data.astype(dt.np)         # float32 tensor; PyTorch does not
    return out


def _floating(x):
    """Inputs of exp, log, ... : integers are computed as float32, as in PyTorch."""
    return x if x.dtype.is_floating_point else function.Tensor._wrap(x._data.astype(np.float32))



class MathMixin:
    __slots__ = ()

    # -- arithmetic ----------------------------------------------------------------------------
    def __add__(self, other):
        return _binary(ops.Add, self, other)

    __radd__ = __add__

    def __sub__(self, other):
        return _binary(ops.Sub, self, other)

    def __rsub__(self, other):
        if isinstance(other, numbers.Number):
            dt = _dtype.result_type(self, other)
            return ops.Rsub.apply(_as_tensor(self, dt), other)
        return _binary(ops.Sub, _as_tensor(other, self.dtype), self)

    def __mul__(self, other):
        return _binary(ops.Mul, self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return _binary(ops.Div, _floating(self), other)  # int / int is a float, as in PyTorch

    def __rtruediv__(self, other):
        return self.reciprocal() * other  # PyTorch computes 2 / x as x.reciprocal() * 2

    def __pow__(self, exponent):
        if isinstance(exponent, function.Tensor):
            return _binary(ops.PowTensor, self, exponent)
        if isinstance(exponent, float) and not self.dtype.is_floating_point:
            return ops.Pow.apply(_floating(self), exponent)
        return ops.Pow.apply(self, exponent)

    def __rpow__(self, base):
        return ops.RPow.apply(_floating(self) if isinstance(base, float) else self, base)

    def __matmul__(self, other):
        a, b = (self, other) if self._data.dtype == other._data.dtype else (
            _as_tensor(self, _dtype.result_type(self, other)),
            _as_tensor(other, _dtype.result_type(self, other)))
        return ops.matmul_op(a._data.ndim, b._data.ndim).apply(a, b)

    def __rmatmul__(self, other):
        return function.Tensor._wrap(np.asarray(other)) @ self

    def __neg__(self):
        return ops.Neg.apply(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    def reciprocal(self):
        return ops.Reciprocal.apply(_floating(self))

    def add(self, other, *, alpha=1):
        return self + (other if alpha == 1 else other * alpha)

    def sub(self, other, *, alpha=1):
        return self - (other if alpha == 1 else other * alpha)

    mul = __mul__
    div = __truediv__
    pow = __pow__
    matmul = __matmul__
    neg = __neg__

    def mm(self, other):
        return self @ other

    # -- comparisons (not differentiable: they give bool tensors) ----------------------------
    def _compare(self, other, fn):
        other = other._data if isinstance(other, function.Tensor) else other
        return function.Tensor._wrap(np.asarray(fn(self._data, other)))

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    def __and__(self, other):
        return self._compare(other, np.logical_and if self.dtype is _dtype.bool else np.bitwise_and)

    def __or__(self, other):
        return self._compare(other, np.logical_or if self.dtype is _dtype.bool else np.bitwise_or)

    def __invert__(self):
        return function.Tensor._wrap(np.logical_not(self._data) if self.dtype is _dtype.bool else ~self._data)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def where(self, condition, other):
        """This tensor where ``condition`` holds, else ``other`` (a tensor or a number)."""
        dt = _dtype.result_type(self, other)
        cond = condition._data if isinstance(condition, function.Tensor) else np.asarray(condition)
        return ops.Where.apply(cond, _as_tensor(self, dt), _as_tensor(other, dt))

    # -- elementwise functions -----------------------------------------------------------------
    def exp(self):
        return ops.Exp.apply(_floating(self))

    def log(self):
        return ops.Log.apply(_floating(self))

    def sqrt(self):
        return ops.Sqrt.apply(_floating(self))

    def abs(self):
        return ops.Abs.apply(self)

    def sign(self):
        return ops.Sign.apply(self)

    def relu(self):
        return ops.Relu.apply(self)

    def sigmoid(self):
        return ops.Sigmoid.apply(_floating(self))

    def tanh(self):
        return ops.Tanh.apply(_floating(self))

    def clamp(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        return ops.Clamp.apply(self, min, max)

    clip = clamp

    def maximum(self, other):
        return _binary(ops.Maximum, self, other)

    # -- in-place ops --------------------------------------------------------------------------
    def add_(self, other, alpha=1):
        return _inplace.apply(self, MathMixin.__add__, other if alpha == 1 else other * alpha, ufunc=np.add)

    def sub_(self, other, alpha=1):
        return _inplace.apply(self, MathMixin.__sub__, other if alpha == 1 else other * alpha, ufunc=np.subtract)

    def mul_(self, other):
        return _inplace.apply(self, MathMixin.__mul__, other, ufunc=np.multiply)

    def div_(self, other):
        return _inplace.apply(self, MathMixin.__truediv__, other, ufunc=np.divide)

    def clamp_(self, min=None, max=None):
        return _inplace.apply(self, MathMixin.clamp, min, max)

    def relu_(self):
        return _inplace.apply(self, MathMixin.relu)

    def zero_(self):
        return _inplace.apply(self, ops.Zero.apply)

    def fill_(self, value):
        return _inplace.apply(self, ops.Fill.apply, value)

    def copy_(self, src):
        return _inplace.apply(self, ops.Copy.apply, src if isinstance(src, function.Tensor) else function.Tensor(src))

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_

