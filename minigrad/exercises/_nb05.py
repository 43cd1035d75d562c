"""Checks for notebook 05, building backward yourself.

The learner's scalar engine is a ``Value`` class defined in the notebook: ``data``,
``grad``, ``parents`` (the Values it was computed from) and ``backward_fn`` (the gradient
of the Value -> one gradient per parent). The checks build expressions with that class
and compare what comes out with minigrad's own backward, in float64.
"""
from __future__ import annotations

import math
import random

import numpy as np

import minigrad

from ._common import _as_float, _not_done, _passed

__all__ = ["check_backward", "check_backward_order", "check_train_step", "check_value_tanh"]


def _close(a, b):
    return math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)


def _minigrad_grads(build, values):
    """Gradients of ``build(*leaves)`` with respect to each leaf, from minigrad's backward."""
    leaves = [minigrad.tensor(v, dtype=minigrad.float64, requires_grad=True) for v in values]
    out = build(*leaves)
    out.backward()
    return [0.0 if t.grad is None else t.grad.item() for t in leaves]


# --- exercise 1: the backward of tanh ----------------------------------------------------

_TANH_POINTS = [(0.5, 1.0), (-1.2, 3.0), (2.0, -0.5), (0.0, 2.0), (0.9, 0.25)]


def check_value_tanh(value_tanh, Value):
    """Check ``value_tanh(v)``: a new Value holding tanh(v.data), with ``(v,)`` as its
    parents and a ``backward_fn`` that turns the incoming gradient into ``(grad for v,)``."""
    for x, g in _TANH_POINTS:
        v = Value(x)
        try:
            out = value_tanh(v)
        except NotImplementedError:
            raise _not_done("value_tanh") from None
        if not isinstance(out, Value):
            raise AssertionError(f"value_tanh should return a new Value; it returned "  # noqa: TRY004
                                 f"{type(out).__name__}: {out!r}")
        if not _close(out.data, math.tanh(x)):
            raise AssertionError(f"the forward value is wrong at x = {x}: you stored {out.data}, "
                                 f"tanh({x}) is {math.tanh(x):.6f}.")
        parents = tuple(out.parents)
        if len(parents) != 1 or parents[0] is not v:
            raise AssertionError("the new Value's parents should be a tuple holding just the "
                                 f"input Value v; they are {parents!r}. Without the right parents, "
                                 "backward cannot find where to send the gradient.")
        if out.backward_fn is None:
            raise AssertionError("the new Value has no backward_fn: give it a function that "
                                 "takes the incoming gradient and returns a tuple of gradients.")
        try:
            grads = out.backward_fn(g)
        except NotImplementedError:
            raise _not_done("value_tanh's backward_fn") from None
        if not isinstance(grads, (tuple, list)) or len(grads) != 1:
            raise AssertionError("backward_fn should return a tuple with one gradient per "
                                 f"parent, here (grad for v,); it returned {grads!r}. "
                                 "A one-element tuple is written (value,).")
        got = float(grads[0])
        xt = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
        xt.tanh().backward(minigrad.tensor(g, dtype=minigrad.float64))
        want = xt.grad.item()
        if _close(got, want):
            continue
        at = f"at x = {x} with incoming gradient {g}: you returned {got:.6f}, backward gives {want:.6f}."
        t = math.tanh(x)
        if not _close(g, 1.0) and _close(got, want / g):
            hint = ("your gradient ignores the incoming gradient. The chain rule multiplies the "
                    "local derivative by the gradient that arrives from above.")
        elif _close(got, g * (1 - x * x)) or _close(got, 1 - x * x):
            hint = ("you used the input x where the derivative of tanh needs its output. "
                    "Write the derivative of tanh in terms of tanh(x) itself.")
        elif _close(got, -want) or _close(got, g * (1 + t * t)):
            hint = "check the sign in your derivative of tanh."
        else:
            hint = ("the derivative of tanh can be written with tanh's own output; multiply it "
                    "by the incoming gradient.")
        raise AssertionError(f"value_tanh's backward_fn is wrong {at} Hint: {hint}")
    _passed()


