"""The differential fuzzer's programs: random chains of ops, run under PyTorch and minigrad.

A *program* is a few lines of PyTorch code, one op a line, over one or two small leaf tensors
(float32 or float64; 0-d, empty, broadcastable shapes; now and then inf or NaN), ending in a
backward pass (first order) or in ``torch.autograd.grad`` with ``create_graph=True`` and a
second derivative (second order)::

    v0 = torch.tensor([[0.5, -1.25]], dtype=torch.float64, requires_grad=True)
    v1 = v0.relu()
    v2 = v1.sum(dim=1, keepdim=True)
    v3 = v2 @ torch.tensor([[1.5]], dtype=torch.float64, requires_grad=True)   # a new leaf
    ...

The lines are drawn by :func:`generate` from a *draw* (Hypothesis's, which shrinks a failing
program to a minimal one, or a seeded ``random.Random`` for the recorded subset). While drawing,
each line runs under minigrad, so the next op fits the shapes and dtypes at hand. Now and then a
line is deliberately invalid (a shape that does not broadcast, a dim out of range...): its error
is compared. :func:`run` runs a program's lines under one library and answers, per line, the
values it made (or the exception) and the warnings; then the leaves' gradients.
:func:`compare` lists where minigrad's answer differs from PyTorch's.

Where minigrad knowingly differs, the generator does not draw the case, or :func:`compare`
does not compare that detail, through ONE table, :data:`KNOWN_DIFFERENCES` (each with its
``DIFF:`` reason, listed in docs/differences.md with the xfail marks of the other tests).
"""
from __future__ import annotations

import math
import random
import warnings

import numpy as np

import minigrad
import op_db
from oracle import ErrorRecord, TensorRecord, record, same_bits, warning_text

# ---------------------------------------------------------------------------------------------
# Known differences: the one table of what the fuzzer does not draw or does not compare
# ---------------------------------------------------------------------------------------------

KNOWN_DIFFERENCES = {
    "float32-ulp": "DIFF: NumPy's float32 exp, sin, tan... can differ from PyTorch's in the last bit, and "
                   "a later op can magnify it (tan of exp(4.26) = tan(70.7): one ulp gives 2.5e-4), so "
                   "float32 values are compared to 1e-3, float64 ones to 1e-7, and the fuzzer draws no "
                   "remainder, fraction or periodic function of a float32 value beyond 1000",
    "matmul-graph": "DIFF: a batched or 1-D@2-D matmul is one node in minigrad, linked straight to "
                    "its operands; PyTorch records its decomposition (BmmBackward0, MmBackward0, "
                    "views), so the nodes behind the grad_fn differ (the grad_fn itself matches)",
    "failed-backward": "DIFF: when backward raises midway (a node without a derivative), the "
                       "leaves whose AccumulateGrad already ran differ (the engines' orders differ)",
    "backward-graph": "DIFF: with create_graph=True the gradients' own grad_fn graphs are minigrad's "
                      "backward formulas, not PyTorch's (the values, dtypes and second derivatives "
                      "are compared)",
    "sort-ties": "DIFF: where equal elements go in an unstable sort (stable=False, the default) "
                 "follows PyTorch's CPU sort, which keeps their order in a short row and not always in a "
                 "longer one (of a column of 18 zeros); minigrad's sort is stable, so the fuzzer sorts "
                 "values with ties with stable=True",
    "topk-ties": "DIFF: which of equal elements topk picks (and so where its gradient goes) follows "
                 "PyTorch's quickselect (of six zeros, topk(1) picks the fourth); minigrad picks the "
                 "first, so the fuzzer draws topk over distinct values only",
    "shared-array": "DIFF: an op given both x and x.detach() (one NumPy array) saves the array as x, "
                    "so with create_graph=True its gradient's graph also goes through x (the "
                    "fuzzer gives x.detach().clone())",
    "numpy-wrap": "DIFF: tensor + ndarray warns in PyTorch (NumPy 2's DeprecationWarning about "
                  "torch's __array_wrap__); minigrad has nothing to warn about",
    "warn-once": "DIFF: PyTorch gives some deprecation warnings (x.T of a tensor that is not 2-D, "
                 "x.mT of a 0-d one) once per process, minigrad each time",
    "sgn-zeros": "DIFF: sgn's gradient is PyTorch's ZeroTensor, zeros that stay 0 when a later backward "
                 "multiplies them by inf or NaN; minigrad's are plain zeros (as sign's and floor's "
                 "are in PyTorch too) and give NaN there, so the fuzzer does not draw sgn, nor the l1, smooth l1 "
                 "and Huber losses or norm(p=1) of inf or NaN (their second derivatives are sgn's)",
    "gelu-inf": "DIFF: PyTorch's vectorised float32 GELU gives NaN at +inf (a one-element tensor, "
                "float64, and minigrad give inf, x Phi(x)), so the fuzzer draws no float32 GELU of +inf",
    "elu-nan": "DIFF: PyTorch's ELU, SELU, CELU and Hardswish gradient at NaN is NaN in its vectorised kernel's "
               "full chunks (32 float32 or 16 float64 elements), the slope of the positive side "
               "elsewhere (its formula's x <= 0 test); minigrad gives that slope everywhere, so the "
               "fuzzer draws no ELU of NaN",
    "shrink-nan": "DIFF: PyTorch's hardshrink, softshrink, hardtanh and relu6 gradient at NaN is 0 in "
                  "its vectorised kernel's full chunks, the incoming gradient elsewhere (as minigrad's, "
                  "everywhere); so the fuzzer draws none of these of NaN",
    "det-nonfinite": "DIFF: det and logdet of a matrix with inf or NaN entries: PyTorch's LU gives NaN "
                     "where NumPy's LAPACK call can give 0 or -inf (a zero column met first), so the "
                     "fuzzer draws no det of inf or NaN",
    "mean-of-inf": "DIFF: std_mean's and var_mean's mean is Welford's running mean in PyTorch: of "
                   "[inf, 1.] or [inf, inf] it is NaN (inf - inf on the way); minigrad's is the mean, "
                   "inf, so the fuzzer draws no std_mean or var_mean of inf or NaN",
    "sum-order": "DIFF: a sum in which the largest floats cancel (nan_to_num's +-3.4e38 for +-inf, "
                 "plus 1s) depends on the order of the additions: NumPy's pairwise sum, PyTorch's "
                 "vectorised cascade; so the fuzzer draws nan_to_num() of a value without inf",
    "median-expanded": "DIFF: PyTorch's median along a dim of an expanded tensor (a 0 stride) reads "
                       "memory it did not fill (torch.tensor([1., 2.]).expand(3, 2).median(0) gives "
                       "[1, 4.6e-41]); minigrad gives the median, so the fuzzer draws no median(dim) of "
                       "an expanded tensor",
    "error-draws": "DIFF: unflatten of a 0-d tensor: PyTorch's error message goes on with the C++ stack "
                   "it was raised from, which minigrad has not, so the fuzzer draws none. It also still draws "
                   "none of these, which match PyTorch now (tests/misuse_cases.py has each): lerp of shapes "
                   "that do not broadcast; max, amax, median... of no elements or over a dim of size 0; var "
                   "and std with dof <= 0. Drawing them changes the programs a derandomized run draws, and "
                   "the new ones meet the difference in layout of an elementwise op whose operands are laid "
                   "out differently (tests/ops/test_shapes.py::test_elementwise_result_is_laid_out_as_its_first_operand)",
}


