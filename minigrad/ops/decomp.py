"""Linear algebra beyond products: determinants, inverses, solves, and the decompositions
(Cholesky, QR, SVD, eigh), each with the derivative PyTorch's ``derivatives.yaml`` gives it.

Forward asks NumPy's LAPACK (the routines PyTorch's CPU build calls too: getrf, potrf,
geqrf, gesdd, syevd). Backward is written with Tensor ops, so it can be differentiated again.

A decomposition has several outputs (Q and R), all of one node, as in PyTorch: its
backward gets a gradient per output (None for an output not used) and sends back one.
The node names are PyTorch's.
"""
import math
import warnings

import numpy as np

from ..core import grad_mode, node
from ..core.tensor import TensorBase
from ..core.function import Op
from .join import Cat


class _LinAlgError(RuntimeError):
    """What PyTorch raises when LAPACK says a matrix is singular or not positive-definite
    (``torch.linalg.LinAlgError``, a RuntimeError)."""


_LinAlgError.__module__ = "minigrad._C"


def _batch_prefix(shape, flat_index):
    """``(Batch element 1): `` for a batch of matrices, nothing for one matrix."""
    return f"(Batch element {flat_index}): " if len(shape) > 2 else ""


def _first_zero_pivot(a):
    """For each matrix of ``a``: the first zero on U's diagonal in its LU factorization
    (partial pivoting, as LAPACK's getrf), counted from 1; 0 where there is none."""
    import scipy.linalg  # (imported on first use: `import minigrad` stays fast)
    flat = a.reshape(-1, *a.shape[-2:])
    info = np.zeros(len(flat), dtype=np.int32)
    for b, m in enumerate(flat):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (SciPy's warning of the zero pivot we look for)
            lu = scipy.linalg.lu_factor(m, check_finite=False)[0] if m.size else m
        zeros = np.flatnonzero(np.diagonal(lu) == 0)
        info[b] = zeros[0] + 1 if zeros.size else 0
    return info.reshape(a.shape[:-2])


def _mT(t):
    return t.transpose(-2, -1)


def _const(array):
    return TensorBase._wrap(array)


# ---------------------------------------------------------------------------------------------
# Determinants
# ---------------------------------------------------------------------------------------------


class Det(Op):
    """``det(A)``. d det / dA = det(A) A^-T (PyTorch's linalg_det_backward); where det(A) is
    exactly 0, 0, as PyTorch gives there."""
    node_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.asarray(np.linalg.det(a) if a.size else np.ones(a.shape[:-2]), dtype=a.dtype)
        ctx.save_for_backward(a, out)  # (the output itself: with create_graph, det's own node)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, det = ctx.saved_tensors
        inv = InvEx.apply(a, None)  # (no error where A is singular: its inf/NaN are masked)
        det = det.unsqueeze(-1).unsqueeze(-1)
        return (grad.unsqueeze(-1).unsqueeze(-1) * det) * _mT(inv.where(det != 0, 0.0))


class Slogdet(Op):
    """``(sign, log |det(A)|)``, two outputs of one node. The sign is piecewise constant: its
    gradient is 0. log |det(A)|'s is A^-T (PyTorch's slogdet_backward)."""
    node_name = "LinalgSlogdetBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        sign, logabsdet = np.linalg.slogdet(a)
        return sign.astype(a.dtype), logabsdet.astype(a.dtype)

    @staticmethod
    def backward(ctx, grad_sign, grad):
        if grad is None:
            return None  # (as PyTorch: A gets no gradient from the sign alone)
        a, = ctx.saved_tensors
        return grad.unsqueeze(-1).unsqueeze(-1) * _mT(InvEx.apply(a, None))  # (singular A: inf)


# ---------------------------------------------------------------------------------------------
# Inverse and solve
# ---------------------------------------------------------------------------------------------


class InvEx(Op):
    """``A^-1``. Its gradient: -A^-T grad A^-T (with the output saved, as PyTorch saves it).
    ``check``: the name PyTorch's error on a singular matrix gives (linalg.inv); None: give
    LAPACK's inf/NaN (inv_ex, which reports the singularity in ``info``)."""
    node_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx, a, check):
        try:
            out = np.linalg.inv(a)
        except np.linalg.LinAlgError:
            info = _first_zero_pivot(a)
            if check:
                b = int(np.flatnonzero(info.ravel())[0])
                raise _LinAlgError(f"{check}: {_batch_prefix(a.shape, b)}The diagonal element "
                                   f"{info.ravel()[b]} is zero, the inversion could not be completed "
                                   "because the input matrix is singular.") from None
            out = _solve_anyway(a, np.eye(a.shape[-1], dtype=a.dtype))  # (LAPACK's infs and NaNs)
        out = out.astype(a.dtype, copy=False)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        inv, = ctx.saved_tensors
        inv_t = _mT(inv)
        return -(inv_t @ grad @ inv_t), None


