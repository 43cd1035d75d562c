"""The distances and the rarer losses of ``nn.functional``: cosine_similarity,
pairwise_distance, pdist; the margin losses (margin_ranking, hinge_embedding,
cosine_embedding, soft_margin, multilabel_soft_margin, multi_margin, multilabel_margin), the
triplet losses, poisson_nll_loss, gaussian_nll_loss; and gumbel_softmax. ``nn.functional``
imports them all (``F.pdist`` is this module's ``pdist``); ``torch.cosine_similarity``,
``torch.pairwise_distance`` and ``torch.pdist`` are the same functions.

Most are compositions of Tensor operations in PyTorch too, written here in PyTorch's order
(aten/src/ATen/native/Loss.cpp, Distance.cpp, torch/nn/functional.py), so that their
``grad_fn`` chains, values and gradients are PyTorch's. Four are one node each, in
minigrad/ops/loss.py: soft_margin_loss, multi_margin_loss, multilabel_margin_loss, pdist
(and pairwise_distance's norm, NormBackward1: the C++ ``at::norm``).
"""
import math
import warnings

import numpy as np

from .. import _dtype, ops
from .._conventions import check_broadcast
from .._conventions import dim as _dim
from .._creation import zeros_like
from ..core import grad_mode
from ..autograd import no_grad
from ._activations import logsigmoid

_REDUCTIONS = ("mean", "sum", "none")


