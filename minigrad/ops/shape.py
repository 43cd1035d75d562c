"""Shape ops: no arithmetic. Views, reshapes, transposes and joins only move elements
around, so their backward moves the gradient back into place.

An op with ``view = True`` returns a view of its input (same memory, same version counter).
"""
import numpy as np

from .._dtype import result_type
from ..autograd import function
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
        for d in range(len(ctx.shape)) if ctx.dims is None else sorted(ctx.dims):
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
        memory = memory.index_put((function.Tensor._wrap(out_at.reshape(-1)),), grad.reshape(-1),
                                  accumulate=True)
        return memory[function.Tensor._wrap(x_at)], None, None, None, None


def _positions(shape, strides, first):
    """The memory position (in elements) of each element of a strided array, the first at ``first``."""
    at = np.full(shape, first, np.int64)
    for d, (n, s) in enumerate(zip(shape, strides)):
        at += (np.arange(n) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return at


# ---------------------------------------------------------------------------------------------
# More copies in a new arrangement: rot90, diag_embed, block_diag
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



class DiagEmbedDims(Op):
    """``x.diag_embed(offset, dim1, dim2)``: each vector along x's last dim laid on diagonal
    ``offset`` of a matrix in dims ``dim1``, ``dim2`` of the result (zeros elsewhere).
    Backward: that diagonal of the gradient."""
    node_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        ctx.args = (offset, dim1, dim2)
        n = x.shape[-1] + abs(offset)
        out = np.zeros(x.shape[:-1] + (n, n), x.dtype)  # the matrices in the last two dims first
        i = np.arange(x.shape[-1])
        out[..., i + max(-offset, 0), i + max(offset, 0)] = x
        return np.ascontiguousarray(np.moveaxis(out, (-2, -1), (dim1, dim2)))

    @staticmethod
    def backward(ctx, grad):
        return grad.diagonal(*ctx.args), None, None, None


class BlockDiag(Op):
    """``torch.block_diag(a, b, ...)``: the matrices (a vector: a row; a number: 1 x 1) along
    the diagonal of one matrix, zeros elsewhere. Backward: each block's part of the gradient."""
    node_name = "BlockDiagBackward0"

    @staticmethod
    def forward(ctx, *xs):
        ctx.shapes = [x.shape for x in xs]
        blocks = [x.reshape((1,) * (2 - x.ndim) + x.shape) for x in xs]
        out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)),
                       result_type(*xs).np if xs else np.float32)
        ctx.corners = []
        r = c = 0
        for b in blocks:
            out[r:r + b.shape[0], c:c + b.shape[1]] = b
            ctx.corners.append((r, c))
            r, c = r + b.shape[0], c + b.shape[1]
        return out

    @staticmethod
    def backward(ctx, grad):
        pieces = []
        for (r, c), shape in zip(ctx.corners, ctx.shapes):
            rows, cols = ((1,) * (2 - len(shape)) + shape)
            pieces.append(grad.narrow(0, r, rows).narrow(1, c, cols).reshape(shape))
        return tuple(pieces)


# ---------------------------------------------------------------------------------------------
# The in-place reshapes (x.t_(), x.unsqueeze_(0)...): the same ops, under the names PyTorch's
# in-place forms record (minigrad/_tensor_pieces.py gives the tensor the new view)
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
