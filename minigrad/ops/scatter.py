"""Writing into a copy, beyond index.py's scatter and index_add: the reducing scatters
(``scatter_reduce``, ``index_reduce``: sum, prod, mean, amax, amin of what lands on each
place), the ``*_scatter`` ops (a copy of x with ``src`` written where ``select``, a slice or
``diagonal`` would read), and ``put`` without accumulation.

The reducing scatters' backwards are PyTorch's (FunctionsManual.cpp's
``scatter_reduce_backward``, ``index_reduce_backward``), written with Tensor operations, so
they can be differentiated again: a product's gradient is the product of the others (zeros
counted apart), a mean's is shared by all that were averaged, amax's and amin's is shared
evenly among the ties.
"""
import numpy as np

from ..core.function import Op

# What each reduction starts from where ``include_self=False`` drops the place's own value.
_IDENTITY = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}
_UFUNC = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


def _identity(reduce, dtype):
    value = _IDENTITY[reduce]
    if dtype.kind in "iub" and abs(value) == np.inf:  # integers: their own extremes
        info = np.iinfo(dtype) if dtype.kind != "b" else None
        return (info.min if value < 0 else info.max) if info else value > 0
    return value


def _reduce_into(out, flat, values, reduce, include_self):
    """``out.flat[flat[k]] (reduce)= values[k]`` for every k, a repeated place reducing all that
    land on it; without ``include_self``, a place that is landed on forgets its own value."""
    out_flat = out.reshape(-1)
    if not include_self:
        out_flat[flat] = _identity(reduce, out.dtype)
    _UFUNC[reduce].at(out_flat, flat, values)
    if reduce == "mean":  # divided by how many were added (itself counted if included)
        count = np.bincount(flat, minlength=out.size) + (1 if include_self else 0)
        hit = np.zeros(out.size, bool)
        hit[flat] = True
        if out.dtype.kind == "f":
            out_flat[hit] = out_flat[hit] / count[hit]
        else:  # (integers: floor division, as PyTorch's)
            out_flat[hit] = out_flat[hit] // count[hit]


def _flat_along(shape, index, dim):
    """The flat position in an array of ``shape`` (C order) of each ``index`` entry along ``dim``
    (the other coordinates: the entry's own)."""
    steps = np.cumprod((shape[1:] + (1,))[::-1])[::-1] if shape else np.ones(0, np.intp)
    flat = index.astype(np.intp) * (steps[dim] if shape else 0)
    for d, coordinate in enumerate(np.indices(index.shape, sparse=True)):
        if d != dim:
            flat = flat + coordinate * steps[d]
    return flat.reshape(-1)


