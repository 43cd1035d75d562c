"""The convolutions, pools and channel shuffles that PyTorch also has as ``torch.*`` functions
(``torch.conv2d``, ``torch.max_pool2d``, ``torch.pixel_shuffle``...): each calls its
``nn.functional`` form (minigrad/nn/_functional_conv.py), with ``torch.*``'s own arguments."""
from .nn import functional as F

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "avg_pool1d", "adaptive_avg_pool1d",
           "pixel_shuffle", "pixel_unshuffle", "max_pool2d", "max_pool1d", "max_pool1d_with_indices",
           "adaptive_max_pool1d"]

conv1d, conv2d = F.conv1d, F.conv2d  # (the same signatures as nn.functional's)
conv_transpose1d, conv_transpose2d = F.conv_transpose1d, F.conv_transpose2d
avg_pool1d, adaptive_avg_pool1d = F.avg_pool1d, F.adaptive_avg_pool1d
pixel_shuffle, pixel_unshuffle = F.pixel_shuffle, F.pixel_unshuffle


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """F.max_pool2d without return_indices (an empty stride: windows side by side)."""
    return F.max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode, return_indices=True)


def adaptive_max_pool1d(input, output_size):
    """The values and their indices, always (torch.* has no return_indices)."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)
