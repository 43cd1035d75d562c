"""The layers of ``minigrad.nn``, one small file per kind."""
from .activation import ELU, GELU, SELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .batchnorm import BatchNorm1d
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .dropout import Dropout
from .flatten import Flatten, Unflatten
from .linear import Identity, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .module import Module
from .normalization import LayerNorm
from .sparse import Embedding

__all__ = ["BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "CrossEntropyLoss", "Dropout", "ELU", "Embedding",
           "Flatten", "GELU", "HuberLoss", "Identity", "KLDivLoss", "L1Loss", "LayerNorm", "LeakyReLU", "Linear",
           "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList", "NLLLoss", "ParameterDict",
           "ParameterList", "ReLU", "SELU", "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Softplus",
           "Tanh", "Unflatten"]
