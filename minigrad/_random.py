"""Random number streams: ``torch.Generator``, the default one, and ``manual_seed``; and
``multinomial``'s draws of categories.

minigrad's numbers come from NumPy's generator (PCG64), so a seed gives the same numbers
on every run of minigrad, but not the numbers PyTorch's Mersenne Twister gives. For the
same reason a generator's state (``get_rng_state()``) is minigrad's own bytes, not PyTorch's.
"""
import numbers
import os

import numpy as np

from . import _device, _dtype, ops
from ._conventions import typename
from .core.tensor import TensorBase

_DEFAULT_SEED = 67280421310721  # PyTorch's: a fresh process gives the same numbers every run


class Generator:
    """A random number stream; ``manual_seed`` makes it reproducible. Creation functions
    (``randn(..., generator=g)``) and in-place fills (``x.normal_(generator=g)``) accept one."""

    def __init__(self, device="cpu"):
        _device.check(device)
        self.device = _device.CPU
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed):
        self._seed = int(seed)
        self._numpy_rng = None  # made on first use: NumPy's random module adds 13 ms to the import
        return self

    @property
    def _rng(self):
        """The NumPy generator (PCG64) that draws this stream's numbers."""
        if self._numpy_rng is None:
            self._numpy_rng = np.random.default_rng(self._seed)
        return self._numpy_rng

    def initial_seed(self):
        return self._seed

    def seed(self):
        """Seed with a number from the operating system's randomness, and return it."""
        self.manual_seed(int.from_bytes(os.urandom(8), "little"))
        return self._seed

    def get_state(self):
        """The generator's state as a uint8 tensor: ``set_state`` of it replays the same numbers.
        The bytes are minigrad's own (NumPy's PCG64: its state and increment, the half-used
        32-bit word, then the seed): 45 of them, where PyTorch's Mersenne Twister has 5056."""
        bits = self._rng.bit_generator.state
        state = (bits["state"]["state"].to_bytes(16, "little") + bits["state"]["inc"].to_bytes(16, "little")
                 + bytes([bits["has_uint32"]]) + bits["uinteger"].to_bytes(4, "little")
                 + (self._seed % 2 ** 64).to_bytes(8, "little"))
        return TensorBase._wrap(np.frombuffer(state, np.uint8).copy())

    def set_state(self, new_state):
        """Go back to a state ``get_state`` returned (a uint8 tensor of its 45 bytes)."""
        if not hasattr(new_state, "_data"):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state._data.size != _STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input "
                               f"RNG state size to be {new_state._data.size}")
        bits = new_state._data.reshape(-1).tobytes()  # (the layout get_state writes)
        self._seed = int.from_bytes(bits[37:], "little")
        self._numpy_rng = np.random.default_rng()
        self._numpy_rng.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": int.from_bytes(bits[:16], "little"), "inc": int.from_bytes(bits[16:32], "little")},
            "has_uint32": bits[32],
            "uinteger": int.from_bytes(bits[33:37], "little"),
        }
        return self


_STATE_SIZE = 45  # bytes of Generator.get_state()


default_generator = Generator()


