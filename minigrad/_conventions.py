"""PyTorch's conventions for arguments, and its error messages for the ones that break them.

Nothing here knows about tensors or autograd: these functions take dims, shapes and
indices, normalise them the way PyTorch does (negative dims, ``f(2, 3)`` or ``f((2, 3))``)
and raise PyTorch's exception, with PyTorch's words, where NumPy would raise its own.
"""
import math
import operator

import numpy as np

# The core's (minigrad/core/), named here too for the modules that use them
from .core.node import INFERENCE_SAVED  # noqa: F401
from .core.numpy_errors import IGNORE_ALL, numpy_errors, quiet, quietly  # noqa: F401
from .core.ops.linalg import check_broadcast, check_matmul_shapes  # noqa: F401
from .core.tensor import INFERENCE_REQUIRES_GRAD, LEAF_GRAD_WARNING  # noqa: F401
from .core.tensor import TensorBase

# What PyTorch says when an inference tensor (made under inference_mode) is used outside it.
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
    "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
    "for more details.")
# A view made under no_grad, changed in place (directly, or through its base or another view)
_NO_GRAD_VIEW_ADVICE = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
    "moving both the view and the inplace either both inside the no_grad block (if you don't want the "
    "inplace to be tracked) or both outside (if you want the inplace to be tracked).")
NO_GRAD_VIEW_INPLACE = ("A view was created in no_grad mode and is being modified inplace with grad mode "
                        "enabled. " + _NO_GRAD_VIEW_ADVICE)
NO_GRAD_VIEW_BASE_CHANGED = ("A view was created in no_grad mode and its base or another view of its base has "
                             "been modified inplace with grad mode enabled. " + _NO_GRAD_VIEW_ADVICE)


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self):
        return f"torch.Size({list(self)})"

    def numel(self):
        return int(np.prod(self, dtype=np.int64))

    def __getitem__(self, key):
        item = super().__getitem__(key)
        return Size(item) if isinstance(key, slice) else item


class ReturnType(tuple):
    """A tuple whose parts have names: what ``max(dim)`` (values, indices), ``aminmax`` (min,
    max), ``linalg.qr`` (Q, R)... return. Each kind is its own class, named and printed as
    PyTorch's (``torch.return_types.max(values=..., indices=...)``); made by ``return_type``."""
    __slots__ = ()
    _fields = ()

    def __new__(cls, *parts):
        return super().__new__(cls, parts)

    def __getnewargs__(self):  # (copy and pickle pass the parts one by one, as __new__ takes them)
        return tuple(self)

    def __repr__(self):
        parts = ",\n".join(f"{name}={part!r}" for name, part in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{parts})"


RETURN_TYPES = {}  # name -> class: what minigrad.return_types holds (where pickle looks them up)


def return_type(name, fields="values indices"):
    """The ReturnType ``torch.return_types.<name>``, with a property per field."""
    attrs = {"__module__": "minigrad.return_types", "__slots__": (), "_fields": tuple(fields.split())}
    for i, field in enumerate(attrs["_fields"]):
        attrs[field] = property(operator.itemgetter(i))
    RETURN_TYPES[name] = cls = type(name, (ReturnType,), attrs)
    return cls


MaxResult, MinResult, SortResult, TopkResult = map(return_type, ("max", "min", "sort", "topk"))
MedianResult = return_type("median")
CummaxResult, CumminResult, KthvalueResult, ModeResult, NanmedianResult = map(
    return_type, ("cummax", "cummin", "kthvalue", "mode", "nanmedian"))
AminmaxResult = return_type("aminmax", "min max")
FrexpResult = return_type("frexp", "mantissa exponent")
HistogramResult = return_type("histogram", "hist bin_edges")


def typename(x):
    """A value's type as PyTorch's argument errors name it: ``list``, ``numpy.ndarray``."""
    cls = type(x)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


# -- dimensions and shapes --------------------------------------------------------------------

def dim(d, ndim):
    """Normalise a possibly negative dimension, with PyTorch's error when out of range."""
    lo, hi = (-ndim, ndim - 1) if ndim else (-1, 0)
    if not lo <= d <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {d})")
    return d % max(ndim, 1)


