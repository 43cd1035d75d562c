"""minigrad.nn against torch.nn.

Each module is built in both libraries, minigrad's parameters are copied into
PyTorch's, and everything a learner can see is compared in float64: outputs,
the gradients reaching the input and every parameter, grad_fn graphs, reprs,
parameter names and state_dict keys. Where minigrad is known to differ the test
stays as it should be and is marked ``xfail(strict=True, reason="DIFF: ...")``.
"""
import copy
import math
import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn
from minigrad.autograd import gradcheck


def diff(reason):
    return pytest.mark.xfail(strict=True, reason="DIFF: " + reason)


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _np(t):
    return t.detach().numpy()


def signature(node, seen=None):
    """Node names of a grad_fn graph, nested as next_functions nests them."""
    if node is None:
        return None
    return (type(node).__name__, tuple(signature(child) for child, _ in node.next_functions))


def close(m, t, what=""):
    assert m is not None and t is not None, what
    assert tuple(m.shape) == tuple(t.shape), what
    assert repr(m.dtype) == repr(t.dtype), what
    np.testing.assert_allclose(_np(m), _np(t), rtol=1e-10, atol=1e-12, err_msg=what)


def twin(torch, mg_module, torch_module):
    """Both modules in float64, with minigrad's parameters (and buffers) copied into PyTorch's."""
    mg_module.double()
    torch_module.double()
    state = {k: torch.from_numpy(_np(v).copy()) for k, v in mg_module.state_dict().items()}
    torch_module.load_state_dict(state)
    return mg_module, torch_module


