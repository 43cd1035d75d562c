"""Attention and the normalisations beyond batch and layer norm, for ``nn.functional``:
scaled_dot_product_attention, multi_head_attention_forward (``nn.MultiheadAttention``'s
computation), group_norm, instance_norm, rms_norm and local_response_norm. ``nn.functional``
imports them all. Their ops are in minigrad/ops/attention.py (the fused attention and group
norm nodes) or are PyTorch's own compositions of other ops.
"""
import math
import warnings

import numpy as np

from .. import _creation, _dtype, ops
from .._conventions import check_broadcast
from .._joining import cat
from .. import _random
from .._tensor import Tensor
from ..autograd import no_grad
from ._functional_linear import linear

# C++'s names of the dtypes, as PyTorch's attention errors print them
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
              "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def _cpp(dtype):
    return _CPP_NAMES.get(str(dtype).replace("torch.", ""), str(dtype))


# ---------------------------------------------------------------------------------------------
# Scaled dot-product attention
# ---------------------------------------------------------------------------------------------


def _check_sdpa(query, key, value, attn_mask, dropout_p, enable_gqa):
    if dropout_p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if dropout_p < 0 and query.dim() == key.dim() == value.dim() == 4:  # (a negative p: no dropout elsewhere)
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_cpp(query.dtype)} key.dtype: {_cpp(key.dtype)} and value.dtype: "
                           f"{_cpp(value.dtype)} instead.")
    if not query.dtype.is_floating_point:
        raise RuntimeError(f"expected scalar type Float but found {query.dtype.legacy_name}")
    if attn_mask is not None and attn_mask.dtype is not _dtype.bool and attn_mask.dtype != query.dtype:
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {_cpp(attn_mask.dtype)} and  query.dtype: {_cpp(query.dtype)} "
                           "instead.")
    if query.shape[-1] != key.shape[-1]:
        rows = int(np.prod(query.shape[:-2]))  # (the batched matrix product's batch)
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{rows}, {query.shape[-1]}] but got: [{rows}, {key.shape[-1]}].")
    if enable_gqa and query.dim() >= 3 and query.shape[-3] % key.shape[-3]:
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """``softmax(query @ key^T * scale + mask) @ value``: each query position's output is an
    average of the values, weighted by how well its query matches each key.

    ``scale`` defaults to ``1 / sqrt(features)``, which keeps the scores' spread independent of
    the number of features. A bool ``attn_mask`` says where a query may look (True: allowed);
    a float one is added to the scores. ``is_causal`` allows position i to look only at keys
    0..i. A query allowed to look nowhere gets zeros. ``dropout_p`` drops attention weights.
    """
    _check_sdpa(query, key, value, attn_mask, dropout_p, enable_gqa)
    L, S = query.shape[-2], key.shape[-2]
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    if attn_mask is not None:
        check_broadcast(query.shape[:-1] + (S,), attn_mask.shape)
    # PyTorch's CPU kernel takes 4-D inputs of equal features, no dropout and a constant mask
    fused = (query.dim() == key.dim() == value.dim() == 4 and not dropout_p > 0
             and value.shape[-1] == query.shape[-1] and not (attn_mask is not None and attn_mask.requires_grad))
    if is_causal:  # position i sees keys 0..i (the kernel also applies attn_mask; the composite refuses both)
        if attn_mask is not None and not fused:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
        causal = Tensor._wrap(np.tril(np.ones((L, S), dtype=bool)))
        attn_mask = causal if attn_mask is None else (
            attn_mask.logical_and(causal) if attn_mask.dtype is _dtype.bool
            else attn_mask.masked_fill(causal.logical_not(), -math.inf))
    additive = None
    if attn_mask is not None:  # the mask as numbers to add to the scores
        m = attn_mask._data
        additive = np.where(m, 0, -np.inf).astype(query._data.dtype) if m.dtype == bool else m
    if fused:  # one node (the mask is not one of its differentiable inputs)
        if not enable_gqa and not query.shape[-3] == key.shape[-3] == value.shape[-3]:
            check_broadcast(query.shape[:-2], key.shape[:-2])
        return ops.ScaledDotProductFlashAttentionForCpu.apply(query, key, value, additive, scale)
    # PyTorch's "math" composite, which records each step (so does a float mask needing a gradient)
    if enable_gqa and query.dim() >= 3 and key.shape[-3] != query.shape[-3]:
        groups = query.shape[-3] // key.shape[-3]
        key, value = key.repeat_interleave(groups, -3), value.repeat_interleave(groups, -3)
    root = math.sqrt(scale)  # split between q and k, which keeps the products in range
    # (MulNumber: ``* root`` as PyTorch's C++ records it, MulBackward1)
    scores = ops.MulNumber.apply(query, root).matmul(ops.MulNumber.apply(key.transpose(-2, -1), root))
    if attn_mask is not None:
        scores = scores + (attn_mask if attn_mask.dtype is not _dtype.bool else Tensor._wrap(additive))
    weights = ops.SafeSoftmax.apply(scores, scores.dim() - 1)
    if dropout_p > 0:
        weights = _dropout(weights, dropout_p)
    return weights.matmul(value)


