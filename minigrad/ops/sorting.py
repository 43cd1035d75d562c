"""Selections and orderings: the median, the k-th smallest, the most frequent value, sorting,
the distinct values, and the steps quantile records.

The ones that pick one element per line (median(dim), kthvalue, mode) are ``max(dim)``'s op
under another name: the Tensor method finds the indices (minigrad/_tensor_reduce.py), the op
gathers the values and sends the gradient back to where they were picked.
"""
import numpy as np

from ..core.function import Op
from .index import Gather
from .reduce import Max, MaxDim, picked_backward
from .shape import SqueezeDim, Transpose, Unsqueeze


# ---------------------------------------------------------------------------------------------
# One element per line
# ---------------------------------------------------------------------------------------------


class Median(Max):
    """``x.median()``: the middle element; of an even number, the lower of the two middle ones
    (not their mean, as NumPy's); NaN if there is one. Backward as max's: ties share."""
    node_name = "MedianBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.size == 0:  # PyTorch's answer: NaN (an integer's lowest value)
            out = np.array(np.nan if x.dtype.kind == "f" else np.iinfo(x.dtype).min, x.dtype)
        else:
            flat = np.sort(x, axis=None)  # NaNs last
            out = flat[-1] if np.isnan(flat[-1]) else flat[(flat.size - 1) // 2]
        ctx.save_for_backward(x, out)
        return np.asarray(out)


class MedianDim(MaxDim):
    """``x.median(dim)``'s values: picked by the indices the Tensor method finds; backward as
    ``max(dim)``'s (the picked element receives the gradient)."""
    node_name = "MedianBackward1"


class Nanmedian(Median):
    """``x.nanmedian()``: the median of the elements that are not NaN (NaN if all are)."""
    node_name = "NanmedianBackward0"

    @staticmethod
    def forward(ctx, x):
        numbers = np.sort(x[~np.isnan(x)], axis=None) if x.dtype.kind == "f" else np.sort(x, axis=None)
        out = np.asarray(numbers[(numbers.size - 1) // 2] if numbers.size else np.array(np.nan, x.dtype))
        ctx.save_for_backward(x, out)
        return out


class NanmedianDim(MaxDim):
    node_name = "NanmedianBackward1"  # (indices: the Tensor method's; backward: max(dim)'s)


class Kthvalue(MaxDim):
    node_name = "KthvalueBackward0"  # the k-th smallest along dim (as max(dim))


class Mode(MaxDim):
    node_name = "ModeBackward0"  # the most frequent value along dim (as max(dim))


# ---------------------------------------------------------------------------------------------
# In order
# ---------------------------------------------------------------------------------------------


class Sort(Gather):
    """``x.sort(dim)``'s values: the elements, gathered in sorted order (``indices``)."""
    node_name = "SortBackward0"

    @staticmethod
    def forward(ctx, x, dim, indices):
        if x.ndim == 0:  # one value: already sorted
            ctx.shape = ()
            return x.copy()
        return in_layout_of(x, Gather.forward(ctx, x, dim, indices))

    @staticmethod
    def backward(ctx, grad):
        if ctx.shape == ():
            return grad, None, None
        return picked_backward(ctx, grad, ctx.saved_tensors[0]), None, None


def in_layout_of(x, out):
    """``out`` (of x's shape) in x's memory layout: PyTorch's sort keeps a permuted input's
    strides in its values and indices."""
    if x.flags.c_contiguous:
        return out
    kept = np.empty_like(x, dtype=out.dtype)  # (empty_like keeps x's layout)
    kept[...] = out
    return kept


class SortStable(Sort):
    node_name = "SortBackward1"  # sort(stable=...): PyTorch's other overload


class Topk(Gather):
    node_name = "TopkBackward0"
    backward = staticmethod(Sort.backward)  # (its indices: the top k's)


# ---------------------------------------------------------------------------------------------
# Counting: no derivative (PyTorch defines none; its node raises if a backward reaches it)
# ---------------------------------------------------------------------------------------------


class Unique(Op):
    """``x.unique()``'s values (found by the Tensor method, with NumPy's ``unique``)."""
    node_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx, x, values):
        return values

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the derivative for '_unique2' is not implemented.")


class UniqueConsecutive(Unique):
    """``x.unique_consecutive()``'s values: each run of equal elements (slices) once."""
    node_name = "UniqueConsecutiveBackward0"

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the derivative for 'unique_consecutive' is not implemented.")


class UniqueDim(Unique):
    """``x.unique(dim=d)``'s values: the distinct slices along ``d``."""
    node_name = "UniqueDimBackward0"

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the derivative for 'unique_dim' is not implemented.")


class Bincount(Op):
    """``input.bincount(weights)``: the sum of the weights of each value of ``input``."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, weights, input, minlength):
        out = np.bincount(input, weights, minlength)  # float64: PyTorch keeps float32 weights' dtype
        return out.astype(weights.dtype) if weights.dtype == np.float32 else out

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::bincount is not implemented")
