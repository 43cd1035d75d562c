"""The training utilities tutorials call, against PyTorch's (issue 31a): ``torch.nn.utils``
(gradient clipping, parameters as a vector, ``pad_sequence``), the rarer optimizers, the
rarer lr schedulers, the rest of ``nn.init`` and of ``torch.utils.data``.

Each comparison is a program run under both libraries (tests/oracle.py: PyTorch's answers
are recorded); Hypothesis tests over hyperparameters run against live PyTorch only.
"""
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad
from oracle import caught, error_of

# -- torch.nn.utils: gradient clipping --------------------------------------------------------------


def with_grads(lib, dtypes=("float32", "float32", "float64")):
    """Three parameters with fixed gradients (of mixed dtypes by default) and one without."""
    rng = np.random.default_rng(3)
    shapes = [(2, 3), (4,), (3, 1)]
    params = []
    for shape, dtype in zip(shapes, dtypes):
        p = lib.zeros(shape, dtype=getattr(lib, dtype), requires_grad=True)
        p.grad = lib.tensor(rng.standard_normal(shape) * 2, dtype=getattr(lib, dtype))
        params.append(p)
    params.append(lib.zeros(2, requires_grad=True))  # no .grad: skipped
    return params


CLIP_NORM_CASES = {
    "default": {"max_norm": 1.0},
    "not clipped": {"max_norm": 100.0},
    "norm 1": {"max_norm": 2.0, "norm_type": 1},
    "norm inf": {"max_norm": 0.5, "norm_type": float("inf")},
    "norm 'inf'": {"max_norm": 0.5, "norm_type": "inf"},
    "norm 3": {"max_norm": 1.5, "norm_type": 3.0},
    "foreach": {"max_norm": 1.0, "foreach": False},
    "error_if_nonfinite finite": {"max_norm": 1.0, "error_if_nonfinite": True},
}


@pytest.mark.parametrize("case", CLIP_NORM_CASES)
def test_clip_grad_norm_matches_torch(oracle, case):
    """The total norm returned (its dtype: the widest of the gradients'), the gradients scaled
    in place, the parameter without a gradient left alone."""
    def program(lib):
        params = with_grads(lib)
        grads = [p.grad for p in params[:3]]
        total = lib.nn.utils.clip_grad_norm_(params, **CLIP_NORM_CASES[case])
        return total, [p.grad for p in params], [g is p.grad for g, p in zip(grads, params)]
    theirs = oracle.same(program)
    assert theirs[2] == [True, True, True]  # in place


def test_clip_grad_norm_forms_match_torch(oracle):
    """A single tensor, a generator (model.parameters()), an empty list, all float32; the
    split form get_total_norm + clip_grads_with_norm_; the deprecated name's warning."""
    def program(lib):
        utils = lib.nn.utils
        one = with_grads(lib)[1]
        single = utils.clip_grad_norm_(one, 0.5), one.grad
        params = with_grads(lib, ("float32",) * 3)
        generator = utils.clip_grad_norm_((p for p in params), 1.0, 2), [p.grad for p in params]
        params = with_grads(lib)
        total = utils.get_total_norm([p.grad for p in params[:3]], 1.0)
        split = total, utils.clip_grads_with_norm_(params, 2.0, total), [p.grad for p in params]
        empty = utils.clip_grad_norm_([], 1.0)
        empty_generator = caught(utils.clip_grad_norm_, (p for p in []), 1.0)
        deprecated = caught(utils.clip_grad_norm, with_grads(lib), 1.0)
        return single, generator, split, empty, empty_generator, deprecated, get_total_norm_of_one(lib)
    theirs = oracle.same(program)
    assert theirs[4][1][0][1] == "`parameters` is an empty generator, no gradient clipping will occur."
    assert theirs[5][1][0][0] == "FutureWarning"


def get_total_norm_of_one(lib):
    return lib.nn.utils.get_total_norm(lib.tensor([[3.0, -4.0]]), float("inf"))


def test_clip_grad_norm_nonfinite_matches_torch(oracle):
    """A nan or inf in the gradients: an error with error_if_nonfinite=True, else the
    gradients are scaled by the non-finite norm (nan everywhere), as in PyTorch."""
    def program(lib):
        answers = []
        for bad, norm_type in ((float("inf"), 2.0), (float("nan"), 1), (float("inf"), "inf")):
            p = lib.zeros(2, requires_grad=True)
            p.grad = lib.tensor([bad, 1.0])
            answers.append(error_of(lib.nn.utils.clip_grad_norm_, p, 1.0, norm_type, True))
            answers.append((lib.nn.utils.clip_grad_norm_(p, 1.0, norm_type), p.grad))
        return answers
    theirs = oracle.same(program)
    assert theirs[0].type == "RuntimeError" and "non-finite" in theirs[0].message


