"""In the style of PyTorch's autograd tutorials and notes, its "learning PyTorch with
examples" (polynomial fitting with raw tensors, with autograd, with a custom Function),
the classic two-layer net, and micrograd's tests against PyTorch."""
import math


def autograd_tutorial(torch):
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.tensor([[0.1, -0.2, 0.3], [0.0, 0.5, -0.5], [0.2, 0.2, 0.2], [-0.3, 0.1, 0.0],
                      [0.4, -0.1, 0.1]], requires_grad=True)
    b = torch.tensor([0.1, 0.0, -0.1], requires_grad=True)
    z = torch.matmul(x, w) + b
    # binary cross-entropy with logits, written out (nn's version is the next issue's)
    loss = (torch.clamp(z, min=0) - z * y + torch.log1p(torch.exp(-torch.abs(z)))).mean()
    print(f"loss: {loss.item():.6f}")
    print(f"Gradient function for z = {z.grad_fn}")
    loss.backward()
    print(w.grad)
    print(b.grad)
    z = torch.matmul(x, w) + b
    print(z.requires_grad)
    with torch.no_grad():
        z = torch.matmul(x, w) + b
    print(z.requires_grad)
    z_det = (torch.matmul(x, w) + b).detach()
    print(z_det.requires_grad)


def jacobian_product_tutorial(torch):
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"First call\n{inp.grad}")
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\nSecond call\n{inp.grad}")
    inp.grad.zero_()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\nCall after zeroing gradients\n{inp.grad}")


def polynomial_raw_tensors(torch):
    """Fit a cubic to sin(x) with hand-written gradients (no autograd)."""
    dtype, device = torch.float, torch.device("cpu")
    x = torch.linspace(-math.pi, math.pi, 200, device=device, dtype=dtype)
    y = torch.sin(x)
    a, b, c, d = (torch.tensor(v, device=device, dtype=dtype) for v in (0.1, -0.2, 0.05, 0.01))
    learning_rate = 1e-6
    for t in range(300):
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum().item()
        if t % 100 == 99:  # (to 2 decimals: a float32 loss of 117 has 7 digits; sin's last bit,
            print(t, f"{loss:.2f}")  # which differs between CPUs and libraries, moves the 7th)
        grad_y_pred = 2.0 * (y_pred - y)
        grad_a = grad_y_pred.sum()
        grad_b = (grad_y_pred * x).sum()
        grad_c = (grad_y_pred * x ** 2).sum()
        grad_d = (grad_y_pred * x ** 3).sum()
        a -= learning_rate * grad_a
        b -= learning_rate * grad_b
        c -= learning_rate * grad_c
        d -= learning_rate * grad_d
    print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")


def polynomial_autograd(torch):
    """The same fit, gradients from autograd, updated under no_grad."""
    x = torch.linspace(-math.pi, math.pi, 200, dtype=torch.float64)
    y = torch.sin(x)
    a, b, c, d = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (0.1, -0.2, 0.05, 0.01))
    for t in range(300):
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum()
        if t % 100 == 99:
            print(t, f"{loss.item():.6f}")
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= 1e-6 * p.grad
                p.grad = None
    print(f"Result: y = {a.item():.5f} + {b.item():.5f} x + {c.item():.5f} x^2 + {d.item():.5f} x^3")
    print(loss.grad_fn, a.grad)


def polynomial_custom_function(torch):
    """A Legendre polynomial P3 as a custom autograd.Function, inside the same fit."""
    class LegendrePolynomial3(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)

    x = torch.linspace(-1, 1, 50, dtype=torch.float64)
    y = torch.sin(x * 2)
    a = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(-1.0, dtype=torch.float64, requires_grad=True)
    c = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    d = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    P3 = LegendrePolynomial3.apply
    for t in range(200):
        y_pred = a + b * P3(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        if t % 50 == 49:
            print(t, f"{loss.item():.6f}")
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= 2e-3 * p.grad
                p.grad.zero_()
    print(type(y_pred.grad_fn).__name__, [type(n).__name__ for n, _ in y_pred.grad_fn.next_functions])


def custom_function_two_inputs(torch):
    """A custom Function with two inputs, non-tensor arguments and needs_input_grad."""
    class ScaledMul(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, scale):
            ctx.save_for_backward(a, b)
            ctx.scale = scale
            return a * b * scale

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            print("needs_input_grad:", ctx.needs_input_grad)
            ga = grad * b * ctx.scale if ctx.needs_input_grad[0] else None
            gb = grad * a * ctx.scale if ctx.needs_input_grad[1] else None
            return ga, gb, None

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, -1.0])
    out = ScaledMul.apply(a, b, 0.5)
    print(out, out.grad_fn.__class__.__name__)
    out.sum().backward()
    print(a.grad, b.grad)
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    z = ScaledMul.apply(x, y, 2.0)
    gx, gy = torch.autograd.grad(z, (x, y))
    print(gx, gy)


