"""Join: several tensors in (cat, stack, block_diag) or several out (split, chunk, unbind,
unsafe_split): the pieces' ops, each the other's backward.

Also: Stack in minigrad/core/ops/shape.py (the core's, imported here).
"""
import numpy as np

from .._dtype import result_type
from ..core.function import Op
from ..core.ops.shape import Stack  # noqa: F401 (the core's: minigrad/core/ops/)


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


class Unbind(Op):
    """``x.unbind(dim)`` (and ``for row in x``): the rows ``x[..., i]`` along ``dim``, each a
    view of x, all outputs of one node (as in PyTorch). Backward: PyTorch's unbind_backward,
    the rows' gradients stacked, zeros for a row that got none (StackBackward0 with
    create_graph): one pass, however many rows."""
    node_name = "UnbindBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        before = (slice(None),) * dim
        return tuple(x[before + (i, Ellipsis)] for i in range(x.shape[dim]))  # (``...``: a 0-d row is a view too)

    @staticmethod
    def backward(ctx, *grads):
        some = _arrived(grads)
        zero = some.new_zeros(some.shape)  # (one zero tensor for every row that got no gradient)
        return Stack.apply(ctx.dim, *[zero if g is None else g for g in grads]), None


class Split(Op):
    """``x.split(n)`` or ``x.chunk(n)`` along ``dim``: the pieces, ``sizes`` long, each a view of
    x, all outputs of one node (as in PyTorch). Backward: PyTorch's split_backward, the pieces'
    gradients concatenated, zeros for a piece that got none (CatBackward0 with create_graph)."""
    node_name = "SplitBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, dim, sizes):
        ctx.shape, ctx.dim, ctx.sizes = x.shape, dim, sizes
        before, start, pieces = (slice(None),) * dim, 0, []
        for n in sizes:
            pieces.append(x[before + (slice(start, start + n),)])
            start += n
        return tuple(pieces)

    @staticmethod
    def backward(ctx, *grads):
        zeros = {}  # one zero tensor per size that needs one (split(n): at most two sizes)
        pieces = []
        for g, n in zip(grads, ctx.sizes):
            if g is None and n not in zeros:
                zeros[n] = _arrived(grads).new_zeros(ctx.shape[:ctx.dim] + (n,) + ctx.shape[ctx.dim + 1:])
            pieces.append(zeros[n] if g is None else g)
        return Cat.apply(ctx.dim, *pieces), None, None


class SplitWithSizes(Split):
    node_name = "SplitWithSizesBackward0"  # x.split([sizes])


class UnsafeSplit(Split):
    """``x.unsafe_split(size)`` (or ``unsafe_chunk``: how PyTorch's LSTM and GRU cells cut their
    gates apart): split's pieces, but no views for autograd (their memory is x's; no shared
    version counter), as PyTorch's."""
    node_name = "UnsafeSplitBackward0"
    view = False

    @classmethod
    def _forward(cls, ctx, args, arrays):
        pieces = super()._forward(ctx, args, arrays)
        for piece in pieces:  # an in-place op on a piece is recorded as on any tensor (x is none the wiser)
            piece._owns_base = True
        return pieces


class UnsafeSplitWithSizes(UnsafeSplit):
    node_name = "UnsafeSplitWithSizesBackward0"  # x.unsafe_split_with_sizes([sizes])


def _arrived(grads):
    """One of the outputs' gradients that did arrive (backward runs only if one did)."""
    return next(g for g in grads if g is not None)