def known(name):
    assert name in KNOWN_DIFFERENCES, name
    return name


# ---------------------------------------------------------------------------------------------
# Draws: Hypothesis's or a seeded random.Random, behind the same three methods
# ---------------------------------------------------------------------------------------------


class SeededDraw:
    """Draws from ``random.Random(seed)``: the recorded programs."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def integer(self, lo, hi):
        return self.r.randint(lo, hi)

    def choice(self, seq):
        return seq[self.r.randrange(len(seq))]

    def chance(self, p):
        return self.r.random() < p


class HypothesisDraw:
    """Draws from Hypothesis's ``data`` (st.data()), so that a failure shrinks."""

    def __init__(self, data):
        from hypothesis import strategies as st
        self.data, self.st = data, st

    def integer(self, lo, hi):
        return self.data.draw(self.st.integers(lo, hi))

    def choice(self, seq):
        return seq[self.data.draw(self.st.integers(0, len(seq) - 1))]

    def chance(self, p):
        # an integer, not a float, so that shrinking goes to "no" (0) quickly
        return self.data.draw(self.st.integers(0, 999)) < p * 1000


# ---------------------------------------------------------------------------------------------
# Leaves
# ---------------------------------------------------------------------------------------------

SPECIALS = (0.0, float("inf"), -float("inf"), float("nan"))


def _number(draw, specials):
    if specials and draw.chance(0.15):
        return draw.choice(SPECIALS)
    # quarter steps in [-3, 3]: exact in float32, so both libraries start from the same bits;
    # an eighth added so that ties (equal elements) are rare but possible
    return draw.integer(-24, 24) / 8 + draw.choice((0.0, 0.0, 0.0, 1 / 64))


def _literal(x):
    if x != x:
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


