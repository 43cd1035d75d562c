"""Matrix products: ``a @ b`` in its forms, ``bias + x @ w`` (what nn.Linear computes) and
its cousins addmv, addr, baddbmm, addbmm; vdot; the parts of a matrix: its triangles, its
diagonal, its trace, diag_embed. (Inverses, solves and decompositions: decomp.py.)

Also: MatMul, Mm, Mv, Dot, Bmm, Addmm in minigrad/core/ops/linalg.py (the core's, imported here).
"""
import numpy as np

from .._conventions import check_matmul_shapes
from ..core.tensor import TensorBase
from ..core.function import Op
from .shape import strided
from ..core.ops.linalg import Addmm, Bmm, Dot, MatMul, Mm, Mv  # noqa: F401 (the core's: minigrad/core/ops/)


# ---------------------------------------------------------------------------------------------
# Matrix products
# ---------------------------------------------------------------------------------------------


# PyTorch's node name depends on the operands' ranks.


class VecMat(MatMul):
    node_name = "SqueezeBackward4"  # PyTorch computes vector @ matrix as a squeezed mm


class BatchMatMul(MatMul):
    node_name = "UnsafeViewBackward0"  # the last step of PyTorch's batched matmul


def matmul_op(a_ndim, b_ndim):
    if a_ndim == 2 and b_ndim == 2:
        return Mm
    if a_ndim == 2 and b_ndim == 1:
        return Mv
    if a_ndim == 1 and b_ndim == 1:
        return Dot
    if a_ndim == 1 and b_ndim == 2:
        return VecMat
    return BatchMatMul


class AddmmScaled(Op):
    """``beta * input + alpha * (mat1 @ mat2)``: ``torch.addmm`` with its factors (no factor
    of 1: Addmm). With ``beta == 0`` input is ignored, NaNs and all, as PyTorch documents."""
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, x, mat1, mat2, beta, alpha):
        ctx.save_for_backward(mat1 if ctx.needs_input_grad[2] else None,
                              mat2 if ctx.needs_input_grad[1] else None)
        ctx.beta, ctx.alpha = beta, alpha
        out = alpha * (mat1 @ mat2)
        return out if beta == 0 else beta * x + out

    @staticmethod
    def backward(ctx, grad):
        mat1, mat2 = ctx.saved_tensors
        a = ctx.alpha
        return (grad * ctx.beta,
                grad @ mat2.t() * a if ctx.needs_input_grad[1] else None,
                mat1.t() @ grad * a if ctx.needs_input_grad[2] else None, None, None)


class Vdot(Op):
    """``torch.vdot``: the dot product of two vectors (its own node, unlike ``dot``'s a @ b)."""
    node_name = "VdotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return np.dot(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None,
                grad * a if ctx.needs_input_grad[1] else None)


class _Scaled(Op):
    """``beta * input + alpha * product``, the product of ``product(x, y)``: the common form of
    addmv, addr, baddbmm and addbmm. With ``beta == 0`` input is ignored, NaNs and all."""

    @classmethod
    def forward(cls, ctx, x, a, b, beta, alpha):
        ctx.save_for_backward(a if ctx.needs_input_grad[2] else None,
                              b if ctx.needs_input_grad[1] else None)
        ctx.beta, ctx.alpha = beta, alpha
        out = cls.product(a, b)
        out = out if alpha == 1 else alpha * out
        out = out if beta == 0 else (x if beta == 1 else beta * x) + out
        return np.ascontiguousarray(out, dtype=a.dtype)

    @classmethod
    def backward(cls, ctx, grad):
        a, b = ctx.saved_tensors
        ga, gb = cls.gradients(grad, a, b, ctx.needs_input_grad)
        if ctx.alpha != 1:
            ga, gb = (None if g is None else g * ctx.alpha for g in (ga, gb))
        return grad if ctx.beta == 1 else grad * ctx.beta, ga, gb, None, None


class Addmv(_Scaled):
    node_name = "AddmvBackward0"
    product = staticmethod(lambda mat, vec: mat @ vec)

    @staticmethod
    def gradients(grad, mat, vec, needs):  # G vec^T, mat^T G
        return (grad.unsqueeze(-1) * vec if needs[1] else None, _t(mat) @ grad if needs[2] else None)


class Addr(_Scaled):
    node_name = "AddrBackward0"
    product = staticmethod(lambda v1, v2: np.multiply.outer(v1, v2))

    @staticmethod
    def gradients(grad, v1, v2, needs):  # G v2, G^T v1
        return (grad @ v2 if needs[1] else None, _t(grad) @ v1 if needs[2] else None)


