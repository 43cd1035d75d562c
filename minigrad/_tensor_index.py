"""The Tensor's reads by index or mask: ``x[key]``, select, narrow, gather, take,
index_select, masked_select, nonzero, ... and the index checks the writes share.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/index.py`` (the core's Index, Select, Slice are in
minigrad/core/ops/shape.py). The key parser is _indexing.py.
"""
import numpy as np
from . import _indexing, ops
from ._conventions import check_broadcast, typename
from ._conventions import dim as _dim
from .core.tensor import TensorBase


class IndexMixin:
    __slots__ = ()

    def select(self, dim, index):
        """``x.select(1, i)`` is ``x[:, i]``."""
        if not self._data.ndim:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d, size = _dim(dim, self._data.ndim), self._data.shape
        if not -size[d] <= index < size[d]:
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"[{', '.join(map(str, size))}] at dimension {d}")
        return self[(slice(None),) * d + (index,)]

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

    def __getitem__(self, key):
        return _indexing.getitem(self, key)

    # -- picking elements along a dim (minigrad/ops/index.py) ------------------------------------
    def gather(self, dim, index, sparse_grad=False):  # (sparse_grad: for sparse gradients, which minigrad has not)
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
