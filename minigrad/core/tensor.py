"""TensorBase: a NumPy array plus what autograd needs to know about it.

A tensor made by the user is a *leaf*: ``grad_fn`` is None. A tensor made by a recorded op
has a ``grad_fn``: the node that knows how to send a gradient back to the op's inputs
(core/node.py). ``backward()`` hands the tensor to the engine (core/engine.py), which runs
those nodes and adds into the leaves' ``.grad``.

This is the base class, as PyTorch's ``TensorBase``: the full ``Tensor`` (minigrad/_tensor.py)
extends it with PyTorch's methods, each a call into an op. Every tensor the core makes is of
the class registered by ``register`` (the full Tensor registers itself), so an op's output has
all of Tensor's methods; the core calls a few of them: the arithmetic operators in backward
formulas, ``_sum_to`` and ``_to_np_dtype`` to fit a gradient to its input, ``copy_``, ``type()``.
"""
import itertools
import warnings
import weakref

from . import grad_mode

LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")
INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


class TensorBase:
    __slots__ = ("_data", "_requires_grad", "_grad", "_grad_fn", "_version_box", "__weakref__",
                 "__dict__")
    _hooks = None  # {id: fn} of a leaf's hooks, made when the first one is registered
    _post_hooks = None  # {id: fn}: a leaf's hooks run after its .grad is updated
    _accumulator = None  # weak reference to a leaf's AccumulateGrad node
    _inference = False  # made inside inference_mode: see is_inference()
    _wrapped_number = False  # a Python number as a 0-d tensor (x * 2): no saved_tensors_hooks
    _view = None  # of a view of another tensor's memory: minigrad/_views.py's record of it
    _output_nr = None  # which output of its grad_fn this is, when that node has several (x.split(2))
    _multi_view = False  # a view made by an op with several views as outputs (a piece of split), or of one
    _execution_engine = None  # backward()'s work: core/engine.py sets it (PyTorch's name for it)

    @classmethod
    def _leaf(cls, array, requires_grad):
        """A new leaf around ``array`` (no copy): what torch.tensor, new_zeros... make."""
        if requires_grad and array.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t = cls._wrap(array)
        t._requires_grad = bool(requires_grad)
        return t

    def _init(self, array, requires_grad):
        """A Parameter's (or a placeholder's) state, set by its own ``__init__``."""
        self._data = array
        self._requires_grad = requires_grad
        self._grad = None
        self._grad_fn = None
        self._version_box = None  # None until needed: see _version_counter()
        if grad_mode._state.inference:
            self._inference = True

    @staticmethod
    def _wrap(array, grad_fn=None, version_box=None):
        """A tensor around an existing array (no copy): how every op makes its output. (A static
        method: calling a classmethod makes a bound method each time, a quarter of this cost.)"""
        t = object.__new__(_Tensor)  # (what _init does, written out: every op's output comes this way)
        t._data = array
        t._requires_grad = grad_fn is not None
        t._grad = None
        t._grad_fn = grad_fn
        t._version_box = version_box
        if grad_fn is None and grad_mode.in_inference and grad_mode._state.inference:  # (see grad_mode)
            t._inference = True
        return t

    def _version_counter(self):
        """The box holding the version, shared with detach() and views: an in-place change
        through any of them shows in all. Made when first needed, as most tensors are never
        changed in place, viewed or saved as an op's output: an object fewer per tensor for
        Python's garbage collector to count."""
        if self._version_box is None:
            self._version_box = [0]
        return self._version_box

    # -- autograd attributes -------------------------------------------------------------
    @property
    def grad_fn(self):
        if self._view is not None and self._view.version != self._version_box[0]:
            self._refresh_view()  # a view changed in place since it was made gets a new grad_fn
        return self._grad_fn

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def requires_grad(self):
        if self._view is not None and self._view.version != self._version_box[0]:
            self._refresh_view()  # (as grad_fn)
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        if self._grad_fn is not None and flag:
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        if self._grad_fn is not None:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if flag and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if flag and self._inference and not grad_mode._state.inference:
            raise RuntimeError(INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(flag)

    def requires_grad_(self, requires_grad=True):
        if requires_grad and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._grad_fn is not None:
            return self  # a non-leaf already requires grad: nothing to change (PyTorch allows it)
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self):
        if self._grad is None and self._grad_fn is not None and not self.retains_grad:
            warnings.warn(LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @property
    def output_nr(self):
        """Which output of ``grad_fn`` this tensor is (0 but for the pieces of split, unbind...)."""
        return self._output_nr or 0

    @property
    def retains_grad(self):
        node = self._grad_fn
        if node is None or node._retain is None:
            return False
        ref = node._retain if self._output_nr is None else node._retain.get(self._output_nr)
        return ref is not None and ref() is self

    def retain_grad(self):
        """Keep this non-leaf's gradient in ``.grad`` during backward (leaves always do)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        node = self._grad_fn
        if node is not None and self._output_nr is None:
            node._retain = weakref.ref(self)
        elif node is not None:  # one of several outputs: a reference per output number
            node._retain = {**(node._retain or {}), self._output_nr: weakref.ref(self)}

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient. ``.remove()`` on the returned handle takes the hook away."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            return self._grad_fn.register_prehook(hook, self._output_nr or 0)
        if self._hooks is None:
            self._hooks = {}
        return Handle(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` each time backward has added into this leaf's ``.grad`` (an
        optimizer can step a parameter right then). ``autograd.grad`` touches no ``.grad``, so
        it runs none of these hooks."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_hooks is None:
            self._post_hooks = {}
        return Handle(self._post_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute d(self)/d(leaf) for every leaf that requires grad and add it to ``leaf.grad``."""
        self._execution_engine(gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """The same data, cut from the graph (a new leaf). Shares the version counter."""
        out = _Tensor._wrap(self._data, version_box=self._version_counter())
        if self._inference:
            out._inference = True  # still the inference tensor's memory
        return out

    # -- views: hooks that minigrad/_views.py fills in (a view shares its base's version counter)
    def _view_of(self, array):
        """The output of a view op on this tensor: here, a new tensor over the same memory."""
        return _Tensor._wrap(array)

    def _refresh_view(self):
        """A view changed in place since its ``grad_fn`` was made gets a new one (the core's
        tensors are never views: see _view_of)."""

    def detach_(self):
        self._grad_fn, self._requires_grad, self._output_nr = None, False, None
        return self


_Tensor = TensorBase  # the class of every tensor the core makes: see register


def register(cls):
    """Make ``cls`` (a subclass of TensorBase) the class of every tensor the core makes: an op's
    output, a gradient. minigrad/_tensor.py registers the full Tensor."""
    global _Tensor
    _Tensor = cls


class Handle:
    """What ``register_hook`` returns: ``.remove()`` takes the hook away again."""

    _ids = itertools.count()

    def __init__(self, hooks, fn):
        self.hooks, self.id = hooks, next(self._ids)
        hooks[self.id] = fn

    def remove(self):
        self.hooks.pop(self.id, None)
