"""The differential fuzzer: random programs (tests/fuzz.py) under minigrad and PyTorch.

Each program is a chain of 3-15 ops over small float32/float64 tensors, ending in a backward
pass (or, for the second-order ones, ``autograd.grad(..., create_graph=True)`` and the grad of
the grads' sum). Every step's value, dtype, shape, ``requires_grad``, ``is_leaf``, ``grad_fn``
name (and the names of the nodes right behind it) and repr, every exception's type and
message, every warning and each leaf's gradient are compared.

- ``test_recorded_programs``: a seeded subset (160 first-order programs, 40 second-order),
  PyTorch's answers recorded with the oracle (tests/recordings/test_fuzz/), so it runs
  everywhere, PyTorch or not.
- ``test_first_order``, ``test_second_order``: Hypothesis draws the programs and runs them
  under live PyTorch (the ``torch`` fixture); a failure shrinks to a minimal program, printed
  as code. How many: ``MINIGRAD_FUZZ_PROGRAMS`` and ``MINIGRAD_FUZZ_SECOND_ORDER`` (by
  default 2000 and 200 in CI, where ``CI=true`` or ``MINIGRAD_REQUIRE_TORCH=1``: about 45
  seconds together; 200 and 50 elsewhere). The draws are the same on
  every run, whatever ran before in the process (derandomized, and without Hypothesis's pool
  of literals from the loaded modules: ``same_draws``), unless ``MINIGRAD_FUZZ_RANDOM=1``.

Known differences are the fuzzer's one table, ``fuzz.KNOWN_DIFFERENCES``; with the xfail marks
of the other tests they make docs/differences.md's list, which tests/project/test_docs.py checks.
"""
import copy
import importlib
import os
import sys

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers  # for same_draws, below

import fuzz
import minigrad

