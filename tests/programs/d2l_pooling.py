# Source: d2l-ai/d2l-zh, chapter_convolutional-neural-networks/pooling.md (the PyTorch tab)
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

import torch
from torch import nn

def pool2d(X, pool_size, mode='max'):
    p_h, p_w = pool_size
    Y = d2l.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == 'max':
                Y[i, j] = X[i: i + p_h, j: j + p_w].max()
            elif mode == 'avg':
                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()
    return Y

X = d2l.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
_show((pool2d(X, (2, 2))))

_show((pool2d(X, (2, 2), 'avg')))

X = d2l.reshape(d2l.arange(16, dtype=d2l.float32), (1, 1, 4, 4))
_show((X))

pool2d = nn.MaxPool2d(3)
_show((pool2d(X)))

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
_show((pool2d(X)))

pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))
_show((pool2d(X)))

X = d2l.concat((X, X + 1), 1)
_show((X))

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
_show((pool2d(X)))

