"""The Tensor's random numbers: in-place fills (nn.init's tools) and sampling.

``class Tensor`` (minigrad/_tensor.py) inherits these methods. The numbers are drawn as
PyTorch's CPU kernels draw them (minigrad/_random.py), element by element in the tensor's
memory order: after the same seed, the same numbers as PyTorch.
"""
import numbers

import numpy as np

from . import _inplace, _random, ops
from ._conventions import check_expand
from ._random import generator_of, in_memory_order, laid_out
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
        return self._draw(ops.Normal, lambda g, n: _random.normal(g, n, self._data.dtype, mean, std,
                                                                   self._data.flags.c_contiguous), generator)

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        float_only(self, "check_uniform_bounds")
        check_uniform_bounds(a, b)
        return self._draw(ops.Uniform, lambda g, n: _random.uniform(g, n, self._data.dtype, a, b), generator)

    def random_(self, low=None, high=None, *, generator=None):
        """Whole numbers in ``[low, high)``; ``random_(high)`` means ``[0, high)``; ``random_()``
        every whole number the dtype holds (floats: up to 2**24 or 2**53, all exact)."""
        op = ops.RandomAll if low is None else ops.RandomTo if high is None else ops.RandomFromTo
        if low is None:
            return self._draw(op, lambda g, n: _random.random_any(g, n, self.dtype), generator)
        if high is None:
            low, high = 0, low
        return self._draw(op, lambda g, n: _random.random_from_to(g, n, self.dtype, low, high), generator)

    def exponential_(self, lambd=1.0, *, generator=None):
        """Waiting times of rate ``lambd``: density ``lambd * exp(-lambd * x)``, mean ``1 / lambd``."""
        if not lambd > 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_g(lambd)}")
        _continuous(self, "Exponential")
        return self._draw(ops.Exponential, lambda g, n: _random.exponential(g, n, lambd), generator)

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        """``median + sigma * tan(pi * (U - 1/2))``: heavy tails, no mean."""
        if not sigma > 0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_g(sigma)}")
        _continuous(self, "Cauchy")
        return self._draw(ops.Cauchy, lambda g, n: _random.cauchy(g, n, median, sigma), generator)

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        """``exp`` of normal numbers of that ``mean`` and ``std`` (theirs, not the result's)."""
        if not std > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_g(std)}")
        float_only(self, "log_normal_cpu")
        return self._draw(ops.LogNormal, lambda g, n: _random.log_normal(g, n, mean, std), generator)

    def geometric_(self, p, *, generator=None):
        """The number of tries up to the first success (1, 2, ...), each a success with probability p."""
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_g(p)}")
        if self.dtype.name == "bool":
            raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
        return self._draw(ops.Geometric, lambda g, n: _random.geometric(g, n, p), generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        """1 with probability ``p`` (a number, or a tensor of them broadcast to this one), else 0."""
        if isinstance(p, TensorBase):
            float_only(p, "bernoulli_tensor_cpu_p_")
            if p._data.shape != self._data.shape:
                check_expand(p._data.shape, self._data.shape)
            probs = np.broadcast_to(p._data, self._data.shape)
            if not ((probs >= 0) & (probs <= 1)).all():
                raise RuntimeError(_BERNOULLI_P)
            draws = self._drawn(lambda g, n: _random.bernoulli_draws(g, in_memory_order(probs, self._data)),
                                generator)
            return _inplace.apply(self, ops.BernoulliTensor.apply, p, draws.astype(self._data.dtype))
        if type(p) is bool or not isinstance(p, numbers.Real):
            raise TypeError(f"bernoulli_() received an invalid combination of arguments - got "
                            f"({type(p).__name__}), but expected one of:\n"
                            " * (Tensor p, *, torch.Generator generator = None)\n"
                            " * (float p = 0.5, *, torch.Generator generator = None)\n")
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_g(p)}")
        return self._draw(ops.BernoulliNumber, lambda g, n: _random.bernoulli_number(g, n, p), generator)

    def bernoulli(self, p=None, *, generator=None):
        """0s and 1s: 1 with the probability in each element (``p``: one probability for all).
        Drawn, not computed: its gradient is zeros (with ``p``, PyTorch has none at all)."""
        if p is not None:  # a number: self gives only the shape and dtype
            if not 0 <= p <= 1:
                raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_g(p)}")
            draws = self._drawn(lambda g, n: _random.bernoulli_number(g, n, p), generator)
            return ops.BernoulliProbability.apply(self, draws.astype(self._data.dtype))
        probs = float_only(self, "bernoulli_tensor_cpu_p_")._data
        if not ((probs >= 0) & (probs <= 1)).all():
            raise RuntimeError(_BERNOULLI_P)
        draws = _random.bernoulli_draws(generator_of(generator), probs.reshape(-1)).reshape(probs.shape)
        return ops.Bernoulli.apply(self, draws.astype(probs.dtype))

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """Indices drawn with the probabilities in ``self`` (weights: the sum need not be 1), for
        each row of a 2-D tensor; ``torch.multinomial(p, 1, generator=g)`` is makemore's sampler."""
        return TensorBase._wrap(_random.multinomial(self._data, num_samples, replacement, generator))

    def _drawn(self, draw, generator):
        """``draw(generator, n)``'s n numbers, one per element in memory order, laid out as this tensor."""
        return laid_out(draw(generator_of(generator), self._data.size), self._data)

    def _draw(self, op, draw, generator):
        """Refill with ``draw``'s numbers, recording ``op``'s node."""
        return _inplace.apply(self, op.apply, self._drawn(draw, generator).astype(self._data.dtype))

