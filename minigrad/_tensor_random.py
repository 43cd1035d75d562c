"""The Tensor's random numbers: in-place fills (nn.init's tools) and sampling.

``class Tensor`` (minigrad/_tensor.py) inherits these methods. The numbers come from
minigrad's generators (minigrad/_random.py): a seed gives the same numbers on every run, but
not those PyTorch gives.
"""
import numpy as np

from . import _inplace, _random, ops
from ._random import rng
from ._tensor_math import float_only
from .autograd import function


class RandomMixin:
    __slots__ = ()

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        return float_only(self, "normal_kernel_cpu")._refill(rng(generator).normal(mean, std, self._data.shape))

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        return float_only(self, "check_uniform_bounds")._refill(rng(generator).uniform(a, b, self._data.shape))

    def random_(self, low=0, high=None, *, generator=None):
        """Whole numbers in ``[low, high)``; ``random_(high)`` means ``[0, high)``."""
        if high is None:
            low, high = 0, low
        if not high:  # random_(): every whole number the dtype holds exactly
            floating = self.dtype.is_floating_point
            high = 2 ** (np.finfo(self._data.dtype).nmant + 1) + 1 if floating else 2 ** 63 - 1
        return self._refill(rng(generator).integers(low, high, self._data.shape))

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """Indices drawn with the probabilities in ``self`` (weights: the sum need not be 1), for
        each row of a 2-D tensor; ``torch.multinomial(p, 1, generator=g)`` is makemore's sampler."""
        return function.Tensor._wrap(_random.multinomial(self._data, num_samples, replacement, generator))

    def _refill(self, array):
        return _inplace.apply(self, ops.Fill.apply, array.astype(self._data.dtype))
