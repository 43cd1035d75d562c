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
arithmetic.py      Add, AddScaled (AddBackward0: ``add(alpha=)``), Sub, SubScaled (SubBackward0),
                   Rsub, RsubTensor (RsubBackward1/0: ``number - x``, ``rsub``),
                   Mul (MulBackward0), MulNumber, SubNumber, AddNumber (MulBackward1,
                   SubBackward1, AddBackward1: ``x * number``, ``x - number``, ``x + number``
                   as PyTorch's backwards record them),
                   Div (DivBackward0), DivNumber (DivBackward1: ``x / number`` in C++),
                   Neg (NegBackward0),
                   Reciprocal (ReciprocalBackward0), Pow (PowBackward0: x ** number),
                   PowTensor (PowBackward1: x ** y), RPow (PowBackward2: number ** x),
                   Remainder, RemainderNumber (RemainderBackward1/0: %), RemainderOfNumber, Fmod, FmodNumber,
                   DivRounding, DivTrunc (DivBackward2: ``div(rounding_mode=)``),
                   FloorDivide (``//``: no derivative, as in PyTorch), Atan2, Lerp,
                   LerpTensor (LerpBackward0/1), Logaddexp, Maximum, Minimum, Fmax, Fmin,
                   ClampTensor (ClampBackward0: tensor bounds), Where (WhereBackward0),
                   Addcmul, Addcdiv (AddcmulBackward0, AddcdivBackward0: Adam's steps);
                   Xlogy (kl_div's ``t log t``), XlogyNumber, NumberXlogy (XlogyBackward2/1:
                   Xlogy with a number), Hypot, Copysign, CopysignNumber (CopysignBackward0/1),
                   Logaddexp2, Ldexp, Nextafter, Heaviside (no derivative, as in PyTorch)
pointwise.py       Exp, Log, Sqrt, Abs, Relu, Sigmoid, Tanh (ExpBackward0, ...),
                   ThresholdBackward (ReLU's backward), Clamp (ClampBackward1: number bounds),
                   ClampMin, ClampMax (``clamp_min``, ``clamp_max``),
                   Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Exp2, Expm1, Log2, Log10,
                   Log1p (Log1PBackward0), Rsqrt, Erf, Erfc, Erfinv, Frac, NanToNum; the steps, whose
                   gradient is 0: Sign, Sgn, Floor, Ceil, Trunc, Round (RoundBackward0/1);
                   Asinh, Acosh, Atanh (and their in-place nodes, AsinhBackward1..., which have no
                   derivative in PyTorch), Deg2Rad, Rad2Deg, Logit, Sinc; Lgamma, Digamma,
                   Polygamma (PolygammaBackward0/1: in place), I0, I1 (SpecialI1Backward0):
                   SciPy's, each the next one's antiderivative; Frexp
logic.py           EqNumber, EqTensor, ... GeTensor (EqBackward0/1, ...: ``y.eq_(z)`` in a graph,
                   whose gradient is 0)
reduce.py          Sum (SumBackward0/1), Mean (MeanBackward0/1), Nansum, Var, Std,
                   VarMean, StdMean (VarMeanBackward0,
                   StdMeanBackward0: ``torch.var_mean``, ``torch.std_mean``),
                   Norm, NormP (LinalgVectorNormBackward0: p = 2, other p), Dist (DistBackward0),
                   Renorm (RenormBackward0), Cdist, EuclideanDist (CdistBackward0,
                   EuclideanDistBackward0: ``torch.cdist``, its matrix-product form), Logsumexp,
                   Prod, ProdDim (ProdBackward0/1), Cumsum, Cumprod, Logcumsumexp, Cummax,
                   Cummin (CummaxBackward0...), Max, Min
                   (MaxBackward1, MinBackward1: all), MaxDim, MinDim (MaxBackward0,
                   MinBackward0: along a dim), Amax, Amin, Aminmax (AminmaxBackward0), NormDim
                   (NormBackward1: ``at::norm``, pairwise_distance's)
sorting.py         Median, MedianDim (MedianBackward0: all, MedianBackward1: along a dim),
                   Nanmedian, NanmedianDim (NanmedianBackward0/1), Kthvalue, Mode
                   (KthvalueBackward0, ModeBackward0), Sort, SortStable (SortBackward0/1), Topk;
                   Unique, UniqueDim, UniqueConsecutive, Bincount (no derivative: Unique2Backward0,
                   UniqueDimBackward0, UniqueConsecutiveBackward0, NotImplemented, whose backward
                   raises)
shape.py           View, UnsafeView (a reshape that copied), ReshapeAlias, Expand, Permute,
                   Transpose, T, Unsqueeze, Squeeze (SqueezeBackward0/1/2),
                   Repeat (``repeat``, ``tile``), Flip, Roll, ConstantPadNd (``F.pad``),
                   UnfoldDim (UnfoldBackward0: ``x.unfold``, a view) and its backward UnfoldBackward,
                   AsStridedView (AsStridedBackward0: ``as_strided``), Rot90; the in-place
                   reshapes' nodes TInplace, TransposeInplace, UnsqueezeInplace, SqueezeInplace...
                   (TBackward1, TransposeBackward1, UnsqueezeBackward1, SqueezeBackward3/4/5)
join.py            Cat, Stack, BlockDiag (CatBackward0, StackBackward0, BlockDiagBackward0);
                   Unbind (``for row in x``), Split, SplitWithSizes (``split``, ``chunk``),
                   UnsafeSplit, UnsafeSplitWithSizes (UnsafeSplitBackward0,
                   UnsafeSplitWithSizesBackward0: also the gates of ``nn.LSTM``, ``nn.GRU`` and
                   their cells, cut apart)
index.py           Index (``x[tensor]``), Select (``x[i]``), Slice (``x[a:b]``),
                   MaskedSelect and its backward MaskedScatter,
                   MaskedScatterBackward (``masked_scatter``), IndexPutAccumulate (indexing's
                   backward: IndexPutImplBackward0), IndexPut (zeros with a gradient added in),
                   SliceBackward, SelectBackward (their backward: SliceBackwardBackward0...),
                   Gather (``gather``, ``take_along_dim``), Scatter (ScatterBackward0: also the
                   backward of max(dim), sort, topk), ScatterValue (ScatterBackward1), ScatterAdd,
                   IndexSelect, IndexAdd (``index_add``: index_select's backward), IndexFill,
                   IndexFillTensor, IndexCopy (``index_fill``, ``index_copy``), IndexPutAdd
                   (``index_put(..., accumulate=True)``),
                   MaskedFill, MaskedFillTensor (MaskedFillBackward0/1), IndexPutValues
                   (IndexPutBackward0: ``x[mask] = v`` recorded); NarrowCopy (``narrow_copy``), Take and
                   its backward Put (TakeBackward0, PutBackward0)
scatter.py         ScatterReduce (ScatterReduceBackward0), IndexReduce (IndexReduceBackward0),
                   SelectScatter, SliceScatter, DiagonalScatter (SelectScatterBackward0, ...),
                   PutValues (PutBackward0: ``put`` without accumulate)
linalg.py          Mm, Mv, Dot, VecMat (SqueezeBackward4), BatchMatMul
                   (UnsafeViewBackward0): the forms of ``a @ b``; Bmm (``torch.bmm``);
                   Addmm (``nn.Linear``), AddmmScaled (AddmmBackward0: ``addmm``'s beta, alpha);
                   Diagonal, DiagonalBackward (its backward: DiagonalBackwardBackward0);
                   DiagEmbedDims (DiagEmbedBackward0: ``diag_embed``, ``diagflat``); Addmv, Addr, Baddbmm, Addbmm (AddmvBackward0...: beta, alpha), Vdot
decomp.py          Det (LinalgDetBackward0), Slogdet (LinalgSlogdetBackward0),
                   InvEx (LinalgInvExBackward0: ``inv``, ``inverse``), SolveEx
                   (LinalgSolveExBackward0), Pinv (LinalgPinvBackward0), Cross
                   (LinalgCrossBackward0); the decompositions, one node for all factors:
                   Cholesky (LinalgCholeskyExBackward0), Qr (LinalgQrBackward0), Svd
                   (LinalgSvdBackward0: ``svd``, ``svdvals``), Eigh (LinalgEighBackward0)
memory.py          Clone, ToCopy (``.to(dtype)``), Zero, Fill, Copy (what ``zero_``, ``fill_``
                   and ``copy_`` record), Alias (AliasBackward0: ``x[:]``)
nn.py              Softmax, LogSoftmax, MseLoss, NllLoss (NllLossBackward0,
                   NllLoss2DBackward0), NativeBatchNorm (``BatchNorm1d``), and the backward
                   ops PyTorch records for double backward (LogSoftmaxBackwardData,
                   NllLossBackward, NllLoss2dBackward); NativeLayerNorm (``LayerNorm``), Embedding;
                   MkldnnRnnLayer (MkldnnRnnLayerBackward0: one layer and direction of a float32
                   ``nn.LSTM``, as PyTorch's CPU build runs it, oneDNN's kernel)
conv.py            Convolution (ConvolutionBackward0: ``conv2d``, ``conv1d``), ConvolutionTranspose
                   (ConvolutionBackward0: ``conv_transpose2d``, ``conv_transpose1d``), MaxPool2d
                   (MaxPool2DWithIndicesBackward0), AvgPool2d (AvgPool2DBackward0),
                   AdaptiveAvgPool2d (AdaptiveAvgPool2DBackward0), AdaptiveMaxPool2d
                   (AdaptiveMaxPool2DBackward0), PoolGrad (their gradients, recorded on the
                   pool's input too: ...BackwardBackward0), and Unfold, Fold (im2col, col2im:
                   each other's backward, used by the backwards above); Im2Col, Col2Im
                   (Im2ColBackward0, Col2ImBackward0: ``F.unfold``, ``F.fold``)
resample.py        Resample, a gather along each resized dim, weighted: UpsampleNearest1d/2d,
                   UpsampleNearestExact1d/2d, UpsampleLinear1d, UpsampleBilinear2d
                   (UpsampleNearest2DBackward0, ...: ``F.interpolate``), ReflectionPad1d/2d/3d,
                   ReplicationPad1d/2d/3d (ReflectionPad2DBackward0, ...: ``F.pad``'s modes);
                   PixelShuffle, PixelUnshuffle (PixelShuffleBackward0, PixelUnshuffleBackward0)
activation.py      LeakyRelu, Elu (LeakyReluBackward0/1, EluBackward0/1: out of place / in
                   place) and their gradients LeakyReluBackward, EluBackward (PyTorch's
                   ``leaky_relu_backward``, ``elu_backward``), Gelu (both ``approximate``
                   forms) and its gradient GeluBackward (GeluBackwardBackward0:
                   ``gelu_backward``), Silu, Softplus and SoftplusBackward (``softplus_backward``);
                   Celu, CeluInplace (CeluBackward0/1: Elu's maths), Hardtanh (``hardtanh``,
                   ``relu6``), Threshold, ThresholdInplace (ThresholdBackward0/1), Hardshrink,
                   Softshrink, Hardsigmoid, Hardswish, LogSigmoid, each with its gradient op
                   (HardtanhBackward, ThresholdGrad, HardshrinkBackward, SoftshrinkBackward,
                   HardsigmoidBackward: NotImplemented, HardswishBackward, LogSigmoidBackward:
                   their ...BackwardBackward0 nodes), Mish, PreluKernel (PreluKernelBackward0) and
                   PreluKernelBackward, RreluWithNoise (RreluWithNoiseBackward0/1) and
                   RreluWithNoiseBackward, Glu (GluBackward0)
loss.py            BinaryCrossEntropy, BinaryCrossEntropyWithLogits, SmoothL1Loss, HuberLoss
                   and the gradients BinaryCrossEntropyBackward, SmoothL1LossBackward,
                   HuberLossBackward (their own ops, for PyTorch's second derivatives),
                   (l1_loss, kl_div and cross_entropy's smoothing are compositions, as in PyTorch,
                   with arithmetic's MulNumber and DivNumber: DivBackward1, ``x / number`` in C++,
                   and arithmetic's Xlogy: kl_div's ``t log t``); SoftMarginLoss, MultiMarginLoss,
                   MultilabelMarginLoss and their gradient ops (SoftMarginLossBackward; the other
                   two NotImplemented, as in PyTorch); the distances' Pdist (PdistBackward0) and
                   PdistBackward (pairwise_distance's norm is reduce's NormDim)
                   (the margin, embedding, triplet, Poisson and Gaussian losses and
                   cosine_similarity are compositions, in nn/_functional_loss.py)
random.py          Normal, Uniform, RandomFromTo, RandomTo, RandomAll, Exponential, Cauchy,
                   Geometric, LogNormal, BernoulliNumber, BernoulliTensor (what ``x.normal_()``,
                   ``x.random_()``, ``x.bernoulli_(p)``... record: NormalBackward0, RandomBackward0/1/2,
                   BernoulliBackward2/1, ...), Bernoulli, Poisson (BernoulliBackward0,
                   PoissonBackward0: ``torch.bernoulli``, ``torch.poisson``), BernoulliProbability
                   (``x.bernoulli(p)``: NotImplemented); every gradient zeros
attention.py       ScaledDotProductFlashAttentionForCpu (ScaledDotProductFlashAttentionForCpuBackward0:
                   ``F.scaled_dot_product_attention`` on 4-D inputs) and its gradients FlashAttentionGrad
                   (NotImplemented: no second derivative, as in PyTorch), SafeSoftmax
                   (SafeSoftmaxBackward0: the softmax of its composite form), NativeGroupNorm
                   (NativeGroupNormBackward0: ``F.group_norm``)
=================  ==========================================================================

The ops the course uses (Add, Mul, Exp, Relu, Sum, View, MatMul, Addmm, Softmax, MseLoss, ...)
are the core's, in minigrad/core/ops/, and named here too; the table lists each in its family.
What every op shares is the core's as well (minigrad/core/): recording a node, saving tensors
and checking their versions, and summing a broadcast gradient back to its input's shape and
casting it to the input's dtype (``Node.apply``), as PyTorch's engine does, so that no
backward here has to.
"""
from .activation import (Celu, CeluInplace, Elu, EluBackward, EluInplace, Gelu, GeluBackward, Glu,
                         Hardshrink, HardshrinkBackward, Hardsigmoid, HardsigmoidBackward, Hardswish,
                         HardswishBackward, Hardtanh, HardtanhBackward, LeakyRelu, LeakyReluBackward,
                         LeakyReluInplace, LogSigmoid, LogSigmoidBackward, Mish, PreluKernel,
                         PreluKernelBackward, RreluWithNoise, RreluWithNoiseBackward, RreluWithNoiseInplace,
                         Silu, Softplus, SoftplusBackward, Softshrink, SoftshrinkBackward, Threshold,
                         ThresholdGrad, ThresholdInplace)
from .arithmetic import (Add, Addcdiv, Addcmul, AddNumber, AddScaled, Atan2, ClampTensor, Copysign,
                         CopysignNumber, Div, DivNumber, DivRounding, DivTrunc, FloorDivide, Fmax, Fmin,
                         Fmod, FmodNumber, Heaviside, HeavisideInplace, Hypot, Ldexp, Lerp, LerpTensor,
                         Logaddexp, Logaddexp2, Maximum, Minimum, Mul, MulNumber, Neg, Nextafter,
                         NumberXlogy, Pow, PowTensor, Reciprocal, Remainder, RemainderNumber,
                         RemainderOfNumber, RPow, Rsub, RsubTensor, Sub, SubNumber, SubScaled, Where, Xlogy,
                         XlogyNumber)
from .attention import FlashAttentionGrad, NativeGroupNorm, SafeSoftmax, ScaledDotProductFlashAttentionForCpu
from .conv import (AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, Col2Im, Convolution,
                   ConvolutionTranspose, Fold, Im2Col, MaxPool2d, Unfold, Window)
from .index import (Gather, Index, IndexAdd, IndexCopy, IndexFill, IndexFillTensor, IndexPut,
                    IndexPutAccumulate, IndexPutAdd, IndexPutValues, IndexSelect, MaskedFill,
                    MaskedFillTensor, MaskedScatter, MaskedScatterBackward, MaskedSelect, NarrowCopy, Put,
                    Scatter, ScatterAdd, ScatterValue, Select, SelectBackward, Slice, SliceBackward, Take)
from .join import BlockDiag, Cat, Split, SplitWithSizes, Stack, Unbind, UnsafeSplit, UnsafeSplitWithSizes
from .linalg import (Addbmm, Addmm, AddmmScaled, Addmv, Addr, Baddbmm, BatchMatMul, Bmm, DiagCopy, DiagEmbed,
                     DiagEmbedDims, Diagonal, DiagonalBackward, Dot, MatMul, matmul_op, Mm, Mv, Trace, Tril,
                     Triu, Vdot, VecMat)
from .decomp import _LinAlgError, Cholesky, Cross, Det, Eigh, InvEx, Pinv, Qr, Slogdet, SolveEx, Svd
from .logic import (EqNumber, EqTensor, GeNumber, GeTensor, GtNumber, GtTensor, LeNumber, LeTensor, LtNumber,
                    LtTensor, NeNumber, NeTensor)
from .loss import (BinaryCrossEntropy, BinaryCrossEntropyBackward, BinaryCrossEntropyWithLogits, HuberLoss,
                   HuberLossBackward, MultilabelMarginLoss, MultilabelMarginLossBackward, MultiMarginLoss,
                   MultiMarginLossBackward, Pdist, PdistBackward, SmoothL1Loss, SmoothL1LossBackward,
                   SoftMarginLoss, SoftMarginLossBackward)
from .memory import Alias, Clone, Copy, Fill, ToCopy, Zero
from .nn import (Embedding, LogSoftmax, LogSoftmaxBackwardData, MkldnnRnnLayer, MseLoss, NativeBatchNorm,
                 NativeLayerNorm, NllLoss, NllLoss2d, NllLoss2dBackward, NllLossBackward, Softmax)
from .pointwise import (Abs, Acos, Acosh, AcoshInplace, Asin, Asinh, AsinhInplace, Atan, Atanh, AtanhInplace,
                        Ceil, Clamp, ClampMax, ClampMin, Cos, Cosh, Deg2Rad, Digamma, Erf, Erfc, Erfinv, Exp,
                        Exp2, Expm1, Floor, Frac, Frexp, I0, I1, Lgamma, Log, Log10, Log1p, Log2, Logit,
                        NanToNum, Polygamma, PolygammaInplace, Rad2Deg, Relu, Round, RoundDecimals, Rsqrt,
                        Sgn, Sigmoid, Sign, Sin, Sinc, Sinh, Sqrt, Tan, Tanh, ThresholdBackward, Trunc)
from .random import (Bernoulli, BernoulliNumber, BernoulliProbability, BernoulliTensor, Cauchy, Exponential,
                     Geometric, LogNormal, Normal, Poisson, RandomAll, RandomFromTo, RandomTo, Uniform)
from .resample import (PixelShuffle, PixelUnshuffle, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d,
                       ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, Resample, UpsampleBilinear2d,
                       UpsampleLinear1d, UpsampleNearest1d, UpsampleNearest2d, UpsampleNearestExact1d,
                       UpsampleNearestExact2d)
from .reduce import (Amax, Amin, Aminmax, Cdist, Cummax, Cummin, Cumprod, Cumsum, Dist, EuclideanDist,
                     Logcumsumexp, Logsumexp, Max, MaxDim, Mean, MeanDim, Min, MinDim, Nansum, Norm, NormDim,
                     NormP, Prod, ProdDim, Renorm, Std, StdMean, Sum, SumDim, Var, VarMean)
from .scatter import DiagonalScatter, IndexReduce, PutValues, ScatterReduce, SelectScatter, SliceScatter
from .shape import (AsStridedView, ConstantPadNd, Expand, Flip, Permute, Repeat, ReshapeAlias, Roll, Rot90,
                    Squeeze, SqueezeDim, SqueezeDimInplace, SqueezeDims, SqueezeDimsInplace, SqueezeInplace,
                    T, TInplace, Transpose, TransposeInplace, UnfoldBackward, UnfoldDim, UnsafeView,
                    Unsqueeze, UnsqueezeInplace, View)
from .sorting import (Bincount, Kthvalue, Median, MedianDim, Mode, Nanmedian, NanmedianDim, Sort, SortStable,
                      Topk, Unique, UniqueConsecutive, UniqueDim)
