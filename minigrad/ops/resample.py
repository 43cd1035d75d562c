"""Resampling (``F.interpolate``, ``nn.Upsample``): an image made larger or smaller.

Every mode works one resized dim at a time (the width, then the height), and along a dim
every output element reads the input at a *source* position computed from its index:

- nearest: the element at floor(i * scale), scale = in / out (or 1 / scale_factor);
- nearest-exact: the element at floor((i + 0.5) * scale), the centre's nearest;
- linear: the two elements around (i + 0.5) * scale - 0.5 (align_corners=False: pixels
  as squares, their centres lined up) or i * (in - 1) / (out - 1) (align_corners=True: the
  corner pixels lined up), weighted by how near each is. Bilinear is linear along the
  height of the rows made linear along the width.

So along one dim the output is ``x[i0] * l0 + x[i1] * l1`` (nearest: ``x[i0]``), a *plan*
(i0, l0, i1, l1) per dim, computed below as PyTorch computes it (float32 arithmetic for
the source index, so that the same elements are picked). Backward sends each output's
gradient back to the elements it read, times their weights: ``index_add``.
"""
import numpy as np

from .. import _dtype
from ..core.function import Op


def nearest_plan(size, out, scale, exact):
    """(i0, None, None, None): the source of each output element. ``scale`` is the given
    scale_factor (None: in / out); PyTorch computes in float32."""
    dst = np.arange(out)
    if not exact and out == size:
        return dst, None, None, None
    if not exact and out == 2 * size:
        return dst >> 1, None, None, None
    ratio = np.float32(1.0 / scale) if scale else np.float32(size) / np.float32(out)
    src = ((dst + 0.5) * np.float64(ratio)).astype(np.float32) if exact else dst.astype(np.float32) * ratio
    return np.minimum(np.floor(src).astype(np.int64), size - 1), None, None, None


def linear_plan(size, out, scale, align_corners, dtype):
    """(i0, l0, i1, l1): the two neighbours of each output element's source position and
    their weights (l0 + l1 = 1), in the input's float type, as PyTorch's kernel."""
    t = dtype.type
    dst = np.arange(out)
    if out == size:  # a copy
        return dst, np.ones(out, dtype), dst, np.zeros(out, dtype)
    if align_corners:
        ratio = t(size - 1) / t(out - 1) if out > 1 else t(0)
        real = ratio * dst.astype(dtype)
    else:
        ratio = t(1.0 / scale) if scale else t(size) / t(out)
        real = np.maximum(ratio * (dst.astype(dtype) + t(0.5)) - t(0.5), t(0))  # (clamped at the first)
    i0 = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), size - 1)
    l1 = np.clip(real - i0, 0, 1).astype(dtype)
    return i0, (t(1) - l1).astype(dtype), i0 + (i0 < size - 1), l1


def _along(weights, axis):
    """Weights of one dim, shaped to multiply along ``axis`` (-1 or -2) of an array."""
    return weights if axis == -1 else weights[:, None]


class Resample(Op):
    """The output: along each resized dim (the last len(plans)), the elements of each
    output position's plan, weighted. The subclasses give PyTorch's node names."""

    @staticmethod
    def forward(ctx, x, plans):
        ctx.plans, ctx.shape = plans, x.shape
        for axis in range(-1, -len(plans) - 1, -1):  # the width first, as PyTorch's kernel
            i0, l0, i1, l1 = plans[axis]
            if l0 is None:
                x = np.take(x, i0, axis)
            else:
                x = np.take(x, i0, axis) * _along(l0, axis) + np.take(x, i1, axis) * _along(l1, axis)
        return x

    @staticmethod
    def backward(ctx, grad):
        plans, shape = ctx.plans, ctx.shape
        for axis in range(-len(plans), 0):  # the height first: the forward's steps in reverse
            i0, l0, i1, l1 = plans[axis]
            size = list(grad.shape)
            size[axis] = shape[axis]  # the input's size along this dim, the rest as they are now
            index = grad.new_tensor(i0, dtype=_dtype.int64)
            if l0 is None:  # each output's gradient to its source (added, where several share one)
                grad = grad.new_zeros(size).index_add(axis, index, grad)
            else:
                grad = (grad.new_zeros(size).index_add(axis, index, grad * grad.new_tensor(_along(l0, axis)))
                        .index_add(axis, grad.new_tensor(i1, dtype=_dtype.int64),
                                   grad * grad.new_tensor(_along(l1, axis))))
        return grad, None


class UpsampleNearest1d(Resample):
    node_name = "UpsampleNearest1DBackward0"


class UpsampleNearest2d(Resample):
    node_name = "UpsampleNearest2DBackward0"


class UpsampleNearestExact1d(Resample):
    node_name = "UpsampleNearestExact1DBackward0"


class UpsampleNearestExact2d(Resample):
    node_name = "UpsampleNearestExact2DBackward0"


class UpsampleLinear1d(Resample):
    node_name = "UpsampleLinear1DBackward0"


class UpsampleBilinear2d(Resample):
    node_name = "UpsampleBilinear2DBackward0"


# -- padding by reflection or replication: a gather along each padded dim ------------------------
class ReflectionPad1d(Resample):
    node_name = "ReflectionPad1DBackward0"


class ReflectionPad2d(Resample):
    node_name = "ReflectionPad2DBackward0"


class ReflectionPad3d(Resample):
    node_name = "ReflectionPad3DBackward0"


class ReplicationPad1d(Resample):
    node_name = "ReplicationPad1DBackward0"


class ReplicationPad2d(Resample):
    node_name = "ReplicationPad2DBackward0"


class ReplicationPad3d(Resample):
    node_name = "ReplicationPad3DBackward0"


def pad_plan(size, left, right, reflect):
    """The source of every element of a dim padded by ``left`` and ``right`` (negative: cut):
    reflected about the first and last element (abc -> cbabcba), or the edge repeated."""
    j = np.arange(-left, size + right)
    if reflect:
        j = np.abs(j)
        return np.where(j > size - 1, 2 * (size - 1) - j, j), None, None, None
    return np.clip(j, 0, size - 1), None, None, None


# -- pixel shuffle: channels to space and back ---------------------------------------------------
class PixelShuffle(Op):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r): each pixel's r*r channels of a group become an
    r x r block. A reshape and a transpose; its backward is the inverse, PixelUnshuffle."""
    node_name = "PixelShuffleBackward0"

    @staticmethod
    def forward(ctx, x, r):
        ctx.r = r
        *lead, c, h, w = x.shape
        x = x.reshape(*lead, c // (r * r), r, r, h, w)
        n = len(lead)
        x = x.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)  # (*, C, H, r, W, r)
        return x.reshape(*lead, c // (r * r), h * r, w * r)

    @staticmethod
    def backward(ctx, grad):
        return PixelUnshuffle.apply(grad, ctx.r), None


class PixelUnshuffle(Op):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W): each r x r block becomes r*r channels."""
    node_name = "PixelUnshuffleBackward0"

    @staticmethod
    def forward(ctx, x, r):
        ctx.r = r
        *lead, c, h, w = x.shape
        x = x.reshape(*lead, c, h // r, r, w // r, r)
        n = len(lead)
        x = x.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)  # (*, C, r, r, H, W)
        return x.reshape(*lead, c * r * r, h // r, w // r)

    @staticmethod
    def backward(ctx, grad):
        return PixelShuffle.apply(grad, ctx.r), None
