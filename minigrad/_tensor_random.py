"""The Tensor's random numbers: in-place fills (nn.init's tools) and sampling.

``class Tensor`` (minigrad/_tensor.py) inherits these methods. The numbers come from
minigrad's generators (minigrad/_random.py): a seed gives the same numbers on every run, but
not those PyTorch gives.
"""
import numbers

import numpy as np

from . import _inplace, _random, ops
from ._conventions import check_expand
from ._random import rng
from ._conventions import check_normal_std, check_uniform_bounds, float_only
from .core.tensor import TensorBase

# A continuous distribution's refusal of an integer tensor names its dtype in C++ words (cauchy_)
_CPP_TYPES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}
_BERNOULLI_P = ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be "
                "improved?  If so, please report an enhancement request to PyTorch.)")


def _g(x):
    """A number as PyTorch's C++ prints it in an error (``-1``, ``0.5``, ``1e-07``)."""
    return f"{float(x):g}"


def _continuous(t, name):
    if not t.dtype.is_floating_point:
        raise RuntimeError(f"{name} distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified "
                           + (t.dtype.legacy_name if name == "Exponential" else _CPP_TYPES[t.dtype.name]))
    return t


class RandomMixin:
    __slots__ = ()

    # In-place fills: each records PyTorch's node (NormalBackward0...), whose gradient is zeros
    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        float_only(self, "normal_kernel_cpu")
        check_normal_std(std)
        return self._refill(ops.Normal, rng(generator).normal(mean, std, self._data.shape))

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        float_only(self, "check_uniform_bounds")
        check_uniform_bounds(a, b)
        return self._refill(ops.Uniform, rng(generator).uniform(a, b, self._data.shape))

    def random_(self, low=None, high=None, *, generator=None):
        """Whole numbers in ``[low, high)``; ``random_(high)`` means ``[0, high)``."""
        op = ops.RandomAll if low is None else ops.RandomTo if high is None else ops.RandomFromTo
        if high is None:
            low, high = 0, low
        if not high:  # random_(): every whole number the dtype holds exactly
            floating = self.dtype.is_floating_point
            high = 2 ** (np.finfo(self._data.dtype).nmant + 1) + 1 if floating else 2 ** 63 - 1
        return self._refill(op, rng(generator).integers(low, high, self._data.shape))

    def exponential_(self, lambd=1.0, *, generator=None):
        """Waiting times of rate ``lambd``: density ``lambd * exp(-lambd * x)``, mean ``1 / lambd``."""
        if not lambd > 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_g(lambd)}")
        _continuous(self, "Exponential")
        return self._refill(ops.Exponential, rng(generator).exponential(1 / lambd, self._data.shape))

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        """``median + sigma * tan(pi * (U - 1/2))``: heavy tails, no mean."""
        if not sigma > 0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_g(sigma)}")
        _continuous(self, "Cauchy")
        return self._refill(ops.Cauchy, median + sigma * rng(generator).standard_cauchy(self._data.shape))

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        """``exp`` of normal numbers of that ``mean`` and ``std`` (theirs, not the result's)."""
        if not std > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_g(std)}")
        float_only(self, "log_normal_cpu")
        return self._refill(ops.LogNormal, rng(generator).lognormal(mean, std, self._data.shape))

    def geometric_(self, p, *, generator=None):
        """The number of tries up to the first success (1, 2, ...), each a success with probability p."""
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_g(p)}")
        if self.dtype.name == "bool":
            raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
        return self._refill(ops.Geometric, rng(generator).geometric(p, self._data.shape))

    def bernoulli_(self, p=0.5, *, generator=None):
        """1 with probability ``p`` (a number, or a tensor of them broadcast to this one), else 0."""
        if isinstance(p, TensorBase):
            float_only(p, "bernoulli_tensor_cpu_p_")
            if p._data.shape != self._data.shape:
                check_expand(p._data.shape, self._data.shape)
            probs = np.broadcast_to(p._data, self._data.shape)
            if not ((probs >= 0) & (probs <= 1)).all():
                raise RuntimeError(_BERNOULLI_P)
            draws = rng(generator).random(self._data.shape) < probs
            return _inplace.apply(self, ops.BernoulliTensor.apply, p, draws.astype(self._data.dtype))
        if type(p) is bool or not isinstance(p, numbers.Real):
            raise TypeError(f"bernoulli_() received an invalid combination of arguments - got "
                            f"({type(p).__name__}), but expected one of:\n"
                            " * (Tensor p, *, torch.Generator generator = None)\n"
                            " * (float p = 0.5, *, torch.Generator generator = None)\n")
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_g(p)}")
        return self._refill(ops.BernoulliNumber, rng(generator).random(self._data.shape) < p)

    def bernoulli(self, p=None, *, generator=None):
        """0s and 1s: 1 with the probability in each element (``p``: one probability for all).
        Drawn, not computed: its gradient is zeros (with ``p``, PyTorch has none at all)."""
        if p is not None:  # a number: self gives only the shape and dtype
            if not 0 <= p <= 1:
                raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_g(p)}")
            draws = rng(generator).random(self._data.shape) < p
            return ops.BernoulliProbability.apply(self, draws.astype(self._data.dtype))
        probs = float_only(self, "bernoulli_tensor_cpu_p_")._data
        if not ((probs >= 0) & (probs <= 1)).all():
            raise RuntimeError(_BERNOULLI_P)
        return ops.Bernoulli.apply(self, (rng(generator).random(probs.shape) < probs).astype(probs.dtype))

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """Indices drawn with the probabilities in ``self`` (weights: the sum need not be 1), for
        each row of a 2-D tensor; ``torch.multinomial(p, 1, generator=g)`` is makemore's sampler."""
        return TensorBase._wrap(_random.multinomial(self._data, num_samples, replacement, generator))

    def _refill(self, op, array):
        return _inplace.apply(self, op.apply, array.astype(self._data.dtype))