IN_CI = os.environ.get("CI") == "true" or os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1"
FIRST_ORDER = int(os.environ.get("MINIGRAD_FUZZ_PROGRAMS", 2000 if IN_CI else 200))
SECOND_ORDER = int(os.environ.get("MINIGRAD_FUZZ_SECOND_ORDER", 200 if IN_CI else 50))
# A local profile (registered, never loaded globally), as tests/ops/test_gradcheck.py's
settings.register_profile(
    "minigrad_fuzz", deadline=None, database=None, print_blob=True,
                derandomize=os.environ.get("MINIGRAD_FUZZ_RANDOM") != "1",
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
FUZZ = settings.get_profile("minigrad_fuzz")

RECORDED_CHUNKS = 8    # x 20 first-order programs, seeds 0..159
SECOND_CHUNKS = 4      # x 10 second-order programs, seeds 1000..1039


def _check(program, mine, theirs):
    differences = fuzz.compare(program, mine, theirs)
    assert not differences, fuzz.report(program, differences)


@pytest.fixture(scope="module")
def same_draws():
    """The same programs on every run, whatever ran before in the process. Hypothesis (6.131
    and later) now and then draws a literal found in the source of the local modules the
    process has imported (minigrad, tests, tools): so the draws depended on which tests had run
    first (under xdist, on the worker's share). The fuzzer draws without those literals."""
    if not hasattr(providers, "_get_local_constants"):  # a Hypothesis without them
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(providers, "_get_local_constants", providers.Constants)
        providers.CONSTANTS_CACHE.cache.clear()  # the literals allowed per range, drawn before
        yield
    providers.CONSTANTS_CACHE.cache.clear()


def _live(torch, data, second_order):
    program = fuzz.generate(fuzz.HypothesisDraw(data), second_order=second_order)
    note(str(program))
    _check(program, fuzz.run(minigrad, program), fuzz.run(torch, program))


@settings(FUZZ, max_examples=FIRST_ORDER)
@given(data=st.data())
def test_first_order(torch, same_draws, data):
    _live(torch, data, second_order=False)


@settings(FUZZ, max_examples=SECOND_ORDER)
@given(data=st.data())
def test_second_order(torch, same_draws, data):
    _live(torch, data, second_order=True)


def test_draws_do_not_depend_on_the_modules_loaded(same_draws, tmp_path, monkeypatch):
    """Two runs draw the same programs, though a module full of literals (which Hypothesis
    would otherwise draw now and then) was imported in between."""
    def programs():
        made = []

        @settings(FUZZ, max_examples=40)
        @given(data=st.data())
        def draw(data):
            made.append(str(fuzz.generate(fuzz.HypothesisDraw(data))))
        draw()
        return made

    first = programs()
    (tmp_path / "fuzz_literals.py").write_text(f"NUMBERS = {list(range(-30, 1000, 7))}\n")
    monkeypatch.syspath_prepend(tmp_path)
    try:
        importlib.import_module("fuzz_literals")
        assert programs() == first
    finally:
        sys.modules.pop("fuzz_literals", None)


def _seeds(kind, chunk):
    return range(chunk * 20, chunk * 20 + 20) if kind == "first" else range(1000 + chunk * 10, 1010 + chunk * 10)


@pytest.mark.parametrize("kind, chunk", [("first", c) for c in range(RECORDED_CHUNKS)] +
                         [("second", c) for c in range(SECOND_CHUNKS)])
def test_recorded_programs(oracle, kind, chunk):
    """Seeded programs, PyTorch's answers recorded (each with its program's text, which is what
    minigrad then runs): the fuzzer's proof where PyTorch is not installed."""
    def programs(lib):
        made = [fuzz.generate(fuzz.SeededDraw(seed), second_order=kind == "second")
                for seed in _seeds(kind, chunk)]
        return [{"program": p.to_data(), "answer": fuzz.run(lib, p)} for p in made]

    for entry in oracle(programs):
        program = fuzz.Program.from_data(entry["program"])
        _check(program, fuzz.run(minigrad, program), entry["answer"])


# What the fuzzer found, fixed: each a small program (the fuzzer's form), recorded.
LEAF = "v0 = torch.tensor({}, requires_grad=True)"
FIXED = {
    "relu then sqrt at 0 (no inf * 0)": [LEAF.format("[-1.0, 4.0]"), "v1 = v0.relu().sqrt()"],
    "relu at NaN": [LEAF.format("[nan, -1.0, 0.0, 2.0]"), "v1 = v0.relu()"],
    "maximum and minimum at NaN and ties": [
        LEAF.format("[nan, 1.0, 2.0, 0.0]"), "v1 = torch.tensor([1.0, nan, 2.0, 0.0], requires_grad=True)",
        "v2 = torch.maximum(v0, v1) + torch.minimum(v0, v1)"],
    "inf * 0, silently": [LEAF.format("[inf, 1.0]"), "v1 = torch.tensor([0.0, 2.0], requires_grad=True)",
                          "v2 = v0 * v1", "v3 = v0.log() - v0.log()"],
    "int / float64 0-d": [LEAF.format("[1.0, 2.0]"), "v1 = torch.tensor([1, 2]) / torch.tensor(2.0, dtype=torch.float64)",
                          "v2 = v0 * v1"],
    "float32 + float64 ndarray": [LEAF.format("[1.0, 2.0]"), "v1 = torch.ones(2) + np.array([1.0, 2.0])",
                                  "v2 = v0 * v1"],
    "mse_loss(float32, int64)": [LEAF.format("[1.0, 2.0]"),
                                 "v1 = torch.nn.functional.mse_loss(v0, torch.tensor([1, 3]))"],
    "2.0 ** x.t() then view": [LEAF.format("[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]"),
                               "v1 = (2.0 ** v0.t()).view(8)", "v2 = v0.t().softmax(1).view(8)"],
    "sum_to_size": [LEAF.format("[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"), "v1 = v0.sum_to_size(1, 3)",
                    "v2 = v0.sum_to_size(3)", "v3 = v0.sum(0).sum().sum_to_size(())",
                    "v4 = v0.sum_to_size(2, 2)", "v5 = v0.sum_to_size(2, 3)"],
    "0-d max, prod, index_select along dim 0": [
        LEAF.format("2.0"), "v1 = v0.max(0, keepdim=True)[0]", "v2 = v0.prod(0)",
        "v3 = v0.index_select(0, torch.tensor([0]))", "v4 = v1 + v2 + v3"],
    "full slices": [LEAF.format("[[1.0, 2.0, 3.0]]"), "v1 = v0[0:1, :]", "v2 = v0[:, 0:5]", "v3 = v0[:]",
                    "v4 = v0[0:1, 0:3]", "v5 = v0[0:1, 1]", "v6 = v0.sum()[:]", "v7 = v1 + v2 + v3 + v4"],
    "modified by an inplace operation: Pow1": [
        LEAF.format("[1.0, 2.0]"), "v1 = v0 * 1", "v2 = v1.exp()", "v3 = v2 * v2", "v4 = v2.pow_(v1)",
        "v5 = v3"],
    "modified by an inplace operation: number ** x": [
        LEAF.format("[1.0, 2.0]"), "v1 = v0 * 1", "v2 = 2 ** v1", "v3 = v1.add_(1)", "v4 = v2"],
    "a hook that changes the gradient size": [
        LEAF.format("[1.0, 2.0]"), "v1 = v0 * 2", "v2 = v1.register_hook(lambda g: g.sum()) is None", "v3 = v1"],
    "cumprod at zeros and of one element": [
        LEAF.format("[[2.0, 0.0, 3.0, 0.5], [1.0, 2.0, 0.0, 4.0]]"), "v1 = v0.cumprod(1)",
        "v2 = torch.tensor([nan], requires_grad=True)", "v3 = v2.cumprod(0)", "v4 = v1.sum() + v3.sum()"],
    "prod with inf, sort and topk with NaN, sign of NaN, remainder's zeros": [
        LEAF.format("[-0.25, inf, nan, 3.0]"), "v1 = v0.prod()", "v2 = v0.sort(descending=True).values",
        "v3 = v0.topk(2).values", "v4 = v0.sign()", "v5 = torch.tensor([-2.625, 2.625, -0.0]) % torch.tensor([0.375, -0.375, 0.375])",
        "v6 = v1 + v2.sum() + v3.sum()"],
    "prod with two zeros beside inf": [LEAF.format("[0.0, inf, 0.0]"), "v1 = v0.prod()"],
    "x ** y at x = 0, y = 0": [LEAF.format("[0.0, 2.0]"), "v1 = torch.tensor([0.0, 3.0], requires_grad=True)",
                               "v2 = v0 ** v1", "v3 = torch.tensor(0.0, requires_grad=True) ** v1",
                               "v4 = v3.log()"],
    "nan_to_num's gradient is a product": [LEAF.format("[1.0, inf]"), "v1 = (v0.nan_to_num() * inf).sum()"],
    "var over an empty tensor warns": [LEAF.format("[[0.0, 1.0, 2.0]]"), "v1 = v0[0:0].var(dim=1, keepdim=True)",
                                       "v2 = v0 * 1"],
    "atan2 at the origin (gradient 0, not NaN)": [
        "v0 = torch.tensor([0.0, 1e-200, 0.0, inf, 1.0], dtype=torch.float64, requires_grad=True)",
        "v1 = torch.tensor([0.0, 0.0, 1e-200, 1.0, 2.0], dtype=torch.float64, requires_grad=True)",
        "v2 = torch.atan2(v0, v1) + torch.atan2(v0 * 2, v1.sum() * 0)"],
    "logaddexp in PyTorch form: second derivative at inf": [
        LEAF.format("[[0.0, 0.0], [0.0, inf]]"), "v1 = torch.tensor(0.0, requires_grad=True)",
        "v2 = torch.tensor([inf, -inf, 100.0, -100.0, 1.0, nan], dtype=torch.float64, requires_grad=True)",
        "v3 = torch.logaddexp(v0, v1).sum() + torch.logaddexp(v2, torch.tensor([inf, -inf, 0.0, 0.0, 2.0, 0.0])).sum()"],
    "linear of a non-contiguous input: matmul, then add_": [
        LEAF.format("[[3.015625, 0.25], [3.0, 0.0], [0.0, 0.5]]"), "v1 = v0.unsqueeze(0).narrow(-1, 0, 1)",
        "v2 = torch.tensor([[1.0], [2.0], [0.5]], requires_grad=True)",
        "v3 = torch.tensor([0.25, 0.0, -1.0], requires_grad=True)",
        "v4 = torch.nn.functional.linear(v1, v2, v3)", "v5 = torch.nn.functional.linear(v0.t()[0], v2.t(), v3[:1])",
        "v6 = torch.nn.functional.linear(v0.unsqueeze(0).expand(2, 3, 2), v2.expand(3, 2), v3)",
        "v7 = v4.sum() + v5.sum() + v6.sum()"],
    "cumprod at zeros with inf gradients (PyTorch's first-order form)": [
        "v0 = torch.tensor([[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]], requires_grad=True)",
        "v1 = torch.tensor([[2.0, 0.0, 3.0, 0.5, 0.0, 2.0], [0.0, 2.0, 0.0, 1.0, 3.0, 0.0], "
        "[2.0, 3.0, 0.0, 4.0, 5.0, 1.0], [1.5, -2.0, 0.0, 0.5, 2.0, 0.0]], dtype=torch.float64, requires_grad=True)",
        "v2 = v0.cumprod(dim=1).exp().exp().exp().exp().exp().exp()",
        "v3 = v1.cumprod(1) * torch.tensor([1.0, inf, 1.0, 2.0, inf, 1.0], dtype=torch.float64)",
        "v4 = v1[:, :1].cumprod(1) * inf", "v5 = v2.sum() + v3.sum() + v4.sum()"],
    "division gradient in PyTorch order: -grad times a over b over b": [
        LEAF.format("[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]"), "v1 = torch.tensor(-0.125, requires_grad=True)",
        "v2 = torch.tensor([1e-30, 2.0, inf, 0.0], dtype=torch.float64, requires_grad=True)",
        "v3 = torch.tensor([1e-300, 0.0, 3.0, 1.0], dtype=torch.float64, requires_grad=True)",
        "v4 = (v1 / v0).sum() + (v3 / v2).sum()"],
    "sum, mean, prod, amax, amin along a dim of a transposed tensor: row by row, then view": [
        LEAF.format("[[[0.5, 1.0, 2.0, 3.0], [1.5, 2.0, 0.5, 1.0], [1.0, 2.0, 3.0, 0.5]]]"), "v1 = v0.expand(3, 3, 4).mT",
        "v2 = v1.sum(dim=0, keepdim=True).view(-1) + v1.mean(dim=0, keepdim=True).view(-1) + "
        "v1.prod(dim=0, keepdim=True).view(-1) + v1.amax(dim=0, keepdim=True).view(-1) + "
        "v1.amin(dim=0, keepdim=True).view(-1) + v1.sum(dim=2).reshape(-1).sum()"],
    "var, std, norms, logsumexp, cumsum, cumprod, all, any along a permuted dim: row by row, then view": [
        LEAF.format("[[[0.5, 1.0, 2.0, 3.0], [1.5, 2.0, 0.5, 1.0], [1.0, 2.0, 3.0, 0.5]], "
                    "[[2.0, 0.5, 1.0, 1.5], [3.0, 1.0, 2.5, 0.5], [0.5, 1.5, 1.0, 2.0]]]"),
        "v1 = v0.permute(2, 0, 1)",
        "v2 = v1.var(dim=1, keepdim=True).view(-1) + v1.std(dim=1, keepdim=True).view(-1) + "
        "v1.norm(dim=1, keepdim=True).view(-1) + v1.norm(p=3, dim=1, keepdim=True).view(-1) + "
        "v1.logsumexp(dim=1, keepdim=True).view(-1)",
        "v3 = v1.cumsum(dim=1).view(-1).sum() + v1.cumprod(dim=2).view(-1).sum()",
        "v4 = (v1 > 1.0).all(dim=1).view(-1) * 1.0 + (v1 > 1.0).any(dim=1).view(-1) * 1.0 + "
        "(v1 > 1.0).count_nonzero(dim=1).view(-1) * 1.0",
        "v5 = v2 + v3 + v4"],
    "gather and scatter with an empty float index": [
        LEAF.format("[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"),
        "v1 = torch.zeros(1, 0).requires_grad_()", "v2 = v1.gather(0, torch.tensor([[]]))",
        "v3 = v0.gather(1, torch.zeros(0, 5, dtype=torch.float64))", "v4 = v0.gather(5, torch.zeros(0))",
        "v5 = v0.scatter(1, torch.zeros(2, 0), 2.0)", "v6 = v0.scatter_add(1, torch.zeros(0), v0)",
        "v7 = v0.gather(1, torch.tensor([[0.0]]))", "v8 = v5 + v2.sum() + v3.sum() + v6.detach()"],
    # issue 29's campaign (the new draws: activations, losses, norms, index_select, split, clamp)
    "norm(p=-inf) is the smallest |x|; the inf norms of nothing raise PyTorch's error": [
        LEAF.format("[[2.0, -3.0, 3.0], [1.0, 0.5, -0.5]]"), "v1 = v0.norm(p=-inf, dim=1)",
        "v2 = v0.norm(p=-inf)", "v3 = v0[:, :0].norm(p=inf)", "v4 = v0[:, :0].norm(p=-inf, dim=-1)",
        "v5 = v0[:, :0].norm(p=inf, dim=0)", "v6 = v1 + v2"],
    "huber and smooth L1 at NaN (a NaN gradient); losses of nothing, silently": [
        LEAF.format("[nan, 1.0, 0.2, 3.0, inf]"), "v1 = torch.tensor([0.0, 1.2, nan, -1.0, 1.0], requires_grad=True)",
        "v2 = torch.nn.functional.huber_loss(v0, v1, delta=0.5, reduction='none')",
        "v3 = torch.nn.functional.smooth_l1_loss(v0, v1, beta=0.5)", "v4 = torch.nn.functional.huber_loss(v0[:0], v1[:0])",
        "v5 = torch.nn.functional.binary_cross_entropy(v0[:0].sigmoid(), v1[:0].detach().sigmoid())",
        "v6 = v2.sum() + v3 + v4 + v5"],
    "index_select's bounds": [
        LEAF.format("[1.0, 2.0, 3.0]"), "v1 = v0.index_select(0, torch.tensor([-1]))",
        "v2 = v0.index_select(0, torch.tensor([3]))", "v3 = v0.sum().index_select(0, torch.tensor([0, 0]))",
        "v4 = v0[:0].reshape(1, 0).index_select(1, torch.tensor([0]))",
        "v5 = torch.zeros(2, 0).index_select(0, torch.tensor([0, 5, -1]))",
        "v6 = v0.index_select(0, torch.tensor([2, 0]))"],
    "rsub's broadcast words, split's negative and zero sizes": [
        LEAF.format("[1.0, 2.0, 3.0]"), "v1 = torch.rsub(v0, torch.ones(2))", "v2 = v0.split([4, -1])",
        "v3 = v0.split(-1)", "v4 = v0.split(0)", "v5 = v0.split([1, 2])[1] * 2"],
    "ELU and SELU at NaN (the slope of the positive side) and their second derivative at 0": [
        LEAF.format("[nan, 0.0, -1.5, 2.0, -inf, -0.0]"),
        "v1 = torch.nn.functional.elu(v0) + torch.nn.functional.selu(v0) + torch.nn.functional.elu(v0, alpha=0.5)"],
    "leaky_relu's and the pools' gradients depend on their input (create_graph)": [
        LEAF.format("[[[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]]]"), "v1 = torch.nn.functional.leaky_relu(v0, 0.2)",
        "v2 = torch.nn.functional.max_pool2d(v0, (1, 2))", "v3 = torch.nn.functional.avg_pool2d(v0, (1, 2))",
        "v4 = torch.nn.functional.adaptive_avg_pool2d(v0, 1)", "v5 = v1.sum() + v2.sum() + v3.sum() + v4.sum()"],
    "softplus's second derivative is 0 at its threshold": [
        LEAF.format("[0.5, -1.0, 2.0, nan]"), "v1 = torch.nn.functional.softplus(v0, beta=2.0, threshold=1.0)"],
    "smooth L1's, Huber's and binary cross entropy's second derivatives in PyTorch's form": [
        LEAF.format("[0.125, -inf, inf, 0.5]"), "v1 = torch.tensor([0.5, 0.75, 2.5, 0.5], requires_grad=True)",
        "v2 = torch.nn.functional.smooth_l1_loss(v0, v1, beta=0.5, reduction='none')",
        "v3 = torch.nn.functional.huber_loss(v0 * 2, v1, delta=0.5, reduction='none')",
        "v4 = torch.tensor([0.5, 0.999999, 1e-07, 0.25], dtype=torch.float64, requires_grad=True)",
        "v5 = torch.nn.functional.binary_cross_entropy(v4, torch.tensor([0.0, 0.5, 1.0, 0.25], dtype=torch.float64))",
        "v6 = (v2 * v2).sum() + (v3 * v3).sum() + v5 * v5"],
    "binary cross entropy's gradient in its target: -logit(x), unclamped": [
        "v0 = torch.tensor([0.0, 1.0, 0.5, 0.25], requires_grad=True)",
        "v1 = torch.nn.functional.binary_cross_entropy(torch.tensor([0.0, 1.0, 0.5, 0.75]), v0, reduction='sum')"],
    "batch_norm of inf: NaN statistics, silently": [
        LEAF.format("[[inf, 1.0], [1.0, 2.0]]"), "v1 = torch.nn.functional.batch_norm(v0, None, None, training=True)"],
    "clamp with one tensor bound: the bound's gradient wherever x is past it, inf too": [
        LEAF.format("[-1.5, 1.0, 2.0, 0.0]"), "v1 = torch.tensor([inf, 0.5, nan, -inf], requires_grad=True)",
        "v2 = v0.clamp(min=v1) + v0.clamp(max=-v1)"],
    "the copy of an expanded tensor is laid out row by row (so contiguous() is the tensor itself)": [
        LEAF.format("[0.0, 1.0, 2.0, 3.0]"), "v1 = v0.expand(2, 4).clone().add_(1)", "v2 = v1.contiguous()",
        "v3 = v1.view(8)", "v4 = v2 + v3.view(2, 4)"],
    "an empty mean's second derivative (0, not 0 * inf)": [
        "v0 = torch.tensor([[], []], requires_grad=True)", "v1 = v0.mean(dim=1).nan_to_num()",
        "v2 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)", "v3 = v1 @ v2"],
}


@pytest.mark.parametrize("name", FIXED)
@pytest.mark.parametrize("second_order", [False, True], ids=["first", "second"])
def test_fixed(oracle, name, second_order):
    """The differences the fuzzer found and that are now fixed, each compared as the fuzzer
    compares (the last line's value is the loss)."""
    lines = FIXED[name]
    program = fuzz.Program(lines + [f"loss = {lines[-1].split(' = ')[0]}.sum()"],
                           [line.split(" = ")[0] for line in lines if "requires_grad=True" in line],
                           "loss", second_order)
    theirs = oracle(lambda lib: fuzz.run(lib, program))
    _check(program, fuzz.run(minigrad, program), theirs)


def test_the_generator_reaches_every_family():
    """The seeded programs use each family of ops, 0-d and empty tensors, both dtypes, invalid
    steps and inf/NaN: a generator that stopped drawing one would pass unnoticed otherwise."""
    text = "\n".join(str(fuzz.generate(fuzz.SeededDraw(seed))) for seed in range(500))
    for needle in (".exp()", "torch.maximum(", ".sum(dim=", ".view(", "[torch.tensor(", " @ ",
                   "cross_entropy(", "mse_loss(", ".clone().", "torch.tensor(2.", "torch.zeros(",
                   "dtype=torch.float32", "dtype=torch.float64", "inf", "nan", ".softmax(dim=",
                   ".sum_to_size(", "torch.cat(", ".gather(", "loss.backward()",
                   # the draws issue 29 added: activations, losses with weights, conv and pools...
                   "functional.gelu(", "functional.elu(", "huber_loss(", "binary_cross_entropy_with_logits(",
                   "weight=", "conv1d(", "avg_pool2d(", "layer_norm(", "torch.addcmul(", ".median(",
                   ".index_select(0", "functional.pad(", ".relu_()", ".diff(", "torch.rsub(",
                   # issue 40's: module-level in-place functions, out=, float16
                   "torch.relu_(", "out=", ".half()"):
        assert needle in text, needle


def test_compare_finds_each_kind_of_difference():
    """fuzz.compare reports a wrong value, dtype, grad_fn, error text and warning (so that the
    fuzzer cannot pass by comparing nothing)."""
    program = fuzz.Program(["v0 = torch.tensor([1.0, -2.0], requires_grad=True)", "v1 = v0.relu()",
                            "v2 = v1.sum(dim=5)"], ["v0"], None, False)
    theirs = fuzz.run(minigrad, program)
    for change, kind in ((lambda a: a[1]["value"].values.__setitem__(0, 7.0), "value"),
                         (lambda a: setattr(a[1]["value"], "dtype", "torch.float64"), "dtype"),
                         (lambda a: setattr(a[1]["value"], "grad_fn", "AbsBackward0"), "grad_fn"),
                         (lambda a: setattr(a[2]["error"], "message", "other"), "error message"),
                         (lambda a: a[1]["warnings"].append(["UserWarning", "w"]), "warnings")):
        mine = copy.deepcopy(theirs)
        change(mine)
        assert [k for k, _, _ in fuzz.compare(program, mine, theirs)] == [kind]
    assert fuzz.compare(program, theirs, copy.deepcopy(theirs)) == []
