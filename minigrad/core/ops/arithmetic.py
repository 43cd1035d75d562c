"""Arithmetic: + - * / ** of tensors and numbers.

Inputs may have different shapes: NumPy broadcasts them in forward, and the engine sums a
gradient shaped like the broadcast output back down to each input's shape (and casts it to
the input's dtype), as PyTorch's engine does. So no backward here deals with broadcasting.
A number operand (``x * 2``) is its own op (MulNumber: PyTorch's MulBackward1), with no edge.
"""
import numpy as np

from ..function import Op


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
    """``number - alpha * x``: Python's ``number - x`` (alpha 1), ``torch.rsub(x, number, alpha=)``"""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, x, number, alpha):
        ctx.alpha = alpha
        return number - x if alpha == 1 else scaled_sum(np.asarray(number, x.dtype), x, -alpha)

    @staticmethod
    def backward(ctx, grad):
        return maybe_multiply(-grad, ctx.alpha), None, None


def scaled_sum(a, b, alpha):
    """``a + alpha * b`` as PyTorch computes it: alpha cast to the result's dtype, then one
    fused multiply-add, rounded once. For float32 that is the sum in float64 (where the
    product of two float32 is exact), then float32: rounded twice in principle, but the float64
    sum falls halfway between two float32 numbers too rarely to matter (no difference from
    PyTorch in a million values, tests/core/test_graph.py). float64 has no wider type in NumPy:
    there minigrad rounds the product, then the sum, and the last bit can differ from
    PyTorch's (a known difference)."""
    dtype = np.result_type(a, b)
    alpha = np.asarray(alpha, dtype)
    if dtype == np.float32:  # (in place on one temporary: a fresh large float64 array is slow to get)
        total = b.astype(np.float64)
        total *= alpha.astype(np.float64)
        full = total.shape == np.broadcast_shapes(a.shape, b.shape)
        return np.add(total, a, out=total if full else None).astype(np.float32)
    return a + b * alpha


def maybe_multiply(grad, alpha):
    """``grad * alpha`` as a node (MulBackward1), or ``grad`` itself when alpha is 1: as
    PyTorch's ``maybe_multiply`` (derivatives.yaml's ``add``: ``other: maybe_multiply(grad, alpha)``)."""
    return grad if alpha == 1 else MulNumber.apply(grad, alpha)


class SubNumber(Op):
    """``x - number`` as PyTorch's C++ records it (``SubBackward1``; Python's ``x - 1`` records
    ``SubBackward0``): in the backward of ``x ** y``."""
    node_name = "SubBackward1"

    @staticmethod
    def forward(ctx, x, number):
        return x - np.asarray(number, dtype=x.dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class AddNumber(Op):
    """``x + number`` as PyTorch's C++ records it (``AddBackward1``; Python's ``x + 1`` records
    ``AddBackward0``): in GELU's second derivative."""
    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx, x, number):
        return x + np.asarray(number, dtype=x.dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class MulNumber(Op):
    """``x * number`` as PyTorch's C++ records it (``MulBackward1``; Python's ``x * 0.5``
    records ``MulBackward0``): the backward of ``add``'s alpha, of ``x ** 2``; cross_entropy's
    label smoothing is written with it."""
    node_name = "MulBackward1"

    @staticmethod
    def forward(ctx, x, number):
        ctx.number = number
        return x * np.asarray(number, dtype=x.dtype)

    @staticmethod
    def backward(ctx, grad):
        return MulNumber.apply(grad, ctx.number), None


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
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        return a / b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad / b if ctx.needs_input_grad[0] else None,
                -grad * (a / b / b) if ctx.needs_input_grad[1] else None)  # PyTorch's order (inf, NaN)


class DivNumber(Op):
    """``x / number`` as PyTorch's C++ records it (``DivBackward1``; Python's ``x / 2`` records
    ``DivBackward0``): maximum's and minimum's ``grad / 2``, the mean of cross_entropy with
    class-probability targets."""
    node_name = "DivBackward1"

    @staticmethod
    def forward(ctx, x, number):
        ctx.number = number
        return x / np.asarray(number, dtype=x.dtype)

    @staticmethod
    def backward(ctx, grad):
        return DivNumber.apply(grad, ctx.number), None


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
    def forward(ctx, x, exponent):
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        # As PyTorch's CPU kernel, to the last bit: these exponents are multiplications
        if exponent == 3:
            return x * x * x
        if exponent == -2:
            return 1 / (x * x)
        if exponent == -0.5:  # 1 / sqrt(x), so -0. gives -inf (sqrt's backward at -0.)
            return 1 / np.sqrt(x)
        return x ** exponent  # (NumPy's ** 2 is a square, as PyTorch's)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return grad.new_zeros(grad.shape), None
        return grad * MulNumber.apply(x ** (p - 1), p), None  # PyTorch's grad * (p * x^(p-1))


