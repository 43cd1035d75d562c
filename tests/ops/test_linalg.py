"""torch.linalg and the classic linear-algebra functions against PyTorch (recorded:
tests/oracle.py): values, dtypes, grad_fn names and edges, gradients (first and second
order), the named tuples learners print, and the errors of the usual mistakes in PyTorch's
words. Finite differences: tests/ops/test_gradcheck.py (NEW_OPS, "linalg" entries).

A decomposition's factors are unique only up to signs (a column of Q and the matching row
of R may both flip), so its programs compare what does not depend on them: Q @ R, Q * Q,
the singular values and eigenvalues, and gradients of losses built from those.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import assert_same, caught, error_of, graph_text
from test_gradcheck import PROFILE

import minigrad

FLOATS = pytest.mark.parametrize("fdt", ["float32", "float64"])


def _tol(fdt):
    """Decompositions in float32 differ from PyTorch's in the last bits: a looser tolerance."""
    return dict(rtol=2e-4, atol=2e-5) if fdt == "float32" else dict(rtol=1e-9, atol=1e-11)


def _data(shape, seed=0, kind="general"):
    """A fixed, well-conditioned matrix (or batch) as nested lists: general (A + n I, far
    from singular), spd (symmetric positive-definite, distinct eigenvalues) or plain."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=shape)
    if kind == "general":
        a = a + shape[-1] * np.eye(shape[-1])
    elif kind == "spd":
        a = a @ np.swapaxes(a, -1, -2) + np.diag(np.arange(1.0, shape[-1] + 1))
    return np.round(a, 3).tolist()


def _t(lib, data, fdt, requires_grad=True):
    return lib.tensor(data, dtype=getattr(lib, fdt), requires_grad=requires_grad)


def _weights(lib, t, k=1):
    """Distinct weights of t's shape, so that a swapped or transposed gradient shows."""
    n = t.numel()
    return (lib.arange(1.0, n + 1, dtype=t.dtype).reshape(t.shape) / n) ** k


def _with_grads(lib, outs, leaves):
    """The outputs and each leaf's gradient of a weighted sum of all of them."""
    outs = list(outs)
    loss = sum((o * _weights(lib, o, i + 1)).sum() for i, o in enumerate(outs))
    return outs, list(lib.autograd.grad(loss, leaves))


GENERAL, SPD, WIDE, TALL = (3, 3), (3, 3), (3, 4), (4, 3)
BATCH = (2, 3, 3)

