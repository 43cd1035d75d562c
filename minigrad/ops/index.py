"""Indexing: picking elements out (``x[key]``, gather) and putting gradients back
(index_put, scatter). Each pair is the other's backward, so reads and writes by index
share this file (split, they would import each other); scatter.py holds the writes that no
read needs.

Also: Index, Select, Slice, SelectBackward, SliceBackward, IndexPutAccumulate in
minigrad/core/ops/shape.py (the core's, imported here).

An op with ``view = True`` returns a view of its input (same memory, same version counter).
"""
import sys

import numpy as np

from ..core import grad_mode
from ..core.function import Op
from .arithmetic import MulNumber
from ..core.ops.shape import (  # noqa: F401 (the core's: minigrad/core/ops/)
    _write_into_zeros, Index, IndexPutAccumulate, Select, SelectBackward, Slice, SliceBackward)


# ---------------------------------------------------------------------------------------------
# x[key]
# ---------------------------------------------------------------------------------------------


class NarrowCopy(Op):
    """``x.narrow_copy(d, start, length)``: narrow's elements, copied. Backward: the gradient
    written into zeros at the slice (SliceBackwardBackward0, as PyTorch's slice_backward)."""
    node_name = "NarrowCopyBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.shape, ctx.key = x.shape, key
        return np.ascontiguousarray(x[key])

    @staticmethod
    def backward(ctx, grad):
        return SliceBackward.apply(grad, ctx.shape, ctx.key), None


class Take(Op):
    """``x.take(index)``: the elements of the flattened x at ``index`` (negative: from the end),
    in index's shape. Backward: PyTorch's ``put_(index, grad, accumulate=True)`` into zeros."""
    node_name = "TakeBackward0"
    _non_differentiable = (1,)  # the index

    @staticmethod
    def forward(ctx, x, index):
        ctx.shape = x.shape
        ctx.save_for_backward(index)
        return x.reshape(-1)[index]

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return Put.apply(grad.new_zeros(ctx.shape), index, grad), None


class Put(Op):
    """``zeros.put_(index, values, accumulate=True)``: take's backward (PutBackward0); an
    element taken twice gets both gradients. Differentiated again: ``take`` of the values'."""
    node_name = "PutBackward0"
    _non_differentiable = (1,)

    @staticmethod
    def forward(ctx, x, index, values):
        ctx.save_for_backward(index)
        out = x.copy()
        np.add.at(out.reshape(-1), index.reshape(-1), values.reshape(-1))
        return out

    @staticmethod
    def backward(ctx, gg):
        index, = ctx.saved_tensors
        return gg, None, gg.take(index)


class MaskedSelect(Index):
    node_name = "MaskedSelectBackward0"  # x[mask] as a method: x.masked_select(mask)

    @staticmethod
    def forward(ctx, x, key, mask):
        # key: the mask broadcast with x; x is broadcast here, as PyTorch's kernel does it (no
        # ExpandBackward0 node), and the engine sums its gradient back to x's shape.
        ctx.shape, ctx.key = key.shape, key
        ctx.save_for_backward(mask)
        return np.broadcast_to(x, key.shape)[key]

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors  # (unchanged since forward, or this raises)
        # PyTorch's masked_select_backward: zeros.masked_scatter_(mask, grad)
        return MaskedScatter.apply(grad.new_zeros(ctx.shape), ctx.key, grad), None, None


class MaskedScatter(Op):
    """``x.masked_scatter(mask, source)``: x with its masked places filled, in order, by the
    first elements of ``source`` (masked_select's backward)."""
    node_name = "MaskedScatterBackward0"
    _non_differentiable = (1,)

    @staticmethod
    def forward(ctx, x, mask, source):
        ctx.source_shape = source.shape
        ctx.save_for_backward(mask)
        out = x.copy()
        out[mask] = source.reshape(-1)[:np.count_nonzero(mask)]
        return out

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        grad_source = MaskedScatterBackward.apply(grad, mask._data, ctx.source_shape)
        return grad.masked_fill(mask, 0.0), None, grad_source


