"""The padding layers: ``F.pad`` as a module, one per mode and number of dims. ZeroPad and
ConstantPad fill with a value, ReflectionPad mirrors the edge (abc -> cbabcba),
ReplicationPad repeats it (abc -> aabccc), CircularPad wraps around (abc -> bcabcab).
``padding`` is an int (the same on every side) or F.pad's tuple: (left, right) for 1d,
(left, right, top, bottom) for 2d."""
from .. import functional as F
from .module import Module


def _ntuple(value, n):
    """PyTorch's ``_pair`` / ``_quadruple``: an int for every side, a sequence as it is."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConstantPadNd(Module):
    def __init__(self, padding, value, n):
        super().__init__()
        self.padding, self.value = _ntuple(padding, 2 * n), value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value, 1)


class ConstantPad2d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value, 2)


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class _PadNd(Module):
    """Reflection, replication or circular padding (``mode``) of ``n`` dims."""
    mode, n = None, 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self.n)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    mode = "reflect"


class ReflectionPad2d(_PadNd):
    mode, n = "reflect", 2


class ReplicationPad1d(_PadNd):
    mode = "replicate"


class ReplicationPad2d(_PadNd):
    mode, n = "replicate", 2


class CircularPad1d(_PadNd):
    mode = "circular"

    def forward(self, input):
        if input.dim() not in (self.n + 1, self.n + 2):  # (the module checks first, as PyTorch's)
            raise ValueError(f"expected {self.n + 1}D or {self.n + 2}D input (got {input.dim()}D input)")
        return super().forward(input)


class CircularPad2d(CircularPad1d):
    n = 2
