"""``torch.special``: special functions under SciPy-style names, for code that writes
``torch.special.erf(x)`` or ``torch.special.expit(x)``. Each is the Tensor method of the same
meaning (``expit`` is ``sigmoid``), so it records the same node (ErfBackward0,
SigmoidBackward0). PyTorch's others (Bessel functions, gamma functions, ...) are not here.
"""
from ._tensor_math import check_tensors


def erf(input):
    check_tensors("special_erf", 1, input=input)
    return input.erf()


def erfc(input):
    check_tensors("special_erfc", 1, input=input)
    return input.erfc()


def erfinv(input):
    check_tensors("special_erfinv", 1, input=input)
    return input.erfinv()


def expit(input):
    check_tensors("special_expit", 1, input=input)
    return input.sigmoid()


def exp2(input):
    check_tensors("special_exp2", 1, input=input)
    return input.exp2()


def expm1(input):
    check_tensors("special_expm1", 1, input=input)
    return input.expm1()


def log1p(input):
    check_tensors("special_log1p", 1, input=input)
    return input.log1p()


def logsumexp(input, dim, keepdim=False):
    check_tensors("special_logsumexp", 1, input=input)
    return input.logsumexp(dim, keepdim)