def dims(d, ndim):
    """``dim=`` of a reduction: None (all), one dim or several, as a tuple of normalised dims."""
    if d is None:
        return None
    if ndim == 0:  # a 0-d tensor accepts dim 0 or -1 and has nothing to reduce
        dims(d, 1)
        return ()
    if not isinstance(d, (tuple, list)):
        return (dim(d, ndim),)
    out = tuple(dim(i, ndim) for i in d)
    if len(set(out)) < len(out):
        repeated = next(x for i, x in enumerate(out) if x in out[:i])
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return out


def shape_args(shape):
    """Accept ``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])``, as PyTorch does."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(map(int, shape))


def sizes(shape, who=None):
    """The shape of a new tensor, refused as PyTorch refuses it if a size is negative."""
    shape = shape_args(shape)
    for s in shape:
        if s < 0:
            if who == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    return shape


def new_shape(shape, size):
    """The shape ``view``/``reshape`` asked for, with its one ``-1`` worked out from ``size``."""
    shape = shape_args(shape)
    if math.prod(shape) == size and min(shape, default=0) >= 0:  # every size given, and right
        return shape
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for i, s in enumerate(shape):
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {shape}")
    if shape.count(-1) == 1 and 0 not in shape:
        known = math.prod([s for s in shape if s != -1])
        if known and size % known == 0:
            shape[shape.index(-1)] = size // known
    if shape.count(-1) or math.prod(shape) != size:
        raise RuntimeError(f"shape '[{', '.join(map(str, shape_args(shape)))}]' is invalid "
                           f"for input of size {size}")
    return tuple(shape)


def linspace_values(start, end, steps, np_dtype):
    """``steps`` evenly spaced values from start to end, as PyTorch's CPU kernel computes them
    (native/cpu/RangeFactoriesKernel.cpp): the first half counted up from ``start``, the second
    half down from ``end`` (so that a range symmetric about 0 comes out exactly symmetric), each
    as one fused multiply-add. A float dtype computes in itself (its step too); an integer dtype
    in double, cut toward zero at the end."""
    if steps == 1:
        return np.full(1, start, dtype=np_dtype)
    np_dtype = np.dtype(np_dtype)
    floating = np_dtype.kind == "f"
    start, end = (np_dtype.type(start), np_dtype.type(end)) if floating else (int(start), int(end))
    step = (end - start) / (np_dtype.type(steps - 1) if floating else steps - 1)
    i = np.arange(steps)
    half = steps // 2
    if np_dtype == np.float16:  # (each operation rounded to float16: c10::Half's operators)
        i = i.astype(np.float16)
        return np.concatenate([start + step * i[:half], end - step * (np.float16(steps - 1) - i[half:])])
    values = np.concatenate([_fma(step, i[:half], start), _fma(-step, steps - 1 - i[half:], end)])
    return values.astype(np_dtype) if floating else np.trunc(values).astype(np_dtype)


def logspace_values(start, end, steps, base, np_dtype):
    """``base`` to the power of ``steps`` evenly spaced exponents, as PyTorch computes them
    (native/RangeFactories.cpp): the exponents in double, counted up from ``start`` and down
    from ``end`` as linspace's (but multiplied and added apart: that file is compiled for any
    CPU, without fused multiply-adds), then C's ``pow`` (Python's ``math.pow``; NumPy's SIMD
    power differs in the last bit)."""
    np_dtype = np.dtype(np_dtype)
    if steps == 1:
        exponents = [float(start)]
    else:
        start, end = (np_dtype.type(start), np_dtype.type(end)) if np_dtype.kind == "f" else (int(start), int(end))
        step = float(end - start) / (steps - 1)
        i = np.arange(steps)
        half = steps // 2
        exponents = np.concatenate([float(start) + step * i[:half], float(end) - step * (steps - 1 - i[half:])])
    values = np.array([math.pow(base, x) for x in exponents], dtype=np.float64)
    return values.astype(np_dtype) if np_dtype.kind == "f" else np.trunc(values).astype(np_dtype)


def arange_values(start, end, step, dtype):
    """The values of ``torch.arange(start, end, step, dtype=dtype)`` as PyTorch's CPU kernel
    computes them (aten/src/ATen/native/RangeFactories.cpp, native/cpu/RangeFactoriesKernel.cpp).

    Integer dtypes: start and step are cut to integers first (0.5 becomes 0). Floating dtypes:
    in double, each value ``start + step * i`` rounded once (the compiler fuses the multiply and
    the add), except that the kernel fills 32 bytes at a time: it computes the first value of
    each 32-byte group so, rounds it to the dtype, and counts the rest of the group on from that
    (``first + step * k``); the last elements (fewer than two groups) it computes one by one.
    (float16 the same way in float32, 16 to a group.)
    So ``arange(-8.0, 8.0, 0.1)[80]`` is 4.4409e-16, not 0: the product 0.1 * 80 is not
    rounded before -8 is added."""
    if not dtype.is_floating_point:
        first, stride = int(start), int(step)  # (C's conversion: toward zero)
        if dtype.np == np.int64:
            if stride == 0:
                raise ValueError("step must be nonzero")
            sign = 1 if stride > 0 else -1
            n = int((int(end) - first + stride - sign) / stride)
        else:
            n = math.ceil((end - start) / step)
        return (first + stride * np.arange(n, dtype=np.int64)).astype(dtype.np)
    n = math.ceil((end - start) / step)
    acc = np.float32 if dtype.np == np.float16 else np.float64  # (PyTorch's accumulate type on CPU)
    start, step = acc(start), acc(step)
    group = 32 // np.dtype(dtype.np).itemsize  # values per 32-byte vector: 8 float32, 4 float64
    grouped = n // (2 * group) * (2 * group)  # (two vectors at a time)
    firsts = _fma(step, np.arange(0, grouped, group), start).astype(acc).astype(dtype.np)
    counted = _fma(np.arange(group), step, firsts.astype(np.float64)[:, None])
    rest = _fma(step, np.arange(grouped, n), start)
    return np.concatenate([counted.ravel(), rest]).astype(acc).astype(dtype.np)


def _fma(a, b, c):
    """``a * b + c`` rounded once, as a fused multiply-add does (float64 arrays). The product's
    rounding error is recovered exactly (Dekker's split into halves of 26 bits), as is the sum's
    (Knuth's two-sum), and both are added back."""
    a, b, c = np.broadcast_arrays(np.float64(a), np.float64(b), np.float64(c))
    product = a * b
    (a_hi, a_lo), (b_hi, b_lo) = _halves(a), _halves(b)
    product_error = ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    total = product + c
    part = total - product
    sum_error = (product - (total - part)) + (c - part)
    return total + (sum_error + product_error)


def _halves(x):
    """``x`` as hi + lo exactly, each with at most 26 significant bits (Veltkamp's split)."""
    scaled = 134217729.0 * x  # 2**27 + 1
    hi = scaled - (scaled - x)
    return hi, x - hi


def reshape_is_view(array, shape):
    """Whether NumPy can reshape without copying (PyTorch's view() works exactly then)."""
    try:
        array.reshape(shape, copy=False)
        return True
    except ValueError:
        return False


# -- errors for operands that do not fit -------------------------------------------------------

ADDCDIV_INTEGER = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
    "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
    "inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
    "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")


def check_expand(shape, target, tensor_type="torch.FloatTensor"):
    """PyTorch's error for ``expand`` (and ``x[key] = value``) to a shape ``shape`` cannot reach."""
    lead = len(target) - len(shape)
    if lead < 0:
        raise RuntimeError(f"expand({tensor_type}{{{list(shape)}}}, size={list(target)}): the number "
                           f"of sizes provided ({len(target)}) must be greater or equal to the number "
                           f"of dimensions in the tensor ({len(shape)})")
    for i, size in reversed(list(enumerate(shape))):  # PyTorch names the last mismatch
        if size != 1 and size != target[i + lead]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[i + lead]}) must match the existing size "
                f"({size}) at non-singleton dimension {i + lead}.  Target sizes: {list(target)}.  "
                f"Tensor sizes: {list(shape)}")


