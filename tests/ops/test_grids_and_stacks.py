"""Names that plotting and data-assembly tutorials use, against PyTorch (issue 26f):
``meshgrid`` (decision-boundary plots), ``hstack``, ``vstack``, ``row_stack``,
``column_stack``, ``dstack`` and ``atleast_1d/2d/3d``, ``nansum``, ``nanmean``, ``diff``.

Each program runs in both libraries from the same NumPy inputs (PyTorch's answer recorded,
tests/oracle.py): values, dtypes, ``grad_fn`` graphs, gradients, warnings and error texts.
Finite-difference checks of the gradients are in test_gradcheck.py (NEW_OPS).
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad

from oracle import assert_same, caught
from test_vs_torch import diff as known_diff

NAN = float("nan")


def _inputs(lib, arrays):
    return [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]


def _answer(lib, fn, arrays):
    """The outputs of ``fn(lib, *inputs)``, then each input's gradient after a backward of
    every output weighted differently (so that a gradient sent to the wrong input shows)."""
    ins = _inputs(lib, arrays)
    if hasattr(lib, "set_warn_always"):  # PyTorch warns once a process: here at every call
        lib.set_warn_always(True)
    try:
        out, warned = caught(fn, lib, *ins)
    finally:
        if hasattr(lib, "set_warn_always"):
            lib.set_warn_always(False)
    outs = out if isinstance(out, tuple) else (out,)
    weighted = [(o * (i + 1)).sum() for i, o in enumerate(outs) if o.requires_grad]
    if weighted:
        lib.autograd.backward(weighted)
    return {"outputs": outs, "warnings": warned, "grads": [x.grad for x in ins]}


def _cases(table):
    return [pytest.param(fn, arrays, id=name) for name, (fn, arrays) in table.items()]


V3 = np.array([1.0, 2.0, 3.0], np.float32)
V2 = np.array([-1.0, 0.5], np.float32)
M23 = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
S = np.array(2.5, np.float32)

# ---------------------------------------------------------------------------------------------
# meshgrid: views (ViewBackward0 then ExpandBackward0), "ij" by default with a warning
# ---------------------------------------------------------------------------------------------

MESHGRID = {
    "xy (a plot's grid)": (lambda lib, x, y: lib.meshgrid(x, y, indexing="xy"), [V3, V2]),
    "ij": (lambda lib, x, y: lib.meshgrid(x, y, indexing="ij"), [V3, V2]),
    "no indexing: ij, warns": (lambda lib, x, y: lib.meshgrid(x, y), [V3, V2]),
    "a list": (lambda lib, x, y: lib.meshgrid([x, y], indexing="xy"), [V3, V2]),
    "a tuple, three tensors, xy": (lambda lib, x, y, z: lib.meshgrid((x, y, z), indexing="xy"),
                                   [V3, V2, np.array([4.0, 5.0, 6.0, 7.0], np.float32)]),
    "one tensor, xy": (lambda lib, x: lib.meshgrid(x, indexing="xy"), [V3]),
    "0-d and 1-D, xy": (lambda lib, s, x: lib.meshgrid(s, x, indexing="xy"), [S, V3]),
    "0-d alone": (lambda lib, s: lib.meshgrid(s, indexing="ij"), [S]),
    "float64": (lambda lib, x, y: lib.meshgrid(x, y, indexing="xy"),
                [V3.astype(np.float64), V2.astype(np.float64)]),
    "int64 (no grad)": (lambda lib, x, y: lib.meshgrid(x, y, indexing="ij"), [np.arange(3), np.arange(2)]),
    "empty": (lambda lib, x, y: lib.meshgrid(x, y, indexing="xy"), [np.zeros(0, np.float32), V2]),
    "a decision-boundary grid": (lambda lib: _decision_grid(lib), []),
}


def _decision_grid(lib):
    """A classifier's plot: a grid of points, flattened into a batch of (x, y) rows."""
    xx, yy = lib.meshgrid(lib.linspace(-1, 1, 4), lib.linspace(0, 2, 3), indexing="xy")
    points = lib.stack([xx.reshape(-1), yy.reshape(-1)], 1)
    return xx, yy, points, lib.column_stack([xx.flatten(), yy.flatten()])


