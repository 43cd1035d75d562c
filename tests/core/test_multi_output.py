"""Ops with several outputs: ``split``, ``chunk``, ``unbind``, ``unsafe_split``/``unsafe_chunk``
and a user's Function returning a tuple record one node for all their outputs, as PyTorch does.

What a learner can see of it, compared with PyTorch's recorded answer: each output's
``grad_fn`` is the same node, ``next_functions`` names the output an edge comes from
(``(SplitBackward0, 1)``), ``tensor.output_nr``; the node runs once, after every output's
gradient has arrived (zeros for an output that got none); a tensor hook or ``retain_grad`` on
one output sees that output's gradient only; ``autograd.grad`` with outputs as inputs; a user's
Function with two outputs, one of them unused. And what it is for: the node's backward is one
pass, so an LSTM's backward grows linearly with the sequence length.
"""
import numpy as np
import pytest

from oracle import error_of, graph_text

PIECES = {
    "split": lambda x: x.split(2),
    "split sizes": lambda x: x.split([1, 3, 1]),
    "chunk": lambda x: x.chunk(2, 1),
    "unbind": lambda x: x.unbind(),
    "unbind dim 1": lambda x: x.unbind(1),
    "unsafe_chunk": lambda x: x.unsafe_chunk(3),
    "unsafe_split sizes": lambda x: x.unsafe_split_with_sizes([2, 3]),
    "one piece": lambda x: x.split(9),
}


@pytest.mark.parametrize("case", PIECES)
def test_one_node_for_all_pieces(oracle, case):
    """Every piece's grad_fn is one node; an edge names the piece it comes from."""
    def program(lib):
        x = lib.arange(15.0).reshape(5, 3).requires_grad_()
        pieces = PIECES[case](x * 1)
        y = sum((k + 1.0) * p.sum() for k, p in enumerate(pieces))
        return {"one node": all(p.grad_fn is pieces[0].grad_fn for p in pieces),
                "output_nr": [p.output_nr for p in pieces],
                "graph": graph_text(y.grad_fn), "grad": lib.autograd.grad(y, x)[0],
                "pieces": pieces}
    oracle.same(program)


def test_some_pieces_unused(oracle):
    """Only some pieces used: the node runs once, with zeros for the others."""
    oracle.same(_unused)


def _unused(lib):
    x = lib.arange(6.0, requires_grad=True)
    a, b, c = x.split(2)
    (b * b).sum().backward()
    u = lib.arange(6.0).reshape(3, 2).requires_grad_()
    rows = u.unbind()
    rows[2].sum().backward()
    return x.grad, u.grad


def test_a_piece_is_the_root(oracle):
    """A piece of unbind as the tensor backward starts from (a 0-d row)."""
    def program(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).unbind()[1]
        y.backward()
        return y, x.grad
    oracle.same(program)


def test_hooks_and_retain_grad_on_one_piece(oracle):
    """A tensor hook on one piece changes that piece's gradient only; retain_grad keeps each
    piece's own gradient; hooks see the gradients in PyTorch's order."""
    def program(lib):
        x = lib.arange(6.0, requires_grad=True)
        a, b, c = (x * 1).split(2)
        seen = []
        b.register_hook(lambda g: seen.append(("b", g.clone())) or g * 10)
        handle = c.register_hook(lambda g: seen.append(("c", g.clone())))
        a.retain_grad()
        b.retain_grad()
        (a * 2 + b * 3 + c * 4).sum().backward(retain_graph=True)
        first = x.grad.clone()
        handle.remove()
        (a * b).sum().backward()
        return {"first": first, "second": x.grad, "a.grad": a.grad, "b.grad": b.grad,
                "retains": [a.retains_grad, b.retains_grad, c.retains_grad], "seen": seen}
    oracle.same(program)


def test_autograd_grad_with_respect_to_pieces(oracle):
    """``autograd.grad`` with two pieces of one node as inputs, and the input they came from."""
    def program(lib):
        x = lib.arange(6.0, requires_grad=True)
        a, b = (x * 2).chunk(2)
        y = (a * b * b).sum()
        return lib.autograd.grad(y, [b, a, x], retain_graph=True), lib.autograd.grad(y, [b, b])
    oracle.same(program)


