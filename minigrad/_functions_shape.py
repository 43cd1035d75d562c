"""The ``torch.*`` functions of shapes and indexing written by hand: those that do more than
call their Tensor method (``torch.reshape(x, s)``, ``torch.gather``... are made from the table in
_namespace.py), and the index makers ``tril_indices``, ``triu_indices``, ``unravel_index``.
"""
import numpy as np

from ._creation import arange, tensor
from ._dtype import int64

__all__ = ["repeat_interleave", "take", "tril_indices", "triu_indices", "unravel_index", "unsafe_split"]


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(counts): each index, counts[i] times
        return arange(input.numel()).repeat_interleave(input)
    return input.repeat_interleave(repeats, dim, output_size=output_size)


def take(input, index):
    if not isinstance(index, type(input)):  # (as the method's, at the function's position)
        raise TypeError(f"take(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    return input.take(index)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of a row x col matrix's lower triangle (to ``offset``), row by row."""
    return _triangle_indices("tril", row, col, offset, dtype)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return _triangle_indices("triu", row, col, offset, dtype)


def _triangle_indices(name, row, col, offset, dtype):
    for what, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{what} must be non-negative, got{n}")
    dtype = int64 if dtype is None else dtype
    if dtype._category != 1:  # integers only
        raise NotImplementedError(f'"{name}_indices" not implemented for \'{dtype.legacy_name}\'')
    rows, cols = (np.tril_indices if name == "tril" else np.triu_indices)(row, offset, col)
    return tensor(np.stack([rows, cols]), dtype=dtype)


# -- writing into a copy (minigrad/_tensor_scatter.py, ops/scatter.py) -----------------------------


def unsafe_split(tensor, split_size_or_sections, dim=0):
    if not isinstance(split_size_or_sections, int):
        raise TypeError(f"unsafe_split(): argument 'split_size' (position 2) must be int, not "
                        f"{type(split_size_or_sections).__name__}")
    return tensor.unsafe_split(split_size_or_sections, dim)


def unravel_index(indices, shape):
    """The coordinates, one tensor per dimension of ``shape``, of the flat ``indices`` (int64
    tensors of indices' shape); as PyTorch's, indices outside count modulo the size."""
    if not indices.dtype.is_floating_point and indices.dtype.name != "bool":
        flat = indices._data.astype(np.int64) % max(int(np.prod(shape)), 1)
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        return tuple(tensor(c) for c in np.unravel_index(flat, shape)) if shape else ()
    raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
