"""``nn.Parameter``: a tensor that a Module registers as one of its parameters."""
import numpy as np

from .._tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad by default. Assigning one to a Module
    attribute (``self.weight = Parameter(...)``) is what makes it show up in
    ``module.parameters()``, and so reach the optimizer.

    It shares its numbers with ``data``, as PyTorch's does. Results of ops on a
    Parameter are plain Tensors.
    """

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = Tensor._wrap(np.empty(0, dtype=np.float32))
        if not isinstance(data, Tensor):  # PyTorch's first step is data.detach()
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self._init(data._data, bool(requires_grad))

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):  # copy.deepcopy / pickle: a Parameter again, with its flag
        return Parameter, (Tensor._wrap(self._data), self._requires_grad)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = Parameter(Tensor._wrap(self._data.copy()), self._requires_grad)
        return memo[id(self)]
