"""``torch.autograd.anomaly_mode``: it lives in minigrad/core/anomaly_mode.py."""
from ..core.anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
