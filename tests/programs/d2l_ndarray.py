# Source: d2l-ai/d2l-en, chapter_preliminaries/ndarray.md (the PyTorch tab)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it; `print('id(Z):', id(Z))` prints whether the id is unchanged (an id differs from run to run).
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import torch

x = torch.arange(12, dtype=torch.float32)
_show((x))

_show((x.numel()))

_show((x.shape))

X = x.reshape(3, 4)
_show((X))

_show((torch.zeros((2, 3, 4))))

_show((torch.ones((2, 3, 4))))

_show((torch.randn(3, 4)))

_show((torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])))

_show((X[-1], X[1:3]))

X[1, 2] = 17
_show((X))

X[:2, :] = 12
_show((X))

_show((torch.exp(x)))

x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
_show((x + y, x - y, x * y, x / y, x ** y))

X = torch.arange(12, dtype=torch.float32).reshape((3,4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
_show((torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1)))

_show((X == Y))

_show((X.sum()))

a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
_show((a, b))

_show((a + b))

before = id(Y)
Y = Y + X
_show((id(Y) == before))

Z = torch.zeros_like(Y)
before = id(Z)
Z[:] = X + Y
print('id(Z) unchanged:', id(Z) == before)

before = id(X)
X += Y
_show((id(X) == before))

A = X.numpy()
B = torch.from_numpy(A)
_show((type(A), type(B)))

a = torch.tensor([3.5])
_show((a, a.item(), float(a), int(a)))

