"""``backward_steps``: the backward pass, one node at a time, as the engine runs it.

The frames are recorded from the real engine (``run_backward``'s ``observer`` is
called after each node has run) on the real graph, with the seed gradient
``loss.backward()`` would use. It *is* that backward pass, run once: afterwards every
leaf's ``.grad`` holds exactly what a plain ``loss.backward()`` would have left there,
and hooks ran once. The difference is ``retain_graph=True`` by default, so the graph
keeps its saved tensors and can still be drawn with ``show_saved=True`` (call
``loss.backward()`` again only after zeroing the gradients, as in PyTorch).

What a frame records, and why it is exact: the gradient a node received (the engine's
sum over all paths, after hooks), what it sent to each input, and each leaf's ``.grad``
are copied when the observer is called. Which nodes hold gradients but have not run
yet is not visible to the observer; it is rebuilt from the same in-edge counts the
engine uses, and the partial sums from the gradients each step sent.
"""
import html
from dataclasses import dataclass, field

import numpy as np

from ..core import engine
from ..autograd import _make_grads
from ..core.node import AccumulateGrad
from .dot import INSTALL_MESSAGE, build
from ._graph import Names, count_inputs, fmt_values, node_name, number_nodes, root_node


def _array(t):
    """A private copy of a gradient's values: .grad buffers are later added to in place.
    (A node with several outputs gets a list: a copy for each, as a tuple.)"""
    if isinstance(t, list):
        return tuple(_array(g) for g in t)
    return None if t is None else np.array(t._data, copy=True)


@dataclass(eq=False)
class Step:
    """One node's turn in the backward pass (the state right after it ran)."""
    index: int  # 1-based position in the pass
    node: object  # the grad_fn / AccumulateGrad node that ran
    number: int  # its number in print_graph
    grad: np.ndarray  # the gradient it received
    sent: tuple  # per next_functions entry: (input node or None, its number or None, gradient or None)
    pending: dict  # {node: (gradients received, gradients expected, their sum so far)}: not run yet
    done: frozenset  # nodes that ran in earlier steps
    leaf_grads: dict  # {AccumulateGrad node: copy of its leaf's .grad (None if not set yet)}
    steps: object = field(repr=False)  # the BackwardSteps this belongs to

    @property
    def name(self):
        return node_name(self.node)

    def _label(self, node, number):
        name = self.steps.names.of(node)
        return f"[{number}] {node_name(node)}" + (f" {name}" if name else "")

    def __str__(self):
        lines = [(f"step {self.index} of {len(self.steps)}: {self._label(self.node, self.number)} "
                  f"got {fmt_values(self.grad)}")]
        if isinstance(self.node, AccumulateGrad):
            lines.append(f"  adds it into .grad of {self.steps.leaf_name(self.node)}")
        for i, (child, number, g) in enumerate(self.sent):
            target = self._label(child, number) if child is not None else "None (needs no gradient)"
            lines.append(f"  {'sends' if i == 0 else '     '}  {fmt_values(g)} -> {target}")
        numbers = self.steps.numbers
        for i, (node, (got, expected, partial)) in enumerate(self.pending.items()):
            state = "ready" if got == expected else "waiting"
            lines.append(f"  {'holds' if i == 0 else '     '}  {self._label(node, numbers[node])} "
                         f"{state}, {got} of {expected} gradients, sum {fmt_values(partial)}")
        grads = ", ".join(f"{self.steps.leaf_name(n)} = {fmt_values(g)}" for n, g in self.leaf_grads.items())
        lines.append(f"  .grad  {grads}")
        return "\n".join(lines)

    def draw(self):
        """The graph with this step highlighted (a GraphDrawing)."""
        return build(self.steps.root, self.steps.names, frame=self)

    def _repr_mimebundle_(self, include=None, exclude=None, **_):
        bundle = self.draw()._repr_mimebundle_()
        bundle["text/plain"] = str(self)
        return bundle

    def __repr__(self):
        return f"<Step {self.index}: {self._label(self.node, self.number)}>"


