"""Checks for notebook 06, tensors, broadcasting and vector-Jacobian products."""
from __future__ import annotations

import numpy as np

import minigrad
from minigrad.nn import functional as F

from ._common import _as_array, _not_done, _passed

__all__ = ["check_jacobian", "check_linear_backward", "check_second_derivative", "check_unbroadcast"]


def _close(a, b):
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5)


# --- exercise 1: unbroadcast --------------------------------------------------------------

# (shape of the gradient = the broadcast result, shape of the input)
_UNBROADCAST_CASES = [((4, 3), (3,)), ((4, 3), (1, 3)), ((4, 3), (4, 1)), ((2, 3, 4), (3, 1)),
                      ((5,), ()), ((2, 3), (2, 3)), ((3, 2, 4), (1, 4)), ((2, 1, 3), (2, 1, 1))]


def _broadcast_grad(grad, shape):
    """The gradient minigrad's backward gives an input of ``shape`` added to a tensor of
    ``grad.shape`` (the broadcast result), when the result's gradient is ``grad``."""
    x = minigrad.zeros(shape, dtype=minigrad.float64, requires_grad=True)
    y = x + minigrad.zeros(grad.shape, dtype=minigrad.float64)
    y.backward(minigrad.tensor(grad))
    return x.grad.numpy()


def check_unbroadcast(unbroadcast):
    """Check ``unbroadcast(grad, shape)``: ``grad`` (a NumPy array) is the gradient of a
    broadcast result; return the gradient of the input that had ``shape``."""
    rng = np.random.default_rng(5)
    for grad_shape, shape in _UNBROADCAST_CASES:
        grad = rng.integers(-5, 6, size=grad_shape).astype(np.float64)
        at = f"for grad of shape {grad_shape} and an input of shape {shape}"
        try:
            got = unbroadcast(grad.copy(), shape)
        except NotImplementedError:
            raise _not_done("unbroadcast") from None
        except Exception as e:  # noqa: BLE001 (the learner's code may raise anything)
            raise AssertionError(f"{at}, unbroadcast raised {type(e).__name__}: {e}") from None
        got = _as_array(got, "unbroadcast's result")
        want = _broadcast_grad(grad, shape)
        if got.shape != tuple(shape):
            if got.shape == tuple(grad_shape):
                hint = ("you returned a gradient of the broadcast shape. A gradient always has "
                        "the shape of the tensor it belongs to: every dimension broadcasting "
                        "added or stretched has to go.")
            elif len(got.shape) < len(shape) or (got.size == want.size and got.shape != want.shape):
                hint = ("a dimension of size 1 in the input was stretched by broadcasting: its "
                        "gradient keeps that dimension, with size 1 (look at keepdims).")
            else:
                hint = ("dimensions the input did not have (on the left) and dimensions where it "
                        "had size 1 were both created by broadcasting; handle both. Shapes line "
                        "up from the right: the input's last dimension goes with the result's "
                        "last.")
            raise AssertionError(f"{at}, your result has shape {got.shape}, but the gradient "
                                 f"of the input must have the input's shape {tuple(shape)}. "
                                 f"Hint: {hint}")
        if _close(got, want):
            continue
        n = grad.size // max(want.size, 1)
        if n > 1 and _close(got * n, want):
            hint = ("your values are an average. Each copy of an input element was used in "
                    "full, so the gradients of all its copies add up, without dividing.")
        else:
            hint = ("each input element was copied to several positions of the result; its "
                    "gradient collects the gradients of all its copies.")
        raise AssertionError(f"{at}, the shape is right but the values are wrong. Hint: {hint}")
    _passed()


# --- exercise 2: a Jacobian, one row per backward -------------------------------------------

def _functions():
    W = minigrad.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]], dtype=minigrad.float64)  # x is float64 too
    return [
        ("x * x", lambda x: x * x, [0.5, -1.0, 2.0]),
        ("W @ x (2 outputs, 3 inputs)", lambda x: W @ x, [1.0, 2.0, 3.0]),
        ("softmax(x)", lambda x: minigrad.softmax(x, dim=0), [0.2, -0.4, 1.0, 0.3]),
        ("x * x.sum()", lambda x: x * x.sum(), [1.0, -2.0, 0.5]),
        ("x[:2] * x[1:]", lambda x: x[:2] * x[1:], [1.5, -0.5, 2.0]),
    ]


def _jacobian_reference(f, values):
    """J[i, j] = d f(x)[i] / d x[j], by central differences in float64 (independent of
    backward, so a wrong backward elsewhere cannot hide a wrong answer here)."""
    x0 = np.asarray(values, dtype=np.float64)
    m = f(minigrad.tensor(x0)).shape[0]
    J = np.zeros((m, x0.size))
    h = 1e-6
    for j in range(x0.size):
        e = np.zeros_like(x0)
        e[j] = h
        J[:, j] = (f(minigrad.tensor(x0 + e)).numpy() - f(minigrad.tensor(x0 - e)).numpy()) / (2 * h)
    return J


