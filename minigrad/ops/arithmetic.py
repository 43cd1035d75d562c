"""Arithmetic: ops of two inputs, element by element (+, *, /, **, %, maximum, where, ...,
xlogy, hypot, copysign, logaddexp2, ldexp, nextafter, heaviside).

Also: Add, AddNumber, Sub, SubNumber, Rsub, Mul, MulNumber, Div, DivNumber, Neg, Pow, Reciprocal
in minigrad/core/ops/arithmetic.py (the core's, imported here).

Inputs may have different shapes: NumPy broadcasts them in forward, and the engine sums a
gradient shaped like the broadcast output back down to each input's shape (and casts it to
the input's dtype), as PyTorch's engine does. So no backward here deals with broadcasting.
"""
import math

import numpy as np

from .._conventions import quiet
from ..core.function import Op
from ..core.ops.arithmetic import (  # noqa: F401 (the core's: minigrad/core/ops/)
    Add, AddNumber, Div, DivNumber, maybe_multiply, Mul, MulNumber, Neg, Pow, Reciprocal, Rsub,
    scaled_sum, Sub, SubNumber)
from ..core.tensor import TensorBase


# ---------------------------------------------------------------------------------------------
# The forms of + - ** beyond the core's (minigrad/core/ops/arithmetic.py): alpha=, x ** y, 2 ** x
# ---------------------------------------------------------------------------------------------


class AddScaled(Op):
    """``a + alpha * b``: ``torch.add(a, b, alpha=)``, one node, as in PyTorch."""
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        ctx.alpha = alpha
        return scaled_sum(a, b, alpha)

    @staticmethod
    def backward(ctx, grad):
        return grad, maybe_multiply(grad, ctx.alpha), None


class SubScaled(Op):
    """``a - alpha * b``: ``torch.sub(a, b, alpha=)``."""
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        ctx.alpha = alpha
        return scaled_sum(a, b, -alpha)

    @staticmethod
    def backward(ctx, grad):
        return grad, maybe_multiply(-grad, ctx.alpha), None


class PowTensor(Op):
    """``x ** y`` with both tensors"""
    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, x, y):
        if x.dtype.kind == "i" and (y < 0).any():  # NumPy refuses; PyTorch computes 1 // x ** -y:
            powers = x ** np.abs(y)                # 0, except for x = 1 or -1
            out = np.where((y >= 0) | (np.abs(x) == 1), powers, 0)
        else:
            out = x ** y
        ctx.save_for_backward(x, y, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, y, out = ctx.saved_tensors
        # PyTorch's where(y == 0, 0, grad * (y * x^(y-1))), with y - 1 as its C++ records it:
        # 0 where y == 0 (not 0 * 0 ** -1 = nan at x = 0)
        grad_x = None
        if ctx.needs_input_grad[0]:
            grad_x = grad.new_zeros(()).where(y == 0, grad * (y * x ** SubNumber.apply(y, 1)))
        # d(x^y)/dy = x^y log x; PyTorch takes it as 0 where x == 0 and y >= 0 (an infinite
        # grad gives nan there, as in PyTorch).
        grad_y = None
        if ctx.needs_input_grad[1]:
            # (x in the result's dtype first: float32 ** float64 records ToCopyBackward0 there)
            grad_y = grad * grad.new_zeros(()).where((x == 0) & (y >= 0), out * x.to(out.dtype).log())
        return grad_x, grad_y


class RPow(Op):
    """``number ** x``"""
    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx, x, base):
        out = np.asarray(base ** x, order="C")  # row by row, whatever x's layout, as PyTorch's
        # x is saved too, though backward needs only out: PyTorch saves both, so changing
        # either in place makes backward fail
        ctx.save_for_backward(x, out)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        dout = MulNumber.apply(out, float(np.log(ctx.base)))  # out * log(base), as PyTorch's
        if ctx.base == 0:  # 0 where x >= 0, as PyTorch's (0 ** x is flat there; not 0 * -inf = nan)
            dout = grad.new_zeros(()).where(x >= 0, dout)
        return grad * dout, None


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------


class RsubTensor(Op):
    """``other - alpha * x``: ``torch.rsub(x, other, alpha=)`` with a tensor ``other``."""
    node_name = "RsubBackward0"

    @staticmethod
    def forward(ctx, x, other, alpha):
        ctx.alpha = alpha
        return scaled_sum(other, x, -alpha)

    @staticmethod
    def backward(ctx, grad):
        return maybe_multiply(-grad, ctx.alpha), grad, None


def _remainder(a, b):
    """``a % b`` with the sign of ``b``, as PyTorch computes it: fmod, moved by b when the signs
    differ; a zero keeps fmod's sign (-2.625 % 0.375 is -0., where NumPy's remainder gives 0.)."""
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((mod < 0) != (np.asarray(b) < 0)), mod + b, mod)


