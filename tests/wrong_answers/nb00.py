"""Typical wrong answers for the exercises of notebook 00 (see tests/wrong_answers/__init__.py)."""

WRONG: dict = {}
