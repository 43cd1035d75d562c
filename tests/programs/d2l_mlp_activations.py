# Source: d2l-ai/d2l-en, chapter_multilayer-perceptrons/mlp.md (the PyTorch tab)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it; d2l.plot(x, y, ...) calls replaced by printing every 40th value of y.
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print('relu(x)', y.detach()[::40])

y.backward(torch.ones_like(x), retain_graph=True)
print('grad of relu', x.grad[::40])

y = torch.sigmoid(x)
print('sigmoid(x)', y.detach()[::40])

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print('grad of sigmoid', x.grad[::40])

y = torch.tanh(x)
print('tanh(x)', y.detach()[::40])

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print('grad of tanh', x.grad[::40])

