"""Checks for notebook 04, inside a node."""
from __future__ import annotations

import numpy as np

import minigrad

from ..core.function import Function
from ._common import _as_float, _not_done, _passed

__all__ = ["check_my_gate", "check_my_sigmoid", "check_predict_saved"]


def _close(a, b):
    return a is not None and b is not None and np.shape(a) == np.shape(b) and \
        np.allclose(a, b, rtol=1e-6, atol=1e-9)


def _is_function_class(cls, name):
    if cls is None:
        raise _not_done(name)
    if not (isinstance(cls, type) and issubclass(cls, Function)):
        raise AssertionError(f"{name} should be a class derived from torch.autograd.Function "  # noqa: TRY004
                             f"(class {name}(torch.autograd.Function): ...); got {cls!r}.")


def _apply(cls, name, *args):
    try:
        return cls.apply(*args)
    except NotImplementedError:
        raise _not_done(f"{name}.forward") from None
    except Exception as e:  # noqa: BLE001 (any error in the learner's forward becomes a hint)
        raise AssertionError(f"{name}.apply raised {type(e).__name__}: {e}. forward(ctx, ...) "
                             "gets tensors and should return a tensor.") from None


def _backward(out, grad, name):
    try:
        out.backward(grad)
    except NotImplementedError:
        raise _not_done(f"{name}.backward") from None
    except RuntimeError as e:
        if "incorrect number of gradients" in str(e):
            raise AssertionError(f"{name}.backward returned the wrong number of gradients: {e}. "
                                 "backward returns one gradient per argument of forward (after "
                                 "ctx), in the same order.") from None
        raise AssertionError(f"backward through {name} raised RuntimeError: {e}") from None
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"{name}.backward raised {type(e).__name__}: {e}. backward(ctx, "
                             "grad_output) should return tensors.") from None


def _saved_something(out, name):
    try:
        saved = out.grad_fn.saved_tensors
    except RuntimeError:
        saved = ()
    if not any(t is not None for t in saved):
        raise AssertionError(f"{name}'s forward saved nothing with ctx.save_for_backward(...). "
                             "Store the tensors backward needs that way (not as attributes of "
                             "ctx), so autograd can keep track of them.")


def _sig(a):
    return 1.0 / (1.0 + np.exp(-a))


# --- Exercise 1: a sigmoid Function ------------------------------------------------------

def _sigmoid_points():
    rng = np.random.default_rng(31)
    return [np.array([-2.0, -0.5, 0.0, 0.75, 3.0]), rng.normal(0, 2, size=(2, 3)), np.array(1.3),
            np.array([-6.0, 5.0])]


def check_my_sigmoid(MySigmoid):
    """Check a ``torch.autograd.Function`` computing the logistic sigmoid: its values, that it
    saved something for backward, and its gradients for a non-trivial ``grad_output``."""
    _is_function_class(MySigmoid, "MySigmoid")
    rng = np.random.default_rng(7)
    for a in _sigmoid_points():
        x = minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True)
        out = _apply(MySigmoid, "MySigmoid", x)
        at = f"at x = {np.array2string(a, precision=3, separator=', ')}"
        if not isinstance(out, minigrad.Tensor):
            raise AssertionError(f"MySigmoid.apply returned {type(out).__name__}; forward should "  # noqa: TRY004
                                 "return a tensor.")
        s = _sig(a)
        value = out.detach().numpy()
        if not _close(value, s):
            if _close(value, np.exp(a)) or _close(value, np.exp(-a)):
                hint = "that is an exponential, not the sigmoid 1 / (1 + exp(-x))."
            else:
                hint = "forward should return 1 / (1 + exp(-x)), element by element."
            raise AssertionError(f"MySigmoid's forward gives wrong values {at}: {hint}")
        if out.grad_fn is None:
            raise AssertionError("MySigmoid's output has no grad_fn: call it as MySigmoid.apply(x).")
        _saved_something(out, "MySigmoid")
        g = rng.normal(size=a.shape) + 0.5
        _backward(out, minigrad.tensor(g, dtype=minigrad.float64), "MySigmoid")
        grad = None if x.grad is None else x.grad.numpy()
        want = s * (1 - s) * g
        if grad is None:
            raise AssertionError("after backward, x.grad is None: MySigmoid.backward should return "
                                 "the gradient with respect to x (did you forget the return?).")
        if _close(grad, want):
            continue
        if _close(grad, s * (1 - s)):
            hint = ("your gradient does not depend on grad_output. backward receives the gradient "
                    "of the final result with respect to this node's output: the chain rule "
                    "combines it with the local derivative.")
        elif _close(grad, _sig(s) * (1 - _sig(s)) * g):
            hint = ("it looks as if the sigmoid was applied twice: if you saved forward's output, "
                    "that tensor already is sigmoid(x).")
        elif _close(grad, a * (1 - a) * g):
            hint = ("your formula uses x itself where the derivative needs the sigmoid's value at x.")
        elif _close(grad, -want):
            hint = "the sign is wrong: the sigmoid is increasing, so its derivative is positive."
        elif _close(grad, s * g) or _close(grad, (1 - s) * g):
            hint = "one factor of the derivative is missing."
        else:
            hint = "compare your backward with the derivative worked out in the notebook."
        raise AssertionError(f"MySigmoid's gradient is wrong {at}: {hint}")
    _passed()


