"""In-place ops (``x.add_(y)``, ``x += y``, ``x.zero_()``): how PyTorch records them.

The tensor keeps its identity and its buffer, but its ``grad_fn`` becomes the new node,
whose input is the tensor as it was. Its version counter goes up, so a node that saved
the old values refuses to run backward with the new ones.

An in-place op on a view (``y[:, 1].mul_(2)``, ``y[0] = 0``, ``y.view(-1).zero_()``) changes
the view's base too: the base's ``grad_fn`` becomes a ``CopySlices`` node, which runs the op's
backward on the viewed region of the gradient and passes the rest through unchanged. Where
the view lies in the base's memory (its size, strides and first element: an ``as_strided``
view) is all CopySlices needs, whichever ops made the view.
"""
import functools
import re
import warnings
import weakref

import numpy as np

from . import ops
from ._conventions import IGNORE_ALL, INFERENCE_INPLACE, NO_GRAD_VIEW_INPLACE, check_broadcast, numpy_errors
from ._conventions import C_NAMES, RETURN_TYPES, ReturnType, return_type, strided_zeros, typename
from .core import function, grad_mode, node
from .core.tensor import TensorBase


def apply(tensor, method, *args, ufunc=None, alpha=1, fill=False):
    """Apply the out-of-place ``method`` (``Tensor.__add__``, say), then write its result
    into ``tensor``'s own buffer. ``ufunc``: the NumPy function that can compute straight
    into the buffer when nothing needs recording. ``alpha``: ``add_`` and ``sub_``'s factor
    on their operand (``x.add_(y, alpha=a)`` adds ``a * y``; ``method`` takes it too).
    ``fill``: the op writes one value everywhere (zero_, fill_)."""
    if tensor._inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    data = tensor._data
    if 0 in data.strides and not fill and _repeats_elements(data):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")
    record = grad_mode._state.enabled and (tensor._requires_grad or any(
        isinstance(a, TensorBase) and a._requires_grad for a in args) or (
        tensor._view is not None and tensor._view.base._requires_grad))  # (a view made under no_grad)
    if not record and ufunc is not None and data.dtype.kind == "f":
        # Nothing to record (an optimizer's update under no_grad, say): compute straight
        # into this tensor's buffer, with no temporary, as PyTorch does.
        other, scale = args[0], None
        if isinstance(other, TensorBase):
            other = other._data
            if alpha != 1 and type(alpha) in (int, float) and other.dtype == data.dtype:
                scale, alpha = alpha, 1  # an optimizer's ``p.add_(buf, alpha=-lr)``: see _into_buffer
        if alpha == 1:
            _into_buffer(tensor, ufunc, other, scale)
            return tensor
    if alpha != 1:
        method = functools.partial(method, alpha=alpha)  # ``method`` (add or sub) scales by alpha
    if record and tensor._multi_view and tensor._grad_fn is not None:
        # The node of split (unbind...) makes every piece's gradient at once: it cannot take
        # one piece's in-place op into its backward, as a view's CopySlices would.
        raise RuntimeError(f"Output {tensor.output_nr} of {re.sub(r'Backward[0-9]*$', '', tensor._grad_fn.name())} "
                           "is a view and is being modified inplace. This view is the output of a function that "
                           "returns multiple views. Such functions do not allow the output views to be modified "
                           "inplace. You should replace the inplace operation by an out-of-place one.")
    if record and tensor._view is not None:
        return _on_view(tensor, method, args)
    if record and tensor._requires_grad and tensor._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if record and tensor._data.base is not None and not tensor._owns_base:  # (_owns_base: after t_()...)
        # Memory shared with an array no tensor of this graph owns (torch.from_numpy(a[::2])):
        # no base to record the change on. (Every view a minigrad op makes knows its base.)
        raise RuntimeError("minigrad does not record in-place operations on a view of memory it "
                           "does not own (from NumPy, say); apply the operation out of place, or to "
                           "a copy, instead")
    old = tensor
    if record:  # a copy: the op may need the old values in backward
        old = TensorBase._wrap(tensor._data.copy(), grad_fn=tensor._grad_fn)
        old._requires_grad, old._output_nr = tensor._requires_grad, tensor._output_nr
    result = method(old, *args)
    _check_shape(result._data.shape, tensor)
    _check_cast(result, tensor)
    np.copyto(tensor._data, result._data, casting="unsafe")
    tensor._version_counter()[0] += 1
    if result._grad_fn is not None:
        result._grad_fn._rebind_output(tensor._data, tensor._version_counter())
        if tensor.retains_grad:  # the retained gradient is now that of the new values
            node = tensor._grad_fn
            result._grad_fn._retain = weakref.ref(tensor)
            node._retain = None if tensor._output_nr is None else {
                nr: ref for nr, ref in node._retain.items() if nr != tensor._output_nr}
        tensor._grad_fn, tensor._requires_grad, tensor._output_nr = result._grad_fn, True, None
    return tensor


