"""``nn.Parameter``: a tensor that a Module registers as one of its parameters."""
import numpy as np

from .. import _dtype
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


_UNINITIALIZED = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens "
                  "in `load_state_dict` when trying to load an uninitialized parameter into an initialized one. "
                  "Call `forward` to initialize the parameters before accessing their attributes.")


class UninitializedTensorMixin:
    """A parameter or buffer of a lazy module before its first call: no shape yet.
    ``materialize(shape)`` gives it one (uninitialised numbers) and makes it a plain
    ``cls_to_become`` (Parameter or Tensor), in place, so the module's tables keep it."""

    cls_to_become = None

    @property
    def shape(self):
        raise RuntimeError(_UNINITIALIZED)

    def size(self, dim=None):
        raise RuntimeError(_UNINITIALIZED)

    def dim(self):
        raise RuntimeError(_UNINITIALIZED)

    def numel(self):
        raise RuntimeError(_UNINITIALIZED)

    def detach(self):  # state_dict() shows the placeholder itself, as PyTorch's does
        return self

    def materialize(self, shape, device=None, dtype=None):
        dtype = _dtype.dtype_arg(dtype, "empty")
        self._data = np.zeros(shape, dtype=self._data.dtype if dtype is None else dtype.np)  # as empty()
        self.__class__ = self.cls_to_become

    def __repr__(self):
        return f"<{type(self).__name__}>"


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    cls_to_become = Parameter

    def __init__(self, requires_grad=True, device=None, dtype=None):
        self._init(_placeholder(dtype), bool(requires_grad))


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    cls_to_become = Tensor

    def __init__(self, requires_grad=False, device=None, dtype=None):
        self._init(_placeholder(dtype), bool(requires_grad))


def _placeholder(dtype):
    """No numbers yet, only the dtype they will have."""
    return np.empty(0, dtype=(_dtype.dtype_arg(dtype, "empty") or _dtype.get_default_dtype()).np)
