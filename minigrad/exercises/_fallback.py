"""The cells after an exercise that use its result: the learner's answer once it passed its
check, the reference solution until then.

A learner who skips an exercise, or gets it wrong, should still be able to read and run the
rest of the notebook. So a cell that needs an exercise's function calls it through
:func:`yours_or_reference`. The reference solutions are not part of this package: they are
the complete notebooks' solution cells, which ``make exercises`` writes to
:data:`REFERENCES_FILE` beside the blank notebooks, and ``make lab`` copies into the learner's
workspace. A graded course releases the blank notebooks without that file, so its students
cannot read the answers; there a cell that needs an unfinished exercise says so instead.
"""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from ._common import NOT_DONE, PASSED, WRONG, NotDoneYet, verdict, wrap

__all__ = ["yours_or_reference", "reveal_after", "REFERENCES_FILE"]

REFERENCES_FILE = ".minigrad-references.json"  # in the notebook's folder, the kernel's working directory


def yours_or_reference(yours, exercise: str):
    """``yours`` (the learner's function or class), or the reference solution of ``exercise``
    (the solution cell's grade_id, e.g. "nb12_standardize") while ``yours`` is None, failed its
    check, or raises NotImplementedError; says so in one line, the first time. An answer no
    check has seen yet (changed after its check ran) is the learner's until it raises
    NotImplementedError."""
    namespace = sys._getframe(1).f_globals  # the notebook's: the reference runs where yours would
    said = []

    def fallback(why):
        entries = _entries()
        name = entries[exercise]["name"] if exercise in entries else getattr(
            yours, "__name__", f"exercise {exercise.partition('_')[2]}")  # 04's classes: yours is None
        if not entries:  # a graded course: no answers at hand
            raise NotDoneYet(f"this cell needs {name}, which {why}. Finish that exercise above "
                             "(its check passes), then run this cell again.")
        reference = _reference(exercise, entries, namespace)
        if not said:
            print(wrap(f"({name} {why}: this cell uses the reference solution.)"))
            said.append(True)
        return reference

    checked = verdict(yours)
    if yours is None or checked not in (None, PASSED):
        return fallback(_WHY[checked or NOT_DONE])
    if isinstance(yours, type):
        return yours  # a class (04's Functions) is used as it is

    @functools.wraps(yours)
    def yours_until_not_done(*args, **kwargs):
        try:
            return yours(*args, **kwargs)
        except NotImplementedError:
            return fallback(_WHY[NOT_DONE])(*args, **kwargs)
    return yours_until_not_done


def reveal_after(prediction) -> None:
    """Goes on only once the learner has predicted: the first line of a cell that shows the
    answer to a prediction exercise (autograd's own numbers). While ``prediction`` (the
    exercise's function or value) is still the stub, its check says NotDoneYet, and so does
    this cell, without showing anything: Run All does not give the answer away. A prediction
    that was checked (right or wrong), or that no check has seen, is shown."""
    if verdict(prediction) == NOT_DONE:
        raise NotDoneYet("this cell shows the answer to the exercise above: write yours there "
                         "first and run its check, then run this cell.")


_WHY = {NOT_DONE: "is not done yet", WRONG: "did not pass its check"}


def _entries() -> dict:
    """grade_id -> {"notebook", "name", "code"} from the references file in the working
    directory (the notebook's folder), or {} without one."""
    try:
        text = (Path.cwd() / REFERENCES_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return {e["exercise"]: e for e in json.loads(text)}


def _reference(exercise, entries, namespace):
    """The reference solution of ``exercise``, defined in a copy of the notebook's namespace
    together with the references of that notebook's earlier exercises (a solution may call an
    earlier one: 05's backward calls backward_order)."""
    notebook = entries[exercise]["notebook"]
    scope = dict(namespace)
    for e in entries.values():
        if e["notebook"] == notebook:
            exec(compile(e["code"], f"<reference solution of {e['exercise']}>", "exec"), scope)  # noqa: S102
            if e["exercise"] == exercise:
                return scope[e["name"]]
