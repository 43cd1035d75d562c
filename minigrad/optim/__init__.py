"""minigrad.optim: optimizers, as in torch.optim (issue #3).

Each optimizer updates the parameters it was given, in place, from their ``.grad``:
``optimizer.zero_grad(); loss.backward(); optimizer.step()``.
"""
from . import lr_scheduler
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import Adagrad, RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Optimizer", "lr_scheduler"]
