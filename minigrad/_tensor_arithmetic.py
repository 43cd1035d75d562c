"""The Tensor's arithmetic: operators and functions of two tensors (or a tensor and a
number), element by element (add, mul, pow, maximum, lerp, logaddexp, hypot, xlogy, ...),
and their in-place forms; also zero_, fill_, copy_.

Functions of one tensor are in _tensor_pointwise.py; comparisons, logic and bitwise operators
in _tensor_logic.py. The helpers at the top (_as_tensor, _binary, _in_dtype, _floating,
_in_place) are shared by the other mixins.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/arithmetic.py`` (the core's Add, Mul, Div, ... are in
minigrad/core/ops/arithmetic.py). This module sits below the Tensor class and reaches it only
through ``core.tensor.TensorBase``.
"""
import functools
import math
import numbers

import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import ADDCDIV_INTEGER, check_broadcast, check_matmul_dtypes, check_tensors
from .core import graph as _graph
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
    t = TensorBase._wrap(np.asarray(x, dtype=dtype.np))
    if _graph._stack and not isinstance(x, np.ndarray):  # a "wrapped number", see _binary
        t._wrapped_number = True
    return t


def _binary(op, a, b, alpha=None):
    """Promote both operands to their common dtype (PyTorch's rules), then apply ``op``
    (``alpha``: add's and sub's factor on b, for the ops that take one)."""
    dt = None
    if isinstance(b, TensorBase) and a._data.dtype == b._data.dtype:
        pass  # the common case: nothing to promote
    elif type(b) is float and a._data.dtype.kind == "f":  # x * 0.5: made quick too
        b = TensorBase._wrap(np.array(b, a._data.dtype))
        if _graph._stack:  # a "wrapped number": PyTorch's nodes save it past saved_tensors_hooks
            b._wrapped_number = True
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


def rsub(input, other, alpha=1):
    """``torch.rsub(input, other, alpha=)``: ``other - alpha * input``, one node (RsubBackward0; 1 for a number)."""
    other = _dtype.python_number(other)
    _check_bool_sub(input, other)
    alpha = _alpha(alpha, input, other, "rsub")
    if isinstance(other, numbers.Number):
        return ops.Rsub.apply(_as_tensor(input, _dtype.result_type(input, other)), other, alpha)
    if isinstance(other, TensorBase):
        check_broadcast(other._data.shape, input._data.shape)  # PyTorch's words name other as tensor a
    return _binary(ops.RsubTensor, input, other, alpha)


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


def _check_ndim(arg, t, ndim):
    if t._data.ndim != ndim:
        raise RuntimeError(f"{arg} must be a {'matrix' if ndim == 2 else '3D tensor'}")


def _in_place(method):
    """``x.sin_()`` from ``x.sin()``: compute out of place, then write into ``x`` (_inplace.py)."""
    def method_(self, *args, **kwargs):  # (keywords as the method takes them: x.logit_(eps=0.1))
        return _inplace.apply(self, functools.partial(method, **kwargs) if kwargs else method, *args)
    method_.__name__ = method.__name__.strip("_") + "_"
    return method_


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


