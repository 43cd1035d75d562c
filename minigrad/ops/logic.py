"""Logic: the nodes of comparisons (``eq_``, ``lt_``, ... in place, in a graph), whose
gradient is 0. (The comparisons themselves record nothing: minigrad/_tensor_logic.py.)
"""
from ..core.function import Op


# ---------------------------------------------------------------------------------------------
# In-place comparisons in a graph: ``y.eq_(0.5)`` where y requires grad. PyTorch records a node
# (EqBackward0 for a number, EqBackward1 for a tensor, ...) whose gradient is 0: the result
# is a step function of the inputs. ``out``: the comparison, already made (_tensor_logic.py).
# ---------------------------------------------------------------------------------------------

class CompareNumber(Op):
    @staticmethod
    def forward(ctx, x, out):
        return out.astype(x.dtype)  # (in self's dtype: 1. and 0.)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape), None


class CompareTensor(Op):
    @staticmethod
    def forward(ctx, x, y, out):
        return out.astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        zeros = grad.new_zeros(grad.shape)  # (summed to y's shape, if y was broadcast, by Node.apply)
        return zeros, zeros, None


class EqNumber(CompareNumber):
    node_name = "EqBackward0"


class EqTensor(CompareTensor):
    node_name = "EqBackward1"


class NeNumber(CompareNumber):
    node_name = "NeBackward0"


class NeTensor(CompareTensor):
    node_name = "NeBackward1"


class LtNumber(CompareNumber):
    node_name = "LtBackward0"


class LtTensor(CompareTensor):
    node_name = "LtBackward1"


class LeNumber(CompareNumber):
    node_name = "LeBackward0"


class LeTensor(CompareTensor):
    node_name = "LeBackward1"


class GtNumber(CompareNumber):
    node_name = "GtBackward0"


class GtTensor(CompareTensor):
    node_name = "GtBackward1"


class GeNumber(CompareNumber):
    node_name = "GeBackward0"


class GeTensor(CompareTensor):
    node_name = "GeBackward1"
