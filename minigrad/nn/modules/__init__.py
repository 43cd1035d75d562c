"""The layers of ``minigrad.nn``, one small file per kind."""
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .batchnorm import BatchNorm1d, BatchNorm2d, LazyBatchNorm1d, LazyBatchNorm2d
from .container import Sequential
from .conv import Conv1d, Conv2d, LazyConv1d, LazyConv2d
from .dropout import Dropout, Dropout2d
from .flatten import Flatten
from .lazy import LazyModuleMixin
from .linear import Identity, LazyLinear, Linear
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "BatchNorm2d", "Conv1d", "Conv2d", "Dropout2d",
           "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyConv1d", "LazyConv2d", "LazyLinear", "LazyModuleMixin",
           "MaxPool2d",
           "BatchNorm1d", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "Linear", "LogSoftmax",
           "MSELoss", "Module", "NLLLoss", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh"]
