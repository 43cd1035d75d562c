"""Matrix products: ``a @ b`` (MatMul: Mm, Mv, Dot, Bmm), and Addmm, ``bias + x @ w``, nn.Linear's op.

For C = A @ B: dL/dA = dL/dC @ B^T and dL/dB = A^T @ dL/dC.
"""
import numpy as np

from ..function import Op


def _product(mat2_first):
    """A matrix product's forward. ``mat2_first``: save b, then a, as PyTorch's mm and bmm do
    (the order in which saved_tensors_hooks see them); mv and dot save a first."""
    def forward(ctx, a, b):
        try:
            out = a @ b
        except ValueError:  # NumPy refuses what PyTorch refuses: PyTorch's words, then
            check_matmul_shapes(a.shape, b.shape)
            raise
        ctx.vectors = (a.ndim == 1, b.ndim == 1)  # backward treats a vector as a one-row/column matrix
        saved = (a if ctx.needs_input_grad[1] else None, b if ctx.needs_input_grad[0] else None)
        ctx.save_for_backward(*(saved[::-1] if mat2_first else saved))
        return out
    return staticmethod(forward)


class MatMul(Op):
    """``a @ b`` for vectors, matrices and batches of matrices."""
    mat2_first = False
    forward = _product(mat2_first)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors[::-1] if ctx._function.mat2_first else ctx.saved_tensors
        # A vector is a one-row matrix on the left, a one-column matrix on the right.
        left_vec, right_vec = ctx.vectors
        if right_vec:
            grad = grad.unsqueeze(-1)
        if left_vec:
            grad = grad.unsqueeze(-2)
        grad_a = grad_b = None
        if ctx.needs_input_grad[0]:  # dL/dA = dL/dOut @ B^T
            grad_a = grad @ (b.unsqueeze(-1) if right_vec else b).transpose(-1, -2)
            grad_a = grad_a.squeeze(-2) if left_vec else grad_a
        if ctx.needs_input_grad[1]:  # dL/dB = A^T @ dL/dOut
            grad_b = (a.unsqueeze(-2) if left_vec else a).transpose(-1, -2) @ grad
            grad_b = grad_b.squeeze(-1) if right_vec else grad_b
        return grad_a, grad_b


class Mm(MatMul):
    node_name = "MmBackward0"
    mat2_first = True
    forward = _product(mat2_first)


class Mv(MatMul):
    node_name = "MvBackward0"


class Dot(MatMul):
    node_name = "DotBackward0"


class Bmm(MatMul):
    node_name = "BmmBackward0"  # torch.bmm: batches of matrices, no broadcasting
    mat2_first = True
    forward = _product(mat2_first)


class Addmm(Op):
    """``bias + x @ w`` in one op: what ``nn.Linear`` computes (``w`` is the transposed weight)."""
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, x, w):
        try:
            out = x @ w
        except ValueError:  # as in MatMul
            check_matmul_shapes(x.shape, w.shape)
            raise
        ctx.save_for_backward(x if ctx.needs_input_grad[2] else None,
                              w if ctx.needs_input_grad[1] else None)
        if bias.dtype != out.dtype or bias.ndim > out.ndim:  # (PyTorch refuses these: as before)
            return bias + out
        out += bias  # in place: no second (batch, out) array
        return out

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        # dL/dw = x^T @ grad, computed as (grad^T @ x)^T: the same numbers, laid out so that
        # the weight's gradient (w is weight.t()) comes out contiguous, as PyTorch arranges it.
        return (grad,  # the engine sums it over the rows, down to the bias's shape
                grad @ w.t() if ctx.needs_input_grad[1] else None,
                (grad.t() @ x).t() if ctx.needs_input_grad[2] else None)


# -- PyTorch's errors for shapes that cannot be multiplied (NumPy's ValueError says less) --------

def check_matmul_shapes(sa, sb):
    """Raise PyTorch's error message for operands that cannot be multiplied."""
    if not sa or not sb:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{len(sa)}D and {len(sb)}D")
    if len(sa) > 2 and len(sb) > 2:
        check_broadcast(sa[:-2], sb[:-2])  # the batch dimensions
    k_a = sa[-1]
    k_b = sb[0] if len(sb) == 1 else sb[-2]
    if k_a == k_b:
        return
    if len(sa) == 1 and len(sb) == 1:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to "
                           f"have the same number of elements, but got {sa[0]} and {sb[0]} elements "
                           "respectively")
    if len(sb) == 1:  # PyTorch folds a's batch dims into rows
        rows = int(np.prod(sa[:-1], dtype=np.int64))
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{k_a}), vec ({sb[0]})")
    if len(sb) == 2:  # PyTorch folds a's batch dims into rows
        rows = int(np.prod(sa[:-1], dtype=np.int64))
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k_a} and "
                           f"{sb[0]}x{sb[1]})")
    batch = int(np.prod(np.broadcast_shapes(sa[:-2], sb[:-2]), dtype=np.int64))
    raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, "
                       f"{k_a}] but got: [{batch}, {k_b}].")


def check_broadcast(sa, sb):
    """PyTorch's error for shapes that do not broadcast, naming the first clash."""
    n = max(len(sa), len(sb))
    for i in range(1, n + 1):
        da, db = sa[-i] if i <= len(sa) else 1, sb[-i] if i <= len(sb) else 1
        if da != db and da != 1 and db != 1:
            raise RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b ({db}) "
                               f"at non-singleton dimension {n - i}")