class BackwardSteps(list):
    """The list of Steps, plus what they refer to. Prints as a table of the pass."""

    def __init__(self, root, names, seed):
        super().__init__()
        self.root, self.names, self.seed = root, names, seed
        self.numbers = number_nodes(root_node(root))

    def leaf_name(self, node):
        return self.names.of(node) or f"leaf [{self.numbers[node]}]"

    def __repr__(self):
        start = root_node(self.root)
        head = (f"backward pass: {len(self)} steps, newest node first; the seed gradient "
                f"{fmt_values(self.seed)} goes to [1] {node_name(start)}")
        return "\n".join([head] + [str(step) for step in self])

    __str__ = __repr__

    def _repr_pretty_(self, p, cycle):
        p.text(repr(self))


def backward_steps(tensor, gradient=None, retain_graph=True, names=None):
    """Run ``tensor.backward(gradient)`` once through the real engine, recording every
    node it runs, in the order it runs them. Returns a BackwardSteps list of Step.

    ``names``: ``{name: tensor}`` for labels, as in print_graph.
    Afterwards ``.grad`` of every leaf is what ``tensor.backward()`` would leave.
    """
    names = names if isinstance(names, Names) else Names(names)
    (seed,) = _make_grads((tensor,), (gradient,))  # the same checks and seed as backward()
    steps = BackwardSteps(tensor, names, _array(seed))
    expected = count_inputs(root_node(tensor))
    leaves = [n for n in steps.numbers if isinstance(n, AccumulateGrad)]
    pending = {}  # node -> [received, partial sum]: what the engine holds, rebuilt
    done = []

    def observer(node, grad, grads):
        sent = []
        for (child, nr), g in zip(node.next_functions, grads):
            g = _array(g)
            sent.append((child, steps.numbers.get(child), g))
            if child is None:
                continue
            got, partial = pending.get(child, (0, None))
            if g is not None and child._n_outputs != 1:  # a sum per output (of split's, say)
                partial = list(partial or (None,) * child._n_outputs)
                partial[nr] = g if partial[nr] is None else partial[nr] + g
                partial = tuple(partial)
            elif g is not None:
                partial = g if partial is None else partial + g
            pending[child] = (got + 1, partial)
        pending.pop(node, None)
        held = {n: (pending[n][0], expected[n], pending[n][1])
                for n in steps.numbers if n in pending}  # in print_graph order
        leaf_grads = {n: _array(n.variable._grad) for n in leaves}
        steps.append(Step(len(steps) + 1, node, steps.numbers[node], _array(grad), tuple(sent),
                          held, frozenset(done), leaf_grads, steps))
        done.append(node)

    engine.run_backward((tensor,), [seed], retain_graph, False, observer=observer)
    return steps


class StepStrip:
    """Every step drawn one under another: show_steps' display without ipywidgets."""

    def __init__(self, steps):
        self.steps = steps

    def __repr__(self):
        return repr(self.steps)

    def _repr_mimebundle_(self, include=None, exclude=None, **_):
        drawings = [step.draw() for step in self.steps]
        if any(d.svg() is None for d in drawings):
            return {"text/plain": f"{INSTALL_MESSAGE}Meanwhile, here are the steps as text:\n\n"
                                  f"{self.steps!r}"}
        parts = [f"<div><pre>{html.escape(str(step))}</pre>{d.html_img()}</div>"
                 for step, d in zip(self.steps, drawings)]
        return {"text/plain": repr(self.steps), "text/html": "\n".join(parts)}


def show_steps(steps):
    """Show the steps: a slider over the drawings if ipywidgets is installed,
    otherwise every step drawn one under another (a StepStrip)."""
    try:
        import ipywidgets
        from IPython.display import display
    except ImportError:
        return StepStrip(steps)
    slider = ipywidgets.IntSlider(value=1, min=1, max=max(len(steps), 1), description="step")
    out = ipywidgets.Output()

    def show(change=None):
        out.clear_output(wait=True)
        with out:
            display(steps[slider.value - 1])

    slider.observe(show, names="value")
    show()
    return ipywidgets.VBox([slider, out])
