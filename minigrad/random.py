"""``torch.random``: the default generator's seed and state (the same functions as ``torch.*``),
and ``fork_rng``, which puts the state back after a block of draws. See _random.py."""
from ._random import default_generator, fork_rng, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["set_rng_state", "get_rng_state", "manual_seed", "seed", "initial_seed", "fork_rng"]
