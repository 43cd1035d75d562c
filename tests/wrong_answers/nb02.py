"""Typical wrong answers for the exercises of notebook 02 (see tests/wrong_answers/__init__.py)."""

WRONG: dict = {}
