"""The Tensor's shape methods: one tensor, the same elements, rearranged (a view where it
can be): view, reshape, transpose, permute, expand, squeeze, flip, roll, repeat, unfold,
as_strided, rot90; in place: t_, transpose_, unsqueeze_, squeeze_, resize_.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/shape.py`` (the core's View, Expand, Permute, Transpose, ... are in
minigrad/core/ops/shape.py). This module reaches the Tensor class
only through ``autograd.TensorBase``.
"""
import math
import warnings

import numpy as np

from . import ops
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from ._conventions import check_expand, new_shape, reshape_is_view
from ._conventions import shape_args as _shape_args
from ._conventions import contiguous_format, is_contiguous_as, memory_format_arg, preserve_format
from .core import grad_mode
from .core.tensor import TensorBase
from ._conventions import INFERENCE_INPLACE


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


def _need_dims(t, dims):
    """unbind and roll along a dim of a 0-d tensor: PyTorch refuses even the dims (0, -1) that
    other ops accept there."""
    first = dims[0] if isinstance(dims, (tuple, list)) and dims else dims
    if not t._data.ndim and first in (0, -1):
        raise IndexError(f"Dimension specified as {first} but tensor has no dimensions")
