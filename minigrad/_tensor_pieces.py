"""The Tensor's shape methods that tutorials reach for after the basics: sliding windows
(``unfold``), quarter turns and mirrors, splits into pieces (``tensor_split``, ``hsplit``...,
``unsafe_split``), diagonal embeddings, ``take``, ``as_strided``, the writes into a copy
(``scatter_reduce``, ``index_reduce``, ``masked_scatter``, ``select_scatter``...,
``put``, ``fill_diagonal_``), and the in-place reshapes (``t_``, ``unsqueeze_``, ``resize_``...).

``class Tensor`` (minigrad/_tensor.py) inherits these methods, as it does _tensor_shape.py's;
each is a short call into an op of ``minigrad/ops/shape.py``, ``ops/index.py`` or
``ops/scatter.py``.
"""
import math
import warnings

import numpy as np

from . import _inplace, _tensor_shape, ops
from ._conventions import INFERENCE_INPLACE, check_broadcast, typename
from ._conventions import dim as _dim
from ._conventions import shape_args as _shape_args
from .core import grad_mode
from .core.tensor import TensorBase


class PiecesMixin:
    __slots__ = ()

    # -- views by strides ----------------------------------------------------------------------
    def unfold(self, dimension, size, step):
        """The windows of ``size`` elements along ``dimension``, each ``step`` after the last,
        as a new last dim: ``x.unfold(0, 3, 1)`` of ``[1, 2, 3, 4]`` is ``[[1, 2, 3], [2, 3, 4]]``.
        A view: the windows share x's memory (and overlapping windows, elements)."""
        n = self._data.ndim
        d = _dim(dimension, max(n, 1))
        length = self._data.shape[d] if n else 1
        if size > length:
            raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
        if size < 0:
            raise RuntimeError(f"size is {size} but must be >= 0")
        if step <= 0:
            raise RuntimeError(f"step is {step} but must be > 0")
        return ops.UnfoldDim.apply(self, d, size, step)

    def as_strided(self, size, stride, storage_offset=None):
        """Any view of this tensor's memory: ``size``, ``stride`` (in elements) and the first
        element's place in the memory (by default this tensor's own ``storage_offset()``)."""
        size, stride = tuple(_shape_args((size,))), tuple(_shape_args((stride,)))
        if len(size) != len(stride):
            raise RuntimeError("mismatch in length of strides and shape")
        if any(s < 0 for s in stride):
            raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: "
                               f"{list(stride)}")
        mine = self.storage_offset()
        offset = mine if storage_offset is None else storage_offset
        need = 0 if 0 in size else offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1
        have = self.untyped_storage().nbytes() // self._data.itemsize
        if need > have:
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
                               f"and itemsize {self._data.itemsize} requiring a storage size of "
                               f"{need * self._data.itemsize} are out of bounds for storage of size "
                               f"{have * self._data.itemsize}")
        return ops.AsStridedView.apply(self, size, stride, offset, mine)

    # -- copies in a new arrangement -----------------------------------------------------------
    def rot90(self, k=1, dims=(0, 1)):
        """A quarter turn, ``k`` times, from ``dims[0]`` towards ``dims[1]``."""
        n = self._data.ndim
        if len(dims) != 2:
            raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
        if n < 2:
            raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
        d0, d1 = _dim(dims[0], n), _dim(dims[1], n)
        if d0 == d1:
            raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = "
                               f"{dims[1]}")
        return ops.Rot90.apply(self, k, (d0, d1))

    def fliplr(self):  # left to right: dim 1
        if self._data.ndim < 2:
            raise RuntimeError("Input must be >= 2-d.")
        return self.flip(1)

    def flipud(self):  # upside down: dim 0
        if self._data.ndim < 1:
            raise RuntimeError("Input must be >= 1-d.")
        return self.flip(0)

    def narrow_copy(self, dimension, start, length):
        d = _dim(dimension, self._data.ndim)
        self.narrow(d, start, length)  # (narrow's checks and errors)
        start = start + self._data.shape[d] if start < 0 else start
        return ops.NarrowCopy.apply(self, (slice(None),) * d + (slice(start, start + length),))

    def take(self, index):
        """The elements of the flattened tensor at ``index`` (negative: from the end)."""
        if not isinstance(index, TensorBase):
            raise TypeError(f"take(): argument 'index' (position 1) must be Tensor, not {typename(index)}")
        if index._data.dtype != np.int64:
            raise RuntimeError(f"take(): Expected a long tensor for index, but got {index.dtype.legacy_name}")
        n, ids = self._data.size, index._data
        if ids.size and not n:
            raise IndexError("take(): tried to take from an empty tensor")
        bad = ids[(ids < -n) | (ids >= n)]
        if bad.size:
            raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of {n} elements.")
        return ops.Take.apply(self, index)

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

    # -- pieces ----------------------------------------------------------------------------------
    def tensor_split(self, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                     tensor_indices_or_sections=None):
        """``n`` pieces of (nearly) equal size (the first ``size % n`` one longer), or the pieces
        between the given indices: ``[:i0], [i0:i1], ..., [ik:]``. Each a view (SliceBackward0).
        (PyTorch's overloads name the argument ``sections``, ``indices`` or ``tensor_indices_or_sections``.)"""
        for given in (sections, indices, tensor_indices_or_sections):
            indices_or_sections = given if given is not None else indices_or_sections
        if self._data.ndim == 0:
            raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
        d = _dim(dim, self._data.ndim)
        given = indices_or_sections
        if isinstance(given, TensorBase):
            if given._data.dtype != np.int64:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but "
                                   f"got {given.dtype.legacy_name}")
            if given._data.ndim > 1:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                                   f"one-dimensional tensor, but got a tensor with {given._data.ndim} dims")
            given = given._data.item() if given._data.ndim == 0 else given._data.tolist()
        if isinstance(given, (list, tuple)):
            bounds = [0, *given, None]
        else:
            if given <= 0:
                raise RuntimeError(f"number of sections must be larger than 0, got {given}")
            size = self._data.shape[d]
            small, longer = divmod(size, given)
            bounds = [i * small + min(i, longer) for i in range(given + 1)]
        return tuple(self._piece(ops.Slice, d, bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1))

    def hsplit(self, indices_or_sections):
        if self._data.ndim < 1:
            raise RuntimeError("torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with "
                               f"{self._data.ndim} dimensions!")
        return self._split_along("hsplit", 0 if self._data.ndim == 1 else 1, indices_or_sections)

    def vsplit(self, indices_or_sections):
        return self._split_along("vsplit", 0, indices_or_sections)

    def dsplit(self, indices_or_sections):
        return self._split_along("dsplit", 2, indices_or_sections)

    def _split_along(self, name, d, given):
        """hsplit, vsplit, dsplit: tensor_split along ``d``, whose size a number of pieces must divide."""
        need = {"hsplit": 1, "vsplit": 2, "dsplit": 3}[name]
        if self._data.ndim < need:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, but got a tensor "
                               f"with {self._data.ndim} dimensions!")
        if isinstance(given, TensorBase):  # (only tensor_split takes a tensor)
            raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor), but expected "
                            "one of:\n * (int sections)\n      didn't match because some of the arguments have "
                            "invalid types: (!Tensor!)\n * (tuple of ints indices)\n      didn't match because some "
                            "of the arguments have invalid types: (!Tensor!)\n")
        if isinstance(given, int):
            size = self._data.shape[d]
            if given == 0 or size % given:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size of the "
                                   f"dimension {size} is not divisible by the split_size {given}!")
        return self.tensor_split(given, d)

    def split_with_sizes(self, split_sizes, dim=0):
        return self.split(list(split_sizes), dim)

    def unsafe_split(self, split_size, dim=0):
        """``split``'s pieces, not marked as views (PyTorch's "unsafe": changing one in place is
        not noticed by the others' gradients)."""
        if not isinstance(split_size, int):
            raise TypeError(f"unsafe_split(): argument 'split_size' (position 1) must be int, not "
                            f"{typename(split_size)}")
        return self._unsafe_pieces(split_size, dim)

    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        return self._unsafe_pieces(list(split_sizes), dim)

    def unsafe_chunk(self, chunks, dim=0):
        self.detach().chunk(chunks, dim)  # (chunk's checks and errors)
        size = self._data.shape[_dim(dim, self._data.ndim)]
        return self._unsafe_pieces(-(-size // chunks) if size else [0] * chunks, dim)  # (as chunk)

    def _unsafe_pieces(self, split, dim):
        d = _dim(dim, self._data.ndim)
        sizes = tuple(p.shape[d] for p in self.detach().split(split, d))  # (split's checks and errors)
        op = ops.UnsafeSplit if isinstance(split, int) else ops.UnsafeSplitWithSizes
        return op.apply(self, d, sizes)

    # -- writing into a copy: reducing scatters, *_scatter, put (minigrad/ops/scatter.py) --------
    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        """Each element of ``src`` reduced (sum, prod, mean, amax, amin) into the place of a copy
        of this tensor that ``index`` names along ``dim``; ``include_self=False`` leaves out the
        copy's own value where something lands."""
        _tensor_shape._check_index("scatter", index)  # (scatter's checks, in _tensor_shape.py)
        d = _dim(dim, max(self._data.ndim, 1))
        if src.dtype is not self.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        if reduce not in _REDUCE:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        _tensor_shape._check_sizes(self, d, index, src, "scatter")
        _tensor_shape._check_bounds(index, self, d)
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
        if _tensor_shape._sliced(self, d) != _tensor_shape._sliced(source, d):
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
        return _inplace.apply(self, PiecesMixin.put, index, source, accumulate)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        return _inplace.apply(self, lambda t: t.scatter_reduce(dim, index, src, reduce, include_self=include_self))

    def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
        return _inplace.apply(self, lambda t: t.index_reduce(dim, index, source, reduce, include_self=include_self))

    def masked_scatter_(self, mask, source):
        if mask.shape != self.shape:
            check_broadcast(mask._data.shape, self._data.shape)
        return _inplace.apply(self, PiecesMixin.masked_scatter, mask, source)

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

    # -- in place: the same tensor takes a new shape ---------------------------------------------
    def _reshape_(self, op, *args):
        """``x.t_()`` and kin: the tensor becomes ``op``'s view of itself (its memory, its version
        counter). Recorded as PyTorch does: its ``grad_fn`` becomes the op's node (TBackward1...),
        whose input is the tensor as it was; on a leaf that requires grad, PyTorch's error."""
        if self._inference and not grad_mode._state.inference:
            raise RuntimeError(INFERENCE_INPLACE)
        record = grad_mode._state.enabled and self._requires_grad
        if record and self._grad_fn is None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
        was = TensorBase._wrap(self._data, self._grad_fn if record else None, self._version_counter())
        was._output_nr = self._output_nr if record else None
        out = op.apply(was, *args)
        own = self._data.base is None or self._owns_base  # its memory was its own (not another tensor's)
        self._data = out._data
        if record:
            self._grad_fn, self._output_nr = out._grad_fn, None
        self._version_counter()[0] += 1
        if self._view is not None:  # still a view of its base: its grad_fn, just made, is up to date
            self._view = self._view._replace(version=self._version_box[0])
        if own:
            self._owns_base = True  # so in-place ops on it are recorded as on any tensor (_inplace.py)
        return self

    def t_(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return self._reshape_(ops.TInplace)

    def transpose_(self, dim0, dim1):
        n = self._data.ndim
        return self._reshape_(ops.TransposeInplace, _dim(dim0, n), _dim(dim1, n))

    def swapdims_(self, dim0, dim1):
        return self.transpose_(dim0, dim1)

    def swapaxes_(self, axis0, axis1):
        return self.transpose_(axis0, axis1)

    def unsqueeze_(self, dim):
        return self._reshape_(ops.UnsqueezeInplace, _dim(dim, self._data.ndim + 1))

    def squeeze_(self, dim=None):
        if dim is None:
            return self._reshape_(ops.SqueezeInplace, None)
        from_dims = isinstance(dim, (tuple, list))
        dims = tuple(d for d in (_dim(d, self._data.ndim) for d in (dim if from_dims else (dim,)))
                     if self._data.shape[d] == 1)
        return self._reshape_(ops.SqueezeDimsInplace if from_dims else ops.SqueezeDimInplace, dims)

    def resize_(self, *sizes, memory_format=None):
        """A new shape, contiguous, over the same memory from this tensor's first element: the
        first elements in memory order if it holds enough, else new memory (the old elements
        first, zeros after: PyTorch's are uninitialised). Never recorded: PyTorch's error."""
        if self._requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        shape = tuple(_shape_args(sizes))
        if shape == self._data.shape:
            return self
        n, item = math.prod(shape), self._data.itemsize
        memory = self.untyped_storage()._owner
        have = (memory.nbytes - self.storage_offset() * item) // item
        start = self.storage_offset() * item
        flat = np.ndarray((have,), self._data.dtype, buffer=memory, offset=start) if have > 0 else np.zeros(0)
        own = self._data.base is None or self._owns_base
        if n <= have:
            self._data = flat[:n].reshape(shape)
            self._owns_base = own
        else:
            grown = np.zeros(n, self._data.dtype)
            grown[:have] = flat
            self._data, self._owns_base = grown.reshape(shape), True
        self._view = None
        return self

    def resize_as_(self, tensor, memory_format=None):
        return self.resize_(tensor.shape)


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
