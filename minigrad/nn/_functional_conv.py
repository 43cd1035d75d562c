"""The convolution family of ``nn.functional``: conv2d, conv1d, conv_transpose2d/1d; the
pools (max, average, adaptive average and adaptive max, 2-D and 1-D); interpolate
(nearest, nearest-exact, linear, bilinear); pixel_shuffle, pixel_unshuffle; unfold and
fold. ``nn.functional`` imports them all: ``F.conv2d`` is this module's ``conv2d``. Their
ops are in minigrad/ops/conv.py (convolutions, pools, im2col) and minigrad/ops/resample.py
(interpolation).

The 1-D forms are the 2-D ones on an input of height 1 (unsqueeze, pool, squeeze), as in
PyTorch, whose graphs show the same three nodes.
"""
import math
import warnings

import numpy as np

from .. import ops
from ..ops.resample import linear_plan, nearest_plan
from .._tensor import Tensor


# -- convolution and pooling (the ops are in minigrad/ops/conv.py) ------------------------------
def _expand(value, n, name=None):
    """PyTorch's ``_pair``: an int stands for the same value along each of n dims (a list of
    another length is refused with PyTorch's words for ``name``, where given)."""
    if isinstance(value, (tuple, list)):
        if name is not None and len(value) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match "
                               f"the convolution dimensions, but got {name}={list(value)}")
        return tuple(value)
    return (value,) * n


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


# -- transposed convolution ----------------------------------------------------------------------
def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, n):
    """conv_transpose1d (n = 1) and conv_transpose2d (n = 2): PyTorch's checks, then one op.
    The output is as large as the input of a conv2d whose output is ``input``:
    (size - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1."""
    name = f"conv_transpose{n}d"
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input.shape)}")
    if input.dim() == n + 1:  # one sample: a batch of one, as PyTorch does
        return _conv_transpose(input.unsqueeze(0), weight, bias, stride, padding, output_padding, groups,
                               dilation, n).squeeze(0)
    stride, padding = _expand(stride, n, "stride"), _expand(padding, n, "padding")
    output_padding, dilation = _expand(output_padding, n, "output_padding"), _expand(dilation, n, "dilation")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("could not create a primitive descriptor for the deconvolution forward propagation "
                           "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
                           "additional diagnostic information." if _onednn(input) else
                           "dilation should be greater than zero, but got " +
                           ", ".join(f"dilation_{k}: {d}" for k, d in zip(("height", "width")[2 - n:], dilation)))
    if weight.dim() != n + 2:
        raise RuntimeError(f"Expected {n + 2}-dimensional weight for {n + 2}-dimensional input "
                           f"{list(input.shape)}, but got weight of size {list(weight.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size [{list(weight.shape)}] instead")
    if input.shape[1] != weight.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
                           f"{list(input.shape)} to have {weight.shape[0]} channels, but got {input.shape[1]} "
                           "channels instead")
    out_channels = weight.shape[1] * groups
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected bias to be "
                           f"1-dimensional with {out_channels} elements, but got bias of size "
                           f"{list(bias.shape)} instead")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        names = ("height", "width")[2 - n:]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(
            f"{what}_{k}: {v}" for what, values in (("output_padding", output_padding), ("stride", stride),
                                                    ("dilation", dilation)) for k, v in zip(names, values)))
    if weight.dtype != input.dtype:
        if _onednn(input):
            raise RuntimeError(f"Input type ({input.dtype.tensor_type}) and weight type "
                               f"({weight.dtype.tensor_type}) should be the same or input should be a MKLDNN "
                               "tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.dtype.legacy_name} but found {weight.dtype.legacy_name}")
    if bias is not None and bias.dtype != input.dtype:  # oneDNN refuses it, the other path casts it
        if _onednn(input):
            raise RuntimeError(f"Input type ({input.dtype.tensor_type}) and bias type ({bias.dtype.tensor_type}) "
                               "should be the same or input should be a MKLDNN tensor and bias is a dense tensor")
        bias = bias.to(input.dtype)
    size, kernel = tuple(input.shape[2:]), tuple(weight.shape[2:])
    out = tuple((i - 1) * s - 2 * p + d * (k - 1) + op + 1
                for i, s, p, d, k, op in zip(size, stride, padding, dilation, kernel, output_padding))
    if min(out) < 1:
        if _onednn(input):
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, size))}). Calculated output size "
                           f"per channel: ({' x '.join(map(str, out))}). Output size is too small")
    if n == 1:  # a conv_transpose2d of height 1
        kernel, stride, padding, dilation, out, size = ((1,) + kernel, (1,) + stride, (0,) + padding,
                                                        (1,) + dilation, (1,) + out, (1,) + size)
    window = ops.Window(kernel, stride, padding, dilation, size)  # the windows of the conv it undoes
    if bias is None:  # an empty stand-in: the node has PyTorch's three inputs (None for bias)
        bias = Tensor._wrap(np.zeros(0, dtype=input._data.dtype))
    return ops.ConvolutionTranspose.apply(input, weight, bias, window, groups, (input.shape[0], out_channels) + out)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Each input pixel stamps its channel's filters, weight (in, out/groups, kh, kw), scaled
    by its value, onto the output, ``stride`` apart: conv2d's gradient with respect to its
    input, which is why it enlarges an image (decoders, GANs, segmentation)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


