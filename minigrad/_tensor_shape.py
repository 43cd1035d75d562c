"""The Tensor's shape and indexing methods: view, reshape, transpose, x[key], ...

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/shape.py`` or ``ops/index.py``. This module reaches the Tensor class
only through ``autograd.function.Tensor``.
"""
import warnings

from . import _indexing, ops
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from ._conventions import new_shape, reshape_is_view
from ._conventions import shape_args as _shape_args


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
            return ops.View.apply(self, shape)
        return ops.UnsafeView.apply(self.clone(), shape)  # copy first, as PyTorch does

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

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def expand(self, *shape):
        shape = _shape_args(shape)
        lead = len(shape) - self._data.ndim
        shape = tuple(self._data.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        for i, size in enumerate(self._data.shape):
            if size != 1 and size != shape[i + lead]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({shape[i + lead]}) must match the existing size "
                    f"({size}) at non-singleton dimension {i + lead}.  Target sizes: {list(shape)}.  "
                    f"Tensor sizes: {list(self._data.shape)}")
        return ops.Expand.apply(self, shape)

    def expand_as(self, other):
        return self.expand(other.shape)

    def sum_to_size(self, *shape):
        shape = _shape_args(shape)
        return self if shape == self._data.shape else ops.SumToSize.apply(self, shape)

    def permute(self, *dims):
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
        return ops.T.apply(self, 0, max(self._data.ndim - 1, 0))

    @property
    def T(self):
        if self._data.ndim != 2:
            warnings.warn(
                "function.Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
                if self._data.ndim == 0 else
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
                "reverse the dimensions of a tensor.", UserWarning, stacklevel=2)
        return self.permute(*reversed(range(self._data.ndim)))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def unsqueeze(self, dim):
        return ops.Unsqueeze.apply(self, _dim(dim, self._data.ndim + 1))

    def squeeze(self, dim=None):
        if dim is None:
            return ops.Squeeze.apply(self, None)
        dims = tuple(d for d in _dims(dim, self._data.ndim) if self._data.shape[d] == 1)
        return (ops.SqueezeDims if isinstance(dim, (tuple, list)) else ops.SqueezeDim).apply(self, dims)

    def unbind(self, dim=0):
        d = _dim(dim, self._data.ndim)
        return tuple(ops.Unbind.apply(self, (slice(None),) * d + (i,)) for i in range(self._data.shape[d]))

    def __getitem__(self, key):
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        _indexing.setitem(self, key, value)

