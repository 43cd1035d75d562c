"""The activations of ``nn`` beyond relu/sigmoid/tanh (those are in unary.py).

Each is one node in PyTorch (``GeluBackward0``, ...), so each is one op here. Backward is
written with Tensor ops, so it can be differentiated again (``create_graph=True``); its
own nodes then are minigrad's compositions, not PyTorch's ``...BackwardBackward0`` ops.
"""
import math

import numpy as np

from .._conventions import quiet
from ..autograd.function import Op
from .arithmetic import Where
from .unary import erf


class LeakyRelu(Op):
    """``x`` where positive, ``negative_slope * x`` elsewhere (0 too, as in PyTorch)."""
    node_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.save_for_backward(x)
        ctx.slope = negative_slope
        return np.where(x > 0, x, x * negative_slope)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return Where.apply(x._data > 0, grad, grad * ctx.slope), None


class LeakyReluInplace(LeakyRelu):
    node_name = "LeakyReluBackward1"  # ``leaky_relu_``: PyTorch names the in-place form apart


class Elu(Op):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere: smooth at 0 when alpha=1,
    and bounded below by -alpha (``scale`` and ``input_scale`` are SELU's factors)."""
    node_name = "EluBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, alpha, scale, input_scale):
        ctx.save_for_backward(x)
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        return np.where(x > 0, x * scale, (np.expm1(x * input_scale) * (alpha * scale)).astype(x.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        negative = grad * ((x * ctx.input_scale).exp() * (ctx.alpha * ctx.scale * ctx.input_scale))
        return Where.apply(x._data > 0, grad * ctx.scale, negative), None, None, None


class EluInplace(Elu):
    node_name = "EluBackward1"


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


class Gelu(Op):
    """``x * Phi(x)``, Phi the standard normal's CDF: the input weighted by how likely it is
    to be larger than a standard normal. ``approximate="tanh"`` uses
    ``0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`` instead."""
    node_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, x, approximate):
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        if approximate == "tanh":
            return 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x ** 3)))
        phi = 0.5 * (1 + erf(x / math.sqrt(2)))
        return x * phi

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        if ctx.approximate == "tanh":
            t = ((x + 0.044715 * x ** 3) * _SQRT_2_OVER_PI).tanh()
            slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
        else:  # d/dx x Phi(x) = Phi(x) + x phi(x)
            slope = 0.5 * (1 + (x / math.sqrt(2)).erf()) + x * (x * x * -0.5).exp() / math.sqrt(2 * math.pi)
        return grad * slope, None


class Silu(Op):
    """``x * sigmoid(x)`` ("swish")."""
    node_name = "SiluBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x / (1 + np.exp(-x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        s = x.sigmoid()
        return grad * (s * (1 + x * (1 - s)))


class Softplus(Op):
    """``log(1 + exp(beta * x)) / beta``: a smooth ReLU. Where ``beta * x > threshold`` it is
    ``x`` itself (the two agree to float precision there, and exp would overflow)."""
    node_name = "SoftplusBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, beta, threshold):
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        bx = x * beta
        return np.where(bx > threshold, x, (np.logaddexp(0, bx) / beta).astype(x.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return Where.apply(x._data * ctx.beta > ctx.threshold, grad, grad * (x * ctx.beta).sigmoid()), None, None
