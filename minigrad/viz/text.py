"""``print_graph``: the backward graph as an indented text tree.

    >>> loss = (x * y) ** 2
    >>> print_graph(loss, names={"x": x, "y": y})
    [1] PowBackward0
    └─ [2] MulBackward0
       ├─ [3] AccumulateGrad  x
       └─ [4] AccumulateGrad  y

One node per line, each input one level deeper, in ``next_functions`` order. A node
met a second time (``b = a + a``) is not expanded again but points back to its first
line: ``AccumulateGrad  (see [2] above)``. An input that needs no gradient is shown as
``None``, just as ``grad_fn.next_functions`` lists it as ``(None, 0)``: the line count
under a node always equals the number of its tensor inputs.
"""
import sys

from ._graph import Names, fmt_shape, node_name, root_node, walk

NO_GRAPH = "None  (this tensor does not require grad: there is no graph for backward to walk)"


def _line(visit, names, show_shapes):
    parts = [node_name(visit.node) if visit.node is not None else "None"]
    name = names.of(visit.node) if visit.node is not None else None
    if name:
        parts.append(name)
    if show_shapes and visit.shape is not None:
        parts.append("shape=" + fmt_shape(visit.shape))
    if visit.node is None:
        parts.append("(needs no gradient)")
    elif visit.repeat:
        parts.append(f"(see [{visit.number}] above)")
    number = f"[{visit.number}] " if visit.node is not None and not visit.repeat else ""
    return visit.prefix + number + "  ".join(parts)


def format_graph(tensor_or_node, show_shapes=False, names=None):
    """The text of ``print_graph``, as a string (no trailing newline)."""
    root = root_node(tensor_or_node)
    if root is None:
        return NO_GRAPH
    root_shape = getattr(tensor_or_node, "shape", None)  # a Node does not know its output's shape
    names = names if isinstance(names, Names) else Names(names)
    visits = walk(root, tuple(root_shape) if root_shape is not None else None)
    return "\n".join(_line(v, names, show_shapes) for v in visits)


def print_graph(tensor_or_node, show_shapes=False, names=None, file=None):
    """Print the backward graph of a tensor (or from a grad_fn node) as a text tree.

    ``show_shapes`` adds the shape of the tensor each node produced (the shape of the
    gradient it receives). ``names`` is a ``{name: tensor}`` dict, e.g.
    ``{"x": x, "y": y}`` or ``dict(model.named_parameters())``; a leaf's name is shown
    next to its AccumulateGrad, a computed tensor's name next to its grad_fn.
    """
    print(format_graph(tensor_or_node, show_shapes, names), file=file if file is not None else sys.stdout)
