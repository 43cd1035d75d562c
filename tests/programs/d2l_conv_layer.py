# Source: d2l-ai/d2l-zh, chapter_convolutional-neural-networks/conv-layer.md (the PyTorch tab)
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

def corr2d(X, K):  #@save
    """计算二维互相关运算"""
    h, w = K.shape
    Y = d2l.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = d2l.reduce_sum((X[i: i + h, j: j + w] * K))
    return Y

X = d2l.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = d2l.tensor([[0.0, 1.0], [2.0, 3.0]])
_show((corr2d(X, K)))

class Conv2D(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(kernel_size))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return corr2d(x, self.weight) + self.bias

X = d2l.ones((6, 8))
X[:, 2:6] = 0
_show((X))

K = d2l.tensor([[1.0, -1.0]])

Y = corr2d(X, K)
_show((Y))

_show((corr2d(d2l.transpose(X), K)))

# 构造一个二维卷积层，它具有1个输出通道和形状为（1，2）的卷积核
conv2d = nn.Conv2d(1,1, kernel_size=(1, 2), bias=False)

# 这个二维卷积层使用四维输入和输出格式（批量大小、通道、高度、宽度），
# 其中批量大小和通道数都为1
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2  # 学习率

for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    # 迭代卷积核
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f'epoch {i+1}, loss {l.sum():.3f}')

_show((d2l.reshape(conv2d.weight.data, (1, 2))))