# --- exercise 2: an iterative topological order -------------------------------------------

def _graphs(Value):
    """(description, root) pairs: small graphs with shared nodes, random DAGs, a deep chain."""
    out = []
    x, y = Value(2.0), Value(-1.0)
    out.append(("root = x * y", x * y))
    x = Value(1.5)
    a = x * 3.0
    out.append(("a diamond: a = x * 3, root = a * 2 + a ** 2", a * 2.0 + a ** 2))
    x, w = Value(0.5), Value(-2.0)
    h = w * x
    out.append(("root = (h * x) + h + w, h = w * x", (h * x) + h + w))
    x = Value(1.0)
    b = x + x
    out.append(("root = b * b, b = x + x", b * b))
    # a Value used by two Values, by one of them twice: counting its uses must count edges
    for what, build in (("a = x * 3, root = a * 2 + (a + a)", lambda a: a * 2.0 + (a + a)),
                        ("a = x * 3, root = (a + a) + a * 2", lambda a: (a + a) + a * 2.0)):
        out.append((what, build(Value(0.5) * 3.0)))
    rng = random.Random(4)
    for n in range(3):
        nodes = [Value(rng.uniform(-1, 1)) for _ in range(3)]
        for _ in range(12 + 4 * n):
            p, q = rng.choice(nodes), rng.choice(nodes[-4:])
            nodes.append(p * q if rng.random() < 0.5 else p + q)
        out.append((f"a random graph of {len(nodes)} Values", nodes[-1] + nodes[-5]))
    node = Value(0.1)
    for _ in range(5000):
        node = node * 1.0
    out.append(("a chain of 5,000 multiplications", node))
    return out


def _reachable(root):
    seen, stack = {id(root): root}, [root]
    while stack:
        for p in stack.pop().parents:
            if id(p) not in seen:
                seen[id(p)] = p
                stack.append(p)
    return seen


def check_backward_order(backward_order, Value):
    """Check ``backward_order(root)``: every Value root depends on, once each, root first,
    each Value after every Value computed from it; without recursion."""
    for what, root in _graphs(Value):
        try:
            order = backward_order(root)
        except NotImplementedError:
            raise _not_done("backward_order") from None
        except RecursionError:
            raise AssertionError(f"on {what}, backward_order hit Python's recursion limit "
                                 "(RecursionError). A recursive walk needs one call frame per "
                                 "level of the graph; keep the Values still to visit in a list "
                                 "of your own (an explicit stack), or count dependencies.") from None
        if order is None:
            raise AssertionError("backward_order returned None: it should return a list of "
                                 "Values. Did you forget the return statement?")
        try:
            order = list(order)
        except TypeError:
            raise AssertionError("backward_order should return a list of Values; it returned "
                                 f"{type(order).__name__}.") from None
        nodes = _reachable(root)
        ids = [id(v) for v in order]
        if len(set(ids)) != len(ids):
            raise AssertionError(f"on {what}, some Value appears more than once in your order. "
                                 "A Value reached by two paths must still be listed once: keep "
                                 "track of the Values you have already visited.")
        missing = len(set(nodes) - set(ids))
        if missing:
            raise AssertionError(f"on {what}, {missing} of the {len(nodes)} Values root depends "
                                 "on are missing from your order (the leaves count too).")
        if set(ids) - set(nodes):
            raise AssertionError(f"on {what}, your order holds Values that root does not depend on.")
        if order and order[-1] is root and order[0] is not root:
            raise AssertionError(f"on {what}, your order ends with root: it is reversed. Backward "
                                 "starts at root, so root comes first and the leaves last.")
        if not order or order[0] is not root:
            raise AssertionError(f"on {what}, the first Value should be root itself: backward "
                                 "starts there.")
        position = {i: k for k, i in enumerate(ids)}
        for v in order:
            for p in v.parents:
                if position[id(p)] < position[id(v)]:
                    raise AssertionError(
                        f"on {what}, a Value comes before a Value computed from it. Backward "
                        "may run a Value only after all the Values that use it have sent their "
                        "gradients: it must come after all of them, not just after the first "
                        "one that reaches it.")
    _passed()


