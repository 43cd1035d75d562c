"""Names that common tutorials use, against PyTorch (issue 26b): Adam and RMSprop written
from scratch (``addcmul_``, ``addcdiv_``), ``addmm`` with its factors, the methods
``allclose``, ``isclose``, ``equal``, and makemore's ``multinomial``.

Each program runs in both libraries from the same NumPy inputs (PyTorch's answer recorded,
tests/oracle.py): values, dtypes, ``grad_fn`` names, gradients and error texts.
Finite-difference checks of the gradients are in test_gradcheck.py (NEW_OPS).
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad

from oracle import assert_same, error_of
from test_vs_torch import FLOATS, compare, run_case

# ---------------------------------------------------------------------------------------------
# addcmul, addcdiv: input + value * tensor1 (* or /) tensor2
# ---------------------------------------------------------------------------------------------

ADDC = {
    "addcmul": lambda lib, x, a, b: x.addcmul(a, b),
    "torch.addcmul value": lambda lib, x, a, b: lib.addcmul(x, a, b, value=0.25),
    "addcdiv value": lambda lib, x, a, b: x.addcdiv(a, b, value=-3),
    "torch.addcdiv": lambda lib, x, a, b: lib.addcdiv(x, a, b),
    "addcmul_ of clone": lambda lib, x, a, b: (x * 1).addcmul_(a, b, value=0.5),
    "addcdiv_ of clone": lambda lib, x, a, b: (x * 1).addcdiv_(a, b, value=2),
}
ADDC_SHAPES = {"same": ((2, 3), (2, 3), (2, 3)), "broadcast": ((2, 3), (3,), (2, 1)),
               "0-d input": ((), (2, 3), (3,))}


@FLOATS
# (in place, a 0-d tensor cannot hold the broadcast result: test_addc_errors)
@pytest.mark.parametrize("name, shapes", [
    pytest.param(n, s, id=f"{n}-{sid}") for n in ADDC for sid, s in ADDC_SHAPES.items()
    if not (n.endswith("_ of clone") and s[0] == ())])
def test_addc(oracle, name, shapes, fdt):
    run_case(oracle, ADDC[name], [(shapes[0], "f", True), (shapes[1], "f", True), (shapes[2], "pos", True)],
             fdt, grad="rand")


ADDC_DTYPES = {
    "int": [np.array([1, 2, 3]), np.array([2, -1, 4]), np.array([3, 3, -2])],
    "int value 0.5 (cast to 0)": [np.array([1, 2, 3]), np.array([2, -1, 4]), np.array([3, 3, -2])],
    "float input, int tensors": [np.array([1.5, 2.0], np.float32), np.array([1, 2]), np.array([3, 4])],
    "int input, float64 tensor": [np.array([1, 2]), np.array([1.5, 2.0]), np.array([3.0, 4.0], np.float32)],
    "f32 tensors, f64 0-d": [np.array([1.5, 2.0], np.float32), np.array([0.5, 2.0], np.float32),
                             np.array(3.0)],
    "f32, f64": [np.array([1.5, 2.0], np.float32), np.array([0.5, 2.0], np.float64),
                 np.array([3.0, 0.1], np.float32)],
}


@pytest.mark.parametrize("op, name", [  # (addcdiv of two integer tensors is an error: test_addc_errors)
    pytest.param(op, n, id=f"{op}-{n}") for op in ("addcmul", "addcdiv") for n, arrays in ADDC_DTYPES.items()
    if not (op == "addcdiv" and all(a.dtype.kind == "i" for a in arrays[1:]))])
def test_addc_promotion(oracle, op, name):
    """The three tensors promote as PyTorch's (a 0-d tensor does not outrank one with
    dimensions); ``value`` does not take part: it is cast to the result's dtype."""
    arrays = ADDC_DTYPES[name]
    value = 0.5 if "0.5" in name else 2
    flags = [a.dtype.kind == "f" for a in arrays]
    compare(oracle, lambda lib, *ts: getattr(lib, op)(*ts, value=value), arrays, flags)


def test_adam_from_scratch(oracle):
    """The update of a hand-written Adam (no_grad, in place), three steps, as the tutorials
    write it; then the same ops recorded, with their in-place grad_fn names."""
    def program(lib):
        p = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
        m, v = lib.zeros_like(p), lib.zeros_like(p)
        lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
        for step in range(1, 4):
            p.grad = None
            ((p ** 3).sum() + (p * p.sin()).sum()).backward()
            with lib.no_grad():
                m.mul_(b1).add_(p.grad, alpha=1 - b1)
                v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                denom = (v.sqrt() / (1 - b2 ** step) ** 0.5).add_(eps)
                p.addcdiv_(m, denom, value=-lr / (1 - b1 ** step))
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        y.addcmul_(x, x, value=0.5).addcdiv_(x, x + 1, value=2)
        y.sum().backward()
        return {"p": p.detach(), "m": m, "v": v, "y": y, "x.grad": x.grad}

    oracle.same(program)


