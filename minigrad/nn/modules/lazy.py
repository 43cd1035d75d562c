"""The lazy modules' shared part: parameters whose shape the first input decides.

d2l builds every model this way: ``nn.LazyLinear(10)`` needs no in_features, because the
first call reads it off the input. Until then the parameters are placeholders
(``<UninitializedParameter>``); the first call gives them their shapes, draws their
starting values, and turns the module into the plain one (``LazyLinear`` becomes
``Linear``), as PyTorch's ``cls_to_become`` does.
"""
from ...autograd import no_grad
from ..parameter import UninitializedTensorMixin


class LazyModuleMixin:
    """Put it first among the bases of a lazy module, whose ``initialize_parameters(input)``
    sets the sizes it reads from ``input`` and materializes its placeholders."""

    cls_to_become = None

    def has_uninitialized_params(self):
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(isinstance(t, UninitializedTensorMixin) for t in tensors)

    def __call__(self, *args, **kwargs):
        if self.has_uninitialized_params():
            with no_grad():  # drawing starting values is not part of any graph
                self.initialize_parameters(*args, **kwargs)
            if self.cls_to_become is not None:
                self.__class__ = self.cls_to_become  # from now on, a plain module
                return self(*args, **kwargs)
        return super().__call__(*args, **kwargs)
