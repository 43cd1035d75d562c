"""minigrad.autograd: the graph, the backward pass, and the tools around them."""
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import _make_grads, backward, grad
from .function import Function
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                        no_grad, set_grad_enabled)
from .gradcheck import gradcheck
from . import engine, function, graph  # noqa: F401 (minigrad.viz reads engine and function)


__all__ = ["Function", "backward", "grad", "gradcheck", "no_grad", "enable_grad",
           "set_grad_enabled", "is_grad_enabled", "inference_mode", "is_inference_mode_enabled",
           "detect_anomaly", "set_detect_anomaly", "graph"]
# minigrad.autograd.functional (jacobian, hessian, ...) builds on the ops, which build on this
# package: minigrad/__init__.py loads it.
