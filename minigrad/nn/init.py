"""``torch.nn.init``: fill a tensor in place with starting values for training.

Each function changes the tensor's numbers without recording anything (as under
``no_grad``), draws from minigrad's default generator (so ``manual_seed`` makes
it reproducible) unless given another, and returns the tensor.
"""
import math

import numpy as np

from .._random import rng as _rng
from .._tensor import Tensor
from ..autograd import no_grad


def _fill(tensor, array):
    with no_grad():
        tensor.copy_(Tensor._wrap(np.asarray(array)))
    return tensor


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _fill(tensor, _rng(generator).uniform(a, b, tensor.shape))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _fill(tensor, _rng(generator).normal(mean, std, tensor.shape))


def constant_(tensor, val):
    return _fill(tensor, val)


def zeros_(tensor):
    return _fill(tensor, 0.0)


def ones_(tensor):
    return _fill(tensor, 1.0)


def _calculate_fan_in_and_fan_out(tensor):
    """Inputs and outputs per unit: a Linear weight (out, in) has fan_in = in, fan_out = out
    (a conv weight's trailing kernel dims multiply both)."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = int(np.prod(tensor.shape[2:], dtype=np.int64))
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def calculate_gain(nonlinearity, param=None):
    """The factor that keeps activations' variance steady through the given nonlinearity."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fan(tensor, mode):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He initialisation: uniform in +-gain * sqrt(3 / fan). With ``a=sqrt(5)``, nn.Linear's
    default, the bound is 1 / sqrt(fan_in)."""
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot initialisation: uniform in +-gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)
