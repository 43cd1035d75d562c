"""``nn.PixelShuffle`` and ``nn.PixelUnshuffle``: channels rearranged into space and back
(``F.pixel_shuffle``), the upsampling of sub-pixel convolution. No parameters."""
from .. import functional as F
from .module import Module


class PixelShuffle(Module):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r), r = upscale_factor."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W), r = downscale_factor."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"
