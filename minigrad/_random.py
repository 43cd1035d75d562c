"""Random number streams: ``torch.Generator``, the default one, and ``manual_seed``.

minigrad's numbers come from NumPy's generator (PCG64), so a seed gives the same numbers
on every run of minigrad, but not the numbers PyTorch's Mersenne Twister gives.
"""
import numpy as np

from . import _device

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
        self._rng = np.random.default_rng(self._seed)
        return self

    def initial_seed(self):
        return self._seed


default_generator = Generator()


def manual_seed(seed):
    """Seed minigrad's random numbers (randn, rand, randint, randperm, dropout, shuffling)."""
    return default_generator.manual_seed(seed)


def rng(generator):
    """The NumPy generator behind ``generator`` (None: the default one)."""
    return (generator or default_generator)._rng
