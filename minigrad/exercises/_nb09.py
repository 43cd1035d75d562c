"""Checks for notebook 09, memory and errors: an evaluation function to fix (eval(), no_grad(),
the mode restored, the mean per sample), what an inference tensor may do, predicting which
error a snippet raises, and a training loop with two bugs to fix."""
from __future__ import annotations

import math

import numpy as np

import minigrad
from minigrad import nn
from minigrad.utils.data import DataLoader, TensorDataset

from ._common import _as_float, _not_done, _pair, _passed

__all__ = ["check_error_predictions", "check_fixed_evaluate", "check_inference_predictions",
           "check_training_loop_bugs"]


# --- exercise 1: fixed_evaluate(model, loader, loss_fn) ------------------------------------------

def _spy_class():
    class Spy(nn.Module):
        """Wraps a network and notes, at each forward, its mode and whether a graph is recorded."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            self.calls = []

        def forward(self, x):
            out = self.net(x)
            self.calls.append((self.net.training, minigrad.is_grad_enabled() and out.grad_fn is not None))
            return out

    return Spy


def _eval_problem(seed):
    """A network with BatchNorm1d and Dropout (running stats already warmed up), a loader whose
    last batch is smaller than the others (40 samples in batches of 16)."""
    minigrad.manual_seed(seed)
    net = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.5),
                        nn.Linear(16, 3))
    with minigrad.no_grad():
        for _ in range(3):
            net(minigrad.randn(32, 6) + 0.5)
    x = minigrad.randn(40, 6)
    y = minigrad.randint(0, 3, (40,))
    loader = DataLoader(TensorDataset(x, y), batch_size=16)
    return _spy_class()(net), loader, nn.CrossEntropyLoss()


def _reference_eval(model, loader, loss_fn):
    """(mean loss per sample, accuracy, number correct, mean of the batch means)."""
    model.eval()
    total, correct, count, batch_means = 0.0, 0, 0, []
    with minigrad.no_grad():
        for xb, yb in loader:
            out = model(xb)
            loss = loss_fn(out, yb).item()
            batch_means.append(loss)
            total += loss * len(yb)
            correct += int((out.argmax(dim=1) == yb).sum().item())
            count += len(yb)
    return total / count, correct / count, correct, sum(batch_means) / len(batch_means)


def _stats(net):
    bn = net[1]
    return np.concatenate([bn.running_mean.numpy(), bn.running_var.numpy()]).copy()


def check_fixed_evaluate(fixed_evaluate):
    """Check ``fixed_evaluate(model, loader, loss_fn) -> (mean loss per sample, accuracy)``:
    evaluation mode while it runs, no graph recorded, the model left in the mode it was in,
    BatchNorm's running statistics unchanged, the right numbers with a smaller last batch."""
    for seed, start_training in ((0, True), (1, False), (2, True)):
        model, loader, loss_fn = _eval_problem(seed)
        model.train(start_training)
        stats = _stats(model.net)
        try:
            answer = fixed_evaluate(model, loader, loss_fn)
        except NotImplementedError:
            raise _not_done("fixed_evaluate") from None
        if isinstance(answer, tuple) and len(answer) == 2 \
                and getattr(answer[0], "grad_fn", None) is not None:
            raise AssertionError(
                "The mean loss you return is a tensor with a grad_fn: it keeps the graphs of "
                "every batch alive, with all the tensors they saved, for as long as the caller "
                "keeps the number. Return a plain float, and record no graph at all.")
        loss, accuracy = _pair(answer, "fixed_evaluate", "mean loss", "accuracy")
        if not model.calls:
            raise AssertionError("fixed_evaluate never called the model: run every batch of the "
                                 "loader through model(...).")
        if any(training for training, _ in model.calls) or not np.allclose(_stats(model.net), stats):
            raise AssertionError(
                "The model was in training mode while fixed_evaluate ran it: Dropout still "
                "zeroed random units, and BatchNorm normalised with each batch's statistics and "
                "moved its running statistics towards the validation data.")
        if any(recorded for _, recorded in model.calls):
            raise AssertionError(
                "fixed_evaluate recorded a graph: the model's outputs have a grad_fn, so every "
                "layer saved tensors for a backward that never comes. Evaluation mode does not "
                "stop recording.")
        if model.training != start_training or model.net.training != start_training:
            if start_training:
                raise AssertionError(
                    "After fixed_evaluate, the model is still in evaluation mode. The training "
                    "loop that called it goes on training without Dropout and with frozen "
                    "BatchNorm statistics.")
            raise AssertionError(
                "The model was in evaluation mode before fixed_evaluate was called (training "
                "was over), and it came back in training mode: whatever runs next gets Dropout "
                "and moving BatchNorm statistics. Leave the model in the mode it was in before "
                "the call, whichever that was.")
        ref_model, ref_loader, ref_loss_fn = _eval_problem(seed)
        want_loss, want_acc, want_correct, mean_of_means = _reference_eval(ref_model, ref_loader,
                                                                           ref_loss_fn)
        if not math.isclose(loss, want_loss, rel_tol=1e-5, abs_tol=1e-6):
            if math.isclose(loss, mean_of_means, rel_tol=1e-5):
                hint = ("it is the mean of the batch losses. The loader's last batch is smaller "
                        "than the others, and each batch loss is already a mean over its own "
                        "samples, so the samples of the small batch count for more. Return the "
                        "mean over the samples.")
            else:
                hint = ("use loss_fn on each batch's outputs and labels, and average over all "
                        "the samples of the loader.")
            raise AssertionError(f"The mean loss is wrong (you gave {loss:.4f}): {hint}")
        if not math.isclose(accuracy, want_acc, rel_tol=1e-6, abs_tol=1e-9):
            if math.isclose(accuracy, want_correct):
                hint = ("it looks like the number of correct predictions. The accuracy is a "
                        "fraction between 0 and 1.")
            else:
                hint = ("a prediction is the class with the largest output (argmax over dim 1); "
                        "count the samples whose prediction equals their label, over the whole "
                        "loader.")
            raise AssertionError(f"The accuracy is wrong (you gave {accuracy:.4f}): {hint}")
    _passed()


