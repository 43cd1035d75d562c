"""The backward pass: visit the graph in topological order, sum gradients, free buffers.

This is what ``loss.backward()`` runs. Three ideas, each a few lines below:

1. Ordering. A node may run only once *every* node that feeds it a gradient has run,
   or it would pass on a partial sum. So we first count, for each node, the edges that
   lead into it, then run nodes whose count has dropped to zero (Kahn's algorithm).
   A loop with an explicit stack and heap, not recursion: a chain of 10,000 ops is fine.
2. Accumulation. Gradients arriving at the same node by several paths are summed
   (``b = a + a`` sends two). Leaves add the total into ``.grad`` (AccumulateGrad).
3. Freeing. After a node has run, it drops the tensors it saved, unless
   ``retain_graph=True``; running it again then raises PyTorch's error.
"""
import heapq
import itertools

from . import grad_mode
from .function import AccumulateGrad, _owner, accumulator


def _node_of(tensor):
    return tensor.grad_fn if tensor.grad_fn is not None else accumulator(tensor)


def _count_dependencies(roots):
    """For each node reachable from ``roots``: how many edges lead into it."""
    dependencies = {}
    seen, stack = set(roots), list(roots)
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return dependencies


def _is_new(node, child_grad, grad, grad_owned, grads):
    """Whether nothing but the next node will hold ``child_grad``'s memory: a built-in op's
    backward made it anew (or from an incoming gradient that nothing else holds), and sends
    it to one input only. A leaf can then keep it as its ``.grad`` without a copy, as
    PyTorch does when it can."""
    if not node._builtin:
        return False  # a user's backward may return a tensor it keeps
    memory = _owner(child_grad._data)
    if len(grads) > 1 and [g is not None and _owner(g._data) is memory for g in grads].count(True) > 1:
        return False  # the same memory goes to two inputs
    return memory is not _owner(grad._data) or grad_owned


def _leading_to(roots, targets):
    """The targets, and the nodes from which some path reaches a target."""
    needed, visited = set(), set()
    stack = [(node, False) for node in roots]
    while stack:  # depth-first, each node decided after its children (post-order)
        node, children_done = stack.pop()
        if children_done:
            if node in targets or any(child in needed for child, _ in node.next_functions):
                needed.add(node)
        elif node not in visited:
            visited.add(node)
            stack.append((node, True))
            stack.extend((child, False) for child, _ in node.next_functions
                         if child is not None and child not in visited)
    return needed


def run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs=None, observer=None):
    """Backpropagate ``grad_tensors`` from ``tensors`` through their graph.

    Without ``inputs`` (``tensor.backward()``), leaves accumulate into ``.grad``.
    With ``inputs`` (``autograd.grad``), the gradient reaching each input is
    returned instead, and no ``.grad`` is touched. ``observer(node, grad, grads)``,
    if given, is called after each node has run (minigrad.viz's step-through uses it).
    """
    with grad_mode.set_grad_enabled(create_graph):  # record backward itself only if asked
        # The seed: each root's node starts with its output gradient.
        pending = {}
        for tensor, grad in zip(tensors, grad_tensors):
            node = _node_of(tensor)
            pending[node] = pending[node] + grad if node in pending else grad
        dependencies = _count_dependencies(list(pending))

        wanted = {} if inputs is None else {_node_of(t): i for i, t in enumerate(inputs)}
        captured = [None] * len(wanted)
        needed = None if inputs is None else _leading_to(list(pending), wanted)
        owned = set()  # nodes whose pending gradient is a new array that nothing else holds

        # Ready nodes, newest first (as PyTorch orders them): a heap of (-creation, node).
        # Ties (leaves' AccumulateGrad nodes) run in the order they became ready.
        order = itertools.count()
        ready = [(-node._seq, next(order), node) for node in pending if node not in dependencies]
        heapq.heapify(ready)
        while ready:
            node = heapq.heappop(ready)[2]
            grad = pending.pop(node, None)  # None: no path from the roots carried a gradient
            grads = ()
            # Hooks may keep the gradient they are shown: then it is no longer ours alone.
            grad_owned = node in owned and not node._pre_hooks and node._retain is None
            if grad is not None and (needed is None or node in needed):
                grad = node._run_pre_hooks(grad)
                if node in wanted:
                    captured[wanted[node]] = grad
                # autograd.grad runs a node only if it leads on to an input; a node that
                # leads nowhere (or is only an input) is left alone, buffers and all.
                if needed is None or any(child in needed for child, _ in node.next_functions):
                    if isinstance(node, AccumulateGrad):
                        grads = node.apply(grad, owned=node in owned)
                    else:
                        grads = node.apply(grad)
                    if not retain_graph:
                        node._release()
                    if observer is not None:
                        observer(node, grad, grads)

            for (child, _), child_grad in zip(node.next_functions, grads or [None] * len(node.next_functions)):
                if child is None:
                    continue
                if child_grad is None:
                    pass
                elif child in pending:  # sum gradients that reach one node by several paths
                    pending[child] = pending[child] + child_grad
                    owned.add(child)
                else:
                    pending[child] = child_grad
                    if _is_new(node, child_grad, grad, grad_owned, grads):
                        owned.add(child)
                dependencies[child] -= 1
                if dependencies[child] == 0:
                    heapq.heappush(ready, (-child._seq, next(order), child))
    return captured