def check_matmul_dtypes(a, b, ndim_a, ndim_b):
    """PyTorch's error for ``a @ b`` on two dtypes (each form of matmul words it its own way)."""
    if a is b:
        return
    if ndim_a == 1 and ndim_b == 1:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {a.legacy_name} "
                           f"and {b.legacy_name}")
    if ndim_b == 1:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {b.legacy_name}, "
                           f"{a.legacy_name}, and {b.legacy_name}")
    if ndim_b == 2:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {C_NAMES[a.name]} != "
                           f"{C_NAMES[b.name]}")
    raise RuntimeError(f"expected scalar type {a.legacy_name} but found {b.legacy_name}")


# The C++ names PyTorch's messages give some dtypes ("expected ... but got: double != float").
C_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "int16": "short int",
           "int8": "signed char", "uint8": "unsigned char", "bool": "bool", "float16": "c10::Half"}


def check_index(shape, key):
    """PyTorch's error for a key ``x[key]`` cannot take (NumPy would raise its own, or
    accept a float or a negative step). ``key``: a tuple of ints, slices, None, ``...``,
    and arrays (what tensors and lists in the key became)."""
    used = 0  # how many of the tensor's dimensions the key indexes
    for k in key:
        if isinstance(k, slice):
            if k.step is not None and k.step <= 0:
                raise ValueError("step must be greater than zero" if k.step else "slice step cannot be zero")
            used += 1
        elif isinstance(k, np.ndarray):
            if k.dtype.kind not in "iub" or k.dtype.kind == "i" and k.dtype.itemsize < 4:  # (int8, int16)
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            used += k.ndim if k.dtype == np.bool_ else 1
        elif isinstance(k, (int, np.integer)):
            used += not isinstance(k, (bool, np.bool_))  # True/False index no dimension
        elif k is not None and k is not Ellipsis:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             f"Variables are valid indices (got {type(k).__name__})")
    if used > len(shape):
        first = next(k for k in key if k is not None and k is not Ellipsis)
        if not shape and isinstance(first, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if not shape and isinstance(first, (int, np.integer)):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    d = advanced = 0  # the dimension the next element indexes; how many arrays came before
    for k in key:
        if k is None:
            continue
        if k is Ellipsis:
            d = len(shape) - sum(1 for j in key if j is not None and j is not Ellipsis)
            continue
        if isinstance(k, np.ndarray) and k.dtype == np.bool_:
            for i, n in enumerate(k.shape):
                if n != shape[d + i]:
                    raise IndexError(f"The shape of the mask {list(k.shape)} at index {i} does not "
                                     f"match the shape of the indexed tensor {list(shape)} at index {d + i}")
            d += k.ndim
            continue
        if isinstance(k, np.ndarray):  # PyTorch counts an array's dimension among the arrays
            bad = k[(k < -shape[d]) | (k >= shape[d])]
            if bad.size:
                raise IndexError(f"index {bad.flat[0]} is out of bounds for dimension {advanced} "
                                 f"with size {shape[d]}")
            advanced += 1
        elif isinstance(k, (int, np.integer)) and not isinstance(k, bool) and not -shape[d] <= k < shape[d]:
            raise IndexError(f"index {k} is out of bounds for dimension {d} with size {shape[d]}")
        d += not isinstance(k, (bool, np.bool_))


# -- memory layout ----------------------------------------------------------------------------

class memory_format:
    """How a copy lays out its elements in memory (``x.clone(memory_format=...)``):
    ``torch.preserve_format`` as the input (a permuted tensor's clone is permuted too),
    ``torch.contiguous_format`` row by row, ``torch.channels_last`` (4-D: N, C, H, W) with
    the channels of each pixel side by side."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")


class layout:
    """How a tensor's elements are stored: ``torch.strided`` (dense, with strides) is minigrad's
    only layout (PyTorch has sparse ones too); ``x.layout`` answers it."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


strided = layout("strided")


def memory_format_arg(fmt, who):
    """``memory_format=``, checked as PyTorch checks it."""
    if not isinstance(fmt, memory_format):
        raise TypeError(f"{who}(): argument 'memory_format' must be torch.memory_format, not {typename(fmt)}")
    return fmt


def empty_in_layout(array, fmt, dtype):
    """An uninitialised array of ``array``'s shape, laid out as ``fmt`` says."""
    if fmt is channels_last:
        if array.ndim != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        n, c, h, w = array.shape
        return np.empty((n, h, w, c), dtype).transpose(0, 3, 1, 2)
    if fmt is preserve_format and 0 in array.strides and array.size > 1:
        return _expanded_layout(array, dtype)
    return np.empty_like(array, dtype, order="K" if fmt is preserve_format else "C")


def strided_zeros(shape, stride, dtype):
    """Zeros of ``shape`` laid out by ``stride`` (in elements, as PyTorch counts them), in memory
    just large enough, its first element first: ``torch.empty_strided``'s memory."""
    if len(shape) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(shape)}) must match dimensionality of "
                           f"strides ({len(stride)})")
    if any(n < 0 for n in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)} and "
                           f"strides={list(stride)}")
    dtype = np.dtype(dtype)
    span = 1 + sum((n - 1) * s for n, s in zip(shape, stride)) if all(shape) else 0
    return np.ndarray(shape, dtype, buffer=np.zeros(span, dtype), strides=[s * dtype.itemsize for s in stride])


