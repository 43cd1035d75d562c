"""Checks for notebook 07."""
from __future__ import annotations

__all__: list[str] = []
