"""Checks for notebook 09, evaluation and grad modes: an evaluation function to fix (eval(),
no_grad(), the mode restored, the mean per sample), and what an inference tensor may do (each
snippet's verdict with its reason or its value)."""
from __future__ import annotations

import math

import numpy as np

import minigrad
from minigrad import nn
from minigrad.utils.data import DataLoader, TensorDataset

from ._common import _answers_by_letter, _not_done, _pair, _passed

__all__ = ["check_fixed_evaluate", "check_inference_predictions"]


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
    """(mean loss per sample, accuracy, number correct, mean of the batch means, sum of the batch
    means over the samples, number correct over the batches)."""
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
    return (total / count, correct / count, correct, sum(batch_means) / len(batch_means),
            sum(batch_means) / count, correct / len(batch_means))


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
        if not minigrad.is_grad_enabled():
            minigrad.set_grad_enabled(True)  # for the rest of the learner's notebook
            raise AssertionError(
                "After fixed_evaluate, recording is still off: the training that goes on after "
                "it would record no graph, and its backward would fail. Turn recording off only "
                "inside a block that turns it back on when it ends.")
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
        want_loss, want_acc, want_correct, mean_of_means, means_per_sample, correct_per_batch = \
            _reference_eval(ref_model, ref_loader, ref_loss_fn)
        if not math.isclose(loss, want_loss, rel_tol=1e-5, abs_tol=1e-6):
            if math.isclose(loss, mean_of_means, rel_tol=1e-5):
                hint = ("it is the mean of the batch losses. The loader's last batch is smaller "
                        "than the others, and each batch loss is already a mean over its own "
                        "samples, so the samples of the small batch count for more. Return the "
                        "mean over the samples.")
            elif math.isclose(loss, means_per_sample, rel_tol=1e-5):
                hint = ("it is the sum of the batch losses divided by the number of samples. "
                        "Each batch loss is already a mean over its own samples: what total "
                        "does a batch contribute?")
            else:
                hint = ("use loss_fn on each batch's outputs and labels, and average over all "
                        "the samples of the loader.")
            raise AssertionError(f"The mean loss is wrong (you gave {loss:.4f}): {hint}")
        if not math.isclose(accuracy, want_acc, rel_tol=1e-6, abs_tol=1e-9):
            if math.isclose(accuracy, want_correct):
                hint = ("it looks like the number of correct predictions. The accuracy is a "
                        "fraction between 0 and 1.")
            elif math.isclose(accuracy, correct_per_batch):
                hint = ("it is the number of correct predictions divided by the number of "
                        "batches. The accuracy is a fraction of the samples.")
            else:
                hint = ("a prediction is the class with the largest output (argmax over dim 1); "
                        "count the samples whose prediction equals their label, over the whole "
                        "loader.")
            raise AssertionError(f"The accuracy is wrong (you gave {accuracy:.4f}): {hint}")
    _passed()


# --- exercise 2: what an inference tensor may do --------------------------------------------

INFERENCE_SETUP = """\
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
with torch.inference_mode():
    x = torch.tensor([2.0, 0.5, 1.0]) * 3
"""

INFERENCE_SNIPPETS = {  # letter -> (code, the name of the value it computes if it runs)
    "A": ("(x + w).sum().backward()", "w.grad"),
    "B": ("(x * w).sum().backward()", "w.grad"),
    "C": ("x.mul_(2)", "x"),
    "D": ("(x.clone() * w).sum().backward()", "w.grad"),
    "E": ("mean = x.sum() / len(x)", "mean"),
}

REASONS = ("saved for backward", "changed in place")

# What to think about when an answer is wrong. The check says only that some answer is wrong:
# a count, or a hint chosen by the wrong answer, would tell a learner who changes one answer at a
# time which one was wrong, and the verdicts (three choices a snippet) could be found by trying.
# So the hints are the same whatever is wrong: the rules to apply again, naming no snippet.
_INFERENCE_HINTS = (
    "outside the block an inference tensor may still be read: what fails is an operation that "
    "saves it for backward. An operation saves an input only when its gradient needs that "
    "input's values.",
    "saving for backward is one of two things an inference tensor may not do outside "
    "inference_mode. What is the other?",
    "what kind of tensor does an operation run outside inference_mode make, whatever its inputs?",
    "nothing is saved where nothing is recorded: is anything in the computation a tensor that "
    "requires grad?",
    "a value: work out x first (the set-up multiplies by 3). w.grad holds, for each element of "
    "w, how much the sum changes when that element moves by 1.",
)


def _inference_truth(code, value_name):
    """('error', reason) or ('works', value as a float array), running ``code`` after
    INFERENCE_SETUP with minigrad."""
    space = {"torch": minigrad}
    exec(INFERENCE_SETUP, space)  # noqa: S102 - the course's own snippets
    try:
        exec(code, space)  # noqa: S102
    except RuntimeError as e:
        return "error", ("saved for backward" if "saved for backward" in str(e) else "changed in place")
    value = eval(value_name, space)  # noqa: S307
    return "works", np.asarray(value.detach().numpy(), dtype=float)


def _as_values(value):
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None


def check_inference_predictions(predict_inference):
    """Check ``predict_inference() -> dict`` from snippet letter ("A" to "E") to ("error", reason)
    with reason one of REASONS, or ("works", the value the snippet computes); the truth is found
    by running each snippet (after INFERENCE_SETUP) with minigrad. Wrong answers are neither
    counted nor named."""
    predictions = _answers_by_letter(predict_inference, "predict_inference", list(INFERENCE_SNIPPETS),
                                     "{'A': ('works', [1.0, 2.0, 3.0]), ...}")
    answers = {}
    for key in INFERENCE_SNIPPETS:
        answer = predictions[key]
        if not isinstance(answer, (tuple, list)) or len(answer) != 2 or not isinstance(answer[0], str) \
                or answer[0].strip().lower() not in ("error", "works"):
            raise AssertionError(f"snippet {key}: {answer!r} is not a pair like ('error', reason) "
                                 "or ('works', value). Give the verdict and, with it, the reason "
                                 "or the value.")
        verdict, detail = answer[0].strip().lower(), answer[1]
        if verdict == "error":
            if not isinstance(detail, str) or detail.strip().lower() not in REASONS:
                raise AssertionError(f"snippet {key}: the reason {detail!r} is not one of "
                                     f"{', '.join(repr(r) for r in REASONS)}.")
            detail = detail.strip().lower()
        else:
            detail = _as_values(detail)
            if detail is None:
                raise AssertionError(f"snippet {key}: give the value as a number or a list of "
                                     f"numbers; got {answer[1]!r}.")
        answers[key] = verdict, detail
    wrong = 0
    for key, (code, value_name) in INFERENCE_SNIPPETS.items():
        truth_verdict, truth = _inference_truth(code, value_name)
        verdict, detail = answers[key]
        if verdict != truth_verdict or (verdict == "error" and detail != truth) \
                or (verdict == "works" and (detail.shape != truth.shape
                                            or not np.allclose(detail, truth, rtol=1e-4, atol=1e-6))):
            wrong += 1
    if wrong:
        raise AssertionError(f"Not all {len(INFERENCE_SNIPPETS)} answers are right. The check does "
                             "not say how many or which: changing one answer at a time and "
                             "checking again tells you nothing. Go through A to E again with:\n  - "
                             + "\n  - ".join(_INFERENCE_HINTS))
    _passed()
