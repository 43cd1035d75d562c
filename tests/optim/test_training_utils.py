"""The training utilities tutorials call, against PyTorch's (issue 31a): ``torch.nn.utils``
(gradient clipping, parameters as a vector, ``pad_sequence``), the rarer optimizers, the
rarer lr schedulers, the rest of ``nn.init`` and of ``torch.utils.data``.

Each comparison is a program run under both libraries (tests/oracle.py: PyTorch's answers
are recorded); Hypothesis tests over hyperparameters run against live PyTorch only.
"""
import copy
import inspect
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad
from oracle import assert_same, caught, error_of
import transfer
from test_module_paths import run_import
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
        "not a tensor": lambda: pad([lib.ones(2), 3]),
        "None": lambda: pad([None]),
    }


def bad_clips(lib):
    utils = lib.nn.utils
    no_grad = [lib.nn.Parameter(lib.ones(2))]
    return {
        "integer gradients": lambda: utils.get_total_norm([lib.tensor([1, 2])]),
        "clip_grad_value_ before backward": lambda: utils.clip_grad_value_(no_grad, 1.0),
        "clip_grad_value_ of nothing": lambda: utils.clip_grad_value_([], 1.0, foreach=False),
        "vector_to_parameters too short": lambda: utils.vector_to_parameters(lib.ones(3), no_grad * 2),
        "parameters_to_vector of nothing": lambda: utils.parameters_to_vector([]),
    }


@pytest.mark.parametrize("case", bad_clips(minigrad))
def test_nn_utils_errors_match_torch(oracle, case):
    oracle.same_error(lambda lib: bad_clips(lib)[case]())


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
        (W, b), _ = problem(lib)
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


# -- the rarer lr schedulers ------------------------------------------------------------------------------
def _sched(name, *args, **kwargs):
    return lambda lib, opt: getattr(lib.optim.lr_scheduler, name)(opt, *args, **kwargs)


def _decay(epoch):
    return 0.9 if epoch % 2 else 0.8


def _warmup_then_cosine(lib, opt):
    s = lib.optim.lr_scheduler
    return s.SequentialLR(opt, [s.LinearLR(opt, start_factor=0.1, total_iters=4), s.CosineAnnealingLR(opt, 6)],
                          milestones=[4])


def _three_in_sequence(lib, opt):
    s = lib.optim.lr_scheduler
    return s.SequentialLR(opt, [s.ConstantLR(opt, 0.5, total_iters=3), s.ExponentialLR(opt, 0.8),
                                s.StepLR(opt, 2, 0.5)], milestones=[3, 7])


def _chained(lib, opt):
    s = lib.optim.lr_scheduler
    return s.ChainedScheduler([s.ConstantLR(opt, factor=0.2, total_iters=3), s.ExponentialLR(opt, gamma=0.9)])


def _chained_in_sequence(lib, opt):
    s = lib.optim.lr_scheduler
    chained = s.ChainedScheduler([s.ConstantLR(opt, factor=0.5, total_iters=2), s.ExponentialLR(opt, 0.9)])
    return s.SequentialLR(opt, [chained, s.PolynomialLR(opt, total_iters=5, power=2.0)], milestones=[5])


