"""The ``torch.*`` reductions and statistics written by hand: those that do more than call their
Tensor method (``torch.sum(x, 1)``, ``torch.max``, ``torch.sort``... are made from the table in
_namespace.py): ``std_mean``, ``cdist``, ``searchsorted``, ``trapezoid``...
"""
import numpy as np

from . import _dtype, ops
from ._conventions import check_broadcast
from ._inplace import into_out
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from .core.tensor import TensorBase
from ._conventions import check_tensors

__all__ = ["unique", "bincount", "std_mean", "var_mean", "dist", "cdist", "bucketize", "searchsorted", "trapezoid",
           "trapz", "cumulative_trapezoid"]


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    check_tensors("_unique2" if dim is None else "unique_dim", 1, input=input)
    return input.unique(sorted, return_inverse, return_counts, dim)


def bincount(input, weights=None, minlength=0):
    check_tensors("bincount", 1, input=input)
    if weights is not None:
        check_tensors("bincount", 2, weights=weights)
    return input.bincount(weights, minlength)


def std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(input.std(dim), input.mean(dim))`` in one call (a tuple, as PyTorch's)."""
    correction, dims = _spread_args("std_mean", input, dim, unbiased, keepdim, correction)
    return ops.StdMean.apply(input, dims, correction, keepdim)


def var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(input.var(dim), input.mean(dim))`` in one call."""
    correction, dims = _spread_args("var_mean", input, dim, unbiased, keepdim, correction)
    return ops.VarMean.apply(input, dims, correction, keepdim)


def _spread_args(name, input, dim, unbiased, keepdim, correction):
    """std_mean's and var_mean's checks; their correction and dims."""
    check_tensors(name, 1, input=input)
    if isinstance(dim, bool):  # std_mean(x, False): the old positional ``unbiased``
        dim, unbiased = None, dim
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    correction = (1 if unbiased else 0) if correction is None else correction
    dims = _dims(dim, input._data.ndim)
    if dims is None and keepdim:
        dims = tuple(range(input._data.ndim))
    return correction, dims


def dist(input, other, p=2):
    check_tensors("dist", 1, input=input)
    return input.dist(other, p, _position=3)


_COMPUTE_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                  "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 (..., P, M) and each row of x2 (..., R, M):
    a (..., P, R) tensor. For p = 2 and more than 25 rows (or ``compute_mode=
    "use_mm_for_euclid_dist"``) by a matrix product, as PyTorch: faster, a little less exact."""
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    check_tensors("cdist", 1, x1=x1, x2=x2)
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t._data.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {t.dtype.legacy_name}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype.legacy_name} but found {x2.dtype.legacy_name}")
    check_broadcast(x1.shape[:-2], x2.shape[:-2])
    mode, (r1, r2) = _COMPUTE_MODES[compute_mode], (x1.shape[-2], x2.shape[-2])
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        batch = tuple(np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
        n = int(np.prod(batch, dtype=np.int64))
        if n != 1:  # batches: both expanded to one batch shape and flattened to one batch dim, as PyTorch
            x1 = x1.expand(*batch, *x1.shape[-2:]).contiguous().view(n, *x1.shape[-2:])  # (PyTorch's reshape)
            x2 = x2.expand(*batch, *x2.shape[-2:]).contiguous().view(n, *x2.shape[-2:])
        return ops.EuclideanDist.apply(x1, x2).view(*batch, r1, r2)
    return ops.Cdist.apply(x1, x2, float(p))


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """For each element, the index of the bucket it falls in: how many boundaries are below
    it (``right=True``: at or below it)."""
    if out is not None:
        return into_out(out, "bucketize", lambda: bucketize(input, boundaries, out_int32=out_int32, right=right),
                        input, boundaries, differentiable=False)
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})")
    values = input._data if isinstance(input, TensorBase) else np.asarray(input)
    found = np.searchsorted(boundaries._data, values, side="right" if right else "left")
    return TensorBase._wrap(np.asarray(found, np.int32 if out_int32 else np.int64))


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, out=None, sorter=None):
    """Where each value would go in the sorted sequence (in each row of it, row by row with
    ``values``) to keep it sorted: before equal elements (``side="right"``: after)."""
    if side is not None and side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                           "while right was True")
    side = side or ("right" if right else "left")
    seq = sorted_sequence._data
    v = values._data if isinstance(values, TensorBase) else np.asarray(values)
    if sorter is not None:
        if sorter._data.shape != seq.shape:
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but got "
                               f"boundary tensor {list(seq.shape)}and got sorter tensor {list(sorter._data.shape)}")
        seq = np.take_along_axis(seq, sorter._data, axis=-1)
    if seq.ndim == 1:
        found = np.searchsorted(seq, v, side=side)
    else:
        if v.ndim != seq.ndim or v.shape[:-1] != seq.shape[:-1]:
            raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                               "dimensions of boundaries tensor and input value tensor must match, but we got "
                               f"boundaries tensor {list(seq.shape)} and input value tensor {list(v.shape)}")
        rows = [np.searchsorted(s, r, side=side) for s, r in zip(seq.reshape(-1, seq.shape[-1]),
                                                               v.reshape(-1, v.shape[-1]))]
        found = np.array(rows, dtype=np.int64).reshape(v.shape)
    return TensorBase._wrap(np.asarray(found, np.int32 if out_int32 else np.int64))


