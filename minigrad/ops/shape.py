"""Shape ops: no arithmetic. Views, reshapes, transposes, flips and repeats only move elements
around, so their backward moves the gradient back into place. (cat, stack, split: join.py.)

Also: View, UnsafeView, ReshapeAlias, Expand, Permute, Transpose, T, Unsqueeze, Squeeze in
minigrad/core/ops/shape.py (the core's, imported here).

An op with ``view = True`` returns a view of its input (same memory, same version counter).
"""
import numpy as np

from ..core.tensor import TensorBase
from ..core.function import Op
from ..core.ops.shape import (  # noqa: F401 (the core's: minigrad/core/ops/)
    Expand, Permute, ReshapeAlias, Squeeze, SqueezeDim, SqueezeDims, Stack, strided, T, Transpose,
    UnsafeView, Unsqueeze, View)


# ---------------------------------------------------------------------------------------------
# Views and reshapes
# ---------------------------------------------------------------------------------------------


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
        out = np.roll(x, shifts if dims is not None else shifts[0], dims)
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)  # (which would make a 0-d x 1-d)

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


# ---------------------------------------------------------------------------------------------
# Views by strides: unfold (sliding windows), as_strided
# ---------------------------------------------------------------------------------------------


class UnfoldDim(Op):
    """``x.unfold(d, size, step)``: the windows ``x[..., i*step : i*step + size, ...]`` along
    ``d``, their elements along a new last dim. A view: only the strides change (window i
    starts ``step`` elements after window i - 1), so overlapping windows share elements."""
    node_name = "UnfoldBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, d, size, step):
        ctx.shape, ctx.args = x.shape, (d, size, step)
        if x.ndim == 0:
            return x.reshape(1)  # a number's one window of one element
        n = (x.shape[d] - size) // step + 1
        shape = x.shape[:d] + (n,) + x.shape[d + 1:] + (size,)
        strides = x.strides[:d] + (x.strides[d] * step,) + x.strides[d + 1:] + (x.strides[d],)
        return strided(x, shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return UnfoldBackward.apply(grad, ctx.shape, *ctx.args), None, None, None


class UnfoldBackward(Op):
    """unfold's backward (PyTorch's ``unfold_backward``): each window's gradient added back
    where the window was; an element in several windows gets the sum."""
    node_name = "UnfoldBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, shape, d, size, step):
        ctx.args = (d, size, step)
        if not shape:
            return grad.reshape(())
        out = np.zeros(shape, grad.dtype)
        n = grad.shape[d]
        for j in range(size):  # element j of every window: positions j, j + step, ... along d
            at = (slice(None),) * d + (slice(j, j + step * (n - 1) + 1, step),)
            out[at] += grad[..., j]
        return out

    @staticmethod
    def backward(ctx, gg):
        return gg.unfold(*ctx.args), None, None, None, None


class AsStridedView(Op):
    """``x.as_strided(size, stride, offset)``: any view of x's memory (storage), given by
    strides and a first element, counted in elements from the memory's start. Backward
    (PyTorch's as_strided_backward, for inputs that do not overlap themselves): the
    gradient added into the memory's elements, then read back in the input's layout."""
    node_name = "AsStridedBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, size, stride, offset, x_offset):
        item = x.itemsize
        ctx.x_layout = (x.shape, [s // item for s in x.strides], x_offset)
        ctx.layout = (size, stride, offset)
        return strided(x, size, tuple(s * item for s in stride), (offset - x_offset) * item)

    @staticmethod
    def backward(ctx, grad):
        # where each element of x and of the view is in the memory
        x_at, out_at = _positions(*ctx.x_layout), _positions(*ctx.layout)
        memory = grad.new_zeros(int(max(x_at.max(initial=-1), out_at.max(initial=-1))) + 1)
        memory = memory.index_put((TensorBase._wrap(out_at.reshape(-1)),), grad.reshape(-1),
                                  accumulate=True)
        return memory[TensorBase._wrap(x_at)], None, None, None, None


def _positions(shape, strides, first):
    """The memory position (in elements) of each element of a strided array, the first at ``first``."""
    at = np.full(shape, first, np.int64)
    for d, (n, s) in enumerate(zip(shape, strides)):
        at += (np.arange(n) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return at


# ---------------------------------------------------------------------------------------------
# More copies in a new arrangement: rot90
# ---------------------------------------------------------------------------------------------


class Rot90(Op):
    """``x.rot90(k, dims)``: a quarter turn k times, from dims[0] towards dims[1]. As PyTorch
    writes it: a flip (a copy), then for odd k a transpose (so k = 1 is not contiguous)."""
    node_name = "Rot90Backward0"

    @staticmethod
    def forward(ctx, x, k, dims):
        ctx.k, ctx.dims = k, dims
        d0, d1 = dims
        k %= 4
        if k == 0:
            return x.copy()  # (PyTorch's: a contiguous clone)
        if k == 2:
            return np.flip(x, dims).copy("K")
        return np.swapaxes(np.flip(x, d1 if k == 1 else d0).copy("K"), d0, d1)

    @staticmethod
    def backward(ctx, grad):
        return grad.rot90(-ctx.k, list(ctx.dims)), None, None


# ---------------------------------------------------------------------------------------------
# The in-place reshapes (x.t_(), x.unsqueeze_(0)...): the same ops, under the names PyTorch's
# in-place forms record (minigrad/_tensor_shape.py gives the tensor the new view)
# ---------------------------------------------------------------------------------------------


class TInplace(T):
    in_place = True
    node_name = "TBackward1"


class TransposeInplace(Transpose):
    in_place = True
    node_name = "TransposeBackward1"  # transpose_, swapdims_, swapaxes_


class UnsqueezeInplace(Unsqueeze):
    in_place = True
    node_name = "UnsqueezeBackward1"


class SqueezeInplace(Squeeze):
    in_place = True
    node_name = "SqueezeBackward3"  # squeeze_()


class SqueezeDimInplace(Squeeze):
    in_place = True
    node_name = "SqueezeBackward4"  # squeeze_(dim)


class SqueezeDimsInplace(Squeeze):
    in_place = True
    node_name = "SqueezeBackward5"  # squeeze_((dim, ...))