@pytest.mark.parametrize("fn, arrays", _cases(MESHGRID))
def test_meshgrid(oracle, fn, arrays):
    oracle.same(lambda lib: _answer(lib, lambda lib, *ins: tuple(fn(lib, *ins)), arrays))


def test_meshgrid_is_a_view(oracle):
    """Its outputs share the input's memory (a write to the input shows in the grid), as PyTorch's."""
    def program(lib):
        x, y = lib.tensor([1.0, 2.0, 3.0]), lib.tensor([4.0, 5.0])
        xx, yy = lib.meshgrid(x, y, indexing="xy")
        x[0] = 10.0
        return xx, yy, xx.is_contiguous(), xx.stride()
    oracle.same(program)


MESHGRID_ERRORS = {
    "no tensors": lambda lib: lib.meshgrid(indexing="ij"),
    "an empty list": lambda lib: lib.meshgrid([], indexing="xy"),
    "bad indexing": lambda lib: lib.meshgrid(lib.ones(2), indexing="ji"),
    "mixed dtypes": lambda lib: lib.meshgrid(lib.ones(2), lib.ones(2, dtype=lib.float64), indexing="ij"),
    "int and float": lambda lib: lib.meshgrid(lib.arange(2), lib.ones(2), indexing="xy"),
    "a matrix": lambda lib: lib.meshgrid(lib.zeros(2, 2), lib.ones(2), indexing="xy"),
    "lists": lambda lib: lib.meshgrid([1, 2], [3, 4], indexing="ij"),
    "a number": lambda lib: lib.meshgrid(lib.ones(2), 3, indexing="xy"),
}
MESHGRID_DIFFS = {"a matrix": "meshgrid of a matrix: PyTorch's message prints the tensor in its legacy "
                              "C++ format (' 0  0\\n 0  0\\n[ torch.FloatTensor{2,2} ]'); minigrad names "
                              "its shape"}


@pytest.mark.parametrize("fn", [pytest.param(fn, id=name, marks=[known_diff(MESHGRID_DIFFS[name])]
                                             if name in MESHGRID_DIFFS else [])
                                for name, fn in MESHGRID_ERRORS.items()])
def test_meshgrid_errors(oracle, fn):
    oracle.same_error(fn)


def test_meshgrid_warning_shown_once(oracle):
    """Without ``indexing`` PyTorch warns from inside the library, so Python's default filter
    shows the warning once, not at every call (minigrad: attributed to its own line)."""
    import warnings

    def program(lib):
        with warnings.catch_warnings(record=True) as log:
            warnings.simplefilter("default")
            if hasattr(lib, "set_warn_always"):  # PyTorch's warn-once: only the first call in a process
                lib.set_warn_always(True)
            try:
                for _ in range(3):
                    lib.meshgrid(lib.ones(2), lib.ones(3))
            finally:
                if hasattr(lib, "set_warn_always"):
                    lib.set_warn_always(False)
        return len(log), str(log[0].message).split(" (Triggered")[0], log[0].category.__name__, \
            log[0].filename.endswith(".py") and "test_" not in log[0].filename
    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# hstack, vstack (row_stack), column_stack, dstack; atleast_1d/2d/3d
# ---------------------------------------------------------------------------------------------

