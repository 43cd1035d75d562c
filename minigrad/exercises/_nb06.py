"""Checks for notebook 06, the training loop: an SGD step by hand, a training loop."""
from __future__ import annotations

import math

import numpy as np

import minigrad
from minigrad import nn, optim

from ._common import _float_list, _not_done, _passed

__all__ = ["check_sgd_step", "check_training_loop"]


# --- a training loop ---------------------------------------------

_TRAIN_STEPS = 8
_TRAIN_LR = 0.1


def _training_problem():
    """A fresh, seeded model, optimizer, loss and data set."""
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
    losses = _float_list(losses, "train", "step", _TRAIN_STEPS)
    if not all(math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-7) for a, b in zip(losses, want_losses)):
        raise AssertionError("The parameters are right but the losses are not: record each "
                             "step's loss, as a float, computed before that step's update.")
    _passed()


# --- an SGD step by hand -----------------------------------------------

# (learning rate, seed) cases; each builds a small model, runs one backward, then calls the
# learner's sgd_step on its parameters plus one parameter that has no gradient.
_SGD_CASES = [(0.1, 0), (0.5, 1), (0.03, 2)]


def _sgd_problem(seed):
    """Parameters with gradients from a real backward, plus one whose .grad is None."""
    minigrad.manual_seed(seed)
    model = nn.Linear(3, 2)
    x = minigrad.randn(5, 3)
    y = minigrad.randn(5, 2)
    nn.MSELoss()(model(x), y).backward()
    unused = nn.Parameter(minigrad.randn(2))
    return [model.weight, unused, model.bias]


def _sgd_recorded_hint():
    return ("autograd refused the update: it records operations on tensors that require grad, "
            "and it will not record an in-place change of a leaf such as a parameter. The update "
            "is not part of the model's computation: make it in a block where autograd does "
            "not record anything.")


def check_sgd_step(sgd_step):
    """Check ``sgd_step(params, lr)``: for each parameter with a gradient, ``p <- p - lr * grad``
    in place and unrecorded, then the gradient cleared (None or zeros); parameters whose
    .grad is None are left alone."""
    for lr, seed in _SGD_CASES:
        params = _sgd_problem(seed)
        before = [p.detach().numpy().copy() for p in params]
        grads = [None if p.grad is None else p.grad.numpy().copy() for p in params]
        versions = [p._version for p in params]
        views = [p.detach() for p in params]  # shares memory (and version) with p
        try:
            sgd_step(params, lr)
        except NotImplementedError:
            raise _not_done("sgd_step") from None
        except RuntimeError as e:
            if "in-place operation" in str(e) or "inplace" in str(e):
                raise AssertionError(_sgd_recorded_hint()) from None
            raise
        except TypeError as e:
            if "NoneType" in str(e) and grads[1] is None:
                raise AssertionError(
                    f"sgd_step failed with TypeError ({e}). One of the parameters has no "
                    "gradient (its .grad is None, because it was not used by the loss): leave "
                    "such a parameter alone, as optimizer.step() does.") from None
            raise
        for p in params:
            if p.grad_fn is not None or not p.is_leaf or not p.requires_grad:
                raise AssertionError(
                    "After your step a parameter is no longer a leaf that requires grad (it has "
                    f"grad_fn={p.grad_fn!r}): the update was recorded by autograd. Make the "
                    "update where autograd does not record.")
        after = [p.detach().numpy().copy() for p in params]
        i_unused = 1
        if not np.array_equal(after[i_unused], before[i_unused]):
            raise AssertionError("A parameter whose .grad is None changed. It was not used by the "
                                 "loss, so it has no gradient: leave it as it is.")
        used = [i for i in range(len(params)) if i != i_unused]
        if all(np.array_equal(after[i], before[i]) for i in used):
            if all(params[i].grad is None or not params[i].grad.numpy().any() for i in used):
                hint = ("The gradients are cleared, but the parameters did not change. Did you "
                        "clear them before using them, or compute the new values into a new "
                        "tensor and give it a name (p = ...)? That makes a new tensor and leaves "
                        "the parameter in the list as it was.")
            else:
                hint = ("The parameters did not change. Writing p = (a new value) only rebinds "
                        "the name p to a new tensor; the parameter in the list (the one the "
                        "model holds) stays as it was. Change the parameter itself, in place.")
            raise AssertionError(hint)
        for i in used:
            want = before[i] - np.float32(lr) * grads[i]
            uphill = before[i] + np.float32(lr) * grads[i]
            if np.allclose(after[i], uphill, rtol=1e-5, atol=1e-7) and not np.allclose(
                    after[i], want, rtol=1e-5, atol=1e-7):
                raise AssertionError(
                    "Your step moved the parameters uphill: the gradient points where the loss "
                    "grows fastest, so this step makes the loss larger. Check the sign.")
            if not np.allclose(after[i], want, rtol=1e-5, atol=1e-7):
                raise AssertionError(
                    f"With lr={lr} a parameter ended at {after[i].ravel()[:3]}..., not where one "
                    "SGD step puts it. Each parameter should move by lr times its own gradient, "
                    "downhill, once.")
            if not np.array_equal(views[i].numpy(), after[i]):
                raise AssertionError(
                    "The parameter now holds a different array: you replaced its contents "
                    "(p.data = ...) instead of changing them in place. Anything else that "
                    "shares the parameter's memory does not see the update. Change the "
                    "parameter in place, where autograd does not record.")
            if params[i]._version == versions[i]:
                raise AssertionError(
                    "The values are right, but autograd was not told about the change (its "
                    "version counter of the parameter did not move): changing p.data goes "
                    "behind autograd's back, so a graph that saved the old values would give "
                    "wrong gradients without an error. Change the parameter itself, in place, "
                    "in a block where autograd does not record.")
            g = params[i].grad
            if g is not None and g.numpy().any():
                raise AssertionError(
                    "The parameters are updated, but their gradients are still there. The next "
                    "backward() would add to them. After the update, clear each gradient "
                    "(set it to None, or fill it with zeros).")
            if g is not None and g.requires_grad:
                raise AssertionError("The cleared gradient requires grad: clear it where autograd "
                                     "does not record, or set it to None.")
    _passed()
