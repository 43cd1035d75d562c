"""minigrad.optim against torch.optim.

The same float64 least-squares problem is set up in both libraries; each library
computes its own loss and gradients, and after every step the parameters must
agree to 1e-12 relative. PyTorch's side runs live, or is replayed from its recording
where PyTorch is not installed (tests/oracle.py). Then: param groups, state_dict layout and resuming,
zero_grad, what a step does (and does not do) to the parameters, errors and repr.
"""
import copy

import numpy as np
import pytest

import minigrad
from oracle import TensorRecord, assert_same, caught, error_of

_rng = np.random.default_rng(0)
X0, Y0 = _rng.standard_normal((8, 3)), _rng.standard_normal((8, 2))
W0, B0 = _rng.standard_normal((3, 2)), _rng.standard_normal(2)


def least_squares(lib, W, b):
    X, Y = lib.tensor(X0, dtype=lib.float64), lib.tensor(Y0, dtype=lib.float64)
    return lambda: ((X @ W + b - Y) ** 2).mean()


def problem(lib):
    """Parameters (W, b), leaves of ``lib``, and a loss closure over fixed data."""
    W = lib.tensor(W0, dtype=lib.float64, requires_grad=True)
    b = lib.tensor(B0, dtype=lib.float64, requires_grad=True)
    return [W, b], least_squares(lib, W, b)


def train_step(opt, loss_fn, set_to_none=True):
    opt.zero_grad(set_to_none)
    loss = loss_fn()
    loss.backward()
    opt.step()
    return loss


def values(params):
    return [p.detach().numpy().copy() for p in params]


def assert_close(mine, theirs, rtol=1e-12):
    for a, b in zip(values(mine), values(theirs)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=0)


def training(name, kwargs, steps=20, groups=None, set_to_none=True, then=None):
    """A program: train with ``lib.optim.<name>``; the loss before and the parameters after
    every step, and ``then(opt, params)`` (more to compare) when given."""
    def program(lib):
        params, loss_fn = problem(lib)
        opt = getattr(lib.optim, name)(groups(params) if groups else params, **kwargs, foreach=False)
        history = []
        for _ in range(steps):
            loss = train_step(opt, loss_fn, set_to_none)
            history.append((loss.item(), values(params)))
        return {"history": history, "then": then(lib, opt, params) if then else None}
    return program


def assert_same_training(mine, theirs):
    start = [W0, B0]
    for step, ((ml, mp), (tl, tp)) in enumerate(zip(mine["history"], theirs["history"])):
        np.testing.assert_allclose(ml, tl, rtol=1e-12, err_msg=f"loss before step {step}")
        for a, b in zip(mp, tp):
            np.testing.assert_allclose(a.values, b.values, rtol=1e-12, atol=0)
    assert len(mine["history"]) == len(theirs["history"])
    assert not np.allclose(mine["history"][-1][1][0].values, start[0])  # the optimizer did move them


def run_both(oracle, name, kwargs, **options):
    """Train with minigrad.optim.<name> and torch.optim.<name>, comparing after every step;
    (minigrad's answer, PyTorch's answer)."""
    mine, theirs = oracle.both(training(name, kwargs, **options))
    assert_same_training(mine, theirs)
    return mine, theirs


def same_state(mine, theirs):
    """Same types, keys (in order) and nesting; tensors equal in dtype, shape and value."""
    assert_same(mine, theirs, rtol=1e-12, atol=0, check_repr=False, check_graph=False)


SGD_CASES = {
    "plain": {"lr": 0.1},
    "momentum": {"lr": 0.05, "momentum": 0.9},
    "dampening": {"lr": 0.05, "momentum": 0.9, "dampening": 0.3},
    "weight_decay": {"lr": 0.1, "weight_decay": 0.2},
    "nesterov": {"lr": 0.05, "momentum": 0.8, "nesterov": True},
    "maximize": {"lr": 0.01, "momentum": 0.5, "maximize": True},
    "everything": {"lr": 0.05, "momentum": 0.7, "weight_decay": 0.1, "nesterov": True, "maximize": False},
}

ADAM_CASES = {
    "default": {},
    "lr": {"lr": 0.05},
    "weight_decay": {"lr": 0.05, "weight_decay": 0.3},
    "amsgrad": {"lr": 0.05, "amsgrad": True},
    "maximize": {"lr": 0.01, "maximize": True},
    "betas_eps": {"lr": 0.05, "betas": (0.7, 0.8), "eps": 1e-3},
    "small_beta1": {"lr": 0.05, "betas": (0.3, 0.99)},  # PyTorch's lerp takes its other branch
    "decoupled": {"lr": 0.05, "weight_decay": 0.3, "decoupled_weight_decay": True, "amsgrad": True},
}