def _solve_anyway(a, b):
    """A X = B as LAPACK solves it even when A is singular (np.linalg.solve refuses): LU with
    partial pivoting, then triangular solves that divide by U's zero pivot, giving inf or NaN
    (what inv_ex and solve_ex return). Matrix by matrix, the batch dims broadcast."""
    import scipy.linalg
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    count = math.prod(batch)
    a_s = np.broadcast_to(a, batch + a.shape[-2:]).reshape(count, *a.shape[-2:])
    b_s = np.broadcast_to(b, batch + b.shape[-2:]).reshape(count, *b.shape[-2:])
    out = np.empty(b_s.shape, np.result_type(a, b))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (SciPy's warning of the zero pivot)
        for i, (m, r) in enumerate(zip(a_s, b_s)):
            lu = scipy.linalg.lu_factor(m, check_finite=False)
            out[i] = scipy.linalg.lu_solve(lu, r, check_finite=False)
    return out.reshape(batch + b.shape[-2:])


class SolveEx(Op):
    """``X`` with ``A X = B`` (``left``) or ``X A = B``. Its gradients (PyTorch's
    linalg_solve_backward): G_B = A^-T G (solving with A^T), G_A = -G_B X^T; on the right,
    G_B = G A^-T, G_A = -X^T G_B. ``vector``: B is a vector (a one-column matrix here)."""
    node_name = "LinalgSolveExBackward0"

    @staticmethod
    def forward(ctx, a, b, left, vector, check):
        ctx.left, ctx.vector = left, vector
        if vector:
            b = b[..., None]
        # X A = B is A^T X^T = B^T
        lhs, rhs = (a, b) if left else (np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2))
        try:
            x = np.linalg.solve(lhs, rhs)
        except np.linalg.LinAlgError:
            if check:  # the name PyTorch's error gives (linalg.solve); None: LAPACK's inf/NaN
                first = int(np.flatnonzero(_first_zero_pivot(lhs).ravel())[0])
                raise _LinAlgError(f"{check}: {_batch_prefix(lhs.shape, first)}The solver failed because "
                                   "the input matrix is singular.") from None
            x = _solve_anyway(lhs, rhs)
        x = x if left else np.swapaxes(x, -1, -2)
        x = (x[..., 0] if vector else x).astype(a.dtype, copy=False)
        ctx.save_for_backward(a, x)
        return x

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        if ctx.vector:
            grad, x = grad.unsqueeze(-1), x.unsqueeze(-1)
        grad_b = SolveEx.apply(_mT(a), grad, ctx.left, False, None)
        grad_a = -(grad_b @ _mT(x) if ctx.left else _mT(x) @ grad_b)
        if ctx.vector:
            grad_b = grad_b.squeeze(-1)
        return (grad_a if ctx.needs_input_grad[0] else None,
                grad_b if ctx.needs_input_grad[1] else None, None, None, None)