def run_both(torch, mg_module, torch_module, x, seed=1, check_graph=True):
    """Forward an input through both modules, backward a random upstream gradient, and
    compare the outputs, the input's gradient and every parameter's gradient."""
    xm = mg.tensor(x, requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    om, ot = mg_module(xm), torch_module(xt)
    close(om, ot, "output")
    if check_graph:
        assert signature(om.grad_fn) == signature(ot.grad_fn)
    g = np.random.default_rng(seed).standard_normal(tuple(ot.shape))
    om.backward(mg.tensor(g))
    ot.backward(torch.tensor(g))
    close(xm.grad, xt.grad, "input grad")
    mp, tp = list(mg_module.named_parameters()), list(torch_module.named_parameters())
    assert [n for n, _ in mp] == [n for n, _ in tp]
    for (name, pm), (_, pt) in zip(mp, tp):
        close(pm.grad, pt.grad, f"grad of {name}")
    return om, ot


def data(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


# ---------------------------------------------------------------------------------------------
# Linear
# ---------------------------------------------------------------------------------------------

SHAPES = {"1D": (3,), "2D": (4, 3), "3D": (2, 4, 3)}


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_linear_values_and_grads(torch, shape, bias):
    m, t = twin(torch, nn.Linear(3, 2, bias=bias), torch.nn.Linear(3, 2, bias=bias))
    run_both(torch, m, t, data(*shape), check_graph=False)


_MATMUL_DIFF = ("no-bias Linear is matmul, as in PyTorch, and minigrad's matmul of a {} input links "
                "one node straight to both operands (PyTorch: {} -> MmBackward0 -> (View/Unsqueeze, "
                "TBackward0)); see MATMUL_DIFFS in test_vs_torch.py")


@pytest.mark.parametrize("x_grad", [True, False], ids=["x_grad", "x_nograd"])
@pytest.mark.parametrize("bias,shape", [
    pytest.param(True, (3,), id="bias-1D"),
    pytest.param(True, (4, 3), id="bias-2D"),
    pytest.param(True, (2, 4, 3), id="bias-3D"),
    pytest.param(False, (4, 3), id="nobias-2D"),
    pytest.param(False, (3,), id="nobias-1D", marks=diff(_MATMUL_DIFF.format("1-D", "SqueezeBackward4"))),
    pytest.param(False, (2, 4, 3), id="nobias-3D",
                 marks=diff(_MATMUL_DIFF.format("3-D", "UnsafeViewBackward0"))),
])
def test_linear_graph(torch, bias, shape, x_grad):
    """AddmmBackward0 -> (bias AccumulateGrad, input, TBackward0 -> weight AccumulateGrad),
    under a ViewBackward0 for 1-D and 3-D inputs; MmBackward0 without bias."""
    m, t = twin(torch, nn.Linear(3, 2, bias=bias), torch.nn.Linear(3, 2, bias=bias))
    x = data(*shape)
    om, ot = m(mg.tensor(x, requires_grad=x_grad)), t(torch.tensor(x, requires_grad=x_grad))
    assert signature(om.grad_fn) == signature(ot.grad_fn)


def test_linear_grad_fn_names(torch):
    out = nn.Linear(3, 2)(mg.randn(4, 3))
    assert out.grad_fn.name() == "AddmmBackward0"
    names = [type(n).__name__ for n, _ in out.grad_fn.next_functions]
    assert names == ["AccumulateGrad", "NoneType", "TBackward0"]
    assert type(out.grad_fn.next_functions[2][0].next_functions[0][0]).__name__ == "AccumulateGrad"


@pytest.mark.parametrize("shape", [(4, 5), (2, 4, 5), (5,)], ids=["2D", "3D", "1D"])
def test_linear_shape_error(torch, shape):
    with pytest.raises(RuntimeError) as e:
        nn.Linear(3, 2)(mg.zeros(*shape))
    with pytest.raises(RuntimeError) as te:
        torch.nn.Linear(3, 2)(torch.zeros(*shape))
    assert str(e.value) == str(te.value)


def test_linear_float32_default(torch):
    lin = nn.Linear(3, 2)
    assert lin.weight.dtype is mg.float32 and lin.bias.dtype is mg.float32
    assert lin(mg.randn(4, 3)).dtype is mg.float32


# ---------------------------------------------------------------------------------------------
# Activations, Flatten, Identity
# ---------------------------------------------------------------------------------------------

ACTIVATIONS = {
    "ReLU": lambda lib: lib.nn.ReLU(),
    "Tanh": lambda lib: lib.nn.Tanh(),
    "Sigmoid": lambda lib: lib.nn.Sigmoid(),
    "Softmax": lambda lib: lib.nn.Softmax(dim=1),
    "LogSoftmax": lambda lib: lib.nn.LogSoftmax(dim=-1),
    "Identity": lambda lib: lib.nn.Identity(),
    "Flatten": lambda lib: lib.nn.Flatten(),
    "Flatten(0,2)": lambda lib: lib.nn.Flatten(0, 2),
    "Flatten(2,3)": lambda lib: lib.nn.Flatten(2, 3),
}


@pytest.mark.parametrize("make", ACTIVATIONS.values(), ids=ACTIVATIONS.keys())
def test_parameterless_modules(torch, make):
    m, t = make(mg), make(torch)
    run_both(torch, m, t, data(2, 3, 4, 5))
    assert repr(m) == repr(t)


FUNCTIONS = {
    "relu": lambda F, x: F.relu(x),
    "sigmoid": lambda F, x: F.sigmoid(x),
    "tanh": lambda F, x: F.tanh(x),
    "softmax": lambda F, x: F.softmax(x, dim=1),
    "softmax-1": lambda F, x: F.softmax(x, -1),
    "log_softmax": lambda F, x: F.log_softmax(x, dim=0),
    "dropout-eval": lambda F, x: F.dropout(x, 0.3, training=False),
}


@pytest.mark.parametrize("fn", FUNCTIONS.values(), ids=FUNCTIONS.keys())
def test_functional_activations(torch, fn):
    xm = mg.tensor(data(3, 4), requires_grad=True)
    xt = torch.tensor(data(3, 4), requires_grad=True)
    om, ot = fn(F, xm), fn(torch.nn.functional, xt)
    close(om, ot)
    assert signature(om.grad_fn) == signature(ot.grad_fn)
    if om.grad_fn is not None:
        g = data(3, 4, seed=5)
        om.backward(mg.tensor(g))
        ot.backward(torch.tensor(g))
        close(xm.grad, xt.grad)


def test_softmax_implicit_dim_warns(torch):
    x = data(2, 3)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax") as record:
        out = F.softmax(mg.tensor(x))
    with warnings.catch_warnings(record=True) as t_record:
        warnings.simplefilter("always")
        expected = torch.nn.functional.softmax(torch.tensor(x))
    close(out, expected)
    assert str(record[0].message) == str(t_record[0].message)


def test_relu_inplace(torch):
    x = mg.tensor([-1.0, 2.0])
    out = nn.ReLU(inplace=True)(x)
    assert out is x and x.tolist() == [0.0, 2.0]
    assert repr(nn.ReLU(inplace=True)) == repr(torch.nn.ReLU(inplace=True))


def test_functional_linear(torch):
    x, w, b = data(5, 3), data(2, 3, seed=1), data(2, seed=2)
    ms = [mg.tensor(a, requires_grad=True) for a in (x, w, b)]
    ts = [torch.tensor(a, requires_grad=True) for a in (x, w, b)]
    om, ot = F.linear(*ms), torch.nn.functional.linear(*ts)
    close(om, ot)
    assert signature(om.grad_fn) == signature(ot.grad_fn)
    om.sum().backward()
    ot.sum().backward()
    for a, b_ in zip(ms, ts):
        close(a.grad, b_.grad)


# ---------------------------------------------------------------------------------------------
# Sequential
# ---------------------------------------------------------------------------------------------


def mlp(lib):
    return lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.ReLU(), lib.nn.Linear(5, 4), lib.nn.Tanh(),
                             lib.nn.Linear(4, 2, bias=False), lib.nn.Sigmoid())


def test_sequential_mlp(torch):
    m, t = twin(torch, mlp(mg), mlp(torch))
    run_both(torch, m, t, data(6, 3))
    assert repr(m) == repr(t)


def test_sequential_container(torch):
    m, t = mlp(mg), mlp(torch)
    assert len(m) == len(t) == 6
    assert [type(x).__name__ for x in m] == [type(x).__name__ for x in t]
    assert m[-1] is list(m)[-1] and m[0] is m._modules["0"]
    part, t_part = m[1:4], t[1:4]
    assert type(part) is nn.Sequential and len(part) == 3
    assert part[0] is m[1]
    assert repr(part) == repr(t_part)  # keeps the names "1", "2", "3"
    with pytest.raises(IndexError) as e:
        m[6]
    with pytest.raises(IndexError) as te:
        t[6]
    assert str(e.value) == str(te.value)
    m[1] = nn.Tanh()
    assert type(m[1]) is nn.Tanh
    del m[1]
    del t[1]
    assert repr(m.double()) == repr(t)  # renumbered "0" ... "4"
    m.append(nn.ReLU())
    t.append(torch.nn.ReLU())
    assert repr(m) == repr(t)


def test_sequential_ordered_dict(torch):
    from collections import OrderedDict
    m = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 3)), ("act", nn.ReLU())]))
    t = torch.nn.Sequential(OrderedDict([("fc", torch.nn.Linear(2, 3)), ("act", torch.nn.ReLU())]))
    assert repr(m) == repr(t)
    assert [n for n, _ in m.named_parameters()] == ["fc.weight", "fc.bias"]
    assert m.fc is m[0]


