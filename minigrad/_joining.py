"""The torch.* functions that join tensors: ``cat``, ``stack`` and their relatives that first
give every tensor enough dimensions (``hstack``, ``vstack``, ``column_stack``, ``dstack``, by
way of ``atleast_1d/2d/3d``), and ``meshgrid``, whose grids are views of its inputs.

As in PyTorch, the relatives are compositions: views and unsqueezes, then one ``cat``
(CatBackward0), so their ``grad_fn`` graphs are PyTorch's.
"""
import warnings

import numpy as np

from . import ops
from ._conventions import dim as _dim
from ._conventions import typename
from ._inplace import into_out
from ._tensor import Tensor


def cat(tensors, dim=0, *, out=None):
    """Join tensors along an existing dimension."""
    if out is not None:
        return into_out(out, "cat", lambda: cat(tensors, dim), tensors)
    if isinstance(tensors, Tensor):
        raise TypeError("cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
        if t.dim() != tensors[0].dim():
            raise RuntimeError(f"Tensors must have same number of dimensions: got {tensors[0].dim()} "
                               f"and {t.dim()}")
    d = _dim(dim, tensors[0].dim())
    first = tensors[0].shape
    for i, t in enumerate(tensors[1:], 1):
        for j, (a, b) in enumerate(zip(first, t.shape)):
            if j != d and a != b:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{a} but got size {b} for tensor number {i} in the list.")
    return ops.Cat.apply(d, *tensors)


concat = cat


def concatenate(tensors, axis=0, out=None):
    """``cat``, with NumPy's name for ``dim``."""
    return cat(tensors, axis, out=out)


def stack(tensors, dim=0, *, out=None):
    """Join tensors along a new dimension."""
    if out is not None:
        return into_out(out, "stack", lambda: stack(tensors, dim), tensors)
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != tensors[0].shape:
            raise RuntimeError("stack expects each tensor to be equal size, but got "
                               f"{list(tensors[0].shape)} "
                               f"at entry 0 and {list(t.shape)} at entry {i}")
    return ops.Stack.apply(_dim(dim, tensors[0].dim() + 1), *tensors)


def _tensor_list(tensors, who):
    """The tensors argument of cat's relatives: a list or tuple, not empty (PyTorch's words)."""
    if isinstance(tensors, Tensor):
        raise TypeError(f"{who}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{who} expects a non-empty TensorList")
    return _only_tensors(tensors)


def _only_tensors(tensors):
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {typename(t)}")
    return tensors


def _atleast(tensors, view, unsqueeze):
    """atleast_Nd: 0-d tensors viewed as (1, ..., 1), 1-D ones unsqueezed, as PyTorch records them."""
    if len(tensors) == 1 and not isinstance(tensors[0], Tensor):  # atleast_1d([a, b])
        return tuple([_atleast((t,), view, unsqueeze) for t in tensors[0]])
    if len(tensors) > 1:
        return tuple([_atleast((t,), view, unsqueeze) for t in tensors])
    t, = tensors
    return t.view(view) if t.dim() == 0 else unsqueeze(t) if t.dim() < len(view) else t


def atleast_1d(*tensors):
    return _atleast(tensors, (1,), None)


def atleast_2d(*tensors):
    return _atleast(tensors, (1, 1), lambda t: t.unsqueeze(0))


def atleast_3d(*tensors):  # (n,) -> (1, n, 1); (m, n) -> (m, n, 1)
    return _atleast(tensors, (1, 1, 1),
                    lambda t: t.unsqueeze(0).unsqueeze(-1) if t.dim() == 1 else t.unsqueeze(-1))


def hstack(tensors, *, out=None):
    """Side by side: along dim 0 for vectors (and numbers), along dim 1 otherwise."""
    if out is not None:
        return into_out(out, 'hstack', lambda: hstack(tensors), tensors, op='cat')
    tensors = [atleast_1d(t) for t in _tensor_list(tensors, "hstack")]
    return cat(tensors, 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors, *, out=None):
    """One under another: vectors (and numbers) become rows, then cat along dim 0."""
    if out is not None:
        return into_out(out, 'vstack', lambda: vstack(tensors), tensors, op='cat')
    return cat([atleast_2d(t) for t in _tensor_list(tensors, "vstack")], 0)


row_stack = vstack


def dstack(tensors, *, out=None):
    if out is not None:
        return into_out(out, 'dstack', lambda: dstack(tensors), tensors, op='cat')
    return cat([atleast_3d(t) for t in _tensor_list(tensors, "dstack")], 2)


def column_stack(tensors, *, out=None):
    """Vectors (and numbers) become columns, then cat along dim 1."""
    if out is not None:
        return into_out(out, 'column_stack', lambda: column_stack(tensors), tensors, op='cat')
    tensors = _tensor_list(tensors, "column_stack")
    return cat([t.view(t.numel(), 1) if t.dim() <= 1 else t for t in tensors], 1)


def meshgrid(*tensors, indexing=None):
    """Grids from 1-D tensors: output i holds tensor i's values along dim i (``"ij"``, matrix
    indexing), or with ``"xy"`` (Cartesian, as NumPy's default) the first two dims swapped,
    so that ``xx, yy = meshgrid(xs, ys, indexing="xy")`` has ``xx[row, col] == xs[col]``.
    Each output is a view (a view then an expand, as in PyTorch): no values are copied."""
    if len(tensors) == 1 and not isinstance(tensors[0], Tensor):  # meshgrid([xs, ys])
        tensors = tuple(tensors[0])
    if indexing is None:  # (attributed to this line, as PyTorch's to its own: shown once)
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                      "argument.", UserWarning, stacklevel=1)
        indexing = "ij"
    elif indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    tensors = _only_tensors(list(tensors))
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                               f"{t.dim()}-D tensor of shape {list(t.shape)}")
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:  # "xy" is "ij" of (ys, xs, ...), then the first two results swapped back
        tensors[0], tensors[1] = tensors[1], tensors[0]
    shape = [t.numel() for t in tensors]
    grids = []
    for i, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[i] = -1
        grids.append(t.view(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def block_diag(*tensors):
    """The matrices (a vector: a row; a number: 1 x 1) one after another along the diagonal
    of one matrix, zeros elsewhere."""
    tensors = _only_tensors(list(tensors))
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input "
                               f"{i} has {t.dim()} dimensions")
    if not tensors:  # (as PyTorch: one empty row)
        return Tensor._wrap(np.zeros((1, 0), np.float32))
    return ops.BlockDiag.apply(*tensors)


def cartesian_prod(*tensors):
    """Every combination of one element from each vector, one per row (as itertools.product):
    as PyTorch writes it, the meshgrid's grids flattened and stacked as columns."""
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return stack([grid.flatten() for grid in meshgrid(*tensors, indexing="ij")], 1)


def combinations(input, r=2, with_replacement=False):
    """The ``r``-element combinations of a vector's elements, one per row (itertools'
    combinations, or combinations_with_replacement): as PyTorch writes it, r grids of the
    vector (meshgrid), each masked to the places where the grid indices increase, stacked."""
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_zeros(0)
    n = input.numel()
    at = np.indices((n,) * r)  # each grid's index along its own dim
    keep = np.ones((n,) * r, bool)
    for a, b in zip(at[:-1], at[1:]):
        keep &= a <= b if with_replacement else a < b
    mask = Tensor._wrap(keep)
    return stack([grid.masked_select(mask) for grid in meshgrid(*[input] * r, indexing="ij")], 1)
