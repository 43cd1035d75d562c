"""The Tensor's methods by the order of values: sort, argsort, topk, kthvalue, median, mode,
quantile, msort, unique, histc, bincount.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/sorting.py``; kthvalue's and mode's ties are _selection.py's.
"""
import functools
import numpy as np
from . import _dtype, ops
from ._conventions import (HistogramResult, KthvalueResult, MedianResult, ModeResult, NanmedianResult, SortResult, TopkResult,
                           check_tensors)
from ._conventions import dim as _dim
from ._conventions import linspace_values
from ._selection import kth_index, mode_index
from .core.tensor import TensorBase
from ._tensor_reduce import _indices, numpy_spellings


_ALL = object()  # median(): no dim given (median(None) is an error, as in PyTorch)


class SortingMixin:
    __slots__ = ()

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

    def histogram(self, bins, *, range=None, weight=None, density=False):
        """(hist, bin_edges): how many elements (with ``weight``: their weights' sum) fall in each
        bin; ``bins`` is their number (equal bins over ``range``, by default the smallest to the
        largest element) or a tensor of their edges. Each bin holds its left edge, the last its
        right edge too; elements outside are left out. ``density``: hist divided by its sum and
        the bins' widths. (Not recorded: no gradient, as PyTorch's has none.)"""
        x = self._data.reshape(-1)
        if x.dtype.kind != "f":
            raise NotImplementedError(f'"histogramdd" not implemented for \'{self.dtype.legacy_name}\'')
        if isinstance(bins, TensorBase):
            edges = bins._data.astype(x.dtype)
        else:
            if bins <= 0:
                raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
            lo, hi = range if range is not None else (x.min(), x.max()) if x.size else (0.0, 1.0)
            if lo > hi:
                raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max "
                                   f"{hi:g} for dimension 0")
            if not (np.isfinite(lo) and np.isfinite(hi)):
                raise RuntimeError(f"torch.histogramdd: dimension 0's range [{lo:g}, {hi:g}] is not finite")
            if lo == hi:
                lo, hi = lo - 0.5, hi + 0.5
            edges = linspace_values(float(lo), float(hi), bins + 1, x.dtype)  # (torch.linspace's)
        inside = (x >= edges[0]) & (x <= edges[-1])
        where = np.minimum(np.searchsorted(edges, x[inside], side="right") - 1, len(edges) - 2)
        weights = None if weight is None else weight._data.reshape(-1)[inside]
        hist = np.bincount(where, weights, minlength=len(edges) - 1).astype(x.dtype)
        if density:
            hist = hist / (hist.sum() * np.diff(edges))
        return HistogramResult(TensorBase._wrap(hist.astype(x.dtype)), TensorBase._wrap(edges.copy()))

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
