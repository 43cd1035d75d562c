"""The elementwise activations of ``nn.functional`` beyond relu, sigmoid, tanh and softmax:
leaky_relu, elu, selu, celu, gelu, silu, mish, softplus, the piecewise linear ones (hardtanh,
relu6, hardsigmoid, hardswish, threshold, hardshrink, softshrink), logsigmoid, softsign,
tanhshrink, glu, prelu, rrelu, and their in-place forms. ``nn.functional`` imports them all:
``F.gelu`` is this module's ``gelu``. Their ops (forward and backward) are in
minigrad/ops/activation.py.
"""
import numpy as np

from .. import _inplace, ops
from .._conventions import dim as _dim
from .. import _random
from .._conventions import float_only


def _maybe_inplace(input, op, inplace_op, *args):
    """``op(input, *args)``, or, with ``inplace``, the same written into ``input`` (its node
    then PyTorch's in-place one, ``LeakyReluBackward1``, ...)."""
    if inplace_op is None:
        return op.apply(input, *args)
    return _inplace.apply(input, lambda old: inplace_op.apply(old, *args))


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _maybe_inplace(input, ops.LeakyRelu, ops.LeakyReluInplace if inplace else None, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    return _maybe_inplace(input, ops.Elu, ops.EluInplace if inplace else None, alpha, 1.0, 1.0)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """ELU scaled so that activations keep mean 0 and variance 1 layer after layer."""
    return _maybe_inplace(input, ops.Elu, ops.EluInplace if inplace else None, _SELU_ALPHA, _SELU_SCALE, 1.0)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return ops.Gelu.apply(input, approximate)


def silu(input, inplace=False):
    return _maybe_inplace(input, ops.Silu, ops.Silu if inplace else None)  # SiluBackward0 both ways


def softplus(input, beta=1.0, threshold=20.0):
    return ops.Softplus.apply(input, beta, threshold)


def celu(input, alpha=1.0, inplace=False):
    """ELU with its input scaled by 1 / alpha: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    float_only(input, "elu_cpu")
    return _maybe_inplace(input, ops.Celu, ops.CeluInplace if inplace else None, alpha, 1.0, 1.0 / alpha)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def selu_(input):
    return selu(input, inplace=True)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def relu_(input):
    return input.relu_()


def threshold(input, threshold, value, inplace=False):
    """``x`` where ``x > threshold``, else ``value``."""
    return _maybe_inplace(input, ops.Threshold, ops.ThresholdInplace if inplace else None, threshold, value)


def threshold_(input, threshold, value):
    return _maybe_inplace(input, ops.Threshold, ops.ThresholdInplace, threshold, value)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """``x`` clamped to ``[min_val, max_val]``, with gradient 1 strictly inside, 0 outside."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _maybe_inplace(input, ops.Hardtanh, ops.Hardtanh if inplace else None, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """``min(max(x, 0), 6)``: hardtanh(x, 0, 6), as PyTorch records it (HardtanhBackward0)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def hardsigmoid(input, inplace=False):
    float_only(input, "hardsigmoid_cpu")
    return _maybe_inplace(input, ops.Hardsigmoid, ops.Hardsigmoid if inplace else None)


def hardswish(input, inplace=False):
    float_only(input, "hardswish_cpu")
    return _maybe_inplace(input, ops.Hardswish, ops.Hardswish if inplace else None)


def mish(input, inplace=False):
    float_only(input, "mish_cpu")
    return _maybe_inplace(input, ops.Mish, ops.Mish if inplace else None)


def logsigmoid(input):
    """``log(sigmoid(x))``, without the log of a sigmoid that rounded to 0."""
    return ops.LogSigmoid.apply(float_only(input, "log_sigmoid_cpu"))


def hardshrink(input, lambd=0.5):
    return ops.Hardshrink.apply(float_only(input, "hardshrink_cpu"), lambd)


def softshrink(input, lambd=0.5):
    float_only(input, "softshrink_check")
    top = np.finfo(input._data.dtype).max
    if not 0 <= lambd <= top:
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype {input.dtype.legacy_name}, "
                           f"but found {float(lambd):g}")
    return ops.Softshrink.apply(input, lambd)


def tanhshrink(input):
    return input - input.tanh()  # a composition in PyTorch too (SubBackward0)


def softsign(input):
    return input / (input.abs() + 1)  # a composition in PyTorch too (DivBackward0)


def glu(input, dim=-1):
    """``a * sigmoid(b)``, ``a`` and ``b`` the halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = _dim(dim, input.dim())
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {input.shape[d]}")
    return ops.Glu.apply(float_only(input, "glu_cpu"), d)


def prelu(input, weight):
    """leaky_relu whose slope is the parameter ``weight``: one slope, or one per channel (dim 1)."""
    n = weight.numel()
    channels = input.shape[1] if input.dim() > 1 else 1
    if n != 1 and n != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                           f"{n} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = "
                           f"{weight.dim()}")
    if input.dim() == 0:
        return ops.PreluKernel.apply(input, weight)
    shape = [1] * input.dim()  # the slopes along dim 1, as PyTorch views them
    if input.dim() > 1:
        shape[1] = n
    return ops.PreluKernel.apply(input, weight.view(shape))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False, *, generator=None):
    """Randomized leaky ReLU: in training each negative element gets its own slope, drawn
    uniformly from ``[lower, upper]``; in eval mode the slope is their mean."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    float_only(input, "leaky_relu_cpu")
    x = input._data
    if training:  # a slope drawn for each element <= 0, in order (PyTorch's _rrelu_with_noise_train)
        negative = np.ascontiguousarray(x) <= 0
        noise = np.ones(x.shape, x.dtype)
        noise[negative] = _random.uniform(_random.generator_of(generator), int(negative.sum()), np.float64,
                                          lower, upper)
    else:
        noise = np.where(x > 0, 1.0, (lower + upper) / 2).astype(x.dtype)
    return _maybe_inplace(input, ops.RreluWithNoise, ops.RreluWithNoiseInplace if inplace else None, noise)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)
