"""Checks for the course's exercises.

Each exercise in a notebook is two cells (nbgrader's format, schema 3):

- a *solution* cell: the learner's code goes between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION`` (the blank version holds ``raise NotImplementedError()`` there);
- a locked *check* cell right after it: ``from minigrad.exercises import check_...``, then
  one call.

A check prints one fixed success line (:data:`SUCCESS`), or fails the cell:

- untouched stub: :class:`NotDoneYet` says the exercise is not done yet;
- wrong answer: ``AssertionError`` with a hint that points at the mistake without giving
  the answer away.

In Jupyter both show as the hint alone, wrapped at 88 columns, not as a traceback through
this package (see :func:`as_check`, applied to every check below).

The checks of notebook NN live in ``_nbNN.py``; this module gathers them. The cells after an
exercise that use its result call it through :func:`yours_or_reference`, so that a skipped or
wrong exercise does not break the rest of the notebook (``_fallback.py``).
"""
from . import _nb00, _nb01, _nb02, _nb03, _nb04, _nb05, _nb06, _nb07, _nb08, _nb09, _nb10, _nb11, _nb12
from ._common import SUCCESS, NotDoneYet, as_check
from ._fallback import REFERENCES_FILE, reveal_after, yours_or_reference
from ._nb00 import *
from ._nb01 import *
from ._nb02 import *
from ._nb03 import *
from ._nb04 import *
from ._nb05 import *
from ._nb06 import *
from ._nb07 import *
from ._nb08 import *
from ._nb09 import *
from ._nb10 import *
from ._nb11 import *
from ._nb12 import *

__all__ = ["SUCCESS", "NotDoneYet", "yours_or_reference", "reveal_after"] + [name for m in (
    _nb00, _nb01, _nb02, _nb03, _nb04, _nb05, _nb06, _nb07, _nb08, _nb09, _nb10, _nb11, _nb12)
    for name in m.__all__]

# The check cells import from here: each check records its verdict, its failures show as their hint.
for _name in __all__:
    if _name.startswith("check_"):
        globals()[_name] = as_check(globals()[_name])
del _name
