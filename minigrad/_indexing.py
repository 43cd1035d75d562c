"""``x[key]`` and ``x[key] = value``: which op PyTorch records for which kind of index.

Ints, slices, ``None`` and ``...`` (basic indexing) give views, recorded one dimension at
a time as PyTorch records them: Select for an int, Slice for a slice, Unsqueeze for None.
Tensors, lists and masks in the key (advanced indexing) give a copy, one Index node.
Like every view, the result remembers its base, so that an in-place op on it can be recorded
on the base too (CopySlices: minigrad/_inplace.py).
"""
import warnings

import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import INFERENCE_INPLACE, check_expand, check_index
from .core import grad_mode
from .core.tensor import TensorBase


def getitem(x, key):
    if type(key) is int and not (x._requires_grad and grad_mode._state.enabled) \
            and x._data.ndim and -x._data.shape[0] <= key < x._data.shape[0]:
        # fast path (a DataLoader's x[i]): no node; a view, so it shares the version counter
        return x._view_of(x._data[key, ...])
    lone_slice = isinstance(key, slice)
    indices = _tensors_in(key)
    key = _array_index(key)
    check_index(x._data.shape, key)
    if any(isinstance(k, np.ndarray) for k in key):  # integer arrays or masks
        return ops.Index.apply(x, key, *indices)
    # x[a:b] alone is always recorded as a Slice, x[:] too; in a longer key ``:`` is free
    return ops.Slice.apply(x, key) if lone_slice else _basic_index(x, key)


def setitem(x, key, value):
    """``x[key] = value`` writes in place, like the other in-place ops. Recorded, it is what
    PyTorch records: ``x[key].copy_(value)`` for a view (CopySlices), ``index_put_`` for a key
    with tensors or masks."""
    indices = _tensors_in(key)
    if np.ndim(value) == 0 and any(getattr(k, "dtype", None) is _dtype.uint8 for k in
                                   (key if isinstance(key, tuple) else (key,))):  # (a mask to fill)
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
    key = _array_index(key)
    check_index(x._data.shape, key)
    if x._inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    if grad_mode._state.enabled and (x._requires_grad or getattr(value, "_requires_grad", False)):
        if not isinstance(value, TensorBase):
            value = TensorBase._wrap(np.asarray(value, dtype=x._data.dtype))
        if any(isinstance(k, np.ndarray) for k in key):
            _inplace.apply(x, lambda t: ops.IndexPutValues.apply(t, key, value, *indices))
        else:
            getitem(x, key).copy_(value)
        return
    value = value._data if isinstance(value, TensorBase) else _dtype.scalar_for(value, x.dtype)  # (-1: 255)
    target = x._data[key]
    check_expand(np.shape(value), np.shape(target))
    x._data[key] = value
    x._version_counter()[0] += 1


def _tensors_in(key):
    """The tensors in ``key``: the node of an advanced index keeps them."""
    if isinstance(key, TensorBase):
        return (key,)
    return tuple(k for k in key if isinstance(k, TensorBase)) if isinstance(key, tuple) else ()


def _array_index(key):
    """The key as a tuple, with Tensors, lists and ranges in it turned into arrays (NumPy's advanced indexing)."""
    if not isinstance(key, tuple):
        key = (key,)
    return tuple(_mask(k._data) if isinstance(k, TensorBase) else np.asarray(k) if isinstance(k, (list, range))
                 else k for k in key)


def _mask(array):
    """A uint8 tensor in a key is a mask, as a bool tensor is (PyTorch's old way, still taken, with a warning)."""
    if array.dtype != np.uint8:
        return array
    warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.",
                  UserWarning, stacklevel=4)
    return array.astype(np.bool_)


def _basic_index(x, key):
    """``x[key]`` for ints, slices, None and ``...``, one dimension at a time; a slice that
    spans its whole dimension (``:``, ``0:n`` or beyond) is skipped, as PyTorch skips it in a
    key of several parts; nothing left: an alias."""
    if Ellipsis in key:
        i = key.index(Ellipsis)
        fill = x._data.ndim - sum(k is not None for k in key if k is not Ellipsis)
        key = key[:i] + (slice(None),) * fill + key[i + 1:]
    out, d = x, 0  # d: the dimension of ``out`` that the next key element indexes
    for k in key:
        if k is None:
            out, d = out.unsqueeze(d), d + 1
        elif isinstance(k, slice):
            if k.start not in (None, 0) or k.indices(out._data.shape[d])[1:] != (out._data.shape[d], 1):
                out = ops.Slice.apply(out, (slice(None),) * d + (k,))
            d += 1
        else:
            out = ops.Select.apply(out, (slice(None),) * d + (int(k),))
    return ops.Alias.apply(x, ()) if out is x else out