def check_jacobian(jacobian):
    """Check ``jacobian(f, x)``: the (outputs, inputs) matrix of d f(x)[i] / d x[j], for
    ``x`` a 1-D tensor with requires_grad=True and ``f`` returning a 1-D tensor."""
    for what, f, values in _functions():
        x = minigrad.tensor(values, dtype=minigrad.float64, requires_grad=True)
        at = f"for f(x) = {what} at x = {values}"
        try:
            got = jacobian(f, x)
        except NotImplementedError:
            raise _not_done("jacobian") from None
        except RuntimeError as e:
            if "second time" in str(e):
                raise AssertionError(f"{at}, jacobian raised: {e}\nHint: the first backward "
                                     "freed the graph's saved tensors. Either keep them for the "
                                     "next rows, or compute y = f(x) again for each row.") from None
            raise AssertionError(f"{at}, jacobian raised RuntimeError: {e}") from None
        except Exception as e:  # noqa: BLE001
            raise AssertionError(f"{at}, jacobian raised {type(e).__name__}: {e}") from None
        got = _as_array(got, "jacobian's result")
        want = _jacobian_reference(f, values)
        if got.shape != want.shape:
            if got.shape == want.T.shape:
                hint = ("rows and columns are swapped: row i belongs to output i, column j to "
                        "input j.")
            else:
                hint = "the Jacobian has one row per output and one column per input."
            raise AssertionError(f"{at}, your Jacobian has shape {got.shape}; it should be "
                                 f"{want.shape}. Hint: {hint}")
        if _close(got, want):
            continue
        if _close(got, np.cumsum(want, axis=0)):
            hint = ("each row holds the sum of all the rows before it: x.grad accumulates "
                    "across backward calls. Clear it before each row.")
        elif _close(got, want.T):
            hint = ("your matrix is transposed: row i should be the gradient of output i with "
                    "respect to every input.")
        elif np.allclose(got, got[:1], atol=1e-9) and got.shape[0] > 1:
            if _close(got[0], want[-1]):
                hint = ("every row equals the last row: your rows are one and the same tensor, "
                        "x.grad, which each later backward changes in place. Keep a copy of "
                        "each row.")
            else:
                hint = ("all your rows are the same. Either the gradient you passed to backward "
                        "weights every output (to get row i, the weights must pick output i "
                        "alone), or your rows are one and the same tensor, x.grad, which each "
                        "later backward changes in place (keep a copy of each row).")
        else:
            hint = ("row i is the gradient of output i alone: backward with a gradient that is "
                    "1 at position i and 0 elsewhere.")
        raise AssertionError(f"{at}, the values are wrong. Hint: {hint}")
    _passed()


# --- exercise 3: the backward of Linear ---------------------------------------------------

_LINEAR_SHAPES = [(4, 3, 3), (4, 3, 2), (1, 5, 3), (6, 2, 4), (3, 4, 4)]  # (batch, in, out)


def check_linear_backward(linear_backward):
    """Check ``linear_backward(x, W, b, grad_out) -> (grad_x, grad_W, grad_b)`` for
    ``out = x @ W.T + b`` against minigrad's backward, at several shapes."""
    minigrad.manual_seed(3)
    for n, d_in, d_out in _LINEAR_SHAPES:
        x = minigrad.randn(n, d_in)
        W = minigrad.randn(d_out, d_in)
        b = minigrad.randn(d_out)
        grad_out = minigrad.randn(n, d_out)
        at = (f"for x of shape ({n}, {d_in}), W of shape ({d_out}, {d_in}), b of shape ({d_out},) "
              f"and grad_out of shape ({n}, {d_out})")
        try:
            answer = linear_backward(x.clone(), W.clone(), b.clone(), grad_out.clone())
        except NotImplementedError:
            raise _not_done("linear_backward") from None
        except Exception as e:  # noqa: BLE001
            raise AssertionError(f"{at}, linear_backward raised {type(e).__name__}: {e}\nHint: "
                                 "write down the shape of every term; each gradient has the "
                                 "shape of the tensor it belongs to.") from None
        if answer is None:
            raise AssertionError("linear_backward returned None: it should return three "
                                 "gradients, (grad_x, grad_W, grad_b).")
        try:
            gx, gW, gb = answer
        except (TypeError, ValueError):
            raise AssertionError("linear_backward should return three gradients, "
                                 "(grad_x, grad_W, grad_b).") from None
        gx, gW, gb = (_as_array(g, name) for g, name in ((gx, "grad_x"), (gW, "grad_W"), (gb, "grad_b")))

        xr, Wr, br = (t.clone().requires_grad_() for t in (x, W, b))
        F.linear(xr, Wr, br).backward(grad_out)
        want_x, want_W, want_b = (t.grad.numpy().astype(np.float64) for t in (xr, Wr, br))

        if gx.shape != want_x.shape:
            raise AssertionError(f"{at}, grad_x has shape {gx.shape}; it must have x's shape "
                                 f"{want_x.shape}.")
        if not _close(gx, want_x):
            raise AssertionError(
                f"{at}, grad_x has the right shape but wrong values. Hint: in the forward "
                "pass x is multiplied by W.T; the gradient goes back through the same weights "
                "the other way. Which of W and W.T takes a gradient of size out to size in?")
        if gW.shape != want_W.shape:
            hint = (" It looks transposed." if gW.shape == want_W.T.shape else "")
            raise AssertionError(f"{at}, grad_W has shape {gW.shape}; it must have W's shape "
                                 f"{want_W.shape} (row j for output j).{hint}")
        if not _close(gW, want_W):
            if d_in == d_out and _close(gW, want_W.T):
                hint = ("your grad_W is transposed: row j must belong to output j, like W's "
                        "row j.")
            elif n > 1 and _close(gW * n, want_W):
                hint = "your grad_W is an average over the batch; the batch's gradients add up."
            else:
                hint = ("W[j, k] multiplies x[:, k] in output j, for every sample of the batch: "
                        "add up grad_out[:, j] * x[:, k] over the batch.")
            raise AssertionError(f"{at}, grad_W has the right shape but wrong values. Hint: {hint}")
        if gb.shape != want_b.shape:
            if gb.shape == (n, d_out):
                hint = (" Hint: you returned one bias gradient per sample. There is only one "
                        "b, used by every row of the batch.")
            else:
                hint = ""
            raise AssertionError(f"{at}, grad_b has shape {gb.shape}; it must have b's shape "
                                 f"{want_b.shape}.{hint}")
        if not _close(gb, want_b):
            if n > 1 and _close(gb * n, want_b):
                hint = ("your grad_b is an average over the batch. b is used in full by every "
                        "sample, so their gradients add up, without dividing.")
            else:
                hint = "b is added to every row of the batch; what does each row send back to it?"
            raise AssertionError(f"{at}, grad_b has the right shape but wrong values. Hint: {hint}")
    _passed()


