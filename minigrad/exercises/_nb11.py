"""Checks for notebook 11, save or recompute: the bytes a graph saves, checkpointing each
block, a backward rule for the fusion tracer's table."""
from __future__ import annotations

import warnings

import numpy as np

import minigrad

from .. import fusion, nn
from ..autograd.graph import saved_tensors_hooks
from ._common import _not_done, _passed

__all__ = ["check_saved_by_g", "check_checkpointed", "check_div_rule"]


def _saved_bytes(fn, *args):
    """What ``fn(*args)`` saves for backward, in bytes, as a pack hook counts it (every tensor
    every node saves, each time it is saved), and its output."""
    total = 0

    def pack(t):
        nonlocal total
        total += t.nelement() * t.element_size()
        return t

    with saved_tensors_hooks(pack, lambda t: t):
        out = fn(*args)
    return total, out


# --- predicting the bytes a graph saves --------------------------------------------------------

def _g(a, b):
    return (a * b).sigmoid() * b


def check_saved_by_g(saved_by_g):
    """Check ``saved_by_g(n)``: the bytes ``(a * b).sigmoid() * b`` saves for backward, for
    float32 ``a`` and ``b`` of ``n`` elements that both require grad."""
    for n in (1000, 7, 250_000, 1):
        try:
            answer = saved_by_g(n)
        except NotImplementedError:
            raise _not_done("saved_by_g") from None
        if answer is None:
            raise AssertionError("saved_by_g returned None: it should return a number of bytes. "
                                 "Did you forget the return statement?")
        try:
            got = float(answer)
        except (TypeError, ValueError):
            raise AssertionError(f"saved_by_g should return a number of bytes; it returned "
                                 f"{answer!r}") from None
        a = minigrad.zeros(n, requires_grad=True)
        b = minigrad.zeros(n, requires_grad=True)
        want, _ = _saved_bytes(_g, a, b)
        if got == want:
            continue
        array = 4 * n
        at = f"For n={n} you said {got:g} bytes."
        if saved_by_g(2 * n) == answer and n > 1:
            hint = "your answer does not grow with n: every saved tensor has n elements."
        elif got == want / 4:
            hint = "count bytes, not elements: a float32 element takes 4 bytes."
        elif got == 3 * array:
            hint = ("you counted each tensor once. The pack hook runs for every tensor every node "
                    "saves: a tensor saved by two nodes is packed twice.")
        elif got == want - 2 * array or got == want - 3 * array:
            hint = ("the inputs a and b are saved too: a node keeps what its backward needs, "
                    "leaves included.")
        else:
            hint = ("go node by node, as 04 did: what does the product of two tensors that both "
                    "need gradients save, and what does sigmoid save?")
        raise AssertionError(f"{at} {hint}")
    _passed()


# --- checkpointing each block ----------------------------------------------------------------

def _blocks():
    minigrad.manual_seed(3)
    return [nn.Sequential(nn.Linear(8, 8), nn.Tanh()) for _ in range(3)]


def _plain(blocks, x):
    for block in blocks:
        x = block(x)
    return x


def _grads(blocks, x, out):
    for p in [x] + [p for b in blocks for p in b.parameters()]:
        p.grad = None
    out.sum().backward()
    return [x.grad] + [p.grad for b in blocks for p in b.parameters()]


