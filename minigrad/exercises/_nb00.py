"""Checks for notebook 00."""
from __future__ import annotations

__all__: list[str] = []
