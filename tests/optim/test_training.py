"""Training as the seeds describe it: the loop, accumulation, two losses, a frozen network,
eval() against no_grad(). Each program runs under minigrad and under PyTorch (or its
recorded output, tests/oracle.py) with the same starting weights; both must print the same.
"""
import contextlib
import io
import re

import numpy as np
import pytest

import minigrad

RNG = np.random.default_rng(7)
X = RNG.standard_normal((64, 3))
Y = X @ np.array([[1.5], [-2.0], [0.5]]) + 0.3 + 0.1 * RNG.standard_normal((64, 1))
W0 = np.array([[0.2, -0.1, 0.4]])
B0 = np.array([0.05])


def _linear(lib, w=W0, b=B0):
    """An nn.Linear(3, 1) in float64 with known weights (not the random initialisation)."""
    model = lib.nn.Linear(w.shape[1], w.shape[0]).double()
    with lib.no_grad():
        model.weight.copy_(lib.tensor(w))
        model.bias.copy_(lib.tensor(b))
    return model


def _grads(model):
    return [p.grad.numpy().copy() for p in model.parameters()]


def _printed(program, lib):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        program(lib)
    return re.sub(r" at 0x[0-9a-f]+", "", out.getvalue())  # PyTorch prints nodes with addresses


# ---------------------------------------------------------------------------------------------
# Whole programs, compared line for line with PyTorch
# ---------------------------------------------------------------------------------------------

def training_loop(torch):
    """The five lines, with the weights printed around backward() and step()."""
    model = _linear(torch)
    loss_fn = torch.nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    X_t, Y_t = torch.tensor(X), torch.tensor(Y)
    for epoch in range(3):
        optimizer.zero_grad()
        loss = loss_fn(model(X_t), Y_t)
        print(f"epoch {epoch}: loss {loss.item():.6f}, grad before backward: {model.weight.grad}")
        before = model.weight.detach().clone()
        loss.backward()
        print("backward changed the weights:", not torch.equal(before, model.weight.detach()))
        print("weight grad:", model.weight.grad)
        optimizer.step()
        print("step changed the weights:", not torch.equal(before, model.weight.detach()))
    print(model.weight, model.bias, loss.grad_fn, sep="\n")


def accumulation_and_two_losses(torch):
    """Two backward calls double .grad; two losses summed need one backward."""
    model = _linear(torch)
    X_t, Y_t = torch.tensor(X), torch.tensor(Y)
    loss = torch.nn.functional.mse_loss(model(X_t), Y_t)
    loss.backward(retain_graph=True)
    first = model.bias.grad.clone()
    loss.backward()
    print("doubled:", torch.allclose(model.bias.grad, 2 * first))
    model.zero_grad()
    print("after zero_grad:", model.bias.grad)
    loss1 = torch.nn.functional.mse_loss(model(X_t[:4]), Y_t[:4])
    loss2 = torch.nn.functional.mse_loss(model(X_t[4:8]), Y_t[4:8])
    (loss1 + loss2).backward()
    print("summed:", model.bias.grad)


def frozen_second_network(torch):
    """net2 is pretrained and frozen; its loss trains net1 through net2."""
    net1 = _linear(torch, np.array([[0.3, 0.1, -0.2], [0.0, 0.5, 0.1]]), np.array([0.1, -0.1]))
    net2 = _linear(torch, np.array([[1.0, -1.0]]), np.array([0.2]))
    net2.requires_grad_(False)
    X_t, Y_t = torch.tensor(X[:8]), torch.tensor(Y[:8])
    hidden = net1(X_t)
    loss1 = hidden.pow(2).mean()
    loss2 = torch.nn.functional.mse_loss(net2(hidden), Y_t)
    (loss1 + loss2).backward()
    print("net1 grads:", [p.grad is not None for p in net1.parameters()])
    print("net2 grads:", [p.grad for p in net2.parameters()])
    print(net1.weight.grad)
    detached = net2(hidden.detach())
    print("through detach:", detached.requires_grad, detached.grad_fn)


def eval_against_no_grad(torch):
    """eval() changes Dropout and BatchNorm; no_grad() stops recording."""
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Dropout(0.5))
    model.double()
    model.eval()
    out = model(torch.tensor(X[:5]))
    print("eval records:", out.requires_grad, type(out.grad_fn).__name__)
    with torch.no_grad():
        out = model(torch.tensor(X[:5]))
    print("no_grad records:", out.requires_grad, out.grad_fn)
    print(model)


PROGRAMS = [training_loop, accumulation_and_two_losses, frozen_second_network, eval_against_no_grad]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_prints_what_pytorch_prints(oracle, program):
    got, expected = oracle.both(lambda lib: _printed(program, lib))
    assert got == expected


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_runs_without_pytorch(program):
    assert _printed(program, minigrad).strip()


