"""The Tensor's shape and indexing methods: view, reshape, transpose, x[key], ...

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/shape.py`` or ``ops/index.py``. This module reaches the Tensor class
only through ``autograd.TensorBase``.
"""
import math
import warnings

import numpy as np

from . import _dtype, _indexing, _inplace, ops
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from ._conventions import C_NAMES, check_broadcast, check_expand, check_index, new_shape, reshape_is_view, typename
from ._conventions import shape_args as _shape_args
from ._conventions import contiguous_format, is_contiguous_as, memory_format_arg, preserve_format
from .core import grad_mode, node
from .core.tensor import TensorBase


class ShapeMixin:
    __slots__ = ()

    # -- shapes --------------------------------------------------------------------------------
    def view(self, *shape):
        shape = new_shape(shape, self._data.size)
        if not reshape_is_view(self._data, shape):
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return ops.View.apply(self, shape)

    def reshape(self, *shape):
        shape = new_shape(shape, self._data.size)
        if reshape_is_view(self._data, shape):
            return (ops.View if self._data.flags.c_contiguous else ops.ReshapeAlias).apply(self, shape)
        return ops.UnsafeView.apply(ops.Clone.apply(self, contiguous_format), shape)  # copy first, as PyTorch

    def flatten(self, start_dim=0, end_dim=-1):
        if self._data.ndim == 0:
            return self.reshape(1)
        s, e = _dim(start_dim, self._data.ndim), _dim(end_dim, self._data.ndim)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = self._data.shape
        return self.reshape(shape[:s] + (-1,) + shape[e + 1:])

    def ravel(self):
        return self.contiguous().view(-1)  # as PyTorch writes it: a copy first only if needed

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def expand(self, *shape):
        shape = _shape_args(shape)
        lead = len(shape) - self._data.ndim
        if -1 in shape[:max(lead, 0)]:
            raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                               f"dimension {shape.index(-1)}")
        if lead >= 0:
            shape = tuple(self._data.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        check_expand(self._data.shape, shape, self.type())
        return ops.Expand.apply(self, shape)

    def expand_as(self, other):
        return self.expand(other.shape)

    def broadcast_to(self, *shape):
        return self.expand(*shape)

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Each element (along ``dim``: each slice) repeated ``repeats`` times in a row;
        ``repeats`` a number, or a tensor of one count per element. Recorded as PyTorch does:
        a number as unsqueeze, expand, clone and view; counts as an index_select."""
        x = self.reshape(-1) if dim is None else self  # no dim: over the flattened tensor
        d = 0 if dim is None else _dim(dim, max(x._data.ndim, 1))
        if isinstance(repeats, TensorBase):
            counts = repeats._data
            if counts.dtype.kind not in "iu":
                raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for \'{repeats.dtype.legacy_name}\'')
            n = x._data.shape[d] if x._data.ndim else 1
            if counts.ndim > 1:
                raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
            if counts.size == 1:  # one count for all
                counts = np.full(n, counts.reshape(()))
            elif counts.size != n:
                raise RuntimeError("repeats must have the same size as input along dim, but got repeats.size(0) = "
                                   f"{counts.size} and input.size({d}) = {n}")
            if (counts < 0).any():
                raise RuntimeError("repeats can not be negative")
            return x.index_select(d, TensorBase._wrap(np.repeat(np.arange(n), counts)))
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        shape = list(x.shape)
        out = x.unsqueeze(d + 1).expand(*shape[:d + 1], repeats, *shape[d + 1:]).clone()
        shape[d] *= repeats
        return out.view(shape)

    def sum_to_size(self, *shape):
        """Sum a broadcast tensor back to ``shape``, as PyTorch's ``sum_to``: a sum over the
        leading dims and those where ``shape`` has 1 (kept), then a view without the leading
        dims; to ``()`` a full sum; nothing to do, ``self`` itself."""
        shape, sizes = _shape_args(shape), self._data.shape
        lead = len(sizes) - len(shape)
        if lead < 0 or any(s != 1 and s != n for s, n in zip(shape, sizes[lead:])):
            raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(sizes)}}}.")
        return self._sum_to(shape)

    def _sum_to(self, shape):
        """``sum_to_size`` of a shape known to fit (a tuple): how the engine fits a gradient."""
        sizes = self._data.shape
        lead = len(sizes) - len(shape)
        if not shape:
            return self.sum()
        dims = tuple(range(lead))  # the leading dims, then those where shape has 1 (kept)
        for i, s in enumerate(shape):  # (a loop: a comprehension would make lead and sizes cells)
            if s == 1 and sizes[lead + i] != 1:
                dims += (lead + i,)
        # The ops themselves: the dims and the shape are right by construction (no checks needed)
        if lead and len(dims) == lead and not grad_mode._state.enabled:
            # Unrecorded (backward without create_graph): the leading dims summed away in one op.
            # PyTorch's sum keeping the dims, then a view (below), is what a recorded graph shows.
            return ops.SumDim.apply(self, dims, False)
        out = ops.SumDim.apply(self, dims, True) if dims else self
        return ops.View.apply(out, shape) if lead else out

    def permute(self, *dims):
        if not dims:
            raise TypeError('permute() missing 1 required positional arguments: "dims"')
        dims = _shape_args(dims)
        if len(dims) != self._data.ndim:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not "
                               "match the length of the desired ordering of dimensions i.e. input.dim() "
                               f"= {self._data.ndim} is not equal to len(dims) = {len(dims)}")
        dims = tuple(_dim(d, self._data.ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return ops.Permute.apply(self, dims)

    def transpose(self, dim0, dim1):
        n = self._data.ndim
        return ops.Transpose.apply(self, _dim(dim0, n), _dim(dim1, n))

    def t(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return ops.T.apply(self)

    @property
    def T(self):
        if self._data.ndim != 2:
            warnings.warn(
                "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
                if self._data.ndim == 0 else
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
                "reverse the dimensions of a tensor.", UserWarning, stacklevel=2)
        return self.permute(tuple(reversed(range(self._data.ndim))))

    @property
    def mT(self):
        if self._data.ndim == 0:
            warnings.warn("Tensor.mT is deprecated on 0-D tensors. This function is the identity in "
                          "these cases.", UserWarning, stacklevel=2)
            return self
        if self._data.ndim == 1:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    def unsqueeze(self, dim):
        return ops.Unsqueeze.apply(self, _dim(dim, self._data.ndim + 1))

    def squeeze(self, dim=None):
        if dim is None:
            return ops.Squeeze.apply(self, None)
        dims = tuple(d for d in _dims(dim, self._data.ndim) if self._data.shape[d] == 1)
        return (ops.SqueezeDims if isinstance(dim, (tuple, list)) else ops.SqueezeDim).apply(self, dims)

    def select(self, dim, index):
        """``x.select(1, i)`` is ``x[:, i]``."""
        if not self._data.ndim:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d, size = _dim(dim, self._data.ndim), self._data.shape
        if not -size[d] <= index < size[d]:
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"[{', '.join(map(str, size))}] at dimension {d}")
        return self[(slice(None),) * d + (index,)]

    def unbind(self, dim=0):
        _need_dims(self, 0 if dim == -1 else dim)  # (PyTorch names -1 as 0 here: wrapped first)
        d = _dim(dim, self._data.ndim)
        return ops.Unbind.apply(self, d)

    def unflatten(self, dim, sizes):
        """Split dimension ``dim`` into ``sizes`` (one of them may be -1)."""
        if not self._data.ndim and dim in (0, -1):  # (PyTorch's message goes on with its C++ stack)
            raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {dim} but tensor "
                               "has no dimensions")
        d, shape = _dim(dim, self._data.ndim), self._data.shape
        sizes = tuple(sizes)
        if -1 not in sizes and math.prod(sizes) != shape[d]:
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
                               f"{dim} ({shape[d]}) in the input tensor")
        return self.view(shape[:d] + new_shape(sizes, shape[d]) + shape[d + 1:])

    def movedim(self, source, destination):
        """Move dims ``source`` to positions ``destination``; the others keep their order."""
        n = self._data.ndim
        source = list(source) if isinstance(source, (tuple, list)) else [source]
        destination = list(destination) if isinstance(destination, (tuple, list)) else [destination]
        if len(source) != len(destination):
            raise RuntimeError(f"movedim: Invalid source or destination dims: source ({source} dims) should "
                               f"contain the same number of dims as destination ({destination} dims)")
        wrapped = {"source": [_dim(d, n) for d in source], "destination": [_dim(d, n) for d in destination]}
        for name, given in (("source", source), ("destination", destination)):
            if len(set(wrapped[name])) < len(given):
                raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
        source, destination = wrapped["source"], wrapped["destination"]
        if n == 0:
            return ops.Alias.apply(self, ())  # a 0-d tensor: an alias, as PyTorch records it
        order = [None] * n
        for s, d in zip(source, destination):
            order[d] = s
        rest = iter(d for d in range(n) if d not in source)
        return self.permute([s if s is not None else next(rest) for s in order])

    moveaxis = movedim

    def swapaxes(self, dim0, dim1):
        return self.transpose(dim0, dim1)

    swapdims = swapaxes

    # -- copies in a new arrangement ---------------------------------------------------------
    def repeat(self, *repeats):
        repeats = _shape_args(repeats)
        if len(repeats) < self._data.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                               "dimensions of tensor")
        return ops.Repeat.apply(self, repeats)

    def tile(self, *dims):
        dims = _shape_args(dims)
        return self.repeat((1,) * (self._data.ndim - len(dims)) + dims)

    def flip(self, *dims):
        return ops.Flip.apply(self, _dims(list(_shape_args(dims)), self._data.ndim))

    def roll(self, shifts, dims=None):
        if dims is None:  # roll the flattened elements
            return ops.Roll.apply(self, (int(shifts),), None)
        shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
        _need_dims(self, dims)
        dims = _dims(dims, self._data.ndim)
        if len(shifts) != len(dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        return ops.Roll.apply(self, shifts, dims)

    # -- pieces ----------------------------------------------------------------------------------
    def _piece(self, op, d, start, stop):
        return op.apply(self, (slice(None),) * d + (slice(start, stop),))

    def narrow(self, dim, start, length):
        if not self._data.ndim:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        d = _dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        start = start + size if start < 0 else start
        if start + length > size:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
        return self._piece(ops.Slice, d, start, start + length)

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        """Differences of neighbours along ``dim``, ``n`` times over, each ``x[1:] - x[:-1]``
        written with narrow as in PyTorch (SubBackward0 of two SliceBackward0; xor for bools)."""
        if self._data.ndim < 1:
            raise RuntimeError("diff expects input to be at least one-dimensional")
        if n < 0:
            raise RuntimeError(f"order must be non-negative but got {n}")
        for name, other in (("prepend", prepend), ("append", append)):
            if other is not None and not isinstance(other, TensorBase):
                raise TypeError(f"diff(): argument '{name}' must be Tensor, not {typename(other)}")
        if n == 0:  # a copy, prepend and append ignored (as PyTorch: its zeros_like + copy_)
            return self.new_zeros(self.shape).copy_(self)
        x = self
        if prepend is not None or append is not None:
            d = _dim(dim, self._data.ndim)
            for other in (prepend, append):
                if other is not None and other._data.ndim != self._data.ndim:
                    raise RuntimeError("diff expects prepend or append to be the same dimension as input")
                for i in range(self._data.ndim if other is not None else 0):
                    if i != d and other.shape[i] != self.shape[i]:
                        raise RuntimeError(
                            "diff expects the shape of tensor to prepend or append to match that of input "
                            f"except along the differencing dimension; input.size({i}) = {self.shape[i]}, "
                            f"but got tensor.size({i}) = {other.shape[i]}")
            x = ops.Cat.apply(d, *[t for t in (prepend, self, append) if t is not None])
        length = x.shape[_dim(dim, x._data.ndim)] - 1
        for _ in range(min(n, length + 1)):
            later, earlier = x.narrow(dim, 1, length), x.narrow(dim, 0, length)
            x = later.logical_xor(earlier) if x.dtype is _dtype.bool else later - earlier
            length -= 1
        return x

    def split(self, split_size_or_sections, dim=0):
        """Pieces of ``split_size`` along ``dim`` (the last may be smaller), or of the given sizes."""
        if not self._data.ndim:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        d = _dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if isinstance(split_size_or_sections, int):
            step, op = split_size_or_sections, ops.Split
            if step < 0:
                raise RuntimeError(f"split expects split_size be non-negative, but got split_size={step}")
            if step == 0 and size:
                raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension size "
                                   f"of {size}")
            sizes = [min(step, size - a) for a in range(0, max(size, 1), step or 1)]
        else:
            sizes, op = list(split_size_or_sections), ops.SplitWithSizes
            if any(n < 0 for n in sizes):
                raise RuntimeError("split_with_sizes expects split_sizes have only non-negative entries, but "
                                   f"got split_sizes={sizes}")
            if sum(sizes) != size:
                raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input "
                                   f"tensor's size at dimension {d}), but got split_sizes={sizes}")
        return op.apply(self, d, tuple(sizes))

    def chunk(self, chunks, dim=0):
        if not self._data.ndim:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        size = self._data.shape[_dim(dim, self._data.ndim)]
        if size == 0:  # as PyTorch: ``chunks`` empty pieces (split by sizes)
            return self.split([0] * chunks, dim)
        return self.split(-(-size // chunks), dim)  # pieces of ceil(size / chunks)

    def __getitem__(self, key):
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        _indexing.setitem(self, key, value)

    # -- picking elements along a dim (minigrad/ops/index.py) ------------------------------------
    def gather(self, dim, index):
        """``out[i][j] = self[i][index[i][j]]`` (for dim 1): elements picked along ``dim``."""
        _check_index("gather", index)
        d = _dim(dim, max(self._data.ndim, 1))
        _check_sizes(self, d, index)
        _check_bounds(index, self, d)
        return ops.Gather.apply(self, d, index)

    def take_along_dim(self, indices, dim=None):
        """``gather`` with broadcasting: self and indices are expanded to a common shape
        (except along ``dim``) first, as PyTorch does."""
        if dim is None:
            return self.reshape(-1).gather(0, indices.reshape(-1))
        d = _dim(dim, self._data.ndim)
        if self._data.ndim != indices._data.ndim:
            raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of "
                               f"dimensions, but got {self._data.ndim} dimensions for input, and "
                               f"{indices._data.ndim} dimensions for indices")
        if not self._data.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        shape = list(np.broadcast_shapes(self.shape, indices.shape))
        x_shape, i_shape = list(shape), list(shape)
        x_shape[d], i_shape[d] = self.shape[d], indices.shape[d]
        # (PyTorch gathers with a copy of the index here: changing indices in place later is no error)
        return self.expand(x_shape).gather(d, indices.expand(i_shape).clone())

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

    def index_select(self, dim, index):
        if index._data.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        if index.dtype.is_floating_point:
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        dim, kept, index = _dim(dim, max(self._data.ndim, 1)), index, index._data.reshape(-1)
        if not self._data.ndim and index.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {index.size} "
                               "value(s)")
        if self._data.ndim and index.size and not self._data.shape[dim]:
            raise RuntimeError("index_select(): self indexing axis dim should be positive")
        size = self._data.shape[dim] if self._data.ndim else 1
        if index.size and not 0 <= index.min() <= index.max() < size:  # (NumPy would wrap a negative one)
            if not self._data.size:  # PyTorch's kernel for an empty tensor words it otherwise
                bad = index[(index < 0) | (index >= size)][0]
                raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
            raise IndexError("index out of range in self")
        return ops.IndexSelect.apply(self, dim, kept)  # (the node keeps the index tensor)

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

    def masked_select(self, mask):
        if mask.dtype.name != "bool":
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        check_broadcast(mask._data.shape, self._data.shape)
        shape = np.broadcast_shapes(self._data.shape, mask._data.shape)
        return ops.MaskedSelect.apply(self, np.broadcast_to(mask._data, shape), mask)

    def argwhere(self):
        return self.nonzero()

    def nonzero(self, *, as_tuple=False):
        where = np.nonzero(self._data.reshape(-1) if not self._data.ndim else self._data)  # (0-d: as one element)
        if not self._data.ndim and not as_tuple:  # one row per nonzero element, with no coordinates
            return TensorBase._wrap(np.zeros((where[0].size, 0), np.int64))
        if as_tuple:
            return tuple(TensorBase._wrap(w.astype(np.int64)) for w in where)
        return TensorBase._wrap(np.stack(where, axis=1).astype(np.int64))

    def masked_fill_(self, mask, value):
        _check_fill(mask, value)  # in place, PyTorch checks these first, and names this tensor "a"
        check_broadcast(self._data.shape, mask._data.shape)
        return _inplace.apply(self, _masked_fill, mask, value)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        return _inplace.apply(self, lambda t: t.scatter(dim, index, src, value=value, reduce=reduce))

    def scatter_add_(self, dim, index, src):
        return _inplace.apply(self, ShapeMixin.scatter_add, dim, index, src)

    def index_add_(self, dim, index, source, *, alpha=1):
        return _inplace.apply(self, lambda t: t.index_add(dim, index, source, alpha=alpha))

    def index_fill_(self, dim, index, value):
        return _inplace.apply(self, ShapeMixin.index_fill, dim, index, value)

    def index_copy_(self, dim, index, source):
        return _inplace.apply(self, ShapeMixin.index_copy, dim, index, source)

    def index_put_(self, indices, values, accumulate=False):
        return _inplace.apply(self, ShapeMixin.index_put, indices, values, accumulate)

    # -- parts of a matrix (minigrad/ops/linalg.py) ------------------------------------------------
    def tril(self, diagonal=0):
        _check_matrix("tril", self)
        return ops.Tril.apply(self, diagonal)

    def triu(self, diagonal=0):
        _check_matrix("triu", self)
        return ops.Triu.apply(self, diagonal)


    def tril_(self, diagonal=0):
        _check_matrix("tril", self)
        return _inplace.apply(self, ShapeMixin.tril, diagonal)

    def triu_(self, diagonal=0):
        _check_matrix("triu", self)
        return _inplace.apply(self, ShapeMixin.triu, diagonal)
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

    # -- memory layout ------------------------------------------------------------------------------
    def stride(self, dim=None):
        """Steps (in elements) between neighbours along each dim, as PyTorch counts them."""
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        if not self._data.size and not any(strides):  # NumPy's empty arrays have 0s: PyTorch's, row-major
            strides = tuple(math.prod(max(n, 1) for n in self._data.shape[i + 1:]) for i in range(self._data.ndim))
        return strides if dim is None else strides[_dim(dim, self._data.ndim)]

    def is_contiguous(self, memory_format=contiguous_format):
        return is_contiguous_as(self._data, memory_format_arg(memory_format, "is_contiguous"))

    def contiguous(self, memory_format=contiguous_format):
        fmt = memory_format_arg(memory_format, "contiguous")
        if fmt is preserve_format:
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        return self if is_contiguous_as(self._data, fmt) else ops.Clone.apply(self, fmt)


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


def _need_dims(t, dims):
    """unbind and roll along a dim of a 0-d tensor: PyTorch refuses even the dims (0, -1) that
    other ops accept there."""
    first = dims[0] if isinstance(dims, (tuple, list)) and dims else dims
    if not t._data.ndim and first in (0, -1):
        raise IndexError(f"Dimension specified as {first} but tensor has no dimensions")


def _check_index(name, index):
    # an empty index reads nothing: PyTorch takes it whatever its dtype (and gather its ndim)
    if not isinstance(index, TensorBase) or (index.dtype.name not in ("int64", "int32") and index._data.size):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")


def _check_sizes(t, dim, index, src=None, name="gather"):
    """PyTorch's checks of gather's and scatter's shapes (NumPy would raise its own error, or
    quietly use less of src): as many dims in index as in self and src (a 0-d tensor counts as
    one of size 1), and index no larger than self, but along ``dim``, nor than src."""
    if not index._data.size:  # an empty index reads and writes nothing: any shape will do
        return
    src = src._data if isinstance(src, TensorBase) else None
    i, x = index._data.shape or (1,), t._data.shape or (1,)
    if len(i) != len(x):
        kind = "input" if name == "gather" else "self"
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {kind} tensor")
    if src is not None and len(i) != len(src.shape or (1,)):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    over = [k for k in range(len(i)) if k != dim and i[k] > x[k]]
    if over or src is not None and any(n > m for n, m in zip(i, src.shape or (1,))):
        text = (f"expected index {list(index.shape)} to be no larger than self {list(t.shape)} apart "
                f"from dimension {dim}")
        if name == "gather":
            raise RuntimeError(f"Size does not match at dimension {over[0]} {text}")
        raise RuntimeError("E" + text[1:] + ("" if src is None else
                                             f" and to be no larger size than src {list(src.shape)}"))


def _sliced(t, dim):
    """``t``'s shape without ``dim`` (a 0-d tensor: no shape)."""
    shape = t._data.shape
    return shape[:dim] + shape[dim + 1:]


def _check_bounds(index, t, dim, *, negative=False, error=RuntimeError, prefix=""):
    """An index along ``dim`` of ``t`` (gather's, scatter's, index_add's...): each entry 0 to
    size - 1 (PyTorch takes no negative index there, unlike ``t[i]``; ``negative``: from -size,
    as index_fill does); else PyTorch's ``error``, its words after ``prefix``."""
    size = t._data.shape[dim] if t._data.ndim else 1
    bad = index._data[(index._data < (-size if negative else 0)) | (index._data >= size)]
    if bad.size:
        raise error(f"{prefix}index {bad.flat[0]} is out of bounds for dimension {dim} with size {size}")


def _check_matrix(name, t):
    if t._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")

