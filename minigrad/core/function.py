"""Function and Op: how an op runs forward and records the node that will run its backward.

Every differentiable op is a ``Function`` with a static ``forward(ctx, ...)`` and
``backward(ctx, grad)``. Calling ``Fn.apply(...)`` runs ``forward`` and, when
recording, keeps ``ctx`` as the output's ``grad_fn``: the node *is* the context,
as in PyTorch, so whatever ``forward`` saved is there when ``backward`` runs.
``Op`` is the base of minigrad's own ops (core/ops/, minigrad/ops/): its forward computes
on NumPy arrays.
"""
import itertools
import traceback

import numpy as np

from . import anomaly_mode, grad_mode
from .node import _INPUTS, _NEEDS, Node, input_node
from .numpy_errors import IGNORE_ALL, numpy_errors
from .tensor import TensorBase as Tensor  # (every tensor is one: the full class extends it)

_sequence = itertools.count()  # creation order; backward runs newest nodes first


class _FunctionMeta(type):
    """Gives every Function its own node class, named as PyTorch names it:
    ``<ClassName>Backward`` for user Functions; built-in ops set ``node_name``."""

    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        node_name = attrs.get("node_name") or name + "Backward"
        builtin = getattr(cls, "_builtin", False)
        # PyTorch's built-in nodes print as <class 'AddBackward0'>: no module.
        cls._node_cls = type(node_name, (Node,), {"_function": cls, "_builtin": builtin,
                                                  "__module__": "builtins" if builtin else cls.__module__})