# --- exercise 3: which error does each snippet raise? -------------------------------------

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

_HINTS = {
    "A": "look at the shape of the tensor backward is called on: what gradient would it start from?",
    "B": "sigmoid's backward uses sigmoid's own output. What happened to that output before backward?",
    "C": "was anything recorded for loss? Look at where it was computed.",
    "D": "what does the first backward do with the tensors the graph saved? Zeroing .grad does not "
         "bring them back.",
    "E": "w is a leaf that requires grad, and -= changes it in place while recording is on.",
    "F": "an in-place change only matters when some node saved the changed tensor for its backward. "
         "Which tensors did the multiplication by 2 need to save?",
}


def _label(message):
    if message is None:
        return "no error"
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


def _run_snippet(code):
    try:
        exec(code, {"torch": minigrad})
    except RuntimeError as e:
        return str(e)
    return None


def check_error_predictions(predict_errors):
    """Check ``predict_errors() -> dict`` from snippet name ("A" to "F") to one of CHOICES; the
    truth is found by running each snippet with minigrad."""
    try:
        predictions = predict_errors()
    except NotImplementedError:
        raise _not_done("predict_errors") from None
    if predictions is None:
        raise AssertionError("predict_errors returned None: it should return the dict of your "
                             "answers. Did you forget the return statement?")
    if not isinstance(predictions, dict):
        raise AssertionError("predictions should be a dict from the snippet's letter to your "
                             f"answer, like {{'A': 'no error', ...}}; got {type(predictions).__name__}")
    missing = [k for k in SNIPPETS if k not in predictions]
    if missing:
        raise AssertionError(f"predictions has no answer for snippet(s) {', '.join(missing)}: give "
                             "one for each of A to F.")
    for key in SNIPPETS:
        answer = predictions[key]
        if not isinstance(answer, str) or answer.strip().lower() not in CHOICES:
            raise AssertionError(f"snippet {key}: {answer!r} is not one of the choices "
                                 f"{', '.join(repr(c) for c in CHOICES)}.")
    wrong = []
    for key, code in SNIPPETS.items():
        truth = _label(_run_snippet(code))
        if predictions[key].strip().lower() != truth:
            wrong.append(f"snippet {key}: not {predictions[key]!r}; {_HINTS[key]}")
    if wrong:
        raise AssertionError(f"{len(wrong)} of {len(SNIPPETS)} predictions are wrong. Hints:\n  "
                             + "\n  ".join(wrong))
    _passed()


# --- Exercise 2: what an inference tensor may do ---------------------------------------------

INFERENCE_SETUP = """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
with torch.inference_mode():
    x = torch.tensor([2.0, 0.5, 1.0]) * 3
"""

INFERENCE_SNIPPETS = {
    "A": "(x + w).sum().backward()",
    "B": "(x * w).sum().backward()",
    "C": "x.mul_(2)",
    "D": "(x.clone() * w).sum().backward()",
    "E": "mean = x.sum() / len(x)",
}

_INFERENCE_HINTS = {
    "A": "the error message says what is forbidden: an inference tensor saved for backward. Does "
         "addition need the values of its inputs to compute its gradients?",
    "B": "what is the gradient of x * w with respect to w, and what must the multiplication "
         "therefore keep until backward?",
    "C": "what does PyTorch refuse to do to an inference tensor outside inference_mode, besides "
         "saving it?",
    "D": "what kind of tensor does an operation outside inference_mode make?",
    "E": "does anything in this line require grad? If nothing is recorded, nothing is saved.",
}


def check_inference_predictions(predict_inference):
    """Check ``predict_inference() -> dict`` from snippet letter ("A" to "E") to "error" or
    "no error"; the truth is found by running each snippet (after INFERENCE_SETUP) with minigrad."""
    try:
        predictions = predict_inference()
    except NotImplementedError:
        raise _not_done("predict_inference") from None
    if predictions is None:
        raise AssertionError("predict_inference returned None: it should return the dict of your "
                             "answers. Did you forget the return statement?")
    if not isinstance(predictions, dict):
        raise AssertionError("return a dict from the snippet's letter to your answer, like "
                             f"{{'A': 'no error', ...}}; got {type(predictions).__name__}")
    missing = [k for k in INFERENCE_SNIPPETS if k not in predictions]
    if missing:
        raise AssertionError(f"no answer for snippet(s) {', '.join(missing)}: give one for each "
                             "of A to E.")
    for key in INFERENCE_SNIPPETS:
        answer = predictions[key]
        if not isinstance(answer, str) or answer.strip().lower() not in ("error", "no error"):
            raise AssertionError(f"snippet {key}: {answer!r} is not one of 'error', 'no error'.")
    wrong = []
    for key, code in INFERENCE_SNIPPETS.items():
        truth = "no error" if _run_snippet(INFERENCE_SETUP + code) is None else "error"
        if predictions[key].strip().lower() != truth:
            wrong.append(f"snippet {key}: not {predictions[key]!r}; {_INFERENCE_HINTS[key]}")
    if wrong:
        raise AssertionError(f"{len(wrong)} of {len(INFERENCE_SNIPPETS)} predictions are wrong. "
                             "Hints:\n  " + "\n  ".join(wrong))
    _passed()


# --- Exercise 4: find the bugs in a training loop ---------------------------------------------

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
