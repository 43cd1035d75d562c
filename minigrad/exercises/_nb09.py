"""Checks for notebook 09."""
from __future__ import annotations

__all__: list[str] = []
