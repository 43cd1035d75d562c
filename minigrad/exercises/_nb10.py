"""Checks for notebook 10."""
from __future__ import annotations

__all__: list[str] = []
