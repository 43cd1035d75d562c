"""The Tensor's reductions: sum, mean, var, max, prod, sort, ... (many elements in, fewer out).

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/reduce.py`` (or ``ops/sorting.py``: median, kthvalue, sort, unique...).
This module reaches the Tensor class only through ``autograd.TensorBase``.

PyTorch accepts NumPy's spellings too: ``x.sum(axis=0, keepdims=True)`` is
``x.sum(dim=0, keepdim=True)``; ``numpy_spellings`` below renames them.
"""
import functools
import warnings

import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import MaxResult, MedianResult, MinResult, SortResult, TopkResult
from ._conventions import (AminmaxResult, CummaxResult, CumminResult, KthvalueResult, ModeResult,
                           NanmedianResult)
from ._conventions import check_broadcast
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from ._selection import kth_index, mode_index
from ._conventions import check_tensors
from ._tensor_arithmetic import _floating, _in_place
from .core.tensor import TensorBase


def numpy_spellings(method):
    """Accept ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``, as PyTorch does."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if "axis" in kwargs:
            kwargs["dim"] = kwargs.pop("axis")
        if "keepdims" in kwargs:
            kwargs["keepdim"] = kwargs.pop("keepdims")
        return method(self, *args, **kwargs)
    return wrapper


def _indices(array):
    return TensorBase._wrap(np.asarray(array, dtype=np.int64, order="C"))  # row by row


_ALL = object()  # median(): no dim given (median(None) is an error, as in PyTorch)


def _asked(dtype, out):
    """Sums and products of integers are int64 unless ``dtype=`` asked for a smaller one (as in PyTorch)."""
    asked = dtype.__class__ is _dtype.dtype and dtype._category == 1  # (not dtype=int: that is int64)
    return out.to(dtype) if asked and out.dtype is not dtype else out


def _truth(x, out):
    """all's and any's answer: bools, but uint8 for a uint8 tensor (as PyTorch keeps it)."""
    return TensorBase._wrap(np.asarray(out, x._data.dtype if x._data.dtype == np.uint8 else None, order="C"))


class ReduceMixin:
    __slots__ = ()

    # -- sums and averages ----------------------------------------------------------------------
    @numpy_spellings
    def sum(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "sum"))
        dims = _dims(dim, x._data.ndim)
        return _asked(dtype, (ops.Sum if dims is None else ops.SumDim).apply(x, dims, keepdim))

    @numpy_spellings
    def mean(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "mean"))
        if not x.dtype.is_floating_point:
            which = "Input" if dtype is None else "Optional"
            raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either a "
                               f"floating point or complex dtype. Got: {x.dtype.legacy_name}")
        dims = _dims(dim, x._data.ndim)
        return (ops.Mean if dims is None else ops.MeanDim).apply(x, dims, keepdim)

    @numpy_spellings
    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        dtype = _dtype.dtype_arg(dtype, "nansum")
        return ops.Nansum.apply(self, _dims(dim, self._data.ndim), keepdim, dtype and dtype.np)

    @numpy_spellings
    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        """nansum over the count of non-NaN elements, a composition as in PyTorch (DivBackward0)."""
        if not self.dtype.is_floating_point:
            raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but "
                               f"got {self.dtype.legacy_name}")
        count = self.isnan().logical_not().sum(dim, keepdim)
        return self.nansum(dim, keepdim, dtype=dtype) / count

    @numpy_spellings
    def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Var, dim, unbiased, keepdim, correction)

    @numpy_spellings
    def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Std, dim, unbiased, keepdim, correction)

    def _spread(self, op, dim, unbiased, keepdim, correction):
        if isinstance(dim, bool):  # x.std(False): the old positional ``unbiased``
            dim, unbiased = None, dim
        if not self.dtype.is_floating_point:
            raise RuntimeError("std and var only support floating point and complex dtypes")
        correction = (1 if unbiased else 0) if correction is None else correction
        return op.apply(self, _dims(dim, self._data.ndim), correction, keepdim)

    @numpy_spellings
    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """The vector p-norm over ``dim`` (all elements if None); "fro" is p = 2."""
        dtype = _dtype.dtype_arg(dtype, "linalg_vector_norm")
        if not self.dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        if dtype is not None and not dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, but got "
                               f"{dtype.legacy_name}")
        x = self if dtype is None else self.to(dtype)
        dims = _dims(dim, x._data.ndim)
        if p in ("fro", 2):
            return ops.Norm.apply(x, dims, keepdim)
        if isinstance(p, str):
            raise NotImplementedError(f"minigrad's norm computes vector p-norms; p='{p}' is a matrix "
                                      "norm (use p=2 or 'fro', or a number)")
        if p in (float("inf"), -float("inf")):  # max and min have no identity: NumPy's words otherwise
            text = f"linalg.vector_norm cannot compute the {p:g} norm on "
            if dim is None and 0 in x._data.shape:
                raise RuntimeError(text + "an empty tensor because the operation does not have an identity")
            for given, d in zip(() if dim is None else (dim if isinstance(dim, (tuple, list)) else (dim,)), dims or ()):
                if x._data.shape[d] == 0:  # the dim as written (PyTorch's words, its missing space)
                    raise RuntimeError(text + f"the dimension {given}because this dimension is empty and the "
                                       "operation does not have an identity")
        return ops.NormP.apply(x, float(p), dims, keepdim)

    @numpy_spellings
    def logsumexp(self, dim, keepdim=False):
        return ops.Logsumexp.apply(_floating(self), _dims(dim, self._data.ndim), keepdim)

    @numpy_spellings
    def prod(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "prod"))
        if x._data.dtype.kind in "bu":
            x = x.long()  # products of bools and uint8 are int64 (NumPy's of uint8: uint64)
        if dim is None:
            return _asked(dtype, ops.Prod.apply(x))
        return _asked(dtype, ops.ProdDim.apply(x, _dim(dim, x._data.ndim), keepdim))

    @numpy_spellings
    def cumsum(self, dim, dtype=None):
        return self._running(ops.Cumsum, dim, _dtype.dtype_arg(dtype, "cumsum"))

    @numpy_spellings
    def cumprod(self, dim, dtype=None):
        return self._running(ops.Cumprod, dim, _dtype.dtype_arg(dtype, "cumprod"))

    def _running(self, op, dim, dtype):
        if dtype is _dtype.bool:  # asked for; a bool tensor's own running sum is int64
            raise NotImplementedError(f'"{op.__name__.lower()}_out_cpu" not implemented for \'Bool\'')
        x = self if dtype is None else self.to(dtype)
        return _asked(dtype, op.apply(x, _dim(dim, x._data.ndim)))

    def cumsum_(self, dim, dtype=None):
        _check_not_bool("cumsum", self)
        return _cumsum_(self, dim, dtype)

    def cumprod_(self, dim, dtype=None):
        _check_not_bool("cumprod", self)
        return _cumprod_(self, dim, dtype)

    def logcumsumexp(self, dim):
        if self._data.dtype.kind != "f":
            raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{self.dtype.legacy_name}\'')
        return ops.Logcumsumexp.apply(self, _dim(dim, self._data.ndim))

    def cummax(self, dim):
        """The running maximum along ``dim``, and where each was found (the last of equal
        values, as PyTorch; after a NaN, NaN, at the last NaN)."""
        return self._running_extreme(dim, np.maximum, ops.Cummax, CummaxResult)

    def cummin(self, dim):
        return self._running_extreme(dim, np.minimum, ops.Cummin, CumminResult)

    def _running_extreme(self, dim, ufunc, op, result):
        x = self._data
        d = _dim(dim, x.ndim)
        if x.ndim == 0:
            return result(op.apply(self, d, None), _indices(0))
        running = ufunc.accumulate(x, axis=d)
        # the index of the running extreme: the last position that reached (or tied) it
        reached = (x == running) | (np.isnan(x) if x.dtype.kind == "f" else False)
        positions = np.arange(x.shape[d]).reshape((-1,) + (1,) * (x.ndim - d - 1))
        indices = np.maximum.accumulate(np.where(reached, positions, 0), axis=d)
        return result(op.apply(self, d, indices), _indices(indices))

    # -- logical ----------------------------------------------------------------------------------
    @numpy_spellings
    def all(self, dim=None, keepdim=False):
        return _truth(self, np.all(self._data, axis=_dims(dim, self._data.ndim), keepdims=keepdim))

    @numpy_spellings
    def any(self, dim=None, keepdim=False):
        return _truth(self, np.any(self._data, axis=_dims(dim, self._data.ndim), keepdims=keepdim))

    def count_nonzero(self, dim=None):
        return _indices(np.count_nonzero(self._data, axis=_dims(dim, self._data.ndim)))

    # -- largest and smallest -------------------------------------------------------------------
    @numpy_spellings
    def max(self, dim=None, keepdim=False):
        """``max()``: the largest element; ``max(dim)``: values and indices along dim;
        ``max(other)``: the elementwise maximum."""
        if isinstance(dim, TensorBase):
            return self.maximum(dim)
        if dim is None:
            _check_not_empty("max", self)
            return ops.Max.apply(self)
        return self._extreme(dim, keepdim, np.argmax, ops.MaxDim, MaxResult)

    @numpy_spellings
    def min(self, dim=None, keepdim=False):
        if isinstance(dim, TensorBase):
            return self.minimum(dim)
        if dim is None:
            _check_not_empty("min", self)
            return ops.Min.apply(self)
        return self._extreme(dim, keepdim, np.argmin, ops.MinDim, MinResult)

    @numpy_spellings
    def median(self, dim=_ALL, keepdim=False):
        """``median()``: the middle element (the lower of two); ``median(dim)``: values and
        indices along dim. A NaN is the median of anything holding it, as in PyTorch."""
        if self.dtype is _dtype.bool:
            raise NotImplementedError(f'"{"median_cpu" if dim is _ALL else "median_out"}" not '
                                      "implemented for 'Bool'")
        if dim is _ALL:
            if keepdim:
                raise TypeError('median() missing 1 required positional arguments: "dim"')
            return ops.Median.apply(self)
        if type(dim) is not int:
            raise TypeError(f"median(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        return self._extreme(dim, keepdim, _median_index, ops.MedianDim, MedianResult)

    @numpy_spellings
    def nanmedian(self, dim=_ALL, keepdim=False):
        """median, leaving NaNs out: NaN only where every element is NaN."""
        if self.dtype is _dtype.bool:
            raise NotImplementedError(f'"{"median_cpu" if dim is _ALL else "median_out"}" not '
                                      "implemented for 'Bool'")
        if dim is _ALL:
            if keepdim:
                raise TypeError('nanmedian() missing 1 required positional arguments: "dim"')
            return ops.Nanmedian.apply(self)
        return self._extreme(dim, keepdim, _nanmedian_index, ops.NanmedianDim, NanmedianResult, "median")

    @numpy_spellings
    def kthvalue(self, k, dim=-1, keepdim=False):
        """The k-th smallest element along ``dim`` (k = 1: the smallest) and its index."""
        if self.dtype is _dtype.bool:
            raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
        d = _dim(dim, self._data.ndim)
        size = self._data.shape[d] if self._data.ndim else 1
        if size and not 1 <= k <= size:
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
        return self._extreme(d, keepdim, functools.partial(kth_index, k=k), ops.Kthvalue, KthvalueResult)

    @numpy_spellings
    def mode(self, dim=-1, keepdim=False):
        """The most frequent value along ``dim`` (of equally frequent ones, the smallest) and
        an index where it is (the one PyTorch's CPU gives: see _selection.py)."""
        return self._extreme(dim, keepdim, mode_index, ops.Mode, ModeResult)

    def aminmax(self, *args, dim=None, keepdim=False):
        """``(amin, amax)`` in one call, over ``dim`` or all elements."""
        if args:  # (dim= only, by name)
            raise TypeError(f"aminmax() takes 0 positional arguments but {len(args)} was given")
        x = self._data
        if dim is None:
            if x.size == 0:
                raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                                   "operation has no identity.")
            dims = None if x.ndim else ()
        else:
            d = _dim(dim, x.ndim)
            if x.ndim and x.shape[d] == 0:
                raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
            dims = (d,) if x.ndim else ()
        if dims is None and keepdim:
            dims = tuple(range(x.ndim))
        return AminmaxResult(*ops.Aminmax.apply(self, dims, keepdim))

    def msort(self):
        """Sorted along the first dimension: ``sort(dim=0).values``."""
        return self.sort(0).values

    @numpy_spellings
    def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        """The q-th quantiles over ``dim`` (all elements if None): the value a fraction q of
        the way along the sorted elements, between two of them as ``interpolation`` says. A
        tensor q gives one result per q, stacked along a new first dim."""
        return _quantile(self, q, dim, keepdim, interpolation, ignore_nan=False)

    @numpy_spellings
    def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        """quantile, leaving NaNs out: NaN only where every element is NaN."""
        return _quantile(self, q, dim, keepdim, interpolation, ignore_nan=True)

    # -- counting (no derivative) ---------------------------------------------------------------
    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        """The distinct elements (or slices along ``dim``), in increasing order (also with
        ``sorted=False``, as PyTorch's CPU gives them); optionally where each element went
        (``inverse``: ``values[inverse]`` is self) and how many of each there were."""
        x = self._data
        if dim is None:
            values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True, equal_nan=False)
            inverse = inverse.reshape(x.shape)
            op = ops.Unique
        else:
            if type(dim) is not int:
                raise TypeError("unique_dim(): argument 'dim' (position 2) must be int, not "
                                f"{type(dim).__name__}")
            if x.ndim == 0:
                raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
            d = _dim(dim, x.ndim)
            if x.size == 0 and x.shape[d] != 0:
                raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                                   "cannot be applied")
            values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True, axis=d)
            inverse = inverse.reshape(-1)
            op = ops.UniqueDim
        values = op.apply(self, values)
        extra = [_indices(a) for a, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
        return (values, *extra) if extra else values

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        """Each run of equal elements (slices along ``dim``) once, in their order; optionally
        which run each element is in and how long each run is."""
        x = self._data
        if dim is None:
            flat = x.reshape(-1)
            new_run = flat[1:] != flat[:-1]
        else:
            d = _dim(dim, x.ndim)
            flat = np.moveaxis(x, d, 0)
            new_run = (flat[1:] != flat[:-1]).reshape(max(flat.shape[0] - 1, 0), -1).any(axis=1)
        run = np.concatenate([[0], np.cumsum(new_run)]) if flat.shape[0] else np.zeros(0, np.int64)
        starts = np.flatnonzero(np.concatenate([[True], new_run])) if flat.shape[0] else run
        values = flat[starts] if dim is None else np.moveaxis(flat[starts], 0, d)
        values = ops.UniqueConsecutive.apply(self, np.ascontiguousarray(values))
        counts = np.diff(np.append(starts, flat.shape[0]))
        inverse = run.reshape(x.shape) if dim is None else run
        extra = [_indices(a) for a, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
        return (values, *extra) if extra else values

    def histc(self, bins=100, min=0, max=0):
        """How many elements fall in each of ``bins`` equal bins between min and max (the
        smallest and largest element if both are 0); elements outside are left out."""
        x = self._data
        if x.dtype.kind != "f":
            raise NotImplementedError(f'"histogram_cpu" not implemented for \'{self.dtype.legacy_name}\'')
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        lo, hi = x.dtype.type(min), x.dtype.type(max)
        if lo == hi and x.size:
            lo, hi = x.min(), x.max()
        if lo == hi:
            lo, hi = lo - 1, hi + 1
        if lo > hi:
            raise RuntimeError("torch.histc: max must be larger than min")
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise RuntimeError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")
        inside = x[(x >= lo) & (x <= hi)]
        # the bin by division, in x's dtype (as PyTorch); the last bin holds max too
        where = ((inside - lo) * x.dtype.type(bins) / (hi - lo)).astype(np.int64)
        counts = np.bincount(np.minimum(where, bins - 1), minlength=bins)
        return TensorBase._wrap(counts.astype(x.dtype))

    def dist(self, other, p=2, *, _position=2):
        """The p-norm of ``self - other``."""
        check_tensors("dist", 1, other=other)
        if isinstance(p, (str, bool)) or not isinstance(p, (int, float)):
            raise TypeError(f"dist(): argument 'p' (position {_position}) must be Number, not {type(p).__name__}")
        a, b = (t if t.dtype.is_floating_point else None for t in (self, other))
        if a is None or b is None:
            bad = self if a is None else other
            raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                               f"{bad.dtype.legacy_name} instead.")
        check_broadcast(self._data.shape, other._data.shape)
        return ops.Dist.apply(self, other, float(p))

    def renorm(self, p, dim, maxnorm):
        """Each slice along ``dim`` with a p-norm above ``maxnorm``, scaled to norm maxnorm."""
        if maxnorm < 0:
            raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
        if p <= 0:
            raise RuntimeError("renorm: non-positive-norm not supported")
        if self._data.ndim < 2:
            raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self._data.ndim} dimensions")
        if not self.dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        return ops.Renorm.apply(self, float(p), _dim(dim, self._data.ndim), maxnorm)


    def renorm_(self, p, dim, maxnorm):
        return _inplace.apply(self, lambda t: t.renorm(p, dim, maxnorm))
    def cov(self, *, correction=1, fweights=None, aweights=None):
        """The covariance matrix of the variables in the rows (observations in the columns),
        as PyTorch computes it (so, its graph): optionally weighted by how often each
        observation counts (``fweights``) and by how much (``aweights``)."""
        if self._data.ndim > 2:
            raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input with "
                               f"{self._data.ndim} dimensions")
        if self.dtype is _dtype.bool:
            raise RuntimeError("cov(): bool dtype is not supported for input")
        x = self if self._data.ndim == 2 else self.view(1, -1)
        n = x.shape[1]
        w = None
        for name, given, integral in (("fweights", fweights, True), ("aweights", aweights, False)):
            if given is None:
                continue
            if given._data.ndim > 1:
                raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                                   f"{given._data.ndim} dimensions")
            if integral == given.dtype.is_floating_point or given.dtype is _dtype.bool:
                raise RuntimeError(f"cov(): expected {name} to have {'integral' if integral else 'floating point'} "
                                   f"dtype but got {name} with {given.dtype.legacy_name} dtype")
            if given.numel() != n:
                raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in "
                                   f"the input but got {given.numel()} != {n}")
            if n and given._data.min() < 0:
                raise RuntimeError(f"cov(): {name} cannot be negative")
            w = given if w is None else w * given
        total = w.sum() if w is not None else TensorBase._wrap(np.array(n, np.int64))
        if w is not None and total._data == 0:
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
        mean = (x * w if w is not None else x).sum(1) / total
        if w is not None and aweights is not None and correction != 0:
            norm_factor = total - correction * (w * aweights).sum() / total
        else:
            norm_factor = total - correction
        if norm_factor._data <= 0:
            warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
                          "number of observations.", UserWarning, stacklevel=2)
            norm_factor = norm_factor * 0
        x = x - mean.unsqueeze(1)
        return (x.mm((x * w if w is not None else x).t()) / norm_factor).squeeze()

    def corrcoef(self):
        """The correlation coefficients: cov scaled by the standard deviations, clipped to [-1, 1]."""
        if self._data.ndim > 2:
            raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with "
                               f"{self._data.ndim} dimensions")
        c = self.cov()
        if c._data.ndim == 0:  # one variable: 1, or NaN for a variance of 0, inf or NaN
            return c / c
        stddev = c.diagonal().sqrt()
        c = c / stddev.view(-1, 1)
        c = c / stddev.view(1, -1)
        return c.clip(-1, 1)

    def bincount(self, weights=None, minlength=0):
        """How many times each value 0, 1, ... occurs in this 1-D tensor of non-negative
        integers (with ``weights``: the sum of their weights), at least ``minlength`` of them."""
        if type(minlength) is not int:
            raise TypeError(f"bincount(): argument 'minlength' must be int, not {type(minlength).__name__}")
        if self.dtype.is_floating_point or self.dtype is _dtype.bool:
            raise NotImplementedError(f'"bincount_cpu" not implemented for \'{self.dtype.legacy_name}\'')
        if minlength < 0:
            raise RuntimeError("minlength should be >= 0")
        x = self._data
        if x.ndim != 1 or (x.size and x.min() < 0):
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        if weights is None:
            return _indices(np.bincount(x, minlength=minlength))
        check_tensors("bincount", 1, weights=weights)
        if weights._data.shape != x.shape:
            raise RuntimeError("weights should be 1-d and have the same length as input")
        return ops.Bincount.apply(weights, x, minlength)

    def _extreme(self, dim, keepdim, arg, op, result, name=None):
        if self._data.ndim == 0:  # dim 0 of a 0-d tensor: the value itself, at index 0
            _dim(dim, 0)
            return result(op.apply(self, 0, keepdim, None), _indices(0))
        d = _dim(dim, self._data.ndim)
        _check_reducible(name or result.__name__, self, (d,))
        indices = arg(self._data, axis=d)  # the first of equal extremes, as in PyTorch
        values = op.apply(self, d, keepdim, indices)
        return result(values, _indices(np.expand_dims(indices, d) if keepdim else indices))

    @numpy_spellings
    def argmax(self, dim=None, keepdim=False):
        if dim is None:
            _check_not_empty("argmax", self, IndexError)
            return _indices(np.argmax(self._data))
        return self._extreme(dim, keepdim, np.argmax, ops.MaxDim, MaxResult, "argmax").indices

    @numpy_spellings
    def argmin(self, dim=None, keepdim=False):
        if dim is None:
            _check_not_empty("argmin", self, IndexError)
            return _indices(np.argmin(self._data))
        return self._extreme(dim, keepdim, np.argmin, ops.MinDim, MinResult, "argmin").indices

    @numpy_spellings
    def amax(self, dim=(), keepdim=False):
        """The largest values over ``dim`` (all dims if empty), without indices; ties share."""
        dims = _dims(dim, self._data.ndim)
        _check_reducible("amax", self, dims)
        return ops.Amax.apply(self, dims or None, keepdim)

    @numpy_spellings
    def amin(self, dim=(), keepdim=False):
        dims = _dims(dim, self._data.ndim)
        _check_reducible("amin", self, dims)
        return ops.Amin.apply(self, dims or None, keepdim)

    # -- in order ---------------------------------------------------------------------------------
    @numpy_spellings
    def sort(self, dim=-1, descending=False, stable=None):
        """Values and indices in order; equal values keep their order (every sort is stable)."""
        indices = self.argsort(dim, descending, stable=True)
        op = ops.Sort if stable is None else ops.SortStable
        return SortResult(op.apply(self, _dim(dim, self._data.ndim), indices._data), indices)

    @numpy_spellings
    def argsort(self, dim=-1, descending=False, stable=False):
        if self._data.ndim == 0:
            _dim(dim, 0)
            return _indices(0)
        d = _dim(dim, self._data.ndim)
        # A stable sort keeps equal elements in their order; descending sorts the negated
        # values, so that equal elements still come first-to-last. NaN counts as the largest
        # value, as in PyTorch: last going up (as in NumPy), first going down.
        if not descending:
            order = np.argsort(self._data, axis=d, kind="stable")
        elif self._data.dtype.kind != "f":  # bools, integers: ~x reverses their order (-x wraps: 0 in uint8)
            order = np.argsort(~self._data, axis=d, kind="stable")
        else:
            order = np.lexsort((-self._data, self._data == self._data), axis=d)
        return TensorBase._wrap(ops.sorting.in_layout_of(self._data, order.astype(np.int64, copy=False)))

    def topk(self, k, dim=-1, largest=True, sorted=True):
        d = _dim(dim, max(self._data.ndim, 1))
        size = self._data.shape[d] if self._data.ndim else 1
        if not 0 <= k <= size:
            raise RuntimeError("selected index k out of range")
        if self._data.ndim == 0:  # (k = 0 too picks the one element: PyTorch's answer)
            indices = _indices(0)
        else:
            indices = self.argsort(d, descending=largest).narrow(d, 0, k).contiguous()
        return TopkResult(ops.Topk.apply(self, d, indices._data), indices)

    # -- along a dimension, for classification ----------------------------------------------
    def softmax(self, dim, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "softmax"))
        d = _dim(dim, x._data.ndim)
        _check_softmax_dtype("softmax", x, d)
        return ops.Softmax.apply(x, d)

    def log_softmax(self, dim, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "log_softmax"))
        d = _dim(dim, x._data.ndim)
        _check_softmax_dtype("log_softmax", x, d)
        return ops.LogSoftmax.apply(x, d)


