"""The activations of ``nn`` beyond relu/sigmoid/tanh (those are in pointwise.py).

Each is one node in PyTorch (``GeluBackward0``, ...), so each is one op here. Where PyTorch's
backward is one op too (``gelu_backward``, ``hardtanh_backward``...: ``...BackwardBackward0``
nodes when it is recorded), so is minigrad's (GeluBackward, HardtanhBackward, ...); the
others' backwards (Silu, Mish, PreluKernel, RreluWithNoise, Glu) are written with Tensor ops,
so they can be differentiated again, but record minigrad's compositions.
"""
import math

import numpy as np

from .._conventions import quiet
from ..core.function import Op
from .arithmetic import AddNumber, MulNumber, Where
from .join import Cat
from .pointwise import erf


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


class Celu(Elu):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``: ELU with its input scaled by
    1 / alpha, so that its slope at 0 is 1 whatever alpha (Elu's forward and backward, with
    ``input_scale = 1 / alpha``: PyTorch's celu is elu_backward too)."""
    node_name = "CeluBackward0"


class CeluInplace(Elu):
    node_name = "CeluBackward1"


# -- piecewise linear: the gradient is grad itself or 0 (or a constant times grad) ---------------
class Hardtanh(Op):
    """``x`` clamped to ``[min_val, max_val]`` (relu6: ``[0, 6]``); NaN stays NaN."""
    node_name = "HardtanhBackward0"  # in place too, as PyTorch names it

    @staticmethod
    def forward(ctx, x, min_val, max_val):
        ctx.save_for_backward(x)
        ctx.bounds = min_val, max_val
        return np.clip(x, min_val, max_val).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return HardtanhBackward.apply(grad, x, *ctx.bounds), None, None


class HardtanhBackward(Op):
    """``grad`` strictly inside the bounds, 0 at and beyond them (PyTorch's
    ``hardtanh_backward``); its own slope in x is 0."""
    node_name = "HardtanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, min_val, max_val):
        ctx.save_for_backward(x)
        ctx.bounds = min_val, max_val
        return np.where((x <= min_val) | (x >= max_val), grad.dtype.type(0), grad)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return HardtanhBackward.apply(gg, x, *ctx.bounds), gg.new_zeros(gg.shape), None, None


class Threshold(Op):
    """``value`` where ``x <= threshold``, ``x`` elsewhere (ReLU is threshold(x, 0, 0)).
    NaN is not ``<= threshold``: it stays NaN, as in PyTorch."""
    node_name = "ThresholdBackward0"

    @staticmethod
    def forward(ctx, x, threshold, value):
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        return np.where(x <= threshold, np.array(value).astype(x.dtype), x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return ThresholdGrad.apply(grad, x, ctx.threshold), None, None


class ThresholdInplace(Threshold):
    node_name = "ThresholdBackward1"


class ThresholdGrad(Op):
    """0 where ``x <= threshold``, ``grad`` elsewhere (at NaN too): PyTorch's
    ``threshold_backward`` (pointwise.py's ThresholdBackward is the same for ReLU, on its output
    and threshold 0)."""
    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, threshold):
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        return np.where(x <= threshold, grad.dtype.type(0), grad)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return ThresholdGrad.apply(gg, x, ctx.threshold), gg.new_zeros(gg.shape), None


class Hardshrink(Op):
    """``x`` where ``|x| > lambd``, 0 in ``[-lambd, lambd]``: small values shrink to 0."""
    node_name = "HardshrinkBackward0"

    @staticmethod
    def forward(ctx, x, lambd):
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        return np.where((x >= -lambd) & (x <= lambd), x.dtype.type(0), x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return HardshrinkBackward.apply(grad, x, ctx.lambd), None


class HardshrinkBackward(Op):
    """``grad`` outside ``[-lambd, lambd]``, 0 inside: the backward of hardshrink and of
    softshrink alike (PyTorch's ``hardshrink_backward``); its own slope in x is 0."""
    node_name = "HardshrinkBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, lambd):
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        return np.where((x >= -lambd) & (x <= lambd), grad.dtype.type(0), grad)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return HardshrinkBackward.apply(gg, x, ctx.lambd), gg.new_zeros(gg.shape), None


class Softshrink(Op):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between: every value
    moves ``lambd`` towards 0, and stops there (the proximal step of an L1 penalty)."""
    node_name = "SoftshrinkBackward0"

    @staticmethod
    def forward(ctx, x, lambd):
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        between = np.where(np.isnan(x), x, x.dtype.type(0))  # (+0, also below 0; NaN stays NaN)
        return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, between)).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return SoftshrinkBackward.apply(grad, x, ctx.lambd), None


class SoftshrinkBackward(HardshrinkBackward):
    node_name = "SoftshrinkBackwardBackward0"  # (the same gradient as hardshrink's, its own name)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return SoftshrinkBackward.apply(gg, x, ctx.lambd), gg.new_zeros(gg.shape), None


class Hardsigmoid(Op):
    """``relu6(x + 3) / 6``: a sigmoid made of three straight pieces."""
    node_name = "HardsigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (np.clip(x + 3, 0, 6) / 6).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return HardsigmoidBackward.apply(grad, x)


class HardsigmoidBackward(Op):
    """``grad / 6`` strictly inside (-3, 3), 0 outside (``hardsigmoid_backward``). PyTorch
    has no derivative for it: differentiated again, it refuses, as here."""
    node_name = "NotImplemented"
    node_qualname = "torch::autograd::NotImplemented"  # what PyTorch's grad_fn.name() says

    @staticmethod
    def forward(ctx, grad, x):
        # (PyTorch's kernel multiplies by 1/6 as a float32, in float64 too: 0.1666666716337204)
        one_sixth = grad.dtype.type(np.float32(1 / 6))
        return np.where((x > -3) & (x < 3), grad * one_sixth, grad.dtype.type(0)).astype(grad.dtype)

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")


class Hardswish(Op):
    """``x * relu6(x + 3) / 6``: swish (``x * sigmoid(x)``) with hardsigmoid, cheap on phones."""
    node_name = "HardswishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x * np.clip(x + 3, 0, 6) / 6).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return HardswishBackward.apply(grad, x)


class HardswishBackward(Op):
    """``grad * (x / 3 + 1/2)`` in (-3, 3), 0 at -3 and below, ``grad`` at 3 and above: PyTorch's
    ``hardswish_backward``. Its slope in x is ``grad * gg / 3`` strictly inside (-3, 3)."""
    node_name = "HardswishBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x):
        ctx.save_for_backward(grad, x)
        middle = (grad * (x / 3 + 0.5)).astype(grad.dtype)
        return np.where(x <= -3, grad.dtype.type(0), np.where(x < 3, middle, grad))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        d_grad = HardswishBackward.apply(gg, x) if ctx.needs_input_grad[0] else None
        d_x = None
        if ctx.needs_input_grad[1]:
            d_x = Where.apply((x > -3) & (x < 3), gg * grad / 3, gg.new_zeros(()))
        return d_grad, d_x


# -- smooth ---------------------------------------------------------------------------------------
class LogSigmoid(Op):
    """``log(sigmoid(x)) = -softplus(-x)``, computed as ``min(x, 0) - log1p(exp(-|x|))``: no
    exp overflows, no log of 0."""
    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return LogSigmoidBackward.apply(grad, x)


class LogSigmoidBackward(Op):
    """``grad * (1 - sigmoid(x))`` (PyTorch's ``log_sigmoid_backward``); its slope in x is
    ``grad * gg * (s - 1) * s`` (``log_sigmoid_double_backward``)."""
    node_name = "LogSigmoidBackwardBackward0"

    @staticmethod
    @quiet
    def forward(ctx, grad, x):
        ctx.save_for_backward(grad, x)
        return (grad / (1 + np.exp(x))).astype(grad.dtype)  # 1 - sigmoid(x) = sigmoid(-x)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        d_grad = LogSigmoidBackward.apply(gg, x) if ctx.needs_input_grad[0] else None
        d_x = None
        if ctx.needs_input_grad[1]:
            s = x.sigmoid()
            d_x = gg * grad * (s - 1) * s
        return d_grad, d_x


class Mish(Op):
    """``x * tanh(softplus(x))``: smooth, unbounded above, a small dip below 0."""
    node_name = "MishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x * np.tanh(np.logaddexp(0, x))).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        # Written with Tensor ops, as PyTorch's infinitely_differentiable_mish_backward:
        # mish' = tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)^2), sp = softplus(x)
        x, = ctx.saved_tensors
        tanh_sp = Softplus.apply(x, 1.0, 20.0).tanh()
        return grad * (tanh_sp + x * x.sigmoid() * (1 - tanh_sp * tanh_sp))


class PreluKernel(Op):
    """``x`` where positive, ``weight * x`` elsewhere: leaky_relu with a learned slope (one,
    or one per channel: ``weight`` comes viewed to broadcast along dim 1)."""
    node_name = "PreluKernelBackward0"

    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return np.where(x > 0, x, weight * x).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        d_x = PreluKernelBackward.apply(grad, x, weight) if ctx.needs_input_grad[0] else None
        d_weight = Where.apply(x > 0, grad.new_zeros(()), grad * x) if ctx.needs_input_grad[1] else None
        return d_x, d_weight  # (the engine sums d_weight over the dims weight was broadcast along)


class PreluKernelBackward(Op):
    """``grad`` where ``x > 0``, ``grad * weight`` elsewhere: the input's share of PyTorch's
    ``_prelu_kernel_backward`` (PreluKernelBackwardBackward0; the weight's share, a
    composition here, is in the same node there)."""
    node_name = "PreluKernelBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, weight):
        ctx.save_for_backward(grad, x, weight)
        return np.where(x > 0, grad, grad * weight).astype(grad.dtype)

    @staticmethod
    def backward(ctx, gg):
        grad, x, weight = ctx.saved_tensors
        d_grad = PreluKernelBackward.apply(gg, x, weight) if ctx.needs_input_grad[0] else None
        d_weight = Where.apply(x > 0, gg.new_zeros(()), gg * grad) if ctx.needs_input_grad[2] else None
        return d_grad, gg.new_zeros(gg.shape), d_weight


class RreluWithNoise(Op):
    """leaky_relu whose slope below 0 is ``noise`` (random in training, the mean slope in
    eval mode; 1 above 0), drawn by the caller: the gradient is ``grad * noise``."""
    node_name = "RreluWithNoiseBackward0"

    @staticmethod
    def forward(ctx, x, noise):
        ctx.save_for_backward(x)
        ctx.noise = noise
        return (x * noise).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return RreluWithNoiseBackward.apply(grad, x, ctx.noise), None


class RreluWithNoiseInplace(RreluWithNoise):
    node_name = "RreluWithNoiseBackward1"


class RreluWithNoiseBackward(Op):
    """``grad * noise``: one op with ``x`` as an input, as PyTorch's ``rrelu_with_noise_backward``
    (so that the gradient requires grad with create_graph=True; its slope in x is 0)."""
    node_name = "RreluWithNoiseBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, noise):
        ctx.save_for_backward(x)
        ctx.noise = noise
        return (grad * noise).astype(grad.dtype)

    @staticmethod
    def backward(ctx, gg):
        x, = ctx.saved_tensors
        return RreluWithNoiseBackward.apply(gg, x, ctx.noise), gg.new_zeros(gg.shape), None


class Glu(Op):
    """``a * sigmoid(b)``, ``a`` and ``b`` the two halves of the input along ``dim``: the
    second half gates the first (gated linear unit)."""
    node_name = "GluBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, dim):
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = np.split(x, 2, axis=dim)
        return (a / (1 + np.exp(-b))).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        # (Tensor ops: differentiable again; PyTorch's own node for it is GluBackwardBackward0)
        x, = ctx.saved_tensors
        a, b = x.chunk(2, ctx.dim)
        s = b.sigmoid()
        return Cat.apply(ctx.dim, grad * s, grad * a * s * (1 - s)), None  # d/da and d/db, side by side
