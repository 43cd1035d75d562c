"""Making tensors: from data, filled with a value, ranges, and random numbers.

Every function takes PyTorch's ``dtype=``, ``device=`` (the CPU only: ``_device.py``) and
``requires_grad=``; the random ones also ``generator=`` (``_random.py``).
"""
import functools
import math
import numbers
import warnings

import numpy as np

from . import _device, _dtype
from ._conventions import C_NAMES as _C_NAMES
from ._conventions import shape_args as _shape_args
from ._conventions import sizes as _sizes
from ._conventions import typename as _typename
from ._conventions import arange_values, empty_in_layout, linspace_values, logspace_values, memory_format_arg
from ._conventions import preserve_format, strided
from ._conventions import strided_zeros
from ._inplace import check_out, write_out
from ._dtype import dtype_arg as _arg
from . import _random
from ._conventions import check_normal_std
from ._tensor import Tensor
from ._tensor import legacy_new as _legacy_new


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists that may hold
    0-d tensors, an array)."""
    if pin_memory:
        _check_layout(None, pin_memory)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                      ".requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
    return _new(_dtype.array_of(data, _arg(dtype, "tensor")), requires_grad, device)


def _new(array, requires_grad, device=None):
    _device.check(device)
    return Tensor._leaf(array, requires_grad)


def _float(dtype, who):
    """The NumPy dtype for ``dtype=`` (a dtype, float, int, bool) or, if None, the default float."""
    return (_arg(dtype, who) or _dtype.get_default_dtype()).np


def _like(t, dtype, who):
    return _arg(dtype, who).np if dtype is not None else t._data.dtype


def _not_for(dtype, kernel):
    """PyTorch's error for a dtype its kernel has no code for (random normals of int64...)."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{dtype.legacy_name}\'')


def _size(sizes, size, who):
    """The shape of zeros, ones, empty: given as ``f(2, 3)``, ``f((2, 3))`` or ``f(size=(2, 3))``."""
    if size is None:
        if not sizes:
            raise TypeError(f'{who}() missing 1 required positional arguments: "size"')
        return _sizes(sizes, who)
    if sizes:
        raise TypeError(f"{who}() got multiple values for argument 'size'")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"{who}(): argument 'size' must be tuple of ints, not {_typename(size)}")
    return _sizes((size,), who)


def _check_layout(layout, pin_memory):
    """``layout=`` and ``pin_memory=``: the only layout is ``torch.strided``; pinned memory is for
    copies to a GPU, which minigrad has not."""
    if layout is not None and layout is not strided:
        raise TypeError(f"layout= must be torch.strided (minigrad's only layout), not {layout!r}")
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
                           "allocator is available on this system.")


def _into(out, who, dtype, requires_grad, make):
    """``out=`` of a creation function: ``make(dtype)`` (by default in out's dtype; another is
    PyTorch's error) written into ``out``, resized to it without a word (unlike an op's out=)."""
    check_out(out, who, f"aten::{who}")
    dtype = _arg(dtype, who)
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {dtype.legacy_name} does not match dtype of out parameter "
                           f"({out.dtype.legacy_name})")
    write_out(out, make(out.dtype), warn=False)
    return out.requires_grad_() if requires_grad else out


# -- filled with a value ----------------------------------------------------------------------

