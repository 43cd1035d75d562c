"""The Tensor's reductions: sum, mean, var, max, ... (many elements in, one out).

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/reduce.py``. This module reaches the Tensor class only through
``autograd.function.Tensor``.
"""
import numpy as np

from . import ops
from ._conventions import MaxResult
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from ._tensor_math import _floating
from .autograd import function


class ReduceMixin:
    __slots__ = ()

    # -- reductions ----------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(dtype)
        dims = _dims(dim, x._data.ndim)
        return (ops.Sum if dims is None else ops.SumDim).apply(x, dims, keepdim)

    def mean(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(dtype)
        if not x.dtype.is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a "
                               f"floating point or complex dtype. Got: {x.dtype.legacy_name}")
        dims = _dims(dim, x._data.ndim)
        return (ops.Mean if dims is None else ops.MeanDim).apply(x, dims, keepdim)

    def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Var, dim, unbiased, keepdim, correction)

    def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Std, dim, unbiased, keepdim, correction)

    def _spread(self, op, dim, unbiased, keepdim, correction):
        if isinstance(dim, bool):  # x.std(False): the old positional ``unbiased``
            dim, unbiased = None, dim
        if not self.dtype.is_floating_point:
            raise RuntimeError("std and var only support floating point and complex dtypes")
        correction = (1 if unbiased else 0) if correction is None else correction
        return op.apply(self, _dims(dim, self._data.ndim), correction, keepdim)

    def norm(self, p="fro", dim=None, keepdim=False):
        if p not in ("fro", 2):
            raise NotImplementedError("minigrad's norm computes the 2-norm only (p=2 or 'fro')")
        if not self.dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        return ops.Norm.apply(self, _dims(dim, self._data.ndim), keepdim)

    def max(self, dim=None, keepdim=False):
        if isinstance(dim, function.Tensor):
            return self.maximum(dim)
        if dim is None:
            return ops.Max.apply(self)
        if self._data.ndim == 0:  # dim 0 of a 0-d tensor: the value itself, at index 0
            _dim(dim, 0)
            values, indices = self.unsqueeze(0).max(0, keepdim)
            return MaxResult(values.squeeze(0) if keepdim else values, indices.reshape(()))
        d = _dim(dim, self._data.ndim)
        indices = np.argmax(self._data, axis=d)  # the first of equal maxima, as in PyTorch
        values = ops.MaxDim.apply(self, d, keepdim, indices)
        indices = np.expand_dims(indices, d) if keepdim else indices
        return MaxResult(values, function.Tensor._wrap(indices.astype(np.int64)))

    def argmax(self, dim=None, keepdim=False):
        if dim is None:
            return function.Tensor._wrap(np.asarray(np.argmax(self._data), dtype=np.int64))
        return self.max(dim, keepdim).indices

    def softmax(self, dim):
        return ops.Softmax.apply(_floating(self), _dim(dim, self._data.ndim))

    def log_softmax(self, dim):
        return ops.LogSoftmax.apply(_floating(self), _dim(dim, self._data.ndim))

    def logsumexp(self, dim, keepdim=False):
        return ops.Logsumexp.apply(_floating(self), _dims(dim, self._data.ndim), keepdim)

