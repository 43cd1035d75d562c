"""``nn.MaxPool2d``, ``nn.AvgPool2d``, ``nn.AdaptiveAvgPool2d``, ``nn.AdaptiveMaxPool2d``
and their 1-D forms: shrink an image (or a sequence) by summarising windows. No parameters;
the settings are shown as PyTorch shows them."""
from .. import functional as F
from .module import Module


class MaxPool2d(Module):
    """The largest value in each kernel_size window (stride defaults to kernel_size:
    windows side by side)."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size, self.stride = kernel_size, stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """The mean of each kernel_size window (stride defaults to kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride = kernel_size, stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed output size, whatever the input's: ``(1, 1)`` is the
    global average pooling that ends many CNNs."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxPool1d(MaxPool2d):
    """MaxPool2d along the last dim: input (N, C, L) or (C, L)."""

    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


def _single(value):
    """PyTorch's ``_single``: AvgPool1d keeps its settings as 1-tuples (and shows them so)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class AvgPool1d(Module):
    """The mean of each kernel_size window along the last dim (stride defaults to kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding, self.ceil_mode, self.count_include_pad = _single(padding), ceil_mode, count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool2d(Module):
    """Max pooling to a fixed output size (None: keep that dim), windows as even as the
    sizes allow."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)
