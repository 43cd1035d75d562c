"""The functions of the ``torch`` namespace that are not about making tensors.

Most are PyTorch's function forms of Tensor methods: ``torch.exp(x)`` is ``x.exp()``,
``torch.sum(x, 1)`` is ``x.sum(1)``. The rest take several tensors (``cat``, ``stack``,
``where``) or compare them.
"""
import builtins

import numpy as np

from . import _dtype, ops
from ._conventions import dim as _dim
from ._creation import tensor
from ._tensor import Tensor


def is_tensor(obj):
    return isinstance(obj, Tensor)


# -- Tensor methods as functions ---------------------------------------------------------------

def exp(input):
    return input.exp()


def log(input):
    return input.log()


def sqrt(input):
    return input.sqrt()


def abs(input):
    return input.abs()


def sign(input):
    return input.sign()


def neg(input):
    return input.neg()


def reciprocal(input):
    return input.reciprocal()


def relu(input):
    return input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def clamp(input, min=None, max=None):
    return input.clamp(min, max)


clip = clamp


def add(input, other, *, alpha=1):
    return input.add(other, alpha=alpha)


def sub(input, other, *, alpha=1):
    return input.sub(other, alpha=alpha)


def mul(input, other):
    return input.mul(other)


def div(input, other):
    return input.div(other)


def pow(input, exponent):
    return input.pow(exponent)


def maximum(input, other):
    return input.maximum(other)


def matmul(input, other):
    return input.matmul(other)


def mm(input, mat2):
    return input.mm(mat2)


def sum(input, *args, **kwargs):
    return input.sum(*args, **kwargs)


def mean(input, *args, **kwargs):
    return input.mean(*args, **kwargs)


def var(input, *args, **kwargs):
    return input.var(*args, **kwargs)


def std(input, *args, **kwargs):
    return input.std(*args, **kwargs)


def norm(input, *args, **kwargs):
    return input.norm(*args, **kwargs)


def max(input, *args, **kwargs):
    return input.max(*args, **kwargs)


def argmax(input, *args, **kwargs):
    return input.argmax(*args, **kwargs)


def softmax(input, dim):
    return input.softmax(dim)


def log_softmax(input, dim):
    return input.log_softmax(dim)


def logsumexp(input, dim, keepdim=False):
    return input.logsumexp(dim, keepdim)


def reshape(input, shape):
    return input.reshape(shape)


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


def transpose(input, dim0, dim1):
    return input.transpose(dim0, dim1)


def permute(input, dims):
    return input.permute(dims)


def t(input):
    return input.t()


def unsqueeze(input, dim):
    return input.unsqueeze(dim)


def squeeze(input, dim=None):
    return input.squeeze(dim)


def sum_to_size(input, *size):
    return input.sum_to_size(*size)


def clone(input):
    return input.clone()


def detach(input):
    return input.detach()


def numel(input):
    return input.numel()


# -- several tensors -------------------------------------------------------------------------

def cat(tensors, dim=0):
    """Join tensors along an existing dimension."""
    tensors = list(tensors)
    d = _dim(dim, tensors[0].dim())
    first = tensors[0].shape
    for i, t in enumerate(tensors[1:], 1):
        for j, (a, b) in enumerate(zip(first, t.shape)):
            if j != d and a != b:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{a} but got size {b} for tensor number {i} in the list.")
    return ops.Cat.apply(d, *tensors)


concat = concatenate = cat


def stack(tensors, dim=0):
    """Join tensors along a new dimension."""
    tensors = list(tensors)
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != tensors[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} "
                               f"at entry 0 and {list(t.shape)} at entry {i}")
    return ops.Stack.apply(_dim(dim, tensors[0].dim() + 1), *tensors)


def where(condition, input, other):
    """``input`` where ``condition`` holds, else ``other`` (either may be a number)."""
    if not isinstance(input, Tensor):  # torch.where(mask, 0.0, x)
        input = tensor(input, dtype=_dtype.result_type(input, other))
    return input.where(condition, other)


# -- comparing tensors -------------------------------------------------------------------------

def equal(a, b):
    """True if both tensors have the same shape and the same elements."""
    return a.shape == b.shape and builtins.bool((a._data == b._data).all())


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(np.allclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Tensor._wrap(np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))
