"""minigrad.fusion: a fused chain gives the values and gradients of the eager chain.

Random chains of elementwise steps (Hypothesis) run twice: eagerly, op by op, and through
``fusion.fuse``; forward values and the gradients of both inputs must agree, in float32
and float64, for broadcasting shapes, and across block boundaries (the block size is made
tiny so that every chain runs over several blocks, the last one partial). Then gradcheck
in float64, and the errors for what cannot be fused.
"""
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad import fusion
from minigrad.autograd import gradcheck

settings.register_profile(
    "minigrad_fusion", max_examples=60, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
PROFILE = settings.get_profile("minigrad_fusion")

# One step of a chain: the current value v and the second input y -> the next value. Each
# keeps values in a safe range (no log of a negative, no overflow), so eager and fused agree.
STEPS = {
    "tanh": lambda v, y, c: v.tanh(),
    "sigmoid": lambda v, y, c: v.sigmoid(),
    "relu": lambda v, y, c: v.relu() + v * 0.1,
    "neg": lambda v, y, c: -v,
    "exp": lambda v, y, c: v.tanh().exp(),
    "log": lambda v, y, c: (v * v + 1).log(),
    "sqrt": lambda v, y, c: (v * v + 0.25).sqrt(),
    "square": lambda v, y, c: v.tanh() ** 2,
    "rsqrt": lambda v, y, c: (v * v + 1) ** -0.5,
    "affine": lambda v, y, c: v * c + (c - 1),
    "add_y": lambda v, y, c: v + y,
    "rsub_y": lambda v, y, c: y - v,
    "mul_y": lambda v, y, c: v * y,
    "div_y": lambda v, y, c: v / (y * y + 1),
    "rdiv": lambda v, y, c: c / (v * v + 1),
    "rsub": lambda v, y, c: c - v,
    "self_mul": lambda v, y, c: v * v.sigmoid(),
}

chains = st.lists(st.tuples(st.sampled_from(sorted(STEPS)), st.floats(-2, 2, width=32)),
                  min_size=1, max_size=6)


def make_chain(steps):
    def chain(x, y):
        v = x
        for name, c in steps:
            v = STEPS[name](v, y, c)
        return v
    return chain


def run(fn, x, y):
    """fn(x, y), then backward of a weighted sum; returns (out, dx, dy) as arrays."""
    xt = minigrad.tensor(x, requires_grad=True)
    yt = minigrad.tensor(y, requires_grad=True)
    out = fn(xt, yt)
    weights = minigrad.tensor(np.linspace(-1, 2, out.numel()).reshape(out.shape).astype(out._data.dtype))
    (out * weights).sum().backward()
    return out._data, (xt.grad._data if xt.grad is not None else None), \
        (yt.grad._data if yt.grad is not None else None)


@pytest.fixture
def tiny_blocks(monkeypatch):
    monkeypatch.setattr(fusion, "BLOCK", 7)


@settings(PROFILE)
@given(steps=chains, shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=6),
       dtype=st.sampled_from([np.float32, np.float64]), data=st.data())
def test_fused_matches_eager(tiny_blocks, steps, shapes, dtype, data):
    sx, sy = shapes.input_shapes
    elements = st.floats(-2, 2, width=32)
    x = data.draw(hnp.arrays(dtype, sx, elements=elements))
    y = data.draw(hnp.arrays(dtype, sy, elements=elements))
    chain = make_chain(steps)
    fused = fusion.fuse(chain)
    want, got = run(chain, x, y), run(fused, x, y)
    tol = {"rtol": 1e-4, "atol": 1e-5} if dtype == np.float32 else {"rtol": 1e-10, "atol": 1e-12}
    assert got[0].dtype == want[0].dtype and got[0].shape == want[0].shape
    np.testing.assert_allclose(got[0], want[0], **tol)
    for g, w in zip(got[1:], want[1:]):
        assert (g is None) == (w is None)
        if w is not None:
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, **tol)


@settings(PROFILE, max_examples=25)
@given(steps=chains, shape=hnp.array_shapes(min_dims=0, max_dims=2, max_side=4), seed=st.integers(0, 2**16))
def test_gradcheck_float64(tiny_blocks, steps, shape, seed):
    rng = np.random.default_rng(seed)  # random normal values stay clear of relu's kink
    x = minigrad.tensor(rng.standard_normal(shape), requires_grad=True)
    y = minigrad.tensor(rng.standard_normal(shape), requires_grad=True)
    assert gradcheck(fusion.fuse(make_chain(steps)), (x, y))


def test_one_node_saving_only_the_inputs():
    f = fusion.fuse(lambda x, y: ((x * 2 + 1).tanh() * y).exp())
    x = minigrad.randn(100, requires_grad=True)
    y = minigrad.randn(100)
    out = f(x, y)
    assert type(out.grad_fn).__name__ == "FusedBackward"
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["AccumulateGrad", "NoneType"]
    from minigrad import viz
    assert viz.saved_memory(out).total == x._data.nbytes + y._data.nbytes
    with minigrad.no_grad():
        assert f(x, y).grad_fn is None


