# Source: d2l-ai/d2l-zh, chapter_deep-learning-computation/read-write.md (the PyTorch tab)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it.
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import torch
from torch import nn
from torch.nn import functional as F

x = torch.arange(4)
_show((torch.save(x, 'x-file')))

x2 = torch.load('x-file')
_show((x2))

y = torch.zeros(4)
torch.save([x, y],'x-files')
x2, y2 = torch.load('x-files')
_show(((x2, y2)))

mydict = {'x': x, 'y': y}
torch.save(mydict, 'mydict')
mydict2 = torch.load('mydict')
_show((mydict2))

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))

net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)

_show((torch.save(net.state_dict(), 'mlp.params')))

clone = MLP()
clone.load_state_dict(torch.load('mlp.params'))
_show((clone.eval()))

Y_clone = clone(X)
_show((Y_clone == Y))