def test_addc_errors(oracle):
    def program(lib):
        f, i = lib.ones(3), lib.tensor([1, 2, 3])
        b = lib.tensor([True, False, True])
        cases = {
            "addcdiv of ints": lambda: lib.addcdiv(f, i, i),
            "addcdiv of int tensors, int input": lambda: i.addcdiv(i, i),
            "addcdiv of bools": lambda: f.addcdiv(b, b),
            "addcmul of bools": lambda: lib.addcmul(b, b, b),
            "shapes do not broadcast": lambda: lib.addcmul(f, lib.ones(4), f),
            "tensor2 does not broadcast": lambda: f.addcdiv(lib.ones(2, 1), lib.ones(2, 4)),
            "in place grows": lambda: f.addcmul_(lib.ones(2, 3), f),
            "in place int into float": lambda: i.addcmul_(f, f),
            "number as tensor2": lambda: lib.addcmul(f, f, 2),
            "number as input": lambda: lib.addcdiv(1.0, f, f),
            "method: number as tensor1": lambda: f.addcmul(2.0, f),
            "value given by position": lambda: lib.addcmul(f, f, f, 2),
            "leaf in place": lambda: lib.ones(3, requires_grad=True).addcmul_(f, f),
        }
        return {name: error_of(case) for name, case in cases.items()}

    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# addmm: beta * input + alpha * (mat1 @ mat2)
# ---------------------------------------------------------------------------------------------

ADDMM = {
    "torch.addmm": lambda lib, x, a, b: lib.addmm(x, a, b),
    "addmm beta alpha": lambda lib, x, a, b: x.addmm(a, b, beta=0.5, alpha=-2),
    "torch.addmm alpha": lambda lib, x, a, b: lib.addmm(x, a, b, alpha=3),
    "addmm beta=0": lambda lib, x, a, b: x.addmm(a, b, beta=0),
}
ADDMM_SHAPES = {"full": (2, 4), "row": (4,), "column": (2, 1), "0-d": ()}


@FLOATS
@pytest.mark.parametrize("shape", ADDMM_SHAPES.values(), ids=ADDMM_SHAPES.keys())
@pytest.mark.parametrize("fn", ADDMM.values(), ids=ADDMM.keys())
def test_addmm(oracle, fn, shape, fdt):
    run_case(oracle, fn, [(shape, "f", True), ((2, 3), "f", True), ((3, 4), "f", True)], fdt, grad="rand")


def test_addmm_special_values(oracle):
    """beta = 0 ignores input, NaNs included (PyTorch's documented promise); integer tensors
    take the factors as integers (beta=0.5 is 0); no gradient for an input not needing one."""
    def program(lib):
        m1 = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        m2 = lib.tensor([[0.5, -1.0], [2.0, 1.0]])
        nan = lib.full((2,), float("nan"))
        out = lib.addmm(nan, m1, m2, beta=0, alpha=2)
        out.sum().backward()
        i = lib.tensor([[1, 2], [3, 4]])
        return {"beta=0": out, "m1.grad": m1.grad,
                "ints": lib.addmm(lib.ones(2, 2, dtype=lib.long), i, i, beta=3, alpha=2),
                "ints, beta 0.5": i.addmm(i, i, beta=0.5, alpha=1.9)}

    oracle.same(program)


def test_addmm_errors(oracle):
    def program(lib):
        m, n, b = lib.ones(2, 3), lib.ones(3, 4), lib.ones(4)
        cases = {
            "mat1 1-D": lambda: lib.addmm(b, m[0], n),
            "mat2 1-D": lambda: b.addmm(m, n[0]),
            "shapes": lambda: lib.addmm(b, m, lib.ones(2, 4)),
            "input does not expand": lambda: lib.addmm(lib.ones(3), m, n),
            "input has more dims": lambda: lib.addmm(lib.ones(1, 2, 4), m, n),
            "input double": lambda: lib.addmm(b.double(), m, n),
            "mat1 double": lambda: lib.addmm(b, m.double(), n),
            "mat2 double": lambda: b.addmm(m, n.double()),
            "mat1 int, mat2 int": lambda: b.addmm(m.long(), n.long()),
            "number input": lambda: lib.addmm(1.0, m, n),
            "number mat2": lambda: b.addmm(m, 2),
        }
        return {name: error_of(case) for name, case in cases.items()}

    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# isclose, allclose, equal (methods and functions)
# ---------------------------------------------------------------------------------------------


