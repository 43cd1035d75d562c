"""``torch.nn.functional``: what the layers compute, as plain functions.

The modules in ``nn.modules`` hold parameters and settings and call these. Each
function builds on Tensor methods or on an op of ``minigrad.ops``, so its output's
``grad_fn`` is named as PyTorch names it.
"""
import warnings

import numpy as np

from .. import ops
from .._conventions import check_broadcast
from .._conventions import typename as _typename
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
    if not isinstance(input, Tensor):
        raise TypeError(f"linear(): argument 'input' (position 1) must be Tensor, not "
                        f"{_typename(input)}")
    if input.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are 0D and "
                           f"{weight.dim()}D")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {input.dtype.legacy_name} "
                           f"and {weight.dtype.legacy_name}")
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return ops.Addmm.apply(bias, input, weight.t())
    rows = input.reshape(-1, input.shape[-1])
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


# -- convolution and pooling (the ops are in minigrad/ops/conv.py) ------------------------------
def _expand(value, n):
    """PyTorch's ``_pair``: an int stands for the same value along each of n dims."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


_warned = {"same": False}


def _conv(input, weight, bias, stride, padding, dilation, groups, n):
    """conv1d (n = 1) and conv2d (n = 2): checks with PyTorch's words, then one op."""
    name = f"conv{n}d"
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input.shape)}")
    if input.dim() == n + 1:  # one sample: as a batch of one, as PyTorch does
        return _conv(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups, n).squeeze(0)
    stride, dilation = _expand(stride, n), _expand(dilation, n)
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        # PyTorch's texts differ by path: oneDNN's for float batches of more than one
        raise RuntimeError("non-positive dilation is not supported" if _onednn(input) else
                           f"dilation should be greater than zero, but got {list(dilation)}")
    c, kernel = input.shape[1], tuple(weight.shape[2:])
    if c != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected "
                           f"input{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
                           f"{c} channels instead")
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional "
                           f"with {weight.shape[0]} elements, but got bias of size {list(bias.shape)} instead")
    if weight.dtype != input.dtype and _onednn(input):
        raise RuntimeError(f"Input type ({input.dtype.tensor_type}) and weight type ({weight.dtype.tensor_type}) "
                           "should be the same or input should be a MKLDNN tensor and weight is a dense tensor")
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({input.dtype.legacy_name.lower()}) and bias type "
                           f"({bias.dtype.legacy_name.lower()}) should be the same")
    if weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")
    size = tuple(input.shape[2:])
    if padding == "valid":
        padding = 0
    if padding == "same":  # the output as large as the input: the total d*(k-1), the odd one right
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        padding, out = tuple(d * (k - 1) // 2 for k, d in zip(kernel, dilation)), size
        if any(d * (k - 1) % 2 for k, d in zip(kernel, dilation)) and not _warned["same"]:
            _warned["same"] = True  # PyTorch says it once a session
            warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a "
                          "zero-padded copy of the input be created", UserWarning, stacklevel=3)
    elif isinstance(padding, str):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding = _expand(padding, n)
        if any(p < 0 for p in padding):
            raise RuntimeError("negative padding is not supported")
        reach = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
        if any(s + 2 * p < r for s, p, r in zip(size, padding, reach)):
            raise RuntimeError(f"Calculated padded input size per channel: "
                               f"({' x '.join(str(s + 2 * p) for s, p in zip(size, padding))}). Kernel size: "
                               f"({' x '.join(map(str, reach))}). Kernel size can't be greater than actual "
                               "input size")
        out = tuple(ops.conv.out_size(*a) for a in zip(size, kernel, stride, padding, dilation))
    if n == 1:  # conv1d runs as a conv2d of height 1
        kernel, stride, padding, dilation, out = ((1,) + kernel, (1,) + stride, (0,) + padding,
                                                  (1,) + dilation, (1,) + out)
    window = ops.Window(kernel, stride, padding, dilation, out)
    if bias is None:  # an empty stand-in, so that the node has PyTorch's three inputs (None for bias)
        bias = Tensor._wrap(np.zeros(0, dtype=input._data.dtype))
    return ops.Convolution.apply(input, weight, bias, window, groups)


