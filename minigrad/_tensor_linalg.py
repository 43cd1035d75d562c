"""The Tensor's products and linear algebra: ``mm``, ``bmm``, ``addmm``, ``outer``..., the parts
of a matrix (tril, triu, diagonal, diag, trace, diag_embed, diagflat) (the operator ``@`` is in
_tensor_arithmetic.py with the other operators).

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/linalg.py`` or ``minigrad/ops/decomp.py``. This module sits below the
Tensor class and reaches it only through ``autograd.TensorBase``.
"""
import math
import warnings

import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import C_NAMES, check_broadcast, check_expand, return_type
from ._conventions import dim as _dim
from ._conventions import check_tensors
from ._tensor_arithmetic import _check_ndim
from .core.tensor import TensorBase


# ---------------------------------------------------------------------------------------------
# What PyTorch's linear algebra returns and checks
# ---------------------------------------------------------------------------------------------

SlogdetResult = return_type("linalg_slogdet", "sign logabsdet")
InvExResult = return_type("linalg_inv_ex", "inverse info")
SolveExResult = return_type("linalg_solve_ex", "result info")
CholeskyExResult = return_type("linalg_cholesky_ex", "L info")
QrResult = return_type("linalg_qr", "Q R")
SvdResult = return_type("linalg_svd", "U S Vh")
EighResult = return_type("linalg_eigh", "eigenvalues eigenvectors")
# the classic functions' own names: torch.slogdet, torch.qr, torch.svd (V, not Vh)
ClassicSlogdet, ClassicQr = return_type("slogdet", "sign logabsdet"), return_type("qr", "Q R")
ClassicSvd = return_type("svd", "U S V")


def check_float(name, a):
    if not a.dtype.is_floating_point:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {a.dtype.legacy_name}")


def check_matrices(name, a, square=True, floating=True):
    """PyTorch's checks of a batch of matrices ``(*, m, n)``, in its order."""
    if a._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if floating:
        check_float(name, a)
    m, n = a._data.shape[-2:]
    if square and m != n:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {m} by {n} matrices")


def _int32(array):
    return TensorBase._wrap(np.asarray(array, dtype=np.int32))


def det(a):
    check_matrices("linalg.det", a)
    return ops.Det.apply(a)


def slogdet(a, result=SlogdetResult):
    check_matrices("linalg.slogdet", a)
    return result(*ops.Slogdet.apply(a))


def inv_ex(a, check_errors=False):
    check_matrices("linalg.inv", a)
    out = ops.InvEx.apply(a, "linalg.inv_ex" if check_errors else None)
    if check_errors:
        return InvExResult(out, _int32(np.zeros(a._data.shape[:-2])))
    info = ops.decomp._first_zero_pivot(a._data) if not np.isfinite(out._data).all() else 0
    return InvExResult(out, _int32(np.broadcast_to(info, a._data.shape[:-2])))


def solve_ex(a, b, left=True, check_errors=False):
    """``X`` with ``A X = B`` (``left=False``: ``X A = B``); B a vector if it is one (``(n,)``
    or A's batch shape with ``n``), as PyTorch decides."""
    check_matrices("linalg.solve", a)
    check_float("linalg.solve", b)
    if a.dtype is not b.dtype:
        raise RuntimeError("linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{a.dtype.legacy_name} and B of type {b.dtype.legacy_name} instead")
    n = a._data.shape[-1]
    vector = b._data.ndim == 1 or (left and b._data.ndim == a._data.ndim - 1
                                   and b._data.shape == a._data.shape[:-1])
    rows, cols = (b._data.shape[-1], 1) if vector else b._data.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    # check_errors: raise on a singular A (None: as linalg.solve, whose name the error gives);
    # False: return LAPACK's inf/NaN, and in ``info`` where the factorization met a zero pivot.
    check = (None if check_errors is False else
             "torch.linalg.solve" if check_errors is None else "torch.linalg.solve_ex")
    x = ops.SolveEx.apply(a, b, left, vector, check)
    info = 0
    if not check and (x._data.size == 0 or not np.isfinite(x._data).all()):  # (a zero pivot gives inf or NaN)
        info = ops.decomp._first_zero_pivot(a._data)
    return SolveExResult(x, _int32(np.broadcast_to(info, a._data.shape[:-2])))


