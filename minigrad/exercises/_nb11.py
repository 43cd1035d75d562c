"""Checks for notebook 11, operator fusion."""
from __future__ import annotations

import math
import tracemalloc

import numpy as np

import minigrad

from .. import fusion
from ._common import _not_done, _passed

__all__ = ["check_bytes_moved", "check_div_rule", "check_fused_by_hand"]


# --- counting the bytes a chain moves ---------------------------------------------------------

# (n, itemsize, reads per op, number of distinct inputs)
_TRAFFIC_CASES = [(10, 4, [1, 1, 1, 2, 1], 2), (1000, 8, [1], 1), (7, 2, [2, 2, 1], 3),
                  (3, 8, [2, 1, 2, 2], 2), (1_000_000, 4, [1, 2, 1, 2, 1, 1], 2)]


def _traffic(n, itemsize, reads, n_inputs):
    return sum(r + 1 for r in reads) * n * itemsize, (n_inputs + 1) * n * itemsize


def check_bytes_moved(bytes_moved):
    """Check ``bytes_moved(n, itemsize, reads, n_inputs) -> (eager_bytes, fused_bytes)``."""
    for n, itemsize, reads, n_inputs in _TRAFFIC_CASES:
        try:
            answer = bytes_moved(n, itemsize, list(reads), n_inputs)
        except NotImplementedError:
            raise _not_done("bytes_moved") from None
        if answer is None:
            raise AssertionError("bytes_moved returned None: it should return two numbers, "
                                 "(eager_bytes, fused_bytes). Did you forget the return statement?")
        try:
            eager, fused = (float(v) for v in answer)
        except (TypeError, ValueError):
            raise AssertionError("bytes_moved should return two numbers, (eager_bytes, "
                                 f"fused_bytes); it returned {answer!r}") from None
        want_eager, want_fused = _traffic(n, itemsize, reads, n_inputs)
        at = f"for n={n}, itemsize={itemsize}, reads={reads}, n_inputs={n_inputs}"
        if (eager, fused) == (want_eager, want_fused):
            continue
        if (eager, fused) == (want_fused, want_eager) and eager != fused:
            raise AssertionError(f"{at} your two numbers look swapped: return (eager_bytes, "
                                 "fused_bytes), in that order.")
        if eager != want_eager:
            if eager == want_eager / itemsize:
                hint = "count bytes, not elements: each element takes itemsize bytes."
            elif eager == sum(reads) * n * itemsize:
                hint = ("you counted the reads only: every eager op also writes its whole result "
                        "back to memory.")
            elif eager == 2 * len(reads) * n * itemsize:
                hint = ("you counted two arrays per op: an op that combines two arrays (t * y) "
                        "reads both of them.")
            elif eager == want_eager * 8:
                hint = "you gave bits; the question asks for bytes."
            else:
                hint = ("go op by op: how many whole arrays does it read, and how many does it "
                        "write?")
            raise AssertionError(f"eager_bytes is wrong {at} (you gave {eager:g}): {hint}")
        if fused == want_fused / itemsize:
            hint = "count bytes, not elements: each element takes itemsize bytes."
        elif fused == n_inputs * n * itemsize:
            hint = "the fused kernel reads each input once, but it still has to write its result once."
        elif fused == 2 * n * itemsize:
            hint = "the fused kernel reads every distinct input once, not just one array."
        elif fused == want_fused * 8:
            hint = "you gave bits; the question asks for bytes."
        else:
            hint = ("the fused kernel keeps intermediate values in the cache: which arrays must "
                    "still cross the memory bus?")
        raise AssertionError(f"fused_bytes is wrong {at} (you gave {fused:g}): {hint}")
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


# --- fusing a chain by hand ---------------------------------------------------------------------

def _peak_new_bytes(fn, *args):
    """The peak of memory allocated while ``fn(*args)`` runs (tracemalloc sees NumPy's
    allocations), and its result."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        result = fn(*args)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    return peak, result


def check_fused_by_hand(fused_by_hand):
    """Check ``fused_by_hand(x, y)``: ``np.tanh(x - y) * x`` with at most one new array."""
    rng = np.random.default_rng(10)
    for n, dtype in ((7, np.float64), (200_000, np.float64), (300_000, np.float32)):
        x = rng.standard_normal(n).astype(dtype)
        y = rng.standard_normal(n).astype(dtype)
        x0, y0 = x.copy(), y.copy()
        try:
            peak, got = _peak_new_bytes(fused_by_hand, x, y)
        except NotImplementedError:
            raise _not_done("fused_by_hand") from None
        if not (np.array_equal(x, x0) and np.array_equal(y, y0)):
            raise AssertionError("fused_by_hand changed its input x or y. An in-place ufunc "
                                 "with out= overwrites that array: write into a new array of "
                                 "your own, never into the caller's inputs.")
        if got is None:
            raise AssertionError("fused_by_hand returned None. Did you forget the return "
                                 "statement? (ufuncs called with out= fill that array and "
                                 "return it too.)")
        if not isinstance(got, np.ndarray) or got.shape != x.shape:
            raise AssertionError(f"fused_by_hand should return a NumPy array shaped like x "
                                 f"{x.shape}; got {type(got).__name__} "
                                 f"{getattr(got, 'shape', '')}")
        want = np.tanh(x - y) * x
        tol = 1e-6 if dtype == np.float32 else 1e-12
        if not np.allclose(got, want, rtol=tol, atol=tol):
            raise AssertionError(f"fused_by_hand gives wrong values (n={n}): it should compute "
                                 "tanh(x - y) * x. Check each step and the order of x and y.")
        if got.dtype != dtype:
            raise AssertionError(f"fused_by_hand returned {got.dtype} for {np.dtype(dtype)} inputs: "
                                 "make the new array with x's dtype.")
        arrays = peak / x.nbytes
        if n >= 100_000 and arrays > 1.5:
            raise AssertionError(
                f"fused_by_hand computes the right values but allocated about "
                f"{math.ceil(arrays - 0.25)} arrays of x's size at once (n={n}). Every "
                "expression like x - y or np.tanh(t) makes a new array: allocate the result "
                "once, then let each step write into it with out=.")
    _passed()
