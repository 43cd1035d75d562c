"""Checks for notebook 08."""
from __future__ import annotations

__all__: list[str] = []
