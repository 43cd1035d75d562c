"""Indexing: picking elements out (``x[key]``, gather) and putting gradients back
(index_put, scatter). Each pair is the other's backward.

An op with ``view = True`` returns a view of its input (same memory, same version counter).
"""
import numpy as np

from ..autograd.function import Op


# ---------------------------------------------------------------------------------------------
# x[key]
# ---------------------------------------------------------------------------------------------


class Index(Op):
    """``x[key]``: basic indexing (ints, slices, None, ...) or advanced (integer arrays, masks)."""
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.shape, ctx.key = x.shape, key
        return x[key]

    @staticmethod
    def backward(ctx, grad):
        return IndexPut.apply(grad, ctx.shape, ctx.key), None


class Select(Index):
    node_name = "SelectBackward0"  # x[i] along one dimension
    view = True


class Slice(Index):
    node_name = "SliceBackward0"  # x[a:b:c] along one dimension
    view = True


class Alias(Index):
    node_name = "AliasBackward0"  # x[:] or x[...]: the same elements
    view = True


class Unbind(Index):
    node_name = "UnbindBackward0"  # for x in tensor: ... (PyTorch makes one node for all slices)
    view = True


class IndexPut(Op):
    """Zeros of ``shape`` with ``grad`` added in at ``key``: indexing's backward.
    ``np.add.at`` adds once per occurrence, so a repeated index gathers every gradient."""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, dtype=grad.dtype)
        np.add.at(out, key, grad)
        return out

    @staticmethod
    def backward(ctx, gg):
        return gg[ctx.key], None, None


# ---------------------------------------------------------------------------------------------
# Along one dimension
# ---------------------------------------------------------------------------------------------


class Gather(Op):
    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, x, dim, indices):
        ctx.shape, ctx.dim = x.shape, dim
        ctx.save_for_backward(indices)
        return np.take_along_axis(x, indices, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        return ScatterAlong.apply(grad, ctx.shape, ctx.dim, indices), None, None


class ScatterAlong(Op):
    """Zeros of ``shape`` with ``grad`` placed at ``indices`` along ``dim`` (max's backward)."""
    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, grad, shape, dim, indices):
        ctx.dim = dim
        ctx.save_for_backward(indices)
        out = np.zeros(shape, dtype=grad.dtype)
        np.put_along_axis(out, indices, grad, axis=dim)
        return out

    @staticmethod
    def backward(ctx, gg):
        indices, = ctx.saved_tensors
        return Gather.apply(gg, ctx.dim, indices), None, None, None
