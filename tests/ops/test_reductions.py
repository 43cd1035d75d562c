"""The reductions, scans and selections tutorials use beyond sum and max (issue 30c), against
PyTorch (recorded: tests/oracle.py): cummax, cummin, logcumsumexp, kthvalue, mode, nanmedian,
aminmax, quantile, nanquantile, std_mean, var_mean, msort, cumsum_, cumprod_; cov, corrcoef,
dist, cdist, renorm, histc, bucketize, searchsorted, unique_consecutive, trapezoid, trapz,
cumulative_trapezoid.

Each program returns what a learner sees: values, dtypes, the named results' reprs, which
index PyTorch returns among equal values (cummax: the last; kthvalue: its quickselect's;
mode: the last), NaN handling, grad_fn names and graphs, gradients, and the errors of the
usual mistakes in PyTorch's words. Finite differences: tests/ops/test_gradcheck.py (NEW_OPS).
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from oracle import assert_same, caught, error_of
from test_gradcheck import PROFILE

NAN = float("nan")


def _x(lib, *shape, requires_grad=True):
    n = 1
    for s in shape:
        n *= s
    return (lib.arange(float(n)).reshape(shape) * 7 % 5).requires_grad_(requires_grad)  # with ties


def _grads(lib, out, *leaves):
    """The result, then each leaf's gradient of a weighted sum of it."""
    weights = lib.arange(1.0, out.numel() + 1).reshape(out.shape)
    return out, lib.autograd.grad((out * weights).sum(), leaves, allow_unused=True)


def _named(lib, result, *leaves):
    """A named result (torch.return_types.cummax, ...): its repr, its fields, the gradient of
    its values."""
    values = result[0]
    fields = (result.values, result.indices) if type(result).__name__ != "aminmax" else (result.min, result.max)
    grads = lib.autograd.grad((values * lib.arange(1.0, values.numel() + 1).reshape(values.shape)).sum(),
                              leaves, allow_unused=True) if values.requires_grad else None
    return type(result).__name__, repr(result), fields, grads


TIES = [3.0, 1.0, 3.0, 1.0, 2.0, 1.0, 3.0]
WITH_NAN = [NAN, 1.0, 2.0, NAN, 0.0]

