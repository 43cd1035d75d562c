"""minigrad.autograd: the graph, the backward pass, and the tools around them.

The idea itself (nodes, Function, the engine, grad modes) is in minigrad/core/; this package
gives it PyTorch's names (``torch.autograd.grad``, ``torch.autograd.Function``, ...) and adds
the tools around it: gradcheck, functional (jacobian, hessian, ...).
"""
from ..core.anomaly_mode import detect_anomaly, set_detect_anomaly
from ..core.engine import _make_grads, backward, grad
from ..core.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                              no_grad, set_grad_enabled)
from . import anomaly_mode, function, grad_mode, graph  # noqa: F401 (torch.autograd.function, ...)
from .function import Function
from .gradcheck import gradcheck
from .variable import Variable


__all__ = ["Variable", "Function", "backward", "grad", "gradcheck", "no_grad", "enable_grad",
           "set_grad_enabled", "is_grad_enabled", "inference_mode", "is_inference_mode_enabled",
           "detect_anomaly", "set_detect_anomaly", "graph"]
# minigrad.autograd.functional (jacobian, hessian, ...) builds on the ops, which build on this
# package: minigrad/__init__.py loads it.