class MaskedScatterBackward(Op):
    """The gradient of masked_scatter's ``source``: ``grad`` at the masked places, in order,
    then zeros for the elements of source never used (PyTorch's masked_scatter_backward)."""
    node_name = "MaskedScatterBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, mask, shape):
        ctx.save_for_backward(mask)
        out = np.zeros(shape, grad.dtype)
        picked = grad[mask]
        out.reshape(-1)[:picked.size] = picked
        return out

    @staticmethod
    def backward(ctx, gg):
        mask, = ctx.saved_tensors
        return MaskedScatter.apply(gg.new_zeros(mask.shape), mask._data, gg), None, None


class IndexPut(Op):
    """Zeros of ``shape`` with ``grad`` added in at ``key``.
    ``np.add.at`` adds once per occurrence, so a repeated index gathers every gradient."""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, dtype=grad.dtype)
        np.add.at(out, key, grad)
        return out

    @staticmethod
    def backward(ctx, gg):
        return gg[ctx.key], None, None


class IndexPutAdd(IndexPutAccumulate):
    """``x.index_put(indices, values, accumulate=True)``: PyTorch names this node after
    index_put (indexing's backward, the same op, is its ``_index_put_impl_``)."""
    node_name = "IndexPutBackward0"
    _non_differentiable = range(3, sys.maxsize)  # the tensors in key, kept as Index keeps them

    @staticmethod
    def forward(ctx, x, key, values, *indices):
        if indices:
            ctx.save_for_backward(*indices)
        return IndexPutAccumulate.forward(ctx, x, key, values)

    @staticmethod
    def backward(ctx, grad):
        indices = ctx.saved_tensors  # (unchanged since forward, or this raises)
        return grad, None, grad[ctx.key], *[None for _ in indices]


class IndexPutValues(Op):
    """``x[key] = values`` for a key with tensors or masks, out of place (``x[mask] = 0`` on a
    tensor that requires grad records this in place: minigrad/_indexing.py). Backward: the
    written places get no gradient from ``x``; ``values`` gets the gradient there."""
    node_name = "IndexPutBackward0"
    _non_differentiable = range(3, sys.maxsize)  # the tensors in key, kept as Index keeps them

    @staticmethod
    def forward(ctx, x, key, values, *indices):
        ctx.key = key
        if indices:
            ctx.save_for_backward(*indices)
        out = x.copy()
        out[key] = values
        return out

    @staticmethod
    def backward(ctx, grad):
        indices = ctx.saved_tensors  # (unchanged since forward, or this raises)
        grad_x = grad.clone()
        grad_x[ctx.key] = 0
        return grad_x, None, grad[ctx.key], *[None for _ in indices]  # (values' share: summed to its shape)


# ---------------------------------------------------------------------------------------------
# Along one dimension
# ---------------------------------------------------------------------------------------------


class Gather(Op):
    """``x.gather(dim, index)``: ``out[i][j] = x[i][index[i][j]]`` (for dim 1). Along the
    other dims, ``index`` may be smaller than x: only that corner of x is read."""
    node_name = "GatherBackward0"
    _non_differentiable = (2,)  # the index

    @staticmethod
    def forward(ctx, x, dim, indices):
        ctx.shape, ctx.dim = x.shape, dim
        ctx.save_for_backward(indices)
        if not indices.size:  # an empty index (of any dtype and ndim) reads nothing
            return np.zeros(indices.shape, x.dtype)
        x, ids = _vec(x), _vec(indices)
        corner = tuple(slice(None) if k == dim else slice(0, n) for k, n in enumerate(ids.shape))
        return np.take_along_axis(x[corner], ids, axis=dim).reshape(indices.shape)

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        if not indices.numel():  # nothing was read: a constant zero, as PyTorch's
            return grad.new_zeros(ctx.shape), None, None
        # An element picked twice gets both gradients: added in, not placed.
        return ScatterAdd.apply(grad.new_zeros(ctx.shape), ctx.dim, indices, grad), None, None


