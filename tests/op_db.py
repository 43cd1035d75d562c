"""The op table: one entry per op, in the style of PyTorch's OpInfo
(torch/testing/_internal/opinfo/core.py and common_methods_invocations.py).

Each :class:`OpInfo` names an op as PyTorch spells it (``"add"``, ``"__getitem__"``,
``"nn.functional.gelu"``, ``"linalg.det"``; a plain name is both the ``torch.*`` function and the
Tensor method), its other public names (``aliases``: ``clip`` is ``clamp``, ``__radd__`` is
``add``), the other ops a sample of several ops exercises with it (``covers``), and its samples:

- ``vs_torch``: programs ``fn(lib, *inputs)`` that tests/ops/test_ops_vs_torch.py runs under PyTorch
  (recorded, tests/oracle.py) and minigrad from the same NumPy inputs, comparing values, dtype,
  repr, ``grad_fn``, the graph and the inputs' gradients (:func:`compare` and its expansions
  over shapes, dtypes and requires_grad flags); a few use another check (``check=``: the sign
  of a zero gradient, values and gradients only, a second derivative's graph);
- ``gradcheck``: functions of float64 tensors ``fn(*tensors)`` and a Hypothesis strategy for
  their inputs (:class:`Grad`), which tests/ops/test_gradcheck.py checks against central
  differences, first order and (``orders``) second order, or in float32 or mixed precision
  (``mode``); Hypothesis's settings (``settings``: PROFILE, FEW, NEW_FEW examples) per sample;
- ``fuzz``: the lines the differential fuzzer (tests/fuzz.py) may draw for the op, by family
  (``{"unary": ["exp()"]}``; see fuzz.py for the families and the placeholders).

and what is known about it: whether it is ``differentiable`` and has second derivatives
(``gradgrad``), and ``known``: the keys of the known differences from PyTorch
(``fuzz.KNOWN_DIFFERENCES``) that concern it. The dtypes are the samples': :func:`compare` runs
in float32 and float64 unless told (``dtypes=``). A comparison sample that shows a known
difference carries ``diff="..."``: its test is ``xfail(strict=True, reason="DIFF: ...")``, and
docs/differences.md, the list of known differences, is generated from those marks
(tests/known_differences.py, tools/docs.py: ``make docs``).

**Adding an op**: add one ``OpInfo`` to :data:`OPS` (alphabetical by name), with ``vs_torch``
samples and, if it is differentiable, ``gradcheck`` samples (both orders unless PyTorch has no
second derivative: ``gradgrad=False``), and ``fuzz`` templates if the fuzzer should draw it;
list its other public names in ``aliases``; record PyTorch's answers
(``pytest -m oracle --regen-all tests/ops/test_ops_vs_torch.py -k "<name>:"``, or ``make record``)
and commit tests/recordings/. tests/ops/test_op_db.py fails while a public op of minigrad is in no
entry, and says which; an alias must be the same function or be called by a sample.
"""
from __future__ import annotations

import math
import operator
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad

F32, F64 = np.float32, np.float64
FLOATS = (F32, F64)  # the dtypes a comparison runs in by default
DTYPE_IDS = {F32: "f32", F64: "f64", None: "own"}  # (None: each input's own dtype, see `gen` kinds)

# Hypothesis settings of the gradcheck samples: a local profile (registered, never loaded
# globally), modest example counts, no deadline, derandomized so that the run time is reproducible.
settings.register_profile(
    "minigrad_gradcheck", max_examples=40, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture])
PROFILE = settings.get_profile("minigrad_gradcheck")
FEW = settings(PROFILE, max_examples=20)  # for the costlier second-order checks
NEW_FEW = settings(PROFILE, max_examples=12)  # the ops of issue 18 on: first and second order

FIRST, SECOND, BOTH = ("first",), ("second",), ("first", "second")


# =============================================================================================
# Samples
# =============================================================================================


@dataclass
class VsTorch:
    """One comparison with PyTorch: ``fn(lib, *inputs)`` in both libraries.

    ``inputs``: ``(shape, kind, requires_grad)`` (``kind`` as test_vs_torch.gen: "f", "pos",
    "int", "nint", "cls", "bool"), ``(shape, kind, requires_grad, dtype)``, or ``(array,
    requires_grad)`` for fixed values. ``dtype``: the float dtype of the "f"/"pos" inputs (None:
    their own). ``grad``: the gradient sent back from the (first) output, "rand" or "sum".
    ``rng``: the seed of the inputs' values. ``check``: which test runs it (test_ops_vs_torch.py)."""

    id: str
    fn: Callable
    inputs: tuple = ()
    dtype: Any = None
    grad: str = "rand"
    rng: int = 0
    check_graph: bool = True
    top_node: bool = False  # graph not compared, only the output's grad_fn (einsum's decomposition)
    diff: str | None = None  # a known difference: the test is xfail(strict=True, reason="DIFF: ...")
    marks: tuple = ()
    check: str = "compare"
    op: str = ""  # (filled in by OpInfo)

    @property
    def param_id(self):
        return f"{self.op}: {self.id}" + ("" if self.check != "compare" else f" [{DTYPE_IDS[self.dtype]}]")

    def param(self):
        marks = list(self.marks) + ([pytest.mark.xfail(strict=True, reason="DIFF: " + self.diff)] if self.diff else [])
        return pytest.param(self, id=self.param_id, marks=marks)


def compare(id, fn, *inputs, dtypes=FLOATS, **options):
    """The comparison of ``fn(lib, *inputs)``, once per dtype of ``dtypes``."""
    return [VsTorch(id, fn, tuple(inputs), dtype, **options) for dtype in dtypes]


SHAPES = {"same": ((2, 3), (2, 3)), "row": ((2, 3), (3,)), "col_row": ((2, 1), (1, 3)), "lead": ((3,), (2, 3)),
          "scalar0d": ((2, 3), ()), "0d_left": ((), (2, 3)), "3d": ((2, 1, 3), (4, 1))}
FEW_SHAPES = {k: SHAPES[k] for k in ("same", "row", "col_row")}
FLAGS = {"both_rg": (True, True), "left_rg": (True, False), "right_rg": (False, True), "no_rg": (False, False)}


def broadcast(id, fn, kind="f", shapes=SHAPES, flags=("both_rg", "left_rg", "right_rg")):
    """``fn(lib, a, b)`` over broadcasting shapes, each input requiring grad or not."""
    return [c for f in flags for name, (sa, sb) in shapes.items()
            for c in compare(f"{id}, {name}, {f}", fn, (sa, kind, FLAGS[f][0]), (sb, kind, FLAGS[f][1]))]


def with_flags(id, fn, shapes, flags, rng=0):
    """``fn(lib, a, b)`` of two "f" inputs of ``shapes``, requiring grad as ``flags`` say."""
    return [c for f in flags for c in compare(f"{id}, {f}", fn, (shapes[0], "f", FLAGS[f][0]),
                                              (shapes[1], "f", FLAGS[f][1]), rng=rng)]


def number_operand(id, fn, ints=True):
    """``fn(lib, x)`` of a tensor and a Python number: (2, 3) and 0-d floats, (2, 3) integers."""
    return (compare(id, fn, ((2, 3), "pos", True), grad="sum")
            + compare(f"{id}, 0-d", fn, ((), "pos", True))
            + (compare(f"{id}, int64", fn, ((2, 3), "nint", False), dtypes=(None,), grad="sum") if ints else []))


def int_pair(id, fn):
    return compare(f"{id}, int64", fn, ((2, 3), "nint", False), ((3,), "nint", False), dtypes=(None,), grad="sum")


MIXED_FLOAT = {"f32 * f64 0-d": ((2, 3), F32, (), F64), "f64 0-d * f32": ((), F64, (2, 3), F32),
               "f32 * f64 tensor": ((2, 3), F32, (3,), F64), "f64 tensor * f32": ((3,), F64, (2, 3), F32),
               "f32 0-d * f64 0-d": ((), F32, (), F64), "f64 1-elem * f32 0-d": ((1,), F64, (), F32)}


def mixed_float(id, fn, graph=False):
    """``fn(lib, a, b)`` of a float32 and a float64 tensor: the result's dtype, values and
    gradients (with their dtypes); with ``graph``, the graph too (PyTorch promotes inside the op)."""
    return [c for f in ("both_rg", "left_rg", "right_rg") for name, (sa, da, sb, db) in MIXED_FLOAT.items()
            for c in compare(f"{id}, {name}, {f}" + (", graph" if graph else ""), fn, (sa, "pos", FLAGS[f][0], da),
                             (sb, "pos", FLAGS[f][1], db), dtypes=(None,), rng=3, check_graph=graph)]


def unary(id, fn, kind="f"):
    """``fn(lib, x)`` of a (2, 3) and a 0-d tensor, and of a tensor that does not require grad."""
    return (compare(id, fn, ((2, 3), kind, True)) + compare(f"{id}, 0-d", fn, ((), kind, True))
            + compare(f"{id}, no grad", fn, ((4,), kind, False), dtypes=(F32,), grad="sum"))


def reduction(id, fn):
    """``fn(lib, x)`` of a (2, 3, 4) tensor: a random gradient back, and the sum's in float32."""
    return (compare(id, fn, ((2, 3, 4), "f", True))
            + compare(f"{id}, sum backward", fn, ((2, 3, 4), "f", True), dtypes=(F32,), grad="sum"))


def fixed_inputs(id, fn, *arrays, requires_grad=True, grad="sum", **options):
    """``fn(lib, *tensors)`` of these arrays (each requiring grad or not, as ``requires_grad``
    says: one flag for all, or one per array)."""
    flags = requires_grad if isinstance(requires_grad, (tuple, list)) else [requires_grad] * len(arrays)
    return [VsTorch(id, fn, tuple((np.asarray(a), f) for a, f in zip(arrays, flags)), None, grad=grad, **options)]


def check(kind, id, fn, **data):
    """A sample for another comparison than ``compare``'s (see test_ops_vs_torch.py)."""
    return [VsTorch(id, fn, check=kind, inputs=tuple(data.items()))]


@dataclass
class Check:
    """One gradient check: ``fn`` of float64 tensors made from ``arrays`` (requiring grad if
    their index is in ``wrt``, by default all), with the checker's tolerances."""

    fn: Callable
    arrays: list
    wrt: Any = None
    tolerances: dict = field(default_factory=dict)


@dataclass
class Grad:
    """A gradcheck sample: ``fn(*tensors)`` of the arrays ``inputs`` draws (a Hypothesis
    strategy of a list of arrays, or a fixed list), checked in first and/or second order
    (``orders``). ``checks`` instead: a strategy of a list of :class:`Check` (a sample whose
    function depends on what is drawn). ``mode``: "float32" (the gradient keeps float32),
    "mixed" (float32 and float64 inputs)."""

    id: str
    fn: Callable | None = None
    inputs: Any = None
    settings: Any = NEW_FEW
    orders: tuple = BOTH
    checks: Any = None
    mode: str = "float64"
    result: Any = None  # (mode "float32": the result's dtype)
    op: str = ""

    def strategy(self):
        if self.checks is not None:
            return self.checks
        return st.builds(lambda arrays: [Check(self.fn, arrays)], self.inputs)

    def param(self, order=None):
        return pytest.param(self, id=f"{self.op}: {self.id}")


def grad(id, fn, inputs, settings=NEW_FEW, orders=BOTH, mode="float64"):
    return [Grad(id, fn, inputs, settings, orders, mode=mode)]


def grad_checks(id, checks, settings=PROFILE, orders=FIRST):
    return [Grad(id, checks=checks, settings=settings, orders=orders)]


# =============================================================================================
# The entries
# =============================================================================================


@dataclass
class OpInfo:
    name: str
    aliases: tuple = ()
    vs_torch: list = field(default_factory=list)
    gradcheck: list = field(default_factory=list)
    fuzz: dict = field(default_factory=dict)
    differentiable: bool = True
    gradgrad: bool = True
    known: tuple = ()  # keys of fuzz.KNOWN_DIFFERENCES
    covers: tuple = ()  # other ops that a sample of several ops exercises with this one

    def __post_init__(self):
        seen = set()
        for s in self.vs_torch + self.gradcheck:
            s.op = self.name
            n = 2
            while self._key(s) in seen:  # (the same spelling sampled twice: the second is "... #2")
                s.id = s.id.rsplit(" #", 1)[0] + f" #{n}"
                n += 1
            seen.add(self._key(s))

    @staticmethod
    def _key(s):
        """What tells two samples' tests apart, besides the id."""
        if isinstance(s, Grad):
            return s.id, s.orders, s.mode
        return s.id, s.dtype, s.check


# =============================================================================================
# Sample inputs: Hypothesis strategies of float64 arrays, away from where the ops have no
# derivative (kinks of abs/relu/clamp, ties of max/maximum, log/sqrt/div near 0)
# =============================================================================================



def floats(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def away(lo, hi):
    """Magnitude in [lo, hi], either sign: keeps a value away from 0."""
    return st.builds(operator.mul, floats(lo, hi), st.sampled_from([-1.0, 1.0]))


def shapes(min_dims=0, max_dims=3, max_side=3):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=max_side)


def arrays(shape, elements=None):
    return hnp.arrays(np.float64, shape, elements=elements if elements is not None else floats(-2, 2))


def broadcast_pair(max_dims=3):
    return hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=max_dims, max_side=3)


@st.composite
def distinct(draw, shape):
    """Values with no ties (pairwise gaps >= 0.4): max and argmax are differentiable there."""
    n = int(np.prod(shape, dtype=np.int64))
    perm = np.array(draw(st.permutations(range(n))), dtype=np.float64)
    jitter = draw(hnp.arrays(np.float64, n, elements=floats(0, 0.1)))
    offset = draw(floats(-3, 3))
    return (0.5 * perm + jitter + offset - 0.25 * n).reshape(shape)


@st.composite
def dims_arg(draw, ndim, allow_tuple=True):
    """A ``dim`` argument: an int (maybe negative) or a tuple of distinct dims."""
    if allow_tuple and draw(st.booleans()):
        picked = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
        return tuple(d - ndim if draw(st.booleans()) else d for d in picked)
    return draw(st.integers(-ndim, ndim - 1))


def _tie_free(shape, shift):
    # integer + shift +- 0.1: a from shift=+0.25, b from shift=-0.25 differ by >= 0.3 everywhere
    return hnp.arrays(np.float64, shape, elements=st.builds(
        lambda k, j: k + shift + j, st.integers(-2, 2), floats(-0.1, 0.1)))


NUMBERS = st.one_of(st.integers(-3, 3), floats(-3, 3))
NONZERO_NUMBERS = st.one_of(st.sampled_from([-3, -2, -1, 1, 2, 3]), away(0.5, 3))

@st.composite
def matmul_shapes(draw, kind):
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    ba, bb = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=1, max_dims=2,
                                                    max_side=2)).input_shapes
    left = {"vec": (k,), "mat": (n, k), "batch": tuple(ba) + (n, k)}
    right = {"vec": (k,), "mat": (k, m), "batch": tuple(bb) + (k, m)}
    a, b = kind.split(".")
    return left[a], right[b]


@st.composite
def clamp_case(draw):
    which = draw(st.sampled_from(["min", "max", "both", "clip"]))
    lo = draw(floats(-2, 1))
    hi = draw(floats(lo + 0.5, 2.5))
    bounds = {"min": (lo, None), "max": (None, hi), "both": (lo, hi), "clip": (lo, hi)}[which]
    kinks = [b for b in bounds if b is not None]
    elements = floats(-3, 3).filter(lambda v: all(abs(v - b) > 0.02 for b in kinks))
    x = draw(arrays(draw(shapes()), elements))
    return which, bounds, x



OFFSETS = st.sampled_from([0.0, 0.0, 50.0, -50.0, 1000.0, -1000.0])  # 1000: exp() alone overflows

@st.composite
def new_shape(draw, shape):
    """Another shape with as many elements: regroup the sizes' factors, sprinkle 1s, maybe a -1."""
    factors = [f for s in shape for f in ([2, 2] if s == 4 else [s]) if f != 1]
    factors = draw(st.permutations(factors))
    out = []
    for f in factors:
        if out and draw(st.booleans()):
            out[-1] *= f
        else:
            out.append(f)
    for _ in range(draw(st.integers(0, 2))):
        out.insert(draw(st.integers(0, len(out))), 1)
    if out and draw(st.booleans()):
        out[draw(st.integers(0, len(out) - 1))] = -1
    return tuple(out)


@st.composite
def expand_target(draw, shape):
    lead = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    rest = tuple(draw(st.sampled_from([1, 2, 3, -1])) if s == 1 else draw(st.sampled_from([s, -1]))
                 for s in shape)
    return lead + rest



@st.composite
def index_component(draw, size, kinds):
    kind = draw(st.sampled_from(kinds))
    if kind == "int":
        return draw(st.integers(-size, size - 1))
    if kind == "slice":
        bound = st.one_of(st.none(), st.integers(-size - 1, size + 1))
        return slice(draw(bound), draw(bound), draw(st.sampled_from([None, 1, 2, 3])))
    if kind == "list":  # repeats are likely: they must accumulate
        return draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=4))
    if kind == "array":
        return np.array(draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=4)))
    if kind == "tensor":
        return minigrad.tensor(draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=4)))
    if kind == "tensor0d":  # a 0-d integer tensor indexes like an int (an advanced index here)
        return minigrad.tensor(draw(st.integers(0, size - 1)))
    return slice(None)


@st.composite
def index_key(draw, shape):
    style = draw(st.sampled_from(["int", "slice", "list", "array", "tensor", "tensor0d", "mask",
                                  "mask-tensor",
                                  "none", "ellipsis", "mixed", "mixed-advanced"]))
    n = len(shape)
    if style in ("int", "slice", "list", "array", "tensor", "tensor0d"):
        comps = [draw(index_component(shape[0], [style]))]
        if n > 1 and style in ("int", "slice") and draw(st.booleans()):
            comps.append(draw(index_component(shape[1], [style])))
        return comps[0] if len(comps) == 1 else tuple(comps)
    if style in ("mask", "mask-tensor"):
        k = draw(st.integers(1, n))  # a mask over the leading k dims
        mask = draw(hnp.arrays(np.bool_, shape[:k]))
        key = mask if style == "mask" else minigrad.tensor(mask)
        return key if k == n or draw(st.booleans()) else (key, Ellipsis)
    if style == "none":
        return draw(st.sampled_from([None, (None, 0), (slice(None), None), (None, Ellipsis, None)]))
    if style == "ellipsis":
        return (Ellipsis, draw(index_component(shape[-1], ["int", "slice", "list"])))
    if style == "mixed":  # basic indices per dim with Nones in between
        key = [draw(index_component(s, ["int", "slice", "full"])) for s in shape]
        for _ in range(draw(st.integers(0, 2))):
            key.insert(draw(st.integers(0, len(key))), None)
        return tuple(key)
    # mixed-advanced: equal-length integer arrays on some dims, slices / ints / None elsewhere
    length = draw(st.integers(1, 3))
    key = []
    for s in shape:
        kind = draw(st.sampled_from(["adv", "slice", "int"]))
        if kind == "adv":
            key.append(draw(st.lists(st.integers(-s, s - 1), min_size=length, max_size=length)))
        else:
            key.append(draw(index_component(s, [kind])))
    if draw(st.booleans()):
        key.insert(draw(st.integers(0, len(key))), None)
    return tuple(key)


@st.composite
def join_case(draw, stack):
    shape = list(draw(shapes(min_dims=0 if stack else 1)))
    n = len(shape) + (1 if stack else 0)
    dim = draw(st.integers(-n, n - 1))
    count = draw(st.integers(1, 3))
    arrs = []
    for _ in range(count):
        s = list(shape)
        if not stack:
            s[dim] = draw(st.integers(1, 3))
        arrs.append(draw(arrays(tuple(s))))
    return dim, arrs





def off_the_grid(lo, hi, step=1.0):
    """Values in [lo, hi] at least 0.1 * step away from every multiple of ``step``: floor,
    round, frac, % and fmod are smooth there."""
    return st.builds(lambda k, f: (k + f) * step, st.integers(int(lo / step), int(hi / step)),
                     floats(0.15, 0.35))


@st.composite
def one(draw, elements=None, min_dims=0, max_dims=3):
    return [draw(arrays(draw(shapes(min_dims, max_dims)), elements))]


@st.composite
def pair(draw, ea=None, eb=None):
    sa, sb = draw(broadcast_pair(max_dims=2)).input_shapes
    return [draw(arrays(sa, ea)), draw(arrays(sb, eb))]


@st.composite
def tie_free_pair(draw):
    sa, sb = draw(broadcast_pair(max_dims=2)).input_shapes
    return [draw(_tie_free(sa, 0.25)), draw(_tie_free(sb, -0.25))]


@st.composite
def matrix(draw, elements=None, square=False):
    n = draw(st.integers(1, 3))
    m = n if square else draw(st.integers(1, 3))
    return [draw(arrays((n, m), elements))]


@st.composite
def distinct_matrix(draw):
    return [draw(distinct((draw(st.integers(1, 3)), draw(st.integers(2, 3)))))]


@st.composite
def remainder_case(draw):
    """a % b away from the jumps of floor(a / b)."""
    b = draw(arrays(draw(shapes(0, 2)), away(0.5, 2)))
    q = draw(arrays(b.shape, st.builds(lambda k, f: k + f, st.integers(-2, 2), floats(0.15, 0.85))))
    return [q * b, b]


@st.composite
def clamp_tensor_case(draw):
    x = draw(arrays((3, 2), floats(-3, 3)))
    lo = draw(arrays((3, 2), floats(-2, 2)))
    hi = lo + draw(arrays((3, 2), floats(0.3, 2)))
    ok = (np.abs(x - lo) > 0.05) & (np.abs(x - hi) > 0.05)
    return [np.where(ok, x, lo - 0.5), lo, hi]


@st.composite
def three(draw):
    shape = draw(shapes(1, 2))
    return [draw(arrays(shape)) for _ in range(3)]


@st.composite
def addmm_case(draw):
    """input (broadcast to the product's shape), mat1 (n, k), mat2 (k, m)."""
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    shape = draw(st.sampled_from([(n, m), (m,), (1, m), (n, 1), ()]))
    return [draw(arrays(shape)), draw(arrays((n, k))), draw(arrays((k, m)))]


def fixed(shape, elements=None):
    return st.builds(lambda a: [a], arrays(shape, elements))


@st.composite
def matmul_pair(draw, sa, sb):
    return [draw(arrays(sa)), draw(arrays(sb))]


IDX = np.array([[0, 2], [1, 1], [2, 0]])  # with a repeated index in row 1


def apart(*shapes):
    """Arrays of these shapes with no two values closer than 0.4 (distinct): differences of
    their elements, and so distances between them, are away from 0, where norms have a kink."""
    sizes = [int(np.prod(s, dtype=np.int64)) for s in shapes]
    return st.builds(lambda a: [p.reshape(s) for p, s in zip(np.split(a, np.cumsum(sizes)[:-1]), shapes)],
                     distinct((sum(sizes),)))

def _SCATTER_IDX():
    return minigrad.tensor([[0, 1, 0, 2], [1, 1, 0, 0], [2, 0, 0, 1]])


def _self_and_src(nonzero=False):
    """Two (3, 4) arrays, no two values closer than 0.4 (no ties for amax, amin); ``nonzero``:
    any values at least 0.3 from 0 instead (a product's gradient divides by them)."""
    return st.builds(lambda a: [a[:3], a[3:]], arrays((6, 4), away(0.3, 1.5)) if nonzero else distinct((6, 4)))



