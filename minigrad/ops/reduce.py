"""Reductions: many input elements give one output element (sum, mean, var, max, ...).

Their backward sends the output's gradient back to every element that contributed,
after putting back the dimensions the reduction removed (``expand_back``).

Also: Sum, SumDim, Mean, MeanDim, Max, Min in minigrad/core/ops/reduce.py (the core's, imported
here).
"""
import warnings

import numpy as np

from ..core import grad_mode
from ..core.function import Op
from .index import Scatter, ScatterAdd
from .join import Cat
from .shape import Expand
from ..core.ops.reduce import (  # noqa: F401 (the core's: minigrad/core/ops/)
    expand_back, Max, Mean, MeanDim, Min, Sum, SumDim, unsqueeze_back)


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Sums and averages
# ---------------------------------------------------------------------------------------------


class Nansum(Op):
    """A sum that skips NaNs (counts them as 0), so their gradient is 0 (PyTorch's one node
    for all and along dims)."""
    node_name = "NansumBackward0"

    @staticmethod
    def forward(ctx, x, dims, keepdim, dtype):
        # dtype= casts inside the op: PyTorch records no ToCopyBackward0 (the engine casts
        # the gradient back to x's dtype)
        ctx.save_for_backward(x)
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        out = np.asarray(np.nansum(x, axis=dims, keepdims=keepdim, dtype=dtype), order="C")  # row by row
        return out.astype(np.int64 if dtype is None and x.dtype.kind in "biu" else out.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):  # Sum's backward, times 0 where the input was NaN (as PyTorch)
        x, = ctx.saved_tensors
        keep = x.isnan().logical_not()
        return expand_back(grad, ctx.shape, ctx.dims, ctx.keepdim) * keep, None, None, None


class Var(Op):
    """The variance over ``dims``: the squared distances from the mean, summed and divided by
    ``n - correction`` (correction 1, the unbiased estimate, is PyTorch's default)."""
    node_name = "VarBackward0"
    what = "var"  # (the function its warning names)

    @classmethod
    def forward(cls, ctx, x, dims, correction, keepdim):
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return _variance(cls.what, x, dims, correction, keepdim)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return _var_backward(grad, x, ctx), None, None, None


def _var_backward(grad, x, ctx):
    """d var / d x_i = 2 (x_i - mean) / (n - correction), times the incoming gradient."""
    mean = x.mean(ctx.dims, keepdim=True)
    n = x.numel() // max(mean.numel(), 1)
    grad = expand_back(grad, x.shape, ctx.dims, ctx.keepdim)
    with np.errstate(all="ignore"):  # n <= correction: 2 / 0 is inf, (x - mean) * inf nan, as in PyTorch
        return grad * (x - mean) * (np.float64(2.0) / max(n - ctx.correction, 0))


def _variance(name, x, dims, correction, keepdim):
    """The squared distances from the mean, summed, over ``n - correction``. With no more
    values than ``correction`` PyTorch warns, and divides by 0 (giving nan or inf)."""
    n = x.size if dims is None else int(np.prod([x.shape[d] for d in dims]))
    if n - correction <= 0 or x.size == 0:  # (PyTorch's factor, numel in / numel out, is 0 when empty)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).", UserWarning,
                      stacklevel=4)
    squares = (x - x.sum(axis=dims, keepdims=True) / n) ** 2  # (not x.mean: it warns on empty x)
    variance = (squares.sum(axis=dims, keepdims=keepdim) / max(n - correction, 0)).astype(x.dtype, copy=False)
    return np.asarray(variance, order="C")  # row by row, as PyTorch's (x may be a transpose)


class Std(Op):
    """The standard deviation: the square root of the variance (same ``correction``)."""
    node_name = "StdBackward0"
    what = "std"

    @classmethod
    def forward(cls, ctx, x, dims, correction, keepdim):
        out = np.sqrt(_variance(cls.what, x, dims, correction, keepdim))
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return _std_backward(grad, x, out, ctx), None, None, None


def _std_backward(grad, x, std, ctx):
    """d sqrt(v) = dv / (2 sqrt(v)); where the std is 0 every x_i equals the mean, and PyTorch
    sends 0 rather than 0/0."""
    return _var_backward((grad / (2 * std)).where(std != 0, 0.0), x, ctx)


