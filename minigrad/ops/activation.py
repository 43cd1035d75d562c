"""The activations of ``nn`` beyond relu/sigmoid/tanh (those are in unary.py).

Each is one node in PyTorch (``GeluBackward0``, ...), so each is one op here. Backward is
written with Tensor ops, so it can be differentiated again (``create_graph=True``); its
own nodes then are minigrad's compositions, not PyTorch's ``...BackwardBackward0`` ops,
except GELU's: its slope is one op, ``GeluBackward`` (PyTorch's ``gelu_backward``).
"""
import math

import numpy as np

from .._conventions import quiet
from ..autograd.function import Op
from .arithmetic import AddNumber, MulNumber, Where
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
        return LeakyReluBackward.apply(grad, x, ctx.slope), None


class LeakyReluInplace(LeakyRelu):
    node_name = "LeakyReluBackward1"  # ``leaky_relu_``: PyTorch names the in-place form apart


class LeakyReluBackward(Op):
    """``grad`` where ``x > 0``, ``grad * negative_slope`` elsewhere (NaN too): one op, as
    PyTorch's ``leaky_relu_backward``, whose inputs are both grad and x, so that with
    ``create_graph=True`` the gradient requires grad (its slope in x is 0: zeros)."""
    node_name = "LeakyReluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, negative_slope):
        ctx.save_for_backward(x)
        ctx.slope = negative_slope
        return np.where(x > 0, grad, grad * negative_slope)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return LeakyReluBackward.apply(gg, x, ctx.slope), gg.new_zeros(gg.shape), None


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
        return EluBackward.apply(grad, x, ctx.alpha, ctx.scale, ctx.input_scale), None, None, None


class EluInplace(Elu):
    node_name = "EluBackward1"


class EluBackward(Op):
    """``grad * elu'(x)``: ``grad * scale`` where ``x > 0`` (and at NaN), ``grad * alpha *
    scale * input_scale * exp(x * input_scale)`` where ``x <= 0``. One op, as PyTorch's
    ``elu_backward``; its own slope in x (elu_double_backward) is the negative branch's,
    masked by ``x < 0``: 0 at x = 0, where the first derivative took the negative branch."""
    node_name = "EluBackwardBackward0"

    @staticmethod
    @quiet
    def forward(ctx, grad, x, alpha, scale, input_scale):
        ctx.save_for_backward(grad, x)
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        negative = grad * (np.exp(x * input_scale) * (alpha * scale * input_scale)).astype(x.dtype)
        return np.where(x <= 0, negative, grad * scale)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        a, s, i = ctx.alpha, ctx.scale, ctx.input_scale
        d_grad = EluBackward.apply(gg, x, a, s, i) if ctx.needs_input_grad[0] else None
        d_x = (EluBackward.apply(gg * grad * i, x, a, s, i) * (x < 0)) if ctx.needs_input_grad[1] else None
        return d_grad, d_x, None, None, None


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


class Gelu(Op):
    """``x * Phi(x)``, Phi the standard normal's CDF: the input weighted by how likely it is
    to be larger than a standard normal. ``approximate="tanh"`` uses
    ``0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`` instead."""
    node_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, x, approximate):
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        if approximate == "tanh":  # x * x * x, as PyTorch's kernel (x ** 3 is NumPy's slow pow)
            return 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * (x * x * x))))
        return x * (0.5 * (1 + erf(x / math.sqrt(2))))  # x Phi(x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return GeluBackward.apply(grad, x, ctx.approximate), None