def manual_seed(seed):
    """Seed minigrad's random numbers (randn, rand, randint, randperm, dropout, shuffling)."""
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator from the operating system's randomness; the seed is returned."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state, a uint8 tensor (minigrad's bytes, not PyTorch's: see
    Generator.get_state); ``set_rng_state`` of it replays the same random numbers."""
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


def _tensor(input, who):
    if not isinstance(input, TensorBase):
        raise TypeError(f"{who}(): argument 'input' (position 1) must be Tensor, not {typename(input)}")
    return input


def bernoulli(input, p=None, *, generator=None):
    """0s and 1s, 1 with the probability in each element of ``input`` (or with ``p`` for all)."""
    return _tensor(input, "bernoulli").bernoulli(p, generator=generator)


def poisson(input, generator=None):
    """A count per element, drawn from the Poisson distribution whose rate (and mean) the
    element is: how many events happen in a unit of time at that rate. Its gradient is zeros."""
    rates = _tensor(input, "poisson")._data
    if rates.dtype.kind != "f":
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{input.dtype.legacy_name}'")
    if not (rates >= 0).all():  # (NaN too)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return ops.Poisson.apply(input, rng(generator).poisson(rates).astype(rates.dtype))


def rng(generator):
    """The NumPy generator behind ``generator`` (None: the default one)."""
    return (generator or default_generator)._rng


# ---------------------------------------------------------------------------------------------
# multinomial: drawing categories (makemore's sampler), on NumPy arrays
# ---------------------------------------------------------------------------------------------


def multinomial(probs, num_samples, replacement=False, generator=None, first=1):
    """Indices drawn with the probabilities in ``probs`` (weights: the sum need not be 1), for
    each row of a 2-D array: ``Tensor.multinomial``'s and ``torch.multinomial``'s work (``first``:
    see check_multinomial)."""
    check_multinomial(probs, num_samples, replacement, generator, first)
    out_shape = probs.shape[:-1] + (num_samples,)
    if not np.prod(out_shape):  # no rows: nothing to draw, nothing to check
        return np.zeros(out_shape, np.int64)
    rows = probs.reshape(int(np.prod(out_shape[:-1])), -1).astype(np.float64)  # 1-D: one row
    r = rng(generator)
    if not replacement or num_samples == 1:
        _check_probabilities(rows)
        # Each category gets the key p / E, with E ~ Exp(1): the largest key is category i
        # with probability p_i, the next largest the next draw from the rest, and so on
        # (a race of exponential clocks). PyTorch samples this way too.
        with np.errstate(divide="ignore"):
            keys = rows / r.standard_exponential(rows.shape)
        samples = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    else:  # the inverse of each row's cumulative distribution at uniform numbers in [0, 1)
        _check_probabilities(rows, replacement=True)
        cdf = np.cumsum(rows, axis=1)
        cdf /= cdf[:, -1:]
        u = r.random((len(rows), num_samples))
        samples = np.stack([np.searchsorted(c, x, side="right") for c, x in zip(cdf, u)])
    return samples.reshape(out_shape).astype(np.int64)


def check_multinomial(probs, num_samples, replacement, generator, first=1):
    """PyTorch's checks of multinomial's arguments, in its order (``first``: num_samples's
    position: 1 for the method, 2 for ``torch.multinomial``)."""
    if type(num_samples) is bool or not isinstance(num_samples, numbers.Integral):
        raise TypeError(f"multinomial(): argument 'num_samples' (position {first}) must be int, not "
                        f"{type(num_samples).__name__}")
    if type(replacement) is not bool:
        raise TypeError(f"multinomial(): argument 'replacement' (position {first + 1}) must be bool, "
                        f"not {type(replacement).__name__}")
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError("multinomial(): argument 'generator' must be torch.Generator, not "
                        f"{type(generator).__name__}")
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_dtype.from_numpy_dtype(probs.dtype).legacy_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")


def _check_probabilities(rows, replacement=False):
    """PyTorch's words for probabilities that make no distribution (its two code paths say it
    differently): negative, infinite or NaN entries, a row of zeros."""
    bad = ~(rows >= 0) | ~np.isfinite(rows)  # (NaN >= 0 is False)
    empty = ~(rows.sum(axis=1) > 0)
    if not replacement:  # checked on the whole tensor first, then row by row
        if bad.any():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    else:  # the first row with a problem, entry by entry
        for i in np.flatnonzero(bad.any(axis=1) | empty)[:1]:
            if bad[i].any():
                first = rows[i, np.argmax(bad[i])]
                raise RuntimeError("invalid multinomial distribution (encountering probability entry "
                                   + ("< 0)" if not first >= 0 else "= infinity or NaN)"))
    if empty.any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
