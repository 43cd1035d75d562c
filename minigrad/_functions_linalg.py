"""The classic torch.* linear-algebra functions that call more than a Tensor method (``torch.det``,
``torch.tensordot``...; ``torch.svd``, ``torch.kron``... are made from the table in _namespace.py);
torch.linalg's are in minigrad/linalg.py. Both call the functions of minigrad/_tensor_linalg.py."""
from . import _tensor_linalg as _la
from ._conventions import check_tensors
from ._inplace import into_out

__all__ = ["det", "matrix_power", "tensordot", "chain_matmul"]


def det(input):
    check_tensors("det", 1, input=input)
    return _la.det(input)


def matrix_power(input, n, *, out=None):
    if out is not None:
        return into_out(out, "matrix_power", lambda: matrix_power(input, n), input, op="matmul",
                        dtypes="exact")
    check_tensors("matrix_power", 1, input=input)
    return _la.matrix_power(input, n)


def tensordot(a, b, dims=2, out=None):
    if out is not None:
        return into_out(out, "tensordot", lambda: tensordot(a, b, dims), a, b, dtypes="exact",
                        differentiable=False)  # (PyTorch checks no gradient)
    return _la.tensordot(a, b, dims)


def chain_matmul(*matrices, out=None):
    """The deprecated form of ``torch.linalg.multi_dot``: the matrices one by one."""
    if out is not None:
        return into_out(out, "chain_matmul", lambda: chain_matmul(*matrices), matrices, op="mm",
                        dtypes="exact")
    _la.warn_once(_la.CHAIN_MATMUL_DEPRECATED)
    if len(matrices) == 1:
        return matrices[0].clone()
    return _la.multi_dot(matrices)


