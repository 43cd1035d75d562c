"""Checks for notebook 10, the error messages: which error each snippet raises and at which of
its lines (or, for one that runs, the gradient it leaves), and a training loop with two bugs to
fix."""
from __future__ import annotations

import traceback

import numpy as np

import minigrad
from minigrad import nn

from ._common import _answers_by_letter, _as_float, _not_done, _passed
from ._nb09 import _spy_class

__all__ = ["check_error_predictions", "check_training_loop_bugs"]


# --- exercise 1: which error does each snippet raise, and where? -----------------------------

CHOICES = ("not scalar", "no grad_fn", "second backward", "inplace", "leaf inplace", "no error")

SNIPPETS = {
    "A": """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = w * 3
y.backward()""",
    "B": """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
p = torch.sigmoid(w)
p.mul_(2)
p.sum().backward()""",
    "C": """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
with torch.no_grad():
    loss = (w ** 2).sum()
loss.backward()""",
    "D": """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
loss = (w * w).sum()
loss.backward()
w.grad.zero_()
loss.backward()""",
    "E": """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
w -= 0.1 * w.grad""",
    "F": """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = w * 2
y.add_(1)
y.sum().backward()""",
}

# What to think about when an answer is wrong. The check says only that some answer is wrong:
# a count, a hint chosen by the wrong answer, or one hint for a wrong line and another for a
# wrong message, would tell a learner who changes one answer at a time which one was wrong, and
# the messages could be found by trying the six choices. So the hints are the same whatever is
# wrong: the rules to apply again, naming no snippet.
_HINTS = (
    "backward() with no argument starts from the gradient 1: what shape is the tensor it is "
    "called on?",
    "backward() needs a recorded history: was the operation that made the tensor recorded?",
    "a backward frees the tensors its graph saved, whatever happens to .grad afterwards.",
    "an in-place change matters only when some node saved the changed tensor for its backward. "
    "Which operations save their output, and which need none of their inputs' values?",
    "the line: a saved tensor's version, or a freed graph, is only looked at when backward runs; "
    "a leaf that requires grad changed in place while recording is refused by the line that "
    "changes it.",
    "a w.grad: for each element of w, how much the summed result moves when that element moves "
    "by 1.",
)


def _run_snippet(code):
    """(label of the error, the snippet's line that raised it), or ("no error", w.grad as a
    float array), running ``code`` with minigrad."""
    space = {"torch": minigrad}
    try:
        exec(compile(code, "<snippet>", "exec"), space)  # noqa: S102 - the course's own snippets
    except RuntimeError as e:
        lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<snippet>"]
        return _label(str(e)), lines[-1]
    return "no error", np.asarray(space["w"].grad.numpy(), dtype=float)


def _label(message):
    if "only for scalar outputs" in message:
        return "not scalar"
    if "does not require grad and does not have a grad_fn" in message:
        return "no grad_fn"
    if "backward through the graph a second time" in message:
        return "second backward"
    if "leaf Variable that requires grad is being used in an in-place" in message:
        return "leaf inplace"
    if "modified by an inplace operation" in message:
        return "inplace"
    return "other: " + message


def check_error_predictions(predict_errors):
    """Check ``predict_errors() -> dict`` from snippet name ("A" to "F") to (error, line) with
    error one of CHOICES and line the snippet's line that raises (counted from 1), or ("no
    error", w.grad as a list); the truth is found by running each snippet with minigrad. Wrong
    answers are neither counted nor named."""
    predictions = _answers_by_letter(predict_errors, "predict_errors", list(SNIPPETS),
                                     "{'A': ('no error', [1.0, 1.0, 1.0]), ...}")
    answers = {}
    for key in SNIPPETS:
        answer = predictions[key]
        if not isinstance(answer, (tuple, list)) or len(answer) != 2:
            raise AssertionError(f"snippet {key}: {answer!r} is not a pair like (error, line) or "
                                 "('no error', w.grad): give the line, or the gradient, too.")
        error, detail = answer
        if not isinstance(error, str) or error.strip().lower() not in CHOICES:
            raise AssertionError(f"snippet {key}: {error!r} is not one of the choices "
                                 f"{', '.join(repr(c) for c in CHOICES)}.")
        error = error.strip().lower()
        if error == "no error":
            try:
                detail = np.asarray(detail.detach().numpy() if hasattr(detail, "detach") else detail,
                                    dtype=float)
            except (TypeError, ValueError):
                raise AssertionError(f"snippet {key}: give w.grad as a list of numbers; got "
                                     f"{answer[1]!r}.") from None
        elif isinstance(detail, bool) or not isinstance(detail, int) \
                or not 1 <= detail <= len(SNIPPETS[key].split("\n")):
            raise AssertionError(f"snippet {key}: the line should be a whole number from 1 to "
                                 f"{len(SNIPPETS[key].splitlines())} (the snippet's first line is "
                                 f"1); got {answer[1]!r}.")
        answers[key] = error, detail
    wrong = 0
    for key, code in SNIPPETS.items():
        truth, truth_detail = _run_snippet(code)
        error, detail = answers[key]
        if error != truth or (error != "no error" and detail != truth_detail) \
                or (error == "no error" and (detail.shape != truth_detail.shape
                                             or not np.allclose(detail, truth_detail))):
            wrong += 1
    if wrong:
        raise AssertionError(f"Not all {len(SNIPPETS)} answers are right. The check does not say "
                             "how many or which: changing one answer at a time and checking again "
                             "tells you nothing. Go through A to F again with:\n  - "
                             + "\n  - ".join(_HINTS))
    _passed()


