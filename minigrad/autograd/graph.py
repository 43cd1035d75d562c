"""``torch.autograd.graph``: saved_tensors_hooks. It lives in minigrad/core/graph.py."""
from ..core.graph import saved_tensors_hooks  # noqa: F401
