"""The ``torch.*`` reductions: ``torch.sum(x, 1)`` is ``x.sum(1)``, ``torch.max``, ``torch.sort``,
``torch.softmax``... Each is its Tensor method (minigrad/_tensor_reduce.py) under PyTorch's
function name; the rest of the namespace's functions are in _functions.py.
"""
from . import ops
from ._conventions import dims as _dims
from ._tensor_math import check_tensors


def sum(input, *args, **kwargs):
    return input.sum(*args, **kwargs)


def mean(input, *args, **kwargs):
    return input.mean(*args, **kwargs)


def nansum(input, *args, **kwargs):
    return input.nansum(*args, **kwargs)


def nanmean(input, *args, **kwargs):
    return input.nanmean(*args, **kwargs)


def prod(input, *args, **kwargs):
    return input.prod(*args, **kwargs)


def cumsum(input, dim, **kwargs):
    return input.cumsum(dim, **kwargs)


def cumprod(input, dim, **kwargs):
    return input.cumprod(dim, **kwargs)


def var(input, *args, **kwargs):
    return input.var(*args, **kwargs)


def std(input, *args, **kwargs):
    return input.std(*args, **kwargs)


def norm(input, *args, **kwargs):
    return input.norm(*args, **kwargs)


def max(input, *args, **kwargs):
    return input.max(*args, **kwargs)


def min(input, *args, **kwargs):
    return input.min(*args, **kwargs)


def median(input, *args, **kwargs):
    return input.median(*args, **kwargs)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    check_tensors("_unique2" if dim is None else "unique_dim", 1, input=input)
    return input.unique(sorted, return_inverse, return_counts, dim)


def bincount(input, weights=None, minlength=0):
    check_tensors("bincount", 1, input=input)
    if weights is not None:
        check_tensors("bincount", 2, weights=weights)
    return input.bincount(weights, minlength)


def argmax(input, *args, **kwargs):
    return input.argmax(*args, **kwargs)


def argmin(input, *args, **kwargs):
    return input.argmin(*args, **kwargs)


def amax(input, *args, **kwargs):
    return input.amax(*args, **kwargs)


def amin(input, *args, **kwargs):
    return input.amin(*args, **kwargs)


def all(input, *args, **kwargs):
    return input.all(*args, **kwargs)


def any(input, *args, **kwargs):
    return input.any(*args, **kwargs)


def count_nonzero(input, dim=None):
    return input.count_nonzero(dim)


def logsumexp(input, dim, keepdim=False):
    return input.logsumexp(dim, keepdim)


def sort(input, *args, **kwargs):
    return input.sort(*args, **kwargs)


def argsort(input, *args, **kwargs):
    return input.argsort(*args, **kwargs)


def topk(input, k, *args, **kwargs):
    return input.topk(k, *args, **kwargs)


def softmax(input, dim, dtype=None):
    return input.softmax(dim, dtype)


def log_softmax(input, dim, dtype=None):
    return input.log_softmax(dim, dtype)


def cummax(input, dim):
    return input.cummax(dim)


def cummin(input, dim):
    return input.cummin(dim)


def logcumsumexp(input, dim):
    return input.logcumsumexp(dim)


def kthvalue(input, k, dim=-1, keepdim=False):
    return input.kthvalue(k, dim, keepdim)


def mode(input, dim=-1, keepdim=False):
    return input.mode(dim, keepdim)


def nanmedian(input, *args, **kwargs):
    return input.nanmedian(*args, **kwargs)


def aminmax(input, *, dim=None, keepdim=False):
    return input.aminmax(dim=dim, keepdim=keepdim)


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return input.quantile(q, dim, keepdim, interpolation=interpolation)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return input.nanquantile(q, dim, keepdim, interpolation=interpolation)


def msort(input):
    return input.msort()


def std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(input.std(dim), input.mean(dim))`` in one call (a tuple, as PyTorch's)."""
    return _spread_and_mean("std_mean", ops.StdOfStdMean, ops.MeanOfStdMean, input, dim, unbiased, keepdim,
                            correction)


def var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(input.var(dim), input.mean(dim))`` in one call."""
    return _spread_and_mean("var_mean", ops.VarOfVarMean, ops.MeanOfVarMean, input, dim, unbiased, keepdim,
                            correction)


def _spread_and_mean(name, spread, mean, input, dim, unbiased, keepdim, correction):
    check_tensors(name, 1, input=input)
    if isinstance(dim, bool):  # std_mean(x, False): the old positional ``unbiased``
        dim, unbiased = None, dim
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    correction = (1 if unbiased else 0) if correction is None else correction
    dims = _dims(dim, input._data.ndim)
    if dims is None and keepdim:
        dims = tuple(range(input._data.ndim))
    return spread.apply(input, dims, correction, keepdim), mean.apply(input, dims, keepdim)