class Remainder(Op):
    """``a % b``: the remainder of floor division, with the sign of ``b`` (Python's)."""
    node_name = "RemainderBackward1"

    @staticmethod
    def forward(ctx, a, b):
        _check_int_division(a, b)
        ctx.save_for_backward(a, b)
        return _remainder(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors  # a % b = a - floor(a / b) * b, and floor is flat
        return grad, -grad * a.div(b, rounding_mode="floor")  # as PyTorch: one node, gradient 0


class RemainderNumber(Op):
    """``a % number``"""
    node_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx, a, number):
        _check_int_division(a, number)
        return _remainder(a, number)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class RemainderOfNumber(Op):
    """``number % x``. PyTorch defines no derivative for it: its node only raises, if reached."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, x, number):
        _check_int_division(x, x)
        return _remainder(number, x)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


class Fmod(Op):
    """``fmod(a, b)``: the remainder of division rounded toward zero, with the sign of ``a`` (C's)."""
    node_name = "FmodBackward1"

    @staticmethod
    def forward(ctx, a, b):
        _check_int_division(a, b)
        ctx.save_for_backward(a, b)
        return np.fmod(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad, -grad * a.div(b, rounding_mode="trunc")  # as PyTorch: one node, gradient 0


class FmodNumber(RemainderNumber):
    node_name = "FmodBackward0"

    @staticmethod
    def forward(ctx, a, number):
        _check_int_division(a, number)
        return np.fmod(a, number)


def _check_int_division(a, b):
    """Integer division by zero: PyTorch raises (a float one gives inf or nan)."""
    if a.dtype.kind in "biu" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")


class DivRounding(Op):
    """``div(a, b, rounding_mode="floor")``: a step function of a and b, so its gradient is 0."""
    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b):
        _check_int_division(a, b)
        return np.floor_divide(a, b)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape), grad.new_zeros(grad.shape)


class DivTrunc(DivRounding):
    """``div(a, b, rounding_mode="trunc")``: the quotient rounded toward zero."""
    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b):
        _check_int_division(a, b)
        return np.trunc(np.true_divide(a, b)).astype(np.result_type(a, b))