# ---------------------------------------------------------------------------------------------
# Gradient accumulation is exact
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("k", [2, 4, 8])
def test_micro_batches_accumulate_the_full_batch_gradient(k):
    model = _linear(minigrad)
    X_t, Y_t = minigrad.tensor(X), minigrad.tensor(Y)
    minigrad.nn.functional.mse_loss(model(X_t), Y_t).backward()
    full = _grads(model)

    model.zero_grad()
    size = len(X) // k
    for i in range(k):
        part = slice(i * size, (i + 1) * size)
        loss = minigrad.nn.functional.mse_loss(model(X_t[part]), Y_t[part]) / k  # mean of means
        loss.backward()
    for a, b in zip(_grads(model), full):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_forgetting_to_divide_by_k_gives_k_times_the_gradient():
    model = _linear(minigrad)
    X_t, Y_t = minigrad.tensor(X), minigrad.tensor(Y)
    minigrad.nn.functional.mse_loss(model(X_t), Y_t).backward()
    full = _grads(model)
    model.zero_grad()
    for i in range(4):
        part = slice(16 * i, 16 * (i + 1))
        minigrad.nn.functional.mse_loss(model(X_t[part]), Y_t[part]).backward()
    for a, b in zip(_grads(model), full):
        np.testing.assert_allclose(a, 4 * b, rtol=1e-12)


def test_two_loaders_summed_losses_one_backward():
    """Batch size 4 from each of two loaders: one backward of the sum gives the sum of
    both gradients, i.e. twice the gradient of the mean over the 8 samples."""
    data = minigrad.utils.data
    ds = data.TensorDataset(minigrad.tensor(X[:8]), minigrad.tensor(Y[:8]))
    first, second = data.DataLoader(data.Subset(ds, range(4)), batch_size=4), \
        data.DataLoader(data.Subset(ds, range(4, 8)), batch_size=4)
    model = _linear(minigrad)
    (xa, ya), (xb, yb) = next(iter(first)), next(iter(second))
    loss = minigrad.nn.functional.mse_loss(model(xa), ya) + minigrad.nn.functional.mse_loss(model(xb), yb)
    loss.backward()
    together = _grads(model)
    model.zero_grad()
    minigrad.nn.functional.mse_loss(model(minigrad.tensor(X[:8])), minigrad.tensor(Y[:8])).backward()
    for a, b in zip(together, _grads(model)):
        np.testing.assert_allclose(a, 2 * b, rtol=1e-12)


def test_step_keeps_parameters_leaves_and_records_nothing():
    model = _linear(minigrad)
    opt = minigrad.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    minigrad.nn.functional.mse_loss(model(minigrad.tensor(X)), minigrad.tensor(Y)).backward()
    ids = [id(p) for p in model.parameters()]
    opt.step()
    assert [id(p) for p in model.parameters()] == ids
    assert all(p.is_leaf and p.grad_fn is None and p.requires_grad for p in model.parameters())


# ---------------------------------------------------------------------------------------------
# A small network learns
# ---------------------------------------------------------------------------------------------

def test_small_mlp_reaches_95_percent_on_two_moons_like_data():
    minigrad.manual_seed(0)
    rng = np.random.default_rng(0)
    n = 400
    t = rng.uniform(0, np.pi, n)
    upper = np.stack([np.cos(t), np.sin(t)], 1)
    lower = np.stack([1 - np.cos(t), 0.5 - np.sin(t)], 1)
    points = np.concatenate([upper, lower]) + 0.1 * rng.standard_normal((2 * n, 2))
    labels = np.concatenate([np.zeros(n), np.ones(n)]).astype(np.int64)
    ds = minigrad.utils.data.TensorDataset(minigrad.tensor(points, dtype=minigrad.float32),
                                           minigrad.tensor(labels))
    loader = minigrad.utils.data.DataLoader(ds, batch_size=64, shuffle=True)
    model = minigrad.nn.Sequential(minigrad.nn.Linear(2, 32), minigrad.nn.ReLU(),
                                   minigrad.nn.Linear(32, 32), minigrad.nn.ReLU(),
                                   minigrad.nn.Linear(32, 2))
    opt = minigrad.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = minigrad.nn.CrossEntropyLoss()
    for _ in range(40):
        for xb, yb in loader:
            opt.zero_grad()
            loss_fn(model(xb), yb).backward()
            opt.step()
    model.eval()
    with minigrad.no_grad():
        predicted = model(minigrad.tensor(points, dtype=minigrad.float32)).argmax(1)
    accuracy = (predicted == minigrad.tensor(labels)).float().mean().item()
    assert accuracy >= 0.95, accuracy


def test_batchnorm_double_backward_matches_finite_differences():
    """NativeBatchNorm's backward recomputes the batch statistics with tensor ops, so a
    second derivative through it (create_graph=True) is right too."""
    bn = minigrad.nn.BatchNorm1d(3).double()
    x = minigrad.tensor(RNG.standard_normal((5, 3)), requires_grad=True)
    w = minigrad.tensor(RNG.standard_normal((5, 3)))

    def first_grad(t):
        return minigrad.autograd.grad((bn(t) * w).pow(2).sum(), t, create_graph=True)[0]
    assert minigrad.autograd.gradcheck(first_grad, (x,))
