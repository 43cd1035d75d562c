"""In-place ops through views, against PyTorch (recorded: tests/oracle.py).

A view (``y.view(-1)``, ``y.t()``, ``y.diagonal()``, ``y[0]``, and views of views) shares its
base's memory: an in-place op through it changes the base, and PyTorch records that on the base
(its grad_fn becomes CopySlices), whichever ops made the view. A view made before its memory
was changed in place (through the base or another view) gets a new grad_fn when next used
(AsStridedBackward0 of the base), or its gradient would be that of the old values. A view made
under no_grad cannot be changed in place once grad mode is on again. Each test: the values, the
grad_fn names and graphs, the versions and the gradients a learner sees, or PyTorch's error.
Finite differences of the same: tests/ops/test_gradcheck.py (CopySlices)."""
import numpy as np
import pytest

import minigrad

from oracle import error_of

# Each kind of view, and an in-place op through it (the base y is 2 x 3).
VIEWS = {
    "view(-1).mul_": lambda T, y: y.view(-1).mul_(2),
    "t().add_": lambda T, y: y.t().add_(1),
    "t()[0].mul_": lambda T, y: y.t()[0].mul_(3),
    "view(-1)[1] = 7": lambda T, y: _assigned(y.view(-1), 1, 7.0),
    "diagonal().zero_": lambda T, y: y.diagonal().zero_(),
    "diagonal(1).mul_": lambda T, y: y.diagonal(1).mul_(5),
    "unsqueeze(0).mul_": lambda T, y: y.unsqueeze(0).mul_(2),
    "reshape(6).mul_": lambda T, y: y.reshape(6).mul_(2),
    "flatten().mul_": lambda T, y: y.flatten().mul_(2),
    "[None].squeeze(0).mul_": lambda T, y: y[None].squeeze(0).mul_(2),
    "transpose(0, 1).clamp_": lambda T, y: y.transpose(0, 1).clamp_(max=3),
    "narrow(1, 0, 2).mul_": lambda T, y: y.narrow(1, 0, 2).mul_(2),
    "select(1, 0).mul_": lambda T, y: y.select(1, 0).mul_(2),
    "permute(1, 0).mul_": lambda T, y: y.permute(1, 0).mul_(2),
    "as_strided.mul_": lambda T, y: y.as_strided((2,), (1,)).mul_(2),
    "[0].view(3).add_": lambda T, y: y[0].view(3).add_(1),
    "[:, 1:][0].mul_": lambda T, y: y[:, 1:][0].mul_(2),
    "T.relu_": lambda T, y: y.T.relu_(),
    "unflatten.mul_": lambda T, y: y.view(6).unflatten(0, (3, 2)).mul_(2),
    "swapaxes.mul_": lambda T, y: y.swapaxes(0, 1).mul_(2),
    "mT.mul_": lambda T, y: y.mT.mul_(2),
    "movedim.mul_": lambda T, y: y.movedim(0, 1).mul_(2),
    "view_as.mul_": lambda T, y: y.view_as(y).mul_(2),
    "t().mul_(tensor)": lambda T, y: y.t().mul_(T.tensor([1.0, -2.0], requires_grad=True)),
    "t() += t()": lambda T, y: y.t().__iadd__(y.detach().t() * 2),
    "view(-1).copy_": lambda T, y: y.view(-1).copy_(T.linspace(-1, 1, 6)),
}


def _assigned(view, key, value):
    view[key] = value
    return view


@pytest.mark.parametrize("name", VIEWS)
def test_inplace_through_a_view(oracle, name):
    """The base y's values, grad_fn and graph (CopySlices), the view's grad_fn
    (AsStridedBackward0), y's version and x's gradient through both."""
    def program(T):
        x = T.arange(6.0).reshape(2, 3).requires_grad_()
        y = x * 1
        v = VIEWS[name](T, y)
        return (y, v.grad_fn.name(), y._version, v._base is y,
                T.autograd.grad((y * T.arange(1.0, 7.0).reshape(2, 3)).sum(), x, retain_graph=True),
                T.autograd.grad((v * v).sum(), x))
    oracle.same(program)


@pytest.mark.parametrize("base", ["float32", "transposed", "view of a view", "a transposed copy"])
def test_inplace_through_a_view_of_other_bases(oracle, base):
    """The base laid out otherwise: float32; a transposed base (its memory column by column);
    the view of a view, recorded on the first base."""
    def program(T):
        x = T.arange(12.0).reshape(3, 4).requires_grad_()
        if base == "float32":
            y = x * 1
        elif base == "transposed":
            y = (x * 1).t_()  # 4 x 3, its memory x's layout
        elif base == "a transposed copy":
            y = (x * 1).t().clone()  # its own memory, laid out column by column
        else:
            y = (x * 1).view(4, 3)[1:]  # a view: what follows views it again
        y.t()[1:][:, ::2].mul_(-1)  # a view of a view of a view
        w = T.arange(1.0, y.numel() + 1).reshape(y.shape)
        (y * w).sum().backward()
        return y, y._version, x.grad
    oracle.same(program)


