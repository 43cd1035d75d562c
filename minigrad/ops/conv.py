"""Convolution and pooling, the ops of a small CNN: im2col and a matrix product.

One idea carries every op here. *Unfold* the input (im2col): for every output position,
gather the kh*kw values (per channel) that the kernel's window sees there. Then

- a convolution is one matrix product, weights (out, C*kh*kw) @ columns (C*kh*kw, positions);
- max pooling takes the largest value of each window, average pooling their mean.

Backward goes the other way. *Fold* (col2im) puts each column's gradient back where its
values came from, adding where windows overlap. Fold is unfold's adjoint, so each is the
other's backward; both are ops too (``Unfold``, ``Fold``), and the backwards below are
written with them and Tensor ops, so they can be differentiated again (``create_graph``).

A window (``Window``) has a ``kernel`` (kh, kw), moves by ``stride``, reads every
``dilation``-th element, and runs over the input padded by ``padding`` on each side; ``out``
is the number of positions (oh, ow). Arrays are (N, C, H, W).
"""
from typing import NamedTuple

import numpy as np

from ..core.function import Op
from .index import Gather, ScatterAdd


class Window(NamedTuple):
    kernel: tuple
    stride: tuple
    padding: tuple
    dilation: tuple
    out: tuple


def out_size(size, kernel, stride, padding, dilation, ceil_mode=False):
    """How many positions a window takes along one dim (PyTorch's formula). ``ceil_mode``
    keeps a last, partial window, unless it would start in the right padding."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1  # room for the window's first element
    n = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (n - 1) * stride >= size + padding:
        n -= 1
    return n


def _padded_size(size, w):
    """(rows, cols) of the padded input: ``padding`` on top and left, and below and right
    as far as the last window reaches (at least ``padding``; more for ceil_mode's partial
    window or 'same' padding's odd total)."""
    return tuple(max(n + 2 * p, (o - 1) * s + (k - 1) * d + 1)
                 for n, k, s, p, d, o in zip(size, *w))


def _padded(x, w, fill):
    """x inside a border of ``fill`` (0; for max pooling, a value that never wins)."""
    size = _padded_size(x.shape[2:], w)
    if size == x.shape[2:]:
        return x
    (ph, pw), (h, wd) = w.padding, x.shape[2:]
    out = np.full(x.shape[:2] + size, fill, dtype=x.dtype)
    out[:, :, ph:ph + h, pw:pw + wd] = x
    return out


def _offsets(w):
    """For each element (i, j) of the kernel, the slices of the padded input it reads at
    every output position: the same element of every window, one strided slice."""
    (kh, kw), (sh, sw), _, (dh, dw), (oh, ow) = w
    for i in range(kh):
        for j in range(kw):
            yield i, j, (slice(i * dh, i * dh + (oh - 1) * sh + 1, sh),
                         slice(j * dw, j * dw + (ow - 1) * sw + 1, sw))


def unfold(x, w, fill=0):
    """im2col: (N, C, kh, kw, oh, ow), where ``[n, c, i, j]`` holds what kernel element
    (i, j) sees at every output position. One copy, filled kh*kw slices at a time."""
    xp = _padded(x, w, fill)
    cols = np.empty(x.shape[:2] + w.kernel + w.out, dtype=x.dtype)
    for i, j, (rows, cs) in _offsets(w):
        cols[:, :, i, j] = xp[:, :, rows, cs]
    return cols


def fold(cols, shape, w):
    """col2im, unfold's adjoint: add each column back where its values came from, then
    drop the padding."""
    (ph, pw), (h, wd) = w.padding, shape[2:]
    xp = np.zeros(tuple(shape[:2]) + _padded_size(shape[2:], w), dtype=cols.dtype)
    for i, j, (rows, cs) in _offsets(w):
        xp[:, :, rows, cs] += cols[:, :, i, j]
    return xp[:, :, ph:ph + h, pw:pw + wd]


class Unfold(Op):
    node_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx, x, w):
        ctx.shape, ctx.window = x.shape, w
        return unfold(x, w)

    @staticmethod
    def backward(ctx, grad):
        return Fold.apply(grad, ctx.shape, ctx.window), None


class Fold(Op):
    node_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx, cols, shape, w):
        ctx.window = w
        return fold(cols, shape, w)

    @staticmethod
    def backward(ctx, grad):
        return Unfold.apply(grad, ctx.window), None, None


class Im2Col(Op):
    """``F.unfold``: Unfold's columns as PyTorch lays them out, (N, C*kh*kw, L) (or, for one
    sample, (C*kh*kw, L)); its backward is Col2Im."""
    node_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx, x, w):
        ctx.window, ctx.size = w, x.shape[-2:]
        x4 = x.reshape((-1,) + x.shape[-3:])
        return unfold(x4, w).reshape(x.shape[:-3] + (-1, w.out[0] * w.out[1]))

    @staticmethod
    def backward(ctx, grad):
        return Col2Im.apply(grad, ctx.size, ctx.window), None