# --- exercise 4: a second derivative -------------------------------------------------------

def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# (what, f on tensors, f' and f'' on NumPy arrays, written out by hand)
_CURVES = [
    ("x ** 3", lambda x: x ** 3, lambda x: 3 * x ** 2, lambda x: 6 * x),
    ("tanh(x)", lambda x: minigrad.tanh(x), lambda x: 1 - np.tanh(x) ** 2,
     lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    ("sigmoid(x)", lambda x: minigrad.sigmoid(x), lambda x: _sigmoid(x) * (1 - _sigmoid(x)),
     lambda x: _sigmoid(x) * (1 - _sigmoid(x)) * (1 - 2 * _sigmoid(x))),
    ("x * exp(x)", lambda x: x * minigrad.exp(x), lambda x: (1 + x) * np.exp(x),
     lambda x: (2 + x) * np.exp(x)),
]


def check_second_derivative(second_derivative):
    """Check ``second_derivative(f, x)``: f''(x) at each point of the 1-D tensor ``x`` (which
    does not require grad), for an elementwise ``f``."""
    points = np.array([-1.5, -0.5, 0.0, 0.25, 1.0, 2.0])
    for what, f, d1, d2 in _CURVES:
        at = f"For f(x) = {what}, "
        x = minigrad.tensor(points)
        try:
            got = second_derivative(f, x)
        except NotImplementedError:
            raise _not_done("second_derivative") from None
        except RuntimeError as e:
            if "does not require grad" in str(e):
                raise AssertionError(
                    f"{at}autograd.grad raised: {e}.\nHint: what you differentiate must have a "
                    "graph. The points x arrive without requires_grad (work on a copy that has "
                    "it); and the first derivative has a graph only if the first autograd.grad "
                    "was asked to record what it computes.") from None
            if "scalar outputs" in str(e):
                raise AssertionError(
                    f"{at}autograd.grad raised: {e}.\nHint: f(x) holds one number per point. "
                    "Because f is elementwise, the gradient of the sum of f(x) holds f'(x) at "
                    "every point at once (a vector-Jacobian product with v = ones); the same "
                    "goes for the second step.") from None
            raise AssertionError(f"{at}second_derivative raised RuntimeError: {e}") from None
        got = _as_array(got, "second_derivative's result")
        want, first = d2(points), d1(points)
        if got.shape != want.shape:
            raise AssertionError(f"{at}your result has shape {got.shape}; it should have x's "
                                 f"shape {want.shape}, one second derivative per point.")
        if np.allclose(got, want, rtol=1e-4, atol=1e-5):
            continue
        if np.allclose(got, first, rtol=1e-4, atol=1e-5):
            hint = ("these are the first derivatives f'(x). Differentiate them once more.")
        elif np.allclose(got, first + want, rtol=1e-4, atol=1e-5):
            hint = ("these are f'(x) + f''(x): the second pass added into the .grad the first "
                    "pass had filled. torch.autograd.grad returns each gradient without adding "
                    "it anywhere.")
        else:
            hint = "the values differ from f''(x)."
        raise AssertionError(f"{at}the values are wrong. Hint: {hint}")
    _passed()