def test_closeness(oracle):
    def program(lib):
        inf, nan = float("inf"), float("nan")
        a = lib.tensor([1.0, 2.0, nan, inf, -inf, 1e10, 0.0, 1.0])
        b = lib.tensor([1.0, 2.00001, nan, inf, inf, 1.00001e10, 1e-9, 1.1])
        i, j = lib.tensor([1, 5, 100000001]), lib.tensor([2, 5, 100000002])
        flags = lib.tensor([True, False])
        return {
            "isclose": a.isclose(b),
            "torch.isclose equal_nan": lib.isclose(a, b, equal_nan=True),
            "isclose rtol=0 atol=0": a.isclose(b, rtol=0, atol=0),
            "isclose rtol=0.1": a.isclose(b, rtol=0.1),
            "isclose broadcast": lib.ones(3).isclose(lib.ones(2, 1)),
            "isclose of ints": i.isclose(j),
            "isclose of ints, rtol 0.5": i.isclose(j, rtol=0.5, atol=0),
            "isclose of ints, atol 0.5": lib.isclose(i, j, rtol=0, atol=0.5),
            "isclose of bools": flags.isclose(flags),
            "isclose requires_grad": lib.ones(2, requires_grad=True).isclose(lib.ones(2)),
            "allclose": a.allclose(b),
            "allclose equal_nan": a.allclose(b, equal_nan=True, atol=1e-8, rtol=0.1),
            "torch.allclose broadcast": lib.allclose(lib.ones(3), lib.ones(1)),
            "allclose of float64": a.double().allclose(b.double(), 1e-3, 1e-3, True),
            "equal": a.equal(a),
            "equal without NaN": a[:2].equal(a[:2].clone()),
            "equal float and int": lib.tensor([1.0, 2.0]).equal(lib.tensor([1, 2])),
            "torch.equal shapes": lib.equal(lib.ones(2, 1), lib.ones(2)),
            "equal broadcastable": lib.ones(1).equal(lib.ones(3)),
        }

    oracle.same(program)


CLOSENESS_ERRORS = {
    "isclose float and double": lambda lib: lib.ones(2).isclose(lib.ones(2).double()),
    "allclose float and long": lambda lib: lib.allclose(lib.ones(2), lib.ones(2, dtype=lib.long)),
    "isclose bool and long": lambda lib: lib.tensor([True]).isclose(lib.tensor([1])),
    "isclose shapes": lambda lib: lib.ones(3).isclose(lib.ones(2)),
    "isclose negative rtol": lambda lib: lib.ones(3).isclose(lib.ones(3), rtol=-1),
    "allclose negative atol": lambda lib: lib.ones(3).allclose(lib.ones(3), atol=-1),
    "isclose number": lambda lib: lib.ones(3).isclose(1.0),
    "torch.isclose number": lambda lib: lib.isclose(lib.ones(3), 1.0),
    "allclose number": lambda lib: lib.ones(3).allclose(1.0),
    "torch.allclose number first": lambda lib: lib.allclose(1.0, lib.ones(3)),
    "equal number": lambda lib: lib.ones(3).equal(1),
    "torch.equal number": lambda lib: lib.equal(lib.ones(3), 1.0),
    "torch.equal number first": lambda lib: lib.equal(1.0, lib.ones(3)),
}


@pytest.mark.parametrize("fn", CLOSENESS_ERRORS.values(), ids=CLOSENESS_ERRORS.keys())
def test_closeness_errors(oracle, fn):
    oracle.same_error(fn)


# ---------------------------------------------------------------------------------------------
# multinomial: PyTorch's shapes, dtype and errors (recorded); its distribution, statistically
# ---------------------------------------------------------------------------------------------


def test_multinomial_shapes_and_dtypes(oracle):
    """What a sample looks like (its values are random: compared by shape, dtype and range),
    and what is certain: a without-replacement draw of every category is a permutation,
    zero-probability categories come last, a one-hot row always gives its category."""
    def program(lib):
        g = lib.Generator().manual_seed(2147483647)  # makemore's seed
        p = lib.tensor([0.1, 0.0, 0.6, 0.3])
        rows = lib.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 5.0]], dtype=lib.float64)
        draws = {
            "makemore": lib.multinomial(p, num_samples=1, replacement=True, generator=g),
            "1-D with replacement": p.multinomial(6, True),
            "1-D without": lib.multinomial(p, 3),
            "2-D with replacement": rows.multinomial(5, replacement=True, generator=g),
            "2-D without": lib.multinomial(rows, 2, generator=g),
            "requires_grad": lib.multinomial(lib.ones(3, requires_grad=True), 2),
            "no rows": lib.multinomial(lib.ones(0, 3), 2),
            "no rows with replacement": lib.ones(0, 3).multinomial(2, True),
        }
        out = {k: (str(v.dtype), tuple(v.shape), v.requires_grad, bool(((v >= 0) & (v < 4)).all()))
               for k, v in draws.items()}
        out["every category: a permutation"] = lib.multinomial(p, 4).sort().values
        out["zero probability last"] = lib.multinomial(p, 4)[3]
        out["one-hot rows"] = lib.multinomial(lib.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]), 1)
        out["one-hot with replacement"] = lib.tensor([0.0, 0.0, 1.0]).multinomial(5, True)
        out["never a zero"] = bool((lib.multinomial(rows, 50, True)[1] == 2).all())
        return out

    oracle.same(program)