SCHEDULE_CASES = {
    "LinearLR": _sched("LinearLR"),
    "LinearLR decay": _sched("LinearLR", start_factor=1.0, end_factor=0.05, total_iters=8),
    "ConstantLR": _sched("ConstantLR", factor=0.25, total_iters=4),
    "MultiplicativeLR": _sched("MultiplicativeLR", lr_lambda=_decay),
    "MultiplicativeLR per group": _sched("MultiplicativeLR", lr_lambda=[_decay, lambda epoch: 0.95]),
    "PolynomialLR": _sched("PolynomialLR", total_iters=8),
    "PolynomialLR power": _sched("PolynomialLR", total_iters=6, power=0.5),
    "CosineAnnealingWarmRestarts": _sched("CosineAnnealingWarmRestarts", T_0=4),
    "CosineAnnealingWarmRestarts T_mult": _sched("CosineAnnealingWarmRestarts", T_0=2, T_mult=2, eta_min=0.001),
    "CyclicLR": _sched("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=3),
    "CyclicLR triangular2": _sched("CyclicLR", base_lr=[0.01, 0.02], max_lr=0.2, step_size_up=2, step_size_down=3,
                                   mode="triangular2", base_momentum=0.7, max_momentum=0.95),
    "CyclicLR exp_range": _sched("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range",
                                 gamma=0.9, cycle_momentum=False),
    "CyclicLR scale_fn": _sched("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=2, scale_fn=_decay,
                                scale_mode="iterations"),
    "OneCycleLR": _sched("OneCycleLR", max_lr=0.5, total_steps=14),
    "OneCycleLR linear": _sched("OneCycleLR", max_lr=[0.5, 0.2], epochs=2, steps_per_epoch=7,
                                anneal_strategy="linear", pct_start=0.4, div_factor=10.0),
    "OneCycleLR three_phase": _sched("OneCycleLR", max_lr=0.5, total_steps=14, three_phase=True,
                                     base_momentum=0.8, max_momentum=0.9, final_div_factor=100.0),
    "OneCycleLR no momentum": _sched("OneCycleLR", max_lr=0.5, total_steps=14, cycle_momentum=False),
    "SequentialLR warm-up": _warmup_then_cosine,
    "SequentialLR three": _three_in_sequence,
    "ChainedScheduler": _chained,
    "ChainedScheduler in SequentialLR": _chained_in_sequence,
}


def schedule(make, epochs=14, optimizer=("SGD", {"lr": 0.1, "momentum": 0.9})):
    """A program: ``epochs`` training steps, each followed by ``scheduler.step()``; each
    step's lrs, momenta (SGD's momentum or Adam's beta1), last_epoch, and the state_dict."""
    def program(lib):
        (W, b), loss_fn = problem(lib)
        opt = getattr(lib.optim, optimizer[0])([{"params": [W]}, {"params": [b], "lr": 0.05}], **optimizer[1])
        scheduler, made = caught(make, lib, opt)  # (a ChainedScheduler started inside SequentialLR warns)

        def seen():
            momenta = [g["betas"][0] if "betas" in g else g.get("momentum") for g in opt.param_groups]
            return (scheduler.get_last_lr(), [g["lr"] for g in opt.param_groups], momenta,
                    getattr(scheduler, "last_epoch", None))
        history = [seen()]
        for _ in range(epochs):
            train_step(opt, loss_fn)
            scheduler.step()
            history.append(seen())
        return {"history": history, "params": values([W, b]), "state": _plain_state(scheduler.state_dict()),
                "warnings": made,
                "groups": [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups]}
    return program


def _plain_state(state):
    """A scheduler's state_dict without what differs by nature between the libraries (the
    lambdas' entries are None for functions in both; nested schedulers' too)."""
    state = dict(state)
    if "_schedulers" in state:
        state["_schedulers"] = [_plain_state(s) for s in state["_schedulers"]]
    return state


@pytest.mark.parametrize("case", SCHEDULE_CASES)
def test_schedules_match_torch(oracle, case):
    """Every lr (and momentum) exactly PyTorch's, float for float, the state_dict and the
    param groups' keys (OneCycleLR's max_lr, min_lr...), and the trained parameters."""
    mine, theirs = oracle.both(schedule(SCHEDULE_CASES[case]))
    assert mine["history"] == theirs["history"]
    assert mine["state"] == theirs["state"]
    assert mine["groups"] == theirs["groups"]
    assert mine["warnings"] == theirs["warnings"]
    assert len({h[0][0] for h in theirs["history"]}) > 1  # the lr did change
    for a, b in zip(mine["params"], theirs["params"]):
        np.testing.assert_allclose(a.values, b.values, rtol=1e-12)


@pytest.mark.parametrize("case", ["OneCycleLR", "CyclicLR"])
def test_cycling_beta1_of_adam_matches_torch(oracle, case):
    mine, theirs = oracle.both(schedule(SCHEDULE_CASES[case], optimizer=("Adam", {"lr": 0.1})))
    assert mine["history"] == theirs["history"] and mine["groups"] == theirs["groups"]
    assert len({h[2][0] for h in theirs["history"]}) > 2  # beta1 did change


def test_schedules_with_an_epoch_match_torch(oracle):
    """``step(epoch)``: the closed forms (with the deprecation warning), and the fractional
    epochs CosineAnnealingWarmRestarts takes without one."""
    def program(lib):
        s = lib.optim.lr_scheduler
        answers = []
        for make in (lambda o: s.LinearLR(o, 0.2, total_iters=6), lambda o: s.ConstantLR(o, 0.5, 3),
                     lambda o: s.PolynomialLR(o, 6, 2.0),
                     lambda o: s.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2)):
            (W, _), _ = problem(lib)
            opt = lib.optim.SGD([W], lr=0.1)
            scheduler = make(opt)
            opt.step()
            for epoch in (2, 5, 0.5, 9, 4.25, 7):
                _, log = caught(scheduler.step, epoch)
                answers.append((scheduler.get_last_lr(), scheduler.last_epoch, log))
        return answers
    theirs = oracle.same(program)
    assert theirs[0][2][0][0] == "UserWarning"
    assert theirs[-1][2] == []  # CosineAnnealingWarmRestarts does not warn


def test_one_cycle_too_many_steps_and_step_order_warning_match_torch(oracle):
    def program(lib):
        (W, _), loss_fn = problem(lib)
        opt = lib.optim.SGD([W], lr=0.1, momentum=0.9)
        scheduler = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=3)
        _, order = caught(scheduler.step)  # before any optimizer.step()
        for _ in range(2):
            scheduler.step()
        return order, error_of(scheduler.step), scheduler.get_last_lr()
    order, too_many, _ = oracle.same(program)
    assert "before `optimizer.step()`" in order[0][1]
    assert too_many.message == "Tried to step 4 times. The specified number of total steps is 3"


def bad_new_schedulers(lib):
    (W, b), _ = problem(lib)
    opt = lib.optim.SGD([W], lr=0.1)
    other = lib.optim.SGD([b], lr=0.1)
    adagrad = lib.optim.Adagrad([b], lr=0.1)
    s = lib.optim.lr_scheduler
    return {
        "LinearLR start_factor": lambda: s.LinearLR(opt, start_factor=0),
        "LinearLR end_factor": lambda: s.LinearLR(opt, end_factor=1.5),
        "ConstantLR factor": lambda: s.ConstantLR(opt, factor=2.0),
        "MultiplicativeLR count": lambda: s.MultiplicativeLR(opt, [_decay, _decay]),
        "MultiplicativeLR not callable": lambda: s.MultiplicativeLR(opt, 0.9),
        "CAWR T_0": lambda: s.CosineAnnealingWarmRestarts(opt, T_0=0),
        "CAWR T_0 float": lambda: s.CosineAnnealingWarmRestarts(opt, T_0=2.0),
        "CAWR T_mult": lambda: s.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0),
        "CAWR eta_min": lambda: s.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="0"),
        "CAWR negative epoch": lambda: s.CosineAnnealingWarmRestarts(opt, T_0=2).step(-1),
        "CyclicLR mode": lambda: s.CyclicLR(opt, 0.01, 0.1, mode="square"),
        "CyclicLR no momentum": lambda: s.CyclicLR(adagrad, 0.01, 0.1),
        "CyclicLR base_lr count": lambda: s.CyclicLR(opt, [0.01, 0.02], 0.1),
        "CyclicLR not an optimizer": lambda: s.CyclicLR([W], 0.01, 0.1),
        "OneCycleLR no length": lambda: s.OneCycleLR(opt, max_lr=0.1),
        "OneCycleLR total_steps": lambda: s.OneCycleLR(opt, 0.1, total_steps=0),
        "OneCycleLR epochs": lambda: s.OneCycleLR(opt, 0.1, epochs=2.0, steps_per_epoch=3),
        "OneCycleLR steps_per_epoch": lambda: s.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=-3),
        "OneCycleLR pct_start": lambda: s.OneCycleLR(opt, 0.1, total_steps=10, pct_start=1.5),
        "OneCycleLR pct_start int": lambda: s.OneCycleLR(opt, 0.1, total_steps=10, pct_start=0),
        "OneCycleLR anneal_strategy": lambda: s.OneCycleLR(opt, 0.1, total_steps=10, anneal_strategy="exp"),
        "OneCycleLR max_lr count": lambda: s.OneCycleLR(opt, [0.1, 0.2], total_steps=10),
        "OneCycleLR no momentum": lambda: s.OneCycleLR(adagrad, 0.1, total_steps=10),
        "SequentialLR none": lambda: s.SequentialLR(opt, [], milestones=[]),
        "SequentialLR milestones": lambda: s.SequentialLR(opt, [s.StepLR(opt, 2)], milestones=[3]),
        "SequentialLR other optimizer": lambda: s.SequentialLR(opt, [s.StepLR(opt, 2), s.StepLR(other, 2)], [2]),
        "SequentialLR plateau": lambda: s.SequentialLR(opt, [s.ReduceLROnPlateau(opt)], milestones=[]),
        "SequentialLR not a scheduler": lambda: s.SequentialLR(opt, [3], milestones=[]),
        "ChainedScheduler none": lambda: s.ChainedScheduler([]),
        "ChainedScheduler plateau": lambda: s.ChainedScheduler([s.StepLR(opt, 2), s.ReduceLROnPlateau(opt)]),
    }


@pytest.mark.parametrize("case", bad_new_schedulers(minigrad))
def test_new_scheduler_errors_match_torch(oracle, case):
    oracle.same_error(lambda lib: bad_new_schedulers(lib)[case]())


def test_sequential_state_dict_resumes_identically():
    """SequentialLR's state_dict holds its schedulers'; loaded into a fresh one it goes on
    as if never stopped."""
    def run(epochs, saved=None):
        (W, b), _ = problem(minigrad)
        opt = minigrad.optim.SGD([W, b], lr=0.1, momentum=0.9)
        scheduler = _warmup_then_cosine(minigrad, opt)
        if saved:
            opt.load_state_dict(saved[0])
            scheduler.load_state_dict(saved[1])
        lrs = []
        for _ in range(epochs):
            opt.step()
            scheduler.step()
            lrs.append(scheduler.get_last_lr())
        return lrs, (copy.deepcopy(opt.state_dict()), copy.deepcopy(scheduler.state_dict()))
    whole, _ = run(10)
    first, saved = run(4)
    rest, _ = run(6, saved)
    assert first + rest == whole

def test_optimizer_step_replaced_after_the_scheduler_warns_as_torch(oracle):
    def program(lib):
        (W, _), _ = problem(lib)
        opt = lib.optim.SGD([W], lr=0.1)
        scheduler = lib.optim.lr_scheduler.LinearLR(opt)
        opt.step = lambda closure=None: None  # e.g. a wrapper for gradient accumulation
        opt.step()
        return caught(scheduler.step)[1], scheduler.get_last_lr()
    log, _ = oracle.same(program)
    assert log[0][1].startswith("Seems like `optimizer.step()` has been overridden")


_fraction = st.floats(0.05, 0.95)
_SCHEDULE_STRATEGIES = {
    "LinearLR": st.fixed_dictionaries({"start_factor": st.floats(0.01, 1.0), "end_factor": st.floats(0.0, 1.0),
                                       "total_iters": st.integers(1, 10)}),
    "ConstantLR": st.fixed_dictionaries({"factor": st.floats(0.01, 1.0), "total_iters": st.integers(0, 10)}),
    "PolynomialLR": st.fixed_dictionaries({"total_iters": st.integers(1, 12), "power": st.floats(0.1, 3.0)}),
    "CosineAnnealingWarmRestarts": st.fixed_dictionaries({"T_0": st.integers(1, 6), "T_mult": st.integers(1, 3),
                                                          "eta_min": st.floats(0, 1e-3)}),
    "CyclicLR": st.fixed_dictionaries({"base_lr": st.floats(1e-4, 1e-2), "max_lr": st.floats(0.02, 1.0),
                                       "step_size_up": st.integers(1, 6),
                                       "step_size_down": st.none() | st.integers(1, 6),
                                       "mode": st.sampled_from(["triangular", "triangular2", "exp_range"]),
                                       "gamma": _fraction}),
    "OneCycleLR": st.fixed_dictionaries({"max_lr": st.floats(0.01, 1.0), "total_steps": st.just(18),
                                         "pct_start": _fraction, "three_phase": st.booleans(),
                                         "anneal_strategy": st.sampled_from(["cos", "linear"]),
                                         "div_factor": st.floats(2.0, 50.0),
                                         "final_div_factor": st.floats(1.0, 1e4)}),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(_SCHEDULE_STRATEGIES)), data=st.data(), lr=st.floats(1e-3, 1.0))
def test_schedules_match_live_torch(torch, name, data, lr):
    """Random hyperparameters: the lrs and momenta, float for float."""
    kwargs = data.draw(_SCHEDULE_STRATEGIES[name])

    def seen(lib):
        opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=lr, momentum=0.9)
        scheduler = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        history = []
        for _ in range(18):
            opt.step()
            scheduler.step()
            history.append((scheduler.get_last_lr()[0], opt.param_groups[0]["momentum"]))
        return history
    assert seen(minigrad) == seen(torch)


# -- nn.init: the rest ------------------------------------------------------------------------------------
# The deterministic ones against PyTorch; the random ones by their structure (each library
# draws from its own generator, as test_nn_surface.py's init tests say).


def test_eye_and_dirac_match_torch(oracle):
    """Values, the same tensor returned, still a leaf that requires grad (no graph recorded);
    dirac_ makes a convolution the identity, per group."""
    def program(lib):
        init = lib.nn.init
        w = lib.nn.Parameter(lib.empty(3, 5))
        same = init.eye_(w) is w
        tall = init.eye_(lib.empty(4, 2, dtype=lib.float64))
        conv = lib.empty(4, 3, 3)
        init.dirac_(conv)
        x = lib.tensor(np.random.default_rng(0).standard_normal((1, 3, 6)), dtype=lib.float32)
        identity = lib.nn.functional.conv1d(x, conv[:3], padding=1)
        grouped = init.dirac_(lib.ones(6, 2, 3, 2), groups=2)
        five = init.dirac_(lib.empty(2, 3, 1, 2, 3))
        return w, same, tall, conv, identity, x, grouped, five
    theirs = oracle.same(program)
    np.testing.assert_array_equal(theirs[4].values, theirs[5].values)  # the identity convolution


def test_orthogonal_is_pytorchs_construction():
    """QR of a normal matrix with Q's columns' signs fixed by R's diagonal (so Q is uniformly
    distributed): rows (or columns, when wider) orthonormal times ``gain``; the tensor is
    filled in place and returned, float64 kept."""
    minigrad.manual_seed(0)
    for shape, gain in (((5, 3), 1.0), ((3, 5), 2.0), ((4, 2, 3), 0.5), ((6, 6), 1)):
        t = minigrad.empty(*shape, dtype=minigrad.float64)
        assert minigrad.nn.init.orthogonal_(t, gain=gain) is t and t.dtype == minigrad.float64
        w = t.numpy().reshape(shape[0], -1)
        gram = w @ w.T if w.shape[0] <= w.shape[1] else w.T @ w
        np.testing.assert_allclose(gram, gain ** 2 * np.eye(min(w.shape)), atol=1e-12)
    # reproducible from the seed, and different from the next draw
    minigrad.manual_seed(1)
    a = minigrad.nn.init.orthogonal_(minigrad.empty(3, 3)).numpy().copy()
    b = minigrad.nn.init.orthogonal_(minigrad.empty(3, 3)).numpy().copy()
    minigrad.manual_seed(1)
    assert (minigrad.nn.init.orthogonal_(minigrad.empty(3, 3)).numpy() == a).all() and not (a == b).all()
    assert minigrad.nn.init.orthogonal_(minigrad.empty(0, 3)).shape == (0, 3)


def test_sparse_zeros_each_column_as_torch():
    """Exactly ceil(sparsity * rows) zeros in every column, at rows that vary by column; the
    rest normal(0, std)."""
    minigrad.manual_seed(0)
    t = minigrad.nn.init.sparse_(minigrad.empty(40, 300), sparsity=0.33, std=0.5)
    v = t.numpy()
    assert ((v == 0).sum(axis=0) == math.ceil(0.33 * 40)).all()
    assert len({tuple(np.flatnonzero(col == 0)) for col in v.T}) > 250
    assert abs(v[v != 0].std() - 0.5) < 0.02 and abs(v[v != 0].mean()) < 0.02
    assert minigrad.nn.init.sparse_(minigrad.empty(3, 2), 0.0).numpy().all()  # sparsity 0: no zeros


def test_deprecated_init_names_warn_as_torch(oracle):
    """``nn.init.normal`` and the others without the underscore: the same functions, with
    PyTorch's FutureWarning."""
    def program(lib):
        init = lib.nn.init
        answers = []
        for name, args in (("uniform", ()), ("normal", ()), ("constant", (0.5,)), ("eye", ()), ("dirac", ()),
                           ("xavier_uniform", ()), ("xavier_normal", ()), ("kaiming_uniform", ()),
                           ("kaiming_normal", ()), ("orthogonal", ()), ("sparse", (0.5,))):
            t = lib.zeros(4, 3, 3) if name == "dirac" else lib.zeros(4, 3)
            result, log = caught(getattr(init, name), t, *args)
            answers.append((name, getattr(init, name).__name__, result is t, log,
                            t if name in ("constant", "eye", "dirac") else None))
        return answers
    theirs = oracle.same(program)
    assert theirs[1][3] == [("FutureWarning", "`nn.init.normal` is now deprecated in favor of `nn.init.normal_`.")]


INIT_MORE_ERRORS = {
    "eye 3-d": lambda lib: lib.nn.init.eye_(lib.zeros(2, 2, 2)),
    "eye 1-d": lambda lib: lib.nn.init.eye_(lib.zeros(3)),
    "dirac 2-d": lambda lib: lib.nn.init.dirac_(lib.zeros(3, 3)),
    "dirac 6-d": lambda lib: lib.nn.init.dirac_(lib.zeros(1, 1, 1, 1, 1, 1)),
    "dirac groups": lambda lib: lib.nn.init.dirac_(lib.zeros(5, 2, 3), groups=2),
    "sparse 3-d": lambda lib: lib.nn.init.sparse_(lib.zeros(2, 2, 2), 0.5),
    "sparse 1-d": lambda lib: lib.nn.init.sparse_(lib.zeros(3), 0.5),
    "orthogonal 0-d": lambda lib: lib.nn.init.orthogonal_(lib.tensor(1.0)),
}


@pytest.mark.parametrize("case", INIT_MORE_ERRORS)
def test_init_more_errors_match_torch(oracle, case):
    oracle.same_error(INIT_MORE_ERRORS[case])


def test_init_all_is_torchs(oracle):
    oracle.same(lambda lib: sorted(lib.nn.init.__all__))


# -- torch.utils.data: iterable-style datasets, StackDataset, WeightedRandomSampler ------------------------


def _stream_class(lib):
    class Stream(lib.utils.data.IterableDataset):
        """Samples as a generator yields them: (x, label) pairs of tensors and ints."""

        def __init__(self, n, start=0):
            self.n, self.start = n, start

        def __iter__(self):
            for i in range(self.start, self.start + self.n):
                yield lib.tensor([float(i), -float(i)]), i % 3

        def __len__(self):
            return self.n
    return Stream