class Pinv(Op):
    """The pseudo-inverse, through the SVD: singular values under ``max(atol, rtol * largest)``
    count as 0. Its gradient is PyTorch's pinv_backward."""
    node_name = "LinalgPinvBackward0"

    @staticmethod
    def forward(ctx, a, atol, rtol, hermitian):
        if a.size == 0:
            out = np.zeros(a.shape[:-2] + a.shape[:-3:-1], a.dtype)
        else:
            u, s, vh = np.linalg.svd(a, full_matrices=False)
            cut = np.maximum(atol, rtol * s[..., :1])  # s is sorted: s[..., 0] is the largest
            s_inv = np.where(s > cut, 1 / np.where(s > cut, s, 1), 0).astype(a.dtype)
            out = np.swapaxes(vh, -1, -2) @ (s_inv[..., :, None] * np.swapaxes(u, -1, -2))
        out = out.astype(a.dtype, copy=False)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, p = ctx.saved_tensors
        m, n = a.shape[-2:]
        p_t, grad_t = _mT(p), _mT(grad)
        if m <= n:
            k = grad_t @ p
            kp_t = k @ p_t
            g = -_mT(p @ k) + kp_t - (a @ p) @ kp_t + (p_t @ p) @ (grad_t - k @ a)
        else:
            k = p @ grad_t
            p_tk = p_t @ k
            g = -_mT(k @ p) + (grad_t - a @ k) @ p @ p_t + p_tk - p_tk @ p @ a
        return g, None, None, None


# ---------------------------------------------------------------------------------------------
# Decompositions: every factor an output of one node
# ---------------------------------------------------------------------------------------------


class Decomposition(Op):
    """The ``factors`` of A (NumPy arrays, computed by the caller), each an output of this
    node. Backward gets the factors as tensors: constants, unless backward is being recorded
    (create_graph), when they are computed again from A by this op, so that the second
    derivative flows through them too."""

    @staticmethod
    def forward(ctx, a, factors, *options):
        ctx.factors, ctx.options = factors, options
        ctx.save_for_backward(a)
        return tuple(factors)

    @classmethod
    def factors_of(cls, ctx):
        if not grad_mode.is_grad_enabled():
            return [_const(f) for f in ctx.factors]
        a, = ctx.saved_tensors
        return list(cls.apply(a, ctx.factors, *ctx.options))

    @classmethod
    def backward(cls, ctx, *grads):
        return (cls.gradient(ctx, cls.factors_of(ctx), grads), None) + (None,) * len(ctx.options)


def _sym_from_lower(m):
    """tril(M) + tril(M, -1)^T: the symmetric matrix with M's lower triangle."""
    return m.tril() + _mT(m.tril(-1))


class Cholesky(Decomposition):
    """``L`` with ``A = L L^T`` (``upper``: U = L^T). Gradient (PyTorch's cholesky_backward):
    L^-T Phi(L^T G) L^-1, Phi taking the lower triangle with half its diagonal."""
    node_name = "LinalgCholeskyExBackward0"

    @staticmethod
    def gradient(ctx, factors, grads):
        upper, = ctx.options
        ell, g = factors[0], grads[0]
        if upper:
            ell, g = _mT(ell), _mT(g)
        p = (_mT(ell) @ g).tril()
        p = 0.5 * (p + _mT(p.tril(-1)))  # (as PyTorch: 0.5 (P + P^T - diag P), lower part)
        inv = InvEx.apply(ell, "linalg.inv")
        return _mT(inv) @ p @ inv


class Qr(Decomposition):
    """``(Q, R)`` with ``A = Q R``. Gradient (PyTorch's linalg_qr_backward), for m >= n:
    [G_Q + Q copyltu(M)] R^-T, M = R G_R^T - G_Q^T Q; for m < n, A = [X | Y] with X square:
    X's by the same formula with G_Q + Y G_V^T (V = R's last columns), Y's Q G_V."""
    node_name = "LinalgQrBackward0"

    @staticmethod
    def gradient(ctx, factors, grads):
        mode, = ctx.options
        if mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                               "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
                               "through linalg.qr.")
        q, r = factors
        gq, gr = grads
        gq = q.new_zeros(q.shape) if gq is None else gq
        gr = r.new_zeros(r.shape) if gr is None else gr
        m, n = r.shape[-2], r.shape[-1]
        if mode == "complete" and q.shape[-1] > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                               "nrows > ncols.")
        if m >= n:
            return Qr.square_or_tall(q, r, gq, gr)
        a, = ctx.saved_tensors
        gv = gr[..., :, m:]
        gx = Qr.square_or_tall(q, r[..., :, :m], gq + a[..., :, m:] @ _mT(gv), gr[..., :, :m])
        return Cat.apply(-1, gx, q @ gv)

    @staticmethod
    def square_or_tall(q, r, gq, gr):
        m = r @ _mT(gr) - _mT(gq) @ q
        b = gq + q @ _sym_from_lower(m)
        return _mT(SolveEx.apply(r, _mT(b), True, False, None))  # b R^-T