def _quiet(method, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (index_reduce's beta warning; the deprecated upsample, cholesky, qr...)
        return method(*args, **kwargs)


def _weighted(grids):
    """Several outputs as one: each grid weighted differently, so a swapped gradient shows."""
    return sum((g * (i + 1) for i, g in enumerate(grids[1:], 1)), grids[0])



def _written(write):
    """``(x, v) -> z``: y = x * 2 (a non-leaf), then ``write(y, v)`` in place, then z = y * y,
    so the gradient of the new values is not constant (second order sees it too)."""
    def fn(x, v):
        y = x * 2
        write(y, v)
        return y * y
    return fn


def _assign(key):
    def write(y, v):
        y[key] = v
    return write



F = minigrad.nn.functional
_RNN = minigrad.nn._functional_rnn
EMB_IDX = minigrad.tensor([[0, 2], [2, 3], [1, 2]])  # row 2 used three times


@st.composite
def loss_pair(draw, max_dims=2):
    """(input, target) of one shape, their differences kept 0.075 away from every multiple
    of 0.5: away from l1's kink at 0 and the squared/absolute seams at beta, delta = 0.5, 1."""
    shape = draw(shapes(min_dims=1, max_dims=max_dims))
    x = draw(arrays(shape))
    return [x, x + draw(arrays(shape, off_the_grid(-2, 2, step=0.5)))]


@st.composite
def rows_and_affine(draw):
    n, k = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    return [draw(arrays((n, k))), draw(arrays((k,))), draw(arrays((k,)))]


@st.composite
def probabilities_pair(draw):
    """Logits and target probabilities (inside (0.05, 0.95), so logs and sigmoids stay tame)."""
    shape = draw(shapes(min_dims=2, max_dims=2))
    return [draw(arrays(shape)), draw(arrays(shape, floats(0.05, 0.95)))]


def _ramp(n):
    """A weight per class: 0.5, 1.0, 1.5, ..."""
    return minigrad.arange(1, n + 1, dtype=minigrad.float64) * 0.5


SDPA_MASK = minigrad.tensor([[True, False, True, True]] * 3)  # (with is_causal: each query keeps key 0)


def shaped(*shapes):
    """Arrays of these shapes."""
    return st.builds(lambda *a: list(a), *(arrays(s) for s in shapes))


def spread(shape, *shapes):
    """An input to normalise, without ties (so every group has a variance well above 0, where
    the normalisations are smooth), and arrays of the other shapes (weight, bias)."""
    return st.builds(lambda *a: list(a), distinct(shape), *(arrays(s) for s in shapes))
# (the recurrent layers' inputs, for the entries at the end of NN_OPS)
@st.composite
def rnn_cell_case(draw, gates, n_states, batch=2, input_size=2, hidden=2):
    """input (batch, input_size), the state(s) (batch, hidden), w_ih, w_hh, b_ih, b_hh (gates * hidden
    rows)."""
    return ([draw(arrays((batch, input_size)))] + [draw(arrays((batch, hidden))) for _ in range(n_states)]
            + [draw(arrays((gates * hidden, input_size), floats(-1, 1))),
               draw(arrays((gates * hidden, hidden), floats(-1, 1))),
               draw(arrays((gates * hidden,), floats(-1, 1))),
               draw(arrays((gates * hidden,), floats(-1, 1)))])




@st.composite
def lstm_layer_case(draw, seq=3, batch=2, input_size=2, hidden=2):
    """ops.MkldnnRnnLayer's inputs: input (seq, batch, input_size), w_ih, w_hh, b_ih, b_hh (4 * hidden
    rows), h0, c0 (batch, hidden)."""
    return ([draw(arrays((seq, batch, input_size))),
             draw(arrays((4 * hidden, input_size), floats(-1, 1))),
             draw(arrays((4 * hidden, hidden), floats(-1, 1))),
             draw(arrays((4 * hidden,), floats(-1, 1))), draw(arrays((4 * hidden,), floats(-1, 1)))]
            + [draw(arrays((batch, hidden))) for _ in range(2)])


def _lstm_layer(reverse):
    """A float32 nn.LSTM's layer (one direction) as PyTorch's CPU build runs it: one op, called
    directly (nn.LSTM itself runs it in float32 only), its three outputs weighted as one."""
    return lambda *a: _weighted(minigrad.ops.MkldnnRnnLayer.apply(*a, reverse))


# =============================================================================================
# Gradcheck samples whose function depends on what is drawn (a dim, a shape, an index):
# strategies of a list of Checks
# =============================================================================================


@st.composite
def binary_checks(draw, op, ea, eb):
    """``op(a, b)`` of broadcasting shapes (tie-free values where ``ea`` is None), with respect
    to both inputs or one."""
    sa, sb = draw(broadcast_pair()).input_shapes
    if ea is None:
        a, b = draw(_tie_free(sa, 0.25)), draw(_tie_free(sb, -0.25))
    else:
        a, b = draw(arrays(sa, ea)), draw(arrays(sb, eb))
    wrt = draw(st.sampled_from([(0, 1), (0,), (1,)]))
    return [Check(op, [a, b], wrt)]


@st.composite
def tensor_number_checks(draw, fn, et, numbers):
    """``fn(t, c)`` of a tensor and a Python number."""
    x = draw(arrays(shapes(), et))
    c = draw(numbers)
    return [Check(lambda t: fn(t, c), [x])]


@st.composite
def pow_number_checks(draw):
    p = draw(st.sampled_from([0, 1, 2, 3, 2.0, -1, -2, 0.5, 1.5, -0.5, -2.5, 1 / 3]))
    if isinstance(p, int) and p >= 0:
        elements = floats(-2, 2)
    elif float(p).is_integer():
        elements = away(0.3, 2)
    else:
        elements = floats(0.2, 3)
    x = draw(arrays(shapes(), elements))
    return [Check(lambda t: t ** p, [x]), Check(lambda t: t.pow(p), [x])]


@st.composite
def matmul_checks(draw, kind):
    sa, sb = draw(matmul_shapes(kind))
    a, b = draw(arrays(sa)), draw(arrays(sb))
    wrt = draw(st.sampled_from([(0, 1), (0,), (1,)]))
    fn = draw(st.sampled_from([operator.matmul, minigrad.matmul, lambda x, y: x.matmul(y)]))
    return [Check(fn, [a, b], wrt)]


@st.composite
def mm_checks(draw):
    sa, sb = draw(matmul_shapes("mat.mat"))
    a, b = draw(arrays(sa)), draw(arrays(sb))
    wrt = draw(st.sampled_from([(0, 1), (0,), (1,)]))
    return [Check(lambda x, y: x.mm(y), [a, b], wrt)]


@st.composite
def float_round_trip_checks(draw):
    """float64 -> float32 -> float64: the float32 rounding needs a larger step and tolerance."""
    x = draw(arrays(shapes(), floats(-3, 3)))
    loose = dict(eps=1e-3, atol=2e-3, rtol=2e-3)
    return [Check(lambda t: t.float().double() * 2, [x], tolerances=loose),
            Check(lambda t: t.to(minigrad.float32), [x], tolerances=loose)]


@st.composite
def clamp_checks(draw):
    which, (lo, hi), x = draw(clamp_case())
    if which == "min":
        fn = lambda t: t.clamp(min=lo)
    elif which == "max":
        fn = lambda t: t.clamp(max=hi)
    elif which == "both":
        fn = lambda t: minigrad.clamp(t, lo, hi)
    else:
        fn = lambda t: t.clip(lo, hi)
    return [Check(fn, [x])]


@st.composite
def sum_mean_checks(draw, op):
    shape = draw(shapes(min_dims=0))
    x = draw(arrays(shape))
    if not shape or draw(st.booleans()):
        fn = draw(st.sampled_from([lambda t: getattr(t, op)(), lambda t: getattr(minigrad, op)(t)]))
    else:
        dim = draw(dims_arg(len(shape)))
        keepdim = draw(st.booleans())
        fn = lambda t: getattr(t, op)(dim, keepdim=keepdim)
    return [Check(fn, [x])]


@st.composite
def max_all_checks(draw):
    x = draw(distinct(draw(shapes(min_dims=0))))
    return [Check(lambda t: t.max(), [x]), Check(lambda t: minigrad.max(t), [x])]


@st.composite
def max_dim_checks(draw):
    keepdim = draw(st.booleans())
    shape = draw(shapes(min_dims=1))
    x = draw(distinct(shape))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    return [Check(lambda t: t.max(dim, keepdim=keepdim).values, [x]),
            Check(lambda t: t.max(dim=dim, keepdim=keepdim)[0], [x]),
            Check(lambda t: minigrad.max(t, dim, keepdim)[0], [x])]


@st.composite
def softmax_checks(draw, op):
    shape = draw(shapes(min_dims=1))
    x = draw(arrays(shape, floats(-4, 4))) + draw(OFFSETS)
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    name = op.split(".")[-1]
    fn = (lambda t: getattr(minigrad, name)(t, dim)) if op.startswith("torch.") else \
        (lambda t: getattr(t, name)(dim))
    return [Check(fn, [x])]


@st.composite
def logsumexp_checks(draw):
    shape = draw(shapes(min_dims=1))
    x = draw(arrays(shape, floats(-4, 4))) + draw(OFFSETS)
    dim = draw(dims_arg(len(shape)))
    keepdim = draw(st.booleans())
    return [Check(lambda t: t.logsumexp(dim, keepdim=keepdim), [x]), Check(lambda t: minigrad.logsumexp(t, dim), [x])]


@st.composite
def var_std_norm_checks(draw):
    """Spread away from 0 (distinct values): std and norm have a kink where they are 0."""
    shape = draw(shapes(min_dims=1))
    x = draw(distinct(shape))
    dim = draw(dims_arg(len(shape)))
    keepdim = draw(st.booleans())
    n = int(np.prod([shape[d] for d in ([dim] if isinstance(dim, int) else dim or range(len(shape)))]))
    correction = draw(st.sampled_from([0, 1])) if n > 1 else 0
    checks = [Check(lambda t: t.var(dim, keepdim=keepdim, correction=correction), [x])]
    if n > 1:
        checks.append(Check(lambda t: t.std(dim, keepdim=keepdim, correction=correction), [x]))
    checks.append(Check(lambda t: t.norm(dim=dim, keepdim=keepdim), [x + 3.0]))  # away from 0
    return checks


@st.composite
def reshape_view_flatten_checks(draw):
    shape = draw(shapes(min_dims=0))
    x = draw(arrays(shape))
    target = draw(new_shape(shape))
    checks = [Check(lambda t: t.reshape(target), [x]),
              Check(lambda t: t.view(*target) if target else t.view(target), [x]),
              Check(lambda t: minigrad.reshape(t, target), [x])]
    nd = max(len(shape), 1)
    s = draw(st.integers(-nd, nd - 1))
    e = draw(st.integers(s % nd, nd - 1))
    checks += [Check(lambda t: t.flatten(s, e), [x]), Check(lambda t: t.flatten(), [x])]
    if len(shape) >= 2:  # reshape of a transposed (non-contiguous) tensor must copy
        checks.append(Check(lambda t: t.transpose(0, -1).reshape(target), [x]))
    return checks


@st.composite
def transpose_permute_checks(draw):
    shape = draw(shapes(min_dims=1))
    x = draw(arrays(shape))
    n = len(shape)
    d0, d1 = draw(st.integers(-n, n - 1)), draw(st.integers(-n, n - 1))
    perm = draw(st.permutations(range(n)))
    perm = [p - n if draw(st.booleans()) else p for p in perm]
    checks = [Check(lambda t: t.transpose(d0, d1), [x]), Check(lambda t: minigrad.transpose(t, d0, d1), [x]),
              Check(lambda t: t.permute(*perm), [x]), Check(lambda t: t.permute(perm), [x]),
              Check(lambda t: _quiet_T(t), [x])]
    if n <= 2:
        checks.append(Check(lambda t: t.t(), [x]))
    if n >= 2:
        checks.append(Check(lambda t: t.mT, [x]))
    return checks


def _quiet_T(t):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "The use of `x.T`", UserWarning)  # x.T on non-2-D: deprecated
        return t.T


@st.composite
def unsqueeze_squeeze_checks(draw):
    shape = draw(shapes(min_dims=0, max_side=2))  # side 2 at most: plenty of size-1 dims
    x = draw(arrays(shape))
    n = len(shape)
    u = draw(st.integers(-n - 1, n))
    checks = [Check(lambda t: t.unsqueeze(u), [x]), Check(lambda t: t.squeeze(), [x]),
              Check(lambda t: t.unsqueeze(u).squeeze(u), [x])]
    if n:
        d = draw(st.integers(-n, n - 1))
        dims = draw(dims_arg(n))
        checks += [Check(lambda t: t.squeeze(d), [x]), Check(lambda t: t.squeeze(dims), [x])]
    return checks


@st.composite
def expand_checks(draw):
    shape = draw(shapes(min_dims=0))
    x = draw(arrays(shape))
    target = draw(expand_target(shape))
    full = tuple(np.broadcast_shapes(shape, tuple(abs(s) for s in target)))
    return [Check(lambda t: t.expand(*target) if target else t.expand(target), [x]),
            Check(lambda t: t.expand(target) * 2, [x]),
            Check(lambda t: t.expand_as(minigrad.zeros(full, dtype=minigrad.float64)), [x])]


@st.composite
def sum_to_size_checks(draw):
    sa, sb = draw(broadcast_pair()).input_shapes
    full = np.broadcast_shapes(sa, sb)
    x = draw(arrays(full))
    return [Check(lambda t: t.sum_to_size(*sa) if sa else t.sum_to_size(sa), [x])]


@st.composite
def indexing_checks(draw):
    shape = draw(shapes(min_dims=1))
    x = draw(arrays(shape))
    key = draw(index_key(shape))
    return [Check(lambda t: t[key], [x])]


@st.composite
def cat_stack_checks(draw, op):
    dim, arrs = draw(join_case(op == "stack"))
    wrt = sorted(draw(st.lists(st.integers(0, len(arrs) - 1), min_size=1, unique=True)))
    fn = getattr(minigrad, op)
    return [Check(lambda *ts: fn(list(ts), dim=dim), arrs, wrt), Check(lambda *ts: fn(ts, dim), arrs, wrt)]


@st.composite
def where_checks(draw):
    sc, sa, sb = draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3)).input_shapes
    cond = draw(hnp.arrays(np.bool_, sc))
    a, b = draw(arrays(sa)), draw(arrays(sb))
    c = minigrad.tensor(cond)
    number = draw(floats(-2, 2))
    return [Check(lambda x, y: minigrad.where(c, x, y), [a, b]),
            Check(lambda x, y: minigrad.where(c, x, y), [a, b], (1,)),
            Check(lambda x: minigrad.where(c, x, number), [a]),
            Check(lambda y: minigrad.where(c, number, y), [b]),
            Check(lambda x: minigrad.where(c > 0, x * 2, x.exp()), [a])]  # both branches from one x


@st.composite
def second_order_inputs(draw, n_inputs, elements):
    if n_inputs == 2:
        sa, sb = draw(broadcast_pair(max_dims=2)).input_shapes
        return [draw(arrays(sa, elements)), draw(arrays(sb, elements))]
    return [draw(arrays(draw(shapes(min_dims=1, max_dims=2)), elements))]


@st.composite
def distinct_one(draw, min_dims=1, max_dims=2):
    return [draw(distinct(draw(shapes(min_dims=min_dims, max_dims=max_dims))))]


@st.composite
def matmul_pair_of(draw, kind):
    sa, sb = draw(matmul_shapes(kind))
    return [draw(arrays(sa)), draw(arrays(sb))]


@st.composite
def where_cat_stack_second_order(draw):
    shape = draw(shapes(min_dims=1, max_dims=2))
    a = draw(arrays(shape))
    mask = minigrad.tensor(draw(hnp.arrays(np.bool_, shape)))
    return [Check(lambda t: minigrad.where(mask, t ** 2, t.exp()), [a]),
            Check(lambda t: minigrad.cat([t ** 2, t.exp()], 0) * minigrad.stack([t, t], 0).sum(0).sum(), [a])]


def float32_input(elements):
    """One array for a float32 gradient check (distinct values where ``elements`` is None)."""
    return shapes(min_dims=1, max_dims=3).flatmap(lambda shape: distinct(shape) if elements is None
                                                  else arrays(shape, elements))


def float32(id, fn, elements, result=F32):
    """``fn`` of a float32 tensor: its gradient keeps float32 (and is near the float64 one); the
    result is ``result`` (float64 for a conversion or a float64 ``dtype=``)."""
    return [Grad(id, fn, float32_input(elements), PROFILE, FIRST, mode="float32", result=result)]


@st.composite
def mixed_pair(draw, ea, eb):
    sa, sb = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=1, max_dims=3, max_side=3)).input_shapes
    if ea is None:
        return [draw(_tie_free(sa, 0.25)), draw(_tie_free(sb, -0.25))]
    return [draw(arrays(sa, ea)), draw(arrays(sb, eb))]


def mixed_precision(id, op, ea, eb):
    """``op(a, b)`` of a float32 and a float64 tensor (in both orders): the result is float64,
    each gradient has its input's dtype."""
    return [Grad(f"{id}, {order}", op, mixed_pair(ea, eb), PROFILE, FIRST, mode="mixed-" + order)
            for order in ("f32-f64", "f64-f32")]


def inplace_on_view(id, fn, v_shape):
    """In-place writes into a view of a tensor that requires grad (the base's node is CopySlices):
    ``fn(x, v)`` of x (2, 3) and v; first order, and second order of its sum."""
    inputs = st.builds(lambda x, v: [x, v], arrays((2, 3), floats(-1, 1)), arrays(v_shape, floats(-1, 1)))
    return [Grad(id, fn, inputs, FEW, FIRST), Grad(f"{id}, summed", lambda a, b: fn(a, b).sum(), inputs, FEW, SECOND)]


def at_zero_d(id, fn):
    """A 0-d tensor with a ``dim`` argument: PyTorch accepts dim 0 / -1 there."""
    return [Grad(f"{id}, 0-d", fn, [np.array(0.7)], None, FIRST)]


def _ifloordiv(x):
    x //= 0.5
    return x


GATHER_IDX = [[0, 2, 2, 1], [1, 1, 0, 3], [3, 0, 1, 1]]  # repeated indices: gradients must add up


# =============================================================================================
# Inputs shared by several comparison samples
# =============================================================================================

QUIET = (pytest.mark.filterwarnings("ignore::RuntimeWarning"),)
INTS = np.array([-3, -1, 0, 2, 5])  # integer inputs: the result's dtype (float32 for sin, int64 for floor)
TIES = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], F32)
CMP_A, CMP_B = np.array([1.0, 2.0, 3.0], F32), np.array([2.0, 2.0, 2.0], F32)

MATMUL = {"2D@2D": ((2, 3), (3, 4)), "2D@1D": ((2, 3), (3,)), "1D@1D": ((3,), (3,)), "1D@2D": ((3,), (3, 4)),
          "3D@3D": ((5, 2, 3), (5, 3, 4)), "3D@2D": ((5, 2, 3), (3, 4)), "2D@3D": ((2, 3), (5, 3, 4)),
          "3D@1D": ((5, 2, 3), (3,)), "1D@3D": ((3,), (5, 3, 4)), "4D@3D broadcast": ((2, 1, 2, 3), (5, 3, 4)),
          "3D@3D batch of 1": ((1, 2, 3), (5, 3, 4))}
MATMUL_FORMS = {"@": lambda lib, a, b: a @ b, "matmul": lambda lib, a, b: a.matmul(b),
                "torch.matmul": lambda lib, a, b: lib.matmul(a, b)}
_BATCHED = ("minigrad records one UnsafeViewBackward0 node linked straight to both "
            "AccumulateGrads; PyTorch records its decomposition: ")
MATMUL_DIFFS = {
    "1D@2D": "1D@2D: PyTorch's graph is SqueezeBackward4 -> MmBackward0 -> "
             "(UnsqueezeBackward0 -> AccumulateGrad, AccumulateGrad); minigrad's "
             "SqueezeBackward4 links straight to both AccumulateGrads",
    "3D@3D": "3D@3D: " + _BATCHED + "UnsafeViewBackward0 -> BmmBackward0 -> "
             "(ViewBackward0 -> ExpandBackward0 -> AccumulateGrad) x 2",
    "3D@2D": "3D@2D: " + _BATCHED + "UnsafeViewBackward0 -> MmBackward0 -> "
             "(ViewBackward0 -> AccumulateGrad, AccumulateGrad)",
    "3D@1D": "3D@1D: " + _BATCHED + "UnsafeViewBackward0 -> MvBackward0 -> "
             "(ViewBackward0 -> AccumulateGrad, AccumulateGrad)",
    "1D@3D": "1D@3D: " + _BATCHED + "UnsafeViewBackward0 -> MvBackward0 -> "
             "(UnsafeViewBackward0 -> CloneBackward0 -> TransposeBackward0 -> AccumulateGrad, "
             "AccumulateGrad)",
    "4D@3D broadcast": "(2,1,2,3) @ (5,3,4): " + _BATCHED + "UnsafeViewBackward0 -> "
                       "BmmBackward0 -> (UnsafeViewBackward0 -> CloneBackward0 -> "
                       "ExpandBackward0 -> AccumulateGrad) x 2",
}
MATMUL_KINDS = ["vec.vec", "mat.vec", "vec.mat", "mat.mat", "batch.batch", "batch.vec", "vec.batch",
                "batch.mat", "mat.batch"]


