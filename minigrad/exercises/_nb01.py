"""Checks for notebook 01, what backward() computes."""
from __future__ import annotations

import math

from ._common import _as_float, _not_done, _passed

__all__ = ["check_grad_by_hand"]


# --- a gradient by hand --------------------------------------------

# (w, x, b) points the answer is checked at; several, so that an answer that only happens to
# be right at one point is caught.
_GRAD_POINTS = [(3.0, 2.0, 1.0), (-1.5, 4.0, 0.5), (2.0, -0.5, -3.0), (0.25, 7.0, 2.0)]


def _grads_from_backward(w, x, b):
    import minigrad

    wt = minigrad.tensor(w, requires_grad=True)
    bt = minigrad.tensor(b, requires_grad=True)
    y = wt * minigrad.tensor(x) + bt
    y.backward()
    return wt.grad.item(), bt.grad.item()


def check_grad_by_hand(grads_by_hand):
    """Check ``grads_by_hand(w, x, b) -> (dy/dw, dy/db)`` for ``y = w * x + b``
    against what minigrad's ``backward()`` computes."""
    for w, x, b in _GRAD_POINTS:
        try:
            answer = grads_by_hand(w, x, b)
        except NotImplementedError:
            raise _not_done("grads_by_hand") from None
        if answer is None:
            raise AssertionError("grads_by_hand returned None: it should return two numbers, "
                                 "(dy/dw, dy/db). Did you forget the return statement?")
        try:
            dw, db = answer
        except (TypeError, ValueError):
            raise AssertionError("grads_by_hand should return two numbers, (dy/dw, dy/db); "
                                 f"it returned {answer!r}") from None
        dw = _as_float(dw, "dy/dw")
        db = _as_float(db, "dy/db")
        want_dw, want_db = _grads_from_backward(w, x, b)
        at = f"at w={w}, x={x}, b={b}"
        if math.isclose(dw, want_db) and math.isclose(db, want_dw) and not math.isclose(dw, want_dw):
            raise AssertionError(f"{at} your two numbers look swapped: return (dy/dw, dy/db), "
                                 "in that order.")
        if not math.isclose(dw, want_dw, rel_tol=1e-6, abs_tol=1e-9):
            if math.isclose(dw, w):
                hint = ("it equals w. y is a straight line in w, so its slope with respect to "
                        "w cannot depend on w itself: which factor multiplies w?")
            else:
                hint = ("think of x and b as fixed numbers and ask how much y grows when w "
                        "grows by a small step.")
            raise AssertionError(f"dy/dw is wrong {at} (you gave {dw}): {hint}")
        if not math.isclose(db, want_db, rel_tol=1e-6, abs_tol=1e-9):
            if math.isclose(db, b) or math.isclose(db, 0.0):
                hint = (f"you gave {db}. If b grows by 1 and w, x stay the same, by how much "
                        "does y grow?")
            else:
                hint = f"you gave {db}. Think of w and x as fixed: how does y change with b?"
            raise AssertionError(f"dy/db is wrong {at}: {hint}")
    _passed()
