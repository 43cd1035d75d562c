"""``torch.nn.functional``: what the layers compute, as plain functions.

The modules in ``nn.modules`` hold parameters and settings and call these. Each
function builds on Tensor methods or on an op of ``minigrad.ops``, so its output's
``grad_fn`` is named as PyTorch names it. The activations beyond relu, sigmoid, tanh and
softmax are in ``_activations.py``, the convolutions, pools, interpolate, pixel_shuffle,
unfold and fold (and ``pad``'s modes other than constant) in ``_functional_conv.py``
(imported here).
"""
import math
import warnings

import numpy as np

from .. import _creation, _dtype, ops
from .._conventions import check_broadcast
from .._conventions import quietly as _quietly
from .. import _random
from .._tensor import Tensor
from ..autograd import no_grad
from ._activations import (celu, celu_, elu, elu_, gelu, glu, hardshrink, hardsigmoid, hardswish, hardtanh,
                           hardtanh_, leaky_relu, leaky_relu_, logsigmoid, mish, prelu, relu6, relu_, rrelu,
                           rrelu_, selu, selu_, silu, softplus, softshrink, softsign, tanhshrink, threshold,
                           threshold_)  # noqa: F401 (F.gelu...)
from ._functional_loss import _reduction
from ._functional_loss import (cosine_embedding_loss, cosine_similarity, gaussian_nll_loss, gumbel_softmax,
                               hinge_embedding_loss, margin_ranking_loss, multi_margin_loss, multilabel_margin_loss,
                               multilabel_soft_margin_loss, pairwise_distance, pdist, poisson_nll_loss,
                               soft_margin_loss, triplet_margin_loss, triplet_margin_with_distance_loss)  # noqa: F401
from ._functional_linear import linear  # noqa: F401 (F.linear: the attention functions use it too)
from ._functional_attention import (group_norm, instance_norm, local_response_norm,  # noqa: F401
                                    multi_head_attention_forward, rms_norm, scaled_dot_product_attention)
from ._functional_conv import (_expand, _warned, adaptive_avg_pool2d, avg_pool2d, conv1d, conv2d,  # noqa: F401
                               conv_transpose1d, conv_transpose2d, max_pool2d)  # (conv and pooling: that file)
from ._functional_conv import (adaptive_avg_pool1d, adaptive_max_pool1d, adaptive_max_pool2d,  # noqa: F401
                               avg_pool1d, max_pool1d)
from ._functional_conv import fold, interpolate, pad_by_mode, pixel_shuffle, pixel_unshuffle, unfold  # noqa: F401
from ._functional_conv import upsample, upsample_bilinear, upsample_nearest  # noqa: F401

