"""The backward pass: visit the graph in topological order, sum gradients, free buffers.

This is what ``loss.backward()`` runs. Three ideas, each marked in ``run_backward``:

1. Ordering. A node may run only once *every* node that feeds it a gradient has run,
   or it would pass on a partial sum. So we first count, for each node, the edges that
   lead into it, then run nodes whose count has dropped to zero (Kahn's algorithm).
   A loop with an explicit heap, not recursion: a chain of 10,000 ops is fine.
2. Accumulation. Gradients arriving at the same node by several paths are summed
   (``b = a + a`` sends two). Leaves add the total into ``.grad`` (AccumulateGrad).
   A node with several outputs (``x.split(2)``'s) keeps a sum per output, and runs once.
3. Freeing. After a node has run, it drops the tensors it saved, unless
   ``retain_graph=True``; running it again then raises PyTorch's error.

The rest is named where it joins the loop: a node's hooks (``node._run_pre_hooks``), what
``autograd.grad`` needs (``_Targets``: run only the nodes that lead to an input, capture the
inputs' gradients), a leaf keeping a gradient without a copy when nothing else holds it
(``_Fresh``), and the observer minigrad.viz's step-through uses.
"""
import heapq
import itertools
import warnings

import numpy as np

from . import grad_mode
from .function import owner
from .node import AccumulateGrad, _accumulate, accumulator
from .numpy_errors import quietly
from .tensor import TensorBase


def run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs=None, observer=None):
    """Backpropagate ``grad_tensors`` from ``tensors`` through their graph.

    Without ``inputs`` (``tensor.backward()``), leaves accumulate into ``.grad``.
    With ``inputs`` (``autograd.grad``), the gradient reaching each input is
    returned instead, and no ``.grad`` is touched. ``observer(node, grad, grads)``,
    if given, is called after each node has run.
    """
    # record backward itself only if asked; inf and NaN pass silently (as in PyTorch)
    with grad_mode.set_grad_enabled(create_graph), quietly(), _task(inputs is not None):
        pending = {}  # node -> the sum of the gradients it has received so far
        for tensor, grad in zip(tensors, grad_tensors):
            _receive(pending, _node_of(tensor), grad, tensor._output_nr)
        dependencies = _count_dependencies(list(pending))  # 1. order: edges into each node
        # Ready nodes, newest first (as PyTorch orders them): a heap of (-creation, arrival, node).
        # Ties (leaves' AccumulateGrad nodes, run as soon as they are ready) go in arrival order.
        arrival = itertools.count()
        ready = []  # (a loop: a comprehension would make arrival and dependencies cells, slower in the loop below)
        for node in pending:
            if node not in dependencies:
                ready.append((-node._seq, next(arrival), node))
        heapq.heapify(ready)
        targets = _Targets(inputs, list(pending)) if inputs is not None else None
        fresh = _Fresh(grad_tensors)
        while ready:
            node = heapq.heappop(ready)[2]
            grad = pending.pop(node, None)  # None: no path from the roots carried a gradient
            sent = ()
            if grad is not None and (targets is None or node in targets.needed):
                # (a leaf's own hooks are kept on its tensor, not on its AccumulateGrad node)
                if node._pre_hooks or node._retain is not None or (
                        node.__class__ is AccumulateGrad and node.variable._hooks):
                    grad = node._run_pre_hooks(grad)
                if targets is None or targets.capture(node, grad):
                    sent = fresh.run(node, grad)  # node.apply(grad): its backward
                    if not retain_graph:
                        node._release()  # 3. freeing
                    if observer is not None:
                        observer(node, grad, sent)
            nrs = node._next_nrs  # (None unless an input was one of several outputs of its node)
            for i, child in enumerate(node._next_nodes):
                if child is None:
                    continue
                if sent and sent[i] is not None:  # 2. accumulation
                    if nrs is None:
                        pending[child] = pending[child] + sent[i] if child in pending else sent[i]
                    else:
                        _receive(pending, child, sent[i], nrs[i])
                dependencies[child] -= 1
                if dependencies[child] == 0:  # 1. order: every gradient for child has arrived
                    heapq.heappush(ready, (-child._seq, next(arrival), child))
    return targets.captured if targets is not None else []


