"""Checks for notebook 01, what backward() computes."""
from __future__ import annotations

import contextlib
import math

import minigrad
from minigrad.core import engine

from ._common import _as_float, _not_done, _passed

__all__ = ["check_line_grads", "check_numerical_grad", "check_squared_error_grads"]


# --- shared helpers ------------------------------------------------------------------------

def _close(a, b, rel=1e-5, abs_=1e-7):
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def _numbers(answer, names, fname):
    """The learner's tuple as floats, or an AssertionError naming what is off."""
    what = "(" + ", ".join(names) + ")"
    if answer is None:
        raise AssertionError(f"{fname} returned None: it should return {len(names)} numbers, "
                             f"{what}. Did you forget the return statement?")
    try:
        values = list(answer)
    except TypeError:
        raise AssertionError(f"{fname} should return {len(names)} numbers, {what}; it "
                             f"returned {answer!r}") from None
    if len(values) != len(names):
        raise AssertionError(f"{fname} should return {len(names)} numbers, {what}; it "
                             f"returned {len(values)}: {answer!r}")
    return values


@contextlib.contextmanager
def _no_autograd(fname):
    """Fail if the learner's code runs a backward pass: exercises 1 and 2 ask for gradients
    worked out by hand. Every backward pass (``tensor.backward()``, ``autograd.backward``,
    ``autograd.grad``) goes through ``engine.run_backward``, so that is where it is caught."""
    calls = []
    real = engine.run_backward

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    engine.run_backward = spy
    try:
        yield
    finally:
        engine.run_backward = real
    if calls:
        raise AssertionError(f"{fname} ran a backward pass (backward() or autograd.grad). This "
                             "exercise asks for the gradients worked out by hand, with the chain "
                             "rule: the check compares them with backward() itself.")


# --- exercise 1: the gradients of y = w * x + b ---------------------------------------

_LINE_POINTS = [(0.5, 6.0, 2.0), (-1.25, 3.0, 0.75), (4.0, -0.5, -1.0), (1.5, 2.5, 10.0)]


def _line_grads_from_backward(w, x, b):
    wt, xt, bt = (minigrad.tensor(v, dtype=minigrad.float64, requires_grad=True)
                  for v in (w, x, b))
    (wt * xt + bt).backward()
    return wt.grad.item(), xt.grad.item(), bt.grad.item()


def check_line_grads(line_grads):
    """Check ``line_grads(w, x, b) -> (dy/dw, dy/dx, dy/db)`` for ``y = w * x + b`` against
    backward() (with all three requiring grad), at several points."""
    for w, x, b in _LINE_POINTS:
        try:
            with _no_autograd("line_grads"):
                answer = line_grads(w, x, b)
        except NotImplementedError:
            raise _not_done("line_grads") from None
        values = _numbers(answer, ["dy/dw", "dy/dx", "dy/db"], "line_grads")
        at = f"at w={w}, x={x}, b={b}"
        if values[1] is None:
            raise AssertionError(
                f"{at} you gave None for dy/dx. x.grad is None in the notebook because x does "
                "not require grad, but the derivative itself still exists: how much does y "
                "change when x changes a little?")
        dw, dx, db = (_as_float(v, n) for v, n in zip(values, ("dy/dw", "dy/dx", "dy/db")))
        want_dw, want_dx, want_db = _line_grads_from_backward(w, x, b)
        if _close(dw, want_dx) and _close(dx, want_dw):
            raise AssertionError(f"{at} your dy/dw and dy/dx look swapped: return "
                                 "(dy/dw, dy/dx, dy/db), in that order.")
        if not _close(dw, want_dw):
            if _close(dw, w):
                hint = ("it equals w. y is a straight line in w, so its slope with respect "
                        "to w cannot depend on w itself: which number multiplies w?")
            else:
                hint = ("hold x and b fixed and ask how much y grows when w grows by a "
                        "small step.")
            raise AssertionError(f"dy/dw is wrong {at} (you gave {dw}): {hint}")
        if not _close(dx, want_dx):
            if dx == 0.0:
                hint = ("you gave 0. x.grad is None in the notebook because x does not "
                        "require grad, but y does change when x changes: by how much?")
            else:
                hint = (f"you gave {dx}. Hold w and b fixed: how much does y grow when x "
                        "grows by a small step?")
            raise AssertionError(f"dy/dx is wrong {at}: {hint}")
        if not _close(db, want_db):
            if _close(db, b) or db == 0.0:
                hint = (f"you gave {db}. If b grows by 1 while w and x stay the same, by how "
                        "much does y grow?")
            else:
                hint = f"you gave {db}. Hold w and x fixed: how does y change with b?"
            raise AssertionError(f"dy/db is wrong {at}: {hint}")
    _passed()


# --- exercise 2: the gradients of a squared error ------------------------------------------

# (w, x, b, t): errors of both signs, and no x of 1 or 2 (so that the usual slips give
# different numbers).
_SQUARED_POINTS = [(0.5, 6.0, 2.0, 8.0), (1.5, -3.0, 0.5, -6.0), (-2.0, 0.5, 3.0, 1.0),
                   (0.75, 4.0, -1.0, 0.5)]


def _squared_grads_from_backward(w, x, b, t):
    wt = minigrad.tensor(w, dtype=minigrad.float64, requires_grad=True)
    bt = minigrad.tensor(b, dtype=minigrad.float64, requires_grad=True)
    xt = minigrad.tensor(x, dtype=minigrad.float64)
    tt = minigrad.tensor(t, dtype=minigrad.float64)
    ((wt * xt + bt - tt) ** 2).backward()
    return wt.grad.item(), bt.grad.item()


