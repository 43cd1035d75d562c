"""Checks for notebook 03, the training loop: an SGD step by hand, which of six loops trains."""
from __future__ import annotations

import math

import numpy as np

import minigrad
from minigrad import nn, optim

from ._common import _as_float, _not_done, _passed

__all__ = ["check_loop_predictions", "check_sgd_step"]


# --- which of these loops trains? ---------------------------------------------------------

CHOICES = ("same", "no change", "different", "error")

# The six loops of the exercise, as the notebook shows them. Each runs with the globals x, y,
# loss_fn of a small regression; the truth is found by running it with minigrad.
LOOPS = {
    "A": """\
def loop_a(model, optimizer, steps):
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()""",
    "B": """\
def loop_b(model, optimizer, steps):
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()""",
    "C": """\
def loop_c(model, optimizer, steps):
    optimizer.zero_grad()
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()""",
    "D": """\
def loop_d(model, optimizer, steps):
    loss = loss_fn(model(x), y)
    for _ in range(steps):
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()""",
    "E": """\
def loop_e(model, optimizer, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        optimizer.step()
        loss.backward()""",
    "F": """\
def loop_f(model, optimizer, steps):
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()""",
}

_FIVE_LINES = """\
def five_lines(model, optimizer, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()"""

# One question per kind of mistake, keyed by the true outcome of a loop the learner got wrong;
# none names a loop, so that trying answers one letter at a time does not find them.
_KIND_HINTS = {
    "same": "clearing .grad does not touch the graph: does anything read .grad between a "
            "zero_grad() and the next backward()?",
    "no change": "a loop can run without complaint and never move: what does .grad hold at "
                 "the moment step() reads it?",
    "different": "how often is .grad cleared, and what does backward() do to a .grad that "
                 "already holds numbers?",
    "error": "count the forward passes, and the backward passes through the graph each one "
             "recorded.",
}

# The computed part: loop C on one weight w = 1.0, loss w ** 2, lr = 0.1, three steps.
_W_START, _W_LR, _W_STEPS = 1.0, 0.1, 3


def _w_after(clear_every_step):
    w = minigrad.tensor(_W_START, requires_grad=True)
    optimizer = optim.SGD([w], lr=_W_LR)
    optimizer.zero_grad()
    for _ in range(_W_STEPS):
        if clear_every_step:
            optimizer.zero_grad()
        (w ** 2).backward()
        optimizer.step()
    return w.item()


def _run_loop(code):
    """Run a loop for 5 steps on a seeded model; the parameters afterwards, or the error."""
    minigrad.manual_seed(0)
    x = minigrad.randn(20, 2)
    y = x @ minigrad.tensor([[2.0], [-3.0]]) + 1.0
    namespace = {"torch": minigrad, "x": x, "y": y, "loss_fn": nn.MSELoss()}
    exec(code, namespace)
    loop = next(v for k, v in namespace.items() if k.startswith(("loop_", "five_")))
    minigrad.manual_seed(1)
    model = nn.Linear(2, 1)
    optimizer = optim.SGD(model.parameters(), lr=0.1)
    try:
        loop(model, optimizer, 5)
    except RuntimeError:
        return None
    return _params(model)


def _outcome(code, start, five_lines):
    after = _run_loop(code)
    if after is None:
        return "error"
    if _same(after, start):
        return "no change"
    return "same" if _same(after, five_lines) else "different"


def _params(model):
    return [p.detach().numpy().copy() for p in model.parameters()]


def _same(a, b):
    return all(np.array_equal(p, q) for p, q in zip(a, b))


def check_loop_predictions(predict_loops):
    """Check ``predict_loops() -> (dict, float)``: a dict from loop letter ("A" to "F") to one of
    CHOICES (the truth is found by running each loop with minigrad from the same start as the
    five lines), and w after three steps of loop C on the loss w ** 2. A wrong outcome is
    neither named nor counted."""
    try:
        answer = predict_loops()
    except NotImplementedError:
        raise _not_done("predict_loops") from None
    if answer is None:
        raise AssertionError("predict_loops returned None: it should return your dict and your "
                             "number. Did you forget the return statement?")
    if isinstance(answer, dict):
        raise AssertionError("predict_loops returned only the dict: return two things, the dict "
                             "and the value of w after three steps of loop C, as (dict, number).")
    if not isinstance(answer, tuple) or len(answer) != 2:
        raise AssertionError("return two things, (dict, number): the dict from each letter to "
                             f"your answer, and w after loop C; got {type(answer).__name__}")
    predictions, w_after_c = answer
    if not isinstance(predictions, dict):
        raise AssertionError("the first thing returned should be a dict from the loop's letter "
                             f"to your answer, like {{'A': 'same', ...}}; got "
                             f"{type(predictions).__name__}")
    missing = [k for k in LOOPS if k not in predictions]
    if missing:
        raise AssertionError(f"no answer for loop(s) {', '.join(missing)}: give one for each of "
                             "A to F.")
    for key in LOOPS:
        choice = predictions[key]
        if not isinstance(choice, str) or choice.strip().lower() not in CHOICES:
            raise AssertionError(f"loop {key}: {choice!r} is not one of the choices "
                                 f"{', '.join(repr(c) for c in CHOICES)}.")
    w_value = _as_float(w_after_c, "the value of w after loop C")
    minigrad.manual_seed(1)
    start = _params(nn.Linear(2, 1))
    five_lines = _run_loop(_FIVE_LINES)
    truths = {key: _outcome(code, start, five_lines) for key, code in LOOPS.items()}
    wrong_kinds = [truths[key] for key in LOOPS if predictions[key].strip().lower() != truths[key]]
    problems = []
    if wrong_kinds:  # the same words whichever are wrong: trying one letter at a time finds nothing
        problems.append("not every loop outcome is right (the check does not say which, nor how "
                        "many). Ask of each loop:\n  - " + "\n  - ".join(_KIND_HINTS[k] for k in CHOICES))
    want = _w_after(clear_every_step=False)
    if not math.isclose(w_value, want, abs_tol=5e-4):
        if math.isclose(w_value, _w_after(clear_every_step=True), abs_tol=5e-4):
            hint = ("that is where the five lines put w (it shrinks by 0.8 at each step). Loop "
                    "C clears .grad once: what does .grad hold when the second step() reads it?")
        elif math.isclose(w_value, _W_START, abs_tol=5e-4):
            hint = "1.0 is where w started: follow .grad and w through loop C's first step."
        else:
            hint = ("write down w and w.grad after each line of the three steps: backward() "
                    "adds 2 * w (at the current w) to what .grad holds, and step() subtracts "
                    "lr times .grad from w.")
        problems.append(f"w after three steps of loop C is not {w_value:g}: {hint}")
    if problems:
        raise AssertionError("\n".join(problems))
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
            cleared_first = [i for i, p in enumerate(params) if grads[i] is not None
                             and p.grad is None
                             and np.array_equal(p.detach().numpy(), before[i])]
            if "NoneType" in str(e) and cleared_first:
                raise AssertionError(
                    f"sgd_step failed with TypeError ({e}). A parameter that had a gradient "
                    "had it cleared (its .grad is None) before the update read it: which of "
                    "the two has to come first?") from None
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
