"""Typical wrong answers for the exercises of notebook 03 (see tests/wrong_answers/__init__.py)."""

WRONG: dict = {}
