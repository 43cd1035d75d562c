"""minigrad.optim: optimizers, as in torch.optim (issue #3).

Each optimizer updates the parameters it was given, in place, from their ``.grad``:
``optimizer.zero_grad(); loss.backward(); optimizer.step()``.
"""
from . import lr_scheduler
from .adadelta import Adadelta
from .adam import Adam, AdamW
from .adam_variants import Adamax, NAdam, RAdam
from .asgd import ASGD
from .optimizer import Optimizer
from .rmsprop import Adagrad, RMSprop
from .rprop import Rprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Optimizer", "lr_scheduler"]
__all__ += ["ASGD", "Adadelta", "Adamax", "NAdam", "RAdam", "Rprop"]