def two_layer_net(torch):
    """The classic two-layer net with manual backprop, then the same with autograd."""
    dtype = torch.float64  # (float32 sums may round differently in the last digit printed)
    x = torch.linspace(-1, 1, 12, dtype=dtype).reshape(4, 3)
    y = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, 1.0]], dtype=dtype)
    w1 = torch.linspace(-0.5, 0.5, 15, dtype=dtype).reshape(3, 5)
    w2 = torch.linspace(0.3, -0.3, 10, dtype=dtype).reshape(5, 2)
    lr = 0.05
    for t in range(3):
        h = x.mm(w1)
        h_relu = h.clamp(min=0)
        y_pred = h_relu.mm(w2)
        loss = (y_pred - y).pow(2).sum().item()
        grad_y_pred = 2.0 * (y_pred - y)
        grad_w2 = h_relu.t().mm(grad_y_pred)
        grad_h = grad_y_pred.mm(w2.t()).clone()
        grad_h[h < 0] = 0
        grad_w1 = x.t().mm(grad_h)
        w1 -= lr * grad_w1
        w2 -= lr * grad_w2
        print(t, f"{loss:.6f}")
    w1 = w1.clone().requires_grad_()
    w2 = w2.clone().requires_grad_()
    for t in range(3):
        loss = (x.mm(w1).clamp(min=0).mm(w2) - y).pow(2).sum()
        print(t, f"{loss.item():.6f}")
        loss.backward()
        with torch.no_grad():
            w1 -= lr * w1.grad
            w2 -= lr * w2.grad
            w1.grad.zero_()
            w2.grad.zero_()
    print(loss)


def micrograd_style_checks(torch):
    """Scalar expressions of the kind micrograd's tests compare with PyTorch."""
    x = torch.tensor([-4.0], dtype=torch.float64, requires_grad=True)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    print(y.data.item(), x.grad.item())
    a = torch.tensor([-4.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([2.0], dtype=torch.float64, requires_grad=True)
    c = a + b
    d = a * b + b ** 3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e ** 2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    print(f"{g.data.item():.6f} {a.grad.item():.6f} {b.grad.item():.6f}")
    t = torch.tensor([0.5, -1.5], requires_grad=True)
    (t.tanh() * t.sigmoid() + t.exp().log() - t.abs()).sum().backward()
    print(t.grad)


def autograd_notes(torch):
    """From the autograd mechanics notes: requires_grad propagation, saved tensors, in-place
    correctness checks, and the saved-tensor hooks."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.pow(2)
    print(y.requires_grad, y.grad_fn.name(), type(y.grad_fn.next_functions[0][0]).__name__)
    y = x.exp()
    y.add_(1)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print(str(e).split(" Hint:")[0])

    def pack_hook(t):
        print("Packing", t.shape)
        return t

    def unpack_hook(t):
        print("Unpacking", t.shape)
        return t

    a = torch.tensor([0.5, 1.5], requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        y = a * b
        z = y.sin()
    z.sum().backward()
    print(a.grad, b.grad)
    with torch.no_grad():
        print((a * 2).requires_grad)
    print(torch.is_grad_enabled(), (a.detach() * 2).requires_grad)


def higher_order_gradients(torch):
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = (x ** 3 + x.sin() * x.exp()).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    print(g)
    (h,) = torch.autograd.grad(g.sum(), x)
    print(h)
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    loss = (w @ w).trace() + w.norm() ** 2 + torch.logsumexp(w, dim=1).sum()
    grad_w, = torch.autograd.grad(loss, w, create_graph=True)
    penalty = grad_w.pow(2).sum()
    penalty.backward()
    print(grad_w, w.grad)


PROGRAMS = [autograd_tutorial, jacobian_product_tutorial, polynomial_raw_tensors, polynomial_autograd,
            polynomial_custom_function, custom_function_two_inputs, two_layer_net,
            micrograd_style_checks, autograd_notes, higher_order_gradients]