def _into_buffer(tensor, ufunc, other, scale=None):
    """``ufunc(tensor, other)`` (``other * scale`` with a scale) written into the tensor's own
    buffer, silently (inf * 0 gives NaN without a warning), as every op's forward; its version
    goes up. The scale costs one temporary (NumPy has no fused x + a * y) and rounds twice (the
    product, then the sum): PyTorch rounds once, so the last bit can differ. The float32 sum in
    float64, rounded once, would agree, at 4 times the cost."""
    data = tensor._data
    token = None if numpy_errors.get() is IGNORE_ALL else numpy_errors.set(IGNORE_ALL)
    try:
        ufunc(data, other if scale is None else other * scale, out=data, casting="unsafe")
    except ValueError:
        check_broadcast(data.shape, np.shape(other))  # shapes that do not broadcast at all
        _check_shape(np.broadcast_shapes(data.shape, np.shape(other)), tensor)
        raise
    finally:
        if token is not None:
            numpy_errors.reset(token)
    tensor._version_counter()[0] += 1


def _on_view(view, method, args):
    """``view.<op>_(*args)``, recorded as PyTorch does: the op runs on the view's old values,
    its result is written through the view into the base's memory, and the base's ``grad_fn``
    becomes CopySlices around the op's node."""
    base = view._view.base
    if view._view.no_grad:
        raise RuntimeError(NO_GRAD_VIEW_INPLACE)
    if (view._requires_grad or base._requires_grad) and base._grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")
    where = _where(view, base)
    # The op's input: the viewed region of the base as it was, still linked to the base's
    # graph, so that what the op saves for backward can itself be differentiated.
    old = TensorBase._wrap(_strided_copy(base._data), grad_fn=base._grad_fn)
    old._requires_grad, old._output_nr = base._requires_grad, base._output_nr
    result = method(_as_strided(old, where), *args)
    _check_shape(result._data.shape, view)
    _check_cast(result, view)
    np.copyto(view._data, result._data, casting="unsafe")  # writes into the base's memory
    view._version_counter()[0] += 1  # shared with the base
    if result._grad_fn is not None:
        result._grad_fn._rebind_output(view._data, view._version_counter())
        base._grad_fn, base._requires_grad = CopySlices(base, where, result._grad_fn), True
        base._output_nr = None
        result._grad_fn._written_through = weakref.ref(base._grad_fn)  # what its saved output now is
        view._view = view._view._replace(version=-1)  # its grad_fn: made again (_views.py: _refresh_view)
        node.input_node(view)
    return view


def _where(view, base):
    """Where ``view`` lies in ``base``'s memory: its size, its strides and its first element
    counted from the base's first, in elements (``as_strided``'s arguments)."""
    return view._data.shape, view.stride(), view.storage_offset() - base.storage_offset()


def _as_strided(tensor, where):
    """The view at ``where`` (see _where) in ``tensor``, a tensor laid out as the base is."""
    size, stride, offset = where
    return tensor.as_strided(size, stride, tensor.storage_offset() + offset)