def test_clip_grad_value_matches_torch(oracle):
    def program(lib):
        params = with_grads(lib)
        out = lib.nn.utils.clip_grad_value_(params, 0.7)
        one = with_grads(lib)[0]
        lib.nn.utils.clip_grad_value_(one, clip_value=1)
        return out, [p.grad for p in params], one.grad
    theirs = oracle.same(program)
    assert theirs[0] is None and float(theirs[1][0].values.max()) == pytest.approx(0.7)


def test_clip_grad_norm_in_training_matches_torch(oracle):
    """The tutorials' pattern: backward, clip, step; the norms before clipping, the parameters."""
    def program(lib):
        lib.manual_seed(0)
        x = lib.tensor(np.random.default_rng(1).standard_normal((16, 3)))  # float64
        y = x.sum(1, keepdim=True) * 3
        w = lib.tensor([[0.5], [-0.5], [0.1]], dtype=lib.float64, requires_grad=True)
        opt = lib.optim.SGD([w], lr=0.1)
        norms = []
        for _ in range(5):
            opt.zero_grad()
            ((x @ w - y) ** 2).mean().backward()
            norms.append(lib.nn.utils.clip_grad_norm_([w], max_norm=1.0))
            opt.step()
        return norms, w
    theirs = oracle.same(program)
    assert theirs[0][0].item() > 1.0


# -- torch.nn.utils: parameters as a vector ----------------------------------------------------------


def test_parameters_to_vector_and_back_match_torch(oracle):
    def program(lib):
        params = [lib.nn.Parameter(lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
                  lib.nn.Parameter(lib.tensor([7.0, 8.0]))]
        vec = lib.nn.utils.parameters_to_vector(iter(params))
        (vec * lib.arange(8.0)).sum().backward()
        grads = [p.grad for p in params]
        new = lib.arange(8.0) / 10
        lib.nn.utils.vector_to_parameters(new, iter(params))
        with lib.no_grad():
            new[0] = 5.0  # the parameters now share the vector's memory
        return vec, grads, params, error_of(lib.nn.utils.vector_to_parameters, [1.0], [])
    oracle.same(program)


# -- torch.nn.utils.rnn.pad_sequence -----------------------------------------------------------------


PAD_CASES = {
    "default": {},
    "batch_first": {"batch_first": True},
    "padding_value": {"padding_value": -1.5},
    "left": {"padding_side": "left"},
    "left batch_first": {"batch_first": True, "padding_side": "left", "padding_value": 9},
}


@pytest.mark.parametrize("case", PAD_CASES)
def test_pad_sequence_matches_torch(oracle, case):
    """Values, shape, grad_fn (CopySlices) and the gradient that reaches each sequence."""
    def program(lib):
        rng = np.random.default_rng(2)
        seqs = [lib.tensor(rng.standard_normal((n, 2)), requires_grad=True) for n in (3, 1, 4)]
        padded = lib.nn.utils.rnn.pad_sequence(seqs, **PAD_CASES[case])
        (padded * lib.arange(float(padded.numel())).reshape(padded.shape)).sum().backward()
        return padded, [s.grad for s in seqs]
    oracle.same(program)


def test_pad_sequence_other_inputs_match_torch(oracle):
    def program(lib):
        pad = lib.nn.utils.rnn.pad_sequence
        ints = pad([lib.tensor([1, 2, 3]), lib.tensor([4])], padding_value=2.5)
        tensor = pad(lib.ones(2, 3), batch_first=True)  # a tensor is a sequence of its rows
        generator = pad((lib.ones(n) for n in (1, 2)), padding_side="left")
        return ints, tensor, generator
    oracle.same(program)


def bad_pads(lib):
    pad = lib.nn.utils.rnn.pad_sequence
    return {
        "empty": lambda: pad([]),
        "not iterable": lambda: pad(3),
        "trailing dims": lambda: pad([lib.ones(3, 2), lib.ones(2, 3)]),
        "padding_side": lambda: pad([lib.ones(2)], padding_side="up"),
    }


@pytest.mark.parametrize("case", bad_pads(minigrad))
def test_pad_sequence_errors_match_torch(oracle, case):
    oracle.same_error(lambda lib: bad_pads(lib)[case]())


def test_nn_utils_imports_as_in_torch():
    import minigrad.nn.utils
    from minigrad.nn.utils import clip_grad_norm_
    from minigrad.nn.utils.rnn import pad_sequence
    assert minigrad.nn.utils.clip_grad_norm_ is clip_grad_norm_ is minigrad.nn.utils.clip_grad.clip_grad_norm_
    assert minigrad.nn.utils.rnn.pad_sequence is pad_sequence
    assert "utils" in minigrad.nn.__all__