def check_checkpointed(checkpointed):
    """Check ``checkpointed(blocks, x)``: the blocks run one after another, each through
    ``checkpoint(block, h, use_reentrant=False)``; same output and gradients as without."""
    blocks = _blocks()
    minigrad.manual_seed(4)
    x = minigrad.randn(5, 8, requires_grad=True)
    plain_bytes, plain_out = _saved_bytes(_plain, blocks, x)
    want_grads = _grads(blocks, x, plain_out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            saved, out = _saved_bytes(checkpointed, blocks, x)
        except NotImplementedError:
            raise _not_done("checkpointed") from None
    if out is None:
        raise AssertionError("checkpointed returned None: it should return the last block's "
                             "output. Did you forget the return statement?")
    if any("use_reentrant" in str(w.message) for w in caught):
        raise AssertionError("checkpoint warned that use_reentrant should be passed explicitly: "
                             "PyTorch 2.13 warns without it. Pass use_reentrant=False.")
    if not isinstance(out, minigrad.Tensor) or tuple(out.shape) != tuple(plain_out.shape) or \
            not np.allclose(out.detach().numpy(), plain_out.detach().numpy(), atol=1e-6):
        raise AssertionError("checkpointed's output differs from running the blocks one after "
                             "another: it should return the last block's output.")
    if out.grad_fn is None:
        raise AssertionError("the output has no grad_fn: no graph was recorded, so backward cannot "
                             "reach the blocks' parameters. Was a block run under "
                             "torch.no_grad()? checkpoint decides itself what the graph keeps.")
    if type(out.grad_fn).__name__ == "CheckpointFunctionBackward":
        raise AssertionError("that is the reentrant variant (one CheckpointFunctionBackward node): "
                             "use the variant PyTorch recommends, use_reentrant=False.")
    want = len(blocks) * x.nelement() * x.element_size()
    if saved >= plain_bytes:
        raise AssertionError(f"the graph keeps {saved} bytes, as much as without checkpoint "
                             f"({plain_bytes}): pass each block to checkpoint.")
    if saved > want:
        raise AssertionError(f"the graph keeps {saved} bytes: not every block is checkpointed. "
                             f"With each block in a checkpoint of its own it keeps only the "
                             f"blocks' inputs, {want} bytes.")
    if saved < want:
        raise AssertionError(f"the graph keeps {saved} bytes, fewer than the blocks' inputs "
                             f"({want}): put each block in a checkpoint of its own.")
    got_grads = _grads(blocks, x, out)
    if any(g is None or not np.allclose(g.numpy(), w.numpy(), atol=1e-6)
           for g, w in zip(got_grads, want_grads)):
        raise AssertionError("the gradients differ from those without checkpoint: run each "
                             "block once, through checkpoint, on the previous block's output.")
    _passed()


# --- a backward rule for the tracer's table ----------------------------------------------------

def _eager_div_grads(a, b, g):
    at, bt = minigrad.tensor(a, requires_grad=True), minigrad.tensor(b, requires_grad=True)
    (at / bt).backward(minigrad.tensor(g))
    return at.grad.numpy(), bt.grad.numpy()


def _close(x, y):
    return np.allclose(x, y, rtol=1e-6, atol=1e-9)


def check_div_rule(div_rule):
    """Check ``div_rule(g, out, a, b) -> (grad_a, grad_b)`` for ``out = a / b``, on arrays
    and inside the tracer (as ``fusion.GRADS["div"]``)."""
    rng = np.random.default_rng(10)
    a = rng.standard_normal(12)
    b = rng.uniform(0.5, 2.0, 12) * rng.choice([-1.0, 1.0], 12)
    g = rng.uniform(0.5, 2.0, 12) * rng.choice([-1.0, 1.0], 12)
    try:
        answer = div_rule(g, a / b, a, b)
    except NotImplementedError:
        raise _not_done("div_rule") from None
    if answer is None:
        raise AssertionError("div_rule returned None: it should return two gradients, "
                             "(grad_a, grad_b). Did you forget the return statement?")
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        raise AssertionError("div_rule should return a pair, (grad_a, grad_b): one gradient for "
                             f"each input of a / b; it returned {type(answer).__name__}.")
    ga, gb = (np.broadcast_to(np.asarray(v, dtype=float), a.shape) for v in answer)
    want_a, want_b = _eager_div_grads(a, b, g)
    if _close(ga, want_b) and _close(gb, want_a):
        raise AssertionError("your two gradients look swapped: return (grad_a, grad_b), in the "
                             "order of the inputs.")
    if _close(ga, g * b) and _close(gb, g * a):
        raise AssertionError("that is the rule of a product a * b, not of the quotient a / b.")
    if _close(ga, want_a / g) or _close(gb, want_b / g):
        raise AssertionError("your gradients do not depend on g. The chain rule multiplies each "
                             "local derivative by the gradient arriving from above.")
    if not _close(ga, want_a):
        raise AssertionError("grad_a is wrong: with b fixed, a / b is a straight line in a. "
                             "What is its slope?")
    if not _close(gb, want_b):
        if _close(gb, -want_b):
            hint = ("its sign is wrong: when b grows (and a > 0, b > 0), does a / b grow or "
                    "shrink?")
        elif _close(gb, want_b * b):
            hint = "the derivative of 1 / b is not -1 / b: differentiate b ** -1 once more."
        else:
            hint = ("with a fixed, a / b is a times b ** -1: differentiate that in b, then "
                    "multiply by g.")
        raise AssertionError(f"grad_b is wrong: {hint}")
    # The same rule, put in the tracer's table, must give eager's gradients through a fused
    # chain; the chain also divides a constant by a tensor and a tensor by a constant.
    def chain(x, y):
        return (x / y + 2 / (y * y + 1)) / 3

    saved = fusion.GRADS["div"]
    fusion.GRADS["div"] = lambda *args: div_rule(*args)
    try:
        f = fusion.fuse(chain)
        x, y = minigrad.tensor(a, requires_grad=True), minigrad.tensor(b, requires_grad=True)
        f(x, y).backward(minigrad.tensor(g))
    except Exception as e:  # noqa: BLE001 (any failure here is the rule's; say which)
        raise AssertionError("div_rule works on arrays but not on the tracer's stand-in values; "
                             "use only arithmetic (+, -, *, /) on g, out, a and b. The tracer "
                             f"said: {type(e).__name__}: {e}") from None
    finally:
        fusion.GRADS["div"] = saved
    xe, ye = minigrad.tensor(a, requires_grad=True), minigrad.tensor(b, requires_grad=True)
    chain(xe, ye).backward(minigrad.tensor(g))
    if not (_close(x.grad.numpy(), xe.grad.numpy()) and _close(y.grad.numpy(), ye.grad.numpy())):
        raise AssertionError("div_rule is right on arrays, but inside the tracer the gradients "
                             "differ from eager ones: does it still work when a or b is a plain "
                             "number?")
    _passed()
