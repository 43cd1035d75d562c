"""The ops behind minigrad.nn: softmax, losses, normalisation, embedding, the LSTM layer.

Some have their own backward op (``LogSoftmaxBackwardData``, ``NllLossBackward``,
``ThresholdBackward`` in pointwise.py), as PyTorch has: then differentiating the backward
again (``create_graph=True``) records nodes with PyTorch's names.

Also: Softmax, LogSoftmax, LogSoftmaxBackwardData, MseLoss in minigrad/core/ops/nn.py (the
core's, imported here).
"""
import numpy as np

from ..core import grad_mode
from ..core.function import Op
from .index import Gather, IndexPut
from .join import Cat, Stack
from ..core.ops.nn import (  # noqa: F401 (the core's: minigrad/core/ops/)
    LogSoftmax, LogSoftmaxBackwardData, MseLoss, Softmax)


# ---------------------------------------------------------------------------------------------
# Softmax
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------------


def _class_index(target, axis):
    """The index that picks, at each position of ``target``, its class along ``axis``: for
    (N, C) scores ``(arange(N), target)``; for (N, C, H, W) ``(n, target, h, w)``, the
    coordinates broadcasting against each other. (Plain fancy indexing: cheaper than
    ``np.take_along_axis``, which builds the same index with several helper calls.)"""
    if target.ndim == 1 and axis == 1:  # (N, C) scores, the common case: one arange, no reshape
        return np.arange(target.shape[0]), target
    coords = []  # (a loop: a comprehension would make target a cell in every call)
    for d, n in enumerate(target.shape):
        coords.append(np.arange(n).reshape((-1,) + (1,) * (target.ndim - 1 - d)))
    return (*coords[:axis], target, *coords[axis:])


def _picks(target, weight, keep, dtype):
    """The class each position picks (an ignored one: class 0, any class would do) and each
    position's weight: the class weight, 0 where ignored (``keep`` False; None: none is), or
    None when every weight is 1."""
    if keep is None:
        return target, None if weight is None else weight[target].astype(dtype, copy=False)
    classes = np.where(keep, target, 0)
    if weight is None:
        return classes, keep.astype(dtype)
    return classes, (weight[classes] * keep).astype(dtype, copy=False)


class NllLoss(Op):
    """``-input[n, target[n]]``: minus the log-probability given to each target class,
    with classes along dim 1 (dim 0 for a single sample), times the class ``weight``.
    ``"mean"`` divides the sum by the total weight; a target equal to ``ignore_index``
    counts for nothing. ``target`` (a tensor) and ``weight`` (an array) get no gradient."""
    node_name = "NllLossBackward0"
    _non_differentiable = (1,)  # the target

    @staticmethod
    def forward(ctx, input, target, weight, reduction, ignore_index):
        axis = 0 if input.ndim == 1 else 1
        # ignore_index None: nll_loss found that no target can be ignored (the common case)
        keep = None if ignore_index is None else target != ignore_index
        kept = target.size if keep is None else np.count_nonzero(keep)
        keep = None if kept == target.size else keep  # None: no target ignored
        classes, w = _picks(target, weight, keep, input.dtype)
        index = _class_index(classes, axis)
        losses = -input[index] if weight is None else -input[index] * w  # -0. where w is 0, as in PyTorch
        if keep is not None:  # an ignored position counts for nothing: 0., even where its class 0 holds inf
            losses = np.where(keep, losses, 0.0).astype(input.dtype, copy=False)
        if input.ndim == 1:  # PyTorch computes a single sample's loss as 0 - x * w: 0., never -0.
            losses += 0.0
        # The total weight; without weights the count, rounded to the dtype as w.sum() would be.
        total = w.sum(dtype=input.dtype) if weight is not None else input.dtype.type(kept)
        # What PyTorch's node keeps: input (backward does not read it) and target (changing
        # either in place is an error), the total weight, the class weights.
        ctx.save_for_backward(input, target, np.asarray(total), weight)
        ctx.keep, ctx.shape, ctx.axis = keep, input.shape, axis
        ctx.reduction, ctx.ignore_index = reduction, ignore_index
        if reduction == "none":
            return losses
        return losses.sum() / float(total) if reduction == "mean" else losses.sum()

    @staticmethod
    def backward(ctx, grad):
        input, target, total, weight = ctx.saved_tensors
        op = NllLoss2dBackward if ctx._function is NllLoss2d else NllLossBackward  # (PyTorch's two names)
        return (op.apply(grad, input, target, None if weight is None else weight._data, total._data, ctx),
                None, None, None, None)


