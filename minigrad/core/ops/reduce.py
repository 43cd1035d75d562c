"""Reductions: sum, mean and max, of everything or along dims.

A reduction's backward undoes its shape change: the reduced dims come back (size 1), then
the gradient is broadcast against the input (``expand_back``); max sends it to the winners.
"""
import numpy as np

from ..function import Op
from .shape import Expand



def expand_back(grad, shape, dims, keepdim):
    """Undo a reduction's shape change: put back the reduced dims, then broadcast."""
    return Expand.apply(unsqueeze_back(grad, dims, keepdim), shape)  # (no need for expand()'s checks)


def unsqueeze_back(grad, dims, keepdim):
    """Put back the reduced dims (size 1), so that ``grad`` broadcasts against the input."""
    if not keepdim and dims is not None:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return grad


class Sum(Op):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x, dims=None, keepdim=False):
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        out = np.asarray(x.sum(axis=dims, keepdims=keepdim), order="C")  # row by row, as PyTorch's
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
        total = np.asarray(np.sum(x, axis=dims, keepdims=keepdim), order="C")  # row by row
        ctx.count = x.size // max(total.size, 1) if x.size else 0
        # sum / count, which is what np.mean computes, without its warning for an empty
        # tensor (whose mean is NaN, silently, in PyTorch)
        return (total / ctx.count).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        if not ctx.count:  # nothing to share: divide after expanding (PyTorch's order), so that the
            # derivative in grad is a sum over no elements, 0, not 0 * (1 / 0) = NaN
            return expand_back(grad, ctx.shape, ctx.dims, ctx.keepdim) / ctx.count, None, None
        return expand_back(grad / ctx.count, ctx.shape, ctx.dims, ctx.keepdim), None, None


class MeanDim(Mean):
    node_name = "MeanBackward1"


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
        # Ties share the gradient equally, as in PyTorch; a NaN result came from the NaNs.
        is_max = x.isnan() if out.isnan() else x == out
        return (grad / is_max.sum()).where(is_max, 0.0)


class Min(Max):
    """``x.min()``: the smallest element."""
    node_name = "MinBackward1"

    @staticmethod
    def forward(ctx, x):
        out = np.min(x)
        ctx.save_for_backward(x, out)
        return out
