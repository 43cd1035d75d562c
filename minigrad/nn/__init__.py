"""minigrad.nn: modules, losses and functional forms, as in torch.nn (issue #3).

A model is a ``Module``: it owns ``Parameter``s (and sub-modules), and its
``forward`` computes with ordinary tensor ops, so ``loss.backward()`` reaches
every parameter. ``nn.functional`` holds the same computations as functions,
``nn.init`` the ways to fill parameters with starting values.
"""
from . import functional, init
from .modules import (
    AdaptiveAvgPool2d,
    AvgPool2d,
    BatchNorm2d,
    Conv1d,
    Conv2d,
    Dropout2d,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyConv1d,
    LazyConv2d,
    LazyLinear,
    MaxPool2d,
    BatchNorm1d,
    CrossEntropyLoss,
    Dropout,
    Flatten,
    Identity,
    Linear,
    LogSoftmax,
    Module,
    MSELoss,
    NLLLoss,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "BatchNorm2d", "Conv1d", "Conv2d", "Dropout2d",
           "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyConv1d", "LazyConv2d", "LazyLinear", "MaxPool2d",
           "UninitializedBuffer", "UninitializedParameter",
           "BatchNorm1d", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "Linear", "LogSoftmax",
           "MSELoss", "Module", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh",
           "functional", "init"]