def _dropout(input, p):
    """``F.dropout`` in training: PyTorch's math attention calls it on the weights."""
    return input * Tensor._wrap(_random.dropout_noise(input._data, p))


# ---------------------------------------------------------------------------------------------
# Multi-head attention (nn.MultiheadAttention's forward)
# ---------------------------------------------------------------------------------------------


def _float_mask(mask, name, dtype):
    """A bool mask (True: may NOT attend, unlike sdpa's) as -inf/0 to add to the scores."""
    if mask is None:
        return None
    if mask.dtype is _dtype.bool:
        return _creation.zeros(mask.shape, dtype=dtype).masked_fill_(mask, -math.inf)
    if not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return mask


def _in_projection_packed(q, k, v, w, b):
    """The query, key and value projections by one (3E, E) weight: a single matrix product
    when query, key and value are one tensor (self-attention), as in PyTorch."""
    E = q.shape[-1]
    if k is v:
        if q is k:
            proj = linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = linear(k, w_kv, b_kv)
        kv = kv.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _check_mha_shapes(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the inputs are batched (3-D: length, batch, features) or not (2-D); PyTorch's
    errors for the rest."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                         "tensor")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """``nn.MultiheadAttention``'s computation, step by step as PyTorch's: project the
    (length, batch, embed_dim) query, key and value, split the features into ``num_heads``
    heads, attend within each head, join the heads and project the result. Returns the output
    and (``need_weights``) the attention weights, averaged over the heads unless
    ``average_attn_weights=False``. Bool masks here are True where attending is NOT allowed."""
    if static_k is not None or static_v is not None:
        raise NotImplementedError("minigrad's multi_head_attention_forward has no static_k/static_v")
    batched = _check_mha_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:  # one sequence: a batch of one
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if key_padding_mask is not None and attn_mask is not None and key_padding_mask.dtype != attn_mask.dtype:
        warnings.warn("Support for mismatched key_padding_mask and attn_mask is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    key_padding_mask = _float_mask(key_padding_mask, "key_padding_mask", query.dtype)
    attn_mask = _float_mask(attn_mask, "attn_mask", query.dtype)
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # sdpa's is_causal does what the mask would
    else:
        is_causal = False  # the mask (which must be causal) does the work
    if use_separate_proj_weight:
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = (linear(query, q_proj_weight, b_q), linear(key, k_proj_weight, b_k),
                   linear(value, v_proj_weight, b_v))
    else:
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                               f"{(bsz * num_heads, tgt_len, src_len)}.")
    if bias_k is not None and bias_v is not None:  # one more key and value, learned
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else ops.ConstantPadNd.apply(attn_mask, (0, 1), 0.0)
        key_padding_mask = None if key_padding_mask is None else ops.ConstantPadNd.apply(key_padding_mask,
                                                                                         (0, 1), 0.0)
    # (length, batch, features) -> (batch * heads, length, head_dim): the heads as a batch
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if add_zero_attn:  # one more key and value, of zeros
        zeros = _creation.zeros((bsz * num_heads, 1, head_dim), dtype=q.dtype)
        k, v = cat([k, zeros], 1), cat([v, zeros], 1)
        attn_mask = None if attn_mask is None else ops.ConstantPadNd.apply(attn_mask, (0, 1), 0.0)
        key_padding_mask = None if key_padding_mask is None else ops.ConstantPadNd.apply(key_padding_mask,
                                                                                         (0, 1), 0.0)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                                 f"{key_padding_mask.shape}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        scores = (q_scaled.bmm(k.transpose(-2, -1)) if attn_mask is None
                  else attn_mask.baddbmm(q_scaled, k.transpose(-2, -1)))
        weights = scores.softmax(-1)
        if dropout_p > 0.0:
            weights = _dropout(weights, dropout_p)
        out = weights.bmm(v).transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(1)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        attn_mask = (attn_mask.unsqueeze(0) if attn_mask.shape[0] == 1 and attn_mask.dim() == 3
                     else attn_mask.view(bsz, num_heads, -1, src_len))
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).contiguous().view(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
    return (out if batched else out.squeeze(1)), None




# ---------------------------------------------------------------------------------------------
# Normalisations: group, instance, RMS, local response
# ---------------------------------------------------------------------------------------------


def _shape_text(shape):
    return f"[{', '.join(map(str, shape))}]"


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Split the channels (dim 1) into ``num_groups`` groups and normalise each group of each
    sample over its channels and positions; then scale and shift each channel. Unlike batch
    norm, nothing crosses the batch (see ops.NativeGroupNorm)."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    c = input.shape[1]
    if c % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {_shape_text(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {_shape_text(t.shape)} and input of shape "
                               f"{_shape_text(input.shape)}")
    if int(np.prod(input.shape[2:])) * (input.shape[0] * c // num_groups) == 1:  # (PyTorch's check, as batch norm's)
        raise ValueError("Expected more than 1 value per channel when training, got input size "
                         f"{[input.shape[0] * c // num_groups, num_groups] + list(input.shape[2:])}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"GroupNormKernelImpl\" not implemented for '{input.dtype.legacy_name}'")
    # PyTorch's node has an input for weight and bias even when they are None: ones and zeros here.
    weight = _creation.ones(c, dtype=input.dtype) if weight is None else weight
    bias = _creation.zeros(c, dtype=input.dtype) if bias is None else bias
    return ops.NativeGroupNorm.apply(input, weight, bias, num_groups, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    """Normalise each channel of each sample over its positions alone. Computed as PyTorch
    does: batch norm of the input viewed as one sample with batch * channels channels (the
    weight, bias and running statistics repeated once per sample)."""
    if use_input_stats:
        if int(np.prod(input.shape[2:])) <= 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.shape}")
    elif running_mean is None or running_var is None:
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.shape[0], input.shape[1]
    for name, stat in (("running_mean", running_mean), ("running_var", running_var)):
        if stat is not None and stat.numel() * b != b * c:
            raise RuntimeError(f"{name} should contain {b * c} elements not {stat.numel() * b}")
    x = input.contiguous().view(1, b * c, *input.shape[2:])
    # (None: ones and zeros, so that the node has PyTorch's inputs for them)
    weight = _creation.ones(b * c, dtype=input.dtype) if weight is None else weight.repeat(b)
    bias = _creation.zeros(b * c, dtype=input.dtype) if bias is None else bias.repeat(b)
    shape = (1, b * c) + (1,) * (input.dim() - 2)
    dims = (0,) + tuple(range(2, x.dim()))
    if use_input_stats:  # each instance's own statistics
        mean, var = x._data.mean(dims, keepdims=True), x._data.var(dims, keepdims=True)
        if running_mean is not None:
            with no_grad():  # the running averages: moved towards the mean over the batch
                n = x._data[0, 0].size
                running_mean.mul_(1 - momentum).add_(Tensor._wrap(mean.reshape(b, c).mean(0) * momentum))
                running_var.mul_(1 - momentum).add_(
                    Tensor._wrap(var.reshape(b, c).mean(0) * (momentum * n / (n - 1))))
    else:
        mean = np.tile(running_mean._data, b).reshape(shape)
        var = np.tile(running_var._data, b).reshape(shape)
    invstd = (1 / np.sqrt(var + eps)).astype(x._data.dtype)
    out = ops.NativeBatchNorm.apply(x, weight, bias, mean.astype(x._data.dtype), invstd, use_input_stats, eps,
                                    None)
    return out.view(input.shape)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Divide each sample by the root mean square of its last ``len(normalized_shape)`` dims
    (no centring, unlike layer norm), then scale by ``weight``. ``eps`` defaults to the dtype's
    machine epsilon. A composition of ops, as PyTorch's."""
    if isinstance(normalized_shape, int):
        raise TypeError("rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    shape = tuple(normalized_shape)
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{_shape_text(weight.shape)} and normalized_shape = {_shape_text(shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"rms_norm\" not implemented for '{input.dtype.legacy_name}'")
    eps = float(np.finfo(input._data.dtype).eps) if eps is None else eps
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    # (AddNumber: ``+ eps`` as PyTorch's C++ records it, AddBackward1)
    out = input * ops.AddNumber.apply(input.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    return out if weight is None else out * weight


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Divide each entry by ``(k + alpha * mean of the squares of its size neighbouring
    channels) ** beta``: channels compete with their neighbours."""
    if input.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {input.dim()} "
                         "dimensions)")
    if input.numel() == 0:
        return input
    sizes = input.shape
    div = input.mul(input)
    # the squares, padded along the channels and averaged over windows of size channels
    div = div.view(sizes[0], 1, sizes[1], -1) if input.dim() > 3 else div.unsqueeze(1)
    div = ops.ConstantPadNd.apply(div, (0, 0, size // 2, (size - 1) // 2), 0.0)
    window = ops.Window((size, 1), (1, 1), (0, 0), (1, 1), (div.shape[-2] - size + 1, div.shape[-1]))
    div = ops.AvgPool2d.apply(div, window, np.full(window.out, float(size))).squeeze(1)
    div = div.view(sizes) if input.dim() > 3 else div
    return input / div.mul(alpha).add(k).pow(beta)
