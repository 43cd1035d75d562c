"""``nn.Conv2d`` and ``nn.Conv1d`` (and their lazy forms): filters slid over an image;
``nn.ConvTranspose2d`` and ``nn.ConvTranspose1d``: their transposes, which enlarge one.

The computation is ``F.conv2d`` (minigrad/ops/conv.py: im2col and one matrix product);
a module holds the filters, ``weight`` (out_channels, in_channels / groups, *kernel_size),
and one ``bias`` per output channel. A transposed convolution's weight is the other way
round, (in_channels, out_channels / groups, *kernel_size), as PyTorch's is.
"""
import math

from ... import _creation
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


class _ConvNd(Module):
    _n = 2  # spatial dims

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None, transposed=False, output_padding=0):
        super().__init__()
        n = self._n
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and F._expand(stride, n) != (1,) * n:
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = F._expand(padding, n)
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {{'reflect', 'replicate', 'circular', 'zeros'}}, "
                             f"but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = F._expand(kernel_size, n), F._expand(stride, n)
        self.padding, self.dilation, self.padding_mode = padding, F._expand(dilation, n), padding_mode
        # F.pad's pads for a padding_mode other than zeros: each dim's (before, after), the last dim first
        if isinstance(padding, str):
            totals = [d * (k - 1) if padding == "same" else 0 for k, d in zip(self.kernel_size, self.dilation)]
            self._reversed_padding_repeated_twice = [p for t in reversed(totals) for p in (t // 2, t - t // 2)]
        else:
            self._reversed_padding_repeated_twice = tuple(p for p in reversed(padding) for _ in range(2))
        self.output_padding, self.transposed = F._expand(output_padding, n), transposed
        channels = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(_creation.empty(*channels, *self.kernel_size, dtype=dtype))
        self.register_parameter("bias", Parameter(_creation.empty(out_channels, dtype=dtype)) if bias else None)
        self.reset_parameters()

    def reset_parameters(self):
        # PyTorch's default, as for Linear: uniform in +-1/sqrt(fan_in), fan_in = in/groups * kh * kw.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in != 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        conv = F.conv2d if self._n == 2 else F.conv1d
        if self.padding_mode != "zeros":  # padded by F.pad first, then no padding in the convolution
            return conv(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), self.weight,
                        self.bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * self._n:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * self._n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self._n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv2d(_ConvNd):
    """Input (N, C_in, H, W) or (C_in, H, W); output (N, C_out, H_out, W_out)."""


class Conv1d(_ConvNd):
    """Input (N, C_in, L) or (C_in, L); output (N, C_out, L_out)."""
    _n = 1


class _ConvTransposeNd(_ConvNd):
    """A transposed convolution: ``F.conv_transpose2d`` of the input with ``weight``
    (in_channels, out_channels / groups, *kernel_size). Its initialisation is Conv's,
    whose fan_in is then weight.shape[1] * kernel: out_channels / groups * kh * kw."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype, transposed=True, output_padding=output_padding)

    def forward(self, input, output_size=None):
        n = self._n
        output_padding = self._output_padding(input, output_size)
        conv = F.conv_transpose2d if n == 2 else F.conv_transpose1d
        return conv(input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups,
                    self.dilation)

    def _output_padding(self, input, output_size):
        """The output_padding that gives ``output_size`` (PyTorch's: stride - 1 sizes share an
        input size; output_size picks one), or the module's own."""
        if output_size is None:
            return self.output_padding
        n, lead = self._n, 2 if input.dim() == self._n + 2 else 1
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or "
                             f"{lead + n} elements (got {len(output_size)})")
        smallest = [(input.shape[lead + i] - 1) * s - 2 * p + d * (k - 1) + 1
                    for i, (s, p, d, k) in enumerate(zip(self.stride, self.padding, self.dilation, self.kernel_size))]
        largest = [m + s - 1 for m, s in zip(smallest, self.stride)]
        if any(not lo <= size <= hi for size, lo, hi in zip(output_size, smallest, largest)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} "
                             f"to {largest} (for an input of {input.shape[lead:]})")
        return tuple(size - lo for size, lo in zip(output_size, smallest))


class ConvTranspose2d(_ConvTransposeNd):
    """Input (N, C_in, H, W) or (C_in, H, W); output (N, C_out, H_out, W_out), H_out =
    (H - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1."""


class ConvTranspose1d(_ConvTransposeNd):
    """Input (N, C_in, L) or (C_in, L); output (N, C_out, L_out)."""
    _n = 1


class _LazyConvMixin(LazyModuleMixin):
    """in_channels is 0 until the first call reads it off the input's channel dim."""

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        # A module of in_channels 0 first, then placeholders for its parameters.
        super().__init__(0, out_channels, kernel_size, stride, padding, dilation, groups, False, padding_mode,
                         dtype=dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.has_uninitialized_params():  # (PyTorch's: after load_state_dict, in_channels stays 0)
            batched = input.dim() == self._n + 2
            self.in_channels = input.shape[1 if batched else 0]
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class LazyConv2d(_LazyConvMixin, Conv2d):
    cls_to_become = Conv2d


class LazyConv1d(_LazyConvMixin, Conv1d):
    cls_to_become = Conv1d
