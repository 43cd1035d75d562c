"""The layers of ``minigrad.nn``, one small file per kind."""
from .activation import ELU, GELU, SELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .activation import (CELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU, ReLU6,
                         RReLU, Softmin, Softshrink, Softsign, Tanhshrink, Threshold)
from .batchnorm import BatchNorm1d, BatchNorm2d, LazyBatchNorm1d, LazyBatchNorm2d
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, LazyConv1d, LazyConv2d
from .conv import ConvTranspose1d, ConvTranspose2d
from .dropout import Dropout, Dropout2d
from .dropout import AlphaDropout, Dropout1d, Dropout3d, FeatureAlphaDropout
from .flatten import Flatten, Unflatten
from .fold import Fold, Unfold
from .lazy import LazyModuleMixin
from .linear import Identity, LazyLinear, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .module import Module
from .normalization import LayerNorm
from .padding import (CircularPad1d, CircularPad2d, ConstantPad1d, ConstantPad2d, ReflectionPad1d, ReflectionPad2d,
                      ReplicationPad1d, ReplicationPad2d, ZeroPad1d, ZeroPad2d)
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .pooling import AdaptiveAvgPool1d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d, MaxPool1d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d",
           "Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout", "Dropout2d", "ELU", "Embedding", "Flatten", "GELU",
           "HuberLoss", "Identity", "KLDivLoss", "L1Loss", "LayerNorm", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyConv1d", "LazyConv2d", "LazyLinear", "LazyModuleMixin", "LeakyReLU", "Linear", "LogSoftmax",
           "MSELoss", "MaxPool2d", "Module", "ModuleDict", "ModuleList", "NLLLoss", "ParameterDict",
           "ParameterList", "ReLU", "SELU", "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Softplus",
           "Tanh", "Unflatten"]
__all__ += ["AlphaDropout", "CELU", "Dropout1d", "Dropout3d", "FeatureAlphaDropout", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish",
            "Hardtanh", "LogSigmoid", "Mish", "PReLU", "ReLU6", "RReLU", "Softmin", "Softshrink", "Softsign", "Tanhshrink",
            "Threshold"]
from .distance import CosineSimilarity, PairwiseDistance
from .loss import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss, MultiLabelMarginLoss,
                   MultiLabelSoftMarginLoss, MultiMarginLoss, PoissonNLLLoss, SoftMarginLoss, TripletMarginLoss,
                   TripletMarginWithDistanceLoss)
__all__ += ["CosineEmbeddingLoss", "CosineSimilarity", "GaussianNLLLoss", "HingeEmbeddingLoss", "MarginRankingLoss",
            "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "PairwiseDistance",
            "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss"]
from .activation import MultiheadAttention, NonDynamicallyQuantizableLinear
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .normalization import GroupNorm, LocalResponseNorm, RMSNorm
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)
__all__ += ["GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LocalResponseNorm",
            "MultiheadAttention", "RMSNorm", "Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
            "TransformerEncoderLayer"]
__all__ += ["ConvTranspose1d", "ConvTranspose2d"]
__all__ += ["AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d", "MaxPool1d"]
__all__ += ["Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]
__all__ += ["CircularPad1d", "CircularPad2d", "ConstantPad1d", "ConstantPad2d", "Fold", "PixelShuffle",
            "PixelUnshuffle", "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "Unfold",
            "ZeroPad1d", "ZeroPad2d"]
__all__ += ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"]
