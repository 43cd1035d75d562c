"""The rarer elementwise functions: the gamma family and Bessel's i0 (SciPy's), and the
functions of two tensors beyond arithmetic: hypot, copysign, logaddexp2, ldexp, frexp,
nextafter, heaviside.

The derivatives are PyTorch's (``derivatives.yaml``): lgamma' is digamma, digamma' is
polygamma(1), polygamma(n)' is polygamma(n + 1), i0' is i1; each is an op of its own here,
so that a second backward is recorded too.
"""
import math

import numpy as np

from ..core.tensor import TensorBase
from ..core.function import Op
from .loss import Xlogy, xlogy
from .unary import _scipy_special


# ---------------------------------------------------------------------------------------------
# The gamma function's logarithm and its derivatives; the modified Bessel functions i0, i1
# ---------------------------------------------------------------------------------------------

class Lgamma(Op):
    """``log|gamma(x)|``: inf at 0 and the negative integers (the poles)."""
    node_name = "LgammaBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        out = _scipy_special("gammaln", x)
        out[x == -np.inf] = np.inf  # |gamma| grows without bound there too (SciPy says -inf)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * Digamma.apply(x)


class Digamma(Op):
    """``d/dx log gamma(x)`` (SciPy's ``psi``): -inf at 0, NaN at the negative integers."""
    node_name = "DigammaBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _scipy_special("psi", x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * Polygamma.apply(x, 1)


class Polygamma(Op):
    """``polygamma(n, x)``: the n-th derivative of digamma (n = 0: digamma itself)."""
    node_name = "PolygammaBackward0"

    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        if n == 0:
            return _scipy_special("psi", x)
        out = _scipy_special("polygamma", x, n)
        if n >= 2:
            out[x == np.inf] = np.nan  # (PyTorch's zeta-based kernel; SciPy says 0)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * Polygamma.apply(x, ctx.n + 1), None


class PolygammaInplace(Polygamma):
    node_name = "PolygammaBackward1"  # (``x.polygamma_(n)``: the same derivative)


class I0(Op):
    """The modified Bessel function of the first kind, of order 0."""
    node_name = "I0Backward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _scipy_special("i0", x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * I1.apply(x)  # i0' = i1


class I1(Op):
    """Order 1 (``torch.special.i1``): i0's derivative."""
    node_name = "SpecialI1Backward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _scipy_special("i1", x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        # i1' = i0 - i1 / x, whose limit at 0 is 1/2 (PyTorch's i1_backward: 0 / 0 avoided
        # with x replaced by eps near 0, as ``where`` differentiates both branches)
        eps = float(np.finfo(x._data.dtype).eps)
        not_tiny = x.abs() > eps
        safe = x.where(not_tiny, eps)
        return grad * (safe.i0() - I1.apply(safe) * safe.reciprocal()).where(not_tiny, 0.5)


# ---------------------------------------------------------------------------------------------
# Of two tensors
# ---------------------------------------------------------------------------------------------

class XlogyNumber(Op):
    """``x.xlogy(number)``: loss.py's Xlogy with a number for y (XlogyBackward2)."""
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


class Frexp(Op):
    """The mantissa m of ``x = m * 2^e`` (0.5 <= |m| < 1); ``ctx.exponent``: e, which has
    no gradient (an int32 tensor, returned beside the mantissa)."""
    node_name = "FrexpBackward0"

    @staticmethod
    def forward(ctx, x):
        mantissa, ctx.exponent = np.frexp(x)
        return mantissa

    @staticmethod
    def backward(ctx, grad):
        # x scaled by 2^-e: that is its slope. (2^e of the int32 exponent is float32, as in
        # PyTorch: 0 below 2^-149, so a float64 x that small gets an infinite gradient there too)
        return grad / TensorBase._wrap(ctx.exponent).exp2()


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


# ---------------------------------------------------------------------------------------------
# In-place comparisons in a graph: ``y.eq_(0.5)`` where y requires grad. PyTorch records a node
# (EqBackward0 for a number, EqBackward1 for a tensor, ...) whose gradient is 0: the result
# is a step function of the inputs. ``out``: the comparison, already made (_tensor_logic.py).
# ---------------------------------------------------------------------------------------------

class CompareNumber(Op):
    @staticmethod
    def forward(ctx, x, out):
        return out.astype(x.dtype)  # (in self's dtype: 1. and 0.)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape), None


class CompareTensor(Op):
    @staticmethod
    def forward(ctx, x, y, out):
        return out.astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        zeros = grad.new_zeros(grad.shape)  # (summed to y's shape, if y was broadcast, by Node.apply)
        return zeros, zeros, None


class EqNumber(CompareNumber):
    node_name = "EqBackward0"


class EqTensor(CompareTensor):
    node_name = "EqBackward1"


class NeNumber(CompareNumber):
    node_name = "NeBackward0"


class NeTensor(CompareTensor):
    node_name = "NeBackward1"


class LtNumber(CompareNumber):
    node_name = "LtBackward0"


class LtTensor(CompareTensor):
    node_name = "LtBackward1"


class LeNumber(CompareNumber):
    node_name = "LeBackward0"


class LeTensor(CompareTensor):
    node_name = "LeBackward1"


class GtNumber(CompareNumber):
    node_name = "GtBackward0"


class GtTensor(CompareTensor):
    node_name = "GtBackward1"


class GeNumber(CompareNumber):
    node_name = "GeBackward0"


class GeTensor(CompareTensor):
    node_name = "GeBackward1"
