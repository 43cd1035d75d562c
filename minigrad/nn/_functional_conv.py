"""The convolution family of ``nn.functional`` beyond conv2d, conv1d and the 2-D pools:
conv_transpose1d/2d, the 1-D pools (max, average, adaptive) and adaptive max pooling,
interpolate (nearest, nearest-exact, linear, bilinear), pixel_shuffle, pixel_unshuffle,
unfold and fold. ``nn.functional`` imports them all. Their ops are in minigrad/ops/conv.py
(convolutions, pools, im2col) and minigrad/ops/resample.py (interpolation).

The 1-D forms are the 2-D ones on an input of height 1 (unsqueeze, pool, squeeze), as in
PyTorch, whose graphs show the same three nodes.
"""
import math
import warnings

import numpy as np

from .. import ops
from .._tensor import Tensor


def _tuple(value, n, name=None):
    """PyTorch's ``_pair``/``_single``: an int stands for the same value along each of n dims."""
    if isinstance(value, (tuple, list)):
        if name is not None and len(value) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match "
                               f"the convolution dimensions, but got {name}={list(value)}")
        return tuple(value)
    return (value,) * n


def _onednn(input):
    """Whether PyTorch's CPU convolution takes its oneDNN path (float32, batch > 1), whose
    error texts differ."""
    return input.dtype.name == "float32" and input.shape[0] > 1


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
    stride, padding = _tuple(stride, n, "stride"), _tuple(padding, n, "padding")
    output_padding, dilation = _tuple(output_padding, n, "output_padding"), _tuple(dilation, n, "dilation")
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
