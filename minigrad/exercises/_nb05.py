"""Checks for notebook 05."""
from __future__ import annotations

__all__: list[str] = []