# name: (the function of lib and the input tensors, the inputs as (shape, seed, kind))
PROGRAMS = {
    "linalg.det": (lambda lib, a: [lib.linalg.det(a)], [(GENERAL, 0, "general")]),
    "linalg.det batched": (lambda lib, a: [lib.linalg.det(a)], [(BATCH, 1, "general")]),
    "torch.det, Tensor.det": (lambda lib, a: [lib.det(a), a.det()], [(GENERAL, 2, "general")]),
    "linalg.slogdet": (lambda lib, a: list(lib.linalg.slogdet(a)), [(BATCH, 3, "general")]),
    "slogdet of a negative det": (lambda lib, a: list(lib.slogdet(a.flip(0))), [(GENERAL, 4, "general")]),
    "logdet": (lambda lib, a: [lib.logdet(a), a.logdet()], [(SPD, 5, "spd")]),
    "linalg.inv": (lambda lib, a: [lib.linalg.inv(a)], [(BATCH, 6, "general")]),
    "linalg.inv_ex": (lambda lib, a: list(lib.linalg.inv_ex(a)), [(GENERAL, 7, "general")]),
    "inverse": (lambda lib, a: [lib.inverse(a), a.inverse()], [(GENERAL, 8, "general")]),
    "linalg.solve vector": (lambda lib, a, b: [lib.linalg.solve(a, b)], [(GENERAL, 9, "general"), ((3,), 10, "plain")]),
    "linalg.solve matrix": (lambda lib, a, b: [lib.linalg.solve(a, b)], [(GENERAL, 11, "general"), ((3, 2), 12, "plain")]),
    "linalg.solve batched, broadcast B": (lambda lib, a, b: [lib.linalg.solve(a, b)],
                                          [(BATCH, 13, "general"), ((3, 2), 14, "plain")]),
    "linalg.solve batch of vectors": (lambda lib, a, b: [lib.linalg.solve(a, b)],
                                      [(BATCH, 15, "general"), ((2, 3), 16, "plain")]),
    "linalg.solve left=False": (lambda lib, a, b: [lib.linalg.solve(a, b, left=False)],
                                [(GENERAL, 17, "general"), ((2, 3), 18, "plain")]),
    "linalg.solve_ex": (lambda lib, a, b: list(lib.linalg.solve_ex(a, b)), [(GENERAL, 19, "general"), ((3,), 20, "plain")]),
    "linalg.pinv wide": (lambda lib, a: [lib.linalg.pinv(a)], [(WIDE, 21, "plain")]),
    "linalg.pinv tall": (lambda lib, a: [lib.linalg.pinv(a)], [(TALL, 22, "plain")]),
    "pinverse": (lambda lib, a: [lib.pinverse(a), a.pinverse()], [(GENERAL, 23, "general")]),
    "linalg.matrix_power": (lambda lib, a: [lib.linalg.matrix_power(a, n) for n in (2, 3, 5, -1, -2)],
                            [(GENERAL, 24, "general")]),
    "matrix_power 0 and 1": (lambda lib, a: [lib.matrix_power(a, 1), a.matrix_power(0) * 1],
                             [(GENERAL, 25, "general")]),
    "linalg.cholesky": (lambda lib, a: [lib.linalg.cholesky(a)], [(BATCH, 26, "spd")]),
    "linalg.cholesky upper": (lambda lib, a: [lib.linalg.cholesky(a, upper=True)], [(SPD, 27, "spd")]),
    "linalg.cholesky_ex": (lambda lib, a: list(lib.linalg.cholesky_ex(a)), [(SPD, 28, "spd")]),
    "linalg.qr": (lambda lib, a: (lambda q, r: [q @ r, q * q, r * r, q.mT @ q])(*lib.linalg.qr(a)),
                  [(GENERAL, 29, "general")]),
    "linalg.qr tall": (lambda lib, a: (lambda q, r: [q @ r, q * q, r * r])(*lib.linalg.qr(a)), [(TALL, 30, "plain")]),
    "linalg.qr wide": (lambda lib, a: (lambda q, r: [q @ r, q * q, r * r])(*lib.linalg.qr(a)), [(WIDE, 81, "plain")]),
    "linalg.qr complete": (lambda lib, a: (lambda q, r: [q @ r, q * q, r * r])(*lib.linalg.qr(a, "complete")),
                           [(WIDE, 82, "plain")]),
    "qr(some=False)": (lambda lib, a: (lambda q, r: [q @ r, q * q, r * r])(*lib.qr(a, some=False)), [(GENERAL, 83, "plain")]),
    "linalg.svd full_matrices": (lambda lib, a: (lambda u, s, vh: [s, u[:, :3] * u[:, :3], vh * vh])(
        *lib.linalg.svd(a)), [(TALL, 84, "plain")]),
    "linalg.qr batched": (lambda lib, a: (lambda q, r: [q @ r, q * q, r * r])(*lib.linalg.qr(a)),
                          [(BATCH, 31, "plain")]),
    "linalg.svd": (lambda lib, a: (lambda u, s, vh: [s, u * u, vh * vh, (u * s.unsqueeze(-2)) @ vh])(
        *lib.linalg.svd(a, full_matrices=False)), [(GENERAL, 32, "plain")]),
    "linalg.svd wide": (lambda lib, a: (lambda u, s, vh: [s, u * u, vh * vh])(
        *lib.linalg.svd(a, full_matrices=False)), [(WIDE, 33, "plain")]),
    "linalg.svd tall": (lambda lib, a: (lambda u, s, vh: [s, u * u, vh * vh])(
        *lib.linalg.svd(a, full_matrices=False)), [(TALL, 34, "plain")]),
    "linalg.svd batched": (lambda lib, a: (lambda u, s, vh: [s, u * u, vh * vh])(
        *lib.linalg.svd(a, full_matrices=False)), [(BATCH, 35, "plain")]),
    "linalg.svdvals": (lambda lib, a: [lib.linalg.svdvals(a)], [(WIDE, 36, "plain")]),
    "svd (V, some)": (lambda lib, a: (lambda u, s, v: [s, u * u, v * v])(*lib.svd(a)), [(TALL, 37, "plain")]),
    "linalg.eigh": (lambda lib, a: (lambda lam, v: [lam, v * v])(*lib.linalg.eigh(a)), [(SPD, 38, "spd")]),
    "linalg.eigh batched, UPLO": (lambda lib, a: (lambda lam, v: [lam, v * v])(*lib.linalg.eigh(a, "U")),
                                  [(BATCH, 39, "spd")]),
    "linalg.eigvalsh": (lambda lib, a: [lib.linalg.eigvalsh(a)], [(SPD, 40, "spd")]),
    "linalg.cross": (lambda lib, a, b: [lib.linalg.cross(a, b)], [((2, 3), 41, "plain"), ((1, 3), 42, "plain")]),
    "cross(dim=0)": (lambda lib, a, b: [lib.cross(a, b, dim=0), a.cross(b, 0)], [((3, 2), 43, "plain"), ((3, 2), 44, "plain")]),
    "linalg.multi_dot": (lambda lib, a, b, c, v: [lib.linalg.multi_dot([a, b, c, v]), lib.linalg.multi_dot([v, a, b])],
                         [((3, 3), 45, "plain"), ((3, 3), 46, "plain"), ((3, 3), 47, "plain"), ((3,), 48, "plain")]),
    "linalg.multi_dot chain order": (lambda lib, a, b, c: [lib.linalg.multi_dot([a, b, c])],
                                     [((4, 1), 49, "plain"), ((1, 4), 50, "plain"), ((4, 2), 51, "plain")]),
    "linalg.vecdot": (lambda lib, a, b: [lib.linalg.vecdot(a, b), lib.linalg.vecdot(a, b, dim=0)],
                      [((3, 3), 52, "plain"), ((3,), 53, "plain")]),
    "linalg.matmul, linalg.diagonal": (lambda lib, a, b: [lib.linalg.matmul(a, a), lib.linalg.diagonal(b, offset=1)],
                                       [((3, 3), 54, "plain"), (BATCH, 55, "plain")]),
    "inner": (lambda lib, a, b, v: [lib.inner(a, b), lib.inner(v, v), a.inner(v)],
              [((2, 3), 56, "plain"), ((4, 3), 57, "plain"), ((3,), 58, "plain")]),
    "kron": (lambda lib, a, b: [lib.kron(a, b), a.kron(b[0])], [((2, 2), 59, "plain"), ((2, 3), 60, "plain")]),
    "tensordot": (lambda lib, a, b: [lib.tensordot(a, b, dims=1), lib.tensordot(a, b, dims=([1, 2], [1, 0])),
                                     lib.tensordot(a[0, 0], b[0, 0], dims=0)],
                  [(BATCH, 61, "plain"), ((3, 3, 2), 62, "plain")]),
    "vdot": (lambda lib, a, b: [lib.vdot(a, b), a.vdot(b)], [((3,), 63, "plain"), ((3,), 64, "plain")]),
    "addmv": (lambda lib, x, m, v: [lib.addmv(x, m, v), x.addmv(m, v, beta=0.5, alpha=2)],
              [((2,), 65, "plain"), ((2, 3), 66, "plain"), ((3,), 67, "plain")]),
    "addr": (lambda lib, x, a, b: [lib.addr(x, a, b), x.addr(a, b, beta=2, alpha=-1)],
             [((2, 3), 68, "plain"), ((2,), 69, "plain"), ((3,), 70, "plain")]),
    "baddbmm": (lambda lib, x, a, b: [lib.baddbmm(x, a, b), x.baddbmm(a, b, beta=0.5, alpha=3)],
                [((2, 2, 3), 71, "plain"), ((2, 2, 4), 72, "plain"), ((2, 4, 3), 73, "plain")]),
    "addbmm": (lambda lib, x, a, b: [lib.addbmm(x, a, b), x.addbmm(a, b, beta=0, alpha=0.5)],
               [((3,), 74, "plain"), ((2, 2, 4), 75, "plain"), ((2, 4, 3), 76, "plain")]),
    "in place: addmv_, addr_, baddbmm_, addbmm_": (
        lambda lib, x, y, z, w: [(x * 1).addmv_(y, z[0], beta=2), (y * 1).addr_(x, z[0], alpha=-1),
                                 (w * 1).baddbmm_(w, z.mT.unsqueeze(0).expand(2, 3, 3)), (y * 1).addbmm_(w, z.unsqueeze(0).expand(2, 3, 3), alpha=0.5)],
        [((2,), 85, "plain"), ((2, 3), 86, "plain"), ((3, 3), 87, "plain"), ((2, 2, 3), 88, "plain")]),
}