PROGRAMS = {
    # running extremes: the last of equal values, NaN sticks at the last NaN
    "cummax": lambda lib: (lambda x: _named(lib, x.cummax(1), x))(_x(lib, 3, 4)),
    "cummin dim 0": lambda lib: (lambda x: _named(lib, lib.cummin(x, dim=0), x))(_x(lib, 3, 4)),
    "cummax ties": lambda lib: (lambda x: _named(lib, x.cummax(0), x))(lib.tensor(TIES, requires_grad=True)),
    "cummin ties": lambda lib: (lambda x: _named(lib, lib.cummin(x, 0), x))(lib.tensor(TIES, requires_grad=True)),
    "cummax nan": lambda lib: [lib.tensor(WITH_NAN).cummax(0), lib.tensor(WITH_NAN).cummin(-1)],
    "cummax int, bool, 0-d": lambda lib: [lib.tensor([[1, 3, 2], [2, 2, 1]]).cummax(1),
                                          lib.tensor([True, False]).cummin(0), lib.tensor(2.0).cummax(0)],
    "logcumsumexp": lambda lib: (lambda x: _grads(lib, x.logcumsumexp(1), x))(_x(lib, 2, 4)),
    "logcumsumexp large": lambda lib: (lambda x: _grads(lib, lib.logcumsumexp(x, 0), x))(
        lib.tensor([[1000.0, -1000.0], [1000.0, 0.0], [-5.0, float("-inf")]], dtype=lib.float64, requires_grad=True)),
    "logcumsumexp 0-d": lambda lib: (lambda x: _grads(lib, x.logcumsumexp(0), x))(lib.tensor(2.0, requires_grad=True)),
    "logcumsumexp twice": lambda lib: (lambda x: (lambda g: (g, lib.autograd.grad(g.sum(), x)))(
        lib.autograd.grad((x.logcumsumexp(1) * lib.tensor([1.0, -2.0, 0.5])).sum(), x, create_graph=True)[0]))(
        _x(lib, 2, 3)),
    # selections along a dim
    "kthvalue": lambda lib: (lambda x: _named(lib, x.kthvalue(2, 1), x))(_x(lib, 3, 4)),
    "kthvalue keepdim": lambda lib: (lambda x: _named(lib, lib.kthvalue(x, 3, 0, True), x))(_x(lib, 4, 2)),
    "kthvalue ties": lambda lib: [lib.tensor(TIES).kthvalue(k) for k in range(1, 8)],
    "kthvalue ties, long": lambda lib: [lib.tensor([2, 2, 1, 2, 1, 2, 2, 1, 1, 2, 2]).kthvalue(k) for k in (1, 4, 5, 9)],
    "kthvalue nan": lambda lib: [lib.tensor(WITH_NAN).kthvalue(k) for k in (1, 3, 4, 5)],
    "kthvalue 0-d, int": lambda lib: [lib.tensor(3.0).kthvalue(1), lib.tensor([[1, 3, 2], [2, 2, 1]]).kthvalue(2, 1)],
    "mode": lambda lib: (lambda x: _named(lib, x.mode(1), x))(_x(lib, 3, 4)),
    "mode ties, long lines": lambda lib: [lib.tensor([float(v % 3) for v in range(40)]).mode(),
                                          lib.tensor([float(v * 7 % 5) for v in range(23)] + [NAN] * 3).mode(),
                                          lib.tensor([NAN, 1.0, NAN, 1.0]).mode()],
    "mode ties": lambda lib: [lib.tensor(TIES).mode(), lib.tensor([[2.0, 2, 1, 5, 5], [4, 0, 4, 0, 1]]).mode(1, True),
                              lib.mode(lib.tensor([True, False, True])), lib.tensor(3.0).mode()],
    "nanmedian()": lambda lib: (lambda x: _grads(lib, x.nanmedian(), x))(
        lib.tensor([[NAN, 1.0, 4.0], [2.0, NAN, 3.0]], requires_grad=True)),
    "nanmedian(dim)": lambda lib: (lambda x: _named(lib, lib.nanmedian(x, 1), x))(
        lib.tensor([[NAN, 1.0, 4.0], [2.0, 3.0, 3.0], [NAN, NAN, NAN]], requires_grad=True)),
    "nanmedian keepdim, int, empty": lambda lib: [
        lib.tensor([[1.0, NAN], [NAN, 5.0]]).nanmedian(0, keepdim=True), lib.tensor([[1, 3, 2], [2, 2, 1]]).nanmedian(),
        lib.tensor([[1, 3, 2], [2, 2, 1]]).nanmedian(1), lib.empty(0).nanmedian(), lib.empty(0, 3).nanmedian(1),
        lib.tensor([NAN, NAN]).nanmedian()],
    "aminmax()": lambda lib: (lambda x: _named(lib, x.aminmax(), x))(_x(lib, 3, 4)),
    "aminmax(dim)": lambda lib: (lambda x: _named(lib, lib.aminmax(x, dim=0, keepdim=True), x))(_x(lib, 3, 4)),
    "aminmax int, bool, nan, 0-d": lambda lib: [
        lib.tensor([[1, 3], [2, 0]]).aminmax(dim=-1), lib.tensor([True, False]).aminmax(),
        lib.tensor(WITH_NAN).aminmax(), lib.tensor(2.0).aminmax(dim=0), lib.empty(0, 3).aminmax(dim=1),
        lib.tensor([[1.0, 2.0]]).aminmax(keepdim=True)],
    # quantiles: PyTorch's steps, so its graph
    "quantile": lambda lib: (lambda x: _grads(lib, x.quantile(0.3), x))(_x(lib, 3, 4)),
    "quantile dim": lambda lib: (lambda x: _grads(lib, lib.quantile(x, 0.75, dim=1), x))(_x(lib, 3, 4)),
    "quantile dim 0 keepdim": lambda lib: (lambda x: _grads(lib, x.quantile(0.4, 0, True), x))(_x(lib, 3, 4)),
    "quantile q tensor": lambda lib: (lambda x: _grads(lib, x.quantile(lib.tensor([0.0, 0.25, 0.5, 1.0]), dim=1), x))(
        _x(lib, 2, 5)),
    "quantile q tensor, keepdim": lambda lib: (lambda x: _grads(lib, lib.quantile(x, lib.tensor([0.1, 0.9]), 0, True), x))(
        _x(lib, 3, 2, 2)),
    "quantile q 0-d tensor, all": lambda lib: (lambda x: _grads(lib, x.quantile(lib.tensor(0.6), keepdim=True), x))(
        _x(lib, 2, 3)),
    "quantile interpolations": lambda lib: (lambda x: [
        _grads(lib, x.quantile(q, 1, interpolation=mode), x)
        for q in (0.3, 0.5, 0.625) for mode in ("linear", "lower", "higher", "midpoint", "nearest")])(
        _x(lib, 2, 5)),
    "quantile float64, 1-d, 0-d": lambda lib: [
        lib.tensor([3.0, 1.0, 2.0, 10.0], dtype=lib.float64).quantile(lib.tensor([0.5, 0.9], dtype=lib.float64)),
        lib.tensor(4.0).quantile(0.5), lib.tensor(4.0).quantile(0.5, dim=0), lib.tensor([1.0, 2.0]).quantile(1)],
    "quantile nan": lambda lib: [lib.tensor(WITH_NAN).quantile(0.5), lib.tensor([[1.0, NAN, 3.0], [1.0, 2.0, 3.0]]).quantile(0.5, 1)],
    "nanquantile": lambda lib: (lambda x: _grads(lib, x.nanquantile(lib.tensor([0.25, 0.5]), 1), x))(
        lib.tensor([[NAN, 1.0, 4.0, 2.0], [2.0, NAN, NAN, 3.0], [NAN, NAN, NAN, NAN]], requires_grad=True)),
    "nanquantile lower, all": lambda lib: lib.nanquantile(
        lib.tensor([NAN, 1.0, 4.0, 2.0, 8.0]), 0.6, interpolation="lower"),
    # std_mean, var_mean: one node for both results in PyTorch (here one per result: same grads)
    "std_mean": lambda lib: (lambda x: (lambda r: (r, lib.autograd.grad((r[0] * 2 + r[1]).sum(), x)))(
        lib.std_mean(x, 1)))(_x(lib, 3, 4)),
    "var_mean": lambda lib: (lambda x: (lambda r: (r, lib.autograd.grad((r[0] * r[1]).sum(), x)))(
        lib.var_mean(x, (0, 1), correction=0, keepdim=True)))(_x(lib, 3, 4)),
    "std_mean forms": lambda lib: (lambda x: [
        lib.std_mean(x), lib.std_mean(x, False), lib.std_mean(x, 0, True, True), lib.var_mean(x, dim=1, unbiased=False),
        lib.var_mean(x, correction=2), lib.std_mean(x, keepdim=True), lib.var_mean(x, None, keepdim=True)])(
        _x(lib, 3, 4, requires_grad=False)),
    "var_mean of one": lambda lib: caught(lambda: lib.var_mean(lib.tensor([1.0]))),
    "std_mean twice": lambda lib: (lambda x: (lambda g: (g, lib.autograd.grad(g.sum(), x)))(
        lib.autograd.grad(lib.std_mean(x * x, 0)[0].sum(), x, create_graph=True)[0]))(_x(lib, 3, 2)),
    # msort, cumsum_, cumprod_
    "msort": lambda lib: (lambda x: _grads(lib, lib.msort(x), x))(_x(lib, 3, 4)),
    "msort 0-d, method": lambda lib: [lib.msort(lib.tensor(2.0)), lib.tensor([[3, 1], [2, 5], [1, 1]]).msort()],
    "cumsum_ cumprod_": lambda lib: (lambda x: (lambda y: (y, y.grad_fn.name(), lib.autograd.grad(y.sum(), x)))(
        (x * 1).cumsum_(1).cumprod_(0)))(_x(lib, 2, 3)),
    "cumsum_ int": lambda lib: (lambda y: [y.cumsum_(0), y._version])(lib.tensor([1, 2, 3], dtype=lib.int32)),
    # statistics of several variables, distances
    "cov": lambda lib: (lambda x: _grads(lib, x.cov(), x))(_x(lib, 3, 4)),
    "cov correction 0, 1-d": lambda lib: (lambda x: [_grads(lib, lib.cov(x, correction=0), x),
                                                     _grads(lib, lib.cov(x[1]), x)])(_x(lib, 3, 4)),
    "cov fweights": lambda lib: (lambda x: _grads(lib, x.cov(fweights=lib.tensor([1, 2, 0, 1])), x))(_x(lib, 3, 4)),
    "cov aweights": lambda lib: (lambda x: _grads(lib, lib.cov(x, aweights=lib.tensor([1.0, 2, 1, 0.5])), x))(
        _x(lib, 3, 4)),
    "cov both weights": lambda lib: (lambda x: _grads(lib, x.cov(correction=2, fweights=lib.tensor([1, 2, 3, 1]),
                                                                 aweights=lib.tensor([1.0, 0.5, 1, 2])), x))(_x(lib, 2, 4)),
    "cov int, one observation": lambda lib: [lib.tensor([[1, 3, 2], [2, 2, 1]]).cov(),
                                             caught(lambda: lib.cov(lib.tensor([[1.0], [2.0]])))],
    "corrcoef": lambda lib: (lambda x: _grads(lib, x.corrcoef(), x))(_x(lib, 3, 4) + lib.tensor([0.0, 0.5, 0.25, 2.0])),
    "corrcoef 1-d, constant, int": lambda lib: [lib.corrcoef(lib.tensor([1.0, 2, 4])), lib.corrcoef(lib.tensor([1.0, 1, 1])),
                                                lib.tensor([[1.0, 1, 1], [1, 2, 3]]).corrcoef(),
                                                lib.tensor([[1, 3, 2], [2, 2, 1]]).corrcoef()],
    "dist": lambda lib: (lambda a, b: [_grads(lib, a.dist(b, p), a, b) for p in (2, 1, 3, 0.5, float("inf"))] + [
        lib.dist(a, b, 0)])(_x(lib, 2, 3), lib.tensor([1.0, -1.0, 2.0], requires_grad=True)),
    "dist at 0, float64": lambda lib: (lambda a: [_grads(lib, lib.dist(a, a.detach()), a),
                                                  lib.dist(a, lib.ones(3, dtype=lib.float64))])(_x(lib, 3)),
    "cdist": lambda lib: (lambda a, b: [_grads(lib, lib.cdist(a, b, p), a, b) for p in (2, 1, 0, 3, 1.5, 0.5, float("inf"))])(
        _x(lib, 3, 2), lib.tensor([[0.0, 1.0], [2.0, 2.0], [1.0, 1.0], [4.0, 0.0]], requires_grad=True)),
    "cdist batched, broadcast": lambda lib: (lambda a, b: _grads(lib, lib.cdist(a, b), a, b))(
        _x(lib, 2, 1, 3, 2), _x(lib, 3, 4, 2)),
    "cdist matrix product": lambda lib: (lambda a, b: _grads(lib, lib.cdist(a, b), a, b))(
        (lib.arange(60.0).reshape(30, 2) * 7 % 11).requires_grad_(), _x(lib, 4, 2)),
    "cdist matrix product, batched": lambda lib: (lambda a, b: [
        _grads(lib, lib.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), a, b),
        _grads(lib, lib.cdist(a, b[0], compute_mode="use_mm_for_euclid_dist"), a, b)])(_x(lib, 2, 3, 2), _x(lib, 2, 2, 2)),
    "cdist no matrix product": lambda lib: (lambda a: _grads(lib, lib.cdist(a, a, compute_mode="donot_use_mm_for_euclid_dist"), a))(
        (lib.arange(60.0).reshape(30, 2) * 7 % 11).requires_grad_()),
    "renorm": lambda lib: (lambda x: [_grads(lib, x.renorm(p, d, m), x) for p, d, m in ((2, 0, 5), (1, 1, 4), (3, -1, 2.5),
                                                                                      (float("inf"), 1, 2))])(_x(lib, 3, 4)),
    "renorm twice": lambda lib: (lambda x: (lambda g: (g, lib.autograd.grad((g * g).sum(), x)))(
        lib.autograd.grad((lib.renorm(x, 2, 0, 3) * lib.arange(12.0).reshape(3, 4)).sum(), x, create_graph=True)[0]))(
        _x(lib, 3, 4)),
    # counting and searching (no gradient)
    "histc": lambda lib: (lambda x: [x.histc(4), lib.histc(x, bins=3, min=1, max=3), x.double().histc(2, 0.5, 2.5),
                                     lib.histc(lib.tensor([2.0, 2.0]), 3), lib.empty(0).histc(4)])(_x(lib, 3, 4)),
    "histc edges": lambda lib: lib.histc(lib.tensor([0.1, 0.2, 0.3, 0.7, 1.0, 1.5, -0.5]), 10, 0, 1),
    "bucketize": lambda lib: (lambda x, b: [lib.bucketize(x, b), lib.bucketize(x, b, right=True), lib.bucketize(3, b),
                                            lib.bucketize(x.long(), b, out_int32=True), lib.bucketize(x, b.long())])(
        _x(lib, 3, 4), lib.tensor([1.0, 2.0, 4.0])),
    "searchsorted": lambda lib: (lambda x, b: [
        lib.searchsorted(b, x), lib.searchsorted(b, x, right=True), lib.searchsorted(b, x, side="right"),
        lib.searchsorted(b, 2.0), lib.searchsorted(lib.tensor([[1.0, 3], [2, 5], [0, 1]]), x),
        lib.searchsorted(lib.tensor([3.0, 1, 2]), x, sorter=lib.tensor([1, 2, 0])),
        lib.searchsorted(b, x.long(), out_int32=True), lib.searchsorted(b, x, side="left", right=False)])(
        _x(lib, 3, 4), lib.tensor([1.0, 2.0, 4.0])),
    "unique_consecutive": lambda lib: (lambda t: [
        lib.unique_consecutive(t), t.unique_consecutive(return_inverse=True, return_counts=True),
        lib.tensor([[1, 1], [1, 1], [2, 3]]).unique_consecutive(dim=0, return_counts=True),
        lib.tensor([[1, 1], [1, 1], [2, 3]]).unique_consecutive(return_inverse=True),
        lib.unique_consecutive(lib.tensor([[1, 1], [1, 1], [2, 3]]), return_inverse=True, dim=1),
        lib.unique_consecutive(lib.tensor(3.0)), lib.unique_consecutive(lib.tensor([NAN, NAN, 1.0])),
        lib.unique_consecutive(lib.empty(0), return_counts=True)])(lib.tensor([1, 1, 2, 2, 3, 1, 1, 2])),
    "unique_consecutive grad_fn": lambda lib: (lambda y: (y, error_of(lambda: y.sum().backward())))(
        lib.unique_consecutive(_x(lib, 2, 3))),
    # integrals
    "trapezoid": lambda lib: (lambda y: [_grads(lib, lib.trapezoid(y), y), _grads(lib, lib.trapezoid(y, dx=0.5, dim=0), y),
                                         _grads(lib, lib.trapz(y, dx=2), y)])(_x(lib, 3, 4)),
    "trapezoid x": lambda lib: (lambda y, x: [_grads(lib, lib.trapezoid(y, x), y, x), _grads(lib, lib.trapz(y, x), y, x),
                                              _grads(lib, lib.trapezoid(y, y), y)])(
        _x(lib, 3, 4), lib.tensor([0.0, 1, 3, 4], requires_grad=True)),
    "trapezoid x shapes": lambda lib: [lib.trapezoid(_x(lib, 3, 4), lib.tensor([[0.0, 1, 3, 4]])),
                                       lib.trapezoid(lib.tensor([1.0, 2]), lib.ones(3, 2)),
                                       lib.trapezoid(_x(lib, 2, 3), lib.tensor([0.0, 2.0]), dim=0),
                                       lib.trapezoid(_x(lib, 3, 4), lib.tensor([0, 1, 3, 4]))],
    "trapezoid int, empty": lambda lib: [lib.trapezoid(lib.tensor([[1, 3, 2], [2, 2, 1]])),
                                         lib.trapezoid(lib.tensor([[1, 3, 2]]), dx=0.5), lib.trapezoid(lib.empty(3, 0)),
                                         lib.cumulative_trapezoid(lib.tensor([[1, 3, 2]])),
                                         lib.trapezoid(_x(lib, 3, 4), dx=lib.tensor(2.0))],
    "cumulative_trapezoid": lambda lib: (lambda y, x: [
        _grads(lib, lib.cumulative_trapezoid(y), y), _grads(lib, lib.cumulative_trapezoid(y, dx=3.0, dim=0), y),
        _grads(lib, lib.cumulative_trapezoid(y, x, dim=1), y, x)])(_x(lib, 3, 4), lib.tensor([0.0, 1, 3, 4], requires_grad=True)),
    # (no samples along dim, or one: empty results that still have PyTorch's graph; the fuzzer's find)
    "cumulative_trapezoid empty": lambda lib: (lambda y, z: [
        _grads(lib, lib.cumulative_trapezoid(y, dim=0), y), _grads(lib, lib.cumulative_trapezoid(y, dx=2.0), y),
        _grads(lib, lib.cumulative_trapezoid(z, dim=1), z),
        _grads(lib, lib.cumulative_trapezoid(y, lib.zeros(0, requires_grad=True), dim=0), y)])(
        lib.zeros(0, 2, requires_grad=True), lib.ones(2, 1, requires_grad=True)),
}