class VarMean(Op):
    """``torch.var_mean``: the variance and the mean over ``dims``, two outputs of one node, as
    PyTorch's. Backward: var's for the first output's gradient, plus mean's for the second's."""
    node_name = "VarMeanBackward0"

    @staticmethod
    def forward(ctx, x, dims, correction, keepdim):
        ctx.save_for_backward(x)
        ctx.correction = correction
        variance = _variance("var_mean", x, dims, correction, keepdim)
        return variance, Mean.forward(ctx, x, dims, keepdim)  # (which sets ctx.dims, ctx.keepdim)

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        x, = ctx.saved_tensors
        parts = [] if grad_var is None else [_var_backward(grad_var, x, ctx)]
        if grad_mean is not None:
            parts.append(Mean.backward(ctx, grad_mean)[0])
        return _total(parts), None, None, None


def _total(parts):
    """The gradients an op's outputs send back to one input, added (one or two of them)."""
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


class StdMean(Op):
    """``torch.std_mean``: the standard deviation and the mean over ``dims``, two outputs of one
    node, as PyTorch's. Backward: std's for the first output's gradient (from the saved std,
    itself an output: differentiated again, the graph goes through this node), plus mean's."""
    node_name = "StdMeanBackward0"

    @staticmethod
    def forward(ctx, x, dims, correction, keepdim):
        ctx.correction = correction
        std = np.sqrt(_variance("std_mean", x, dims, correction, keepdim))
        ctx.save_for_backward(x, std)
        return std, Mean.forward(ctx, x, dims, keepdim)  # (which sets ctx.dims, ctx.keepdim)

    @staticmethod
    def backward(ctx, grad_std, grad_mean):
        x, std = ctx.saved_tensors
        parts = [] if grad_std is None else [_std_backward(grad_std, x, std, ctx)]
        if grad_mean is not None:
            parts.append(Mean.backward(ctx, grad_mean)[0])
        return _total(parts), None, None, None


class Norm(Op):
    """The Euclidean (2-)norm over ``dims``: the square root of the sum of squares."""
    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        out = np.asarray(np.sqrt((x * x).sum(axis=dims, keepdims=keepdim)), dtype=x.dtype, order="C")
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        grad, out = (unsqueeze_back(t, ctx.dims, ctx.keepdim) for t in (grad, out))
        # d |x| / d x_i = x_i / |x|; at |x| = 0 PyTorch sends 0, masking its 0 / 0 (PyTorch's
        # norm_backward): differentiated again there, the masked 0 / 0 gives NaN, as in PyTorch.
        return grad * (x / out).masked_fill(out == 0, 0), None, None


class NormP(Op):
    """The p-norm for any other p: ``(sum |x|^p)^(1/p)``; p = inf is the largest |x|,
    p = -inf the smallest, p = 0 the number of nonzero elements."""
    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, x, p, dims, keepdim):
        out = vector_norm(x, p, dims, keepdim)
        ctx.save_for_backward(x, out)
        ctx.p, ctx.dims, ctx.keepdim = p, dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return norm_backward(grad, x, out, ctx.p, ctx.dims, ctx.keepdim), None, None, None


def vector_norm(x, p, dims, keepdim):
    """The p-norm of NumPy array ``x`` over ``dims``, in x's dtype."""
    a = np.abs(x)
    if p in (float("inf"), -float("inf")):
        out = (a.max if p > 0 else a.min)(axis=dims, keepdims=keepdim)
    elif p == 0:
        out = (a != 0).sum(axis=dims, keepdims=keepdim)
    elif p == 2:
        out = np.sqrt((x * x).sum(axis=dims, keepdims=keepdim))
    else:
        out = (a ** p).sum(axis=dims, keepdims=keepdim) ** (1 / p)
    return np.asarray(out, dtype=x.dtype, order="C")  # row by row, as PyTorch's


