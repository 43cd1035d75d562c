"""minigrad.utils: data loading, as in torch.utils."""
from . import data  # noqa: F401