# ---------------------------------------------------------------------------------------------
# Dropout
# ---------------------------------------------------------------------------------------------


def test_dropout_eval_is_identity(torch):
    x = mg.tensor(data(4, 5), requires_grad=True)
    d = nn.Dropout(0.4).eval()
    assert d(x) is x
    xt = torch.ones(2)
    assert torch.nn.Dropout(0.4).eval()(xt) is xt  # PyTorch too returns its input
    assert F.dropout(x, 0.4, training=False) is x


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_dropout_train_scaling_and_grad(torch, p):
    mg.manual_seed(0)
    x = mg.tensor(data(200, 50) + 5.0, requires_grad=True)  # no zeros in x
    out = nn.Dropout(p)(x)
    kept = out.detach().numpy() != 0
    np.testing.assert_allclose(out.detach().numpy()[kept], x.detach().numpy()[kept] / (1 - p), rtol=1e-12)
    assert abs((~kept).mean() - p) < 0.02  # about a fraction p is dropped
    out.sum().backward()
    grad = x.grad.numpy()
    np.testing.assert_allclose(grad[kept], 1 / (1 - p), rtol=1e-12)
    assert (grad[~kept] == 0).all()
    t_out = torch.nn.Dropout(p)(torch.tensor(data(2, 3), requires_grad=True))
    assert signature(out.grad_fn) == signature(t_out.grad_fn)  # MulBackward0 -> (x, None)


def test_dropout_reproducible_and_edge_cases(torch):
    x = mg.ones(10, 10, dtype=mg.float64)
    mg.manual_seed(3)
    a = F.dropout(x, 0.5)
    mg.manual_seed(3)
    b = F.dropout(x, 0.5)
    assert mg.equal(a, b)
    assert not mg.equal(a, F.dropout(x, 0.5))  # the generator moved on
    assert F.dropout(x, 0.0) is x
    assert (F.dropout(x, 1.0).numpy() == 0).all()
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError) as e:
            nn.Dropout(bad)
        with pytest.raises(ValueError) as te:
            torch.nn.Dropout(bad)
        assert str(e.value) == str(te.value)


# ---------------------------------------------------------------------------------------------
# BatchNorm1d
# ---------------------------------------------------------------------------------------------

BN_CONFIGS = {
    "default": {},
    "no-affine": {"affine": False},
    "no-bias": {"bias": False},
    "momentum-0.3-eps": {"momentum": 0.3, "eps": 1e-3},
    "momentum-None": {"momentum": None},
    "no-running-stats": {"track_running_stats": False},
}