def _nested(values, shape):
    if not shape:
        return _literal(values[0])
    step = len(values) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nested(values[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def leaf_line(draw, shape, dtype, specials):
    """``torch.tensor([...], dtype=..., requires_grad=True)`` of the given shape."""
    n = math.prod(shape)
    values = [_number(draw, specials) for _ in range(n)]
    if n == 0:  # torch.tensor([]) is 1-D; an empty tensor of another shape is made by reshape
        return f"torch.zeros({', '.join(map(str, shape))}, dtype=torch.{dtype}).requires_grad_()"
    text = _nested(values, shape)
    return f"torch.tensor({text}, dtype=torch.{dtype}, requires_grad=True)"


def draw_shape(draw, max_ndim=3):
    ndim = draw.choice((0, 1, 1, 2, 2, 2, 3)[: {0: 1, 1: 3, 2: 6, 3: 7}[max_ndim]])
    return tuple(draw.choice((1, 2, 2, 3, 3, 4, 0) if draw.chance(0.05) else (1, 2, 2, 3, 3, 4))
                 for _ in range(ndim))


def broadcast_partner(draw, shape):
    """A shape that broadcasts with ``shape``: some trailing dims kept, some set to 1, a new
    leading dim now and then."""
    dims = list(shape[draw.integer(0, len(shape)):]) if shape else []
    dims = [1 if draw.chance(0.3) else d for d in dims]
    if len(dims) < 3 and draw.chance(0.15):
        dims.insert(0, 2)
    return tuple(dims)


# ---------------------------------------------------------------------------------------------
# The ops: each draws the text of one line over a value ``v`` of known shape and dtype
# ---------------------------------------------------------------------------------------------

# The op pool: the lines each family draws, from the op table (tests/op_db.py: each entry's
# ``fuzz``), in the table's order. A template is the text after ``{v}.`` ("unary", "reduce",
# "dim" and "shape" ops, unless it starts with ``torch.`` or ``{v}``), after
# ``torch.nn.functional.`` ("activation"), or the whole line ("scalar", "binary"); ``{v}`` is the
# value, ``{a}``/``{b}`` the value and a new leaf, ``{d}``/``{k}`` a dim and keepdim, ``{shape}``,
# ``{ndim}``, ``{sts}`` (a shape to sum to) and ``{rest}`` (the dim's size - 1) what they say.
# (sgn is in no pool: known("sgn-zeros"))
UNARY = op_db.fuzz_pool("unary")
ACTIVATIONS = op_db.fuzz_pool("activation")  # the activations of torch.nn.functional
SCALAR_OPS = op_db.fuzz_pool("scalar")
BINARY = op_db.fuzz_pool("binary")
SHAPE_FREE_REDUCTIONS = op_db.fuzz_pool("reduce")
DIM_REDUCTIONS = op_db.fuzz_pool("dim")
SHAPE_OPS = op_db.fuzz_pool("shape")
# a conversion's dtype, and the conversion the other way
CONVERSIONS = {"float()": ("float32", "double()"), "double()": ("float64", "float()"),
               "to(torch.float64)": ("float64", "to(torch.float32)"),
               "type(torch.float32)": ("float32", "type(torch.float64)"),
               "half().float()": ("float32", "half().double()")}


# known("error-draws"): on a 0-d tensor, PyTorch's message goes on with its C++ stack
ZERO_D_STACK = ("unflatten",)


def _dims(draw, ndim):
    return draw.integer(-ndim, ndim - 1) if ndim else draw.choice((0, -1))


def _op_text(draw, v, info):
    """A line's right-hand side over value ``v`` (its ``info``: shape, dtype, ties)."""
    shape, dtype, ties, has_inf, has_nan, expanded, _ = info
    ndim = len(shape)
    family = draw.choice(("unary", "unary", "scalar", "binary", "binary", "reduce", "dim", "dim",
                          "shape", "index", "matmul", "nn", "inplace"))
    if family == "unary":
        if draw.chance(0.25):
            op = draw.choice(ACTIVATIONS)
            if op.startswith("gelu") and dtype == "float32" and has_inf:
                op = "silu({v})"  # known("gelu-inf")
            if op.startswith(("elu", "selu", "celu", "hardswish")) and has_nan:
                op = "silu({v})"  # known("elu-nan")
            if op.startswith(("hardshrink", "softshrink", "hardtanh", "relu6")) and has_nan:
                op = "silu({v})"  # known("shrink-nan")
            return "torch.nn.functional." + op.format(v=v), None
        op = draw.choice(UNARY)
        if op == "nan_to_num()" and has_inf:
            op = "nan_to_num(posinf=2.0, neginf=-2.0)"  # known("sum-order")
        if CONVERSIONS.get(op, (None,))[0] == dtype:  # to its own dtype: v itself, whose grad_fn (known
            op = CONVERSIONS[op][1]                     # "matmul-graph" names) would show as this line's
        return f"{v}.{op}", None
    if family == "scalar":
        return draw.choice(SCALAR_OPS).format(v=v), None
    if family == "binary":
        other_shape = shape if draw.chance(0.4) else broadcast_partner(draw, shape)
        op = draw.choice(BINARY)
        if "lerp" in op:  # known("error-draws"): lerp of shapes that do not broadcast
            other_shape = shape
        other_dtype = dtype if draw.chance(0.85) else draw.choice(("float32", "float64"))
        leaf = leaf_line(draw, other_shape, other_dtype, False)
        a, b = (v, "{leaf}") if draw.chance(0.7) else ("{leaf}", v)
        return op.format(a=a, b=b), (leaf,)
    if family == "reduce":
        op = draw.choice(SHAPE_FREE_REDUCTIONS)
        if op in ("var()", "std()") and math.prod(shape) <= 1:
            op = "mean()"  # known("error-draws"): var's dof <= 0
        if op in ("max()", "min()", "amax()", "amin()", "median()", "argmin()") and math.prod(shape) == 0:
            op = "sum()"  # known("error-draws"): an empty max
        if op in ("logdet()", "det()") and (has_inf or has_nan):
            op = "sum()"  # known("det-nonfinite")
        if op == "norm(p=1)" and (has_inf or has_nan):
            op = "norm()"  # known("sgn-zeros"): its second derivative is sgn's
        return f"{v}.{op}", None
    if family == "dim":
        op = draw.choice(DIM_REDUCTIONS)
        d = _dims(draw, ndim)
        if not ndim and op.split("(")[0] in ZERO_D_STACK:
            op = "sum(dim={d}, keepdim={k})"
        if op.startswith(("max(", "min(", "amax(", "amin(", "argmax(", "topk(", "index_select(", "median(",
                          "argmin(")) and ndim and shape[d] == 0:
            op = "sum(dim={d}, keepdim={k})"  # known("error-draws"): an empty max, index
        if op.startswith("median(") and expanded:
            op = "sort(dim={d})[0]"  # known("median-expanded")
        if op.startswith("topk(") and ties:
            op = "sort(dim={d}, descending=True, stable=True).values"  # known("topk-ties")
        if op.startswith("sort(") and ties:
            op = "sort(dim={d}, stable=True)[0]"  # known("sort-ties")
        if op.startswith(("var(", "std(")) and (shape[d] if ndim else 1) <= 1:
            op = "mean(dim={d}, keepdim={k})"  # known("error-draws"): var's dof <= 0
        if op.startswith(("torch.std_mean", "torch.var_mean")) and (has_inf or has_nan or (shape[d] if ndim else 1) <= 1):
            op = "mean(dim={d}, keepdim={k})"  # known("mean-of-inf"), known("error-draws")
        text = op.format(v=v, d=d, k=draw.chance(0.5), rest=(shape[d] if ndim else 1) - 1)
        return (text if text.startswith("torch.") else f"{v}.{text}"), None
    if family == "shape":
        sts = ", ".join(str(1 if draw.chance(0.5) else d) for d in shape[draw.integer(0, ndim):]) or "()"
        op = draw.choice(SHAPE_OPS).format(v=v, shape=tuple(shape), ndim=ndim, sts=sts)
        if (op == "T" and ndim != 2) or (op == "mT" and ndim == 0):
            op = "t()" if ndim <= 2 else "mT"  # known("warn-once")
        if op in ("diagonal()", "trace()") and ndim != 2:
            # N-D diagonal() works (tests/ops/test_ops_vs_torch.py); drawing it shifts the 5000
            # derandomized draws onto layout differences (var/std... along a dim of a
            # transposed tensor, then reshape: UnsafeViewBackward0), issue 20; var, std,
            # norms, logsumexp, cumsum/cumprod, all/any are now row by row (test_fuzz FIXED),
            # the draws are kept as they are
            op = "flatten()"
        return (op if op.startswith((v, "torch.")) else f"{v}.{op}"), None
    if family == "index":
        return _index_text(draw, v, shape), None
    if family == "matmul":
        return _matmul_text(draw, v, shape, dtype)
    if family == "nn":
        return _nn_text(draw, v, shape, dtype, has_inf or has_nan)
    return _inplace_text(draw, v, shape)


def _index_text(draw, v, shape):
    if not shape:
        return f"{v}[None]"
    n = shape[0]
    i = draw.integer(-n, n - 1) if n else 0
    kind = draw.choice(("int", "slice", "slice", "col", "list", "mask", "gather", "take",
                        "select", "scatter", "ellipsis", "index_select", "scatter_add", "scatter_value",
                        "masked_fill", "step", "where"))
    if kind == "int":
        return f"{v}[{i}]"
    if kind == "slice":
        a, b = draw.integer(0, max(n, 1)), draw.integer(0, max(n, 1) + 1)
        return f"{v}[{a}:{b}]" if draw.chance(0.7) else f"{v}[{a}:]"
    if kind == "col" and len(shape) >= 2 and shape[1]:
        return f"{v}[:, {draw.integer(0, shape[1] - 1)}]"
    if kind == "list" and n:
        idx = [draw.integer(-n, n - 1) for _ in range(draw.integer(1, 3))]
        return f"{v}[{idx}]" if draw.chance(0.5) else f"{v}[torch.tensor({idx})]"
    if kind == "mask":
        return f"{v}[{v} > 0]"
    if kind == "gather" and n and len(shape) <= 2:
        idx = [[draw.integer(0, n - 1)] for _ in range(max(shape[1:2] or [1]) if len(shape) == 2 else 1)]
        return (f"{v}.gather(0, torch.tensor({idx[0] if len(shape) == 1 else [[r[0] for r in idx]]}))")
    if kind == "take" and n:
        return f"torch.take_along_dim({v}, {v}.argmax(dim=0, keepdim=True), dim=0)"
    if kind == "select":
        return f"{v}.masked_select({v} > 0)"
    if kind == "scatter" and n:
        return f"{v}.scatter(0, torch.zeros_like({v}, dtype=torch.int64), {v} * 2)"
    if kind == "ellipsis":
        return f"{v}[..., {draw.integer(-shape[-1], shape[-1] - 1) if shape[-1] else 0}:]"
    if kind == "index_select" and n:
        return f"{v}.index_select(0, torch.tensor([{i}, 0, {i}]))"
    if kind == "scatter_add" and n:
        return f"{v}.scatter_add(0, torch.zeros_like({v}, dtype=torch.int64), {v} * 2)"
    if kind == "scatter_value" and n:
        return f"{v}.scatter(0, torch.zeros_like({v}, dtype=torch.int64)[:1], 1.5)"
    if kind == "masked_fill":
        return f"{v}.masked_fill({v} < 0, torch.tensor(0.25))"
    if kind == "step":
        return f"{v}[::2]"
    if kind == "where":
        return f"{v}[torch.where({v} > 0)]"
    return f"{v}[{i}]" if n else f"{v}[0:0]"


def _matmul_text(draw, v, shape, dtype):
    ndim = len(shape)
    if ndim == 0:
        return f"{v} * {v}", None
    k = shape[-1]
    m = draw.choice((1, 2, 3))
    form = draw.choice(("@", "@", "mm", "mv", "dot", "bmm", "outer", "linear", "left"))
    if form == "left":  # a 2-D leaf on the left, v on the right
        if ndim == 1 or ndim == 2:
            right = leaf_line(draw, (m, shape[0] if ndim == 1 else shape[-2]), dtype, False)
            return f"{{leaf}} @ {v}", (right,)
        return f"{v}.sum()", None
    if form == "outer" and ndim == 1:
        return f"torch.outer({v}, {{leaf}})", (leaf_line(draw, (m,), dtype, False),)
    if form == "dot" and ndim == 1:
        return f"torch.dot({v}, {{leaf}})", (leaf_line(draw, (k,), dtype, False),)
    if form == "mv" and ndim == 2:
        return f"torch.mv({v}, {{leaf}})", (leaf_line(draw, (k,), dtype, False),)
    if form == "bmm" and ndim == 3:
        return f"torch.bmm({v}, {{leaf}})", (leaf_line(draw, (shape[0], k, m), dtype, False),)
    if form == "linear" and ndim >= 1:
        w = leaf_line(draw, (m, k), dtype, False)
        if draw.chance(0.5):
            return f"torch.nn.functional.linear({v}, {{leaf}})", (w,)
        return f"torch.nn.functional.linear({v}, {{leaf}}, {{leaf2}})", (w, leaf_line(draw, (m,), dtype, False))
    other = (k,) if draw.chance(0.25) else (k, m)
    if ndim <= 2 and draw.chance(0.2):
        other = (2, k, m)
    return (f"torch.mm({v}, {{leaf}})" if form == "mm" and ndim == 2 and len(other) == 2 else
            f"{v} @ {{leaf}}"), (leaf_line(draw, other, dtype, False),)


def _nn_text(draw, v, shape, dtype, nonfinite=False):
    F = "torch.nn.functional"
    full = shape and all(shape)
    if len(shape) == 2 and full and draw.chance(0.6):
        n, c = shape
        target = [draw.integer(0, c - 1) for _ in range(n)]
        weight = f"torch.tensor({[draw.choice((0.5, 1.0, 2.0)) for _ in range(c)]}, dtype=torch.{dtype})"
        return draw.choice((f"{F}.cross_entropy({v}, torch.tensor({target}))",
                            f"{F}.nll_loss({v}.log_softmax(dim=1), torch.tensor({target}))",
                            f"{F}.mse_loss({v}, torch.zeros_like({v}))",
                            f"{F}.cross_entropy({v}, torch.tensor({target}), reduction='sum')",
                            f"{F}.cross_entropy({v}, torch.tensor({target}), weight={weight})",
                            f"{F}.cross_entropy({v}, torch.tensor({target}), label_smoothing=0.25)",
                            f"{F}.nll_loss({v}, torch.tensor({target}), weight={weight}, reduction='none')",
                            f"{F}.nll_loss({v}, torch.tensor({target}), ignore_index={target[0]})",
                            f"{F}.kl_div({v}.log_softmax(-1), ({v}.detach() / 2).softmax(-1), reduction='batchmean')",
                            f"{F}.layer_norm({v}, ({c},))",
                            f"{F}.embedding(torch.tensor([{n - 1}, 0]), {v})",
                            f"{F}.batch_norm({v}, None, None, training=True)" if n > 1 else f"{F}.normalize({v})")), None
    if len(shape) == 3 and full and draw.chance(0.5):  # (C, H, W) or (N, C, L)
        k = draw.integer(1, min(shape[-1], 2))
        form = draw.choice(("conv1d", "conv2d", "max_pool2d", "avg_pool2d", "adaptive"))
        if form == "conv1d":
            return (f"{F}.conv1d({v}, {{leaf}})", (leaf_line(draw, (2, shape[1], k), dtype, False),))
        if form == "conv2d":
            return (f"{F}.conv2d({v}.unsqueeze(0), {{leaf}}, padding=1)",
                    (leaf_line(draw, (2, shape[0], 1, k), dtype, False),))
        if form == "adaptive":
            return f"{F}.adaptive_avg_pool2d({v}, 1)", None
        return f"{F}.{form}({v}, (1, {k}))", None
    reduction = draw.choice(("'mean'", "'sum'", "'none'"))
    loss = draw.choice(("mse_loss({v}, {{leaf}}, reduction={r})", "l1_loss({v}, {{leaf}}, reduction={r})",
                        "smooth_l1_loss({v}, {{leaf}}, beta=0.5, reduction={r})",
                        "huber_loss({v}, {{leaf}}, delta=0.5, reduction={r})",
                        "binary_cross_entropy({v}.sigmoid(), {{leaf}}.detach().sigmoid(), reduction={r})",
                        "binary_cross_entropy_with_logits({v}, {{leaf}}.detach().sigmoid(), reduction={r})",
                        "binary_cross_entropy_with_logits({v}, {{leaf}}.detach().sigmoid(), "
                        "pos_weight={{leaf}}.detach().abs(), reduction={r})"))
    if nonfinite and loss.startswith(("l1", "smooth_l1", "huber")):
        loss = "mse_loss({v}, {{leaf}}, reduction={r})"  # known("sgn-zeros"): their second derivative is sgn's
    return f"{F}.{loss.format(v=v, r=reduction)}", (leaf_line(draw, shape, dtype, False),)


def _inplace_text(draw, v, shape):
    """An in-place op on a fresh non-view (a clone), or through a view of one (the clone is
    the line's value: its CopySlices node and its graph are compared)."""
    if draw.chance(0.2):  # torch.X_(t), and torch.X(..., out=t): on a clone, or on detached values
        op = draw.choice(("torch.relu_({c})", "torch.sigmoid_({c})", "torch.exp_({c})", "torch.tanh_({c})",
                          "torch.neg_({c})", "torch.sqrt_({c})", "torch.clamp_({c}, -1, 1)",
                          "torch.add({v}, 1, out={c})", "torch.mul({d}, 2, out={d}.clone())",
                          "torch.exp({d}, out=torch.empty(0, dtype={v}.dtype))",
                          "torch.matmul({d}.reshape(1, -1), {d}.reshape(-1, 1), out=torch.empty(3, dtype={v}.dtype))"))
        return op.format(v=v, c=f"{v}.clone()", d=f"{v}.detach()"), None
    if draw.chance(0.4):
        op = draw.choice(("add_(1)", "mul_(2)", "mul_(-1)", "zero_()", "fill_(0.5)", "clamp_(-1, 1)",
                          "relu_()", "exp_()", "neg_()", "sigmoid_()", "sqrt_()"))
        view = draw.choice(_views(shape))
        return f"(b := {v}.clone(), b{'' if view.startswith('[') else '.'}{view}.{op})[0]", None
    op = draw.choice(("add_(1)", "mul_(2)", "div_(3)", "clamp_(-1, 1)", "zero_()", "fill_(0.5)",
                      "sub_(0.5)", "pow_(2)" if False else "mul_(-1)", "relu_()", "sigmoid_()", "tanh_()",
                      "exp_()", "abs_()", "neg_()", "clamp_min_(0)", "add_({v}, alpha=2)", "mul_({v})",
                      "addcmul_({v}, {v}, value=0.5)", "lerp_({v}.detach().clone() * 2, 0.5)",
                      "copy_({v} * 3)", "masked_fill_({v} > 0, 1.0)", "sqrt_()"))
    return f"{v}.clone().{op.format(v=v)}", None


def _views(shape):
    """Views of a tensor of ``shape`` (of a permuted one, reshape(-1) is a copy: then nothing
    changes in the base, in both libraries)."""
    views = ["unsqueeze(0)", "reshape(-1)", "flatten()", "view_as(b)", "expand_as(b)"]
    if shape:
        views += ["transpose(0, -1)", "movedim(0, -1)", "[..., :1]", "narrow(-1, 0, 1)" if shape[-1] else "[0:0]"]
        if shape[0]:
            views += ["[0]", "select(0, -1)"]
    if len(shape) <= 2:
        views.append("t()")
    if len(shape) >= 2:
        views += ["diagonal()", "mT", "t()[0]" if len(shape) == 2 and shape[1] else "mT[..., :1]"]
    return views


# ---------------------------------------------------------------------------------------------
# Invalid steps: errors whose type and text are compared
# ---------------------------------------------------------------------------------------------


def _invalid_text(draw, v, shape, dtype):
    ndim = len(shape)
    bad = ndim + draw.integer(0, 2)
    kind = draw.choice(("broadcast", "dim", "view", "matmul", "softmax", "transpose", "expand",
                        "sum_to_size", "int-grad"))
    if kind == "broadcast" and ndim:
        other = tuple(d + 1 if d > 1 else 3 for d in shape)
        return f"{v} + {{leaf}}", (leaf_line(draw, other, dtype, False),)
    if kind == "dim":
        return f"{v}.sum(dim={bad})", None
    if kind == "view":
        return f"{v}.view({math.prod(shape) + 1})", None
    if kind == "matmul" and ndim in (1, 2):
        return f"{v} @ {{leaf}}", (leaf_line(draw, (shape[-1] + 1, 2), dtype, False),)
    if kind == "softmax":
        return f"{v}.softmax(dim={bad})", None
    if kind == "transpose" and ndim:
        return f"{v}.transpose(0, {bad})", None
    if kind == "expand":
        return f"{v}.expand({', '.join(['5'] * (ndim or 1))})", None
    if kind == "sum_to_size" and ndim:
        return f"{v}.sum_to_size({', '.join(str(d + 2) for d in shape)})", None
    return f"{v}.long().requires_grad_()", None


# ---------------------------------------------------------------------------------------------
# Generating a program
# ---------------------------------------------------------------------------------------------


def _info(x):
    """(shape, dtype, whether two elements are equal, whether one is inf, whether one is NaN,
    whether it is expanded: a 0 stride, whether it is a float32 one beyond 1000) of a value
    minigrad made, or None where the chain cannot go on from it."""
    if not isinstance(x, minigrad.Tensor):
        return None
    if x.dtype not in (minigrad.float32, minigrad.float64):
        return None
    values = x.detach().numpy()
    return (tuple(x.shape), str(x.dtype).replace("torch.", ""), np.unique(values).size < values.size,
            bool(np.isinf(values).any()), bool(np.isnan(values).any()), 0 in x.stride(),
            x.dtype == minigrad.float32 and bool(np.abs(values[np.isfinite(values)]).max(initial=0) > 1e3))


# ops whose answer, of a large float32 value, is its last bits (which NumPy's exp, cosh... and
# PyTorch's may round apart): a remainder, a fraction, a periodic function
MAGNIFIERS = ("%", "fmod", "remainder", "frac()", "tan()", "sin()", "cos()", "rounding_mode", "//")


def generate(draw, second_order=False):
    """A program: its lines (PyTorch code over ``torch``), drawn with ``draw``."""
    specials = draw.chance(0.2)
    dtype = draw.choice(("float32", "float64"))
    lines, env, pool, leaves = [], {"torch": minigrad, "inf": math.inf, "nan": math.nan}, [], []

    def add(text, is_leaf=False):
        name = f"v{len(lines)}"
        line = f"{name} = {text}"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(line, env)
        except Exception:  # noqa: BLE001 - an invalid line stays in the program, its error compared
            lines.append(line)
            return None
        lines.append(line)
        if is_leaf:
            leaves.append(name)
        info = _info(env[name])
        if info is not None:
            pool.append((name, info))
        return name

    add(leaf_line(draw, draw_shape(draw), dtype, specials), is_leaf=True)
    if draw.chance(0.3):
        add(leaf_line(draw, draw_shape(draw), dtype, specials), is_leaf=True)
    for _ in range(draw.integer(3, 15)):
        v, info = pool[-1] if draw.chance(0.6) else draw.choice(pool)
        invalid = draw.chance(0.04)
        text, new_leaves = (_invalid_text(draw, v, *info[:2]) if invalid else _op_text(draw, v, info))
        if info[6] and any(op in text for op in MAGNIFIERS):
            text, new_leaves = f"{v}.tanh()", None  # known("float32-ulp"): of a large float32 value
        if new_leaves:  # the op's other operands: new leaves, each a line of its own
            names = [add(leaf, is_leaf=True) for leaf in new_leaves]
            text = text.replace("{leaf2}", names[-1]).replace("{leaf}", names[0])
        add(text)
    last = next((name for name, _ in reversed(pool) if env[name].requires_grad), None)
    if last is not None:
        lines.append(f"loss = {last}.sum()")
    return Program(lines, leaves, "loss" if last is not None else None, second_order)


class Program:
    def __init__(self, lines, leaves, loss, second_order):
        self.lines, self.leaves, self.loss, self.second_order = lines, leaves, loss, second_order

    def to_data(self):
        return {"lines": list(self.lines), "leaves": list(self.leaves), "loss": self.loss,
                "second_order": self.second_order}

    @classmethod
    def from_data(cls, data):
        return cls(data["lines"], data["leaves"], data["loss"], data["second_order"])

    def __str__(self):
        tail = []
        if self.loss:
            leaves = ", ".join(self.leaves)
            if self.second_order:
                tail = [f"grads = torch.autograd.grad(loss, [{leaves}], create_graph=True, allow_unused=True)",
                        "total = sum(g.sum() for g in grads if g is not None and g.requires_grad)",
                        f"second = torch.autograd.grad(total, [{leaves}], allow_unused=True)"]
            else:
                tail = ["loss.backward()", f"grads = [{', '.join(x + '.grad' for x in self.leaves)}]"]
        return "\n".join(self.lines + tail)


# ---------------------------------------------------------------------------------------------
# Running a program under one library
# ---------------------------------------------------------------------------------------------


def _answer(value):
    if isinstance(value, (list, tuple)):
        return [_answer(x) for x in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if getattr(value, "_is_zerotensor", lambda: False)():  # PyTorch's lazy zeros (an unused input)
        value = value.new_zeros(value.shape)
    answer = record(value)
    if isinstance(answer, TensorRecord) and answer.graph:  # the node and those right behind it
        answer.graph = f"{answer.grad_fn}({', '.join(_next_names(answer.graph))})"
    return answer


def _step(line, env):
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        try:
            exec(line, env)
        except Exception as e:  # noqa: BLE001 - the error is the answer
            return {"error": ErrorRecord(type(e).__name__, str(e)), "warnings": _warnings(log)}
    name = line.split(" = ", 1)[0]
    return {"value": _answer(env.get(name)), "warnings": _warnings(log)}


def _warnings(log):
    return [list(warning_text(w)) for w in log]


def run(lib, program):
    """The program's answer under ``lib``: one entry per line, then the gradients."""
    env = {"torch": lib, "np": np, "inf": math.inf, "nan": math.nan}
    steps = [_step(line, env) for line in program.lines]
    if program.loss and "loss" in env:
        leaves = ", ".join(program.leaves)
        if program.second_order:
            env["lib_grad"] = lib.autograd.grad
            steps.append(_step(f"grads = lib_grad(loss, [{leaves}], create_graph=True, allow_unused=True)", env))
            live = [g for g in env.get("grads", ()) if g is not None and g.requires_grad]
            if live:
                env["live"] = live
                steps.append(_step("total = sum(g.sum() for g in live)", env))
                if "total" in env:
                    steps.append(_step(f"second = lib_grad(total, [{leaves}], allow_unused=True)", env))
        else:
            steps.append(_step("loss.backward()", env))
            steps.append(_step(f"grads = [{', '.join(x + '.grad' for x in program.leaves)}]", env))
    return steps


# ---------------------------------------------------------------------------------------------
# Comparing minigrad's answer with PyTorch's
# ---------------------------------------------------------------------------------------------


def _close(mine, theirs, loose=False):
    """Float values equal up to rounding that a chain of ops can accumulate: relative 1e-3
    (float32) or 1e-7 (float64) of the largest finite value; inf and NaN where PyTorch has them."""
    a, b = mine.values, theirs.values
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    if not (np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(np.isposinf(a), np.isposinf(b))
            and np.array_equal(np.isneginf(a), np.isneginf(b))):
        return False
    finite = np.isfinite(b)
    rtol = 1e-3 if a.dtype == np.float32 or loose else 1e-7  # known("float32-ulp")
    scale = float(np.abs(b[finite]).max()) if finite.any() else 0.0
    return bool(np.all(np.abs(a[finite].astype(np.float64) - b[finite]) <= rtol * (1 + scale)))


def _next_names(graph):
    """The names of the nodes right behind a graph's grad_fn (its text, see oracle.graph_text)."""
    if graph is None or "(" not in graph:
        return ()
    inner, depth, names, word = graph[graph.index("(") + 1:-1], 0, [], ""
    for c in inner:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            names.append(word.strip())
            word = ""
            continue
        if depth == 0 and c != ")":
            word += c
    names.append(word.strip())
    return tuple(n.split(":")[0].lstrip("@") for n in names)


def compare_values(mine, theirs, where, out, line="", loose=False):
    """Append (kind, where, detail) to ``out`` for each way ``mine`` differs from ``theirs``
    (``loose``: float32 tolerance, for a program where float32 values flow into float64 ones)."""
    if isinstance(theirs, TensorRecord):
        if not isinstance(mine, TensorRecord):
            out.append(("type", where, f"minigrad {mine!r}, PyTorch a tensor"))
            return
        for key in ("dtype", "shape", "requires_grad", "is_leaf", "grad_fn"):
            if getattr(mine, key) != getattr(theirs, key):
                out.append((key, where, f"minigrad {getattr(mine, key)}, PyTorch {getattr(theirs, key)}"))
        if mine.dtype == theirs.dtype and mine.shape == theirs.shape:
            if not _close(mine, theirs, loose):
                out.append(("value", where, f"minigrad {mine.values.tolist()}, PyTorch {theirs.values.tolist()}"))
            elif (same_bits(mine.values, theirs.values) and mine.repr != theirs.repr
                  and not (_is_matmul(line) and theirs.grad_fn == "UnsafeViewBackward0")):
                out.append(("repr", where, f"minigrad {mine.repr!r}, PyTorch {theirs.repr!r}"))
        mine_next = _next_names(mine.graph)  # (where PyTorch's node has more inputs, the first ones)
        if (mine.grad_fn == theirs.grad_fn and mine_next != _next_names(theirs.graph)[:len(mine_next)]
                and not _is_matmul(line) and mine.grad_fn not in ("UnsafeViewBackward0", "SqueezeBackward4")):
            out.append(("graph", where, f"minigrad {mine.graph}, PyTorch {theirs.graph}"))
    elif isinstance(theirs, list):
        if not isinstance(mine, list) or len(mine) != len(theirs):
            out.append(("type", where, f"minigrad {mine!r}, PyTorch {theirs!r}"))
            return
        for i, (a, b) in enumerate(zip(mine, theirs)):
            compare_values(a, b, f"{where}[{i}]", out, line, loose)
    elif not (mine == theirs or (isinstance(theirs, float) and theirs != theirs and mine != mine)):
        out.append(("value", where, f"minigrad {mine!r}, PyTorch {theirs!r}"))


# known("numpy-wrap"): warnings of PyTorch's that minigrad does not give
IGNORED_WARNINGS = ("__array_wrap__ must accept context and return_scalar arguments (positionally) "
                    "in the future. (Deprecated NumPy 2.0)",)


def _is_matmul(line):
    """A line whose grad_fn's inputs differ by the known ``matmul-graph`` difference."""
    return any(s in line for s in (" @ ", "torch.bmm(", "functional.linear("))


def compare(program, mine, theirs):
    """Every difference of minigrad's answer from PyTorch's, as (kind, line, detail)."""
    out = []
    lines = str(program).splitlines()
    loose = "float32" in str(program) or ".float()" in str(program)  # (x.float(): float32 too)
    for i, (a, b) in enumerate(zip(mine, theirs)):
        line = lines[i] if i < len(lines) else f"step {i}"
        if "error" in b or "error" in a:
            if "error" not in a:  # the programs part here: what follows cannot be compared
                out.append(("no error", line, f"PyTorch raised {b['error']!r}"))
                break
            elif "error" not in b:
                out.append(("error", line, f"minigrad raised {a['error']!r}"))
                break
            elif a["error"].type != b["error"].type:
                out.append(("error type", line, f"minigrad {a['error']!r}\n    PyTorch  {b['error']!r}"))
            elif a["error"].message != b["error"].message:
                out.append(("error message", line, f"minigrad {a['error']!r}\n    PyTorch  {b['error']!r}"))
            if i >= len(program.lines):
                break  # known("failed-backward"): the leaves' .grad after a failed backward
        else:
            before = len(out)
            compare_values(a["value"], b["value"], line, out, line, loose)
            if program.second_order and i == len(program.lines):  # known("backward-graph")
                out[before:] = [d for d in out[before:] if d[0] not in ("grad_fn", "graph", "repr")]
            # a node's inputs are compared once: not again where an earlier node differed
            if any(k in ("grad_fn", "graph") for k, _, _ in out[:before]):
                out[before:] = [d for d in out[before:] if d[0] != "graph"]
        if a["warnings"] != [w for w in b["warnings"] if w[1] not in IGNORED_WARNINGS]:
            out.append(("warnings", line, f"minigrad {a['warnings']}, PyTorch {b['warnings']}"))
    if len(mine) != len(theirs) and not any(k in ("error", "no error") for k, _, _ in out):
        out.append(("steps", "end", f"minigrad {len(mine)} steps, PyTorch {len(theirs)}"))
    return out


def report(program, differences):
    text = "\n".join(f"  [{kind}] {line}\n    {detail}" for kind, line, detail in differences)
    return f"minigrad differs from PyTorch on this program:\n\n{program}\n\n{text}"
