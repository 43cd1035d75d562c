"""torch.profiler is not part of minigrad: time code with ``time.perf_counter()`` or ``%timeit``.

PyTorch's profiler records how long each kernel ran on each device. minigrad's ops are
NumPy calls in one Python process: Python's own tools measure them (``%timeit`` in a
notebook, ``cProfile`` for a whole program), and ``make bench`` compares them with PyTorch.
"""
from enum import Enum

from ._unsupported import refusal

_INSTEAD = ("time minigrad code with time.perf_counter() or %timeit in a notebook, or profile a whole program "
            "with Python's cProfile (python -m cProfile -s cumtime script.py).")


class ProfilerActivity(Enum):
    CPU = 0
    CUDA = 1


class profile:
    def __init__(self, *args, **kwargs):
        raise refusal("torch.profiler.profile", _INSTEAD)


class record_function:
    def __init__(self, name, args=None):
        raise refusal("torch.profiler.record_function", _INSTEAD)


def schedule(*args, **kwargs):
    raise refusal("torch.profiler.schedule", _INSTEAD)


def tensorboard_trace_handler(*args, **kwargs):
    raise refusal("torch.profiler.tensorboard_trace_handler", _INSTEAD)