class ScatterReduce(Op):
    """``x.scatter_reduce(dim, index, src, reduce, include_self=True)``: each element of ``src``
    reduced into the place of x that ``index`` names along ``dim``."""
    node_name = "ScatterReduceBackward0"
    _non_differentiable = (2,)  # the index

    @staticmethod
    def forward(ctx, x, dim, index, src, reduce, include_self):
        ctx.dim, ctx.reduce, ctx.include_self = dim, reduce, include_self
        out = np.array(x, order="C")  # a copy
        if index.size:
            shape = out.shape or (1,)
            idx = index.reshape(index.shape or (1,))
            values = src.reshape(src.shape or (1,))[tuple(slice(0, n) for n in idx.shape)]
            _reduce_into(out.reshape(shape), _flat_along(shape, idx, dim), values.reshape(-1), reduce,
                         include_self)
        ctx.save_for_backward(x, index, src, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, index, src, result = ctx.saved_tensors
        dim, reduce, include_self = ctx.dim, ctx.reduce, ctx.include_self
        if reduce == "sum":
            grad_self, grad_src = grad, grad.gather(dim, index)
        elif reduce == "prod":
            # each gets the product of the others: result / itself, with zeros counted apart
            masked_self = x.masked_fill(x == 0, 1)
            grad_self = grad * ScatterReduce.apply(masked_self, dim, index, src, reduce, include_self) / masked_self
            src_zero = src == 0
            zeros = x.new_zeros(x.shape).scatter_add(dim, index, src_zero.to(x.dtype)).gather(dim, index)
            single_zero = src_zero.logical_and(zeros == 1)
            masked_src_result = ScatterReduce.apply(x, dim, index, src.masked_fill(single_zero, 1), reduce,
                                                    include_self)
            grad_src = (grad * masked_src_result).gather(dim, index).where(
                single_zero, (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1))
        elif reduce == "mean":
            n = (grad.new_ones(grad.shape) if include_self else grad.new_zeros(grad.shape)).scatter_add(
                dim, index, src.new_ones(src.shape))
            n = n.masked_fill(n == 0, 1)
            grad_self, grad_src = grad / n, grad.gather(dim, index) / n.gather(dim, index)
        else:  # amax, amin: shared evenly among the values equal to the result
            value = result.gather(dim, index)
            n = (x == result).to(x.dtype).scatter_add(dim, index, (src == value).to(x.dtype))
            shared = grad / n
            grad_self, grad_src = (x == result) * shared, (src == value) * shared.gather(dim, index)
        if not include_self:
            grad_self = grad_self.scatter(dim, index, 0)
        return grad_self, None, None, _fit(grad_src, src), None, None


def _fit(g, like):
    """A gradient read back at ``index`` (index's shape) as one of ``like``'s shape: only the
    corner of ``like`` that index covers was used; the rest gets 0."""
    if g.shape == like.shape:
        return g
    if not like.shape:
        return g.reshape(())
    out = g.new_zeros(like.shape)
    out[tuple(slice(0, n) for n in g.shape)] = g
    return out


class IndexReduce(Op):
    """``x.index_reduce(dim, index, source, reduce, include_self=True)``: slice ``i`` of
    ``source`` along ``dim`` reduced into slice ``index[i]`` of x (prod, mean, amax, amin)."""
    node_name = "IndexReduceBackward0"
    _non_differentiable = (2,)

    @staticmethod
    def forward(ctx, x, dim, index, source, reduce, include_self):
        ctx.dim, ctx.reduce, ctx.include_self = dim, reduce, include_self
        out = np.array(x, order="C")
        shape = out.shape or (1,)
        if index.size:  # each element of source slice i lands in slice index[i] of out
            along = [1] * len(shape)
            along[dim] = -1
            places = np.broadcast_to(index.reshape(along), source.shape or (1,))
            _reduce_into(out.reshape(shape), _flat_along(shape, places, dim), source.reshape(-1), reduce,
                         include_self)
        ctx.save_for_backward(x, index, source, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, index, source, result = ctx.saved_tensors
        dim, reduce, include_self = ctx.dim, ctx.reduce, ctx.include_self
        if reduce == "prod":
            masked_self = x.masked_fill(x == 0, 1)
            grad_self = grad * IndexReduce.apply(masked_self, dim, index, source, reduce, include_self) / masked_self
            src_zero = source == 0
            zeros = x.new_zeros(x.shape).index_add(dim, index, src_zero.to(x.dtype)).index_select(dim, index)
            single_zero = src_zero.logical_and(zeros == 1)
            masked_src_result = IndexReduce.apply(x, dim, index, source.masked_fill(single_zero, 1), reduce,
                                                  include_self)
            grad_src = (grad * masked_src_result).index_select(dim, index).where(
                single_zero, (grad * result).index_select(dim, index) / source.masked_fill(src_zero, 1))
        elif reduce == "mean":
            n = (grad.new_ones(grad.shape) if include_self else grad.new_zeros(grad.shape)).index_add(
                dim, index, source.new_ones(source.shape))
            n = n.masked_fill(n == 0, 1)
            grad_self, grad_src = grad / n, grad.index_select(dim, index) / n.index_select(dim, index)
        else:  # amax, amin
            value = result.index_select(dim, index)
            self_is_result = (x == result).to(x.dtype)
            source_is_result = (source == value).to(x.dtype)
            shared = grad / self_is_result.index_add(dim, index, source_is_result)
            grad_self, grad_src = self_is_result * shared, source_is_result * shared.index_select(dim, index)
        if not include_self:
            grad_self = grad_self.index_fill(dim, index, 0)
        return grad_self, None, None, grad_src, None, None


# ---------------------------------------------------------------------------------------------
# The *_scatter ops: a copy of x with src where a view of x would be
# ---------------------------------------------------------------------------------------------


def _diagonal_view(a, offset, dim1, dim2):
    """A writable view of ``a``'s diagonal, as ``a.diagonal(offset, dim1, dim2)`` reads it (the
    diagonal last)."""
    moved = np.moveaxis(a, (dim1, dim2), (-2, -1))
    n = max(0, min(moved.shape[-2] + min(offset, 0), moved.shape[-1] - max(offset, 0)))
    return moved, (Ellipsis, np.arange(n) - min(offset, 0), np.arange(n) + max(offset, 0))


class SelectScatter(Op):
    """``x.select_scatter(src, dim, index)``: x with ``src`` written at ``x.select(dim, index)``."""
    node_name = "SelectScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, dim, index):
        ctx.dim, ctx.index = dim, index
        out = x.copy()
        out[(slice(None),) * dim + (index,)] = src
        return out

    @staticmethod
    def backward(ctx, grad):
        part = grad.select(ctx.dim, ctx.index)
        return (SelectScatter.apply(grad, part.new_zeros(part.shape), ctx.dim, ctx.index), part, None, None)


class SliceScatter(Op):
    """``x.slice_scatter(src, dim, start, end, step)``: x with ``src`` written at that slice."""
    node_name = "SliceScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, dim, start, end, step):
        ctx.key = (slice(None),) * dim + (slice(start, end, step),)
        ctx.args = dim, start, end, step
        out = x.copy()
        out[ctx.key] = src
        return out

    @staticmethod
    def backward(ctx, grad):
        part = grad[ctx.key]
        return (SliceScatter.apply(grad, part.new_zeros(part.shape), *ctx.args), part, None, None, None, None)


class DiagonalScatter(Op):
    """``x.diagonal_scatter(src, offset, dim1, dim2)``: x with ``src`` written on that diagonal."""
    node_name = "DiagonalScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, offset, dim1, dim2):
        ctx.args = offset, dim1, dim2
        out = x.copy()
        moved, key = _diagonal_view(out, offset, dim1, dim2)
        moved[key] = src
        return out

    @staticmethod
    def backward(ctx, grad):
        part = grad.diagonal(*ctx.args)
        return (DiagonalScatter.apply(grad, part.new_zeros(part.shape), *ctx.args), part, None, None, None)


class PutValues(Op):
    """``x.put(index, source)``: x (flattened) with ``source`` written at ``index`` (negative:
    from the end; a repeated index keeps one of its values). ``accumulate=True`` is index.py's
    Put."""
    node_name = "PutBackward0"
    _non_differentiable = (1,)

    @staticmethod
    def forward(ctx, x, index, source):
        ctx.save_for_backward(index)
        ctx.source_shape = source.shape
        out = x.copy()
        out.reshape(-1)[index.reshape(-1)] = source.reshape(-1)
        return out

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        zeros = grad.new_zeros(ctx.source_shape)
        return PutValues.apply(grad, index, zeros), None, grad.take(index).reshape(ctx.source_shape)
