"""The losses of ``nn`` that are one node in PyTorch (beyond mse and nll, in nn.py).

Each computes the loss of every element, then reduces it as ``reduction`` says: ``"mean"``
(over every element), ``"sum"``, or ``"none"``. Backward scales the incoming gradient the
same way: after a reduction it is 0-d and broadcasts over the elements. ``weight`` and
``pos_weight`` come as arrays: as in PyTorch's nodes, they get no gradient.
"""
import numpy as np

from .._conventions import quiet
from ..autograd.function import Op
from .arithmetic import Where


def _reduce(ctx, losses, reduction):
    ctx.reduction, ctx.count = reduction, losses.size
    if reduction == "none":
        return losses
    if reduction == "mean" and not losses.size:  # NaN, silently (NumPy's mean warns)
        return np.full((), np.nan, losses.dtype)
    return losses.mean() if reduction == "mean" else losses.sum()


def _per_element(ctx, grad):
    """The incoming gradient as each element's share of it."""
    return grad / ctx.count if ctx.reduction == "mean" else grad


class BinaryCrossEntropy(Op):
    """``-(t log(x) + (1 - t) log(1 - x))`` for probabilities ``x`` (after a sigmoid) and
    targets ``t`` in [0, 1]. Each log is clamped to >= -100, as in PyTorch, so a
    probability of exactly 0 or 1 gives a large finite loss, not inf."""
    node_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, t, weight, reduction):
        ctx.save_for_backward(x, t, weight)
        losses = -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
        if weight is not None:
            losses = losses * weight
        return _reduce(ctx, losses.astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t, weight = ctx.saved_tensors
        g = _per_element(ctx, grad) if weight is None else _per_element(ctx, grad) * weight
        # d/dx = (x - t) / (x (1 - x)), the denominator kept >= 1e-12 (PyTorch's EPSILON)
        grad_x = g * (x - t) / (x * (1 - x)).clamp_min(1e-12) if ctx.needs_input_grad[0] else None
        grad_t = (g * ((1 - x).log().clamp_min(-100) - x.log().clamp_min(-100))
                  if ctx.needs_input_grad[1] else None)
        return grad_x, grad_t, None, None


class BinaryCrossEntropyWithLogits(Op):
    """The binary cross entropy of ``sigmoid(x)``, computed from the logit ``x`` itself:
    ``(1 - t) x + l * softplus(-x)`` with ``l = 1 + (pos_weight - 1) t``, which never takes
    the log of a probability that rounded to 0. ``pos_weight`` weighs the positive targets."""
    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, t, weight, pos_weight, reduction):
        ctx.save_for_backward(x, t, weight, pos_weight)
        softplus = np.logaddexp(0, -x)  # log(1 + exp(-x)) without overflow
        losses = (1 - t) * x + (softplus if pos_weight is None else (1 + (pos_weight - 1) * t) * softplus)
        if weight is not None:
            losses = losses * weight
        return _reduce(ctx, losses.astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t, weight, pw = ctx.saved_tensors
        g = _per_element(ctx, grad) if weight is None else _per_element(ctx, grad) * weight
        grad_x = grad_t = None
        if ctx.needs_input_grad[0]:  # d/dx = (1 - t) - l (1 - sigmoid(x))
            s = x.sigmoid()
            grad_x = g * (s - t if pw is None else (1 - t) - (1 + (pw - 1) * t) * (1 - s))
        if ctx.needs_input_grad[1]:  # d/dt = -x + (pos_weight - 1) softplus(-x)
            # softplus(-x) written stably: max(-x, 0) + log1p(exp(-|x|))
            grad_t = -g * x if pw is None else g * ((pw - 1) * ((-x).clamp_min(0) + (-x.abs()).exp().log1p()) - x)
        return grad_x, grad_t, None, None, None


class SmoothL1Loss(Op):
    """``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere (``d = x - t``):
    squared near 0, so the slope shrinks smoothly to 0; absolute far away, so outliers
    pull no harder than any other point."""
    node_name = "SmoothL1LossBackward0"

    @staticmethod
    def forward(ctx, x, t, reduction, beta):
        ctx.save_for_backward(x, t)
        ctx.beta = beta
        d = x - t
        a = np.abs(d)
        return _reduce(ctx, np.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        d = x - t
        # PyTorch's slope is d / beta up to |d| = beta, and at NaN (its test is |d| > beta)
        inside = ~(np.abs(d._data) > ctx.beta)
        g = Where.apply(inside, _per_element(ctx, grad) * d / ctx.beta, _per_element(ctx, grad) * d.sign())
        return g if ctx.needs_input_grad[0] else None, -g if ctx.needs_input_grad[1] else None, None, None


class HuberLoss(Op):
    """``0.5 d^2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere: SmoothL1Loss
    times ``delta`` (the same curve, its slope far away being ``delta`` instead of 1)."""
    node_name = "HuberLossBackward0"

    @staticmethod
    def forward(ctx, x, t, reduction, delta):
        ctx.save_for_backward(x, t)
        ctx.delta = delta
        d = x - t
        a = np.abs(d)
        return _reduce(ctx, np.where(a < delta, 0.5 * d * d, delta * (a - 0.5 * delta)), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        d = x - t
        inside = ~(np.abs(d._data) > ctx.delta)  # NaN inside, as in PyTorch (a NaN gradient)
        g = Where.apply(inside, _per_element(ctx, grad) * d, _per_element(ctx, grad) * d.sign() * ctx.delta)
        return g if ctx.needs_input_grad[0] else None, -g if ctx.needs_input_grad[1] else None, None, None


# ---------------------------------------------------------------------------------------------
# kl_div's t log t
# ---------------------------------------------------------------------------------------------


class Xlogy(Op):
    """``x * log(y)``, taken as 0 where ``x`` is 0 (even where ``y`` is 0 too): kl_div's
    ``t log t`` for a target probability of 0."""
    node_name = "XlogyBackward0"

    @staticmethod
    @quiet
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return np.where(x == 0, 0, x * np.log(y)).astype(np.result_type(x, y), copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        grad_x = grad * Xlogy.apply((x != 0).to(y.dtype), y) if ctx.needs_input_grad[0] else None
        return grad_x, grad * x / y if ctx.needs_input_grad[1] else None
