"""Quiet NumPy: PyTorch computes log(0), 1/0 or exp(1000) silently (-inf, inf, nan); so do ops here."""
import contextlib

import numpy as np

# Every op's forward runs under this already (Op._forward), and so does backward (run_backward); a
# NumPy computation outside the ops can be decorated with it.
quiet = np.errstate(all="ignore")

# How Op._forward keeps quiet: ``token = numpy_errors.set(IGNORE_ALL)``, then
# ``numpy_errors.reset(token)``. That is what ``with np.errstate(all="ignore")`` does inside,
# minus building the state afresh each time, which costs as much as a small op (0.7 µs, 0.1
# here). NumPy 2 keeps its error state in a context variable; this is that variable.
try:
    from numpy._core._ufunc_config import _extobj_contextvar as numpy_errors
    with quiet:
        IGNORE_ALL = numpy_errors.get()
except ImportError:  # a NumPy that keeps it elsewhere: the same two calls, the public way
    class _PublicErrors:
        def set(self, _):
            return np.seterr(all="ignore")

        def reset(self, old):
            np.seterr(**old)

        def get(self):  # (never IGNORE_ALL: each op sets the state)
            return np.geterr()

    numpy_errors, IGNORE_ALL = _PublicErrors(), None


@contextlib.contextmanager
def quietly():
    """``with np.errstate(all="ignore")``, set as Op._forward sets it, so that the ops run
    inside (all of backward's) find it set and need not set it again."""
    token = numpy_errors.set(IGNORE_ALL)
    try:
        yield
    finally:
        numpy_errors.reset(token)
