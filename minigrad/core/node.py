"""The backward graph's nodes, and what they keep: saved tensors, hooks, the leaves' AccumulateGrad.

A ``Node`` is what ``tensor.grad_fn`` returns. It is also the ``ctx`` a Function's forward
saved its tensors on (core/function.py makes it): ``saved_tensors`` gives them back to
backward, after checking that none was changed in place since (a version counter per tensor).
``apply(grad)`` runs the Function's backward and fits each gradient to its input's shape and
dtype; ``AccumulateGrad``, the node of a leaf, adds the gradient into ``.grad``.
"""
import re
import warnings
import weakref
from typing import NamedTuple

import numpy as np

from . import anomaly_mode, graph
from .tensor import Handle, TensorBase as Tensor  # (every tensor is one: the full class extends it)

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")


class SavedRecord(NamedTuple):
    """One tensor a node saved for backward, as minigrad.viz shows it."""
    index: int  # its slot in save_for_backward
    kind: str  # "input" (one of the op's inputs, or a mask) or "output" (the op's result)
    tensor: object  # the saved input Tensor; None for the output, held as its array only
    array: object  # the NumPy array itself


class _Hooked(NamedTuple):
    """What a node keeps of a saved tensor under saved_tensors_hooks: pack_hook's result,
    and the unpack_hook that turns it back into a tensor when backward asks for it."""
    packed: object
    unpack: object


def _is_output(value):
    """In ``Node._packed``: whether the slot holds the op's output (kept as its array)."""
    return value is not None and not isinstance(value, (Tensor, _Hooked))


class Node:
    """A node of the backward graph: what ``tensor.grad_fn`` returns.

    ``next_functions`` holds one ``(node, output number)`` pair per tensor input, in input order:
    the input's own ``grad_fn``, its ``AccumulateGrad`` if it is a leaf that requires
    grad, or ``None`` if it needs no gradient.
    """

    # Class-level defaults keep node creation cheap: an instance sets only what it uses.
    _function = None  # the Function class whose backward this node runs
    _next_nodes = ()  # the node of each tensor input, in input order (None: needs no gradient)
    _packed = ()  # what forward saved: input tensors, the output as its array; None once freed
    _packed_versions = ()  # each saved tensor's version then, to notice a later in-place change
    _output_box = None  # the output's version counter, if forward saved the output
    _written_through = None  # weak reference to the CopySlices node, if the output went into a view
    _to_save = ()  # what forward handed to save_for_backward, until packed
    _inputs = ()  # (shape, dtype) of each forward argument, None for non-tensors
    _pre_hooks = None  # hooks of the tensor this node produced: {id: fn}
    _retain = None  # weak reference to the output that called retain_grad()
    _trace = None  # the forward call's stack, kept under detect_anomaly()
    _builtin = False  # made by one of minigrad's own ops (an Op), not a user's Function
    _seq = 0  # its place in creation order, set when it is recorded (Function.apply)
    _n_outputs = 1  # an op with several outputs (x.split(2)) has one node for them all
    _next_nrs = None  # with an input that is such an output: the output number of each edge

    def name(self):
        return getattr(self._function, "node_qualname", None) or type(self).__name__

    def _class_name(self):
        # PyTorch's built-in nodes are C++ classes, printed by name; the node of a user's
        # Function is a Python class made in torch.autograd.function (here minigrad's).
        if self._builtin or self._function is None:
            return type(self).__name__
        return f"minigrad.autograd.function.{type(self).__name__}"

    def __repr__(self):  # as PyTorch's nodes print (nbval's sanitizer hides the address)
        return f"<{self._class_name()} object at {id(self):#x}>"

    def _repr_pretty_(self, p, cycle):  # and as IPython shows them, in next_functions say
        p.text(f"<{self._class_name()} at {id(self):#x}>")

    @property
    def metadata(self):  # the user's dict, kept with the node as PyTorch keeps it
        return self.__dict__.setdefault("_metadata", {})

    @property
    def next_functions(self):
        # The pairs are made when asked for, as PyTorch does, not kept: a pair per edge
        # would be one more object per node for Python's garbage collector to walk.
        nrs = self._next_nrs or (0,) * len(self._next_nodes)  # (an edge into a one-output node: 0)
        return tuple([(node, nr if node is not None and node._n_outputs != 1 else 0)
                      for node, nr in zip(self._next_nodes, nrs)])

    # -- what forward saved -------------------------------------------------------------
    def save_for_backward(self, *tensors):
        self._to_save = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs of a user's Function with several outputs that get no gradient (indices as
        floats, say): they are not part of the graph, and backward gets zeros for them. (A
        Function's only output, marked so, is still recorded.)"""
        self._marked_outputs = tuple(tensors)

    @property
    def saved_tensors(self):
        if self._packed is None:
            raise RuntimeError(SECOND_BACKWARD)
        tensors = []  # (a loop, not a comprehension: Python 3.11 makes a function for each of those)
        for value, version in zip(self._packed, self._packed_versions):
            tensors.append(None if value is None else self._unpack(value, version))
        return tuple(tensors)

    def _pack(self, inputs, out):
        """Keep what forward saved, and each tensor's version, to notice a later in-place change.

        Built-in ops save NumPy arrays; an array that is an input's (or the output's) data
        is saved as that tensor, so backward can differentiate through it (create_graph)
        and an in-place change to it can be detected. The output is kept as its array only:
        holding the output tensor itself would make a reference cycle output -> node -> output.
        Values and versions are two tuples, not a record per value: fewer objects per node
        for Python's garbage collector to walk.
        """
        saved, versions = [], []
        hooks = graph._stack[-1] if graph._stack else None  # saved_tensors_hooks, if any
        for item in self._to_save:
            version = None
            if item is None:  # a slot the op did not need this time (see Mul)
                pass
            elif out is not None and (item is out or item is out._data):  # the output (of a one-output op)
                if hooks is not None:  # saved_tensors_hooks: the node keeps what pack_hook returns
                    item = _Hooked(hooks[0](out), hooks[1])
                else:
                    self._output_box = out._version_counter()
                    item, version = out._data, self._output_box[0]
            else:
                for t in inputs:  # an input's array, most often: that input
                    if isinstance(t, Tensor) and t._data is item:
                        item = t
                        break
                else:  # a tensor itself, or an array that is no input's (a mask)
                    item = item if isinstance(item, Tensor) else Tensor._wrap(np.asarray(item))
                if hooks is not None and not item._wrapped_number:  # (PyTorch packs no wrapped number)
                    item = _Hooked(hooks[0](item), hooks[1])
                elif item._inference:  # made under inference_mode, which promised no graph would need it
                    raise RuntimeError(INFERENCE_SAVED)
                else:
                    version = 0 if item._version_box is None else item._version_box[0]
            saved.append(item)
            versions.append(version)
        self._packed, self._to_save = tuple(saved), ()
        self._packed_versions = _VERSIONS[tuple(versions)]

    def _rebind_output(self, array, version_box):
        """An in-place op wrote this node's output into another tensor's buffer: what the
        node saved of its output is now that buffer, so a later in-place change is noticed."""
        if self._packed and self._output_box is not None:
            outputs = [_is_output(v) for v in self._packed]
            self._packed = tuple(array if o else v for o, v in zip(outputs, self._packed))
            self._packed_versions = tuple(version_box[0] if o else ver
                                          for o, ver in zip(outputs, self._packed_versions))
            self._output_box = version_box

    def _unpack(self, value, version):
        if isinstance(value, Tensor):  # an input (or a mask): itself, if unchanged since
            current = 0 if value._version_box is None else value._version_box[0]
            if current == version:
                return value
        elif isinstance(value, _Hooked):
            return value.unpack(value.packed)
        else:  # the output, kept as its array: rebuilt around it, if unchanged since
            current = self._output_box[0]
            if current == version:
                copy_slices = self._written_through() if self._written_through is not None else None
                if copy_slices is not None:  # (y.t().relu_(): the output is that view of y as it is now)
                    return copy_slices.view_of_base(self._output_box)
                return Tensor._wrap(value, grad_fn=self, version_box=self._output_box)
        raise self._modified_error(value, current, version)

    def _modified_error(self, value, current, version):
        """PyTorch's error for a saved tensor changed in place after it was saved."""
        is_output = not isinstance(value, Tensor)
        data = value if is_output else value._data
        if is_output:
            source = self.name()
        elif value.grad_fn is not None and getattr(value.grad_fn._function, "view", False) \
                and not getattr(value.grad_fn._function, "in_place", False):  # (t_() and kin: their own name)
            source = "AsStridedBackward0"  # PyTorch rebuilds a changed view's node as an as_strided
        else:
            source = value.grad_fn.name() if value.grad_fn is not None else None
        number = 0 if is_output else value._output_nr or 0  # (an output of a node with several)
        where = f", which is output {number} of {re.sub(r'Backward(?:0$)?', '', source)}," if source else ""
        # (PyTorch names a bool tensor here by its backend type, CPUBoolType, not torch.BoolTensor)
        kind = "CPUBoolType" if data.dtype == np.bool_ else Tensor._wrap(data).type()
        return RuntimeError(
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{kind} "
            f"[{', '.join(map(str, data.shape))}]]{where} is at version {current}; expected "
            f"version {version} instead. Hint: enable anomaly detection to find the operation "
            "that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")

    # -- what viz and memory accounting read ------------------------------------------------
    def input_shapes(self):
        """The shape of each tensor input, aligned with ``next_functions``."""
        return [meta[0] for meta in self._inputs if meta is not None]

    @property
    def saved_freed(self):
        """True once backward has freed what forward saved (no ``retain_graph=True``)."""
        return self._packed is None

    def saved_records(self):
        """What forward saved and the node still holds: one ``SavedRecord`` per slot, in
        ``save_for_backward`` order, skipping slots the op left empty."""
        for i, value in enumerate(self._packed or ()):
            if value is not None and not isinstance(value, _Hooked):
                kind = "input" if isinstance(value, Tensor) else "output"  # the output: its array
                yield SavedRecord(i, kind, value if kind == "input" else None,
                                  value._data if kind == "input" else value)

    def _release(self):
        """Free what forward saved: after this, the node can run backward no more."""
        if self._packed:
            self._packed = None

    # -- running backward ----------------------------------------------------------------
    def register_prehook(self, fn, output_nr=None):
        """``fn(grads)`` before this node runs, with its outputs' gradients as a tuple (it may
        return new ones), as PyTorch's. With ``output_nr``: a tensor's hook, ``fn(grad)`` on
        that output's gradient only."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        return Handle(self._pre_hooks, fn if output_nr is None else _OnOutput(fn, output_nr))

    def _run_pre_hooks(self, grad):
        if not self._pre_hooks and self._retain is None:  # (most nodes have none)
            return grad
        if self._n_outputs != 1:
            return self._run_output_hooks(grad)
        return self._run_output_hooks([grad])[0]

    def _run_output_hooks(self, grads):
        """PyTorch's order: each tensor's hooks on its own output's gradient (if one arrived),
        then retain_grad, then the node's own hooks, which get all its outputs' gradients as a
        tuple and may return new ones. ``_retain``: a weak reference (one output) or one per
        output number."""
        grads = list(grads)
        hooks = tuple(self._pre_hooks.values()) if self._pre_hooks else ()
        for hook in hooks:
            if isinstance(hook, _OnOutput) and grads[hook.output_nr] is not None:
                grads[hook.output_nr] = _run_hook(hook.fn, grads[hook.output_nr])
        retains = self._retain if isinstance(self._retain, dict) else {0: self._retain} if self._retain else {}
        for nr, ref in retains.items():
            if ref() is not None and grads[nr] is not None:
                _accumulate(ref(), grads[nr])
        for hook in hooks:
            if not isinstance(hook, _OnOutput):  # the node's own
                grads = list(hook(tuple(grads)) or grads)
        return grads

    def apply(self, grad):
        """Run the Function's backward, then check and fit each gradient to its input.
        A node with several outputs gets a list: each output's gradient, None where none came."""
        if self._n_outputs == 1:
            grads = self._function.backward(self, grad)
        else:
            grads = self._function.backward(self, *self._materialize(grad))
        if not isinstance(grads, tuple):
            grads = (grads,)
        if len(grads) != len(self._inputs):
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {len(self._inputs)}, got {len(grads)})")
        out = []
        for i, (g, meta, needed) in enumerate(zip(grads, self._inputs, self.needs_input_grad)):
            if meta is None:  # not a tensor: no gradient, and none may come
                if g is not None:
                    raise RuntimeError(f"function {self.name()} returned a gradient different than None at "
                                       f"position {i + 1}, but the corresponding forward input was not a Variable")
            elif g is None or not needed:  # e.g. Add's gradient for a constant: nobody receives it
                out.append(None)
            else:
                if g._data.shape != meta[0] or g._data.dtype != meta[1]:
                    g = _fit_gradient(self, i, g, *meta)
                if anomaly_mode._check_nan:
                    self._check_nan(i, g)
                out.append(g)
        return out

    def _take_outputs(self, outs):
        """Make each floating tensor of ``outs`` an output of this node, numbered in order."""
        self._n_outputs = len(outs)
        if not self._builtin:  # what _materialize makes zeros of
            self._output_meta = [(o._data.shape, o._data.dtype) for o in outs]
        marked = getattr(self, "_marked_outputs", ())  # (a user's Function's, by mark_non_differentiable)
        for i, o in enumerate(outs):
            if o._data.dtype.kind == "f" and not any(o is m for m in marked):
                o._grad_fn, o._requires_grad = self, True
                if len(outs) != 1:
                    o._output_nr = i
                if self._builtin and self._function.view:  # (PyTorch refuses an in-place change of such a view)
                    o._multi_view = True

    def _materialize(self, grads):
        """The gradients of the outputs, for backward: a built-in op takes None where no
        gradient arrived; a user's Function zeros, as PyTorch gives it by default."""
        if self._builtin:
            return grads
        return [Tensor._wrap(np.zeros(*meta)) if g is None else g for g, meta in zip(grads, self._output_meta)]

    def _check_nan(self, i, grad):
        """Under detect_anomaly(): PyTorch's error for a NaN in the gradient sent to input i."""
        if np.isnan(grad._data).any():
            if self._trace:
                warnings.warn(f"Error detected in {self.name()}. Traceback of forward call "
                              "that caused the error:\n" + "".join(self._trace))
            raise RuntimeError(f"Function '{self.name()}' returned nan values in its {i}th output.")


INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a clone "
    "to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


def _run_hook(hook, grad):
    """``hook(grad)``: None keeps the gradient, a tensor replaces it (of the same size and
    type: the engine would not know what to do with another, so PyTorch refuses it)."""
    result = hook(grad)
    if result is None:
        return grad
    if result._data.shape != grad._data.shape:
        raise RuntimeError(f"hook '{getattr(hook, '__name__', '<unknown>')}' has changed the size of value")
    if result._data.dtype != grad._data.dtype:
        raise RuntimeError(f"hook '{getattr(hook, '__name__', '<unknown>')}' has changed the type of value "
                           f"(was {grad.type()} got {result.type()})")
    return result


def _fit_gradient(node, i, grad, shape, np_dtype):
    """As PyTorch's engine does: sum a broadcast gradient back down to the input's shape
    and cast it to the input's dtype; any other mismatch is the Function's bug."""
    if grad._data.shape != shape:
        if not _expandable(shape, grad._data.shape):
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i} - got "
                f"[{', '.join(map(str, grad._data.shape))}] but expected shape compatible with "
                f"[{', '.join(map(str, shape))}]")
        grad = grad._sum_to(shape)
    if grad._data.dtype != np_dtype:
        grad = grad._to_np_dtype(np_dtype)
    return grad


