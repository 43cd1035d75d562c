"""The Tensor's products and linear algebra: ``mm``, ``bmm``, ``addmm``, ``outer``... (the
operator ``@`` is in _tensor_math.py with the other operators).

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/linalg.py`` or ``minigrad/ops/decomp.py``. This module sits below the
Tensor class and reaches it only through ``autograd.function.Tensor``.
"""
from . import ops
from ._conventions import check_expand
from ._tensor_math import _check_ndim, check_tensors


class LinalgMixin:
    __slots__ = ()

    # -- products (minigrad/ops/linalg.py) ----------------------------------------------------
    def mm(self, mat2):
        _check_ndim("self", self, 2), _check_ndim("mat2", mat2, 2)
        return self @ mat2

    def mv(self, vec):
        if self._data.ndim != 2 or vec._data.ndim != 1:
            raise RuntimeError("vector + matrix @ vector expected, got "
                               f"1, {self._data.ndim}, {vec._data.ndim}")
        return self @ vec

    def dot(self, other):
        if self._data.ndim != 1 or other._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and "
                               f"{other._data.ndim}D tensors")
        if self.dtype is not other.dtype:
            raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                               f"{self.dtype.legacy_name} and {other.dtype.legacy_name}")
        return self @ other

    def bmm(self, other):
        _check_ndim("batch1", self, 3), _check_ndim("batch2", other, 3)
        (b, _, k), got = self._data.shape, other._data.shape
        if got[:2] != (b, k):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] "
                               f"but got: [{got[0]}, {got[1]}].")
        return ops.Bmm.apply(self, other)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """``beta * self + alpha * (mat1 @ mat2)``, self broadcast to the product's shape."""
        check_tensors("addmm", 1, mat1=mat1, mat2=mat2)
        for name, t in (("mat1", mat1), ("mat2", mat2)):
            if t._data.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {t._data.ndim}-D tensor")
        for name, t in (("self", self), ("mat1", mat1)):  # no promotion; PyTorch's order of checks
            if t.dtype is not mat2.dtype:
                raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                                   f"{t.dtype.legacy_name} and {mat2.dtype.legacy_name}")
        (n, k), (k2, m) = mat1._data.shape, mat2._data.shape
        if k != k2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
        check_expand(self._data.shape, (n, m), self.type())
        if beta == 1 and alpha == 1:
            return ops.Addmm.apply(self, mat1, mat2)  # nn.Linear's op
        if not self.dtype.is_floating_point:  # the factors in the tensors' type, as PyTorch's
            beta, alpha = int(beta), int(alpha)
        return ops.AddmmScaled.apply(self, mat1, mat2, beta, alpha)

    def outer(self, other):
        """Every product ``self[i] * other[j]``: PyTorch records it as a column times a row."""
        for name, t in (("self", self), ("vec2", other)):
            if t._data.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
        return self.reshape(-1, 1) * other

    ger = outer