_REDUCTIONS = ("mean", "sum", "none")
_INT64, _UINT8 = np.dtype(np.int64), np.dtype(np.uint8)  # nll_loss's targets


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
    return (input if dtype is None else input.to(_dtype.dtype_arg(dtype, "softmax"))).softmax(dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """``softmax(-input)``: the smallest entries get the largest weights."""
    dim = _softmax_dim("softmin", input.dim()) if dim is None else dim
    return softmax(-input, dim, dtype)


def log_softmax(input, dim=None, dtype=None):
    dim = _softmax_dim("log_softmax", input.dim()) if dim is None else dim
    return (input if dtype is None else input.to(_dtype.dtype_arg(dtype, "log_softmax"))).log_softmax(dim)


# -- layers -------------------------------------------------------------------------------------
def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the survivors by ``1/(1-p)``,
    so the expected value is unchanged and nothing needs rescaling at test time."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or not input.numel():
        return input
    mask = _dropout_noise(input, p)
    return input.mul_(mask) if inplace else input * mask


def _dropout_noise(input, p, feature=False):
    """Dropout's mask (see _random.dropout_noise) as a tensor."""
    return Tensor._wrap(_random.dropout_noise(input._data, p, feature))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise each sample over its last ``len(normalized_shape)`` dims (see
    ops.NativeLayerNorm), then scale by ``weight`` and shift by ``bias``."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    # PyTorch's node has an input for weight and bias even when they are None: ones and zeros here.
    weight = _creation.ones(shape, dtype=input.dtype) if weight is None else weight
    bias = _creation.zeros(shape, dtype=input.dtype) if bias is None else bias
    return ops.NativeLayerNorm.apply(input, len(shape), weight, bias, eps)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Row ``input[i]`` of the table ``weight``, for every index in ``input``."""
    if input.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got {input.dtype.tensor_type} instead (while checking "
                           "arguments for embedding)")
    idx = input._data
    if idx.size and (idx.min() < -weight.shape[0] or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= weight.shape[0]
    if max_norm is not None:  # rescale, in place, the used rows longer than max_norm
        with no_grad():
            rows = np.unique(idx % weight.shape[0])
            norms = np.linalg.norm(weight._data[rows], ord=norm_type, axis=1, keepdims=True)
            scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
            weight._data[rows] *= scale.astype(weight._data.dtype)
            weight._version_counter()[0] += 1
    return ops.Embedding.apply(weight, input, padding_idx, scale_grad_by_freq)


def one_hot(tensor, num_classes=-1):
    """Class indices as rows of 0s with a 1 at each index (int64, as in PyTorch)."""
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    idx = tensor._data
    if idx.size and idx.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(idx.max()) + 1 if idx.size else 0
    elif idx.size and idx.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._wrap((idx[..., None] == np.arange(num_classes)).astype(np.int64))


def pad(input, pad, mode="constant", value=None):
    """Add ``pad[0]`` values before and ``pad[1]`` after the last dim, ``pad[2]``, ``pad[3]``
    around the one before it, ...; negative numbers crop. ``mode`` "constant" (``value``),
    "reflect", "replicate" or "circular"."""
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {input.dim()}")
    if mode != "constant":  # (in nn/_functional_conv.py)
        return pad_by_mode(input, tuple(int(p) for p in pad), mode, value)
    for i in range(0, len(pad), 2):
        if input.shape[input.dim() - 1 - i // 2] + pad[i] + pad[i + 1] < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    return ops.ConstantPadNd.apply(input, tuple(int(p) for p in pad), 0.0 if value is None else value)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``): unit vectors."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def _move(running, value, momentum):
    """``running`` moved ``momentum`` of the way towards ``value``, in its own memory."""
    data = running._data
    data *= 1 - momentum
    data += (value * momentum).astype(data.dtype, copy=False)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) to mean 0 and variance 1, then scale by ``weight``
    and shift by ``bias``. In training the statistics are the batch's own, and the
    running averages are moved ``momentum`` of the way towards them; otherwise the
    running averages are used."""
    for name, stat in (("running_mean", running_mean), ("running_var", running_var)):
        if stat is not None and stat.numel() != input.shape[1]:
            raise RuntimeError(f"{name} should contain {input.shape[1]} elements not {stat.numel()}")
    dims = (0,) + tuple(range(2, input.dim()))  # every dim but the channels
    shape = (1, -1) + (1,) * (input.dim() - 2)  # per-channel values, lined up with input
    x = input._data
    if training:
        count = input.numel() // input.shape[1]
        if count <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"{input.shape}")
        with _quietly():  # (inf - inf: NaN statistics, silently, as in PyTorch)
            mean, var = x.mean(dims, keepdims=True), x.var(dims, keepdims=True)  # biased: divide by n
        if running_mean is not None:
            # The running averages are state, not part of the graph, written as PyTorch's kernel
            # writes them: in place, without a new version (a graph that saved them, in
            # evaluation mode, can still backpropagate after this training step).
            _move(running_mean, mean.reshape(-1), momentum)
            # PyTorch tracks the unbiased variance (divide by n - 1) for use at test time.
            _move(running_var, var.reshape(-1) * (count / (count - 1)), momentum)
    else:
        mean, var = running_mean._data.reshape(shape), running_var._data.reshape(shape)
    invstd = (1 / np.sqrt(var + eps)).astype(x.dtype)
    running = None if running_mean is None else (running_mean, running_var)
    return ops.NativeBatchNorm.apply(input, weight, bias, mean.astype(x.dtype), invstd, training, eps, running)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Dropout of whole channels: each (sample, channel) map is zeroed with probability p
    (nearby pixels are alike, so dropping single ones would hardly regularise)."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
                      "dim. This behavior will change in a future release to interpret the input as one "
                      "without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
                      "dropout behavior, please switch to using dropout1d instead.", UserWarning, stacklevel=2)
    elif input.dim() != 4:
        warnings.warn(f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated and will "
                      "result in an error in a future release. To retain the behavior and silence this "
                      "warning, please use dropout instead. Note that dropout2d exists to provide channel-wise "
                      "dropout on inputs with 2 spatial dimensions, a channel dimension, and an optional batch "
                      "dimension (i.e. 3D or 4D inputs).", UserWarning, stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def _feature_dropout(input, p, training, inplace):
    """Zero each (sample, channel) of ``input`` (N, C, ...) with probability p, scale the rest."""
    if not training or p == 0 or not input.numel():
        return input
    mask = _dropout_noise(input, p, feature=True)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(input, p=0.5, training=True, inplace=False):
    """dropout2d for sequences: (N, C, L) or (C, L), each channel dropped whole."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, batched=input.dim() == 3)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """dropout2d for volumes: (N, C, D, H, W) or (C, D, H, W), each channel dropped whole."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (4, 5):
        warnings.warn(f"dropout3d: Received a {input.dim()}-D input to dropout3d, which is deprecated and will "
                      "result in an error in a future release. To retain the behavior and silence this "
                      "warning, please use dropout instead. Note that dropout3d exists to provide channel-wise "
                      "dropout on inputs with 3 spatial dimensions, a channel dimension, and an optional batch "
                      "dimension (i.e. 4D or 5D inputs).", UserWarning, stacklevel=2)
    return _unbatched_feature_dropout(input, p, training, inplace, batched=input.dim() == 5)


def _unbatched_feature_dropout(input, p, training, inplace, batched):
    """An unbatched input as a batch of one, as PyTorch does (UnsqueezeBackward0, SqueezeBackward1)."""
    if batched:
        return _feature_dropout(input, p, training, inplace)
    if inplace:  # (PyTorch's unsqueeze_ and squeeze_ around it)
        raise NotImplementedError("minigrad's dropout1d and dropout3d work in place on a batched input only; "
                                  "give the input a batch dim (x.unsqueeze(0)) or use inplace=False")
    return _feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)