def _expandable(shape, target):
    lead = len(target) - len(shape)
    if lead < 0:
        return False
    # (most often the shape is target's without its leading dims: a bias's, say)
    return target[lead:] == shape or all(s == t or s == 1 for s, t in zip(shape, target[lead:]))


def _accumulate(tensor, grad, owned=False):
    """``tensor.grad += grad``: in place into a buffer we own, or building a graph
    when the gradient itself is differentiable (create_graph=True)."""
    if tensor._grad is None:
        if grad._requires_grad:  # create_graph: a differentiable copy (CopyBackwards, as in PyTorch)
            tensor._grad = Tensor._wrap(np.empty_like(grad._data)).copy_(grad)
        elif owned:  # a new array that nothing else holds: keep it
            tensor._grad = grad
        else:  # a copy: the same gradient tensor may also reach other leaves, or the caller
            tensor._grad = Tensor._wrap(grad._data.copy())
    elif grad._requires_grad or tensor._grad._requires_grad:
        tensor._grad = tensor._grad + grad
    else:
        np.add(tensor._grad._data, grad._data, out=tensor._grad._data)
        tensor._grad._version_counter()[0] += 1


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: adds the incoming gradient into ``.grad``."""

    _seq = float("inf")  # as in PyTorch: run as soon as its gradient is complete

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def _run_pre_hooks(self, grad):
        hooks = self.variable._hooks  # the leaf's own hooks, then the node's (as in PyTorch)
        for hook in tuple(hooks.values()) if hooks else ():
            grad = _run_hook(hook, grad)
        return Node._run_pre_hooks(self, grad)

    def apply(self, grad, owned=False):
        # owned: the engine knows nothing else holds this gradient (and no hook replaced it).
        _accumulate(self.variable, grad, owned and not self.variable._hooks and not self._pre_hooks)
        if self.variable._post_hooks:
            for hook in tuple(self.variable._post_hooks.values()):
                if hook(self.variable) is not None:
                    raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        return []


def accumulator(tensor):
    """The leaf's AccumulateGrad node. Cached weakly, as PyTorch does: the node owns
    the tensor, not the other way round, so an unused leaf frees at once."""
    node = tensor._accumulator() if tensor._accumulator is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulator = weakref.ref(node)
    return node


def input_node(t):
    """The node by which a graph reaches tensor ``t`` (None if ``t`` needs no gradient)."""
    if t._view is not None and t._view.version != t._version_box[0]:  # changed in place since
        t._refresh_view()
    if t._grad_fn is not None:
        return t._grad_fn
    if t._requires_grad:
        return accumulator(t)
    return None


class _OnOutput(NamedTuple):
    """A tensor's hook on a node with several outputs: ``fn`` sees output ``output_nr``'s gradient."""
    fn: object
    output_nr: int


class _Shared(dict):
    """Nodes ask again and again for the same few tuples: which inputs need a gradient, the
    inputs' shapes and dtypes, the saved tensors' versions. ``table[t]`` is the first tuple
    equal to ``t`` that the table saw: shared, so that a node adds no new object for Python's
    garbage collector to walk as the graph grows."""

    def __missing__(self, value):
        if len(self) > 1024:  # many different shapes or versions: start afresh
            self.clear()
        self[value] = value
        return value


# A table per kind: (0,) == (False,), but a version is not a flag.
_NEEDS, _INPUTS, _VERSIONS = _Shared(), _Shared(), _Shared()
