"""Checks for notebook 04."""
from __future__ import annotations

__all__: list[str] = []