# std's backward is written as minigrad's Std writes it (grad * (x - mean) * 2 / dof, expanded),
# not with PyTorch's MaskedFill and MulBackward1 nodes: same values, another graph when
# differentiated twice
# renorm's too: PyTorch's renorm_backward computes in float64 and casts back (ToCopyBackward0),
# and factors its terms otherwise
OTHER_GRAPH = {"std_mean twice", "renorm twice"}
# logcumsumexp's gradient ends in a float32 exp, whose last bit NumPy and PyTorch round apart;
# cov's gradients come from matrix products summed in another order: equal within the
# tolerance, but a repr can show 2.5281 for 2.5280 (or -1.2e-07 for 0, 3.6e-07 for 1.2e-07); so
# can cdist's matrix-product form (a float32 product, summed in another order)
LAST_BIT = {"logcumsumexp", "logcumsumexp twice", "cov", "cov both weights", "cdist matrix product",
            "cdist matrix product, batched"}


@pytest.mark.parametrize("name", PROGRAMS)
def test_reduce_more(oracle, name):
    oracle.same(PROGRAMS[name], check_graph=name not in OTHER_GRAPH, check_repr=name not in LAST_BIT)


def test_reduce_more_warning(oracle):
    """Too few values for the correction: PyTorch warns (its words, the function's name)."""
    def program(lib):
        return [caught(lambda: lib.var_mean(lib.tensor([1.0, 2.0]), correction=2)),
                caught(lambda: lib.cov(lib.tensor([[1.0, 3, 2], [2, 2, 1]]), correction=4))]
    oracle.same(program)


