"""Every differentiable op: its forward and its backward, side by side.

This package is minigrad's version of PyTorch's ``derivatives.yaml``. Each op is a
class: ``forward(ctx, ...)`` computes on NumPy arrays and saves on ``ctx`` what backward
needs; ``backward(ctx, grad)`` gets the gradient of the output (a Tensor) and returns one
gradient per forward argument (None for arguments that are not tensors). Backward is
written with Tensor operations, so with ``create_graph=True`` it is recorded too and can
be differentiated again. ``node_name`` is the name PyTorch gives the op's ``grad_fn``.

Where each op is (a Tensor method calls the op; the op's node is its ``grad_fn``):

=================  ==========================================================================
file               ops (grad_fn name)
=================  ==========================================================================
elementwise.py     Add (AddBackward0), Sub (SubBackward0), Rsub (RsubBackward1),
                   Mul (MulBackward0), Div (DivBackward0), Neg (NegBackward0),
                   Reciprocal (ReciprocalBackward0), Pow (PowBackward0: x ** number),
                   PowTensor (PowBackward1: x ** y), RPow (PowBackward2: number ** x),
                   Exp, Log, Sqrt, Abs, Sign, Relu, Sigmoid, Tanh (ExpBackward0, ...),
                   ThresholdBackward (ReLU's backward), Clamp (ClampBackward1),
                   Maximum (MaximumBackward0), Where (WhereBackward0),
                   Clone, ToCopy (``.to(dtype)``), Zero, Fill, Copy (what ``zero_``,
                   ``fill_`` and ``copy_`` record)
reduce.py          Sum (SumBackward0/1), Mean (MeanBackward0/1), Var, Std,
                   Norm (LinalgVectorNormBackward0), Logsumexp, Max (MaxBackward1: all),
                   MaxDim (MaxBackward0: along a dim)
shape.py           View, UnsafeView (a reshape that copied), Expand, SumToSize, Permute,
                   Transpose, T, Unsqueeze, Squeeze (SqueezeBackward0/1/2), Cat, Stack
index.py           Index (``x[tensor]``), Select (``x[i]``), Slice (``x[a:b]``), Alias
                   (``x[:]``), Unbind (``for row in x``), IndexPut (indexing's backward),
                   Gather, ScatterAlong (ScatterBackward0)
linalg.py          Mm, Mv, Dot, VecMat (SqueezeBackward4), BatchMatMul
                   (UnsafeViewBackward0): the forms of ``a @ b``; Addmm (``nn.Linear``)
nn.py              Softmax, LogSoftmax, MseLoss, NllLoss (NllLossBackward0,
                   NllLoss2DBackward0), NativeBatchNorm (``BatchNorm1d``), and the backward
                   ops PyTorch records for double backward (LogSoftmaxBackwardData,
                   NllLossBackward)
=================  ==========================================================================

What every op shares lives elsewhere: recording a node, saving tensors and checking their
versions in ``minigrad/autograd/function.py``; summing a broadcast gradient back to its
input's shape and casting it to the input's dtype in the same file (``Node.apply``), as
PyTorch's engine does, so that no backward here has to.
"""
from .elementwise import (Abs, Add, Clamp, Clone, Copy, Div, Exp, Fill, Log, Maximum, Mul, Neg, Pow,
                          PowTensor, Reciprocal, Relu, RPow, Rsub, Sigmoid, Sign, Sqrt, Sub, Tanh,
                          ThresholdBackward, ToCopy, Where, Zero)
from .index import Alias, Gather, Index, IndexPut, ScatterAlong, Select, Slice, Unbind
from .linalg import Addmm, BatchMatMul, Dot, MatMul, Mm, Mv, VecMat, matmul_op
from .nn import (LogSoftmax, LogSoftmaxBackwardData, MseLoss, NativeBatchNorm, NllLoss, NllLoss2d,
                 NllLossBackward, Softmax)
from .reduce import Logsumexp, Max, MaxDim, Mean, MeanDim, Norm, Std, Sum, SumDim, Var
from .shape import (Cat, Expand, Permute, Squeeze, SqueezeDim, SqueezeDims, Stack, SumToSize, T,
                    Transpose, UnsafeView, Unsqueeze, View)