def norm_backward(grad, x, out, p, dims, keepdim):
    """PyTorch's norm_backward: the gradient of ``out``, the p-norm of ``x`` over ``dims``."""
    if p == 0:
        return None  # a count: no gradient at all, as in PyTorch
    if p == 1 or p in (float("inf"), -float("inf")):
        grad, out = (expand_back(t, x.shape, dims, keepdim) for t in (grad, out))
        if p == 1:
            return x.sgn() * grad  # (PyTorch's order)
        a = x.abs()
        is_max = (a == out).logical_or(a.isnan())  # ties share the gradient, as in amax (amin); NaNs too
        return x.sgn() * (grad / is_max.sum(dims, keepdim=True) * is_max)
    grad, out = (unsqueeze_back(t, dims, keepdim) for t in (grad, out))
    if p == 2:  # x_i / |x|, 0 where the norm is 0 (as Norm)
        return grad * (x / out).masked_fill(out == 0, 0)
    # d/dx_i = sgn(x_i) |x_i|^(p-1) / norm^(p-1), as PyTorch's norm_backward writes it
    if p < 1:  # |x_i|^(p-1) is inf at x_i = 0: 0 there
        return x.sgn() * x.abs().pow(p - 1).masked_fill(x == 0, 0) * grad * out.pow(1 - p)
    scale = (grad / out.pow(p - 1)).masked_fill(out == 0, 0)  # 0 where the norm is 0
    if p < 2:
        return x.sgn() * x.abs().pow(p - 1) * scale
    return x * x.abs().pow(p - 2) * scale


class Dist(Op):
    """``torch.dist(a, b, p)``: the p-norm of ``a - b`` (broadcast), over all elements."""
    node_name = "DistBackward0"

    @staticmethod
    def forward(ctx, a, b, p):
        diff = a - b
        out = vector_norm(diff, p, None, False)
        ctx.save_for_backward(a, b, out)
        ctx.p = p
        return out

    @staticmethod
    def backward(ctx, grad):  # norm_backward of a - b, with a minus sign for b
        a, b, out = ctx.saved_tensors
        g = norm_backward(grad, a - b, out, ctx.p, None, False)
        return g, None if g is None else -g, None


class Renorm(Op):
    """``x.renorm(p, dim, maxnorm)``: each slice along ``dim`` whose p-norm is above maxnorm
    scaled down to norm maxnorm (times 1 / (norm + 1e-7), as PyTorch)."""
    node_name = "RenormBackward0"

    @staticmethod
    def forward(ctx, x, p, dim, maxnorm):
        dims = tuple(d for d in range(x.ndim) if d != dim)
        norm = vector_norm(x, p, dims, True)
        ctx.save_for_backward(x)
        ctx.p, ctx.dims, ctx.maxnorm = p, dims, maxnorm
        with np.errstate(divide="ignore"):
            factor = np.where(norm > maxnorm, maxnorm / (norm + np.array(1e-7, x.dtype)), 1).astype(x.dtype)
        return x * factor

    @staticmethod
    def backward(ctx, grad):  # PyTorch's renorm_backward
        x, = ctx.saved_tensors
        p, dims, maxnorm = ctx.p, ctx.dims, ctx.maxnorm
        norm = x.norm(p, dims, keepdim=True)
        along = norm_backward((x * grad).sum(dims, keepdim=True), x, norm, p, dims, True)
        invnorm = (norm + 1e-7).reciprocal()
        factor = invnorm * maxnorm
        return (factor * grad - (factor * invnorm) * along).where(norm > maxnorm, grad), None, None, None


class Cdist(Op):
    """``torch.cdist(x1, x2, p)``: the p-norm distance between each row of x1 (..., P, M) and
    each row of x2 (..., R, M), computed from their differences (..., P, R, M)."""
    node_name = "CdistBackward0"

    @staticmethod
    def forward(ctx, x1, x2, p):
        out = vector_norm(x1[..., :, None, :] - x2[..., None, :, :], p, -1, False)
        ctx.save_for_backward(x1, x2, out)
        ctx.p = p
        return out

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's _cdist_backward, pair by pair: each difference's share of its distance's
        gradient (0 where the distance is 0), summed over the other input's rows."""
        x1, x2, out = ctx.saved_tensors
        p = ctx.p
        if p == 0:  # counts: zeros
            return x1.new_zeros(x1.shape), x2.new_zeros(x2.shape), None
        diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
        grad, dist = grad.unsqueeze(-1), out.unsqueeze(-1)
        if p == 1:
            share = grad * diff.sgn()
        elif p == float("inf"):
            share = grad * diff.sgn() * (diff.abs() == dist)  # every tie gets it all, as in PyTorch
        elif p == 2:
            share = (grad * diff / dist).where(dist != 0, 0.0)
        else:
            share = (diff * diff.abs().pow(p - 2) if p > 2 else diff.sgn() * diff.abs().pow(p - 1))
            share = (share * grad / dist.pow(p - 1)).where((dist != 0) & ((diff != 0) | (p >= 1)), 0.0)
        return share.sum(-2), -share.sum(-3), None


