"""Autograd semantics: graph recording, custom Functions, the backward engine,
autograd.grad and higher order, hooks, grad mode, in-place ops, anomaly mode, gradcheck.

Every test states the behaviour PyTorch has. Where minigrad differs, the test keeps
PyTorch's behaviour and is marked ``xfail(strict=True, reason="BUG: ...")``.
Tests taking the ``oracle`` fixture also compare with PyTorch (live, or its recorded answer:
tests/oracle.py).
"""
import gc
import threading
import warnings
import weakref

import numpy as np
import pytest

import minigrad
import minigrad as mg
from minigrad.core import anomaly_mode
from oracle import error_of, record


@pytest.fixture(autouse=True)
def _restore_modes():
    """A failing test must not leave grad mode or anomaly mode switched for the next one."""
    grad, anomaly = mg.is_grad_enabled(), (anomaly_mode._enabled, anomaly_mode._check_nan)
    yield
    mg.set_grad_enabled(grad)
    anomaly_mode._enabled, anomaly_mode._check_nan = anomaly


def _np(t):
    return np.asarray(record(t).values, dtype=np.float64)


def _same(a, b, rtol=1e-5, atol=1e-6):
    """A minigrad tensor and PyTorch's (a TensorRecord: tests/oracle.py) hold the same values."""
    np.testing.assert_allclose(_np(a), _np(b), rtol=rtol, atol=atol)


def _node_type(node):
    return None if node is None else type(node).__name__


# =================================================================================================
# Graph recording
# =================================================================================================