def _reduction(size_average, reduce, reduction):
    """``reduction``, checked; or what the deprecated ``size_average=``/``reduce=`` say (with
    PyTorch's warning)."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                      "instead.", UserWarning, stacklevel=3)
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _apply_reduction(losses, reduction):
    return losses.mean() if reduction == "mean" else losses.sum() if reduction == "sum" else losses


def _no_target_grad(name, target):
    if target.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"The function '{name}' is not differentiable with respect to argument 'target'. "
                           "This input cannot have requires_grad True.")


# -- distances ----------------------------------------------------------------------------------
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``x1 . x2 / (|x1| |x2|)`` along ``dim``. Each vector is divided by its norm first (the
    result stays in [-1, 1]); a norm below ``eps`` is taken as ``eps``, by a change made
    under no_grad to a clone, as PyTorch 2.13 does it: the gradient still flows through the
    true norm."""
    common = _dtype.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {common.legacy_name}")
    x1, x2 = (x if x.dtype is common else x.to(common) for x in (x1, x2))
    if x1.shape != x2.shape:  # broadcast both, as expand_outplace
        check_broadcast(x1.shape, x2.shape)
        shape = np.broadcast_shapes(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)  # (both: ExpandBackward0 on each, as PyTorch's)
    n1 = x1.norm(2, dim, keepdim=True).clone()  # (Tensor.norm with dim: LinalgVectorNormBackward0)
    n2 = x2.norm(2, dim, keepdim=True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of ``x1 - x2 + eps`` along the last dim (``eps`` keeps the norm's gradient
    finite where x1 = x2)."""
    last = max(x1.dim(), x2.dim()) - 1
    diff = x1 - x2
    if not diff.dtype.is_floating_point:  # (integers: + eps gives the default float dtype)
        diff = diff.to(_dtype.get_default_dtype())
    dims = (_dim(last, diff.dim()),) if diff.dim() else None  # (a 0-d difference: its one element)
    return ops.NormDim.apply(ops.AddNumber.apply(diff, eps), float(p), dims, keepdim)


def pdist(input, p=2):
    """The p-norm distance between each two rows of ``input`` (n, m): n (n - 1) / 2 of them,
    pairs (0, 1), (0, 2), ..., (1, 2), ... in that order."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return ops.Pdist.apply(input, float(p))


# -- margin losses ------------------------------------------------------------------------------
def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """``max(0, -target (input1 - input2) + margin)``: target 1 says input1 should rank
    higher by at least ``margin``, -1 that input2 should."""
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    losses = -target * (input1 - input2)
    if not losses.dtype.is_floating_point:  # (integers + a float margin: the default float dtype)
        losses = losses.to(_dtype.get_default_dtype())
    losses = ops.AddNumber.apply(losses, margin).clamp_min(0)
    return _apply_reduction(losses, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """``input`` where target is 1, ``max(0, margin - input)`` where it is -1: ``input`` is
    a distance, small for similar pairs (1), at least ``margin`` for dissimilar ones (-1)."""
    reduction = _reduction(size_average, reduce, reduction)
    zeros = zeros_like(input)
    margin_clamp = (input.new_full((), margin) - input).clamp_min(0)  # (SubBackward0, as C++'s margin - x)
    losses = margin_clamp.where(target != 1, zeros) + input.where(target != -1, zeros)
    return _apply_reduction(losses, reduction)


_EPSILON = 1e-12  # (Loss.cpp's)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """``1 - cos`` where target is 1, ``max(0, cos - margin)`` where it is -1, with ``cos``
    the cosine similarity of the rows (each squared norm + 1e-12)."""
    reduction = _reduction(size_average, reduce, reduction)
    d = target.dim()
    if d not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != d + 1:
        raise RuntimeError(f"{d}D target tensor expects {d + 1}D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(d)
    mag_square1 = ops.AddNumber.apply((input1 * input1).sum(d), _EPSILON)
    mag_square2 = ops.AddNumber.apply((input2 * input2).sum(d), _EPSILON)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    zeros = zeros_like(cos)
    pos = cos.new_full((), 1) - cos  # (SubBackward0, as C++'s 1 - cos)
    neg = ops.SubNumber.apply(cos, margin).clamp_min(0)
    losses = pos.where(target == 1, zeros) + neg.where(target == -1, zeros)
    return _apply_reduction(losses, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))``, targets +1 or -1: a smooth hinge (ops.SoftMarginLoss)."""
    reduction = _reduction(size_average, reduce, reduction)
    _no_target_grad("soft_margin_loss", target)
    check_broadcast(input.shape, target.shape)
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {input.dtype.legacy_name}")
    return ops.SoftMarginLoss.apply(input, target._data.astype(input._data.dtype, copy=False), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Binary cross entropy of ``sigmoid(input)`` per class, averaged over the classes: one
    loss per sample, for a sample that may belong to several classes."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, "mean")
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.dim() - 1
    losses = losses.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    return _apply_reduction(losses, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss (ops.MultiMarginLoss): each other class's score should be
    ``margin`` below the target's."""
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    shape = list(input.shape)
    if not ((input.dim() == 2 and shape[1] != 0) or (input.dim() == 1 and shape[0] != 0) or input.dim() == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {shape}")
    n = shape[0] if input.dim() == 2 else 1
    c = shape[-1] if input.dim() else 1
    if target.dim() > 1 or target.numel() != n:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{n}], but got {list(target.shape)}. "
                           f"Input has shape {shape}.")
    if weight is not None and weight.numel() != c:
        raise RuntimeError(f"inconsistent weight size, expected {c} but got {list(weight.shape)}")
    _long_target(target)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"multi_margin_loss_cpu_kernel" not implemented for \'{input.dtype.legacy_name}\'')
    if ((target._data < 0) | (target._data >= c)).any():
        raise RuntimeError("target out of range")
    w = None if weight is None else weight._data.astype(input._data.dtype, copy=False)
    return ops.MultiMarginLoss.apply(input, target._data, p, margin, w, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The hinge loss of each target class against each other class (ops.MultilabelMarginLoss):
    ``target`` lists each sample's classes, then -1 (the rest is ignored)."""
    reduction = _reduction(size_average, reduce, reduction)
    shape = list(input.shape)
    if not ((input.dim() == 2 and shape[1] != 0) or (input.dim() == 1 and shape[0] != 0) or input.dim() == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {shape}")
    if input.dim() <= 1:
        ok = target.dim() <= 1 and target.numel() == (shape[0] if shape else 1)
    else:
        ok = target.dim() == 2 and list(target.shape) == shape
    if not ok:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {shape}")
    _long_target(target)
    c = shape[-1] if shape else 1
    ys = target._data.reshape(-1, c)
    listed = np.cumprod(ys >= 0, axis=1).astype(bool)  # the labels before the first -1, which ends them
    first_negative = (ys < 0) & (np.cumsum(ys < 0, axis=1) == 1)
    if (((ys >= c) & listed) | ((ys < -1) & first_negative)).any():
        raise RuntimeError("argument #2 'target' is out of range")
    return ops.MultilabelMarginLoss.apply(input, target._data, reduction)


def _long_target(target):
    if target.dtype is not _dtype.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype.legacy_name}")


# -- triplets -----------------------------------------------------------------------------------
def _check_triplet(anchor, positive, negative, margin):
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, p, n = anchor.dim(), positive.dim(), negative.dim()
    if not (a == p and p == n):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a}D, positive {p}D, and negative {n}D inputs")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with ``d`` the
    pairwise p-distance: the positive should be closer than the negative by ``margin``.
    ``swap`` takes the negative's distance to the positive instead where it is smaller."""
    reduction = _reduction(size_average, reduce, reduction)
    _check_triplet(anchor, positive, negative, margin)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = dist_neg.minimum(pairwise_distance(positive, negative, p, eps))
    losses = (ops.AddNumber.apply(dist_pos, margin) - dist_neg).clamp_min(0)  # (C++'s margin + d: AddBackward1)
    return _apply_reduction(losses, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """triplet_margin_loss with any ``distance_function(x1, x2)`` (pairwise_distance if None)."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _check_triplet(anchor, positive, negative, margin)
    distance_function = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance_function(positive, negative))
    return _apply_reduction((margin + dist_pos - dist_neg).clamp_min(0), reduction)


# -- likelihoods --------------------------------------------------------------------------------
def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """The negative log-likelihood of counts ``target`` under a Poisson of rate ``exp(input)``
    (``log_input``) or ``input``: ``exp(input) - target * input``, or ``input - target *
    log(input + eps)``; ``full`` adds Stirling's ``t log t - t + log(2 pi t) / 2`` (where t > 1)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, "mean")
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        losses = input.exp() - target * input
    else:
        losses = input - target * ops.AddNumber.apply(input, eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        losses = losses + stirling.masked_fill(target <= 1, 0)
    return _apply_reduction(losses, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of ``target`` under a Gaussian of mean ``input`` and
    variance ``var``: ``(log(var) + (input - target)^2 / var) / 2``. ``var`` may have a size
    1 dim where input has more, or lack the last dim (one variance for a row); it is taken as
    at least ``eps`` (changed under no_grad, so its gradient is unchanged)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * input.new_ones(input.shape)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():  # one variance per row: unsqueeze to broadcast
            var = var.unsqueeze(-1)
        elif not (input.dim() == var.dim() and sum(b for a, b in zip(input.shape, var.shape) if a != b) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    losses = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        losses += 0.5 * math.log(2 * math.pi)
    return _apply_reduction(losses, reduction)


# -- sampling -----------------------------------------------------------------------------------
def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """A softmax of ``(logits + g) / tau``, with ``g`` Gumbel noise (``-log`` of an
    exponential draw, from minigrad's generator): a differentiable sample of a category.
    ``hard`` returns the one-hot of the largest, with the soft sample's gradient."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    if not logits.dtype.is_floating_point:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {logits.dtype.legacy_name}")
    gumbels = -logits.new_empty(logits.shape).exponential_().log()  # ~Gumbel(0, 1)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft  # straight through: y_hard's values, y_soft's gradient