@pytest.mark.parametrize("shape", [(8, 4), (5, 4, 3)], ids=["2D", "3D"])
@pytest.mark.parametrize("kwargs", BN_CONFIGS.values(), ids=BN_CONFIGS.keys())
def test_batchnorm1d(torch, kwargs, shape):
    m, t = nn.BatchNorm1d(4, **kwargs), torch.nn.BatchNorm1d(4, **kwargs)
    if m.weight is not None:  # not the default ones and zeros, so that they matter
        mg.nn.init.uniform_(m.weight, 0.5, 1.5)
    if m.bias is not None:
        mg.nn.init.normal_(m.bias)
    m, t = twin(torch, m, t)
    for step in range(4):  # training: batch statistics, running averages updated
        x = data(*shape, seed=step) * 3 + step
        m.zero_grad()
        t.zero_grad()
        run_both(torch, m, t, x, seed=step, check_graph=False)
        for name, buf in t.named_buffers():
            mb = dict(m.named_buffers())[name]
            if buf.dtype == torch.int64:
                assert mb.dtype is mg.int64 and mb.item() == buf.item() == step + 1
            else:
                close(mb, buf, name)
    assert [n for n, _ in m.named_buffers()] == [n for n, _ in t.named_buffers()]
    m.eval()
    t.eval()
    m.zero_grad()
    t.zero_grad()
    run_both(torch, m, t, data(*shape, seed=9), check_graph=False)  # eval: running statistics
    assert repr(m) == repr(t)
    assert list(m.state_dict()) == list(t.state_dict())


def test_batchnorm1d_grad_fn(torch):
    out = nn.BatchNorm1d(3)(mg.randn(4, 3))
    assert out.grad_fn.name() == "NativeBatchNormBackward0"


def test_batchnorm1d_errors(torch):
    for x in (np.zeros((1, 3)), np.zeros((2, 3, 4, 5)), np.zeros(3)):
        with pytest.raises(ValueError) as e:
            nn.BatchNorm1d(3)(mg.tensor(x))
        with pytest.raises(ValueError) as te:
            torch.nn.BatchNorm1d(3)(torch.tensor(x))
        assert str(e.value) == str(te.value)


def test_batchnorm1d_eval_single_sample(torch):
    m, t = twin(torch, nn.BatchNorm1d(3), torch.nn.BatchNorm1d(3))
    m.eval()
    t.eval()
    close(m(mg.tensor(data(1, 3))), t(torch.tensor(data(1, 3))))


# ---------------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------------

REDUCTIONS = ["mean", "sum", "none"]


def _loss_both(torch, make, x, y, target_grad=False, seed=3):
    xm, xt = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ym, yt = mg.tensor(y, requires_grad=target_grad), torch.tensor(y, requires_grad=target_grad)
    lm, lt = make(mg)(xm, ym), make(torch)(xt, yt)
    close(lm, lt, "loss")
    assert signature(lm.grad_fn) == signature(lt.grad_fn)
    assert repr(lm) == repr(lt)
    g = np.random.default_rng(seed).standard_normal(tuple(lt.shape))
    lm.backward(mg.tensor(g))
    lt.backward(torch.tensor(g))
    close(xm.grad, xt.grad, "input grad")
    if target_grad:
        close(ym.grad, yt.grad, "target grad")
    return lm, lt


@pytest.mark.parametrize("form", ["module", "functional"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss(torch, reduction, form):
    def make(lib):
        if form == "module":
            return lib.nn.MSELoss(reduction=reduction)
        return lambda a, b: lib.nn.functional.mse_loss(a, b, reduction=reduction)
    lm, _ = _loss_both(torch, make, data(4, 3), data(4, 3, seed=1), target_grad=True)
    assert lm.grad_fn.name() == "MseLossBackward0"
    _loss_both(torch, make, data(5), data(5, seed=1))


def test_mse_loss_broadcast_warns(torch):
    x, y = data(4, 1), data(4, seed=1)
    with pytest.warns(UserWarning) as record:
        lm = F.mse_loss(mg.tensor(x), mg.tensor(y))
    with warnings.catch_warnings(record=True) as t_record:
        warnings.simplefilter("always")
        lt = torch.nn.functional.mse_loss(torch.tensor(x), torch.tensor(y))
    assert str(record[0].message) == str(t_record[0].message)
    close(lm, lt)


CLASSIFICATION = {  # input shape, target shape, classes
    "(N,C)": ((6, 4), (6,)),
    "(C,)": ((4,), ()),
    "(N,C,d)": ((3, 4, 5), (3, 5)),
    "(N,C,h,w)": ((3, 4, 2, 3), (3, 2, 3)),
    "(N,C,d,e,f)": ((2, 4, 2, 3, 2), (2, 2, 3, 2)),
}


@pytest.mark.parametrize("shapes", CLASSIFICATION.values(), ids=CLASSIFICATION.keys())
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("loss", ["CrossEntropyLoss", "NLLLoss", "cross_entropy", "nll_loss"])
def test_classification_losses(torch, loss, reduction, shapes):
    x_shape, y_shape = shapes
    x = data(*x_shape) * 3
    y = np.random.default_rng(1).integers(0, 4, y_shape)

    def make(lib):
        if loss[0].isupper():
            return getattr(lib.nn, loss)(reduction=reduction)
        return lambda a, b: getattr(lib.nn.functional, loss)(a, b, reduction=reduction)
    _loss_both(torch, make, x, y)  # NllLossBackward0, NllLoss2DBackward0 or a View over it


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_weight_and_ignore_index(torch, reduction):
    x, y = data(7, 4), np.array([0, 3, 1, 3, 2, -100, 1])
    w = np.array([0.5, 2.0, 1.0, 3.0])

    def make(lib):
        return lib.nn.CrossEntropyLoss(weight=lib.tensor(w), reduction=reduction)
    _loss_both(torch, make, x, y)

    def make_ignore(lib):
        return lambda a, b: lib.nn.functional.nll_loss(a, b, ignore_index=3, reduction=reduction)
    _loss_both(torch, make_ignore, x, np.array([0, 3, 1, 3, 2, 1, 1]))


def test_loss_grad_fn_names(torch):
    x = mg.randn(4, 3, requires_grad=True)
    ce = F.cross_entropy(x, mg.tensor([0, 2, 1, 1]))
    assert ce.grad_fn.name() == "NllLossBackward0"
    assert [n.name() for n, _ in ce.grad_fn.next_functions] == ["LogSoftmaxBackward0"]
    mse = nn.MSELoss()(x, mg.zeros(4, 3))
    assert mse.grad_fn.name() == "MseLossBackward0"
    assert [n and n.name() for n, _ in mse.grad_fn.next_functions] == ["torch::autograd::AccumulateGrad", None]


def test_cross_entropy_is_stable(torch):
    x = np.array([[1000.0, -1000.0, 0.0], [-500.0, 500.0, 499.0]])
    y = np.array([1, 2])
    lm = F.cross_entropy(mg.tensor(x, requires_grad=True), mg.tensor(y))
    lt = torch.nn.functional.cross_entropy(torch.tensor(x), torch.tensor(y))
    assert math.isfinite(lm.item())
    close(lm.detach(), lt)


def test_loss_errors(torch):
    cases = [
        (ValueError, lambda lib: lib.nn.MSELoss(reduction="avg")(lib.zeros(2), lib.zeros(2))),
        (ValueError, lambda lib: lib.nn.functional.cross_entropy(lib.zeros(2, 3), lib.tensor([0, 1, 1]))),
        (IndexError, lambda lib: lib.nn.functional.cross_entropy(lib.zeros(2, 3), lib.tensor([0, 3]))),
        (IndexError, lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3), lib.tensor([-1, 0]))),
        (RuntimeError, lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3), lib.tensor([0.0, 1.0]))),
        (RuntimeError, lambda lib: lib.nn.CrossEntropyLoss()(lib.zeros(2, 3), lib.tensor([0.0, 1.0]))),
    ]
    for kind, fn in cases:
        with pytest.raises(kind) as e:
            fn(mg)
        with pytest.raises(kind) as te:
            fn(torch)
        assert str(e.value) == str(te.value)


@pytest.mark.parametrize("fn", [
    lambda x, y: F.mse_loss(x, y),
    lambda x, y: F.mse_loss(x, y, reduction="none"),
    lambda x, y: F.cross_entropy(x, mg.tensor([2, 0, 1])),
    lambda x, y: F.nll_loss(x, mg.tensor([2, 0, 1]), mg.tensor([1.0, 2.0, 0.5], dtype=mg.float64),
                            reduction="none"),
    lambda x, y: F.linear(x, y, y[0]),
    lambda x, y: F.batch_norm(x, None, None, y[0], y[1], training=True),
], ids=["mse", "mse-none", "cross_entropy", "nll-weighted", "linear", "batch_norm"])
def test_gradcheck(fn):
    """First and second derivatives against finite differences (backward formulas are
    written with Tensor ops, so they can be differentiated again)."""
    x = mg.tensor(data(3, 3), requires_grad=True)
    y = mg.tensor(data(3, 3, seed=1), requires_grad=True)
    assert gradcheck(fn, (x, y))
    assert gradcheck(lambda x, y: mg.autograd.grad(fn(x, y).sum(), (x, y), create_graph=True,
                                                   allow_unused=True)[0], (x, y))


# ---------------------------------------------------------------------------------------------
# Module: reprs, names, state_dict
# ---------------------------------------------------------------------------------------------