STACKS = {
    "hstack vectors": (lambda lib, a, b: lib.hstack([a, b]), [V3, V2]),
    "hstack matrices": (lambda lib, a, b: lib.hstack((a, b)), [M23, M23[:, :1].copy()]),
    "hstack numbers": (lambda lib, s, t: lib.hstack([s, t]), [S, S * 2]),
    "hstack vector and number": (lambda lib, a, s: lib.hstack([a, s]), [V3, S]),
    "vstack vectors": (lambda lib, a, b: lib.vstack([a, b]), [V3, V3 * 2]),
    "vstack matrix and vector": (lambda lib, m, a: lib.vstack([m, a]), [M23, V3]),
    "vstack numbers": (lambda lib, s, t: lib.vstack([s, t]), [S, S * 2]),
    "row_stack": (lambda lib, a, b: lib.row_stack([a, b]), [V3, V3 * 2]),
    "column_stack vectors": (lambda lib, a, b: lib.column_stack([a, b]), [V3, V3 * 2]),
    "column_stack matrix and vector": (lambda lib, m, a: lib.column_stack([m, a]), [M23, V2]),
    "column_stack numbers": (lambda lib, s, t: lib.column_stack((s, t)), [S, S * 2]),
    "dstack": (lambda lib, a, b, m: lib.dstack([a, b, m]), [V3, V3 * 2, M23[:1].copy()]),
    "dstack numbers": (lambda lib, s, t: lib.dstack([s, t]), [S, S * 2]),
    "mixed dtypes promote": (lambda lib, a, i, b: (lib.hstack([a, i]), lib.vstack([i, b]),
                                                   lib.column_stack([a, b])),
                             [V3, np.arange(3), V3.astype(np.float64)]),
    "int64": (lambda lib, i, j: lib.vstack([i, j]), [np.arange(3), np.arange(3, 6)]),
    "cat promotes as PyTorch": (lambda lib, a, i, b, t: (lib.cat([a, i]), lib.cat([i, b, t]),
                                                         lib.cat([t, i])),
                                [V3, np.arange(3), V3.astype(np.float64), np.array([True, False])]),
    "atleast_1d": (lambda lib, s, a, m: (lib.atleast_1d(s), lib.atleast_1d(a), lib.atleast_1d(m)),
                   [S, V3, M23]),
    "atleast_2d": (lambda lib, s, a, m: lib.atleast_2d(s, a, m), [S, V3, M23]),
    "atleast_3d": (lambda lib, s, a, m: lib.atleast_3d([s, a, m]), [S, V3, M23]),
}


@pytest.mark.parametrize("fn, arrays", _cases(STACKS))
def test_stacks(oracle, fn, arrays):
    oracle.same(lambda lib: _answer(lib, fn, arrays))


def test_atleast_returns_the_tensor_itself(oracle):
    def program(lib):
        a, m = lib.ones(3), lib.ones(2, 3)
        return (lib.atleast_1d(a) is a, lib.atleast_2d(m) is m, lib.atleast_1d(m) is m,
                lib.atleast_3d(m) is m, type(lib.atleast_1d(a, m)).__name__,
                type(lib.atleast_2d([a])).__name__)
    oracle.same(program)


STACK_ERRORS = {
    f"{name} {case}": (lambda name, fn: lambda lib: fn(getattr(lib, name), lib))(name, fn)
    for name in ("hstack", "vstack", "column_stack", "dstack")
    for case, fn in {
        "empty": lambda f, lib: f([]),
        "a tensor": lambda f, lib: f(lib.ones(2, 2)),
        "sizes": lambda f, lib: f([lib.ones(2, 3), lib.ones(3, 2)]),
        "lists": lambda f, lib: f([[1, 2], [3]]),
        "a tensor and a number": lambda f, lib: f((lib.ones(2), 1.0)),
    }.items()
}


@pytest.mark.parametrize("fn", [pytest.param(fn, id=name) for name, fn in STACK_ERRORS.items()])
def test_stack_errors(oracle, fn):
    oracle.same_error(fn)


# ---------------------------------------------------------------------------------------------
# nansum, nanmean: NaNs skipped, their gradient 0
# ---------------------------------------------------------------------------------------------

X = np.array([[1.0, NAN, 3.0], [NAN, NAN, 2.5]], np.float32)

