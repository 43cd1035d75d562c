"""``nn.BatchNorm1d``."""
from ... import _creation, _dtype
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class BatchNorm1d(Module):
    """Normalise each of ``num_features`` channels over the batch: input (N, C) or (N, C, L).

    In training it uses the batch's mean and (biased) variance and keeps running
    averages of them, which eval mode uses instead. ``momentum=None`` makes the
    running averages plain averages over all batches so far.
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__()
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

    def forward(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # the running average of all batches: the n-th weighs 1/n
                momentum = 1.0 / self.num_batches_tracked.item()
        # Batch statistics in training, and also in eval when there are no running ones.
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                            self.training or self.running_mean is None, momentum, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")