def _median_index(x, axis):
    """Where the median of each line along ``axis`` is: the lower middle of the elements
    ordered by value, then by index (PyTorch's order, so ties pick as PyTorch); the first
    NaN of a line that has one."""
    middle = np.take(np.argsort(x, axis=axis, kind="stable"), (x.shape[axis] - 1) // 2, axis=axis)
    nan = np.isnan(x)
    return np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), middle)


def _nanmedian_index(x, axis):
    """As _median_index, leaving NaNs out (they sort last): the lower middle of the numbers;
    where all are NaN, the first."""
    order = np.argsort(x, axis=axis, kind="stable")
    numbers = (~np.isnan(x)).sum(axis=axis, keepdims=True) if x.dtype.kind == "f" else x.shape[axis]
    middle = np.maximum(np.asarray(numbers) - 1, 0) // 2
    return np.take_along_axis(order, np.broadcast_to(middle, order.shape[:axis] + (1,) + order.shape[axis + 1:]),
                              axis=axis).squeeze(axis)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(x, q, dim, keepdim, interpolation, ignore_nan):
    """PyTorch's quantile_compute, step by step (so the graph is PyTorch's): sort, turn each q
    into a rank among the sorted values, gather the values below and above it, lerp."""
    Tensor = TensorBase
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or "
                           f"nearest, but got {interpolation}")
    if x._data.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor) and q._data.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if x.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if not isinstance(q, Tensor):
        q = x.new_tensor(q)
    elif q.dtype is not x.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if not ((q._data >= 0) & (q._data <= 1)).all():
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    ndim = x._data.ndim
    if dim is None:
        sorted_ = x.flatten().sort().values
        out_shape = [1] * ndim if keepdim else []
    else:
        d = _dim(dim, ndim)
        sorted_ = (x.sort() if d == max(ndim - 1, 0) else x.unsqueeze(-1).transpose(d, -1).sort()).values
        out_shape = list(x._data.shape)
        if ndim:
            out_shape[d:d + 1] = [1] if keepdim else []
    n = sorted_.shape[-1] if ndim else 1
    sorted_ = sorted_.view(out_shape + [n])
    if ignore_nan:  # ranks among the numbers (all NaN: rank 0, so NaN comes out)
        ranks = q * (sorted_.isnan().logical_not().sum(-1, True) - 1)
        ranks = ranks.masked_fill(ranks < 0, 0)
    else:  # a line with a NaN: its last rank, the NaN
        ranks = (q * (n - 1)).masked_fill(sorted_.isnan().any(-1, True), n - 1)
    if interpolation != "linear" and interpolation != "midpoint":
        ranks = {"lower": ranks.floor, "higher": ranks.ceil, "nearest": ranks.round}[interpolation]()
    below = ranks.long()
    values = sorted_.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = ranks.new_full(ranks.shape, 0.5) if interpolation == "midpoint" else ranks - below
        values = ops.LerpTensor.apply(values, sorted_.gather(-1, ranks.ceil().long()), weights)
    if q._data.ndim == 0:
        return ops.SqueezeDimInplace.apply(values, (values._data.ndim - 1,))
    values = ops.TransposeInplace.apply(ops.UnsqueezeInplace.apply(values, 0), 0, values._data.ndim)
    return ops.SqueezeDimInplace.apply(values, (values._data.ndim - 1,))


_cumsum_, _cumprod_ = _in_place(ReduceMixin.cumsum), _in_place(ReduceMixin.cumprod)


def _check_not_bool(name, x):
    """A running sum (product) cannot be written back into bools (PyTorch's words)."""
    if x.dtype is _dtype.bool:
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')


def _check_reducible(name, x, dims):
    """PyTorch's errors for the max (amax, argmin...) of nothing: of no elements at all, or over a dim of size 0."""
    if not dims:
        _check_not_empty(name, x)
    elif x._data.size == 0:
        for d in dims:
            if x._data.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _check_not_empty(name, x, error=RuntimeError):
    """PyTorch's error for the max (min, argmax...) of no elements at all."""
    if x._data.size == 0:
        hint = " Specify the reduction dim with the 'dim' argument." if error is RuntimeError else ""
        raise error(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.{hint}")


def _check_softmax_dtype(name, x, dim):
    """PyTorch's softmax takes floats only (or ``dtype=`` to convert first)."""
    if x._data.dtype.kind != "f":
        kernel = f"{name}_lastdim_kernel_impl" if dim == x._data.ndim - 1 else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype.legacy_name}\'')