class EuclideanDist(Op):
    """cdist for p = 2 with many rows (PyTorch's _euclidean_dist): by a matrix product,
    ``sqrt(|a|^2 + |b|^2 - 2 a.b)``, clamped at 0 before the root (rounding can go below)."""
    node_name = "EuclideanDistBackward0"

    @staticmethod
    def forward(ctx, x1, x2):
        # one product, as PyTorch's: [-2 a, |a|^2, 1] . [b, 1, |b|^2]
        squares1, squares2 = (x1 ** 2).sum(-1, keepdims=True), (x2 ** 2).sum(-1, keepdims=True)
        a = np.concatenate([x1 * -2, squares1, np.ones_like(squares1)], axis=-1)
        b = np.concatenate([x2, np.ones_like(squares2), squares2], axis=-1)
        out = np.sqrt(np.maximum(a @ np.swapaxes(b, -1, -2), 0))
        ctx.save_for_backward(x1, x2, out)
        return out

    @staticmethod
    def backward(ctx, grad):  # PyTorch's _euclidean_dist_backward
        x1, x2, out = ctx.saved_tensors
        ratio = (grad / out).masked_fill(out == 0, 0)
        return (x1 * ratio.sum(-1, True) - ratio.matmul(x2),
                x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1))


class Logsumexp(Op):
    node_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        m = np.max(x, axis=dims, keepdims=True, initial=-np.inf)  # (an empty dim has no max)
        m = np.where(np.isfinite(m), m, 0)  # all -inf (or inf): no shift, the result is +-inf
        out = np.log(np.sum(np.exp(x - m), axis=dims, keepdims=True)) + m
        out = np.asarray(out if keepdim else np.squeeze(out, axis=dims), order="C")  # row by row
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if not ctx.keepdim:  # line the reduced result up with x again
            for d in sorted(ctx.dims):
                grad, out = grad.unsqueeze(d), out.unsqueeze(d)
        return grad * (x - out).exp(), None, None  # the softmax of x, scaled by grad


# ---------------------------------------------------------------------------------------------
# Products and running sums
# ---------------------------------------------------------------------------------------------


class Prod(Op):
    """``x.prod()``: the product of all elements."""
    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, x):
        out = np.prod(x)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if not x.dim():
            return grad
        if (x != 0).all():  # as PyTorch: the product over x_i (so inf and NaN go as there)
            return grad * (out / x)
        if not grad_mode.is_grad_enabled() and int((x == 0).sum()) > 1:
            # two zeros: every product of the others has one, so PyTorch returns zeros, even
            # beside inf (but only off the record: with create_graph=True it takes the path below)
            return x.new_zeros(x.shape)
        return grad * _others_product(x.reshape(-1), 0).reshape(x.shape)


class ProdDim(Op):
    """``x.prod(dim)``: the products along one dimension."""
    node_name = "ProdBackward1"

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        out = np.prod(x, axis=dim if x.ndim else None, keepdims=keepdim)  # 0-d: the value itself
        out = np.asarray(out, order="C")  # row by row, as PyTorch's
        ctx.save_for_backward(x, out)
        ctx.dim, ctx.keepdim = dim, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if not x.dim():
            return grad, None, None
        grad = expand_back(grad, x.shape, (ctx.dim,), ctx.keepdim)
        if (x != 0).all():  # as Prod
            return grad * (expand_back(out, x.shape, (ctx.dim,), ctx.keepdim) / x), None, None
        return grad * _others_product(x, ctx.dim), None, None


def _others_product(x, d):
    """For each element, the product of the *other* elements along ``d``: the product of
    those before it times the product of those after it. No division, so zeros are fine."""
    n = x.shape[d]
    if n == 0:
        return x.new_ones(x.shape)  # no elements along d: nothing to multiply (an empty result)
    ones = x.new_ones(x.shape[:d] + (1,) + x.shape[d + 1:])
    before = Cat.apply(d, ones, x.narrow(d, 0, n - 1)).cumprod(d)
    after = Cat.apply(d, x.narrow(d, 1, n - 1), ones).flip(d).cumprod(d).flip(d)
    return before * after


class Cumsum(Op):
    node_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        out = np.asarray(np.cumsum(x, axis=dim), order="C") if x.ndim else x.copy()  # (0-d: the value itself)
        return out.astype(np.int64, copy=False) if x.dtype.kind in "biu" else out

    @staticmethod
    def backward(ctx, grad):  # x_i counts in every sum from i on: sum the gradients from the end
        if grad.dim() == 0:
            return grad, None
        return grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim), None


