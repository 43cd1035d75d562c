"""minigrad: tensors and reverse-mode autograd on NumPy, behaving like PyTorch.

``import minigrad as torch`` runs the PyTorch code learners meet: tensors record
the operations done to them, and ``loss.backward()`` walks that record backwards.
"""
__version__ = "0.1.0"

import builtins as _builtins

from . import autograd
from ._creation import (Generator, arange, default_generator, empty, eye, from_numpy, full,
                        full_like, linspace, manual_seed, ones, ones_like, rand, rand_like, randint,
                        randn, randn_like, randperm, zeros, zeros_like)
from ._dtype import (bool, double, dtype, float, float32, float64, get_default_dtype, int64, long,
                     set_default_dtype)
from ._tensor import Size, Tensor, tensor, where
from .autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from . import nn, optim, utils  # noqa: E402 (they build on everything above)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(t):
    return t.numel()


# Functions that PyTorch offers both as torch.f(x, ...) and as x.f(...).
def _method(name):
    def f(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"torch.{name}(input, ...) is input.{name}(...)"
    return f


for _name in ("exp", "log", "sqrt", "abs", "sign", "neg", "reciprocal", "relu", "sigmoid", "tanh",
              "clamp", "clip", "sum", "mean", "var", "std", "norm", "max", "argmax", "softmax",
              "log_softmax", "logsumexp",
              "reshape", "flatten", "transpose", "permute", "t", "unsqueeze", "squeeze", "matmul",
              "mm", "add", "sub", "mul", "div", "pow", "maximum", "clone", "detach", "numel",
              "sum_to_size"):
    globals()[_name] = _method(_name)
del _name


def cat(tensors, dim=0):
    """Join tensors along an existing dimension."""
    from ._ops import Cat
    from ._tensor import _dim
    tensors = list(tensors)
    d = _dim(dim, tensors[0].dim())
    first = tensors[0].shape
    for i, t in enumerate(tensors[1:], 1):
        for j, (a, b) in enumerate(zip(first, t.shape)):
            if j != d and a != b:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{a} but got size {b} for tensor number {i} in the list.")
    return Cat.apply(d, *tensors)


concat = concatenate = cat


def stack(tensors, dim=0):
    """Join tensors along a new dimension."""
    from ._ops import Stack
    from ._tensor import _dim
    tensors = list(tensors)
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != tensors[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} "
                               f"at entry 0 and {list(t.shape)} at entry {i}")
    return Stack.apply(_dim(dim, tensors[0].dim() + 1), *tensors)


def equal(a, b):
    """True if both tensors have the same shape and the same elements."""
    return a.shape == b.shape and _builtins.bool((a._data == b._data).all())


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    import numpy as np
    return _builtins.bool(np.allclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    import numpy as np
    return Tensor._wrap(np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))
