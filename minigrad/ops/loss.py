"""The losses of ``nn`` that are one node in PyTorch (beyond mse and nll, in nn.py), and the
distances' nodes (pdist, pairwise_distance's norm).

Each computes the loss of every element, then reduces it as ``reduction`` says: ``"mean"``
(over every element), ``"sum"``, or ``"none"``. Backward scales the incoming gradient the
same way: after a reduction it is 0-d and broadcasts over the elements. ``weight`` and
``pos_weight`` come as arrays: as in PyTorch's nodes, they get no gradient.
"""
import numpy as np

from .._conventions import quiet
from ..core.function import Op
from .reduce import vector_norm


def _reduce(ctx, losses, reduction):
    ctx.reduction, ctx.count = reduction, losses.size
    if reduction == "none":
        return losses
    if reduction == "mean" and not losses.size:  # NaN, silently (NumPy's mean warns)
        return np.full((), np.nan, losses.dtype)
    return losses.mean() if reduction == "mean" else losses.sum()


def _norm(reduction, count):
    """The share of a mean's gradient each element gets, as PyTorch's kernels take it (1 / 0:
    inf, for an empty input)."""
    return (1 / count if count else float("inf")) if reduction == "mean" else 1


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
        grad_x = (BinaryCrossEntropyBackward.apply(grad, x, t, weight, ctx.reduction)
                  if ctx.needs_input_grad[0] else None)
        # d/dt = -logit(x) = -log(x / (1 - x)): unclamped, as PyTorch's (inf at x = 0)
        grad_t = _weighted(ctx, -(x / (1 - x)).log() * grad, weight, x) if ctx.needs_input_grad[1] else None
        return grad_x, grad_t, None, None


class BinaryCrossEntropyBackward(Op):
    """``grad * (x - t) / (x (1 - x))``, the denominator kept >= 1e-12 (PyTorch's EPSILON):
    one op, as PyTorch's ``binary_cross_entropy_backward``, so that its own derivatives are
    PyTorch's (FunctionsManual.cpp), whose denominators add 1e-12 instead."""
    node_name = "BinaryCrossEntropyBackwardBackward0"

    @staticmethod
    @quiet
    def forward(ctx, grad, x, t, weight, reduction):
        ctx.save_for_backward(grad, x, t, weight)
        ctx.reduction = reduction
        out = grad * (x - t) / np.maximum((1 - x) * x, 1e-12)
        if weight is not None:
            out = out * weight
        return out / x.size if reduction == "mean" else out

    @staticmethod
    def backward(ctx, gg):
        grad, x, t, weight = ctx.saved_tensors
        needs, eps = ctx.needs_input_grad, 1e-12
        d_grad = d_x = d_t = None
        if needs[0]:  # (x - t) / ((x + eps) (1 - x + eps)), summed back to grad's shape by the engine
            d_grad = _weighted(ctx, (x - t) / ((x + eps) * (1 - x + eps)) * gg, weight, x)
        if needs[1]:
            d_x = _weighted(ctx, (x * x - 2 * x * t + t) / ((x + eps).pow(2) * (1 - x + eps).pow(2))
                            * (gg * grad), weight, x)
        if needs[2]:
            d_t = _weighted(ctx, -gg * grad / ((1 - x) * x).clamp_min(eps), weight, x)
        return d_grad, d_x, d_t, None, None


def _weighted(ctx, g, weight, x):
    g = g if weight is None else g * weight
    return g / x.numel() if ctx.reduction == "mean" else g


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
        g = SmoothL1LossBackward.apply(grad, x, t, ctx.reduction, ctx.count, ctx.beta)
        return g if ctx.needs_input_grad[0] else None, -g if ctx.needs_input_grad[1] else None, None, None