class Svd(Decomposition):
    """``(U, S, Vh)`` with ``A = U diag(S) Vh``. Gradient: PyTorch's svd_backward (for
    distinct nonzero singular values; U's and Vh's beyond min(m, n) columns get none)."""
    node_name = "LinalgSvdBackward0"

    @staticmethod
    def gradient(ctx, factors, grads):
        u, s, vh = factors
        gu, gs, gvh = grads
        m, n = u.shape[-2], vh.shape[-1]
        k = s.shape[-1]
        u, vh = u[..., :, :k], vh[..., :k, :]
        if gu is not None:
            gu = gu[..., :, :k]
        if gvh is not None:
            gvh = gvh[..., :k, :]
        if gu is None and gvh is None:  # only S: U diag(G_S) Vh
            return (u * gs.unsqueeze(-2)) @ vh
        v = _mT(vh)
        s2 = s * s
        e = s2.unsqueeze(-2) - s2.unsqueeze(-1)  # E[i, j] = s_j^2 - s_i^2, 1 on the diagonal
        e = e + TensorBase._wrap(np.eye(k, dtype=e._data.dtype))
        if gu is not None:
            uhgu = _mT(u) @ gu
            uhgu = uhgu - _mT(uhgu)
        if gvh is not None:
            gv = _mT(gvh)
            vhgv = vh @ gv
            vhgv = vhgv - _mT(vhgv)
        if gu is not None and gvh is not None:
            ga = (uhgu * s.unsqueeze(-2) + s.unsqueeze(-1) * vhgv) / e
        elif gu is not None:
            ga = (uhgu / e) * s.unsqueeze(-2)
        else:
            ga = s.unsqueeze(-1) * (vhgv / e)
        if gs is not None:
            ga = ga + gs.diag_embed()
        if m > k and gu is not None:  # U's columns span only part of R^m: the rest of G_U
            ga = u @ ga
            gu_sinv = gu / s.unsqueeze(-2)
            ga = (ga + gu_sinv - u @ (_mT(u) @ gu_sinv)) @ vh
        elif n > k and gvh is not None:
            ga = ga @ vh
            gv_sinv = gv / s.unsqueeze(-2)
            ga = u @ (ga + _mT(gv_sinv) - (_mT(gv_sinv) @ v) @ vh)
        else:
            ga = u @ ga @ vh
        return ga


class Eigh(Decomposition):
    """``(eigenvalues, eigenvectors)`` of a symmetric A (its lower triangle is read).
    Gradient (PyTorch's linalg_eig_backward, Hermitian case):
    V (diag(G_L) + skew(V^T G_V) / 2 / E) V^T, E[i, j] = L_j - L_i."""
    node_name = "LinalgEighBackward0"

    @staticmethod
    def gradient(ctx, factors, grads):
        lam, v = factors
        glam, gv = grads
        if gv is None:
            return (v * glam.unsqueeze(-2)) @ _mT(v)
        vhgv = _mT(v) @ gv
        vhgv = 0.5 * (vhgv - _mT(vhgv))
        n = lam.shape[-1]
        e = lam.unsqueeze(-2) - lam.unsqueeze(-1)
        e = e + TensorBase._wrap(np.eye(n, dtype=e._data.dtype))
        ga = vhgv / e
        if glam is not None:
            ga = ga + glam.diag_embed()
        return v @ ga @ _mT(v)


# ---------------------------------------------------------------------------------------------
# Cross product
# ---------------------------------------------------------------------------------------------


class Cross(Op):
    """``a x b`` along ``dim`` (of length 3). Gradients: b x G and G x a."""
    node_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx, a, b, dim):
        ctx.dim = dim
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return np.ascontiguousarray(np.cross(a, b, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (Cross.apply(b, grad, ctx.dim) if ctx.needs_input_grad[0] else None,
                Cross.apply(grad, a, ctx.dim) if ctx.needs_input_grad[1] else None, None)


class ClassicCholesky(Cholesky):
    node_name = "CholeskyBackward0"  # torch.cholesky, the deprecated form