def test_iterable_dataset_loader_matches_torch(oracle):
    """Batches in the stream's order, a short last batch or none (drop_last), unbatched with
    batch_size=None, a ChainDataset (``a + b`` too), len(loader) from len(dataset)."""
    def program(lib):
        data = lib.utils.data
        Stream = _stream_class(lib)
        loader = data.DataLoader(Stream(5), batch_size=2)
        answers = {"batches": list(loader), "len": len(loader), "again": list(loader)}
        answers["drop_last"] = list(data.DataLoader(Stream(5), batch_size=2, drop_last=True))
        answers["drop_last len"] = len(data.DataLoader(Stream(5), batch_size=2, drop_last=True))
        answers["unbatched"] = list(data.DataLoader(Stream(2), batch_size=None))
        chained = Stream(2) + Stream(3, start=10)
        answers["chain"] = (type(chained).__name__, len(chained), list(data.DataLoader(chained, batch_size=4)))
        answers["ChainDataset"] = [x for x, _ in data.ChainDataset([Stream(1), Stream(2, 5)])]
        answers["is a Dataset"] = isinstance(Stream(1), data.Dataset)
        answers["worker info"] = data.get_worker_info()
        answers["collate_fn"] = list(data.DataLoader(Stream(3), batch_size=2, collate_fn=lambda b: len(b)))
        return answers
    answers = oracle.same(program)
    assert answers["len"] == 3 and answers["drop_last len"] == 2


def test_iterable_dataset_length_warning_matches_torch(oracle):
    """A stream longer than its __len__ says: PyTorch warns once past it (only after
    len(loader) was asked)."""
    def program(lib):
        Stream = _stream_class(lib)

        class Liar(Stream):
            def __len__(self):
                return 2
        loader = lib.utils.data.DataLoader(Liar(4), batch_size=1)
        quiet = caught(list, loader)[1]
        length = len(loader)
        batches, log = caught(list, loader)
        return quiet, length, len(batches), [(kind, text.replace(repr(loader.dataset), "<dataset>"))
                                             for kind, text in log]
    quiet, _, _, log = oracle.same(program)
    assert quiet == [] and len(log) == 2 and log[0][1].startswith("Length of IterableDataset <dataset> was")


def bad_iterables(lib):
    data = lib.utils.data
    Stream = _stream_class(lib)
    return {
        "abstract": lambda: data.IterableDataset(),
        "shuffle": lambda: data.DataLoader(Stream(3), shuffle=True),
        "sampler": lambda: data.DataLoader(Stream(3), sampler=[0, 1, 2]),
        "batch_sampler": lambda: data.DataLoader(Stream(3), batch_sampler=[[0, 1]]),
        "no len": lambda: len(data.DataLoader(data.ChainDataset([iter_only(lib)]))),
        "concat": lambda: data.ConcatDataset([Stream(2)]),
        "chain of a map dataset": lambda: list(data.ChainDataset([Stream(1), data.TensorDataset(lib.ones(2))])),
        "getitem": lambda: Stream(2)[0],
        "stack both kinds": lambda: data.StackDataset(lib.ones(2), b=lib.ones(2)),
        "stack sizes": lambda: data.StackDataset(lib.ones(2), lib.ones(3)),
        "stack sizes by name": lambda: data.StackDataset(a=lib.ones(2), b=lib.ones(3)),
        "stack nothing": lambda: data.StackDataset(),
        "weighted num_samples": lambda: data.WeightedRandomSampler([0.5, 0.5], 0),
        "weighted num_samples bool": lambda: data.WeightedRandomSampler([0.5, 0.5], True),
        "weighted replacement": lambda: data.WeightedRandomSampler([0.5, 0.5], 2, replacement=1),
        "weighted 2-d": lambda: data.WeightedRandomSampler([[0.5, 0.5]], 2),
        "weighted too many": lambda: list(data.WeightedRandomSampler([0.5, 0.5], 3, replacement=False)),
        "weighted negative": lambda: list(data.WeightedRandomSampler([-0.5, 0.5], 1)),
    }


def iter_only(lib):
    class Endless(lib.utils.data.IterableDataset):
        def __iter__(self):
            return iter(())
    return Endless()


@pytest.mark.parametrize("case", bad_iterables(minigrad))
def test_data_errors_match_torch(oracle, case):
    oracle.same_error(lambda lib: bad_iterables(lib)[case]())


def test_stack_dataset_matches_torch(oracle):
    """Tuples (positional) or dicts (by name); in a DataLoader, through __getitems__ (from the
    datasets' own where they have one, as StackDataset and Subset do)."""
    def program(lib):
        data = lib.utils.data
        X, y = lib.arange(12.0).reshape(6, 2), lib.tensor([0, 1, 0, 1, 1, 0])
        by_position = data.StackDataset(X, y)
        by_name = data.StackDataset(x=X, label=y, nested=data.StackDataset(y, y))
        return (len(by_position), by_position[2], by_name[-1], by_position.__getitems__([0, 3]),
                list(data.DataLoader(by_position, batch_size=4)), list(data.DataLoader(by_name, batch_size=4)))
    oracle.same(program)