class GeluBackward(Op):
    """``grad * gelu'(x)``: one op, as PyTorch's ``gelu_backward`` (NumPy on the arrays instead
    of a Tensor op per term, and erf computed once)."""
    node_name = "GeluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, approximate):
        ctx.save_for_backward(grad, x)  # PyTorch saves both (_saved_grad_output, _saved_self)
        ctx.approximate = approximate
        if approximate == "tanh":  # d/dx of (x / 2) (1 + tanh(inner)), as PyTorch's kernel writes it
            t = np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * (x * x * x)))
            inner_slope = _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * (x * x))
            slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * inner_slope
        else:  # d/dx x Phi(x) = Phi(x) + x phi(x)
            slope = 0.5 * (1 + erf(x * math.sqrt(0.5))) + x * (_INV_SQRT_2PI * np.exp(-0.5 * (x * x)))
        return grad * slope

    @staticmethod
    def backward(ctx, gg):
        # d/dgrad is the op itself; d/dx is grad * gg * gelu''(x), written with Tensor ops
        # in the order of PyTorch's gelu_double_backward (FunctionsManual.cpp), so that a
        # third derivative records the graph PyTorch records.
        grad, x = ctx.saved_tensors
        d_grad = GeluBackward.apply(gg, x, ctx.approximate) if ctx.needs_input_grad[0] else None
        d_x = gg * grad * _gelu_second_derivative(x, ctx.approximate) if ctx.needs_input_grad[1] else None
        return d_grad, d_x, None


def _gelu_second_derivative(x, approximate):
    """gelu''(x), as PyTorch's C++ writes it: its numbers times a tensor record MulBackward1
    (MulNumber), ``1 + t`` AddBackward1, ``1 - t`` and ``1 / t`` (a tensor of ones minus,
    over, t) SubBackward0 and DivBackward0."""
    k, one = 0.044715, x.new_ones(())
    if approximate == "tanh":  # gelu = f g' with f = x / 2, g' = 1 + tanh(inner), as below
        inner = MulNumber.apply(x + MulNumber.apply(x.pow(3), k), _SQRT_2_OVER_PI)
        tanh_inner = inner.tanh()
        sech_inner = one / inner.cosh()
        f = MulNumber.apply(x, 0.5)
        g = one - tanh_inner * tanh_inner  # tanh' = 1 - tanh^2 = sech^2
        h = MulNumber.apply(AddNumber.apply(MulNumber.apply(x, 3 * k) * x, 1), _SQRT_2_OVER_PI)  # inner'
        f_prime_gh = MulNumber.apply(g, 0.5) * h
        g_prime = MulNumber.apply(sech_inner, 2) * (-sech_inner * tanh_inner) * h  # (sech^2)'
        h_prime = MulNumber.apply(MulNumber.apply(x, 6 * k), _SQRT_2_OVER_PI)
        return MulNumber.apply(f_prime_gh, 2) + f * h * g_prime + f * g * h_prime
    x_sq = x * x  # (Phi + x phi)' = 2 phi + x phi' = 2 phi - x^2 phi
    pdf = MulNumber.apply(MulNumber.apply(x_sq, -0.5).exp(), _INV_SQRT_2PI)
    return MulNumber.apply(pdf, 2) - x_sq * pdf


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
        return SoftplusBackward.apply(grad, x, ctx.beta, ctx.threshold), None, None


class SoftplusBackward(Op):
    """``grad * sigmoid(beta * x)``, or ``grad`` where ``beta * x > threshold``: one op, as
    PyTorch's ``softplus_backward``. Its slope in x (softplus_double_backward) is
    ``grad * beta * s (1 - s)`` where ``beta * x < threshold``, 0 elsewhere (at the threshold
    too), never NaN from the branch it did not take."""
    node_name = "SoftplusBackwardBackward0"

    @staticmethod
    @quiet
    def forward(ctx, grad, x, beta, threshold):
        ctx.save_for_backward(grad, x)
        ctx.beta, ctx.threshold = beta, threshold
        z = np.exp(x * beta)
        return np.where(x * beta > threshold, grad, grad * (z / (z + 1)).astype(x.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        beta, threshold = ctx.beta, ctx.threshold
        d_grad = SoftplusBackward.apply(gg, x, beta, threshold) if ctx.needs_input_grad[0] else None
        d_x = None
        if ctx.needs_input_grad[1]:
            s = (x * beta).sigmoid()
            d_x = gg * grad * (s * (1 - s)) * ((x * beta) < threshold) * beta
        return d_grad, d_x, None, None
