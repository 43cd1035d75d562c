"""index_add, index_fill, index_copy and index_put (and their in-place forms) against PyTorch
(recorded: tests/oracle.py): values, dtypes, grad_fn names and edges, gradients (first and
second order), and the errors of the usual mistakes, in PyTorch's words.
Finite differences: tests/ops/test_gradcheck.py (index_add(alpha), index_fill, ...)."""
import pytest

from oracle import error_of


def _x(lib, *shape, requires_grad=True):
    n = 1
    for s in shape:
        n *= s
    return lib.arange(float(n)).reshape(shape).requires_grad_(requires_grad)


def _graph_and_grads(lib, out, *leaves):
    """What a learner sees: the result, then each leaf's gradient of a weighted sum."""
    weights = lib.arange(1.0, out.numel() + 1).reshape(out.shape)
    grads = lib.autograd.grad((out * weights).sum(), leaves, allow_unused=True)
    return out, grads


PROGRAMS = {
    "index_add": lambda lib: _graph_and_grads(
        lib, *(lambda x, s: (x.index_add(1, lib.tensor([2, 0, 2]), s), x, s))(_x(lib, 2, 3), _x(lib, 2, 3))),
    "index_add alpha": lambda lib: _graph_and_grads(
        lib, *(lambda x, s: (lib.index_add(x, 0, lib.tensor([1]), s, alpha=-2), x, s))(_x(lib, 2, 3), _x(lib, 1, 3))),
    "index_add 0-d index": lambda lib: _graph_and_grads(
        lib, *(lambda x, s: (x.index_add(1, lib.tensor(1), s), x, s))(_x(lib, 3, 4), _x(lib, 3, 1))),
    "index_add int": lambda lib: lib.zeros(2, 3, dtype=lib.long).index_add(1, lib.tensor([1]),
                                                                            lib.ones(2, 1, dtype=lib.long), alpha=3),
    "index_fill": lambda lib: _graph_and_grads(
        lib, *(lambda x: (x.index_fill(1, lib.tensor([0, -1]), -1.0), x))(_x(lib, 2, 3))),
    "index_fill tensor value": lambda lib: _graph_and_grads(
        lib, *(lambda x, v: (lib.index_fill(x, 0, lib.tensor([1, 1]), v), x, v))(_x(lib, 2, 3), lib.tensor(
            5.0, requires_grad=True))),
    "index_fill int": lambda lib: lib.zeros(2, 3, dtype=lib.long).index_fill(1, lib.tensor([1]), 2.5),
    "index_copy": lambda lib: _graph_and_grads(
        lib, *(lambda x, s: (x.index_copy(0, lib.tensor([2, 0]), s), x, s))(_x(lib, 3, 2), _x(lib, 2, 2))),
    "index_put": lambda lib: _graph_and_grads(
        lib, *(lambda x, v: (x.index_put((lib.tensor([1, 0]), lib.tensor([2, 2])), v), x, v))(
            _x(lib, 2, 3), _x(lib, 2))),
    "index_put accumulate": lambda lib: _graph_and_grads(
        lib, *(lambda x, v: (lib.index_put(x, [lib.tensor([1, 1])], v, accumulate=True), x, v))(
            _x(lib, 2, 3), _x(lib, 3))),
    "index_put mask": lambda lib: lib.zeros(3, 2).index_put((lib.tensor([True, False, True]),), lib.tensor(2.0)),
    "in place, recorded": lambda lib: (lambda x, s: [
        (x * 1).index_add_(1, lib.tensor([0]), s), (x * 1).index_fill_(1, lib.tensor([1]), 2.0),
        (x * 1).index_copy_(1, lib.tensor([1]), s), (x * 1).index_put_((lib.tensor([0]),), lib.tensor(7.0))])(
        _x(lib, 2, 2), _x(lib, 2, 1)),
    "in place, plain": lambda lib: (lambda y: [y.index_add_(0, lib.tensor([1]), lib.ones(1, 2)), y._version])(
        lib.zeros(2, 2)),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_index_functions(oracle, name):
    oracle.same(PROGRAMS[name])


def test_index_functions_twice(oracle):
    """Differentiated twice (create_graph): the backward formulas are differentiable too."""
    def program(lib):
        x, s = _x(lib, 2, 3), _x(lib, 2, 2)
        i = lib.tensor([2, 0])
        out = x.index_add(1, i, s * s, alpha=0.5).index_fill(1, lib.tensor([1]), 3.0).index_copy(0, lib.tensor([1]), x[:1] * x[:1])
        gx, gs = lib.autograd.grad((out * out).sum(), (x, s), create_graph=True)
        return gx, gs, lib.autograd.grad((gx.sum() + gs.sum()), (x, s))
    oracle.same(program)


MISTAKES = {
    "add: float index": lambda lib, x: x.index_add(1, lib.tensor([0.0]), lib.ones(3, 1)),
    "add: 2-d index": lambda lib, x: x.index_add(1, lib.tensor([[0]]), lib.ones(3, 1)),
    "add: float64 source": lambda lib, x: x.index_add(1, lib.tensor([0]), lib.ones(3, 1, dtype=lib.float64)),
    "add: too many indices": lambda lib, x: x.index_add(1, lib.tensor([0, 1]), lib.ones(3, 1)),
    "add: source of the wrong shape": lambda lib, x: x.index_add(1, lib.tensor([1]), lib.ones(2, 1)),
    "add: 1-d source": lambda lib, x: x.index_add(1, lib.tensor(1), lib.ones(3)),
    "add: 3-d source": lambda lib, x: x.index_add(1, lib.tensor([0]), lib.ones(3, 1, 1)),
    "add: negative index": lambda lib, x: x.index_add(1, lib.tensor([-1]), lib.ones(3, 1)),
    "add: dim out of range": lambda lib, x: x.index_add(3, lib.tensor([1]), lib.ones(3, 1)),
    "add_: a leaf": lambda lib, x: x.requires_grad_().index_add_(1, lib.tensor([1]), lib.ones(3, 1)),
    "fill: int32 index": lambda lib, x: x.index_fill(1, lib.tensor([0], dtype=lib.int32), 1.0),
    "fill: 2-d index": lambda lib, x: x.index_fill(1, lib.tensor([[1]]), 1.0),
    "fill: out of bounds": lambda lib, x: x.index_fill(1, lib.tensor([-5]), 1.0),
    "fill: 1-d value": lambda lib, x: x.index_fill(1, lib.tensor([1]), lib.tensor([1.0])),
    "copy: float index": lambda lib, x: x.index_copy(1, lib.tensor([1.0]), lib.ones(3, 1)),
    "copy: 2-d index": lambda lib, x: x.index_copy(1, lib.tensor([[1]]), lib.ones(3, 1)),
    "copy: float64 source": lambda lib, x: x.index_copy(1, lib.tensor([1]), lib.ones(3, 1, dtype=lib.float64)),
    "copy: too many indices": lambda lib, x: x.index_copy(1, lib.tensor([1, 2]), lib.ones(3, 1)),
    "copy: slices differ": lambda lib, x: x.index_copy(1, lib.tensor([1]), lib.ones(2, 1)),
    "copy: slices differ (3-d)": lambda lib, x: lib.zeros(3, 4, 5).index_copy(1, lib.tensor([0]), lib.ones(2, 1, 6)),
    "copy: negative index": lambda lib, x: x.index_copy(1, lib.tensor([-1]), lib.ones(3, 1)),
    "put: a tensor, not a tuple": lambda lib, x: x.index_put(lib.tensor([0]), lib.tensor(1.0)),
    "put: a number as values": lambda lib, x: x.index_put((lib.tensor([0]),), 1.0),
    "put: float64 values": lambda lib, x: x.index_put((lib.tensor([0]),), lib.tensor(1.0, dtype=lib.float64)),
    "put: values that do not broadcast": lambda lib, x: x.index_put((lib.tensor([0]),), lib.ones(2)),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_index_function_mistakes(oracle, name):
    oracle.same(lambda lib: error_of(lambda: MISTAKES[name](lib, lib.zeros(3, 4))))
