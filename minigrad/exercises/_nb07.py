"""Checks for notebook 07, gradient accumulation: an accumulation loop, a loop that never zeroes."""
from __future__ import annotations

import math

import numpy as np

import minigrad
from minigrad import nn, optim
from minigrad.utils.data import DataLoader, TensorDataset

from ._common import _float_list, _not_done, _passed

__all__ = ["check_accumulation", "check_fixed_loop"]

_LR = 0.1


def _problem(n, seed=0):
    """A fresh, seeded linear model, its SGD optimizer, MSE loss and (x, y)."""
    minigrad.manual_seed(seed)
    x = minigrad.randn(n, 3)
    y = x @ minigrad.tensor([[0.8], [-1.2], [2.0]]) - 0.4 + 0.1 * minigrad.randn(n, 1)
    model = nn.Linear(3, 1)
    optimizer = optim.SGD(model.parameters(), lr=_LR)
    return model, optimizer, nn.MSELoss(), x, y


def _loader(x, y, batch_size):
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=False)


def _params(model):
    return [p.detach().numpy().copy() for p in model.parameters()]


def _same(a, b):
    return all(np.allclose(p, q, rtol=1e-5, atol=1e-6) for p, q in zip(a, b))


class _CountingSteps:
    """Wraps ``optimizer.step`` to count the calls."""

    def __init__(self, optimizer):
        self.calls = 0
        self._step = optimizer.step
        optimizer.step = self

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self._step(*args, **kwargs)


# --- an accumulation loop ----------------------------------------------------------------

# (examples, micro-batch size, accumulation steps): each gives several optimizer steps.
_ACCUM_CASES = [(128, 16, 4), (48, 8, 3)]


def _accum_reference(model, optimizer, loss_fn, loader, accum_steps, divide=True,
                     zero="group", step_every=False, shift=1):
    """Variants of the accumulation loop; the defaults are the right one (``shift=0``: the
    step comes after a group's first micro-batch instead of its last)."""
    for i, (xb, yb) in enumerate(loader):
        if zero == "group" and (i + shift - 1) % accum_steps == 0 or zero == "each":
            optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        (loss / accum_steps if divide else loss).backward()
        if step_every or (i + shift) % accum_steps == 0:
            optimizer.step()


def _big_batch_reference(n, micro, accum):
    model, optimizer, loss_fn, x, y = _problem(n)
    for xb, yb in _loader(x, y, micro * accum):
        optimizer.zero_grad()
        loss_fn(model(xb), yb).backward()
        optimizer.step()
    return _params(model)


def _accum_variant(n, micro, accum, **variant):
    model, optimizer, loss_fn, x, y = _problem(n)
    _accum_reference(model, optimizer, loss_fn, _loader(x, y, micro), accum, **variant)
    return _params(model)


