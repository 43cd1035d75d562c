"""Walking a backward graph in one fixed order, shared by every view in minigrad.viz.

Every picture, table and step list numbers the nodes the same way: depth first from
the output, children in ``next_functions`` order, a node numbered when first met.
The numbers depend only on the graph's shape, never on ``id()``, so output is the
same from run to run, and ``[3]`` in ``print_graph`` is ``[3]`` in ``saved_memory``.
"""
from dataclasses import dataclass

import numpy as np

from .._tensor import Tensor
from ..core.node import AccumulateGrad, Node, accumulator


def root_node(obj):
    """The node backward starts from: the tensor's grad_fn, a leaf's AccumulateGrad,
    the node itself, or None for a tensor that needs no gradient (no graph)."""
    if isinstance(obj, Node):
        return obj
    if not isinstance(obj, Tensor):
        raise TypeError(f"expected a Tensor or a grad_fn node, got {type(obj).__name__}")
    if obj.grad_fn is not None:
        return obj.grad_fn
    return accumulator(obj) if obj.requires_grad else None


def node_name(node):
    """The class name PyTorch prints: MulBackward0, AccumulateGrad, MyFnBackward."""
    return type(node).__name__


@dataclass
class Visit:
    """One line of the tree: ``node`` (None for an input that needs no gradient) reached
    from ``parent`` as its ``index``-th input, ``depth`` steps below the root."""
    node: object
    depth: int
    parent: object
    index: int
    number: int  # the node's number; 0 for a None input
    repeat: bool  # already met earlier in the walk: its sub-graph is not walked again
    shape: tuple  # shape of the tensor this node produced (None if unknown)
    prefix: str  # the tree's drawing characters before this line


def walk(root, root_shape=None):
    """Yield a Visit per tree line, depth first. An explicit stack, not recursion,
    so a chain of thousands of ops does not hit Python's recursion limit."""
    numbers = {}
    stack = [Visit(root, 0, None, 0, 0, False, root_shape, "")]
    while stack:
        visit = stack.pop()
        node = visit.node
        if node is not None:
            visit.repeat = node in numbers
            if not visit.repeat:
                numbers[node] = len(numbers) + 1
            visit.number = numbers[node]
            if isinstance(node, AccumulateGrad):
                visit.shape = tuple(node.variable.shape)
        yield visit
        if node is None or visit.repeat:
            continue
        children = node.next_functions
        shapes = node.input_shapes()
        indent = "" if visit.depth == 0 else visit.prefix[:-3] + ("   " if visit.prefix.endswith("└─ ") else "│  ")
        # Pushed in reverse so the first input is popped (and numbered) first.
        for i in reversed(range(len(children))):
            last = i == len(children) - 1
            shape = tuple(shapes[i]) if i < len(shapes) else None
            stack.append(Visit(children[i][0], visit.depth + 1, node, i, 0, False, shape,
                               indent + ("└─ " if last else "├─ ")))


def number_nodes(root):
    """{node: number} in walk order."""
    return {v.node: v.number for v in walk(root) if v.node is not None and not v.repeat}


def count_inputs(root):
    """For each node, how many edges lead into it: how many gradients it must wait for
    (the engine's own dependency count, computed the same way)."""
    counts = {}
    for node in number_nodes(root):
        for child, _ in node.next_functions:
            if child is not None:
                counts[child] = counts.get(child, 0) + 1
    return counts


class Names:
    """Names for nodes, from a ``{name: tensor}`` dict such as
    ``dict(model.named_parameters())``: a leaf's name goes on its AccumulateGrad,
    a computed tensor's name on its grad_fn."""

    def __init__(self, names=None):
        self._by_leaf, self._by_node = {}, {}
        self._keep = []  # hold the tensors so their ids stay theirs while we look them up
        for name, tensor in (names or {}).items():
            self._keep.append(tensor)
            if tensor.grad_fn is not None:
                self._by_node.setdefault(tensor.grad_fn, str(name))
            else:
                self._by_leaf.setdefault(id(tensor), str(name))

    def of(self, node):
        if isinstance(node, AccumulateGrad):
            return self._by_leaf.get(id(node.variable))
        return self._by_node.get(node)

    def of_tensor(self, tensor):
        if tensor.grad_fn is not None:
            return self._by_node.get(tensor.grad_fn)
        return self._by_leaf.get(id(tensor))


def fmt_shape(shape):
    """A shape as PyTorch lists it in ``torch.Size([2, 3])``: ``[2, 3]``."""
    return "[" + ", ".join(str(s) for s in shape) + "]"


def fmt_values(array, max_elements=4):
    """A small array's values (4 significant digits), or just its shape if it is big:
    short enough for a diagram label, and the same text on every machine."""
    if array is None:
        return "None"
    if isinstance(array, tuple):  # a node with several outputs: a gradient for each
        return "(" + ", ".join(fmt_values(a, max_elements) for a in array) + ")"
    array = np.asarray(array)
    if array.size > max_elements:
        return "shape " + fmt_shape(array.shape)
    return np.array2string(array, separator=", ",
                           formatter={"float_kind": lambda v: format(float(v), ".4g"),
                                      "int_kind": str, "bool": str})