REPRS = {
    "Linear": lambda lib: lib.nn.Linear(2, 4),
    "Linear-nobias": lambda lib: lib.nn.Linear(2, 3, bias=False),
    "BatchNorm1d": lambda lib: lib.nn.BatchNorm1d(4),
    "BatchNorm1d-options": lambda lib: lib.nn.BatchNorm1d(3, eps=1e-3, momentum=None, affine=False,
                                                          track_running_stats=False),
    "Dropout": lambda lib: lib.nn.Dropout(),
    "Dropout-p": lambda lib: lib.nn.Dropout(p=0.2, inplace=True),
    "MSELoss": lambda lib: lib.nn.MSELoss(reduction="sum"),
    "CrossEntropyLoss": lambda lib: lib.nn.CrossEntropyLoss(),
    "NLLLoss": lambda lib: lib.nn.NLLLoss(),
    "Flatten": lambda lib: lib.nn.Flatten(),
    "Softmax": lambda lib: lib.nn.Softmax(dim=1),
    "nested": lambda lib: lib.nn.Sequential(lib.nn.Linear(2, 4), lib.nn.ReLU(),
                                            lib.nn.Sequential(lib.nn.Tanh(), lib.nn.BatchNorm1d(4)),
                                            lib.nn.Sequential(), lib.nn.Dropout(0.1)),
}


@pytest.mark.parametrize("make", REPRS.values(), ids=REPRS.keys())
def test_module_repr(torch, make):
    assert repr(make(mg)) == repr(make(torch))


class Net:
    """A user model, the way learners write one, for both libraries."""

    @staticmethod
    def make(lib):
        class Block(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = lib.nn.Linear(3, 3)
                self.bn = lib.nn.BatchNorm1d(3)
                self.scale = lib.nn.Parameter(lib.ones(3))

            def forward(self, x):
                return self.bn(self.fc(x)) * self.scale

        class Model(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.inp = lib.nn.Linear(2, 3)
                self.block = Block()
                self.act = lib.nn.ReLU()
                self.head = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Dropout(0.5))
                self.tied = self.inp  # the same module twice: listed once
                self.register_buffer("step", lib.zeros(()))
                self.register_buffer("scratch", lib.zeros(2), persistent=False)
                self.offset = lib.nn.Parameter(lib.zeros(2))

            def forward(self, x):
                return self.head(self.act(self.block(self.inp(x)))) + self.offset
        return Model()


def test_module_names_match_torch(torch):
    m, t = Net.make(mg), Net.make(torch)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert [n for n, _ in m.named_buffers()] == [n for n, _ in t.named_buffers()]
    assert [n for n, _ in m.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in m.named_children()] == [n for n, _ in t.named_children()]
    assert [type(c).__name__ for c in m.children()] == [type(c).__name__ for c in t.children()]
    assert [type(c).__name__ for c in m.modules()] == [type(c).__name__ for c in t.modules()]
    assert list(m.state_dict()) == list(t.state_dict())
    assert len(list(m.parameters())) == len(list(t.parameters()))
    assert len(list(m.parameters(recurse=False))) == len(list(t.parameters(recurse=False))) == 1
    assert repr(m) == repr(t)
    visited, t_visited = [], []
    m.apply(lambda mod: visited.append(type(mod).__name__))
    t.apply(lambda mod: t_visited.append(type(mod).__name__))
    assert visited == t_visited


def test_user_model_matches_torch(torch):
    m, t = twin(torch, Net.make(mg), Net.make(torch))
    m.eval()
    t.eval()
    run_both(torch, m, t, data(5, 2), check_graph=False)
    m.train()
    t.train()
    m.head[1].p = t.head[1].p = 0.0  # dropout off: the masks differ between libraries
    m.zero_grad()
    t.zero_grad()
    run_both(torch, m, t, data(5, 2, seed=4), check_graph=False)
    close(m.block.bn.running_mean, t.block.bn.running_mean)


def test_shared_parameter_listed_once(torch):
    def make(lib):
        m = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Linear(2, 2))
        m[1].weight = m[0].weight  # weight tying
        return m
    m, t = make(mg), make(torch)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert len(list(m.parameters())) == 3
    assert list(m.state_dict()) == list(t.state_dict())  # state_dict lists it under both names


def test_parameter(torch):
    p = nn.Parameter(mg.tensor([1.0, 2.0]))
    assert isinstance(p, mg.Tensor) and p.is_leaf and p.requires_grad
    assert repr(p) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0])))
    q = nn.Parameter(mg.tensor([1.0, 2.0], dtype=mg.float64), requires_grad=False)
    assert repr(q) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64), requires_grad=False))
    assert type(p * 2) is mg.Tensor and type(p.detach()) is mg.Tensor
    src = mg.tensor([3.0])
    assert nn.Parameter(src)._data is src._data  # shares the numbers, as in PyTorch


