"""``torch.return_types``: the classes of the named tuples that ``max(dim)``, ``sort``,
``aminmax``, ``linalg.qr``... return (made by ``_conventions.return_type``).

``pickle`` and ``copy`` find a class by its module and name, ``minigrad.return_types.max``,
so each kind is looked up here by the name PyTorch gives it."""
from ._conventions import RETURN_TYPES


def __getattr__(name):
    try:
        return RETURN_TYPES[name]
    except KeyError:
        raise AttributeError(f"module 'torch.return_types' has no attribute '{name}'") from None


def __dir__():
    return sorted(RETURN_TYPES)