NAN_REDUCTIONS = {
    "nansum": (lambda lib, x: x.nansum(), [X]),
    "torch.nansum(dim)": (lambda lib, x: lib.nansum(x, 1), [X]),
    "nansum(dim, keepdim)": (lambda lib, x: x.nansum(0, keepdim=True), [X]),
    "nansum(dims)": (lambda lib, x: x.nansum((0, -1)), [X]),
    "nansum(axis=, keepdims=)": (lambda lib, x: x.nansum(axis=1, keepdims=True), [X]),
    "nansum(dtype=float64)": (lambda lib, x: lib.nansum(x, -1, dtype=lib.float64), [X]),
    "nansum all NaN": (lambda lib, x: x[1:, 1:].nansum(), [X]),
    "nansum float64": (lambda lib, x: x.nansum(1), [X.astype(np.float64)]),
    "nansum int": (lambda lib, i: (i.nansum(), i.nansum(0, dtype=lib.int32), i.nansum(dtype=lib.float32)),
                   [np.arange(6, dtype=np.int32).reshape(2, 3)]),
    "nansum bool": (lambda lib, b: lib.nansum(b), [np.array([True, False, True])]),
    "nanmean": (lambda lib, x: x.nanmean(), [X]),
    "torch.nanmean(dim)": (lambda lib, x: lib.nanmean(x, 1), [X]),
    "nanmean(dim, keepdim)": (lambda lib, x: x.nanmean(0, keepdim=True), [X]),
    "nanmean all NaN": (lambda lib, x: x.nanmean(0), [X]),
    "nanmean(dtype=float64)": (lambda lib, x: x.nanmean(dtype=lib.float64), [X]),
    "nanmean no NaN is mean": (lambda lib, x: (x.nanmean(1), x.mean(1)), [M23]),
    "nanmean empty": (lambda lib, x: x.nanmean(), [np.zeros(0, np.float32)]),
}


@pytest.mark.parametrize("fn, arrays", _cases(NAN_REDUCTIONS))
def test_nan_reductions(oracle, fn, arrays):
    oracle.same(lambda lib: _answer(lib, fn, arrays))


def test_nan_reductions_double_backward(oracle):
    """The gradient of nanmean's gradient: 0 at NaNs, 1/count elsewhere, as a graph."""
    def program(lib):
        x = lib.tensor(X.astype(np.float64), requires_grad=True)
        m, s = x.nanmean(1), x.nansum()
        g, = lib.autograd.grad((m * m).sum() + s * s, x, create_graph=True)
        gg, = lib.autograd.grad(g.nansum(), x)
        return g, gg
    oracle.same(program)


NAN_ERRORS = {
    "nanmean int": lambda lib: lib.arange(3).nanmean(),
    "nanmean int, dtype float": lambda lib: lib.arange(3).nanmean(dtype=lib.float32),
    "nanmean bool": lambda lib: lib.tensor([True]).nanmean(),
    "nansum dim out of range": lambda lib: lib.ones(2, 3).nansum(2),
    "nansum dtype string": lambda lib: lib.ones(2).nansum(dtype="float32"),
}


@pytest.mark.parametrize("fn", [pytest.param(fn, id=name) for name, fn in NAN_ERRORS.items()])
def test_nan_reduction_errors(oracle, fn):
    oracle.same_error(fn)


# ---------------------------------------------------------------------------------------------
# diff: x[1:] - x[:-1] with narrow, n times (SubBackward0 over SliceBackward0s)
# ---------------------------------------------------------------------------------------------

D = np.array([[1.0, 4.0, 9.0, 16.0], [2.0, 3.0, 7.0, 5.0]], np.float32)

DIFF = {
    "diff": (lambda lib, x: x.diff(), [D]),
    "torch.diff(dim=0)": (lambda lib, x: lib.diff(x, dim=0), [D]),
    "diff(n=2)": (lambda lib, x: x.diff(n=2), [D]),
    "diff(n=3, dim=-1)": (lambda lib, x: lib.diff(x, 3, -1), [D]),
    "diff(n beyond the size)": (lambda lib, x: x.diff(n=7), [D]),
    "diff(n=0) copies": (lambda lib, x: x.diff(n=0), [D]),
    "diff(n=0) ignores prepend": (lambda lib, x, p: x.diff(n=0, prepend=p), [D, D[:, :1].copy()]),
    "prepend": (lambda lib, x, p: lib.diff(x, prepend=p), [D, D[:, :1].copy()]),
    "append, dim 0": (lambda lib, x, a: x.diff(dim=0, append=a), [D, D * 2]),
    "prepend and append, n=2": (lambda lib, x, p, a: x.diff(2, 1, p, a),
                                [D, D[:, :2].copy(), D[:, :1].copy()]),
    "prepend float64": (lambda lib, x, p: x.diff(prepend=p), [D, D[:, :1].astype(np.float64)]),
    "prepend int64": (lambda lib, x, p: x.diff(prepend=p), [D[0].copy(), np.array([1])]),
    "1-D": (lambda lib, x: lib.diff(x), [D[0].copy()]),
    "int64": (lambda lib, i: i.diff(), [np.array([1, 5, 2, 2])]),
    "bool (xor)": (lambda lib, b: (b.diff(), b.diff(n=2)), [np.array([True, False, False, True])]),
    "float64": (lambda lib, x: x.diff(dim=0), [D.astype(np.float64)]),
}