def test_views_of_a_permuted_copy(oracle):
    """expand, diagonal and as_strided of a tensor whose own memory is not row by row (a clone
    of a permuted tensor keeps its layout), then an in-place op through a view of it. Found by
    the fuzzer."""
    def program(T):
        x = T.arange(12.0).reshape(2, 3, 2).requires_grad_()
        b = (x * 1).movedim(1, 0).clone()
        views = [b[0].expand(2, 2, 2), b.diagonal(0, 0, 1), b.as_strided((2,), (1,), 1)]
        b.unsqueeze(0).add_(1)
        return b.stride(), views, T.autograd.grad((b * b).sum(), x)
    oracle.same(program)


def test_a_view_made_before_a_change_gets_a_new_grad_fn(oracle):
    """Views taken before an in-place change (through the base, another view, or under
    no_grad) are seen by their next op as the base is now: AsStridedBackward0 of it, and
    the gradient of the new values, not of the old."""
    def program(T):
        x = T.arange(1.0, 7.0, requires_grad=True)
        y = x.reshape(2, 3) * 1
        row, col, flat = y[0], y[:, 0], y.view(-1)
        before = [row.grad_fn.name(), col.grad_fn.name(), flat.grad_fn.name()]
        row.mul_(2)  # col's first element and flat's first three change too
        after = [row.grad_fn.name(), col.grad_fn.name(), flat.grad_fn.name(), y.grad_fn.name()]
        y.mul_(3)  # through the base
        grads = [T.autograd.grad(t.sum(), x, retain_graph=True) for t in (row, col, flat)]
        z = x * 1
        view = z[1:]
        with T.no_grad():
            z[0] = 100  # not recorded, yet view's old graph no longer holds: PyTorch makes a new one
        return before, after, grads, view.grad_fn.name(), T.autograd.grad(view.sum(), x)
    oracle.same(program)


def test_second_derivative_through_copy_slices(oracle):
    """create_graph through CopySlices of a transposed view: the second derivative. (The
    first derivative's own graph is minigrad's: the op's input is the as_strided view of the
    old base, PyTorch's the view itself, cloned; the values are the same.)"""
    def program(T):
        x = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=T.float64, requires_grad=True)
        y = x * x
        y.t()[1].mul_(x[:, 0])  # the op's other input is itself x
        g, = T.autograd.grad(y.sum(), x, create_graph=True)
        gg, = T.autograd.grad((g * g).sum(), x)
        return g.detach(), gg
    oracle.same(program)


SAVES_ITS_OUTPUT = {"unsqueeze(0).relu_": lambda b: b.unsqueeze(0).relu_(),
                    "t().exp_": lambda b: b.t().exp_(),
                    "select(0, 0).sigmoid_": lambda b: b.select(0, 0).sigmoid_(),
                    "view(-1).sqrt_": lambda b: b.view(-1).sqrt_(),
                    "diagonal().tanh_": lambda b: b.diagonal().tanh_()}


@pytest.mark.parametrize("name", SAVES_ITS_OUTPUT)
def test_second_derivative_of_an_op_that_saves_its_output(oracle, name):
    """relu_, exp_, sigmoid_, sqrt_, tanh_ through a view save their output: differentiated
    again, that output is the view of the base as it is after the change (AsStridedBackward0
    of the CopySlices node), not the op's own output."""
    def program(T):
        x = T.tensor([[0.5, 2.0], [1.5, 3.0]], dtype=T.float64, requires_grad=True)
        b = x.clone()
        SAVES_ITS_OUTPUT[name](b)
        g, = T.autograd.grad(T.nn.functional.gelu(b).sum(), x, create_graph=True)
        return g.detach(), T.autograd.grad(g.sum(), x)
    oracle.same(program)


NO_GRAD_VIEWS = {
    "of a non-leaf, in place in grad mode": lambda T, x, y, w: _nograd_view(T, y).mul_(2),
    "of a leaf, in place in grad mode": lambda T, x, y, w: _nograd_view(T, w).add_(1),
    "of a leaf made of a view, in place": lambda T, x, y, w: _nograd_view(T, x).add_(1),
    "view(), in place in grad mode": lambda T, x, y, w: _nograd_view(T, y, "flat").add_(1),
    "of a tensor without grad, given one": lambda T, x, y, w: _nograd_view(T, T.zeros(2, 3)).add_(w),
    "of a tensor without grad, given none": lambda T, x, y, w: _nograd_view(T, T.zeros(2, 3)).add_(1),
    "in place inside no_grad": lambda T, x, y, w: _inside_no_grad(T, y),
    "its base changed in place, then used": lambda T, x, y, w: _base_changed(T, y, y.mul_) * 2,
    "its base changed under no_grad, then asked for grad_fn": lambda T, x, y, w: _base_changed(
        T, y, lambda k: _no_grad_mul(T, y, k)).grad_fn,
    "of a tensor without grad, its base changed": lambda T, x, y, w: _base_changed(T, T.ones(2, 3), y.detach().mul_) * 2,
}


