"""``x[key]`` and ``x[key] = value``: which op PyTorch records for which kind of index.

Ints, slices, ``None`` and ``...`` (basic indexing) give views, recorded one dimension at
a time as PyTorch records them: Select for an int, Slice for a slice, Unsqueeze for None.
Tensors, lists and masks in the key (advanced indexing) give a copy, one Index node.
"""
import numpy as np

from . import ops
from ._conventions import INFERENCE_INPLACE, check_index
from .autograd import function, grad_mode


def getitem(x, key):
    if type(key) is int and not (x._requires_grad and grad_mode._state.enabled) \
            and x._data.ndim and -x._data.shape[0] <= key < x._data.shape[0]:
        # fast path (a DataLoader's x[i]): no node; a view, so it shares the version counter
        out = function.Tensor._wrap(x._data[key, ...], version_box=x._version_counter())
        if grad_mode._state.inference:  # a view of a normal tensor stays normal, as in PyTorch
            out._inference = x._inference
        return out
    if isinstance(key, slice):  # x[a:b] alone is always recorded, x[:] too
        if not x._data.ndim:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        return ops.Slice.apply(x, (key,))
    key = _array_index(key)
    check_index(x._data.shape, key)
    if any(isinstance(k, np.ndarray) for k in key):  # integer arrays or masks
        return ops.Index.apply(x, key)
    return _basic_index(x, key)


def setitem(x, key, value):
    """``x[key] = value`` writes in place, like the other in-place ops."""
    key = _array_index(key)
    if x._inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    if grad_mode._state.enabled and (x._requires_grad or getattr(value, "_requires_grad", False)):
        raise RuntimeError("minigrad does not record item assignment on tensors that require "
                           "grad; compute a new tensor (e.g. with torch.where or torch.cat) instead")
    x._data[key] = value._data if isinstance(value, function.Tensor) else value
    x._version_counter()[0] += 1


def _array_index(key):
    """The key as a tuple, with Tensors and lists in it turned into arrays (NumPy's advanced indexing)."""
    if not isinstance(key, tuple):
        key = (key,)
    return tuple(k._data if isinstance(k, function.Tensor) else np.asarray(k) if isinstance(k, list) else k
                 for k in key)


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
