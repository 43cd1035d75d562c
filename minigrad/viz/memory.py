"""``saved_memory``: what the graph keeps alive for backward, node by node.

Each node holds the arrays its forward saved (``node.saved_records()``) until backward
runs it; then, unless ``retain_graph=True``, it drops them (``node.saved_freed``). That
is why memory falls after ``loss.backward()``, and why it does not with
``retain_graph=True``.

Bytes are ``ndarray.nbytes``. A node that saved the same array twice (``x * x``) counts
it once, and so does the total for an array saved by several nodes: the total is
what the saved records hold, each array once. (Two different views of one buffer
count separately; the saved arrays of minigrad's ops are whole arrays.)
"""
from dataclasses import dataclass

from ..core.node import AccumulateGrad
from ._graph import Names, fmt_shape, node_name, number_nodes, root_node


@dataclass
class SavedItem:
    index: int  # position in the node's saved records
    kind: str  # "input" (a tensor the op saved) or "output" (the op's own result)
    name: str  # the tensor's name from ``names``, or ""
    shape: tuple
    dtype: str
    nbytes: int


def _label(item):
    """The tensor's name if known; "result" for the op's own output, as PyTorch calls it."""
    return item.name or ("result" if item.kind == "output" else "input")


@dataclass
class NodeMemory:
    number: int  # as in print_graph
    name: str  # the node's PyTorch name
    items: list  # SavedItem per saved array (empty when freed or nothing was saved)
    freed: bool  # backward ran this node and dropped what it saved
    nbytes: int  # bytes of its distinct saved arrays

    def describe(self):
        if self.freed:
            return "freed by backward"
        if not self.items:
            return "nothing saved"
        return ", ".join(f"{_label(i)} {fmt_shape(i.shape)} {i.dtype}" for i in self.items)


class SavedMemory:
    """Records per node (``.records``) and ``.total`` bytes; prints as a table."""

    def __init__(self, records, total):
        self.records, self.total = records, total

    def table(self):
        rows = [(f"[{r.number}] {r.name}", r.describe(), str(r.nbytes)) for r in self.records]
        rows.append(("total (each array once)", "", str(self.total)))
        head = ("node", "saved for backward", "bytes")
        widths = [max(len(row[i]) for row in rows + [head]) for i in range(3)]

        def line(row):
            return f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:>{widths[2]}}".rstrip()
        return "\n".join([line(head)] + [line(row) for row in rows])

    __repr__ = __str__ = table

    def _repr_pretty_(self, p, cycle):
        p.text(self.table())


def saved_memory(tensor, names=None):
    """What each backward node of ``tensor``'s graph has saved, and how many bytes.

    One record per backward node (AccumulateGrad nodes save nothing and are left
    out), numbered as in print_graph; ``names`` as in print_graph.
    """
    names = names if isinstance(names, Names) else Names(names)
    root = root_node(tensor)
    records, seen = [], {}  # seen: id(array) -> array, every distinct array once
    for node, number in (number_nodes(root) if root is not None else {}).items():
        if isinstance(node, AccumulateGrad):
            continue
        items, mine = [], {}
        for i, kind, value, array in node.saved_records():
            name = names.of_tensor(value) if value is not None else None
            items.append(SavedItem(i, kind, name or "", tuple(array.shape), str(array.dtype), array.nbytes))
            mine[id(array)] = seen[id(array)] = array
        records.append(NodeMemory(number, node_name(node), items, node.saved_freed,
                                  sum(a.nbytes for a in mine.values())))
    return SavedMemory(records, sum(a.nbytes for a in seen.values()))
