"""Shape ops: no arithmetic. Views, reshapes, transposes and joins only move elements
around, so their backward moves the gradient back into place.

An op with ``view = True`` returns a view of its input (same memory, same version counter).
"""
import numpy as np

from .._dtype import result_type
from ..autograd.function import Op


# ---------------------------------------------------------------------------------------------
# Views and reshapes
# ---------------------------------------------------------------------------------------------


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
        return np.broadcast_to(x, shape)

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
        return grad.permute(*np.argsort(ctx.dims).tolist()), None


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
        for d in range(len(ctx.shape)) if ctx.dims is None else ctx.dims:
            if ctx.shape[d] == 1:
                grad = grad.unsqueeze(d)
        return grad, None


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


# ---------------------------------------------------------------------------------------------
# Joining tensors
# ---------------------------------------------------------------------------------------------


class Cat(Op):
    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *xs):
        ctx.dim, ctx.sizes = dim, [x.shape[dim] for x in xs]
        dtype = None
        if any(x.dtype != xs[0].dtype for x in xs):  # PyTorch's promotion: float32 and int64 give float32
            dtype = result_type(*xs).np
        return np.ascontiguousarray(np.concatenate(xs, axis=dim, dtype=dtype))  # (NumPy's may be permuted)

    @staticmethod
    def backward(ctx, grad):  # cut the gradient into the inputs' pieces (SliceBackward0s, as PyTorch's)
        starts = np.cumsum([0] + ctx.sizes).tolist()
        return (None,) + tuple(grad.narrow(ctx.dim, start, n) for start, n in zip(starts, ctx.sizes))


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


# ---------------------------------------------------------------------------------------------
# Copies in a new arrangement: repeat, flip, roll
# ---------------------------------------------------------------------------------------------


class Repeat(Op):
    """``x.repeat(*reps)``: the whole tensor tiled ``reps`` times along each dim."""
    node_name = "RepeatBackward0"

    @staticmethod
    def forward(ctx, x, reps):
        ctx.shape, ctx.reps = x.shape, reps
        return np.ascontiguousarray(np.tile(x, reps))  # contiguous, as PyTorch's

    @staticmethod
    def backward(ctx, grad):
        # Each input element appears once in every tile: split each dim into (reps, size)
        # and sum over the reps.
        shape = (1,) * (len(ctx.reps) - len(ctx.shape)) + ctx.shape
        split = [n for r, s in zip(ctx.reps, shape) for n in (r, s)]
        grad = grad.reshape(split).sum(tuple(range(0, len(split), 2)))
        return grad.reshape(ctx.shape), None


class Flip(Op):
    node_name = "FlipBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims
        return np.flip(x, dims).copy("K")  # PyTorch's flip copies, in x's memory layout

    @staticmethod
    def backward(ctx, grad):
        return grad.flip(ctx.dims), None


class Roll(Op):
    node_name = "RollBackward0"

    @staticmethod
    def forward(ctx, x, shifts, dims):  # dims None: roll the flattened elements
        ctx.shifts, ctx.dims = shifts, dims
        return np.ascontiguousarray(np.roll(x, shifts if dims is not None else shifts[0], dims))

    @staticmethod
    def backward(ctx, grad):  # roll back by as much
        return Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims), None, None


class ConstantPadNd(Op):
    """``F.pad(x, pad, value=v)``: ``pad`` holds (before, after) counts for the last dims, the
    last dim first; a negative count crops instead. Backward is the same op with every
    count negated: it crops away what was added and gives back zeros for what was cropped."""
    node_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, x, pad, value):
        ctx.pad = pad
        widths = [(0, 0)] * (x.ndim - len(pad) // 2) + [(pad[i], pad[i + 1]) for i in range(len(pad) - 2, -1, -2)]
        crop = tuple(slice(max(-b, 0), n - max(-a, 0)) for (b, a), n in zip(widths, x.shape))
        return np.pad(x[crop], [(max(b, 0), max(a, 0)) for b, a in widths], constant_values=value)

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, tuple(-p for p in ctx.pad), 0), None, None