NORMS = {
    "linalg.norm": lambda lib, a: [lib.linalg.norm(a), lib.linalg.norm(a[0]), lib.linalg.norm(a, dim=1),
                                   lib.linalg.norm(a, 1, dim=(0,)), lib.linalg.norm(a[0], 3)],
    "linalg.norm of a matrix": lambda lib, a: [lib.linalg.norm(a, o) for o in ("fro", "nuc", 1, -1, 2, -2)]
    + [lib.linalg.norm(a, math.inf), lib.linalg.norm(a, -math.inf)],
    "linalg.vector_norm": lambda lib, a: [lib.linalg.vector_norm(a), lib.linalg.vector_norm(a, 1),
                                          lib.linalg.vector_norm(a, math.inf, dim=0),
                                          lib.linalg.vector_norm(a, 0.5, dim=(0, 1), keepdim=True)],
    "linalg.matrix_norm": lambda lib, a: [lib.linalg.matrix_norm(a, o) for o in ("fro", "nuc", 1, -1, 2, -2)]
    + [lib.linalg.matrix_norm(a, math.inf), lib.linalg.matrix_norm(a, -math.inf)],
    "linalg.matrix_norm keepdim": lambda lib, a: [lib.linalg.matrix_norm(a, o, keepdim=True)
                                                  for o in ("fro", 1, -1, math.inf, -math.inf)],
}


