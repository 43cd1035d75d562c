"""The classic torch.* linear-algebra functions (``torch.det``, ``torch.svd``, ``torch.kron``...),
each written by name; torch.linalg's are in minigrad/linalg.py. Both call the Tensor's
methods and the functions of minigrad/_tensor_linalg.py."""
from . import _tensor_linalg as _la
from ._conventions import check_tensors


def det(input):
    check_tensors("det", 1, input=input)
    return _la.det(input)


def logdet(input):
    check_tensors("logdet", 1, input=input)
    return input.logdet()


def slogdet(input):
    check_tensors("slogdet", 1, input=input)
    return input.slogdet()


def inverse(input):
    check_tensors("inverse", 1, input=input)
    return input.inverse()


def pinverse(input, rcond=1e-15):
    check_tensors("pinverse", 1, input=input)
    return input.pinverse(rcond)


def matrix_power(input, n):
    check_tensors("matrix_power", 1, input=input)
    return _la.matrix_power(input, n)


def cholesky(input, upper=False):
    check_tensors("cholesky", 1, input=input)
    return input.cholesky(upper)


def qr(input, some=True):
    check_tensors("qr", 1, input=input)
    return input.qr(some)


def svd(input, some=True, compute_uv=True):
    check_tensors("svd", 1, input=input)
    return input.svd(some, compute_uv)


def cross(input, other, dim=None):
    check_tensors("cross", 1, input=input, other=other)
    return input.cross(other, dim)


def inner(input, other):
    check_tensors("inner", 1, input=input, other=other)
    return input.inner(other)


def kron(input, other):
    check_tensors("kron", 1, input=input, other=other)
    return input.kron(other)


def tensordot(a, b, dims=2):
    return _la.tensordot(a, b, dims)


def vdot(input, other):
    check_tensors("vdot", 1, input=input, other=other)
    return input.vdot(other)


def chain_matmul(*matrices):
    """The deprecated form of ``torch.linalg.multi_dot``: the matrices one by one."""
    _la.warn_once(_la.CHAIN_MATMUL_DEPRECATED)
    if len(matrices) == 1:
        return matrices[0].clone()
    return _la.multi_dot(matrices)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    check_tensors("addmv", 1, input=input, mat=mat, vec=vec)
    return input.addmv(mat, vec, beta=beta, alpha=alpha)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    check_tensors("addr", 1, input=input, vec1=vec1, vec2=vec2)
    return input.addr(vec1, vec2, beta=beta, alpha=alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    check_tensors("baddbmm", 1, input=input, batch1=batch1, batch2=batch2)
    return input.baddbmm(batch1, batch2, beta=beta, alpha=alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    check_tensors("addbmm", 1, input=input, batch1=batch1, batch2=batch2)
    return input.addbmm(batch1, batch2, beta=beta, alpha=alpha)