MULTINOMIAL_ERRORS = {
    "negative": lambda lib: lib.multinomial(lib.tensor([0.1, -0.2, 0.7]), 1),
    "inf": lambda lib: lib.multinomial(lib.tensor([0.1, float("inf"), 0.7]), 2),
    "nan": lambda lib: lib.tensor([[0.5, 0.5], [0.1, float("nan")]]).multinomial(1, True),
    "negative, with replacement": lambda lib: lib.multinomial(lib.tensor([0.1, -0.2, 0.7]), 2, True),
    "inf, with replacement": lambda lib: lib.multinomial(lib.tensor([0.1, float("inf"), 0.7]), 2, True),
    "nan, with replacement": lambda lib: lib.multinomial(lib.tensor([0.1, float("nan")]), 2, True),
    "inf before -1, with replacement": lambda lib: lib.multinomial(lib.tensor([float("inf"), -1.0]), 2, True),
    "-inf, with replacement": lambda lib: lib.multinomial(lib.tensor([float("-inf"), 1.0]), 2, True),
    "all zero": lambda lib: lib.multinomial(lib.zeros(3), 1),
    "a zero row": lambda lib: lib.tensor([[0.1, 0.2], [0.0, 0.0]]).multinomial(1),
    "a zero row, with replacement": lambda lib: lib.tensor([[0.1, 0.2], [0.0, 0.0]]).multinomial(2, True),
    "zero row before a negative one": lambda lib: lib.tensor([[0.0, 0.0], [-1.0, 1.0]]).multinomial(2, True),
    "too many without replacement": lambda lib: lib.multinomial(lib.tensor([0.1, 0.2, 0.7]), 4),
    "no categories": lambda lib: lib.multinomial(lib.ones(2, 0), 1),
    "no categories, with replacement": lambda lib: lib.multinomial(lib.ones(2, 0), 2, True),
    "zero samples": lambda lib: lib.multinomial(lib.ones(3), 0),
    "negative samples": lambda lib: lib.ones(3).multinomial(-1, True),
    "integer input": lambda lib: lib.multinomial(lib.tensor([1, 2, 3]), 1),
    "bool input": lambda lib: lib.tensor([True, False]).multinomial(1),
    "0-d": lambda lib: lib.multinomial(lib.tensor(1.0), 1),
    "3-D": lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1),
    "float num_samples": lambda lib: lib.multinomial(lib.ones(3), 1.0),
    "bool num_samples": lambda lib: lib.multinomial(lib.ones(3), True, True),
    "method: float num_samples": lambda lib: lib.ones(3).multinomial(1.5),
    "int replacement": lambda lib: lib.multinomial(lib.ones(3), 2, 1),
    "method: None replacement": lambda lib: lib.ones(3).multinomial(2, None),
    "generator not a Generator": lambda lib: lib.multinomial(lib.ones(3), 2, generator=3),
    "list input": lambda lib: lib.multinomial([0.5, 0.5], 1),
}


@pytest.mark.parametrize("fn", MULTINOMIAL_ERRORS.values(), ids=MULTINOMIAL_ERRORS.keys())
def test_multinomial_errors(oracle, fn):
    oracle.same_error(fn)


P = np.array([0.1, 0.2, 0.3, 0.4])
N = 40_000  # draws per check: a frequency's standard deviation is at most 0.0025


def second_draw(p):
    """P(second draw = j) without replacement: the first was some i != j, then j from the rest."""
    return np.array([p[j] * sum(p[i] / (1 - p[i]) for i in range(len(p)) if i != j)
                     for j in range(len(p))])


def assert_frequencies(samples, expected):
    """The frequencies of the categories in ``samples`` are ``expected`` up to 5 standard
    deviations (at most 0.0125 for N draws): a correct sampler fails this about once in
    two million seeds, and the seed is fixed; each wrong sampler below is off by 0.03 or more."""
    samples = np.asarray(samples)
    expected = np.asarray(expected)
    freq = np.bincount(samples.ravel(), minlength=len(expected)) / samples.size
    tolerance = 5 * np.sqrt(expected * (1 - expected) / samples.size) + 1e-12
    assert (np.abs(freq - expected) <= tolerance).all(), (freq, expected)