# Programs that use two outputs of one decomposition: PyTorch's node has several outputs,
# minigrad makes a node per output (ops/decomp.py), so the graph beneath shows two nodes of
# that name where PyTorch's shows one twice. Their names are compared, not the graph.
SEVERAL_OUTPUTS = {"linalg.qr", "linalg.qr tall", "linalg.qr wide", "linalg.qr complete", "qr(some=False)",
                   "linalg.qr batched", "linalg.svd"}


@FLOATS
@pytest.mark.parametrize("name", PROGRAMS)
def test_linalg_function(oracle, name, fdt):
    fn, inputs = PROGRAMS[name]

    def program(lib):
        leaves = [_t(lib, _data(*spec), fdt) for spec in inputs]
        return _with_grads(lib, fn(lib, *leaves), leaves)
    oracle.same(program, check_repr=False, check_graph=name not in SEVERAL_OUTPUTS, **_tol(fdt))


@FLOATS
@pytest.mark.parametrize("name", NORMS)
def test_linalg_norms(oracle, name, fdt):
    def program(lib):
        a = _t(lib, _data((3, 4), 77, "plain"), fdt)
        return _with_grads(lib, NORMS[name](lib, a), [a])
    oracle.same(program, check_repr=False, **_tol(fdt))


SECOND_ORDER = {
    "det": lambda lib, a: lib.linalg.det(a),
    "slogdet": lambda lib, a: lib.linalg.slogdet(a).logabsdet,
    "inv": lambda lib, a: lib.linalg.inv(a),
    "solve": lambda lib, a: lib.linalg.solve(a, a[0] * a[1]),
    "pinv": lambda lib, a: lib.linalg.pinv(a[:, :2]),
    "cholesky": lambda lib, a: lib.linalg.cholesky(a @ a.mT),
    "qr": lambda lib, a: (lambda q, r: q * q + r * r)(*lib.linalg.qr(a)),
    "svd": lambda lib, a: (lambda u, s, vh: u * u * s + vh * vh)(*lib.linalg.svd(a)),
    "svdvals": lambda lib, a: lib.linalg.svdvals(a),
    "eigh": lambda lib, a: (lambda lam, v: v * v * lam)(*lib.linalg.eigh(a @ a.mT)),
    "cross": lambda lib, a: lib.linalg.cross(a, a * a),
    "addmv, addr, baddbmm, addbmm": lambda lib, a: (
        lib.addmv(a[0], a, a[1] * a[2], beta=2) + lib.addr(a, a[0], a[1] * a[1], alpha=2)
        + lib.baddbmm(a[None], a[None] * a, a[None]).sum(0) + lib.addbmm(a, a[None], a[None] * a) + lib.vdot(a[0], a[1] * a[0])),
}


