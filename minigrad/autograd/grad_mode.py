"""Switching graph recording on and off: no_grad, enable_grad, set_grad_enabled.

One flag decides whether an op records a node. ``no_grad`` is how validation
loops and optimizers avoid building graphs (and so avoid saving tensors).
"""
import functools
import threading


class _State(threading.local):
    enabled = True  # per thread, as in PyTorch: no_grad in one thread leaves others recording


_state = _State()


def is_grad_enabled():
    return _state.enabled


class _GradMode:
    """Base for the context managers; each also works as a decorator."""

    mode = True

    def __enter__(self):
        self._prev, _state.enabled = _state.enabled, self.mode

    def __exit__(self, *exc):
        _state.enabled = self._prev

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper


class _NoParamGradMode(_GradMode):
    """Also usable as a bare decorator: ``@no_grad`` as well as ``@no_grad()``."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamGradMode):
    """Ops inside record no graph: results have no grad_fn and nothing is saved."""
    mode = False


class enable_grad(_NoParamGradMode):
    """Turn recording back on inside a ``no_grad`` block."""
    mode = True


class set_grad_enabled(_GradMode):
    """Turn recording on or off; effective at once, like PyTorch's, and also a context manager."""

    def __init__(self, mode):
        self.mode = mode
        self._before, _state.enabled = _state.enabled, mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _state.enabled = self._before

    def __call__(self, fn):
        _state.enabled = self._before  # as a decorator it must not stay switched
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper
