"""The training utilities tutorials call, against PyTorch's (issue 31a): ``torch.nn.utils``
(gradient clipping, parameters as a vector, ``pad_sequence``), the rarer optimizers, the
rarer lr schedulers, the rest of ``nn.init`` and of ``torch.utils.data``.

Each comparison is a program run under both libraries (tests/oracle.py: PyTorch's answers
are recorded); Hypothesis tests over hyperparameters run against live PyTorch only.
"""
import copy

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad
from oracle import assert_same, caught, error_of
from test_optim import X0, Y0, problem, run_both, same_state, train_step, training, values

X0_32, Y0_32 = X0.astype(np.float32), Y0.astype(np.float32)

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


# -- the rarer optimizers -----------------------------------------------------------------------------
# The least-squares problem of test_optim.py, trained 20 steps in both libraries: the loss
# before and the parameters after every step agree to 1e-12 relative (float64).

OPTIMIZER_CASES = {
    "Adamax default": ("Adamax", {}),
    "Adamax": ("Adamax", {"lr": 0.05, "betas": (0.8, 0.9), "eps": 1e-3, "weight_decay": 0.1}),
    "Adamax maximize": ("Adamax", {"lr": 0.01, "maximize": True}),
    "NAdam default": ("NAdam", {}),
    "NAdam": ("NAdam", {"lr": 0.05, "betas": (0.8, 0.95), "momentum_decay": 0.01, "weight_decay": 0.1}),
    "NAdam decoupled": ("NAdam", {"lr": 0.05, "weight_decay": 0.3, "decoupled_weight_decay": True}),
    "NAdam maximize": ("NAdam", {"lr": 0.01, "maximize": True, "betas": (0.3, 0.99)}),
    "RAdam default": ("RAdam", {"lr": 0.05}),  # rho_t > 5 from step 6 on: both branches
    "RAdam": ("RAdam", {"lr": 0.05, "betas": (0.7, 0.9), "weight_decay": 0.1}),  # rho_t <= 5 throughout
    "RAdam decoupled": ("RAdam", {"lr": 0.05, "weight_decay": 0.3, "decoupled_weight_decay": True}),
    "RAdam maximize": ("RAdam", {"lr": 0.01, "maximize": True}),
    "Adadelta default": ("Adadelta", {}),
    "Adadelta": ("Adadelta", {"lr": 0.5, "rho": 0.5, "eps": 1e-3, "weight_decay": 0.1}),
    "Adadelta maximize": ("Adadelta", {"maximize": True}),
    "Rprop default": ("Rprop", {}),
    "Rprop": ("Rprop", {"lr": 0.1, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)}),
    "Rprop maximize": ("Rprop", {"lr": 0.01, "maximize": True}),
    "ASGD default": ("ASGD", {}),
    "ASGD averaging": ("ASGD", {"lr": 0.05, "lambd": 1e-2, "alpha": 0.5, "t0": 5, "weight_decay": 0.1}),
    "ASGD maximize": ("ASGD", {"lr": 0.01, "maximize": True, "t0": 0}),
}


@pytest.mark.parametrize("case", OPTIMIZER_CASES)
def test_optimizers_match_torch(oracle, case):
    """Every step's parameters, and then the state (keys in PyTorch's order, ``step`` and the
    other scalars as float32 tensors) and the param_groups of state_dict()."""
    name, kwargs = OPTIMIZER_CASES[case]
    mine, theirs = run_both(oracle, name, kwargs, then=lambda lib, opt, params: opt.state_dict())
    same_state(mine["then"], theirs["then"])


@pytest.mark.parametrize("name", ["Adamax", "NAdam", "RAdam", "Adadelta", "Rprop", "ASGD"])
def test_optimizers_in_float32_and_with_a_missing_grad_match_torch(oracle, name):
    """float32 parameters (their state float32 too), one parameter without a gradient for a
    step, and a second group with its own lr."""
    def program(lib):
        (W, b), loss_fn = problem(lib)
        W, b = (lib.nn.Parameter(t.detach().float()) for t in (W, b))
        X, Y = lib.tensor(X0_32), lib.tensor(Y0_32)
        opt = getattr(lib.optim, name)([{"params": [W]}, {"params": [b], "lr": 0.002}], lr=0.01)
        for step in range(4):
            opt.zero_grad()
            ((X @ W + b - Y) ** 2).mean().backward()
            if step == 1:
                b.grad = None
            opt.step()
        return W, b, opt.state_dict()
    mine, theirs = oracle.both(program)
    assert_same(mine, theirs, rtol=1e-5, atol=1e-7, check_repr=False)


@pytest.mark.parametrize("name, kwargs", [("NAdam", {"lr": 0.05}), ("ASGD", {"lr": 0.05, "t0": 2}),
                                          ("Rprop", {}), ("Adadelta", {}), ("RAdam", {}), ("Adamax", {})])
def test_optimizer_state_dict_resumes_as_torch(oracle, name, kwargs):
    """Half the steps, state_dict, a fresh optimizer loaded from it, the other half. As in
    PyTorch, loading casts the state to the parameters' dtype except ``step``: NAdam's
    ``mu_product`` and ASGD's ``eta`` and ``mu`` become float64 here, so the resumed run
    differs in the last bits from an uninterrupted one, in both libraries alike."""
    def program(lib):
        params, loss_fn = problem(lib)
        opt = getattr(lib.optim, name)(params, **kwargs)
        for _ in range(5):
            train_step(opt, loss_fn)
        saved = copy.deepcopy(opt.state_dict())
        opt = getattr(lib.optim, name)(params, **kwargs)
        opt.load_state_dict(saved)
        for _ in range(5):
            train_step(opt, loss_fn)
        return values(params), opt.state_dict()
    mine, theirs = oracle.both(program)
    same_state(mine, theirs)


def bad_optimizers(lib):
    (W, _), _ = problem(lib)
    optim = lib.optim
    return {
        "adamax lr": lambda: optim.Adamax([W], lr=-1e-3),
        "adamax eps": lambda: optim.Adamax([W], eps=-1.0),
        "adamax beta0": lambda: optim.Adamax([W], betas=(1.0, 0.9)),
        "adamax beta1": lambda: optim.Adamax([W], betas=(0.9, 1.5)),
        "adamax weight_decay": lambda: optim.Adamax([W], weight_decay=-0.1),
        "nadam momentum_decay": lambda: optim.NAdam([W], momentum_decay=-0.1),
        "nadam beta0": lambda: optim.NAdam([W], betas=(-0.1, 0.9)),
        "nadam lr": lambda: optim.NAdam([W], lr=-1),
        "radam beta1": lambda: optim.RAdam([W], betas=(0.9, 1.0)),
        "radam weight_decay": lambda: optim.RAdam([W], weight_decay=-1),
        "adadelta rho": lambda: optim.Adadelta([W], rho=1.5),
        "adadelta eps": lambda: optim.Adadelta([W], eps=-1e-6),
        "adadelta lr": lambda: optim.Adadelta([W], lr=-1),
        "adadelta weight_decay": lambda: optim.Adadelta([W], weight_decay=-1),
        "rprop etas": lambda: optim.Rprop([W], etas=(1.5, 1.2)),
        "rprop etaplus": lambda: optim.Rprop([W], etas=(0.5, 1.0)),
        "rprop lr": lambda: optim.Rprop([W], lr=-0.1),
        "asgd lr": lambda: optim.ASGD([W], lr=-0.1),
        "asgd weight_decay": lambda: optim.ASGD([W], weight_decay=-0.1),
        "empty": lambda: optim.NAdam([]),
    }


@pytest.mark.parametrize("case", bad_optimizers(minigrad))
def test_optimizer_errors_match_torch(oracle, case):
    oracle.same_error(lambda lib: bad_optimizers(lib)[case]())


@pytest.mark.parametrize("name, kwargs", [("Adamax", {}), ("NAdam", {"decoupled_weight_decay": True}),
                                          ("RAdam", {"lr": 0.01}), ("Adadelta", {}), ("Rprop", {}),
                                          ("ASGD", {"t0": 10})])
def test_optimizer_reprs_match_torch(oracle, name, kwargs):
    def program(lib):
        (W, b), _ = problem(lib)
        Opt = getattr(lib.optim, name)
        return repr(Opt([{"params": [W]}, {"params": [b], "lr": 1.0}], **kwargs)), repr(Opt([W], **kwargs))
    oracle.same(program)


_unit = st.floats(0.0, 0.99)
_OPTIMIZER_STRATEGIES = {
    "Adamax": st.fixed_dictionaries({"lr": st.floats(1e-3, 0.1), "betas": st.tuples(_unit, _unit),
                                     "eps": st.floats(1e-8, 1e-2), "weight_decay": st.floats(0, 0.5),
                                     "maximize": st.booleans()}),
    "NAdam": st.fixed_dictionaries({"lr": st.floats(1e-3, 0.1), "betas": st.tuples(_unit, _unit),
                                    "weight_decay": st.floats(0, 0.5), "momentum_decay": st.floats(0, 0.1),
                                    "decoupled_weight_decay": st.booleans()}),
    "RAdam": st.fixed_dictionaries({"lr": st.floats(1e-3, 0.1), "betas": st.tuples(_unit, _unit),
                                    "weight_decay": st.floats(0, 0.5), "decoupled_weight_decay": st.booleans()}),
    "Adadelta": st.fixed_dictionaries({"lr": st.floats(0.1, 2.0), "rho": st.floats(0.0, 1.0),
                                       "eps": st.floats(1e-8, 1e-2), "weight_decay": st.floats(0, 0.5)}),
    "Rprop": st.fixed_dictionaries({"lr": st.floats(1e-3, 0.1), "etas": st.tuples(st.floats(0.1, 0.9),
                                                                                  st.floats(1.1, 2.0)),
                                    "step_sizes": st.tuples(st.floats(1e-6, 1e-3), st.floats(0.1, 50))}),
    "ASGD": st.fixed_dictionaries({"lr": st.floats(1e-3, 0.1), "lambd": st.floats(0, 0.1),
                                   "alpha": st.floats(0.1, 1.0), "t0": st.integers(0, 6),
                                   "weight_decay": st.floats(0, 0.5)}),
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(_OPTIMIZER_STRATEGIES)), data=st.data())
def test_optimizers_match_live_torch(torch, name, data):
    kwargs = data.draw(_OPTIMIZER_STRATEGIES[name])
    mine = training(name, kwargs, steps=8)(minigrad)
    theirs = training(name, kwargs, steps=8)(torch)
    for (ml, mp), (tl, tp) in zip(mine["history"], theirs["history"]):
        np.testing.assert_allclose(ml, tl, rtol=1e-8)
        for a, b in zip(mp, tp):
            np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-14)
