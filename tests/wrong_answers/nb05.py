"""Typical wrong answers for the exercises of notebook 05 (see tests/wrong_answers/__init__.py)."""

WRONG: dict = {}