class TestGraphRecording:
    def test_grad_fn_names(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        assert (x + 1).grad_fn.name() == "AddBackward0"
        assert (x * 2).grad_fn.name() == "MulBackward0"
        assert (x - 1).grad_fn.name() == "SubBackward0"
        assert (x / 2).grad_fn.name() == "DivBackward0"
        assert x.exp().grad_fn.name() == "ExpBackward0"
        assert x.sum().grad_fn.name() == "SumBackward0"
        assert (x ** 2).grad_fn.name() == "PowBackward0"

    def test_grad_fn_names_match_pytorch(self, oracle):
        def names(T):
            x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
            y = T.tensor([[1.0, 2.0], [3.0, 4.0]])
            outs = [x + 1, 1 + x, x - y, 1 - x, x * y, x / y, 2 / x, -x, x ** 2, x.exp(), x.log(),
                    x.sqrt(), x.sum(), x.sum(0), x.mean(), x @ y, x.t(), x.reshape(4), x[0],
                    x.relu(), x.sigmoid(), x.tanh(), x.clamp(0, 2), x.abs()]
            return [(type(o.grad_fn).__name__, o.grad_fn.name()) for o in outs]
        oracle.same(names)

    def test_next_functions_in_input_order(self):
        a = mg.tensor([1.0, 2.0], requires_grad=True)
        b = mg.tensor([3.0, 4.0], requires_grad=True)
        h = a.exp()
        y = h * b
        nf = y.grad_fn.next_functions
        assert isinstance(nf, tuple) and all(isinstance(e, tuple) and len(e) == 2 for e in nf)
        assert nf[0] == (h.grad_fn, 0)
        assert nf[0][0] is h.grad_fn
        assert _node_type(nf[1][0]) == "AccumulateGrad" and nf[1][1] == 0
        assert nf[1][0].variable is b
        z = b * h  # swapped: the order follows the inputs
        assert z.grad_fn.next_functions[0][0].variable is b
        assert z.grad_fn.next_functions[1][0] is h.grad_fn

    @pytest.mark.parametrize("make", [
        lambda x, c: x + 1,
        lambda x, c: x * c,
        lambda x, c: x - c,
        lambda x, c: x * 2.0,
    ])
    def test_next_functions_none_for_inputs_without_grad(self, make):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        c = mg.tensor([3.0, 4.0])
        nf = make(x, c).grad_fn.next_functions
        assert len(nf) == 2
        assert _node_type(nf[0][0]) == "AccumulateGrad" and nf[0][0].variable is x and nf[0][1] == 0
        assert nf[1] == (None, 0)

    def test_next_functions_none_first(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        c = mg.tensor([3.0, 4.0])
        nf = (c * x).grad_fn.next_functions
        assert nf[0] == (None, 0)
        assert nf[1][0].variable is x

    def test_next_functions_match_pytorch(self, oracle):
        def shape(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            c = T.tensor([3.0, 4.0])
            out = []
            for y in [x + 1, 1 + x, x * c, c * x, x - c, 1 - x, (x * c).exp() * x, x @ c]:
                out.append(tuple(_node_type(n) for n, _ in y.grad_fn.next_functions))
            return out
        oracle.same(shape)

    def test_one_accumulate_grad_per_leaf(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = mg.tensor([1.0, 2.0], requires_grad=True)
        a = x * 2
        b = x.exp()
        c = y * 3
        acc_a = a.grad_fn.next_functions[0][0]
        acc_b = b.grad_fn.next_functions[0][0]
        acc_c = c.grad_fn.next_functions[0][0]
        assert acc_a is acc_b  # two uses of one leaf reach the same node
        assert acc_a.variable is x
        assert acc_c is not acc_a and acc_c.variable is y
        s = x * x
        assert s.grad_fn.next_functions[0][0] is s.grad_fn.next_functions[1][0] is acc_a

    def test_accumulate_grad_has_no_next_functions(self):
        x = mg.tensor([1.0], requires_grad=True)
        acc = (x * 2).grad_fn.next_functions[0][0]
        assert tuple(acc.next_functions) == ()

    def test_is_leaf_and_requires_grad_propagation(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        c = mg.tensor([1.0, 2.0])
        assert x.is_leaf and x.requires_grad and x.grad_fn is None
        assert c.is_leaf and not c.requires_grad
        y = x * c
        assert not y.is_leaf and y.requires_grad
        z = c * 2
        assert z.is_leaf and not z.requires_grad and z.grad_fn is None
        w = y + z
        assert w.requires_grad and not w.is_leaf
        d = y.detach()
        assert d.is_leaf and not d.requires_grad and d.grad_fn is None

    def test_integer_results_do_not_require_grad(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        i = x.argmax()
        assert not i.requires_grad and i.grad_fn is None
        assert not (x > 1).requires_grad

    def test_no_grad_results_have_no_grad_fn(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        with mg.no_grad():
            y = (x * 2).exp().sum()
        assert y.grad_fn is None and not y.requires_grad and y.is_leaf

    def test_repr_shows_grad_fn(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        assert repr(x) == "tensor([1., 2.], requires_grad=True)"
        assert repr(x * 2) == "tensor([2., 4.], grad_fn=<MulBackward0>)"


# =================================================================================================
# Custom Functions
# =================================================================================================

def _make_functions(T):
    """The same user Functions, written against minigrad or PyTorch."""
    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return 2 * x * grad

    class Scale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.k, None

    class MulAdd(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, k):
            ctx.save_for_backward(a, b)
            ctx.k = k
            return a * b + k

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * a, None

    return Square, Scale, MulAdd


class TestCustomFunction:
    def test_node_name(self):
        Square, Scale, MulAdd = _make_functions(mg)
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = Square.apply(x)
        assert type(y.grad_fn).__name__ == "SquareBackward"
        assert y.grad_fn.name() == "SquareBackward"
        assert Scale.apply(x, 2.0).grad_fn.name() == "ScaleBackward"
        assert y.grad_fn.next_functions[0][0].variable is x

    def test_node_name_matches_pytorch(self, oracle):
        def run(T):
            Square, _, _ = _make_functions(T)
            return Square.apply(T.tensor([1.0], requires_grad=True)).grad_fn.name()
        assert oracle.same(run) == "SquareBackward"

    def test_save_for_backward_and_values(self):
        Square, _, _ = _make_functions(mg)
        x = mg.tensor([1.0, -3.0], requires_grad=True)
        y = Square.apply(x)
        assert y.tolist() == [1.0, 9.0]
        y.sum().backward()
        assert x.grad.tolist() == [2.0, -6.0]

    def test_saved_tensors_before_and_after_backward(self):
        Square, _, _ = _make_functions(mg)
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = Square.apply(x)
        saved = y.grad_fn.saved_tensors
        assert isinstance(saved, tuple) and len(saved) == 1 and saved[0] is x
        y.sum().backward()
        with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time"):
            y.grad_fn.saved_tensors

    def test_saved_tensors_survive_retain_graph(self):
        Square, _, _ = _make_functions(mg)
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = Square.apply(x)
        y.sum().backward(retain_graph=True)
        assert y.grad_fn.saved_tensors[0] is x

    def test_needs_input_grad(self):
        seen = []

        class F(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a, b, k):
                seen.append(ctx.needs_input_grad)
                return a * b * k

            @staticmethod
            def backward(ctx, grad):
                seen.append(ctx.needs_input_grad)
                return grad, grad, None

        a = mg.tensor([1.0], requires_grad=True)
        b = mg.tensor([2.0])
        F.apply(a, b, 3.0).sum().backward()
        assert seen == [(True, False, False), (True, False, False)]

    def test_needs_input_grad_matches_pytorch(self, oracle):
        def run(T):
            seen = []

            class F(T.autograd.Function):
                @staticmethod
                def forward(ctx, a, b, k, c):
                    seen.append(tuple(ctx.needs_input_grad))
                    return a * b * k * c

                @staticmethod
                def backward(ctx, grad):
                    return grad, grad, None, grad

            a = T.tensor([1.0], requires_grad=True)
            F.apply(a, T.tensor([2.0]), 3.0, T.tensor([1.0], requires_grad=True))
            return seen
        oracle.same(run)

    def test_non_tensor_args_get_none_gradients(self):
        _, Scale, MulAdd = _make_functions(mg)
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        Scale.apply(x, 3.0).sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]
        a = mg.tensor([1.0, 2.0], requires_grad=True)
        b = mg.tensor([3.0, 4.0], requires_grad=True)
        y = MulAdd.apply(a, b, 5.0)
        assert len(y.grad_fn.next_functions) == 2  # one edge per tensor input only
        y.sum().backward()
        assert a.grad.tolist() == [3.0, 4.0] and b.grad.tolist() == [1.0, 2.0]

    def test_gradient_for_non_tensor_arg_raises(self):
        class F(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a, k):
                return a * k

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, grad

        x = mg.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError) as e:
            F.apply(x, 3.0).sum().backward()
        assert str(e.value) == ("function FBackward returned a gradient different than None at "
                                "position 2, but the corresponding forward input was not a Variable")

    def test_wrong_number_of_gradients(self):
        class XBackwardMaker(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a * b

            @staticmethod
            def backward(ctx, grad):
                return grad

        a = mg.ones(2, 2, requires_grad=True)
        with pytest.raises(RuntimeError) as e:
            XBackwardMaker.apply(a, a).sum().backward()
        assert str(e.value) == ("function XBackwardMakerBackward returned an incorrect number of "
                                "gradients (expected 2, got 1)")

    def test_invalid_gradient_shape(self):
        class G(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, grad):
                return mg.ones(3)

        a = mg.ones(2, 2, requires_grad=True)
        with pytest.raises(RuntimeError) as e:
            G.apply(a).sum().backward()
        assert str(e.value) == ("Function GBackward returned an invalid gradient at index 0 - got [3] "
                                "but expected shape compatible with [2, 2]")

    def test_invalid_gradient_shape_one_element(self):
        """[1] is expandable to [2, 2], but PyTorch's message for it is the same: it is the
        gradient that must be expandable *from* the input shape, not the other way round."""
        class G(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, grad):
                return mg.ones(1)

        a = mg.ones(2, 2, requires_grad=True)
        with pytest.raises(RuntimeError) as e:
            G.apply(a).sum().backward()
        assert str(e.value) == ("Function GBackward returned an invalid gradient at index 0 - got [1] "
                                "but expected shape compatible with [2, 2]")

    def test_broadcast_gradient_is_summed_to_input_shape(self):
        class B(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a * 2 + b

            @staticmethod
            def backward(ctx, grad):
                # grad is [3, 2]; a is [2] and b is [1, 2]: both gradients broadcast
                return grad * 2, grad

        a = mg.tensor([1.0, 2.0], requires_grad=True)
        b = mg.tensor([[1.0, 2.0]], requires_grad=True)
        out = B.apply(a, b) + mg.zeros(3, 2)
        assert out.shape == (3, 2)
        out.sum().backward()
        assert a.grad.shape == (2,) and a.grad.tolist() == [6.0, 6.0]
        assert b.grad.shape == (1, 2) and b.grad.tolist() == [[3.0, 3.0]]

    def test_broadcast_gradient_matches_pytorch(self, oracle):
        def run(T):
            class B(T.autograd.Function):
                @staticmethod
                def forward(ctx, a):
                    return a * 2

                @staticmethod
                def backward(ctx, grad):
                    return grad.expand(4, 3) * T.arange(4.0).reshape(4, 1)

            a = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
            B.apply(a).sum().backward()
            return a.grad
        g, theirs = oracle.both(run)
        assert g.shape == (1, 3)
        _same(g, theirs)

    def test_composes_with_builtin_ops(self, oracle):
        def run(T):
            Square, Scale, MulAdd = _make_functions(T)
            x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
            w = T.tensor([1.5, 2.0, -0.5], requires_grad=True)
            h = Square.apply(x.exp() * w)
            y = MulAdd.apply(h, x, 1.0)
            z = (Scale.apply(y, 0.5) + h).log().sum()
            z.backward()
            return z, x.grad, w.grad
        for a, b in zip(*oracle.both(run)):
            _same(a, b, rtol=1e-5)

    def test_no_graph_when_no_input_requires_grad(self):
        Square, _, _ = _make_functions(mg)
        y = Square.apply(mg.tensor([2.0]))
        assert y.grad_fn is None and not y.requires_grad
        with mg.no_grad():
            y = Square.apply(mg.tensor([2.0], requires_grad=True))
        assert y.grad_fn is None and not y.requires_grad

    def test_forward_runs_without_recording(self):
        seen = []

        class F(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                b = a * 2
                seen.append((b.grad_fn, mg.is_grad_enabled()))
                return b

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        F.apply(mg.tensor([1.0], requires_grad=True))
        assert seen == [(None, False)]


# =================================================================================================
# backward: the engine
# =================================================================================================

class TestBackward:
    def test_diamond_runs_each_node_once_after_its_consumers(self):
        order = []
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        a = x * 2
        b = a.exp()
        c = a * 3
        d = b + c
        for name, t in (("a", a), ("b", b), ("c", c), ("d", d)):
            t.register_hook(lambda g, name=name: order.append((name, g.tolist())))
        d.sum().backward()
        names = [n for n, _ in order]
        assert sorted(names) == ["a", "b", "c", "d"]  # each exactly once
        assert names[0] == "d" and names[-1] == "a"
        grad_a = dict(order)["a"]
        np.testing.assert_allclose(grad_a, np.exp([2.0, 4.0]) + 3, rtol=1e-6)
        np.testing.assert_allclose(x.grad.tolist(), 2 * (np.exp([2.0, 4.0]) + 3), rtol=1e-6)

    def test_long_and_short_branch(self):
        """The short branch finishes first; ``a`` must still wait for the long one."""
        calls = []
        x = mg.tensor([0.1, 0.2], requires_grad=True)
        a = x * 1.0
        a.register_hook(lambda g: calls.append(g.tolist()))
        long = a
        for _ in range(20):
            long = long * 1.0 + 0.0
        y = (a + long).sum()
        y.backward()
        assert calls == [[2.0, 2.0]]
        assert x.grad.tolist() == [2.0, 2.0]

    def test_b_equals_a_plus_a(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        a = x * 3
        calls = []
        a.register_hook(lambda g: calls.append(g.tolist()))
        b = a + a
        b.sum().backward()
        assert calls == [[2.0, 2.0]]
        assert x.grad.tolist() == [6.0, 6.0]

    def test_node_reused_many_times(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        a = x.exp()
        calls = []
        a.register_hook(lambda g: calls.append(g.tolist()))
        y = a * 1
        for k in range(2, 51):
            y = y + a * k
        y.sum().backward()
        total = sum(range(1, 51))
        assert calls == [[float(total)] * 2]
        np.testing.assert_allclose(x.grad.tolist(), total * np.exp([1.0, 2.0]), rtol=1e-5)

    def test_gradients_sum_over_paths(self, oracle):
        def run(T):
            x = T.tensor([0.5, 1.5], requires_grad=True)
            y = T.tensor([2.0, -1.0], requires_grad=True)
            h = x * y
            z = (h * x + h.exp() * y - x / y).sum()
            z.backward()
            return x.grad, y.grad
        for a, b in zip(*oracle.both(run)):
            _same(a, b)

    def test_leaf_used_twice_in_one_op(self):
        x = mg.tensor([3.0], requires_grad=True)
        (x * x).backward()
        assert x.grad.tolist() == [6.0]

    def test_accumulation_across_calls(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]
        (x * 3).sum().backward()
        assert x.grad.tolist() == [6.0, 6.0]
        x.grad = None
        (x * 3).sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]

    def test_grad_is_not_aliased_to_a_gradient_used_elsewhere(self):
        a = mg.tensor([1.0], requires_grad=True)
        b = mg.tensor([1.0], requires_grad=True)
        (a + b).sum().backward()
        (a * 1).sum().backward()
        assert a.grad.tolist() == [2.0] and b.grad.tolist() == [1.0]

    def test_retain_graph_allows_second_backward(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sum()
        y.backward(retain_graph=True)
        first = x.grad.tolist()
        y.backward()
        np.testing.assert_allclose(x.grad.tolist(), 2 * np.array(first), rtol=1e-6)
        with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time"):
            y.backward()

    def test_graph_without_saved_tensors_can_be_rerun(self, oracle):
        """PyTorch only refuses when a node actually needs freed buffers."""
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            y = (x + 1).sum()
            y.backward()
            y.backward()
            return x.grad.tolist()
        assert oracle.same(run) == [2.0, 2.0]

    def test_second_backward_raises_like_pytorch(self, oracle):
        def run(T, make):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            y = make(x).sum()
            y.backward()
            try:
                y.backward()
                return None
            except RuntimeError as e:
                return str(e)
        makes = (lambda x: x * x, lambda x: x * 2, lambda x: x.exp(), lambda x: x + 1,
                 lambda x: x.relu(), lambda x: x.sum() * x)
        oracle.same(lambda T: [run(T, make) for make in makes])

    def test_saved_intermediate_freed_after_backward(self):
        x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x.exp()
        ref = weakref.ref(h)
        y = (h * h).sum()
        del h
        gc.collect()
        gc.disable()  # refcounting alone must free it, not the cycle collector
        try:
            assert ref() is not None  # MulBackward0 holds it
            y.backward()
            assert ref() is None
        finally:
            gc.enable()
        np.testing.assert_allclose(x.grad.tolist(), 2 * np.exp([2.0, 4.0, 6.0]), rtol=1e-5)

    def test_saved_intermediate_kept_with_retain_graph_until_graph_dropped(self):
        x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x.exp()
        ref = weakref.ref(h)
        y = (h * h).sum()
        del h
        gc.collect()
        gc.disable()
        try:
            y.backward(retain_graph=True)
            assert ref() is not None
            y.backward(retain_graph=True)
            assert ref() is not None
            del y
            assert ref() is None
        finally:
            gc.enable()

    def test_graph_freed_by_refcounting_without_backward(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x.exp()
        ref = weakref.ref(h)
        node = weakref.ref(h.grad_fn)
        y = (h * h).sum()
        del h
        gc.collect()
        gc.disable()
        try:
            del y
            assert ref() is None and node() is None
        finally:
            gc.enable()

    def test_long_chain_mul(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = x
        for _ in range(10_000):
            y = y * 1.0001
        y.sum().backward()
        expected = np.float32(1.0001) ** 10_000
        np.testing.assert_allclose(x.grad.tolist(), [expected] * 2, rtol=1e-3)
        del y  # dropping the 10,000-node graph must not overflow the stack either

    def test_long_chain_add(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = x
        for _ in range(10_000):
            y = y + x
        y.sum().backward()
        assert x.grad.tolist() == [10_001.0, 10_001.0]
        del y

    def test_long_chain_autograd_grad(self):
        x = mg.tensor([1.0], requires_grad=True)
        y = x
        for _ in range(10_000):
            y = y + x
        g, = mg.autograd.grad(y.sum(), x)
        assert g.tolist() == [10_001.0]

    def test_no_gradient_to_unused_leaves(self):
        a = mg.tensor([1.0], requires_grad=True)
        b = mg.tensor([1.0], requires_grad=True)
        c = mg.tensor([1.0])
        unrelated = b * 5  # b is in a graph, but not in this one
        (a * c).sum().backward()
        assert a.grad.tolist() == [1.0]
        assert b.grad is None
        assert c.grad is None
        del unrelated

    def test_no_gradient_through_none_returning_function(self):
        class Stop(mg.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a + b

            @staticmethod
            def backward(ctx, grad):
                return grad, None

        a = mg.tensor([1.0], requires_grad=True)
        b = mg.tensor([1.0], requires_grad=True)
        Stop.apply(a, b * 2).sum().backward()
        assert a.grad.tolist() == [1.0]
        assert b.grad is None

    def test_backward_with_gradient_for_vector_output(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
            y = x * x
            y.backward(T.tensor([1.0, 0.5, -1.0]))
            return x.grad
        g, theirs = oracle.both(run)
        assert g.tolist() == [2.0, 2.0, -6.0]
        _same(g, theirs)

    def test_backward_gradient_keyword(self):
        x = mg.tensor([[1.0, 2.0]], requires_grad=True)
        (x * 3).backward(gradient=mg.tensor([[2.0, 1.0]]))
        assert x.grad.tolist() == [[6.0, 3.0]]

    def test_backward_on_leaf(self):
        x = mg.tensor(2.0, requires_grad=True)
        x.backward()
        assert x.grad.tolist() == 1.0
        v = mg.tensor([1.0, 2.0], requires_grad=True)
        v.backward(mg.ones(2))
        assert v.grad.tolist() == [1.0, 1.0]

    def test_backward_inputs(self):
        a = mg.tensor([1.0, 2.0], requires_grad=True)
        b = mg.tensor([3.0, 4.0], requires_grad=True)
        (a * b).sum().backward(inputs=[a])
        assert a.grad.tolist() == [3.0, 4.0]
        assert b.grad is None
        (a * b).sum().backward(inputs=b)
        assert b.grad.tolist() == [1.0, 2.0]
        assert a.grad.tolist() == [3.0, 4.0]

    def test_backward_inputs_accumulates(self):
        a = mg.tensor([1.0, 2.0], requires_grad=True)
        (a * 2).sum().backward(inputs=[a])
        (a * 2).sum().backward(inputs=[a])
        assert a.grad.tolist() == [4.0, 4.0]

    def test_backward_inputs_non_leaf(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            h = x * 2
            (h * 3).sum().backward(inputs=[h])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return h.grad.tolist(), x.grad
        assert oracle.same(run) == ([3.0, 3.0], None)

    def test_backward_inputs_non_leaf_grad_does_not_warn(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        (h * 3).sum().backward(inputs=[h])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert h.grad.tolist() == [3.0, 3.0]

    def test_multiple_roots(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            h = x * 2
            y = (h * 3).sum()
            T.autograd.backward([h, y], [T.ones(2), T.tensor(1.0)])
            return x.grad
        g, theirs = oracle.both(run)
        assert g.tolist() == [8.0, 8.0]
        _same(g, theirs)

    def test_create_graph_backward(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                (x ** 3).sum().backward(create_graph=True)
            g = x.grad
            assert g.requires_grad and g.grad_fn is not None
            x.grad = None
            g.sum().backward()
            return g, x.grad
        a, b = oracle.both(run)
        assert a[0].tolist() == [3.0, 12.0] and a[1].tolist() == [6.0, 12.0]
        _same(a[0], b[0])
        _same(a[1], b[1])


# =================================================================================================
# autograd.grad and higher order
# =================================================================================================

class TestAutogradGrad:
    def test_values_and_grad_untouched(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        w = mg.tensor([3.0, -1.0], requires_grad=True)
        y = (x * w).sum()
        gx, gw = mg.autograd.grad(y, [x, w])
        assert gx.tolist() == [3.0, -1.0] and gw.tolist() == [1.0, 2.0]
        assert x.grad is None and w.grad is None
        assert not gx.requires_grad

    def test_returns_tuple(self):
        x = mg.tensor([1.0], requires_grad=True)
        r = mg.autograd.grad(x * 2, x, grad_outputs=mg.ones(1))
        assert isinstance(r, tuple) and len(r) == 1

    def test_does_not_populate_retained_grads_of_leaves(self):
        x = mg.tensor([1.0], requires_grad=True)
        x.grad = mg.tensor([5.0])
        mg.autograd.grad((x * 2).sum(), x)
        assert x.grad.tolist() == [5.0]

    def test_grad_outputs(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
            y = x.exp() * 2
            return T.autograd.grad(y, x, grad_outputs=T.tensor([1.0, -1.0, 0.5]))[0]
        _same(*oracle.both(run))

    def test_allow_unused_false_raises(self):
        a = mg.tensor([1.0], requires_grad=True)
        b = mg.tensor([1.0], requires_grad=True)
        with pytest.raises(RuntimeError) as e:
            mg.autograd.grad((a * 2).sum(), [a, b])
        assert str(e.value) == ("The differentiated Tensor at index 1 appears to not have been used "
                                "in the graph. Set allow_unused=True if this is the desired behavior.")

    def test_allow_unused_true_returns_none(self):
        a = mg.tensor([1.0], requires_grad=True)
        b = mg.tensor([1.0], requires_grad=True)
        ga, gb = mg.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)
        assert ga.tolist() == [2.0] and gb is None

    def test_allow_unused_matches_pytorch(self, oracle):
        def run(T):
            a = T.tensor([1.0], requires_grad=True)
            b = T.tensor([1.0], requires_grad=True)
            try:
                T.autograd.grad((a * 2).sum(), [a, b])
            except RuntimeError as e:
                msg = str(e)
            return msg, T.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)[1]
        oracle.same(run)

    def test_retain_graph(self):
        x = mg.tensor([1.0], requires_grad=True)
        y = (x.exp()).sum()
        mg.autograd.grad(y, x, retain_graph=True)
        mg.autograd.grad(y, x)
        with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time"):
            mg.autograd.grad(y, x)

    def test_grad_wrt_non_leaf_only_runs_needed_nodes(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x.exp()
        y = (h * 2).sum()
        gh, = mg.autograd.grad(y, h)
        assert gh.tolist() == [2.0, 2.0]
        gx, = mg.autograd.grad(h.sum(), x)  # ExpBackward0 was not needed above: still intact
        np.testing.assert_allclose(gx.tolist(), np.exp([1.0, 2.0]), rtol=1e-6)

    def test_power_derivatives(self, oracle):
        def run(T):
            x = T.tensor([0.5, -2.0, 3.0], requires_grad=True)
            y = (x ** 3).sum()
            d1, = T.autograd.grad(y, x, create_graph=True)
            d2, = T.autograd.grad(d1.sum(), x, create_graph=True)
            d3, = T.autograd.grad(d2.sum(), x)
            return d1, d2, d3
        ours, theirs = oracle.both(run)
        d1, d2, d3 = ours
        xs = np.array([0.5, -2.0, 3.0])
        np.testing.assert_allclose(d1.tolist(), 3 * xs ** 2, rtol=1e-6)
        np.testing.assert_allclose(d2.tolist(), 6 * xs, rtol=1e-6)
        np.testing.assert_allclose(d3.tolist(), [6.0, 6.0, 6.0], rtol=1e-6)
        assert d1.requires_grad and d2.requires_grad and not d3.requires_grad
        for a, b in zip(ours, theirs):
            _same(a, b)

    def test_exp_derivatives(self, oracle):
        def run(T):
            x = T.tensor([0.0, 1.0, -1.5], requires_grad=True)
            y = x.exp().sum()
            d1, = T.autograd.grad(y, x, create_graph=True)
            d2, = T.autograd.grad(d1.sum(), x, create_graph=True)
            d3, = T.autograd.grad(d2.sum(), x)
            return d1, d2, d3
        ex = np.exp([0.0, 1.0, -1.5])
        ours, theirs = oracle.both(run)
        for d in ours:
            np.testing.assert_allclose(d.tolist(), ex, rtol=1e-6)
        for a, b in zip(ours, theirs):
            _same(a, b)

    def test_composition_second_derivative(self, oracle):
        """f(x) = exp(x^2) / (1 + x): f'' checked against PyTorch."""
        def run(T):
            x = T.tensor([0.3, -0.7, 1.2], requires_grad=True)
            f = ((x * x).exp() / (1 + x)).sum()
            d1, = T.autograd.grad(f, x, create_graph=True)
            d2, = T.autograd.grad(d1.sum(), x)
            return d1, d2
        xs = np.array([0.3, -0.7, 1.2])
        ours, theirs = oracle.both(run)
        e = np.exp(xs ** 2)
        d1 = e * (2 * xs / (1 + xs) - 1 / (1 + xs) ** 2)
        np.testing.assert_allclose(ours[0].tolist(), d1, rtol=1e-5)
        for a, b in zip(ours, theirs):
            _same(a, b, rtol=1e-5)

    @pytest.mark.parametrize("name", ["tanh", "sigmoid", "log", "sqrt", "reciprocal", "softmax"])
    def test_second_derivative_of_unary_ops(self, oracle, name):
        def run(T):
            x = T.tensor([0.3, 0.9, 1.7], requires_grad=True)
            f = getattr(x, name)(0) if name == "softmax" else getattr(x, name)()
            f = (f * T.tensor([1.0, -2.0, 0.5])).sum()
            d1, = T.autograd.grad(f, x, create_graph=True)
            d2, = T.autograd.grad(d1.sum(), x)
            return d1, d2
        for a, b in zip(*oracle.both(run)):
            _same(a, b, rtol=1e-5, atol=1e-6)

    def test_mixed_partials(self, oracle):
        def run(T):
            x = T.tensor(2.0, requires_grad=True)
            y = T.tensor(3.0, requires_grad=True)
            f = x * y * y
            dx, dy = T.autograd.grad(f, [x, y], create_graph=True)
            dxy, = T.autograd.grad(dx, y, retain_graph=True)
            dyx, dyy = T.autograd.grad(dy, [x, y])
            return dx, dy, dxy, dyx, dyy
        ours, theirs = oracle.both(run)
        assert [t.item() for t in ours] == [9.0, 12.0, 6.0, 6.0, 4.0]
        for a, b in zip(ours, theirs):
            _same(a, b)

    def test_gradient_penalty(self, oracle):
        def run(T):
            x = T.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
            w = T.tensor([[1.0, 2.0], [-1.0, 0.5]], requires_grad=True)
            out = ((x @ w).tanh() * x).sum()
            g, = T.autograd.grad(out, x, create_graph=True)
            penalty = (g ** 2).sum()
            penalty.backward()
            return g, x.grad, w.grad
        ours, theirs = oracle.both(run)
        assert ours[1] is not None and ours[2] is not None
        for a, b in zip(ours, theirs):
            _same(a, b, rtol=1e-5)

    def test_create_graph_result_is_differentiable_and_retains(self):
        x = mg.tensor([2.0], requires_grad=True)
        y = (x ** 2).sum()
        g, = mg.autograd.grad(y, x, create_graph=True)
        assert g.requires_grad and g.grad_fn is not None
        mg.autograd.grad(y, x)  # create_graph implies retain_graph


# =================================================================================================
# Hooks, retain_grad, the non-leaf .grad warning
# =================================================================================================

class TestHooks:
    def test_leaf_hook_modifies_grad(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 10)
        (x * 3).sum().backward()
        assert x.grad.tolist() == [30.0, 30.0]

    def test_leaf_hook_observes(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        x.register_hook(lambda g: seen.append(g.tolist()))
        (x * x).sum().backward()
        assert seen == [[2.0, 4.0]]
        assert x.grad.tolist() == [2.0, 4.0]

    def test_leaf_hook_gets_summed_gradient_once(self):
        x = mg.tensor([1.0], requires_grad=True)
        seen = []
        x.register_hook(lambda g: seen.append(g.tolist()))
        (x * 2 + x * 3 + x.exp()).sum().backward()
        assert len(seen) == 1
        np.testing.assert_allclose(seen[0], [5 + np.e], rtol=1e-6)

    def test_non_leaf_hook_modifies_downstream(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        h.register_hook(lambda g: g * 10)
        (h * 3).sum().backward()
        assert x.grad.tolist() == [60.0, 60.0]

    def test_non_leaf_hook_observes(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        seen = []
        h.register_hook(lambda g: seen.append(g.tolist()))
        (h * h).sum().backward()
        assert seen == [[4.0, 8.0]]
        assert x.grad.tolist() == [8.0, 16.0]

    def test_hooks_chain_in_registration_order(self):
        x = mg.tensor([1.0], requires_grad=True)
        h = x * 1
        h.register_hook(lambda g: g + 1)
        h.register_hook(lambda g: g * 10)
        h.sum().backward()
        assert x.grad.tolist() == [20.0]

    def test_handle_remove(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        hl = x.register_hook(lambda g: g * 100)
        hh = h.register_hook(lambda g: g * 10)
        hl.remove()
        hh.remove()
        (h * 1).sum().backward()
        assert x.grad.tolist() == [2.0, 2.0]
        hl.remove()  # removing twice is harmless

    def test_hooks_match_pytorch(self, oracle):
        def run(T):
            x = T.tensor([1.0, -2.0], requires_grad=True)
            h = x.exp()
            seen = []
            h.register_hook(lambda g: seen.append(g.tolist()))
            h.register_hook(lambda g: g * 2)
            x.register_hook(lambda g: g + 1)
            (h * x).sum().backward()
            return seen, x.grad.tolist()
        a, b = oracle.both(run)
        assert a[0] == b[0]
        np.testing.assert_allclose(a[1], b[1], rtol=1e-6)

    def test_leaf_hook_applies_to_autograd_grad(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 2)
        g, = mg.autograd.grad((x * 3).sum(), x)
        assert g.tolist() == [6.0, 6.0]

    def test_leaf_hook_applies_to_backward_inputs(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 2)
        (x * 3).sum().backward(inputs=[x])
        assert x.grad.tolist() == [6.0, 6.0]

    def test_register_hook_on_tensor_without_grad(self):
        with pytest.raises(RuntimeError) as e:
            mg.ones(2).register_hook(lambda g: g)
        assert str(e.value) == "cannot register a hook on a tensor that doesn't require gradient"

    def test_retain_grad_populates_without_warning(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        h.retain_grad()
        assert h.retains_grad and not x.retains_grad
        (h * h).sum().backward()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert h.grad.tolist() == [4.0, 8.0]

    def test_retain_grad_accumulates_with_retained_graph(self):
        x = mg.tensor([1.0], requires_grad=True)
        h = x * 2
        h.retain_grad()
        y = (h * 3).sum()
        y.backward(retain_graph=True)
        y.backward()
        assert h.grad.tolist() == [6.0]

    def test_retain_grad_sees_hook_result(self, oracle):
        def run(T):
            x = T.tensor([1.0], requires_grad=True)
            h = x * 2
            h.retain_grad()
            h.register_hook(lambda g: g * 5)  # registered after retain_grad: still applies first
            (h * 3).sum().backward()
            return h.grad.tolist(), x.grad.tolist()
        assert oracle.same(run) == ([15.0], [30.0])

    def test_retain_grad_on_leaf_is_noop(self):
        x = mg.tensor([1.0], requires_grad=True)
        x.retain_grad()
        assert not x.retains_grad
        (x * 2).sum().backward()
        assert x.grad.tolist() == [2.0]

    def test_non_leaf_grad_warns_and_is_none(self):
        x = mg.tensor([1.0], requires_grad=True)
        h = x * 2
        (h * 3).sum().backward()
        with pytest.warns(UserWarning) as rec:
            g = h.grad
        assert g is None
        assert str(rec[0].message).startswith(
            "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed.")

    def test_leaf_grad_does_not_warn(self):
        x = mg.tensor([1.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert x.grad is None
            assert mg.ones(1).grad is None

    def test_retain_grad_then_inplace(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            h = x * 2
            h.retain_grad()
            h.mul_(3)
            (h * 5).sum().backward()
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                return h.retains_grad, h.grad.tolist()
        assert oracle.same(run) == (True, [5.0, 5.0])

    def test_hook_then_inplace_sees_old_value_gradient(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            h = x * 2
            seen = []
            h.register_hook(lambda g: seen.append(g.tolist()))
            h.mul_(3)
            (h * 5).sum().backward()
            return seen, x.grad.tolist()
        oracle.same(run)


# =================================================================================================
# Grad mode
# =================================================================================================

class TestGradMode:
    def test_no_grad(self):
        x = mg.tensor([1.0], requires_grad=True)
        assert mg.is_grad_enabled()
        with mg.no_grad():
            assert not mg.is_grad_enabled()
            y = x * 2
        assert mg.is_grad_enabled()
        assert y.grad_fn is None and not y.requires_grad

    def test_no_grad_restores_after_exception(self):
        with pytest.raises(ValueError):
            with mg.no_grad():
                raise ValueError
        assert mg.is_grad_enabled()

    def test_enable_grad_inside_no_grad(self):
        x = mg.tensor([1.0], requires_grad=True)
        with mg.no_grad():
            with mg.enable_grad():
                assert mg.is_grad_enabled()
                y = x * 2
            assert not mg.is_grad_enabled()
            z = x * 2
        assert y.grad_fn.name() == "MulBackward0"
        assert z.grad_fn is None

    def test_nested_no_grad(self):
        with mg.no_grad():
            with mg.no_grad():
                pass
            assert not mg.is_grad_enabled()
        assert mg.is_grad_enabled()

    def test_set_grad_enabled_plain_call(self):
        x = mg.tensor([1.0], requires_grad=True)
        mg.set_grad_enabled(False)
        try:
            assert not mg.is_grad_enabled()
            assert (x * 2).grad_fn is None
        finally:
            mg.set_grad_enabled(True)
        assert mg.is_grad_enabled()
        assert (x * 2).grad_fn is not None

    def test_set_grad_enabled_context_manager(self):
        x = mg.tensor([1.0], requires_grad=True)
        with mg.set_grad_enabled(False):
            assert not mg.is_grad_enabled()
            y = x * 2
            with mg.set_grad_enabled(True):
                z = x * 2
            assert not mg.is_grad_enabled()
        assert mg.is_grad_enabled()
        assert y.grad_fn is None and z.grad_fn is not None
        with mg.no_grad():
            with mg.set_grad_enabled(True):
                assert mg.is_grad_enabled()
            assert not mg.is_grad_enabled()

    def test_set_grad_enabled_decorator(self):
        @mg.set_grad_enabled(False)
        def f(x):
            assert not mg.is_grad_enabled()
            return x * 2

        assert mg.is_grad_enabled()  # decorating does not switch the mode
        y = f(mg.tensor([1.0], requires_grad=True))
        assert y.grad_fn is None
        assert mg.is_grad_enabled()

    def test_no_grad_decorator(self):
        @mg.no_grad()
        def f(x):
            return x * 2

        assert f.__name__ == "f"
        assert f(mg.tensor([1.0], requires_grad=True)).grad_fn is None
        assert mg.is_grad_enabled()

    def test_enable_grad_decorator(self):
        @mg.enable_grad()
        def f(x):
            return x * 2

        with mg.no_grad():
            y = f(mg.tensor([1.0], requires_grad=True))
        assert y.grad_fn is not None

    def test_no_grad_bare_decorator(self):
        @mg.no_grad
        def f(x):
            return x * 2

        assert f(mg.tensor([1.0], requires_grad=True)).grad_fn is None

    def test_bare_decorator_in_pytorch(self, oracle):
        def run(T):
            @T.no_grad
            def f(x):
                return x * 2

            return f(T.tensor([1.0], requires_grad=True)).grad_fn is None
        assert oracle.same(run) is True

    def test_grad_mode_is_thread_local(self):
        seen = []
        with mg.no_grad():
            t = threading.Thread(target=lambda: seen.append(mg.is_grad_enabled()))
            t.start()
            t.join()
        assert seen == [True]

    def test_ops_follow_their_own_threads_mode(self, oracle):
        # Ops read counts that grad_mode shares between threads before their thread's own flag:
        # another thread inside no_grad and inference_mode must change nothing here.
        from minigrad.core import grad_mode
        before = (len(grad_mode.not_recording), len(grad_mode.in_inference))

        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            other, inside, leave = {}, threading.Event(), threading.Event()

            def elsewhere():
                with T.no_grad(), T.inference_mode():
                    y = x * 2
                    other.update(grad_fn=y.grad_fn, is_inference=y.is_inference())
                    inside.set()
                    leave.wait()

            t = threading.Thread(target=elsewhere)
            t.start()
            inside.wait()
            try:
                y = x * 2
                made = {"grad_fn": type(y.grad_fn).__name__, "is_inference": y.is_inference()}
                v = y[:1]
                v.mul_(3)  # a view made with grad mode on may be changed in place (not under no_grad)
            finally:
                leave.set()
                t.join()
            y.sum().backward()
            return {"other": other, "made": made, "y": y, "v": v, "x.grad": x.grad}

        oracle.same(run)
        assert (len(grad_mode.not_recording), len(grad_mode.in_inference)) == before

    def test_sgd_step_under_no_grad(self):
        w = mg.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * w).sum()
        loss.backward()
        v = w._version
        with mg.no_grad():
            w -= 0.1 * w.grad
            w.add_(1.0)
            w.mul_(2.0)
        assert w.is_leaf and w.grad_fn is None and w.requires_grad
        assert w._version == v + 3
        np.testing.assert_allclose(w.tolist(), [(0.8 + 1) * 2, (1.6 + 1) * 2], rtol=1e-6)
        w.grad.zero_()
        (w * 3).sum().backward()  # still trains as a leaf
        assert w.grad.tolist() == [3.0, 3.0]

    def test_sgd_step_matches_pytorch(self, oracle):
        def run(T):
            w = T.tensor([0.5, -1.5, 1.0], requires_grad=True)
            for _ in range(3):
                loss = ((w * w).exp() - w).sum()
                loss.backward()
                with T.no_grad():
                    w.sub_(0.01 * w.grad)
                w.grad.zero_()
            return w
        _same(*oracle.both(run), rtol=1e-5)


class TestAutogradGradErrorOrder:
    """autograd.grad checks its outputs before its inputs: the error names the first problem."""

    def test_output_without_grad_before_input_without_grad(self, oracle):
        def fn(lib):
            x = lib.linspace(-2, 2, 5)  # requires no grad: neither does tanh(x).sum()
            return lib.autograd.grad(lib.tanh(x).sum(), x)
        oracle.same_error(fn)

    def test_non_scalar_output_before_input_without_grad(self, oracle):
        def fn(lib):
            x = lib.ones(3, requires_grad=True)
            return lib.autograd.grad(lib.tanh(x), lib.ones(3))
        oracle.same_error(fn)


# =================================================================================================
# Inference mode
# =================================================================================================

class TestInferenceMode:
    """inference_mode: no_grad, plus tensors that may never join a recorded graph afterwards."""

    def test_modes_inside_and_after(self, oracle):
        def run(lib):
            w = lib.ones(3, requires_grad=True)
            seen = {}
            with lib.inference_mode():
                x = lib.ones(3)
                y = w * 2
                seen["inside"] = [lib.is_grad_enabled(), lib.is_inference_mode_enabled(),
                                  x.is_inference(), y.is_inference(), y.requires_grad,
                                  y.grad_fn is None, w[:2].is_inference()]
                with lib.enable_grad():  # grad mode on, yet nothing is recorded
                    seen["enable_grad"] = [lib.is_grad_enabled(), (w * 2).requires_grad]
                with lib.inference_mode(False):  # off again, and grad mode with it
                    seen["off"] = [lib.is_grad_enabled(), lib.is_inference_mode_enabled(),
                                   lib.ones(1).is_inference(), (w * 2).requires_grad]
                seen["back"] = [lib.is_grad_enabled(), lib.is_inference_mode_enabled()]
            with lib.no_grad():
                with lib.inference_mode(False):
                    seen["off_in_no_grad"] = lib.is_grad_enabled()
            seen["after"] = [lib.is_grad_enabled(), lib.is_inference_mode_enabled(),
                             lib.ones(1).is_inference(), w.is_inference(), x.is_inference(),
                             x.detach().is_inference(), x.clone().is_inference()]
            return seen
        oracle.same(run)

    def test_decorator_forms(self, oracle):
        def run(lib):
            @lib.inference_mode
            def bare(a):
                return a * 2

            @lib.inference_mode()
            def called(a):
                return a * 2

            @lib.inference_mode(False)
            def off(a):
                return a * 2
            w = lib.ones(2, requires_grad=True)
            return [[f(w).is_inference(), f(w).requires_grad] for f in (bare, called, off)] + [
                lib.is_inference_mode_enabled()]
        oracle.same(run)

    def test_inference_tensor_usable_where_nothing_is_saved(self, oracle):
        def run(lib):
            with lib.inference_mode():
                x = lib.tensor([1.0, 2.0, 3.0])
            w = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
            (x + w).sum().backward()  # add saves nothing: allowed
            first = w.grad.clone()
            w.grad = None
            (x.clone() * w).sum().backward()  # the clone is a normal tensor
            return [first, w.grad, lib.exp(x)]
        oracle.same(run)

    def test_saving_an_inference_tensor_raises(self, oracle):
        def fn(lib):
            with lib.inference_mode():
                x = lib.ones(3)
            w = lib.ones(3, requires_grad=True)
            return w * x  # mul saves x for w's gradient
        oracle.same_error(fn)

    def test_saving_in_a_custom_function_raises(self, oracle):
        def fn(lib):
            class Product(lib.autograd.Function):
                @staticmethod
                def forward(ctx, a, b):
                    ctx.save_for_backward(a, b)
                    return a * b

                @staticmethod
                def backward(ctx, g):
                    a, b = ctx.saved_tensors
                    return g * b, g * a
            with lib.inference_mode():
                x = lib.ones(3)
            return Product.apply(lib.ones(3, requires_grad=True), x)
        oracle.same_error(fn)

    def test_inplace_outside_raises(self, oracle):
        def fn(lib):
            with lib.inference_mode():
                x = lib.ones(3)
            x.mul_(2)
        oracle.same_error(fn)

    def test_item_assignment_outside_raises(self, oracle):
        def fn(lib):
            with lib.inference_mode():
                x = lib.ones(3)
            x[0] = 5.0
        oracle.same_error(fn)

    def test_requires_grad_outside_raises(self, oracle):
        def fn(lib):
            with lib.inference_mode():
                x = lib.ones(3)
            x.requires_grad_()
        oracle.same_error(fn)

    def test_inplace_inside_is_allowed(self, oracle):
        def run(lib):
            w = lib.ones(3)
            with lib.inference_mode():
                x = lib.ones(3)
                x.add_(1)
                w.mul_(3)  # a normal tensor may be changed inside
            return [x, w, w._version]
        oracle.same(run)

    def test_inference_tensors_have_no_version_counter(self, oracle):
        def fn(lib):
            with lib.inference_mode():
                x = lib.ones(3)
            return x._version
        oracle.same_error(fn)

    def test_restores_after_exception(self):
        with pytest.raises(ValueError):
            with mg.inference_mode():
                raise ValueError
        assert mg.is_grad_enabled() and not mg.is_inference_mode_enabled()


# =================================================================================================
# In-place ops
# =================================================================================================

class TestInplace:
    def test_version_counter(self, oracle):
        def run(T):
            x = T.ones(3)
            versions = [x._version]
            x.add_(1)
            versions.append(x._version)
            x.mul_(2)
            x.sub_(1)
            x.div_(2)
            versions.append(x._version)
            x.zero_()
            x.fill_(2.0)
            x.copy_(T.ones(3))
            x.clamp_(0, 1)
            versions.append(x._version)
            x += 1
            versions.append(x._version)
            return versions
        assert oracle.same(run) == [0, 1, 4, 8, 9]

    def test_out_of_place_does_not_bump_version(self):
        x = mg.ones(3)
        _ = x + 1, x * 2, x.exp()
        assert x._version == 0

    @pytest.mark.parametrize("op, values, name", [
        (lambda h: h.add_(1), [3.0, 5.0], "AddBackward0"),
        (lambda h: h.add_(mg.tensor([1.0, 1.0]), alpha=2), [4.0, 6.0], "AddBackward0"),
        (lambda h: h.sub_(1), [1.0, 3.0], "SubBackward0"),
        (lambda h: h.mul_(3), [6.0, 12.0], "MulBackward0"),
        (lambda h: h.div_(2), [1.0, 2.0], "DivBackward0"),
        (lambda h: h.zero_(), [0.0, 0.0], "ZeroBackward0"),
        (lambda h: h.fill_(7.0), [7.0, 7.0], "FillBackward2"),
        (lambda h: h.copy_(mg.tensor([9.0, 8.0])), [9.0, 8.0], "CopyBackwards"),
        (lambda h: h.clamp_(2.5, 3.5), [2.5, 3.5], "ClampBackward1"),
    ])
    def test_values_and_grad_fn_names(self, op, values, name):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        out = op(h)
        assert out is h
        assert h.tolist() == values
        assert type(h.grad_fn).__name__ == name
        assert h._version == 1
        assert not h.is_leaf and h.requires_grad

    def test_grad_fn_names_match_pytorch(self, oracle):
        def run(T):
            ops = [lambda h: h.add_(1), lambda h: h.sub_(1), lambda h: h.mul_(3), lambda h: h.div_(2),
                   lambda h: h.zero_(), lambda h: h.fill_(7.0), lambda h: h.copy_(T.ones(2)),
                   lambda h: h.clamp_(0, 1)]
            out = []
            for op in ops:
                h = T.tensor([1.0, 2.0], requires_grad=True) * 2
                op(h)
                out.append(type(h.grad_fn).__name__)
            return out
        oracle.same(run)

    def test_copy_grad_fn_name_matches_pytorch(self, oracle):
        def run(T):
            h = T.tensor([1.0, 2.0], requires_grad=True) * 2
            h.copy_(T.ones(2))
            return h.grad_fn.name()
        assert oracle.same(run) == "torch::autograd::CopyBackwards"

    def test_gradients_through_inplace_match_pytorch(self, oracle):
        def run(T):
            x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
            y = T.tensor([1.5, 0.5, -0.25], requires_grad=True)
            h = x * 2
            h.add_(y)
            h.mul_(x)
            h.sub_(y, alpha=2)
            h.div_(y + 3)
            h.clamp_(-0.5, 1.0)
            h += x * y
            h *= 2
            out = (h * h).sum() + h.exp().sum()
            out.backward()
            return out, x.grad, y.grad
        for a, b in zip(*oracle.both(run)):
            _same(a, b, rtol=1e-5)

    @pytest.mark.parametrize("op", ["zero_", "fill_", "copy_"])
    def test_overwriting_ops_gradients_match_pytorch(self, oracle, op):
        def run(T):
            x = T.tensor([0.5, -1.0], requires_grad=True)
            y = T.tensor([1.5, 0.5], requires_grad=True)
            h = x * 2
            if op == "zero_":
                h.zero_()
            elif op == "fill_":
                h.fill_(3.0)
            else:
                h.copy_(y * 3)
            (h * y + h).sum().backward()
            return x.grad, y.grad
        for a, b in zip(*oracle.both(run)):
            _same(a, b)

    def test_inplace_on_non_requiring_tensor_with_grad_argument(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            c = T.zeros(2)
            c.add_(x * 3)
            assert not c.is_leaf and c.requires_grad
            assert type(c.grad_fn).__name__ == "AddBackward0"
            (c * c).sum().backward()
            return x.grad
        _same(*oracle.both(run))

    def test_inplace_on_leaf_raises(self):
        x = mg.tensor([1.0], requires_grad=True)
        with pytest.raises(RuntimeError, match=r"^a leaf Variable that requires grad is being used "
                                               r"in an in-place operation\.$"):
            x.mul_(2)

    def test_modified_saved_tensor_raises(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        y = (h * h).sum()
        h.add_(1)
        with pytest.raises(RuntimeError, match=r"^one of the variables needed for gradient "
                                               r"computation has been modified by an inplace operation"):
            y.backward()

    def test_modified_saved_output_raises(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x.exp()  # ExpBackward0 saves its output
        y = h.sum()
        h.mul_(2)
        with pytest.raises(RuntimeError, match=r"which is output 0 of Exp, is at version 1; "
                                               r"expected version 0 instead"):
            y.backward()

    def test_modified_unsaved_tensor_is_fine(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            h = x * 2
            y = (h + 1).sum()  # AddBackward0 saves nothing
            h.mul_(5)
            y.backward()
            return x.grad
        _same(*oracle.both(run))

    def test_modified_leaf_under_no_grad_detected(self):
        w = mg.tensor([1.0, 2.0], requires_grad=True)
        y = (w * w).sum()
        with mg.no_grad():
            w.add_(1)
        with pytest.raises(RuntimeError) as e:
            y.backward()
        assert str(e.value).startswith(
            "one of the variables needed for gradient computation has been modified by an inplace "
            "operation: [torch.FloatTensor [2]] is at version 1; expected version 0 instead.")

    def test_detach_shares_version_counter(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x.exp()
        y = (h * h).sum()
        d = h.detach()
        assert d._version == h._version == 0
        d.add_(1)
        assert h._version == 1
        with pytest.raises(RuntimeError, match=r"modified by an inplace operation.*output 0 of Exp"):
            y.backward()

    def test_data_does_not_share_version_counter(self, oracle):
        def run(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            h = x.exp()
            y = (h * h).sum()
            d = h.data
            d.add_(1)
            assert h._version == 0
            y.backward()  # not detected: every saved use of h sees the modified values
            return x.grad
        g, theirs = oracle.both(run)
        e = np.exp([1.0, 2.0])
        np.testing.assert_allclose(g.tolist(), 2 * (e + 1) * (e + 1), rtol=1e-5)
        _same(g, theirs, rtol=1e-5)

    def test_detach_shares_data(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        d = x.detach()
        d.add_(1)
        assert x.tolist() == [2.0, 3.0]


# =================================================================================================
# Anomaly detection
# =================================================================================================

def _nan_div(T):
    x = T.tensor([0.0, 1.0], requires_grad=True)
    return (x / x).sum()


def _nan_sqrt(T):
    x = T.tensor([0.0, 4.0], requires_grad=True)
    return (x.sqrt() * 0).sum()


class TestAnomaly:
    ENTRY = ("Anomaly Detection has been enabled. This mode will increase the runtime and should "
             "only be enabled for debugging.")

    def test_warns_on_entry(self):
        with pytest.warns(UserWarning) as rec:
            with mg.autograd.detect_anomaly():
                assert anomaly_mode.is_anomaly_enabled()
        assert str(rec[0].message) == self.ENTRY
        assert not anomaly_mode.is_anomaly_enabled()

    @pytest.mark.parametrize("make, message", [
        (_nan_div, "Function 'DivBackward0' returned nan values in its 1th output."),
        (_nan_sqrt, "Function 'SqrtBackward0' returned nan values in its 0th output."),
    ])
    def test_nan_raises_and_warns_with_forward_trace(self, make, message):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            with np.errstate(all="ignore"):
                with mg.autograd.detect_anomaly():
                    y = make(mg)
                    with pytest.raises(RuntimeError) as e:
                        y.backward()
        assert str(e.value) == message
        msgs = [str(w.message) for w in rec if w.category is UserWarning]
        node = message.split("'")[1]
        trace = [m for m in msgs if m.startswith(f"Error detected in {node}. Traceback of forward "
                                                 "call that caused the error:\n")]
        assert len(trace) == 1
        assert make.__name__ in trace[0]  # names the forward code that built the node

    @pytest.mark.parametrize("make", [_nan_div, _nan_sqrt])
    def test_nan_message_matches_pytorch(self, oracle, make):
        def run(T):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with np.errstate(all="ignore"):
                    with T.autograd.detect_anomaly():
                        try:
                            make(T).backward()
                        except RuntimeError as e:
                            return str(e)
        oracle.same(run)

    def test_without_anomaly_nan_passes_silently(self):
        with np.errstate(all="ignore"):
            x = mg.tensor([0.0, 4.0], requires_grad=True)
            (x.sqrt() * 0).sum().backward()
        assert np.isnan(x.grad.tolist()[0])

    def test_check_nan_false(self):
        x = mg.tensor([0.0, 4.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                with mg.autograd.detect_anomaly(check_nan=False):
                    (x.sqrt() * 0).sum().backward()
        assert np.isnan(x.grad.tolist()[0])

    def test_set_detect_anomaly_plain_call(self):
        mg.autograd.set_detect_anomaly(True)
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with pytest.raises(RuntimeError, match="returned nan values"):
                    _nan_sqrt(mg).backward()
        finally:
            mg.autograd.set_detect_anomaly(False)
        assert not anomaly_mode.is_anomaly_enabled()

    def test_set_detect_anomaly_context_manager(self):
        with mg.autograd.set_detect_anomaly(True):
            assert anomaly_mode.is_anomaly_enabled()
        assert not anomaly_mode.is_anomaly_enabled()


# =================================================================================================
# gradcheck
# =================================================================================================

def _cube_functions(T, wrong):
    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * (2 if wrong else 3) * x ** 2
    return Cube


class TestGradcheck:
    def test_correct_function_passes(self):
        Cube = _cube_functions(mg, wrong=False)
        x = mg.tensor([0.5, -1.2, 2.0], dtype=mg.float64, requires_grad=True)
        assert mg.autograd.gradcheck(Cube.apply, (x,)) is True

    def test_builtin_composition_passes(self):
        x = mg.tensor([[0.5, -1.2], [2.0, 0.3]], dtype=mg.float64, requires_grad=True)
        w = mg.tensor([[1.0, 0.5], [-0.5, 2.0]], dtype=mg.float64, requires_grad=True)
        assert mg.autograd.gradcheck(lambda a, b: (a @ b).tanh() * a, (x, w)) is True

    def test_wrong_function_raises(self):
        Cube = _cube_functions(mg, wrong=True)
        x = mg.tensor([0.5, -1.2, 2.0], dtype=mg.float64, requires_grad=True)
        with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to input 0"):
            mg.autograd.gradcheck(Cube.apply, (x,))

    def test_wrong_function_returns_false(self):
        Cube = _cube_functions(mg, wrong=True)
        x = mg.tensor([0.5, -1.2, 2.0], dtype=mg.float64, requires_grad=True)
        assert mg.autograd.gradcheck(Cube.apply, (x,), raise_exception=False) is False

    def test_agrees_with_pytorch(self, oracle):
        def run(T):
            results = []
            for wrong in (False, True):
                Cube = _cube_functions(T, wrong)
                x = T.tensor([0.5, -1.2, 2.0], dtype=T.float64, requires_grad=True)
                results.append(T.autograd.gradcheck(Cube.apply, (x,), raise_exception=False))
            return results
        assert oracle.same(run) == [True, False]

    def test_does_not_leave_grads(self):
        Cube = _cube_functions(mg, wrong=False)
        x = mg.tensor([0.5, 1.0], dtype=mg.float64, requires_grad=True)
        mg.autograd.gradcheck(Cube.apply, (x,))
        assert x.grad is None
        assert x.tolist() == [0.5, 1.0]


def test_backward_create_graph_warns_and_grad_is_a_differentiable_copy(oracle):
    def run(lib):
        x = lib.tensor(2.0, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (x ** 3).backward(create_graph=True)
        g, = lib.autograd.grad(x.grad, x)  # d/dx of 3x^2
        # (PyTorch warns once per process, so only minigrad's warning is checked, every time)
        warned = any("create_graph=True will create a reference cycle" in str(w.message) for w in caught)
        return repr(x.grad), g.item(), warned if lib is mg else None
    mine, theirs = oracle.both(run)
    assert mine[:2] == theirs[:2] == ("tensor(12., grad_fn=<CopyBackwards>)", 12.0)
    assert mine[2] is True


class TestGradientBuffers:
    """A leaf may keep a new gradient array as its .grad without a copy (as PyTorch does),
    but never one that something else still holds."""

    def test_leaf_keeps_a_new_gradient_and_later_passes_add_in_place(self):
        w = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        x = mg.tensor([[1.0, 0.0], [0.0, 1.0]])
        (x @ w).sum().backward()
        first = w.grad
        np.testing.assert_array_equal(first.numpy(), [[1, 1], [1, 1]])
        (x @ w).sum().backward()
        assert w.grad is first  # accumulated in place, as PyTorch does
        np.testing.assert_array_equal(w.grad.numpy(), [[2, 2], [2, 2]])

    def test_linear_layers_keep_their_new_gradients(self, monkeypatch):
        """Every Linear layer's weight gradient passes through weight.t()'s node (a view of a
        gradient the matmul made): still new, so kept without a copy, as the bias's sum is."""
        from minigrad.core import node as autograd_function
        accumulate, owned = autograd_function._accumulate, {}
        def spy(tensor, grad, own=False):
            owned[tuple(tensor.shape)] = own
            return accumulate(tensor, grad, own)
        monkeypatch.setattr(autograd_function, "_accumulate", spy)
        model = mg.nn.Sequential(mg.nn.Linear(4, 3), mg.nn.ReLU(), mg.nn.Linear(3, 2))
        mg.nn.functional.cross_entropy(model(mg.randn(5, 4)), mg.tensor([0, 1, 1, 0, 1])).backward()
        assert owned == {(3, 4): True, (3,): True, (2, 3): True, (2,): True}

    def test_one_gradient_sent_to_two_leaves_is_not_shared(self):
        a = mg.tensor([1.0, 2.0], requires_grad=True)
        b = mg.tensor([3.0, 4.0], requires_grad=True)
        (a + b).sum().backward()  # AddBackward0 sends the same gradient to both
        a.grad.mul_(10)
        np.testing.assert_array_equal(b.grad.numpy(), [1, 1])
        assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
        a.grad = b.grad = None
        ((a + b) * mg.tensor([5.0, 6.0])).sum().backward()  # the same, with a gradient MulBackward0 made
        a.grad.mul_(10)
        np.testing.assert_array_equal(b.grad.numpy(), [5, 6])
        assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())

    def test_callers_gradient_is_never_adopted(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        g = mg.tensor([5.0, 6.0])
        x.clone().backward(g)  # CloneBackward0 passes g on unchanged
        x.clone().backward(g)
        np.testing.assert_array_equal(g.numpy(), [5, 6])
        np.testing.assert_array_equal(x.grad.numpy(), [10, 12])
        x.grad = None
        x.backward(g)  # a leaf as the root: g itself reaches AccumulateGrad
        x.grad.zero_()
        np.testing.assert_array_equal(g.numpy(), [5, 6])

    def test_a_gradient_a_hook_kept_is_not_adopted(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        kept = []
        x.register_hook(lambda grad: kept.append(grad))
        (x * 3).sum().backward()
        x.grad.zero_()
        np.testing.assert_array_equal(kept[0].numpy(), [3, 3])

    def test_a_gradient_a_hook_on_an_inner_tensor_kept_is_not_adopted(self):
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = x.clone()  # CloneBackward0 passes on the gradient the hook saw
        kept = []
        y.register_hook(lambda grad: kept.append(grad))
        (y * 2).sum().backward()
        x.grad.zero_()
        np.testing.assert_array_equal(kept[0].numpy(), [2, 2])

    def test_a_view_of_a_gradient_is_not_adopted(self):
        x = mg.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        y = (x * 2).reshape(3)  # ViewBackward0 hands back a view of its gradient
        g = mg.tensor([1.0, 1.0, 1.0])
        y.backward(g)
        x.grad.add_(100)
        np.testing.assert_array_equal(g.numpy(), [1, 1, 1])

    def test_custom_function_gradients_are_copied(self):
        class Leak(mg.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 1

            @staticmethod
            def backward(ctx, grad):
                return Leak.stash  # a tensor the user holds

        Leak.stash = mg.tensor([7.0, 7.0])
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        Leak.apply(x).sum().backward()
        x.grad.zero_()
        np.testing.assert_array_equal(Leak.stash.numpy(), [7, 7])


def test_the_hot_path_makes_no_closure_cells():
    """A comprehension (or lambda) that reads a local variable turns that variable into a cell,
    made on every call of the function, whether the comprehension runs or not: on the path
    every op and every node takes, that is a cost paid millions of times for nothing."""
    from minigrad._tensor import Tensor
    from minigrad.core import engine, function, node
    hot = [function.Function.apply, function.Op._forward, node.Node.apply, node.Node._pack,
           node.Node._unpack, Tensor._wrap, engine.run_backward, engine._Fresh.run, Tensor._sum_to]
    cells = {f.__qualname__: f.__code__.co_cellvars for f in hot if f.__code__.co_cellvars}
    assert not cells, cells


def test_post_accumulate_grad_hooks(oracle):
    """``register_post_accumulate_grad_hook``: called with the leaf once its ``.grad`` holds the
    sum (an optimizer can step it then); not by ``autograd.grad``; PyTorch's errors."""
    def program(lib):
        seen = []
        x = lib.ones(2, requires_grad=True)
        handle = x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
        (x * 3).sum().backward()
        (x * x).sum().backward()
        lib.autograd.grad((x * 2).sum(), x)
        handle.remove()
        (x * 3).sum().backward()
        x.register_post_accumulate_grad_hook(lambda t: t * 2)
        returned = error_of(lambda: (x * 3).sum().backward())
        step = lib.ones(2, requires_grad=True)  # the optimizer-in-backward pattern
        step.register_post_accumulate_grad_hook(lambda t: [t.data.sub_(t.grad), None][1])
        (step * 4).sum().backward()
        return (seen, x.grad, returned, step,
                error_of(lambda: (x * 2).register_post_accumulate_grad_hook(print)),
                error_of(lambda: lib.ones(2).register_post_accumulate_grad_hook(print)))
    oracle.same(program)
