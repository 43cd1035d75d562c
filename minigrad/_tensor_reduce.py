"""The Tensor's reductions: sum, mean, var, max, prod, cumsum, norm, diff, softmax, ... (along
dims: many elements in, fewer out, or accumulated). By the order of values (sort, median,
topk, unique...): _tensor_sorting.py.

``class Tensor`` (minigrad/_tensor.py) inherits these methods; each is a short call into an
op of ``minigrad/ops/reduce.py`` (the core's Sum, Mean, Max, ... are in
minigrad/core/ops/reduce.py).
This module reaches the Tensor class only through ``autograd.TensorBase``.

PyTorch accepts NumPy's spellings too: ``x.sum(axis=0, keepdims=True)`` is
``x.sum(dim=0, keepdim=True)``; ``numpy_spellings`` below renames them.
"""
import functools
import warnings

import numpy as np

from . import _dtype, _inplace, ops
from ._conventions import MaxResult, MinResult
from ._conventions import AminmaxResult, CummaxResult, CumminResult
from ._conventions import check_broadcast
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from ._conventions import check_tensors
from ._tensor_arithmetic import _floating, _in_place
from .core.tensor import TensorBase
from ._conventions import typename


def numpy_spellings(method):
    """Accept ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``, as PyTorch does."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if "axis" in kwargs:
            kwargs["dim"] = kwargs.pop("axis")
        if "keepdims" in kwargs:
            kwargs["keepdim"] = kwargs.pop("keepdims")
        return method(self, *args, **kwargs)
    return wrapper


def _indices(array):
    return TensorBase._wrap(np.asarray(array, dtype=np.int64, order="C"))  # row by row


def _asked(dtype, out):
    """Sums and products of integers are int64 unless ``dtype=`` asked for a smaller one (as in PyTorch)."""
    asked = dtype.__class__ is _dtype.dtype and dtype._category == 1  # (not dtype=int: that is int64)
    return out.to(dtype) if asked and out.dtype is not dtype else out


def _truth(x, out):
    """all's and any's answer: bools, but uint8 for a uint8 tensor (as PyTorch keeps it)."""
    return TensorBase._wrap(np.asarray(out, x._data.dtype if x._data.dtype == np.uint8 else None, order="C"))


class ReduceMixin:
    __slots__ = ()

    # -- sums and averages ----------------------------------------------------------------------
    @numpy_spellings
    def sum(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "sum"))
        dims = _dims(dim, x._data.ndim)
        return _asked(dtype, (ops.Sum if dims is None else ops.SumDim).apply(x, dims, keepdim))

    @numpy_spellings
    def mean(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "mean"))
        if not x.dtype.is_floating_point:
            which = "Input" if dtype is None else "Optional"
            raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either a "
                               f"floating point or complex dtype. Got: {x.dtype.legacy_name}")
        dims = _dims(dim, x._data.ndim)
        return (ops.Mean if dims is None else ops.MeanDim).apply(x, dims, keepdim)

    @numpy_spellings
    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        dtype = _dtype.dtype_arg(dtype, "nansum")
        return ops.Nansum.apply(self, _dims(dim, self._data.ndim), keepdim, dtype and dtype.np)

    @numpy_spellings
    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        """nansum over the count of non-NaN elements, a composition as in PyTorch (DivBackward0)."""
        if not self.dtype.is_floating_point:
            raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but "
                               f"got {self.dtype.legacy_name}")
        count = self.isnan().logical_not().sum(dim, keepdim)
        return self.nansum(dim, keepdim, dtype=dtype) / count

    @numpy_spellings
    def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Var, dim, unbiased, keepdim, correction)

    @numpy_spellings
    def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Std, dim, unbiased, keepdim, correction)

    def _spread(self, op, dim, unbiased, keepdim, correction):
        if isinstance(dim, bool):  # x.std(False): the old positional ``unbiased``
            dim, unbiased = None, dim
        if not self.dtype.is_floating_point:
            raise RuntimeError("std and var only support floating point and complex dtypes")
        correction = (1 if unbiased else 0) if correction is None else correction
        return op.apply(self, _dims(dim, self._data.ndim), correction, keepdim)

    @numpy_spellings
    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """The vector p-norm over ``dim`` (all elements if None); "fro" is p = 2."""
        dtype = _dtype.dtype_arg(dtype, "linalg_vector_norm")
        if not self.dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        if dtype is not None and not dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, but got "
                               f"{dtype.legacy_name}")
        x = self if dtype is None else self.to(dtype)
        dims = _dims(dim, x._data.ndim)
        if p in ("fro", 2):
            return ops.Norm.apply(x, dims, keepdim)
        if isinstance(p, str):
            raise NotImplementedError(f"minigrad's norm computes vector p-norms; p='{p}' is a matrix "
                                      "norm (use p=2 or 'fro', or a number)")
        if p in (float("inf"), -float("inf")):  # max and min have no identity: NumPy's words otherwise
            text = f"linalg.vector_norm cannot compute the {p:g} norm on "
            if dim is None and 0 in x._data.shape:
                raise RuntimeError(text + "an empty tensor because the operation does not have an identity")
            for given, d in zip(() if dim is None else (dim if isinstance(dim, (tuple, list)) else (dim,)), dims or ()):
                if x._data.shape[d] == 0:  # the dim as written (PyTorch's words, its missing space)
                    raise RuntimeError(text + f"the dimension {given}because this dimension is empty and the "
                                       "operation does not have an identity")
        return ops.NormP.apply(x, float(p), dims, keepdim)

    @numpy_spellings
    def logsumexp(self, dim, keepdim=False):
        return ops.Logsumexp.apply(_floating(self), _dims(dim, self._data.ndim), keepdim)

    @numpy_spellings
    def prod(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "prod"))
        if x._data.dtype.kind in "bu":
            x = x.long()  # products of bools and uint8 are int64 (NumPy's of uint8: uint64)
        if dim is None:
            return _asked(dtype, ops.Prod.apply(x))
        return _asked(dtype, ops.ProdDim.apply(x, _dim(dim, x._data.ndim), keepdim))

    @numpy_spellings
    def cumsum(self, dim, dtype=None):
        return self._running(ops.Cumsum, dim, _dtype.dtype_arg(dtype, "cumsum"))

    @numpy_spellings
    def cumprod(self, dim, dtype=None):
        return self._running(ops.Cumprod, dim, _dtype.dtype_arg(dtype, "cumprod"))

    def _running(self, op, dim, dtype):
        if dtype is _dtype.bool:  # asked for; a bool tensor's own running sum is int64
            raise NotImplementedError(f'"{op.__name__.lower()}_out_cpu" not implemented for \'Bool\'')
        x = self if dtype is None else self.to(dtype)
        return _asked(dtype, op.apply(x, _dim(dim, x._data.ndim)))

    def cumsum_(self, dim, dtype=None):
        _check_not_bool("cumsum", self)
        return _cumsum_(self, dim, dtype)

    def cumprod_(self, dim, dtype=None):
        _check_not_bool("cumprod", self)
        return _cumprod_(self, dim, dtype)

    def logcumsumexp(self, dim):
        if self._data.dtype.kind != "f":
            raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{self.dtype.legacy_name}\'')
        return ops.Logcumsumexp.apply(self, _dim(dim, self._data.ndim))

    def cummax(self, dim):
        """The running maximum along ``dim``, and where each was found (the last of equal
        values, as PyTorch; after a NaN, NaN, at the last NaN)."""
        return self._running_extreme(dim, np.maximum, ops.Cummax, CummaxResult)

    def cummin(self, dim):
        return self._running_extreme(dim, np.minimum, ops.Cummin, CumminResult)

    def _running_extreme(self, dim, ufunc, op, result):
        x = self._data
        d = _dim(dim, x.ndim)
        if x.ndim == 0:
            return result(op.apply(self, d, None), _indices(0))
        running = ufunc.accumulate(x, axis=d)
        # the index of the running extreme: the last position that reached (or tied) it
        reached = (x == running) | (np.isnan(x) if x.dtype.kind == "f" else False)
        positions = np.arange(x.shape[d]).reshape((-1,) + (1,) * (x.ndim - d - 1))
        indices = np.maximum.accumulate(np.where(reached, positions, 0), axis=d)
        return result(op.apply(self, d, indices), _indices(indices))

    # -- logical ----------------------------------------------------------------------------------
    @numpy_spellings
    def all(self, dim=None, keepdim=False):
        return _truth(self, np.all(self._data, axis=_dims(dim, self._data.ndim), keepdims=keepdim))

    @numpy_spellings
    def any(self, dim=None, keepdim=False):
        return _truth(self, np.any(self._data, axis=_dims(dim, self._data.ndim), keepdims=keepdim))

    def count_nonzero(self, dim=None):
        return _indices(np.count_nonzero(self._data, axis=_dims(dim, self._data.ndim)))

    # -- largest and smallest -------------------------------------------------------------------
    @numpy_spellings
    def max(self, dim=None, keepdim=False):
        """``max()``: the largest element; ``max(dim)``: values and indices along dim;
        ``max(other)``: the elementwise maximum."""
        if isinstance(dim, TensorBase):
            return self.maximum(dim)
        if dim is None:
            _check_not_empty("max", self)
            return ops.Max.apply(self)
        return self._extreme(dim, keepdim, np.argmax, ops.MaxDim, MaxResult)

    @numpy_spellings
    def min(self, dim=None, keepdim=False):
        if isinstance(dim, TensorBase):
            return self.minimum(dim)
        if dim is None:
            _check_not_empty("min", self)
            return ops.Min.apply(self)
        return self._extreme(dim, keepdim, np.argmin, ops.MinDim, MinResult)

    def aminmax(self, *args, dim=None, keepdim=False):
        """``(amin, amax)`` in one call, over ``dim`` or all elements."""
        if args:  # (dim= only, by name)
            raise TypeError(f"aminmax() takes 0 positional arguments but {len(args)} was given")
        x = self._data
        if dim is None:
            if x.size == 0:
                raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                                   "operation has no identity.")
            dims = None if x.ndim else ()
        else:
            d = _dim(dim, x.ndim)
            if x.ndim and x.shape[d] == 0:
                raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
            dims = (d,) if x.ndim else ()
        if dims is None and keepdim:
            dims = tuple(range(x.ndim))
        return AminmaxResult(*ops.Aminmax.apply(self, dims, keepdim))

    def dist(self, other, p=2, *, _position=2):
        """The p-norm of ``self - other``."""
        check_tensors("dist", 1, other=other)
        if isinstance(p, (str, bool)) or not isinstance(p, (int, float)):
            raise TypeError(f"dist(): argument 'p' (position {_position}) must be Number, not {type(p).__name__}")
        a, b = (t if t.dtype.is_floating_point else None for t in (self, other))
        if a is None or b is None:
            bad = self if a is None else other
            raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                               f"{bad.dtype.legacy_name} instead.")
        check_broadcast(self._data.shape, other._data.shape)
        return ops.Dist.apply(self, other, float(p))

    def renorm(self, p, dim, maxnorm):
        """Each slice along ``dim`` with a p-norm above ``maxnorm``, scaled to norm maxnorm."""
        if maxnorm < 0:
            raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
        if p <= 0:
            raise RuntimeError("renorm: non-positive-norm not supported")
        if self._data.ndim < 2:
            raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self._data.ndim} dimensions")
        if not self.dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        return ops.Renorm.apply(self, float(p), _dim(dim, self._data.ndim), maxnorm)


    def renorm_(self, p, dim, maxnorm):
        return _inplace.apply(self, lambda t: t.renorm(p, dim, maxnorm))
    def cov(self, *, correction=1, fweights=None, aweights=None):
        """The covariance matrix of the variables in the rows (observations in the columns),
        as PyTorch computes it (so, its graph): optionally weighted by how often each
        observation counts (``fweights``) and by how much (``aweights``)."""
        if self._data.ndim > 2:
            raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input with "
                               f"{self._data.ndim} dimensions")
        if self.dtype is _dtype.bool:
            raise RuntimeError("cov(): bool dtype is not supported for input")
        x = self if self._data.ndim == 2 else self.view(1, -1)
        n = x.shape[1]
        w = None
        for name, given, integral in (("fweights", fweights, True), ("aweights", aweights, False)):
            if given is None:
                continue
            if given._data.ndim > 1:
                raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                                   f"{given._data.ndim} dimensions")
            if integral == given.dtype.is_floating_point or given.dtype is _dtype.bool:
                raise RuntimeError(f"cov(): expected {name} to have {'integral' if integral else 'floating point'} "
                                   f"dtype but got {name} with {given.dtype.legacy_name} dtype")
            if given.numel() != n:
                raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in "
                                   f"the input but got {given.numel()} != {n}")
            if n and given._data.min() < 0:
                raise RuntimeError(f"cov(): {name} cannot be negative")
            w = given if w is None else w * given
        total = w.sum() if w is not None else TensorBase._wrap(np.array(n, np.int64))
        if w is not None and total._data == 0:
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
        mean = (x * w if w is not None else x).sum(1) / total
        if w is not None and aweights is not None and correction != 0:
            norm_factor = total - correction * (w * aweights).sum() / total
        else:
            norm_factor = total - correction
        if norm_factor._data <= 0:
            warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
                          "number of observations.", UserWarning, stacklevel=2)
            norm_factor = norm_factor * 0
        x = x - mean.unsqueeze(1)
        return (x.mm((x * w if w is not None else x).t()) / norm_factor).squeeze()

    def corrcoef(self):
        """The correlation coefficients: cov scaled by the standard deviations, clipped to [-1, 1]."""
        if self._data.ndim > 2:
            raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with "
                               f"{self._data.ndim} dimensions")
        c = self.cov()
        if c._data.ndim == 0:  # one variable: 1, or NaN for a variance of 0, inf or NaN
            return c / c
        stddev = c.diagonal().sqrt()
        c = c / stddev.view(-1, 1)
        c = c / stddev.view(1, -1)
        return c.clip(-1, 1)

    def _extreme(self, dim, keepdim, arg, op, result, name=None):
        if self._data.ndim == 0:  # dim 0 of a 0-d tensor: the value itself, at index 0
            _dim(dim, 0)
            return result(op.apply(self, 0, keepdim, None), _indices(0))
        d = _dim(dim, self._data.ndim)
        _check_reducible(name or result.__name__, self, (d,))
        indices = arg(self._data, axis=d)  # the first of equal extremes, as in PyTorch
        indices = np.expand_dims(indices, d) if keepdim else indices
        return result(op.apply(self, d, keepdim, indices), _indices(indices))

    @numpy_spellings
    def argmax(self, dim=None, keepdim=False):
        if dim is None:
            _check_not_empty("argmax", self, IndexError)
            return _indices(np.argmax(self._data))
        return self._extreme(dim, keepdim, np.argmax, ops.MaxDim, MaxResult, "argmax").indices

    @numpy_spellings
    def argmin(self, dim=None, keepdim=False):
        if dim is None:
            _check_not_empty("argmin", self, IndexError)
            return _indices(np.argmin(self._data))
        return self._extreme(dim, keepdim, np.argmin, ops.MinDim, MinResult, "argmin").indices

    @numpy_spellings
    def amax(self, dim=(), keepdim=False):
        """The largest values over ``dim`` (all dims if empty), without indices; ties share."""
        dims = _dims(dim, self._data.ndim)
        _check_reducible("amax", self, dims)
        return ops.Amax.apply(self, dims or None, keepdim)

    @numpy_spellings
    def amin(self, dim=(), keepdim=False):
        dims = _dims(dim, self._data.ndim)
        _check_reducible("amin", self, dims)
        return ops.Amin.apply(self, dims or None, keepdim)

    # -- along a dimension, for classification ----------------------------------------------
    def softmax(self, dim, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "softmax"))
        d = _dim(dim, x._data.ndim)
        _check_softmax_dtype("softmax", x, d)
        return ops.Softmax.apply(x, d)

    def log_softmax(self, dim, dtype=None):
        x = self if dtype is None else self.to(_dtype.dtype_arg(dtype, "log_softmax"))
        d = _dim(dim, x._data.ndim)
        _check_softmax_dtype("log_softmax", x, d)
        return ops.LogSoftmax.apply(x, d)

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        """Differences of neighbours along ``dim``, ``n`` times over, each ``x[1:] - x[:-1]``
        written with narrow as in PyTorch (SubBackward0 of two SliceBackward0; xor for bools)."""
        if self._data.ndim < 1:
            raise RuntimeError("diff expects input to be at least one-dimensional")
        if n < 0:
            raise RuntimeError(f"order must be non-negative but got {n}")
        for name, other in (("prepend", prepend), ("append", append)):
            if other is not None and not isinstance(other, TensorBase):
                raise TypeError(f"diff(): argument '{name}' must be Tensor, not {typename(other)}")
        if n == 0:  # a copy, prepend and append ignored (as PyTorch: its zeros_like + copy_)
            return self.new_zeros(self.shape).copy_(self)
        x = self
        if prepend is not None or append is not None:
            d = _dim(dim, self._data.ndim)
            for other in (prepend, append):
                if other is not None and other._data.ndim != self._data.ndim:
                    raise RuntimeError("diff expects prepend or append to be the same dimension as input")
                for i in range(self._data.ndim if other is not None else 0):
                    if i != d and other.shape[i] != self.shape[i]:
                        raise RuntimeError(
                            "diff expects the shape of tensor to prepend or append to match that of input "
                            f"except along the differencing dimension; input.size({i}) = {self.shape[i]}, "
                            f"but got tensor.size({i}) = {other.shape[i]}")
            x = ops.Cat.apply(d, *[t for t in (prepend, self, append) if t is not None])
        length = x.shape[_dim(dim, x._data.ndim)] - 1
        for _ in range(min(n, length + 1)):
            later, earlier = x.narrow(dim, 1, length), x.narrow(dim, 0, length)
            x = later.logical_xor(earlier) if x.dtype is _dtype.bool else later - earlier
            length -= 1
        return x


_cumsum_, _cumprod_ = _in_place(ReduceMixin.cumsum), _in_place(ReduceMixin.cumprod)


def _check_not_bool(name, x):
    """A running sum (product) cannot be written back into bools (PyTorch's words)."""
    if x.dtype is _dtype.bool:
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')


def _check_reducible(name, x, dims):
    """PyTorch's errors for the max (amax, argmin...) of nothing: of no elements at all, or over a dim of size 0."""
    if not dims:
        _check_not_empty(name, x)
    elif x._data.size == 0:
        for d in dims:
            if x._data.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _check_not_empty(name, x, error=RuntimeError):
    """PyTorch's error for the max (min, argmax...) of no elements at all."""
    if x._data.size == 0:
        hint = " Specify the reduction dim with the 'dim' argument." if error is RuntimeError else ""
        raise error(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.{hint}")


def _check_softmax_dtype(name, x, dim):
    """PyTorch's softmax takes floats only (or ``dtype=`` to convert first)."""
    if x._data.dtype.kind != "f":
        kernel = f"{name}_lastdim_kernel_impl" if dim == x._data.ndim - 1 else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype.legacy_name}\'')