def test_weighted_random_sampler_draws_as_weighted():
    """Frequencies follow the weights (zero weight: never drawn); without replacement each
    index at most once; the same generator seed, the same draws; in a DataLoader."""
    data = minigrad.utils.data
    sampler = data.WeightedRandomSampler([1.0, 3.0, 0.0, 6.0], 20000, generator=minigrad.Generator().manual_seed(0))
    counts = np.bincount(list(sampler), minlength=4) / 20000
    np.testing.assert_allclose(counts, [0.1, 0.3, 0.0, 0.6], atol=0.015)
    assert len(sampler) == 20000 and sampler.weights.dtype == minigrad.float64
    once = list(data.WeightedRandomSampler(minigrad.tensor([1.0, 2.0, 3.0, 0.5]), 4, replacement=False))
    assert sorted(once) == [0, 1, 2, 3]
    draws = [list(data.WeightedRandomSampler([1, 2, 3], 10, generator=minigrad.Generator().manual_seed(5)))
             for _ in range(2)]
    assert draws[0] == draws[1]
    X = minigrad.arange(4.0)
    loader = data.DataLoader(data.TensorDataset(X), batch_size=3,
                             sampler=data.WeightedRandomSampler([0.0, 1.0, 0.0, 0.0], 6))
    assert [b[0].tolist() for b in loader] == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]


def test_data_names_as_torchs():
    from minigrad.utils import data
    from minigrad.utils.data.sampler import WeightedRandomSampler
    assert data.WeightedRandomSampler is WeightedRandomSampler
    for name in ("IterableDataset", "ChainDataset", "StackDataset", "WeightedRandomSampler", "get_worker_info"):
        assert name in data.__all__ and getattr(data, name)


# -- the import lines tutorials write for these ---------------------------------------------------------
IMPORT_LINES = [
    "from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters",
    "from torch.nn.utils import get_total_norm, clip_grads_with_norm_",
    "from torch.nn.utils.rnn import pad_sequence",
    "from torch.nn.utils.clip_grad import clip_grad_norm_",
    "import torch.nn.utils as utils",
    "from torch.nn import utils",
    "from torch.optim import Adamax, NAdam, RAdam, Adadelta, Rprop, ASGD",
    "from torch.optim.lr_scheduler import LinearLR, ConstantLR, SequentialLR, ChainedScheduler",
    "from torch.optim.lr_scheduler import MultiplicativeLR, PolynomialLR, CosineAnnealingWarmRestarts",
    "from torch.optim.lr_scheduler import OneCycleLR, CyclicLR",
    "from torch.nn.init import eye_, dirac_, orthogonal_, sparse_, normal, xavier_uniform",
    "from torch.utils.data import IterableDataset, ChainDataset, StackDataset, WeightedRandomSampler",
    "from torch.utils.data import get_worker_info",
    "from torch.utils.data.sampler import WeightedRandomSampler",
    "from torch.utils.data.dataset import IterableDataset",
]


@pytest.mark.parametrize("line", IMPORT_LINES)
def test_import_line_works_as_in_torch(oracle, line):
    assert oracle.same(lambda lib: run_import(lib, line))



SIGNATURES = {
    "nn.utils": ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_",
                 "parameters_to_vector", "vector_to_parameters"],
    "nn.utils.rnn": ["pad_sequence"],
    "optim": ["Adamax", "NAdam", "RAdam", "Adadelta", "Rprop", "ASGD"],
    "optim.lr_scheduler": ["LinearLR", "ConstantLR", "SequentialLR", "ChainedScheduler", "MultiplicativeLR",
                           "PolynomialLR", "CosineAnnealingWarmRestarts", "OneCycleLR", "CyclicLR"],
    "nn.init": ["eye_", "dirac_", "orthogonal_", "sparse_"],
    "utils.data": ["ChainDataset", "StackDataset", "WeightedRandomSampler", "get_worker_info"],
}


@pytest.mark.parametrize("module", SIGNATURES)
def test_signatures_are_torchs(oracle, module):
    """Each name's parameters: names, kinds (positional, keyword-only...) and defaults."""
    def program(lib):
        obj = lib
        for part in module.split("."):
            obj = getattr(obj, part)
        return {name: [(p.name, str(p.kind), repr(p.default))
                       for p in inspect.signature(getattr(obj, name)).parameters.values()]
                for name in SIGNATURES[module]}
    oracle.same(program)