def check_sampler(sample):
    """``sample(weights, n, replacement)`` (2-D weights, like ``torch.multinomial``) against
    the distributions it must give: makemore's one draw per row; many draws with replacement,
    per row (the second row's distribution is the reverse of the first's; a zero weight is
    never drawn); two draws without replacement (the first with p, the second as second_draw
    says, never the first again)."""
    w = P * 5  # weights, not probabilities: the sampler normalises
    one = sample(np.tile(w, (N, 1)), 1, True)
    assert one.shape == (N, 1)
    assert_frequencies(one, P)
    rows = np.stack([np.append(w, 0.0), np.append(w[::-1], 0.0)])
    many = sample(rows, N, True)
    assert many.shape == (2, N)
    assert_frequencies(many[0], np.append(P, 0.0))
    assert_frequencies(many[1], np.append(P[::-1], 0.0))
    two = sample(np.tile(w, (N, 1)), 2, False)
    assert (two[:, 0] != two[:, 1]).all()
    assert_frequencies(two[:, 0], P)
    assert_frequencies(two[:, 1], second_draw(P))


def _minigrad_sampler(seed):
    g = minigrad.Generator().manual_seed(seed)
    return lambda w, n, replacement: minigrad.multinomial(minigrad.tensor(w), n, replacement,
                                                          generator=g).numpy()


def test_multinomial_distribution():
    check_sampler(_minigrad_sampler(0))


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2 ** 31 - 1))
def test_multinomial_distribution_torch(torch, seed):
    """The same checks pass for PyTorch's own sampler, whatever its seed: they say what
    PyTorch does (live only; the recorded case: test_multinomial_shapes_and_dtypes)."""
    g = torch.Generator().manual_seed(seed)
    check_sampler(lambda w, n, replacement: torch.multinomial(torch.tensor(w), n, replacement,
                                                              generator=g).numpy())


def _uniform(w, n, replacement):
    rng = np.random.default_rng(1)
    if replacement:
        return rng.integers(0, w.shape[1], (len(w), n))
    return np.argsort(rng.random(w.shape), axis=1)[:, :n]


def _proportional(transform):
    """Draws proportional to ``transform(w)``: correct for the identity, wrong otherwise."""
    def sample(w, n, replacement):
        rng = np.random.default_rng(1)
        t = transform(w)
        out = np.empty((len(w), n), np.int64)
        for r, row in enumerate(t):
            out[r] = rng.choice(len(row), n, replace=replacement, p=row / row.sum())
        return out
    return sample


def _with_replacement_always(w, n, replacement):
    return _proportional(lambda x: x)(w, n, True)


def _first_row_for_all(w, n, replacement):
    return _proportional(lambda x: x)(np.tile(w[0], (len(w), 1)), n, replacement)


def _off_by_one(w, n, replacement):
    return (_proportional(lambda x: x)(w, n, replacement) + 1) % w.shape[1]


def _key_without_exponential(w, n, replacement):
    """Gumbel-max done wrong: keys p * U instead of p / E (a biased race)."""
    rng = np.random.default_rng(1)
    if replacement and n > 1:
        return _proportional(lambda x: x)(w, n, replacement)
    return np.argsort(-(w * rng.random(w.shape)), axis=1)[:, :n]


WRONG_SAMPLERS = {
    "uniform": _uniform,
    "proportional to w squared": _proportional(lambda x: x ** 2),
    "proportional to sqrt w": _proportional(np.sqrt),
    "off by one category": _off_by_one,
    "with replacement when told not to": _with_replacement_always,
    "the first row's weights for every row": _first_row_for_all,
    "keys p * U": _key_without_exponential,
}


def test_numpy_reference_sampler_passes():
    """The checks are right: NumPy's own choice() passes them."""
    check_sampler(_proportional(lambda x: x))


@pytest.mark.parametrize("sampler", WRONG_SAMPLERS.values(), ids=WRONG_SAMPLERS.keys())
def test_multinomial_check_fails_on_a_wrong_sampler(sampler):
    with pytest.raises(AssertionError):
        check_sampler(sampler)


def test_multinomial_is_reproducible():
    """The same seed gives the same draws (of a Generator, or of the default one)."""
    mg = minigrad
    p = mg.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    draws = [mg.multinomial(p, 20, True, generator=mg.Generator().manual_seed(5)) for _ in range(2)]
    assert mg.equal(*draws)
    mg.manual_seed(7)
    first = p.multinomial(2)
    mg.manual_seed(7)
    assert mg.equal(first, p.multinomial(2))


# ---------------------------------------------------------------------------------------------
# median: the lower middle value; along a dim, (values, indices) as max(dim) gives them
# ---------------------------------------------------------------------------------------------

