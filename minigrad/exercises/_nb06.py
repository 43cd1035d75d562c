"""Checks for notebook 06, the training loop."""
from __future__ import annotations

import math

from ._common import _as_float, _not_done, _passed

__all__ = ["check_training_loop"]


# --- a training loop ---------------------------------------------

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
