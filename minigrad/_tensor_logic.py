"""The Tensor's comparisons, logic and bitwise operators: ``==``, ``<``, ``&``, ``logical_and``,
isnan, isinf, signbit, isclose, ...

``class Tensor`` (minigrad/_tensor.py) inherits these methods. They give bool tensors (or
integer bits) and are not differentiable (``where`` is: _tensor_arithmetic.py); their in-place
forms in a graph record the nodes of minigrad/ops/logic.py. This
module sits below the Tensor class and reaches it only through ``autograd.TensorBase``.
"""
import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import check_broadcast
from ._conventions import check_tensors
from ._tensor_arithmetic import _as_tensor, _in_place
from .core import grad_mode
from .core.tensor import TensorBase


class LogicMixin:
    __slots__ = ()

    # -- comparisons (not differentiable: they give bool tensors) ----------------------------
    def _compare(self, other, fn):
        other = other._data if isinstance(other, TensorBase) else other
        other = _dtype.wrapped(other, self.dtype)  # as PyTorch's: uint8 > -1 compares with 255
        try:
            return TensorBase._wrap(np.asarray(fn(self._data, other)))
        except ValueError:  # NumPy's words for shapes that do not broadcast; PyTorch's instead
            check_broadcast(self._data.shape, np.shape(other))
            raise

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """``|self - other| <= atol + rtol * |other|`` element by element, as PyTorch computes
        it: equal values (infinities too) are close; NaN only to NaN, with ``equal_nan``."""
        check_tensors("isclose", 1, other=other)
        if self.dtype is not other.dtype:
            raise RuntimeError(f"{self.dtype.legacy_name} did not match {other.dtype.legacy_name}")
        for name, tol in (("rtol", rtol), ("atol", atol)):
            if tol < 0:
                raise RuntimeError(f"{name} must be greater than or equal to zero, but got {tol}")
        a, b = self._data, other._data
        check_broadcast(a.shape, b.shape)
        close = a == b
        if equal_nan and a.dtype.kind == "f":
            close |= np.isnan(a) & np.isnan(b)
        if rtol or atol:
            if a.dtype.kind != "f":  # integers and bools: the error in the default float dtype
                a, b = (x.astype(_dtype.get_default_dtype().np) for x in (a, b))
            with np.errstate(invalid="ignore"):  # inf - inf: NaN, which is not finite
                error = np.abs(a - b)
            close |= np.isfinite(error) & (error <= atol + np.abs(rtol * b))
        return TensorBase._wrap(np.asarray(close))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        check_tensors("allclose", 1, other=other)
        return bool(self.isclose(other, rtol, atol, equal_nan)._data.all())

    def equal(self, other):
        """True if both have the same shape and the same values (NaN equals nothing)."""
        check_tensors("equal", 1, other=other)
        return self._data.shape == other._data.shape and bool((self._data == other._data).all())

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

    def _bitwise(self, name, fn, other):
        """``&``, ``|``, ``^`` in the operands' common dtype by PyTorch's promotion, not NumPy's
        (int32 & a 0-d int64 is int32; a bool tensor & an int tensor works bit by bit)."""
        dt = _dtype.result_type(self, other)
        if dt.is_floating_point:  # a float operand: PyTorch names the common dtype
            raise NotImplementedError(f'"bitwise_{name}_cpu" not implemented for \'{dt.legacy_name}\'')
        return _as_tensor(self, dt)._compare(_as_tensor(other, dt), fn)

    def __and__(self, other):
        return self._bitwise("and", np.bitwise_and, other)

    def __or__(self, other):
        return self._bitwise("or", np.bitwise_or, other)

    def __invert__(self):
        if self.dtype.is_floating_point:  # (bools and integers only, as &, |, ^ below)
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return TensorBase._wrap(np.logical_not(self._data) if self.dtype is _dtype.bool else ~self._data)

    def __xor__(self, other):
        return self._bitwise("xor", np.bitwise_xor, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__
    bitwise_and, bitwise_or, bitwise_xor = __and__, __or__, __xor__

    def bitwise_not(self):
        if self.dtype.is_floating_point:  # (the kernel's error; ``~x`` has its own words, above)
            raise NotImplementedError(f'"bitwise_not_cpu" not implemented for \'{self.dtype.legacy_name}\'')
        return ~self

    def _shift(self, name, other, left):
        """``self << other`` or ``>>``, in the common dtype, as PyTorch's kernels shift: by
        a count outside [0, bits), a left shift gives 0 and a right shift the sign (0 or -1)
        where C (and NumPy) leave the result undefined."""
        other = _dtype.python_number(other)
        dt = _dtype.result_type(self, other)
        if dt.is_floating_point or dt is _dtype.bool:
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{dt.legacy_name}\'')
        a, b = _as_tensor(self, dt)._data, _as_tensor(other, dt)._data
        check_broadcast(a.shape, b.shape)
        bits = a.dtype.itemsize * 8
        outside = (b < 0) | (b >= bits)
        count = np.where(outside, 0, b).astype(dt.np)
        if left:
            out = np.where(outside, np.zeros((), dt.np), np.left_shift(a, count))
        else:
            out = np.where(outside, np.where(a < 0, -1, 0).astype(dt.np), np.right_shift(a, count))
        return TensorBase._wrap(np.asarray(out, dt.np))

    def __lshift__(self, other):
        return self._shift("lshift", other, True)

    def __rshift__(self, other):
        return self._shift("rshift", other, False)

    def __rlshift__(self, other):
        return _as_tensor(other, _dtype.result_type(self, other))._shift("lshift", self, True)

    def __rrshift__(self, other):
        return _as_tensor(other, _dtype.result_type(self, other))._shift("rshift", self, False)

    bitwise_left_shift, bitwise_right_shift = __lshift__, __rshift__

    # -- in-place forms: the result is written in self's dtype (``x.eq_(y)`` keeps x a float tensor)
    def _compare_(self, other, fn, number_op, tensor_op):
        """``eq_`` and the others: in a graph, PyTorch records a node whose gradient is 0."""
        def method(t, o):
            out = t._compare(o, fn)
            if not grad_mode._state.enabled or not (t._requires_grad or getattr(o, "_requires_grad", False)):
                return out
            if isinstance(o, TensorBase):
                return tensor_op.apply(t, o, out._data)
            return number_op.apply(t, out._data)
        return _inplace.apply(self, method, other)

    def eq_(self, other):
        return self._compare_(other, np.equal, ops.EqNumber, ops.EqTensor)

    def ne_(self, other):
        return self._compare_(other, np.not_equal, ops.NeNumber, ops.NeTensor)

    def lt_(self, other):
        return self._compare_(other, np.less, ops.LtNumber, ops.LtTensor)

    def le_(self, other):
        return self._compare_(other, np.less_equal, ops.LeNumber, ops.LeTensor)

    def gt_(self, other):
        return self._compare_(other, np.greater, ops.GtNumber, ops.GtTensor)

    def ge_(self, other):
        return self._compare_(other, np.greater_equal, ops.GeNumber, ops.GeTensor)

    greater_, less_, greater_equal_, less_equal_, not_equal_ = gt_, lt_, ge_, le_, ne_
    bitwise_and_, bitwise_or_, bitwise_xor_ = _in_place(__and__), _in_place(__or__), _in_place(__xor__)
    bitwise_not_ = _in_place(bitwise_not)
    bitwise_left_shift_, bitwise_right_shift_ = _in_place(__lshift__), _in_place(__rshift__)
    __iand__, __ior__, __ixor__ = bitwise_and_, bitwise_or_, bitwise_xor_
    __ilshift__, __irshift__ = bitwise_left_shift_, bitwise_right_shift_

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__
    greater, less, greater_equal, less_equal, not_equal = gt, lt, ge, le, ne

    def logical_and(self, other):
        return self._compare(other, np.logical_and)

    def logical_or(self, other):
        return self._compare(other, np.logical_or)

    def logical_xor(self, other):
        return self._compare(other, np.logical_xor)

    def logical_not(self):
        return TensorBase._wrap(np.logical_not(self._data))

    # (not recorded, even in a graph: PyTorch's keep the tensor's grad_fn as it was)
    logical_and_, logical_or_ = _in_place(logical_and), _in_place(logical_or)
    logical_xor_, logical_not_ = _in_place(logical_xor), _in_place(logical_not)

    def isnan(self):
        return TensorBase._wrap(np.isnan(self._data))

    def isinf(self):
        return TensorBase._wrap(np.isinf(self._data))

    def isfinite(self):
        return TensorBase._wrap(np.isfinite(self._data))

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
