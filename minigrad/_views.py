"""Views: tensors that show another tensor's memory (``x.t()``, ``x[0]``, ``x.view(6)``), as PyTorch's.

The core makes a view op's output as a new tensor over the same memory (``TensorBase._view_of``).
PyTorch does more, and so does this mixin of the full Tensor: a view shares its base's version
counter, so that an in-place change through either is noticed by a node that saved the other;
it knows its base (``._base``), so that an in-place op on it is recorded on the base too
(minigrad/_inplace.py); and when its memory was changed in place since its ``grad_fn`` was
made, it gets a new one, through the base's new graph (``_refresh_view``).
"""
from typing import NamedTuple

from ._conventions import NO_GRAD_VIEW_BASE_CHANGED
from .core import grad_mode


class ViewOf(NamedTuple):
    """What a view knows of the tensor whose memory it shows (``tensor._view``)."""
    base: object  # that tensor (x for x.t()[0]: a view of a view has its base's base), PyTorch's ._base
    version: int  # the memory's version when the view's grad_fn was made: see _refresh_view
    no_grad: bool  # made under no_grad: PyTorch refuses to record an in-place op on it later


class ViewsMixin:
    __slots__ = ()

    def _view_of(self, array):
        """A view op's result, sharing this tensor's version counter, as in PyTorch: an in-place
        change through either shows in both, so a node that saved one notices. It remembers the
        tensor whose memory it views (``ViewOf``), so that an in-place op on it can be recorded
        on that tensor too (minigrad/_inplace.py)."""
        box = self._version_counter()
        out = self._wrap(array, None, box)
        if grad_mode.in_inference and grad_mode._state.inference:  # (the counts first: see grad_mode)
            out._inference = self._inference  # a view of a normal tensor stays normal, as in PyTorch
        if self._multi_view:  # a view of a piece of split is one too (an in-place change is refused)
            out._multi_view = True
        else:
            # (tuple.__new__: ViewOf(...) made by its C core; a NamedTuple's own constructor is a
            # Python function, a call more for every view)
            out._view = tuple.__new__(ViewOf, (self._view.base if self._view is not None else self,
                                               box[0], not grad_mode.recording()))
        return out

    def _refresh_view(self):
        """A view whose memory was changed in place since its ``grad_fn`` was made (through it, its
        base or another view): as PyTorch does, if the base requires grad, its ``grad_fn`` is made
        again, as an ``as_strided`` view of the base as the base is now (AsStridedBackward0), so
        that its gradient goes through the base's new graph (the CopySlices node of the change)."""
        view = self._view
        if view.base._requires_grad:
            if view.no_grad:
                raise RuntimeError(NO_GRAD_VIEW_BASE_CHANGED)
            with grad_mode.enable_grad():
                self._grad_fn = view.base.as_strided(self._data.shape, self.stride(),
                                                     self.storage_offset())._grad_fn
            self._requires_grad, self._output_nr = True, None
        self._view = view._replace(version=self._version_box[0])