tasks = []  # for each backward pass under way, innermost last: whether it captures (autograd.grad)


class _task:
    """A backward pass under way (utils.checkpoint's reentrant variant, which runs a backward
    inside backward, asks whether the pass it runs in captures gradients: it cannot, there).
    A class, not a generator context manager: it is entered once per backward call."""
    __slots__ = ("captures",)

    def __init__(self, captures):
        self.captures = captures

    def __enter__(self):
        tasks.append(self.captures)

    def __exit__(self, *exc):
        tasks.pop()


def _node_of(tensor):
    return tensor.grad_fn if tensor.grad_fn is not None else accumulator(tensor)


def _receive(pending, node, grad, nr):
    """2. accumulation: add ``grad`` to what ``node`` has received so far. A node with several
    outputs (x.split(2)'s) collects a gradient per output: a list, output ``nr``'s in place nr."""
    if node._n_outputs == 1:
        pending[node] = pending[node] + grad if node in pending else grad
        return
    grads = pending.get(node)
    if grads is None:
        grads = pending[node] = [None] * node._n_outputs
    grads[nr] = grad if grads[nr] is None else grads[nr] + grad


def _count_dependencies(roots):
    """For each node reachable from ``roots``: how many edges lead into it."""
    dependencies = {}
    seen, stack = set(roots), list(roots)
    while stack:
        for child in stack.pop()._next_nodes:
            if child is None:
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return dependencies


class _Targets:
    """What ``autograd.grad(outputs, inputs)`` adds to the loop: only the nodes from which a
    path leads to an input run (``needed``); the gradient reaching an input is captured, to be
    returned; a node that is an input but leads to no other input is left alone, buffers and
    all. (``backward()`` has no targets: every node runs.)"""

    def __init__(self, inputs, roots):
        self.wanted = {}  # node -> [(the input's position, its output number at the node)]
        for i, t in enumerate(inputs):
            self.wanted.setdefault(_node_of(t), []).append((i, t._output_nr))
        self.captured = [None] * len(inputs)
        self.needed = _leading_to(roots, self.wanted)

    def capture(self, node, grad):
        """Keep ``grad`` if ``node`` is an input's; True if the node leads on to an input."""
        for i, nr in self.wanted.get(node, ()):
            self.captured[i] = grad if node._n_outputs == 1 else grad[nr]
        return any(child in self.needed for child in node._next_nodes)


def _leading_to(roots, targets):
    """The targets, and the nodes from which some path reaches a target."""
    needed, visited = set(), set()
    stack = [(node, False) for node in roots]
    while stack:  # depth-first, each node decided after its children (post-order)
        node, children_done = stack.pop()
        if children_done:
            if node in targets or any(child in needed for child in node._next_nodes):
                needed.add(node)
        elif node not in visited:
            visited.add(node)
            stack.append((node, True))
            stack.extend((child, False) for child in node._next_nodes
                         if child is not None and child not in visited)
    return needed