def pinv(a, atol=None, rtol=None, hermitian=False):
    if a._data.ndim < 2 or not a.dtype.is_floating_point:
        raise RuntimeError(f"linalg.pinv({a.dtype.legacy_name}{{{list(a._data.shape)}}}): expected a "
                           "tensor with 2 or more dimensions of float, double, cfloat or cdouble types")
    atol, rtol = _tolerances(a, atol, rtol)
    return ops.Pinv.apply(a, atol, rtol, hermitian)


def _tolerances(a, atol, rtol):
    """PyTorch's defaults: with neither given, rtol = eps * max(m, n); with atol > 0 alone, rtol = 0."""
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else _dtype.finfo(a.dtype).eps * max(a._data.shape[-2:])
    return (0.0 if atol is None else float(atol)), float(rtol)


def matrix_rank(a, atol=None, rtol=None, hermitian=False):
    if a._data.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if not a.dtype.is_floating_point:
        raise RuntimeError("This function doesn't handle types other than float and double")
    atol, rtol = _tolerances(a, atol, rtol)
    s = np.linalg.svd(a._data, compute_uv=False) if a._data.size else np.zeros(a._data.shape[:-1])
    cut = np.maximum(atol, rtol * (s[..., :1] if s.shape[-1] else 0))
    return TensorBase._wrap(np.asarray((s > cut).sum(-1), dtype=np.int64))


def matrix_power(a, n):
    if type(n) is not int:
        raise TypeError("linalg_matrix_power(): argument 'n' (position 2) must be int, not "
                        f"{type(n).__name__}")
    check_matrices("linalg.matrix_power", a, floating=False)
    if n == 0:  # the identity, in a copy of A (PyTorch's CopyBackwards, no gradient)
        out = a.clone()
        return out.copy_(TensorBase._wrap(np.broadcast_to(np.eye(a._data.shape[-1], dtype=a._data.dtype),
                                                                a._data.shape)))
    if n < 0:
        a, n = a.inverse(), -n
        if n == 1:
            return a
    if n == 1:
        return a.clone()
    if n == 2:
        return a @ a
    if n == 3:
        return (a @ a) @ a
    z = result = None  # by squaring, as PyTorch: A^n = product of A^(2^k) over n's binary digits
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else z @ z
        if bit:
            result = z if result is None else result @ z
    return result


def cholesky_ex(a, upper=False, check_errors=False, name="linalg.cholesky", op=None):
    check_matrices(name, a)
    try:
        ell = np.linalg.cholesky(a._data)
        info = np.zeros(a._data.shape[:-2], np.int32)
    except np.linalg.LinAlgError:
        ell, info = _cholesky_anyway(a._data)
        if check_errors:
            b = int(np.flatnonzero(info.ravel())[0])
            prefix = ops.decomp._batch_prefix(a._data.shape, b)
            raise ops._LinAlgError(f"{name}: {prefix}The factorization could not be completed because the input "
                                   f"is not positive-definite (the leading minor of order {info.ravel()[b]} "
                                   "is not positive-definite).") from None
    ell = ell.astype(a._data.dtype, copy=False)
    factor = np.ascontiguousarray(np.swapaxes(ell, -1, -2)) if upper else ell
    return CholeskyExResult((op or ops.Cholesky).apply(a, (factor,), upper)[0], _int32(info))


def _cholesky_anyway(a):
    """LAPACK's potrf batch by batch: the factor as far as it got, and the order of the first
    leading minor that is not positive-definite (0 where all are)."""
    import scipy.linalg.lapack
    flat = a.reshape(-1, *a.shape[-2:])
    ells, info = [], []
    for m in flat:
        c, i = scipy.linalg.lapack.dpotrf(m.astype(np.float64), lower=1, clean=1)
        ells.append(np.tril(c)), info.append(i)
    return np.stack(ells).reshape(a.shape), np.asarray(info, np.int32).reshape(a.shape[:-2])


def qr(a, mode="reduced", result=QrResult):
    if mode not in ("reduced", "r", "complete"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
                           "'r', or 'complete'")
    check_matrices("linalg.qr", a, square=False)
    q, r = np.linalg.qr(a._data, mode="complete" if mode == "complete" else "reduced")
    factors = (np.ascontiguousarray(q, a._data.dtype), np.ascontiguousarray(r, a._data.dtype))
    if mode == "r":
        q = TensorBase._wrap(np.zeros(0, a._data.dtype))  # as PyTorch: an empty Q
        return result(q, ops.Qr.apply(a, factors, mode)[1])
    return result(*ops.Qr.apply(a, factors, mode))