@settings(PROFILE, max_examples=60)
@given(seed=st.integers(0, 2 ** 16), n=st.integers(1, 60), rows=st.integers(1, 3), nan=st.booleans())
def test_ties_and_nans_match_torch_hypothesis(torch, seed, n, rows, nan):
    """Lines of small integers (many ties), some NaN: which index kthvalue (PyTorch's quickselect),
    mode (C++'s std::sort), cummax, cummin and nanmedian pick, and quantile's values, bit for
    bit. The recorded cases above hold seeded examples of each."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, (rows, n)).astype(np.float32)
    if nan:
        x[rng.random(x.shape) < 0.2] = np.nan
    k = int(rng.integers(1, n + 1))

    def program(lib):
        t = lib.tensor(x)
        return [t.kthvalue(k), t.mode(1), t.cummax(1), t.cummin(1), t.nanmedian(1), t.quantile(0.3, 1),
                t.nanquantile(0.7, 1)]
    assert_same(program(minigrad), program(torch), rtol=0, atol=0)


MISTAKES = {
    "cummax: dim out of range": lambda lib, x: x.cummax(2),
    "cummin: negative dim out of range": lambda lib, x: lib.cummin(x, -3),
    "logcumsumexp: long": lambda lib, x: x.long().logcumsumexp(1),
    "logcumsumexp: dim out of range": lambda lib, x: x.logcumsumexp(2),
    "kthvalue: k 0": lambda lib, x: x.kthvalue(0, 1),
    "kthvalue: k too large": lambda lib, x: lib.kthvalue(x, 4),
    "kthvalue: k too large, negative dim": lambda lib, x: x.kthvalue(5, -2),
    "kthvalue: dim out of range": lambda lib, x: x.kthvalue(1, 5),
    "kthvalue: bool": lambda lib, x: (x > 0).kthvalue(1),
    "kthvalue: empty": lambda lib, x: lib.empty(0).kthvalue(1),
    "mode: dim out of range": lambda lib, x: x.mode(5),
    "mode: empty": lambda lib, x: lib.empty(0).mode(),
    "nanmedian: empty dim": lambda lib, x: lib.empty(0, 3).nanmedian(0),
    "nanmedian: dim out of range": lambda lib, x: x.nanmedian(4),
    "nanmedian: bool": lambda lib, x: (x > 0).nanmedian(),
    "aminmax: empty": lambda lib, x: lib.empty(0).aminmax(),
    "aminmax: empty dim": lambda lib, x: lib.empty(0, 3).aminmax(dim=0),
    "aminmax: dim out of range": lambda lib, x: x.aminmax(dim=4),
    "aminmax: positional dim": lambda lib, x: x.aminmax(1),
    "quantile: q above 1": lambda lib, x: x.quantile(1.5),
    "quantile: q below 0": lambda lib, x: lib.quantile(x, -0.1),
    "nanquantile: q 2": lambda lib, x: x.nanquantile(2.0),
    "quantile: q tensor out of range": lambda lib, x: x.quantile(lib.tensor([0.5, 1.2])),
    "quantile: long input": lambda lib, x: x.long().quantile(0.5),
    "quantile: float64 q": lambda lib, x: x.quantile(lib.tensor([0.5], dtype=lib.float64)),
    "quantile: 2-d q": lambda lib, x: x.quantile(lib.tensor([[0.5]])),
    "quantile: empty": lambda lib, x: lib.empty(0).quantile(0.5),
    "quantile: empty along dim": lambda lib, x: lib.empty(0, 3).quantile(0.5, dim=1),
    "quantile: interpolation": lambda lib, x: x.quantile(0.5, interpolation="cubic"),
    "quantile: dim out of range": lambda lib, x: x.quantile(0.5, dim=3),
    "std_mean: long": lambda lib, x: lib.std_mean(x.long()),
    "var_mean: dim out of range": lambda lib, x: lib.var_mean(x, 5),
    "cumsum_: bool": lambda lib, x: lib.tensor([True]).cumsum_(0),
    "cumprod_: a leaf": lambda lib, x: x.requires_grad_().cumprod_(0),
    "cov: 3-d": lambda lib, x: lib.cov(lib.ones(2, 2, 2)),
    "cov: bool": lambda lib, x: (x > 1).cov(),
    "cov: float fweights": lambda lib, x: lib.cov(x, fweights=lib.tensor([1.0, 2, 1])),
    "cov: fweights of the wrong length": lambda lib, x: x.cov(fweights=lib.tensor([1, 2])),
    "cov: negative fweights": lambda lib, x: x.cov(fweights=lib.tensor([1, -2, 1])),
    "cov: 2-d fweights": lambda lib, x: x.cov(fweights=lib.tensor([[1, 2, 1]])),
    "cov: integer aweights": lambda lib, x: x.cov(aweights=lib.tensor([1, 2, 1])),
    "cov: negative aweights": lambda lib, x: x.cov(aweights=lib.tensor([1.0, -2, 1])),
    "cov: weights sum to 0": lambda lib, x: lib.cov(x, aweights=lib.zeros(3)),
    "corrcoef: 3-d": lambda lib, x: lib.corrcoef(lib.ones(2, 2, 2)),
    "dist: shapes": lambda lib, x: lib.dist(x, lib.ones(2)),
    "dist: long": lambda lib, x: lib.dist(x.long(), x.long()),
    "dist: p a string": lambda lib, x: lib.dist(x, x, "fro"),
    "dist: p a string, method": lambda lib, x: x.dist(x, "fro"),
    "cdist: 1-d": lambda lib, x: lib.cdist(x, lib.ones(3)),
    "cdist: columns differ": lambda lib, x: lib.cdist(x, lib.ones(2, 2)),
    "cdist: negative p": lambda lib, x: lib.cdist(x, x, p=-1),
    "cdist: long": lambda lib, x: lib.cdist(x.long(), x.long()),
    "cdist: float64 and float32": lambda lib, x: lib.cdist(x, x.double()),
    "cdist: batches differ": lambda lib, x: lib.cdist(lib.ones(2, 3, 4), lib.ones(3, 5, 4)),
    "cdist: compute_mode": lambda lib, x: lib.cdist(x, x, compute_mode="fast"),
    "renorm: negative maxnorm": lambda lib, x: x.renorm(2, 0, -1),
    "renorm: p 0": lambda lib, x: x.renorm(0, 0, 1),
    "renorm: long": lambda lib, x: lib.renorm(x.long(), 2, 0, 1),
    "renorm: dim out of range": lambda lib, x: x.renorm(2, 3, 1),
    "renorm: 1-d": lambda lib, x: lib.tensor([1.0, 2]).renorm(2, 0, 1),
    "histc: long": lambda lib, x: lib.histc(x.long()),
    "histc: 0 bins": lambda lib, x: x.histc(0),
    "histc: min above max": lambda lib, x: x.histc(3, 3, 1),
    "histc: infinite": lambda lib, x: lib.tensor([1.0, float("inf")]).histc(),
    "bucketize: 2-d boundaries": lambda lib, x: lib.bucketize(x, lib.ones(3, 1)),
    "searchsorted: side and right": lambda lib, x: lib.searchsorted(lib.ones(3), x, side="left", right=True),
    "searchsorted: side": lambda lib, x: lib.searchsorted(lib.ones(3), x, side="middle"),
    "searchsorted: rows differ": lambda lib, x: lib.searchsorted(lib.ones(3, 2), x),
    "searchsorted: sorter size": lambda lib, x: lib.searchsorted(lib.ones(3), x, sorter=lib.tensor([1, 0])),
    "unique_consecutive: dim out of range": lambda lib, x: x.unique_consecutive(dim=2),
    "trapezoid: dim out of range": lambda lib, x: lib.trapezoid(x, dim=2),
    "trapezoid: bool": lambda lib, x: lib.trapezoid(x > 1),
    "trapezoid: 0-d": lambda lib, x: lib.trapezoid(lib.tensor(1.0)),
    "cumulative_trapezoid: 0-d": lambda lib, x: lib.cumulative_trapezoid(lib.tensor(1.0), dim=0),
    "cumulative_trapezoid: 0-d with x": lambda lib, x: lib.cumulative_trapezoid(lib.tensor(1.0), lib.tensor(2.0)),
    "cumulative_trapezoid: 0-d with 1-d x": lambda lib, x: lib.cumulative_trapezoid(lib.tensor(1.0), lib.ones(3)),
    "trapezoid: x of the wrong length": lambda lib, x: lib.trapezoid(x, lib.tensor([1.0, 2])),
    "trapezoid: x and dx": lambda lib, x: lib.trapezoid(x, lib.tensor([0.0, 1, 3]), dx=2),
    "trapezoid: x a number": lambda lib, x: lib.trapezoid(x, 2),
    "trapz: x a number": lambda lib, x: lib.trapz(x, 2),
    "cumulative_trapezoid: x and dx": lambda lib, x: lib.cumulative_trapezoid(x, x, dx=1),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_reduce_more_mistakes(oracle, name):
    oracle.same(lambda lib: error_of(lambda: MISTAKES[name](lib, lib.tensor([[1.0, 3, 2], [2, 2, 1]]))))


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_of_an_empty_tensor_second_order(oracle, op):
    """PyTorch's gradient of an empty input to cummax/cummin is the input itself: with
    create_graph it is part of the input's graph (requires grad, not a leaf). Found by the
    fuzzer."""
    def program(T):
        w = T.zeros(2, 2, requires_grad=True)
        x = (w * 1)[0:0].clone()
        g, = T.autograd.grad(getattr(x, op)(dim=0)[0].sum(), w, create_graph=True)
        return g, g.requires_grad, g.is_leaf
    oracle.same(program)
