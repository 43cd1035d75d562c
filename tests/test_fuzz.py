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
  default 5000 and 500 in CI, where ``CI=true`` or ``MINIGRAD_REQUIRE_TORCH=1``; 200 and 50
  elsewhere). The draws are the same on every run (derandomized) unless
  ``MINIGRAD_FUZZ_RANDOM=1``.

Known differences are the fuzzer's one table, ``fuzz.KNOWN_DIFFERENCES``; with the xfail marks
of the other tests they make the README's list, which ``test_readme_lists_the_known_differences``
checks.
"""
import copy
import os

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import fuzz
import known_differences
import minigrad

IN_CI = os.environ.get("CI") == "true" or os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1"
FIRST_ORDER = int(os.environ.get("MINIGRAD_FUZZ_PROGRAMS", 5000 if IN_CI else 200))
SECOND_ORDER = int(os.environ.get("MINIGRAD_FUZZ_SECOND_ORDER", 500 if IN_CI else 50))
# A local profile (registered, never loaded globally), as tests/test_gradcheck.py's
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


def _live(torch, data, second_order):
    program = fuzz.generate(fuzz.HypothesisDraw(data), second_order=second_order)
    note(str(program))
    _check(program, fuzz.run(minigrad, program), fuzz.run(torch, program))


@settings(FUZZ, max_examples=FIRST_ORDER)
@given(data=st.data())
def test_first_order(torch, data):
    _live(torch, data, second_order=False)


@settings(FUZZ, max_examples=SECOND_ORDER)
@given(data=st.data())
def test_second_order(torch, data):
    _live(torch, data, second_order=True)


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


def test_the_generator_reaches_every_family():
    """The seeded programs use each family of ops, 0-d and empty tensors, both dtypes, invalid
    steps and inf/NaN: a generator that stopped drawing one would pass unnoticed otherwise."""
    text = "\n".join(str(fuzz.generate(fuzz.SeededDraw(seed))) for seed in range(200))
    for needle in (".exp()", "torch.maximum(", ".sum(dim=", ".view(", "[torch.tensor(", " @ ",
                   "cross_entropy(", "mse_loss(", ".clone().", "torch.tensor(2.", "torch.zeros(",
                   "dtype=torch.float32", "dtype=torch.float64", "inf", "nan", ".softmax(dim=",
                   ".sum_to_size(", "torch.cat(", ".gather(", "loss.backward()"):
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


def test_readme_lists_the_known_differences():
    """README.md's list of known differences is the one generated from the DIFF marks and the
    fuzzer's table: a new DIFF mark without its README line fails here."""
    section = known_differences.readme_section()
    assert section is not None, f"README.md has no {known_differences.BEGIN} section"
    expected = known_differences.text(known_differences.collected())
    assert section == expected, ("README.md's list of known differences is not the generated "
                                 "one: run `python tests/known_differences.py` and commit README.md")
