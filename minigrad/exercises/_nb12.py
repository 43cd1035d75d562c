"""Checks for notebook 12, the capstone: standardising with training statistics, an
evaluation function, a snapshot of the best weights.

The checks make their own small problems (they never read the notebook's data set).
"""
from __future__ import annotations

import numpy as np

import minigrad
from minigrad import nn, optim
from minigrad.utils.data import DataLoader, TensorDataset

from ._common import _as_array, _not_done, _pair, _passed

__all__ = ["check_evaluate", "check_snapshot", "check_standardize"]


# --- standardising with the training statistics -----------------------------------------------

def _standardize_problem():
    """(x_train, x_other, constant columns): column 2 is all zeros in the training rows and
    column 4 all threes, as some pixels of the digits never light up in the training split;
    the other rows have a different mean and spread, and a few non-zero entries in column 2."""
    rng = np.random.default_rng(11)
    x_train = rng.normal(loc=[1.0, -2.0, 0.0, 5.0, 3.0, 0.5], scale=[1.0, 3.0, 1.0, 0.5, 1.0, 2.0],
                         size=(40, 6))
    x_train[:, 2] = 0.0
    x_train[:, 4] = 3.0
    x_other = rng.normal(loc=[3.0, 0.0, 0.0, 4.0, 3.0, -1.0], scale=[2.0, 1.0, 1.0, 1.5, 1.0, 0.5],
                         size=(15, 6))
    x_other[:, 2] = 0.0
    x_other[[1, 7, 12], 2] = [2.0, 5.0, 1.0]
    x_other[:, 4] = 3.0
    x_other[[3, 9], 4] = [4.0, 1.0]
    return x_train, x_other, [2, 4]


def _scaled(x, mean, std):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (x - mean) / std


def _close(a, b):
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-6)


def check_standardize(standardize):
    """Check ``standardize(x_train, x) -> x standardised with x_train's per-column mean and
    standard deviation`` (columns constant in x_train: centred only, or set to 0)."""
    x_train, x_other, const = _standardize_problem()
    keep = [j for j in range(x_train.shape[1]) if j not in const]
    for x, which in ((x_other, "other rows"), (x_train, "the training rows themselves")):
        try:
            got = standardize(x_train.copy(), x.copy())
        except NotImplementedError:
            raise _not_done("standardize") from None
        got = _as_array(got, "standardize's result")
        if got.shape != x.shape:
            raise AssertionError(f"standardize(x_train, x) should have the shape of x, "
                                 f"{x.shape}; it returned shape {got.shape}.")
        mean = x_train.mean(axis=0)
        stds = [x_train.std(axis=0), x_train.std(axis=0, ddof=1)]  # either convention is fine
        both = np.concatenate([x_train, x])
        # First the columns that vary in the training data: is it the right formula?
        if not any(_close(got[:, keep], _scaled(x, mean, s)[:, keep]) for s in stds):
            g = got[:, keep]
            if x is not x_train and any(
                    _close(g, _scaled(x, x.mean(axis=0), s)[:, keep])
                    for s in (x.std(axis=0), x.std(axis=0, ddof=1))):
                raise AssertionError(
                    "Your result uses the mean and standard deviation of x itself. Validation "
                    "and test data must be transformed with the numbers computed on the training "
                    "data; otherwise each split is shifted and scaled differently, and the model "
                    "sees inputs on another scale than the one it was trained on.")
            if x is not x_train and any(
                    _close(g, _scaled(x, both.mean(axis=0), s)[:, keep])
                    for s in (both.std(axis=0), both.std(axis=0, ddof=1))):
                raise AssertionError(
                    "Your statistics were computed on x_train and x together. Only the training "
                    "rows may contribute: anything learned from the other rows leaks "
                    "information about them into the model.")
            if _close(g, (x - mean)[:, keep]):
                raise AssertionError("The columns are centred but not scaled: after subtracting "
                                     "the mean, each column still has its own spread.")
            if any(_close(g, _scaled(x, mean, s ** 2)[:, keep]) for s in stds):
                raise AssertionError("You divided by the variance. Scale by the standard "
                                     "deviation, which has the same units as the data.")
            if _close(g, _scaled(x, x.mean(axis=1, keepdims=True), x.std(axis=1, keepdims=True))[:, keep]):
                raise AssertionError("You took the statistics of each row. Each column (each "
                                     "pixel) needs its own mean and standard deviation, "
                                     "computed over the training examples (axis 0).")
            raise AssertionError(
                f"On {which}, the columns that vary in x_train do not come out as (x - mean) / "
                "std with the per-column mean and standard deviation of x_train.")
        # Then the columns that are constant in the training data.
        g = got[:, const]
        if not np.all(np.isfinite(g)):
            raise AssertionError(
                f"Columns {const} are constant in x_train, so their standard deviation is 0, "
                "and dividing by it gives inf or nan. Such a column tells the model nothing: "
                "make sure it comes out as finite, modest numbers.")
        if np.abs(g).max() > 1e3:
            raise AssertionError(
                f"Columns {const} are constant in x_train, so their standard deviation is 0. "
                "Your values there reach "
                f"{np.abs(g).max():.3g}: a tiny number added to a standard deviation of 0 "
                "still blows up any value that differs from the training mean. Such a column "
                "tells the model nothing: make sure it comes out as finite, modest numbers.")
        centred = (x - mean)[:, const]
        if not (_close(g, centred) or _close(g, np.zeros_like(g))):
            raise AssertionError(
                f"Columns {const} are constant in x_train (standard deviation 0). Leave them "
                "centred but unscaled, or set them to zero; your values are neither.")
    _passed()