class Cumprod(Op):
    node_name = "CumprodBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        out = np.asarray(np.cumprod(x, axis=dim), order="C") if x.ndim else x.copy()  # row by row
        ctx.save_for_backward(x, out)
        ctx.dim = dim
        return out.astype(np.int64, copy=False) if x.dtype.kind in "biu" else out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if x.numel() <= 1 or x.shape[ctx.dim] == 1:  # out is x: the gradient as it comes
            return grad, None
        d, n = ctx.dim, x.shape[ctx.dim]
        # x_i is a factor of every out_j with j >= i, and d out_j / d x_i = out_j / x_i...
        if (x != 0).all():
            return (grad * out).flip(d).cumsum(d).flip(d) / x, None
        if not grad_mode.is_grad_enabled():  # off the record: PyTorch's O(n) form, which never
            return _cumprod_first_order(x, out, grad, d), None  # multiplies an inf grad by 0
        # ... unless x_i is 0: then, as PyTorch does, the products without x_i, element by
        # element along d: for out_j (j >= i), the product of x_k for k <= j, k != i.
        ones = x.new_ones(x.shape[:d] + (1,) + x.shape[d + 1:])
        pieces = []
        for i in range(n):
            before = x.narrow(d, 0, i).prod(d, keepdim=True) if i else ones
            without_i = Cat.apply(d, before, before * x.narrow(d, i + 1, n - i - 1).cumprod(d))
            pieces.append((grad.narrow(d, i, n - i) * without_i).sum(d, keepdim=True))
        return Cat.apply(d, *pieces), None


def _cumprod_first_order(x, out, grad, d):
    """cumprod's gradient where x has zeros, as PyTorch computes it without create_graph: each
    element counts only the outputs that have no other zero in them (the rest get exactly 0)."""
    zero = x == 0
    zeros_so_far = zero.cumsum(d)
    before = zeros_so_far == 0  # ahead of the first zero: as without zeros, over those outputs
    ahead = (grad * out).masked_fill(~before, 0.0).flip(d).cumsum(d).flip(d) / x
    # the first zero: (the product before it) * (sum of grad_j * x_(zero+1) ... x_j up to the next zero)
    upto_next = zeros_so_far == 1
    first_zero = zero & upto_next
    prefix = x.masked_fill(~before, 1.0).prod(d, keepdim=True)
    after = (grad * x.masked_fill(before | first_zero, 1.0).cumprod(d)).masked_fill(~upto_next, 0.0)
    at_zero = (prefix * after.sum(d, keepdim=True)).expand(x.shape).masked_fill(~first_zero, 0.0)
    return ahead.where(before, at_zero)