MEDIAN = {
    "median()": lambda lib, x: x.median(),
    "torch.median(x, 1)": lambda lib, x: lib.median(x, 1),
    "median(dim=0, keepdim)": lambda lib, x: x.median(dim=0, keepdim=True),
    "median(-1)": lambda lib, x: x.median(-1),
    "median(axis=1, keepdims=True)": lambda lib, x: x.median(axis=1, keepdims=True),
    "torch.median(x, axis=0)": lambda lib, x: lib.median(x, axis=0),
}
MEDIAN_SHAPES = {"odd": (3, 5), "even": (4, 6), "column": (2, 1)}


@FLOATS
@pytest.mark.parametrize("shape", MEDIAN_SHAPES.values(), ids=MEDIAN_SHAPES.keys())
@pytest.mark.parametrize("name", MEDIAN)
def test_median(oracle, name, shape, fdt):
    run_case(oracle, MEDIAN[name], [(shape, "f", True)], fdt, grad="rand")


def test_median_ties_nan_and_edges(oracle):
    """Ties: the index PyTorch picks (the lower middle by value, then by index), the gradient
    shared among equal medians by median(); NaN is the median of what holds it (the first
    NaN's index); integer tensors, 0-d and empty tensors."""
    def program(lib):
        nan = float("nan")
        x = lib.tensor([[3.0, 1.0, 2.0, 1.0], [4.0, nan, 0.0, 5.0], [2.0, 1.0, 1.0, 1.0]],
                       requires_grad=True)
        along = x.median(1)
        along.values.sum().backward()
        grad_along, x.grad = x.grad, None
        whole = x[0].median()
        whole.backward()
        y = lib.tensor([1.0, nan, nan, 3.0], requires_grad=True)
        of_nan = y.median()
        of_nan.backward()
        return {
            "along": along, "grad along": grad_along, "whole": whole, "grad whole": x.grad,
            "of NaN": of_nan, "grad of NaN": y.grad,
            "repr": repr(along), "type": type(along).__name__,
            "dim 0 of rows with NaN": x.median(0),
            "ties": lib.tensor([2.0, 1.0, 1.0, 4.0, 1.0]).median(0),
            "ints": lib.tensor([1, 5, 3, 4]).median(),
            "ints along": lib.tensor([[1, 5, 3, 4], [2, 2, 9, 2]]).median(1),
            "0-d": lib.tensor(3.0).median(),
            "0-d along 0": lib.tensor(3.0).median(0),
            "empty": lib.ones(0).median(),
            "empty rows along 0": lib.ones(2, 0).median(0),
            "float64": lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=lib.float64).median(-1, True),
        }

    oracle.same(program)


MEDIAN_ERRORS = {
    "bool": lambda lib: lib.tensor([True, False]).median(),
    "bool along": lambda lib: lib.tensor([True, False]).median(0),
    "dim of no elements": lambda lib: lib.ones(0, 2).median(0),
    "dim out of range": lambda lib: lib.ones(2).median(1),
    "dim None": lambda lib: lib.ones(3).median(None),
    "keepdim without dim": lambda lib: lib.ones(3).median(keepdim=True),
}


@pytest.mark.parametrize("fn", MEDIAN_ERRORS.values(), ids=MEDIAN_ERRORS.keys())
def test_median_errors(oracle, fn):
    oracle.same_error(fn)


# ---------------------------------------------------------------------------------------------
# unique, bincount: counting, no gradient
# ---------------------------------------------------------------------------------------------


def test_unique(oracle):
    def program(lib):
        x = lib.tensor([3, 1, 2, 3, 1, 5])
        m = lib.tensor([[2, 1], [1, 2]])
        f = lib.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 5.0]], requires_grad=True)
        nan = float("nan")
        return {
            "torch.unique": lib.unique(x),
            "sorted=False (sorted all the same)": x.unique(sorted=False),
            "return_inverse": x.unique(return_inverse=True),
            "return_counts": lib.unique(x, return_counts=True),
            "both": x.unique(sorted=False, return_inverse=True, return_counts=True),
            "2-D: inverse of its shape": m.unique(return_inverse=True),
            "floats requiring grad": f.unique(),
            "dim=0": f.unique(dim=0, return_inverse=True, return_counts=True),
            "dim=1": lib.unique(f, dim=1),
            "by position": lib.unique(f, True, True, True, 0),
            "dim=-1": x.unique(dim=-1),
            "dim=0 unsorted": lib.tensor([[3, 1], [1, 2], [3, 1]]).unique(dim=0, sorted=False,
                                                                          return_inverse=True),
            "NaNs each their own": lib.tensor([nan, 1.0, nan]).unique(return_counts=True),
            "bools": lib.tensor([True, False, True]).unique(return_counts=True),
            "0-d": lib.tensor(3.0).unique(return_inverse=True),
            "empty": lib.ones(0).unique(return_inverse=True, return_counts=True),
            "empty rows along 0": lib.ones(0, 3).unique(dim=0),
            "no gradient for the inverse": f.unique(return_inverse=True)[1].requires_grad,
        }

    oracle.same(program)


