"""The activations and dropouts that PyTorch also has as ``torch.*`` functions
(``torch.dropout(input, p, train)``, ``torch.celu``, ``torch.prelu``...): each calls its
``nn.functional`` form, with ``torch.*``'s own argument names."""
from .nn import functional as F

__all__ = ["dropout", "dropout_", "alpha_dropout", "alpha_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_",
           "celu", "celu_", "selu", "selu_", "threshold", "threshold_", "prelu", "hardshrink", "rrelu", "rrelu_"]


def dropout(input, p, train):
    _check_p(p)
    return F.dropout(input, p, train)


def dropout_(input, p, train):
    _check_p(p)
    return F.dropout(input, p, train, inplace=True)


def alpha_dropout(input, p, train):
    _check_p(p)
    return F.alpha_dropout(input, p, train)


def alpha_dropout_(input, p, train):
    _check_p(p)
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout(input, p, train):
    _check_p(p)
    return F.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input, p, train):
    _check_p(p)
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def _check_p(p):
    """(torch.*'s dropouts raise a RuntimeError where nn.functional's raise a ValueError)"""
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def celu(input, alpha=1.0):
    return F.celu(input, alpha)


def celu_(input, alpha=1.0):
    return F.celu(input, alpha, inplace=True)


def selu(input):
    return F.selu(input)


def selu_(input):
    return F.selu(input, inplace=True)


def threshold(input, threshold, value):
    return F.threshold(input, threshold, value)


def threshold_(input, threshold, value):
    return F.threshold(input, threshold, value, inplace=True)


def prelu(input, weight):
    return F.prelu(input, weight)


def hardshrink(input, lambd=0.5):
    return F.hardshrink(input, lambd)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training, generator=generator)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training, inplace=True, generator=generator)
