"""detect_anomaly: remember where each node was created, and stop at the first NaN gradient."""
import warnings

from .grad_mode import _GradMode

_enabled = False


def is_anomaly_enabled():
    return _enabled


class detect_anomaly(_GradMode):
    """While active, every node records the traceback of the forward call that created it,
    and backward raises as soon as a node returns a NaN gradient, naming that node."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan

    def __enter__(self):
        global _enabled
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)
        self._prev, _enabled = _enabled, True

    def __exit__(self, *exc):
        global _enabled
        _enabled = self._prev


def set_detect_anomaly(mode):
    global _enabled
    _enabled = bool(mode)
