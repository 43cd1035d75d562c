"""Checks for notebook 02, the graph."""
from __future__ import annotations

import contextlib
import io

import numpy as np

import minigrad
from minigrad import nn

from ..core.node import AccumulateGrad
from ._common import _as_float, _not_done, _passed

__all__ = ["check_layer_output_grads", "check_leaves_of", "check_predicted_gradients", "check_print_graph"]


def _name(node):
    return "None" if node is None else type(node).__name__


# --- Exercise 1: print the graph ------------------------------------------------------

def _expected_lines(node, depth=0):
    """The format the exercise asks for: two spaces per level, then the node's class name
    (or None); every path is followed, so a node reached twice is printed twice."""
    lines = ["  " * depth + _name(node)]
    if node is not None:
        for child, _ in node.next_functions:
            lines += _expected_lines(child, depth + 1)
    return lines


def _graphs():
    """(description, output tensor) pairs: a None entry, a reused node, a layer, a chain."""
    a = minigrad.tensor(1.5, requires_grad=True)
    b = minigrad.tensor(-0.5, requires_grad=True)
    c = minigrad.tensor(2.0)  # needs no gradient: a None entry
    out = []
    out.append(("(a - b * c) ** 2 (c needs no gradient)", (a - b * c) ** 2))
    h = a * b
    out.append(("h * h + a with h = a * b (h and a are used twice)", h * h + a))
    gen = minigrad.Generator().manual_seed(2)
    w = minigrad.randn(2, 3, generator=gen).requires_grad_()
    bias = minigrad.zeros(2, requires_grad=True)
    x = minigrad.randn(4, 3, generator=gen)
    out.append(("(x @ w.T + bias).relu().sum(), a small layer", (x @ w.T + bias).relu().sum()))
    y = a
    for _ in range(4):
        y = y.tanh() * 2
    out.append(("a chain of tanh and * 2, four times over", y))
    return out


def _run_printer(fn, node, what):
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            returned = fn(node)
    except NotImplementedError:
        raise _not_done("my_print_graph") from None
    except RecursionError:
        raise AssertionError(f"On {what}, your function never stopped calling itself. Each call "
                             "should go one level deeper and stop at a node with no inputs "
                             "(or at None).") from None
    except TypeError as e:
        if "required positional argument" in str(e):
            raise AssertionError("the check calls my_print_graph(node) with the node only: give "
                                 "the depth parameter a default value of 0.") from None
        raise AssertionError(
            f"On {what}, your function raised TypeError: {e}. Remember that each entry "
            "of next_functions is a pair (node, number), and that the node can be None."
        ) from None
    except (AttributeError, IndexError) as e:
        raise AssertionError(
            f"On {what}, your function raised {type(e).__name__}: {e}. Remember that each entry "
            "of next_functions is a pair (node, number), and that the node can be None."
        ) from None
    return buffer.getvalue(), returned


def _reached_twice(node) -> bool:
    """Whether some node of the graph below ``node`` is reached along two paths."""
    seen, to_visit = set(), [node]
    while to_visit:
        n = to_visit.pop()
        if n is None:
            continue
        if n in seen:
            return True
        seen.add(n)
        to_visit.extend(child for child, _ in n.next_functions)
    return False


def _show(lines):
    return "\n".join("    " + line for line in lines)


