"""The ``torch.*`` functions of shapes, indexing and copies: ``torch.reshape(x, s)`` is
``x.reshape(s)``, ``torch.gather``, ``torch.clone``... Each is its Tensor method
(minigrad/_tensor_shape.py) under PyTorch's function name; the rest of the namespace's
functions are in _functions.py.
"""
import numpy as np

from ._creation import arange, tensor
from ._dtype import int64


def reshape(input, shape):
    return input.reshape(shape)


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


def ravel(input):
    return input.ravel()


def unflatten(input, dim, sizes):
    return input.unflatten(dim, sizes)


def transpose(input, dim0, dim1):
    return input.transpose(dim0, dim1)


swapaxes = swapdims = transpose


def permute(input, dims):
    return input.permute(dims)


def movedim(input, source, destination):
    return input.movedim(source, destination)


moveaxis = movedim


def t(input):
    return input.t()


def unsqueeze(input, dim):
    return input.unsqueeze(dim)


def squeeze(input, dim=None):
    return input.squeeze(dim)


def sum_to_size(input, *size):
    return input.sum_to_size(*size)


def tile(input, dims):
    return input.tile(dims)


def flip(input, dims):
    return input.flip(dims)


def roll(input, shifts, dims=None):
    return input.roll(shifts, dims)


def chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


def narrow(input, dim, start, length):
    return input.narrow(dim, start, length)


def unbind(input, dim=0):
    return input.unbind(dim)


def gather(input, dim, index):
    return input.gather(dim, index)


def take_along_dim(input, indices, dim=None):
    return input.take_along_dim(indices, dim)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    return input.scatter(dim, index, src, value=value, reduce=reduce)


def scatter_add(input, dim, index, src):
    return input.scatter_add(dim, index, src)


def index_select(input, dim, index):
    return input.index_select(dim, index)


def index_add(input, dim, index, source, *, alpha=1):
    return input.index_add(dim, index, source, alpha=alpha)


def index_fill(input, dim, index, value):
    return input.index_fill(dim, index, value)


def index_copy(input, dim, index, source):
    return input.index_copy(dim, index, source)


def index_put(input, indices, values, accumulate=False):
    return input.index_put(indices, values, accumulate)


def masked_fill(input, mask, value):
    return input.masked_fill(mask, value)


def masked_select(input, mask):
    return input.masked_select(mask)


def nonzero(input, *, as_tuple=False):
    return input.nonzero(as_tuple=as_tuple)


def argwhere(input):
    return input.argwhere()


def broadcast_to(input, size):
    return input.broadcast_to(size)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(counts): each index, counts[i] times
        return arange(input.numel()).repeat_interleave(input)
    return input.repeat_interleave(repeats, dim, output_size=output_size)


# Copies and counts

def clone(input, *, memory_format=None):
    return input.clone(memory_format=memory_format)


def detach(input):
    return input.detach()


def numel(input):
    return input.numel()


def is_floating_point(input):
    return input.is_floating_point()


# Windows, turns, pieces and diagonals (minigrad/_tensor_pieces.py)

def rot90(input, k=1, dims=(0, 1)):
    return input.rot90(k, dims)


def fliplr(input):
    return input.fliplr()


def flipud(input):
    return input.flipud()


def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    return input.tensor_split(indices_or_sections, dim, sections=sections, indices=indices,
                              tensor_indices_or_sections=tensor_indices_or_sections)


def hsplit(input, indices_or_sections):
    return input.hsplit(indices_or_sections)


def vsplit(input, indices_or_sections):
    return input.vsplit(indices_or_sections)


def dsplit(input, indices_or_sections):
    return input.dsplit(indices_or_sections)


def split_with_sizes(input, split_sizes, dim=0):
    return input.split_with_sizes(split_sizes, dim)


def select(input, dim, index):
    return input.select(dim, index)


def narrow_copy(input, dim, start, length):
    return input.narrow_copy(dim, start, length)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    return input.diag_embed(offset, dim1, dim2)


def diagflat(input, offset=0):
    return input.diagflat(offset)


def take(input, index):
    if not isinstance(index, type(input)):  # (as the method's, at the function's position)
        raise TypeError(f"take(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    return input.take(index)


def as_strided(input, size, stride, storage_offset=None):
    return input.as_strided(size, stride, storage_offset)


def is_same_size(input, other):
    return input.is_same_size(other)


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


# -- writing into a copy (minigrad/_tensor_pieces.py, ops/scatter.py) -----------------------------
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    return input.scatter_reduce(dim, index, src, reduce, include_self=include_self)


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    return input.index_reduce(dim, index, source, reduce, include_self=include_self)


def masked_scatter(input, mask, source):
    return input.masked_scatter(mask, source)


def select_scatter(input, src, dim, index):
    return input.select_scatter(src, dim, index)


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    return input.slice_scatter(src, dim, start, end, step)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    return input.diagonal_scatter(src, offset, dim1, dim2)


def put(input, index, source, accumulate=False):
    return input.put(index, source, accumulate)


def unsafe_chunk(input, chunks, dim=0):
    return input.unsafe_chunk(chunks, dim)


def unsafe_split(tensor, split_size_or_sections, dim=0):
    if not isinstance(split_size_or_sections, int):
        raise TypeError(f"unsafe_split(): argument 'split_size' (position 2) must be int, not "
                        f"{type(split_size_or_sections).__name__}")
    return tensor.unsafe_split(split_size_or_sections, dim)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return input.unsafe_split_with_sizes(split_sizes, dim)