def svd(a, full_matrices=True, result=SvdResult):
    check_matrices("linalg.svd", a, square=False)
    m, n = a._data.shape[-2:]
    if a._data.size:
        u, s, vh = np.linalg.svd(a._data, full_matrices=full_matrices)
    else:
        k = min(m, n)
        cols, rows = (m, n) if full_matrices else (k, k)
        u = np.broadcast_to(np.eye(m, cols), a._data.shape[:-2] + (m, cols))
        vh = np.broadcast_to(np.eye(rows, n), a._data.shape[:-2] + (rows, n))
        s = np.zeros(a._data.shape[:-2] + (k,))
    factors = tuple(np.ascontiguousarray(f, a._data.dtype) for f in (u, s, vh))
    return result(*ops.Svd.apply(a, factors))


def svdvals(a):
    check_matrices("linalg.svd", a, square=False)
    s = np.linalg.svd(a._data, compute_uv=False) if a._data.size else np.zeros(a._data.shape[:-1])
    if not a._requires_grad:
        return TensorBase._wrap(np.ascontiguousarray(s, a._data.dtype))
    u, s, vh = np.linalg.svd(a._data, full_matrices=False)  # backward needs U and Vh too
    return ops.Svd.apply(a, tuple(np.ascontiguousarray(f, a._data.dtype) for f in (u, s, vh)))[1]


def eigh(a, UPLO="L"):
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    check_matrices("linalg.eigh", a, floating=False)
    if not a.dtype.is_floating_point:
        raise NotImplementedError(f'"linalg_eigh_cpu" not implemented for \'{a.dtype.legacy_name}\'')
    lam, v = np.linalg.eigh(a._data, UPLO=UPLO)
    factors = (np.ascontiguousarray(lam, a._data.dtype), np.ascontiguousarray(v, a._data.dtype))
    return EighResult(*ops.Eigh.apply(a, factors))


def cross(a, b, dim):
    if a._data.ndim != b._data.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype.legacy_name} but found {b.dtype.legacy_name}")
    d = _dim(dim, a._data.ndim)
    if a._data.shape[d] != 3 or b._data.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. "
                           f"Got {a._data.shape[d]} and {b._data.shape[d]}")
    check_broadcast(a._data.shape, b._data.shape)  # the other dims: a batch, broadcast
    return ops.Cross.apply(a, b, d)


