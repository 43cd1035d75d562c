"""In-place ops (``x.add_(y)``, ``x += y``, ``x.zero_()``): how PyTorch records them.

The tensor keeps its identity and its buffer, but its ``grad_fn`` becomes the new node,
whose input is the tensor as it was. Its version counter goes up, so a node that saved
the old values refuses to run backward with the new ones.
"""
import numpy as np

from ._conventions import INFERENCE_INPLACE
from .autograd import function, grad_mode


def apply(tensor, method, *args, ufunc=None):
    """Apply the out-of-place ``method`` (``Tensor.__add__``, say), then write its result
    into ``tensor``'s own buffer. ``ufunc``: the NumPy function that can compute straight
    into the buffer when nothing needs recording."""
    if tensor._inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    record = grad_mode._state.enabled and (tensor._requires_grad or any(
        isinstance(a, function.Tensor) and a._requires_grad for a in args))
    if ufunc is not None and not record and tensor._data.dtype.kind == "f":
        # Nothing to record (an optimizer's update under no_grad, say): compute straight
        # into this tensor's buffer, with no temporary, as PyTorch does.
        other = args[0]._data if isinstance(args[0], function.Tensor) else args[0]
        try:
            ufunc(tensor._data, other, out=tensor._data, casting="unsafe")
        except ValueError:
            shape = np.broadcast_shapes(tensor._data.shape, np.shape(other))
            raise RuntimeError(f"output with shape {list(tensor._data.shape)} doesn't match the "
                               f"broadcast shape {list(shape)}") from None
        tensor._version_counter()[0] += 1
        return tensor
    if record and tensor._requires_grad and tensor._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if record and tensor._data.base is not None:
        # PyTorch would also rewrite the graph of the tensor this one is a view of.
        raise RuntimeError("minigrad does not record in-place operations on a view (a tensor made "
                           "by indexing, reshaping or transposing another); apply the operation "
                           "out of place instead")
    old = tensor
    if record:  # a copy: the op may need the old values in backward
        old = function.Tensor._wrap(tensor._data.copy(), grad_fn=tensor._grad_fn)
        old._requires_grad = tensor._requires_grad
    result = method(old, *args)
    if result.dtype is not tensor.dtype and result.dtype._category > tensor.dtype._category:
        raise RuntimeError(f"result type {result.dtype.legacy_name} can't be cast to the "
                           f"desired output type {tensor.dtype.legacy_name}")
    np.copyto(tensor._data, result._data, casting="unsafe")
    tensor._version_counter()[0] += 1
    if result._grad_fn is not None:
        result._grad_fn._rebind_output(tensor._data, tensor._version_counter())
        if tensor.retains_grad:  # the retained gradient is now that of the new values
            result._grad_fn._retain, tensor._grad_fn._retain = tensor._grad_fn._retain, None
        tensor._grad_fn, tensor._requires_grad = result._grad_fn, True
    return tensor
