"""minigrad.nn: modules, losses and functional forms, as in torch.nn (issue #3).

A model is a ``Module``: it owns ``Parameter``s (and sub-modules), and its
``forward`` computes with ordinary tensor ops, so ``loss.backward()`` reaches
every parameter. ``nn.functional`` holds the same computations as functions,
``nn.init`` the ways to fill parameters with starting values.
"""
from . import functional, init, utils
from .modules import *  # noqa: F403 (every layer, listed in modules/__init__.py)
from .modules import __all__ as _modules_all
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter

__all__ = [*_modules_all, "Parameter", "UninitializedBuffer", "UninitializedParameter", "functional", "init", "utils"]
