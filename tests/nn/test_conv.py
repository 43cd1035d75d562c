"""Convolution and pooling (minigrad/ops/conv.py, nn.Conv2d and friends, the lazy modules).

1. gradcheck: every op's backward against central finite differences (test_gradcheck's two
   checkers), first order, and second order for the ops whose backward is written with
   Tensor ops (all of them);
2. against PyTorch: recorded seeded cases (run without PyTorch) and, live, Hypothesis over
   shapes, strides, paddings, dilations, groups, kernel sizes, ceil_mode;
3. the modules: reprs, parameters and their default init, state_dict keys, errors, lazy
   modules before and after their first call, BatchNorm2d and Dropout2d.
"""
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import assert_same, caught, error_of
from test_gradcheck import FEW, PROFILE, check_grads, check_second_order

import minigrad
import minigrad.nn.functional as F
from minigrad import nn

# PyTorch's note on an even kernel with padding='same', given by minigrad too (tested below)
pytestmark = pytest.mark.filterwarnings("ignore:Using padding='same'")

# =============================================================================================
# Geometry: random but valid settings (what PyTorch accepts), drawn by Hypothesis
# =============================================================================================


@st.composite
def conv_settings(draw, dims=2, max_side=7):
    """(input shape, weight shape, kwargs) of a valid conv1d/conv2d call."""
    groups = draw(st.integers(1, 3))
    c_in, c_out = groups * draw(st.integers(1, 2)), groups * draw(st.integers(1, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(dims))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(dims))
    padding = tuple(draw(st.integers(0, 2)) for _ in range(dims))
    stride = tuple(draw(st.integers(1, 3)) for _ in range(dims))
    reach = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    size = tuple(draw(st.integers(max(1, r - 2 * p), max(r - 2 * p, 1) + max_side - 3))
                 for r, p in zip(reach, padding))
    batched = draw(st.booleans())
    kwargs = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    if dims == 2 and draw(st.booleans()):  # sometimes 'same' (stride 1) or 'valid', or plain ints
        kwargs.update(draw(st.sampled_from([dict(padding="same", stride=1), dict(padding="valid"),
                                            dict(stride=stride[0], padding=padding[0])])))
        pads = {"same": (9, 9), "valid": (0, 0)}.get(kwargs["padding"], (kwargs["padding"],) * 2)
        size = tuple(max(s, r - 2 * p) for s, r, p in zip(size, reach, pads))
    shape = ((draw(st.integers(1, 2)),) if batched else ()) + (c_in,) + size
    return shape, (c_out, c_in // groups) + kernel, draw(st.booleans()), kwargs


@st.composite
def pool_settings(draw, kind):
    """(input shape, kwargs) of a valid max_pool2d / avg_pool2d call."""
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(2))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(2)) if kind == "max" else (1, 1)
    reach = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    padding = tuple(draw(st.integers(0, k // 2)) for k in kernel)
    stride = tuple(draw(st.integers(1, 3)) for _ in range(2))
    # (max pooling: no smaller than a window, so that no window reads padding only; there
    # PyTorch answers -inf and an index outside the input, an edge left out)
    size = tuple(draw(st.integers(max(1, r - 2 * p) if kind == "avg" else r, r + 4)) for r, p in zip(reach, padding))
    shape = ((draw(st.integers(1, 2)),) if draw(st.booleans()) else ()) + (draw(st.integers(1, 3)),) + size
    kwargs = dict(kernel_size=kernel, stride=stride, padding=padding, ceil_mode=draw(st.booleans()))
    if kind == "max":
        kwargs["dilation"] = dilation
    else:
        kwargs["count_include_pad"] = draw(st.booleans())
        kwargs["divisor_override"] = draw(st.sampled_from([None, None, 2]))
    return shape, kwargs


def distinct(shape, seed):
    """Values 0.1 apart at least, shuffled: no ties for max pooling to break."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return (rng.permutation(n) * 0.1 - n * 0.05 + rng.uniform(0, 0.01, n)).reshape(shape)


def normal(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def conv_fn(dims, kwargs, bias):
    conv = F.conv2d if dims == 2 else F.conv1d
    if bias:
        return lambda x, w, b: conv(x, w, b, **kwargs)
    return lambda x, w: conv(x, w, **kwargs)


# =============================================================================================
# 1. gradcheck
# =============================================================================================


@PROFILE
@pytest.mark.parametrize("dims", [1, 2])
@given(s=conv_settings(dims=2), seed=st.integers(0, 2 ** 16))
def test_conv_gradcheck(dims, s, seed):
    shape, wshape, bias, kwargs = s
    if dims == 1:  # the same settings without the height
        shape, wshape = shape[:-2] + shape[-1:], wshape[:-2] + wshape[-1:]
        kwargs = {k: v[1:] if isinstance(v, tuple) else v for k, v in kwargs.items()}
        if kwargs["padding"] == "same" or kwargs["padding"] == "valid":
            kwargs["padding"] = 0
            dilation = kwargs["dilation"][0] if isinstance(kwargs["dilation"], tuple) else kwargs["dilation"]
            assume(shape[-1] >= dilation * (wshape[-1] - 1) + 1)  # ('same' let the input be narrower)
    arrays = [normal(shape, seed), normal(wshape, seed + 1)] + ([normal(wshape[:1], seed + 2)] if bias else [])
    check_grads(conv_fn(dims, kwargs, bias), *arrays)


@FEW
@given(s=conv_settings(max_side=5), seed=st.integers(0, 2 ** 16))
def test_conv_second_order(s, seed):
    """The backward is Tensor ops (Fold, Unfold, matmul), so its gradient has a gradient:
    x and weight meet in a product, the Hessian's cross terms are not zero."""
    shape, wshape, bias, kwargs = s
    arrays = [normal(shape, seed), normal(wshape, seed + 1)] + ([normal(wshape[:1], seed + 2)] if bias else [])
    check_second_order(conv_fn(2, kwargs, bias), *arrays)


@PROFILE
@given(s=pool_settings("max"), seed=st.integers(0, 2 ** 16))
def test_max_pool_gradcheck(s, seed):
    shape, kwargs = s
    check_grads(lambda x: F.max_pool2d(x, **kwargs), distinct(shape, seed))


@PROFILE
@given(s=pool_settings("avg"), seed=st.integers(0, 2 ** 16))
def test_avg_pool_gradcheck(s, seed):
    shape, kwargs = s
    check_grads(lambda x: F.avg_pool2d(x, **kwargs), normal(shape, seed))


@PROFILE
@given(h=st.integers(1, 7), w=st.integers(1, 7), oh=st.integers(1, 7), ow=st.integers(1, 7),
       batched=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_adaptive_avg_pool_gradcheck(h, w, oh, ow, batched, seed):
    shape = ((2,) if batched else ()) + (2, h, w)
    check_grads(lambda x: F.adaptive_avg_pool2d(x, (oh, ow)), normal(shape, seed))


@FEW
@given(s=pool_settings("max"), seed=st.integers(0, 2 ** 16))
def test_pools_second_order(s, seed):
    """Pooling's gradient is piecewise constant in x: its own gradient is 0, through
    ScatterAdd and Fold, and the checkers agree."""
    shape, kwargs = s
    check_second_order(lambda x: F.max_pool2d(x, **kwargs) ** 2, distinct(shape, seed))
    kwargs.pop("dilation")
    check_second_order(lambda x: F.avg_pool2d(x, **kwargs) ** 2, normal(shape, seed))
    check_second_order(lambda x: F.adaptive_avg_pool2d(x, 2) ** 2, normal(shape, seed))


# =============================================================================================
# 2. against PyTorch: seeded cases (recorded) and Hypothesis (live)
# =============================================================================================


def conv_program(shape, wshape, bias, kwargs, dtype="float64", dims=2, seed=0):
    """The output, its grad_fn, and the gradients of x, weight, bias for a random output
    gradient: under ``lib``, from seeded NumPy arrays."""
    def program(lib):
        dt = getattr(lib, dtype)
        x = lib.tensor(normal(shape, seed), dtype=dt, requires_grad=True)
        w = lib.tensor(normal(wshape, seed + 1), dtype=dt, requires_grad=True)
        b = lib.tensor(normal(wshape[:1], seed + 2), dtype=dt, requires_grad=True) if bias else None
        conv = lib.nn.functional.conv2d if dims == 2 else lib.nn.functional.conv1d
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch's note on an even kernel with padding='same'
            out = conv(x, w, b, **kwargs)
        out.backward(lib.tensor(normal(tuple(out.shape), seed + 3), dtype=dt))
        return out, x.grad, w.grad, None if b is None else b.grad
    return program


def pool_program(kind, shape, kwargs, seed=0, dtype="float64"):
    def program(lib):
        values = distinct(shape, seed) if kind == "max" else normal(shape, seed)
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        fn = getattr(lib.nn.functional, f"{kind}_pool2d")
        out = fn(x, **kwargs)
        out.backward(lib.tensor(normal(tuple(out.shape), seed + 1), dtype=getattr(lib, dtype)))
        return out, x.grad
    return program


CONV_CASES = {
    "plain": ((2, 3, 6, 6), (4, 3, 3, 3), True, {}),
    "float32": ((2, 3, 6, 5), (4, 3, 3, 2), True, {"padding": 1}),
    "stride2-pad1": ((1, 2, 7, 8), (3, 2, 3, 3), True, {"stride": 2, "padding": 1}),
    "rect-dilated": ((2, 2, 9, 7), (2, 2, 3, 2), False, {"stride": (2, 1), "padding": (2, 0), "dilation": (2, 3)}),
    "groups": ((2, 6, 5, 5), (4, 3, 3, 3), True, {"groups": 2}),
    "depthwise": ((1, 4, 5, 6), (8, 1, 3, 3), True, {"groups": 4, "padding": 1}),
    "same-even-kernel": ((1, 2, 5, 6), (3, 2, 4, 2), True, {"padding": "same"}),
    "same-dilated": ((1, 2, 7, 7), (2, 2, 3, 3), False, {"padding": "same", "dilation": 2}),
    "valid": ((1, 1, 4, 4), (1, 1, 2, 2), True, {"padding": "valid"}),
    "unbatched": ((3, 6, 6), (2, 3, 3, 3), True, {"stride": 2}),
    "1x1": ((2, 4, 3, 3), (5, 4, 1, 1), True, {}),
    "conv1d": ((2, 3, 9), (4, 3, 3), True, {"stride": 2, "padding": 1}),
    "conv1d-unbatched-groups": ((4, 7), (2, 2, 2), False, {"groups": 2, "dilation": 2}),
}


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv_matches_torch(oracle, case):
    shape, wshape, bias, kwargs = CONV_CASES[case]
    # float32: sums in another order, so the last printed digit may differ; the even kernel's
    # 'same' padding: its graph is the DIFF below
    options = {"float32": dict(check_repr=False), "same-even-kernel": dict(check_graph=False)}.get(case, {})
    oracle.same(conv_program(shape, wshape, bias, kwargs, dtype="float32" if case == "float32" else "float64",
                             dims=len(wshape) - 2), **options)


@pytest.mark.xfail(strict=True, reason="DIFF: for 'same' padding of odd total (an even kernel) PyTorch pads "
                   "the input first (ConstantPadNdBackward0 in the graph); minigrad's window pads inside "
                   "the convolution (same values, tested above)")
def test_conv_same_even_kernel_graph_matches_torch(oracle):
    def program(lib):
        x = lib.zeros(1, 1, 4, 4, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return lib.nn.functional.conv2d(x, lib.ones(1, 1, 2, 2), padding="same")
    oracle.same(program)


POOL_CASES = {
    "max-2": ("max", (2, 3, 6, 6), {"kernel_size": 2}),
    "max-3-2-1": ("max", (1, 2, 7, 8), {"kernel_size": 3, "stride": 2, "padding": 1}),
    "max-ceil": ("max", (1, 2, 7, 7), {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    "max-dilated-rect": ("max", (2, 1, 8, 9), {"kernel_size": (2, 3), "stride": (1, 2), "dilation": (2, 1)}),
    "max-overlapping": ("max", (1, 1, 5, 5), {"kernel_size": 3, "stride": 1}),
    "max-unbatched": ("max", (3, 6, 5), {"kernel_size": 2}),
    "avg-2": ("avg", (2, 3, 6, 6), {"kernel_size": 2}),
    "avg-pad": ("avg", (1, 2, 7, 8), {"kernel_size": 3, "stride": 2, "padding": 1}),
    "avg-pad-exclude": ("avg", (1, 2, 7, 8), {"kernel_size": 3, "stride": 2, "padding": 1,
                                             "count_include_pad": False}),
    "avg-ceil": ("avg", (1, 2, 8, 7), {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    "avg-ceil-exclude": ("avg", (1, 1, 6, 6), {"kernel_size": 4, "stride": 3, "ceil_mode": True,
                                               "count_include_pad": False}),
    "avg-divisor": ("avg", (1, 2, 6, 6), {"kernel_size": 3, "stride": 2, "divisor_override": 2}),
    "avg-unbatched": ("avg", (2, 5, 6), {"kernel_size": (2, 3)}),
}


@pytest.mark.parametrize("case", POOL_CASES)
def test_pool_matches_torch(oracle, case):
    kind, shape, kwargs = POOL_CASES[case]
    oracle.same(pool_program(kind, shape, kwargs))


def test_max_pool_indices_match_torch(oracle):
    def program(lib):
        x = lib.tensor(distinct((2, 2, 7, 6), 3))
        out, idx = lib.nn.functional.max_pool2d(x, 3, 2, 1, return_indices=True)
        ties = lib.nn.functional.max_pool2d(lib.tensor([[[1.0, 1.0], [1.0, 1.0]]]), 2, return_indices=True)
        nan = lib.nn.functional.max_pool2d(lib.tensor([[[1.0, float("nan")], [3.0, 2.0]]]), 2, return_indices=True)
        pool = lib.nn.MaxPool2d(2, return_indices=True)
        return out, idx, ties, nan, pool(x)[1]
    oracle.same(program)


def test_max_pool_nan_inf_and_padding_match_torch(oracle):
    """The windows PyTorch's loop decides in its own way: of two NaNs the last wins, and a
    window of -inf that starts in the padding points at its first element inside the input.
    Values, indices and the gradient (which goes to those indices) must all agree."""
    nan, inf = float("nan"), float("inf")
    rows = [[1.0, nan, 3.0, nan, 0.0], [nan, 0.0, 5.0, 2.0, nan], [-inf, -inf, 4.0, -inf, -inf],
            [-inf, -inf, -inf, 1.0, -inf]]

    def program(lib):
        x = lib.tensor([[rows]], requires_grad=True)
        answers = []
        for kwargs in ({"kernel_size": 2}, {"kernel_size": 2, "stride": 1}, {"kernel_size": 3, "padding": 1},
                       {"kernel_size": (2, 3), "stride": (1, 2), "padding": (1, 1), "ceil_mode": True},
                       {"kernel_size": 2, "padding": 1, "dilation": 2}):
            out, idx = lib.nn.functional.max_pool2d(x, return_indices=True, **kwargs)
            out.backward(lib.ones_like(out))
            answers += [out, idx, x.grad]
            x.grad = None
        return answers
    oracle.same(program)


def test_gather_and_scatter_indices_out_of_range_match_torch(oracle):
    """A negative index is refused too (unlike x[i]), with PyTorch's words."""
    def program(lib):
        x = lib.zeros(3, 4)
        answers = []
        for idx in ([[0, 4]], [[0, -1]], [[-5, 1]]):
            i = lib.tensor(idx)
            answers += [error_of(lambda: x.gather(1, i)), error_of(lambda: x.scatter(1, i, lib.ones(1, 2))),
                        error_of(lambda: x.scatter(1, i, 2.0)), error_of(lambda: x.scatter_add(1, i, lib.ones(1, 2))),
                        error_of(lambda: x.clone().scatter_add_(1, i, lib.ones(1, 2)))]
        # In range, a repeated index adds every value (scatter_add's fast path keeps that)
        answers.append(lib.zeros(2, 3).scatter_add(1, lib.tensor([[2, 2, 0, 2], [1, 1, 1, 1]]),
                                                   lib.arange(8.0).reshape(2, 4)))
        return answers
    oracle.same(program)


@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data=st.data())
def test_scatter_add_adds_as_a_loop_would(shape, data):
    """scatter_add's flat indices (out's steps times the coordinates) land where a loop over the
    index would put each value, along every dim, with repeats, an index and a src smaller or larger
    than self in the other dims (as far as PyTorch allows: index <= self and index <= src)."""
    dim = data.draw(st.integers(0, len(shape) - 1))
    index_shape = tuple(data.draw(st.integers(1, n)) if d != dim else data.draw(st.integers(1, 5))
                        for d, n in enumerate(shape))
    src_shape = tuple(n + data.draw(st.integers(0, 1)) for n in index_shape)
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    x, src = rng.standard_normal(shape), rng.standard_normal(src_shape)
    index = rng.integers(0, shape[dim], index_shape)
    want = x.copy()
    for pos in np.ndindex(*index_shape):
        target = list(pos)
        target[dim] = index[pos]
        want[tuple(target)] += src[pos]
    got = minigrad.tensor(x).scatter_add(dim, minigrad.tensor(index), minigrad.tensor(src)).numpy()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("size", [1, (1, 1), (2, 2), (3, 3), (4, 5), (None, 2), (7, 6), 5])
def test_adaptive_avg_pool_matches_torch(oracle, size):
    def program(lib):
        x = lib.tensor(normal((2, 3, 7, 6), 1), requires_grad=True)
        out = lib.nn.functional.adaptive_avg_pool2d(x, size)
        out.backward(lib.tensor(normal(tuple(out.shape), 2)))
        one = lib.nn.AdaptiveAvgPool2d(size)(x[0].detach())  # one sample (C, H, W)
        return out, x.grad, one
    oracle.same(program)


@settings(PROFILE, max_examples=60)
@given(s=conv_settings(), seed=st.integers(0, 2 ** 16), float32=st.booleans())
def test_conv_matches_torch_hypothesis(torch, s, seed, float32):
    shape, wshape, bias, kwargs = s
    program = conv_program(shape, wshape, bias, kwargs, "float32" if float32 else "float64", seed=seed)
    # float32: sums in another order; the values agree to rounding, a printed last digit may not
    assert_same(program(minigrad), program(torch), rtol=1e-4 if float32 else 1e-10,
                atol=1e-4 if float32 else 1e-10, check_repr=not float32)


@settings(PROFILE, max_examples=40)
@given(kind=st.sampled_from(["max", "avg"]), data=st.data(), seed=st.integers(0, 2 ** 16))
def test_pool_matches_torch_hypothesis(torch, kind, data, seed):
    shape, kwargs = data.draw(pool_settings(kind))
    program = pool_program(kind, shape, kwargs, seed)
    assert_same(program(minigrad), program(torch))


@settings(PROFILE, max_examples=60)
@given(data=st.data(), seed=st.integers(0, 2 ** 16), special=st.sampled_from(["ties", "nan", "-inf", "-0."]))
def test_max_pool_ties_nan_inf_match_torch_hypothesis(torch, data, seed, special):
    """Values that PyTorch's loop decides in its own way (ties, NaNs, -inf beside the padding,
    signed zeros): values, indices and the gradient must agree bit for bit."""
    shape, kwargs = data.draw(pool_settings("max"))
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, shape).astype(np.float32)  # small integers: many ties
    x[rng.random(shape) < 0.25] = {"ties": 1.0, "nan": np.nan, "-inf": -np.inf, "-0.": -0.0}[special]

    def program(lib):
        t = lib.tensor(x, requires_grad=True)
        out, idx = lib.nn.functional.max_pool2d(t, return_indices=True, **kwargs)
        out.backward(lib.tensor(normal(tuple(out.shape), seed).astype(np.float32)))
        return out, idx, t.grad
    assert_same(program(minigrad), program(torch), rtol=0, atol=0)


@settings(PROFILE, max_examples=25)
@given(h=st.integers(1, 9), w=st.integers(1, 9), oh=st.integers(1, 9), ow=st.integers(1, 9),
       seed=st.integers(0, 2 ** 16))
def test_adaptive_avg_pool_matches_torch_hypothesis(torch, h, w, oh, ow, seed):
    def program(lib):
        x = lib.tensor(normal((2, 2, h, w), seed), requires_grad=True)
        out = lib.nn.functional.adaptive_avg_pool2d(x, (oh, ow))
        out.backward(lib.tensor(normal(tuple(out.shape), seed + 1)))
        return out, x.grad
    assert_same(program(minigrad), program(torch))


@pytest.mark.xfail(strict=True, reason="DIFF: double backward gives the right values (tested above) but "
                   "records minigrad's own backward ops (Col2ImBackward0, Im2ColBackward0, matmuls, "
                   "ScatterAddBackward0, ...), not PyTorch's ConvolutionBackwardBackward0, "
                   "MaxPool2DWithIndicesBackwardBackward0, AvgPool2DBackwardBackward0")
def test_double_backward_node_names_match_torch(oracle):
    def program(lib):
        x = lib.tensor(normal((1, 2, 4, 4), 0), requires_grad=True)
        w = lib.tensor(normal((2, 2, 3, 3), 1), requires_grad=True)
        names = []
        for y in (lib.nn.functional.conv2d(x, w), lib.nn.functional.max_pool2d(x, 2),
                  lib.nn.functional.avg_pool2d(x, 2)):
            g, = lib.autograd.grad(y.sum(), x, create_graph=True)
            names.append(type(g.grad_fn).__name__)
        return names
    oracle.same(program)


# =============================================================================================
# 3. the modules
# =============================================================================================


def test_module_reprs_and_parameters_match_torch(oracle):
    def program(lib):
        nn = lib.nn
        modules = [nn.Conv2d(1, 8, 3), nn.Conv2d(3, 4, (3, 5), stride=2, padding=1, dilation=2, bias=False),
                   nn.Conv2d(4, 8, 3, padding="same", groups=4), nn.Conv2d(3, 6, 3, padding="valid"),
                   nn.Conv2d(2, 2, 1, padding=(0, 1), stride=(1, 2)), nn.Conv1d(3, 6, 3, padding=1),
                   nn.MaxPool2d(2), nn.MaxPool2d(3, 2, 1, ceil_mode=True), nn.MaxPool2d((2, 3), stride=(1, 2)),
                   nn.AvgPool2d(2), nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False),
                   nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveAvgPool2d(3), nn.AdaptiveAvgPool2d((None, 2)),
                   nn.Dropout2d(), nn.Dropout2d(0.2, inplace=True), nn.BatchNorm2d(3),
                   nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False, track_running_stats=False)]
        return [(repr(m), [(k, tuple(v.shape), str(v.dtype)) for k, v in m.state_dict().items()],
                 [(n, p.requires_grad) for n, p in m.named_parameters()]) for m in modules]
    oracle.same(program)


def test_conv_default_init_bounds():
    """PyTorch's default: weight and bias uniform in +-1/sqrt(fan_in), fan_in = in/groups*kh*kw.
    A draw fills the interval: its extremes come near both bounds."""
    minigrad.manual_seed(0)
    for conv, fan_in in [(nn.Conv2d(4, 64, 5), 100), (nn.Conv2d(6, 96, 3, groups=3), 18), (nn.Conv1d(2, 200, 4), 8)]:
        bound = 1 / math.sqrt(fan_in)
        for p in (conv.weight, conv.bias):
            v = p.detach().numpy()
            assert v.min() >= -bound and v.max() <= bound
            assert v.min() < -0.8 * bound and v.max() > 0.8 * bound
            assert abs(v.mean()) < 0.2 * bound and abs(v.std() - bound / math.sqrt(3)) < 0.15 * bound


def test_module_errors_match_torch(oracle):
    def program(lib):
        nn, F = lib.nn, lib.nn.functional
        conv = nn.Conv2d(3, 8, 3)
        x = lib.zeros(2, 3, 8, 8)
        return [error_of(fn) for fn in [
            lambda: conv(lib.zeros(1, 1, 28, 28)),
            lambda: conv(lib.zeros(5, 5)),
            lambda: conv(lib.zeros(1, 1, 1, 3, 3)),
            lambda: nn.Conv2d(3, 4, 10)(x),
            lambda: nn.Conv2d(3, 4, 3, dilation=4)(x),
            lambda: nn.Conv2d(3, 4, 3)(x.double()),
            lambda: nn.Conv1d(3, 4, 3)(x),
            lambda: nn.Conv2d(3, 4, 3, stride=2, padding="same"),
            lambda: nn.Conv2d(3, 4, 3, groups=2),
            lambda: nn.Conv2d(4, 3, 3, groups=2),
            lambda: nn.Conv2d(4, 4, 3, groups=0),
            lambda: F.conv2d(x, lib.zeros(4, 3, 3, 3), lib.zeros(5)),
            lambda: F.conv2d(x, lib.zeros(4, 2, 3, 3), groups=2),
            lambda: F.conv2d(x, lib.zeros(4, 3, 3, 3), stride=0),
            lambda: F.conv2d(x, lib.zeros(4, 3, 3, 3), padding=-1),
            lambda: F.conv2d(x, lib.zeros(4, 3, 3, 3), dilation=0),
            lambda: F.conv2d(x, lib.zeros(4, 3, 3, 3), padding="same", stride=2),
            lambda: F.conv2d(x, lib.zeros(4, 3, 3, 3), padding="full"),
            lambda: F.conv2d(x, lib.zeros(4, 3, 3, 3, dtype=lib.float64)),
            lambda: nn.MaxPool2d(2)(lib.zeros(5, 5)),
            lambda: nn.MaxPool2d(2)(lib.zeros(1, 1, 1, 3, 3)),
            lambda: nn.MaxPool2d(3, padding=2)(x),
            lambda: nn.MaxPool2d((1, 3), padding=(0, 2), dilation=2)(x),
            lambda: nn.MaxPool2d(10)(x),
            lambda: F.max_pool2d(x, 0),
            lambda: F.max_pool2d(x, 2, padding=-1),
            lambda: nn.AvgPool2d(2)(lib.zeros(5, 5)),
            lambda: nn.AvgPool2d(2)(lib.zeros(1, 1, 1, 3, 3)),
            lambda: nn.AvgPool2d(3, padding=2)(x),
            lambda: nn.AvgPool2d(10)(x),
            lambda: F.avg_pool2d(x, 2, stride=0),
            lambda: F.adaptive_avg_pool2d(x, (2, 2, 2)),
            lambda: F.adaptive_avg_pool2d(lib.zeros(5, 5), 2),
            lambda: nn.BatchNorm2d(3)(lib.zeros(2, 3)),
            lambda: nn.BatchNorm2d(3)(lib.zeros(1, 3, 1, 1)),
            lambda: nn.Dropout2d(1.5),
            lambda: nn.LazyLinear(3).weight.shape,
        ]]
    oracle.same(program)


def test_max_pool_window_of_padding_only_says_so():
    with pytest.raises(NotImplementedError, match="reads padding only"):
        F.max_pool2d(minigrad.ones(1, 1, 1), (2, 2), 1, 1, (1, 2))


def test_same_padding_of_odd_total_warns_once(monkeypatch):
    """PyTorch's warning, once a process (so not compared live: PyTorch's process may have
    given it already, in another test)."""
    monkeypatch.setitem(F._warned, "same", False)  # a fresh session's state

    def convs():
        for k, d in [((2, 2), 1), ((2, 2), 1), ((3, 3), 1), ((2, 3), (1, 2))]:
            F.conv2d(minigrad.ones(1, 1, 4, 4), minigrad.ones((1, 1) + k), padding="same", dilation=d)
    assert caught(convs)[1] == [("UserWarning", "Using padding='same' with even kernel lengths and odd "
                                 "dilation may require a zero-padded copy of the input be created")]
    monkeypatch.setitem(F._warned, "same", False)
    assert caught(lambda: F.conv2d(minigrad.ones(1, 1, 4, 4), minigrad.ones(1, 1, 3, 3), padding="same"))[1] == []


def test_padding_modes_match_torch(oracle):
    """padding_mode other than zeros: F.pad's mode first, then a convolution without padding."""
    def program(lib):
        nn = lib.nn
        modules = [nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"),
                   nn.Conv2d(2, 3, (3, 2), padding="same", padding_mode="circular", dilation=2),
                   nn.Conv2d(2, 3, 3, padding=(2, 1), padding_mode="replicate", bias=False),
                   nn.Conv2d(2, 3, 3, padding="valid", padding_mode="reflect"),
                   nn.Conv1d(2, 3, 3, padding=2, padding_mode="replicate", stride=2)]
        with lib.no_grad():  # the same weights in both libraries
            for i, p in enumerate(p for m in modules for p in m.parameters()):
                p.copy_(lib.tensor(normal(tuple(p.shape), i + 1)))
        x = lib.tensor(normal((1, 2, 5, 6), 0), dtype=lib.float32, requires_grad=True)
        outs = [m(x if isinstance(m, nn.Conv2d) else x[:, :, 0]) for m in modules]
        return [(repr(m), m._reversed_padding_repeated_twice) for m in modules], outs
    oracle.same(program, check_repr=False, rtol=1e-5, atol=1e-6)  # float32 sums in another order
    # (PyTorch's text lists the modes of a set, in an order that changes from run to run)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(3, 4, 3, padding_mode="mirror")


def test_small_cnn_matches_torch(oracle):
    """The CIFAR-tutorial net, with the same weights in both libraries: every layer's
    output, the loss, every parameter's gradient, one SGD step."""
    def program(lib):
        nn = lib.nn
        net = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                            nn.MaxPool2d(2, 2), nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.ReLU(),
                            nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
        with lib.no_grad():
            for k, p in enumerate(net.parameters()):
                p.copy_(lib.tensor(normal(tuple(p.shape), k) * 0.1, dtype=lib.float32))
        x = lib.tensor(normal((4, 3, 32, 32), 99), dtype=lib.float32)
        shapes, h = [], x
        for layer in net:
            h = layer(h)
            shapes.append(tuple(h.shape))
        loss = nn.functional.cross_entropy(net(x), lib.tensor([1, 0, 3, 9]))
        loss.backward()
        lib.optim.SGD(net.parameters(), lr=0.1).step()
        grads = [p.grad for p in net.parameters()]
        # every gradient's norm; in full, the convolutions' and the last layer's (a short recording)
        return (shapes, loss, [g.norm() for g in grads], grads[:4] + grads[-2:],
                net[7].weight[:3, :5], net(x))
    oracle.same(program, rtol=1e-4, atol=1e-5, check_repr=False)  # float32 sums in another order


def test_lazy_modules_match_torch(oracle):
    def program(lib):
        nn = lib.nn
        with warnings.catch_warnings(record=True) as caught_warnings:
            warnings.simplefilter("always")
            net = nn.Sequential(nn.LazyConv2d(6, kernel_size=5, padding=2), nn.Sigmoid(),
                                nn.AvgPool2d(kernel_size=2, stride=2), nn.LazyConv2d(16, 5, bias=False),
                                nn.Flatten(), nn.LazyLinear(10), nn.LazyBatchNorm1d())
            lazy = nn.LazyLinear(3)
        out = {"warnings": [str(w.message) for w in caught_warnings], "before": repr(net),
               "types": [type(m).__name__ for m in net],
               "params": [repr(p) for p in net.parameters()],
               "state_dict": [(k, repr(v)) for k, v in net.state_dict().items()],
               "weight": repr(lazy.weight), "weight type": type(lazy.weight).__name__,
               "uninitialized": lazy.has_uninitialized_params()}
        x = lib.zeros(2, 1, 28, 28)
        shapes = []
        for layer in net:
            x = layer(x)
            shapes.append((type(layer).__name__, tuple(x.shape)))
        out.update({"shapes": shapes, "after": repr(net),
                    "param shapes": [(k, tuple(p.shape), type(p).__name__) for k, p in net.named_parameters()],
                    "buffers": [(k, tuple(b.shape), type(b).__name__) for k, b in net.named_buffers()],
                    "uninitialized after": net[0].has_uninitialized_params() if hasattr(net[0], "has_uninitialized_params") else None,
                    "linear in": net[5].in_features, "conv in": net[3].in_channels,
                    "bn": net[6].num_features, "tracked": net[6].num_batches_tracked})
        one = nn.LazyConv2d(4, 3)
        one(lib.zeros(2, 5, 5))  # one sample (C, H, W): in_channels from dim 0
        out["unbatched"] = repr(one)
        return out
    oracle.same(program)


def test_lazy_linear_init_and_training():
    """After its first call a LazyLinear is a Linear with the default init (bounds from the
    in_features it read), and the optimizer built from it trains its parameters."""
    minigrad.manual_seed(0)
    m = nn.LazyLinear(50)
    params = list(m.parameters())
    x = minigrad.randn(8, 400)
    y = m(x)
    assert type(m) is nn.Linear and m.in_features == 400 and y.shape == (8, 50)
    assert [type(p) for p in params] == [nn.Parameter, nn.Parameter]
    assert params[0] is m.weight and params[1] is m.bias  # the same objects, materialized in place
    assert np.abs(m.weight.detach().numpy()).max() <= 1 / 20 and np.abs(m.weight.detach().numpy()).max() > 0.04
    opt = minigrad.optim.SGD(params, lr=0.1)
    before = m.weight.detach().clone()
    m(x).sum().backward()
    opt.step()
    assert not minigrad.equal(before, m.weight.detach())
    assert m.weight.dtype == minigrad.float32
    assert nn.LazyLinear(2, dtype=minigrad.float64)(minigrad.zeros(1, 3, dtype=minigrad.float64)).dtype == \
        minigrad.float64


def test_batchnorm2d_matches_torch(oracle):
    """Training: each channel normalised over batch, height and width, running statistics
    moved by momentum (the unbiased variance); eval: the running ones. Then momentum=None
    (a plain average), no affine, no running statistics, and gradients."""
    def program(lib):
        x = lib.tensor(normal((4, 3, 5, 6), 0) * 2 + 1, requires_grad=True)
        bn = lib.nn.BatchNorm2d(3)
        with lib.no_grad():
            bn.weight.copy_(lib.tensor([1.0, 2.0, 0.5]))
            bn.bias.copy_(lib.tensor([0.0, -1.0, 3.0]))
        out = {"train": bn(x.float()), "running": (bn.running_mean, bn.running_var, bn.num_batches_tracked)}
        bn(x.float() * 3)
        bn.eval()
        out["eval"] = bn(x.float())
        out["running 2"] = (bn.running_mean, bn.running_var, bn.num_batches_tracked)
        avg = lib.nn.BatchNorm2d(3, momentum=None, dtype=lib.float64)
        for k in range(3):
            avg(x.detach() * (k + 1))
        out["cumulative"] = (avg.running_mean, avg.running_var)
        plain = lib.nn.BatchNorm2d(3, affine=False, track_running_stats=False, dtype=lib.float64)
        plain.eval()
        y = plain(x)  # no running statistics: the batch's own, even in eval
        y.backward(lib.tensor(normal((4, 3, 5, 6), 1)))
        # (values only: PyTorch's node also lists the absent weight and bias, as None)
        out["plain"], out["grad"] = y.detach(), x.grad
        bn64 = lib.nn.BatchNorm2d(3, dtype=lib.float64)
        x.grad = None
        (bn64(x) * lib.tensor(normal((4, 3, 5, 6), 2))).sum().backward()
        out["grads"] = (x.grad, bn64.weight.grad, bn64.bias.grad)
        return out
    oracle.same(program, check_repr=False)  # float32 sums in another order: a last digit may differ


def test_dropout2d_zeroes_whole_channels():
    minigrad.manual_seed(0)
    x = minigrad.ones(64, 16, 5, 5, requires_grad=True)
    drop = nn.Dropout2d(0.25)
    y = drop(x)
    maps = y.detach().numpy().reshape(64, 16, 25)
    assert set(np.unique(maps).tolist()) == {0.0, np.float32(1 / 0.75).item()}
    assert (maps.min(2) == maps.max(2)).all()  # each (sample, channel) map all kept or all dropped
    assert 0.15 < (maps[:, :, 0] == 0).mean() < 0.35
    assert type(y.grad_fn).__name__ == "MulBackward0"
    y.sum().backward()
    assert np.array_equal(x.grad.numpy(), y.detach().numpy())  # the gradient goes through the kept maps
    drop.eval()
    assert drop(x) is x
    assert F.dropout2d(x, 0.0) is x


def test_dropout2d_warnings_match_torch(oracle):
    def program(lib):
        return [[w[1] for w in caught(lambda: lib.nn.functional.dropout2d(lib.ones(*shape), training=False))[1]]
                for shape in [(2, 3, 4, 4), (3, 4, 4), (4, 4), (1, 2, 3, 4, 4)]]
    oracle.same(program)


def test_lazy_modules_load_state_dict_match_torch(oracle):
    """d2l's file I/O: a model saved, then loaded into a freshly built lazy model before its
    first call. The placeholders take the saved shapes; the first call makes it plain."""
    def program(lib):
        nn = lib.nn

        def build():
            return nn.Sequential(nn.LazyConv2d(2, 3), nn.LazyBatchNorm2d(), nn.Flatten(), nn.LazyLinear(3))

        lib.manual_seed(0)
        net = build()
        x = lib.tensor(normal((2, 1, 5, 5), 0), dtype=lib.float32)
        y = net(x)
        clone = build()
        keys = clone.load_state_dict(net.state_dict())
        before = repr(clone), [type(p).__name__ for p in clone.parameters()]
        clone.eval(), net.eval()
        same = lib.equal(clone(x), net(x))
        partial = nn.LazyLinear(2)
        result = partial.load_state_dict({"weight": lib.ones(2, 3)}, strict=False)
        return (y.shape, repr(keys), before, repr(clone), same, repr(result),
                [type(p).__name__ for p in partial.parameters()])
    oracle.same(program)