def test_several_blocks_and_large_arrays():
    f = fusion.fuse(lambda x: (x.sigmoid() * x).relu())
    x = minigrad.tensor(np.linspace(-3, 3, 3 * fusion.BLOCK + 5), requires_grad=True)
    out = f(x)
    out.sum().backward()
    xe = minigrad.tensor(x._data, requires_grad=True)
    (xe.sigmoid() * xe).relu().sum().backward()
    np.testing.assert_allclose(out._data, (xe.sigmoid() * xe).relu()._data, rtol=1e-14)
    np.testing.assert_allclose(x.grad._data, xe.grad._data, rtol=1e-14)



@pytest.mark.parametrize("dtype", [minigrad.float32, minigrad.float64])
def test_relu_at_its_edges_as_eager(tiny_blocks, dtype):
    """relu of -0. is -0., of NaN NaN; its backward passes the gradient where the unit is on
    (NaN included) and gives 0. where it is off, even for an inf or NaN gradient: bit for bit
    what eager minigrad gives (which tests/ops/test_vs_torch.py checks against PyTorch)."""
    special = [-0.0, 0.0, -1.0, 2.0, float("nan"), float("inf"), float("-inf"), -1e-30, 1e-30]
    x = minigrad.tensor(special * 3, dtype=dtype, requires_grad=True)  # over several blocks
    g = minigrad.tensor([float("inf"), float("nan"), 1.0] * 9, dtype=dtype)
    fused = fusion.fuse(lambda v: v.relu())(x)
    fused.backward(g)
    fused_grad, x.grad = x.grad, None
    eager = x.relu()
    eager.backward(g)
    for a, b in ((fused._data, eager._data), (fused_grad._data, x.grad._data)):
        np.testing.assert_array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}"))

def test_ir_and_kernel_source():
    f = fusion.fuse(lambda x, y: ((x * 2 + 1).tanh() * y).exp())
    assert str(f.graph) == ("def fused(x, y):\n    t0 = mul(x, 2.0)\n    t1 = add(t0, 1.0)\n"
                            "    t2 = tanh(t1)\n    t3 = mul(t2, y)\n    t4 = exp(t3)\n    return t4")
    src = f.kernel.source
    assert src.count("np.empty(") == 1  # one scratch buffer serves the whole chain
    assert "np.exp(s0, out=o0)" in src  # the last step writes straight into the output
    bwd = f.backward_graph()
    assert bwd.inputs == ["x", "y", "grad"] and len(bwd.outputs) == 2
    assert "exp" in str(bwd)  # the forward values are recomputed, not saved


def test_unused_input_and_repeated_input():
    f = fusion.fuse(lambda x, y: x * 3)
    x, y = minigrad.ones(3, requires_grad=True), minigrad.ones(3, requires_grad=True)
    f(x, y).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0] and y.grad is None
    g = fusion.fuse(lambda x, y: x + y)  # both gradients are the incoming gradient itself
    a, b = minigrad.ones(2, requires_grad=True), minigrad.ones(2, requires_grad=True)
    g(a, b).sum().backward()
    assert a.grad.tolist() == [1.0, 1.0] and b.grad.tolist() == [1.0, 1.0]
    h = fusion.fuse(lambda x: x)  # an output that is an input
    assert h(a).tolist() == [1.0, 1.0]


def test_functions_of_the_torch_namespace_trace_too():
    f = fusion.fuse(lambda x: minigrad.exp(minigrad.tanh(x)) + minigrad.sigmoid(x))
    x = minigrad.tensor([0.5, -1.0])
    np.testing.assert_allclose(f(x)._data, (x.tanh().exp() + x.sigmoid())._data, rtol=1e-6)


@pytest.mark.parametrize("fn,message", [
    (lambda x: x.sum(), "sum() is not an elementwise op"),
    (lambda x: x @ x, "matmul() is not an elementwise op"),
    (lambda x: x.softmax(0), "softmax() is not an elementwise op"),
    (lambda x: x.reshape(2, 2), "reshape() is not an elementwise op"),
    (lambda x: x if x > 0 else -x, "branches on a tensor's value"),
    (lambda x: 3.0, "must return one tensor"),
    (lambda x: x * np.ones(3), "got a ndarray"),
    (lambda x: x ** x, "only a number can be an exponent"),
])
def test_what_cannot_be_fused_says_why(fn, message):
    with pytest.raises(fusion.FusionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        fusion.fuse(fn)


def test_inputs_must_be_float_tensors_and_double_backward_is_refused():
    f = fusion.fuse(lambda x: x * 2)
    with pytest.raises(TypeError, match="floating-point tensor"):
        f(minigrad.tensor([1, 2]))
    with pytest.raises(TypeError, match="takes 1 tensors"):
        f(minigrad.ones(2), minigrad.ones(2))
    x = minigrad.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="create_graph=True is not supported"):
        minigrad.autograd.grad(f(x).sum(), x, create_graph=True)


def test_import_minigrad_does_not_import_fusion():
    code = "import sys, minigrad; print('minigrad.fusion' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_non_contiguous_empty_and_0d_inputs():
    f = fusion.fuse(lambda x, y: (x * y).tanh() - y)
    base = np.arange(12.0).reshape(3, 4) / 10
    # (np.array(a[::-1]): torch.tensor refuses negative strides, as PyTorch's; this copy keeps the order)
    for x, y in ((base.T, np.array(base.T[::-1])), (np.zeros((0, 3)), np.zeros(3)),
                 (np.array(0.5), np.array(-2.0))):
        want, got = run(lambda a, b: (a * b).tanh() - b, x, y), run(f, x, y)
        for g, w in zip(got, want):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-12)
