"""Switching graph recording on and off: no_grad, enable_grad, set_grad_enabled, inference_mode.

One flag decides whether an op records a node. ``no_grad`` is how validation
loops and optimizers avoid building graphs (and so avoid saving tensors).
``inference_mode`` goes further: what is made inside can never join a graph later.
"""
import functools
import threading


class _State(threading.local):
    # Per thread, as in PyTorch: no_grad in one thread leaves others recording.
    grad = True  # grad mode, as is_grad_enabled() reports it
    inference = False  # inside inference_mode
    enabled = True  # what ops read: record a node? (grad mode on and not in inference mode)


_state = _State()

# A thread's own flag above costs a thread-local lookup, a few percent of a small op's
# bookkeeping, and every op reads one. So _set also keeps two counts shared by all threads, which
# the hot paths (Function.apply, Tensor._wrap, views) read first: while no thread has recording
# off, every thread records; while no thread is inside inference_mode, none makes inference
# tensors. Only when a count is not 0 do they read their thread's flag. Each count is a list with
# an entry per thread: append and pop are atomic, so threads switching at once keep it right.
not_recording = []  # threads with recording off: in no_grad, inference_mode, backward...
in_inference = []  # threads inside inference_mode


def _set(grad, inference):
    """Switch both modes; return what they were."""
    previous = (_state.grad, _state.inference)
    enabled = grad and not inference  # enable_grad inside inference_mode records nothing
    _state.grad, _state.inference, _state.enabled = grad, inference, enabled
    if enabled != (previous[0] and not previous[1]):  # (was it on?)
        if enabled:
            not_recording.pop()
        else:
            not_recording.append(True)
    if inference != previous[1]:
        if inference:
            in_inference.append(True)
        else:
            in_inference.pop()
    return previous


def recording():
    """Whether this thread's ops record nodes now: grad mode on, and not in inference_mode."""
    return not not_recording or _state.enabled


def is_grad_enabled():
    return _state.grad


def is_inference_mode_enabled():
    return _state.inference


class _GradMode:
    """Base for the context managers; each also works as a decorator."""

    mode = True

    def __enter__(self):
        self._prev = _set(self.mode, _state.inference)

    def __exit__(self, *exc):
        _set(*self._prev)

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
        self._before = _set(mode, _state.inference)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set(*self._before)

    def __call__(self, fn):
        _set(*self._before)  # as a decorator it must not stay switched
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper


class inference_mode(_GradMode):
    """``no_grad`` and more: tensors made inside are *inference tensors*
    (``t.is_inference()``), which autograd will never need, so PyTorch skips their
    bookkeeping (version counter, view tracking) and runs a little faster. The price: outside
    the block, such a tensor cannot be saved by a recorded op, changed in place, or made to
    require grad. ``inference_mode(False)`` switches it off inside; as in PyTorch it also
    turns grad mode on. Works as ``@inference_mode``, ``@inference_mode()`` and ``with``."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # bare @inference_mode: mode is the decorated function

    def __init__(self, mode=True):
        self.mode = mode if isinstance(mode, bool) else True

    def __enter__(self):
        self._prev = _set(not self.mode, self.mode)

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)
        return wrapper