def test_state_dict_round_trip(torch):
    mg.manual_seed(0)
    a = Net.make(mg)
    a.train()
    a(mg.randn(4, 2))  # moves the BatchNorm running statistics
    mg.manual_seed(1)
    b = Net.make(mg)
    state = a.state_dict()
    assert all(not v.requires_grad and v.grad_fn is None for v in state.values())
    assert state["block.bn.num_batches_tracked"].item() == 1
    result = b.load_state_dict(state)
    assert repr(result) == "<All keys matched successfully>"
    for (k, va), (_, vb) in zip(a.state_dict().items(), b.state_dict().items()):
        assert mg.equal(va, vb), k
    assert b.block.fc.weight is dict(b.named_parameters())["block.fc.weight"]  # copied in place
    assert b.block.fc.weight.requires_grad
    state["inp.bias"].mul_(0)  # the state_dict shares its numbers with the module, as in PyTorch
    assert (a.inp.bias.detach().numpy() == 0).all()


def test_load_state_dict_from_torch(torch):
    m, t = mlp(mg).double(), mlp(torch).double()
    m.load_state_dict({k: mg.tensor(v.numpy()) for k, v in t.state_dict().items()})
    x = data(4, 3)
    close(m(mg.tensor(x)), t(torch.tensor(x)))


def test_load_state_dict_errors(torch):
    def check(make_state, strict=True):
        m, t = Net.make(mg), Net.make(torch)
        sm = make_state(mg, {k: v for k, v in m.state_dict().items()})
        st = make_state(torch, {k: v for k, v in t.state_dict().items()})
        if strict:
            with pytest.raises(RuntimeError) as e:
                m.load_state_dict(sm)
            with pytest.raises(RuntimeError) as te:
                t.load_state_dict(st)
            assert str(e.value) == str(te.value)
        else:
            assert repr(m.load_state_dict(sm, strict=False)) == repr(t.load_state_dict(st, strict=False))

    def missing_and_unexpected(lib, s):
        del s["block.fc.bias"], s["offset"]
        s["block.extra"] = lib.zeros(1)
        s["nope"] = lib.zeros(1)
        s["head.0.nope.x"] = lib.zeros(1)
        return s

    def wrong_shape(lib, s):
        s["head.0.weight"] = lib.zeros(3, 3)
        return s
    check(missing_and_unexpected)
    check(wrong_shape)
    check(missing_and_unexpected, strict=False)


# ---------------------------------------------------------------------------------------------
# Module: modes, gradients, dtypes
# ---------------------------------------------------------------------------------------------


def test_train_eval_propagate(torch):
    m = Net.make(mg)
    assert all(mod.training for mod in m.modules())
    assert m.eval() is m
    assert not any(mod.training for mod in m.modules())
    m.block.train()
    assert m.block.bn.training and not m.training and not m.head[1].training
    m.train()
    assert all(mod.training for mod in m.modules())
    with pytest.raises(ValueError) as e:
        m.train(1)
    with pytest.raises(ValueError) as te:
        Net.make(torch).train(1)
    assert str(e.value) == str(te.value)


def test_zero_grad(torch):
    m = mlp(mg)
    m(mg.randn(4, 3)).sum().backward()
    assert all(p.grad is not None for p in m.parameters())
    m.zero_grad(set_to_none=False)
    assert all(p.grad is not None and (p.grad.numpy() == 0).all() for p in m.parameters())
    m(mg.randn(4, 3)).sum().backward()
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())


def test_requires_grad_freezes(torch):
    m = mlp(mg)
    assert m[0].requires_grad_(False) is m[0]
    m(mg.randn(4, 3)).sum().backward()
    assert m[0].weight.grad is None and m[0].bias.grad is None
    assert m[2].weight.grad is not None
    m.requires_grad_(False)
    out = m(mg.randn(4, 3))
    assert not out.requires_grad and out.grad_fn is None
    m.requires_grad_()
    assert all(p.requires_grad for p in m.parameters())


def test_dtype_conversion_keeps_parameters(torch):
    m = Net.make(mg)
    params = list(m.parameters())
    m(mg.randn(4, 2)).sum().backward()
    assert m.double() is m
    assert [id(p) for p in m.parameters()] == [id(p) for p in params]
    assert all(p.dtype is mg.float64 and p.grad.dtype is mg.float64 for p in m.parameters())
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in m.parameters())
    assert m.block.bn.running_mean.dtype is mg.float64 and m.scratch.dtype is mg.float64
    assert m.block.bn.num_batches_tracked.dtype is mg.int64  # integers stay integers
    assert m(mg.randn(4, 2, dtype=mg.float64)).dtype is mg.float64
    assert m.float() is m and m.inp.weight.dtype is mg.float32
    m.to(mg.float64)
    assert m.inp.weight.dtype is mg.float64 and m.to("cpu") is m
    m.to("cpu", mg.float32)
    assert m.inp.weight.dtype is mg.float32
    assert [id(p) for p in m.parameters()] == [id(p) for p in params]