@FLOATS
@pytest.mark.parametrize("name", SECOND_ORDER)
def test_linalg_second_order(oracle, name, fdt):
    """Differentiated twice (create_graph): the backward formulas are differentiable too."""
    def program(lib):
        a = _t(lib, _data((3, 3), 80, "general"), fdt)
        out = SECOND_ORDER[name](lib, a)
        g, = lib.autograd.grad((out * _weights(lib, out)).sum(), a, create_graph=True)
        return g.detach(), lib.autograd.grad((g * g).sum(), a)  # (g's graph: minigrad's own)
    oracle.same(program, check_repr=False, **_tol(fdt))


def test_linalg_printed(oracle):
    """What learners print: the named tuples and their fields, the classic forms' names."""
    def program(lib):
        a = lib.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
        eye = lib.eye(2)
        out = [repr(lib.linalg.slogdet(a)), repr(lib.slogdet(eye)), repr(lib.linalg.inv_ex(eye)),
               repr(lib.linalg.solve_ex(eye, lib.ones(2))), repr(lib.linalg.cholesky_ex(eye)),
               repr(lib.linalg.qr(eye)), repr(lib.linalg.svd(eye)), repr(lib.linalg.eigh(eye)),
               repr(lib.linalg.matrix_rank(a)), lib.linalg.slogdet(a).logabsdet, lib.linalg.svd(a).Vh * 0,
               type(lib.linalg.qr(a)).__name__, type(lib.svd(a)).__name__, lib.svd(a).V * 0,
               lib.linalg.eigh(a).eigenvalues, isinstance(lib.linalg.LinAlgError("x"), RuntimeError)]
        # (the deprecation warnings come once per process: test_linalg_deprecations)
        return out + [repr(lib.qr(eye)), repr(lib.linalg.matrix_power(eye.long(), 3))]
    oracle.same(program)


SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
NOT_PD = [[1.0, 2.0], [2.0, 1.0]]

