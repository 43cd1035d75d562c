"""Reductions: many input elements give one output element (sum, mean, var, max, ...).

Their backward sends the output's gradient back to every element that contributed,
after putting back the dimensions the reduction removed (``expand_back``).
"""
import numpy as np

from .._conventions import quiet
from ..autograd.function import Op
from .index import ScatterAlong
from .shape import Expand


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def expand_back(grad, shape, dims, keepdim):
    """Undo a reduction's shape change: put back the reduced dims, then broadcast."""
    if not keepdim and dims is not None:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return Expand.apply(grad, shape)  # (no need for expand()'s checks: the shape fits)


# ---------------------------------------------------------------------------------------------
# Sums and averages
# ---------------------------------------------------------------------------------------------


class Sum(Op):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x, dims=None, keepdim=False):
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        out = x.sum(axis=dims, keepdims=keepdim)
        return out.astype(np.int64, copy=False) if x.dtype.kind in "biu" else out

    @staticmethod
    def backward(ctx, grad):  # every input element contributes once: copy grad back to all
        return expand_back(grad, ctx.shape, ctx.dims, ctx.keepdim), None, None


class SumDim(Sum):
    node_name = "SumBackward1"


class Mean(Op):
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x, dims=None, keepdim=False):
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        out = x.mean(axis=dims, keepdims=keepdim)
        ctx.count = x.size // max(out.size, 1) if x.size else 0
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        return expand_back(grad / ctx.count, ctx.shape, ctx.dims, ctx.keepdim), None, None


class MeanDim(Mean):
    node_name = "MeanBackward1"


class Var(Op):
    """The variance over ``dims``: the squared distances from the mean, summed and divided by
    ``n - correction`` (correction 1, the unbiased estimate, is PyTorch's default)."""
    node_name = "VarBackward0"

    @staticmethod
    @quiet  # n <= correction gives nan (or inf), as in PyTorch
    def forward(ctx, x, dims, correction, keepdim):
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return x.var(axis=dims, ddof=correction, keepdims=keepdim).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return _var_backward(grad, x, ctx), None, None, None


def _var_backward(grad, x, ctx):
    """d var / d x_i = 2 (x_i - mean) / (n - correction), times the incoming gradient."""
    mean = x.mean(ctx.dims, keepdim=True)
    n = x.numel() // max(mean.numel(), 1)
    grad = expand_back(grad, x.shape, ctx.dims, ctx.keepdim)
    return grad * (x - mean) * (2.0 / (n - ctx.correction))


class Std(Op):
    """The standard deviation: the square root of the variance (same ``correction``)."""
    node_name = "StdBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, dims, correction, keepdim):
        out = np.sqrt(x.var(axis=dims, ddof=correction, keepdims=keepdim)).astype(x.dtype, copy=False)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        # d sqrt(v) = dv / (2 sqrt(v)); where the std is 0 every x_i equals the mean, and
        # PyTorch sends 0 rather than 0/0.
        grad = (grad / (2 * out)).where(out != 0, 0.0)
        return _var_backward(grad, x, ctx), None, None, None


class Norm(Op):
    """The Euclidean (2-)norm over ``dims``: the square root of the sum of squares."""
    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        out = np.sqrt((x * x).sum(axis=dims, keepdims=keepdim)).astype(x.dtype, copy=False)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        # d |x| / d x_i = x_i / |x|; at |x| = 0 PyTorch sends 0.
        scale = (grad / out).where(out != 0, 0.0)
        return x * expand_back(scale, x.shape, ctx.dims, ctx.keepdim), None, None


class Logsumexp(Op):
    node_name = "LogsumexpBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, dims, keepdim):
        m = np.max(x, axis=dims, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)  # all -inf (or inf): no shift, the result is +-inf
        out = np.log(np.sum(np.exp(x - m), axis=dims, keepdims=True)) + m
        out = out if keepdim else np.squeeze(out, axis=dims)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if not ctx.keepdim:  # line the reduced result up with x again
            for d in sorted(ctx.dims):
                grad, out = grad.unsqueeze(d), out.unsqueeze(d)
        return grad * (x - out).exp(), None, None  # the softmax of x, scaled by grad


# ---------------------------------------------------------------------------------------------
# Maximum
# ---------------------------------------------------------------------------------------------


class Max(Op):
    """``x.max()``: the largest element."""
    node_name = "MaxBackward1"

    @staticmethod
    def forward(ctx, x):
        out = np.max(x)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        # Ties share the gradient equally, as in PyTorch.
        is_max = x == out
        return (grad / is_max.sum()).where(is_max, 0.0)


class MaxDim(Op):
    """``x.max(dim)``: the largest element along ``dim``; indices are returned separately."""
    node_name = "MaxBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, indices):
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        ctx.save_for_backward(indices)
        out = np.take_along_axis(x, np.expand_dims(indices, dim), axis=dim)
        return out if keepdim else np.squeeze(out, dim)

    @staticmethod
    def backward(ctx, grad):  # only the element that was picked receives the gradient
        indices, = ctx.saved_tensors  # saved without the reduced dim
        indices = indices.unsqueeze(ctx.dim)
        if not ctx.keepdim:
            grad = grad.unsqueeze(ctx.dim)
        return ScatterAlong.apply(grad, ctx.shape, ctx.dim, indices), None, None, None
