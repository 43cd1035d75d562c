"""``nn.Upsample`` and its fixed forms ``nn.UpsamplingNearest2d``, ``nn.UpsamplingBilinear2d``:
``F.interpolate`` as a layer (no parameters; the settings shown as PyTorch shows them)."""
from .. import functional as F
from .module import Module


class Upsample(Module):
    """Resize (N, C, L) or (N, C, H, W) to ``size`` or by ``scale_factor`` (one of them),
    with ``mode`` nearest, nearest-exact, linear or bilinear."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return f"{info}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Upsample(mode='nearest') of a 4-D input."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Upsample(mode='bilinear', align_corners=True): the corner pixels stay where they are."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