# -- 1-D pools and adaptive max pooling ----------------------------------------------------------
def _one(value, fn, name):
    """A 1-D pool's int argument, given as an int or a sequence of one."""
    if isinstance(value, (tuple, list)):
        if len(value) != 1:
            raise RuntimeError(f"{fn}() argument '{name}' should contain one int (got {len(value)})")
        return value[0]
    return value


def _check_1d(input, fn):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument "
                           f"#1 'self' (while checking arguments for {fn})")


_POOL1D_ARG = {"kernel_size": "an int, list of ints or tuple of ints", "dilation": "an int, list of ints or tuple "
               "of ints", "stride": "None, an int, list of ints, or tuple of ints", "padding": "an int, list of "
               "ints, or tuple of ints"}  # (PyTorch's words, commas and all)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """max_pool2d along the last dim: on the input with a height of 1 (what PyTorch records)."""
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(input.shape)}")
    args = {}
    for name, value in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
                        ("dilation", dilation)):
        if isinstance(value, (tuple, list)) and len(value) != 1 and not (name == "stride" and not value):
            raise RuntimeError(f"max_pool1d() {name} must be {_POOL1D_ARG[name]} of size 1 but got size {len(value)}")
        args[name] = value[0] if isinstance(value, (tuple, list)) and value else value
    k, s, p, d = args["kernel_size"], args["stride"], args["padding"], args["dilation"]
    s = k if s is None or s == [] or s == () else s  # (None or empty: windows side by side)
    for ok, text in ((k > 0, f"kernel_size must be greater than zero, but got {k}"),
                     (s > 0, f"stride must be greater than zero, but got {s}"),
                     (p >= 0, f"padding must be non-negative, but got {p}"),
                     (p <= k // 2, f"padding should be at most half of kernel size, but got padding={p} and "
                                   f"kernel_size={k}"),
                     (d > 0, f"dilation must be greater than zero, but got {d}")):
        if not ok:
            raise RuntimeError(f"max_pool1d() {text}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{input.dtype.legacy_name}'")
    width = ops.conv.out_size(input.shape[-1], k, s, p, d, ceil_mode)
    if width < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {width}")
    out = max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode, return_indices)
    return (out[0].squeeze(-2), out[1].squeeze(-2)) if return_indices else out.squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """avg_pool2d along the last dim (a height of 1)."""
    _check_1d(input, "avg_pool1d")
    k = _one(kernel_size, "avg_pool1d", "kernel_size")
    s = k if stride is None or stride == [] or stride == () else _one(stride, "avg_pool1d", "stride")
    p = _one(padding, "avg_pool1d", "padding")
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool1d(input, output_size):
    _check_1d(input, "adaptive_avg_pool1d")
    out = _one(output_size, "adaptive_avg_pool1d", "output_size")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, out)).squeeze(-2)


