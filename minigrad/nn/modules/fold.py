"""``nn.Unfold`` and ``nn.Fold``: im2col and col2im (``F.unfold``, ``F.fold``) as layers.
Unfold lays every kernel_size block of an image out as a column, the step that turns a
convolution into one matrix product; Fold adds columns back into an image. No parameters."""
from .. import functional as F
from .module import Module


class Fold(Module):
    """Columns (N, C*kh*kw, L) -> an image (N, C, *output_size); overlapping blocks add up."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """An image (N, C, H, W) -> its blocks as columns (N, C*kh*kw, L)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")
