"""detect_anomaly: remember where each node was created, and stop at the first NaN gradient."""
import warnings

from .grad_mode import _GradMode

_enabled = False  # record each node's forward traceback
_check_nan = False  # and raise at the first NaN gradient


def is_anomaly_enabled():
    return _enabled


def is_anomaly_check_nan_enabled():
    return _check_nan


def _set(mode, check_nan):
    global _enabled, _check_nan
    previous = (_enabled, _check_nan)
    _enabled, _check_nan = bool(mode), bool(mode and check_nan)
    return previous


class detect_anomaly(_GradMode):
    """While active, every node records the traceback of the forward call that created it,
    and backward raises as soon as a node returns a NaN gradient, naming that node."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan

    def __enter__(self):
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)
        self._prev = _set(True, self.check_nan)

    def __exit__(self, *exc):
        _set(*self._prev)


class set_detect_anomaly:
    """Switch anomaly detection on or off: at once, or for a ``with`` block."""

    def __init__(self, mode, check_nan=True):
        self._prev = _set(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set(*self._prev)