def _list_with_default(output_size, sizes):
    """PyTorch's: None in ``output_size`` keeps that dim's size."""
    if isinstance(output_size, int):
        return output_size
    if len(sizes) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return [s if o is None else o for o, s in zip(output_size, sizes[-len(output_size):])]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The largest value of each of ``output_size`` windows, as even as the sizes allow (with
    ``return_indices``, also where it is: a flat index into H*W)."""
    out = _expand(_list_with_default(output_size, input.shape), 2)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    for i in range(1 if input.dim() == 4 else 0, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError("adaptive_max_pool2d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(input.shape)} with dimension {i} being empty")
    if len(out) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if any(o < 0 for o in out):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                           f"{list(input.shape[:-2]) + list(out)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"adaptive_max_pool2d\" not implemented for '{input.dtype.legacy_name}'")
    indices = ops.conv.adaptive_max_indices(input._data, tuple(out))
    result = ops.AdaptiveMaxPool2d.apply(input, indices)
    return (result, Tensor._wrap(indices)) if return_indices else result


def adaptive_max_pool1d(input, output_size, return_indices=False):
    _check_1d(input, "adaptive_max_pool1d")
    out = adaptive_max_pool2d(input.unsqueeze(-2), (1, _one(output_size, "adaptive_max_pool1d", "output_size")),
                              return_indices)
    return (out[0].squeeze(-2), out[1].squeeze(-2)) if return_indices else out.squeeze(-2)


# -- interpolate ---------------------------------------------------------------------------------
_RESAMPLE = {("nearest", 1): ops.UpsampleNearest1d, ("nearest", 2): ops.UpsampleNearest2d,
             ("nearest-exact", 1): ops.UpsampleNearestExact1d, ("nearest-exact", 2): ops.UpsampleNearestExact2d,
             ("linear", 1): ops.UpsampleLinear1d, ("bilinear", 2): ops.UpsampleBilinear2d}
_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_NEEDS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}  # the input's dims of each mode


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize the last dims (N, C, L) or (N, C, H, W) to ``size``, or by ``scale_factor``
    (the output size floor(in * scale_factor)). Modes nearest, nearest-exact, linear (3-D
    input), bilinear (4-D); the source positions are minigrad/ops/resample.py's."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2  # the spatial dims
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {spatial} and output size of {size}. Please provide "
                                 "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                                 "format.")
            if not all(isinstance(s, int) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                f"Tuple[int, int, int], but got size with types {[type(s) for s in size]}")
            out, scales = list(size), [None] * dim
        else:
            out, scales = [size] * dim, [None] * dim
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {spatial} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                                 "and scale_factor in (s1, s2, ...,sK) format.")
            scales = list(scale_factor)
        else:
            scales = [scale_factor] * dim
        out = [int(math.floor(float(s) * f)) for s, f in zip(spatial, scales)]
        if recompute_scale_factor:  # the output size only: scale = in / out
            scales = [None] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if antialias:
        raise NotImplementedError("minigrad's interpolate has no antialias")
    op = _RESAMPLE.get((mode, dim))
    if op is None:
        if mode in _NEEDS and input.dim() in (3, 4, 5):
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_NEEDS[mode]}D input")
        if mode in _MODES.split(" | ") and input.dim() in (3, 4, 5):
            raise NotImplementedError(f"minigrad's interpolate has no mode={mode!r} for {input.dim()}D input "
                                      "(only nearest, nearest-exact, linear, bilinear; 3D or 4D)")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) "
                                  f"for the modes: {_MODES} (got {mode})")
    if any(o <= 0 for o in out) or 0 in spatial:
        names = ("H", "W")[2 - dim:]
        sizes_in = ", ".join(f"{k}: {s}" for k, s in zip(names, spatial))
        sizes_out = ", ".join(f"{k}: {o}" for k, o in zip(names, out))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({sizes_in})"
                           f"{' and' if dim == 1 else ''} output ({sizes_out})")  # (PyTorch's words differ so)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"minigrad's interpolate takes floating point input, not {input.dtype}")
    dtype = input._data.dtype
    plans = tuple(nearest_plan(s, o, f, mode == "nearest-exact") if mode.startswith("nearest") else
                  linear_plan(s, o, f, align_corners, dtype) for s, o, f in zip(spatial, out, scales))
    return op.apply(input, plans)


# -- padding by reflection, replication, wrapping around (F.pad's other modes) ---------------------
_PAD_OPS = {("reflect", 1): ops.ReflectionPad1d, ("reflect", 2): ops.ReflectionPad2d,
            ("reflect", 3): ops.ReflectionPad3d, ("replicate", 1): ops.ReplicationPad1d,
            ("replicate", 2): ops.ReplicationPad2d, ("replicate", 3): ops.ReplicationPad3d}


def pad_by_mode(input, pad, mode, value=None):
    """``F.pad``'s modes reflect, replicate and circular (``F.pad`` calls this): ``pad`` as
    F.pad's, (left, right) of the last dim, then of the one before, ... for 1 to 3 dims of
    an input with one or two more (batch and channel) dims."""
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    n, ndim = len(pad) // 2, input.dim()
    if n not in (1, 2, 3) or ndim not in (n + 1, n + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\nSupported combinations for "
            "non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D "
            "input: padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 "
            "dimensions)")
    if mode == "circular":
        return _pad_circular(input, pad)
    if 0 in (input.shape[1:] if ndim == n + 2 else input.shape):  # (only the batch may be empty)
        raise RuntimeError(f"Expected {n + 1}D or {n + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {list(input.shape)}")
    plans = []
    for k in range(n):  # the padded dims, first to last; the last dim's pads come first in ``pad``
        dim = ndim - n + k
        left, right = pad[2 * (n - 1 - k)], pad[2 * (n - 1 - k) + 1]
        if mode == "reflect" and not (left < input.shape[dim] and right < input.shape[dim]):
            raise RuntimeError(f"Argument #{4 + 2 * (n - 1 - k)}: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({left}, {right}) at dimension "
                               f"{dim} of input {list(input.shape)}")
        plans.append(ops.resample.pad_plan(input.shape[dim], left, right, mode == "reflect"))
    return _PAD_OPS[mode, n].apply(input, tuple(plans))


def _pad_circular(input, pad):
    """As PyTorch's ``_pad_circular``: an empty output, the input copied into its middle,
    then each dim's ends copied from the other side (in place: PyTorch's CopySlices nodes)."""
    n, ndim, shape = len(pad) // 2, input.dim(), list(input.shape)
    out_shape = list(shape)
    for i in range(n):  # pad[2i], pad[2i + 1] are the pads of dim ndim - 1 - i
        dim, left, right = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        if left > shape[dim] or right > shape[dim]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        out_shape[dim] = shape[dim] + left + right
        if out_shape[dim] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(out_shape)
    into, source = [slice(None)] * ndim, input  # (the source narrowed dim by dim: PyTorch's slices)
    for i in range(n):
        dim, left, right = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        into[dim] = slice(max(left, 0), out_shape[dim] - max(right, 0))
        source = source.narrow(dim, max(-left, 0), shape[dim] - max(-right, 0) - max(-left, 0))
    out[tuple(into)].copy_(source)

    def at(dim, start, stop):
        return (slice(None),) * dim + (slice(start, stop),)
    for i in range(n):  # each dim's ends, from the other side (corners are written twice)
        dim, left, right = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        size = out_shape[dim]
        if left > 0:
            out[at(dim, 0, left)].copy_(out[at(dim, size - left - max(right, 0), size - max(right, 0))])
        if right > 0:
            out[at(dim, size - right, size)].copy_(out[at(dim, max(left, 0), max(left, 0) + right)])
    return out


# -- pixel shuffle, unfold and fold --------------------------------------------------------------
def _check_shuffle(input, factor, name, what):
    if input.dim() < 3:
        raise RuntimeError(f"pixel_{name} expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"pixel_{name} expects a positive {what}, but got {factor}")


def pixel_shuffle(input, upscale_factor):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r): sub-pixel convolution's last step (r = upscale_factor)."""
    r = upscale_factor
    _check_shuffle(input, r, "shuffle", "upscale_factor")
    if input.shape[-3] % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                           f"of upscale_factor, but input.size(-3)={input.shape[-3]} is not divisible by {r * r}")
    return ops.PixelShuffle.apply(input, r)


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W): pixel_shuffle undone."""
    r = downscale_factor
    _check_shuffle(input, r, "unshuffle", "downscale_factor")
    for dim, name in ((-2, "height"), (-1, "width")):
        if input.shape[dim] % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({dim})={input.shape[dim]} is not divisible by {r}")
    return ops.PixelUnshuffle.apply(input, r)


def _blocks(size, kernel_size, dilation, padding, stride):
    """The window of F.unfold / F.fold over a (H, W) image, after PyTorch's checks."""
    kernel, dilation = _expand(kernel_size, 2), _expand(dilation, 2)
    padding, stride = _expand(padding, 2), _expand(stride, 2)
    for what, values, ok in (("kernel size", kernel, min(kernel) > 0), ("stride", stride, min(stride) > 0),
                             ("dilation", dilation, min(dilation) > 0)):
        if not ok:
            raise RuntimeError(f"{what} should be greater than zero, but got {what.split()[0]}_height: {values[0]} "
                               f"{what.split()[0]}_width: {values[1]}")
    if min(padding) < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} pad_width: "
                           f"{padding[1]}")
    out = tuple(ops.conv.out_size(*a) for a in zip(size, kernel, stride, padding, dilation))
    return ops.Window(kernel, stride, padding, dilation, out)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: every kernel_size block of (N, C, H, W) as a column, (N, C*kh*kw, L), L the
    number of blocks. ``fold`` is its adjoint."""
    if 0 < input.dim() < 3:  # (PyTorch reads dim 2 first)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.dim()}, {input.dim() - 1}], "
                         "but got 2)")
    if input.dim() not in (3, 4) or 0 in input.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    window = _blocks(tuple(input.shape[-2:]), kernel_size, dilation, padding, stride)
    if min(window.out) < 1:
        raise RuntimeError(f"Given input with spatial size {tuple(input.shape[-2:])}, kernel_size="
                           f"{window.kernel}, dilation={window.dilation}, padding={window.padding}, calculated "
                           f"shape of the array of sliding blocks as {window.out}, but its components must be at "
                           "least one.")
    return ops.Im2Col.apply(input, window)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im: columns (N, C*kh*kw, L) added back into an (N, C, H, W) image, where
    unfold took them from (overlapping blocks add up)."""
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    size = _expand(output_size, 2)
    window = _blocks(size, kernel_size, dilation, padding, stride)
    kh, kw = window.kernel
    if input.shape[-2] % (kh * kw):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                           f"but got input.size(1)={input.shape[-2]} and kernel_size={window.kernel}.")
    blocks = window.out[0] * window.out[1]
    if input.shape[-1] != blocks or min(window.out) < 1:
        raise RuntimeError(f"Given output_size={size}, kernel_size={window.kernel}, dilation={window.dilation}, "
                           f"padding={window.padding}, stride={window.stride}, expected size of input's dimension 2 "
                           f"to match the calculated number of sliding blocks {window.out[0]} * {window.out[1]} = "
                           f"{blocks}, but got input.size(2)={input.shape[-1]}.")
    return ops.Col2Im.apply(input, size, window)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """interpolate's old name (deprecated, says so)."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """interpolate(mode='bilinear', align_corners=True) (deprecated, says so)."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