def _onednn(input):
    """Whether PyTorch's CPU convolution takes its oneDNN path (float32, batch > 1), whose
    error texts differ."""
    return input.dtype.name == "float32" and input.shape[0] > 1


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Slide each of weight's (out, in/groups, kh, kw) filters over the input (N, in, H, W):
    each output is the sum of a window of the input times the filter, plus bias."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def _pool_window(name, input, kernel_size, stride, padding, dilation, ceil_mode):
    """The pooling window, after PyTorch's checks (``name``'s wording for a wrong input)."""
    if name == "avg" and input.dim() < 3:  # PyTorch reaches for dim -3 first
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(input.dim(), 1)}, "
                         f"{max(input.dim(), 1) - 1}], but got -3)")
    if input.dim() not in (3, 4) or input.numel() == 0:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input" if name == "max"
                           else "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for "
                                f"input, but got:{list(input.shape)}")
    kernel = _expand(kernel_size, 2)
    stride = kernel if stride is None or stride == [] else _expand(stride, 2)
    padding, dilation = _expand(padding, 2), _expand(dilation, 2)
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"pad must be non-negative, but got pad: {min(padding)}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    if any(p > k // 2 for k, p in zip(kernel, padding)):  # and of the kernel itself
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got "
                           f"padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}")
    size = tuple(input.shape[-2:])
    out = tuple(ops.conv.out_size(*a, ceil_mode) for a in zip(size, kernel, stride, padding, dilation))
    if min(out) < 1:
        c = input.shape[-3]
        raise RuntimeError(f"Given input size: ({c}x{size[0]}x{size[1]}). Calculated output size: "
                           f"({c}x{out[0]}x{out[1]}). Output size is too small")
    return ops.Window(kernel, stride, padding, dilation, out)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest value of each window (with ``return_indices``, also where it is: a flat
    index into H*W)."""
    window = _pool_window("max", input, kernel_size, stride, padding, dilation, ceil_mode)
    for size, k, s, p, d, o in zip(input.shape[-2:], *window):
        reads = np.arange(o)[:, None] * s - p + np.arange(k) * d  # what each window reads, along one dim
        if not ((reads >= 0) & (reads < size)).any(1).all():  # possible with dilation, padding, tiny input
            raise NotImplementedError("minigrad's max_pool2d does not support a window that reads padding "
                                      "only (PyTorch answers -inf there); use less padding or dilation")
    x = input._data
    indices = ops.conv.max_pool_indices(x if x.ndim == 4 else x[None], window).reshape(
        x.shape[:-2] + window.out)
    out = ops.MaxPool2d.apply(input, indices)
    return (out, Tensor._wrap(indices)) if return_indices else out


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each window; zero padding counts as elements unless ``count_include_pad``
    is False; ``divisor_override`` divides every window's sum by that number instead."""
    window = _pool_window("avg", input, kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        divisor = np.full(window.out, float(divisor_override))
    else:
        divisor = ops.conv.avg_pool_divisor(input.shape[-2:], window, count_include_pad)
    return ops.AvgPool2d.apply(input, window, divisor)


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to ``output_size`` (None: keep that dim), with windows as even as the
    sizes allow. To 1x1 it is the mean over H and W, as PyTorch records it."""
    out = _expand(output_size, 2)
    if len(out) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    out = tuple(s if o is None else o for o, s in zip(out, input.shape[-2:]))
    if out == (1, 1):
        return input.mean((-2, -1), keepdim=True)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    return ops.AdaptiveAvgPool2d.apply(input, out)


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
    if not training or p == 0:
        return input
    keep = _rng(None).random(tuple(input.shape[:2]) + (1,) * (input.dim() - 2)) >= p
    mask = Tensor._wrap((keep * (1 / (1 - p) if p < 1 else 0.0)).astype(input._data.dtype))
    return input.mul_(mask) if inplace else input * mask


# -- losses -------------------------------------------------------------------------------------
def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, *, reduction="mean"):
    """The mean (or sum, or each) of the squared differences."""
    _check_reduction(reduction)
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=2)
        check_broadcast(input.shape, target.shape)
        shape = np.broadcast_shapes(input.shape, target.shape)  # as torch.broadcast_tensors does
        input = input if input.shape == shape else input.expand(shape)
        target = target if target.shape == shape else target.expand(shape)
    return ops.MseLoss.apply(input, target, reduction)


def nll_loss(input, target, weight=None, *, ignore_index=-100, reduction="mean"):
    """Minus the log-probability ``input`` gives each target class, averaged over the batch.
    ``input``: (N, C) log-probabilities (or (C,), or (N, C, d1, ...)); ``target``: (N,) class
    indices (or (), or (N, d1, ...)); ``weight``: optional (C,) weight per class."""
    _check_reduction(reduction)
    if input.dim() == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if target.dtype.is_floating_point or target.dtype.name == "bool":
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.legacy_name}")
    if input.dim() > 1 and input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0]}).")
    if input.dim() <= 2 and target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    classes = input.shape[0 if input.dim() == 1 else 1]
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no "
                           f"classes but got weight tensor of shape: {list(weight.shape)}")
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