_NOT_GIVEN = object()


def trapezoid(y, x=_NOT_GIVEN, *, dx=_NOT_GIVEN, dim=-1):
    """The integral of y along ``dim`` by the trapezoid rule: samples ``dx`` apart (1 by
    default), or at the points ``x``. PyTorch's steps (so, its graph)."""
    d = _trapezoid_dim("trapezoid", y, x, dx, dim)
    if y.shape[d] == 0:  # no samples: 0, as NumPy
        return y.new_zeros(y.shape[:d] + y.shape[d + 1:])
    if x is _NOT_GIVEN:
        dx = 1 if dx is _NOT_GIVEN else float(dx)
        ends = _times(y.select(d, 0) + y.select(d, -1), 0.5)
        return _times(y.sum(d) - ends, dx)
    spacing = _spacing(y, x, d)
    return ops.DivNumber.apply(((y.narrow(d, 1, y.shape[d] - 1) + y.narrow(d, 0, y.shape[d] - 1)) * spacing).sum(d),
                               2.0)


def trapz(y, x=_NOT_GIVEN, *, dx=_NOT_GIVEN, dim=-1):
    _trapezoid_dim("trapz", y, x, dx, dim)
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=_NOT_GIVEN, *, dx=_NOT_GIVEN, dim=-1):
    """trapezoid's running sums: the integral from the first sample to each later one."""
    if isinstance(y, TensorBase) and y.dim() == 0:  # where PyTorch's steps meet a 0-d y:
        if isinstance(x, TensorBase) and x.dim() == 1:  # x's length against y.size(dim 0)
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")  # else y's slices
    d = _trapezoid_dim("cumulative_trapezoid", y, x, dx, dim)
    n = y.shape[d]
    k, start = (n - 1, 1) if n else (0, 0)  # (no samples: empty pieces, and still PyTorch's graph)
    pairs = y.narrow(d, 0, k) + y.narrow(d, start, k)
    if x is _NOT_GIVEN:
        return _times(pairs, (1 if dx is _NOT_GIVEN else float(dx)) / 2.0).cumsum(d)
    return ops.DivNumber.apply((pairs * _spacing(y, x, d)).cumsum(d), 2.0)


def _times(t, number):
    """``t * number`` as C++ records it (MulBackward1: PyTorch's trapezoid is C++), in t's
    dtype if float, else in the default float dtype."""
    if not t.dtype.is_floating_point:
        t = t.to(_dtype.get_default_dtype())
    return ops.MulNumber.apply(t, number)


def _trapezoid_dim(name, y, x, dx, dim):
    """Checks as PyTorch's: its two forms, (y, x) and (y, dx=); then y's dim."""
    Tensor = TensorBase
    if (x is not _NOT_GIVEN and (not isinstance(x, Tensor) or dx is not _NOT_GIVEN)) or not (
            dx is _NOT_GIVEN or isinstance(dx, (int, float, Tensor))):
        got = ["Tensor"] + ([] if x is _NOT_GIVEN else [_type_name(x)])
        got += [] if dx is _NOT_GIVEN else [f"dx={_type_name(dx)}"]
        forms = [" * (Tensor y, Tensor x, *, int dim = -1)\n",
                 f" * (Tensor y, *, {'float' if name == 'trapz' else 'Number'} dx = 1, int dim = -1)\n"]
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({', '.join(got)}), but "
                        "expected one of:\n" + "".join(forms[::-1] if name == "trapz" else forms))
    check_tensors(name, 1, y=y)
    if y._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if y.dtype is _dtype.bool:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    return _dim(dim, y._data.ndim)


def _spacing(y, x, d):
    """The distances between neighbouring sample points ``x``, lined up with y's ``dim``."""
    if x._data.ndim == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        x = x.view([x.shape[0] if i == d else 1 for i in range(y._data.ndim)])
    elif x._data.ndim < y._data.ndim:
        x = x.view([1] * (y._data.ndim - x._data.ndim) + list(x.shape))
    n = x.shape[d]
    k, start = (n - 1, 1) if n else (0, 0)  # (no samples: empty pieces, as in cumulative_trapezoid)
    return x.narrow(d, start, k) - x.narrow(d, 0, k)


def _type_name(a):
    return "Tensor" if isinstance(a, TensorBase) else type(a).__name__
