# Source: d2l-ai/d2l-en, chapter_preliminaries/linear-algebra.md (the PyTorch tab)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it.
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import torch

x = torch.tensor(3.0)
y = torch.tensor(2.0)

_show((x + y, x * y, x / y, x**y))

x = torch.arange(3)
_show((x))

_show((x[2]))

_show((len(x)))

_show((x.shape))

A = torch.arange(6).reshape(3, 2)
_show((A))

_show((A.T))

A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
_show((A == A.T))

_show((torch.arange(24).reshape(2, 3, 4)))

A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()  # Assign a copy of A to B by allocating new memory
_show((A, A + B))

_show((A * B))

a = 2
X = torch.arange(24).reshape(2, 3, 4)
_show((a + X, (a * X).shape))

x = torch.arange(3, dtype=torch.float32)
_show((x, x.sum()))

_show((A.shape, A.sum()))

_show((A.shape, A.sum(axis=0).shape))

_show((A.shape, A.sum(axis=1).shape))

_show((A.sum(axis=[0, 1]) == A.sum()))

_show((A.mean(), A.sum() / A.numel()))

_show((A.mean(axis=0), A.sum(axis=0) / A.shape[0]))

sum_A = A.sum(axis=1, keepdims=True)
_show((sum_A, sum_A.shape))

_show((A / sum_A))

_show((A.cumsum(axis=0)))

y = torch.ones(3, dtype = torch.float32)
_show((x, y, torch.dot(x, y)))

_show((torch.sum(x * y)))

_show((A.shape, x.shape, torch.mv(A, x), A@x))

B = torch.ones(3, 4)
_show((torch.mm(A, B), A@B))

u = torch.tensor([3.0, -4.0])
_show((torch.norm(u)))

_show((torch.abs(u).sum()))

_show((torch.norm(torch.ones((4, 9)))))