@pytest.mark.parametrize("fn, arrays", _cases(DIFF))
def test_diff(oracle, fn, arrays):
    oracle.same(lambda lib: _answer(lib, fn, arrays))


DIFF_ERRORS = {
    "0-d": lambda lib: lib.tensor(1.0).diff(),
    "n negative": lambda lib: lib.ones(3).diff(n=-1),
    "dim out of range": lambda lib: lib.ones(2, 3).diff(dim=2),
    "prepend of fewer dims": lambda lib: lib.ones(2, 3).diff(prepend=lib.ones(3)),
    "prepend 0-d": lambda lib: lib.ones(2, 3).diff(prepend=lib.tensor(1.0)),
    "append of another size": lambda lib: lib.ones(2, 3).diff(append=lib.ones(3, 3)),
    "append of another size, dim 0": lambda lib: lib.ones(2, 3).diff(dim=0, append=lib.ones(1, 2)),
    "prepend a number": lambda lib: lib.diff(lib.ones(3), prepend=1),
    "append a list": lambda lib: lib.ones(3).diff(append=[1.0]),
}


@pytest.mark.parametrize("fn", [pytest.param(fn, id=name) for name, fn in DIFF_ERRORS.items()])
def test_diff_errors(oracle, fn):
    oracle.same_error(fn)


# ---------------------------------------------------------------------------------------------
# Live against PyTorch (Hypothesis): any shape, NaNs anywhere, any dim, n, prepend/append
# (the recorded cases above are the seeded ones of each area)
# ---------------------------------------------------------------------------------------------

@st.composite
def _with_nans(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    values = st.one_of(st.just(NAN), st.floats(-4, 4, width=32))
    return draw(hnp.arrays(np.float32, shape, elements=values))


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(x=_with_nans(), data=st.data())
def test_nan_reductions_and_diff_match_torch_hypothesis(torch, x, data):
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    keepdim, n = data.draw(st.booleans()), data.draw(st.integers(0, 3))
    edge = list(x.shape)
    edge[dim] = data.draw(st.integers(0, 2))
    edge = np.ones(edge, np.float32)
    indexing = data.draw(st.sampled_from(["ij", "xy"]))

    def program(lib):
        t = lib.tensor(x, requires_grad=True)
        outs = (t.nansum(dim, keepdim), lib.nanmean(t, dim, keepdim), t.nanmean(),
                lib.nan_to_num(t).diff(n, dim), lib.diff(t, n, dim, prepend=lib.tensor(edge), append=t))
        lib.autograd.backward([(o * (i + 1)).nansum() for i, o in enumerate(outs)])
        grids = lib.meshgrid(t.flatten(), t[(0,) * (t.dim() - 1)], indexing=indexing)
        return {"outputs": outs, "grad": t.grad, "grids": grids,
                "stacks": (lib.hstack([t, t]), lib.vstack([t, t]), lib.column_stack([t, t]))}

    assert_same(program(minigrad), program(torch))


def test_ravel(oracle):
    """ravel, the usual way to flatten meshgrid's grids: a view of a contiguous tensor, a copy
    (CloneBackward0) then a view of any other, as PyTorch writes it (contiguous().view(-1))."""
    def program(lib):
        x = lib.arange(6.0).reshape(2, 3).requires_grad_()
        a, b, s = x.ravel(), x.t().ravel(), lib.ravel(lib.tensor(3.0))
        (a * lib.arange(6.0) + b * 10).sum().backward()
        xx, yy = lib.meshgrid(lib.linspace(-1, 1, 3), lib.linspace(0, 2, 2), indexing="xy")
        graph = [type(t.grad_fn).__name__ for t in (a, b)] + [type(b.grad_fn.next_functions[0][0]).__name__]
        return [a, b, s, x.grad, graph, a.stride(), b.is_contiguous(), xx.ravel(), yy.ravel()]
    oracle.same(program)