class _Fresh:
    """An optimisation, not part of the idea: a leaf may keep the gradient it receives as its
    ``.grad`` without a copy, as PyTorch does when it can, if nothing else holds that memory.
    A built-in op's backward makes its gradients anew or passes on the one it received (or a
    view of it), so a gradient's memory is held elsewhere only if it came from the caller,
    a hook saw it, a user's Function returned it, or one node sent it to two inputs. Those
    memories are noted, by the id of the array that owns them; any other is the leaf's own.
    (An id is reused once its array is freed: a new array taken for a noted one is copied,
    which is merely slower.)"""

    def __init__(self, grads):
        self.shared = {id(owner(g._data)) for g in grads}  # the caller's gradients

    def run(self, node, grad):
        """Run ``node``'s backward; note the memories of the gradients it sends that are not new."""
        if node.__class__ is AccumulateGrad:
            return node.apply(grad, owned=id(owner(grad._data)) not in self.shared)
        if node._pre_hooks or node._retain is not None:  # a hook may have kept it
            for g in (grad,) if node._n_outputs == 1 else grad:
                if g is not None:
                    self.shared.add(id(owner(g._data)))
        sent = node.apply(grad)
        if not node._builtin:  # a user's Function may hold what it returns
            self.shared.update([id(owner(g._data)) for g in sent if g is not None])
        elif node.needs_input_grad.count(True) > 1:  # (a + b sends one gradient to both inputs)
            memories = set()
            for g in sent:
                if g is not None:
                    memory = id(owner(g._data))
                    if memory in memories:  # one memory sent to two inputs: noted
                        self.shared.add(memory)
                    memories.add(memory)
        return sent


# -- the two ways in: tensor.backward() and autograd.grad() -------------------------------------

def _make_grads(outputs, grad_outputs):
    """Check each output can be differentiated and pick its starting gradient:
    the one given, or 1 for a scalar (the implicit gradient of ``loss.backward()``)."""
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not out._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            if out._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._data.dtype.kind != "f":
                raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                   f"torch.{out.dtype.name}")
            g = TensorBase._wrap(np.ones_like(out._data))
        elif g.shape != out.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape!r} and "
                               f"output[{i}] has a shape of {out.shape!r}.")
        elif g._data.dtype != out._data.dtype and not g._requires_grad:  # cast, as PyTorch's engine
            g = TensorBase._wrap(g._data.astype(out._data.dtype))
        grads.append(g)
    return grads


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _as_grads(grads, n):
    """``gradient=`` / ``grad_outputs=``: None, a tensor, or a sequence of tensors (or None).
    A number is refused, as PyTorch refuses it (``backward(gradient=2.0)``: not iterable)."""
    if grads is None:
        return (None,) * n
    grads = (grads,) if isinstance(grads, TensorBase) else tuple(grads)
    for g in grads:
        if g is not None and not isinstance(g, TensorBase):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate into ``.grad`` of the leaves the gradient of ``tensors``."""
    tensors = _as_tuple(tensors)
    grads = _make_grads(tensors, _as_grads(grad_tensors, len(tensors)))
    if inputs is not None and not _as_tuple(inputs):
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    retain = create_graph if retain_graph is None else retain_graph
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the parameter "
            "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
            "creating the graph to avoid this. If you have to use this function, make sure to reset the "
            ".grad fields of your parameters to None after use to break the cycle and avoid the leak.",
            UserWarning, stacklevel=3)
    if inputs is None:
        run_backward(tensors, grads, retain, create_graph)
        return
    # backward(inputs=...): accumulate only into the given tensors
    for t, g in zip(_as_tuple(inputs), run_backward(tensors, grads, retain, create_graph,
                                                           inputs=_as_tuple(inputs))):
        if g is not None:
            _accumulate(t, g)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False, materialize_grads=False):
    """Return d(outputs)/d(inputs) without touching any ``.grad``."""
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grads = _make_grads(outputs, _as_grads(grad_outputs, len(outputs)))  # the outputs are checked first, as in PyTorch
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    retain = create_graph if retain_graph is None else retain_graph
    result = run_backward(outputs, grads, retain, create_graph, inputs=inputs)
    for i, g in enumerate(result):
        if g is None and materialize_grads:
            result[i] = inputs[i].new_zeros(inputs[i].shape)
        elif g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in "
                               "the graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(result)


# What TensorBase.backward() runs (PyTorch keeps its engine on the class too: Variable._execution_engine)
TensorBase._execution_engine = backward
