"""Jacobians and Hessians with torch.autograd.functional, as tutorials on them show."""


def jacobians(torch):
    from_ = torch.autograd.functional

    def f(x):
        return torch.stack([x[0] ** 2 * x[1], 5 * x[0] + x[1].sin()])

    x = torch.tensor([1.0, 2.0])
    print(from_.jacobian(f, x))
    print(from_.jacobian(lambda a, b: a * b + a.exp(), (torch.tensor([1.0, 0.0]), torch.tensor([2.0, 3.0]))))
    J = from_.jacobian(lambda m: m @ m, torch.tensor([[1.0, 2.0], [0.0, 1.0]]))
    print(J.shape, J[0, 1])
    out, vjp = from_.vjp(f, x, torch.tensor([1.0, -1.0]))
    print(out, vjp)
    out, jvp = from_.jvp(f, x, torch.tensor([0.5, 0.5]))
    print(out, jvp)


def hessians(torch):
    from_ = torch.autograd.functional

    def rosenbrock(p):
        return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2

    p = torch.tensor([1.5, -0.5], dtype=torch.float64)
    H = from_.hessian(rosenbrock, p)
    print(H)
    print(from_.hvp(rosenbrock, p, torch.tensor([1.0, 0.0], dtype=torch.float64)))
    print(from_.vhp(rosenbrock, p, torch.tensor([0.0, 1.0], dtype=torch.float64)))
    # Newton's method: a few steps to the minimum at (1, 1)
    for _ in range(6):
        g = from_.jacobian(rosenbrock, p)
        p = p - torch.linalg.solve(from_.hessian(rosenbrock, p), g)
    print([f"{v:.6f}" for v in p.tolist()])
    print(from_.hessian(lambda a, b: (a * b ** 2).sum(), (torch.tensor([1.0]), torch.tensor([2.0]))))


def jacobian_by_hand(torch):
    """The row-by-row construction tutorials show before the functional API."""
    x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
    y = torch.stack([x.sum(), (x ** 2).sum(), x.prod()])
    rows = []
    for i in range(3):
        (g,) = torch.autograd.grad(y[i], x, retain_graph=True)
        rows.append(g)
    J = torch.stack(rows)
    print(J)
    print(torch.allclose(J, torch.autograd.functional.jacobian(
        lambda v: torch.stack([v.sum(), (v ** 2).sum(), v.prod()]), x.detach())))


PROGRAMS = [jacobians, hessians, jacobian_by_hand]