def _expanded_layout(array, dtype):
    """An empty array laid out as PyTorch lays out the copy of an expanded one (its
    ``infer_dense_strides``): dims ordered by stride, but a 0 stride compares with none, so
    that the dims keep their row-by-row order there (NumPy's order "K" puts them last)."""
    strides, shape = array.strides, array.shape
    order = list(range(array.ndim))[::-1]  # the fastest dim first

    def swap(d0, d1):  # 1: d1 goes before d0; -1: it stays after; 0: no telling, go on
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return 1 if s0 > s1 else -1
        return 1 if shape[d0] > shape[d1] else 0
    for i in range(1, array.ndim):  # PyTorch's insertion sort
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = swap(order[d0], order[d1])
            if c > 0:
                order[d0], order[d1] = order[d1], order[d0]
                d1 = d0
            elif c < 0:
                break
    slowest_first = order[::-1]
    laid_out = np.empty([shape[d] for d in slowest_first], dtype).transpose(np.argsort(slowest_first))
    return np.empty_like(laid_out, order="K")  # (an array of its own, not a view of another)


def copy_in_layout(array, fmt):
    """A copy of ``array`` laid out as ``fmt`` says (NumPy's order "K" keeps its layout)."""
    if fmt is preserve_format and 0 in array.strides and array.size > 1:
        out = _expanded_layout(array, array.dtype)
        out[...] = array
        return out
    if fmt is preserve_format or fmt is contiguous_format:
        return array.copy("K" if fmt is preserve_format else "C")
    out = empty_in_layout(array, fmt, array.dtype)
    out[...] = array
    return out


def is_contiguous_as(array, fmt):
    """Whether ``array`` is laid out as ``fmt`` says (preserve_format: as contiguous_format)."""
    if fmt is channels_last:
        return array.ndim == 4 and array.transpose(0, 2, 3, 1).flags.c_contiguous
    return array.flags.c_contiguous


def check_tensors(name, first, **args):
    """PyTorch's TypeError for an argument that must be a tensor; ``first``: the position of
    the first one named (a method's ``self`` has none, so ``x.f(a)``'s ``a`` is position 1)."""
    for position, (arg, t) in enumerate(args.items(), first):
        if not isinstance(t, TensorBase):
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                            f"{type(t).__name__}")


def float_only(t, kernel):
    """``t`` itself if it is a float tensor; else PyTorch's error, which names the C++ kernel
    that has no code for integers and bools (``frac``, ``normal_``, ``uniform_``)."""
    if t.dtype.is_floating_point:
        return t
    raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.legacy_name}\'')


def check_normal_std(std):
    """PyTorch's error for a negative std (normal_, nn.init.normal_, torch.normal)."""
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def check_uniform_bounds(a, b):
    """PyTorch's error for bounds the wrong way round (uniform_, nn.init.uniform_)."""
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a:g} > to={b:g}")
