"""The layers of ``minigrad.nn``, one small file per kind."""
from .activation import ELU, GELU, SELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .activation import (CELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU, ReLU6,
                         RReLU, Softmin, Softshrink, Softsign, Tanhshrink, Threshold)
from .batchnorm import BatchNorm1d, BatchNorm2d, LazyBatchNorm1d, LazyBatchNorm2d
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, LazyConv1d, LazyConv2d
from .dropout import Dropout, Dropout2d
from .dropout import AlphaDropout, Dropout1d, Dropout3d, FeatureAlphaDropout
from .flatten import Flatten, Unflatten
from .lazy import LazyModuleMixin
from .linear import Identity, LazyLinear, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .module import Module
from .normalization import LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding

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
__all__ += ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"]
