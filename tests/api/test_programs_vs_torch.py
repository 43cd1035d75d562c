"""Whole learner programs, run twice: once with ``torch`` bound to PyTorch, once to
minigrad. What they print must be identical, character for character.

Each program is a function of the module it uses as ``torch``. Inputs come from
``torch.tensor(list)`` only (seeded random numbers are compared in tests/ops/test_random_torch.py).
What PyTorch prints is recorded (tests/oracle.py), so this runs without PyTorch too.
"""
import contextlib
import io

import pytest



def run(program, module):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        program(module)
    return buf.getvalue()


def linear_with_constant_input(torch):
    x = torch.tensor([1.0, 2.0, 3.0])  # data: no gradient wanted
    w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    b = torch.tensor(0.25, requires_grad=True)
    y = w * x + b
    print("x:", x)
    print("w:", w)
    print("b:", b)
    print("y:", y)
    print("before:", x.grad, w.grad, b.grad)
    print("leaf?", x.is_leaf, w.is_leaf, b.is_leaf, y.is_leaf)
    print("requires_grad?", x.requires_grad, w.requires_grad, y.requires_grad)
    loss = y.sum()
    print("loss:", loss)
    loss.backward()
    print("after x.grad:", x.grad)
    print("after w.grad:", w.grad)
    print("after b.grad:", b.grad)
    print("shapes:", w.shape, b.shape, y.shape, b.grad.shape)


def graph_printer(torch):
    def show(node, depth=0):
        if node is None:
            print("  " * depth + "None")
            return
        print("  " * depth + type(node).__name__)
        for child, _ in node.next_functions:
            show(child, depth + 1)

    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    loss = (x * y) ** 2
    print(loss)
    show(loss.grad_fn)
    c = torch.tensor(4.0)
    out = (x * c + y).exp().sum()
    show(out.grad_fn)
    loss.backward()
    print(x.grad, y.grad)


def custom_function(torch):
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return 2 * x * grad_output

    x = torch.tensor(3.0, requires_grad=True)
    y = Square.apply(x)
    print(y.item())
    print(type(y.grad_fn).__name__)
    print(y.requires_grad, y.is_leaf)
    y.backward()
    print(x.grad.item())
    print(x.grad)
    v = torch.tensor([1.0, -2.0], requires_grad=True)
    z = Square.apply(v * 3).sum()
    z.backward()
    print(v.grad)
    print([type(n).__name__ for n, _ in Square.apply(v).grad_fn.next_functions])


