"""``nn.Linear``, ``nn.LazyLinear`` (and ``nn.Identity``)."""
import math

from ... import _creation
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module


class Identity(Module):
    """Returns its input: a placeholder, e.g. to switch a layer off."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """``y = x @ weight.T + bias``: every output is a weighted sum of all the inputs.
    ``weight`` has shape (out_features, in_features), as in PyTorch."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):  # device: only "cpu"
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(_creation.empty(out_features, in_features, dtype=dtype))
        self.register_parameter("bias", Parameter(_creation.empty(out_features, dtype=dtype)) if bias else None)
        self.reset_parameters()

    def reset_parameters(self):
        # PyTorch's default: both drawn uniformly from +-1/sqrt(in_features), the weight
        # through kaiming_uniform_ with a=sqrt(5) (which works out to that same bound).
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose in_features is read off the first input's last dim (0 until then);
    after that call it is a Linear."""
    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False, dtype=dtype)  # placeholders below; out_features 0 draws nothing
        self.out_features = out_features
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        self.in_features = input.shape[-1]
        if self.has_uninitialized_params():  # (not if load_state_dict gave them their shapes)
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.reset_parameters()