def check_accumulation(train_accumulated):
    """Check ``train_accumulated(model, optimizer, loss_fn, loader, accum_steps)``: one pass
    over ``loader``, one optimizer step per ``accum_steps`` micro-batches, the same updates
    as plain training on batches ``accum_steps`` times as large."""
    for n, micro, accum in _ACCUM_CASES:
        model, optimizer, loss_fn, x, y = _problem(n)
        start = _params(model)
        steps = _CountingSteps(optimizer)
        try:
            train_accumulated(model, optimizer, loss_fn, _loader(x, y, micro), accum)
        except NotImplementedError:
            raise _not_done("train_accumulated") from None
        got = _params(model)
        groups = n // (micro * accum)
        setting = (f"With {n // micro} micro-batches of {micro} and accum_steps={accum}")
        if steps.calls == n // micro and groups != n // micro:
            raise AssertionError(
                f"{setting}, your loop called optimizer.step() {steps.calls} times: after every "
                f"micro-batch. It should update the parameters only once per accum_steps "
                f"micro-batches ({groups} times here), when a whole group's gradients have been "
                "added up.")
        if steps.calls != groups:
            raise AssertionError(
                f"{setting}, the optimizer should step {groups} times (once per group of "
                f"accum_steps micro-batches); your loop called optimizer.step() {steps.calls} "
                "times.")
        if _same(got, start):
            raise AssertionError(
                "The parameters did not change. The optimizer stepped, but the gradients it saw "
                "were empty: is something wiping them out between backward() and step()?")
        if _same(got, _big_batch_reference(n, micro, accum)):
            continue
        if _same(got, _accum_variant(n, micro, accum, divide=False)):
            raise AssertionError(
                f"The gradients are {accum} times too large. Each micro-batch's loss is a mean "
                "over that micro-batch only; adding up accum_steps such gradients gives "
                "accum_steps times the gradient of the mean over the whole group. Scale each "
                "micro-batch's contribution so that the sum is a mean.")
        if _same(got, _accum_variant(n, micro, accum, zero="each")):
            raise AssertionError(
                "Only the last micro-batch of each group reached the optimizer: the gradients "
                "were cleared before every micro-batch, so the earlier ones were thrown away. "
                "Clear them once per group, not once per micro-batch.")
        if _same(got, _accum_variant(n, micro, accum, zero="never")):
            raise AssertionError(
                "The first update is right, but the later ones also contain the gradients of "
                "the earlier groups: they accumulate from one group to the next. Each group "
                "has to start from empty gradients.")
        if _same(got, _accum_variant(n, micro, accum, shift=0)):
            raise AssertionError(
                "The steps come one micro-batch too early: the first update used the first "
                "micro-batch alone, and each later one mixes two groups. Step when all "
                "accum_steps micro-batches of a group have been backwarded.")
        raise AssertionError(
            f"{setting}, the parameters differ from plain training on batches of "
            f"{micro * accum}. In each group: start from empty gradients, backward each "
            "micro-batch's (scaled) loss, then one step.")
    _passed()


# --- fixing a loop that never zeroes --------------------------------------------------------

_FIX_N, _FIX_BATCH, _FIX_EPOCHS = 40, 8, 3


def _fixed_reference(model, optimizer, loss_fn, loader, epochs, zero="batch"):
    losses = []
    for _ in range(epochs):
        if zero == "epoch":
            optimizer.zero_grad()
        for xb, yb in loader:
            if zero == "batch":
                optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return losses


def _fixed_variant(**variant):
    model, optimizer, loss_fn, x, y = _problem(_FIX_N, seed=1)
    losses = _fixed_reference(model, optimizer, loss_fn, _loader(x, y, _FIX_BATCH), _FIX_EPOCHS,
                              **variant)
    return _params(model), losses


def check_fixed_loop(train_fixed):
    """Check ``train_fixed(model, optimizer, loss_fn, loader, epochs) -> list of losses``:
    mini-batch SGD with the gradients cleared for every batch."""
    model, optimizer, loss_fn, x, y = _problem(_FIX_N, seed=1)
    start = _params(model)
    try:
        losses = train_fixed(model, optimizer, loss_fn, _loader(x, y, _FIX_BATCH), _FIX_EPOCHS)
    except NotImplementedError:
        raise _not_done("train_fixed") from None
    got = _params(model)
    want, want_losses = _fixed_variant()
    batches = _FIX_EPOCHS * (_FIX_N // _FIX_BATCH)
    if _same(got, start):
        raise AssertionError(
            "The parameters did not change. Clearing the gradients is right, but look at where "
            "it happens: if it comes between backward() and step(), the optimizer only ever "
            "sees empty gradients.")
    if not _same(got, want):
        if _same(got, _fixed_variant(zero="never")[0]):
            raise AssertionError(
                "This is still the buggy loop: the gradients accumulate over all the batches, "
                "so every step uses the sum of all earlier gradients.")
        if _same(got, _fixed_variant(zero="epoch")[0]):
            raise AssertionError(
                "You clear the gradients once per epoch, so within an epoch they still "
                "accumulate from batch to batch. Every step should use the gradient of its own "
                "batch only.")
        raise AssertionError(
            f"After {_FIX_EPOCHS} epochs the parameters differ from the expected ones. Keep the "
            "loop as it was (every batch of every epoch, one step per batch) and only fix the "
            "gradients.")
    losses = _float_list(losses, "train_fixed", "batch", batches)
    if not all(math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-7) for a, b in zip(losses, want_losses)):
        raise AssertionError("The parameters are right but the losses are not: record each "
                             "batch's loss, as a float, before that batch's update.")
    _passed()