def multi_dot(tensors, name="multi_dot"):
    """The product of a chain of matrices (the first and last may be vectors), multiplied in
    the cheapest order (PyTorch's dynamic programme for the matrix-chain problem)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"{name}(): expected at least 2 tensors but got {n}")
    for i, t in enumerate(tensors):
        nd = t._data.ndim
        if i == 0 and nd not in (1, 2):
            raise RuntimeError(f"{name}(): the first tensor must be 1D or 2D but got {nd}D")
        if i == n - 1 and nd not in (1, 2):
            raise RuntimeError(f"{name}(): the last tensor must be 1D or 2D but got {nd}D")
        if 0 < i < n - 1 and nd != 2:
            raise RuntimeError(f"{name}(): tensor {i} must be 2D but got {nd}D")
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError(f"{name}(): all tensors must have be the same dtype but tensor 0 is "
                               f"{C_NAMES[tensors[0].dtype.name]} and tensor {i} {C_NAMES[t.dtype.name]}")
    first, last = tensors[0]._data.ndim, tensors[-1]._data.ndim
    out_shape = tensors[0]._data.shape[:1] if first == 2 else ()
    out_shape += tensors[-1]._data.shape[1:] if last == 2 else ()
    mats = list(tensors)
    if first == 1:
        mats[0] = mats[0].unsqueeze(0)
    if last == 1:
        mats[-1] = mats[-1].unsqueeze(-1)
    for i in range(n - 1):
        if mats[i]._data.shape[-1] != mats[i + 1]._data.shape[0]:
            raise RuntimeError(f"{name}(): tensors {i} and {i + 1} with shapes "
                               f"{list(tensors[i]._data.shape)} and {list(tensors[i + 1]._data.shape)} "
                               "cannot be multiplied")
    if n == 2:
        return (mats[0] @ mats[1]).view(out_shape)
    dims = [m._data.shape[0] for m in mats] + [mats[-1]._data.shape[1]]
    # cost[i][j]: the fewest multiplications for mats[i..j]; split[i][j]: where to split them
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def product(i, j):
        if i == j:
            return mats[i]
        return product(i, split[i][j]) @ product(split[i][j] + 1, j)
    return product(0, n - 1).view(out_shape)


def matrix_norm(a, ord="fro", dim=(-2, -1), keepdim=False, dtype=None):
    """The matrix norms PyTorch builds from others: 'fro' the vector 2-norm of all elements;
    'nuc', 2, -2 from the singular values; 1, -1 (inf, -inf) from the columns' (rows')
    1-norms."""
    if a._data.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    check_float("linalg.matrix_norm", a)
    if ord not in ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if dtype is not None:
        a = a.to(dtype)
    d0, d1 = (d + a._data.ndim if d < 0 else d for d in dim)
    if ord == "fro":
        return a.norm(2, (d0, d1), keepdim)
    if ord in (1, -1, math.inf, -math.inf):  # 1: the largest column sum; inf: the largest row sum
        summed, other = (d0, d1) if abs(ord) == 1 else (d1, d0)
        sums = a.norm(1, summed, keepdim=keepdim)
        if not keepdim and summed < other:
            other -= 1  # (the summed dim is gone)
        return sums.amax(other, keepdim=keepdim) if ord > 0 else sums.amin(other, keepdim=keepdim)
    # as PyTorch: the two dims moved last (a permute, even when they are last already), the
    # singular values reduced; with keepdim, the dims put back where they were
    perm = [d for d in range(a._data.ndim) if d not in (d0, d1)] + [d0, d1]
    s = svdvals(a.permute(perm))
    out = s.sum(-1, keepdim) if ord == "nuc" else (s.amax(-1, keepdim) if ord == 2 else s.amin(-1, keepdim))
    if not keepdim:
        return out
    return out.unsqueeze(-1).permute([perm.index(d) for d in range(a._data.ndim)])


def norm(a, ord=None, dim=None, keepdim=False, dtype=None):
    """linalg.norm: a vector norm (ord a number, dim an int), or a matrix norm (ord a string,
    dim two dims, or a 2-D input with ord given)."""
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        return a.norm(2, dim, keepdim, dtype=dtype)
    if dim is None:
        if a._data.ndim not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                               f"Got {a._data.ndim}D.")
        dim = tuple(range(a._data.ndim))
    if isinstance(ord, str) or len(dim) == 2:
        return matrix_norm(a, ord, dim if len(dim) == 2 else (-2, -1), keepdim, dtype)
    return a.norm(ord, dim, keepdim, dtype=dtype)


class LinalgMixin:
    __slots__ = ()

    # -- products (minigrad/ops/linalg.py) ----------------------------------------------------
    def mm(self, mat2):
        _check_ndim("self", self, 2), _check_ndim("mat2", mat2, 2)
        return self @ mat2

    def mv(self, vec):
        if self._data.ndim != 2 or vec._data.ndim != 1:
            raise RuntimeError("vector + matrix @ vector expected, got "
                               f"1, {self._data.ndim}, {vec._data.ndim}")
        return self @ vec

    def dot(self, other):
        if self._data.ndim != 1 or other._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and "
                               f"{other._data.ndim}D tensors")
        if self.dtype is not other.dtype:
            raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                               f"{self.dtype.legacy_name} and {other.dtype.legacy_name}")
        return self @ other

    def bmm(self, other):
        _check_bmm(self, other)
        return ops.Bmm.apply(self, other)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """``beta * self + alpha * (mat1 @ mat2)``, self broadcast to the product's shape."""
        check_tensors("addmm", 1, mat1=mat1, mat2=mat2)
        for name, t in (("mat1", mat1), ("mat2", mat2)):
            if t._data.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {t._data.ndim}-D tensor")
        for name, t in (("self", self), ("mat1", mat1)):  # no promotion; PyTorch's order of checks
            if t.dtype is not mat2.dtype:
                raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                                   f"{t.dtype.legacy_name} and {mat2.dtype.legacy_name}")
        (n, k), (k2, m) = mat1._data.shape, mat2._data.shape
        if k != k2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
        check_expand(self._data.shape, (n, m), self.type())
        if beta == 1 and alpha == 1:
            return ops.Addmm.apply(self, mat1, mat2)  # nn.Linear's op
        if not self.dtype.is_floating_point:  # the factors in the tensors' type, as PyTorch's
            beta, alpha = int(beta), int(alpha)
        return ops.AddmmScaled.apply(self, mat1, mat2, beta, alpha)


    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        product = (mat1.shape[0], mat2.shape[-1]) if mat1._data.ndim == 2 == mat2._data.ndim else self.shape
        if product != self.shape:  # (addmm would broadcast self to the product's shape)
            raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size "
                               f"{list(product)} should match")
        return _inplace.apply(self, lambda t: t.addmm(mat1, mat2, beta=beta, alpha=alpha))
    def outer(self, other):
        """Every product ``self[i] * other[j]``: PyTorch records it as a column times a row."""
        for name, t in (("self", self), ("vec2", other)):
            if t._data.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
        return self.reshape(-1, 1) * other

    ger = outer

    def vdot(self, other):
        check_tensors("vdot", 1, other=other)
        if self._data.ndim != 1 or other._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and {other._data.ndim}D "
                               "tensors")
        if self._data.shape != other._data.shape:
            n, k = self._data.shape[0], other._data.shape[0]
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{k}] to have the same "
                               f"number of elements, but got {n} and {k} elements respectively")
        if self.dtype is not other.dtype:
            raise RuntimeError("vdot : expected both vectors to have same dtype, but found "
                               f"{self.dtype.legacy_name} and {other.dtype.legacy_name}")
        return ops.Vdot.apply(self, other)

    def inner(self, other):
        """The sum of products over the last dims: a tensordot of one dim."""
        check_tensors("inner", 1, other=other)
        if self._data.ndim == 0 or other._data.ndim == 0:
            return self * other
        if self._data.shape[-1] != other._data.shape[-1]:
            raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes "
                               f"{list(self._data.shape)} and {list(other._data.shape)}")
        return tensordot(self, other, ([-1], [-1]))

    def kron(self, other):
        """The Kronecker product: every element of self times all of other, in blocks. As
        PyTorch: both reshaped so that their dims interleave, multiplied, reshaped back."""
        check_tensors("kron", 1, other=other)
        nd = max(self._data.ndim, other._data.ndim)
        a_shape = (1,) * (nd - self._data.ndim) + self._data.shape
        b_shape = (1,) * (nd - other._data.ndim) + other._data.shape
        a = ops.UnsafeView.apply(self, tuple(x for d in a_shape for x in (d, 1)))
        b = ops.UnsafeView.apply(other, tuple(x for d in b_shape for x in (1, d)))
        return ops.UnsafeView.apply(a * b, tuple(p * q for p, q in zip(a_shape, b_shape)))

    def _scaled_product(self, op, a, b, beta, alpha):
        if not self.dtype.is_floating_point:  # the factors in the tensors' type, as addmm's
            beta, alpha = int(beta), int(alpha)
        return op.apply(self, a, b, beta, alpha)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        """``beta * self + alpha * (mat @ vec)``"""
        check_tensors("addmv", 1, mat=mat, vec=vec)
        if mat._data.ndim != 2 or vec._data.ndim != 1 or mat._data.shape[1] != vec._data.shape[0] or \
                self._data.shape not in ((), (1,), mat._data.shape[:1]):
            x = ["x".join(map(str, t._data.shape)) for t in (self, mat, vec)]
            raise RuntimeError(f"size mismatch, got input ({x[0]}), mat ({x[1]}), vec ({x[2]})")
        return self._scaled_product(ops.Addmv, mat, vec, beta, alpha)

    def addr(self, vec1, vec2, *, beta=1, alpha=1):
        """``beta * self + alpha * outer(vec1, vec2)``"""
        check_tensors("addr", 1, vec1=vec1, vec2=vec2)
        for name, t in (("vec1", vec1), ("vec2", vec2)):
            if t._data.ndim != 1:
                raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t._data.ndim}-D")
        check_expand(self._data.shape, vec1._data.shape + vec2._data.shape, self.type())
        return self._scaled_product(ops.Addr, vec1, vec2, beta, alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        """``beta * self + alpha * (batch1 @ batch2)``, batch by batch."""
        check_tensors("baddbmm", 1, batch1=batch1, batch2=batch2)
        _check_bmm(batch1, batch2)
        check_expand(self._data.shape, batch1._data.shape[:2] + batch2._data.shape[2:], self.type())
        return self._scaled_product(ops.Baddbmm, batch1, batch2, beta, alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        """``beta * self + alpha * sum_b (batch1[b] @ batch2[b])``"""
        check_tensors("addbmm", 1, batch1=batch1, batch2=batch2)
        _check_ndim("batch1", batch1, 3), _check_ndim("batch2", batch2, 3)
        (b, n, k), (b2, k2, m) = batch1._data.shape, batch2._data.shape
        if b != b2:
            raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {b} and {b2}")
        if k != k2:
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{m})")
        check_expand(self._data.shape, (n, m), self.type())
        return self._scaled_product(ops.Addbmm, batch1, batch2, beta, alpha)

    # in place: the same op, its result written into self (as addcmul_)
    def addmv_(self, mat, vec, *, beta=1, alpha=1):
        return _inplace.apply(self, lambda t, m, v: t.addmv(m, v, beta=beta, alpha=alpha), mat, vec)

    def addr_(self, vec1, vec2, *, beta=1, alpha=1):
        return _inplace.apply(self, lambda t, a, b: t.addr(a, b, beta=beta, alpha=alpha), vec1, vec2)

    def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return _inplace.apply(self, lambda t, a, b: t.baddbmm(a, b, beta=beta, alpha=alpha), batch1, batch2)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return _inplace.apply(self, lambda t, a, b: t.addbmm(a, b, beta=beta, alpha=alpha), batch1, batch2)

    # -- linear algebra (minigrad/ops/decomp.py; torch.linalg's functions in minigrad/linalg.py)
    def det(self):
        return det(self)

    def logdet(self):
        """log det A: NaN where det A < 0 (-inf where it is 0), from slogdet as PyTorch."""
        check_matrices("logdet", self)  # (its errors carry its own name)
        sign, logabsdet = slogdet(self)
        nan = TensorBase._wrap(np.array(np.nan, dtype=self._data.dtype))
        return nan.where(sign == -1, logabsdet)  # torch.where(sign == -1, nan, logabsdet)

    def slogdet(self):
        return slogdet(self, ClassicSlogdet)

    def inverse(self):
        check_matrices("linalg.inv", self)
        return ops.InvEx.apply(self, "linalg.inv")

    def pinverse(self, rcond=1e-15):
        return pinv(self, rtol=rcond)

    def matrix_power(self, n):
        return matrix_power(self, n)

    def cholesky(self, upper=False):
        warn_once(CHOLESKY_DEPRECATED)
        return cholesky_ex(self, upper, True, "cholesky", ops.decomp.ClassicCholesky).L

    def qr(self, some=True):
        warn_once(QR_DEPRECATED)
        return qr(self, "reduced" if some else "complete", ClassicQr)

    def svd(self, some=True, compute_uv=True):
        """The old convention: ``V``, not ``Vh``; ``some=False``: full U and V."""
        u, s, vh = svd(self, full_matrices=not some)
        if not compute_uv:  # zeros for U and V, as PyTorch's
            return ClassicSvd(u.new_zeros(u.shape), s, vh.new_zeros(vh.shape))
        return ClassicSvd(u, s, vh.transpose(-2, -1))

    def cross(self, other, dim=None):
        """``torch.cross``: without ``dim``, along the first dim of length 3 (deprecated)."""
        check_tensors("cross", 1, other=other)
        if dim is None:  # the first dim of length 3 of this tensor, as PyTorch picks it
            warn_once(CROSS_NO_DIM)
            dim = next((d for d, n in enumerate(self._data.shape) if n == 3), None)
            if dim is None:
                raise RuntimeError("no dimension of size 3 in input")
        return cross(self, other, dim)

    # -- parts of a matrix (minigrad/ops/linalg.py) ------------------------------------------------
    def tril(self, diagonal=0):
        _check_matrix("tril", self)
        return ops.Tril.apply(self, diagonal)

    def triu(self, diagonal=0):
        _check_matrix("triu", self)
        return ops.Triu.apply(self, diagonal)

    def tril_(self, diagonal=0):
        _check_matrix("tril", self)
        return _inplace.apply(self, LinalgMixin.tril, diagonal)

    def triu_(self, diagonal=0):
        _check_matrix("triu", self)
        return _inplace.apply(self, LinalgMixin.triu, diagonal)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        d1, d2 = _dim(dim1, self._data.ndim), _dim(dim2, self._data.ndim)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return ops.Diagonal.apply(self, offset, d1, d2)

    def diag(self, diagonal=0):
        """A vector's matrix (the vector on the diagonal), or a matrix's diagonal (a copy)."""
        if self._data.ndim == 1:
            return ops.DiagEmbed.apply(self, diagonal)
        if self._data.ndim != 2:
            raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{self._data.ndim}D")
        return ops.DiagCopy.apply(self, diagonal)

    def trace(self):
        if self._data.ndim != 2:
            raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(self._data.ndim))
        return ops.Trace.apply(self.long() if self._data.dtype == np.uint8 else self)  # (NumPy's: uint64)

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        """Each vector along the last dim on diagonal ``offset`` of a matrix in dims ``dim1``, ``dim2``."""
        n = self._data.ndim + 1
        d1, d2 = _dim(dim1, n), _dim(dim2, n)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return ops.DiagEmbedDims.apply(self, offset, d1, d2)

    def diagflat(self, offset=0):
        """The flattened tensor on diagonal ``offset`` of a square matrix (as PyTorch: a view first)."""
        return self.contiguous().view(-1).diag_embed(offset, 0, 1)


