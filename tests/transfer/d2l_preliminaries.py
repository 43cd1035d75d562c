"""In the style of d2l's preliminaries chapters: data manipulation, linear algebra, calculus
and automatic differentiation."""


def data_manipulation(torch):
    x = torch.arange(12, dtype=torch.float32)
    print(x, x.numel(), x.shape)
    X = x.reshape(3, 4)
    print(X, x.reshape(-1, 4).shape)
    print(torch.zeros((2, 3, 4)).shape, torch.ones((2, 3, 4)).sum())
    print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
    print(X[-1], X[1:3])
    X[1, 2] = 17
    X[:2, :] = 12
    print(X)
    x = torch.tensor([1.0, 2, 4, 8])
    y = torch.tensor([2, 2, 2, 2])
    print(x + y, x - y, x * y, x / y, x ** y, torch.exp(x))
    X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
    Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
    print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1).shape)
    print(X == Y, X.sum())
    a = torch.arange(3).reshape((3, 1))
    b = torch.arange(2).reshape((1, 2))
    print(a, b, a + b)
    before = id(Y)
    Y = Y + X
    print(id(Y) == before)
    Z = torch.zeros_like(Y)
    before = id(Z)
    Z[:] = X + Y
    print(id(Z) == before)
    before = id(X)
    X += Y
    print(id(X) == before)
    A = X.numpy()
    B = torch.from_numpy(A)
    print(type(A).__name__, type(B).__name__)
    a = torch.tensor([3.5])
    print(a, a.item(), float(a), int(a))


def linear_algebra(torch):
    x = torch.tensor(3.0)
    y = torch.tensor(2.0)
    print(x + y, x * y, x / y, x ** y)
    x = torch.arange(3)
    print(x, x[2], len(x), x.shape)
    A = torch.arange(6).reshape(3, 2)
    print(A, A.T, A.mT.shape)
    A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
    print(A == A.T)
    X = torch.arange(24).reshape(2, 3, 4)
    print(X.shape, X[1, 2])
    A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    B = A.clone()
    print(A, A + B, A * B)
    a = 2
    print(a + X, (a * X).shape)
    x = torch.arange(3, dtype=torch.float32)
    print(x, x.sum(), A.shape, A.sum(), A.sum(axis=0), A.sum(axis=1), A.sum(axis=[0, 1]) == A.sum())
    print(A.mean(), A.sum() / A.numel(), A.mean(axis=0), A.sum(axis=0) / A.shape[0])
    sum_A = A.sum(axis=1, keepdims=True)
    print(sum_A, sum_A.shape, A / sum_A, A.cumsum(axis=0))
    y = torch.ones(3, dtype=torch.float32)
    print(x, y, torch.dot(x, y), torch.sum(x * y))
    print(A.shape, x.shape, torch.mv(A, x), A @ x)
    B = torch.ones(3, 4)
    print(torch.mm(A, B), A @ B)
    u = torch.tensor([3.0, -4.0])
    print(torch.norm(u), torch.abs(u).sum(), torch.norm(torch.ones((4, 9))))
    print(torch.trace(torch.eye(3) * 2), torch.diag(torch.tensor([1.0, 2.0])), torch.tril(torch.ones(3, 3)))
    print(torch.einsum("ij,j->i", A, x), torch.einsum("ij->ji", A).shape, torch.outer(u, u), torch.bmm(
        torch.ones(2, 2, 3), torch.ones(2, 3, 1)).shape)


def calculus(torch):
    def f(x):
        return 3 * x ** 2 - 4 * x

    for h in 10.0 ** torch.arange(-1, -4, -1, dtype=torch.float64):
        print(f"h={h.item():.5f}, numerical limit={(f(1 + h) - f(1)) / h:.5f}")
    x = torch.arange(0, 3, 0.5, requires_grad=True)
    y = f(x).sum()
    y.backward()
    print(x.grad, 6 * x.detach() - 4)
    x = torch.linspace(-2, 2, 5, requires_grad=True)
    y = torch.sigmoid(x)
    y.backward(torch.ones_like(y))
    print(x.grad, (y * (1 - y)).detach())


def automatic_differentiation(torch):
    x = torch.arange(4.0)
    x.requires_grad_(True)
    print(x.grad)
    y = 2 * torch.dot(x, x)
    print(y)
    y.backward()
    print(x.grad, x.grad == 4 * x)
    x.grad.zero_()
    y = x.sum()
    y.backward()
    print(x.grad)
    x.grad.zero_()
    y = x * x
    y.backward(gradient=torch.ones(len(y)))
    print(x.grad)
    x.grad.zero_()
    y = x * x
    u = y.detach()
    z = u * x
    z.sum().backward()
    print(x.grad == u)
    x.grad.zero_()
    y.sum().backward()
    print(x.grad == 2 * x)

    def f(a):
        b = a * 2
        while b.norm() < 1000:
            b = b * 2
        if b.sum() > 0:
            c = b
        else:
            c = 100 * b
        return c

    a = torch.tensor(0.3, requires_grad=True)
    d = f(a)
    d.backward()
    print(a.grad == d / a, a.grad)


PROGRAMS = [data_manipulation, linear_algebra, calculus, automatic_differentiation]