def gradient_accumulation(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    for step in range(3):
        loss = (w * w).sum()
        loss.backward()
        print(step, w.grad)
    w.grad.zero_()
    print("zeroed:", w.grad)
    (3 * w).sum().backward()
    print("after zero_:", w.grad)
    w.grad = None
    (w ** 2).mean().backward()
    print("after None:", w.grad)


def retain_graph(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    print(x.grad)
    y.backward()
    print(x.grad)
    try:
        y.backward()
    except RuntimeError as e:
        print("RuntimeError:", str(e)[:60])


def no_grad_blocks(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        y = x * 2
        print(y, y.requires_grad, y.grad_fn is None)
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
    z = x * 2
    print(z, z.requires_grad)
    with torch.no_grad():
        with torch.enable_grad():
            print(x.sum())
    d = x.detach()
    print(d, d.requires_grad, d.is_leaf)
    print((d * x).sum())


def retain_grad_intermediate(torch):
    x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    y = h.relu()
    y.retain_grad()
    loss = (y ** 2).sum()
    loss.backward()
    print("h.grad:", h.grad)
    print("y.grad:", y.grad)
    print("x.grad:", x.grad)
    print(h.retains_grad, y.retains_grad, x.retains_grad, loss.retains_grad)


def hook_doubles(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    def double(grad):
        seen.append(grad.clone())
        return grad * 2

    h = x * x
    handle = h.register_hook(double)
    h.sum().backward()
    print("seen:", seen[0])
    print("x.grad:", x.grad)
    handle.remove()
    x.grad = None
    (x * x).sum().backward()
    print("without hook:", x.grad)
    x.register_hook(lambda g: g * 10)
    x.grad = None
    (x * 1).sum().backward()
    print("leaf hook:", x.grad)


def second_derivative(torch):
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    (dy,) = torch.autograd.grad(y, x, create_graph=True)
    print("dy/dx:", dy)
    print(dy.requires_grad)
    (d2y,) = torch.autograd.grad(dy, x)
    print("d2y/dx2:", d2y)
    print(x.grad)
    xs = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
    g, = torch.autograd.grad((xs ** 3).sum(), xs, create_graph=True)
    g.sum().backward()
    print(g, xs.grad)


def manual_sgd(torch):
    xs = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
    ys = torch.tensor([[3.0], [5.0], [7.0], [9.0]])
    w = torch.tensor([[0.5]], requires_grad=True)
    b = torch.tensor([0.0], requires_grad=True)
    lr = 0.05
    for step in range(4):
        pred = xs @ w + b
        loss = ((pred - ys) ** 2).mean()
        loss.backward()
        print(step, f"{loss.item():.5f}", w.grad, b.grad)
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad.zero_()
        b.grad = None
    print(w, b)
    print(w.is_leaf, w.requires_grad, w.grad, b.grad)


def backward_with_gradient(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(gradient=torch.tensor([1.0, 0.1, 0.01]))
    print(x.grad)
    x.grad = None
    z = torch.stack([x.sum(), (x * 2).sum()])
    z.backward(torch.tensor([1.0, -1.0]))
    print(x.grad)
    try:
        (x * 2).backward()
    except RuntimeError as e:
        print("RuntimeError:", e)


def shapes_and_dtypes(torch):
    a = torch.tensor([[1, 2, 3], [4, 5, 6]])
    print(a, a.dtype, a.shape, a.size(1), a.dim(), a.numel())
    f = a.float()
    print(f, f.dtype)
    print(a / 2, a * 1.5, a + True, a.sum(), f.mean())
    print(a.T, a.reshape(3, 2), a.flatten(), a[1], a[:, 1], a[a > 2])
    print(torch.zeros(2, 2), torch.ones(3), torch.arange(4), torch.arange(0.0, 1.0, 0.25))
    print(torch.tensor(3.5).item(), torch.tensor([1, 2]).tolist(), len(a))
    for row in a:
        print(row)
    print(torch.eye(2, dtype=torch.float64))


def softmax_classifier(torch):
    x = torch.tensor([[0.5, -1.0], [1.5, 2.0], [-0.5, 0.25]])
    labels = torch.tensor([0, 1, 1])
    w = torch.tensor([[0.1, -0.2], [0.3, 0.4]], requires_grad=True)
    logits = x @ w
    logp = logits.log_softmax(dim=1)
    loss = -logp[torch.arange(3), labels].mean()
    print(logits)
    print([f"{p:.4f}" for p in logp.exp().sum(1).tolist()])  # 1 up to rounding
    print(loss)
    loss.backward()
    print(w.grad)
    print(logits.max(1).indices, logits.argmax(1))
    print(type(loss.grad_fn).__name__, type(logp.grad_fn).__name__)


def mlp_training(torch):
    x = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
    w1 = torch.tensor([[0.5, -0.4, 0.3], [-0.2, 0.6, 0.1]], requires_grad=True)
    b1 = torch.tensor([0.0, 0.1, -0.1], requires_grad=True)
    w2 = torch.tensor([[0.7], [-0.5], [0.2]], requires_grad=True)
    params = [w1, b1, w2]
    for step in range(5):
        h = (x @ w1 + b1).tanh()
        out = (h @ w2).sigmoid()
        loss = ((out - y) ** 2).mean()
        for p in params:
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.5 * p.grad
        print(step, f"{loss.item():.6f}")
    print(w2.grad)
    print([type(n).__name__ for n, _ in loss.grad_fn.next_functions])


def inplace_errors(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        w += 1
    except RuntimeError as e:
        print("RuntimeError:", e)
    y = w.exp()
    y.add_(1)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(" Hint:")[0])
    try:
        torch.tensor([1, 2], requires_grad=True)
    except RuntimeError as e:
        print("RuntimeError:", e)
    try:
        torch.ones(2, 3) @ torch.ones(2, 3)
    except RuntimeError as e:
        print("RuntimeError:", e)


PROGRAMS = [linear_with_constant_input, graph_printer, custom_function, gradient_accumulation,
            retain_graph, no_grad_blocks, retain_grad_intermediate, hook_doubles,
            second_derivative, manual_sgd, backward_with_gradient, shapes_and_dtypes,
            softmax_classifier, mlp_training, inplace_errors]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_prints_the_same(oracle, program):
    got, expected = oracle.both(lambda lib: run(program, lib))
    assert expected.strip(), "the program printed nothing"
    assert got == expected