class ArithmeticMixin:
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
        if a._data.ndim == 2 and b._data.ndim >= 3 and a.requires_grad:
            return _matmul_folded(a, b)
        if a._data.ndim == 3 and b._data.ndim == 3 and a.shape[0] != b.shape[0]:
            # PyTorch drops a batch of one that requires grad, to multiply without broadcasting
            if a.shape[0] == 1 and a.requires_grad:
                return a.squeeze(0) @ b
            if b.shape[0] == 1 and b.requires_grad:
                return a @ b.squeeze(0)
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
        return _inplace.apply(self, ArithmeticMixin.add, other, ufunc=np.add, alpha=alpha)

    def sub_(self, other, alpha=1):
        return _inplace.apply(self, ArithmeticMixin.sub, other, ufunc=np.subtract, alpha=alpha)

    def mul_(self, other):
        return _inplace.apply(self, ArithmeticMixin.__mul__, other, ufunc=np.multiply)

    def div_(self, other):
        return _inplace.apply(self, ArithmeticMixin.__truediv__, other, ufunc=np.divide)

    def zero_(self):
        return _inplace.apply(self, ops.Zero.apply, fill=True)

    def fill_(self, value):
        return _inplace.apply(self, ops.Fill.apply, _dtype.scalar_for(value, self.dtype), fill=True)

    def copy_(self, src):
        src = src if isinstance(src, TensorBase) else TensorBase(src)
        check_broadcast(self._data.shape, src._data.shape)
        _inplace._check_shape(np.broadcast_shapes(self._data.shape, src._data.shape), self)  # src may not grow self
        return _inplace.apply(self, ops.Copy.apply, src)

    def lerp_(self, end, weight):
        return _inplace.apply(self, ArithmeticMixin.lerp, end, weight)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return _inplace.apply(self, lambda t, t1, t2: t.addcmul(t1, t2, value=value), tensor1, tensor2)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return _inplace.apply(self, lambda t, t1, t2: t.addcdiv(t1, t2, value=value), tensor1, tensor2)

    pow_ = _in_place(__pow__)
    remainder_ = _in_place(remainder)
    fmod_ = _in_place(fmod)
    floor_divide_ = _in_place(floor_divide)
    neg_ = _in_place(__neg__)
    atan2_ = _in_place(atan2)
    # PyTorch's other names for them
    subtract_, multiply_, true_divide_, negative_ = sub_, mul_, div_, neg_
    arctan2_ = atan2_

    def divide_(self, other, *, rounding_mode=None):
        return _inplace.apply(self, lambda t, o: t.div(o, rounding_mode=rounding_mode), other)

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_
    __ipow__ = pow_
    __imod__ = remainder_
    __ifloordiv__ = floor_divide_

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
        return _inplace.apply(self, ArithmeticMixin.float_power, exponent)

    def heaviside_(self, values):
        return _inplace.apply(self, lambda t, v: t.heaviside(v, ops.HeavisideInplace), values)

    ldexp_, hypot_, nextafter_, xlogy_ = _in_place(ldexp), _in_place(hypot), _in_place(nextafter), _in_place(xlogy)

    copysign_, gcd_, lcm_ = _in_place(copysign), _in_place(gcd), _in_place(lcm)

    def where(self, condition, other):
        """This tensor where ``condition`` holds, else ``other`` (a tensor or a number)."""
        dt = _dtype.result_type(self, other)
        if not isinstance(condition, TensorBase):  # (a tensor: the node keeps it, as PyTorch's)
            condition = TensorBase._wrap(np.asarray(condition))
        if condition._data.dtype != np.bool_:
            raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with "
                               f"dtype {condition.dtype.legacy_name}")
        other = _dtype.scalar_for(other, dt)  # (a number that does not fit: PyTorch's error)
        try:
            return _in_dtype(ops.Where.apply(condition, _as_tensor(self, dt), _as_tensor(other, dt)), dt)
        except ValueError:  # NumPy's words for shapes that do not broadcast; PyTorch's instead:
            check_broadcast(condition.shape, self._data.shape)
            check_broadcast(np.broadcast_shapes(condition.shape, self._data.shape), np.shape(other))
            raise


def _matmul_folded(a, b):
    """A matrix that requires grad times a batch, as PyTorch computes it (``should_fold`` in
    aten/src/ATen/native/LinearAlgebra.cpp): on the transposes, the batch folded into the rows
    of one ``mm``, ``(b^T a^T)^T``, copied to be contiguous. Its graph is PyTorch's:
    CloneBackward0, TransposeBackward0, UnsafeViewBackward0, MmBackward0."""
    t1 = b.mT
    if t1._data.dtype != a._data.dtype:
        check_matmul_dtypes(t1.dtype, a.dtype, 2, 2)
    shape = t1.shape[:-1]
    out = t1.reshape(math.prod(shape), t1.shape[-1]).mm(a.t())
    return ops.UnsafeView.apply(out, (*shape, a.shape[0])).mT.contiguous()