MISTAKES = {
    "linalg.solve: a list": lambda lib: lib.linalg.solve([[1.0]], lib.ones(1)),
    "linalg.solve: B a list": lambda lib: lib.linalg.solve(lib.eye(1), [1.0]),
    "linalg.det: a list": lambda lib: lib.linalg.det([[1.0]]),
    "torch.det: a list": lambda lib: lib.det([[1.0]]),
    "linalg.svd: a list": lambda lib: lib.linalg.svd([[1.0]]),
    "kron: a list": lambda lib: lib.kron([1.0], lib.ones(1)),
    "linalg.cross: other a list": lambda lib: lib.linalg.cross(lib.ones(3), [1.0, 2.0, 3.0]),
    "det: not square": lambda lib: lib.linalg.det(lib.ones(3, 4)),
    "det: integer": lambda lib: lib.det(lib.ones(3, 3, dtype=lib.long)),
    "det: a vector": lambda lib: lib.linalg.det(lib.ones(3)),
    "slogdet: not square": lambda lib: lib.linalg.slogdet(lib.ones(2, 3)),
    "logdet: not square": lambda lib: lib.ones(2, 3).logdet(),
    "logdet: a vector": lambda lib: lib.logdet(lib.ones(3)),
    "logdet: integers": lambda lib: lib.ones(2, 2, dtype=lib.int64).logdet(),
    "inv: singular": lambda lib: lib.linalg.inv(lib.tensor(SINGULAR)),
    "inv: zeros": lambda lib: lib.linalg.inv(lib.zeros(2, 2)),
    "inv: singular in a batch": lambda lib: lib.linalg.inv(lib.stack([lib.eye(2), lib.tensor(SINGULAR)])),
    # (a row twice another: the elimination's zero pivot is exact on every CPU, where
    # [[1, 2, 3], [4, 5, 6], [7, 8, 9]]'s is 0 on some and -6e-8 on others)
    "inverse: singular": lambda lib: lib.tensor([[1.0, 2, 3], [2, 4, 6], [1, 1, 1]]).inverse(),
    "inv: integer": lambda lib: lib.linalg.inv(lib.eye(2, dtype=lib.long)),
    "inv: not square": lambda lib: lib.inverse(lib.ones(2, 3)),
    "solve: singular": lambda lib: lib.linalg.solve(lib.tensor(SINGULAR), lib.ones(2)),
    "solve: shapes": lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(2)),
    "solve: shapes of matrices": lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(2, 2)),
    "solve: integer": lambda lib: lib.linalg.solve(lib.eye(2, dtype=lib.long), lib.ones(2, dtype=lib.long)),
    "solve: dtypes": lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(3, dtype=lib.float64)),
    "cholesky: not positive-definite": lambda lib: lib.linalg.cholesky(lib.tensor(NOT_PD)),
    "cholesky: negative": lambda lib: lib.linalg.cholesky(-lib.eye(3)),
    "cholesky: in a batch": lambda lib: lib.linalg.cholesky(lib.stack([lib.eye(2), lib.tensor(NOT_PD)])),
    "torch.cholesky: not positive-definite": lambda lib: lib.cholesky(lib.tensor(NOT_PD)),
    "cholesky: integer": lambda lib: lib.linalg.cholesky(lib.eye(2, dtype=lib.long)),
    "qr: integer": lambda lib: lib.linalg.qr(lib.eye(2, dtype=lib.long)),
    "qr: gradient in mode 'r'": lambda lib: lib.linalg.qr(lib.ones(3, 2, requires_grad=True), mode="r").R.sum().backward(),
    "qr: gradient, complete and tall": lambda lib: lib.linalg.qr(lib.eye(3, 2).requires_grad_(), mode="complete")[0].sum().backward(),
    "qr: mode": lambda lib: lib.linalg.qr(lib.eye(2), mode="full"),
    "svd: integer": lambda lib: lib.linalg.svd(lib.eye(2, dtype=lib.long)),
    "svd: a vector": lambda lib: lib.linalg.svdvals(lib.ones(3)),
    "eigh: integer": lambda lib: lib.linalg.eigh(lib.eye(2, dtype=lib.long)),
    "eigh: not square": lambda lib: lib.linalg.eigvalsh(lib.ones(2, 3)),
    "pinv: integer": lambda lib: lib.linalg.pinv(lib.eye(2, dtype=lib.long)),
    "matrix_power: float n": lambda lib: lib.linalg.matrix_power(lib.eye(2), 2.0),
    "matrix_power: singular, negative n": lambda lib: lib.linalg.matrix_power(lib.tensor(SINGULAR), -1),
    "matrix_power: not square": lambda lib: lib.matrix_power(lib.ones(2, 3), 2),
    "matrix_rank: integer": lambda lib: lib.linalg.matrix_rank(lib.eye(2, dtype=lib.long)),
    "matrix_norm: order": lambda lib: lib.linalg.matrix_norm(lib.eye(2), 3),
    "matrix_norm: a vector": lambda lib: lib.linalg.matrix_norm(lib.ones(2)),
    "matrix_norm: integer": lambda lib: lib.linalg.matrix_norm(lib.eye(2, dtype=lib.long)),
    "norm: ord of a 3-d tensor": lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), 2),
    "norm: 'fro' of a vector": lambda lib: lib.linalg.norm(lib.ones(2), "fro"),
    "vector_norm: integer": lambda lib: lib.linalg.vector_norm(lib.ones(2, dtype=lib.long)),
    "cross: length 2": lambda lib: lib.linalg.cross(lib.ones(2, 2), lib.ones(2, 2)),
    "cross: dims": lambda lib: lib.linalg.cross(lib.ones(3), lib.ones(2, 3)),
    "cross: dtypes": lambda lib: lib.linalg.cross(lib.ones(3), lib.ones(3, dtype=lib.float64)),
    "multi_dot: one tensor": lambda lib: lib.linalg.multi_dot([lib.eye(2)]),
    "multi_dot: shapes": lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.eye(3)]),
    "multi_dot: 3-d": lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.ones(2, 2, 2)]),
    "multi_dot: dtypes": lambda lib: lib.linalg.multi_dot([lib.eye(2), lib.eye(2, dtype=lib.float64)]),
    "vecdot: integer": lambda lib: lib.linalg.vecdot(lib.ones(3, dtype=lib.long), lib.ones(3, dtype=lib.long)),
    "inner: shapes": lambda lib: lib.inner(lib.ones(3), lib.ones(4)),
    "tensordot: shapes": lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(4, 5), dims=1),
    "vdot: lengths": lambda lib: lib.vdot(lib.ones(3), lib.ones(4)),
    "vdot: matrices": lambda lib: lib.vdot(lib.ones(3, 3), lib.ones(3, 3)),
    "addmv: shapes": lambda lib: lib.addmv(lib.ones(3), lib.ones(3, 2), lib.ones(3)),
    "addr: shapes": lambda lib: lib.addr(lib.ones(3, 3), lib.ones(3), lib.ones(2)),
    "baddbmm: shapes": lambda lib: lib.baddbmm(lib.ones(2, 3, 3), lib.ones(2, 3, 2), lib.ones(2, 3, 3)),
    "addbmm: shapes": lambda lib: lib.addbmm(lib.ones(3, 3), lib.ones(2, 3, 2), lib.ones(2, 3, 3)),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_linalg_mistake(oracle, name):
    oracle.same_error(MISTAKES[name])


