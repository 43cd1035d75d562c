# Source: d2l-ai/d2l-en, chapter_builders-guide/lazy-init.md (the PyTorch tab)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it; the last cell (d2l.add_to_class, for d2l's own classes) left out.
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import torch
from torch import nn

net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))

_show((net[0].weight))

X = torch.rand(2, 20)
net(X)

_show((net[0].weight.shape))