def _base_changed(T, base, change):
    with T.no_grad():
        v = base[0]
    change(3)
    return v


def _no_grad_mul(T, y, k):
    with T.no_grad():
        y.mul_(k)


def _nograd_view(T, t, kind="row"):
    with T.no_grad():
        return t[0] if kind == "row" else t.view(-1)


def _inside_no_grad(T, y):
    with T.no_grad():
        v = y[0]
        v.add_(1)
    return v


@pytest.mark.parametrize("name", NO_GRAD_VIEWS)
def test_views_made_under_no_grad(oracle, name):
    """PyTorch refuses to record an in-place op on a view made under no_grad (which graph
    would it belong to?); in place under no_grad, or with nothing to record, it is fine."""
    def program(T):
        x = T.arange(6.0).reshape(2, 3).requires_grad_()
        y = x * 1
        w = T.ones(3, requires_grad=True)
        return error_of(lambda: NO_GRAD_VIEWS[name](T, x, y, w) is None)
    oracle.same(program)


def test_views_of_leaves(oracle):
    """A view of a leaf that requires grad (and a leaf made of a view: ``arange(6).reshape(2,
    3).requires_grad_()``) refuses in-place ops in grad mode, in PyTorch's words; a view of a
    tensor that needs no gradient, given one in place, makes its base require grad (CopySlices)
    and the base's other views too (AsStridedBackward0)."""
    def program(T):
        w = T.ones(3, requires_grad=True)
        x = T.arange(6.0).reshape(2, 3).requires_grad_()
        errors = [error_of(f) for f in (lambda: w.view(3).mul_(2), lambda: w[1:].zero_(), lambda: x.mul_(2),
                                        lambda: x[0].mul_(2), lambda: x.t().mul_(2))]
        with T.no_grad():
            x[0].mul_(2)  # (nothing recorded: allowed)
        r = T.arange(6.0).reshape(2, 3)
        r[0].add_(w)
        return errors, x, x._version, r, r.grad_fn.name(), r.is_leaf, r.requires_grad, T.autograd.grad(r.sum(), w)
    oracle.same(program)


def test_expanded_views_refuse_in_place_writes(oracle):
    """An expanded tensor repeats one element: PyTorch refuses to write into it with an op
    (mul_, copy_, +=), with and without grad, and lets zero_ and a filled index through."""
    def program(T):
        y = T.arange(3.0, requires_grad=True) * 1
        return [error_of(lambda: y.expand(2, 3).mul_(2)),
                error_of(lambda: T.arange(3.0).expand(2, 3).mul_(2)),
                error_of(lambda: T.arange(3.0).expand(2, 3).copy_(T.ones(2, 3))),
                error_of(lambda: T.arange(3.0).expand(2, 3).__iadd__(1)),
                error_of(lambda: T.arange(3.0).expand(2, 3).zero_()),
                error_of(lambda: T.arange(3.0).expand(2, 3).fill_(4.0))]
    oracle.same(program)


def test_base_and_is_view(oracle):
    """``._base``: the tensor a view shows (for a view of a view, the first base), None for
    a tensor that is not a view; ``._is_view()``."""
    def program(T):
        x = T.arange(6.0, requires_grad=True)
        y = x.view(2, 3)
        z = y.t()[1]
        c = y.clone()
        d = x.detach()
        return ([t._base is x for t in (y, z)], [t._base is None for t in (x, c, d)],
                [t._is_view() for t in (x, y, z, c)], [t._version for t in (x, y, z)])
    oracle.same(program)


def test_empty_strided(oracle):
    """``torch.empty_strided`` and ``new_empty_strided``: the layout asked for (the values
    are uninitialised in PyTorch: not compared); their errors."""
    def program(T):
        a = T.empty_strided((2, 3), (1, 2))
        b = T.ones(2, dtype=T.float64).new_empty_strided((3, 2), (1, 3))
        c = T.empty_strided((2, 0), (1, 1), requires_grad=True)
        return ([(tuple(t.shape), t.stride(), t.is_contiguous(), str(t.dtype), t.requires_grad,
                  t.untyped_storage().nbytes()) for t in (a, b, c)],
                error_of(lambda: T.empty_strided((2, 3), (1,))),
                error_of(lambda: T.empty_strided((2, 3), (-1, 2))),
                error_of(lambda: T.empty_strided((2, -3), (1, 2))))
    oracle.same(program)


def test_memory_not_owned_by_a_tensor_is_refused_not_wrong():
    """A tensor on a NumPy array's strided memory (``from_numpy(a[::2])``) has no base tensor
    that a change through it could be recorded on: minigrad refuses to record an in-place op
    on it (PyTorch records it, as on any tensor)."""
    a = np.arange(6.0)
    t = minigrad.from_numpy(a[::2])
    w = minigrad.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="minigrad does not record in-place operations on a view of memory"):
        t.mul_(w)
    t.mul_(2)  # nothing to record: done
    assert a.tolist() == [0.0, 1.0, 4.0, 3.0, 8.0, 5.0]
