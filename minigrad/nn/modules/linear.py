"""``nn.Linear`` (and ``nn.Identity``)."""
import math

from ... import _creation
from .. import functional as F
from .. import init
from ..parameter import Parameter
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