def test_second_derivatives_through_pieces(oracle):
    """create_graph through one node of several outputs: its backward (CatBackward0,
    StackBackward0) is differentiated again."""
    def program(lib):
        x = lib.arange(1.0, 7.0).requires_grad_()
        a, b, c = x.split(2)
        r0, r1 = x.reshape(2, 3).unbind()
        y = (a * b * c).sum() + (r0 * r1 * r1).sum()
        g, = lib.autograd.grad(y, x, create_graph=True)
        h, = lib.autograd.grad((g * g).sum(), x)
        return {"g": g, "graph of g": graph_text(g.grad_fn), "h": h}
    oracle.same(program)


def test_backward_twice_needs_retain_graph(oracle):
    def program(lib):
        x = lib.arange(4.0, requires_grad=True)
        a, b = (x * x).split(2)
        y = (a * b).sum()
        y.backward()
        return x.grad, error_of(lambda: y.backward())
    oracle.same(program)


def _two_outputs(lib):
    class SinCos(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin(), x.cos()

        @staticmethod
        def backward(ctx, gs, gc):
            x, = ctx.saved_tensors
            return gs * x.cos() - gc * x.sin()
    return SinCos


def test_function_with_two_outputs(oracle):
    """A user's Function returning two tensors: one node for both; an output that gets no
    gradient comes to backward as zeros (PyTorch's default, materialize_grads)."""
    def program(lib):
        SinCos = _two_outputs(lib)
        x = lib.tensor([0.5, 1.0, 2.0], requires_grad=True)
        s, c = SinCos.apply(x)
        (s * c).sum().backward(retain_graph=True)
        both = x.grad.clone()
        x.grad = None
        s.sum().backward()  # c gets no gradient: zeros
        return {"outputs": (s, c), "same node": s.grad_fn is c.grad_fn,
                "output_nr": (s.output_nr, c.output_nr), "graph": graph_text((s * c).grad_fn),
                "both": both, "sin only": x.grad}
    oracle.same(program)


def test_lstm_backward_is_linear_in_the_sequence_length():
    """Each time step's input part comes out of one UnbindBackward0 node, whose backward runs
    once and stacks the steps' gradients: doubling the sequence doubles the backward's work, it
    does not quadruple it. Counted, not timed: the elements of every gradient the nodes send
    (one node per step would send the whole sequence's gradient from each step). In float64:
    a float32 LSTM is one node per layer (MkldnnRnnLayerBackward0), no Unbind."""
    import minigrad
    from minigrad.core import engine

    minigrad.manual_seed(0)
    lstm = minigrad.nn.LSTM(2, 3).double()
    sent = {}
    for steps in (10, 40):
        out, _ = lstm(minigrad.randn(steps, 1, 2, dtype=minigrad.float64))
        loss = out.sum()
        total = [0]

        def observer(node, grad, grads):
            total[0] += sum(g.numel() for g in grads if g is not None)
        engine.run_backward((loss,), [minigrad.ones(())], False, False, observer=observer)
        sent[steps] = total[0]
    assert sent[40] <= 4.5 * sent[10], sent  # one node per step: about 10x


def test_stepping_through_a_node_with_several_outputs():
    """minigrad.viz's step-through: the node of split gets a gradient per output (None for the
    piece not used), and what it holds before it runs is a sum per output."""
    import minigrad
    from minigrad import viz

    x = minigrad.arange(6.0, requires_grad=True)
    a, b, c = (x * 1).split(2)
    steps = viz.backward_steps((a * b).sum())
    split = next(s for s in steps if s.name == "SplitBackward0")
    assert [None if g is None else g.tolist() for g in split.grad] == [[2.0, 3.0], [0.0, 1.0], None]
    before = steps[split.index - 2]
    assert "SplitBackward0 ready, 2 of 2 gradients, sum ([2, 3], [0, 1], None)" in str(before)
    assert "got ([2, 3], [0, 1], None)" in str(split)
    assert x.grad.tolist() == [2.0, 3.0, 0.0, 1.0, 0.0, 0.0]


REDUCTIONS = {
    "var_mean": lambda T, x: T.var_mean(x, dim=1),
    "var_mean all": lambda T, x: T.var_mean(x),
    "var_mean keepdim": lambda T, x: T.var_mean(x, 0, keepdim=True, correction=0),
    "std_mean": lambda T, x: T.std_mean(x, dim=1),
    "std_mean all": lambda T, x: T.std_mean(x),
    "std_mean keepdim": lambda T, x: T.std_mean(x, 0, keepdim=True, correction=0),
    "aminmax": lambda T, x: T.aminmax(x, dim=1),
    "aminmax all": lambda T, x: x.aminmax(),
    "aminmax keepdim": lambda T, x: x.aminmax(dim=0, keepdim=True),
}


@pytest.mark.parametrize("case", REDUCTIONS)
@pytest.mark.parametrize("used", ["both", "first", "second"])
def test_reductions_with_two_outputs(oracle, case, used):
    """var_mean, std_mean and aminmax: one node for both results (VarMeanBackward0, ...); the
    gradient of whichever is used, or of both, added; and the second derivative (its values: the
    graph of var's backward formula is minigrad's own, as it was before)."""
    def program(T):
        x = T.tensor([[1.0, 4.0, 4.0], [3.0, -2.0, 0.5]], dtype=T.float64, requires_grad=True)
        a, b = REDUCTIONS[case](T, x)
        y = {"both": (a * b).sum(), "first": (a * a).sum(), "second": (b * b * b).sum()}[used]
        g, = T.autograd.grad(y, x, create_graph=True)
        h, = T.autograd.grad((g * g).sum(), x, allow_unused=True)
        return {"outputs": (a, b), "graph": graph_text(y.grad_fn), "g": g.detach(), "h": h,
                "output_nr": (a.output_nr, b.output_nr)}
    oracle.same(program, check_graph=False, check_repr=False)


def test_function_with_a_non_differentiable_output(oracle):
    """``ctx.mark_non_differentiable``: that output is no part of the graph (no grad_fn, a leaf),
    and backward gets zeros for it."""
    def program(lib):
        seen = []

        class SortWithRanks(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                values, order = x.sort()
                ranks = order.to(x.dtype)
                ctx.mark_non_differentiable(ranks)
                ctx.save_for_backward(order)
                return values, ranks

            @staticmethod
            def backward(ctx, grad_values, grad_ranks):
                order, = ctx.saved_tensors
                seen.append(grad_ranks)
                return lib.zeros_like(grad_values).scatter(0, order, grad_values)

        x = lib.tensor([3.0, 1.0, 2.0], requires_grad=True)
        values, ranks = SortWithRanks.apply(x)
        (values * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        return {"values": values, "ranks": ranks, "ranks is leaf": ranks.is_leaf, "grad": x.grad,
                "backward got": seen}
    oracle.same(program)


def test_std_mean_saves_its_std_output(oracle):
    """std_mean's backward reads its own std output, as PyTorch's (result0): differentiated again,
    the gradient's graph goes through the StdMeanBackward0 node; changed in place, backward says so."""
    def program(T):
        x = T.tensor([[1.0, 4.0, 4.0], [3.0, -2.0, 0.5]], dtype=T.float64, requires_grad=True)
        std, mean = T.std_mean(x, dim=1)
        g, = T.autograd.grad((std * mean).sum(), x, create_graph=True)
        std2, _ = T.std_mean(x * 1, dim=0)
        std2.mul_(2)
        return {"g": g.detach(), "through the node's std": "MulBackward0(None:0, StdMeanBackward0(AccumulateGrad:0)"
                ":1):0" in graph_text(g.grad_fn) and "@StdMeanBackward0:0" in graph_text(g.grad_fn),
                "changed": error_of(lambda: std2.sum().backward())}
    oracle.same(program)


def test_a_nodes_own_prehook_gets_a_tuple(oracle):
    """``grad_fn.register_prehook(fn)``: fn gets the node's outputs' gradients as a tuple (one
    output or several, AccumulateGrad too) and may return new ones; it runs after the tensors'
    own hooks and retain_grad, as in PyTorch."""
    def program(lib):
        seen = []
        x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        y = x * 2
        y.grad_fn.register_prehook(lambda g: seen.append(("mul", len(g), g[0].clone())) or (g[0] * 10,))
        y.register_hook(lambda g: seen.append(("y", g.clone())) or g + 1)
        y.retain_grad()
        a, b = y.split(2)
        a.grad_fn.register_prehook(lambda g: seen.append(("split", [t is None for t in g])))
        acc = x.grad_fn if x.grad_fn is not None else y.grad_fn.next_functions[0][0]
        acc.register_prehook(lambda g: seen.append(("leaf", len(g), g[0].clone())))
        (a * 3).sum().backward()
        return {"seen": seen, "y.grad": y.grad, "x.grad": x.grad}
    oracle.same(program)
