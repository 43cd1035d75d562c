"""The Tensor's methods of several tensors out: split, chunk, unbind, tensor_split, hsplit,
vsplit, dsplit, split_with_sizes, unsafe_split... (several tensors in, cat and stack, are
torch functions: minigrad/_joining.py).

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/`` (Split, SplitWithSizes, Unbind, UnsafeSplit).
"""
import numpy as np
from . import ops
from ._conventions import typename
from ._conventions import dim as _dim
from .core.tensor import TensorBase
from ._tensor_shape import _need_dims


class JoinMixin:
    __slots__ = ()

    def unbind(self, dim=0):
        _need_dims(self, 0 if dim == -1 else dim)  # (PyTorch names -1 as 0 here: wrapped first)
        d = _dim(dim, self._data.ndim)
        return ops.Unbind.apply(self, d)

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