class Col2Im(Op):
    """``F.fold``: columns (N, C*kh*kw, L) added into an (N, C, H, W) image (``size`` (H, W));
    its backward is Im2Col."""
    node_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx, cols, size, w):
        ctx.window = w
        n = cols.shape[0] if cols.ndim == 3 else 1
        c = cols.shape[-2] // (w.kernel[0] * w.kernel[1])
        out = fold(cols.reshape((n, c) + w.kernel + w.out), (n, c) + tuple(size), w)
        return out if cols.ndim == 3 else out[0]

    @staticmethod
    def backward(ctx, grad):
        return Im2Col.apply(grad, ctx.window), None, None


# ---------------------------------------------------------------------------------------------
# Convolution
# ---------------------------------------------------------------------------------------------


class Convolution(Op):
    """``conv2d``: out[n, o] = bias[o] + sum over c, i, j of weight[o, c, i, j] * window[c, i, j].
    With ``groups`` g, the channels split into g groups, each convolved with its own
    out/g filters: one matrix product per group (a batch of them). A weight of 3 dims
    (O, C/g, k) is ``conv1d``'s: its input (N, C, L) is treated as (N, C, 1, L)."""
    node_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, w, groups):
        ctx.save_for_backward(x, weight)
        ctx.window, ctx.groups, ctx.shape = w, groups, x.shape
        conv1d = weight.ndim == 3
        if conv1d:  # a conv2d of height 1
            x, weight = x[:, :, None], weight[:, :, None]
        n, o, g = x.shape[0], weight.shape[0], groups
        cols = unfold(x, w).reshape(n, g, -1, w.out[0] * w.out[1])  # (N, g, C/g*kh*kw, oh*ow)
        out = weight.reshape(g, o // g, -1) @ cols  # (N, g, O/g, oh*ow)
        out = out.reshape((n, o) + w.out)
        if bias.size:  # (no bias comes as an empty array)
            out += bias[:, None, None]
        return out[:, :, 0] if conv1d else out

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        w, g = ctx.window, ctx.groups
        n, o = grad.shape[:2]
        shape4 = (n, x.shape[1], 1, x.shape[2]) if x.dim() == 3 else tuple(x.shape)
        grad = grad.reshape(n, g, o // g, -1)  # (N, g, O/g, oh*ow)
        kernel = weight.reshape(g, o // g, -1)  # (g, O/g, C/g*kh*kw)
        grad_x = grad_w = grad_b = None
        if ctx.needs_input_grad[0]:  # each column's gradient, folded back onto the input
            grad_cols = (kernel.transpose(1, 2) @ grad).reshape((n, shape4[1]) + w.kernel + w.out)
            grad_x = Fold.apply(grad_cols, shape4, w).reshape(ctx.shape)
        if ctx.needs_input_grad[1]:  # the columns again (x's, so differentiable), times grad
            cols = Unfold.apply(x.reshape(shape4), w).reshape(n, g, kernel.shape[2], -1)
            grad_w = (grad @ cols.transpose(2, 3)).sum(0).reshape(weight.shape)
        if ctx.needs_input_grad[2]:
            grad_b = grad.sum((0, 3)).reshape(o)
        return grad_x, grad_w, grad_b, None, None


class ConvolutionTranspose(Op):
    """``conv_transpose2d``: conv2d's backward run forwards. Each input pixel scatters
    weight[c] * x[n, c, pixel] (an (out/g, kh, kw) patch per channel) into the output, where
    the window of a conv2d of the output would read it: one matrix product makes the patches
    (columns), ``fold`` adds them up. ``w.out`` is the input's size (the windows' count).
    Weight (C, O/g, kh, kw); a weight of 3 dims is ``conv_transpose1d``'s (a height of 1)."""
    node_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, w, groups, shape):
        ctx.save_for_backward(x, weight)
        ctx.window, ctx.groups, ctx.out_shape = w, groups, shape
        conv1d = weight.ndim == 3
        if conv1d:
            x, weight = x[:, :, None], weight[:, :, None]
        n, c, g = x.shape[0], x.shape[1], groups
        kernel = weight.reshape(g, c // g, -1)  # (g, C/g, O/g*kh*kw)
        cols = kernel.transpose(0, 2, 1) @ x.reshape(n, g, c // g, -1)  # (N, g, O/g*kh*kw, h*w)
        o = weight.shape[1] * g
        out = fold(cols.reshape((n, o) + w.kernel + w.out), (n, o) + shape[-2:], w)
        if bias.size:
            out += bias[:, None, None]
        return out[:, :, 0] if conv1d else out

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        w, g = ctx.window, ctx.groups
        n, c = x.shape[:2]
        grad4 = grad.reshape((n, grad.shape[1]) + ctx.out_shape[-2:])
        # the output's gradient, read by windows: a conv2d of it with the same weight
        cols = Unfold.apply(grad4, w).reshape(n, g, -1, w.out[0] * w.out[1])  # (N, g, O/g*kh*kw, h*w)
        kernel = weight.reshape(g, c // g, -1)
        grad_x = grad_w = grad_b = None
        if ctx.needs_input_grad[0]:
            grad_x = (kernel @ cols).reshape(x.shape)
        if ctx.needs_input_grad[1]:
            grad_w = (x.reshape(n, g, c // g, -1) @ cols.transpose(2, 3)).sum(0).reshape(weight.shape)
        if ctx.needs_input_grad[2]:
            grad_b = grad4.sum((0, 2, 3))
        return grad_x, grad_w, grad_b, None, None, None


# ---------------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------------


def max_pool_indices(x, w):
    """Where each window's maximum is, as a flat index into H*W (what ``return_indices``
    gives). As in PyTorch, the first maximum wins, and the last NaN over any number."""
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min  # padding never wins
    (kh, kw), (sh, sw), (ph, pw), (dh, dw), (oh, ow) = w
    wd = x.shape[3]
    # ``k``: which kernel element (e = i * kw + j) holds the maximum. It starts at each
    # window's first element inside the input, where PyTorch starts (a window of -inf points
    # there), then the kernel's elements come in turn, each the same element of every window
    # (one strided slice, copied to be read fast), against the largest value so far.
    # (An argmax over the unfolded windows reads a short axis with a stride: many times slower.)
    first_i = np.maximum(-((np.arange(oh) * sh - ph) // dh), 0)  # ceil((ph - row) / dh), at least 0
    first_j = np.maximum(-((np.arange(ow) * sw - pw) // dw), 0)
    k = np.empty(x.shape[:2] + (oh, ow), np.int32)
    k[...] = first_i[:, None] * kw + first_j
    best = np.full(k.shape, fill, x.dtype)
    xp, offsets = _padded(x, w, fill), []
    for e, (i, j, (rows, cols)) in enumerate(_offsets(w)):
        offsets.append(i * dh * wd + j * dw)  # where element (i, j) is, from the window's corner
        seen = np.ascontiguousarray(xp[:, :, rows, cols])
        wins = seen > best  # strictly greater: the first maximum stays
        if x.dtype.kind == "f":  # a NaN beats anything, even a NaN before it (PyTorch's loop)
            wins |= np.isnan(seen)
        np.maximum(best, seen, out=best)  # (where it is NaN, best is NaN from then on)
        # e where it wins: only an element inside the input wins, and those come no sooner
        # than where k starts, so e is the largest k yet
        np.maximum(k, wins * np.int32(e), out=k)
    corner = (np.arange(oh)[:, None] * sh - ph) * wd + np.arange(ow) * sw - pw
    return corner + np.take(offsets, k)


class MaxPool2d(Gather):
    """The maximum of each window: x picked at ``indices`` (from ``max_pool_indices``);
    its gradient goes to the picked elements only (added, where windows share one).
    Input (N, C, H, W) or one sample (C, H, W)."""
    node_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(ctx, x, indices):
        lead = x.shape[:-2]  # (N, C) or (C,): the picks are along H*W, flattened
        out = Gather.forward(ctx, x.reshape(lead + (-1,)), len(lead), indices.reshape(lead + (-1,)))
        ctx.save_for_backward(indices.reshape(lead + (-1,)), x)
        return out.reshape(indices.shape)

    @staticmethod
    def backward(ctx, grad):
        indices, x = ctx.saved_tensors
        flat = ScatterAdd.apply(grad.new_zeros(ctx.shape), ctx.dim, indices, grad.reshape(indices.shape))
        return MaxPool2dGrad.apply(flat.reshape(x.shape), x), None


class PoolGrad(Op):
    """A pool's gradient, as its backward computed it, recorded as a function of the pool's
    input x too, as PyTorch's ``avg_pool2d_backward(grad, self)`` is: with
    ``create_graph=True`` it requires grad where x does (its slope in x is 0)."""

    @staticmethod
    def forward(ctx, g, x):
        ctx.x_shape = x.shape
        return g

    @staticmethod
    def backward(ctx, gg):
        return gg, gg.new_zeros(ctx.x_shape)


class MaxPool2dGrad(PoolGrad):
    node_name = "MaxPool2DWithIndicesBackwardBackward0"


def adaptive_max_indices(x, out):
    """Where the maximum of each adaptive window (``adaptive_matrix``'s windows) is, as a flat
    index into H*W. As in PyTorch, the first maximum wins, and the last NaN over any number."""
    (h, w), (oh, ow) = x.shape[-2:], out
    indices = np.empty(x.shape[:-2] + out, np.int64)
    for i in range(oh):
        top, bottom = i * h // oh, -(-(i + 1) * h // oh)
        for j in range(ow):
            left, right = j * w // ow, -(-(j + 1) * w // ow)
            window = x[..., top:bottom, left:right].reshape(x.shape[:-2] + (-1,))
            k = window.argmax(-1)  # the first maximum (or the first NaN)
            if x.dtype.kind == "f":
                nan = np.isnan(window)
                k = np.where(nan.any(-1), nan.shape[-1] - 1 - nan[..., ::-1].argmax(-1), k)
            indices[..., i, j] = (top + k // (right - left)) * w + left + k % (right - left)
    return indices


class AdaptiveMaxPool2d(MaxPool2d):
    """Max pooling to a given output size: x picked at ``adaptive_max_indices``, as
    MaxPool2d picks, with PyTorch's names for its nodes."""
    node_name = "AdaptiveMaxPool2DBackward0"

    @staticmethod
    def backward(ctx, grad):
        indices, x = ctx.saved_tensors
        flat = ScatterAdd.apply(grad.new_zeros(ctx.shape), ctx.dim, indices, grad.reshape(indices.shape))
        return AdaptiveMaxPool2dGrad.apply(flat.reshape(x.shape), x), None


class AdaptiveMaxPool2dGrad(PoolGrad):
    node_name = "AdaptiveMaxPool2DBackwardBackward0"


def avg_pool_divisor(size, w, count_include_pad):
    """(oh, ow): how many elements each window's sum is divided by. A window ends at the
    padded edge (ceil_mode's last one may be cut short); without ``count_include_pad`` only
    the input's own elements count."""
    def counts(size, k, s, p, out):
        start = np.arange(out) * s - p
        end = np.minimum(start + k, size + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, size)
        return end - start
    return np.outer(*[counts(*args) for args in zip(size, w.kernel, w.stride, w.padding, w.out)])


class AvgPool2d(Op):
    """The mean of each window: the columns summed, divided by ``divisor`` (each window's
    count). Backward spreads each output's gradient / divisor evenly over its window.
    Input (N, C, H, W) or one sample (C, H, W)."""
    node_name = "AvgPool2DBackward0"

    @staticmethod
    def forward(ctx, x, w, divisor):
        ctx.shape, ctx.window, ctx.divisor = x.shape, w, divisor
        ctx.save_for_backward(x)
        x4 = x.reshape((-1,) + x.shape[-3:])  # one sample: a batch of one
        out = (unfold(x4, w).sum((2, 3)) / divisor).astype(x.dtype, copy=False)
        return out.reshape(x.shape[:-2] + w.out)

    @staticmethod
    def backward(ctx, grad):
        w, shape = ctx.window, ctx.shape
        share = (grad / grad.new_tensor(ctx.divisor)).reshape((-1, shape[-3], 1, 1) + w.out)
        cols = share.expand(share.shape[:2] + w.kernel + w.out)
        return AvgPool2dGrad.apply(Fold.apply(cols, (cols.shape[0],) + shape[-3:], w).reshape(shape),
                                   ctx.saved_tensors[0]), None, None


class AvgPool2dGrad(PoolGrad):
    node_name = "AvgPool2DBackwardBackward0"


def adaptive_matrix(size, out):
    """(out, size): row i averages input elements floor(i*size/out) to ceil((i+1)*size/out),
    PyTorch's windows; so pooling is ``A_h @ x @ A_w.T``."""
    a = np.zeros((out, size))
    for i in range(out):
        start, end = i * size // out, -(-(i + 1) * size // out)
        a[i, start:end] = 1 / (end - start)
    return a


class AdaptiveAvgPool2d(Op):
    """Average pooling to a given output size, with windows as even as the sizes allow:
    two small averaging matrices, one for the rows and one for the columns."""
    node_name = "AdaptiveAvgPool2DBackward0"

    @staticmethod
    def forward(ctx, x, out):
        ah, aw = (adaptive_matrix(s, o).astype(x.dtype) for s, o in zip(x.shape[-2:], out))
        ctx.ah, ctx.aw = ah, aw
        ctx.save_for_backward(x)
        return ah @ x @ aw.T

    @staticmethod
    def backward(ctx, grad):
        g = grad.new_tensor(ctx.ah.T) @ grad @ grad.new_tensor(ctx.aw)
        return AdaptiveAvgPool2dGrad.apply(g, ctx.saved_tensors[0]), None


class AdaptiveAvgPool2dGrad(PoolGrad):
    node_name = "AdaptiveAvgPool2DBackwardBackward0"