class NllLossBackward(Op):
    """nll_loss's backward, one op as in PyTorch: only the picked log-probabilities reach
    the loss, so the gradient is zero but at each position's target class, where it is
    ``-weight * grad`` (over the total weight for the mean), and zero again where the target
    is ignored. ``input`` is an input as in PyTorch (its gradient is zero). ``loss``: the
    NllLoss node, whose settings (and op, for double backward) it takes."""
    node_name = "NllLossBackwardBackward0"
    _non_differentiable = (2,)  # the target

    @staticmethod
    def forward(ctx, grad, input, target, weight, total, loss):
        ctx.save_for_backward(target, weight)  # as PyTorch's node
        ctx.loss_op, ctx.keep, ctx.axis = loss._function, loss.keep, loss.axis
        ctx.reduction, ctx.ignore_index = loss.reduction, loss.ignore_index
        # 1 / total weight for the mean (inf when every target is ignored: the loss is NaN)
        scale = (1 / float(total) if total else np.inf) if loss.reduction == "mean" else 1.0
        classes, w = _picks(target, weight, loss.keep, grad.dtype)
        out = np.zeros(input.shape, dtype=grad.dtype)
        picked = -(grad * scale) if w is None else -w * (grad * scale)
        # (PyTorch skips an ignored target: 0 there, even when scale is inf)
        keep = loss.keep
        out[_class_index(classes, loss.axis)] = picked if keep is None else np.where(keep, picked, 0.0)
        return out

    @staticmethod
    def backward(ctx, gg):  # only for create_graph. The op is linear in grad: it is nll_loss again
        target, weight = ctx.saved_tensors
        grad = ctx.loss_op.apply(gg, target._data, None if weight is None else weight._data, ctx.reduction,
                                 ctx.ignore_index) if ctx.needs_input_grad[0] else None
        zeros = gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None  # zeros_like(grad), as PyTorch
        return grad, zeros, None, None, None, None


class NllLoss2d(NllLoss):
    node_name = "NllLoss2DBackward0"  # PyTorch's name for inputs with spatial dims (N, C, H, W)


class NllLoss2dBackward(NllLossBackward):
    node_name = "NllLoss2DBackwardBackward0"


# ---------------------------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------------------------


class NativeBatchNorm(Op):
    """Batch normalisation in one node, as PyTorch records it. Each channel (dim 1) is
    normalised with ``mean`` and ``invstd`` (1 / standard deviation), then scaled by
    ``weight`` and shifted by ``bias``. ``training``: the statistics are the batch's own,
    so they depend on x too, and backward must account for that."""
    node_name = "NativeBatchNormBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, mean, invstd, training, eps, running):
        # ``running``: (running_mean, running_var), or None; a tuple, not two tensor arguments,
        # because PyTorch's node has no edge to them (next_functions: input, weight, bias).
        running_mean, running_var = running or (None, None)
        ctx.training, ctx.eps = training, eps
        # What PyTorch's node saves (its _saved_* names, and what saved_tensors_hooks see): the
        # input, the weight, the running statistics, and the batch's mean and 1/std per channel
        # (result1, result2: empty in evaluation, which uses the running statistics).
        if training:
            result1, result2 = mean.reshape(-1), invstd.reshape(-1)
        else:
            result1 = result2 = np.empty(0, x.dtype)
            if running_mean is None:  # (instance norm's tiled statistics)
                ctx.stats = mean, invstd
        ctx.save_for_backward(x, weight, running_mean, running_var, result1, result2)
        out = (x - mean) * invstd
        if weight is not None:
            out = out * weight.reshape(mean.shape)
        if bias is not None:
            out = out + bias.reshape(mean.shape)
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, weight, running_mean, running_var = ctx.saved_tensors[:4]
        dims = (0,) + tuple(range(2, x.dim()))  # every dim but the channels
        shape = (1, -1) + (1,) * (x.dim() - 2)  # per-channel values, lined up with x
        if ctx.training:  # recompute the statistics from x with tensor ops: differentiable again
            centred = x - x.mean(dims, keepdim=True)
            invstd = ((centred * centred).mean(dims, keepdim=True) + ctx.eps) ** -0.5
            x_hat = centred * invstd
        elif running_mean is not None:  # the running statistics as they are now, as PyTorch reads them
            mean, invstd = running_mean.reshape(shape), (running_var.reshape(shape) + ctx.eps) ** -0.5
            x_hat = (x - mean) * invstd
        else:
            mean, invstd = ctx.stats
            x_hat = (x - mean) * invstd
        g = grad if weight is None else grad * weight.reshape(shape)
        if ctx.training:
            # The mean and the variance move with every element: subtract their share.
            grad_x = invstd * (g - g.mean(dims, keepdim=True) - x_hat * (g * x_hat).mean(dims, keepdim=True))
        else:
            grad_x = g * invstd
        grad_w = (grad * x_hat).sum(dims) if weight is not None and ctx.needs_input_grad[1] else None
        grad_b = grad.sum(dims) if ctx.needs_input_grad[2] else None
        return grad_x, grad_w, grad_b, None, None, None, None, None