def _strided_copy(array):
    """A copy of ``array`` laid out as it is (the same strides), in memory of its own; the
    copy's first element comes first. (NumPy's copies are contiguous: strides are what CopySlices
    needs, so that a view's place in the base is its place in the copy.)"""
    out = strided_zeros(array.shape, [s // array.itemsize for s in array.strides], array.dtype)
    np.copyto(out, array)
    return out


def _repeats_elements(array):
    """Whether some element of ``array`` is another's memory too (an expanded tensor's): an op
    writing into it would write one place several times, so PyTorch refuses (but to fill it)."""
    return array.size > 1 and any(s == 0 and n > 1 for n, s in zip(array.shape, array.strides))


def _check_shape(shape, tensor):
    """An in-place result must fit the tensor: ``x.mul_(y)`` cannot grow ``x`` to ``y``'s shape."""
    if shape != tensor._data.shape:
        raise RuntimeError(f"output with shape {list(tensor._data.shape)} doesn't match the "
                           f"broadcast shape {list(shape)}")


def _check_cast(result, tensor):
    if result.dtype is not tensor.dtype and result.dtype._category > tensor.dtype._category:
        raise RuntimeError(f"result type {result.dtype.legacy_name} can't be cast to the "
                           f"desired output type {tensor.dtype.legacy_name}")


class CopySlices(node.Node):
    """The base's node after an in-place op on a view of it (``where``: the view's place in the
    base, see ``_where``). Its inputs: the base as it was, then the op's other inputs (its
    node's inputs after the first). Backward, as PyTorch's: the gradient outside the view passes
    to the old base unchanged; inside it, the op's own backward (``fn``) turns it into the
    gradient of the old view values and of the op's other inputs."""

    def __init__(self, base, where, fn):
        self._seq = next(function._sequence)  # its place in creation order (Function.apply's job for op nodes)
        self.where, self.fn = where, fn
        self.base_strides, self.base_array = base.stride(), base._data
        self._inputs = ((base._data.shape, base._data.dtype),) + tuple(
            meta for meta in fn._inputs[1:] if meta is not None)
        self._next_nodes = (node.input_node(base),) + fn._next_nodes[1:]
        if fn._next_nrs:  # (an input of the op is one of several outputs of its node)
            self._next_nrs = (base._output_nr,) + fn._next_nrs[1:]

    def apply(self, grad):
        # the gradient laid out as the base is, so that the view's place in it is ``where``
        result = grad.new_empty_strided(grad.shape, self.base_strides).copy_(grad)
        region = _as_strided(result, self.where)
        grads = self.fn.apply(region.clone())  # [view's, then the other inputs']
        if grads[0] is None:
            region.zero_()
        else:
            region.copy_(grads[0])
        return [result] + list(grads[1:])

    def view_of_base(self, version_box):
        """The view, as the base is after the change (AsStridedBackward0 of this node): what the
        op's node saved of its output is, differentiated again (create_graph)."""
        base = TensorBase._wrap(self.base_array, grad_fn=self, version_box=version_box)
        with grad_mode.enable_grad():
            return _as_strided(base, self.where)

    def name(self):
        return "torch::autograd::CopySlices"  # (a C++ class of PyTorch's, named as AccumulateGrad is)

    def _release(self):
        self.fn._release()

    @property
    def saved_freed(self):
        return self.fn.saved_freed


# -- out=: a function's result written into a tensor given to it --------------------------------

OUT_RESIZED = ("An output with one or more elements was resized since it had shape {}, which does not "
               "match the required output shape {}. This behavior is deprecated, and in a future PyTorch "
               "release outputs will not be resized unless they have zero elements. You can explicitly "
               "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).")


def check_out(out, who, op, *inputs):
    """``out=`` of the function ``who`` (computed by the op ``op``: ``torch.subtract`` is ``sub``;
    None: PyTorch checks no gradient),
    checked before it computes, as PyTorch checks it: a tensor (or, for a function of several
    results, a tuple of them), and no gradient to record: with grad mode on, neither ``out`` nor
    an input (a list of them counts) may require grad. The ``out=`` functions compute without a
    graph, so they are no use for training."""
    outs = out if isinstance(out, tuple) else (out,)
    if not all(isinstance(o, TensorBase) for o in outs):
        raise TypeError(f"{who}(): argument 'out' must be Tensor, not {typename(out)}")
    if grad_mode._state.enabled and op is not None:
        tensors = [t for x in (*outs, *inputs) for t in (x if isinstance(x, (list, tuple)) else (x,))]
        if any(isinstance(t, TensorBase) and t._requires_grad for t in tensors):
            raise RuntimeError(f"{op}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")


def write_out(out, result, dtypes="cast", warn=True):
    """``result`` (a tensor, or a tuple of them for a tuple ``out``) written into ``out``, which is
    returned. ``out`` takes result's shape first (``resize_``: PyTorch warns that this is
    deprecated if ``out`` had elements, and ``warn``); its dtype must fit ``dtypes``: "cast" (most
    ops: result's dtype may be cast to out's unless that loses its kind, float to int, say),
    "same" and "exact" (the result's dtype, as abs and as matmul word PyTorch's error), "any"."""
    if isinstance(out, tuple):  # (max(x, 1, out=(values, indices)) returns torch.return_types.max_out)
        for o, r in zip(out, result):
            write_out(o, r, dtypes, warn)
        kind = type(result)
        if not issubclass(kind, ReturnType):
            return out
        name = kind.__name__ + "_out"
        return (RETURN_TYPES.get(name) or return_type(name, " ".join(kind._fields)))(*out)
    if result.dtype is not out.dtype:
        if dtypes == "exact":
            raise RuntimeError(f"Expected out tensor to have dtype {C_NAMES[result.dtype.name]}, but got "
                               f"{C_NAMES[out.dtype.name]} instead")
        if dtypes == "same":
            raise RuntimeError(f"Found dtype {out.dtype.legacy_name} but expected {result.dtype.legacy_name}")
        if dtypes == "cast":
            _check_cast(result, out)
    shape = result._data.shape
    if out._data.shape != shape:
        if warn and out._data.size:
            warnings.warn(OUT_RESIZED.format(list(out._data.shape), list(shape)), UserWarning, stacklevel=3)
        out.resize_(shape)
    with grad_mode.no_grad():
        out.copy_(result)
    return out


def into_out(out, who, compute, *inputs, op=None, dtypes="cast", differentiable=True):
    """``out=`` of a function written by hand (``torch.cat(ts, out=o)``): check_out (no gradient
    check if the result is not ``differentiable``: a comparison's), then ``compute()`` (the
    function called again without out) written into ``out``."""
    check_out(out, who, (op or who) if differentiable else None, *inputs)
    return write_out(out, compute(), dtypes)