def zeros(*sizes, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """Zeros, of the shape ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))`` says."""
    if out is not None:
        return _into(out, "zeros", dtype, requires_grad, lambda d: zeros(*sizes, size=size, dtype=d))
    _check_layout(layout, pin_memory)
    return _new(np.zeros(_size(sizes, size, "zeros"), _float(dtype, "zeros")), requires_grad, device)


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A tensor laid out by ``stride`` (steps in elements): zeros here, as ``empty``'s."""
    _check_layout(layout, pin_memory)
    array = strided_zeros(tuple(_shape_args((size,))), tuple(_shape_args((stride,))), _float(dtype, "empty_strided"))
    out = _new(array, requires_grad, device)
    out._owns_base = True  # (a view of memory only it has: in-place ops on it are recorded on it)
    return out


def ones(*sizes, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    if out is not None:
        return _into(out, "ones", dtype, requires_grad, lambda d: ones(*sizes, size=size, dtype=d))
    _check_layout(layout, pin_memory)
    return _new(np.ones(_size(sizes, size, "ones"), _float(dtype, "ones")), requires_grad, device)


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    if out is not None:
        return _into(out, "full", dtype, requires_grad, lambda d: full(size, fill_value, dtype=d))
    _check_layout(layout, pin_memory)
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {_typename(size)}")
    if not isinstance(fill_value, (numbers.Number, Tensor)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not {_typename(fill_value)}")
    dtype = _arg(dtype, "full") or _dtype.default_for(fill_value)
    fill_value = _dtype.scalar_for(fill_value, dtype)  # (300 in uint8: PyTorch's error; -1 is 255)
    return _new(np.full(_sizes((size,)), fill_value, dtype.np), requires_grad, device)


def empty(*sizes, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, memory_format=None):
    """Uninitialised memory in PyTorch; zeros here, so that no run depends on leftovers (but an
    ``out`` keeps its values: PyTorch's empty(out=) only resizes it)."""
    if memory_format is not None:
        memory_format_arg(memory_format, "empty")
    if out is not None:
        check_out(out, "empty", "aten::empty")
        return out.resize_(_size(sizes, size, "empty"))
    _check_layout(layout, pin_memory)
    return zeros(_size(sizes, size, "empty"), dtype=_arg(dtype, "empty"), device=device, requires_grad=requires_grad)


def _filled_like(t, value, dtype, memory_format, who):
    """An array of t's shape filled with ``value``, laid out as ``memory_format`` says: by
    default as t (PyTorch's preserve_format: zeros_like of a permuted tensor is permuted)."""
    fmt = preserve_format if memory_format is None else memory_format_arg(memory_format, who)
    out = empty_in_layout(t._data, fmt, _like(t, dtype, who))
    np.copyto(out, _dtype.scalar_for(value, _dtype.from_numpy_dtype(out.dtype)), casting="unsafe")
    return out


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
               memory_format=None):
    if not isinstance(input, Tensor):
        raise TypeError(f"zeros_like(): argument 'input' (position 1) must be Tensor, not {_typename(input)}")
    _check_layout(layout, pin_memory)
    return _new(_filled_like(input, 0, dtype, memory_format, "zeros_like"), requires_grad, device)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
              memory_format=None):
    _check_layout(layout, pin_memory)
    return _new(_filled_like(input, 1, dtype, memory_format, "ones_like"), requires_grad, device)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
              memory_format=None):
    _check_layout(layout, pin_memory)
    return _new(_filled_like(input, fill_value, dtype, memory_format, "full_like"), requires_grad, device)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
               memory_format=None):
    _check_layout(layout, pin_memory)
    return _new(_filled_like(input, 0, _arg(dtype, "empty_like"), memory_format, "empty_like"), requires_grad,
                device)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    if out is not None:
        return _into(out, "eye", dtype, requires_grad, lambda d: eye(n, m, dtype=d))
    _check_layout(layout, pin_memory)
    for k in (n, m):
        if k is not None and k < 0:
            raise RuntimeError(f"{'n' if k is n else 'm'} must be greater or equal to 0, got {k}")
    return _new(np.eye(n, m, dtype=_float(dtype, "eye")), requires_grad, device)


# -- ranges -------------------------------------------------------------------------------------

def arange(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
           pin_memory=False):
    if out is not None:
        return _into(out, "arange", dtype, requires_grad, lambda d: arange(start, end, step, dtype=d))
    _check_layout(layout, pin_memory)
    if end is None:
        start, end = 0, start
    dtype = _arg(dtype, "arange")
    if dtype is _dtype.bool:
        raise _not_for(dtype, "arange_cpu")
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = _dtype.int64 if is_int else _dtype.get_default_dtype()
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is _dtype.int64 and all(v.__class__ is int for v in (start, end, step)):
        values = np.arange(start, end, step, dtype=np.int64)  # (the common case, exact)
    else:
        values = arange_values(start, end, step, dtype)
    return _new(values, requires_grad, device)


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """Deprecated by PyTorch: ``start`` to ``end`` *inclusive* in steps of ``step``, as the
    default float dtype unless ``dtype`` says otherwise (``arange`` stops before ``end``)."""
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    warnings.warn(_RANGE_WARNING, UserWarning, stacklevel=2)
    _device.check(device)
    make = lambda d: _new(_inclusive_range(start, end, step, d), False)  # noqa: E731
    if out is not None:
        return _into(out, "range", dtype, requires_grad, make)
    _check_layout(layout, pin_memory)
    return make(_arg(dtype, "range") or _dtype.get_default_dtype()).requires_grad_(requires_grad)


