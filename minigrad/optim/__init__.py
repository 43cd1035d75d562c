"""minigrad.optim: optimizers, as in torch.optim (issue #3).

Each optimizer updates the parameters it was given, in place, from their ``.grad``:
``optimizer.zero_grad(); loss.backward(); optimizer.step()``.
"""
from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "Optimizer"]
