"""What every check shares: the success line, the "not done yet" error, small helpers."""
from __future__ import annotations

import math

__all__ = ["SUCCESS", "NotDoneYet"]

SUCCESS = "Correct! The check passed."


class NotDoneYet(AssertionError):
    """The exercise still holds its stub (``raise NotImplementedError()``)."""


def _passed():
    print(SUCCESS)


def _not_done(what):
    return NotDoneYet(f"Not done yet: {what} still raises NotImplementedError. Replace "
                      "'# YOUR CODE HERE' and 'raise NotImplementedError()' with your code, "
                      "run that cell, then run this check again.")


def _as_float(value, what):
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise AssertionError(f"{what} should be a number (a float, or a one-element tensor); "
                             f"got {type(value).__name__}: {value!r}") from None
    if not math.isfinite(out):
        raise AssertionError(f"{what} came out as {out}; it should be a finite number.")
    return out