def check_print_graph(my_print_graph):
    """Check ``my_print_graph(node)``: prints the tree below ``node``, one node per line,
    two spaces of indentation per level, class names, ``None`` for a missing input."""
    for what, tensor in _graphs():
        printed, returned = _run_printer(my_print_graph, tensor.grad_fn, what)
        want = _expected_lines(tensor.grad_fn)
        got = [line.rstrip() for line in printed.rstrip("\n").split("\n")] if printed.strip() else []
        # Accept grad_fn.name(), which spells the leaf node "torch::autograd::AccumulateGrad".
        got = [line.replace("torch::autograd::AccumulateGrad", "AccumulateGrad") for line in got]
        if got == want:
            continue
        at = f"On {what}, "
        if not got:
            if isinstance(returned, (str, list)) and returned:
                raise AssertionError(at + "your function printed nothing: it returned its text. "
                                     "Print each line instead.")
            raise AssertionError(at + "your function printed nothing. Print one line per node.")
        if any("object" in line or "<" in line for line in got):
            raise AssertionError(at + "your lines look like the node's repr, e.g. "
                                 f"{got[0].strip()!r}. Print only the class name, such as "
                                 "MulBackward0.")
        stripped_got = [line.strip() for line in got]
        stripped_want = [line.strip() for line in want]
        if len(got) == 1 and len(want) > 1:
            raise AssertionError(at + f"only one line came out ({got[0].strip()!r}). After "
                                 "printing a node, do the same for each of its inputs, one "
                                 "level deeper.")
        if stripped_got == [line for line in stripped_want if line != "None"]:
            raise AssertionError(at + "the None lines are missing. An input that needs no "
                                 "gradient appears in next_functions as (None, 0): print it "
                                 "as None, at its depth.")
        if stripped_got == stripped_want:
            if len({len(line) - len(line.lstrip()) for line in got}) == 1:
                hint = "every line has the same indentation: each level deeper needs two more spaces."
            else:
                hint = ("the names are right but the indentation is not: "
                        "two spaces per level, no spaces before the first line.")
            raise AssertionError(f"{at}{hint}\nExpected:\n{_show(want)}\nYou printed:\n{_show(got)}")
        if len(stripped_got) < len(stripped_want) and set(stripped_got) <= set(stripped_want):
            if _reached_twice(tensor.grad_fn):
                hint = ("A node reached along two paths should be printed both times, with "
                        "everything below it: do not skip nodes you have seen before.")
            else:  # no node is shared here: the walk left out inputs (a return in the loop)
                hint = ("After printing a node, do the same for every entry of its "
                        "next_functions, one after the other: does your loop stop early?")
            raise AssertionError(
                f"{at}lines are missing ({len(got)} instead of {len(want)}). {hint}\n"
                f"Expected:\n{_show(want)}\nYou printed:\n{_show(got)}")
        if sorted(stripped_got) == sorted(stripped_want):
            raise AssertionError(f"{at}the lines are right but in another order: visit the "
                                 "inputs in next_functions order, each one's whole sub-tree "
                                 "before the next input.\n"
                                 f"Expected:\n{_show(want)}\nYou printed:\n{_show(got)}")
        raise AssertionError(f"{at}the printed tree differs.\nExpected:\n{_show(want)}\n"
                             f"You printed:\n{_show(got)}")
    _passed()


# --- Exercise 2: the leaves backward will fill -------------------------------------------

def _leaf_graphs():
    """(description, output, the leaves that require grad reachable from it)."""
    gen = minigrad.Generator().manual_seed(3)
    p = minigrad.tensor(0.5, requires_grad=True)
    q = minigrad.tensor(-1.25, requires_grad=True)
    r = minigrad.tensor(3.0)  # needs no gradient
    out = [("p * q + r", p * q + r, [p, q])]
    h = p * q
    out.append(("(h * h + p) * r with h = p * q (p is reached along three paths)",
                (h * h + p) * r, [p, q]))
    z = p
    for _ in range(5):
        z = z * q + 1
    out.append(("a loop that multiplies by q five times", z, [p, q]))
    w1 = minigrad.randn(4, 3, generator=gen).requires_grad_()
    b1 = minigrad.zeros(4, requires_grad=True)
    w2 = minigrad.randn(1, 4, generator=gen).requires_grad_()
    x = minigrad.randn(5, 3, generator=gen)
    loss = ((x @ w1.T + b1).relu() @ w2.T).pow(2).mean()
    out.append(("a two-layer network's loss", loss, [w1, b1, w2]))
    return out