class ScatterAdd(Op):
    """``x.scatter_add(dim, index, src)``: x with ``src`` added in at ``index`` along ``dim``;
    a repeated index adds every value that lands on it."""
    node_name = "ScatterAddBackward0"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, indices, src):
        ctx.dim, ctx.src_shape = dim, src.shape
        ctx.save_for_backward(indices)
        out = x.copy()
        _add_along(out, indices, src, dim)
        return out

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        return grad, None, None, _src_gradient(ctx, grad, indices)


class Scatter(Op):
    """``x.scatter(dim, index, src)``: x with elements replaced by ``src`` at ``index``."""
    node_name = "ScatterBackward0"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, indices, src):
        ctx.dim, ctx.src_shape = dim, src.shape
        ctx.save_for_backward(indices)
        out = x.copy()
        if indices.size:  # an empty index (of any dtype) writes nothing
            indices, src = _vec(indices), _vec(src)
            np.put_along_axis(_corner(_vec(out), indices, dim), indices, src[tuple(slice(0, n) for n in indices.shape)],
                              axis=dim)
        return out

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        # The replaced elements of x get nothing; src gets the gradient where it landed.
        return grad.scatter(ctx.dim, indices, 0.0), None, None, _src_gradient(ctx, grad, indices)


class ScatterValue(Op):
    """``x.scatter(dim, index, value)`` with a number."""
    node_name = "ScatterBackward1"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, indices, value):
        ctx.dim = dim
        ctx.save_for_backward(indices)
        out = x.copy()
        if indices.size:
            np.put_along_axis(_corner(_vec(out), _vec(indices), dim), _vec(indices), value, axis=dim)
        return out

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        return grad.scatter(ctx.dim, indices, 0.0), None, None, None


def _src_gradient(ctx, grad, indices):
    """The gradient of scatter's ``src``: read back where each value landed. Only the corner
    of src that ``index`` covers was used; the rest gets 0."""
    g = Gather.apply(grad, ctx.dim, indices)
    if g.shape == ctx.src_shape:
        return g
    if not g.ndim:  # a 0-d index read one element: the first of src
        g = g.reshape(1)
    return IndexPut.apply(g, ctx.src_shape, tuple(slice(0, n) for n in g.shape))


def _corner(out, indices, dim):
    """The part of ``out`` that ``indices`` reaches: all of ``dim``, the first elements of each
    other dim (a view, so writes reach out): scatter takes an index smaller than self."""
    return out[tuple(slice(None) if k == dim else slice(0, n) for k, n in enumerate(indices.shape))]


def _vec(a):
    """A 0-d array as a vector of one element (a view, so writes reach it): gather and scatter
    take a 0-d tensor (self, index or src) as one, as PyTorch does."""
    return a.reshape(1) if a.ndim == 0 else a


