"""``nn.LayerNorm``."""
from ... import _creation
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class LayerNorm(Module):
    """Normalise each sample over its last dims (``normalized_shape``) to mean 0 and
    variance 1, then scale and shift each feature by a learned ``weight`` and ``bias``.
    No statistics cross the batch: training and evaluation compute the same."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        self.register_parameter("weight", Parameter(_creation.empty(shape, dtype=dtype))
                                if elementwise_affine else None)
        self.register_parameter("bias", Parameter(_creation.empty(shape, dtype=dtype))
                                if elementwise_affine and bias else None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")