class NativeLayerNorm(Op):
    """Layer normalisation in one node, as PyTorch records it: each sample is normalised
    over its last ``ndim`` dims (its features) to mean 0 and variance 1, then scaled by
    ``weight`` and shifted by ``bias`` (of the features' shape). Unlike batch norm, no
    statistics cross the batch, so training and evaluation compute the same."""
    node_name = "NativeLayerNormBackward0"

    @staticmethod
    def forward(ctx, x, ndim, weight, bias, eps):
        dims = tuple(range(x.ndim - ndim, x.ndim))
        mean = x.mean(dims, keepdims=True)
        invstd = 1 / np.sqrt(x.var(dims, keepdims=True) + eps)  # the biased variance: divide by n
        ctx.save_for_backward(x, weight)
        ctx.dims, ctx.eps = dims, eps
        return ((x - mean) * invstd * weight + bias).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        dims = ctx.dims
        # The statistics again, with tensor ops, so that this backward is differentiable too.
        centred = x - x.mean(dims, keepdim=True)
        invstd = ((centred * centred).mean(dims, keepdim=True) + ctx.eps) ** -0.5
        x_hat = centred * invstd
        g = grad * weight
        # Each sample's mean and variance move with each of its features: subtract their share.
        grad_x = invstd * (g - g.mean(dims, keepdim=True) - x_hat * (g * x_hat).mean(dims, keepdim=True))
        batch = tuple(range(x.dim() - len(dims)))  # the leading dims, summed over for the affine grads
        grad_w = (grad * x_hat).sum(batch) if ctx.needs_input_grad[2] else None
        grad_b = grad.sum(batch) if ctx.needs_input_grad[3] else None
        return grad_x if ctx.needs_input_grad[0] else None, None, grad_w, grad_b, None


# ---------------------------------------------------------------------------------------------
# Embedding
# ---------------------------------------------------------------------------------------------


class Embedding(Op):
    """``weight[indices]``: row ``i`` of the table is the vector of token ``i``. Backward adds
    each output row's gradient into the row it came from; the ``padding_idx`` row gets
    none, and ``scale_grad_by_freq`` divides each row's gradient by how often it was used."""
    node_name = "EmbeddingBackward0"
    _non_differentiable = (1,)  # the indices

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq):
        ctx.save_for_backward(indices)
        ctx.shape, ctx.padding_idx, ctx.scale = weight.shape, padding_idx, scale_grad_by_freq
        return weight[indices]

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        idx = indices._data
        keep = np.ones(idx.shape, dtype=grad.dtype.np)
        if ctx.padding_idx is not None:
            keep[idx == ctx.padding_idx] = 0
        if ctx.scale:
            counts = np.bincount(idx.ravel(), minlength=ctx.shape[0])
            keep = keep / counts[idx]
        rows = grad * keep[..., None].astype(grad.dtype.np)
        return IndexPut.apply(rows, ctx.shape, idx), None, None, None


# ---------------------------------------------------------------------------------------------
# LSTM layer (oneDNN's, in PyTorch's CPU build)
# ---------------------------------------------------------------------------------------------


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