# --- exercise 3: the engine's backward ---------------------------------------------------

def _random_expression(rng, n_leaves=3, n_ops=10):
    """A random expression as a list of steps, to be built with Value and with minigrad."""
    steps = []
    for k in range(n_ops):
        op = rng.choice(["+", "*", "-", "**2", "*c"])
        i = rng.randrange(n_leaves + k)
        j = rng.randrange(max(0, n_leaves + k - 3), n_leaves + k)  # often a recent node
        steps.append((op, i, j, round(rng.uniform(-2, 2), 2)))
    return steps


def _build(steps, leaves):
    nodes = list(leaves)
    for op, i, j, c in steps:
        a, b = nodes[i], nodes[j]
        if op == "+":
            nodes.append(a + b)
        elif op == "*":
            nodes.append(a * b)
        elif op == "-":
            nodes.append(a - b)
        elif op == "**2":
            nodes.append(a ** 2)
        else:
            nodes.append(a * c)
    return nodes[-1] + nodes[-2] * nodes[-3]  # the root uses several late nodes


def _run_learner(backward, root, what):
    try:
        returned = backward(root)
    except NotImplementedError:
        raise _not_done("backward (or backward_order, which it calls)") from None
    except RecursionError:
        raise AssertionError(f"on {what}, your backward hit Python's recursion limit "
                             "(RecursionError): walk the Values in backward_order(root) with a "
                             "loop instead of calling backward recursively.") from None
    except Exception as e:  # noqa: BLE001 (the learner's code may raise anything)
        raise AssertionError(f"on {what}, your backward raised {type(e).__name__}: {e}. "
                             "Note that a leaf has backward_fn = None: it has nothing to pass "
                             "on.") from None
    if returned is not None:
        # Checked before the gradients: a backward that collects them in a dict (or a list)
        # and returns it leaves every .grad at 0, which is not "nothing was sent".
        raise AssertionError(f"on {what}, your backward returned a {type(returned).__name__}. "
                             "The gradients belong in each Value's .grad, where the check (and "
                             "the rest of the notebook) reads them; backward itself returns "
                             "nothing, like loss.backward().")


def _reused_sum(x):
    a = x * 3.0
    return a + a


def _reused_square(x, y):
    a = x * y
    return a * a + a