def test_linalg_singular_results(oracle):
    """A singular matrix: det 0, slogdet (0, -inf), logdet -inf; inv_ex reports it in info
    instead of raising."""
    def program(lib):
        s = lib.tensor(SINGULAR)
        return [lib.linalg.det(s), list(lib.linalg.slogdet(s)), lib.logdet(s), lib.logdet(-lib.eye(2)),
                lib.linalg.inv_ex(s).info, lib.linalg.inv_ex(lib.stack([lib.eye(2), s])).info,
                lib.linalg.cholesky_ex(lib.tensor(NOT_PD)).info, lib.linalg.matrix_rank(s),
                error_of(lambda: lib.linalg.inv_ex(s, check_errors=True))]
    oracle.same(program, check_repr=False)


def test_linalg_solve_ex_singular(oracle):
    """solve_ex with check_errors=False returns LAPACK's answer for a singular matrix (inf and
    NaN) and says where the factorization met a zero pivot in ``info``; check_errors=True and
    linalg.solve raise, naming the batch element."""
    def program(lib):
        s = lib.tensor(SINGULAR)
        batch = lib.stack([lib.eye(2) * 2, s])
        return [list(lib.linalg.solve_ex(s, lib.tensor([[1.0], [2.0]]))), list(lib.linalg.solve_ex(batch, lib.ones(2, 2, 1))),
                list(lib.linalg.solve_ex(s, lib.ones(2))), list(lib.linalg.solve_ex(s, lib.ones(3, 2), left=False)),
                list(lib.linalg.solve_ex(s, lib.ones(2, 0))), list(lib.linalg.solve_ex(batch[0], lib.ones(2))),
                error_of(lambda: lib.linalg.solve_ex(s, lib.ones(2), check_errors=True)),
                error_of(lambda: lib.linalg.solve_ex(batch.flip(0), lib.ones(2, 2), check_errors=True)),
                error_of(lambda: lib.linalg.solve(batch, lib.ones(2, 2))),
                error_of(lambda: lib.linalg.solve(s, lib.ones(2)))]
    oracle.same(program, check_repr=False)


def test_linalg_singular_gradients(oracle):
    """det's gradient at a singular matrix is 0 (PyTorch's), the others' in a batch as usual;
    log |det|'s is infinite there."""
    def program(lib):
        a = lib.tensor([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]], requires_grad=True)
        g_det, = lib.autograd.grad(lib.linalg.det(a).sum(), a)
        g_log, = lib.autograd.grad(lib.linalg.slogdet(a[0]).logabsdet, a)
        return g_det, g_log
    oracle.same(program, check_repr=False)  # (PyTorch's zeros are partly -0.)


DEPRECATED = {
    "torch.qr": lambda lib: lib.qr(lib.eye(2)),
    "torch.cholesky": lambda lib: lib.cholesky(lib.eye(2)),
    "torch.chain_matmul": lambda lib: lib.chain_matmul(lib.eye(2), lib.eye(2)),
    "torch.cross without dim": lambda lib: lib.cross(lib.ones(3, 3), lib.ones(3, 3)),
}


# PyTorch's texts (2.13), as its first call in a process gives them
DEPRECATION_TEXTS = {
    "torch.qr": "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
                "Q, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some "
                "else 'complete')",
    "torch.cholesky": "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
                      "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
                      "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
                      "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for "
                      "all valid (symmetric positive definite) inputs.",
    "torch.chain_matmul": "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                          "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                          "multiple parameters.",
    "torch.cross without dim": "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass "
                               "the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will "
                               "change to agree with that of linalg.cross in a future release.",
}


