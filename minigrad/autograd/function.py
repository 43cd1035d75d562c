"""``torch.autograd.function``: Function, for your own ops. It lives in minigrad/core/function.py."""
from ..core.function import Function  # noqa: F401
