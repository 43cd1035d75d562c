"""Shape ops: views, transposes, stacking and indexing only move elements around, so their
backward moves the gradient back into place.

An op with ``view = True`` returns a view of its input (the same memory): see
``TensorBase._view_of`` and minigrad/_views.py.
"""
import sys

import numpy as np

from ..function import Op



class View(Op):
    node_name = "ViewBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        return x.reshape(shape)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class UnsafeView(View):
    node_name = "UnsafeViewBackward0"  # a reshape that had to copy


class ReshapeAlias(View):
    node_name = "ReshapeAliasBackward0"  # a reshape of a non-contiguous tensor that needs no copy


class Expand(Op):
    node_name = "ExpandBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, shape):
        view = np.broadcast_to(x, shape)  # read-only in NumPy; writable in PyTorch (zero_, fill_):
        return strided(x, view.shape, view.strides)

    @staticmethod
    def backward(ctx, grad):
        return grad, None  # the engine sums the broadcast gradient back to x's shape


class Permute(Op):
    node_name = "PermuteBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims
        return np.transpose(x, dims)

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(tuple(np.argsort(ctx.dims).tolist())), None  # () for a 0-d tensor


class Transpose(Op):
    node_name = "TransposeBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dims = (dim0, dim1)
        return np.swapaxes(x, dim0, dim1) if x.ndim else x.view()

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


class T(Op):
    """``x.t()``: a matrix's transpose (0-d and 1-d: unchanged). Like PyTorch's TBackward0, the
    node keeps nothing (Transpose keeps its two dims): its backward is another ``t()``."""
    node_name = "TBackward0"
    view = True

    @staticmethod
    def forward(ctx, x):
        return x.T  # a view

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


class Unsqueeze(Op):
    node_name = "UnsqueezeBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        return np.expand_dims(x, dim)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


class Squeeze(Op):
    node_name = "SqueezeBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, dims):  # dims: the size-1 dims to drop (None: all of them)
        ctx.shape, ctx.dims = x.shape, dims
        return np.squeeze(x, axis=dims)

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's unsqueeze_to: each dropped dim back, lowest first (UnsqueezeBackward0 nodes
        # with create_graph)
        for d in range(len(ctx.shape)) if ctx.dims is None else sorted(ctx.dims):
            if ctx.shape[d] == 1:
                grad = grad.unsqueeze(d)
        return grad, None


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


class Stack(Op):
    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *xs):
        ctx.dim = dim
        return np.ascontiguousarray(np.stack(xs, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        before = (slice(None),) * (ctx.dim % grad.dim())
        return (None,) + tuple(grad[before + (i,)] for i in range(grad.shape[ctx.dim]))


def strided(x, shape, strides, offset=0):
    """A view of ``x``'s memory with the given shape and strides (in bytes), starting ``offset``
    bytes after x's first element: built on the array that owns the memory, so that it is
    a view of that owner as the views of ``Op.view`` are (their base is the owner)."""
    owner = x if x.base is None else x.base
    # (NumPy takes only a row-major array as a buffer: a permuted owner's memory, in memory order)
    memory = owner.ravel(order="K") if isinstance(owner, np.ndarray) and not owner.flags.c_contiguous else owner
    if not isinstance(owner, np.ndarray) or memory.base is not owner and memory is not owner:
        return np.lib.stride_tricks.as_strided(x, shape, strides)  # (memory NumPy does not own: from_numpy...)
    start = x.__array_interface__["data"][0] - owner.__array_interface__["data"][0] + offset
    return np.ndarray(shape, x.dtype, buffer=memory, offset=start, strides=strides)


class Index(Op):
    """``x[key]``: basic indexing (ints, slices, None, ...) or advanced (integer arrays, masks).
    ``indices``: the tensors whose arrays are in ``key``, kept by the node as PyTorch's keeps
    them (so changing one in place before backward is an error, not a gradient sent elsewhere)."""
    node_name = "IndexBackward0"
    _non_differentiable = range(2, sys.maxsize)  # every tensor after x and key

    @staticmethod
    def forward(ctx, x, key, *indices):
        ctx.shape, ctx.key = x.shape, key
        if indices:
            ctx.save_for_backward(*indices)
        return x[key]

    @staticmethod
    def backward(ctx, grad):
        indices = ctx.saved_tensors  # (unchanged since forward, or this raises)
        # PyTorch's index_backward: the gradient added into zeros (zeros.index_put_(key, grad,
        # accumulate=True): IndexPutImplBackward0 with create_graph)
        return IndexPutAccumulate.apply(grad.new_zeros(ctx.shape), ctx.key, grad), None, *[None for _ in indices]


class Select(Index):
    node_name = "SelectBackward0"  # x[i] along one dimension
    view = True

    @staticmethod
    def forward(ctx, x, key):
        ctx.shape, ctx.key = x.shape, key
        return x[key + (Ellipsis,)]  # (``...``: a number too is a view, as PyTorch's, not NumPy's scalar copy)

    @staticmethod
    def backward(ctx, grad):
        return SelectBackward.apply(grad, ctx.shape, ctx.key), None


class Slice(Index):
    node_name = "SliceBackward0"  # x[a:b:c] along one dimension
    view = True

    @staticmethod
    def backward(ctx, grad):
        return SliceBackward.apply(grad, ctx.shape, ctx.key), None


def _write_into_zeros(ctx, grad, shape, key):
    """Zeros of ``shape`` with ``grad`` written at ``key``, a basic key (ints, slices): no
    place twice, so a plain assignment, not indexing's ``np.add.at``."""
    ctx.key = key
    out = np.zeros(shape, dtype=grad.dtype)
    out[key] = grad
    return out


class SliceBackward(Op):
    """A slice's backward as PyTorch's ``slice_backward``: its own node with create_graph;
    differentiated again, it slices the same way."""
    node_name = "SliceBackwardBackward0"
    forward = staticmethod(_write_into_zeros)

    @staticmethod
    def backward(ctx, gg):
        return Slice.apply(gg, ctx.key), None, None


class SelectBackward(Op):
    """``select_backward``, as SliceBackward."""
    node_name = "SelectBackwardBackward0"
    forward = staticmethod(_write_into_zeros)

    @staticmethod
    def backward(ctx, gg):
        return Select.apply(gg, ctx.key), None, None


class IndexPutAccumulate(Op):
    """``x`` with ``values`` added in at ``key`` (PyTorch's ``index_put_(key, values,
    accumulate=True)``, out of place): indexing's backward, into zeros. ``np.add.at`` adds once
    per occurrence, so a repeated index gathers every gradient."""
    node_name = "IndexPutImplBackward0"

    @staticmethod
    def forward(ctx, x, key, values):
        ctx.key = key
        out = x.copy()
        np.add.at(out, key, values)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad, None, grad[ctx.key]  # the engine sums values' share to its shape
