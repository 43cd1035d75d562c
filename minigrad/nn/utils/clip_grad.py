"""Gradient clipping, as ``torch.nn.utils.clip_grad``: called between ``loss.backward()`` and
``optimizer.step()``, it changes the ``.grad`` of the parameters in place.

``clip_grad_norm_`` treats all the gradients as one long vector: if its norm is above
``max_norm``, every gradient is scaled by the same factor, so the direction of the step is
kept and only its length is limited (the usual cure for exploding gradients in RNNs).
It is ``get_total_norm`` followed by ``clip_grads_with_norm_``, as in PyTorch.
``clip_grad_value_`` instead clamps each number to ``[-clip_value, clip_value]``.

``foreach`` chooses PyTorch's faster kernels for the same result: accepted, and ignored.
"""
import types
import warnings

import numpy as np

from ... import _creation, _joining, linalg
from ..._tensor import Tensor
from ...autograd import no_grad

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm"]


@no_grad()
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The ``norm_type``-norm of all the tensors together, as if concatenated into one vector:
    the norm of the tensors' norms. ``norm_type`` may be ``inf`` (or ``'inf'``)."""
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return _creation.tensor(0.0)
    norms = [linalg.vector_norm(t, norm_type) for t in tensors]
    total_norm = linalg.vector_norm(_joining.stack(norms), norm_type)
    if error_if_nonfinite and (total_norm.isnan() | total_norm.isinf()).item():
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                           "so it cannot be clipped. To disable this error and scale the gradients by the "
                           "non-finite norm anyway, set `error_if_nonfinite=False`")
    return total_norm


@no_grad()
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale every gradient by ``min(max_norm / (total_norm + 1e-6), 1)``: only ever down
    (the 1e-6 keeps a zero norm from dividing by zero)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    clip_coef = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)  # a 0-d tensor, as PyTorch's
    with np.errstate(invalid="ignore"):  # a non-finite norm: inf * 0 is nan, silently as in PyTorch
        for g in grads:
            g.mul_(clip_coef)


@no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients down so that their total norm is at most ``max_norm``; returns
    the total norm *before* clipping (worth logging: it shows when gradients explode)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)  # model.parameters() is a generator: it is read twice below
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The old name of ``clip_grad_norm_`` (deprecated, as in PyTorch)."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient, number by number, to ``[-clip_value, clip_value]``."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:  # (before any backward: PyTorch's grouping of the gradients fails, with these words)
        raise RuntimeError("Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this error "
                           "message be improved?  If so, please report an enhancement request to PyTorch.)")
    for grad in grads:
        grad.clamp_(min=-clip_value, max=clip_value)
