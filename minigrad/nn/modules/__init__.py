"""The layers of ``minigrad.nn``, one small file per kind."""
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .batchnorm import BatchNorm1d
from .container import Sequential
from .dropout import Dropout
from .flatten import Flatten
from .linear import Identity, Linear
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module

__all__ = ["BatchNorm1d", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "Linear", "LogSoftmax",
           "MSELoss", "Module", "NLLLoss", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh"]