def check_squared_error_grads(squared_error_grads):
    """Check ``squared_error_grads(w, x, b, t) -> (dL/dw, dL/db)`` for
    ``L = (w * x + b - t) ** 2`` against backward(), at several points."""
    for w, x, b, t in _SQUARED_POINTS:
        try:
            with _no_autograd("squared_error_grads"):
                answer = squared_error_grads(w, x, b, t)
        except NotImplementedError:
            raise _not_done("squared_error_grads") from None
        values = _numbers(answer, ["dL/dw", "dL/db"], "squared_error_grads")
        dw, db = (_as_float(v, n) for v, n in zip(values, ("dL/dw", "dL/db")))
        want_dw, want_db = _squared_grads_from_backward(w, x, b, t)
        if _close(dw, want_dw) and _close(db, want_db):
            continue
        at = f"at w={w}, x={x}, b={b}, t={t}"
        got = f"you gave ({dw:g}, {db:g})"
        y = w * x + b

        def matches(gw, gb, dw=dw, db=db):
            return _close(dw, gw) and _close(db, gb)

        if _close(dw, want_db) and _close(db, want_dw):
            hint = "your two numbers look swapped: return (dL/dw, dL/db), in that order."
        elif matches(x, 1.0):
            hint = ("these are the gradients of y = w*x + b, not of L. L squares the error "
                    "y - t: the chain rule multiplies by the derivative of the square.")
        elif matches(want_dw / 2, want_db / 2):
            hint = ("both are exactly half of what backward() computes. Look again at the "
                    "derivative of u**2 with respect to u.")
        elif matches(-want_dw, -want_db):
            hint = ("both have the wrong sign. The error is y - t (prediction minus target); "
                    "when y is above t, making y bigger makes L bigger.")
        elif matches(want_db, want_db):
            hint = ("dL/db is right but dL/dw is not: the chain rule needs one more factor, "
                    "how fast the error y - t changes when w changes.")
        elif matches(2 * y * x, 2 * y) or matches(y * x, y):
            hint = ("your answer does not depend on the target t. L measures the distance "
                    "between y and t: t belongs in the error you differentiate.")
        elif _close(db, want_db):
            hint = ("dL/db is right but dL/dw is not. Write L = u**2 with u = w*x + b - t, "
                    "then dL/dw = dL/du * du/dw.")
        else:
            hint = ("write L = u**2 with u = w*x + b - t; then dL/dw = dL/du * du/dw and "
                    "dL/db = dL/du * du/db. Work out each factor separately.")
        raise AssertionError(f"{at} {got}, which is not what backward() computes: {hint}")
    _passed()


# --- exercise 3: a finite-difference estimate --------------------------------------------


def _cases():
    """(description, f on Python floats, the same f on minigrad tensors, x, h)."""
    return [
        ("f(v) = v**3", lambda v: v ** 3, lambda v: v ** 3, 2.0, 1e-3),
        ("f(v) = (3*v - 1)**2", lambda v: (3 * v - 1) ** 2, lambda v: (3 * v - 1) ** 2, 0.5, 1e-4),
        ("f(v) = tanh(v)", math.tanh, minigrad.tanh, 0.3, 1e-4),
        ("f(v) = exp(-v) + v**2", lambda v: math.exp(-v) + v ** 2,
         lambda v: minigrad.exp(-v) + v ** 2, -1.5, 1e-4),
        ("f(v) = 2.5*v - 4", lambda v: 2.5 * v - 4, lambda v: 2.5 * v - 4, -3.0, 1e-2),
    ]


def _grad_by_backward(g, x):
    v = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    g(v).backward()
    return v.grad.item()


def check_numerical_grad(numerical_grad):
    """Check ``numerical_grad(f, x, h) -> float``, a finite-difference estimate of f'(x),
    against backward() on several functions (forward or central differences both pass)."""
    for text, f, g, x, h in _cases():
        calls = []

        def f_logged(v, f=f, calls=calls):
            calls.append(v)
            return f(v)

        try:
            got = numerical_grad(f_logged, x, h)
        except NotImplementedError:
            raise _not_done("numerical_grad") from None
        if got is None:
            raise AssertionError("numerical_grad returned None: it should return one number, "
                                 "the estimated slope. Did you forget the return statement?")
        got = _as_float(got, "numerical_grad's result")
        want = _grad_by_backward(g, x)
        if math.isclose(got, want, rel_tol=2e-3, abs_tol=1e-5):
            continue
        at = f"For {text} at x = {x} with h = {h}, backward() gives {want:.6g}, you gave {got:.6g}"
        if not calls:
            hint = "your function never calls f: the estimate has to come from values of f."
        elif all(c == x for c in calls):
            hint = ("you only evaluate f at x itself. The slope needs f at two different "
                    "points, h apart (or 2h).")
        elif math.isclose(got, want * h, rel_tol=0.05) or math.isclose(got, 2 * h * want, rel_tol=0.05):
            hint = ("your estimate is about h times the slope: that is the rise of f over "
                    "the step, not yet divided by the run.")
        elif math.isclose(got, 2 * want, rel_tol=0.01):
            hint = ("your estimate is twice the slope: how far apart are the two points "
                    "where you evaluate f?")
        elif math.isclose(got, want / 2, rel_tol=0.01):
            hint = ("your estimate is half the slope: how far apart are the two points "
                    "where you evaluate f?")
        elif math.isclose(got, -want, rel_tol=0.01):
            hint = ("your estimate has the wrong sign: subtract f at the smaller x from f "
                    "at the larger x.")
        elif any(abs(c - x) > 10 * h for c in calls):
            hint = ("f was evaluated far from x (more than 10*h away): use the step h that "
                    "is passed in.")
        else:
            hint = ("check the parentheses: the whole difference of the two f values is "
                    "divided by the distance between the two points.")
        raise AssertionError(f"{at}: {hint}")
    _passed()
