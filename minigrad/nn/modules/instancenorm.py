"""``nn.InstanceNorm1d``, ``nn.InstanceNorm2d``, ``nn.InstanceNorm3d``: each channel of each
sample normalised over its own positions (a style, not a batch, statistic). Unlike batch norm
they have no affine parameters and no running statistics unless asked for."""
import warnings

from .. import functional as F
from .batchnorm import _NormBase


class _InstanceNorm(_NormBase):
    """Batch norm's state (weight, bias, running statistics), off by default: affine=False,
    track_running_stats=False."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

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