# --- exercise 2: find the bugs in a training loop ---------------------------------------------

def _bug_problem():
    """A network with Dropout wrapped in a Spy, its optimizer, the loss, training and validation data."""
    minigrad.manual_seed(21)
    x = minigrad.linspace(-2, 2, 48).reshape(48, 1)
    x_val = minigrad.linspace(-1.9, 1.9, 12).reshape(12, 1)
    net = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 1))
    model = _spy_class()(net)
    return (model, minigrad.optim.SGD(model.parameters(), lr=0.1), nn.MSELoss(),
            (x, x ** 2 - 1), (x_val, x_val ** 2 - 1))


def _bug_reference(model, optimizer, loss_fn, data, val_data, steps):
    (x, y), (x_val, y_val) = data, val_data
    losses, val_losses = [], []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if step % 10 == 9:
            model.eval()
            with minigrad.no_grad():
                val_losses.append(loss_fn(model(x_val), y_val).item())
            model.train()
    return losses, val_losses


def check_training_loop_bugs(fixed_train):
    """Check ``fixed_train(model, optimizer, loss_fn, data, val_data, steps)``: training steps in
    training mode, validation in evaluation mode without a graph, losses kept as numbers."""
    model, optimizer, loss_fn, data, val_data = _bug_problem()
    try:
        result = fixed_train(model, optimizer, loss_fn, data, val_data, 30)
    except NotImplementedError:
        raise _not_done("fixed_train") from None
    if not isinstance(result, tuple) or len(result) != 2:
        raise AssertionError("fixed_train should return two lists, (losses, val_losses), as "
                             "buggy_train does.")
    losses, val_losses = result
    train_calls = [c for c in model.calls if c[1]]  # forward passes that recorded a graph
    if len(train_calls) != 30:
        raise AssertionError(f"{len(train_calls)} forward passes recorded a graph; a training run "
                             "of 30 steps has 30 (and validation records none).")
    if any(training for training, recorded in model.calls if not recorded):
        raise AssertionError("the validation passes ran in training mode: Dropout zeroed random "
                             "units while the model was measured. Validation still needs one "
                             "mode, and training another.")
    late = [i for i, (training, _) in enumerate(train_calls) if not training]
    if late:
        raise AssertionError(f"training steps {late[0]} to {late[-1]} ran in evaluation mode: "
                             "Dropout was off for them. What mode does the model stay in after "
                             "the first validation?")
    if any(not isinstance(v, (int, float)) and getattr(v, "grad_fn", None) is not None
           for v in losses):
        raise AssertionError("the losses you return are tensors with a grad_fn: each one keeps "
                             "its graph's nodes alive as long as the list exists (backward freed "
                             "their saved tensors; a loss kept without backward would keep those "
                             "too). Keep plain numbers.")
    ref_model, ref_optimizer, _, _, _ = _bug_problem()
    want, want_val = _bug_reference(ref_model, ref_optimizer, loss_fn, data, val_data, 30)
    got = [_as_float(v, "each training loss") for v in losses]
    got_val = [_as_float(v, "each validation loss") for v in val_losses]
    if len(got) != 30 or len(got_val) != 3 or not np.allclose(got, want, rtol=1e-5) \
            or not np.allclose(got_val, want_val, rtol=1e-5):
        raise AssertionError("the losses differ from those of the loop fixed: keep everything "
                             "else as buggy_train does it (the same steps, a validation every 10 "
                             "steps) and fix only the two bugs.")
    _passed()