def test_deepcopy(torch):
    m = mlp(mg)
    c = copy.deepcopy(m)
    assert type(c[0].weight) is nn.Parameter and c[0].weight.requires_grad
    assert mg.equal(c[0].weight, m[0].weight)
    with mg.no_grad():
        c[0].weight.mul_(0)
    assert not (m[0].weight.detach().numpy() == 0).all()


def test_module_errors_match_torch(torch):
    def cases(lib):
        class NoInit(lib.nn.Module):
            def __init__(self, what):
                self.x = what()

        return [
            (TypeError, lambda: setattr(lib.nn.Linear(2, 2), "weight", lib.zeros(2, 2))),
            (AttributeError, lambda: lib.nn.Linear(2, 2).foo),
            (AttributeError, lambda: NoInit(lambda: lib.nn.Linear(2, 2))),
            (AttributeError, lambda: NoInit(lambda: lib.nn.Parameter(lib.zeros(2)))),
            (NotImplementedError, lambda: lib.nn.Module()(1)),
        ]
    for (kind, fm), (_, ft) in zip(cases(mg), cases(torch)):
        with pytest.raises(kind) as e:
            fm()
        with pytest.raises(kind) as te:
            ft()
        assert str(e.value) == str(te.value)


def test_attribute_registration(torch):
    m = nn.Module()
    m.w = nn.Parameter(mg.zeros(2))
    m.sub = nn.Linear(1, 1)
    m.plain = mg.zeros(2)  # a plain tensor is not a parameter
    assert [n for n, _ in m.named_parameters()] == ["w", "sub.weight", "sub.bias"]
    m.w = None
    assert m.w is None and [n for n, _ in m.named_parameters()] == ["sub.weight", "sub.bias"]
    del m.sub
    assert list(m.named_parameters()) == [] and not hasattr(m, "sub")
    m.register_buffer("b", mg.ones(1))
    m.b = mg.zeros(3)
    assert list(m.state_dict()) == ["b"] and m.b.shape == (3,)


# ---------------------------------------------------------------------------------------------
# nn.init and default initialisation
# ---------------------------------------------------------------------------------------------


def test_linear_init_bounds_and_seed(torch):
    mg.manual_seed(0)
    a = nn.Linear(50, 40)
    bound = 1 / math.sqrt(50)
    for p in (a.weight, a.bias):
        v = p.detach().numpy()
        assert (np.abs(v) <= bound).all() and np.abs(v).max() > 0.9 * bound  # fills the range
    t = torch.nn.Linear(50, 40)  # PyTorch's bounds are the same
    assert np.abs(t.weight.detach().numpy()).max() <= bound
    mg.manual_seed(0)
    b = nn.Linear(50, 40)
    assert mg.equal(a.weight, b.weight) and mg.equal(a.bias, b.bias)
    c = nn.Linear(50, 40)
    assert not mg.equal(a.weight, c.weight)


def test_init_functions(torch):
    w = mg.empty(200, 100, requires_grad=True)
    for fn, bound in [(lambda t: nn.init.uniform_(t, -0.3, 0.2), (-0.3, 0.2)),
                      (lambda t: nn.init.kaiming_uniform_(t), (-math.sqrt(6 / 100), math.sqrt(6 / 100))),
                      (lambda t: nn.init.xavier_uniform_(t, gain=2.0), (-2 * math.sqrt(6 / 300),
                                                                          2 * math.sqrt(6 / 300)))]:
        version = w._version
        assert fn(w) is w
        v = w.detach().numpy()
        assert bound[0] <= v.min() < bound[0] * 0.95 + bound[1] * 0.05 and bound[1] >= v.max()
        assert w.grad_fn is None and w.requires_grad and w._version > version
    assert nn.init.normal_(w, 2.0, 0.5) is w
    assert abs(w.detach().numpy().mean() - 2.0) < 0.01 and abs(w.detach().numpy().std() - 0.5) < 0.01
    assert (nn.init.zeros_(w).detach().numpy() == 0).all()
    assert (nn.init.ones_(w).detach().numpy() == 1).all()
    assert nn.init.calculate_gain("leaky_relu", math.sqrt(5)) == torch.nn.init.calculate_gain(
        "leaky_relu", math.sqrt(5))
    assert nn.init.calculate_gain("tanh") == torch.nn.init.calculate_gain("tanh")
    g = mg.Generator().manual_seed(5)
    a = nn.init.uniform_(mg.empty(3), generator=g).tolist()
    assert a == nn.init.uniform_(mg.empty(3), generator=mg.Generator().manual_seed(5)).tolist()