# --- an evaluation function ---------------------------------------------------------------

_EVAL_N, _EVAL_BATCH = 22, 8  # batches of 8, 8 and 6: the last one is smaller


def _eval_problem():
    """A small classifier with Dropout and a probe that records, at every forward call,
    whether the model was in training mode and whether autograd was recording."""
    class Probed(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(4, 3)
            self.drop = nn.Dropout(0.5)
            self.calls = []

        def forward(self, x):
            self.calls.append((self.training, minigrad.is_grad_enabled()))
            return self.linear(self.drop(x))

    rng = np.random.default_rng(7)
    model = Probed()
    with minigrad.no_grad():
        model.linear.weight.copy_(minigrad.tensor(rng.normal(size=(3, 4)), dtype=minigrad.float32))
        model.linear.bias.copy_(minigrad.tensor(rng.normal(size=3), dtype=minigrad.float32))
    x = minigrad.tensor(rng.normal(size=(_EVAL_N, 4)), dtype=minigrad.float32)
    y = minigrad.tensor(rng.integers(0, 3, size=_EVAL_N))
    loader = DataLoader(TensorDataset(x, y), batch_size=_EVAL_BATCH)
    return model, nn.CrossEntropyLoss(), loader, x, y


def _eval_reference(model, loss_fn, x, y, batch):
    """(mean loss per example, accuracy, mean of batch losses, mean of batch accuracies)."""
    with minigrad.no_grad():
        out = model.linear(x)  # eval mode: Dropout passes x through
        losses = [loss_fn(out[i:i + batch], y[i:i + batch]).item() for i in range(0, len(y), batch)]
        hits = (out.argmax(dim=1) == y).numpy()
    sizes = [len(hits[i:i + batch]) for i in range(0, len(y), batch)]
    accs = [hits[i:i + batch].mean() for i in range(0, len(y), batch)]
    loss = loss_fn(out, y).item()
    return loss, float(hits.mean()), float(np.mean(losses)), float(np.mean(accs)), sizes


def check_evaluate(evaluate):
    """Check ``evaluate(model, loader, loss_fn) -> (mean loss per example, accuracy)``: in
    evaluation mode, without recording a graph, and the model back in the mode it was in
    (called in training mode, then in evaluation mode)."""
    model, loss_fn, loader, x, y = _eval_problem()
    model.train()
    try:
        result = evaluate(model, loader, loss_fn)
    except NotImplementedError:
        raise _not_done("evaluate") from None
    loss, acc = _pair(result, "evaluate", "mean loss", "accuracy")
    if not model.calls:
        raise AssertionError("evaluate never called the model on the loader's batches.")
    if any(training for training, _ in model.calls):
        raise AssertionError(
            "The model was still in training mode when evaluate ran it, so Dropout kept "
            "zeroing activations at random: the numbers are noisy and lower than the model's "
            "real performance. Switch the model's mode before the loop.")
    if any(grad for _, grad in model.calls):
        raise AssertionError(
            "Autograd was still recording during evaluate: every forward pass built a graph "
            "and kept its saved tensors, which evaluation never uses. Turn recording off "
            "around the loop.")
    if not model.training:
        raise AssertionError(
            "After evaluate returned, the model was left in evaluation mode, so the next "
            "training epoch would run without Dropout. Put it back in the mode it was in "
            "before returning.")
    want_loss, want_acc, batch_mean_loss, batch_mean_acc, sizes = _eval_reference(
        model, loss_fn, x, y, _EVAL_BATCH)
    if 1 < acc <= 100 and np.isclose(acc / 100, want_acc):
        raise AssertionError(f"The accuracy should be a fraction between 0 and 1; you returned "
                             f"{acc:g}, a percentage.")
    if acc > 1 and np.isclose(acc, round(want_acc * len(y))):
        raise AssertionError(f"The accuracy should be a fraction between 0 and 1; you returned "
                             f"{acc:g}, the number of correct predictions.")
    same_sizes = f"The batches here have {sizes[0]}, {sizes[1]} and {sizes[2]} examples"
    if not np.isclose(loss, want_loss, rtol=1e-4, atol=1e-6):
        if np.isclose(loss, batch_mean_loss, rtol=1e-4, atol=1e-6):
            raise AssertionError(
                f"The mean loss averages the batch means. {same_sizes}: the last batch is "
                "smaller, so its mean counts for too much. Weight each batch by its number of "
                "examples.")
        raise AssertionError(f"The mean loss should be {want_loss:.4f} (the loss averaged over "
                             f"all examples); you returned {loss:.4f}.")
    if not np.isclose(acc, want_acc, rtol=1e-6, atol=1e-9):
        if np.isclose(acc, batch_mean_acc, rtol=1e-6, atol=1e-9):
            raise AssertionError(
                f"The accuracy averages the batch accuracies. {same_sizes}: the last batch is "
                "smaller, so its accuracy counts for too much. Count correct predictions over "
                "all examples.")
        raise AssertionError(f"The accuracy should be {want_acc:.4f} (the fraction of examples "
                             f"whose largest logit is the right class); you returned {acc:.4f}.")
    # It must not leave gradients or change the parameters.
    if any(p.grad is not None for p in model.parameters()):
        raise AssertionError("evaluate left gradients in the parameters' .grad: evaluation "
                             "should not call backward().")
    model.eval()  # (training is over: evaluate must not switch it back on)
    evaluate(model, loader, loss_fn)
    if model.training:
        raise AssertionError(
            "The model was in evaluation mode before evaluate was called, and it came back in "
            "training mode: whatever runs next gets Dropout it did not ask for. Leave the model "
            "in the mode it was in.")
    _passed()


# --- a snapshot of the weights ---------------------------------------------------------------

def _snapshot_problem():
    """A small model with a BatchNorm1d layer (so its state has buffers as well as
    parameters), an SGD optimizer with momentum, and one batch of data."""
    rng = np.random.default_rng(5)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    with minigrad.no_grad():
        for p in model.parameters():
            p.copy_(minigrad.tensor(rng.normal(size=tuple(p.shape)), dtype=minigrad.float32))
    optimizer = optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    x = minigrad.tensor(rng.normal(size=(8, 3)), dtype=minigrad.float32)
    y = minigrad.tensor(rng.integers(0, 2, size=8))
    return model, optimizer, nn.CrossEntropyLoss(), x, y


def _state_arrays(model):
    return {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}


def _train_steps(model, optimizer, loss_fn, x, y, steps=3):
    model.train()
    for _ in range(steps):
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()


def check_snapshot(snapshot):
    """Check ``snapshot(model) -> a copy of model.state_dict()`` that later training does not
    change, and that ``model.load_state_dict`` accepts to bring those weights back."""
    model, optimizer, loss_fn, x, y = _snapshot_problem()
    _train_steps(model, optimizer, loss_fn, x, y, steps=1)  # some history, as after an epoch
    want = _state_arrays(model)
    try:
        snap = snapshot(model)
    except NotImplementedError:
        raise _not_done("snapshot") from None
    if snap is None:
        raise AssertionError("snapshot returned None. Did you forget the return statement?")
    if snap is model:
        raise AssertionError("snapshot returned the model itself: that is the live object that "
                             "training keeps changing, not a copy of its weights.")
    if not hasattr(snap, "keys"):
        raise AssertionError("snapshot should return a dictionary from names to tensors, like "
                             f"model.state_dict(); it returned {type(snap).__name__}.")
    missing = [k for k in want if k not in snap]
    if missing:
        raise AssertionError(
            f"The snapshot lacks {missing}. A model's state is more than its parameters: "
            "BatchNorm1d's running mean and variance (and its batch counter) are buffers, and "
            "load_state_dict needs them too. model.state_dict() lists them all.")
    for k, v in want.items():
        got = snap[k].detach().numpy() if hasattr(snap[k], "detach") else np.asarray(snap[k])
        if got.shape != v.shape or not np.array_equal(got, v):
            raise AssertionError(f"snapshot(model)[{k!r}] does not hold the model's values at "
                                 "the time of the snapshot.")
    # Train on: a real copy must not move.
    _train_steps(model, optimizer, loss_fn, x, y, steps=3)
    moved = [k for k, v in want.items()
             if not np.array_equal(snap[k].detach().numpy() if hasattr(snap[k], "detach")
                                   else np.asarray(snap[k]), v)]
    if moved:
        raise AssertionError(
            f"After three more training steps, the snapshot's {moved[0]!r} changed too: it "
            "shares its memory with the model. optimizer.step() updates the parameters in "
            "place (and BatchNorm its running statistics), and state_dict(), detach() and a "
            "shallow copy of a dict all give tensors on that same memory. The snapshot needs "
            "tensors of its own.")
    # Bring the weights back.
    try:
        model.load_state_dict(snap)
    except (RuntimeError, TypeError, KeyError) as e:
        raise AssertionError(f"model.load_state_dict(snapshot) failed: {e}") from None
    back = _state_arrays(model)
    if not all(np.array_equal(back[k], v) for k, v in want.items()):
        raise AssertionError("After model.load_state_dict(snapshot), the model does not hold "
                             "the snapshot's values.")
    if not all(p.requires_grad and p.is_leaf for p in model.parameters()):
        raise AssertionError("After loading the snapshot, the model's parameters no longer "
                             "require gradients.")
    _passed()