# -- tutorial-style programs: what they print, character for character (as tests/transfer's) ------------
def clipped_training_with_one_cycle(torch):
    """A small regression net trained the way tutorials show clipping and the one-cycle
    policy: AdamW, clip_grad_norm_ between backward and step, OneCycleLR stepped per batch."""
    nn = torch.nn
    X = torch.linspace(-2, 2, 64, dtype=torch.float64).reshape(32, 2)
    y = (X[:, :1] * 3 - X[:, 1:] ** 2) * 5  # large targets: large gradients, so clipping acts
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=8)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1)).double()
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + i).reshape(p.shape) * 0.5)
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.01)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, epochs=3, steps_per_epoch=len(loader))
    for epoch in range(3):
        norms = []
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0).item())
            optimizer.step()
            scheduler.step()
        print(f"epoch {epoch}: loss {loss.item():.6f}, grad norms {[round(n, 4) for n in norms]}, "
              f"lr {scheduler.get_last_lr()[0]:.6f}, beta1 {optimizer.param_groups[0]['betas'][0]:.4f}")
    print(nn.utils.parameters_to_vector(model.parameters()).shape)


def warm_up_then_decay(torch):
    """The schedules of transformer and ResNet recipes: a linear warm-up, then cosine or
    step decay, and SGDR's warm restarts."""
    sched = torch.optim.lr_scheduler

    def lrs(make, epochs=12):
        w = torch.zeros(2, requires_grad=True)
        optimizer = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        scheduler = make(optimizer)
        seen = []
        for _ in range(epochs):
            optimizer.step()
            seen.append(round(scheduler.get_last_lr()[0], 8))
            scheduler.step()
        return seen

    print("warm-up + cosine", lrs(lambda opt: sched.SequentialLR(
        opt, [sched.LinearLR(opt, start_factor=0.01, total_iters=4), sched.CosineAnnealingLR(opt, T_max=8)],
        milestones=[4])))
    print("constant warm-up x exponential", lrs(lambda opt: sched.ChainedScheduler(
        [sched.ConstantLR(opt, factor=0.1, total_iters=3), sched.ExponentialLR(opt, gamma=0.9)])))
    print("polynomial", lrs(lambda opt: sched.PolynomialLR(opt, total_iters=10, power=2.0)))
    print("multiplicative", lrs(lambda opt: sched.MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.95)))
    print("warm restarts", lrs(lambda opt: sched.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2), 16))
    print("cyclic", lrs(lambda opt: sched.CyclicLR(opt, base_lr=0.001, max_lr=0.1, step_size_up=3,
                                                   mode="triangular2"), 16))


def variable_length_sequences(torch):
    """Batches of sentences of different lengths: an IterableDataset streaming token ids, a
    collate_fn that pads them (pad_sequence) and keeps their lengths."""
    from_ids = [[5, 2, 9], [7], [3, 3, 3, 3], [8, 1], [4, 6, 2, 2, 9]]

    class Sentences(torch.utils.data.IterableDataset):
        def __iter__(self):
            for ids in from_ids:
                yield torch.tensor(ids)

    def collate(batch):
        lengths = torch.tensor([len(s) for s in batch])
        return torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=0), lengths

    for padded, lengths in torch.utils.data.DataLoader(Sentences(), batch_size=2, collate_fn=collate):
        print(padded, lengths)
    left = torch.nn.utils.rnn.pad_sequence([torch.ones(2, 3), torch.ones(1, 3) * 2], padding_side="left")
    print(left.shape, left[:, 1])
    pairs = torch.utils.data.StackDataset(text=torch.arange(6).reshape(3, 2), label=torch.tensor([1, 0, 1]))
    print(next(iter(torch.utils.data.DataLoader(pairs, batch_size=3))))
    print(torch.utils.data.get_worker_info())


def every_new_optimizer_on_one_problem(torch):
    X = torch.linspace(-1, 1, 20, dtype=torch.float64).reshape(10, 2)
    y = X @ torch.tensor([2.0, -3.0], dtype=torch.float64) + 0.5
    for name, options in [("Adamax", {"lr": 0.1}), ("NAdam", {"lr": 0.1}), ("RAdam", {"lr": 0.1}),
                          ("Adadelta", {"lr": 1.0}), ("Rprop", {"lr": 0.05}), ("ASGD", {"lr": 0.1, "t0": 10})]:
        w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
        b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
        optimizer = getattr(torch.optim, name)([w, b], **options)
        for _ in range(25):
            optimizer.zero_grad()
            loss = ((X @ w + b - y) ** 2).mean()
            loss.backward()
            optimizer.step()
        print(f"{name:8s} loss {loss.item():.8f}  w {[round(v, 6) for v in w.tolist()]}")
        print(list(optimizer.state_dict()["state"][0]))
    print(optimizer)


TUTORIAL_PROGRAMS = [clipped_training_with_one_cycle, warm_up_then_decay, variable_length_sequences,
                     every_new_optimizer_on_one_problem]


@pytest.mark.parametrize("program", TUTORIAL_PROGRAMS, ids=[p.__name__ for p in TUTORIAL_PROGRAMS])
def test_tutorial_program_prints_what_pytorch_prints(oracle, program):
    got, expected = oracle.both(lambda lib: transfer.run(program, lib))
    assert expected.strip()
    assert got == expected