def test_bincount(oracle):
    def program(lib):
        x = lib.tensor([0, 1, 1, 3])
        w = lib.tensor([0.5, 1.0, 2.0, 3.0], requires_grad=True)
        return {
            "torch.bincount": lib.bincount(x),
            "minlength": x.bincount(minlength=6),
            "minlength shorter": x.bincount(minlength=2),
            "float weights (graph: NotImplemented)": lib.bincount(x, w),
            "float64 weights": x.bincount(weights=w.detach().double()),
            "int weights: float64": lib.bincount(x, weights=lib.tensor([1, 2, 3, 4])),
            "bool weights: float64": lib.bincount(x, lib.tensor([True, False, True, True])),
            "empty": lib.bincount(lib.tensor([], dtype=lib.long)),
            "empty, minlength": lib.tensor([], dtype=lib.long).bincount(minlength=3),
        }

    oracle.same(program)


COUNTING_ERRORS = {
    "unique backward": lambda lib: lib.ones(3, requires_grad=True).unique().sum().backward(),
    "unique(dim) backward": lambda lib: lib.ones(2, 3, requires_grad=True).unique(dim=0).sum().backward(),
    "unique dim of 0-d": lambda lib: lib.tensor(3.0).unique(dim=0),
    "unique dim out of range": lambda lib: lib.ones(2, 3).unique(dim=2),
    "unique empty dims not selected": lambda lib: lib.ones(2, 0).unique(dim=0),
    "unique float dim": lambda lib: lib.tensor([[1, 2]]).unique(dim=0.0),
    "torch.unique of a list": lambda lib: lib.unique([1, 2]),
    "torch.unique(dim) of a list": lambda lib: lib.unique([1, 2], dim=0),
    "bincount backward": lambda lib: lib.bincount(lib.tensor([0, 1]), lib.ones(2, requires_grad=True)
                                                  ).sum().backward(),
    "bincount negative": lambda lib: lib.bincount(lib.tensor([-1, 2])),
    "bincount floats": lambda lib: lib.tensor([1.0, 2.0]).bincount(),
    "bincount bools": lambda lib: lib.bincount(lib.tensor([True, False])),
    "bincount 2-D": lambda lib: lib.bincount(lib.tensor([[1, 2]])),
    "bincount 0-d": lambda lib: lib.tensor(1).bincount(),
    "bincount negative minlength": lambda lib: lib.bincount(lib.tensor([1, 2]), minlength=-1),
    "bincount weights too long": lambda lib: lib.bincount(lib.tensor([1, 2]), weights=lib.ones(3)),
    "bincount 2-D weights": lambda lib: lib.tensor([1, 2]).bincount(lib.ones(1, 2)),
    "bincount float minlength": lambda lib: lib.bincount(lib.tensor([1, 2]), minlength=2.0),
    "torch.bincount of a list": lambda lib: lib.bincount([1, 2]),
    "torch.bincount list weights": lambda lib: lib.bincount(lib.tensor([1]), [1.0]),
    "bincount list weights": lambda lib: lib.tensor([1]).bincount([1.0]),
}


@pytest.mark.parametrize("fn", COUNTING_ERRORS.values(), ids=COUNTING_ERRORS.keys())
def test_counting_errors(oracle, fn):
    oracle.same_error(fn)


# ---------------------------------------------------------------------------------------------
# Live against PyTorch on many ties (Hypothesis): which index median picks, unique's answers
# (the recorded cases above: test_median_ties_nan_and_edges, test_unique)
# ---------------------------------------------------------------------------------------------


@st.composite
def tied(draw):
    """A 1-D or 2-D array of few distinct values (many ties), a NaN now and then."""
    shape = draw(st.lists(st.integers(1, 6), min_size=1, max_size=2).map(tuple))
    choices = [0.0, 1.0, 2.0, 3.0, -1.0] + [float("nan")] * draw(st.integers(0, 1))
    n = int(np.prod(shape))
    values = draw(st.lists(st.sampled_from(choices), min_size=n, max_size=n))
    return np.array(values, np.float32).reshape(shape)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(x=tied(), data=st.data())
def test_median_and_unique_match_torch_hypothesis(torch, x, data):
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    keepdim = data.draw(st.booleans())

    def program(lib):
        t = lib.tensor(x, requires_grad=True)
        along = t.median(dim, keepdim)
        along.values.sum().backward()
        whole = t.median()
        clean = lib.tensor(np.nan_to_num(x, nan=7.0))  # (NaN slices: see test_unique)
        return {"along": along, "grad": t.grad, "whole": whole,
                "unique": clean.unique(return_inverse=True, return_counts=True),
                "unique(dim)": clean.unique(dim=dim, return_inverse=True, return_counts=True)}

    assert_same(program(minigrad), program(torch))


