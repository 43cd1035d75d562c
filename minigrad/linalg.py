"""``torch.linalg``: determinants, inverses, solves, decompositions, norms, products.

Each function checks its arguments as PyTorch does and calls minigrad/_tensor_linalg.py,
whose ops (minigrad/ops/decomp.py, minigrad/ops/linalg.py) hold the forwards and the
derivatives. The results of several tensors are PyTorch's named tuples:
``torch.return_types.linalg_slogdet(sign=..., logabsdet=...)``.
"""
from . import _tensor_linalg as _la
from ._conventions import check_tensors
from .ops import _LinAlgError as LinAlgError  # a RuntimeError: singular, not positive-definite

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv",
           "inv_ex", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr",
           "slogdet", "solve", "solve_ex", "svd", "svdvals", "vecdot", "vector_norm"]


# -- norms ------------------------------------------------------------------------------------

def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """``(sum |x_i|^ord)^(1/ord)`` over ``dim`` (all elements if None): Tensor.norm's op."""
    check_tensors("linalg_vector_norm", 1, x=x)
    return x.norm(ord, dim, keepdim, dtype=dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    check_tensors("linalg_matrix_norm", 1, A=A)
    return _la.matrix_norm(A, ord, dim, keepdim, dtype)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    check_tensors("linalg_norm", 1, A=A)
    return _la.norm(A, ord, dim, keepdim, dtype)


# -- determinants, inverses, solves ----------------------------------------------------------

def det(A):
    check_tensors("linalg_det", 1, A=A)
    return _la.det(A)


def slogdet(A):
    """``(sign, log |det A|)``: the determinant without overflow (log |det| of a large matrix)."""
    check_tensors("linalg_slogdet", 1, A=A)
    return _la.slogdet(A)


def inv(A):
    check_tensors("linalg_inv", 1, A=A)
    return A.inverse()


def inv_ex(A, *, check_errors=False):
    """``(inverse, info)``: ``info`` is LAPACK's, 0 or the (1-based) zero pivot of a singular A."""
    check_tensors("linalg_inv_ex", 1, A=A)
    return _la.inv_ex(A, check_errors)


def solve(A, B, *, left=True):
    """``X`` with ``A @ X = B`` (``left=False``: ``X @ A = B``), without computing ``A^-1``."""
    check_tensors("linalg_solve", 1, A=A, B=B)
    return _la.solve_ex(A, B, left, None).result


def solve_ex(A, B, *, left=True, check_errors=False):
    check_tensors("linalg_solve_ex", 1, A=A, B=B)
    return _la.solve_ex(A, B, left, check_errors)


def pinv(A, *, atol=None, rtol=None, hermitian=False):
    check_tensors("linalg_pinv", 1, A=A)
    return _la.pinv(A, atol, rtol, hermitian)


def matrix_power(A, n):
    check_tensors("linalg_matrix_power", 1, A=A)
    return _la.matrix_power(A, n)


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):
    check_tensors("linalg_matrix_rank", 1, A=A)
    return _la.matrix_rank(A, atol, rtol, hermitian)


# -- decompositions ---------------------------------------------------------------------------

def cholesky(A, *, upper=False):
    """``L`` (lower triangular) with ``A = L @ L.mT``, for a symmetric positive-definite A."""
    check_tensors("linalg_cholesky", 1, A=A)
    return _la.cholesky_ex(A, upper, True).L


def cholesky_ex(A, *, upper=False, check_errors=False):
    check_tensors("linalg_cholesky_ex", 1, A=A)
    return _la.cholesky_ex(A, upper, check_errors)


def qr(A, mode="reduced"):
    check_tensors("linalg_qr", 1, A=A)
    return _la.qr(A, mode)


def svd(A, full_matrices=True, *, driver=None):
    """``(U, S, Vh)`` with ``A = U @ diag(S) @ Vh`` (``Vh``, not ``V``: torch.svd's was V)."""
    check_tensors("linalg_svd", 1, A=A)
    return _la.svd(A, full_matrices)


def svdvals(A, *, driver=None):
    check_tensors("linalg_svdvals", 1, A=A)
    return _la.svdvals(A)


def eigh(A, UPLO="L"):
    """``(eigenvalues, eigenvectors)`` of a symmetric A, the eigenvalues in ascending order."""
    check_tensors("linalg_eigh", 1, A=A)
    return _la.eigh(A, UPLO)


def eigvalsh(A, UPLO="L"):
    check_tensors("linalg_eigvalsh", 1, A=A)
    return _la.eigh(A, UPLO).eigenvalues


# -- products ---------------------------------------------------------------------------------

def cross(input, other, *, dim=-1):
    check_tensors("linalg_cross", 1, input=input, other=other)
    return _la.cross(input, other, dim)


def multi_dot(tensors):
    """``A @ B @ C @ ...`` in the cheapest order (the first and last may be vectors)."""
    return _la.multi_dot(list(tensors))


def vecdot(x, y, *, dim=-1):
    """The dot product of vectors along ``dim``: ``(x * y).sum(dim)``."""
    check_tensors("linalg_vecdot", 1, x=x, y=y)
    _la.check_float("linalg.vecdot", x)
    return (x * y).sum(dim)


def matmul(input, other):
    return input @ other


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return A.diagonal(offset, dim1, dim2)
