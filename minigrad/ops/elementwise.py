"""Elementwise ops: each output element depends on the matching input elements only.

Inputs may have different shapes: NumPy broadcasts them in forward, and the engine sums a
gradient shaped like the broadcast output back down to each input's shape (and casts it to
the input's dtype), as PyTorch's engine does. So no backward here deals with broadcasting.
"""
import numpy as np

from .._conventions import quiet
from ..autograd.function import Op


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------


class Add(Op):
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


class Sub(Op):
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return a - b

    @staticmethod
    def backward(ctx, grad):
        return grad, -grad


class Rsub(Op):
    """``number - x``"""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, x, number):
        return number - x

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Op):
    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        # Save only what is needed: a's gradient uses b, b's gradient uses a.
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None,
                grad * a if ctx.needs_input_grad[1] else None)


class Div(Op):
    node_name = "DivBackward0"

    @staticmethod
    @quiet
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        return a / b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad / b if ctx.needs_input_grad[0] else None,
                -grad * a / (b * b) if ctx.needs_input_grad[1] else None)


class Neg(Op):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, x):
        return -x

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Reciprocal(Op):
    node_name = "ReciprocalBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x):
        out = 1 / x
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return -grad * out * out  # d(1/x)/dx = -1/x^2


class Pow(Op):
    """``x ** exponent`` with a number as exponent"""
    node_name = "PowBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, exponent):
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        return x ** exponent

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return grad.new_zeros(grad.shape), None
        return grad * p * x ** (p - 1), None


class PowTensor(Op):
    """``x ** y`` with both tensors"""
    node_name = "PowBackward1"

    @staticmethod
    @quiet
    def forward(ctx, x, y):
        out = x ** y
        ctx.save_for_backward(x, y, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, y, out = ctx.saved_tensors
        grad_x = grad * y * x ** (y - 1) if ctx.needs_input_grad[0] else None
        # d(x^y)/dy = x^y log x; PyTorch takes it as 0 where x == 0 and y >= 0.
        grad_y = None
        if ctx.needs_input_grad[1]:
            grad_y = (grad * out * x.log()).where(~((x == 0) & (y >= 0)), 0.0)
        return grad_x, grad_y


class RPow(Op):
    """``number ** x``"""
    node_name = "PowBackward2"

    @staticmethod
    @quiet
    def forward(ctx, x, base):
        out = base ** x
        ctx.save_for_backward(out)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out * float(np.log(ctx.base)), None


# ---------------------------------------------------------------------------------------------
# Functions of one input
# ---------------------------------------------------------------------------------------------


class Exp(Op):
    node_name = "ExpBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x):
        out = np.exp(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out  # (e^x)' = e^x: reuse the output instead of recomputing it


class Log(Op):
    node_name = "LogBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.log(x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / x


class Sqrt(Op):
    node_name = "SqrtBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x):
        out = np.sqrt(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad / (2 * out)


class Abs(Op):
    node_name = "AbsBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.abs(x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x.sign()  # sign(0) = 0: the subgradient PyTorch picks


class Sign(Op):
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        return np.sign(x)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape)  # flat everywhere it is differentiable


class Relu(Op):
    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, x):
        out = np.maximum(x, 0)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return ThresholdBackward.apply(grad, out)


class ThresholdBackward(Op):
    """ReLU's backward, one op as in PyTorch (``threshold_backward``): the gradient passes
    where the unit is on (output > 0) and is 0 elsewhere, at 0 too. Its own node shows up
    only when backward is recorded (``create_graph=True``)."""
    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(out)
        # Multiplying by the mask is several times faster than where(); adding 0.0 turns
        # the -0. of (negative gradient * 0) into 0., as PyTorch has it.
        result = grad * (out > 0)
        result += 0.0
        return result

    @staticmethod
    def backward(ctx, gg):
        out, = ctx.saved_tensors
        return ThresholdBackward.apply(gg, out), out.new_zeros(out.shape)  # the mask is flat in ``out``


class Sigmoid(Op):
    node_name = "SigmoidBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x):
        out = 1 / (1 + np.exp(-x))  # exp may overflow to inf: then 1 / inf = 0, as in PyTorch
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out * (1 - out)


class Tanh(Op):
    node_name = "TanhBackward0"

    @staticmethod
    def forward(ctx, x):
        out = np.tanh(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * (1 - out * out)


class Clamp(Op):
    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, x, min, max):
        ctx.save_for_backward(x)
        ctx.bounds = (min, max)
        return np.clip(x, min, max).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        lo, hi = ctx.bounds
        inside = x == x  # all True (and False for NaN, as in PyTorch)
        if lo is not None:
            inside = inside & (x >= lo)
        if hi is not None:
            inside = inside & (x <= hi)
        return grad.where(inside, 0.0), None, None  # it passes only where x was not clipped


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
        # Where both are equal the gradient is split in half, as PyTorch does.
        half = (grad * 0.5).where(a == b, 0.0)
        return grad.where(a > b, half), grad.where(b > a, half)


class Where(Op):
    node_name = "WhereBackward0"

    @staticmethod
    def forward(ctx, condition, a, b):  # condition: a bool array, not a graph input
        ctx.save_for_backward(condition)
        return np.where(condition, a, b)

    @staticmethod
    def backward(ctx, grad):
        condition, = ctx.saved_tensors
        return None, grad.where(condition, 0.0), grad.where(~condition, 0.0)


# ---------------------------------------------------------------------------------------------
# Copies, dtype changes, and what in-place ops record
# ---------------------------------------------------------------------------------------------


class Clone(Op):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x):
        return x.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad


class ToCopy(Op):
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, np_dtype):
        return x.astype(np_dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad, None  # the engine casts it back to x's dtype


class Zero(Op):
    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, x):
        return np.zeros_like(x)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape)  # the old values no longer matter


class Fill(Op):
    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        return np.full_like(x, value)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape), None


class Copy(Op):
    node_name = "CopyBackwards"
    node_qualname = "torch::autograd::CopyBackwards"  # what PyTorch's grad_fn.name() says

    @staticmethod
    def forward(ctx, x, src):
        return np.broadcast_to(src, x.shape).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape), grad  # the engine sums and casts src's share to src's shape and dtype