class MkldnnRnnLayer(Op):
    """One LSTM layer in one direction over a whole sequence, in one node: what PyTorch's CPU
    build runs for a float32 ``nn.LSTM`` (oneDNN's kernel, ``mkldnn_rnn_layer``). Inputs:
    x (seq, batch, input_size), the weights and biases, the initial states h0, c0 (batch,
    hidden); ``reverse`` reads the sequence from its end. Outputs: every step's h (seq, batch,
    hidden), the last h, the last c (outputs 0, 1, 2 of the node). At each step t:
        i, f, g, o = sigmoid, sigmoid, tanh, sigmoid of (x_t W_ih^T + b_ih + h W_hh^T + b_hh)
        c = f * c + i * g,  h = o * tanh(c)"""
    node_name = "MkldnnRnnLayerBackward0"

    @staticmethod
    def forward(ctx, x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse):
        steps = range(len(x) - 1, -1, -1) if reverse else range(len(x))
        x_gates = x @ w_ih.T + b_ih  # the input's part of every step's gates, in one product
        gates = np.empty_like(x_gates)  # each step's i, f, g, o, side by side (backward needs them)
        cells = np.empty(x.shape[:2] + h0.shape[1:], x.dtype)  # each step's c
        out = np.empty_like(cells)  # each step's h
        h, c = h0, c0
        for t in steps:
            i, f, g, o = np.split(x_gates[t] + h @ w_hh.T + b_hh, 4, axis=1)
            i, f, g, o = _sigmoid(i), _sigmoid(f), np.tanh(g), _sigmoid(o)
            c = f * c + i * g
            h = o * np.tanh(c)
            gates[t], cells[t], out[t] = np.concatenate([i, f, g, o], axis=1), c, h
        ctx.reverse = reverse
        ctx.save_for_backward(x, w_ih, w_hh, b_ih, b_hh, h0, c0, out, gates, cells)
        return out, h, c

    @staticmethod
    def backward(ctx, grad_out, grad_h, grad_c):
        """Backpropagation through time: from the last step to the first, the gradients of h and
        c flow back one step at a time; every step's gradient of the gates is kept, and the
        weights' gradients are summed over the steps at the end."""
        x, w_ih, w_hh, b_ih, b_hh, h0, c0, out, gates, cells = ctx.saved_tensors
        steps = range(len(x) - 1, -1, -1) if ctx.reverse else range(len(x))
        # Each step's i, f, g, o, h_prev, c_prev, c: as forward saved them or, with create_graph,
        # computed again with Tensor ops of the inputs, so that this backward is differentiable.
        if grad_mode.is_grad_enabled():
            step = _steps_recorded(x, w_ih, w_hh, b_ih, b_hh, h0, c0, steps)
        else:
            step, h, c = {}, h0, c0
            for t in steps:
                step[t] = (*gates[t].chunk(4, 1), h, c, cells[t])
                h, c = out[t], cells[t]
        dh = x.new_zeros(h0.shape) if grad_h is None else grad_h
        dc = x.new_zeros(c0.shape) if grad_c is None else grad_c
        d_gates = [None] * len(x)
        for t in reversed(steps):
            i, f, g, o, h_prev, c_prev, c = step[t]
            if grad_out is not None:
                dh = dh + grad_out[t]  # h is also the output at t
            tanh_c = c.tanh()
            dc = dc + dh * o * (1 - tanh_c * tanh_c)  # h = o tanh(c)
            d_gates[t] = Cat.apply(1, dc * g * i * (1 - i),  # c = f c_prev + i g, i = sigmoid(.)
                                   dc * c_prev * f * (1 - f),  # f = sigmoid(.)
                                   dc * i * (1 - g * g),  # g = tanh(.)
                                   dh * tanh_c * o * (1 - o))  # o = sigmoid(.)
            dc = dc * f  # on to c_prev
            dh = d_gates[t].matmul(w_hh)  # gates = ... + h_prev W_hh^T: on to h_prev
        d_gates = Stack.apply(0, *d_gates)  # (seq, batch, 4 hidden)
        flat = d_gates.reshape(-1, d_gates.shape[2])  # every (step, sample) a row
        needs = ctx.needs_input_grad
        grad_x = d_gates.matmul(w_ih) if needs[0] else None  # x_gates = x W_ih^T + b_ih
        grad_w_ih = flat.t().matmul(x.reshape(-1, x.shape[2])) if needs[1] else None
        h_prevs = Stack.apply(0, *[step[t][4] for t in range(len(x))]) if needs[2] else None
        grad_w_hh = flat.t().matmul(h_prevs.reshape(-1, h_prevs.shape[2])) if needs[2] else None
        grad_b = flat.sum(0) if needs[3] or needs[4] else None  # both biases are added to the gates
        return grad_x, grad_w_ih, grad_w_hh, grad_b, grad_b, dh, dc, None


def _steps_recorded(x, w_ih, w_hh, b_ih, b_hh, h0, c0, steps):
    """The forward's steps again, with Tensor ops (recorded): each step's i, f, g, o, h_prev,
    c_prev and c, so that the backward that uses them can be differentiated."""
    x_gates, step, h, c = x.matmul(w_ih.t()) + b_ih, {}, h0, c0
    for t in steps:
        i, f, g, o = (x_gates[t] + h.matmul(w_hh.t()) + b_hh).chunk(4, 1)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        c_prev, c = c, f * c + i * g
        step[t] = (i, f, g, o, h, c_prev, c)
        h = o * c.tanh()
    return step