@pytest.mark.parametrize("name", DEPRECATED)
def test_linalg_deprecations(oracle, name, monkeypatch):
    """The deprecated forms warn once per process, as PyTorch's TORCH_WARN_ONCE: the second
    call is silent in both (the first may be too in PyTorch: an earlier test may have
    called it in this process). minigrad's first call, counted afresh, gives PyTorch's words."""
    import minigrad
    from minigrad import _tensor_linalg

    def program(lib):
        caught(DEPRECATED[name], lib)
        return caught(DEPRECATED[name], lib)[1]
    assert oracle.same(program) == []
    monkeypatch.setattr(_tensor_linalg, "_warned", set())
    assert caught(DEPRECATED[name], minigrad)[1] == [("UserWarning", DEPRECATION_TEXTS[name])]


def test_linalg_one_node_per_decomposition(oracle):
    """A decomposition's outputs (Q and R) come from one node, as PyTorch's: a graph using both
    shows it once."""
    def program(lib):
        q, r = lib.linalg.qr(lib.tensor(_data(GENERAL, 90), requires_grad=True))
        return q @ r
    oracle.same(program, check_repr=False, rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("name", ["svd", "eigh", "slogdet", "svdvals", "qr r"])
def test_linalg_outputs_of_one_node(oracle, name):
    """Every output of svd, eigh and slogdet is one node's, with its output number; svdvals is
    output 1 of svd's node; qr(mode='r')'s R is output 1 of qr's."""
    def program(lib):
        a = lib.tensor(_data(GENERAL, 91), requires_grad=True)
        spd = (a @ a.mT).detach().requires_grad_()
        outs = {"svd": lambda: lib.linalg.svd(a, full_matrices=False), "eigh": lambda: lib.linalg.eigh(spd),
                "slogdet": lambda: lib.linalg.slogdet(a), "svdvals": lambda: (lib.linalg.svdvals(a),),
                "qr r": lambda: lib.linalg.qr(a, mode="r")[1:]}[name]()
        return {"one node": all(o.grad_fn is outs[0].grad_fn for o in outs),
                "output_nr": [o.output_nr for o in outs], "grad_fn": outs[0].grad_fn.name(),
                "graph": graph_text(sum(o.sum() for o in outs).grad_fn)}
    oracle.same(program)


def _random_program(batch, n, seed, fdt):
    """Well-conditioned random matrices of any batch shape and size: each function's value
    and the gradient of a weighted sum of them all."""
    rng = np.random.default_rng(seed)
    a_data = (rng.normal(size=batch + (n, n)) + 2 * n * np.eye(n)).tolist()
    b_data = rng.normal(size=batch + (n, 2)).tolist()

    def program(lib):
        a, b = _t(lib, a_data, fdt), _t(lib, b_data, fdt)
        spd = a @ a.mT
        outs = [lib.linalg.det(a), lib.linalg.slogdet(a).logabsdet, lib.linalg.inv(a), lib.linalg.solve(a, b),
                lib.linalg.svdvals(a), lib.linalg.eigvalsh(spd), lib.linalg.cholesky(spd), lib.linalg.pinv(a),
                lib.linalg.matrix_norm(a, "nuc"), lib.linalg.matrix_norm(a, 1), lib.linalg.matrix_power(a, 3)]
        return _with_grads(lib, outs, [a, b])
    return program


@settings(PROFILE, max_examples=25)
@given(batch=st.sampled_from([(), (1,), (2,), (2, 1)]), n=st.integers(1, 4), seed=st.integers(0, 2 ** 16),
       float32=st.booleans())
def test_linalg_matches_torch_hypothesis(torch, batch, n, seed, float32):
    fdt = "float32" if float32 else "float64"
    program = _random_program(batch, n, seed, fdt)
    # (check_graph=False: batched `a @ a.mT` is one node in minigrad, PyTorch's expand-bmm-view
    # beneath it; each output's grad_fn name is compared still)
    assert_same(program(minigrad), program(torch), check_repr=False, check_graph=False,
                **(dict(rtol=1e-3, atol=1e-3) if float32 else dict(rtol=1e-8, atol=1e-9)))


def test_linalg_random_seeded(oracle):
    """The Hypothesis comparison's program, one seeded case recorded."""
    oracle.same(_random_program((2,), 3, 1234, "float64"), check_repr=False, check_graph=False, rtol=1e-9,
                atol=1e-10)
