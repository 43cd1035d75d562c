"""Typical wrong answers for every exercise, one module per notebook.

Each ``nbNN.WRONG`` maps the ``grade_id`` of a solution cell to a list of
``(name, code, phrase, forbidden)``: ``code`` replaces the solution region (between the
BEGIN/END SOLUTION lines, so it carries the cell's indentation), the check's hint must contain
``phrase`` and none of the words in ``forbidden`` (they would give the answer away).
tests/course/test_course.py runs each one in a fresh kernel and expects the check to reject it.
"""
from importlib import import_module
from pathlib import Path

WRONG = {}
for _path in sorted(Path(__file__).parent.glob("nb[0-9][0-9].py")):
    _module = import_module(f"{__name__}.{_path.stem}")
    _clash = WRONG.keys() & _module.WRONG.keys()
    assert not _clash, f"grade_id used twice: {_clash}"
    WRONG.update(_module.WRONG)
