"""torch.autograd.Variable: the wrapper of PyTorch before 0.4, kept for old code.

Since PyTorch 0.4 a Variable *is* a Tensor: ``Variable(t)`` gives a new tensor sharing ``t``'s
data, cut from its graph (a leaf), with ``requires_grad`` as asked (False by default), and
``isinstance(t, Variable)`` is True for every tensor. Tutorials written before 0.4
(``from torch.autograd import Variable``) still run, so learners meet it.
"""
from ..core.tensor import TensorBase

class VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, TensorBase)

class Variable(metaclass=VariableMeta):
    def __new__(cls, data, requires_grad=False):
        if not isinstance(data, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