def check_leaves_of(leaves_of):
    """Check ``leaves_of(tensor)``: the leaf tensors that backward would give a .grad,
    each once, found by walking the graph from ``tensor.grad_fn``."""
    for what, tensor, want in _leaf_graphs():
        try:
            got = leaves_of(tensor)
        except NotImplementedError:
            raise _not_done("leaves_of") from None
        except RecursionError:
            raise AssertionError(f"On {what}, your function never stopped calling itself.") from None
        except (AttributeError, TypeError, IndexError) as e:
            raise AssertionError(f"On {what}, your function raised {type(e).__name__}: {e}. Each "
                                 "entry of next_functions is a pair (node, number), and the node "
                                 "can be None.") from None
        at = f"On {what}, "
        if got is None:
            raise AssertionError(at + "leaves_of returned None: return a list of tensors. "
                                 "Did you forget the return statement?")
        try:
            got = list(got)
        except TypeError:
            raise AssertionError(at + f"leaves_of should return a list, not {type(got).__name__}.") from None
        if any(isinstance(g, AccumulateGrad) for g in got):
            raise AssertionError(at + "your list holds AccumulateGrad nodes. Return the leaf "
                                 "tensors themselves: the notebook showed which attribute of "
                                 "an AccumulateGrad node is its leaf.")
        if any(g is None for g in got):
            raise AssertionError(at + "your list holds None. A None entry of next_functions is "
                                 "an input that needs no gradient: it is not a leaf backward fills.")
        want_ids = {id(t) for t in want}
        got_ids = [id(g) for g in got]
        if len(set(got_ids)) < len(got_ids) and set(got_ids) == want_ids:
            raise AssertionError(at + f"a leaf appears more than once ({len(got)} entries for "
                                 f"{len(want)} leaves). A node can be reached along several "
                                 "paths: keep track of what you have already collected.")
        extra = [g for g in got if id(g) not in want_ids]
        if extra:
            raise AssertionError(at + f"your list holds {len(extra)} tensor(s) that are not leaves "
                                 "requiring grad of this graph. Collect only what the graph's "
                                 "AccumulateGrad nodes hold.")
        if set(got_ids) != want_ids:
            raise AssertionError(at + f"you found {len(set(got_ids))} of the {len(want)} leaves. "
                                 "Leaves can sit several levels below the output: keep walking "
                                 "next_functions until no node is left to visit.")
        if len(got_ids) != len(want):
            raise AssertionError(at + "a leaf appears more than once.")
    _passed()


# --- Exercise 3: the gradient at each layer's output ---------------------------------------

def _layer_problems():
    """(description, model, loss_fn, x, y): small seeded networks, two losses."""
    out = []
    minigrad.manual_seed(11)
    out.append(("Linear(3, 4), Tanh, Linear(4, 2) with MSELoss",
                nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)), nn.MSELoss(),
                minigrad.randn(5, 3), minigrad.randn(5, 2)))
    out.append(("Linear(2, 5), ReLU, Linear(5, 5), Sigmoid, Linear(5, 1) with a sum of squares",
                nn.Sequential(nn.Linear(2, 5), nn.ReLU(), nn.Linear(5, 5), nn.Sigmoid(),
                              nn.Linear(5, 1)),
                lambda out, target: ((out - target) ** 2).sum(),
                minigrad.randn(7, 2), minigrad.randn(7, 1)))
    return out


def _layer_reference(model, loss_fn, x, y):
    """Each layer's output and the gradient of the loss with respect to it (autograd.grad)."""
    outputs, h = [], x
    for layer in model:
        h = layer(h)
        outputs.append(h)
    grads = minigrad.autograd.grad(loss_fn(h, y), outputs)
    return [o.detach().numpy() for o in outputs], [g.numpy() for g in grads]


