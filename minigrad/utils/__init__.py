"""minigrad.utils: data loading and activation checkpointing, as in torch.utils."""
from . import checkpoint, data  # noqa: F401
