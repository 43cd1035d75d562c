"""``F.linear``, in a module of its own: ``nn.functional`` imports it, and so do the functions
it imports that project with it (multi-head attention's in and out projections)."""
import numpy as np

from .. import ops
from .._conventions import check_expand
from .._conventions import typename as _typename
from .._tensor import Tensor


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``, recorded as PyTorch records it: one ``AddmmBackward0``
    on a 2-D input; other contiguous inputs are first viewed as 2-D (rows of features), then
    the result is viewed back (``ViewBackward0``). Without bias it is a plain matmul."""
    if not isinstance(input, Tensor):
        raise TypeError(f"linear(): argument 'input' (position 1) must be Tensor, not "
                        f"{_typename(input)}")
    if input._data.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are 0D and "
                           f"{weight.dim()}D")
    if input._data.dtype != weight._data.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {input.dtype.legacy_name} "
                           f"and {weight.dtype.legacy_name}")
    if bias is None:
        return input.matmul(weight.t())
    if bias._data.shape != weight._data.shape[:1]:  # (not the usual (out_features,): PyTorch's expand error)
        rows = input._data.shape[0] if input._data.ndim == 2 else int(np.prod(input._data.shape[:-1]))
        check_expand(bias._data.shape, (rows, weight._data.shape[0]))
    if input._data.ndim == 2:
        return ops.Addmm.apply(bias, input, weight.t())
    if not input.is_contiguous():  # PyTorch views only a contiguous input as rows: matmul, add_
        return input.matmul(weight.t()).add_(bias)
    rows = input.reshape(int(np.prod(input.shape[:-1])), input.shape[-1])  # (not -1: 0 features)
    return ops.Addmm.apply(bias, rows, weight.t()).reshape(*input.shape[:-1], weight.shape[0])