def check_backward(backward, Value):
    """Check ``backward(root)``: afterwards every Value's ``.grad`` is d(root)/d(Value), as
    minigrad's backward computes it, on small graphs and on random expressions."""
    cases = [
        ("root = x * y", lambda x, y: x * y, [2.0, -3.0]),
        ("root = (x * 3) ** 2", lambda x: (x * 3.0) ** 2, [0.5]),
        ("root = x * x", lambda x: x * x, [1.5]),
        ("a = x * 3, root = a + a", _reused_sum, [0.7]),
        ("a = x * y, root = a * a + a", _reused_square, [1.1, -0.4]),
    ]
    rng = random.Random(7)
    for n in range(6):
        steps = _random_expression(rng, n_ops=8 + 2 * n)
        values = [round(rng.uniform(-1.5, 1.5), 2) for _ in range(3)]
        cases.append((f"random expression {n + 1}", lambda *ls, s=steps: _build(s, ls), values))

    for what, build, values in cases:
        leaves = [Value(v) for v in values]
        root = build(*leaves)
        _run_learner(backward, root, what)
        got = [float(v.grad) for v in leaves]
        want = _minigrad_grads(build, values)
        if all(_close(a, b) for a, b in zip(got, want)):
            continue
        names = ["x", "y", "z"] if len(values) <= 3 else [f"leaf {i}" for i in range(len(values))]
        at = (f"on {what} at " + ", ".join(f"{n} = {v}" for n, v in zip(names, values)) + ": you got "
              + ", ".join(f"d/d{n} = {g:.4f}" for n, g in zip(names, got)) + "; minigrad gets "
              + ", ".join(f"{w:.4f}" for w in want) + ".")
        if all(g == 0.0 for g in got):
            if not _close(float(root.grad), 1.0):
                hint = ("every gradient is still 0, root's too. Nothing was sent from the root: "
                        "what is d(root)/d(root), and where must it be stored before the first "
                        "node runs?")
            else:
                hint = ("every leaf's gradient is still 0. Did each node pass on what its "
                        "backward_fn returned, and in what order did the nodes run? A node "
                        "that runs before it has received its gradient passes on 0.")
        elif what in ("root = x * x", "a = x * 3, root = a + a") and _close(got[0], want[0] / 2):
            used = "x" if what == "root = x * x" else "a"
            hint = (f"{used} is used more than once, and only one of its two gradients survived: "
                    "the second one replaced the first. Gradients arriving by several paths "
                    "must be added up.")
        elif what == "root = (x * 3) ** 2" and _close(got[0], 3.0):
            hint = ("the gradient that reached x is just the local derivative of the last step. "
                    "Each node must call its backward_fn with its own gradient (the incoming "
                    "gradient, which it has received from the nodes above).")
        elif what.startswith("a = x") and any(abs(g) > abs(w) for g, w in zip(got, want)):
            hint = ("a Value used twice passed on its gradient before all its gradients had "
                    "arrived, so x received a partial sum (and then some more). Run each node "
                    "once, in backward_order(root), after all the nodes that use it.")
        else:
            hint = ("check the order the nodes run in (backward_order(root), root first), that "
                    "each node calls its backward_fn with its own .grad, and that every parent "
                    "adds what it receives to its .grad.")
        raise AssertionError(f"backward is wrong {at} Hint: {hint}")
    _passed()


# --- exercise 4: one training step on the learner's engine --------------------------------

# Data of the check (not the notebook's): five points, targets of no particular pattern.
_XS = [(-1.0, -0.5), (0.5, 1.0), (1.0, -1.0), (0.0, 0.25), (-0.5, 1.5)]
_YS = [0.5, -0.25, 1.0, 0.0, -0.75]