def _add_along(out, indices, src, dim):
    """``out[..., indices[i], ...] += src[i]`` along ``dim``, every repeated index counted.
    ``out`` is a fresh C-contiguous array; each place is written as one flat index into it,
    as np.add.at is many times faster with a single flat index than with one per dim. The
    flat index is each coordinate times out's step along its dim, summed (the caller checked
    that every index is in range; np.ravel_multi_index would check again, at 3x the cost)."""
    if not indices.size:  # an empty index (of any dtype) adds nothing
        return
    out, indices, src = _vec(out), _vec(indices), _vec(src)
    src = src[tuple(slice(0, n) for n in indices.shape)]
    steps = [stride // out.itemsize for stride in out.strides]  # elements per step along each dim
    flat = indices.astype(np.intp) * steps[dim]
    for d, coordinate in enumerate(np.indices(indices.shape, sparse=True)):
        if d != dim:
            flat += coordinate * steps[d]
    np.add.at(out.reshape(-1), flat.reshape(-1), src.reshape(-1))


class IndexSelect(Op):
    """``x.index_select(dim, index)``: whole slices along ``dim``, picked by ``index``."""
    node_name = "IndexSelectBackward0"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.shape, ctx.dim = x.shape, dim
        ctx.save_for_backward(index)
        index = index.reshape(-1)  # a 0-d index is a vector of one
        if not x.ndim:  # a 0-d tensor counts as one element along dim 0, and stays 0-d
            return np.take(x.reshape(1), index).reshape(())
        return np.take(x, index, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        if not ctx.shape:
            return grad.clone(), None, None
        # PyTorch's index_select_backward: zeros.index_add_(dim, index, grad)
        return IndexAdd.apply(grad.new_zeros(ctx.shape), ctx.dim, index, grad, 1), None, None


def _along(dim, index):
    """The key that picks the slices at ``index`` (a vector; 0-d: one) along ``dim``."""
    return (slice(None),) * dim + (index.reshape(-1),)


class IndexAdd(Op):
    """``x.index_add(dim, index, source, alpha=a)``: x with the slices of ``a * source`` added
    in along ``dim`` at ``index``, a repeated index adding each (index_select's backward)."""
    node_name = "IndexAddBackward0"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, index, source, alpha):
        ctx.dim, ctx.source_shape, ctx.alpha = dim, source.shape, alpha
        ctx.save_for_backward(index)
        out = x.copy()
        if x.ndim:
            np.add.at(out, _along(dim, index), source if alpha == 1 else alpha * source)
        else:  # a 0-d x is one element along dim 0
            out += (source if alpha == 1 else alpha * source).sum()
        return out

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        # as derivatives.yaml: source's gradient is grad.index_select(dim, index).expand_as(source), times alpha
        g = grad.index_select(ctx.dim, index).expand(ctx.source_shape)
        return grad, None, None, g if ctx.alpha == 1 else MulNumber.apply(g, ctx.alpha), None


class IndexFill(Op):
    """``x.index_fill(dim, index, value)``: the slices at ``index`` along ``dim`` set to ``value``."""
    node_name = "IndexFillBackward0"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, index, value):
        ctx.dim = dim
        ctx.save_for_backward(index)
        out = x.copy()
        out[_along(dim, index) if x.ndim else ()] = value
        return out

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return grad.index_fill(ctx.dim, index, 0.0), None, None, None


class IndexFillTensor(IndexFill):
    """The same with a 0-d tensor as value: its gradient is the sum over the filled slices,
    each counted once however often ``index`` names it (PyTorch's ``_unique(index)``)."""
    node_name = "IndexFillBackward1"

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        once = index.reshape(-1).unique()
        return grad.index_fill(ctx.dim, index, 0.0), None, None, grad.index_select(ctx.dim, once).sum()


class IndexCopy(Op):
    """``x.index_copy(dim, index, source)``: the slices at ``index`` along ``dim`` replaced by
    those of ``source``."""
    node_name = "IndexCopyBackward0"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, index, source):
        ctx.dim, ctx.source_shape = dim, source.shape
        ctx.save_for_backward(index)
        out = x.copy()
        out[_along(dim, index) if x.ndim else ()] = source
        return out

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        g = grad.index_select(ctx.dim, index).expand(ctx.source_shape)  # as derivatives.yaml
        return grad.index_fill(ctx.dim, index, 0.0), None, None, g


class MaskedFill(Op):
    """``x.masked_fill(mask, value)``: ``value`` where the mask holds, x elsewhere."""
    node_name = "MaskedFillBackward0"
    _non_differentiable = (1,)  # the mask

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.save_for_backward(mask)
        return np.asarray(np.where(mask, np.asarray(value, x.dtype), x), order="C")  # row by row, as PyTorch's

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        return grad.masked_fill(mask, 0.0), None, None  # as PyTorch's (MaskedFillBackward0 again)


class MaskedFillTensor(MaskedFill):
    """The same with a 0-d tensor as value: the value's gradient is the sum where it was used."""
    node_name = "MaskedFillBackward1"

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        return grad.masked_fill(mask, 0.0), None, grad.masked_select(mask).sum()  # as PyTorch's