# --- Exercise 2: a gate, two inputs with different roles --------------------------------------

def check_my_gate(MyGate):
    """Check a ``torch.autograd.Function`` computing ``x * sigmoid(gate)``: values, saved
    tensors, and the two gradients (also when only one input requires grad)."""
    _is_function_class(MyGate, "MyGate")
    rng = np.random.default_rng(11)
    cases = [((3,), True, True), ((2, 2), True, True), ((), True, True), ((4,), True, False),
             ((4,), False, True)]
    for shape, gx, gg in cases:
        x_np = rng.normal(size=shape) * 2 + 0.3
        g_np = rng.normal(size=shape) * 1.5 - 0.2
        x = minigrad.tensor(x_np, dtype=minigrad.float64, requires_grad=gx)
        gate = minigrad.tensor(g_np, dtype=minigrad.float64, requires_grad=gg)
        out = _apply(MyGate, "MyGate", x, gate)
        if not isinstance(out, minigrad.Tensor):
            raise AssertionError(f"MyGate.apply returned {type(out).__name__}; forward should "  # noqa: TRY004
                                 "return a tensor.")
        s = _sig(g_np)
        if not _close(out.detach().numpy(), x_np * s):
            raise AssertionError("MyGate's forward gives wrong values: it should return "
                                 "x * sigmoid(gate), element by element.")
        _saved_something(out, "MyGate")
        g = rng.normal(size=shape) + 0.5
        _backward(out, minigrad.tensor(g, dtype=minigrad.float64), "MyGate")
        which = ("both inputs require grad" if gx and gg else
                 "only x requires grad" if gx else "only gate requires grad")
        at = f"(shape {shape}, {which})"
        got = {"x": None if x.grad is None else x.grad.numpy(),
               "gate": None if gate.grad is None else gate.grad.numpy()}
        ds = s * (1 - s)  # the sigmoid's derivative at gate
        want = {"x": g * s, "gate": g * x_np * ds}
        if (gx and gg and _close(got["x"], want["gate"]) and _close(got["gate"], want["x"])):
            raise AssertionError(f"MyGate's gradients are swapped {at}: backward returns them in "
                                 "the order of forward's arguments, x first, then gate.")
        for k, needed in (("x", gx), ("gate", gg)):
            if not needed:
                continue
            if got[k] is None:
                raise AssertionError(f"after backward, {k}.grad is None {at}: backward should "
                                     f"return a gradient for {k}.")
            if _close(got[k], want[k]):
                continue
            if _close(got[k], want[k] / g):
                hint = "it does not depend on grad_output: apply the chain rule."
            elif _close(got[k], -want[k]):
                hint = "the sign is wrong."
            elif k == "x" and _close(got[k], g):
                hint = ("it equals grad_output, as if x passed through unchanged; the gate "
                        "scales what passes.")
            elif k == "x" and _close(got[k], g * g_np):
                hint = "it uses the gate's raw value, before the sigmoid."
            elif k == "gate" and _close(got[k], g * x_np * s):
                hint = ("it treats sigmoid(gate) as if it were gate itself: the chain rule "
                        "goes through the sigmoid too.")
            elif k == "gate" and _close(got[k], g * ds):
                hint = ("it ignores x: how much the output moves when the gate opens a little "
                        "depends on what the gate lets through.")
            elif k == "gate" and _close(got[k], g * x_np):
                hint = "it is the gradient of x * gate, with no sigmoid at all."
            else:
                hint = "work out d(x * sigmoid(gate))/dx and d(x * sigmoid(gate))/dgate first."
            raise AssertionError(f"MyGate's gradient for {k} is wrong {at}: {hint}")
    _passed()


# --- Exercise 3: which tensors each node saves ------------------------------------------------

_OPS = ("mm", "exp", "add", "log", "pow", "sigmoid", "sum")
_KINDS = ("inputs", "result", "nothing")


def _steps(n, seed):
    """The exercise's computation (the notebook shows the same code), step by step:
    {operation: (its result, its inputs)}."""
    gen = minigrad.Generator().manual_seed(seed)
    a = minigrad.randn(n, 100, generator=gen).requires_grad_()
    w = minigrad.randn(100, 10, generator=gen).requires_grad_()
    c = a @ w
    d = c.exp()
    d1 = d + 1
    e = d1.log()
    f = e ** 2
    s = f.sigmoid()
    loss = s.sum()
    return {"mm": (c, (a, w)), "exp": (d, (c,)), "add": (d1, (d,)), "log": (e, (d1,)),
            "pow": (f, (e,)), "sigmoid": (s, (f,)), "sum": (loss, (s,))}