@pytest.mark.parametrize("case", SGD_CASES)
def test_sgd_matches_torch(oracle, case):
    run_both(oracle, "SGD", SGD_CASES[case])


@pytest.mark.parametrize("name, kwargs", [("SGD", SGD_CASES["everything"]), ("SGD", SGD_CASES["momentum"]),
                                          ("Adam", ADAM_CASES["amsgrad"])])
def test_gradients_zeroed_in_place_match_torch(oracle, name, kwargs):
    """zero_grad(set_to_none=False) reuses the .grad tensors: state must not alias them."""
    run_both(oracle, name, kwargs, set_to_none=False)


@pytest.mark.parametrize("case", ADAM_CASES)
def test_adam_matches_torch(oracle, case):
    run_both(oracle, "Adam", ADAM_CASES[case])


@pytest.mark.parametrize("name, kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True,
                                                  "weight_decay": 0.01}),
                                          ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.01})])
def test_float32_parameters_stay_float32(oracle, name, kwargs):
    """Python-float hyperparameters must not promote float32 parameters or state to float64."""
    def program(lib):
        X, Y = lib.tensor(X0.astype(np.float32)), lib.tensor(Y0.astype(np.float32))
        W = lib.tensor(W0.astype(np.float32), requires_grad=True)
        opt = getattr(lib.optim, name)([W], **kwargs)
        for _ in range(20):
            train_step(opt, lambda: ((X @ W - Y) ** 2).mean())  # noqa: B023 (used at once)
        return str(W.dtype), [str(v.dtype) for v in opt.state[W].values()], W.detach().numpy().copy()
    mine, theirs = oracle.both(program)
    for dtype, state_dtypes, _ in (mine, theirs):
        assert dtype == "torch.float32" and set(state_dtypes) == {"torch.float32"}
    assert mine[1] == theirs[1]
    np.testing.assert_allclose(mine[2].values, theirs[2].values, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, kwargs", [("SGD", {"lr": 0.01, "momentum": 0.9}), ("Adam", {"lr": 0.01})])
def test_param_groups_with_their_own_lr(oracle, name, kwargs):
    def then(lib, opt, params):
        assert opt.param_groups[0]["params"][0] is params[0]
        return [g["lr"] for g in opt.param_groups], [sorted(g) for g in opt.param_groups]
    mine, theirs = run_both(oracle, name, kwargs, then=then,
                            groups=lambda p: [{"params": [p[0]], "lr": 0.1}, {"params": [p[1]]}])
    assert mine["then"] == theirs["then"]
    assert mine["then"][0] == [0.1, 0.01]


def test_param_groups_have_pytorch_keys_and_defaults(oracle):
    def program(lib):
        (W, b), _ = problem(lib)
        groups = []
        for name in ("SGD", "Adam"):
            param_groups = getattr(lib.optim, name)([W, b]).param_groups
            assert len(param_groups) == 1 and param_groups[0]["params"] == [W, b]
            groups.append({k: v for k, v in param_groups[0].items() if k != "params"})
        return groups
    oracle.same(program)  # the same keys in the same order, the same values


def test_add_param_group():
    (W, b), loss_fn = problem(minigrad)
    opt = minigrad.optim.SGD([W], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": b, "lr": 0.0})
    assert opt.param_groups[1]["params"] == [b] and opt.param_groups[1]["momentum"] == 0.9
    before = b.detach().numpy().copy()
    train_step(opt, loss_fn)
    np.testing.assert_array_equal(b.detach().numpy(), before)  # lr 0: b did not move


# -- state_dict --------------------------------------------------------------------------------------
def to_minigrad(obj):
    """A recorded PyTorch state_dict (TensorRecords inside) with minigrad tensors."""
    if isinstance(obj, TensorRecord):
        return minigrad.from_numpy(obj.values.copy())
    if isinstance(obj, dict):
        return {k: to_minigrad(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_minigrad(v) for v in obj)
    return obj


STATE_CASES = [("SGD", {"lr": 0.05, "momentum": 0.9}), ("SGD", {"lr": 0.1}),
               ("Adam", {"lr": 0.05}), ("Adam", {"lr": 0.05, "amsgrad": True})]


@pytest.mark.parametrize("name, kwargs", STATE_CASES)
def test_state_dict_layout_matches_torch(oracle, name, kwargs):
    groups = lambda p: [{"params": [p[1]], "lr": 0.2}, {"params": [p[0]]}]
    mine, theirs = run_both(oracle, name, kwargs, steps=3, groups=groups,
                            then=lambda lib, opt, params: opt.state_dict())
    same_state(mine["then"], theirs["then"])
    state = mine["then"]
    assert state["param_groups"][0]["params"] == [0] and state["param_groups"][1]["params"] == [1]


@pytest.mark.parametrize("name, kwargs", STATE_CASES)
def test_load_state_dict_resumes_identically(name, kwargs):
    params, loss_fn = problem(minigrad)
    opt = getattr(minigrad.optim, name)(params, **kwargs)
    for _ in range(5):
        train_step(opt, loss_fn)
    saved_params, saved = [p.detach().clone() for p in params], copy.deepcopy(opt.state_dict())
    for _ in range(5):
        train_step(opt, loss_fn)
    uninterrupted = values(params)

    # A fresh problem and optimizer, given the saved parameters and state.
    params2, loss_fn2 = problem(minigrad)
    with minigrad.no_grad():
        for p, s in zip(params2, saved_params):
            p.copy_(s)
    opt2 = getattr(minigrad.optim, name)(params2, lr=123.0)  # overwritten by the load
    opt2.load_state_dict(saved)
    assert opt2.param_groups[0]["lr"] == kwargs["lr"] and opt2.param_groups[0]["params"] == params2
    assert all(k in opt2.state for k in params2) == (len(saved["state"]) > 0)
    for _ in range(5):
        train_step(opt2, loss_fn2)
    for a, b in zip(values(params2), uninterrupted):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name, kwargs", STATE_CASES)
def test_state_dict_crosses_libraries(oracle, name, kwargs):
    """PyTorch's saved state, loaded into minigrad, continues as PyTorch continues after loading
    it into a new optimizer (both from the parameters of four steps)."""
    def then(lib, opt, params):
        state = opt.state_dict()
        resumed = getattr(lib.optim, name)(params, **kwargs)
        resumed.load_state_dict(copy.deepcopy(state))
        loss_fn = least_squares(lib, *params)
        return state, [(train_step(resumed, loss_fn).item(), values(params)) for _ in range(5)]
    mine, theirs = run_both(oracle, name, kwargs, steps=4, then=then)
    state, continued = theirs["then"]
    params, _ = problem(minigrad)
    with minigrad.no_grad():
        for p, v in zip(params, theirs["history"][-1][1]):
            p.copy_(minigrad.tensor(v.values))
    resumed = getattr(minigrad.optim, name)(params, **kwargs)
    resumed.load_state_dict(to_minigrad(state))
    loss_fn = least_squares(minigrad, *params)
    for loss, after in continued:
        np.testing.assert_allclose(train_step(resumed, loss_fn).item(), loss, rtol=1e-12)
        for a, b in zip(values(params), after):
            np.testing.assert_allclose(a, b.values, rtol=1e-12, atol=0)


def test_load_state_dict_casts_to_param_dtype_but_not_step():
    w = minigrad.zeros(3, requires_grad=True)  # float32
    opt = minigrad.optim.Adam([w])
    state = {"state": {0: {"step": minigrad.tensor(2.0, dtype=minigrad.float64),
                           "exp_avg": minigrad.ones(3, dtype=minigrad.float64),
                           "exp_avg_sq": minigrad.ones(3, dtype=minigrad.float64)}},
             "param_groups": opt.state_dict()["param_groups"]}
    opt.load_state_dict(state)
    assert opt.state[w]["exp_avg"].dtype is minigrad.float32
    assert opt.state[w]["step"].dtype is minigrad.float64


def test_load_state_dict_errors(oracle):
    def program(lib):
        (W, b), _ = problem(lib)
        one = lib.optim.SGD([W, b]).state_dict()
        two = lib.optim.SGD([{"params": [W]}, {"params": [b]}]).state_dict()
        return error_of(lib.optim.SGD([W, b]).load_state_dict, two), error_of(lib.optim.SGD([W]).load_state_dict, one)
    errors = oracle.same(program)
    assert [(e.type, e.message) for e in errors] == [
        ("ValueError", "loaded state dict has a different number of parameter groups"),
        ("ValueError", "loaded state dict contains a parameter group that doesn't match the size of "
                       "optimizer's group")]


# -- zero_grad and what step does to the parameters --------------------------------------------------
def test_zero_grad_sets_none_by_default():
    (W, b), loss_fn = problem(minigrad)
    opt = minigrad.optim.SGD([W, b])
    loss_fn().backward()
    assert W.grad is not None
    opt.zero_grad()
    assert W.grad is None and b.grad is None


def test_zero_grad_set_to_none_false_zeros_in_place():
    (W, b), loss_fn = problem(minigrad)
    opt = minigrad.optim.SGD([W, b])
    loss_fn().backward()
    grad = W.grad
    opt.zero_grad(set_to_none=False)
    assert W.grad is grad and not grad.requires_grad and grad.grad_fn is None
    np.testing.assert_array_equal(W.grad.numpy(), np.zeros((3, 2)))
    np.testing.assert_array_equal(b.grad.numpy(), np.zeros(2))
    loss_fn().backward()  # gradients accumulate into the zeroed tensor again
    assert W.grad is grad and np.abs(grad.numpy()).sum() > 0


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_zero_grad_set_to_none_false_detaches_a_graph_gradient():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward(create_graph=True)
    assert x.grad.grad_fn is not None
    minigrad.optim.SGD([x]).zero_grad(set_to_none=False)
    assert x.grad.grad_fn is None and not x.grad.requires_grad
    assert x.grad.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("name, kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1}),
                                          ("Adam", {"lr": 0.1, "amsgrad": True, "weight_decay": 0.1})])
def test_step_updates_in_place_and_records_nothing(name, kwargs):
    params, loss_fn = problem(minigrad)
    ids, arrays = [id(p) for p in params], [p._data for p in params]
    opt = getattr(minigrad.optim, name)(params, **kwargs)
    for _ in range(3):
        versions = [p._version for p in params]
        train_step(opt, loss_fn)
        assert [p._version for p in params] > versions  # changed in place, as autograd sees it
    for p, i, a in zip(params, ids, arrays):
        assert id(p) == i and p._data is a  # the same tensor objects, the same buffers
        assert p.is_leaf and p.grad_fn is None and p.requires_grad
    for state in opt.state.values():
        for value in state.values():
            assert value.grad_fn is None and not value.requires_grad
    assert minigrad.is_grad_enabled()  # step's no_grad ended with it
    loss_fn().backward()  # the parameters still take part in new graphs


def test_closure_runs_with_grad_enabled_and_its_loss_is_returned():
    params, loss_fn = problem(minigrad)
    opt = minigrad.optim.Adam(params, lr=0.1)
    seen = []

    def closure():
        opt.zero_grad()
        loss = loss_fn()
        seen.append(minigrad.is_grad_enabled())
        loss.backward()
        return loss

    with minigrad.no_grad():
        loss = opt.step(closure)
    assert seen == [True] and loss.grad_fn is not None
    assert opt.step() is None


@pytest.mark.parametrize("name, kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9}), ("Adam", {"lr": 0.1})])
def test_parameters_without_grad_are_skipped(oracle, name, kwargs):
    def program(lib):
        (W, b), loss_fn = problem(lib)
        unused = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        opt = getattr(lib.optim, name)([unused, W, b], **kwargs)
        for step in range(3):
            opt.zero_grad()
            loss_fn().backward()
            if step == 1:
                b.grad = None  # b misses one step: no update, no state change
            opt.step()
        return {"unused": (unused.grad, unused.tolist()), "state": opt.state_dict(), "params": values([W, b])}
    mine, theirs = oracle.both(program)
    assert theirs["unused"] == (None, [1.0, 2.0])
    same_state(mine, theirs)


# -- errors and repr ------------------------------------------------------------------------------
def bad_constructions(lib):
    (W, b), _ = problem(lib)
    return {
        "sgd lr": lambda: lib.optim.SGD([W], lr=-1),
        "sgd lr float": lambda: lib.optim.SGD([W], lr=-0.5),
        "sgd momentum": lambda: lib.optim.SGD([W], momentum=-0.1),
        "sgd weight_decay": lambda: lib.optim.SGD([W], weight_decay=-1e-4),
        "nesterov without momentum": lambda: lib.optim.SGD([W], nesterov=True),
        "nesterov with dampening": lambda: lib.optim.SGD([W], momentum=0.9, dampening=0.1, nesterov=True),
        "adam lr": lambda: lib.optim.Adam([W], lr=-1),
        "adam eps": lambda: lib.optim.Adam([W], eps=-1e-8),
        "adam beta0": lambda: lib.optim.Adam([W], betas=(1.0, 0.999)),
        "adam beta1": lambda: lib.optim.Adam([W], betas=(0.9, -0.5)),
        "adam int beta": lambda: lib.optim.Adam([W], betas=(0, 0.999)),
        "adam weight_decay": lambda: lib.optim.Adam([W], weight_decay=-1),
        "empty": lambda: lib.optim.SGD([]),
        "empty generator": lambda: lib.optim.Adam(iter([])),
        "a tensor": lambda: lib.optim.SGD(W),
        "a float tensor": lambda: lib.optim.SGD(lib.zeros(2, requires_grad=True)),
        "not a tensor": lambda: lib.optim.SGD([W, 3]),
        "non-leaf": lambda: lib.optim.SGD([W * 2]),
        "set": lambda: lib.optim.SGD([{"params": {W}}]),
        "twice": lambda: lib.optim.SGD([{"params": [W]}, {"params": [W, b]}]),
        "group not a dict": lambda: lib.optim.SGD([W]).add_param_group([b]),
        "names missing": lambda: lib.optim.SGD([("W", W), b]),
        "names in one group only": lambda: lib.optim.SGD([{"params": [("W", W)]}, {"params": [b]}]),
    }


@pytest.mark.parametrize("case", bad_constructions(minigrad))
def test_errors_match_torch(oracle, case):
    oracle.same_error(lambda lib: bad_constructions(lib)[case]())


def test_duplicate_parameters_warn_like_torch(oracle):
    def program(lib):
        (W, _), _ = problem(lib)
        return caught(lambda: lib.optim.SGD([W, W]))[1]
    log = oracle.same(program)
    assert log[0][0] == "UserWarning"
    assert log[0][1].startswith("optimizer contains a parameter group with duplicate ")


def test_named_parameters_keep_their_names(oracle):
    def program(lib):
        (W, b), _ = problem(lib)
        opt = lib.optim.Adam([("W", W), ("b", b)])
        group = opt.param_groups[0]
        return (group["param_names"], [p is q for p, q in zip(group["params"], [W, b])],
                opt.state_dict()["param_groups"][0]["param_names"])
    assert oracle.same(program) == (["W", "b"], [True, True], ["W", "b"])


REPR_CASES = [
    ("SGD", {}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 5e-4}),
    ("Adam", {}),
    ("Adam", {"lr": 3e-4, "betas": (0.5, 0.99), "amsgrad": True, "maximize": True}),
]


@pytest.mark.parametrize("name, kwargs", REPR_CASES)
def test_repr_matches_torch(oracle, name, kwargs):
    def program(lib):
        (W, b), _ = problem(lib)
        Opt = getattr(lib.optim, name)
        return repr(Opt([{"params": [W]}, {"params": [b], "lr": 1.0}], **kwargs)), repr(Opt([W], **kwargs))
    oracle.same(program)


def test_unsupported_implementation_options_are_refused():
    (W, _), _ = problem(minigrad)
    with pytest.raises(NotImplementedError, match="differentiable"):
        minigrad.optim.SGD([W], differentiable=True)
    with pytest.raises(NotImplementedError, match="fused"):
        minigrad.optim.Adam([W], fused=True)
    assert minigrad.optim.SGD([W], foreach=True).param_groups[0]["foreach"] is True


def test_a_custom_optimizer_on_the_base_class():
    """The base class is usable the way tutorials subclass torch.optim.Optimizer."""
    class SignSGD(minigrad.optim.Optimizer):
        def __init__(self, params, lr=0.1):
            super().__init__(params, {"lr": lr})

        @minigrad.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.sub_(p.grad.sign() * group["lr"])
                        self.state[p]["steps"] = self.state[p].get("steps", 0) + 1

    x = minigrad.tensor([1.0, -2.0], requires_grad=True)
    opt = SignSGD([x], lr=0.5)
    (x ** 2).sum().backward()
    opt.step()
    assert x.tolist() == [0.5, -1.5] and x.is_leaf
    assert opt.state_dict() == {"state": {0: {"steps": 1}}, "param_groups": [{"lr": 0.5, "params": [0]}]}
    with pytest.raises(NotImplementedError):
        minigrad.optim.Optimizer([x], {}).step()
