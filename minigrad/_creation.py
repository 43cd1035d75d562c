"""Making tensors: from data, filled with a value, ranges, and random numbers."""
import warnings

import numpy as np

from . import _dtype
from ._conventions import shape_args as _shape_args
from ._tensor import Tensor

_DEFAULT_SEED = 67280421310721  # PyTorch's: a fresh process gives the same numbers every run


class Generator:
    """A random number stream; ``manual_seed`` makes it reproducible."""

    def __init__(self, device="cpu"):
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed):
        self._seed = int(seed)
        self._rng = np.random.default_rng(self._seed)
        return self

    def initial_seed(self):
        return self._seed


default_generator = Generator()


def manual_seed(seed):
    """Seed minigrad's random numbers (randn, rand, randint, randperm, dropout, shuffling)."""
    return default_generator.manual_seed(seed)


def tensor(data, dtype=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, an array)."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                      ".requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
    return _new(_dtype.array_of(data, dtype), requires_grad)


def _new(array, requires_grad):
    t = Tensor._wrap(array)
    if requires_grad and not t.dtype.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t._requires_grad = bool(requires_grad)
    return t


def _float(dtype):
    return (dtype or _dtype.get_default_dtype()).np


def zeros(*size, dtype=None, requires_grad=False):
    return _new(np.zeros(_shape_args(size), _float(dtype)), requires_grad)


def ones(*size, dtype=None, requires_grad=False):
    return _new(np.ones(_shape_args(size), _float(dtype)), requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False):
    dtype = dtype or _dtype.default_for(fill_value)
    return _new(np.full(_shape_args((size,)), fill_value, dtype.np), requires_grad)


def empty(*size, dtype=None, requires_grad=False):
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def zeros_like(t, dtype=None, requires_grad=False):
    return _new(np.zeros(t._data.shape, (dtype.np if dtype else t._data.dtype)), requires_grad)


def ones_like(t, dtype=None, requires_grad=False):
    return _new(np.ones(t._data.shape, (dtype.np if dtype else t._data.dtype)), requires_grad)


def full_like(t, fill_value, dtype=None, requires_grad=False):
    return _new(np.full(t._data.shape, fill_value, (dtype.np if dtype else t._data.dtype)), requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = _dtype.int64 if is_int else _dtype.get_default_dtype()
    return _new(np.arange(start, end, step).astype(dtype.np), requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False):
    return _new(np.linspace(start, end, steps).astype(_float(dtype)), requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False):
    return _new(np.eye(n, m, dtype=_float(dtype)), requires_grad)


def from_numpy(array):
    """A tensor sharing memory with ``array``: changes to one show in the other."""
    if array.dtype not in (np.float32, np.float64, np.int64, np.bool_):
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype}. The only supported "
                        "types are: float64, float32, int64, and bool.")
    return Tensor._wrap(array)


def _rng(generator):
    return (generator or default_generator)._rng


def randn(*size, generator=None, dtype=None, requires_grad=False):
    array = _rng(generator).standard_normal(_shape_args(size), dtype=_float(dtype))
    return _new(array, requires_grad)


def rand(*size, generator=None, dtype=None, requires_grad=False):
    array = _rng(generator).random(_shape_args(size), dtype=_float(dtype))
    return _new(array, requires_grad)


def randn_like(t, dtype=None, requires_grad=False):
    return randn(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def rand_like(t, dtype=None, requires_grad=False):
    return rand(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def randint(low, high=None, size=(), generator=None, dtype=None):
    if high is None:
        low, high = 0, low
    array = _rng(generator).integers(low, high, size=_shape_args((size,)), dtype=np.int64)
    return Tensor._wrap(array if dtype is None else array.astype(dtype.np))


def randperm(n, generator=None, dtype=None):
    array = _rng(generator).permutation(n).astype(np.int64)
    return Tensor._wrap(array if dtype is None else array.astype(dtype.np))
