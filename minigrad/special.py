"""``torch.special``: special functions under SciPy-style names, for code that writes
``torch.special.erf(x)`` or ``torch.special.expit(x)``. Each is the Tensor method of the same
meaning (``expit`` is ``sigmoid``), so it records the same node (ErfBackward0,
SigmoidBackward0); ``gammaln`` is ``lgamma``, ``psi`` is ``digamma``. PyTorch's others
(most Bessel functions, zeta, ...) are not here.
"""
from . import _functions, ops
from ._conventions import check_tensors


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


# The gamma family, i0 and i1 (SciPy's, in minigrad/ops/pointwise.py); logit, xlogy, sinc

def gammaln(input):
    check_tensors("special_gammaln", 1, input=input)
    return input.lgamma()


def digamma(input):
    check_tensors("special_digamma", 1, input=input)
    return input.digamma()


psi = digamma


def polygamma(n, input):
    check_tensors("special_polygamma", 2, input=input)
    return input.polygamma(n)


def i0(input):
    check_tensors("special_i0", 1, input=input)
    return input.i0()


def i1(input):
    check_tensors("special_i1", 1, input=input)
    return ops.I1.apply(input if input.dtype.is_floating_point else input.float())


def logit(input, eps=None):
    check_tensors("special_logit", 1, input=input)
    return input.logit(eps)


xlogy = _functions.xlogy  # (either argument may be a number)


def sinc(input):
    check_tensors("special_sinc", 1, input=input)
    return input.sinc()