class SmoothL1LossBackward(Op):
    """The slope times ``grad``: ``d / beta`` up to ``|d| = beta`` (and at NaN: PyTorch's
    tests are ``d < -beta``, ``d > beta``), ``sign(d)`` beyond. One op, as PyTorch's
    ``smooth_l1_loss_backward``: its own slope in x is ``1 / beta`` where ``|d| < beta``, 0
    elsewhere, a product with a 0/1 mask (NaN where ``grad`` is)."""
    node_name = "SmoothL1LossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, t, reduction, count, beta):
        ctx.save_for_backward(grad, x, t)
        ctx.reduction, ctx.count, ctx.beta = reduction, count, beta
        d, norm = x - t, _norm(reduction, count)
        return np.where(d < -beta, -norm * grad, np.where(d > beta, norm * grad, norm * d * grad / beta))

    @staticmethod
    def backward(ctx, gg):
        grad, x, t = ctx.saved_tensors
        return _loss_double_backward(SmoothL1LossBackward, ctx, gg, grad, x, t, ctx.beta, ctx.beta)


def _loss_double_backward(op, ctx, gg, grad, x, t, width, beta):
    """Smooth L1's and Huber's second derivatives, as PyTorch's (FunctionsManual.cpp): in
    ``grad``, the op again (summed, after a reduction); in x, ``gg * grad`` (divided by
    smooth L1's ``beta``) where ``|d| < width``, 0 elsewhere (-that in t)."""
    needs = ctx.needs_input_grad
    d_grad = d_x = None
    if needs[0]:
        d_grad = (op.apply(gg, x, t, ctx.reduction, ctx.count, width) if ctx.reduction == "none" else
                  (op.apply(grad.new_ones(grad.shape), x, t, ctx.reduction, ctx.count, width) * gg).sum())
    if needs[1] or needs[2]:
        d_x = gg * grad * ((x - t).abs() < width)
        d_x = _per_element(ctx, d_x if beta is None else d_x / beta)
    return d_grad, d_x if needs[1] else None, -d_x if needs[2] else None, None, None, None


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
        g = HuberLossBackward.apply(grad, x, t, ctx.reduction, ctx.count, ctx.delta)
        return g if ctx.needs_input_grad[0] else None, -g if ctx.needs_input_grad[1] else None, None, None


class HuberLossBackward(Op):
    """The slope times ``grad``: ``d`` up to ``|d| = delta`` (and at NaN), ``delta * sign(d)``
    beyond; one op, as PyTorch's ``huber_loss_backward`` (its slope in x: 1 where
    ``|d| < delta``, 0 elsewhere)."""
    node_name = "HuberLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, t, reduction, count, delta):
        ctx.save_for_backward(grad, x, t)
        ctx.reduction, ctx.count, ctx.delta = reduction, count, delta
        d, norm = x - t, _norm(reduction, count)
        return np.where(d <= -delta, -norm * grad * delta, np.where(d >= delta, norm * grad * delta,
                                                                    norm * d * grad))

    @staticmethod
    def backward(ctx, gg):
        grad, x, t = ctx.saved_tensors
        return _loss_double_backward(HuberLossBackward, ctx, gg, grad, x, t, ctx.delta, None)


# ---------------------------------------------------------------------------------------------
# Margins: soft_margin_loss, multi_margin_loss, multilabel_margin_loss (one node each, as in
# PyTorch; the other margin losses are compositions, in nn/_functional_loss.py)
# ---------------------------------------------------------------------------------------------