class Baddbmm(_Scaled):
    node_name = "BaddbmmBackward0"
    product = staticmethod(lambda b1, b2: b1 @ b2)

    @staticmethod
    def gradients(grad, b1, b2, needs):  # G b2^T, b1^T G: batch by batch
        return (grad @ _t(b2) if needs[1] else None, _t(b1) @ grad if needs[2] else None)


class Addbmm(_Scaled):
    node_name = "AddbmmBackward0"
    product = staticmethod(lambda b1, b2: (b1 @ b2).sum(0))

    @staticmethod
    def gradients(grad, b1, b2, needs):  # the sum's gradient, G for every batch, then bmm's
        batched = (grad.unsqueeze(0).expand(b1.shape[0], *grad.shape) if needs[1] or needs[2] else None)
        return (batched @ _t(b2) if needs[1] else None, _t(b1) @ batched if needs[2] else None)


def _t(x):
    return x.transpose(-1, -2)


# ---------------------------------------------------------------------------------------------
# Parts of a matrix
# ---------------------------------------------------------------------------------------------


class Tril(Op):
    """The lower triangle (on and below diagonal ``k``); the rest is 0."""
    node_name = "TrilBackward0"

    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return np.ascontiguousarray(np.tril(x, k))  # contiguous, as PyTorch's

    @staticmethod
    def backward(ctx, grad):
        return grad.tril(ctx.k), None


class Triu(Op):
    node_name = "TriuBackward0"

    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return np.ascontiguousarray(np.triu(x, k))

    @staticmethod
    def backward(ctx, grad):
        return grad.triu(ctx.k), None


class Diagonal(Op):
    """``x.diagonal(k, d1, d2)``: the elements x[i, i + k] of dims d1 and d2 (a last dim, the
    other dims in front), a view."""
    node_name = "DiagonalBackward0"
    view = True

    @staticmethod
    def forward(ctx, x, k, d1=0, d2=1):
        ctx.shape, ctx.k, ctx.dims = x.shape, k, (d1, d2)
        d = np.diagonal(x, k, d1, d2)  # read-only, and not a view of x's memory's owner: made again, as one
        return strided(x, d.shape, d.strides, d.__array_interface__["data"][0] - x.__array_interface__["data"][0])

    @staticmethod
    def backward(ctx, grad):
        return DiagonalBackward.apply(grad, ctx.shape, ctx.k, *ctx.dims), None, None, None


class DiagonalBackward(Op):
    """The gradient back on the diagonal, zeros elsewhere: PyTorch's diagonal_backward, its
    own node with create_graph; differentiated again, it takes the diagonal."""
    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, shape, k, d1, d2):
        ctx.k, ctx.dims = k, (d1, d2)
        # one index array per dim of x, broadcast to grad's shape: the other dims' positions
        # along grad's first dims, the diagonal's rows and columns along its last
        others = [d for d in range(len(shape)) if d not in ctx.dims]
        key = [None] * len(shape)
        for p, d in enumerate(others):
            key[d] = np.arange(shape[d]).reshape([-1 if q == p else 1 for q in range(grad.ndim)])
        i = np.arange(grad.shape[-1]).reshape([1] * len(others) + [-1])
        key[d1], key[d2] = i + max(-k, 0), i + max(k, 0)
        out = np.zeros(shape, dtype=grad.dtype)
        out[tuple(key)] = grad  # (no place twice on a diagonal)
        return out

    @staticmethod
    def backward(ctx, gg):
        return Diagonal.apply(gg, ctx.k, *ctx.dims), None, None, None, None


class DiagCopy(Diagonal):
    node_name = "DiagonalBackward0_copy"  # torch.diag(matrix): the diagonal, copied
    view = False

    @staticmethod
    def forward(ctx, x, k):
        ctx.shape, ctx.k, ctx.dims = x.shape, k, (0, 1)
        return np.diagonal(x, k).copy()

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.backward(ctx, grad)[:2]


class DiagEmbed(Op):
    """``torch.diag(vector, k)``: a square matrix with the vector on diagonal ``k``."""
    node_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, v, k):
        ctx.k = k
        return np.diag(v, k)

    @staticmethod
    def backward(ctx, grad):
        return grad.diagonal(ctx.k), None


class Trace(Op):
    """The sum of the diagonal."""
    node_name = "TraceBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.shape = x.shape
        return np.trace(x)

    @staticmethod
    def backward(ctx, grad):
        n, m = ctx.shape
        # grad on the diagonal, 0 elsewhere: a choice, not grad * eye (an inf grad would give NaN)
        on_diagonal = TensorBase._wrap(np.eye(n, m, dtype=bool))
        return grad.expand(n, m).where(on_diagonal, 0.0)


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
