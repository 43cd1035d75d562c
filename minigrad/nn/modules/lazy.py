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
        # The first call only (then the module is a plain one): read the sizes off the input.
        with no_grad():  # drawing starting values is not part of any graph
            self.initialize_parameters(*args, **kwargs)
        self.__class__ = self.cls_to_become
        return self(*args, **kwargs)

    def _load(self, state_dict, prefix, *args):
        """load_state_dict before the first call: the placeholders take the saved shapes
        (d2l's file I/O loads a saved model into a freshly built lazy one)."""
        for table in (self._parameters, self._buffers):
            for name, t in table.items():
                if isinstance(t, UninitializedTensorMixin) and prefix + name in state_dict:
                    t.materialize(tuple(state_dict[prefix + name].shape))
        super()._load(state_dict, prefix, *args)