def _check_bmm(batch1, batch2):
    _check_ndim("batch1", batch1, 3), _check_ndim("batch2", batch2, 3)
    (b, _, k), got = batch1._data.shape, batch2._data.shape
    if got[:2] != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] "
                           f"but got: [{got[0]}, {got[1]}].")


def tensordot(a, b, dims=2):
    """Contract ``dims`` (a number: a's last and b's first; or two lists): as PyTorch, both
    permuted to (free, contracted) and (contracted, free), reshaped to matrices, multiplied."""
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        dims_a, dims_b = list(range(a._data.ndim - dims, a._data.ndim)), list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    dims_a = [d % a._data.ndim for d in dims_a]
    dims_b = [d % b._data.ndim for d in dims_b]
    for da, db in zip(dims_a, dims_b):
        if a._data.shape[da] != b._data.shape[db]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a._data.shape[da]} in "
                               f"dim {da - a._data.ndim if da == a._data.ndim - 1 else da} and second has size "
                               f"{b._data.shape[db]} in dim {db}")
    free_a = [d for d in range(a._data.ndim) if d not in dims_a]
    free_b = [d for d in range(b._data.ndim) if d not in dims_b]
    out_shape = tuple(a._data.shape[d] for d in free_a) + tuple(b._data.shape[d] for d in free_b)
    ta, tb = a.permute(free_a + dims_a), b.permute(dims_b + free_b)
    if not free_a and not free_b and len(dims_a) == 1:  # two vectors: a dot product
        return (ta @ tb).view(out_shape)
    size = math.prod(a._data.shape[d] for d in dims_a)
    ta = ta.reshape(math.prod(a._data.shape[d] for d in free_a), size)
    tb = tb.reshape(size, math.prod(b._data.shape[d] for d in free_b))
    return (ta @ tb).view(out_shape)


_warned = set()  # the deprecation warnings given: each once per process, as PyTorch's TORCH_WARN_ONCE


def warn_once(message):
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message)


CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch "
    "release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n"
    "U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
    "This transform will produce equivalent results for all valid (symmetric positive definite) inputs.")
QR_DEPRECATED = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
    "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, some)\n"
    "should be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")
CROSS_NO_DIM = (
    "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly or "
    "simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of linalg.cross "
    "in a future release.")
CHAIN_MATMUL_DEPRECATED = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot "
    "instead, which accepts a list of two or more tensors rather than multiple parameters.")


def _check_matrix(name, t):
    if t._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
