"""What every check shares: the success line, the failures and how they show, small helpers."""
from __future__ import annotations

import functools
import math
import textwrap
from pathlib import Path

import numpy as np

__all__ = ["SUCCESS", "NotDoneYet", "as_check"]

SUCCESS = "Correct! The check passed."

_HERE = str(Path(__file__).resolve().parent)


WIDTH = 88  # a hint's lines, "AssertionError: " included: no sideways scrolling anywhere


def wrap(text: str, first_prefix: str = "") -> str:
    """``text`` with every line at most :data:`WIDTH` columns, the first one counted after
    ``first_prefix`` (the exception's name, as Jupyter and nbgrader's feedback show it). A line
    that fits stays as it is; a longer one is wrapped at spaces, keeping its indentation."""
    out = []
    for k, line in enumerate(text.split("\n")):
        indent = line[:len(line) - len(line.lstrip())]
        out += textwrap.wrap(line, WIDTH, initial_indent=first_prefix if k == 0 else "",
                             subsequent_indent=indent, break_long_words=False,
                             break_on_hyphens=False) or [first_prefix if k == 0 else ""]
    if first_prefix:
        out[0] = out[0][len(first_prefix):]
    return "\n".join(out)


# A failed check shows in Jupyter as its hint alone: IPython asks an exception for
# ``_render_traceback_()`` before it lists the frames, which here would only show the
# checker's code (and its other hints). Elsewhere (plain Python, nbgrader's autograde) the
# failure is an ordinary AssertionError: the cell fails and scores zero.
def _hint_lines(error):
    name = f"\x1b[0;31m{type(error).__name__}\x1b[0m"  # red, as IPython prints the name
    return f"{name}: {error}".split("\n")


class NotDoneYet(AssertionError):
    """The exercise still holds its stub (``raise NotImplementedError()``), or a cell needs an
    exercise that is not done and no reference solution is at hand (a graded course)."""

    def __init__(self, message):
        super().__init__(wrap(message, f"{type(self).__name__}: "))

    def _render_traceback_(self):
        return _hint_lines(self)


# What each check said of the answer it was given last (keyed by the answer's id, the answer
# kept alive beside it): PASSED, NOT_DONE or WRONG. yours_or_reference reads it.
PASSED, NOT_DONE, WRONG = "passed", "not done", "wrong"
_verdicts: dict[int, tuple[object, str]] = {}


def verdict(answer) -> str | None:
    """What the last check of ``answer`` (this very object) said; None if none checked it."""
    entry = _verdicts.get(id(answer))
    return entry[1] if entry is not None and entry[0] is answer else None


def as_check(check):
    """``check``, as the check cells call it: it records its verdict on the answer (its first
    argument), and its hints (AssertionErrors raised by the checker's own code, here in
    minigrad/exercises/) are wrapped at :data:`WIDTH` and shown as the hint alone in Jupyter.
    They stay AssertionErrors, the type the course teaches. An error from the learner's own
    code keeps its traceback: there, the frames are the learner's and help."""
    @functools.wraps(check)
    def checked(answer, *args, **kwargs):
        try:
            result = check(answer, *args, **kwargs)
        except NotDoneYet:
            _record(answer, NOT_DONE)
            raise
        except AssertionError as e:
            _record(answer, WRONG)
            tb = e.__traceback__
            while tb.tb_next is not None:
                tb = tb.tb_next
            if str(Path(tb.tb_frame.f_code.co_filename).resolve()).startswith(_HERE):
                e.args = (wrap(str(e), f"{type(e).__name__}: "),)
                e._render_traceback_ = functools.partial(_hint_lines, e)
            raise
        except Exception:
            _record(answer, WRONG)
            raise
        _record(answer, PASSED)
        return result
    return checked


def _record(answer, what):
    if answer is not None:
        _verdicts[id(answer)] = (answer, what)


def _passed():
    print(SUCCESS)


def _not_done(what):
    return NotDoneYet(f"{what} still raises NotImplementedError. Replace '# YOUR CODE HERE' "
                      "and 'raise NotImplementedError()' with your code, run that cell, then run "
                      "this check again.")


def _answers_by_letter(predict, name, letters, example):
    """What ``predict()`` returns: a dict with an answer for each of ``letters`` (the snippets
    of a which-one exercise). NotDoneYet on the stub; a hint on None, on something else than a
    dict (``example`` shows one), or on a letter without an answer."""
    try:
        answers = predict()
    except NotImplementedError:
        raise _not_done(name) from None
    if answers is None:
        raise AssertionError(f"{name} returned None: it should return the dict of your answers. "
                             "Did you forget the return statement?")
    if not isinstance(answers, dict):
        raise AssertionError(f"return a dict from the snippet's letter to your answer, like "
                             f"{example}; got {type(answers).__name__}")
    missing = [k for k in letters if k not in answers]
    if missing:
        raise AssertionError(f"no answer for snippet(s) {', '.join(missing)}: give one for each "
                             f"of {letters[0]} to {letters[-1]}.")
    return answers


def _as_float(value, what):
    if hasattr(value, "detach"):
        value = value.detach()  # a tensor that requires grad is a fine answer: no warning for it
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise AssertionError(f"{what} should be a number (a float, or a one-element tensor); "
                             f"got {type(value).__name__}: {value!r}") from None
    if not math.isfinite(out):
        raise AssertionError(f"{what} came out as {out}; it should be a finite number.")
    return out


def _as_array(value, what):
    """A learner's result as a float64 NumPy array (from a tensor, an array or nested lists)."""
    if value is None:
        raise AssertionError(f"{what} is None: did you forget the return statement?")
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise AssertionError(f"{what} should be an array or a tensor; got "
                             f"{type(value).__name__}: {value!r}") from None


def _float_list(values, fname, per, count):
    """A learner's list of losses as floats, one per ``per`` (step, batch), ``count`` of them."""
    if values is None:
        raise AssertionError(f"{fname} returned None: it should return the list of losses, one "
                             f"float per {per} (loss.item()).")
    try:
        values = [_as_float(v, "each loss") for v in values]
    except TypeError:
        raise AssertionError(f"{fname} should return a list of losses, one float per {per}; "
                             f"got {type(values).__name__}") from None
    if len(values) != count:
        raise AssertionError(f"{fname} should return one loss per {per}: {count} of them, "
                             f"but the list has {len(values)}.")
    return values


def _pair(answer, fname, first, second):
    """A learner's two-number answer, e.g. (mean loss, accuracy), as two floats."""
    if answer is None:
        raise AssertionError(f"{fname} returned None: it should return two numbers, ({first}, "
                             f"{second}). Did you forget the return statement?")
    try:
        a, b = answer
    except (TypeError, ValueError):
        raise AssertionError(f"{fname} should return two numbers, ({first}, {second}); it "
                             f"returned {answer!r}") from None
    return _as_float(a, f"the {first}"), _as_float(b, f"the {second}")