OPS = [
    OpInfo('abs', aliases=('__abs__', 'absolute'),
           fuzz={"unary": ["abs()", "absolute()"]},
           vs_torch=[
               *compare("int abs", lambda lib, a: a.abs(), ((3,), "int", False), dtypes=(F32,), grad="sum"),
               *unary("abs", lambda lib, x: x.abs(), "f"),
               *unary("builtin abs", lambda lib, x: abs(x), "f"),
               *unary("torch.abs", lambda lib, x: lib.abs(x), "f"),
               *check("zero_grad_sign", "abs", lambda lib, x: x.abs()),
               # the subgradient PyTorch picks at 0: abs' = 0
               *fixed_inputs("at 0", lambda lib, x: x.abs(), np.array([-1.0, 0.0, 2.0], F32), marks=QUIET),
           ],
           gradcheck=[
               *grad("abs", lambda t: t.abs(), one(away(0.05, 3)), PROFILE, FIRST),
               *grad("abs()", lambda t: abs(t), one(away(0.05, 3)), PROFILE, FIRST),
               # away from the kinks at 0 and +-1
               *grad("abs-relu-clamp", lambda t: t.abs() * t.relu() * t.clamp(-1, 1) * t,
                     second_order_inputs(1, away(0.05, 2).filter(lambda v: abs(abs(v) - 1) > 0.05)), FEW,
                     SECOND),
               *float32("abs", lambda t: t.abs(), away(0.1, 2)),
           ]),
    OpInfo('acos', aliases=('arccos',),
           fuzz={"unary": ["acos()"]},
           vs_torch=[
               *compare("torch.acos", lambda lib, x: lib.acos(x.tanh()), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("acos", lambda t: minigrad.acos(t), one(floats(-0.9, 0.9))),
           ]),
    OpInfo('acosh', aliases=('arccosh',),
           fuzz={"unary": ["acosh()"]},
           gradcheck=[
               *grad("acosh", lambda t: minigrad.arccosh(t), one(floats(1.2, 4))),
           ]),
    OpInfo('add', aliases=('__add__', '__radd__'),
           fuzz={
                "scalar": ["{v} + 1", "{v}.add(1, alpha=2)", "torch.add({v}, {v}, alpha=-0.5)"],
                "binary": ["{a} + {b}", "{a}.add({b}, alpha=2)"],
           },
           vs_torch=[
               *broadcast("add", lambda lib, a, b: a + b, "f"),
               *int_pair("add", lambda lib, a, b: a + b),
               *mixed_float("add", lambda lib, a, b: a + b),
               *mixed_float("add", lambda lib, a, b: a + b, graph=True),
               *broadcast("torch.add", lambda lib, a, b: lib.add(a, b), "f"),
               *number_operand("x+2", lambda lib, x: x + 2),
               *number_operand("2+x", lambda lib, x: 2 + x),
               *number_operand("x+2.5", lambda lib, x: x + 2.5),
               *compare("int64+float_number", lambda lib, a: a + 2.5, ((3,), "int", False), dtypes=(F32,),
                        grad="sum"),
               *compare("int64+int_number", lambda lib, a: a + 2, ((3,), "int", False), dtypes=(F32,),
                        grad="sum"),
               *compare("int64+bool_number", lambda lib, a: a + True, ((3,), "int", False), dtypes=(F32,),
                        grad="sum"),
               *compare("bool+int_number", lambda lib, a: a + 1, ((3,), "bool", False), dtypes=(F32,),
                        grad="sum"),
               *compare("bool+float_number", lambda lib, a: a + 1.5, ((3,), "bool", False), dtypes=(F32,),
                        grad="sum"),
               *compare("bool+int tensor", lambda lib, a, b: a + b, ((3,), "bool", False),
                        ((3,), "int", False), dtypes=(F32,), grad="sum"),
               *compare("int+float tensor", lambda lib, a, b: a + b, ((3,), "int", False), ((3,), "f", True),
                        dtypes=(F32,), grad="sum"),
               *compare("int64 0-d + float tensor", lambda lib, a, b: a + b, ((), "int", False),
                        ((3,), "f", True), dtypes=(F32,), grad="sum"),
               *compare("float 0-d + int tensor", lambda lib, a, b: a + b, ((), "f", True),
                        ((3,), "int", False), dtypes=(F32,), grad="sum"),
           ],
           gradcheck=[
               *grad_checks("add", binary_checks(operator.add, floats(-2, 2), floats(-2, 2))),
               *grad_checks("torch.add",
                            binary_checks(lambda a, b: minigrad.add(a, b), floats(-2, 2), floats(-2, 2))),
               *grad_checks("t+c", tensor_number_checks(lambda t, c: t + c, floats(-2, 2), NUMBERS)),
               *grad_checks("c+t", tensor_number_checks(lambda t, c: c + t, floats(-2, 2), NUMBERS)),
               *grad_checks("t+0d",
                            tensor_number_checks(lambda t, c: t + minigrad.tensor(c, dtype=minigrad.float64), floats(-2, 2), NUMBERS)),
               *mixed_precision("add", operator.add, floats(-2, 2), floats(-2, 2)),
               *inplace_on_view("y[1].add_(v)", _written(lambda y, v: y[1].add_(v)), (1,)),
           ]),
    OpInfo('addcdiv',
           fuzz={
                "scalar": ["torch.addcdiv({v}, {v}, {v}.exp(), value=-2)"],
                "binary": ["torch.addcdiv({a}, {b}, {a})"],
           },
           gradcheck=[
               *grad("torch.addcdiv", lambda x, a, b: minigrad.addcdiv(x, a, b * b + 0.5, value=-1.5),
                     three()),
           ]),
    OpInfo('addcmul',
           fuzz={
                "scalar": ["torch.addcmul({v}, {v}, {v}, value=0.5)"],
                "binary": ["torch.addcmul({a}, {a}, {b}, value=2)"],
           },
           gradcheck=[
               *grad("addcmul", lambda x, a, b: x.addcmul(a, b, value=0.7), three()),
           ]),
    OpInfo('addmm',
           gradcheck=[
               *grad("addmm(beta, alpha)", lambda x, a, b: minigrad.addmm(x, a, b, beta=0.5, alpha=-2),
                     addmm_case()),
               *grad("addmm", lambda x, a, b: x.addmm(a, b), addmm_case()),
               *grad("addmm_", lambda x, a, b: (x * 1).addmm_(a, b, beta=0.5, alpha=2) ** 2,
                     st.builds(lambda *a: list(a), arrays((3, 4)), arrays((3, 2)), arrays((2, 4)))),
           ]),
    OpInfo('addmv', covers=('addr',),
           gradcheck=[
               *grad("addmv, addr",
                     lambda x, m, v: minigrad.addmv(x[0], m, v, beta=0.5, alpha=2) * minigrad.addr(x, x[0], v[:2] * v[:2], alpha=-1).sum(),
                     st.builds(lambda *m: list(m), arrays((2, 2)), arrays((2, 3)), arrays((3,)))),
           ]),
    OpInfo('all', differentiable=False,
           fuzz={"reduce": ["all()"]},
           vs_torch=[
               *compare("all()", lambda lib, x: (x > 0).all(), ((2, 3, 4), "f", True)),
               *compare("all(1)", lambda lib, x: lib.all(x > -1, 1), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('amax',
           fuzz={"reduce": ["amax()"], "dim": ["amax(dim={d}, keepdim={k})"]},
           vs_torch=[
               *compare("amax(1)", lambda lib, x: x.amax(1), ((2, 3, 4), "f", True)),
               *compare("amax()", lambda lib, x: lib.amax(x), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("amax", lambda t: t.amax(1), distinct_matrix()),
           ]),
    OpInfo('amin',
           fuzz={"reduce": ["amin()"], "dim": ["amin(dim={d}, keepdim={k})"]},
           vs_torch=[
               *compare("amin((0, 2))", lambda lib, x: x.amin((0, 2)), ((2, 3, 4), "f", True)),
               *compare("amin(-1, keepdim)", lambda lib, x: lib.amin(x, -1, keepdim=True),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("amin", lambda t: minigrad.amin(t, (0, 1)), distinct_matrix()),
           ]),
    OpInfo('aminmax',
           fuzz={"dim": ["aminmax(dim={d}).max"]},
           gradcheck=[
               *grad("aminmax", lambda t: (lambda r: r.min * 2 + r.max)(t.aminmax(dim=1)), distinct_matrix()),
               *grad("aminmax()", lambda t: (lambda r: r.min * t + r.max)(minigrad.aminmax(t)),
                     distinct_matrix()),
           ]),
    OpInfo('any', differentiable=False,
           fuzz={"reduce": ["any()"]},
           vs_torch=[
               *compare("any(dim=0, keepdim)", lambda lib, x: (x > 1).any(dim=0, keepdim=True),
                        ((2, 3, 4), "f", True)),
           ]),
    OpInfo('argmax', differentiable=False,
           fuzz={"dim": ["argmax(dim={d})"]},
           vs_torch=[
               *reduction("argmax()", lambda lib, x: x.argmax()),
               *reduction("argmax(1)", lambda lib, x: x.argmax(1)),
           ]),
    OpInfo('argmin', differentiable=False,
           fuzz={"reduce": ["argmin()"], "dim": ["argmin(dim={d}, keepdim={k})"]},
           vs_torch=[
               *compare("argmin()", lambda lib, x: x.argmin(), ((2, 3, 4), "f", True)),
               *compare("argmin(1)", lambda lib, x: lib.argmin(x, 1), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('argsort', differentiable=False,
           fuzz={"dim": ["argsort(dim={d})"]},
           vs_torch=[
               *compare("argsort(1, descending)", lambda lib, x: x.argsort(1, descending=True),
                        ((2, 3, 4), "f", True)),
               *compare("torch.argsort", lambda lib, x: lib.argsort(x), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('as_strided',
           gradcheck=[
               *grad("as_strided", lambda t: t.as_strided((2, 2), (1, 2), 1) ** 2, fixed((3, 4))),
               *grad("as_strided(overlapping)", lambda t: t.as_strided((3, 2), (1, 1)) ** 2, fixed((6,))),
           ]),
    OpInfo('asin', aliases=('arcsin',),
           fuzz={"unary": ["asin()"]},
           vs_torch=[
               *compare("asin", lambda lib, x: (x * 0.3).tanh().asin(), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("asin", lambda t: t.asin(), one(floats(-0.9, 0.9))),
           ]),
    OpInfo('asinh', aliases=('arcsinh',),
           fuzz={"unary": ["asinh()", "arcsinh()"]},
           gradcheck=[
               *grad("asinh", lambda t: t.asinh(), one(floats(-3, 3))),
           ]),
    OpInfo('atan', aliases=('arctan',),
           fuzz={"unary": ["atan()", "arctan()"]},
           vs_torch=[
               *compare("atan", lambda lib, x: x.atan(), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("atan", lambda t: t.atan(), one(floats(-3, 3))),
           ]),
    OpInfo('atan2', aliases=('arctan2',),
           fuzz={"binary": ["torch.atan2({a}, {b})"]},
           vs_torch=[
               *broadcast("atan2", lambda lib, a, b: lib.atan2(a, b), shapes=FEW_SHAPES, flags=("both_rg",)),
               *broadcast("arctan2", lambda lib, a, b: a.arctan2(b), shapes=FEW_SHAPES, flags=("both_rg",)),
           ],
           gradcheck=[
               # off the branch cut
               *grad("atan2", lambda a, b: minigrad.atan2(a, b), pair(away(0.3, 2), away(0.5, 2))),
           ]),
    OpInfo('atanh', aliases=('arctanh',),
           fuzz={"unary": ["atanh()"]},
           gradcheck=[
               *grad("atanh", lambda t: t.atanh(), one(floats(-0.9, 0.9))),
           ]),
    OpInfo('atleast_1d',
           gradcheck=[
               *grad("atleast_1d", lambda t: minigrad.atleast_1d(t) * 2, one(max_dims=2)),
           ]),
    OpInfo('atleast_2d',
           fuzz={"shape": ["torch.atleast_2d({v})"]}),
    OpInfo('atleast_3d',
           gradcheck=[
               *grad("atleast_3d", lambda t: minigrad.atleast_3d(t) * 2, one(max_dims=2)),
           ]),
    OpInfo('baddbmm', covers=('addbmm',),
           gradcheck=[
               *grad("baddbmm, addbmm",
                     lambda x, a, b: minigrad.baddbmm(x, a, b * b, beta=2) + minigrad.addbmm(x[0], a * a, b, alpha=0.5),
                     st.builds(lambda *m: list(m), arrays((2, 2, 3)), arrays((2, 2, 4)), arrays((2, 4, 3)))),
           ]),
    OpInfo('block_diag',
           gradcheck=[
               *grad("block_diag", lambda a, b, c: minigrad.block_diag(a, b, c) ** 2,
                     st.builds(lambda *a: list(a), arrays((2, 3)), arrays((2,)), arrays(()))),
           ]),
    OpInfo('bmm', known=('matmul-graph',),
           vs_torch=[
               *compare("bmm", lambda lib, a, b: lib.bmm(a, b),
                        *[(s, "f", True) for s in [(2, 3, 4), (2, 4, 5)]], rng=4),
           ],
           gradcheck=[
               *grad("bmm", lambda a, b: minigrad.bmm(a, b), matmul_pair((2, 2, 3), (2, 3, 2))),
           ]),
    OpInfo('bool', differentiable=False,
           vs_torch=[
               *compare(".bool()", lambda lib, x: x.bool(), ((2, 3), "f", True)),
               *compare(".bool(), no grad", lambda lib, x: x.bool(), ((2, 3), "f", False)),
               *[c for kind in ("int", "bool") for c in compare(f"of {kind}", lambda lib, x: x.bool(),
                                                               ((2, 3), kind, False), dtypes=(None,), grad="sum")],
           ]),
    OpInfo('broadcast_tensors',
           gradcheck=[
               *grad("broadcast_tensors", lambda a, b: _weighted(minigrad.broadcast_tensors(a, b)) ** 2,
                     matmul_pair((3, 1), (4,))),
           ]),
    OpInfo('broadcast_to',
           gradcheck=[
               *grad("broadcast_to", lambda t: t.broadcast_to((2,) + tuple(t.shape)) ** 2, one()),
           ]),
    OpInfo('cartesian_prod',
           gradcheck=[
               *grad("cartesian_prod", lambda a, b: minigrad.cartesian_prod(a, b) ** 2,
                     matmul_pair((3,), (2,))),
           ]),
    OpInfo('cat', aliases=('concat', 'concatenate'),
           fuzz={
                "dim": ["torch.cat([{v}, {v}], dim={d})", "torch.concat([{v}, {v} * 2], dim={d})",
                        "torch.cat({v}.chunk(2, dim={d})[::-1], dim={d})"],
           },
           vs_torch=[
               *check("zero_grad_sign", "cat", lambda lib, x: lib.cat([x[:1], x[:1]])),
               *compare("torch.concatenate(axis=1)", lambda lib, x: lib.concatenate([x, x * 2], axis=1),
                        ((2, 3), "f", True)),
               *with_flags("cat dim0", lambda lib, a, b: lib.cat([a, b]), ((2, 3), (4, 3)),
                           ("both_rg", "left_rg")),
               *with_flags("cat dim1", lambda lib, a, b: lib.cat((a, b), dim=1), ((2, 3), (2, 1)),
                           ("both_rg", "left_rg")),
               *with_flags("cat dim-1", lambda lib, a, b: lib.cat([a, b], -1), ((2, 3), (2, 2)),
                           ("both_rg", "left_rg")),
               *with_flags("cat three", lambda lib, a, b: lib.cat([a, b, a]), ((2, 3), (1, 3)),
                           ("both_rg", "left_rg")),
               *with_flags("concat", lambda lib, a, b: lib.concat([a, b]), ((3,), (2,)),
                           ("both_rg", "left_rg")),
           ],
           gradcheck=[
               *mixed_precision("cat", lambda a, b: minigrad.cat([a.reshape(-1), b.reshape(-1)]),
                                floats(-2, 2), floats(-2, 2)),
               *grad_checks("cat", cat_stack_checks("cat")),
               *grad_checks("concat", cat_stack_checks("concat")),
           ]),
    OpInfo('cdist',
           gradcheck=[
               *grad("cdist", lambda a, b: minigrad.cdist(a, b), apart((3, 2), (4, 2))),
               *grad("cdist(p=1)", lambda a, b: minigrad.cdist(a, b, p=1), apart((2, 1), (3, 1))),
               *grad("cdist(p=3, batch)", lambda a, b: minigrad.cdist(a, b, 3), apart((2, 3, 2), (1, 2, 2))),
               *grad("cdist(matrix product)",
                     lambda a, b: minigrad.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
                     apart((2, 3, 2), (2, 2, 2))),
           ]),
    OpInfo('ceil',
           fuzz={"unary": ["ceil()"]},
           vs_torch=[
               *compare("ceil", lambda lib, x: lib.ceil(x * 3), ((2, 3), "f", True)),
           ]),
    OpInfo('chunk',
           fuzz={"dim": ["chunk(2, dim={d})[-1]", "chunk(3, dim={d})[0]"]},
           vs_torch=[
               *compare("chunk(2, 2)", lambda lib, x: x.chunk(2, 2), ((2, 3, 4), "f", True)),
               *compare("chunk(3)", lambda lib, x: lib.chunk(x, 3, dim=1), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("chunk", lambda t: t.chunk(2, 0)[-1] * 2, one(min_dims=1)),
           ]),
    OpInfo('clamp', aliases=('clip',),
           fuzz={
                "unary": ["clamp(-1.0, 1.5)", "clamp(min=0.5)", "clip(-0.5, 0.5)"],
                "scalar": ["torch.clamp({v}, max=1.0)"],
                "binary": ["{a}.clamp(min={b})", "{a}.clamp(max={b})"],
           },
           vs_torch=[
               *compare("int clamp", lambda lib, a: a.clamp(-1, 1), ((3,), "int", False), dtypes=(F32,),
                        grad="sum"),
               *unary("clamp(-0.5, 0.5)", lambda lib, x: x.clamp(-0.5, 0.5), "f"),
               *unary("clamp(min=0)", lambda lib, x: x.clamp(min=0), "f"),
               *unary("clamp(max=0.2)", lambda lib, x: x.clamp(max=0.2), "f"),
               *unary("torch.clamp", lambda lib, x: lib.clamp(x, -0.5, 0.5), "f"),
               *unary("clip", lambda lib, x: x.clip(-0.5, 0.5), "f"),
               *check("zero_grad_sign", "clamp", lambda lib, x: x.clamp(-0.5, 0.5)),
               *check("zero_grad_sign", "clamp(min=0)", lambda lib, x: x.clamp(min=0)),
               *broadcast("clamp(tensor, tensor)", lambda lib, a, b: a.clamp(b, b + 1), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
               *broadcast("clamp(min=tensor)", lambda lib, a, b: lib.clamp(a, min=b), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
               *broadcast("clamp(max=tensor)", lambda lib, a, b: a.clip(max=b), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
               # at a bound, clamp passes the gradient
               *fixed_inputs("at the bounds", lambda lib, x: x.clamp(0.0, 2.0),
                             np.array([-1.0, 0.0, 2.0], F32), marks=QUIET),
           ],
           gradcheck=[
               *float32("clamp", lambda t: t.clamp(-0.5, 0.5), floats(-2, 2)),
               *grad("clamp(tensors)", lambda x, lo, hi: x.clamp(lo, hi), clamp_tensor_case()),
               *grad("clamp(min=tensor)", lambda x, lo, hi: x.clamp(min=lo) + minigrad.clamp(x, max=hi),
                     clamp_tensor_case()),
               *grad_checks("min, max, both, clip", clamp_checks()),
           ]),
    OpInfo('clamp_max',
           fuzz={"unary": ["clamp_max(0.25)"]},
           vs_torch=[
               *compare("torch.clamp_max", lambda lib, x: lib.clamp_max(x, 0.1), ((2, 3), "f", True)),
           ]),
    OpInfo('clamp_min',
           fuzz={"unary": ["clamp_min(-0.5)"]},
           vs_torch=[
               *compare("clamp_min", lambda lib, x: x.clamp_min(0.1), ((2, 3), "f", True)),
           ]),
    OpInfo('clone',
           fuzz={"unary": ["clone()"]},
           vs_torch=[
               *unary("clone", lambda lib, x: x.clone(), "f"),
               *unary("torch.clone", lambda lib, x: lib.clone(x), "f"),
           ],
           gradcheck=[
               *grad("clone", lambda t: t.clone() * 1, one(floats(-3, 3)), PROFILE, FIRST),
               *grad("clone-raw", lambda t: t.clone(), one(floats(-3, 3)), PROFILE, FIRST),
               *float32("clone", lambda t: t.clone(), floats(-2, 2)),
           ]),
    OpInfo('column_stack',
           gradcheck=[
               *grad("column_stack", lambda a, b: minigrad.column_stack([a, b]), matmul_pair((2,), (2, 2))),
           ]),
    OpInfo('combinations',
           gradcheck=[
               *grad("combinations", lambda t: minigrad.combinations(t, 2) ** 2, fixed((4,))),
               *grad("combinations(with_replacement)", lambda t: minigrad.combinations(t, 3, True) ** 2,
                     fixed((3,))),
           ]),
    OpInfo('contiguous',
           fuzz={"unary": ["contiguous()"]},
           vs_torch=[
               *compare("contiguous", lambda lib, x: x.transpose(1, 2).contiguous(), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('copy_',
           gradcheck=[
               *inplace_on_view("y[:, :2].copy_(v)", _written(lambda y, v: y[:, :2].copy_(v)), (2, 2)),
           ]),
    OpInfo('copysign',
           gradcheck=[
               *grad("copysign", lambda a, b: a.copysign(b) * a + a.copysign(-1.5),
                     pair(away(0.1, 2), away(0.1, 2))),
           ]),
    OpInfo('corrcoef',
           gradcheck=[
               # (bent: rows on one line correlate 1, at clip's kink)
               *grad("corrcoef",
                     lambda t: (t + minigrad.tensor([[0.0, 0.9, 0.0, 0.0], [0.0] * 4], dtype=minigrad.float64)).corrcoef(),
                     st.builds(lambda a: [a], distinct((2, 4)))),
           ]),
    OpInfo('cos',
           fuzz={"unary": ["cos()"]},
           vs_torch=[
               *compare("torch.cos", lambda lib, x: lib.cos(x), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("cos", lambda t: minigrad.cos(t), one(floats(-3, 3))),
           ]),
    OpInfo('cosh',
           fuzz={"unary": ["cosh()"]},
           vs_torch=[
               *compare("cosh", lambda lib, x: lib.cosh(x), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("cosh", lambda t: t.cosh(), one(floats(-2, 2))),
           ]),
    OpInfo('count_nonzero', differentiable=False,
           fuzz={"reduce": ["count_nonzero()"], "dim": ["count_nonzero(dim={d})"]},
           vs_torch=[
               *compare("count_nonzero", lambda lib, x: lib.count_nonzero(x > 0), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('cov',
           gradcheck=[
               *grad("cov", lambda t: t.cov(), fixed((2, 4))),
               *grad("cov(weights)",
                     lambda t, a: minigrad.cov(t, correction=2, fweights=minigrad.tensor([1, 3, 2]), aweights=a * a + 0.5),
                     matmul_pair((3, 3), (3,))),
           ]),
    OpInfo('cross',
           gradcheck=[
               *grad("cross", lambda a, b: a.cross(b, dim=-1), matmul_pair((2, 3), (2, 3))),
           ]),
    OpInfo('cummax',
           fuzz={"dim": ["cummax(dim={d})[0]"]},
           gradcheck=[
               *grad("cummax", lambda t: t.cummax(1).values * t, distinct_matrix()),
           ]),
    OpInfo('cummin',
           fuzz={"dim": ["cummin(dim={d}).values"]},
           gradcheck=[
               *grad("cummin", lambda t: minigrad.cummin(t, 0).values, distinct_matrix()),
           ]),
    OpInfo('cumprod',
           fuzz={"dim": ["cumprod(dim={d})"]},
           vs_torch=[
               *fixed_inputs("cumprod, int64", lambda lib, x: lib.cumprod(x, 0), INTS, requires_grad=False),
               *compare("cumprod(0)", lambda lib, x: x.cumprod(0), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("cumprod", lambda t: minigrad.cumprod(t, -1),
                     one(away(0.3, 1.5), min_dims=1, max_dims=2)),
               *grad("cumprod at zeros", lambda t: t.cumprod(1),
                     fixed((3, 5), st.sampled_from([0.0, 0.0, 0.5, -1.5, 2.0]))),
           ]),
    OpInfo('cumsum',
           fuzz={"dim": ["cumsum(dim={d})", "cumsum({d}).sum({d})"]},
           vs_torch=[
               *fixed_inputs("cumsum, int64", lambda lib, x: x.cumsum(0), INTS, requires_grad=False),
               *compare("cumsum(1)", lambda lib, x: x.cumsum(1), ((2, 3, 4), "f", True)),
               *compare("torch.cumsum(x, dim=-1)", lambda lib, x: lib.cumsum(x, dim=-1),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("cumsum", lambda t: t.cumsum(0), one(min_dims=1)),
           ]),
    OpInfo('cumulative_trapezoid',
           fuzz={"dim": ["torch.cumulative_trapezoid({v}, dim={d})"]},
           gradcheck=[
               *grad("cumulative_trapezoid(x)", lambda y, x: minigrad.cumulative_trapezoid(y, x),
                     matmul_pair((2, 3), (2, 3))),
           ]),
    OpInfo('deg2rad', covers=('rad2deg',),
           fuzz={"unary": ["deg2rad()"]},
           gradcheck=[
               *grad("deg2rad, rad2deg", lambda t: t.deg2rad() * minigrad.rad2deg(t), one()),
           ]),
    OpInfo('detach',
           fuzz={"unary": ["detach()"]},
           vs_torch=[
               *compare("(x * 2).detach()", lambda lib, x: (x * 2).detach(), ((3,), "f", True), dtypes=(F32,),
                        grad="sum"),
           ]),
    OpInfo('diag',
           fuzz={"shape": ["diag()"]},
           vs_torch=[
               *compare("diag(matrix)", lambda lib, a: lib.diag(a), *[(s, "f", True) for s in [(3, 4)]],
                        rng=4),
               *compare("diag(matrix, 1)", lambda lib, a: a.diag(1), *[(s, "f", True) for s in [(3, 4)]],
                        rng=4),
               *compare("diag(vector)", lambda lib, a: lib.diag(a), *[(s, "f", True) for s in [(3,)]], rng=4),
               *compare("diag(vector, -1)", lambda lib, a: a.diag(-1), *[(s, "f", True) for s in [(3,)]],
                        rng=4),
           ],
           gradcheck=[
               *grad("diag(matrix)", lambda t: t.diag(), matrix()),
               *grad("diag(vector)", lambda t: minigrad.diag(t, -1), one(min_dims=1, max_dims=1)),
           ]),
    OpInfo('diag_embed',
           fuzz={"dim": ["diag_embed()"]},
           gradcheck=[
               *grad("diag_embed", lambda t: t.diag_embed() ** 2, fixed((2, 3))),
               *grad("diag_embed(-1, 0, 2)", lambda t: minigrad.diag_embed(t, -1, 0, 2) ** 2, fixed((2, 3))),
           ]),
    OpInfo('diagflat',
           fuzz={"reduce": ["diagflat()"]},
           gradcheck=[
               *grad("diagflat", lambda t: minigrad.diagflat(t, 1) ** 2, one(max_dims=2)),
           ]),
    OpInfo('diagonal', aliases=('linalg.diagonal',),
           fuzz={"shape": ["diagonal()"]},
           vs_torch=[
               *compare("diagonal", lambda lib, a: a.diagonal(), *[(s, "f", True) for s in [(3, 4)]], rng=4),
               *compare("diagonal(-1)", lambda lib, a: lib.diagonal(a, -1),
                        *[(s, "f", True) for s in [(4, 3)]], rng=4),
               *compare("diagonal of dims 2 and 0", lambda lib, a: a.diagonal(1, -1, 0),
                        *[(s, "f", True) for s in [(3, 2, 4)]], rng=4),
               *compare("diagonal of dims 1 and 3", lambda lib, a: lib.diagonal(a, -1, 1, 3),
                        *[(s, "f", True) for s in [(2, 3, 2, 4)]], rng=4),
           ],
           gradcheck=[
               *grad("diagonal(1)", lambda t: t.diagonal(1), matrix()),
               *grad("diagonal(-1, 2, 0)", lambda t: t.diagonal(-1, 2, 0), fixed((3, 2, 4))),
               *grad("linalg.diagonal", lambda t: minigrad.linalg.diagonal(t, offset=1), fixed((2, 3, 4))),
           ]),
    OpInfo('diagonal_scatter',
           gradcheck=[
               *grad("diagonal_scatter", lambda x, s: x.diagonal_scatter(s[0, :3], 1) ** 2, _self_and_src()),
           ]),
    OpInfo('diff',
           fuzz={"dim": ["diff(dim={d})"]},
           gradcheck=[
               *grad("diff", lambda t: t.diff() * 2, one(min_dims=1)),
               *grad("diff(n=2, dim=0)", lambda t: minigrad.diff(t, n=2, dim=0), fixed((4, 2))),
               *grad("diff(prepend, append)", lambda a, b: a.diff(dim=1, prepend=b, append=a * a),
                     matmul_pair((2, 3), (2, 1))),
           ]),
    OpInfo('digamma', aliases=('special.digamma', 'special.psi'),
           gradcheck=[
               *grad("digamma", lambda t: minigrad.special.psi(t),
                     one(st.one_of(floats(0.3, 5), floats(-1.7, -1.3)))),
               *grad("special.digamma", lambda t: minigrad.special.digamma(t), one(floats(0.3, 5)), PROFILE,
                     FIRST),
           ]),
    OpInfo('dist',
           gradcheck=[
               *grad("dist", lambda a, b: a.dist(b), apart((2, 2), (2, 2))),
               *grad("dist(p=3)", lambda a, b: minigrad.dist(a, b, 3), apart((2, 3), (3,))),
               *grad("dist(p=1.5)", lambda a, b: minigrad.dist(a, b, 1.5), apart((2, 3), (2, 3))),
           ]),
    OpInfo('div', aliases=('__rtruediv__', '__truediv__', 'divide'),
           fuzz={
                "scalar": ["{v} / 3", "3 / {v}", "{v}.div(2, rounding_mode='floor')",
                           "{v}.div(2, rounding_mode='trunc')"],
                "binary": ["{a} / {b}"],
           },
           vs_torch=[
               *broadcast("div", lambda lib, a, b: a / b, "pos"),
               *int_pair("div", lambda lib, a, b: a / b),
               *mixed_float("div", lambda lib, a, b: a / b),
               *broadcast("method.div", lambda lib, a, b: a.div(b), "pos"),
               *number_operand("x/2", lambda lib, x: x / 2),
               *number_operand("x/0.5", lambda lib, x: x / 0.5),
               *number_operand("2/x", lambda lib, x: 2 / x),
               *number_operand("2.5/x", lambda lib, x: 2.5 / x),
               *compare("int/int true division", lambda lib, a, b: a / b, ((3,), "int", False),
                        ((3,), "nint", False), dtypes=(F32,), grad="sum"),
               *compare("int/number", lambda lib, a: a / 2, ((3,), "int", False), dtypes=(F32,), grad="sum"),
               *fixed_inputs("div floor, int64", lambda lib, x: x.div(2, rounding_mode="floor"), INTS,
                             requires_grad=False),
               *fixed_inputs("div trunc, int64", lambda lib, x: lib.div(x, 2, rounding_mode="trunc"), INTS,
                             requires_grad=False),
               *broadcast("div floor", lambda lib, a, b: a.div(b, rounding_mode="floor"), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
               *broadcast("div trunc", lambda lib, a, b: lib.div(a, b, rounding_mode="trunc"),
                          shapes=FEW_SHAPES, flags=("both_rg",)),
           ],
           gradcheck=[
               *grad_checks("div", binary_checks(operator.truediv, floats(-2, 2), away(0.5, 2))),
               *grad_checks("torch.div",
                            binary_checks(lambda a, b: minigrad.div(a, b), floats(-2, 2), away(0.5, 2))),
               *grad_checks("t/c", tensor_number_checks(lambda t, c: t / c, floats(-2, 2), NONZERO_NUMBERS)),
               *grad_checks("c/t", tensor_number_checks(lambda t, c: c / t, away(0.5, 2), NUMBERS)),
               *grad_checks("0d/t",
                            tensor_number_checks(lambda t, c: minigrad.tensor(c, dtype=minigrad.float64) / t, away(0.5, 2), NUMBERS)),
               *grad("div", operator.truediv, second_order_inputs(2, away(0.5, 2)), FEW, SECOND),
               *float32("3/t", lambda t: 3 / t, away(0.5, 2)),
               *float32("t/3", lambda t: t / 3, floats(-2, 2)),
               *mixed_precision("div", operator.truediv, floats(-2, 2), away(0.5, 2)),
           ]),
    OpInfo('dot',
           vs_torch=[
               *compare("dot", lambda lib, a, b: lib.dot(a, b), *[(s, "f", True) for s in [(4,), (4,)]],
                        rng=4),
           ],
           gradcheck=[
               *grad("dot", lambda a, b: minigrad.dot(a, b), matmul_pair((3,), (3,))),
           ]),
    OpInfo('double',
           fuzz={"unary": ["double()"]},
           vs_torch=[
               *compare(".double()", lambda lib, x: x.double(), ((2, 3), "f", True)),
               *compare(".double(), no grad", lambda lib, x: x.double(), ((2, 3), "f", False)),
               *compare(".double() * 2", lambda lib, x: x.double() * 2, ((2, 3), "f", True)),
               *compare(".double() * 2, no grad", lambda lib, x: x.double() * 2, ((2, 3), "f", False)),
               *[c for kind in ("int", "bool") for c in compare(f"of {kind}", lambda lib, x: x.double(),
                                                               ((2, 3), kind, False), dtypes=(None,), grad="sum")],
           ],
           gradcheck=[
               *grad("double", lambda t: t.double(), one(floats(-3, 3)), PROFILE, FIRST),
               *float32("double", lambda t: t.double(), floats(-2, 2), result=F64),
           ]),
    OpInfo('dsplit',
           gradcheck=[
               *grad("dsplit", lambda t: t.dsplit([1])[1] ** 2, fixed((1, 2, 3))),
           ]),
    OpInfo('dstack',
           gradcheck=[
               *grad("dstack", lambda a, b: minigrad.dstack([a, b]), matmul_pair((2,), (1, 2))),
           ]),
    OpInfo('einsum',
           vs_torch=[
               *compare("einsum ij,jk->ik", lambda lib, a, b: lib.einsum("ij,jk->ik", a, b),
                        *[(s, "f", True) for s in [(3, 4), (4, 2)]], rng=4, top_node=True),
               *compare("einsum ij,jk (implicit)", lambda lib, a, b: lib.einsum("ij,jk", a, b),
                        *[(s, "f", True) for s in [(3, 4), (4, 2)]], rng=4, top_node=True),
               *compare("einsum ij,jk->ki", lambda lib, a, b: lib.einsum("ij,jk->ki", a, b),
                        *[(s, "f", True) for s in [(3, 4), (4, 2)]], rng=4, top_node=True),
               *compare("einsum bij,bjk->bik", lambda lib, a, b: lib.einsum("bij,bjk->bik", a, b),
                        *[(s, "f", True) for s in [(2, 3, 4), (2, 4, 5)]], rng=4, top_node=True),
               *compare("einsum i,i->", lambda lib, a, b: lib.einsum("i,i->", a, b),
                        *[(s, "f", True) for s in [(4,), (4,)]], rng=4, top_node=True),
               *compare("einsum i,j->ij", lambda lib, a, b: lib.einsum("i,j->ij", a, b),
                        *[(s, "f", True) for s in [(3,), (4,)]], rng=4, top_node=True),
               *compare("einsum ij,j->i", lambda lib, a, b: lib.einsum("ij,j->i", a, b),
                        *[(s, "f", True) for s in [(3, 4), (4,)]], rng=4, top_node=True),
               *compare("einsum ij,ij->ij", lambda lib, a, b: lib.einsum("ij,ij->ij", a, b),
                        *[(s, "f", True) for s in [(3, 4), (3, 4)]], rng=4, top_node=True),
               *compare("einsum ij->ji", lambda lib, a: lib.einsum("ij->ji", a),
                        *[(s, "f", True) for s in [(3, 4)]], rng=4, top_node=True),
               *compare("einsum ii", lambda lib, a: lib.einsum("ii", a), *[(s, "f", True) for s in [(3, 3)]],
                        rng=4, top_node=True),
               *compare("einsum ii->i", lambda lib, a: lib.einsum("ii->i", a),
                        *[(s, "f", True) for s in [(3, 3)]], rng=4, top_node=True,
                        diff="einsum('ii->i', a): PyTorch's last node is a PermuteBackward0 (an identity permute after the diagonal); minigrad's is the DiagonalBackward0"),
               *compare("einsum ij->", lambda lib, a: lib.einsum("ij->", a),
                        *[(s, "f", True) for s in [(3, 4)]], rng=4, top_node=True),
               *compare("einsum ij->j", lambda lib, a: lib.einsum("ij->j", a),
                        *[(s, "f", True) for s in [(3, 4)]], rng=4, top_node=True),
               *compare("einsum list operands", lambda lib, a, b: lib.einsum("ij,jk->ik", [a, b]),
                        *[(s, "f", True) for s in [(3, 4), (4, 2)]], rng=4, top_node=True),
               *compare("einsum ij,jk,k->i", lambda lib, a, b, c: lib.einsum("ij,jk,k->i", a, b, c),
                        *[(s, "f", True) for s in [(3, 4), (4, 2), (2,)]], rng=4, top_node=True),
           ],
           gradcheck=[
               *grad("einsum(ij,jk->ik)", lambda a, b: minigrad.einsum("ij,jk->ik", a, b),
                     matmul_pair((2, 3), (3, 2))),
               *grad("einsum(bij,bjk->bik)", lambda a, b: minigrad.einsum("bij,bjk->bik", a, b),
                     matmul_pair((2, 2, 3), (2, 3, 2))),
               *grad("einsum(ij,jk->ki)", lambda a, b: minigrad.einsum("ij,jk->ki", a, b),
                     matmul_pair((2, 3), (3, 2))),
               *grad("einsum(ii)", lambda a: minigrad.einsum("ii", a), matrix(square=True)),
               *grad("einsum(i,j->ij)", lambda a, b: minigrad.einsum("i,j->ij", a, b),
                     matmul_pair((3,), (2,))),
               *grad("einsum(ij->i)", lambda a: minigrad.einsum("ij->i", a), matrix()),
           ]),
    OpInfo('eq', differentiable=False,
           vs_torch=[
               *broadcast("comparisons", lambda lib, a, b: lib.stack([lib.eq(a, b), lib.ge(a, b), a.greater(b),
                                                              lib.less_equal(a, b), lib.not_equal(a, b)]), shapes=FEW_SHAPES, flags=("both_rg",)),
               *fixed_inputs("(a == b) | (a < 1.5)", lambda lib, a, b: (a == b) | (a < 1.5), CMP_A, CMP_B,
                             requires_grad=False),
           ]),
    OpInfo('erf', aliases=('special.erf',),
           fuzz={"unary": ["erf()"]},
           vs_torch=[
               *compare("erf", lambda lib, x: x.erf(), ((2, 3), "f", True)),
               *compare("torch.special.erf", lambda lib, x: lib.special.erf(x), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("erf", lambda t: t.erf(), one(floats(-2, 2))),
           ]),
    OpInfo('erfc', aliases=('special.erfc',),
           fuzz={"unary": ["erfc()"]},
           vs_torch=[
               *compare("erfc", lambda lib, x: x.erfc(), ((2, 3), "f", True)),
               *compare("torch.erfc", lambda lib, x: lib.erfc(x * 3), ((2, 3), "f", True)),
               *compare("torch.special.erfc", lambda lib, x: lib.special.erfc(x), ((2, 3), "f", True)),
               *compare("erfc_ of clone", lambda lib, x: x.clone().erfc_(), ((2, 3), "f", True)),
               *fixed_inputs("erfc, int64", lambda lib, x: x.erfc(), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("erfc", lambda t: minigrad.erfc(t), one(floats(-2, 2))),
           ]),
    OpInfo('erfinv', aliases=('special.erfinv',),
           fuzz={"unary": ["erfinv()"]},
           vs_torch=[
               *compare("erfinv", lambda lib, x: (x * 0.3).tanh().erfinv(), ((2, 3), "f", True)),
               *compare("torch.erfinv", lambda lib, x: lib.erfinv(x.tanh()), ((2, 3), "f", True)),
               *compare("torch.special.erfinv", lambda lib, x: lib.special.erfinv(x.tanh()),
                        ((2, 3), "f", True)),
               *compare("erfinv_ of clone", lambda lib, x: x.tanh().clone().erfinv_(), ((2, 3), "f", True)),
               *fixed_inputs("erfinv, int64", lambda lib, x: lib.erfinv(x), INTS, requires_grad=False),
           ],
           gradcheck=[
               # (its slope grows without bound at +-1)
               *grad("erfinv", lambda t: t.erfinv(), one(floats(-0.9, 0.9))),
           ]),
    OpInfo('exp',
           fuzz={"unary": ["exp()"]},
           vs_torch=[
               *compare("int exp", lambda lib, a: a.exp(), ((3,), "int", False), dtypes=(F32,), grad="sum"),
               *unary("exp", lambda lib, x: x.exp(), "f"),
               *unary("torch.exp", lambda lib, x: lib.exp(x), "f"),
               *fixed_inputs("overflow", lambda lib, x: x.exp(), np.array([100.0, -100.0], F32), marks=QUIET),
           ],
           gradcheck=[
               *grad("exp", lambda t: t.exp(), one(floats(-3, 3)), PROFILE, FIRST),
               *grad("torch.exp", lambda t: minigrad.exp(t), one(floats(-3, 3)), PROFILE, FIRST),
               *grad("exp", lambda t: t.exp(), second_order_inputs(1, floats(-2, 2)), FEW, SECOND),
               *float32("exp", lambda t: t.exp(), floats(-2, 2)),
           ]),
    OpInfo('exp2', aliases=('special.exp2',),
           fuzz={"unary": ["exp2()"]},
           vs_torch=[
               *compare("exp2", lambda lib, x: x.exp2(), ((2, 3), "f", True)),
               *compare("torch.special.exp2, expm1, log1p", lambda lib, x: lib.special.exp2(x) + lib.special.expm1(x)
                                                        + lib.special.log1p(x * x), ((2, 3), "f", True)),
               *fixed_inputs("exp2, int64", lambda lib, x: x.exp2(), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("exp2", lambda t: t.exp2(), one(floats(-2, 2))),
           ]),
    OpInfo('expand',
           fuzz={"shape": ["expand(2, *{shape})"]},
           vs_torch=[
               *compare("expand(2, 2, 3, 4)", lambda lib, x: x.expand(2, 2, 3, 4), ((2, 3, 4), "f", True)),
               *compare("expand(-1, -1, -1)", lambda lib, x: x.expand(-1, -1, -1) * 1, ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *float32("expand", lambda t: t.unsqueeze(0).expand(2, *t.shape), floats(-2, 2)),
               *grad_checks("expand, expand_as", expand_checks()),
           ]),
    OpInfo('expand_as',
           fuzz={"shape": ["expand_as({v})"]},
           vs_torch=[
               *compare("expand_as", lambda lib, x: x.expand_as(lib.zeros(5, 2, 3, 4)),
                        ((2, 3, 4), "f", True)),
               *compare("expand_as", lambda lib, x: x[:, :1].expand_as(x), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('expm1', aliases=('special.expm1',),
           fuzz={"unary": ["expm1()"]},
           vs_torch=[
               *compare("expm1", lambda lib, x: lib.expm1(x), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("expm1", lambda t: minigrad.expm1(t), one(floats(-2, 2))),
               *grad("special.expm1", lambda t: minigrad.special.expm1(t), one(floats(-2, 2)), PROFILE, FIRST),
           ]),
    OpInfo('fill_', covers=('fill_diagonal_', 'zero_'),
           gradcheck=[
               *grad("fill_", lambda t: (t * 1).fill_(0.5) * t, one()),
               *grad("fill_diagonal_", lambda t: (t * 1).fill_diagonal_(0.5) * t, matrix()),
               *grad("zero_", lambda t: (t * 1).zero_() + t * t, one()),
           ]),
    OpInfo('flatten',
           fuzz={"shape": ["flatten()", "flatten(0, -1)"]},
           vs_torch=[
               *compare("flatten()", lambda lib, x: x.flatten(), ((2, 3, 4), "f", True)),
               *compare("flatten(1)", lambda lib, x: x.flatten(1), ((2, 3, 4), "f", True)),
               *compare("flatten(0, 1)", lambda lib, x: lib.flatten(x, 0, 1), ((2, 3, 4), "f", True)),
               *compare("flatten(1, 1)", lambda lib, x: x.flatten(1, 1), ((2, 3, 4), "f", True)),
               *compare("transpose then flatten", lambda lib, x: x.transpose(0, 2).flatten(),
                        ((2, 3, 4), "f", True)),
               *compare("1-d flatten()", lambda lib, x: x.flatten(), ((3,), "f", True), dtypes=(F32,),
                        grad="sum"),
               *compare("0-d flatten()", lambda lib, x: x.flatten(), ((), "f", True), dtypes=(F32,),
                        grad="sum"),
           ],
           gradcheck=[
               *at_zero_d("flatten(0, -1)", lambda t: t.flatten(0, -1)),
           ]),
    OpInfo('flip',
           fuzz={"dim": ["flip({d})"]},
           vs_torch=[
               *compare("flip(0)", lambda lib, x: x.flip(0), ((2, 3, 4), "f", True)),
               *compare("flip(0, 2)", lambda lib, x: lib.flip(x, (0, 2)), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("flip", lambda t: t.flip(0), one(min_dims=1)),
           ]),
    OpInfo('fliplr',
           fuzz={"reduce": ["fliplr()"]},
           gradcheck=[
               *grad("fliplr", lambda t: t.fliplr() ** 2, one(min_dims=2)),
           ]),
    OpInfo('flipud',
           fuzz={"reduce": ["flipud()"]},
           gradcheck=[
               *grad("flipud", lambda t: minigrad.flipud(t) ** 2, one(min_dims=1)),
           ]),
    OpInfo('float',
           fuzz={"unary": ["float()", "half().float()"]},
           vs_torch=[
               *compare(".float()", lambda lib, x: x.float(), ((2, 3), "f", True)),
               *compare(".float(), no grad", lambda lib, x: x.float(), ((2, 3), "f", False)),
               *compare(".float().exp()", lambda lib, x: x.float().exp(), ((2, 3), "f", True)),
               *compare(".float().exp(), no grad", lambda lib, x: x.float().exp(), ((2, 3), "f", False)),
               *[c for kind in ("int", "bool") for c in compare(f"of {kind}", lambda lib, x: x.float(),
                                                               ((2, 3), kind, False), dtypes=(None,), grad="sum")],
           ],
           gradcheck=[
               *grad_checks("float().double(), to(float32)", float_round_trip_checks()),
           ]),
    OpInfo('float_power',
           fuzz={"unary": ["float_power(2)"], "binary": ["torch.float_power({a}, {b})"]},
           gradcheck=[
               *grad("float_power", lambda t: t.float_power(3) + minigrad.float_power(2, t), one()),
               *grad("float_power(tensor)", lambda a, b: a.float_power(b),
                     pair(floats(0.5, 2), floats(0.5, 2))),
           ]),
    OpInfo('floor',
           fuzz={"unary": ["floor()"]},
           vs_torch=[
               *compare("floor", lambda lib, x: (x * 3).floor(), ((2, 3), "f", True)),
               *fixed_inputs("floor, int64", lambda lib, x: x.floor(), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("floor/ceil/trunc/round", lambda t: (t.floor() + t.ceil() + t.trunc() + t.round()) * t,
                     one(off_the_grid(-3, 2, 0.5))),
           ]),
    OpInfo('floor_divide', aliases=('__floordiv__', '__rfloordiv__'), differentiable=False,
           fuzz={"scalar": ["{v} // 2"]},
           vs_torch=[
               *compare("x //= 2 of clone", lambda lib, x: _ifloordiv(x.detach().clone()),
                        ((2, 3), "f", True)),
               *fixed_inputs("x // 2, int64", lambda lib, x: x // 2, INTS, requires_grad=False),
           ]),
    OpInfo('fmax',
           fuzz={"binary": ["torch.fmax({a}, {b})"]},
           vs_torch=[
               *broadcast("fmax", lambda lib, a, b: lib.fmax(a, b), shapes=FEW_SHAPES, flags=("both_rg",)),
           ],
           gradcheck=[
               *grad("fmax", lambda a, b: a.fmax(b), tie_free_pair()),
           ]),
    OpInfo('fmin',
           fuzz={"binary": ["torch.fmin({a}, {b})"]},
           vs_torch=[
               *broadcast("fmin", lambda lib, a, b: a.fmin(b), shapes=FEW_SHAPES, flags=("both_rg",)),
           ],
           gradcheck=[
               *grad("fmin", lambda a, b: minigrad.fmin(a, b), tie_free_pair()),
           ]),
    OpInfo('fmod',
           fuzz={"scalar": ["torch.fmod({v}, 1.5)"], "binary": ["torch.fmod({a}, {b})"]},
           vs_torch=[
               *compare("fmod(x, 0.7)", lambda lib, x: x.fmod(0.7), ((2, 3), "f", True)),
               *fixed_inputs("fmod(x, 2), int64", lambda lib, x: lib.fmod(x, 2), INTS, requires_grad=False),
               *broadcast("fmod", lambda lib, a, b: lib.fmod(a, b.abs() + 0.5), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
           ],
           gradcheck=[
               *grad("fmod", lambda a, b: minigrad.fmod(a, b), remainder_case()),
           ]),
    OpInfo('frac',
           fuzz={"unary": ["frac()"]},
           vs_torch=[
               *compare("frac", lambda lib, x: (x * 3).frac(), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("frac", lambda t: t.frac() * t, one(off_the_grid(-3, 2))),
           ]),
    OpInfo('frexp',
           gradcheck=[
               # (within one binade)
               *grad("frexp", lambda t: t.frexp()[0] * t, one(floats(0.55, 0.95))),
           ]),
    OpInfo('gather',
           vs_torch=[
               *compare("gather(2, idx)", lambda lib, x: x.gather(2, lib.tensor([GATHER_IDX, GATHER_IDX])),
                        ((2, 3, 4), "f", True)),
               *compare("gather smaller index",
                        lambda lib, x: lib.gather(x, 1, lib.tensor([[[0, 2]], [[1, 1]]])),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("gather", lambda t: t.gather(1, minigrad.tensor(IDX)), fixed((3, 3))),
           ]),
    OpInfo('ge', aliases=('greater_equal',), differentiable=False,
           vs_torch=[
               *fixed_inputs("~(a >= 2)", lambda lib, a: ~(a >= 2), CMP_A),
           ]),
    OpInfo('__getitem__',
           fuzz={"shape": ["{v}[...]", "{v}[:]", "{v}[None]"]},
           vs_torch=[
               *check("zero_grad_sign", "x[::2]", lambda lib, x: x[::2]),
               *check("zero_grad_sign", "x[[0, 0]]", lambda lib, x: x[[0, 0]]),
               *check("zero_grad_sign", "x[1]", lambda lib, x: x[1]),
               *compare("x[1]", lambda lib, x: x[1], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1]", lambda lib, x: x[1]),
               *compare("x[-1]", lambda lib, x: x[-1], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[-1]", lambda lib, x: x[-1]),
               *compare("x[1:3]", lambda lib, x: x[1:3], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1:3]", lambda lib, x: x[1:3]),
               *compare("x[::2]", lambda lib, x: x[::2], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[::2]", lambda lib, x: x[::2]),
               *compare("x[1::2]", lambda lib, x: x[1::2], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1::2]", lambda lib, x: x[1::2]),
               *compare("x[:, 1]", lambda lib, x: x[:, 1], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[:, 1]", lambda lib, x: x[:, 1]),
               *compare("x[..., 2]", lambda lib, x: x[..., 2], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[..., 2]", lambda lib, x: x[..., 2]),
               *compare("x[1, 2]", lambda lib, x: x[1, 2], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1, 2]", lambda lib, x: x[1, 2]),
               *compare("x[1, 2, 3]", lambda lib, x: x[1, 2, 3], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1, 2, 3]", lambda lib, x: x[1, 2, 3]),
               *compare("x[[0, 0, 2]]", lambda lib, x: x[[0, 0, 2]], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[[0, 0, 2]]", lambda lib, x: x[[0, 0, 2]]),
               *compare("x[tensor([2, 0, 2])]", lambda lib, x: x[lib.tensor([2, 0, 2])],
                        ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[tensor([2, 0, 2])]", lambda lib, x: x[lib.tensor([2, 0, 2])]),
               *compare("x[mask]", lambda lib, x: x[x > 0], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[mask]", lambda lib, x: x[x > 0]),
               *compare("x[bool list]", lambda lib, x: x[[True, False, True, False]], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[bool list]", lambda lib, x: x[[True, False, True, False]]),
               *compare("x[None]", lambda lib, x: x[None], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[None]", lambda lib, x: x[None]),
               *compare("x[:, None]", lambda lib, x: x[:, None], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[:, None]", lambda lib, x: x[:, None]),
               *compare("x[1, ::2]", lambda lib, x: x[1, ::2], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1, ::2]", lambda lib, x: x[1, ::2]),
               *compare("x[1:, 2]", lambda lib, x: x[1:, 2], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1:, 2]", lambda lib, x: x[1:, 2]),
               *compare("x[None, 1]", lambda lib, x: x[None, 1], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[None, 1]", lambda lib, x: x[None, 1]),
               *compare("x[[0, 2], 1:]", lambda lib, x: x[[0, 2], 1:], ((4, 3, 5), "f", True),
                        diff="x[[0, 2], 1:]: PyTorch records IndexBackward0 -> SliceBackward0; minigrad a single IndexBackward0"),
               *check("values_and_grads", "x[[0, 2], 1:]", lambda lib, x: x[[0, 2], 1:]),
               *compare("x[[0, 2], [1, 1]]", lambda lib, x: x[[0, 2], [1, 1]], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[[0, 2], [1, 1]]", lambda lib, x: x[[0, 2], [1, 1]]),
               *compare("x[:, [2, 2, 0]]", lambda lib, x: x[:, [2, 2, 0]], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[:, [2, 2, 0]]", lambda lib, x: x[:, [2, 2, 0]]),
               *compare("x[1][2]", lambda lib, x: x[1][2], ((4, 3, 5), "f", True)),
               *check("values_and_grads", "x[1][2]", lambda lib, x: x[1][2]),
               *fixed_inputs("x[1:, [0, 0]] of int64", lambda lib, x: x[1:, [0, 0]], np.arange(12).reshape(3, 4),
                      requires_grad=False),
               *fixed_inputs("x[x > 5] of int64", lambda lib, x: x[x > 5], np.arange(12).reshape(3, 4),
                             requires_grad=False),
           ],
           gradcheck=[
               *grad("index", lambda t: (t[[0, 0, -1]] ** 2).sum(0) * t[0] + t[..., ::2].exp().sum(),
                     second_order_inputs(1, floats(-2, 2)), FEW, SECOND),
               *float32("index", lambda t: t[[0, 0]][..., ::2], floats(-2, 2)),
               *grad_checks("basic, advanced, mixed keys", indexing_checks()),
           ]),
    OpInfo('gt', aliases=('greater',), differentiable=False,
           vs_torch=[
               *fixed_inputs("a > b", lambda lib, a, b: a > b, CMP_A, CMP_B, requires_grad=(True, False)),
           ]),
    OpInfo('hsplit',
           gradcheck=[
               *grad("hsplit", lambda t: _weighted(t.hsplit(2)) ** 2, fixed((2, 4))),
           ]),
    OpInfo('hstack',
           fuzz={"shape": ["torch.hstack([{v}, {v}])"]},
           gradcheck=[
               *grad("hstack", lambda a, b: minigrad.hstack([a, b, a]), matmul_pair((2, 3), (2, 1))),
               *grad("hstack(vectors)", lambda a, b: minigrad.hstack((a, b)), matmul_pair((3,), ())),
           ]),
    OpInfo('hypot',
           fuzz={"binary": ["torch.hypot({a}, {b})"]},
           gradcheck=[
               *grad("hypot", lambda a, b: a.hypot(b), pair(away(0.2, 2), away(0.2, 2))),
           ]),
    OpInfo('i0', aliases=('special.i0',), covers=('special.i1',),
           gradcheck=[
               *grad("i0, i1", lambda t: t.i0() * minigrad.special.i1(t), one(floats(-3, 3))),
               *grad("special.i0", lambda t: minigrad.special.i0(t), one(floats(-3, 3)), PROFILE, FIRST),
           ]),
    OpInfo('index_add',
           gradcheck=[
               *grad("index_add(alpha)",
                     lambda x, s: x.index_add(1, minigrad.tensor([2, 0, 2]), s, alpha=-1.5) * x,
                     matmul_pair((2, 3), (2, 3))),
           ]),
    OpInfo('index_copy',
           gradcheck=[
               *grad("index_copy", lambda x, s: x.index_copy(0, minigrad.tensor([2, 0]), s) * x,
                     matmul_pair((3, 2), (2, 2))),
           ]),
    OpInfo('index_fill',
           gradcheck=[
               *grad("index_fill", lambda t: t.index_fill(0, minigrad.tensor([2, -3]), 0.5) * t,
                     fixed((3, 2))),
               *grad("index_fill(tensor)",
                     lambda t, v: minigrad.index_fill(t, 1, minigrad.tensor([1, 1]), v) * t,
                     matmul_pair((3, 2), ())),
           ]),
    OpInfo('index_put',
           gradcheck=[
               *grad("index_put",
                     lambda x, v: x.index_put((minigrad.tensor([1, 0]), minigrad.tensor([0, 1])), v) * x,
                     matmul_pair((2, 2), (2,))),
               *grad("index_put(accumulate)",
                     lambda x, v: minigrad.index_put(x, (minigrad.tensor([1, 1]),), v, True) * x,
                     matmul_pair((2, 3), (3,))),
           ]),
    OpInfo('index_reduce',
           gradcheck=[
               *grad("index_reduce(prod)",
                     lambda x, s: _quiet(x.index_reduce, 0, minigrad.tensor([0, 2, 0]), s, "prod"),
                     _self_and_src(True)),
               *grad("index_reduce(mean, include_self=False)", lambda x, s: _quiet(
                       x.index_reduce, 1, minigrad.tensor([3, 3, 0, 1]), s, "mean", include_self=False) ** 2, _self_and_src()),
               *grad("index_reduce(amax)",
                     lambda x, s: _quiet(x.index_reduce, 0, minigrad.tensor([2, 2, 0]), s, "amax") ** 2,
                     _self_and_src()),
           ]),
    OpInfo('index_select',
           fuzz={"dim": ["index_select({d}, torch.tensor([0]))"]},
           vs_torch=[
               *compare("index_select(2, idx)", lambda lib, x: x.index_select(2, lib.tensor([3, 0, 3])),
                        ((2, 3, 4), "f", True)),
               *compare("torch.index_select", lambda lib, x: lib.index_select(x, 0, lib.tensor([1])),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("index_select", lambda t: t.index_select(0, minigrad.tensor([2, 0, 2])), fixed((3, 2))),
           ]),
    OpInfo('inner', covers=('kron', 'tensordot', 'vdot'),
           gradcheck=[
               *grad("inner, kron, tensordot, vdot",
                     lambda a, b: minigrad.inner(a, b).sum() + minigrad.kron(a, b).sum(-1)[:2] + minigrad.tensordot(a, b.mT, 1).sum() + minigrad.vdot(a[0], b[1] * a[0]),
                     matmul_pair((2, 3), (2, 3))),
           ]),
    OpInfo('isfinite', differentiable=False,
           vs_torch=[
               *fixed_inputs("isfinite, int64", lambda lib, x: x.isfinite(), INTS, requires_grad=False),
           ]),
    OpInfo('isinf', differentiable=False,
           vs_torch=[
               *fixed_inputs("isinf, int64", lambda lib, x: lib.isinf(x), INTS, requires_grad=False),
           ]),
    OpInfo('isnan', differentiable=False,
           vs_torch=[
               *fixed_inputs("isnan, int64", lambda lib, x: x.isnan(), INTS, requires_grad=False),
           ]),
    OpInfo('kthvalue',
           fuzz={"dim": ["kthvalue(1, dim={d})[0]"]},
           gradcheck=[
               *grad("kthvalue", lambda t: t.kthvalue(2, 1, keepdim=True).values * t,
                     st.builds(lambda a: [a], distinct((2, 3)))),
           ]),
    OpInfo('ldexp',
           gradcheck=[
               *grad("ldexp", lambda a, b: a.ldexp(b), pair()),
           ]),
    OpInfo('lerp', known=('shared-array', 'error-draws'),
           fuzz={
                "scalar": ["torch.lerp({v}, torch.zeros_like({v}), 0.25)"],
                "binary": ["torch.lerp({a}, {b}, 0.5)", "torch.lerp({a}, {b}, {b}.detach().clone())"],
           },
           vs_torch=[
               *compare("lerp(y, 0.3)", lambda lib, x: x.lerp(x * 2, 0.3), ((2, 3), "f", True)),
               *broadcast("lerp(tensor weight)", lambda lib, a, b: lib.lerp(a, b, (a * b).sigmoid()),
                          shapes=FEW_SHAPES, flags=("both_rg",)),
           ],
           gradcheck=[
               *grad("lerp(number)", lambda a, b: a.lerp(b, 0.3), pair()),
               *grad("lerp(tensor)", lambda a, b, w: minigrad.lerp(a, b, w), three()),
           ]),
    OpInfo('lgamma', aliases=('special.gammaln',),
           fuzz={"unary": ["lgamma()"]},
           gradcheck=[
               *grad("lgamma", lambda t: t.lgamma(), one(st.one_of(floats(0.2, 5), floats(-2.8, -2.2)))),
               *grad("special.gammaln", lambda t: minigrad.special.gammaln(t), one(floats(0.2, 5)), PROFILE,
                     FIRST),
           ]),
    OpInfo('linalg.cholesky', covers=('linalg.cholesky_ex',), aliases=('cholesky',),
           gradcheck=[
               *grad("linalg.cholesky", lambda t: minigrad.linalg.cholesky(t @ t.mT),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
               *grad("linalg.cholesky(upper=True)", lambda t: minigrad.linalg.cholesky(t @ t.mT, upper=True),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
               *grad("cholesky", lambda t: _quiet((t @ t.mT).cholesky),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
               *grad("linalg.cholesky_ex", lambda t: minigrad.linalg.cholesky_ex(t @ t.mT).L,
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
           ]),
    OpInfo('linalg.cross',
           gradcheck=[
               *grad("linalg.cross", lambda a, b: minigrad.linalg.cross(a, b), matmul_pair((2, 3), (1, 3))),
           ]),
    OpInfo('linalg.det', aliases=('det',), known=('det-nonfinite',),
           fuzz={"reduce": ["det()"]},
           gradcheck=[
               *grad("linalg.det", lambda t: minigrad.linalg.det(t),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
           ]),
    OpInfo('linalg.eigh',
           gradcheck=[
               *grad("linalg.eigh", lambda t: (lambda lam, v: v * v * lam)(*minigrad.linalg.eigh(t + t.mT)),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
           ]),
    OpInfo('linalg.eigvalsh',
           gradcheck=[
               *grad("linalg.eigvalsh", lambda t: minigrad.linalg.eigvalsh(t + t.mT),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((2, 3, 3), floats(-0.2, 0.2)))),
           ]),
    OpInfo('linalg.inv', covers=('linalg.inv_ex',), aliases=('inverse',),
           gradcheck=[
               *grad("linalg.inv", lambda t: minigrad.linalg.inv(t),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
               *grad("inverse", lambda t: t.inverse(),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
               *grad("linalg.inv_ex", lambda t: minigrad.linalg.inv_ex(t).inverse,
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((2, 3, 3), floats(-1, 1)))),
           ]),
    OpInfo('linalg.matrix_norm',
           gradcheck=[
               *grad("linalg.matrix_norm",
                     lambda t: minigrad.stack([minigrad.linalg.matrix_norm(t, o) for o in ("fro", "nuc", 2, -2)]),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
               *grad("linalg.matrix_norm(1, inf)",
                     lambda t: minigrad.stack([minigrad.linalg.matrix_norm(t, o) for o in (1, -1, float("inf"), -float("inf"))]),
                     st.builds(lambda a: [a + np.array([[3.0, 1, 1], [1, 2, 0], [0, 0, 1]])], arrays((3, 3), floats(0.1, 0.2)))),
           ]),
    OpInfo('linalg.matrix_power', aliases=('matrix_power',),
           gradcheck=[
               *grad("linalg.matrix_power", lambda t: minigrad.linalg.matrix_power(t, 5) + t.matrix_power(-2),
                     st.builds(lambda a: [a + 2 * np.eye(2)], arrays((2, 2), floats(-0.5, 0.5)))),
           ]),
    OpInfo('linalg.multi_dot', aliases=('chain_matmul',),
           gradcheck=[
               *grad("linalg.multi_dot", lambda a, b, c: minigrad.linalg.multi_dot([a, b, c, a[0]]),
                     st.builds(lambda *m: list(m), arrays((2, 3)), arrays((3, 3)), arrays((3, 3)))),
               *grad("chain_matmul", lambda a, b, c: _quiet(minigrad.chain_matmul, a, b, c),
                     st.builds(lambda *m: list(m), arrays((2, 3)), arrays((3, 3)), arrays((3, 2)))),
           ]),
    OpInfo('linalg.norm',
           gradcheck=[
               *grad("vector", lambda t: minigrad.linalg.norm(t), one(away(0.2, 2), min_dims=1)),
               *grad("matrix, fro and nuc",
                     lambda t: minigrad.linalg.norm(t, "fro") + minigrad.linalg.norm(t, "nuc"),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
           ]),
    OpInfo('linalg.pinv', aliases=('pinverse',),
           gradcheck=[
               *grad("linalg.pinv", lambda t: minigrad.linalg.pinv(t),
                     st.builds(lambda a: [a + 3 * np.eye(3)[:, :2]], arrays((3, 2), floats(-1, 1)))),
               *grad("linalg.pinv wide", lambda t: minigrad.pinverse(t),
                     st.builds(lambda a: [a + 3 * np.eye(3)[:2]], arrays((2, 3), floats(-1, 1)))),
           ]),
    OpInfo('linalg.qr', aliases=('qr',),
           gradcheck=[
               *grad("linalg.qr", lambda t: (lambda q, r: q * q + 2 * r * r)(*minigrad.linalg.qr(t)),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
               *grad("linalg.qr tall",
                     lambda t: (lambda q, r: (q * q).sum(0) + 2 * (r * r).sum(0))(*minigrad.linalg.qr(t)),
                     st.builds(lambda a: [a + 3 * np.eye(3)[:, :2]], arrays((3, 2), floats(-1, 1)))),
               *grad("linalg.qr wide",
                     lambda t: (lambda q, r: (q * q).sum(0) + 2 * (r * r).sum(0)[:2])(*minigrad.linalg.qr(t)),
                     st.builds(lambda a: [a + 3 * np.eye(3)[:2]], arrays((2, 3), floats(-1, 1)))),
               *grad("qr", lambda t: (lambda q, r: q * q + 2 * r * r)(*_quiet(t.qr)),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
           ]),
    OpInfo('linalg.slogdet', aliases=('slogdet',),
           gradcheck=[
               *grad("linalg.slogdet", lambda t: minigrad.linalg.slogdet(t).logabsdet * 2,
                     st.builds(lambda a: [a - 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
               *grad("slogdet", lambda t: t.slogdet()[1] * 2,
                     st.builds(lambda a: [a - 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
           ]),
    OpInfo('linalg.solve', covers=('linalg.solve_ex',),
           gradcheck=[
               *grad("linalg.solve", lambda a, b: minigrad.linalg.solve(a, b),
                     st.builds(lambda a, b: [a + 3 * np.eye(3), b], arrays((3, 3), floats(-1, 1)), arrays((3, 2)))),
               *grad("linalg.solve vector", lambda a, b: minigrad.linalg.solve(a, b),
                     st.builds(lambda a, b: [a + 3 * np.eye(3), b], arrays((2, 3, 3), floats(-1, 1)), arrays((3,)))),
               *grad("linalg.solve(left=False)", lambda a, b: minigrad.linalg.solve(a, b, left=False),
                     st.builds(lambda a, b: [a + 3 * np.eye(3), b], arrays((3, 3), floats(-1, 1)), arrays((2, 3)))),
               *grad("linalg.solve_ex", lambda a, b: minigrad.linalg.solve_ex(a, b).result,
                     st.builds(lambda a, b: [a + 3 * np.eye(3), b], arrays((3, 3), floats(-1, 1)), arrays((3, 2)))),
           ]),
    OpInfo('linalg.svd',
           gradcheck=[
               *grad("linalg.svd", lambda t: (lambda u, s, vh: u * u * s + vh * vh)(*minigrad.linalg.svd(t)),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
               *grad("linalg.svd tall",
                     lambda t: (lambda u, s, vh: (u * u * s).sum(0) + 2 * (vh * vh).sum(0))(*minigrad.linalg.svd(t, full_matrices=False)),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])[:, :2]], arrays((3, 2), floats(-0.2, 0.2)))),
               *grad("linalg.svd wide",
                     lambda t: (lambda u, s, vh: (u * u * s).sum() + 2 * (vh * vh).sum(0))(*minigrad.linalg.svd(t, full_matrices=False)),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])[:2]], arrays((2, 3), floats(-0.2, 0.2)))),
           ]),
    OpInfo('linalg.svdvals',
           gradcheck=[
               *grad("linalg.svdvals", lambda t: minigrad.linalg.svdvals(t),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])[:, :2]], arrays((2, 3, 2), floats(-0.2, 0.2)))),
           ]),
    OpInfo('linalg.vecdot',
           gradcheck=[
               *grad("vecdot", lambda a, b: minigrad.linalg.vecdot(a, b), matmul_pair((2, 3), (2, 3))),
           ]),
    OpInfo('linalg.vector_norm',
           gradcheck=[
               *grad("ord 3, dim -1", lambda t: minigrad.linalg.vector_norm(t, 3, dim=-1),
                     one(away(0.2, 2), min_dims=1)),
           ]),
    OpInfo('log',
           fuzz={"unary": ["log()"]},
           vs_torch=[
               *compare("int log", lambda lib, a: a.log(), ((3,), "nint", False), dtypes=(F32,), grad="sum"),
               *unary("log", lambda lib, x: x.log(), "pos"),
               *unary("torch.log", lambda lib, x: lib.log(x), "pos"),
               *fixed_inputs("of 0", lambda lib, x: x.log(), np.array([0.0, 1.0], F32), requires_grad=False,
                             marks=QUIET),
           ],
           gradcheck=[
               *grad("log", lambda t: t.log(), one(floats(0.1, 5)), PROFILE, FIRST),
               *grad("torch.log", lambda t: minigrad.log(t), one(floats(0.1, 5)), PROFILE, FIRST),
               *grad("log", lambda t: t.log(), second_order_inputs(1, floats(0.2, 3)), FEW, SECOND),
               *float32("log", lambda t: t.log(), floats(0.2, 3)),
           ]),
    OpInfo('log10',
           fuzz={"unary": ["log10()"]},
           vs_torch=[
               *compare("log10", lambda lib, x: lib.log10(x), ((2, 3), "pos", True)),
           ],
           gradcheck=[
               *grad("log10", lambda t: t.log10(), one(floats(0.2, 5))),
           ]),
    OpInfo('log1p', aliases=('special.log1p',),
           fuzz={"unary": ["log1p()"]},
           vs_torch=[
               *compare("log1p", lambda lib, x: x.log1p(), ((2, 3), "pos", True)),
           ],
           gradcheck=[
               *grad("log1p", lambda t: t.log1p(), one(floats(-0.5, 5))),
               *grad("special.log1p", lambda t: minigrad.special.log1p(t), one(floats(-0.5, 5)), PROFILE,
                     FIRST),
           ]),
    OpInfo('log2',
           fuzz={"unary": ["log2()"]},
           vs_torch=[
               *compare("log2", lambda lib, x: x.log2(), ((2, 3), "pos", True)),
           ],
           gradcheck=[
               *grad("log2", lambda t: t.log2(), one(floats(0.2, 5))),
           ]),
    OpInfo('log_softmax', aliases=('nn.functional.log_softmax',),
           fuzz={
                "unary": ["log_softmax(0)"],
                "dim": ["log_softmax(dim={d})", "torch.nn.functional.log_softmax({v}, {d})"],
           },
           vs_torch=[
               *reduction("log_softmax(-1)", lambda lib, x: x.log_softmax(-1)),
               *reduction("log_softmax(1)", lambda lib, x: lib.log_softmax(x, dim=1)),
               *check("second_derivative", "log_softmax", lambda lib, x, v: (x.log_softmax(1) * v).sum()),
           ],
           gradcheck=[
               *at_zero_d("log_softmax(-1)", lambda t: t.log_softmax(-1)),
               *grad("log_softmax", lambda t: t.log_softmax(0), second_order_inputs(1, floats(-3, 3)), FEW,
                     SECOND),
               *float32("log_softmax", lambda t: t.log_softmax(-1), floats(-2, 2)),
               *grad_checks("log_softmax(dim)", softmax_checks("log_softmax")),
               *grad_checks("torch.log_softmax(x, dim)", softmax_checks("torch.log_softmax")),
           ]),
    OpInfo('logaddexp',
           fuzz={"binary": ["torch.logaddexp({a}, {b})"]},
           vs_torch=[
               *broadcast("logaddexp", lambda lib, a, b: lib.logaddexp(a, b), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
           ],
           gradcheck=[
               *grad("logaddexp", lambda a, b: a.logaddexp(b), pair()),
           ]),
    OpInfo('logaddexp2',
           fuzz={"binary": ["torch.logaddexp2({a}, {b})"]},
           gradcheck=[
               *grad("logaddexp2", lambda a, b: minigrad.logaddexp2(a, b), pair()),
           ]),
    OpInfo('logcumsumexp',
           fuzz={"dim": ["logcumsumexp(dim={d})"]},
           gradcheck=[
               # (a zero gradient: NaN second derivative, as
               # PyTorch's log|grad| formula gives)
               *grad("logcumsumexp", lambda t: t.logcumsumexp(-1) * t, one(away(0.2, 2), min_dims=1)),
               *grad("logcumsumexp(dim 0)", lambda t: minigrad.logcumsumexp(t, 0), one(min_dims=1)),
           ]),
    OpInfo('logdet', known=('det-nonfinite',),
           fuzz={"reduce": ["logdet()"]},
           gradcheck=[
               *grad("logdet", lambda t: (t @ t.mT).logdet(),
                     st.builds(lambda a: [a + 3 * np.eye(3)], arrays((3, 3), floats(-1, 1)))),
           ]),
    OpInfo('logical_and', differentiable=False,
           vs_torch=[
               *broadcast("logical_and/or",
                          lambda lib, a, b: lib.logical_and(a > 0, b) | lib.logical_or(a > b, a < 0),
                          shapes=FEW_SHAPES, flags=("both_rg",)),
           ]),
    OpInfo('logical_not', differentiable=False,
           vs_torch=[
               *fixed_inputs("logical_not, int64", lambda lib, x: lib.logical_not(x), INTS,
                             requires_grad=False),
           ]),
    OpInfo('logical_xor', differentiable=False,
           vs_torch=[
               *broadcast("logical_xor", lambda lib, a, b: lib.logical_xor(a > 0, b > 0), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
               *broadcast("a ^ b", lambda lib, a, b: (a > 0) ^ (b > 0), shapes=FEW_SHAPES, flags=("both_rg",)),
           ]),
    OpInfo('logit', aliases=('special.logit',),
           fuzz={"unary": ["logit()", "logit(eps=0.1)"]},
           gradcheck=[
               *grad("logit", lambda t: t.logit(), one(floats(0.05, 0.95))),
               *grad("logit(eps)", lambda t: minigrad.logit(t, 0.1) * t,
                     one(st.one_of(floats(0.15, 0.85), floats(0.01, 0.05)))),
               *grad("special.logit", lambda t: minigrad.special.logit(t), one(floats(0.05, 0.95)), PROFILE,
                     FIRST),
           ]),
    OpInfo('logsumexp', aliases=('special.logsumexp',),
           fuzz={"dim": ["logsumexp(dim={d}, keepdim={k})"]},
           vs_torch=[
               *reduction("logsumexp(-1)", lambda lib, x: x.logsumexp(-1)),
               *reduction("logsumexp(1, keepdim)", lambda lib, x: x.logsumexp(1, keepdim=True)),
               *reduction("logsumexp((0, 2))", lambda lib, x: lib.logsumexp(x, (0, 2))),
               *compare("torch.special.logsumexp", lambda lib, x: lib.special.logsumexp(x, -1),
                        ((2, 3), "f", True)),
               *compare("logsumexp(axis=1)", lambda lib, x: x.logsumexp(axis=1), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *at_zero_d("logsumexp(0)", lambda t: t.logsumexp(0)),
               *grad("logsumexp(keepdim)", lambda t: t.logsumexp(-1, keepdim=True),
                     second_order_inputs(1, floats(-3, 3)), FEW, SECOND),
               *float32("logsumexp", lambda t: t.logsumexp(-1), floats(-2, 2)),
               *grad_checks("logsumexp(dim, keepdim)", logsumexp_checks()),
               *grad("logsumexp(-1)", lambda t: t.logsumexp(-1), second_order_inputs(1, floats(-3, 3)), FEW,
                     SECOND),
           ]),
    OpInfo('long', differentiable=False,
           vs_torch=[
               *compare(".long()", lambda lib, x: x.long(), ((2, 3), "f", True)),
               *compare(".long(), no grad", lambda lib, x: x.long(), ((2, 3), "f", False)),
               *compare("x.long() + x", lambda lib, x: x.long() + x, ((2, 3), "f", True)),
               *compare("x.long() + x, no grad", lambda lib, x: x.long() + x, ((2, 3), "f", False)),
               *[c for kind in ("int", "bool") for c in compare(f"of {kind}", lambda lib, x: x.long(),
                                                               ((2, 3), kind, False), dtypes=(None,), grad="sum")],
           ]),
    OpInfo('masked_fill',
           fuzz={"scalar": ["{v}.masked_fill({v} < 0, 0.0)", "{v}.masked_fill({v} > 1, float('-inf'))"]},
           vs_torch=[
               *compare("masked_fill(mask, 0.5)", lambda lib, x: x.masked_fill(x > 0, 0.5),
                        ((2, 3, 4), "f", True)),
               *compare("masked_fill(row mask, -inf)", lambda lib, x: x.masked_fill(lib.tensor([True, False, False, True]),
                                                                               float("-inf")).softmax(-1), ((2, 3, 4), "f", True)),
               *compare("masked_fill(mask, tensor)", lambda lib, x: lib.masked_fill(x, x < 0, x.sum()),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("masked_fill", lambda t: t.masked_fill(minigrad.tensor([True, False]), 0.5) * t,
                     fixed((3, 2))),
               *grad("masked_fill(tensor)",
                     lambda t, v: minigrad.masked_fill(t, minigrad.tensor([True, False]), v) * t,
                     matmul_pair((3, 2), ())),
           ]),
    OpInfo('masked_scatter',
           gradcheck=[
               *grad("masked_scatter",
                     lambda x, s: x.masked_scatter(minigrad.tensor([True, False, True, True]), s) ** 2,
                     _self_and_src()),
           ]),
    OpInfo('masked_select',
           vs_torch=[
               *compare("masked_select", lambda lib, x: x.masked_select(x > 0), ((2, 3, 4), "f", True)),
               *compare("masked_select broadcast mask", lambda lib, x: lib.masked_select(
                       x, lib.tensor([True, False, True, True])), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("masked_select",
                     lambda t: t.masked_select(minigrad.tensor([[True, False], [True, True]])), fixed((2, 2))),
           ]),
    OpInfo('matmul', aliases=('__matmul__', '__rmatmul__', 'linalg.matmul'), known=('matmul-graph',),
           vs_torch=[
               *compare("float32 @ int", lambda lib, a, b: a.float() @ b.float(), ((2, 3), "f", True),
                        ((3,), "int", False), dtypes=(F32,), grad="sum"),
               # 1-D, 2-D and batched operands in the three spellings; PyTorch records a batched product's
               # decomposition (see MATMUL_DIFFS)
               *[c for form, fn in MATMUL_FORMS.items() for name, (sa, sb) in MATMUL.items()
                  for c in compare(f"{form}, {name}", fn, (sa, "f", True), (sb, "f", True), diff=MATMUL_DIFFS.get(name))],
               *[c for name, shapes in MATMUL.items() for c in check("matmul_values_and_grads", name, None, shapes=shapes)],
               *[c for name, (sa, sb) in MATMUL.items()
                  for c in compare(f"{name}, no grad", lambda lib, a, b: a @ b, (sa, "f", False), (sb, "f", False),
                                   dtypes=(F32,), grad="sum")],
           ],
           gradcheck=[
               *float32("matmul", lambda t: t.reshape(-1, 1) @ (t.reshape(1, -1) * 2), floats(-2, 2)),
               *[s for kind in MATMUL_KINDS for s in grad_checks(kind, matmul_checks(kind))],
               *[s for kind in ("mat.mat", "mat.vec", "vec.mat", "vec.vec", "batch.mat")
                  for s in grad(f"(x @ y) ** 2, {kind}", lambda x, y: (x @ y) ** 2, matmul_pair_of(kind), FEW, SECOND)],
               *grad("linalg.matmul", lambda a, b: minigrad.linalg.matmul(a, b), matmul_pair((2, 3), (3, 2))),
           ]),
    OpInfo('max',
           fuzz={
                "reduce": ["max()"],
                "dim": ["max(dim={d}, keepdim={k})[0]", "max(dim={d}, keepdim={k}).values"],
           },
           vs_torch=[
               *compare("int max", lambda lib, a: a.max(), ((3,), "int", False), dtypes=(F32,), grad="sum"),
               *check("zero_grad_sign", "max()", lambda lib, x: x.max()),
               *check("zero_grad_sign", "max(0)", lambda lib, x: x.max(0).values),
               *reduction("max()", lambda lib, x: x.max()),
               *reduction("torch.max(x)", lambda lib, x: lib.max(x)),
               *reduction("max(0)", lambda lib, x: x.max(0)),
               *reduction("max(1)", lambda lib, x: x.max(1)),
               *reduction("max(dim=-1, keepdim)", lambda lib, x: x.max(dim=-1, keepdim=True)),
               *reduction("torch.max(x, 1)", lambda lib, x: lib.max(x, 1)),
               *reduction("max(1).values", lambda lib, x: x.max(1).values),
               *reduction("max(1).indices", lambda lib, x: x.max(1).indices),
               *reduction("max(1)[0]", lambda lib, x: x.max(1)[0]),
               *compare("max(axis=1)", lambda lib, x: x.max(axis=1), ((2, 3, 4), "f", True)),
               # ties: where the gradient goes
               *fixed_inputs("max() of ties", lambda lib, x: x.max(), TIES),
               *fixed_inputs("max(1) of ties", lambda lib, x: x.max(1), TIES),
               *fixed_inputs("max(0) of ties", lambda lib, x: x.max(0), TIES),
           ],
           gradcheck=[
               *grad_checks("max(other)", binary_checks(lambda a, b: a.max(b), None, None)),
               *at_zero_d("max(0).values", lambda t: t.max(0).values),
               *at_zero_d("max(-1, keepdim).values", lambda t: t.max(-1, keepdim=True).values),
               *grad("max", lambda t: t.max() * t + t.max(-1).values.exp().unsqueeze(-1), distinct_one(), FEW,
                     SECOND),
               *float32("max", lambda t: t.max(-1).values, None),
               *grad_checks("max()", max_all_checks()),
               *grad_checks("max(dim, keepdim)", max_dim_checks()),
           ]),
    OpInfo('maximum',
           fuzz={"binary": ["torch.maximum({a}, {b})", "{a}.maximum({b})"]},
           vs_torch=[
               *broadcast("maximum", lambda lib, a, b: lib.maximum(a, b), "f"),
               *int_pair("maximum", lambda lib, a, b: lib.maximum(a, b)),
               *mixed_float("maximum", lambda lib, a, b: lib.maximum(a, b)),
               *mixed_float("maximum", lambda lib, a, b: lib.maximum(a, b), graph=True),
               *check("zero_grad_sign", "maximum", lambda lib, x: lib.maximum(x, lib.zeros(4))),
               *fixed_inputs("ties", lambda lib, a, b: lib.maximum(a, b), np.array([1.0, 2.0, 3.0], F32),
                      np.array([1.0, 5.0, 3.0], F32)),
           ],
           gradcheck=[
               # elements built tie-free below
               *grad_checks("maximum", binary_checks(lambda a, b: a.maximum(b), None, None)),
               *grad_checks("torch.maximum", binary_checks(lambda a, b: minigrad.maximum(a, b), None, None)),
               *mixed_precision("maximum", lambda a, b: a.maximum(b), None, None),
           ]),
    OpInfo('mean',
           fuzz={"reduce": ["mean()"], "dim": ["mean(dim={d}, keepdim={k})"]},
           vs_torch=[
               *reduction("mean()", lambda lib, x: x.mean()),
               *reduction("torch.mean", lambda lib, x: lib.mean(x)),
               *reduction("mean(0)", lambda lib, x: x.mean(0)),
               *reduction("mean(-1, keepdim)", lambda lib, x: x.mean(-1, keepdim=True)),
               *reduction("mean((1, 2))", lambda lib, x: x.mean((1, 2))),
               *compare("mean(axis=(0, 1), keepdims)", lambda lib, x: x.mean(axis=(0, 1), keepdims=True),
                        ((2, 3, 4), "f", True)),
               *fixed_inputs("mean() of 0-d", lambda lib, x: x.mean(), np.array(2.5, F32)),
               *fixed_inputs("mean(-1) of 0-d", lambda lib, x: x.mean(-1), np.array(2.5, F32)),
           ],
           gradcheck=[
               *at_zero_d("mean((0,))", lambda t: t.mean((0,))),
               *grad("mean", lambda t: t.mean(-1, keepdim=True) ** 3 + t.mean() ** 2,
                     second_order_inputs(1, floats(-2, 2)), FEW, SECOND),
               *float32("mean", lambda t: t.mean(), floats(-2, 2)),
               *float32("mean(dtype=f64)", lambda t: t.mean(0, dtype=minigrad.float64), floats(-2, 2),
                        result=F64),
               *grad_checks("mean(), mean(dim, keepdim)", sum_mean_checks("mean")),
           ]),
    OpInfo('median', known=('median-expanded',),
           fuzz={"reduce": ["median()"], "dim": ["median(dim={d}, keepdim={k}).values"]},
           gradcheck=[
               *grad("median()", lambda t: t.median() * t, distinct_matrix()),
               *grad("median(dim)", lambda t: minigrad.median(t, 1).values, distinct_matrix()),
               *grad("median(0, keepdim)", lambda t: t.median(0, keepdim=True).values * t, distinct_matrix()),
           ]),
    OpInfo('meshgrid',
           gradcheck=[
               *grad("meshgrid(xy)", lambda a, b: _weighted(minigrad.meshgrid(a, b, indexing="xy")),
                     matmul_pair((3,), (2,))),
               *grad("meshgrid(ij, 0-d)",
                     lambda a, b, c: _weighted(minigrad.meshgrid([a, b, c], indexing="ij")),
                     st.builds(lambda *a: list(a), arrays((2,)), arrays(()), arrays((3,)))),
           ]),
    OpInfo('min',
           fuzz={
                "reduce": ["min()"],
                "dim": ["min(dim={d}, keepdim={k})[1]", "min(dim={d}, keepdim={k})[0]"],
           },
           vs_torch=[
               *broadcast("min(other)", lambda lib, a, b: a.min(b), shapes=FEW_SHAPES, flags=("both_rg",)),
               *compare("min()", lambda lib, x: x.min(), ((2, 3, 4), "f", True)),
               *compare("torch.min(x)", lambda lib, x: lib.min(x), ((2, 3, 4), "f", True)),
               *compare("min(1)", lambda lib, x: x.min(1), ((2, 3, 4), "f", True)),
               *compare("min(dim=0, keepdim)", lambda lib, x: x.min(dim=0, keepdim=True),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("min()", lambda t: t.min(), distinct_matrix()),
               *grad("min(dim)", lambda t: t.min(1).values, distinct_matrix()),
           ]),
    OpInfo('minimum',
           fuzz={"binary": ["torch.minimum({a}, {b})"]},
           vs_torch=[
               *broadcast("minimum", lambda lib, a, b: lib.minimum(a, b), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
           ],
           gradcheck=[
               *grad("minimum", lambda a, b: minigrad.minimum(a, b), tie_free_pair()),
           ]),
    OpInfo('mm',
           vs_torch=[
               *compare("mm", lambda lib, a, b: a.mm(b), *[(s, "f", True) for s in [(3, 4), (4, 2)]], rng=4),
               *compare("mm", lambda lib, a, b: a.mm(b), ((2, 3), "f", True), ((3, 4), "f", False),
                        dtypes=(F32,), grad="sum"),
               *compare("torch.mm", lambda lib, a, b: lib.mm(a, b), ((2, 3), "f", True), ((3, 4), "f", False), dtypes=(F32,),
                        grad="sum"),
           ],
           gradcheck=[
               *grad_checks("mat.mat", mm_checks()),
           ]),
    OpInfo('mode',
           gradcheck=[
               *grad("mode", lambda t: t.mode(0).values, distinct_matrix()),
           ]),
    OpInfo('movedim', aliases=('moveaxis',),
           fuzz={"dim": ["movedim({d}, 0)"]},
           vs_torch=[
               *compare("movedim(0, 2)", lambda lib, x: x.movedim(0, 2), ((2, 3, 4), "f", True)),
               *compare("movedim((0, 1), (2, 0))", lambda lib, x: lib.movedim(x, (0, 1), (2, 0)),
                        ((2, 3, 4), "f", True)),
               *compare("moveaxis", lambda lib, x: x.moveaxis(-1, 0), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("movedim", lambda t: t.movedim(0, -1), one(min_dims=2)),
           ]),
    OpInfo('msort',
           fuzz={"reduce": ["msort()"]},
           gradcheck=[
               *grad("msort", lambda t: t.msort(), distinct_matrix()),
           ]),
    OpInfo('mT', known=('warn-once',),
           fuzz={"shape": ["mT"]},
           vs_torch=[
               *compare(".mT", lambda lib, x: x.mT, ((2, 3, 4), "f", True)),
               *compare(".mT", lambda lib, x: x.mT, ((2, 3, 4), "f", True)),
           ]),
    OpInfo('mul', aliases=('__mul__', '__rmul__', 'multiply'),
           fuzz={"scalar": ["{v} * 2", "{v}.mul(-2)"], "binary": ["{a} * {b}", "{a}.mul({b})"]},
           vs_torch=[
               *broadcast("mul", lambda lib, a, b: a * b, "f"),
               *int_pair("mul", lambda lib, a, b: a * b),
               *mixed_float("mul", lambda lib, a, b: a * b),
               *mixed_float("mul", lambda lib, a, b: a * b, graph=True),
               *broadcast("torch.mul", lambda lib, a, b: lib.mul(a, b), "f"),
               *number_operand("x*3", lambda lib, x: x * 3),
               *number_operand("3*x", lambda lib, x: 3 * x),
               *number_operand("x*0.5", lambda lib, x: x * 0.5),
               *compare("int64*float_number", lambda lib, a: a * 0.5, ((3,), "int", False), dtypes=(F32,),
                        grad="sum"),
               *compare("int*float tensor", lambda lib, a, b: a * b, ((3,), "int", False), ((3,), "f", True),
                        dtypes=(F32,), grad="sum"),
               *compare("float*int tensor", lambda lib, a, b: b * a, ((3,), "int", False), ((3,), "f", True),
                        dtypes=(F32,), grad="sum"),
               *compare("bool*float tensor", lambda lib, a, b: a * b, ((3,), "bool", False),
                        ((3,), "f", True), dtypes=(F32,), grad="sum"),
               *check("zero_grad_sign", "x*0", lambda lib, x: x * 0),
               *check("zero_grad_sign", "mul by zero tensor",
                      lambda lib, x: x * lib.tensor([0.0, 1.0, 0.0, 1.0])),
               # a float32 tensor times a Python or NumPy float stays float32
               *fixed_inputs("x * python float", lambda lib, a: a * 2.123456789, np.ones(3, F32)),
               *fixed_inputs("x * numpy float64", lambda lib, a: a * np.float64(2.5), np.ones(3, F32)),
           ],
           gradcheck=[
               *grad_checks("mul", binary_checks(operator.mul, floats(-2, 2), floats(-2, 2))),
               *grad_checks("torch.mul",
                            binary_checks(lambda a, b: minigrad.mul(a, b), floats(-2, 2), floats(-2, 2))),
               *grad_checks("t*c", tensor_number_checks(lambda t, c: t * c, floats(-2, 2), NUMBERS)),
               *grad_checks("c*t", tensor_number_checks(lambda t, c: c * t, floats(-2, 2), NUMBERS)),
               *grad("mul", operator.mul, second_order_inputs(2, floats(-2, 2)), FEW, SECOND),
               *float32("t*2.5", lambda t: t * 2.5, floats(-2, 2)),
               *float32("t*0d-double", lambda t: t * minigrad.tensor(1.5, dtype=minigrad.float64),
                        floats(-2, 2)),
               *mixed_precision("mul", operator.mul, floats(-2, 2), floats(-2, 2)),
               *inplace_on_view("y[:, 1].mul_(v)", _written(lambda y, v: y[:, 1].mul_(v)), (2,)),
           ]),
    OpInfo('mv',
           vs_torch=[
               *compare("mv", lambda lib, a, b: lib.mv(a, b), *[(s, "f", True) for s in [(3, 4), (4,)]],
                        rng=4),
           ],
           gradcheck=[
               *grad("mv", lambda a, b: a.mv(b), matmul_pair((2, 3), (3,))),
           ]),
    OpInfo('nan_to_num', known=('sum-order',),
           fuzz={
                "unary": ["nan_to_num()", "nan_to_num(nan=0.0, posinf=1.0)",
                          "nan_to_num(posinf=2.0, neginf=-2.0)"],
           },
           vs_torch=[
               *compare("nan_to_num", lambda lib, x: x.log().nan_to_num(), ((2, 3), "f", True)),
               *compare("nan_to_num(posinf, neginf)",
                        lambda lib, x: lib.nan_to_num(1 / (x * 0), 0.5, 2.0, -2.0), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("nan_to_num", lambda t: t.nan_to_num() * 2, one()),
           ]),
    OpInfo('nanmean',
           fuzz={"reduce": ["nanmean()"], "dim": ["nanmean(dim={d}, keepdim={k})"]},
           gradcheck=[
               *grad("nanmean", lambda t: minigrad.nanmean(t.masked_fill(minigrad.tensor([True, False]), float("nan")), 1,
                                                          keepdim=True) * t, fixed((3, 2))),
           ]),
    OpInfo('nanmedian',
           fuzz={"reduce": ["nanmedian()"], "dim": ["nanmedian(dim={d}).values"]},
           gradcheck=[
               *grad("nanmedian()", lambda t: t.nanmedian() * t, distinct_matrix()),
               *grad("nanmedian(dim)", lambda t: minigrad.nanmedian(t, 1).values, distinct_matrix()),
           ]),
    OpInfo('nanquantile',
           fuzz={"dim": ["torch.nanquantile({v}, 0.7, dim={d}, keepdim={k})"]},
           gradcheck=[
               *grad("nanquantile(midpoint)", lambda t: t.nanquantile(0.4, 1, interpolation="midpoint"),
                     distinct_matrix()),
           ]),
    OpInfo('nansum',
           fuzz={"reduce": ["nansum()"], "dim": ["nansum(dim={d})"]},
           gradcheck=[
               *grad("nansum(dim)",
                     lambda t: t.masked_fill(minigrad.tensor([True, False]), float("nan")).nansum(0) * t[0],
                     fixed((3, 2))),
               *grad("nansum(dtype)", lambda t: minigrad.nansum(t, dtype=minigrad.float64), one()),
           ]),
    OpInfo('narrow',
           fuzz={"dim": ["narrow({d}, 0, 1)"]},
           vs_torch=[
               *compare("narrow(2, 1, 2)", lambda lib, x: x.narrow(2, 1, 2), ((2, 3, 4), "f", True)),
               *compare("narrow(-1, -2, 2)", lambda lib, x: lib.narrow(x, -1, -2, 2), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("narrow", lambda t: t.narrow(-1, 1, 1),
                     one(min_dims=1).filter(lambda a: a[0].shape[-1] >= 2)),
           ]),
    OpInfo('narrow_copy',
           gradcheck=[
               *grad("narrow_copy", lambda t: t.narrow_copy(1, 1, 2) ** 2, fixed((2, 3))),
           ]),
    OpInfo('neg', aliases=('__neg__', 'negative'),
           fuzz={"unary": ["neg()"], "scalar": ["-{v}"]},
           vs_torch=[
               *number_operand("-x", lambda lib, x: -x),
               *number_operand("neg", lambda lib, x: x.neg()),
               *number_operand("torch.neg", lambda lib, x: lib.neg(x)),
               *compare("int neg", lambda lib, a: -a, ((3,), "int", False), dtypes=(F32,), grad="sum"),
           ],
           gradcheck=[
               *grad("neg", lambda t: -t, one(floats(-3, 3)), PROFILE, FIRST),
               *grad("neg()", lambda t: t.neg(), one(floats(-3, 3)), PROFILE, FIRST),
               *float32("neg", lambda t: -t, floats(-2, 2)),
           ]),
    OpInfo('nextafter',
           gradcheck=[
               *grad("nextafter", lambda a, b: a.nextafter(b) * a, tie_free_pair()),
           ]),
    OpInfo('nn.functional.adaptive_avg_pool1d', aliases=('adaptive_avg_pool1d',),
           gradcheck=[
               *grad("adaptive_avg_pool1d", lambda t: F.adaptive_avg_pool1d(t, 3) ** 2, fixed((2, 2, 5))),
           ]),
    OpInfo('nn.functional.adaptive_avg_pool2d',
           gradcheck=[
               *grad("adaptive_avg_pool2d", lambda t: F.adaptive_avg_pool2d(t, (2, 1)) ** 2, fixed((2, 3, 3))),
           ]),
    OpInfo('nn.functional.adaptive_max_pool1d', aliases=('adaptive_max_pool1d',),
           gradcheck=[
               *grad("adaptive_max_pool1d", lambda t: F.adaptive_max_pool1d(t, 3) ** 2,
                     st.builds(lambda a: [a], distinct((2, 5)))),
               *grad("torch.adaptive_max_pool1d", lambda t: minigrad.adaptive_max_pool1d(t, 3)[0] ** 2,
                     st.builds(lambda a: [a], distinct((2, 5)))),
           ]),
    OpInfo('nn.functional.adaptive_max_pool2d',
           gradcheck=[
               *grad("adaptive_max_pool2d", lambda t: F.adaptive_max_pool2d(t, (2, 3)) ** 2,
                     st.builds(lambda a: [a], distinct((1, 2, 5, 4)))),
           ]),
    OpInfo('nn.functional.avg_pool1d', aliases=('avg_pool1d',),
           gradcheck=[
               *grad("avg_pool1d", lambda t: F.avg_pool1d(t, 3, 2, 1, count_include_pad=False) ** 2,
                     fixed((2, 6))),
           ]),
    OpInfo('nn.functional.avg_pool2d',
           gradcheck=[
               *grad("avg_pool2d", lambda t: F.avg_pool2d(t, 2, stride=1, padding=1) ** 2,
                     fixed((1, 2, 3, 3))),
           ]),
    OpInfo('nn.functional.batch_norm',
           gradcheck=[
               *grad("training", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True) ** 2,
                     spread((4, 3), (3,), (3,))),
           ]),
    OpInfo('nn.functional.binary_cross_entropy',
           gradcheck=[
               *grad("binary_cross_entropy",
                     lambda x, t: F.binary_cross_entropy(x.sigmoid(), t, reduction="none"),
                     probabilities_pair()),
               *grad("binary_cross_entropy(weight)", lambda x, t: F.binary_cross_entropy(
                       x.sigmoid(), t, weight=_ramp(x.shape[-1])), probabilities_pair()),
           ]),
    OpInfo('nn.functional.binary_cross_entropy_with_logits',
           gradcheck=[
               *grad("binary_cross_entropy_with_logits",
                     lambda x, t: F.binary_cross_entropy_with_logits(x, t, reduction="sum"),
                     probabilities_pair()),
               *grad("binary_cross_entropy_with_logits(pos_weight)", lambda x, t: F.binary_cross_entropy_with_logits(
                       x, t, pos_weight=_ramp(x.shape[-1]) * 2, reduction="none"), probabilities_pair()),
           ]),
    OpInfo('nn.functional.celu', aliases=('celu',), known=('elu-nan',),
           fuzz={"activation": ["celu({v})"]},
           gradcheck=[
               *grad("celu", lambda t: F.celu(t, 0.7), one(away(0.05, 2))),
               *grad("torch.celu", lambda t: minigrad.celu(t, 0.7), one(away(0.05, 2))),
           ]),
    OpInfo('nn.functional.conv1d', aliases=('conv1d',),
           gradcheck=[
               *grad("conv1d", lambda x, w, b: F.conv1d(x, w, b, padding=1) ** 2,
                     shaped((1, 2, 4), (2, 2, 2), (2,))),
           ]),
    OpInfo('nn.functional.conv2d', aliases=('conv2d',),
           gradcheck=[
               *grad("conv2d", lambda x, w, b: F.conv2d(x, w, b, padding=1) ** 2,
                     shaped((1, 1, 3, 3), (2, 1, 2, 2), (2,))),
           ]),
    OpInfo('nn.functional.conv_transpose1d', aliases=('conv_transpose1d',),
           gradcheck=[
               *grad("conv_transpose1d",
                     lambda x, w: F.conv_transpose1d(x, w, stride=2, dilation=2) * x.sum(),
                     st.builds(lambda *a: list(a), arrays((2, 2, 3)), arrays((2, 3, 2)))),
           ]),
    OpInfo('nn.functional.conv_transpose2d', aliases=('conv_transpose2d',),
           gradcheck=[
               *grad("conv_transpose2d",
                     lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=2),
                     st.builds(lambda *a: list(a), arrays((1, 4, 2, 3)), arrays((4, 1, 3, 2)), arrays((2,)))),
           ]),
    OpInfo('nn.functional.cosine_embedding_loss',
           gradcheck=[
               *grad("cosine_embedding_loss", lambda a, b: F.cosine_embedding_loss(
                       a, b, minigrad.tensor([1.0, -1, -1], dtype=minigrad.float64), margin=-2.0), st.builds(
                       lambda a, b: [a, b], arrays((3, 4), away(0.2, 2)), arrays((3, 4), away(0.2, 2)))),
           ]),
    OpInfo('nn.functional.cosine_similarity', aliases=('cosine_similarity',),
           gradcheck=[
               *grad("cosine_similarity", lambda a, b: F.cosine_similarity(a, b), st.builds(
                       lambda a, b: [a, b], arrays((3, 4), away(0.2, 2)), arrays((3, 4), away(0.2, 2)))),
           ]),
    OpInfo('nn.functional.cross_entropy',
           vs_torch=[
               *check("second_derivative", "cross_entropy",
                      lambda lib, x, v: lib.nn.functional.cross_entropy(x * v, lib.tensor([2, 0, 1, 1]))),
           ],
           gradcheck=[
               *grad("cross_entropy(probabilities, smoothing)",
                     lambda x, t: F.cross_entropy(x, t, label_smoothing=0.2), probabilities_pair()),
               *grad("cross_entropy(smoothing)",
                     lambda x: F.cross_entropy(x, minigrad.tensor([1, 0, -100]), label_smoothing=0.3),
                     fixed((3, 2))),
               *grad("cross_entropy(weight, ignore_index)", lambda x: F.cross_entropy(
                       x, minigrad.tensor([2, 0, 1, 2]), weight=_ramp(3), ignore_index=1), fixed((4, 3))),
           ]),
    OpInfo('nn.functional.elu', known=('elu-nan',),
           fuzz={"activation": ["elu({v})", "elu({v}, alpha=0.5)"]},
           gradcheck=[
               *grad("elu", lambda t: F.elu(t, 0.7), one(away(0.05, 2))),
           ]),
    OpInfo('nn.functional.embedding',
           gradcheck=[
               *grad("embedding", lambda w: F.embedding(EMB_IDX, w) ** 2, fixed((4, 2))),
           ]),
    OpInfo('nn.functional.fold',
           gradcheck=[
               *grad("fold", lambda t: F.fold(t, (3, 4), 2) ** 2, fixed((1, 8, 6))),
           ]),
    OpInfo('nn.functional.gaussian_nll_loss',
           gradcheck=[
               *grad("gaussian_nll_loss",
                     lambda a, t, v: F.gaussian_nll_loss(a, t, v.exp(), full=True, reduction="none"),
                     st.builds(lambda a, t, v: [a, t, v], arrays((2, 3)), arrays((2, 3)), arrays((2,)))),
           ]),
    OpInfo('nn.functional.gelu', known=('gelu-inf',),
           fuzz={"activation": ["gelu({v})", "gelu({v}, approximate='tanh')"]},
           gradcheck=[
               *grad("gelu", lambda t: F.gelu(t), one(floats(-3, 3))),
               *grad("gelu(tanh)", lambda t: F.gelu(t, approximate="tanh"), one(floats(-3, 3))),
           ]),
    OpInfo('nn.functional.glu',
           gradcheck=[
               *grad("glu", lambda t: F.glu(t, 0), fixed((4, 3))),
           ]),
    OpInfo('nn.functional.group_norm',
           gradcheck=[
               *grad("group_norm", lambda x, w, b: F.group_norm(x, 2, w, b) ** 2,
                     spread((2, 4, 3), (4,), (4,))),
               *grad("group_norm(no affine)", lambda x: F.group_norm(x, 3) * x, spread((2, 6, 2))),
           ]),
    OpInfo('nn.functional.gumbel_softmax',
           gradcheck=[
               *grad("gumbel_softmax(seeded)",
                     lambda x: (minigrad.manual_seed(0), F.gumbel_softmax(x, tau=0.5))[1], fixed((2, 3))),
           ]),
    OpInfo('nn.functional.hardshrink', aliases=('hardshrink',), known=('shrink-nan',),
           fuzz={"activation": ["hardshrink({v})"]},
           gradcheck=[
               *grad("hardshrink", lambda t: F.hardshrink(t) ** 2, one(off_the_grid(-2, 2, step=0.5))),
               *grad("torch.hardshrink", lambda t: minigrad.hardshrink(t, 0.5) ** 2,
                     one(off_the_grid(-2, 2, step=0.5))),
           ]),
    OpInfo('nn.functional.hardsigmoid',
           gradgrad=False,  # PyTorch has no derivative of hardsigmoid_backward
           fuzz={"activation": ["hardsigmoid({v})"]},
           gradcheck=[
               # first order only: PyTorch has no derivative of hardsigmoid_backward (the refusal is compared in
               # tests/ops/test_random_and_promotion.py)
               *grad("x * hardsigmoid(x)", lambda t: F.hardsigmoid(t) * t, one(off_the_grid(-5, 5)),
                     orders=FIRST),
           ]),
    OpInfo('nn.functional.hardswish', known=('elu-nan',),
           fuzz={"activation": ["hardswish({v})"]},
           gradcheck=[
               *grad("hardswish", lambda t: F.hardswish(t), one(off_the_grid(-5, 5))),
           ]),
    OpInfo('nn.functional.hardtanh', known=('shrink-nan',),
           fuzz={"activation": ["hardtanh({v})"]},
           gradcheck=[
               *grad("hardtanh", lambda t: F.hardtanh(t, -1.0, 2.0) ** 2, one(off_the_grid(-3, 3))),
           ]),
    OpInfo('nn.functional.hinge_embedding_loss',
           gradcheck=[
               *grad("hinge_embedding_loss", lambda x: F.hinge_embedding_loss(x, minigrad.tensor(
                       [[1.0, -1, -1], [-1, 1, -1]], dtype=minigrad.float64), margin=0.5, reduction="none") ** 2, fixed((2, 3), off_the_grid(-2, 2))),
           ]),
    OpInfo('nn.functional.huber_loss', known=('sgn-zeros',),
           gradcheck=[
               *grad("huber_loss", lambda x, t: F.huber_loss(x, t, delta=0.5, reduction="sum"), loss_pair()),
               *grad("huber_loss(none)", lambda x, t: F.huber_loss(x, t, reduction="none"), loss_pair()),
           ]),
    OpInfo('nn.functional.instance_norm',
           gradcheck=[
               *grad("instance_norm", lambda x, w, b: F.instance_norm(x, weight=w, bias=b) ** 2,
                     spread((2, 3, 4), (3,), (3,))),
           ]),
    OpInfo('nn.functional.interpolate', covers=('nn.functional.upsample', 'nn.functional.upsample_bilinear', 'nn.functional.upsample_nearest'),
           gradcheck=[
               *grad("interpolate(nearest)", lambda t: F.interpolate(t, scale_factor=1.7) ** 2,
                     fixed((1, 2, 3, 4))),
               *grad("interpolate(nearest-exact)",
                     lambda t: F.interpolate(t, size=3, mode="nearest-exact") ** 2, fixed((2, 1, 5))),
               *grad("interpolate(linear)", lambda t: F.interpolate(t, size=7, mode="linear") ** 2,
                     fixed((1, 2, 3))),
               *grad("interpolate(bilinear)", lambda t: F.interpolate(t, size=(4, 3), mode="bilinear") ** 2,
                     fixed((1, 1, 3, 5))),
               *grad("interpolate(bilinear, align_corners)", lambda t: F.interpolate(t, scale_factor=2, mode="bilinear",
                                                                                    align_corners=True) ** 2, fixed((1, 2, 2, 3))),
               *grad("upsample", lambda t: _quiet(F.upsample, t, scale_factor=2) ** 2, fixed((1, 2, 3))),
               *grad("upsample_nearest", lambda t: _quiet(F.upsample_nearest, t, size=(3, 4)) ** 2,
                     fixed((1, 1, 2, 3))),
               *grad("upsample_bilinear", lambda t: _quiet(F.upsample_bilinear, t, scale_factor=2) ** 2,
                     fixed((1, 1, 2, 3))),
           ]),
    OpInfo('nn.functional.kl_div',
           gradcheck=[
               *grad("kl_div", lambda x, t: F.kl_div(x.log_softmax(-1), t, reduction="batchmean"),
                     probabilities_pair()),
               *grad("kl_div(log_target)",
                     lambda x, t: F.kl_div(x, t.log(), reduction="sum", log_target=True),
                     probabilities_pair()),
           ]),
    OpInfo('nn.functional.l1_loss', known=('sgn-zeros',),
           gradcheck=[
               *grad("l1_loss", lambda x, t: F.l1_loss(x, t), loss_pair()),
           ]),
    OpInfo('nn.functional.layer_norm',
           gradcheck=[
               *grad("layer_norm", lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b), rows_and_affine()),
               *grad("layer_norm(no affine)", lambda x: F.layer_norm(x, x.shape[-1:]) * x, fixed((2, 3))),
           ]),
    OpInfo('nn.functional.leaky_relu',
           fuzz={"activation": ["leaky_relu({v})", "leaky_relu({v}, 0.2)"]},
           gradcheck=[
               *grad("leaky_relu", lambda t: F.leaky_relu(t, 0.2), one(away(0.05, 2))),
           ]),
    OpInfo('nn.functional.linear',
           gradcheck=[
               *grad("linear", lambda x, w, b: F.linear(x, w, b), shaped((2, 3), (4, 3), (4,))),
               *grad("linear, no bias", lambda x, w: F.linear(x, w) ** 2, shaped((3,), (2, 3))),
           ]),
    OpInfo('nn.functional.local_response_norm',
           gradcheck=[
               *grad("local_response_norm", lambda x: F.local_response_norm(x, 3, alpha=0.5, k=1.5),
                     shaped((2, 4, 2))),
           ]),
    OpInfo('nn.functional.logsigmoid',
           fuzz={"activation": ["logsigmoid({v})"]},
           gradcheck=[
               *grad("logsigmoid", lambda t: F.logsigmoid(t), one(floats(-5, 5))),
           ]),
    OpInfo('nn.functional.margin_ranking_loss',
           gradcheck=[
               *grad("margin_ranking_loss", lambda a, b: F.margin_ranking_loss(
                       a, b, minigrad.tensor([1.0, -1, 1, -1], dtype=minigrad.float64), margin=0.5, reduction="none") ** 2, st.builds(lambda a, b: [a, b], arrays((4,), off_the_grid(-2, 2)), arrays((4,), off_the_grid(-2, 2)))),
           ]),
    OpInfo('nn.functional.max_pool1d', covers=('max_pool1d_with_indices',), aliases=('max_pool1d',),
           gradcheck=[
               *grad("max_pool1d", lambda t: F.max_pool1d(t, 3, 2, 1) ** 2,
                     st.builds(lambda a: [a], distinct((2, 2, 7)))),
               *grad("torch.max_pool1d", lambda t: minigrad.max_pool1d(t, 3, 2, 1) ** 2,
                     st.builds(lambda a: [a], distinct((2, 2, 7)))),
               *grad("max_pool1d_with_indices",
                     lambda t: minigrad.max_pool1d_with_indices(t, 3, 2, 1)[0] ** 2,
                     st.builds(lambda a: [a], distinct((2, 7)))),
           ]),
    OpInfo('nn.functional.max_pool2d', aliases=('max_pool2d',),
           gradcheck=[
               *grad("max_pool2d", lambda t: F.max_pool2d(t, 2) ** 2,
                     st.builds(lambda a: [a], distinct((1, 2, 4, 4)))),
               *grad("torch.max_pool2d", lambda t: minigrad.max_pool2d(t, 2) ** 2,
                     st.builds(lambda a: [a], distinct((1, 2, 4, 4)))),
           ]),
    OpInfo('nn.functional.mish',
           fuzz={"activation": ["mish({v})"]},
           gradcheck=[
               *grad("mish", lambda t: F.mish(t), one(floats(-4, 4))),
           ]),
    OpInfo('nn.functional.mse_loss',
           gradcheck=[
               *grad("mse_loss", lambda x, t: F.mse_loss(x, t), loss_pair()),
               *grad("mse_loss(none)", lambda x, t: F.mse_loss(x, t, reduction="none"), loss_pair()),
           ]),
    OpInfo('nn.functional.multi_margin_loss',
           gradgrad=False,  # PyTorch does not differentiate its gradient
           gradcheck=[
               *grad("multi_margin_loss", lambda x: F.multi_margin_loss(x, minigrad.tensor([0, 2, 1])),
                     fixed((3, 4), off_the_grid(-2, 2)), orders=FIRST),
               *grad("multi_margin_loss(p=2, weight)", lambda x: F.multi_margin_loss(
                       x, minigrad.tensor([0, 2, 1]), p=2, margin=0.5, weight=_ramp(4), reduction="none"), fixed((3, 4), off_the_grid(-2, 2)), orders=FIRST),
           ]),
    OpInfo('nn.functional.multilabel_margin_loss',
           gradgrad=False,  # PyTorch does not differentiate its gradient
           gradcheck=[
               *grad("multilabel_margin_loss", lambda x: F.multilabel_margin_loss(
                       x * 0.7, minigrad.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [2, 2, -1, 0]]), reduction="sum"), fixed((3, 4), off_the_grid(-2, 2)), orders=FIRST),
           ]),
    OpInfo('nn.functional.multilabel_soft_margin_loss',
           gradcheck=[
               *grad("multilabel_soft_margin_loss",
                     lambda x, t: F.multilabel_soft_margin_loss(x, t, weight=_ramp(x.shape[-1])),
                     probabilities_pair()),
           ]),
    OpInfo('nn.functional.nll_loss',
           vs_torch=[
               *check("second_derivative", "nll mean",
                      lambda lib, x, v: lib.nn.functional.nll_loss(x * v, lib.tensor([0, 2, 1, 2]))),
               *check("second_derivative", "nll sum",
                      lambda lib, x, v: lib.nn.functional.nll_loss(x * v, lib.tensor([1, 0, 0, 2]), reduction="sum")),
               *check("second_derivative", "nll none", lambda lib, x, v: (lib.nn.functional.nll_loss(x * v, lib.tensor([1, 0, 0, 2]),
                                                                             reduction="none") ** 2).sum()),
               *check("second_derivative", "nll weight", lambda lib, x, v: lib.nn.functional.nll_loss(
                       x * v, lib.tensor([1, 0, 0, 2]), weight=lib.tensor([0.5, 2.0, 1.0], dtype=lib.float64))),
           ],
           gradcheck=[
               *grad("nll_loss(2-D, none)", lambda x: F.nll_loss(x.log_softmax(1), minigrad.tensor([[[0, 2]], [[1, 1]]]),
                                                                reduction="none"), fixed((2, 3, 1, 2))),
           ]),
    OpInfo('nn.functional.normalize',
           fuzz={"dim": ["torch.nn.functional.normalize({v}, dim={d})"]}),
    OpInfo('nn.functional.pad',
           fuzz={
                "shape": ["torch.nn.functional.pad({v}, (1, 1))",
                          "torch.nn.functional.pad({v}, (0, 2), value=-1.5)"],
           },
           gradcheck=[
               *grad("pad", lambda t: F.pad(t, (1, -1, 0, 2), value=0.5) ** 2, fixed((2, 3, 2))),
               *grad("pad(reflect)", lambda t: F.pad(t, (2, 1, 1, 0), mode="reflect") ** 2,
                     fixed((1, 2, 3, 3))),
               *grad("pad(replicate)", lambda t: F.pad(t, (2, -1), mode="replicate") ** 2, fixed((2, 3))),
               *grad("pad(circular)", lambda t: F.pad(t, (1, 2, 2, 0), mode="circular") ** 2,
                     fixed((1, 1, 2, 3))),
           ]),
    OpInfo('nn.functional.pairwise_distance', aliases=('pairwise_distance',),
           gradcheck=[
               *grad("pairwise_distance", lambda a, b: F.pairwise_distance(a, b), st.builds(
                       lambda a, d: [a, a + d], arrays((3, 4)), arrays((3, 4), off_the_grid(-2, 2, 0.5)))),
               *grad("pairwise_distance(p=3)", lambda a, b: F.pairwise_distance(a, b, 3, keepdim=True), st.builds(
                       lambda a, d: [a, a + d], arrays((2, 3)), arrays((2, 3), off_the_grid(-2, 2, 0.5)))),
           ]),
    OpInfo('nn.functional.pdist', aliases=('pdist',),
           gradgrad=False,  # PyTorch does not differentiate its gradient
           gradcheck=[
               *grad("pdist", lambda x: F.pdist(x), st.builds(lambda a: [a], distinct((4, 3))), orders=FIRST),
               *grad("pdist(p=1)", lambda x: F.pdist(x, 1), st.builds(lambda a: [a], distinct((3, 2))),
                     orders=FIRST),
               *grad("pdist(p=3)", lambda x: F.pdist(x, 3), st.builds(lambda a: [a], distinct((3, 2))),
                     orders=FIRST),
           ]),
    OpInfo('nn.functional.pixel_shuffle', aliases=('pixel_shuffle',),
           gradcheck=[
               *grad("pixel_shuffle", lambda t: F.pixel_shuffle(t, 2) ** 2, fixed((1, 4, 2, 3))),
           ]),
    OpInfo('nn.functional.pixel_unshuffle', aliases=('pixel_unshuffle',),
           gradcheck=[
               *grad("pixel_unshuffle", lambda t: F.pixel_unshuffle(t, 2) ** 2, fixed((2, 1, 2, 4))),
           ]),
    OpInfo('nn.functional.poisson_nll_loss',
           gradcheck=[
               *grad("poisson_nll_loss", lambda x: F.poisson_nll_loss(x, _ramp(x.shape[-1]) * 2),
                     fixed((2, 3))),
               *grad("poisson_nll_loss(rates, full)", lambda x: F.poisson_nll_loss(
                       x.exp(), _ramp(x.shape[-1]) * 2, log_input=False, full=True, reduction="sum"), fixed((2, 3))),
           ]),
    OpInfo('nn.functional.prelu', aliases=('prelu',),
           gradcheck=[
               *grad("prelu", lambda x, w: F.prelu(x, w), st.builds(lambda a, b: [a, b], arrays((2, 3, 2), away(0.05, 2)),
                                                                   arrays((3,)))),
               *grad("prelu(one slope)", lambda x, w: F.prelu(x, w) ** 2, st.builds(lambda a, b: [a, b], arrays((4,), away(0.05, 2)),
                                                                                   arrays((1,)))),
               *grad("torch.prelu", lambda x, w: minigrad.prelu(x, w),
                     st.builds(lambda a, b: [a, b], arrays((2, 3, 2), away(0.05, 2)), arrays((3,)))),
           ]),
    OpInfo('nn.functional.relu6', known=('shrink-nan',),
           fuzz={"activation": ["relu6({v})"]},
           gradcheck=[
               *grad("relu6", lambda t: F.relu6(t) * t, one(off_the_grid(-3, 8))),
           ]),
    OpInfo('nn.functional.rms_norm',
           gradcheck=[
               *grad("rms_norm", lambda x, w: F.rms_norm(x, (3,), w) ** 2, spread((2, 3), (3,))),
           ]),
    OpInfo('nn.functional.rrelu',
           gradcheck=[
               *grad("rrelu(eval)", lambda t: F.rrelu(t, 0.1, 0.4) ** 2, one(away(0.05, 2))),
           ]),
    OpInfo('nn.functional.scaled_dot_product_attention',
           gradcheck=[
               *grad("scaled_dot_product_attention(3-D, float mask)", lambda q, k, v, m: F.scaled_dot_product_attention(
                       q, k, v, attn_mask=m) ** 2, shaped((2, 3, 2), (2, 4, 2), (2, 4, 3), (3, 4))),
               *grad("plain", lambda q, k, v: F.scaled_dot_product_attention(q, k, v) ** 2,
                     shaped((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)), orders=FIRST),
               *grad("causal, mask, scale", lambda q, k, v: F.scaled_dot_product_attention(
                       q, k, v, attn_mask=SDPA_MASK, is_causal=True, scale=0.7) ** 2, shaped((2, 1, 3, 2), (2, 1, 4, 2), (2, 1, 4, 2)), orders=FIRST),
               *grad("gqa", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True) ** 2,
                     shaped((1, 4, 2, 3), (1, 2, 3, 3), (1, 2, 3, 3)), orders=FIRST),
           ]),
    OpInfo('nn.functional.selu', aliases=('selu',), known=('elu-nan',),
           fuzz={"activation": ["selu({v})"]},
           gradcheck=[
               *grad("selu", lambda t: F.selu(t), one(away(0.05, 2))),
               *grad("torch.selu", lambda t: minigrad.selu(t), one(away(0.05, 2))),
           ]),
    OpInfo('nn.functional.silu',
           fuzz={"activation": ["silu({v})"]},
           gradcheck=[
               *grad("silu", lambda t: F.silu(t), one(floats(-4, 4))),
           ]),
    OpInfo('nn.functional.smooth_l1_loss', known=('sgn-zeros',),
           gradcheck=[
               *grad("smooth_l1_loss", lambda x, t: F.smooth_l1_loss(x, t, beta=0.5, reduction="none"),
                     loss_pair()),
               *grad("smooth_l1_loss(mean)", lambda x, t: F.smooth_l1_loss(x, t), loss_pair()),
           ]),
    OpInfo('nn.functional.soft_margin_loss',
           gradcheck=[
               *grad("soft_margin_loss", lambda x: F.soft_margin_loss(x, minigrad.tensor(
                       [[1.0, -1, 1], [-1, -1, 1]], dtype=minigrad.float64)), fixed((2, 3))),
               *grad("soft_margin_loss(none)", lambda x: F.soft_margin_loss(x, minigrad.tensor(
                       [[1.0, -1, 1], [-1, -1, 1]], dtype=minigrad.float64), reduction="none"), fixed((2, 3))),
           ]),
    OpInfo('nn.functional.softmin',
           fuzz={"activation": ["softmin({v}, dim=0)"]}),
    OpInfo('nn.functional.softplus',
           fuzz={"activation": ["softplus({v})", "softplus({v}, beta=2.0, threshold=1.0)"]},
           gradcheck=[
               *grad("softplus", lambda t: F.softplus(t, beta=2.0, threshold=3.0),
                     one(off_the_grid(-3, 3, step=1.5))),
           ]),
    OpInfo('nn.functional.softshrink', known=('shrink-nan',),
           fuzz={"activation": ["softshrink({v}, 0.3)"]},
           gradcheck=[
               *grad("softshrink", lambda t: F.softshrink(t, 0.5) ** 2, one(off_the_grid(-2, 2, step=0.5))),
           ]),
    OpInfo('nn.functional.softsign',
           fuzz={"activation": ["softsign({v})"]},
           gradcheck=[
               *grad("softsign", lambda t: F.softsign(t), one(away(0.05, 3))),
           ]),
    OpInfo('nn.functional.tanhshrink',
           fuzz={"activation": ["tanhshrink({v})"]},
           gradcheck=[
               *grad("tanhshrink", lambda t: F.tanhshrink(t), one(floats(-3, 3))),
           ]),
    OpInfo('nn.functional.threshold', aliases=('threshold',),
           fuzz={"activation": ["threshold({v}, 0.1, -1.0)"]},
           gradcheck=[
               *grad("threshold", lambda t: F.threshold(t, 0.5, -1.0) ** 2,
                     one(off_the_grid(-2, 2, step=0.5))),
               *grad("torch.threshold", lambda t: minigrad.threshold(t, 0.5, -1.0) ** 2,
                     one(off_the_grid(-2, 2, step=0.5))),
           ]),
    OpInfo('nn.functional.triplet_margin_loss', covers=('nn.functional.triplet_margin_with_distance_loss',),
           gradcheck=[
               *grad("triplet_margin_loss", lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=0.37, reduction="none") ** 2, st.builds(lambda a, d, e: [a, a + d, a + e], arrays((2, 3)),
                                                     arrays((2, 3), off_the_grid(-2, 2, 0.5)),
                                                     arrays((2, 3), off_the_grid(-2, 2, 0.5)))),
               *grad("triplet_margin_with_distance_loss",
                     lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, margin=0.37, reduction="none") ** 2,
                     st.builds(lambda a, d, e: [a, a + d, a + e], arrays((2, 3)), arrays((2, 3), off_the_grid(-2, 2, 0.5)), arrays((2, 3), off_the_grid(-2, 2, 0.5)))),
           ]),
    OpInfo('nn.functional.unfold',
           gradcheck=[
               *grad("unfold", lambda t: F.unfold(t, 2, padding=1, stride=(1, 2)) ** 2, fixed((1, 2, 3, 3))),
           ]),
    OpInfo('nn.GRUCell',
           gradcheck=[
               *grad("gru_cell", lambda x, h, *w: _RNN.cell("GRU", x, h, *w), rnn_cell_case(3, 1, 1, 1)),
           ]),
    OpInfo('nn.LSTM',
           gradcheck=[
               *grad("mkldnn_rnn_layer", _lstm_layer(False), lstm_layer_case(), orders=FIRST),
               *grad("mkldnn_rnn_layer reverse", _lstm_layer(True), lstm_layer_case(), orders=FIRST),
               # (second order on a smaller layer: its cost grows with the square of the inputs)
               *grad("mkldnn_rnn_layer (small)", _lstm_layer(False), lstm_layer_case(2, 1, 1), orders=SECOND),
               *grad("mkldnn_rnn_layer reverse (small)", _lstm_layer(True), lstm_layer_case(2, 1, 1), orders=SECOND),
           ]),
    OpInfo('nn.LSTMCell',
           gradcheck=[
               *grad("lstm_cell", lambda x, h, c, *w: _weighted(_RNN.cell("LSTM", x, (h, c), *w)),
                     rnn_cell_case(4, 2, 1, 1)),
           ]),
    OpInfo('nn.RNNCell',
           gradcheck=[
               *grad("rnn_tanh_cell", lambda x, h, *w: _RNN.cell("RNN_TANH", x, h, *w), rnn_cell_case(1, 1)),
           ]),
    OpInfo('norm', known=('sgn-zeros',),
           fuzz={
                "reduce": ["norm()", "norm(p=1)", "norm(p=3)", "norm(p=float('inf'))"],
                "dim": ["norm(dim={d})", "norm(p=1, dim={d}, keepdim={k})"],
           },
           vs_torch=[
               *reduction("norm()", lambda lib, x: x.norm()),
               *reduction("norm(dim=1)", lambda lib, x: x.norm(dim=1)),
               *reduction("torch.norm(x, 2, (0, 2), keepdim)", lambda lib, x: lib.norm(x, 2, (0, 2), True)),
               *compare("norm(p=1)", lambda lib, x: x.norm(p=1), ((2, 3, 4), "f", True)),
               *compare("norm(3, dim=1)", lambda lib, x: x.norm(3, dim=1), ((2, 3, 4), "f", True)),
               *compare("norm(inf, dim=-1, keepdim)",
                        lambda lib, x: lib.norm(x, float("inf"), dim=-1, keepdim=True),
                        ((2, 3, 4), "f", True)),
               *compare("norm(0)", lambda lib, x: x.norm(0), ((2, 3, 4), "f", True)),
               *compare("norm(dim=(0, 2))", lambda lib, x: x.norm(dim=(0, 2)), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("norm(p=1)", lambda t: t.norm(p=1), one(away(0.2, 2), min_dims=1)),
               *grad("norm(p=3, dim)", lambda t: t.norm(3, dim=-1), one(away(0.2, 2), min_dims=1)),
               # (|x| distinct, >= 0.5, of either sign: each row's largest |x| is unique. distinct
               # values alone can tie in |x|, -0.5 and 0.5, where the norm has a kink)
               *grad("norm(inf)", lambda t: t.norm(float("inf"), dim=1),
                     st.builds(lambda a, signs: [(a - a.min() + 0.5) * signs], distinct((2, 3)),
                               hnp.arrays(np.float64, (2, 3), elements=st.sampled_from([-1.0, 1.0])))),
               # (|x| >= 0.5: no kink)
               *grad("norm(-inf)", lambda t: t.norm(float("-inf"), dim=1) + t.norm(-float("inf")),
                     st.builds(lambda a: [a - a.min() + 0.5], distinct((2, 3)))),
           ]),
    OpInfo('outer', aliases=('ger',),
           vs_torch=[
               *broadcast("outer", lambda lib, a, b: lib.outer(a.flatten(), b.flatten()), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
               *compare("outer", lambda lib, a, b: a.outer(b), *[(s, "f", True) for s in [(3,), (4,)]], rng=4),
           ],
           gradcheck=[
               *grad("outer", lambda a, b: a.outer(b), matmul_pair((3,), (2,))),
           ]),
    OpInfo('permute',
           fuzz={"shape": ["permute(*reversed(range({ndim})))"]},
           vs_torch=[
               *compare("permute(2, 0, 1)", lambda lib, x: x.permute(2, 0, 1), ((2, 3, 4), "f", True)),
               *compare("permute((1, 2, 0))", lambda lib, x: x.permute((1, 2, 0)), ((2, 3, 4), "f", True)),
               *compare("torch.permute", lambda lib, x: lib.permute(x, (2, 1, 0)), ((2, 3, 4), "f", True)),
               *compare(".T (3-D)", lambda lib, x: x.permute(2, 1, 0), ((2, 3, 4), "f", True)),
               *compare("permute(()) of 0-d", lambda lib, x: x.permute(()), ((), "f", True)),
           ]),
    OpInfo('polygamma', aliases=('special.polygamma',),
           gradcheck=[
               *grad("polygamma", lambda t: t.polygamma(1) + minigrad.polygamma(2, t), one(floats(0.5, 4))),
               *grad("special.polygamma", lambda t: minigrad.special.polygamma(1, t), one(floats(0.5, 4)),
                     PROFILE, FIRST),
           ]),
    OpInfo('positive',
           gradcheck=[
               *grad("positive", lambda t: t.positive() * t, one()),
           ]),
    OpInfo('pow', aliases=('__pow__', '__rpow__'),
           fuzz={
                "unary": ["pow(2)", "pow(0.5)", "pow(-1)", "pow(3)", "pow(0)"],
                "scalar": ["2.0 ** {v}", "{v} ** 2"],
                "binary": ["{a} ** {b}"],
           },
           vs_torch=[
               *broadcast("pow", lambda lib, a, b: a ** b, "pos"),
               *int_pair("pow", lambda lib, a, b: a ** b),
               *number_operand("x**2", lambda lib, x: x ** 2),
               *number_operand("x**3", lambda lib, x: x ** 3),
               *number_operand("x**0.5", lambda lib, x: x ** 0.5),
               *number_operand("x**-1", lambda lib, x: x ** -1, ints=False),
               *number_operand("x**0", lambda lib, x: x ** 0),
               *number_operand("2**x", lambda lib, x: 2 ** x),
               *number_operand("2.5**x", lambda lib, x: 2.5 ** x),
               *check("zero_grad_sign", "x**0", lambda lib, x: x ** 0),
               *compare("pow_ of clone", lambda lib, x: x.clone().pow_(2), ((2, 3), "f", True)),
               *broadcast("pow(number, tensor)", lambda lib, a, b: lib.pow(2.0, a) * b, shapes=FEW_SHAPES,
                          flags=("both_rg",)),
           ],
           gradcheck=[
               # tensor exponent, positive base
               *grad_checks("pow", binary_checks(operator.pow, floats(0.5, 2), floats(-2, 2))),
               *grad_checks("torch.pow",
                            binary_checks(lambda a, b: minigrad.pow(a, b), floats(0.5, 2), floats(-2, 2))),
               *grad_checks("t**c", tensor_number_checks(lambda t, c: t ** c, floats(0.5, 2), NUMBERS)),
               *grad_checks("c**t", tensor_number_checks(lambda t, c: c ** t, floats(-2, 2), st.one_of(st.sampled_from([2, 3, math.e]),
                                                                            floats(0.2, 4)))),
               *grad("pow(tensor)", operator.pow, second_order_inputs(2, floats(0.5, 2)), FEW, SECOND),
               *grad("pow(number)", lambda t: t ** 3 + t ** -1.5 + t ** 0.5,
                     second_order_inputs(1, floats(0.5, 2)), FEW, SECOND),
               *grad("rpow", lambda t: 2.5 ** t, second_order_inputs(1, floats(-2, 2)), FEW, SECOND),
               *float32("t**2.5", lambda t: t ** 2.5, floats(0.2, 2)),
               *float32("t**2", lambda t: t ** 2, floats(-2, 2)),
               *float32("2.0**t", lambda t: 2.0 ** t, floats(-2, 2)),
               *float32("2**t", lambda t: 2 ** t, floats(-2, 2)),
               *mixed_precision("pow", operator.pow, floats(0.5, 2), floats(-2, 2)),
               *grad_checks("t ** number, t.pow(number)", pow_number_checks()),
           ]),
    OpInfo('prod',
           fuzz={"reduce": ["prod()"], "dim": ["prod(dim={d}, keepdim={k})", "prod({d})"]},
           vs_torch=[
               *fixed_inputs("prod, int64", lambda lib, x: x.prod(), INTS, requires_grad=False),
               *compare("prod()", lambda lib, x: x.prod(), ((2, 3, 4), "f", True)),
               *compare("prod(1)", lambda lib, x: x.prod(1), ((2, 3, 4), "f", True)),
               *compare("torch.prod(x, -1, keepdim)", lambda lib, x: lib.prod(x, -1, keepdim=True),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("prod()", lambda t: t.prod(), one(away(0.3, 1.5), max_dims=2)),
               *grad("prod(dim)", lambda t: t.prod(-1), one(away(0.3, 1.5), min_dims=1, max_dims=2)),
               *grad("prod(dim, keepdim)", lambda t: minigrad.prod(t, 0, keepdim=True),
                     one(away(0.3, 1.5), 1, 2)),
           ]),
    OpInfo('put',
           gradcheck=[
               *grad("put", lambda x, s: x.put(minigrad.tensor([0, -1, 5]), s[0, :3]) ** 2, _self_and_src()),
               *grad("put(accumulate)",
                     lambda x, s: minigrad.put(x, minigrad.tensor([[0, 5], [0, -1]]), s[:2, :2], True) ** 2,
                     _self_and_src()),
           ]),
    OpInfo('quantile',
           fuzz={"dim": ["torch.quantile({v}, 0.3, dim={d})"]},
           gradcheck=[
               *grad("quantile", lambda t: t.quantile(0.3) * t, distinct_matrix()),
               *grad("quantile(q tensor, dim)", lambda t: minigrad.quantile(t, minigrad.tensor([0.2, 0.9], dtype=minigrad.float64),
                                                                           dim=0, keepdim=True), distinct_matrix()),
           ]),
    OpInfo('rad2deg',
           fuzz={"unary": ["rad2deg()"]}),
    OpInfo('ravel',
           fuzz={"shape": ["ravel()"]}),
    OpInfo('reciprocal',
           fuzz={"unary": ["reciprocal()"]},
           vs_torch=[
               *unary("reciprocal", lambda lib, x: x.reciprocal(), "pos"),
           ],
           gradcheck=[
               *grad("reciprocal", lambda t: t.reciprocal(), one(away(0.3, 3)), PROFILE, FIRST),
               *grad("reciprocal", lambda t: 3 / t, second_order_inputs(1, away(0.5, 2)), FEW, SECOND),
           ]),
    OpInfo('relu', aliases=('nn.functional.relu',),
           fuzz={"unary": ["relu()"], "scalar": ["torch.relu({v})", "torch.nn.functional.relu({v})"]},
           vs_torch=[
               *compare("int relu", lambda lib, a: a.relu(), ((3,), "int", False), dtypes=(F32,), grad="sum"),
               *unary("relu", lambda lib, x: x.relu(), "f"),
               *unary("torch.relu", lambda lib, x: lib.relu(x), "f"),
               *check("zero_grad_sign", "relu", lambda lib, x: x.relu()),
               *check("second_derivative", "relu", lambda lib, x, v: (x.relu() * v).sum()),
               # the subgradient PyTorch picks at 0: relu' = 0
               *fixed_inputs("at 0", lambda lib, x: x.relu(), np.array([-1.0, 0.0, 2.0], F32), marks=QUIET),
           ],
           gradcheck=[
               *grad("relu", lambda t: t.relu(), one(away(0.05, 3)), PROFILE, FIRST),
               *grad("torch.relu", lambda t: minigrad.relu(t), one(away(0.05, 3)), PROFILE, FIRST),
               *float32("relu", lambda t: t.relu(), away(0.1, 2)),
           ]),
    OpInfo('remainder', aliases=('__mod__', '__rmod__'),
           fuzz={
                "scalar": ["{v} % 1.5", "{v}.remainder(1.5)"],
                "binary": ["{a} % {b}", "{a}.remainder({b})"],
           },
           vs_torch=[
               *compare("x % 0.7", lambda lib, x: x % 0.7, ((2, 3), "f", True)),
               *compare("remainder(x, 0.7)", lambda lib, x: lib.remainder(x, 0.7), ((2, 3), "f", True)),
               *fixed_inputs("x % 3, int64", lambda lib, x: x % 3, INTS, requires_grad=False),
               *fixed_inputs("7 % x (x > 0), int64", lambda lib, x: 7 % (x.abs() + 1), INTS,
                             requires_grad=False),
               *broadcast("a % b", lambda lib, a, b: a % (b.abs() + 0.5), shapes=FEW_SHAPES,
                          flags=("both_rg",)),
           ],
           gradcheck=[
               *grad("remainder", lambda a, b: a % b, remainder_case()),
           ]),
    OpInfo('renorm',
           fuzz={"dim": ["renorm(2, {d}, 1.0)"]},
           gradcheck=[
               *grad("renorm", lambda t: t.renorm(2, 0, 1.5), fixed((3, 2), away(0.5, 2))),
               *grad("renorm(p=1, dim=1)", lambda t: minigrad.renorm(t, 1, 1, 0.8),
                     fixed((2, 3), away(0.5, 2))),
           ]),
    OpInfo('repeat',
           fuzz={"shape": ["repeat(2, *[1] * {ndim})"]},
           vs_torch=[
               *compare("repeat(2, 1, 3)", lambda lib, x: x.repeat(2, 1, 3), ((2, 3, 4), "f", True)),
               *compare("repeat((1, 2, 1, 1))", lambda lib, x: x.repeat((1, 2, 1, 1)), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("repeat", lambda t: t.repeat(2, 1, 2), matrix()),
           ]),
    OpInfo('repeat_interleave',
           gradcheck=[
               *grad("repeat_interleave", lambda t: t.repeat_interleave(2, dim=0) ** 2, one(min_dims=1)),
               *grad("torch.repeat_interleave(repeats tensor)",
                     lambda t: minigrad.repeat_interleave(t, minigrad.tensor([1, 0, 2]), dim=1) ** 2,
                     fixed((2, 3))),
           ]),
    OpInfo('reshape',
           fuzz={"shape": ["reshape(-1)", "reshape({shape})"]},
           vs_torch=[
               *compare("reshape(3, 8)", lambda lib, x: x.reshape(3, 8), ((2, 3, 4), "f", True)),
               *compare("reshape((4, -1))", lambda lib, x: x.reshape((4, -1)), ((2, 3, 4), "f", True)),
               *compare("reshape([-1])", lambda lib, x: x.reshape([-1]), ((2, 3, 4), "f", True)),
               *compare("torch.reshape", lambda lib, x: lib.reshape(x, (6, 4)), ((2, 3, 4), "f", True)),
               *compare("transpose then reshape", lambda lib, x: x.transpose(0, 2).reshape(-1),
                        ((2, 3, 4), "f", True)),
               *compare("view on .T rows", lambda lib, x: x.T.reshape(3, 2), ((2, 3), "f", True)),
               *compare("0-d reshape(1, 1)", lambda lib, x: x.reshape(1, 1), ((), "f", True), dtypes=(F32,),
                        grad="sum"),
           ],
           gradcheck=[
               *float32("reshape", lambda t: t.transpose(0, -1).reshape(-1), floats(-2, 2)),
               *grad_checks("reshape, view, flatten", reshape_view_flatten_checks()),
           ]),
    OpInfo('reshape_as',
           fuzz={"shape": ["reshape_as({v})"]},
           vs_torch=[
               *compare("reshape_as", lambda lib, x: x.transpose(0, 1).reshape_as(lib.ones(24)),
                        ((2, 3, 4), "f", True)),
           ]),
    OpInfo('roll',
           fuzz={"dim": ["roll(1, {d})"]},
           vs_torch=[
               *compare("roll(1)", lambda lib, x: x.roll(1), ((2, 3, 4), "f", True)),
               *compare("roll(-1, 1)", lambda lib, x: x.roll(-1, 1), ((2, 3, 4), "f", True)),
               *compare("roll((1, 2), (0, 2))", lambda lib, x: lib.roll(x, (1, 2), (0, 2)),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("roll", lambda t: t.roll(1) + minigrad.roll(t, -1, 0), one(min_dims=1)),
           ]),
    OpInfo('rot90',
           fuzz={"dim": ["rot90(1, [{d}, -1])"]},
           gradcheck=[
               *grad("rot90", lambda t: t.rot90() ** 2, one(min_dims=2)),
               *grad("rot90(k=2)", lambda t: minigrad.rot90(t, 2, (1, 0)) ** 2, one(min_dims=2)),
               *grad("rot90(k=-1)", lambda t: t.rot90(-1, (-1, 0)) ** 2, one(min_dims=2)),
           ]),
    OpInfo('round',
           fuzz={"unary": ["round()", "round(decimals=1)"]},
           vs_torch=[
               *compare("round", lambda lib, x: (x * 3).round(), ((2, 3), "f", True)),
               *compare("round(decimals=2)", lambda lib, x: x.round(decimals=2), ((2, 3), "f", True)),
               *fixed_inputs("round, int64", lambda lib, x: lib.round(x), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("round(decimals=1)", lambda t: t.round(decimals=1) * t, one(off_the_grid(-3, 2, 0.05))),
           ]),
    OpInfo('rsqrt',
           fuzz={"unary": ["rsqrt()"]},
           vs_torch=[
               *compare("rsqrt", lambda lib, x: x.rsqrt(), ((2, 3), "pos", True)),
           ],
           gradcheck=[
               *grad("rsqrt", lambda t: t.rsqrt(), one(floats(0.2, 5))),
           ]),
    OpInfo('rsub',
           fuzz={"scalar": ["torch.rsub({v}, 1)"], "binary": ["torch.rsub({a}, {b})"]}),
    OpInfo('scatter',
           vs_torch=[
               *compare("scatter(2, idx, src)", lambda lib, x: lib.zeros(2, 3, 4, dtype=x.dtype).scatter(
                       2, lib.tensor([[[0, 2], [1, 3], [3, 0]]] * 2), x[:, :, :2]), ((2, 3, 4), "f", True)),
               *compare("scatter(1, idx, 0.5)",
                        lambda lib, x: x.scatter(1, lib.tensor([[[0, 2, 1, 0]]] * 2), 0.5),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("scatter", lambda x, s: x.scatter(1, minigrad.tensor([[0, 2], [1, 0], [2, 1]]), s),
                     matmul_pair((3, 3), (3, 2))),
           ]),
    OpInfo('scatter_add',
           vs_torch=[
               *compare("scatter_add(2, idx, src)", lambda lib, x: lib.ones(2, 3, 4, dtype=x.dtype).scatter_add(
                       2, lib.tensor([GATHER_IDX, GATHER_IDX]), x), ((2, 3, 4), "f", True)),
               *compare("x.scatter_add(x)",
                        lambda lib, x: x.scatter_add(2, lib.tensor([GATHER_IDX, GATHER_IDX]), x * 2),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("scatter_add", lambda x, s: minigrad.scatter_add(x, 1, minigrad.tensor(IDX), s),
                     matmul_pair((3, 3), (3, 2))),
           ]),
    OpInfo('scatter_reduce',
           gradcheck=[
               *grad("scatter_reduce(sum)", lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "sum") ** 2,
                     _self_and_src()),
               *grad("scatter_reduce(prod)", lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "prod"),
                     _self_and_src(True)),
               *grad("scatter_reduce(prod, include_self=False)", lambda x, s: minigrad.scatter_reduce(
                       x, 1, _SCATTER_IDX(), s, "prod", include_self=False), _self_and_src(True)),
               *grad("scatter_reduce(mean)", lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "mean") ** 2,
                     _self_and_src()),
               *grad("scatter_reduce(mean, include_self=False)", lambda x, s: x.scatter_reduce(
                       1, _SCATTER_IDX(), s, "mean", include_self=False) ** 2, _self_and_src()),
               *grad("scatter_reduce(amax)", lambda x, s: x.scatter_reduce(0, _SCATTER_IDX(), s, "amax") ** 2,
                     _self_and_src()),
               *grad("scatter_reduce(amin, include_self=False)", lambda x, s: x.scatter_reduce(
                       0, _SCATTER_IDX(), s, "amin", include_self=False) ** 2, _self_and_src()),
           ]),
    OpInfo('select',
           fuzz={"dim": ["select({d}, 0)", "select({d}, -1)"]},
           gradcheck=[
               *grad("select", lambda t: minigrad.select(t, 1, -1) ** 2, fixed((2, 3))),
           ]),
    OpInfo('select_scatter',
           gradcheck=[
               *grad("select_scatter", lambda x, s: minigrad.select_scatter(x, s[1], 0, -1) ** 2,
                     _self_and_src()),
           ]),
    OpInfo('__setitem__',
           gradcheck=[
               *inplace_on_view("y[0] = v", _written(_assign(0)), (3,)),
               *inplace_on_view("y[:, 1:] = v", _written(_assign((slice(None), slice(1, None)))), (2,)),
               *inplace_on_view("y[mask] = v",
                                _written(_assign(np.array([[True, False, True], [False, True, False]]))),
                                (3,)),
           ]),
    OpInfo('sgn', known=('sgn-zeros',),
           vs_torch=[
               *unary("sgn", lambda lib, x: x.sgn(), "f"),
               *unary("torch.sgn", lambda lib, x: lib.sgn(x), "f"),
               *check("zero_grad_sign", "sgn", lambda lib, x: x.sgn()),
               *fixed_inputs("sgn, int64", lambda lib, x: x.sgn(), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("sgn", lambda t: minigrad.sgn(t), one(away(0.05, 3)), PROFILE, FIRST),
           ]),
    OpInfo('sigmoid', aliases=('nn.functional.sigmoid', 'special.expit'),
           fuzz={"unary": ["sigmoid()"], "activation": ["sigmoid({v})"], "scalar": ["torch.sigmoid({v})"]},
           vs_torch=[
               *compare("int sigmoid", lambda lib, a: a.sigmoid(), ((3,), "int", False), dtypes=(F32,),
                        grad="sum"),
               *unary("sigmoid", lambda lib, x: x.sigmoid(), "f"),
               *unary("torch.sigmoid", lambda lib, x: lib.sigmoid(x), "f"),
               *compare("torch.special.expit", lambda lib, x: lib.special.expit(x), ((2, 3), "f", True)),
               *compare("sigmoid_ of clone", lambda lib, x: x.clone().sigmoid_(), ((2, 3), "f", True)),
               *fixed_inputs("underflow", lambda lib, x: x.sigmoid(), np.array([100.0, -100.0], F32)),
           ],
           gradcheck=[
               *grad("sigmoid", lambda t: t.sigmoid(), one(floats(-10, 10)), PROFILE, FIRST),
               *grad("chain", lambda t: ((t.tanh() * 2).exp() + 1).log().sigmoid(), one(floats(-2, 2)),
                     PROFILE, FIRST),
               *grad("sigmoid", lambda t: t.sigmoid(), second_order_inputs(1, floats(-5, 5)), FEW, SECOND),
               *float32("sigmoid", lambda t: t.sigmoid(), floats(-4, 4)),
           ]),
    OpInfo('sign',
           fuzz={"unary": ["sign()"]},
           vs_torch=[
               *unary("sign", lambda lib, x: x.sign(), "f"),
               *check("zero_grad_sign", "sign", lambda lib, x: x.sign()),
               *fixed_inputs("sign, int64", lambda lib, x: x.sign(), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("sign", lambda t: t.sign(), one(away(0.05, 3)), PROFILE, FIRST),
           ]),
    OpInfo('sin',
           fuzz={"unary": ["sin()"]},
           vs_torch=[
               *compare("sin", lambda lib, x: x.sin(), ((2, 3), "f", True)),
               *compare("sin_ of clone", lambda lib, x: x.clone().sin_(), ((2, 3), "f", True)),
               *fixed_inputs("sin, int64", lambda lib, x: x.sin(), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("sin", lambda t: t.sin(), one(floats(-3, 3))),
               *inplace_on_view("y[1].sin_(), then y[0] *= v",
                                _written(lambda y, v: (y[1].sin_(), y[0].__imul__(v))), (3,)),
           ]),
    OpInfo('sinc', aliases=('special.sinc',),
           fuzz={"unary": ["sinc()"]},
           gradcheck=[
               # (at 0 the second derivative is NaN, as PyTorch's)
               *grad("sinc", lambda t: t.sinc(), one(away(0.05, 2.5))),
               *grad("special.sinc", lambda t: minigrad.special.sinc(t), one(away(0.05, 2.5)), PROFILE, FIRST),
           ]),
    OpInfo('sinh',
           fuzz={"unary": ["sinh()"]},
           vs_torch=[
               *compare("sinh", lambda lib, x: x.sinh(), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("sinh", lambda t: t.sinh(), one(floats(-2, 2))),
           ]),
    OpInfo('slice_scatter',
           gradcheck=[
               *grad("slice_scatter", lambda x, s: x.slice_scatter(s[:, :2], 1, 1, None, 2) ** 2,
                     _self_and_src()),
           ]),
    OpInfo('softmax', aliases=('nn.functional.softmax',),
           fuzz={"dim": ["softmax(dim={d})", "torch.nn.functional.softmax({v}, dim={d})"]},
           vs_torch=[
               *reduction("softmax(-1)", lambda lib, x: x.softmax(-1)),
               *reduction("softmax(0)", lambda lib, x: x.softmax(dim=0)),
               *reduction("torch.softmax", lambda lib, x: lib.softmax(x, 1)),
           ],
           gradcheck=[
               *at_zero_d("softmax(0)", lambda t: t.softmax(0)),
               *grad("softmax", lambda t: t.softmax(-1), second_order_inputs(1, floats(-3, 3)), FEW, SECOND),
               *float32("softmax", lambda t: t.softmax(-1), floats(-2, 2)),
               *grad_checks("softmax(dim)", softmax_checks("softmax")),
               *grad_checks("torch.softmax(x, dim)", softmax_checks("torch.softmax")),
           ]),
    OpInfo('sort',
           fuzz={
                "dim": ["sort(dim={d})[0]", "sort(dim={d}, descending=True).values",
                        "sort(dim={d}, stable=True)[1]"],
           },
           vs_torch=[
               *compare("sort()", lambda lib, x: x.sort(), ((2, 3, 4), "f", True)),
               *compare("sort(0, descending)", lambda lib, x: lib.sort(x, 0, descending=True),
                        ((2, 3, 4), "f", True)),
               *compare("sort(dim=1, stable)", lambda lib, x: x.sort(dim=1, stable=True),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("sort", lambda t: t.sort(1, descending=True).values, distinct_matrix()),
           ]),
    OpInfo('split',
           fuzz={"dim": ["split(1, dim={d})[0]", "split([1, {rest}], dim={d})[1]"]},
           vs_torch=[
               *compare("split(3, dim=2)", lambda lib, x: x.split(3, dim=2), ((2, 3, 4), "f", True)),
               *compare("split([1, 2], 1)", lambda lib, x: lib.split(x, [1, 2], 1), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("split", lambda t: minigrad.split(t, [1, 2], dim=1)[1], fixed((2, 3))),
           ]),
    OpInfo('split_with_sizes',
           gradcheck=[
               *grad("split_with_sizes", lambda t: t.split_with_sizes([1, 2], 1)[1] ** 2, fixed((2, 3))),
           ]),
    OpInfo('sqrt',
           fuzz={"unary": ["sqrt()"]},
           vs_torch=[
               *compare("int sqrt", lambda lib, a: a.sqrt(), ((3,), "nint", False), dtypes=(F32,), grad="sum"),
               *unary("sqrt", lambda lib, x: x.sqrt(), "pos"),
               *fixed_inputs("sqrt, int64", lambda lib, x: lib.sqrt(x.abs()), INTS, requires_grad=False),
               *fixed_inputs("at 0", lambda lib, x: x.sqrt(), np.array([0.0, 4.0], F32), marks=QUIET),
           ],
           gradcheck=[
               *grad("sqrt", lambda t: t.sqrt(), one(floats(0.1, 5)), PROFILE, FIRST),
               *grad("sqrt", lambda t: t.sqrt(), second_order_inputs(1, floats(0.2, 3)), FEW, SECOND),
               *float32("sqrt", lambda t: t.sqrt(), floats(0.2, 3)),
           ]),
    OpInfo('square',
           fuzz={"unary": ["square()"]},
           vs_torch=[
               *compare("square", lambda lib, x: x.square(), ((2, 3), "f", True)),
               *compare("torch.square", lambda lib, x: lib.square(x), ((2, 3), "f", True)),
               *fixed_inputs("square, int64", lambda lib, x: x.square(), INTS, requires_grad=False),
           ],
           gradcheck=[
               *grad("square", lambda t: t.square(), one()),
           ]),
    OpInfo('squeeze',
           fuzz={"dim": ["squeeze({d})"], "shape": ["squeeze()", "squeeze(0)"]},
           vs_torch=[
               *compare("squeeze()", lambda lib, x: x.unsqueeze(1).squeeze(), ((2, 3), "f", True)),
               *compare("squeeze(1)", lambda lib, x: x.unsqueeze(1).squeeze(1), ((2, 3), "f", True)),
               *compare("squeeze(0) no-op", lambda lib, x: x.squeeze(0), ((2, 3), "f", True)),
               *compare("squeeze(-1) on 1", lambda lib, x: x.unsqueeze(-1).squeeze(-1), ((2, 3), "f", True)),
               *compare("squeeze((1, 3))", lambda lib, x: x.unsqueeze(1).unsqueeze(3).squeeze((1, 3)),
                        ((2, 3), "f", True)),
               *compare("torch.squeeze", lambda lib, x: lib.squeeze(x.unsqueeze(0)), ((2, 3), "f", True)),
               *compare("torch.squeeze dim", lambda lib, x: lib.squeeze(x.unsqueeze(0), 0),
                        ((2, 3), "f", True)),
               *compare("1-d squeeze()", lambda lib, x: x.squeeze(), ((3,), "f", True), dtypes=(F32,),
                        grad="sum"),
               *compare("0-d squeeze()", lambda lib, x: x.squeeze(), ((), "f", True), dtypes=(F32,),
                        grad="sum"),
               # dims not in increasing order: the backward puts each back, lowest first
               *compare("squeeze((2, 0))", lambda lib, x: x.squeeze((2, 0)), ((1, 2, 1), "f", True)),
               *compare("squeeze((-1, -3))", lambda lib, x: x.squeeze((-1, -3)), ((1, 1, 1), "f", True)),
           ],
           gradcheck=[
               *at_zero_d("squeeze(0)", lambda t: t.squeeze(0)),
           ]),
    OpInfo('stack',
           fuzz={"dim": ["torch.stack([{v}, {v}], dim={d})", "torch.stack({v}.unbind({d})[::-1], dim={d})"]},
           vs_torch=[
               *with_flags("stack dim0", lambda lib, a, b: lib.stack([a, b]), ((2, 3), (2, 3)),
                           ("both_rg", "left_rg")),
               *with_flags("stack dim1", lambda lib, a, b: lib.stack((a, b), dim=1), ((2, 3), (2, 3)),
                           ("both_rg", "left_rg")),
               *with_flags("stack dim-1", lambda lib, a, b: lib.stack([a, b, b], -1), ((2, 3), (2, 3)),
                           ("both_rg", "left_rg")),
               *with_flags("stack 0d", lambda lib, a, b: lib.stack([a, b]), ((), ()), ("both_rg", "left_rg")),
           ],
           gradcheck=[
               *mixed_precision("stack", lambda a, b: minigrad.stack([a * 1 + b * 0, b * 1 + a * 0]),
                                floats(-2, 2), floats(-2, 2)),
               *grad_checks("stack", cat_stack_checks("stack")),
           ]),
    OpInfo('std', known=('error-draws',),
           fuzz={"reduce": ["std()"], "dim": ["std(dim={d}, correction=0)", "std(dim={d}, keepdim={k})"]},
           vs_torch=[
               *reduction("std()", lambda lib, x: x.std()),
               *reduction("std(False)", lambda lib, x: x.std(False)),
               *reduction("std(-1, keepdim)", lambda lib, x: x.std(-1, keepdim=True)),
               *reduction("torch.std(x, 0)", lambda lib, x: lib.std(x, 0)),
               *compare("std(axis=0)", lambda lib, x: x.std(axis=0), ((2, 3, 4), "f", True)),
               *compare("std(dim=2, correction=2)", lambda lib, x: x.std(dim=2, correction=2),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("std(axis=, keepdims=)", lambda t: t.std(axis=1, keepdims=True),
                     st.builds(lambda a: [a], distinct((2, 3)))),
           ]),
    OpInfo('std_mean', known=('mean-of-inf',),
           fuzz={"dim": ["torch.std_mean({v}, dim={d})[0]"]},
           gradcheck=[
               *grad("std_mean", lambda t: (lambda r: r[0] * r[1])(minigrad.std_mean(t, 1)),
                     st.builds(lambda a: [a], distinct((2, 3)))),
           ]),
    OpInfo('sub', aliases=('__rsub__', '__sub__', 'subtract'),
           fuzz={
                "scalar": ["1 - {v}", "{v} - 0.5", "{v}.sub(0.5, alpha=2)"],
                "binary": ["{a} - {b}", "{a}.sub({b}, alpha=0.5)"],
           },
           vs_torch=[
               *broadcast("sub", lambda lib, a, b: a - b, "f"),
               *int_pair("sub", lambda lib, a, b: a - b),
               *mixed_float("sub", lambda lib, a, b: a - b),
               *broadcast("method.sub", lambda lib, a, b: a.sub(b), "f"),
               *number_operand("x-2", lambda lib, x: x - 2),
               *number_operand("2-x", lambda lib, x: 2 - x),
               *number_operand("2.5-x", lambda lib, x: 2.5 - x),
           ],
           gradcheck=[
               *grad_checks("sub", binary_checks(operator.sub, floats(-2, 2), floats(-2, 2))),
               *grad_checks("t-c", tensor_number_checks(lambda t, c: t - c, floats(-2, 2), NUMBERS)),
               *grad_checks("c-t", tensor_number_checks(lambda t, c: c - t, floats(-2, 2), NUMBERS)),
               *float32("1-t", lambda t: 1 - t, floats(-2, 2)),
               *mixed_precision("sub", operator.sub, floats(-2, 2), floats(-2, 2)),
               *inplace_on_view("y[0][1:].sub_(v) (view of a view)", _written(lambda y, v: y[0][1:].sub_(v)),
                                ()),
           ]),
    OpInfo('sum',
           fuzz={"reduce": ["sum()"], "dim": ["sum(dim={d}, keepdim={k})"]},
           vs_torch=[
               *compare("int sum", lambda lib, a: a.sum(), ((2, 3), "int", False), dtypes=(F32,), grad="sum"),
               *compare("int sum dim", lambda lib, a: a.sum(1), ((2, 3), "int", False), dtypes=(F32,),
                        grad="sum"),
               *compare("bool sum", lambda lib, a: a.sum(), ((2, 3), "bool", False), dtypes=(F32,),
                        grad="sum"),
               *reduction("sum()", lambda lib, x: x.sum()),
               *reduction("torch.sum", lambda lib, x: lib.sum(x)),
               *reduction("sum(0)", lambda lib, x: x.sum(0)),
               *reduction("sum(1)", lambda lib, x: x.sum(1)),
               *reduction("sum(-1)", lambda lib, x: x.sum(-1)),
               *reduction("sum(dim=1, keepdim)", lambda lib, x: x.sum(dim=1, keepdim=True)),
               *reduction("sum((0, 2))", lambda lib, x: x.sum((0, 2))),
               *reduction("sum([0, 1], keepdim)", lambda lib, x: x.sum([0, 1], keepdim=True)),
               *reduction("torch.sum(x, 1)", lambda lib, x: lib.sum(x, 1)),
               *compare("sum(axis=1)", lambda lib, x: x.sum(axis=1), ((2, 3, 4), "f", True)),
               *compare("sum(0, keepdims)", lambda lib, x: x.sum(0, keepdims=True), ((2, 3, 4), "f", True)),
               *fixed_inputs("sum() of 0-d", lambda lib, x: x.sum(), np.array(2.5, F32)),
               *fixed_inputs("sum(0) of 0-d", lambda lib, x: x.sum(0), np.array(2.5, F32)),
           ],
           gradcheck=[
               *at_zero_d("sum(0)", lambda t: t.sum(0)),
               *at_zero_d("sum(-1, keepdim)", lambda t: t.sum(-1, keepdim=True)),
               *grad("sum", lambda t: (t.sum(0) ** 2).exp(), second_order_inputs(1, floats(-1, 1)), FEW,
                     SECOND),
               *float32("sum", lambda t: t.sum(-1, keepdim=True), floats(-2, 2)),
               *float32("sum(dtype=f64)", lambda t: t.sum(-1, dtype=minigrad.float64), floats(-2, 2),
                        result=F64),
               *grad_checks("sum(), sum(dim, keepdim)", sum_mean_checks("sum")),
           ]),
    OpInfo('sum_to_size',
           fuzz={"shape": ["sum_to_size({sts})", "flatten().sum_to_size(1)"]},
           vs_torch=[
               *compare("sum_to_size(1, 3)", lambda lib, x: x.sum_to_size(1, 3), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad_checks("sum_to_size", sum_to_size_checks()),
           ]),
    OpInfo('svd',
           gradcheck=[
               *grad("svd", lambda t: (lambda u, s, v: u * u * s + v * v)(*t.svd()),
                     st.builds(lambda a: [a + np.diag([3.0, 2, 1])], arrays((3, 3), floats(-0.2, 0.2)))),
           ]),
    OpInfo('T', known=('warn-once',),
           fuzz={"shape": ["T"]},
           vs_torch=[
               *compare(".T", lambda lib, x: x.T, ((2, 3), "f", True)),
               *compare(".T.T", lambda lib, x: x.T.T, ((2, 3), "f", True)),
               # (.T of a 1-d tensor: test_vs_torch.py's test_T_of_1d, after test_T_deprecation_warning:
               # PyTorch gives that warning once per process)
           ]),
    OpInfo('t',
           fuzz={"shape": ["t()"]},
           vs_torch=[
               *compare(".t()", lambda lib, x: x.t(), ((2, 3), "f", True)),
               *compare("torch.t", lambda lib, x: lib.t(x), ((2, 3), "f", True)),
               *compare("1-d t()", lambda lib, x: x.t(), ((3,), "f", True), dtypes=(F32,), grad="sum"),
               *compare("0-d t()", lambda lib, x: x.t(), ((), "f", True), dtypes=(F32,), grad="sum"),
           ],
           gradcheck=[
               *grad("t_", lambda t: (t * 1).t_() ** 2, one(max_dims=2)),
           ]),
    OpInfo('take',
           gradcheck=[
               *grad("take", lambda t: t.take(minigrad.tensor([[0, 5], [5, -1]])) ** 2, fixed((2, 3))),
           ]),
    OpInfo('take_along_dim',
           vs_torch=[
               *compare("take_along_dim(idx, 2)",
                        lambda lib, x: x.take_along_dim(lib.tensor([GATHER_IDX, GATHER_IDX]), 2),
                        ((2, 3, 4), "f", True)),
               *compare("take_along_dim flat",
                        lambda lib, x: lib.take_along_dim(x, lib.tensor([0, 5, 5, 23])),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("take_along_dim", lambda t: minigrad.take_along_dim(t, minigrad.tensor([0, 4, 4])),
                     fixed((3, 3))),
           ]),
    OpInfo('tan',
           fuzz={"unary": ["tan()"]},
           vs_torch=[
               *compare("tan", lambda lib, x: x.tan(), ((2, 3), "f", True)),
           ],
           gradcheck=[
               *grad("tan", lambda t: t.tan(), one(floats(-1.2, 1.2))),
           ]),
    OpInfo('tanh', aliases=('nn.functional.tanh',),
           fuzz={"unary": ["tanh()"], "activation": ["tanh({v})"]},
           vs_torch=[
               *compare("int tanh", lambda lib, a: lib.tanh(a), ((3,), "int", False), dtypes=(F32,),
                        grad="sum"),
               *unary("tanh", lambda lib, x: x.tanh(), "f"),
           ],
           gradcheck=[
               *grad("tanh", lambda t: t.tanh(), one(floats(-4, 4)), PROFILE, FIRST),
               *grad("tanh", lambda t: t.tanh(), second_order_inputs(1, floats(-3, 3)), FEW, SECOND),
               *float32("tanh", lambda t: t.tanh(), floats(-3, 3)),
           ]),
    OpInfo('tensor_split',
           fuzz={"dim": ["tensor_split(2, dim={d})[0]"]},
           gradcheck=[
               *grad("tensor_split", lambda t: _weighted(t.tensor_split(3, 1)) ** 2, fixed((2, 4))),
               *grad("tensor_split(indices)", lambda t: _weighted(minigrad.tensor_split(t, [1, 3], 1)) ** 2,
                     fixed((2, 4))),
           ]),
    OpInfo('tile',
           fuzz={"shape": ["tile((2,))"]},
           vs_torch=[
               *compare("tile(2)", lambda lib, x: x.tile(2), ((2, 3, 4), "f", True)),
               *compare("torch.tile", lambda lib, x: lib.tile(x, (2, 1)), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("tile", lambda t: minigrad.tile(t, (2,)), one(min_dims=1, max_dims=2)),
           ]),
    OpInfo('to',
           fuzz={"unary": ["to(torch.float64)"]},
           vs_torch=[
               *compare(".to(float64)", lambda lib, x: x.to(lib.float64), ((2, 3), "f", True)),
               *compare(".to(float64), no grad", lambda lib, x: x.to(lib.float64), ((2, 3), "f", False)),
               *compare(".to(float32)", lambda lib, x: x.to(lib.float32), ((2, 3), "f", True)),
               *compare(".to(float32), no grad", lambda lib, x: x.to(lib.float32), ((2, 3), "f", False)),
               *compare(".to(int64)", lambda lib, x: x.to(lib.int64), ((2, 3), "f", True)),
               *compare(".to(int64), no grad", lambda lib, x: x.to(lib.int64), ((2, 3), "f", False)),
               *compare(".to(torch.double)", lambda lib, x: x.to(lib.double), ((2, 3), "f", True)),
               *compare(".to(torch.double), no grad", lambda lib, x: x.to(lib.double), ((2, 3), "f", False)),
               *compare(".to('cpu')", lambda lib, x: x.to("cpu"), ((2, 3), "f", True)),
               *compare(".to('cpu'), no grad", lambda lib, x: x.to("cpu"), ((2, 3), "f", False)),
               *compare("to(other)", lambda lib, x: x.to(lib.ones(1, dtype=lib.float64)),
                        ((2, 3, 4), "f", True)),
               *compare("to('cpu', float64)", lambda lib, x: x.to("cpu", lib.float64), ((2, 3, 4), "f", True)),
               *compare("to(device=, dtype=)",
                        lambda lib, x: x.to(device=lib.device("cpu"), dtype=lib.float64),
                        ((2, 3, 4), "f", True)),
               *[c for kind in ("int", "bool") for c in compare(f"to(float32) of {kind}", lambda lib, x: x.to(lib.float32),
                                                               ((2, 3), kind, False), dtypes=(None,), grad="sum")],
           ],
           gradcheck=[
               *grad("to(float64)", lambda t: t.to(minigrad.float64) * 2, one(floats(-3, 3)), PROFILE, FIRST),
               *grad("to('cpu')", lambda t: t.to("cpu") * 2, one(floats(-3, 3)), PROFILE, FIRST),
               *float32("to(float64)", lambda t: t.to(minigrad.float64), floats(-2, 2), result=F64),
           ]),
    OpInfo('topk', known=('topk-ties',),
           fuzz={"dim": ["topk(1, dim={d})[0]", "topk(1, dim={d}, largest=False).values"]},
           vs_torch=[
               *compare("topk(2)", lambda lib, x: x.topk(2), ((2, 3, 4), "f", True)),
               *compare("topk(1, dim=0, largest=False)", lambda lib, x: lib.topk(x, 1, dim=0, largest=False),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("topk", lambda t: t.topk(2).values, distinct_matrix()),
           ]),
    OpInfo('trace',
           fuzz={"shape": ["trace()"]},
           vs_torch=[
               *compare("trace", lambda lib, a: a.trace(), *[(s, "f", True) for s in [(3, 4)]], rng=4),
               *compare("torch.trace", lambda lib, a: lib.trace(a), *[(s, "f", True) for s in [(3, 3)]],
                        rng=4),
           ],
           gradcheck=[
               *grad("trace", lambda t: t.trace(), matrix()),
           ]),
    OpInfo('transpose', aliases=('swapaxes', 'swapdims'),
           fuzz={"dim": ["transpose({d}, -1)", "swapaxes({d}, 0)"], "shape": ["swapdims(0, -1)"]},
           vs_torch=[
               *compare("transpose(0, 1)", lambda lib, x: x.transpose(0, 1), ((2, 3, 4), "f", True)),
               *compare("transpose(-1, 0)", lambda lib, x: x.transpose(-1, 0), ((2, 3, 4), "f", True)),
               *compare("torch.transpose", lambda lib, x: lib.transpose(x, 1, 2), ((2, 3, 4), "f", True)),
               *compare("transpose(0, 1)", lambda lib, x: x.transpose(0, 1), ((2, 3), "f", True)),
               *compare("swapaxes", lambda lib, x: x.swapaxes(0, 2), ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *at_zero_d("transpose(0, -1)", lambda t: t.transpose(0, -1)),
               *grad("transpose_", lambda t: (t * 1).transpose_(0, -1) ** 2, one(min_dims=1)),
               *grad_checks("transpose, permute, .T, t(), .mT", transpose_permute_checks()),
           ]),
    OpInfo('trapezoid', aliases=('trapz',),
           fuzz={"dim": ["torch.trapezoid({v}, dim={d})"]},
           gradcheck=[
               *grad("trapezoid", lambda t: minigrad.trapezoid(t, dx=0.5), one(min_dims=1)),
               *grad("trapezoid(x)", lambda y, x: minigrad.trapezoid(y, x, dim=0), matmul_pair((3, 2), (3,))),
               *grad("trapz", lambda y, x: minigrad.trapz(y, x), matmul_pair((2, 3), (3,))),
           ]),
    OpInfo('tril',
           fuzz={"shape": ["tril()", "tril(-1)"]},
           vs_torch=[
               *compare("tril", lambda lib, a: a.tril(), *[(s, "f", True) for s in [(3, 4)]], rng=4),
               *compare("tril(-1)", lambda lib, a: lib.tril(a, -1), *[(s, "f", True) for s in [(4, 3)]],
                        rng=4),
           ],
           gradcheck=[
               *grad("tril", lambda t: t.tril(), matrix()),
               *grad("tril_ triu_", lambda t: (t * 1).tril_(1).triu_(-1) ** 2, fixed((3, 4))),
           ]),
    OpInfo('triu',
           fuzz={"shape": ["triu(1)", "triu()"]},
           vs_torch=[
               *compare("triu(1)", lambda lib, a: a.triu(1), *[(s, "f", True) for s in [(3, 4)]], rng=4),
               *compare("torch.triu", lambda lib, a: lib.triu(a), *[(s, "f", True) for s in [(2, 3, 3)]],
                        rng=4),
           ],
           gradcheck=[
               *grad("triu(1)", lambda t: minigrad.triu(t, 1), matrix()),
           ]),
    OpInfo('true_divide',
           fuzz={"scalar": ["{v}.true_divide(2)"], "binary": ["torch.true_divide({a}, {b})"]},
           vs_torch=[
               *fixed_inputs("true_divide, int64", lambda lib, x: lib.true_divide(x, 2), INTS,
                             requires_grad=False),
           ]),
    OpInfo('trunc', aliases=('fix',),
           fuzz={"unary": ["trunc()", "fix()"]},
           vs_torch=[
               *compare("trunc", lambda lib, x: (x * 3).trunc(), ((2, 3), "f", True)),
           ]),
    OpInfo('type',
           fuzz={"unary": ["type(torch.float32)"]},
           vs_torch=[
               *compare("type(float64)", lambda lib, x: x.type(lib.float64), ((2, 3, 4), "f", True)),
               *compare("type('torch.DoubleTensor')", lambda lib, x: x.type("torch.DoubleTensor"),
                        ((2, 3, 4), "f", True)),
           ]),
    OpInfo('type_as',
           gradcheck=[
               *grad("type_as", lambda t: t.type_as(minigrad.zeros(1, dtype=minigrad.float64)) * t, one()),
           ]),
    OpInfo('unbind',
           fuzz={"dim": ["unbind({d})[0]", "unbind({d})[-1]"]},
           vs_torch=[
               *compare("unbind(1)", lambda lib, x: x.unbind(1), ((2, 3, 4), "f", True)),
               *compare("torch.unbind", lambda lib, x: lib.unbind(x, -1), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('unflatten', known=('error-draws',),
           fuzz={"dim": ["unflatten({d}, (1, -1))"]},
           vs_torch=[
               *compare("unflatten(2, (2, 2))", lambda lib, x: x.unflatten(2, (2, 2)), ((2, 3, 4), "f", True)),
               *compare("unflatten(1, (-1, 1))", lambda lib, x: lib.unflatten(x, 1, (-1, 1)),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("unflatten", lambda t: t.unflatten(0, (2, -1)), fixed((4, 2))),
           ]),
    OpInfo('unfold',
           fuzz={"dim": ["unfold({d}, 1, 1)"]},
           gradcheck=[
               *grad("unfold", lambda t: t.unfold(1, 2, 1) ** 2, fixed((2, 4))),
               *grad("unfold(step 2, 3-d)", lambda t: t.unfold(0, 2, 2) ** 2, fixed((5, 2, 2))),
               *grad("unfold(windows apart)", lambda t: t.unfold(-1, 2, 3) ** 2, fixed((2, 7))),
               *grad("unfold(0-d)", lambda t: t.unfold(0, 1, 1) ** 2, fixed(())),
           ]),
    OpInfo('unsafe_chunk',
           gradcheck=[
               *grad("unsafe_chunk", lambda t: _weighted(t.unsafe_chunk(2, 1)) ** 2, fixed((2, 4))),
           ]),
    OpInfo('unsafe_split',
           gradcheck=[
               *grad("unsafe_split", lambda t: _weighted(t.unsafe_split(2, 1)) ** 2, fixed((2, 4))),
           ]),
    OpInfo('unsafe_split_with_sizes',
           gradcheck=[
               *grad("unsafe_split_with_sizes",
                     lambda t: _weighted(minigrad.unsafe_split_with_sizes(t, [1, 2])) ** 2, fixed((3, 2))),
           ]),
    OpInfo('unsqueeze',
           fuzz={"dim": ["unsqueeze({d})"], "shape": ["unsqueeze(0)"]},
           vs_torch=[
               *compare("unsqueeze(0)", lambda lib, x: x.unsqueeze(0), ((2, 3, 4), "f", True)),
               *compare("unsqueeze(-1)", lambda lib, x: x.unsqueeze(-1), ((2, 3, 4), "f", True)),
               *compare("unsqueeze(2)", lambda lib, x: lib.unsqueeze(x, 2), ((2, 3, 4), "f", True)),
               *compare("1-d unsqueeze(0)", lambda lib, x: x.unsqueeze(0), ((3,), "f", True), dtypes=(F32,),
                        grad="sum"),
               *compare("0-d unsqueeze(0)", lambda lib, x: x.unsqueeze(0), ((), "f", True), dtypes=(F32,),
                        grad="sum"),
           ],
           gradcheck=[
               *at_zero_d("unsqueeze(-1)", lambda t: t.unsqueeze(-1)),
               *grad("unsqueeze_ squeeze_",
                     lambda t: (t * 1).unsqueeze_(0).squeeze_(0).unsqueeze_(-1).squeeze_() ** 2, one()),
               *grad_checks("unsqueeze, squeeze", unsqueeze_squeeze_checks()),
           ]),
    OpInfo('var', known=('error-draws',),
           fuzz={"reduce": ["var()", "var(correction=0)"], "dim": ["var(dim={d}, keepdim={k})"]},
           vs_torch=[
               *reduction("var()", lambda lib, x: x.var()),
               *reduction("var(1)", lambda lib, x: x.var(1)),
               *reduction("var(0, keepdim, correction=0)",
                          lambda lib, x: x.var(0, keepdim=True, correction=0)),
               *reduction("torch.var(x, (0, 2))", lambda lib, x: lib.var(x, (0, 2))),
               *compare("var(axis=1, correction=0)", lambda lib, x: x.var(axis=1, correction=0),
                        ((2, 3, 4), "f", True)),
               *compare("var(1, unbiased=False)", lambda lib, x: x.var(1, unbiased=False),
                        ((2, 3, 4), "f", True)),
           ],
           gradcheck=[
               *grad("var-std-norm", lambda t: t.var(correction=0) * t.norm()
                                    + minigrad.stack([t.sum(), 2 * t.exp().sum()]).std(), second_order_inputs(1, floats(0.5, 2)), FEW, SECOND),
               *grad_checks("var, std, norm over dims", var_std_norm_checks()),
           ]),
    OpInfo('var_mean', known=('mean-of-inf',),
           fuzz={"dim": ["torch.var_mean({v}, dim={d})[1]"]},
           gradcheck=[
               *grad("var_mean(correction=0)",
                     lambda t: (lambda r: r[0] + r[1] * r[1])(minigrad.var_mean(t, correction=0)),
                     one(min_dims=1)),
           ]),
    OpInfo('view',
           fuzz={"shape": ["view(-1)", "view({shape})"]},
           vs_torch=[
               *compare("view(6, 4)", lambda lib, x: x.view(6, 4), ((2, 3, 4), "f", True)),
               *compare("view(-1)", lambda lib, x: x.view(-1), ((2, 3, 4), "f", True)),
               *compare("view((2, 12))", lambda lib, x: x.view((2, 12)), ((2, 3, 4), "f", True)),
               *compare("transpose then contiguous view",
                        lambda lib, x: x.transpose(0, 1).contiguous().view(-1), ((2, 3, 4), "f", True)),
               *compare("0-d view(-1)", lambda lib, x: x.view(-1), ((), "f", True), dtypes=(F32,), grad="sum"),
           ]),
    OpInfo('view_as',
           fuzz={"shape": ["view_as({v})"]},
           vs_torch=[
               *compare("view_as", lambda lib, x: x.view_as(lib.zeros(4, 6)), ((2, 3, 4), "f", True)),
               *compare("view_as", lambda lib, x: x.view_as(lib.ones(4, 6)), ((2, 3, 4), "f", True)),
           ]),
    OpInfo('vsplit',
           gradcheck=[
               *grad("vsplit", lambda t: minigrad.vsplit(t, [1])[1] ** 2, fixed((3, 2))),
           ]),
    OpInfo('vstack', aliases=('row_stack',),
           fuzz={"shape": ["torch.vstack([{v}, {v}])"]},
           gradcheck=[
               *grad("vstack", lambda a, b: minigrad.vstack([a, b]), matmul_pair((3,), (2, 3))),
               *grad("row_stack", lambda a, b: minigrad.row_stack([a, b]), matmul_pair((), ())),
           ]),
    OpInfo('where',
           fuzz={
                "scalar": ["torch.where({v} > 0, {v}, 0.0)", "torch.where({v} > 0, {v}, {v} * 2)",
                           "{v}.where({v} < 1, torch.tensor(0.5))"],
                "binary": ["torch.where({a} > {b}, {a}, {b})", "torch.where({b} > 0, {a}, 0.5)",
                           "torch.where({a} > 0, {a}, {b})"],
           },
           vs_torch=[
               *check("zero_grad_sign", "where", lambda lib, x: lib.where(x > 0, x, 0.0)),
               *with_flags("where", lambda lib, a, b: lib.where(a > 0, a, b), ((2, 3), (2, 3)),
                           ("both_rg", "left_rg", "right_rg", "no_rg"), rng=4),
               *check("where_values_and_grads", "where", lambda lib, a, b: lib.where(a > 0, a, b),
                      shapes=((2, 3), (2, 3))),
               *with_flags("where broadcast", lambda lib, a, b: lib.where(a > 0, a, b), ((2, 3), (3,)),
                           ("both_rg", "left_rg", "right_rg", "no_rg"), rng=4),
               *check("where_values_and_grads", "where broadcast", lambda lib, a, b: lib.where(a > 0, a, b),
                      shapes=((2, 3), (3,))),
               *with_flags("where number", lambda lib, a, b: lib.where(a > b, a, 0.0), ((2, 3), (3,)),
                           ("both_rg", "left_rg", "right_rg", "no_rg"), rng=4),
               *check("where_values_and_grads", "where number", lambda lib, a, b: lib.where(a > b, a, 0.0),
                      shapes=((2, 3), (3,))),
               *with_flags("where number left", lambda lib, a, b: lib.where(a > b, 1.0, b), ((2, 3), (3,)),
                           ("both_rg", "left_rg", "right_rg", "no_rg"), rng=4),
               *check("where_values_and_grads", "where number left",
                      lambda lib, a, b: lib.where(a > b, 1.0, b), shapes=((2, 3), (3,))),
               *with_flags("where 0-d other", lambda lib, a, b: lib.where(a > 0, a, b), ((2, 3), ()),
                           ("both_rg", "left_rg", "right_rg", "no_rg"), rng=4),
               *check("where_values_and_grads", "where 0-d other", lambda lib, a, b: lib.where(a > 0, a, b),
                      shapes=((2, 3), ())),
           ],
           gradcheck=[
               *float32("where", lambda t: minigrad.where(t > 0, t, 2.0), floats(-2, 2)),
               *mixed_precision("where", lambda a, b: minigrad.where(a > 0, a, b), floats(-2, 2),
                                floats(-2, 2)),
               *grad_checks("where", where_checks()),
               *grad_checks("where, cat, stack of t ** 2 and t.exp()", where_cat_stack_second_order(), FEW,
                            SECOND),
           ]),
    OpInfo('xlogy', aliases=('special.xlogy',),
           fuzz={"binary": ["torch.xlogy({a}, {b})", "torch.special.xlogy({a}, {b})"]},
           gradcheck=[
               *grad("xlogy", lambda a, b: a.xlogy(b), pair(floats(-2, 2), floats(0.2, 3))),
               *grad("xlogy(number)", lambda t: t.xlogy(2.5) + minigrad.xlogy(1.5, t * t + 0.5), one()),
           ]),
]


def by_name():
    """{name: OpInfo}; two entries of one name are an error."""
    table = {}
    for op in OPS:
        assert op.name not in table, f"two entries named {op.name!r}"
        table[op.name] = op
    return table


def vs_torch_params(check="compare"):
    """pytest params of every comparison sample of the table that ``check`` runs."""
    return [s.param() for op in OPS for s in op.vs_torch if s.check == check]


def gradcheck_params(order="first", mode="float64"):
    """pytest params of every gradcheck sample checked in ``order`` (and ``mode``)."""
    return [s.param() for op in OPS for s in op.gradcheck
            if order in s.orders and s.mode.split("-")[0] == mode]


def fuzz_pool(family):
    """The fuzzer's templates of one family (tests/fuzz.py), in the table's order."""
    return [t for op in OPS for t in op.fuzz.get(family, ())]