_RANGE_WARNING = ("torch.range is deprecated and will be removed in a future release because its behavior "
                  "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
                  "values in [start, end).")


def _inclusive_range(start, end, step, dtype):
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not dtype.is_floating_point:  # (C's conversion to int64: toward zero, so a step of 0.5 is 0)
        start, end, step = int(start), int(end), int(step)
    if not (step > 0 and end >= start or step < 0 and end <= start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int((end - start) / step + 1)  # (the end counts)
    acc = np.float32 if dtype.np == np.float16 else np.float64  # (PyTorch's accumulate type on CPU)
    return (acc(start) + np.arange(n, dtype=acc) * acc(step)).astype(dtype.np)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """``steps`` evenly spaced values from start to end. As PyTorch computes them: the first
    half counted up from ``start``, the second half down from ``end``, so that a range
    symmetric about 0 comes out exactly symmetric (NumPy's ``start + i * step`` does not)."""
    if out is not None:
        return _into(out, "linspace", dtype, requires_grad, lambda d: linspace(start, end, steps, dtype=d))
    _check_layout(layout, pin_memory)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    np_dtype = _float(dtype, "linspace")
    if np_dtype == np.bool_:
        raise _not_for(_dtype.bool, "linspace_cpu")
    return _new(linspace_values(start, end, steps, np_dtype), requires_grad, device)


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    if out is not None:
        return _into(out, "logspace", dtype, requires_grad, lambda d: logspace(start, end, steps, base, dtype=d))
    _check_layout(layout, pin_memory)
    np_dtype = _float(dtype, "logspace")
    if np_dtype == np.bool_:
        raise _not_for(_dtype.bool, "logspace_cpu")
    return _new(logspace_values(start, end, steps, base, np_dtype), requires_grad, device)


def from_numpy(array):
    """A tensor sharing memory with ``array``: changes to one show in the other."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_typename(array)})")
    return Tensor._wrap(_shareable(array))


def as_tensor(data, *, dtype=None, device=None):
    """``data`` as a tensor, copied only where it must be: a tensor of that dtype is returned
    itself (another dtype: ``data.to(dtype)``, which keeps the graph); a NumPy array of that
    dtype shares its memory, as ``from_numpy``; lists and numbers are copied, as ``tensor()``."""
    dtype = _arg(dtype, "as_tensor")
    if isinstance(data, Tensor):
        _device.check(device)
        return data if dtype is None else data.to(dtype)
    if _shares(data, dtype):
        return _new(_shareable(data), False, device)
    return _new(_copy_of(data, dtype), False, device)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """``obj`` as a tensor: ``copy=None`` shares memory with a tensor or a NumPy array where it
    can (as ``as_tensor``), ``copy=True`` always copies, ``copy=False`` never does (and raises
    PyTorch's error where it would have to). ``requires_grad=None`` keeps a tensor's."""
    dtype = _arg(dtype, "asarray")
    if isinstance(obj, Tensor):
        if requires_grad is None:  # PyTorch 2.13 changed this default from False, and says so once
            if obj.requires_grad and not _warned:
                _warned.append(True)
                warnings.warn(_ASARRAY_WARNING, UserWarning, stacklevel=2)
            requires_grad = obj.requires_grad
        converts = dtype is not None and dtype is not obj.dtype
        if copy is False and converts:
            raise ValueError(f"can't alias tensor with dtype '{obj.dtype.legacy_name}' into dtype "
                             f"'{dtype.legacy_name}'.")
        _device.check(device)
        if copy or converts:  # a copy keeps the graph only if it is to require grad
            t = (obj if requires_grad else obj.detach()).to(dtype or obj.dtype, copy=True)
        else:  # obj itself; but a result with history cannot just drop it
            t = obj if requires_grad or obj.is_leaf else obj.detach()
        if not t.is_leaf:
            return t
        if requires_grad and not t.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        return t.requires_grad_(requires_grad)
    if copy is False:
        if isinstance(obj, np.generic):
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or transform it "
                               "in a ndarray. ")
        if not isinstance(obj, np.ndarray):
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        if dtype is not None and not _shares(_checked(obj), dtype):
            mine = _dtype.from_numpy_dtype(obj.dtype)
            raise ValueError(f"can't alias tensor with dtype '{mine.legacy_name}' into dtype "
                             f"'{dtype.legacy_name}'.")
        return _new(_shareable(obj), requires_grad, device)
    if _shares(obj, dtype) and not copy:
        return _new(_shareable(obj), requires_grad, device)
    return _new(_copy_of(obj, dtype), requires_grad, device)


_ASARRAY_WARNING = ("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead "
                   "of False. Pass requires_grad=False explicitly to get the old behavior and silence "
                   "this warning.")
_warned = []  # (once per process, as PyTorch's TORCH_WARN_ONCE)


def _shares(data, dtype):
    """Whether a tensor of ``dtype`` (None: any) can share the memory of ``data``."""
    return (isinstance(data, np.ndarray) and data.dtype in _dtype.NUMPY_DTYPES
            and dtype in (None, _dtype.from_numpy_dtype(data.dtype)))


def _shareable(array):
    """``array`` itself if a tensor can hold its memory; else PyTorch's error."""
    if _checked(array).dtype not in _dtype.NUMPY_DTYPES:
        raise _unsupported(array)
    return array


def _copy_of(data, dtype):
    """A copy of ``data`` as ``tensor()`` makes it, after PyTorch's checks of an array."""
    return _dtype.array_of(_checked(data) if isinstance(data, np.ndarray) else data, dtype)


def _checked(array):
    """``array``, or PyTorch's error for an array no tensor is made from (a dtype that is not
    a number, negative strides, the other byte order)."""
    if array.dtype.kind not in "fciub":
        raise _unsupported(array)
    return _dtype.check_layout(array)


_unsupported = _dtype.unsupported  # (the TypeError for an array of a dtype no tensor holds)


# -- random -------------------------------------------------------------------------------------
# Each draws as PyTorch does (_random.py): randn fills a new tensor with normal_(0, 1), rand
# with uniform_(0, 1), randint with random_(low, high), in its order, from ``generator``.

def _random_float(dtype, who, kernel):
    """The NumPy dtype of random floats: PyTorch draws normal or uniform numbers as floats only."""
    dtype = _arg(dtype, who) or _dtype.get_default_dtype()
    if not dtype.is_floating_point:
        raise _not_for(dtype, kernel)
    return dtype.np


def randn(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False):
    """Normal numbers: ``randn(2, 3)``, ``randn((2, 3))`` or ``randn(size=(2, 3))``."""
    if out is not None:
        return _into(out, "randn", dtype, requires_grad,
                     lambda d: randn(*sizes, size=size, generator=generator, dtype=d))
    _check_layout(layout, pin_memory)
    shape = _size(sizes, size, "randn")
    np_dtype = _random_float(dtype, "randn", "normal_kernel_cpu")
    values = _random.normal(_random.generator_of(generator), math.prod(shape), np_dtype)
    return _new(values.reshape(shape), requires_grad, device)


def rand(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False):
    """Uniform numbers in [0, 1): ``rand(2, 3)``, ``rand((2, 3))`` or ``rand(size=(2, 3))``."""
    if out is not None:
        return _into(out, "rand", dtype, requires_grad,
                     lambda d: rand(*sizes, size=size, generator=generator, dtype=d))
    _check_layout(layout, pin_memory)
    shape = _size(sizes, size, "rand")
    np_dtype = _random_float(dtype, "rand", "check_uniform_bounds")
    values = _random.uniform(_random.generator_of(generator), math.prod(shape), np_dtype)
    return _new(values.reshape(shape), requires_grad, device)


def randn_like(t, dtype=None, device=None, requires_grad=False, memory_format=None, *, generator=None):
    """(Row by row whatever ``memory_format`` says: PyTorch's keeps t's layout, and draws in
    that order: a known difference.)"""
    if memory_format is not None:
        memory_format_arg(memory_format, "randn_like")
    dtype = _arg(dtype, "randn_like") or t.dtype
    return randn(*t.shape, dtype=dtype, device=device, requires_grad=requires_grad, generator=generator)


def rand_like(t, dtype=None, device=None, requires_grad=False, memory_format=None, *, generator=None):
    if memory_format is not None:
        memory_format_arg(memory_format, "rand_like")
    dtype = _arg(dtype, "rand_like") or t.dtype
    return rand(*t.shape, dtype=dtype, device=device, requires_grad=requires_grad, generator=generator)


def randint(low, high=None, size=(), *, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False, pin_memory=False):
    """Integers in ``[low, high)``: ``randint(10, (3,))`` or ``randint(0, 10, (3,))``."""
    if isinstance(high, (tuple, list)):  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None:  # randint(high, size=size)
        low, high = 0, low
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if out is not None:
        return _into(out, "randint", dtype, requires_grad,
                     lambda d: randint(low, high, size, generator=generator, dtype=d))
    _check_layout(layout, pin_memory)
    shape = _shape_args((size,))
    dtype = _arg(dtype, "randint") or _dtype.int64
    if dtype._category == 1 and dtype is not _dtype.int64:
        info = np.iinfo(dtype.np)
        for bound, value in (("from", low), ("to - 1", high - 1)):
            if not info.min <= value <= info.max:
                raise RuntimeError(f"{bound} is out of bounds for {_C_NAMES[dtype.name]}")
    values = _random.random_from_to(_random.generator_of(generator), math.prod(shape), dtype, low, high)
    return _new(values.reshape(shape), requires_grad, device)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, device=None, requires_grad=False,
                 memory_format=None):
    """Integers in ``[low, high)`` (``randint_like(t, high)``: ``[0, high)``), in ``input``'s shape
    and, unless ``dtype`` says otherwise, its dtype (floats holding whole numbers, for a float input)."""
    if memory_format is not None:
        memory_format_arg(memory_format, "randint_like")
    low, high = (0, low) if high is None else (low, high)
    dtype = _arg(dtype, "randint_like") or input.dtype
    return randint(low, high, tuple(input.shape), generator=generator, dtype=dtype, device=device,
                   requires_grad=requires_grad)


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """0, ..., n - 1 in a random order (PyTorch's shuffle: see _random.randperm)."""
    if out is not None:
        return _into(out, "randperm", dtype, requires_grad, lambda d: randperm(n, generator=generator, dtype=d))
    _check_layout(layout, pin_memory)
    dtype = _arg(dtype, "randperm") or _dtype.int64
    if dtype is _dtype.bool:
        raise _not_for(dtype, "randperm")
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    values = _random.randperm(_random.generator_of(generator), n).astype(dtype.np)
    return _new(values, requires_grad, device)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False):
    """Normal samples: ``normal(mean_tensor, std)`` draws one per element (mean and std may be
    tensors or numbers, broadcast together), ``normal(0.0, 1.0, size=(2, 3))`` a fresh tensor.
    As PyTorch: normal numbers of mean 0 (and std ``std`` if it is a number), then times a
    tensor ``std`` and plus ``mean``, in the result's dtype."""
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    if not tensors and size is None:
        raise TypeError("normal() received an invalid combination of arguments - got (float, float), "
                        "but expected one of: (Tensor mean, Tensor std), (Tensor mean, float std), "
                        "(float mean, Tensor std), (float mean, float std, tuple of ints size)")
    if isinstance(std, Tensor) and (std._data < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if not isinstance(std, Tensor):
        check_normal_std(std)
    if out is not None:
        return _into(out, "normal", dtype, requires_grad,
                     lambda d: normal(mean, std, size, generator=generator, dtype=d))
    _check_layout(layout, pin_memory)
    g = _random.generator_of(generator)
    if not tensors:  # normal(mean, std, size): a fresh tensor filled with normal_(mean, std)
        shape = _shape_args((size,))
        np_dtype = _random_float(dtype, "normal", "normal_kernel_cpu")
        return _new(_random.normal(g, math.prod(shape), np_dtype, mean, std).reshape(shape), requires_grad, device)
    m, s = (np.asarray(v._data if isinstance(v, Tensor) else v) for v in (mean, std))
    shape = np.broadcast_shapes(m.shape, s.shape)
    np_dtype = tensors[0]._data.dtype if dtype is None else _random_float(dtype, "normal", "normal_kernel_cpu")
    scale = 1.0 if isinstance(std, Tensor) else std
    values = _random.normal(g, math.prod(shape), np_dtype, 0.0, scale).reshape(shape)
    if isinstance(std, Tensor):
        values = values * s.astype(np_dtype)
    values = (values + m.astype(np_dtype)).astype(np_dtype)
    return _new(values, requires_grad, device)


# -- the legacy tensor types: torch.FloatTensor and co ----------------------------------------

class tensortype(type):
    """The type of ``torch.FloatTensor`` and PyTorch's other legacy tensor types, which old
    code still uses. Calling one makes a tensor of its dtype: ``torch.FloatTensor([1, 2])``
    from data, ``torch.FloatTensor(2, 3)`` uninitialised (zeros here, as ``empty``); see
    ``legacy_new`` in _tensor.py, which ``torch.Tensor(...)`` also calls.
    ``isinstance(t, torch.FloatTensor)`` asks whether ``t`` is a float32 tensor; the tensor
    itself is a plain Tensor (``type(t)`` is ``torch.Tensor``)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args, **kwargs):
        return _legacy_new(cls.dtype, args, kwargs)


FloatTensor, DoubleTensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, BoolTensor, HalfTensor = (
    tensortype(d.tensor_type.split(".")[1], (), {"dtype": d, "is_cuda": False, "__module__": "minigrad"})
    for d in _dtype.DTYPES)


# -- out of memory: PyTorch's RuntimeError, not NumPy's MemoryError ------------------------------

def _cannot_allocate(make):
    """``make`` (a creation function), failing as PyTorch's CPU allocator fails on a size the
    machine cannot hold: a RuntimeError that says how many bytes were asked for, and on a size
    that overflows 64 bits, PyTorch's "Storage size calculation overflowed" (NumPy's MemoryError
    and ValueError would be a traceback through NumPy)."""
    @functools.wraps(make)
    def creating(*args, **kwargs):
        try:
            return make(*args, **kwargs)
        except MemoryError as e:
            shape, np_dtype = getattr(e, "shape", None), getattr(e, "dtype", None)
            if shape is None:
                raise
            dtype = _arg(kwargs.get("dtype"), make.__name__)
            if dtype is not None:
                itemsize = dtype.np.itemsize
            elif np_dtype == np.uint64:  # the generator's raw draws: the tensor is int64 or the default float
                itemsize = 8 if make.__name__ == "randint" else _dtype.get_default_dtype().np.itemsize
            else:
                itemsize = np_dtype.itemsize
            raise RuntimeError(f"[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't "
                               f"allocate memory: you tried to allocate {math.prod(shape) * itemsize} bytes. "
                               f"Error code 12 (Cannot allocate memory)") from None
        except ValueError as e:
            if not str(e).startswith("array is too big") and "maximum supported dimension" not in str(e):
                raise
            sizes = kwargs.get("size") or (args[0] if len(args) == 1 and isinstance(args[0], (tuple, list))
                                           else args)
            raise RuntimeError("Storage size calculation overflowed with sizes="
                               f"[{', '.join(str(int(s)) for s in sizes)}]") from None
    return creating


zeros, ones, full, empty, randn, rand, randint = (
    _cannot_allocate(f) for f in (zeros, ones, full, empty, randn, rand, randint))
