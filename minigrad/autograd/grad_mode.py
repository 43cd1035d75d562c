"""``torch.autograd.grad_mode``: they live in minigrad/core/grad_mode.py."""
from ..core.grad_mode import (enable_grad, inference_mode, no_grad, set_grad_enabled)  # noqa: F401
