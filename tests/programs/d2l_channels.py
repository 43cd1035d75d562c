# Source: d2l-ai/d2l-zh, chapter_convolutional-neural-networks/channels.md (the PyTorch tab)
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

def corr2d_multi_in(X, K):
    # 先遍历“X”和“K”的第0个维度（通道维度），再把它们加在一起
    return sum(d2l.corr2d(x, k) for x, k in zip(X, K))

X = d2l.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
               [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
K = d2l.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])

_show((corr2d_multi_in(X, K)))

def corr2d_multi_in_out(X, K):
    # 迭代“K”的第0个维度，每次都对输入“X”执行互相关运算。
    # 最后将所有结果都叠加在一起
    return d2l.stack([corr2d_multi_in(X, k) for k in K], 0)

K = d2l.stack((K, K + 1, K + 2), 0)
_show((K.shape))

_show((corr2d_multi_in_out(X, K)))

def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = d2l.reshape(X, (c_i, h * w))
    K = d2l.reshape(K, (c_o, c_i))
    # 全连接层中的矩阵乘法
    Y = d2l.matmul(K, X)
    return d2l.reshape(Y, (c_o, h, w))

X = d2l.normal(0, 1, (3, 3, 3))
K = d2l.normal(0, 1, (2, 3, 1, 1))

Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = corr2d_multi_in_out(X, K)
assert float(d2l.reduce_sum(d2l.abs(Y1 - Y2))) < 1e-6