def _tiny_weights(seed):
    """Weights of the notebook's 2-4-1 network: w1 (4, 2), b1 (4,), w2 (4,), b2 ()."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(4, 2)), rng.normal(size=4) * 0.3, rng.normal(size=4) * 0.5, 0.1


def _minigrad_losses(weights, lr, steps, update):
    """The losses of ``steps`` training steps of the same network, with minigrad's autograd.
    ``update`` names how a step changes the weights: "sgd" (the right step), "no_zero" (the
    gradients of all earlier steps added in), "plus" (up the gradient); "grads" returns the
    first step's gradients instead, in the order of the model's parameters()."""
    X = minigrad.tensor(_XS, dtype=minigrad.float64)
    Y = minigrad.tensor(_YS, dtype=minigrad.float64)
    params = [minigrad.tensor(np.asarray(w, dtype=np.float64), requires_grad=True) for w in weights]
    w1, b1, w2, b2 = params
    summed = [0.0] * 4
    losses, first_grads = [], None
    for _ in range(steps):
        loss = ((minigrad.tanh(X @ w1.T + b1) @ w2 + b2 - Y) ** 2).mean()
        for p in params:
            p.grad = None
        loss.backward()
        losses.append(loss.item())
        if first_grads is None:
            first_grads = np.concatenate([p.grad.numpy().ravel() for p in params])
        with minigrad.no_grad():
            for i, p in enumerate(params):
                summed[i] = summed[i] + p.grad
                step = summed[i] if update == "no_zero" else p.grad
                if update == "plus":
                    p += lr * step
                else:
                    p -= lr * step
    return losses if update != "grads" else first_grads


def _same(a, b):
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
                                    for x, y in zip(a, b))


def _tanh(v):
    t = math.tanh(v.data)
    return type(v)(t, (v,), lambda g: (g * (1 - t * t),), "tanh")


class _TinyMLP:
    """The notebook's TinyMLP (2 -> 4 tanh -> 1), built from the learner's Value class."""

    def __init__(self, Value, w1, b1, w2, b2):
        self.w1 = [[Value(w) for w in row] for row in w1]
        self.b1 = [Value(b) for b in b1]
        self.w2 = [Value(w) for w in w2]
        self.b2 = Value(b2)

    def parameters(self):
        return [w for row in self.w1 for w in row] + self.b1 + self.w2 + [self.b2]

    def __call__(self, x):
        hidden = [_tanh(row[0] * x[0] + row[1] * x[1] + b) for row, b in zip(self.w1, self.b1)]
        out = self.b2
        for w, h in zip(self.w2, hidden):
            out = out + w * h
        return out


def check_train_step(train_step, Value):
    """Check ``train_step(model, xs, ys, lr)``: called again and again on a network like the
    notebook's ``TinyMLP`` (the check's own weights and data), the losses it returns must be
    those of plain SGD on the mean squared error, computed with minigrad's autograd."""
    steps = 6
    for seed, lr in ((3, 0.1), (4, 0.3)):
        weights = _tiny_weights(seed)
        model = _TinyMLP(Value, *weights)
        got, first_grads = [], None
        for _ in range(steps):
            try:
                out = train_step(model, _XS, _YS, lr)
            except NotImplementedError:
                raise _not_done("train_step") from None
            if out is None:
                raise AssertionError("train_step returned None: it should return this step's "
                                     "loss as a number (the loss Value's .data).")
            if hasattr(out, "data") and hasattr(out, "parents"):
                out = out.data  # the loss Value itself: its number is what counts
            got.append(_as_float(out, "the loss train_step returns"))
            if first_grads is None:
                first_grads = np.array([_as_float(p.grad, "a parameter's .grad")
                                        for p in model.parameters()])
        want = _minigrad_losses(weights, lr, steps + 1, "sgd")
        if _same(got, want[:steps]):
            continue
        at = f"(learning rate {lr}; your losses {[round(v, 5) for v in got]})"
        if not math.isclose(got[0], want[0], rel_tol=1e-9):
            if math.isclose(got[0], want[1], rel_tol=1e-9):
                hint = ("the loss you return was computed after the update. Return the loss of "
                        "this step's forward pass, the one backward started from.")
            else:
                hint = ("the first loss is not the mean squared error of the model's predictions "
                        "on xs and ys. Compute the loss with mse(model, xs, ys).")
        elif not np.allclose(first_grads, _minigrad_losses(weights, lr, 1, "grads"),
                             rtol=1e-7, atol=1e-10) and not np.all(first_grads == 0):
            hint = ("after the first step, the parameters' .grad differ from autograd's "
                    "gradients at the same weights. Each should hold this step's gradient, "
                    "from one backward pass (and your backward of Exercise 3, which engine "
                    "runs, must pass its check).")
        elif all(math.isclose(v, got[0], rel_tol=1e-12) for v in got):
            hint = ("the loss never changes, so the weights never do. The update has to use the "
                    "gradients that backward computes from this step's loss, and change each "
                    "parameter's .data.")
        elif math.isclose(got[1], got[0], rel_tol=1e-12):
            hint = ("the first step changed nothing: the update ran before backward had computed "
                    "the gradients.")
        elif _same(got, _minigrad_losses(weights, lr, steps, "plus")):
            hint = ("the loss grows: the weights moved up the gradient. A step of gradient "
                    "descent goes the other way.")
        elif _same(got, _minigrad_losses(weights, 1.0, steps, "sgd")):
            hint = "the steps ignore the learning rate lr."
        elif _same(got, _minigrad_losses(weights, lr, steps, "no_zero")):
            hint = ("the first step is right, the later ones are not: each step also applies "
                    "the gradients of all earlier steps, still held in .grad. Your engine adds "
                    "into .grad, as PyTorch's does.")
        else:
            hint = ("the losses differ from plain gradient descent's. A step: clear the "
                    "gradients, forward (the loss), backward, then move each parameter.")
        raise AssertionError(f"train_step does not train as plain SGD does {at}: {hint}")
    _passed()
