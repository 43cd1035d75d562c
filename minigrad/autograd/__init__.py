"""minigrad.autograd: the graph, the backward pass, and the tools around them."""
import warnings

import numpy as np

from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .function import Function, _accumulate
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .gradcheck import gradcheck
from . import engine


def _make_grads(outputs, grad_outputs):
    """Check each output can be differentiated and pick its starting gradient:
    the one given, or 1 for a scalar (the implicit gradient of ``loss.backward()``)."""
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not out.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            if out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not out.dtype.is_floating_point:
                raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                   f"torch.{out.dtype.name}")
            g = type(out)._wrap(np.ones_like(out._data))
        elif not isinstance(g, type(out)):
            g = type(out)._wrap(np.asarray(g, dtype=out._data.dtype))
        elif g.shape != out.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape!r} and "
                               f"output[{i}] has a shape of {out.shape!r}.")
        grads.append(g)
    return grads


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate into ``.grad`` of the leaves the gradient of ``tensors``."""
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors)
    grads = _make_grads(tensors, grad_tensors)
    retain = create_graph if retain_graph is None else retain_graph
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the parameter "
            "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
            "creating the graph to avoid this. If you have to use this function, make sure to reset the "
            ".grad fields of your parameters to None after use to break the cycle and avoid the leak.",
            UserWarning, stacklevel=3)
    if inputs is None:
        engine.run_backward(tensors, grads, retain, create_graph)
        return
    # backward(inputs=...): accumulate only into the given tensors
    for t, g in zip(_as_tuple(inputs), engine.run_backward(tensors, grads, retain, create_graph,
                                                           inputs=_as_tuple(inputs))):
        if g is not None:
            _accumulate(t, g)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False, materialize_grads=False):
    """Return d(outputs)/d(inputs) without touching any ``.grad``."""
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grad_outputs = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    grads = _make_grads(outputs, grad_outputs)
    retain = create_graph if retain_graph is None else retain_graph
    result = engine.run_backward(outputs, grads, retain, create_graph, inputs=inputs)
    for i, g in enumerate(result):
        if g is None and materialize_grads:
            from .._creation import zeros_like
            result[i] = zeros_like(inputs[i])
        elif g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in "
                               "the graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(result)


__all__ = ["Function", "backward", "grad", "gradcheck", "no_grad", "enable_grad",
           "set_grad_enabled", "is_grad_enabled", "detect_anomaly", "set_detect_anomaly"]
