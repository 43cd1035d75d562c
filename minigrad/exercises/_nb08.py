"""Checks for notebook 08, several losses: repair a loop that backpropagates into a freed
graph, and train one network through a frozen second network."""
from __future__ import annotations

import contextlib

import numpy as np

import minigrad
from minigrad import autograd, nn, optim
from minigrad.nn import functional as F

from ._common import _as_float, _not_done, _passed

__all__ = ["check_frozen_net2", "check_stream_loop"]


def _arrays(tensors):
    return [t.detach().numpy().copy() for t in tensors]


def _same(a, b):
    return len(a) == len(b) and all(np.allclose(p, q, rtol=1e-5, atol=1e-6) for p, q in zip(a, b))


def _same_numbers(a, b):
    return len(a) == len(b) and bool(np.allclose(a, b, rtol=1e-5, atol=1e-6))


def _loss_list(losses, what):
    if losses is None:
        raise AssertionError(f"{what} returned None: it should return the list of loss values, "
                             "one per step. Did you forget the return statement?")
    try:
        return [_as_float(v, "each loss value") for v in losses]
    except TypeError:
        raise AssertionError(f"{what} should return a list of numbers (the loss of each step); "
                             f"it returned {losses!r}") from None


@contextlib.contextmanager
def _watch_backward(calls):
    """Record, for every backward call made inside (loss.backward(...) or
    torch.autograd.backward(...)), whether it kept the graph."""
    original, original_method = autograd.backward, minigrad.Tensor.backward

    def watched(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
        calls.append(bool(retain_graph) or bool(create_graph))
        return original(tensors, grad_tensors, retain_graph, create_graph, inputs=inputs)

    def watched_method(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        calls.append(bool(retain_graph) or bool(create_graph))
        return original_method(self, gradient, retain_graph, create_graph, inputs=inputs)

    autograd.backward, minigrad.Tensor.backward = watched, watched_method
    try:
        yield calls
    finally:
        autograd.backward, minigrad.Tensor.backward = original, original_method


# --- exercise 1: a state carried from step to step ---------------------------------------

_STREAM_LR = 0.2


def _stream_problem(seed):
    """Fresh W (3x3), U (3x2) that require grad, and a stream of inputs and targets."""
    minigrad.manual_seed(seed)
    W = (0.5 * minigrad.randn(3, 3)).requires_grad_()
    U = (0.5 * minigrad.randn(3, 2)).requires_grad_()
    xs = [minigrad.randn(2) for _ in range(6)]
    targets = [0.5 * minigrad.randn(3) for _ in range(6)]
    return W, U, xs, targets


def _reference_stream(W, U, xs, targets, lr, carry=True, zero_grad=True):
    optimizer = optim.SGD([W, U], lr=lr)
    h = minigrad.zeros(W.shape[0])
    losses = []
    for x, target in zip(xs, targets):
        h = h.detach() if carry else minigrad.zeros(W.shape[0])
        if zero_grad:
            optimizer.zero_grad()
        h = minigrad.tanh(W @ h + U @ x)
        loss = ((h - target) ** 2).sum()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def check_stream_loop(train_stream):
    """Check ``train_stream(W, U, xs, targets, lr) -> losses``: the state h carries its value
    from step to step, each step's backward reaches only that step's graph, and no
    retain_graph=True is used."""
    for seed in (0, 1, 2):
        W, U, xs, targets = _stream_problem(seed)
        calls = []
        try:
            with _watch_backward(calls):
                losses = train_stream(W, U, xs, targets, _STREAM_LR)
        except NotImplementedError:
            raise _not_done("train_stream") from None
        except RuntimeError as e:
            if any(calls):
                raise AssertionError(
                    "Your loop passes retain_graph=True, and then fails with:\n  " + str(e)[:90]
                    + "...\nKeeping the old graphs alive does not fix the loop: the next "
                    "backward walks back into earlier steps whose saved W has since been "
                    "changed by optimizer.step(). Do not keep the old graph; break the link "
                    "to it.") from None
            if "second time" in str(e):
                raise AssertionError(
                    "Your loop still raises 'Trying to backward through the graph a second "
                    "time'. The state h that enters a step was computed in the previous step, "
                    "so it still links this step's loss to the previous step's graph, which "
                    "the previous backward freed. Keep h's values but not that link.") from None
            if "does not require grad" in str(e):
                raise AssertionError(
                    "Your loop raises 'element 0 of tensors does not require grad': this "
                    "step's loss has no grad_fn, so backward has nothing to walk. Cut the "
                    "state from the old graph before the step uses it, not after the step "
                    "computes the new state from W and U.") from None
            raise
        if any(calls):
            raise AssertionError(
                "Your loop calls backward with retain_graph=True (or create_graph=True). That "
                "keeps every step's saved tensors alive, so memory and the time of each "
                "backward grow with every step. Solve it without retain_graph: the next step "
                "needs the state's values, not its history.")
        losses = _loss_list(losses, "train_stream")
        if len(losses) != len(xs):
            raise AssertionError(f"train_stream returned {len(losses)} losses for a stream of "
                                 f"{len(xs)} inputs: one loss per input (one step each).")
        got = _arrays([W, U])
        W0, U0, xs0, t0 = _stream_problem(seed)
        want = _reference_stream(W0, U0, xs0, t0, _STREAM_LR)
        if _same_numbers(losses, want) and _same(got, _arrays([W0, U0])):
            continue
        W1, U1, xs1, t1 = _stream_problem(seed)
        reset = _reference_stream(W1, U1, xs1, t1, _STREAM_LR, carry=False)
        if _same_numbers(losses, reset):
            raise AssertionError(
                "Your losses are those of a loop that starts every step from h = 0. The state "
                "should carry its value from one step to the next; only its link to the "
                "previous step's graph has to go.")
        W2, U2, xs2, t2 = _stream_problem(seed)
        stale = _reference_stream(W2, U2, xs2, t2, _STREAM_LR, zero_grad=False)
        if _same_numbers(losses, stale):
            raise AssertionError(
                "The gradients accumulate: backward() adds to .grad, so without clearing it "
                "each step every update also uses the gradients of all earlier steps.")
        start = _arrays(_stream_problem(seed)[:2])
        if _same(got, start):
            raise AssertionError("W and U did not change: the loop should update them (an "
                                 "optimizer step per input).")
        raise AssertionError(
            "The losses or the final W and U differ from the expected loop. Keep the loop as it "
            "was (h starts at zeros, h = tanh(W @ h + U @ x), squared error summed, SGD with "
            "the given lr, one step per input); change only what makes the error go away.")
    _passed()


# --- exercise 2: train net1 through a frozen net2 ----------------------------------------

_FROZEN_STEPS = 5
_FROZEN_LR = 0.1


def _frozen_problem(seed):
    """net1: 4 -> 2 (features); net2: 2 -> 3 -> 1 with a Dropout (the pretrained part,
    so that forgetting net2.eval() changes the losses); data."""
    minigrad.manual_seed(seed)
    net1 = nn.Linear(4, 2)
    net2 = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Dropout(0.5), nn.Linear(3, 1))
    x = minigrad.randn(8, 4)
    y1 = minigrad.randn(8, 2)
    y2 = minigrad.randn(8, 1)
    return net1, net2, x, y1, y2


def _reference_frozen(net1, net2, x, y1, y2, steps, lr, cut=False, zero_grad=True):
    net2.eval()
    net2.requires_grad_(False)
    optimizer = optim.SGD(net1.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        if zero_grad:
            optimizer.zero_grad()
        h = net1(x)
        loss = F.mse_loss(h, y1) + F.mse_loss(net2(h.detach() if cut else h), y2)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def check_frozen_net2(train_net1):
    """Check ``train_net1(net1, net2, x, y1, y2, steps, lr) -> losses``: net1 learns from
    loss1 + loss2 through net2; net2 keeps its weights and gets no gradients."""
    for seed in (0, 1):
        net1, net2, x, y1, y2 = _frozen_problem(seed)
        start1, start2 = _arrays(net1.parameters()), _arrays(net2.parameters())
        computed = []  # net2's parameters whose gradient autograd computed, even if cleared later
        handles = [p.register_hook(lambda g, name=name: computed.append(name))
                   for name, p in net2.named_parameters()]
        try:
            losses = train_net1(net1, net2, x, y1, y2, _FROZEN_STEPS, _FROZEN_LR)
        except NotImplementedError:
            raise _not_done("train_net1") from None
        finally:
            for handle in handles:
                handle.remove()
        losses = _loss_list(losses, "train_net1")
        if not _same(_arrays(net2.parameters()), start2):
            raise AssertionError(
                "net2's weights changed. net2 is the pretrained network: its weights must stay "
                "exactly as they were; only net1 should be updated.")
        with_grad = [name for name, p in net2.named_parameters() if p.grad is not None]
        if with_grad:
            raise AssertionError(
                f"net2's parameters have a .grad after training ({', '.join(with_grad)}): "
                "autograd still computed gradients for them, which costs time and memory and "
                "would move them if an optimizer saw them. A frozen parameter should not ask "
                "autograd for a gradient at all.")
        if computed:
            raise AssertionError(
                f"net2's parameters have no .grad now, but autograd computed gradients for them "
                f"during training ({', '.join(sorted(set(computed)))}) and they were cleared "
                "afterwards. That still costs time and memory at every step. A frozen parameter "
                "should not ask autograd for a gradient at all.")
        got1 = _arrays(net1.parameters())
        if _same(got1, start1):
            raise AssertionError("net1's parameters did not change: net1 should take one "
                                 "optimizer step per training step.")
        if net2.training:
            raise AssertionError(
                "net2 is still in training mode. Freezing its parameters does not change how its "
                "layers compute: a pretrained network's Dropout would still drop units (this "
                "net2 has one) and a BatchNorm would still use batch statistics and update its "
                "running averages. Put net2 in evaluation mode.")
        if not net1.training:
            raise AssertionError("net1 is in evaluation mode, but net1 is the network being "
                                 "trained: only net2, the pretrained one, should be switched.")
        n1, n2, *data = _frozen_problem(seed)
        want = _reference_frozen(n1, n2, *data, _FROZEN_STEPS, _FROZEN_LR)
        if _same(got1, _arrays(n1.parameters())):
            if not _same_numbers(losses, want):
                raise AssertionError(
                    "net1 ends up right, but the returned losses are not the values of "
                    "loss1 + loss2 at each step (before that step's update).")
            continue
        n1, n2, *data = _frozen_problem(seed)
        _reference_frozen(n1, n2, *data, _FROZEN_STEPS, _FROZEN_LR, cut=True)
        if _same(got1, _arrays(n1.parameters())):
            raise AssertionError(
                "net1 learned from loss1 only: no gradient of loss2 reached it. Freezing net2 "
                "should stop net2's parameters from learning, not cut the path from loss2 "
                "back through net2 into net1.")
        n1, n2, *data = _frozen_problem(seed)
        _reference_frozen(n1, n2, *data, _FROZEN_STEPS, _FROZEN_LR, zero_grad=False)
        if _same(got1, _arrays(n1.parameters())):
            raise AssertionError(
                "net1's gradients accumulate from step to step: backward() adds to .grad, so "
                "clear it before each backward.")
        raise AssertionError(
            "net1's final weights differ from the expected ones. Use SGD on net1's parameters "
            "with the given lr, one step per training step, and the loss "
            "F.mse_loss(h, y1) + F.mse_loss(net2(h), y2) with h = net1(x).")
    _passed()