_ALPHA = 1.7580993408473766  # SELU's scale * alpha: selu's outputs never go below -_ALPHA


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements become SELU's lowest value (-1.758...), not
    0, and everything is then scaled and shifted (``a * x + b``) so that inputs of mean 0 and
    variance 1 keep them."""
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels: each (sample, channel) map is dropped or kept together."""
    return _alpha_dropout(input, p, training, inplace, feature=True)


def _alpha_dropout(input, p, training, inplace, feature):
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or not input.numel():
        return input
    if p == 1:  # everything dropped: zeros (times the input, as PyTorch records it)
        return input.mul_(input.new_zeros(())) if inplace else input * input.new_zeros(())
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2) if feature else tuple(input.shape)
    keep = _random.bernoulli_number(_random.default_generator, math.prod(shape), 1 - p).reshape(shape)
    a = 1 / np.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))  # (PyTorch's Dropout.cpp)
    b = Tensor._wrap(((keep - 1.0) * (_ALPHA * a) + _ALPHA * a * p).astype(input._data.dtype))
    noise = Tensor._wrap((keep * a).astype(input._data.dtype))
    return (input.mul_(noise) if inplace else input * noise).add_(b)


# -- losses -------------------------------------------------------------------------------------
def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The mean (or sum, or each) of the squared differences."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():  # (.size(): a list target fails as in PyTorch)
        _size_warning(input, target)
        check_broadcast(input.shape, target.shape)
        shape = np.broadcast_shapes(input.shape, target.shape)  # as torch.broadcast_tensors does
        input = input if input.shape == shape else input.expand(shape)
        target = target if target.shape == shape else target.expand(shape)
    # computed in the operands' common dtype (PyTorch's promotion: float32 and int64 give float32)
    return ops.MseLoss.apply(input, target, reduction, _dtype.result_type(input, target).np)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Minus the log-probability ``input`` gives each target class, averaged over the batch.
    ``input``: (N, C) log-probabilities (or (C,), or (N, C, d1, ...)); ``target``: (N,) class
    indices (or (), or (N, d1, ...)); ``weight``: optional (C,) weight per class."""
    reduction = _reduction(size_average, reduce, reduction)
    x, t = input._data, target._data  # (their arrays: checked on every training step)
    if x.ndim == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if t.dtype is not _INT64:  # (NumPy's dtypes are singletons: `is`, run on every step, is the quick test)
        if t.dtype is not _UINT8:  # (int32 too is refused)
            raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.legacy_name}")
        t = t.astype(np.int64)  # a Byte target: classes 0..255, read as int64 for the checks below
    if x.ndim > 1 and x.shape[0] != t.shape[0]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
                         f"({target.shape[0]}).")
    if x.ndim <= 2 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    classes = x.shape[0 if x.ndim == 1 else 1]
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no "
                           f"classes but got weight tensor of shape: {list(weight.shape)}" if x.ndim <= 2 else
                           "weight tensor should be defined either for all or no classes")  # (the 2-D loss's)
    if x.dtype.kind != "f":  # PyTorch's kernels are for floats only
        kernel = "nll_loss_out_frame" if x.ndim <= 2 else "nll_loss2d_forward_out_frame"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.dtype.legacy_name}\'')
    if weight is not None and weight._data.dtype != x.dtype:  # its kernel reads the weight as the input's type
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")
    # Every target a class, 0 <= t < classes, is the common case: one pass checks it, as a
    # negative int64 read as unsigned is huge. Otherwise, only an ignored target may be outside.
    if t.size and t.view(np.uint64).max() >= classes:
        bad = t[(t != ignore_index) & ((t < 0) | (t >= classes))]
        if bad.size:
            raise IndexError(f"Target {bad.flat[0]} is out of bounds.")
    elif not 0 <= ignore_index < classes:  # (-100, the default) no target equals it: none is ignored,
        ignore_index = None  # and the op need not look for one
    w = None if weight is None else weight._data
    if x.ndim <= 2:
        return ops.NllLoss.apply(input, target, w, reduction, ignore_index)
    # Extra dims (N, C, d1, ...): PyTorch's 2-D loss on (N, C, H, W), after a view if needed.
    if x.ndim == 4:
        return ops.NllLoss2d.apply(input, target, w, reduction, ignore_index)
    n, c, rest = x.shape[0], x.shape[1], int(np.prod(x.shape[2:]))  # (not -1: an empty batch)
    out = ops.NllLoss2d.apply(input.reshape(n, c, 1, rest), target.reshape(n, 1, rest), w, reduction, ignore_index)
    return out.reshape(target.shape) if reduction == "none" else out


def _size_warning(input, target, stacklevel=3):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=stacklevel)


def _same_dtype(tensor, like):
    """``weight`` and ``pos_weight`` as an array of the input's dtype (or None)."""
    return None if tensor is None else tensor._data.astype(like._data.dtype, copy=False)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input))``: the loss of a classifier given raw scores (logits).
    Working in log space keeps it stable: no exp of a large logit, no log of 0.

    ``target`` holds class indices, or, with the input's shape and a float dtype, class
    probabilities. ``label_smoothing`` mixes each target with the uniform distribution:
    the true class gets ``1 - label_smoothing`` plus its share of ``label_smoothing``.
    Both are written as PyTorch's C++ writes them, so the graph has PyTorch's nodes."""
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    dim = 0 if input.dim() == 1 else 1
    classes = input._data.shape[dim]
    log_p = log_softmax(input, dim)
    shape = [1] * input.dim()  # the weight along dim, 1 along the others
    shape[dim] = -1
    w = None if weight is None else weight.reshape(shape)
    if target._data.dtype.kind == "f" and target._data.shape == input._data.shape:  # class probabilities
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        picked = log_p * target if w is None else log_p * target * w
        if reduction == "none":
            return -picked.sum(dim)
        if reduction == "sum":
            return -picked.sum()
        return ops.DivNumber.apply(-picked.sum(), input.numel() // classes)
    nll = nll_loss(log_p, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    # Smoothing: the loss of the uniform target, -sum(log_p) (weighted), is mixed in.
    ignored = target == ignore_index
    smooth = -(log_p if w is None else log_p * w).sum(dim)
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "mean":
        total = (~ignored).sum() if weight is None else weight.gather(0, target.masked_select(~ignored)).sum()
        smooth = smooth.sum() / total
    elif reduction == "sum":
        smooth = smooth.sum()
    return ops.MulNumber.apply(nll, 1 - label_smoothing) + ops.MulNumber.apply(smooth, label_smoothing / classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """The loss of a yes/no classifier that outputs probabilities (after a sigmoid):
    ``-(t log(p) + (1 - t) log(1 - p))``. Prefer binary_cross_entropy_with_logits on the
    logits: the same loss, without a probability that rounds to 0 or 1."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    x = input._data
    if ((x < 0) | (x > 1)).any() or np.isnan(x).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    w = None if weight is None else np.broadcast_to(_same_dtype(weight, input), input.shape)
    return ops.BinaryCrossEntropy.apply(input, target, w, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """The binary cross entropy of ``sigmoid(input)``, computed stably from the logits.
    ``pos_weight`` (one per class, broadcast along the last dim) weighs the positives:
    above 1 it trades precision for recall."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    return ops.BinaryCrossEntropyWithLogits.apply(input, target, _same_dtype(weight, input),
                                                  _same_dtype(pos_weight, input), reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The mean (or sum, or each) of the absolute differences: a composition in PyTorch too."""
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    losses = (input - target).abs()
    return losses if reduction == "none" else losses.mean() if reduction == "mean" else losses.sum()


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared below ``beta``, absolute above (see ops.SmoothL1Loss). ``beta=0`` is l1_loss."""
    reduction = _reduction(size_average, reduce, reduction)
    _size_warning(input, target)
    check_broadcast(input.shape, target.shape)  # (PyTorch broadcasts the two before checking beta)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return ops.SmoothL1Loss.apply(input, target, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Squared below ``delta``, ``delta`` times absolute above (see ops.HuberLoss)."""
    _check_reduction(reduction)
    _size_warning(input, target)
    check_broadcast(input.shape, target.shape)  # (PyTorch broadcasts the two before checking delta)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return ops.HuberLoss.apply(input, target, reduction, delta)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """The Kullback-Leibler divergence ``sum(t (log t - input))`` of the target distribution
    from the prediction; ``input`` holds log-probabilities, ``target`` probabilities (or
    log-probabilities, with ``log_target``). ``"batchmean"`` divides the sum by the batch size,
    which is KL's definition; ``"mean"`` divides by every element (with PyTorch's warning)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    if reduction not in _REDUCTIONS + ("batchmean",):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    if log_target:
        losses = target.exp() * (target - input)
    else:  # t log t, taken as 0 where t = 0
        losses = ops.Xlogy.apply(target, target) - target * input
    if reduction == "none":
        return losses
    if reduction == "mean":
        return losses.mean()
    total = losses.sum()
    return total / input.shape[0] if reduction == "batchmean" and input.dim() != 0 else total