def _same_tensor(t, u):
    return tuple(t.shape) == tuple(u.shape) and np.array_equal(t.detach().numpy(), u.detach().numpy())


def _what_nodes_save():
    """What each node of the real graph saved, read from its _saved_* attributes."""
    out = {}
    for op, (result, inputs) in _steps(3, 0).items():
        node = result.grad_fn
        tensors = [getattr(node, k) for k in dir(node)
                   if k.startswith("_saved_") and isinstance(getattr(node, k), minigrad.Tensor)]
        if not tensors:
            out[op] = "nothing"
        elif all(any(_same_tensor(t, i) for i in inputs) for t in tensors):
            out[op] = "inputs"
        elif all(_same_tensor(t, result) for t in tensors):
            out[op] = "result"
        else:  # pragma: no cover (no such node in this graph)
            out[op] = "both"
    return out


def _measured_bytes(n):
    """The bytes the exercise's graph saves, summed in a saved_tensors_hooks pack hook."""
    sizes = []

    def pack(t):
        sizes.append(t.nelement() * t.element_size())
        return t

    with minigrad.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        _steps(n, n)
    return sum(sizes)


def _kind(value, op):
    word = str(value).strip().lower() if isinstance(value, str) else value
    word = {"input": "inputs", "output": "result", "none": "nothing"}.get(word, word)
    if word not in _KINDS:
        raise AssertionError(f'saves["{op}"] is {value!r}: each answer should be "inputs", '
                             '"result" or "nothing".')
    return word


def check_predict_saved(predict_saved):
    """Check ``predict_saved(n) -> (saves, saved_bytes)``: which tensors each node of the
    exercise's graph saves (against the nodes' ``_saved_*`` attributes; wrong answers are
    neither counted nor named), and the bytes saved (against a ``saved_tensors_hooks`` pack hook)."""
    sizes = [1, 3, 10, 64]
    answers = {}
    for n in sizes:
        try:
            value = predict_saved(n)
        except NotImplementedError:
            raise _not_done("predict_saved") from None
        if value is None:
            raise AssertionError("predict_saved returned None: it should return (saves, "
                                 "saved_bytes). Did you forget the return statement?")
        if not (isinstance(value, (tuple, list)) and len(value) == 2):
            raise AssertionError("predict_saved(n) should return two things, (saves, "  # noqa: TRY004
                                 f"saved_bytes); got {value!r}")
        answers[n] = value
    saves = answers[sizes[0]][0]
    if not isinstance(saves, dict):
        raise AssertionError("saves should be a dict, {\"mm\": ..., \"exp\": ..., ...}; got "  # noqa: TRY004
                             f"{type(saves).__name__}.")
    missing = [op for op in _OPS if op not in saves]
    if missing:
        raise AssertionError(f"saves has no answer for {', '.join(repr(m) for m in missing)}: it "
                             f"needs one for each of {', '.join(repr(o) for o in _OPS)}.")
    given = {op: _kind(saves[op], op) for op in _OPS}
    truth = _what_nodes_save()
    # Only whether all the answers are right: a count, or a hint chosen by the wrong answer,
    # would let a learner who changes one answer at a time find them all by trying.
    if any(given[op] != truth[op] for op in _OPS):
        if set(given.values()) == {"inputs"}:
            hint = ("you said that every node keeps its inputs. A node keeps only what its local "
                    "derivatives need: for some that is the value they computed, for some no "
                    "value at all.")
        else:
            hint = ("for each operation write its local derivative, then ask which forward value "
                    "the formula needs: the input, the value the node computed, or none.")
        raise AssertionError(f"Not all of your {len(_OPS)} answers about what the nodes save are "
                             f"right (the check does not say which): {hint}")
    numbers = {n: _as_float(answers[n][1], f"saved_bytes for n = {n}") for n in sizes}
    if len(set(numbers.values())) == 1:
        raise AssertionError("your number of bytes is the same for every n, but most saved "
                             "tensors have n rows: their bytes grow with n.")
    for n in sizes:
        got, want = numbers[n], _measured_bytes(n)
        if abs(got - want) < 0.5:
            continue
        at = f"For n = {n} you predicted {got:g} bytes; the graph saves a different amount: "
        if abs(got * 4 - want) < 0.5:
            raise AssertionError(at + "your number looks like a count of elements. Each float32 "
                                 "number takes 4 bytes.")
        if abs(got - (want - 100 * 10 * 4)) < 0.5:
            raise AssertionError(at + "you left out a saved tensor whose size does not grow "
                                 "with n.")
        if abs(got - (want + 4 * n * 90 * 4)) < 0.5:
            raise AssertionError(at + "check the shape of each saved tensor: not all of them "
                                 "have the shape of a.")
        raise AssertionError(at + "add up, for each saved tensor, its number of elements (from "
                             "its shape) times 4 bytes.")
    _passed()
