"""``nn.BatchNorm1d``, ``nn.BatchNorm2d`` (and their lazy forms): one module, the input's rank
apart. Channels are dim 1; the statistics are over every other dim (the batch, and for
images H and W too: each channel of a feature map is normalised as one feature)."""
from ... import _creation, _dtype
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module


class _NormBase(Module):
    """What batch and instance norm share, as in PyTorch: the affine scale and shift, the running
    statistics (buffers, or None), their reset, and the repr."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__()
        dtype = _dtype.dtype_arg(dtype, "empty")  # PyTorch's error names the empty() that makes them
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        # The scale and shift (keyword-only bias=False keeps only the scale); None when not affine.
        self.register_parameter("weight", Parameter(_creation.ones(num_features, dtype=dtype)) if affine else None)
        self.register_parameter("bias", Parameter(_creation.zeros(num_features, dtype=dtype))
                                if affine and bias else None)
        if track_running_stats:
            self.register_buffer("running_mean", _creation.zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", _creation.ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", _creation.zeros((), dtype=_dtype.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self):
        if self.track_running_stats:
            init.zeros_(self.running_mean)
            init.ones_(self.running_var)
            init.zeros_(self.num_batches_tracked)

    def reset_parameters(self):
        self.reset_running_stats()
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """Normalise each of ``num_features`` channels over the batch.

    In training it uses the batch's mean and (biased) variance and keeps running
    averages of them, which eval mode uses instead. ``momentum=None`` makes the
    running averages plain averages over all batches so far.
    """

    def forward(self, input):
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # the running average of all batches: the n-th weighs 1/n
                momentum = 1.0 / self.num_batches_tracked.item()
        # Batch statistics in training, and also in eval when there are no running ones.
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                            self.training or self.running_mean is None, momentum, self.eps)

class BatchNorm1d(_BatchNorm):
    """Input (N, C) or (N, C, L)."""

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Input (N, C, H, W): images, each channel normalised over the batch and all pixels."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class _LazyNormMixin(LazyModuleMixin):
    """num_features is 0 until the first call reads it off the input's dim 1."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__(0, eps, momentum, affine, track_running_stats, dtype=dtype)
        if affine:
            self.weight, self.bias = UninitializedParameter(dtype=dtype), UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean, self.running_var = UninitializedBuffer(dtype=dtype), UninitializedBuffer(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():  # (PyTorch's: after load_state_dict, num_features stays 0)
            self.num_features = input.shape[1]
            for t in (self.weight, self.bias, self.running_mean, self.running_var):
                if t is not None:
                    t.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormMixin, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormMixin, BatchNorm2d):
    cls_to_become = BatchNorm2d
