"""The Tensor's writes by index or mask, into a copy or in place: ``x[key] = v``, scatter,
scatter_add, scatter_reduce, index_add, index_copy, index_fill, index_put, index_reduce,
masked_fill, masked_scatter, put, select_scatter, slice_scatter, diagonal_scatter, ...

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/`` (index.py, scatter.py).
"""
import math
import numpy as np
import warnings
from . import _dtype, _indexing, _inplace, ops
from ._conventions import C_NAMES, check_broadcast, check_index, typename
from ._conventions import dim as _dim
from .core import node
from .core.tensor import TensorBase
from ._tensor_index import _check_bounds, _check_index, _check_sizes, _sliced


class ScatterMixin:
    __slots__ = ()

    def __setitem__(self, key, value):
        _indexing.setitem(self, key, value)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        """A copy with ``src`` (a tensor or a number) written at ``index`` along ``dim``."""
        _check_index("scatter", index)
        src = value if src is None else src
        if reduce is not None:
            raise NotImplementedError("minigrad's scatter takes no reduce=; use scatter_add for 'add'")
        d = _dim(dim, max(self._data.ndim, 1))
        _check_sizes(self, d, index, src, "scatter")
        _check_bounds(index, self, d)
        if isinstance(src, TensorBase):
            return ops.Scatter.apply(self, d, index, src)
        return ops.ScatterValue.apply(self, d, index, src)

    def scatter_add(self, dim, index, src):
        _check_index("scatter", index)
        d = _dim(dim, max(self._data.ndim, 1))
        _check_sizes(self, d, index, src, "scatter")
        _check_bounds(index, self, d)
        return ops.ScatterAdd.apply(self, d, index, src)

    def index_add(self, dim, index, source, *, alpha=1):
        """A copy with the slices of ``alpha * source`` added in along ``dim`` at ``index``."""
        d = _dim(dim, max(self._data.ndim, 1))  # (the checks in PyTorch's order)
        if index._data.ndim > 1:
            raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {index._data.ndim} with "
                             f"type: {index.dtype.legacy_name} and size: {list(index.shape)}")
        if index._data.dtype.kind != "i":
            raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {index.dtype.legacy_name}")
        if source.dtype is not self.dtype:
            raise RuntimeError(f"index_add_(): self ({self.dtype.legacy_name}) and source ({source.dtype.legacy_name}) "
                               "must have the same scalar type")
        if source._data.ndim and self._data.ndim and d >= source._data.ndim:
            raise RuntimeError(f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim "
                               f"{source._data.ndim}")
        n = source._data.shape[d] if source._data.ndim else 1
        if index._data.size != n:
            raise RuntimeError(f"index_add_(): Number of indices ({index._data.size}) should be equal to "
                               f"source.size(dim): ({n}), for dim: {d}")
        if _sliced(self, d) != _sliced(source, d):
            raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified "
                               f"dimension. Got self.shape = {list(self.shape)} source.shape = {list(source.shape)}")
        _check_bounds(index, self, d)
        return ops.IndexAdd.apply(self, d, index, source, alpha)

    def index_fill(self, dim, index, value):
        """A copy with the slices at ``index`` along ``dim`` set to ``value`` (a number or a
        0-d tensor); a negative index counts from the end."""
        d = _dim(dim, max(self._data.ndim, 1))
        if index._data.dtype != np.int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if index._data.ndim > 1:
            raise RuntimeError("Index has to be a vector/scalar")
        _check_bounds(index, self, d, negative=True, error=IndexError)
        if isinstance(value, TensorBase):
            if value._data.ndim:
                raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got "
                                   f"tensor with {value._data.ndim} dimension(s).")
            return ops.IndexFillTensor.apply(self, d, index, value)
        return ops.IndexFill.apply(self, d, index, value)

    def index_copy(self, dim, index, source):
        """A copy with the slices at ``index`` along ``dim`` replaced by those of ``source``."""
        d = _dim(dim, max(self._data.ndim, 1))
        if index._data.ndim > 1:
            raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index._data.ndim})")
        if index._data.dtype != np.int64:
            raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {index.dtype.legacy_name}")
        if source.dtype is not self.dtype:
            raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but got (self) "
                               f"{self.dtype.legacy_name} and (source) {source.dtype.legacy_name}")
        n = source._data.shape[d] if source._data.ndim > d else 1
        if index._data.size != n:
            raise IndexError(f"index_copy_(): Number of indices ({index._data.size}) should be equal to "
                             f"source.size(dim) ({n})")
        if _sliced(self, d) != _sliced(source, d):
            raise RuntimeError("index_copy_(): Source/destination tensor must have same slice shapes. Destination "
                               f"slice shape: {' '.join(map(str, _sliced(self, d)))} at dimension {d} and source "
                               f"slice shape: {' '.join(map(str, _sliced(source, d)))} at dimension 0.")
        _check_bounds(index, self, d, error=IndexError, prefix="index_copy_(): ")
        return ops.IndexCopy.apply(self, d, index, source)

    def index_put(self, indices, values, accumulate=False):
        """``x[indices] = values`` (or ``+=``, with ``accumulate``) on a copy of this tensor."""
        if not isinstance(indices, (tuple, list)):
            raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of Tensors, not "
                            f"{type(indices).__name__}")
        if not isinstance(values, TensorBase):
            raise TypeError(f"index_put(): argument 'values' (position 2) must be Tensor, not {typename(values)}")
        if values.dtype is not self.dtype:
            raise RuntimeError("Index put requires the source and destination dtypes match, got "
                               f"{self.dtype.legacy_name} for the destination and {values.dtype.legacy_name} for the source.")
        tensors = _indexing._tensors_in(tuple(indices))
        key = _indexing._array_index(tuple(indices))
        check_index(self._data.shape, key)
        picked = np.shape(self._data[key])
        if not node._expandable(values._data.shape, picked):
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast "
                               f"to indexing result of shape {list(picked)}")
        op = ops.IndexPutAdd if accumulate else ops.IndexPutValues
        return op.apply(self, key, values, *tensors)

    def masked_fill(self, mask, value):
        """``value`` (a number or a 0-d tensor) where ``mask`` is True, this tensor elsewhere."""
        check_broadcast(mask._data.shape, self._data.shape)  # (PyTorch broadcasts the two first)
        _check_fill(mask, value)
        return _masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        _check_fill(mask, value)  # in place, PyTorch checks these first, and names this tensor "a"
        check_broadcast(self._data.shape, mask._data.shape)
        return _inplace.apply(self, _masked_fill, mask, value)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        return _inplace.apply(self, lambda t: t.scatter(dim, index, src, value=value, reduce=reduce))

    def scatter_add_(self, dim, index, src):
        return _inplace.apply(self, ScatterMixin.scatter_add, dim, index, src)

    def index_add_(self, dim, index, source, *, alpha=1):
        return _inplace.apply(self, lambda t: t.index_add(dim, index, source, alpha=alpha))

    def index_fill_(self, dim, index, value):
        return _inplace.apply(self, ScatterMixin.index_fill, dim, index, value)

    def index_copy_(self, dim, index, source):
        return _inplace.apply(self, ScatterMixin.index_copy, dim, index, source)

    def index_put_(self, indices, values, accumulate=False):
        return _inplace.apply(self, ScatterMixin.index_put, indices, values, accumulate)

    # -- writing into a copy: reducing scatters, *_scatter, put (minigrad/ops/scatter.py) --------
    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        """Each element of ``src`` reduced (sum, prod, mean, amax, amin) into the place of a copy
        of this tensor that ``index`` names along ``dim``; ``include_self=False`` leaves out the
        copy's own value where something lands."""
        _check_index("scatter", index)  # (scatter's checks, in _tensor_index.py)
        d = _dim(dim, max(self._data.ndim, 1))
        if src.dtype is not self.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        if reduce not in _REDUCE:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        _check_sizes(self, d, index, src, "scatter")
        _check_bounds(index, self, d)
        return ops.ScatterReduce.apply(self, d, index, src, _REDUCE[reduce], include_self)

    def index_reduce(self, dim, index, source, reduce, *, include_self=True):
        """Slice ``i`` of ``source`` along ``dim`` reduced (prod, mean, amax, amin) into slice
        ``index[i]`` of a copy of this tensor."""
        _index_reduce_warning()
        if reduce not in ("prod", "mean", "amax", "amin"):
            raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
                               f"{reduce}.")
        d = _dim(dim, max(self._data.ndim, 1))
        if index._data.ndim > 1:
            raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: {index._data.ndim} "
                             f"with type: {index.dtype.legacy_name} and size: {list(index.shape)}")
        if index._data.dtype.kind != "i":
            raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: "
                               f"{index.dtype.legacy_name}")
        if source.dtype is not self.dtype:
            raise RuntimeError(f"index_reduce_(): self ({self.dtype.legacy_name}) and source "
                               f"({source.dtype.legacy_name}) must have the same scalar type")
        n = source._data.shape[d] if source._data.ndim > d else 1
        if index._data.size != n:
            raise RuntimeError(f"index_reduce_(): Number of indices ({index._data.size}) should be equal to "
                               f"source.size(dim): ({n}), for dim: {d}")
        if _sliced(self, d) != _sliced(source, d):
            raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified "
                               f"dimension. Got self.shape = {list(self.shape)} source.shape = {list(source.shape)}")
        size = self._data.shape[d] if self._data.ndim else 1
        if ((index._data < 0) | (index._data >= size)).any():
            raise IndexError("index out of range in self")
        return ops.IndexReduce.apply(self, d, index, source, reduce, include_self)

    def masked_scatter(self, mask, source):
        """A copy with the places where ``mask`` is True filled, in order, by the first elements
        of ``source``."""
        if mask.dtype.name != "bool":
            raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                               f"{mask.dtype.legacy_name}")
        if source.dtype is not self.dtype:
            raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                               f"{self.dtype.legacy_name} and {source.dtype.legacy_name}")
        if mask.shape != self.shape:
            check_broadcast(mask._data.shape, self._data.shape)
        shape = np.broadcast_shapes(self.shape, mask.shape)
        x = self if shape == self.shape else self.expand(shape)
        m = np.broadcast_to(mask._data, shape)
        if np.count_nonzero(m) > source._data.size:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        return ops.MaskedScatter.apply(x, TensorBase._wrap(np.ascontiguousarray(m)), source)

    def select_scatter(self, src, dim, index):
        """A copy with ``src`` written where ``self.select(dim, index)`` reads."""
        d = _dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if not -size <= index < size:
            raise IndexError(f"select(): index {index} out of range for tensor of size {list(self.shape)} at "
                             f"dimension {d}")
        index = index + size if index < 0 else index
        _check_scatter_src(src, self._data.shape[:d] + self._data.shape[d + 1:])
        return ops.SelectScatter.apply(self, src.to(self.dtype), d, index)

    def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
        """A copy with ``src`` written where ``self[start:end:step]`` along ``dim`` reads."""
        d = _dim(dim, self._data.ndim)
        if step <= 0:
            raise RuntimeError("slice step must be positive")
        start, end, _ = slice(start, end, step).indices(self._data.shape[d])
        key = (slice(None),) * d + (slice(start, end, step),)
        _check_scatter_src(src, self._data[key].shape)
        return ops.SliceScatter.apply(self, src.to(self.dtype), d, start, max(end, start), step)

    def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
        """A copy with ``src`` written where ``self.diagonal(offset, dim1, dim2)`` reads."""
        d1, d2 = _dim(dim1, self._data.ndim), _dim(dim2, self._data.ndim)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        _check_scatter_src(src, np.diagonal(self._data, offset, d1, d2).shape)
        return ops.DiagonalScatter.apply(self, src.to(self.dtype), offset, d1, d2)

    def put(self, index, source, accumulate=False):
        """A copy (flattened) with ``source`` written at ``index`` (negative: from the end), or
        added in, with ``accumulate`` (a repeated index then adds each value)."""
        if index._data.dtype != np.int64:
            raise RuntimeError(f"put_(): Expected a long tensor for index, but got {index.dtype.legacy_name}")
        if source.dtype is not self.dtype:
            raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                               f"{self.dtype.legacy_name} and source.dtype = {source.dtype.legacy_name}")
        if index._data.size != source._data.size:
            raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                             f"source.numel() = {source._data.size}, index.numel() = {index._data.size}")
        n, ids = self._data.size, index._data
        bad = ids[(ids < -n) | (ids >= n)]
        if bad.size:
            raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of {n} elements.")
        wrapped = TensorBase._wrap(np.where(ids < 0, ids + n, ids))  # (NumPy's add.at would wrap too)
        return (ops.Put if accumulate else ops.PutValues).apply(self, wrapped, source)

    def put_(self, index, source, accumulate=False):
        return _inplace.apply(self, ScatterMixin.put, index, source, accumulate)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        return _inplace.apply(self, lambda t: t.scatter_reduce(dim, index, src, reduce, include_self=include_self))

    def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
        return _inplace.apply(self, lambda t: t.index_reduce(dim, index, source, reduce, include_self=include_self))

    def masked_scatter_(self, mask, source):
        if mask.shape != self.shape:
            check_broadcast(mask._data.shape, self._data.shape)
        return _inplace.apply(self, ScatterMixin.masked_scatter, mask, source)

    def fill_diagonal_(self, fill_value, wrap=False):
        """The main diagonal set to ``fill_value`` (every dim the same length, or a matrix).
        ``wrap``: in a tall matrix, the diagonal starts again N + 1 rows down, as NumPy's."""
        n = self._data.ndim
        if n < 2:
            raise RuntimeError("dimensions must larger than 1")
        if n > 2 and len(set(self._data.shape)) > 1:
            raise RuntimeError("all dimensions of input must be of equal length")
        rows, cols = self._data.shape[0], self._data.shape[-1]
        step = sum(math.prod(self._data.shape[k + 1:]) for k in range(n))  # one along every dim
        count = min(self._data.shape) if not (wrap and n == 2 and rows > cols + 1) else -(-self._data.size // step)
        places = np.zeros(self._data.shape, bool)
        places.reshape(-1)[np.arange(count) * step] = True
        return _inplace.apply(self, lambda t: t.masked_fill(TensorBase._wrap(places), fill_value))


def _masked_fill(x, mask, value):
    """masked_fill's op, once its arguments are checked (masked_fill_ checks them in its own order)."""
    if isinstance(value, TensorBase):
        return ops.MaskedFillTensor.apply(x, mask, value)
    return ops.MaskedFill.apply(x, mask, _dtype.scalar_for(value, x.dtype))


def _check_fill(mask, value):
    """masked_fill's checks of its mask and its value, in PyTorch's words."""
    if mask.dtype.name != "bool":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{C_NAMES[mask.dtype.name]}")
    if isinstance(value, TensorBase) and value._data.ndim:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._data.ndim} dimension(s).")


_REDUCE = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax", "amin": "amin",
           "max": "amax", "min": "amin"}  # (PyTorch takes "max" and "min" too, as amax and amin)


def _index_reduce_warning():
    """(PyTorch warns once per process, TORCH_WARN_ONCE; minigrad's warnings go through Python's
    filters every time, as _functions.py's set_warn_always says)"""
    warnings.warn("index_reduce() is in beta and the API may change at any time.", UserWarning, stacklevel=3)


def _check_scatter_src(src, shape):
    if src._data.shape != tuple(shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(shape)}")
