# Source: d2l-ai/d2l-zh, chapter_linear-networks/linear-regression-concise.md (the PyTorch tab)
# Changed: cells joined, each cell's last expression printed as Jupyter shows it; d2l's functions copied in (d2l is not installed).
# --- what `from d2l import torch as d2l` gives (d2l/torch.py; d2l is not installed here) ---
import types
import torch
d2l = types.SimpleNamespace(
    tensor=torch.tensor, zeros=torch.zeros, ones=torch.ones, arange=torch.arange, normal=torch.normal,
    matmul=torch.matmul, stack=torch.stack, concat=torch.cat, abs=torch.abs, rand=torch.rand,
    float32=torch.float32,
    numpy=lambda x, *args, **kwargs: x.detach().numpy(*args, **kwargs),
    reshape=lambda x, *args, **kwargs: x.reshape(*args, **kwargs),
    reduce_sum=lambda x, *args, **kwargs: x.sum(*args, **kwargs),
    transpose=lambda x, *args, **kwargs: x.t(*args, **kwargs),
)


def corr2d(X, K):  #@save
    """Compute 2D cross-correlation."""
    h, w = K.shape
    Y = d2l.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = d2l.reduce_sum((X[i: i + h, j: j + w] * K))
    return Y


def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = d2l.normal(0, 1, (num_examples, len(w)))
    y = d2l.matmul(X, w) + b
    y += d2l.normal(0, 0.01, y.shape)
    return X, d2l.reshape(y, (-1, 1))


d2l.corr2d, d2l.synthetic_data = corr2d, synthetic_data
# --- end of d2l ---
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import numpy as np
import torch
from torch.utils import data

true_w = d2l.tensor([2, -3.4])
true_b = 4.2
features, labels = d2l.synthetic_data(true_w, true_b, 1000)

def load_array(data_arrays, batch_size, is_train=True):  #@save
    """构造一个PyTorch数据迭代器"""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)

batch_size = 10
data_iter = load_array((features, labels), batch_size)

_show((next(iter(data_iter))))

# nn是神经网络的缩写
from torch import nn
net = nn.Sequential(nn.Linear(2, 1))

net[0].weight.data.normal_(0, 0.01)
_show((net[0].bias.data.fill_(0)))

loss = nn.MSELoss()

trainer = torch.optim.SGD(net.parameters(), lr=0.03)

num_epochs = 3
for epoch in range(num_epochs):
    for X, y in data_iter:
        l = loss(net(X) ,y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')

w = net[0].weight.data
print('w的估计误差：', true_w - d2l.reshape(w, true_w.shape))
b = net[0].bias.data
print('b的估计误差：', true_b - b)

