"""Checks for notebook 11."""
from __future__ import annotations

__all__: list[str] = []