class SoftMarginLoss(Op):
    """``log(1 + exp(-t x))`` for targets ``t`` of +1 or -1: the logistic loss of the margin
    ``t x`` (``log1p``: a large margin's tiny loss is kept, as PyTorch's, not rounded to 0)."""
    node_name = "SoftMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, t, reduction):
        ctx.save_for_backward(x, t)
        return _reduce(ctx, np.log1p(np.exp(-x * t)).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        return SoftMarginLossBackward.apply(grad, x, t, ctx.reduction), None, None


class SoftMarginLossBackward(Op):
    """``-t z / (1 + z) * grad`` with ``z = exp(-t x)`` (/ the count after a mean): PyTorch's
    ``soft_margin_loss_backward``, one op, whose own derivatives are PyTorch's
    (FunctionsManual.cpp's ``soft_margin_loss_double_backward``)."""
    node_name = "SoftMarginLossBackwardBackward0"
    _non_differentiable = (2,)  # the target: no edge, as in PyTorch

    @staticmethod
    def forward(ctx, grad, x, t, reduction):
        ctx.save_for_backward(grad, x, t)
        ctx.reduction = reduction
        z = np.exp(-t * x)
        out = -_norm(reduction, x.size) * t * z / (1 + z) * grad
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, gg):
        grad, x, t = ctx.saved_tensors
        d_grad = d_x = None
        if ctx.needs_input_grad[0]:  # the op again, in gg (summed to grad's 0-d after a reduction)
            d_grad = (SoftMarginLossBackward.apply(gg, x, t, ctx.reduction) if ctx.reduction == "none" else
                      (SoftMarginLossBackward.apply(grad.new_ones(()), x, t, ctx.reduction) * gg).sum())
        if ctx.needs_input_grad[1]:  # t^2 z / (1 + z)^2, the slope of -t z / (1 + z) in x
            z = (x * -t).exp()
            d_x = t * t * (gg * grad) * z / ((z + 1) * (z + 1))
            d_x = d_x / x.numel() if ctx.reduction == "mean" else d_x
        return d_grad, d_x, None, None


