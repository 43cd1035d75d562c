# Source: d2l-ai/d2l-en, chapter_preliminaries/autograd.md (the PyTorch tab)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it; torch.manual_seed(0)
# before the one random draw (whether a.grad == d / a holds exactly depends on the number drawn).
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import torch

x = torch.arange(4.0)
_show((x))

# Can also create x = torch.arange(4.0, requires_grad=True)
x.requires_grad_(True)
_show((x.grad))

y = 2 * torch.dot(x, x)
_show((y))

y.backward()
_show((x.grad))

_show((x.grad == 4 * x))

x.grad.zero_()  # Reset the gradient
y = x.sum()
y.backward()
_show((x.grad))

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))  # Faster: y.sum().backward()
_show((x.grad))

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x

z.sum().backward()
_show((x.grad == u))

x.grad.zero_()
y.sum().backward()
_show((x.grad == 2 * x))

def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

torch.manual_seed(0)
a = torch.randn(size=(), requires_grad=True)
d = f(a)
_show((d.backward()))

_show((a.grad == d / a))