def check_layer_output_grads(layer_output_grads):
    """Check ``layer_output_grads(model, loss_fn, x, y)``: one gradient per layer of the
    Sequential ``model``, d(loss)/d(that layer's output), in layer order."""
    for what, model, loss_fn, x, y in _layer_problems():
        outputs, want = _layer_reference(model, loss_fn, x, y)
        names = [type(layer).__name__ for layer in model]
        model.zero_grad()
        try:
            got = layer_output_grads(model, loss_fn, x, y)
        except NotImplementedError:
            raise _not_done("layer_output_grads") from None
        at = f"On {what}, "
        if got is None:
            raise AssertionError(at + "layer_output_grads returned None: return a list of "
                                 "tensors. Did you forget the return statement?")
        try:
            got = list(got)
        except TypeError:
            raise AssertionError(at + f"return a list, not {type(got).__name__}.") from None
        if len(got) != len(want):
            raise AssertionError(at + f"the model has {len(want)} layers but your list has "
                                 f"{len(got)} entries: one gradient per layer, for its output "
                                 "(not one per parameter).")
        for k, (g, w, o, name) in enumerate(zip(got, want, outputs, names)):
            where = f"{at}the entry for layer {k} ({name}) "
            if g is None:
                raise AssertionError(
                    where + "is None. Backward fills .grad of leaves only; a tensor computed "
                    "inside the network must be asked to keep its gradient, and asked before "
                    "backward runs (section 6).")
            g = g.detach().numpy() if hasattr(g, "detach") else np.asarray(g, dtype=float)
            if g.shape != w.shape:
                raise AssertionError(where + f"has shape {tuple(g.shape)}, but the layer's output "
                                     f"has shape {tuple(w.shape)}: a gradient has the shape of "
                                     "its tensor. Is it a parameter's gradient?")
            if np.allclose(g, o, rtol=1e-4, atol=1e-6):
                raise AssertionError(where + "holds the layer's output itself, not the gradient "
                                     "of the loss with respect to it.")
            if not np.allclose(g, w, rtol=1e-4, atol=1e-6):
                raise AssertionError(where + "differs from autograd's gradient of the loss with "
                                     "respect to that output. Use loss_fn(output, y) on the "
                                     "last layer's output, and one backward pass.")
    _passed()


# --- Exercise 4: predict the gradients on the drawn graph ------------------------------------

def _drawn_graph_grads():
    """d(e)/d(each tensor) for a = 2, b = 3, c = a * b, d = c + a, e = d ** 2, by autograd."""
    a = minigrad.tensor(2.0, requires_grad=True)
    b = minigrad.tensor(3.0, requires_grad=True)
    c = a * b
    d = c + a
    e = d ** 2
    for t in (c, d, e):
        t.retain_grad()
    e.backward()
    return {name: t.grad.item() for name, t in zip("abcde", (a, b, c, d, e))}


def check_predicted_gradients(predict_gradients):
    """Check ``predict_gradients() -> dict`` from "a" .. "e" to d(e)/d(that tensor)."""
    try:
        predicted = predict_gradients()
    except NotImplementedError:
        raise _not_done("predict_gradients") from None
    if not isinstance(predicted, dict):
        raise AssertionError("predict_gradients should return a dict like {'e': 1.0, 'd': ..., "
                             f"...}}; got {type(predicted).__name__}. Did you forget the return?")
    want = _drawn_graph_grads()
    missing = [k for k in want if k not in predicted]
    if missing:
        raise AssertionError(f"no prediction for {', '.join(missing)}: give one number for each "
                             "of a, b, c, d, e.")
    got = {k: _as_float(predicted[k], f"your prediction for {k}") for k in want}
    wrong = [k for k in "edcba" if abs(got[k] - want[k]) > 1e-6]
    if not wrong:
        _passed()
        return
    k = wrong[0]  # the first one wrong, walking backward from e: the others follow from it
    if k == "e":
        hint = "what is the derivative of e with respect to itself? It is where backward starts."
    elif k == "d" and got["d"] == 2.0:
        hint = "the derivative of d ** 2 is 2 * d: evaluate it at d's value (printed above)."
    elif k == "a" and (got["a"] == want["c"] * 3.0 or got["a"] == want["d"]):
        hint = "a is used twice (in c and in d): backward adds the gradients of both paths."
    elif (k == "c" and got["c"] == 1.0) or (k == "a" and got["a"] == 4.0) or (
            k == "b" and got["b"] == 2.0):
        hint = ("that is a local derivative only; multiply it by the gradient that arrives from "
                "above (the chain rule).")
    else:
        hint = ("start from e and walk down the drawing: the gradient of each tensor is the "
                "gradient above it times the local derivative, summed over every arrow leaving it.")
    raise AssertionError(f"{len(wrong)} of 5 predictions are wrong; the first, walking back "
                         f"from e, is {k} (you said {got[k]:g}). Hint: {hint}")