class Logcumsumexp(Op):
    """``log(cumsum(exp(x)))``, computed without overflow (NumPy's ``logaddexp.accumulate``),
    in float64 and rounded once at the end, as PyTorch's CPU accumulates float32."""
    node_name = "LogcumsumexpBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        if x.ndim:
            out = np.logaddexp.accumulate(x, axis=dim, dtype=np.float64).astype(x.dtype, order="C")
        else:
            out = x.copy()
        ctx.save_for_backward(x, out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        """x_i counts in every out_j from i on, with weight exp(x_i - out_j): the gradient is
        sum_(j >= i) grad_j exp(x_i - out_j). PyTorch's logcumsumexp_backward sums it in log
        space, the positive and the negative parts of grad apart, so that nothing overflows."""
        x, out = ctx.saved_tensors
        if grad.numel() == 0 or x.dim() == 0:
            return grad, None
        d = ctx.dim
        lowest = float(np.finfo(x._data.dtype).min)  # log(0), finite: -inf - -inf would be NaN
        log_abs = grad.abs().log()

        def from_the_end(t):  # log(sum_(j >= i) exp(t_j))
            return t.flip(d).logcumsumexp(d).flip(d)
        positive = (from_the_end(log_abs.where(grad > 0, lowest) - out) + x).exp()
        negative = (from_the_end(log_abs.where(grad < 0, lowest) - out) + x).exp()
        return positive - negative, None


class Cummax(Op):
    """``x.cummax(dim)``'s values: the running maximum, picked at the indices the Tensor
    method finds. Backward: PyTorch's cummaxmin_backward, each gradient added to the element
    it was picked from (``zeros.scatter_add``: one element can be picked many times)."""
    node_name = "CummaxBackward0"

    @staticmethod
    def forward(ctx, x, dim, indices):
        ctx.shape, ctx.dim = x.shape, dim
        if x.ndim == 0:
            return x.copy()
        ctx.save_for_backward(indices if x.size else x)  # (empty: see backward)
        return np.take_along_axis(x, indices, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        if ctx.shape == ():
            return grad, None, None
        saved, = ctx.saved_tensors
        if grad.numel() == 0:  # PyTorch's gradient of an empty x is x itself (so, with create_graph, in x's graph)
            return saved, None, None
        return ScatterAdd.apply(grad.new_zeros(ctx.shape), ctx.dim, saved, grad), None, None


class Cummin(Cummax):
    node_name = "CumminBackward0"


# ---------------------------------------------------------------------------------------------
# Maximum and minimum
# ---------------------------------------------------------------------------------------------


class Amax(Op):
    """``x.amax(dims)``: the largest values over ``dims``, without indices; ties share."""
    node_name = "AmaxBackward0"
    reduce = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx, x, dims, keepdim):
        out = np.asarray(cls.reduce(x, axis=dims, keepdims=keepdim), order="C")  # row by row
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return _to_extremes(grad, x, out, ctx), None, None


def _to_extremes(grad, x, out, ctx):
    """amax's (amin's) backward: the gradient shared among the elements equal to the extreme."""
    grad, out = (expand_back(t, x.shape, ctx.dims, ctx.keepdim) for t in (grad, out))
    is_extreme = x == out
    return grad * is_extreme / is_extreme.sum(ctx.dims, keepdim=True)


class Amin(Amax):
    node_name = "AminBackward0"
    reduce = staticmethod(np.min)


class MaxDim(Op):
    """``x.max(dim)``: the largest element along ``dim``; indices are returned separately."""
    node_name = "MaxBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, indices):
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        if x.ndim == 0:  # dim 0 of a 0-d tensor: the value itself
            return x.copy()
        ctx.save_for_backward(indices)  # as returned (with the reduced dim if keepdim), as PyTorch saves them
        out = np.take_along_axis(x, indices if keepdim else np.expand_dims(indices, dim), axis=dim)
        return out if keepdim else np.squeeze(out, dim)

    @staticmethod
    def backward(ctx, grad):  # only the element that was picked receives the gradient
        if ctx.shape == ():
            return grad, None, None, None
        indices, = ctx.saved_tensors
        if not ctx.keepdim:
            indices, grad = indices.unsqueeze(ctx.dim), grad.unsqueeze(ctx.dim)
        return picked_backward(ctx, grad, indices), None, None, None


def picked_backward(ctx, grad, indices):
    """PyTorch's value_selecting_reduction_backward (max(dim), sort, topk...): ``grad`` placed
    at ``indices`` along ``ctx.dim`` in zeros, ``zeros.scatter(dim, indices, grad)``
    (ScatterBackward0 with create_graph; differentiated again, a gather)."""
    return Scatter.apply(grad.new_zeros(ctx.shape), ctx.dim, indices, grad)


class MinDim(MaxDim):
    node_name = "MinBackward0"


class Aminmax(Op):
    """``x.aminmax()``: the smallest and the largest values over ``dims``, two outputs of one
    node, as PyTorch's. Backward: amin's for the first output's gradient plus amax's for the
    second's (ties share)."""
    node_name = "AminmaxBackward0"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        ctx.save_for_backward(x)
        ctx.dims, ctx.keepdim = dims, keepdim
        return tuple(np.asarray(f(x, axis=dims, keepdims=keepdim), order="C") for f in (np.min, np.max))

    @staticmethod
    def backward(ctx, grad_min, grad_max):
        x, = ctx.saved_tensors
        parts = [_to_extremes(g, x, x.new_tensor(f(x._data, axis=ctx.dims, keepdims=ctx.keepdim)), ctx)
                 for g, f in ((grad_min, np.min), (grad_max, np.max)) if g is not None]
        return _total(parts), None, None


class NormDim(NormP):
    """``at::norm(x, p, dim, keepdim)``, the norm PyTorch's C++ calls (pairwise_distance's):
    NormP's forward and backward, under the C++ node's name."""
    node_name = "NormBackward1"