class MultiMarginLoss(Op):
    """The multi-class hinge loss of each row of scores ``x`` (N, C) with target class ``y``:
    ``sum over j != y of max(0, margin - x[y] + x[j])^p / C``, each term weighted by
    ``weight[y]``. ``target`` and ``weight`` come as arrays (no gradient, as in PyTorch)."""
    node_name = "MultiMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, target, p, margin, weight, reduction):
        rows = x.reshape(-1, x.shape[-1] if x.ndim else 1)
        n, c = rows.shape
        y = target.reshape(-1)
        z = margin - rows[np.arange(n), y][:, None] + rows  # each class's margin violation
        z[np.arange(n), y] = 0  # (the target's own term does not count)
        h = np.maximum(z, 0) if p == 1 else np.maximum(z, 0) ** 2
        w = None if weight is None else weight[y][:, None]
        losses = (h if w is None else h * w).sum(1) / c
        ctx.save_for_backward(x)
        ctx.z, ctx.y, ctx.w, ctx.p = z, y, w, p
        if x.ndim < 2 and target.ndim == 0:  # one sample, its target a number: a 0-d loss
            losses = losses.reshape(())
        return _reduce(ctx, losses.astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return MultiMarginLossBackward.apply(grad, x, ctx.z, ctx.y, ctx.w, ctx.p, ctx.reduction), None, None, None, \
            None, None


class MultiMarginLossBackward(Op):
    """The slope of each violated margin (1, or ``2 z`` for p = 2) times ``grad / C``: + for
    the other class, - summed for the target class. PyTorch has no derivative for it:
    differentiated again, it refuses, as here."""
    node_name = "NotImplemented"
    node_qualname = "torch::autograd::NotImplemented"
    _non_differentiable = (0,)  # (PyTorch's NotImplemented node has an edge to the input only)

    @staticmethod
    def forward(ctx, grad, x, z, y, w, p, reduction):
        n, c = z.shape
        g = np.broadcast_to(grad.reshape(-1, 1), (n, 1)) / c
        g = g / n if reduction == "mean" else g
        slope = np.where(z > 0, (1 if p == 1 else 2 * z) * (g if w is None else g * w), 0)  # (+0, not -0)
        slope[np.arange(n), y] = 0
        slope[np.arange(n), y] = 0 - slope.sum(1)  # (0 - 0 is +0, as PyTorch's sum from 0)
        return slope.reshape(x.shape).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("derivative for aten::multi_margin_loss_backward is not implemented")


class MultilabelMarginLoss(Op):
    """The hinge loss of each row ``x`` against every one of its target classes (``target``'s
    row lists them, up to the first -1): ``sum over targets j, non-targets i of
    max(0, 1 - (x[j] - x[i])) / C``. ``target`` comes as an array."""
    node_name = "MultilabelMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, target, reduction):
        c = x.shape[-1] if x.ndim else 1
        rows, ys = x.reshape(-1, c), target.reshape(-1, c)
        listed = np.cumprod(ys >= 0, axis=1).astype(bool)  # the labels before the first -1
        count = np.zeros(rows.shape)  # how often each class is listed (twice counts twice, as in PyTorch)
        np.add.at(count, (np.nonzero(listed)[0], ys[listed]), 1)
        # pair[n, j, i]: how often target j stands against non-target i
        z = 1 - rows[:, :, None] + rows[:, None, :]
        pair = count[:, :, None] * (count == 0)[:, None, :]
        losses = (np.maximum(z, 0) * pair).sum((1, 2)) / c  # (summed, then divided, as PyTorch's)
        active = (z > 0) * pair  # each pair with a violated margin: a step of the gradient
        ctx.save_for_backward(x)
        ctx.steps = active.sum(1), active.sum(2)  # per element: steps up (non-target), down (target)
        return _reduce(ctx, losses.reshape(x.shape[:-1]).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return MultilabelMarginLossBackward.apply(grad, x, ctx.steps, ctx.reduction), None, None


class MultilabelMarginLossBackward(Op):
    """Each active pair's slope times ``grad``: - for the target class, + for the other.
    PyTorch has no derivative for it: differentiated again, it refuses, as here."""
    node_name = "NotImplemented"
    node_qualname = "torch::autograd::NotImplemented"
    _non_differentiable = (0,)  # (PyTorch's NotImplemented node has an edge to the input only)

    @staticmethod
    def forward(ctx, grad, x, steps, reduction):
        up, down = steps
        n, c = up.shape
        # PyTorch's kernel adds g = 1 / C (1 / (N C) after a mean) once per step, in turn: the
        # k-th partial sum of g, so the last bits are its, not those of k * g
        g = x.dtype.type(1 / (n * c) if reduction == "mean" else 1 / c)
        partial = np.concatenate([[0], np.cumsum(np.full(int(max(up.max(), down.max(), 0)), g, x.dtype))])
        out = partial[up.astype(np.intp)] - partial[down.astype(np.intp)]
        out = out * (grad.reshape(-1, 1) if reduction == "none" else grad)
        return out.reshape(x.shape).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("derivative for aten::multilabel_margin_loss_backward is not implemented")


# ---------------------------------------------------------------------------------------------
# Distances: pairwise_distance's norm (NormBackward1) and pdist
# ---------------------------------------------------------------------------------------------


class Pdist(Op):
    """The p-norm distance between every two rows of ``x`` (n, m): the n (n - 1) / 2 pairs
    ``i < j`` in row order, as ``torch.pdist`` lists them."""
    node_name = "PdistBackward0"

    @staticmethod
    def forward(ctx, x, p):
        i, j = np.triu_indices(x.shape[0], 1)
        out = vector_norm(x[i] - x[j], p, (1,), False)
        ctx.save_for_backward(x, out)
        ctx.p = p
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return PdistBackward.apply(grad, x, out, ctx.p), None


class PdistBackward(Op):
    """Each pair's norm gradient (norm_backward, per pair), added to row i and taken from row
    j. PyTorch has no derivative of ``_pdist_backward``: differentiated again, it refuses."""
    node_name = "PdistBackwardBackward0"

    @staticmethod
    @quiet
    def forward(ctx, grad, x, out, p):
        i, j = np.triu_indices(x.shape[0], 1)
        diff, d, g = x[i] - x[j], out[:, None], grad[:, None]
        if p == 0:
            pair = np.zeros_like(diff)
        elif p == 1:
            pair = np.sign(diff) * g
        elif p == 2:
            pair = np.where(d == 0, 0, g * diff / d)
        elif p == float("inf"):
            pair = np.sign(diff) * (np.abs(diff) == d) * g
        else:  # sgn |diff|^(p-1) / d^(p-1); 0 where d = 0 (and, for p < 1, where diff = 0)
            pair = np.sign(diff) * np.abs(diff) ** (p - 1) * g / d ** (p - 1)
            pair = np.where((d == 0) | ((diff == 0) & (p < 1)), 0, pair)
        result = np.zeros_like(x)
        np.add.at(result, i, pair)
        np.add.at(result, j, -pair)
        return result

    @staticmethod
    def backward(ctx, gg):
        raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")
