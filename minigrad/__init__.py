"""minigrad: tensors and reverse-mode autograd on NumPy, behaving like PyTorch.

``import minigrad as torch`` runs the PyTorch code learners meet: tensors record
the operations done to them, and ``loss.backward()`` walks that record backwards.

Where things are, in the order they build on each other:

    _dtype.py, _conventions.py   dtypes and promotion; PyTorch's argument checks and error texts
    autograd/                    the graph's nodes, Function, the backward engine, grad modes
    _tensor.py  <->  ops/        the Tensor, whose methods call the ops (forward and backward)
                                 _indexing.py and _inplace.py: x[key] and x.add_(y)
    _creation.py, _functions.py  the torch.* functions: making tensors, torch.exp, torch.cat...
    nn/, optim/, utils/          modules and losses, optimizers, data loading
    viz/, fusion.py, exercises/  for the course: pictures of the graph, operator fusion, checks
"""
__version__ = "0.1.0"

from . import autograd
from ._creation import (Generator, arange, default_generator, empty, eye, from_numpy, full,
                        full_like, linspace, manual_seed, ones, ones_like, rand, rand_like, randint,
                        randn, randn_like, randperm, tensor, zeros, zeros_like)
from ._dtype import (bool, double, dtype, float, float32, float64, get_default_dtype, int64, long,
                     set_default_dtype)
from ._functions import (abs, add, allclose, argmax, cat, clamp, clip, clone, concat, concatenate,
                         detach, div, equal, exp, flatten, is_tensor, isclose, log, log_softmax,
                         logsumexp, matmul, max, maximum, mean, mm, mul, neg, norm, numel, permute,
                         pow, reciprocal, relu, reshape, sigmoid, sign, softmax, sqrt, squeeze, stack,
                         std, sub, sum, sum_to_size, t, tanh, transpose, unsqueeze, var, where)
from ._tensor import Size, Tensor
from .autograd import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                       no_grad, set_grad_enabled)
from . import nn, optim, utils  # noqa: E402 (they build on everything above)
