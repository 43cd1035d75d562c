"""Checks for the course's exercises.

Each exercise in a notebook is two cells (nbgrader's format, schema 3):

- a *solution* cell: the learner's code goes between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION`` (the blank version holds ``raise NotImplementedError()`` there);
- a locked *check* cell right after it, which calls one function from this module.

A check prints one fixed success line (:data:`SUCCESS`), or fails the cell:

- untouched stub: :class:`NotDoneYet` (an ``AssertionError``) says the exercise is not done yet;
- wrong answer: ``AssertionError`` with a hint that points at the mistake without giving
  the answer away.
"""
from __future__ import annotations

import math

__all__ = ["SUCCESS", "NotDoneYet", "check_grad_by_hand", "check_training_loop"]

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


# --- placeholder exercise 1: a gradient by hand --------------------------------------------

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


# --- placeholder exercise 2: a training loop ---------------------------------------------

_TRAIN_STEPS = 8
_TRAIN_LR = 0.1


def _training_problem():
    """A fresh, seeded model, optimizer, loss and data set."""
    import minigrad
    from minigrad import nn, optim

    minigrad.manual_seed(0)
    x = minigrad.randn(16, 3)
    y = x @ minigrad.tensor([[1.5], [-2.0], [0.5]]) + 0.3
    model = nn.Linear(3, 1)
    optimizer = optim.SGD(model.parameters(), lr=_TRAIN_LR)
    return model, optimizer, nn.MSELoss(), x, y


def _reference_loop(model, optimizer, loss_fn, x, y, steps, zero_grad=True, step=True):
    losses = []
    for _ in range(steps):
        if zero_grad:
            optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        if step:
            optimizer.step()
        losses.append(loss.item())
    return losses


def _params(model):
    return [p.detach().numpy().copy() for p in model.parameters()]


def _same(a, b):
    import numpy as np

    return all(np.allclose(p, q, rtol=1e-5, atol=1e-6) for p, q in zip(a, b))


def _run(loop, **variant):
    model, optimizer, loss_fn, x, y = _training_problem()
    losses = loop(model, optimizer, loss_fn, x, y, _TRAIN_STEPS, **variant)
    return model, losses


def check_training_loop(train):
    """Check ``train(model, optimizer, loss_fn, x, y, steps) -> list of losses``: run it on a
    small linear regression and compare with the expected loop; spot the usual mistakes."""
    model, optimizer, loss_fn, x, y = _training_problem()
    start = _params(model)
    try:
        losses = train(model, optimizer, loss_fn, x, y, _TRAIN_STEPS)
    except NotImplementedError:
        raise _not_done("train") from None
    got = _params(model)

    want_model, want_losses = _run(_reference_loop)
    if _same(got, start):
        raise AssertionError("The parameters did not change at all. Computing gradients is "
                             "not enough: something has to use them to update the parameters "
                             "(and nothing may wipe them out before that).")
    if not _same(got, _params(want_model)):
        no_zero, _ = _run(_reference_loop, zero_grad=False)
        if _same(got, _params(no_zero)):
            raise AssertionError(
                "The parameters end up wrong because the gradients accumulate: backward() "
                "adds to .grad, it does not overwrite it, so every step used the sum of all "
                "earlier gradients. Something must happen to the old gradients at the start "
                "of each step.")
        raise AssertionError(
            f"After {_TRAIN_STEPS} steps the parameters differ from the expected ones. Each "
            "step should do, in this order: clear the old gradients, run the model, compute "
            "the loss, call backward, update the parameters; once per step, on all the data.")
    if losses is None:
        raise AssertionError("train returned None: it should return the list of losses, one "
                             "float per step (loss.item()).")
    try:
        losses = [_as_float(v, "each loss") for v in losses]
    except TypeError:
        raise AssertionError("train should return a list of losses, one float per step; "
                             f"got {type(losses).__name__}") from None
    if len(losses) != _TRAIN_STEPS:
        raise AssertionError(f"train should return one loss per step: {_TRAIN_STEPS} steps, "
                             f"but the list has {len(losses)}.")
    if not all(math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-7) for a, b in zip(losses, want_losses)):
        raise AssertionError("The parameters are right but the losses are not: record each "
                             "step's loss, as a float, computed before that step's update.")
    _passed()