class FloorDivide(Op):
    """``a // b``. PyTorch defines no derivative for it: its node only raises, if reached."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        _check_int_division(a, b)
        return np.floor_divide(a, b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class Atan2(Op):
    """``atan2(a, b)``: the angle of the point (b, a)."""
    node_name = "Atan2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.arctan2(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # 1 / (a² + b²), but 0 where a² + b² is 0 (the origin, or squares that underflow), as
        # PyTorch: the gradient there is 0, not 0 * inf = NaN
        squares = a * a + b * b
        recip = squares.reciprocal().masked_fill(squares == 0, 0.0)
        return grad * b * recip, grad * -a * recip


def _lerp(start, end, weight):
    """As PyTorch computes it: from the nearer end, so that weight 1 gives ``end`` exactly (and
    an infinite ``start`` does not turn ``end`` into NaN)."""
    return np.where(np.abs(weight) < 0.5, start + weight * (end - start), end - (end - start) * (1 - weight))


class Lerp(Op):
    """``start + weight * (end - start)`` with a number as weight."""
    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.weight = weight
        return _lerp(start, end, weight)

    @staticmethod
    def backward(ctx, grad):
        w = ctx.weight
        return grad * (1 - w), grad * w, None


class LerpTensor(Op):
    """``start + weight * (end - start)`` with a tensor as weight."""
    node_name = "LerpBackward1"

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.save_for_backward(start, end, weight)
        return _lerp(start, end, weight)

    @staticmethod
    def backward(ctx, grad):
        start, end, weight = ctx.saved_tensors
        return grad * (1 - weight), grad * weight, grad * (end - start)


class Addcmul(Op):
    """``input + value * tensor1 * tensor2`` in one op (Adam's ``v.addcmul_(g, g, value=1 - b2)``)."""
    node_name = "AddcmulBackward0"

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        ctx.save_for_backward(t1 if ctx.needs_input_grad[2] else None,
                              t2 if ctx.needs_input_grad[1] else None)
        ctx.value = value
        return x + value * t1 * t2  # PyTorch's order of operations, so the same rounding

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        v = ctx.value
        return (grad,  # (tensor * value as C++ records it: MulBackward1)
                grad * MulNumber.apply(t2, v) if ctx.needs_input_grad[1] else None,
                grad * MulNumber.apply(t1, v) if ctx.needs_input_grad[2] else None, None)


class Addcdiv(Op):
    """``input + value * tensor1 / tensor2`` in one op (Adam's ``p.addcdiv_(m, denom, value=-lr)``)."""
    node_name = "AddcdivBackward0"

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        ctx.save_for_backward(t1 if ctx.needs_input_grad[2] else None, t2)
        ctx.value = value
        return x + value * t1 / t2

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        v = ctx.value
        # as derivatives.yaml writes them, C++'s ``value / t2`` a tensor of value over t2 (DivBackward0)
        return (grad,
                grad * (t2.new_full((), v) / t2) if ctx.needs_input_grad[1] else None,
                -grad * (MulNumber.apply(t1, v) / (t2 * t2)) if ctx.needs_input_grad[2] else None, None)


class Logaddexp(Op):
    """``log(exp(a) + exp(b))``, computed without overflow."""
    node_name = "LogaddexpBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.logaddexp(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # d/da = exp(a) / (exp(a) + exp(b)) = 1 / (1 + exp(b - a)): PyTorch's form, whose own
        # derivative is NaN where exp(b - a) is inf or 0 (sigmoid's would give 0 there)
        return grad / (1 + (b - a).exp()), grad / (1 + (a - b).exp())


# ---------------------------------------------------------------------------------------------
# Choosing between inputs
# ---------------------------------------------------------------------------------------------


class Maximum(Op):
    node_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.maximum(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # As PyTorch (derivatives.yaml): split in half where both are equal, 0 for the smaller
        # one; where either is NaN (so the result is), both get the whole gradient.
        return (_tie_split(grad, a, b, a < b) if ctx.needs_input_grad[0] else None,
                _tie_split(grad, a, b, a > b) if ctx.needs_input_grad[1] else None)


class Where(Op):
    node_name = "WhereBackward0"
    _non_differentiable = (0,)  # the condition (a bool tensor or array)

    @staticmethod
    def forward(ctx, condition, a, b):
        ctx.save_for_backward(condition)
        return np.where(condition, a, b)

    @staticmethod
    def backward(ctx, grad):
        condition, = ctx.saved_tensors
        # PyTorch's where(c, grad, 0) and where(c, 0, grad): the zero a 0-d tensor, no graph input
        zero = grad.new_zeros(())
        return None, grad.where(condition, zero), zero.where(condition, grad)


class Minimum(Op):
    node_name = "MinimumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.minimum(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (_tie_split(grad, a, b, a > b) if ctx.needs_input_grad[0] else None,  # as maximum
                _tie_split(grad, a, b, a < b) if ctx.needs_input_grad[1] else None)


def _tie_split(grad, a, b, loses):
    """One input's gradient of maximum or minimum as PyTorch writes it,
    ``where(a == b, grad / 2, grad).masked_fill_(loses, 0)`` (DivBackward1, WhereBackward0,
    MaskedFillBackward0 with create_graph), once per input; ``loses``: where the input lost."""
    return DivNumber.apply(grad, 2).where(a == b, grad).masked_fill(loses, 0.0)


class Fmax(Op):
    """``maximum`` that ignores NaN: the other value wins. A tie goes to ``a`` whole."""
    node_name = "FmaxBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.fmax(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        a_wins = (a >= b) | b.isnan()
        return grad.where(a_wins, 0.0), grad.where(~a_wins, 0.0)


class Fmin(Op):
    node_name = "FminBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.fmin(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        a_wins = (a <= b) | b.isnan()
        return grad.where(a_wins, 0.0), grad.where(~a_wins, 0.0)


class ClampTensor(Op):
    """``x.clamp(min, max)`` with tensor bounds (either may be None): ``min(max(x, min), max)``."""
    node_name = "ClampBackward0"

    @staticmethod
    def forward(ctx, x, lo, hi, both):  # a missing bound comes as -inf or inf (both: none missing)
        ctx.save_for_backward(x, lo, hi)
        ctx.both = both
        return np.minimum(np.maximum(x, lo), hi)

    @staticmethod
    def backward(ctx, grad):
        x, lo, hi = ctx.saved_tensors
        # Each element's gradient goes to whichever of x, min, max it came from; where
        # min > max the result is max, as PyTorch has it. With one bound, PyTorch does not
        # compare it with the other (a min of inf still gets the gradient where x < inf).
        keep = (x >= lo) & (x <= hi)
        from_lo, from_hi = (x < lo), (x > hi)
        if ctx.both:
            from_lo, from_hi = from_lo & (lo < hi), from_hi | (lo > hi)
        return grad.where(keep, 0.0), grad.where(from_lo, 0.0), grad.where(from_hi, 0.0), None


# ---------------------------------------------------------------------------------------------
# Of two tensors, beyond + - * /: kl_div's t log t (xlogy), hypot, copysign, logaddexp2, ...
# ---------------------------------------------------------------------------------------------

@quiet
def xlogy(x, y):
    """``x * log(y)`` of arrays, 0 where x is 0 (but NaN where y is NaN, as PyTorch's)."""
    return np.where((x == 0) & (y == y), 0, x * np.log(y)).astype(np.result_type(x, y), copy=False)


class Xlogy(Op):
    """``x * log(y)``, taken as 0 where ``x`` is 0 (even where ``y`` is 0 too): kl_div's
    ``t log t`` for a target probability of 0."""
    node_name = "XlogyBackward0"

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return xlogy(x, y)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        # PyTorch's: xlogy(grad, y), 0 where x = 0 and y <= 0 (log y is -inf or NaN there)
        grad_x = Xlogy.apply(grad, y).masked_fill((x == 0).logical_and(y <= 0), 0) if ctx.needs_input_grad[0] else None
        return grad_x, grad * x / y if ctx.needs_input_grad[1] else None


class XlogyNumber(Op):
    """``x.xlogy(number)``: Xlogy with a number for y (XlogyBackward2)."""
    node_name = "XlogyBackward2"

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x)
        ctx.y = y
        return xlogy(x, np.asarray(y, x.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        slope = Xlogy.apply(grad, TensorBase._wrap(np.asarray(ctx.y, grad._data.dtype)))
        return (slope if ctx.y > 0 else slope.masked_fill(x == 0, 0)), None


class NumberXlogy(Op):
    """``torch.xlogy(number, y)`` (XlogyBackward1): only y has a gradient."""
    node_name = "XlogyBackward1"

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(y)
        ctx.x = x
        return xlogy(np.asarray(x, y.dtype), y)

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return None, grad * ctx.x / y


class Hypot(Op):
    """``sqrt(a^2 + b^2)``, without overflow for large a or b."""
    node_name = "HypotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        out = np.hypot(a, b)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        return (grad * a / out if ctx.needs_input_grad[0] else None,
                grad * b / out if ctx.needs_input_grad[1] else None)


class Copysign(Op):
    """``|a|`` with the sign of ``b``: its slope in a is +-1; flat in b."""
    node_name = "CopysignBackward0"

    @staticmethod
    def forward(ctx, a, b):
        out = np.copysign(a, b)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        # PyTorch's copysign_tensor_self_backward: out / a (+-1), 0 where a is 0
        grad_a = grad * (out / a).masked_fill(a == 0, 0) if ctx.needs_input_grad[0] else None
        return grad_a, grad.new_zeros(grad.shape) if ctx.needs_input_grad[1] else None


class CopysignNumber(Op):
    """``a.copysign(number)`` (CopysignBackward1)."""
    node_name = "CopysignBackward1"

    @staticmethod
    def forward(ctx, a, b):
        out = np.copysign(a, np.asarray(b, a.dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        return grad * (out / a).masked_fill(a == 0, 0), None


class Logaddexp2(Op):
    """``log2(2^a + 2^b)``, without overflow."""
    node_name = "Logaddexp2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.logaddexp2(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad / (1 + 2 ** (b - a)) if ctx.needs_input_grad[0] else None,
                grad / (1 + 2 ** (a - b)) if ctx.needs_input_grad[1] else None)


class Ldexp(Op):
    """``x * 2^e``."""
    node_name = "LdexpBackward0"

    @staticmethod
    def forward(ctx, x, e):
        ctx.save_for_backward(x, e)
        return (x * np.exp2(e)).astype(np.result_type(x, e) if e.dtype.kind == "f" else x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, e = ctx.saved_tensors
        return (grad * 2 ** e if ctx.needs_input_grad[0] else None,
                grad * x * math.log(2) * 2 ** e if ctx.needs_input_grad[1] else None)


class Nextafter(Op):
    """The next float after ``a`` towards ``b``: PyTorch passes the gradient to a unchanged
    (the step is one unit in the last place), but not where a = b (there the result is b),
    and gives b zeros."""
    node_name = "NextafterBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.nextafter(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad.where(a != b, 0.0) if ctx.needs_input_grad[0] else None,
                grad.new_zeros(grad.shape) if ctx.needs_input_grad[1] else None)


class Heaviside(Op):
    """The step: 0 below 0, 1 above, ``values`` at 0. PyTorch defines no derivative for it:
    its node only raises, if reached."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, x, values):
        return np.where(x == 0, values, x > 0).astype(np.result_type(x, values), copy=False)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::heaviside is not implemented")


class HeavisideInplace(Heaviside):
    node_name = "NotImplemented"

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::heaviside_ is not implemented")