# ---------------------------------------------------------------------------------------------
# Smaller names: repeat_interleave, broadcast_to, type_as, argwhere, positive, is_nonzero...
# ---------------------------------------------------------------------------------------------

def _leaf(lib):
    return lib.arange(6.0).reshape(2, 3).requires_grad_()


def _through(lib, out, leaf):
    """``out``, and the leaf's gradient of a weighted sum of it."""
    (g,) = lib.autograd.grad((out * lib.arange(1.0, out.numel() + 1).reshape(out.shape)).sum(), leaf)
    return out, g


SMALL_NAMES = {
    "repeat_interleave": lambda lib: (lambda x: _through(lib, x.repeat_interleave(2), x))(_leaf(lib)),
    "repeat_interleave dim": lambda lib: (lambda x: _through(lib, x.repeat_interleave(2, dim=0), x))(_leaf(lib)),
    "repeat_interleave dim -1": lambda lib: (lambda x: _through(lib, lib.repeat_interleave(x, 3, -1), x))(_leaf(lib)),
    "repeat_interleave counts": lambda lib: (lambda x: _through(
        lib, x.repeat_interleave(lib.tensor([1, 2]), dim=0), x))(_leaf(lib)),
    "repeat_interleave one count": lambda lib: (lambda x: _through(
        lib, x.repeat_interleave(lib.tensor(2), dim=1), x))(_leaf(lib)),
    "repeat_interleave 0-d": lambda lib: lib.tensor(5.0, requires_grad=True).repeat_interleave(3),
    "torch.repeat_interleave(counts)": lambda lib: lib.repeat_interleave(lib.tensor([1, 0, 3])),
    "repeat_interleave mistakes": lambda lib: [error_of(lambda: _leaf(lib).repeat_interleave(*a)) for a in (
        (-1,), (lib.tensor([1, 2, 3]), 0), (lib.tensor([1.0, 2.0]), 0), (lib.tensor([-1, 2]), 0),
        (lib.tensor([[1, 2]]), 0))],
    "clone of an expanded tensor": lambda lib: [
        e.clone().stride() for e in (lib.ones(3).expand(2, 3), lib.ones(2, 3).unsqueeze(1).expand(2, 2, 3),
                                     lib.ones(2, 3).t().unsqueeze(1).expand(3, 2, 2))],
    "broadcast_to": lambda lib: (lambda x: _through(lib, x.broadcast_to(3, 2, 3), x))(_leaf(lib)),
    "torch.broadcast_to": lambda lib: [lib.broadcast_to(lib.ones(3), (2, 3)), error_of(
        lambda: lib.ones(2).broadcast_to(3))],
    "type_as": lambda lib: [_leaf(lib).type_as(lib.tensor([1])), lib.tensor([1, 2]).type_as(lib.ones(1)),
                            (lambda x: x.type_as(x) is x)(lib.ones(2))],
    "sizes": lambda lib: [(t.ndimension(), t.nbytes, t.itemsize) for t in (
        lib.ones(2, 3), lib.ones(4, dtype=lib.float64), lib.tensor(True), lib.ones(0, dtype=lib.long))],
    "is_complex, is_signed": lambda lib: [(t.is_complex(), t.is_signed()) for t in (
        lib.ones(2), lib.tensor([1]), lib.tensor(True), lib.tensor([1], dtype=lib.int32))],
    "is_nonzero": lambda lib: [error_of(lambda: t.is_nonzero()) if t.numel() != 1 else t.is_nonzero() for t in (
        lib.tensor([1.0, 2.0]), lib.tensor([]), lib.tensor([0.0]), lib.tensor(3), lib.tensor([[True]]))],
    "argwhere": lambda lib: [lib.argwhere(lib.tensor([[0, 1], [2, 0]])), lib.tensor([0.0, 1.0]).argwhere(),
                             lib.tensor(3.0).argwhere(), lib.tensor(0.0).argwhere()],
    "nonzero of 0-d": lambda lib: [lib.tensor(v).nonzero(as_tuple=t) for v in (3.0, 0.0) for t in (False, True)],
    "positive, negative": lambda lib: [(lambda x: (lib.positive(x) is x, +x is x, x.negative(), lib.negative(x)))(
        _leaf(lib)), error_of(lambda: +lib.tensor([True])), error_of(lambda: lib.tensor([True]).positive())],
}


@pytest.mark.parametrize("name", SMALL_NAMES)
def test_small_names(oracle, name):
    oracle.same(SMALL_NAMES[name])