class Function(metaclass=_FunctionMeta):
    """Subclass with ``forward(ctx, *args)`` and ``backward(ctx, *grads)`` static methods,
    then call ``YourFunction.apply(*args)``.

    ``forward`` gets the tensors themselves and runs without recording; ``backward``
    returns one gradient per ``forward`` argument (``None`` for non-tensors).
    """

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("You must implement either the backward or the vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def _forward(cls, ctx, args, arrays):
        with grad_mode.no_grad():
            out = cls.forward(ctx, *args)
        if isinstance(out, tuple):  # several outputs: each a tensor, all outputs of one node
            return tuple([cls._own_output(o, args) for o in out])
        return cls._own_output(out, args)

    @classmethod
    def _own_output(cls, out, args):
        if not isinstance(out, Tensor):
            raise TypeError(f"{cls.__name__}.forward must return a Tensor or a tuple of Tensors")
        if any(out is a for a in args):  # forward returned an input: give the output its own tensor
            out = Tensor._wrap(out._data)
        return out

    _builtin = False
    # Positions of tensor arguments that are no inputs of the graph: an index, a mask, a target.
    # As in PyTorch, they get no edge in next_functions, and a node that saves one notices when
    # it is changed in place (gather's index, say: backward would send the gradient elsewhere).
    _non_differentiable = ()

    @classmethod
    def apply(cls, *args):
        recording = not grad_mode.not_recording or grad_mode._state.enabled  # grad_mode.recording(), inline
        if cls._builtin and not recording:  # nothing will be recorded: no node needed
            arrays = []  # (a loop, as in saved_tensors)
            for a in args:
                arrays.append(a._data if isinstance(a, Tensor) else a)
            return cls._forward(_Unrecorded(), args, arrays)
        ctx = cls._node_cls()
        # One pass over the arguments: which want a gradient, the shape and dtype of each (to fit
        # its gradient to), the node its gradient goes on to (None if it needs none), its array.
        needs, inputs, nodes, arrays = [], [], [], []
        numbered = False  # whether some input is one of several outputs of its node (a piece of split)
        for a in args:
            if isinstance(a, Tensor):
                node = input_node(a)  # (first: it may make a view's grad_fn again)
                needs.append(node is not None)
                inputs.append((a._data.shape, a._data.dtype))
                nodes.append(node)
                arrays.append(a._data)
                if a._output_nr is not None:
                    numbered = True
            else:
                needs.append(False)
                inputs.append(None)
                arrays.append(a)
        if cls._non_differentiable:  # (a few ops only: gather, x[index], nll_loss...)
            nodes = []  # (loops, not comprehensions: those would make cls a cell in every call)
            for i, a in enumerate(args):
                if i in cls._non_differentiable:
                    inputs[i] = None
                elif inputs[i] is not None:
                    nodes.append(input_node(a))
        ctx.needs_input_grad = needs = _NEEDS[tuple(needs)]
        out = cls._forward(ctx, args, arrays)
        # Record only if some input wants a gradient, recording is on, and the result can have one.
        if True in needs and recording:
            if out.__class__ is tuple:  # several outputs (the pieces of x.split(2)): one node
                ctx._take_outputs(out)
            elif out._data.dtype.kind == "f":
                out._grad_fn, out._requires_grad = ctx, True
            else:
                return out  # (an integer or boolean result has no gradient)
            ctx._seq = next(_sequence)
            if anomaly_mode._enabled:
                ctx._trace = traceback.format_stack()[:-2]
            if ctx._to_save:
                if out.__class__ is tuple:  # an output it saved (std_mean's std) is found among these
                    ctx._pack(args + _outputs_as_saved(ctx, out), None)
                else:
                    ctx._pack(args, out)
            ctx._inputs, ctx._next_nodes = _INPUTS[tuple(inputs)], tuple(nodes)
            if numbered:  # each edge's output number at its node (next_functions shows them)
                ctx._next_nrs = _edge_numbers(args, cls._non_differentiable)
        return out


def _outputs_as_saved(node, outs):
    """A node with several outputs keeps an output it saved as its own tensor of that output
    (same memory, same version counter), not the caller's: an in-place change to the caller's
    is noticed, and named as PyTorch names it (output 1 of StdMean)."""
    saved = []
    for nr, o in enumerate(outs):
        if any(o._data is item for item in node._to_save):  # (most save only their input)
            t = Tensor._wrap(o._data, grad_fn=node, version_box=o._version_counter())
            t._output_nr = nr
            saved.append(t)
    return tuple(saved)


def _edge_numbers(args, non_differentiable):
    """The output number of each tensor input at its node, in the order of ``_next_nodes``."""
    return tuple([a._output_nr for i, a in enumerate(args)
                  if isinstance(a, Tensor) and i not in non_differentiable])



class _Unrecorded:
    """The ctx of a built-in op while grad mode is off (inside backward, under no_grad):
    its forward runs as usual, and what it saves is dropped with this object."""

    needs_input_grad = (False,) * 8
    _to_save = ()

    def save_for_backward(self, *tensors):
        pass


class Op(Function):
    """Base of minigrad's built-in ops: like a user Function, except that ``forward``
    computes on the inputs' NumPy arrays (a Tensor op inside it would record itself)."""

    _builtin = True
    view = False  # True for ops whose output is a view of their first input (t(), x[0], ...)

    @classmethod
    def _forward(cls, ctx, args, arrays):
        if cls.view:  # a view computes nothing: no NumPy error state to set
            result = cls.forward(ctx, *arrays)
            if result.__class__ is tuple:  # several views (the pieces of x.split(2))
                return tuple(map(args[0]._view_of, result))
            if isinstance(result, np.ndarray) and result.base is not None and result.base is owner(arrays[0]):
                return args[0]._view_of(result)  # every view op (Linear's t()) comes here
        else:
            # inf * 0, log(-1)...: NaN or inf, silently, as in PyTorch. (Backward, which runs many
            # ops, is quiet throughout already: then there is nothing to set.)
            token = None if numpy_errors.get() is IGNORE_ALL else numpy_errors.set(IGNORE_ALL)
            try:
                result = cls.forward(ctx, *arrays)
            finally:
                if token is not None:
                    numpy_errors.reset(token)
        if not isinstance(result, np.ndarray):  # NumPy returns scalars for 0-d results
            if result.__class__ is tuple:  # several outputs (the pieces of x.unsafe_split(2))
                return tuple([Tensor._wrap(r) for r in result])
            array = np.asarray(result)
            for s in ctx._to_save:
                if s is result:  # forward saved its result: save the array instead (loops, not a
                    saved = []  # comprehension: that would make array and result cells in every call)
                    for t in ctx._to_save:
                        saved.append(array if t is result else t)
                    ctx._to_save = tuple(saved)
                    break
            result = array
        return Tensor._wrap(result)



def owner(array):
    """The array that owns ``array``'s memory: itself, or the base of a view."""
    return array if array.base is None else array.base  # NumPy points every view at the owner
