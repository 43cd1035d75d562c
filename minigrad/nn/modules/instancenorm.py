"""``nn.InstanceNorm1d``, ``nn.InstanceNorm2d``, ``nn.InstanceNorm3d``: each channel of each
sample normalised over its own positions (a style, not a batch, statistic). Unlike batch norm
they have no affine parameters and no running statistics unless asked for."""
import warnings

from ... import _creation, _dtype
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class _InstanceNorm(Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None, *, bias=True):
        super().__init__()
        dtype = _dtype.dtype_arg(dtype, "empty")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
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
        self._check_input_dim(input)
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        if input.dim() == self._get_no_batch_dim():  # one sample: a batch of one
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats, self.momentum
                               if self.momentum is not None else 0.0, self.eps)

    def _check_input_dim(self, input):
        if input.dim() not in (self._get_no_batch_dim(), self._get_no_batch_dim() + 1):
            raise ValueError(f"expected {self._get_no_batch_dim()}D or {self._get_no_batch_dim() + 1}D input "
                             f"(got {input.dim()}D input)")

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class InstanceNorm1d(_InstanceNorm):
    """Input (N, C, L) or (C, L)."""

    def _get_no_batch_dim(self):
        return 2


class InstanceNorm2d(_InstanceNorm):
    """Input (N, C, H, W) or (C, H, W)."""

    def _get_no_batch_dim(self):
        return 3


class InstanceNorm3d(_InstanceNorm):
    """Input (N, C, D, H, W) or (C, D, H, W)."""

    def _get_no_batch_dim(self):
        return 4
