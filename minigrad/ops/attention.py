"""The ops behind attention and group normalisation (minigrad/nn/_functional_attention.py).

``ScaledDotProductFlashAttentionForCpu`` is ``softmax(q k^T * scale + mask) v`` in one node,
as PyTorch's CPU kernel records it; ``SafeSoftmax`` is the softmax of PyTorch's composite
("math") attention, which gives 0, not NaN, to a row that every position is masked out of;
``FlashAttentionGrad`` its gradients (which, as in PyTorch, cannot be differentiated again);
``NativeGroupNorm`` is ``F.group_norm`` in one node.
"""
import numpy as np

from ..core.function import Op
from .nn import Softmax


def _softmax_rows(scores):
    """Softmax along the last dim; a row of -inf (nothing to attend to) gives zeros."""
    top = scores.max(axis=-1, keepdims=True, initial=-np.inf)
    e = np.exp(scores - np.where(np.isfinite(top), top, 0))
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total == 0, 1, total)


class SafeSoftmax(Softmax):
    """``softmax`` along ``dim``, except that a row of only -inf gives zeros (PyTorch's
    ``_safe_softmax``). Its backward is softmax's: a zero row gets a zero gradient."""
    node_name = "SafeSoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        out = np.moveaxis(_softmax_rows(np.moveaxis(np.asarray(x, order="C"), dim, -1)), -1, dim)
        out = np.ascontiguousarray(out).astype(x.dtype, copy=False)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out


class ScaledDotProductFlashAttentionForCpu(Op):
    """``softmax(q k^T * scale + mask) v`` for (batch, heads, length, features) inputs, in
    one node. ``mask`` is a NumPy array added to the scores (-inf where a bool mask was False;
    not a differentiable input, as in PyTorch's kernel). With fewer key/value heads than query
    heads (``enable_gqa``), each key/value head serves a group of consecutive query heads.
    As in PyTorch, its gradients cannot be differentiated again (FlashAttentionGrad)."""
    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"

    @staticmethod
    def _probabilities(q, k, mask, scale):
        scores = (q @ np.swapaxes(k, -1, -2)) * scale
        return _softmax_rows(scores if mask is None else scores + mask)

    @staticmethod
    def forward(ctx, q, k, v, mask, scale):
        ctx.save_for_backward(q, k, v)
        ctx.mask, ctx.scale, ctx.groups = mask, scale, q.shape[-3] // k.shape[-3]
        if ctx.groups > 1:  # repeat each key/value head for its group of query heads
            k, v = np.repeat(k, ctx.groups, axis=-3), np.repeat(v, ctx.groups, axis=-3)
        p = ScaledDotProductFlashAttentionForCpu._probabilities(q, k, mask, scale)
        return (p @ v).astype(q.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        q, k, v = (t._data for t in ctx.saved_tensors)
        groups, g = ctx.groups, grad._data
        ke, ve = (np.repeat(k, groups, axis=-3), np.repeat(v, groups, axis=-3)) if groups > 1 else (k, v)
        p = ScaledDotProductFlashAttentionForCpu._probabilities(q, ke, ctx.mask, ctx.scale)  # recomputed
        grad_v = np.swapaxes(p, -1, -2) @ g
        grad_p = g @ np.swapaxes(ve, -1, -2)
        grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdims=True)) * ctx.scale  # softmax's backward
        grad_q, grad_k = grad_s @ ke, np.swapaxes(grad_s, -1, -2) @ q
        if groups > 1:  # each key/value head gets the sum over the query heads it served
            grad_k = grad_k.reshape(k.shape[:-2] + (groups,) + grad_k.shape[-2:]).sum(-3)
            grad_v = grad_v.reshape(v.shape[:-2] + (groups,) + grad_v.shape[-2:]).sum(-3)
        grads = [a.astype(q.dtype, copy=False) for a in (grad_q, grad_k, grad_v)]
        return FlashAttentionGrad.apply(grad, grads) + (None, None)


class FlashAttentionGrad(Op):
    """The gradients of q, k and v of the fused attention, computed by its backward. PyTorch
    has no derivative for that kernel's backward: differentiated again, it refuses, as here."""
    node_name = "NotImplemented"
    node_qualname = "torch::autograd::NotImplemented"  # what PyTorch's grad_fn.name() says

    @staticmethod
    def forward(ctx, grad, grads):
        return tuple(grads)  # the gradients of q, k and v: three outputs of one node

    @staticmethod
    def backward(ctx, *ggs):
        raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not "
                           "implemented")


class NativeGroupNorm(Op):
    """Group normalisation in one node, as PyTorch records it: the channels (dim 1) of each
    sample are split into ``groups`` groups, each normalised over its channels and positions to
    mean 0 and variance 1, then each channel is scaled by ``weight`` and shifted by ``bias``."""
    node_name = "NativeGroupNormBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, groups, eps):
        n, c = x.shape[0], x.shape[1]
        g = x.reshape(n, groups, -1)
        mean = g.mean(-1, keepdims=True)
        invstd = 1 / np.sqrt(g.var(-1, keepdims=True) + eps)  # the biased variance
        out = ((g - mean) * invstd).reshape(x.shape)
        per_channel = (1, c) + (1,) * (x.ndim - 2)
        if weight is not None:
            out = out * weight.reshape(per_channel)
        if bias is not None:
            out = out + bias.reshape(per_channel)
        ctx.save_for_backward(x, weight)
        ctx.groups, ctx.eps = groups, eps
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        n, c = x.shape[0], x.shape[1]
        per_channel = (1, c) + (1,) * (x.dim() - 2)
        others = (0,) + tuple(range(2, x.dim()))  # every dim but the channels
        # The statistics again, with tensor ops, so that this backward is differentiable too.
        xg = x.reshape(n, ctx.groups, -1)
        centred = xg - xg.mean(-1, keepdim=True)
        invstd = ((centred * centred).mean(-1, keepdim=True) + ctx.eps) ** -0.5
        x_hat = centred * invstd
        g = grad if weight is None else grad * weight.reshape(per_channel)
        g = g.reshape(n, ctx.groups, -1)
        # As layer norm's, per group: each group's mean and variance move with each of its entries.
        grad_x = invstd * (g - g.mean(-1, keepdim=True) - x_hat * (g * x_hat).mean(-1, keepdim=True))
        grad_w = (grad * x_hat.reshape(x.shape)).sum(others) if ctx.needs_input_grad[1] else None
        grad_b = grad.sum(others) if ctx.needs_input_grad[2] else None
        return grad_x.reshape(x.shape) if ctx.needs_input_grad[0] else None, grad_w, grad_b, None, None
