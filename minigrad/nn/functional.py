"""``torch.nn.functional``: what the layers compute, as plain functions.

The modules in ``nn.modules`` hold parameters and settings and call these. Each
function builds on Tensor methods or on an op of ``minigrad.ops``, so its output's
``grad_fn`` is named as PyTorch names it.
"""
import warnings

import numpy as np

from .. import _dtype, ops
from .._random import rng as _rng
from .._tensor import Tensor
from ..autograd import no_grad

_REDUCTIONS = ("mean", "sum", "none")


# -- activations --------------------------------------------------------------------------------
def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def _softmax_dim(name, ndim):
    """The dim PyTorch picks when none is given (with its deprecation warning)."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                  "include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, dtype=None):
    dim = _softmax_dim("softmax", input.dim()) if dim is None else dim
    return (input if dtype is None else input.to(dtype)).softmax(dim)


def log_softmax(input, dim=None, dtype=None):
    dim = _softmax_dim("log_softmax", input.dim()) if dim is None else dim
    return (input if dtype is None else input.to(dtype)).log_softmax(dim)


# -- layers -------------------------------------------------------------------------------------
def linear(input, weight, bias=None):
    """``input @ weight.T + bias``, recorded as PyTorch records it: one ``AddmmBackward0``
    on a 2-D input; other inputs are first viewed as 2-D (rows of features), then the
    result is viewed back (``ViewBackward0``). Without bias it is a plain matmul."""
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return ops.Addmm.apply(bias, input, weight.t())
    rows = input.reshape(int(np.prod(input.shape[:-1])), input.shape[-1])  # (not -1: 0 features)
    return ops.Addmm.apply(bias, rows, weight.t()).reshape(*input.shape[:-1], weight.shape[0])


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the survivors by ``1/(1-p)``,
    so the expected value is unchanged and nothing needs rescaling at test time."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    keep = _rng(None).random(input.shape) >= p  # drawn from minigrad's default generator
    mask = Tensor._wrap((keep * (1 / (1 - p) if p < 1 else 0.0)).astype(input._data.dtype))
    return input.mul_(mask) if inplace else input * mask


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) to mean 0 and variance 1, then scale by ``weight``
    and shift by ``bias``. In training the statistics are the batch's own, and the
    running averages are moved ``momentum`` of the way towards them; otherwise the
    running averages are used."""
    dims = (0,) + tuple(range(2, input.dim()))  # every dim but the channels
    shape = (1, -1) + (1,) * (input.dim() - 2)  # per-channel values, lined up with input
    x = input._data
    if training:
        count = input.numel() // input.shape[1]
        if count <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"{input.shape}")
        mean, var = x.mean(dims, keepdims=True), x.var(dims, keepdims=True)  # biased: divide by n
        if running_mean is not None:
            with no_grad():  # the running averages are state, not part of the graph
                running_mean.mul_(1 - momentum).add_(Tensor._wrap(mean.reshape(-1) * momentum))
                # PyTorch tracks the unbiased variance (divide by n - 1) for use at test time.
                running_var.mul_(1 - momentum).add_(
                    Tensor._wrap(var.reshape(-1) * (momentum * count / (count - 1))))
    else:
        mean, var = running_mean._data.reshape(shape), running_var._data.reshape(shape)
    invstd = (1 / np.sqrt(var + eps)).astype(x.dtype)
    return ops.NativeBatchNorm.apply(input, weight, bias, mean.astype(x.dtype), invstd, training, eps)


# -- losses -------------------------------------------------------------------------------------
def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, *, reduction="mean"):
    """The mean (or sum, or each) of the squared differences."""
    _check_reduction(reduction)
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=2)
    # computed in the operands' common dtype (PyTorch's promotion: float32 and int64 give float32)
    return ops.MseLoss.apply(input, target, reduction, _dtype.result_type(input, target).np)


def nll_loss(input, target, weight=None, *, ignore_index=-100, reduction="mean"):
    """Minus the log-probability ``input`` gives each target class, averaged over the batch.
    ``input``: (N, C) log-probabilities (or (C,), or (N, C, d1, ...)); ``target``: (N,) class
    indices (or (), or (N, d1, ...)); ``weight``: optional (C,) weight per class."""
    _check_reduction(reduction)
    if target.dtype.is_floating_point or target.dtype.name == "bool":
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.legacy_name}")
    if input.dim() > 1 and input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0]}).")
    classes = input.shape[0 if input.dim() == 1 else 1]
    t = target._data
    bad = t[(t != ignore_index) & ((t < 0) | (t >= classes))]
    if bad.size:
        raise IndexError(f"Target {bad.flat[0]} is out of bounds.")
    w = None if weight is None else weight._data
    if input.dim() <= 2:
        return ops.NllLoss.apply(input, t, w, reduction, ignore_index)
    # Extra dims (N, C, d1, ...): PyTorch's 2-D loss on (N, C, H, W), after a view if needed.
    if input.dim() == 4:
        return ops.NllLoss2d.apply(input, t, w, reduction, ignore_index)
    n, c = input.shape[:2]
    out = ops.NllLoss2d.apply(input.reshape(n, c, 1, -1), t.reshape(n, 1, -1), w, reduction, ignore_index)
    return out.reshape(target.shape) if reduction == "none" else out


def cross_entropy(input, target, weight=None, *, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input))``: the loss of a classifier given raw scores (logits).
    Working in log space keeps it stable: no exp of a large logit, no log of 0."""
    if target.dtype.is_floating_point and target.shape == input.shape:
        raise NotImplementedError("minigrad's cross_entropy takes class indices as targets "
                                  "(class probabilities are not supported)")
    if label_smoothing:
        raise NotImplementedError("minigrad's cross_entropy does not support label_smoothing")
    return nll_loss(log_softmax(input, 0 if input.dim() == 1 else 1), target, weight,
                    ignore_index=ignore_index, reduction=reduction)

