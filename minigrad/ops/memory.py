"""Memory: copies, dtype changes, aliases, and what in-place ops record (clone, ``.to``,
zero_, fill_, copy_, ``x[:]``).
"""
import numpy as np

from .._conventions import copy_in_layout
from ..core.function import Op
from ..core.ops.shape import Index


# ---------------------------------------------------------------------------------------------
# Copies, dtype changes, and what in-place ops record
# ---------------------------------------------------------------------------------------------


class Clone(Op):
    """A copy, laid out as ``fmt`` says: preserve_format (``clone()``: a permuted tensor's
    clone is permuted too), contiguous_format (``contiguous()``, ``reshape``'s copy)..."""
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x, fmt):
        return copy_in_layout(x, fmt)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


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


class Alias(Index):
    node_name = "AliasBackward0"  # x[:] or x[...]: the same elements
    view = True
