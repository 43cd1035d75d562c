"""The nine dtypes minigrad knows (float32, float64, float16; int64, int32, int16, int8, uint8; bool),
how a ``dtype=`` argument is read, PyTorch's type-promotion rules for them, and their limits
(finfo, iinfo). uint8 is what images come as (``np.array(PIL_image)``, MNIST's arrays):
its arithmetic wraps modulo 256, as PyTorch's does."""
import warnings

import numpy as np

from ._conventions import typename
from ._unsupported import refusal

builtins_bool = type(True)  # the built-ins, before this module's own `bool`, `float`, `int` hide them
builtins_float = type(1.0)
builtins_int = type(1)


class dtype:
    """A tensor element type. Prints as PyTorch's does (``torch.float32``) so that
    output of ``import minigrad as torch`` code reads the same as under PyTorch."""

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "_category", "legacy_name")

    def __init__(self, name, np_type, category, legacy_name):
        self.name = name
        self.np = np.dtype(np_type)
        self.is_floating_point = category == 2
        self.is_signed = self.np.kind in "fi"  # (uint8 and bool are not)
        self.itemsize = self.np.itemsize
        self._category = category  # bool < integer < floating point
        # The name PyTorch's error messages use ("Float"), and its old tensor types ("torch.FloatTensor").
        self.legacy_name = legacy_name

    @property
    def tensor_type(self):
        return f"torch.{self.legacy_name}Tensor"

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):  # pickle/deepcopy keep the singletons
        return self.name


float32 = dtype("float32", np.float32, 2, "Float")
float64 = dtype("float64", np.float64, 2, "Double")
float16 = dtype("float16", np.float16, 2, "Half")  # (half precision: as NumPy computes it, op by op)
int64 = dtype("int64", np.int64, 1, "Long")
int32 = dtype("int32", np.int32, 1, "Int")  # makemore's count matrix; sums of it are int64
int16 = dtype("int16", np.int16, 1, "Short")
int8 = dtype("int8", np.int8, 1, "Char")
uint8 = dtype("uint8", np.uint8, 1, "Byte")  # images: 0..255
bool = dtype("bool", np.bool_, 0, "Bool")  # noqa: A001 (PyTorch's name, on purpose)
float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001 (PyTorch's torch.int is int32, not Python's int)
short = int16

DTYPES = (float32, float64, int64, int32, int16, int8, uint8, bool, float16)
_FROM_NUMPY = {d.np: d for d in DTYPES}
NUMPY_DTYPES = tuple(_FROM_NUMPY)  # the NumPy dtypes of minigrad's nine (a tensor may share their memory)


# PyTorch's argument parser takes Python's number types where a dtype goes: dtype=float is float64.
_PYTHON_TYPES = {builtins_float: float64, builtins_int: int64, builtins_bool: bool}


def dtype_arg(d, who):
    """A ``dtype`` argument of the function ``who`` as a minigrad dtype (None stays None: the
    caller's default). Besides a dtype, PyTorch takes ``float`` (float64), ``int`` (int64) and
    ``bool``; anything else (a string, a NumPy type) is refused with PyTorch's words."""
    if d is None or d.__class__ is dtype:
        return d
    if isinstance(d, type) and d in _PYTHON_TYPES:
        return _PYTHON_TYPES[d]
    if d is complex:
        raise refusal("complex numbers (dtype=complex, PyTorch's complex128)",
                      "its dtypes are float32, float64, float16, int64, int32, int16, int8, uint8 and bool; keep real "
                      "and imaginary parts in two float tensors")
    raise TypeError(f"{who}(): argument 'dtype' must be torch.dtype, not {typename(d)}")


# PyTorch's dtypes that minigrad leaves out, and what to use instead.
_MISSING = {**dict.fromkeys(("uint16", "uint32", "uint64",
                             "int1", "int2", "int3", "int4", "int5", "int6", "int7", "uint1", "uint2",
                             "uint3", "uint4", "uint5", "uint6", "uint7", "qint8", "qint32", "quint8",
                             "quint4x2", "quint2x4", "bits1x8", "bits2x4", "bits4x2", "bits8", "bits16",
                             "bit"), "use torch.int64"),
            **dict.fromkeys(("bfloat16", "float8_e4m3fn", "float8_e4m3fnuz",
                             "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"),
                            "use torch.float32"),
            **dict.fromkeys(("complex32", "chalf", "complex64", "cfloat", "complex128", "cdouble"),
                            "minigrad has no complex numbers")}


def missing(name):
    """The AttributeError for ``torch.<name>``, one of PyTorch's dtypes (None for other names):
    an AttributeError still, so that ``hasattr(torch, "int32")`` answers False."""
    if name not in _MISSING:
        return None
    return AttributeError(f"minigrad has nine dtypes (float32, float64, float16, int64, int32, int16, int8, uint8, "
                          f"bool): torch.{name} is not one of them; {_MISSING[name]}")


def from_numpy_dtype(np_dtype):
    """The minigrad dtype for a NumPy dtype: other ints (uint16, uint32...) become int64, other
    floats float32."""
    try:
        return _FROM_NUMPY[np_dtype]
    except KeyError:
        if np_dtype.kind in "iu":
            return int64
        if np_dtype.kind == "f":
            return float32 if np_dtype.itemsize <= 4 else float64  # (float16 is one of the nine)
        raise TypeError(f"can't convert np.ndarray of type {np_dtype} to a minigrad tensor. "
                        "The only supported types are: float64, float32, int64, int32, int16, int8, uint8 "
                        "and bool.") from None


def from_tensor_type(name):
    """The dtype of an old tensor-type name: ``'torch.DoubleTensor'`` is float64."""
    for d in DTYPES:
        if d.tensor_type == name:
            return d
    raise ValueError(f"invalid type: '{name}'")


_default_float = [float32]


def get_default_dtype():
    """The dtype of tensors made from Python floats: float32 unless changed."""
    return _default_float[0]


def set_default_dtype(d):
    if d.__class__ is not dtype:  # Python's float is refused here, unlike in dtype= arguments
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float[0] = d


def default_for(value):
    """PyTorch's default dtype for a Python number: the default float, int64 or bool."""
    if isinstance(value, builtins_bool):
        return bool
    if isinstance(value, builtins_int):
        return int64
    return _default_float[0]


def array_of(data, dtype=None):
    """The array ``torch.tensor(data)`` holds: a copy of ``data`` (a number, nested lists that
    may hold NumPy arrays and 0-d tensors, an array, a tensor), as ``dtype`` or, if None, as
    PyTorch infers it: Python floats give the default float dtype, arrays and tensors keep
    theirs, and a list promotes its items' dtypes."""
    if isinstance(data, np.ndarray):  # even though it is copied: PyTorch reads an array's memory
        inferred, sizes = from_numpy_dtype(check_layout(data).dtype), None  # as from_numpy does
    else:
        inferred, sizes = _read(data, dtype)
    if sizes and 0 in sizes:  # no numbers: PyTorch reads none of the items (their lengths unchecked)
        return np.zeros(sizes, (dtype or inferred).np)
    array = np.array(_strip_tensors(data))
    if dtype is not None:
        target = dtype
        if dtype._category == 1 and not isinstance(data, np.ndarray) and not hasattr(data, "_data") \
                and (dtype is not int64 or array.dtype.kind == "f"):  # (Python ints fit int64: _read)
            check_fits(array, dtype)
    else:
        target = inferred
    return array if array.dtype == target.np else array.astype(target.np)


def check_layout(array):
    """``array``, or PyTorch's error for an array whose memory it cannot read as a tensor's
    (negative strides, as ``a[::-1]`` has; the other byte order)."""
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with "
                         "negative strides are not currently supported. (You can probably work around "
                         "this by making a copy of your array  with array.copy().) ")
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. "
                         "Conversion between byte orders is currently not supported.")
    return array


# The C++ type PyTorch's overflow error names for a number cast to an integer dtype (full, alpha).
CPP_NAMES = {"int64": "int64_t", "int32": "int", "int16": "int16_t", "int8": "int8_t", "uint8": "uint8_t"}


def check_fits(data, dtype, name=None):
    """PyTorch's error for Python numbers made into an integer tensor they do not fit (NaN,
    inf, beyond the range; PyTorch checks them one by one, before truncating): arrays and
    tensors are not checked, they are cast and wrap, as ``.int()`` does."""
    values = np.asarray(data)
    info = np.iinfo(dtype.np)
    # An int may wrap into an unsigned type (-255 into uint8 is 1, as C's two's complement); a float not.
    low = -info.max if not dtype.is_signed and values.dtype.kind in "iu" else info.min
    if values.dtype.kind not in "iu":  # (ints are compared exactly: 2**63 does not fit int64)
        values = values.astype(np.float64)
    if values.size and not (low <= values.min() and values.max() <= info.max):  # (NaN: False)
        raise RuntimeError(f"value cannot be converted to type {name or dtype.name} without overflow")


def wrapped(x, dtype):
    """A Python int as the other operand of an integer tensor of ``dtype`` smaller than int64
    (``uint8_tensor + 300``): PyTorch casts it as C does, modulo 2 to the bits (300 is 44 in
    uint8, -1 is 255), where NumPy would raise; it must fit 64 bits, signed or not. Anything
    else as it is."""
    if type(x) is not builtins_int or dtype._category != 1 or dtype is int64:
        return x
    if x >= 2 ** 64:
        raise OverflowError("int too big to convert")
    if x < -2 ** 63:
        raise OverflowError("can't convert negative int to unsigned")
    return np.uint64(x % 2 ** 64).astype(dtype.np)


def scalar_for(value, dtype):
    """A Python number going into a tensor of ``dtype`` (fill_, masked_fill, where, clamp's
    bounds, full_like, add's alpha): for an integer dtype, PyTorch's error if it does not fit,
    else the number C's cast makes of it (-1 in uint8 is 255). Anything else as it is."""
    if dtype._category != 1 or not isinstance(value, (builtins_int, builtins_float)):
        return value
    check_fits(value, dtype, CPP_NAMES[dtype.name])
    return np.asarray(value).astype(dtype.np).item()


_NDARRAYS_WARNING = ("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
                     "converting the list to a single numpy.ndarray with numpy.array() before converting "
                     "to a tensor.")
_warned = []  # (once per process, as PyTorch's TORCH_WARN_ONCE)
_SCALAR_DTYPES = {builtins_bool: bool, builtins_int: int64}  # (floats: the default float dtype)


def _read(data, dtype):
    """The dtype PyTorch infers for nested data (numbers, lists, tuples, NumPy arrays, tensors
    of one element) and its shape, as (dtype, sizes), after PyTorch's checks, in its words. As
    PyTorch does: the shape is that of the first items (``data[0]``, ``data[0][0]``...) and
    every other sequence must match it; the dtype promotes the items' dtypes (Python floats:
    the default float dtype)."""
    sizes, first = [], data
    while isinstance(first, (list, tuple, np.ndarray)):
        if isinstance(first, np.ndarray):
            if first.ndim == 0:  # (a 0-d array after the first item is a number)
                raise TypeError("len() of unsized object")
            sizes.extend(first.shape)  # (PyTorch stops at a length 0, and the shape below it)
            del sizes[sizes.index(0) + 1 if 0 in sizes else len(sizes):]
            break
        sizes.append(len(first))
        if not first:
            break
        first = first[0]
        if isinstance(first, str):  # (a string is a sequence to PyTorch, of strings...)
            raise ValueError("too many dimensions 'str'")
    # PyTorch stores the items in order and raises at the first that does not fit, so: that
    # item's error (it says so once the dtype is inferred), the items before it that only some
    # dtypes refuse (_note_unless), and, if an array in the list comes before it, how many of
    # those are before the array (PyTorch warns when it gets to the array, once).
    problem = [None, None, []]
    inferred = _read_items(data, sizes, 0, problem)
    if 0 in sizes:
        return inferred, sizes
    target = dtype or inferred
    refusing = [i for i, (_, refused) in enumerate(problem[2]) if refused(target)]
    if problem[1] is not None and not any(i < problem[1] for i in refusing) and not _warned:
        _warned.append(True)
        warnings.warn(_NDARRAYS_WARNING, UserWarning, stacklevel=4)  # (at torch.tensor's caller)
    if refusing:
        raise problem[2][refusing[0]][0]
    if problem[0]:
        raise problem[0](target)
    return inferred, sizes


def _read_items(data, sizes, dim, problem):
    if dim == len(sizes):  # a number's place
        return _read_number(data, dim, problem)
    array = data._data if hasattr(data, "_data") else data  # (a tensor here is read as its rows)
    if not isinstance(array, (list, tuple)) and not (isinstance(array, np.ndarray) and array.ndim):
        _note(problem, lambda _: TypeError("not a sequence"))
        return _read_number(data, len(sizes), problem)
    if isinstance(array, np.ndarray):  # read as nested lists would be, but at once
        if array is data:  # (an array in the list: _read warns)
            _saw_array(problem)
        if array.dtype.kind not in "fciub":
            raise unsupported(array)
        if array.dtype == np.bool_:  # (its items are NumPy bools)
            _note_unless(problem, TypeError(_NUMPY_BOOL), _integer)
        for d, n in enumerate(array.shape[:len(sizes) - dim], dim):
            if n != sizes[d]:
                _note(problem, lambda _, n=n, d=d: _length_error(sizes[d], d, n))
        if array.ndim < len(sizes) - dim:  # numbers where sequences belong
            _note(problem, lambda _: TypeError("not a sequence"))
        elif array.ndim > len(sizes) - dim:  # arrays where numbers belong
            _note(problem, lambda target: _not_a_number(data, target))
        return from_numpy_dtype(array.dtype)
    if len(data) != sizes[dim]:
        _note(problem, lambda _: _length_error(sizes[dim], dim, len(data)))
    found = {_read_items(d, sizes, dim + 1, problem) for d in data}
    if len(found) == 1:
        return found.pop()
    return _reduce(found) if found else _default_float[0]


def _note(problem, error):
    problem[0] = problem[0] or error


def _saw_array(problem):
    if problem[0] is None and problem[1] is None:
        problem[1] = len(problem[2])


def _note_unless(problem, error, refused):
    """An item that only the dtypes ``refused(target)`` refuse: a NumPy bool, which PyTorch
    stores in an integer tensor by ``__index__``, which NumPy refuses (a float tensor reads it
    as a float, a bool tensor as a bool); a Python int beyond int64. PyTorch raises the first
    problem it stores, so it counts only before every other (each kind once)."""
    if problem[0] is None and all(str(e) != str(error) for e, _ in problem[2]):
        problem[2].append((error, refused))


def _integer(target):
    return target._category == 1


def _not_float(target):
    return target._category != 2


_NUMPY_BOOL = "'numpy.bool' object cannot be interpreted as an integer"


def _reduce(dtypes):
    result = None
    for d in dtypes:
        result = d if result is None else _promote(result, d)
    return result


def _read_number(x, dim, problem):
    """The dtype of an item where a number belongs (PyTorch's error if it is not one)."""
    if type(x) is builtins_float:
        return _default_float[0]
    d = _SCALAR_DTYPES.get(type(x))
    if d is not None:
        if d is int64 and not -2 ** 63 <= x < 2 ** 63:  # (a float or bool tensor takes it)
            _note_unless(problem, ValueError("Overflow when unpacking long long"), _integer)
        return d
    if hasattr(x, "_data"):  # a Tensor inside a list must hold one number
        if dim and x._data.size != 1:
            _note(problem, lambda target: _not_a_number(x, target))
        return from_numpy_dtype(x._data.dtype)
    if isinstance(x, np.ndarray):
        _saw_array(problem)
        if x.ndim:
            _note(problem, lambda target: _not_a_number(x, target))
        elif x.dtype == np.bool_:  # (read as an index, by bool tensors too)
            _note_unless(problem, TypeError("only integer scalar arrays can be converted to a scalar index"),
                         _not_float)
        return from_numpy_dtype(x.dtype)
    if isinstance(x, np.bool_):
        _note_unless(problem, TypeError(_NUMPY_BOOL), _integer)
        return bool
    if isinstance(x, np.generic):
        return from_numpy_dtype(x.dtype)
    if isinstance(x, builtins_float):
        return _default_float[0]
    if isinstance(x, str):
        raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
    if isinstance(x, (list, tuple)):  # (PyTorch infers the dtype before it finds this)
        _note(problem, lambda target: TypeError(
            f"must be real number, not {type(x).__name__}" if target.is_floating_point else
            f"'{type(x).__name__}' object cannot be interpreted as an integer"))
        return _reduce({_read_number(d, dim + 1, [None, None, []]) for d in x} or {_default_float[0]})
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


def _length_error(expected, dim, got):
    return ValueError(f"expected sequence of length {expected} at dim {dim} (got {got})")


def _not_a_number(x, target):
    """PyTorch's error for an array or a tensor of several numbers where one number belongs."""
    integer = not target.is_floating_point
    if hasattr(x, "_data"):
        return TypeError("only integer tensors of a single element can be converted to an index") if integer \
            else ValueError("only one element tensors can be converted to Python scalars")
    if integer and x.dtype.kind in "iub":
        return TypeError("only integer scalar arrays can be converted to a scalar index")
    return TypeError("only 0-dimensional arrays can be converted to Python scalars")


def unsupported(array):
    """The TypeError for an array of a dtype a tensor cannot hold."""
    if array.dtype.kind not in "fciub":  # PyTorch refuses these too, in these words
        supported = ("float64, float32, float16, complex64, complex128, int64, int32, int16, "
                     "int8, uint64, uint32, uint16, uint8")
    else:  # PyTorch has these dtypes (int32, float16...); minigrad has not
        supported = "float64, float32, float16, int64, int32, int16, int8, uint8"
    return TypeError(f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. The "
                     f"only supported types are: {supported}, and bool.")


def _strip_tensors(data):
    if hasattr(data, "_data"):  # a Tensor
        return data._data
    if isinstance(data, (list, tuple)):
        return [_strip_tensors(d) for d in data]
    return data


def python_number(x):
    """A NumPy scalar (``np.float64(0.5)``, ``np.int64(1)``, what ``np.logspace(...)[0]``
    gives) as the Python number it holds: PyTorch treats NumPy scalars as Python numbers, so
    ``np.float64(0.5) * float32_tensor`` stays float32 and ``int_tensor + np.int64(1)`` int64.
    NumPy's ``bool_`` is the exception: PyTorch reads it as a float. Anything else is returned
    as it is."""
    if isinstance(x, np.generic):
        return builtins_float(x) if isinstance(x, np.bool_) else x.item()
    return x


def result_type(a, b, *more):
    """PyTorch's promotion for a binary op on Tensors (NumPy arrays count as tensors) and
    Python numbers.

    The operands fall in three groups: tensors with dimensions, 0-d tensors, Python numbers.
    Within a group the higher category (bool < int < float) wins, then the larger type. The
    tensors with dimensions decide, unless a lower group has a higher category: then it
    decides, so ``float32_tensor * 2.5`` and ``float32_tensor * float64_0d`` stay float32,
    ``int_tensor * 2.5`` is float32 (the default), and ``int_tensor / float64_0d`` float64.
    """
    groups = [None, None, None]  # tensors with dimensions, 0-d tensors, numbers
    for x in (a, b, *more):
        if hasattr(x, "_data") or isinstance(x, np.ndarray):
            array = x._data if hasattr(x, "_data") else x
            group, d = (0 if array.ndim else 1), from_numpy_dtype(array.dtype)
        else:
            group, d = 2, default_for(x)
        groups[group] = d if groups[group] is None else _promote(groups[group], d)
    return _combine(groups[0], _combine(groups[1], groups[2]))


def _promote(x, y):
    """The smallest dtype that holds both: the higher category, then the larger type; but
    neither uint8 nor int8 holds the other (0..255, -128..127): they meet in int16."""
    if x.itemsize == y.itemsize == 1 and x._category == y._category == 1 and x is not y:
        return int16
    return max(x, y, key=lambda d: (d._category, d.itemsize))


def _combine(higher, lower):
    """A higher-priority group's dtype against a lower one's (c10's combine_categories)."""
    if higher is None or lower is None:
        return higher or lower
    if higher.is_floating_point:
        return higher
    if higher is bool or lower.is_floating_point:
        return _promote(higher, lower)
    return higher


# -- a dtype's limits: torch.finfo and torch.iinfo ----------------------------------------------

_DEFAULT = object()  # finfo() with no argument: the default float dtype (finfo(None) is refused)


def _limits_arg(d, who):
    """finfo/iinfo's argument: a dtype, or Python's float, int, bool as a ``dtype=`` reads them."""
    if d is _DEFAULT:
        raise TypeError(f'{who}() missing 1 required positional arguments: "type"')
    if isinstance(d, type) and d in _PYTHON_TYPES:
        return _PYTHON_TYPES[d]
    if d.__class__ is not dtype:
        name = "Tensor" if hasattr(d, "_data") else typename(d)  # (PyTorch's name, not minigrad.Tensor)
        raise TypeError(f"{who}(): argument 'type' (position 1) must be torch.dtype, not {name}")
    return d


class _Limits:
    """What finfo and iinfo share: NumPy's numbers as Python's, equal when the dtype is, and
    PyTorch's repr (each number to 6 significant digits)."""

    __slots__ = ()

    def __eq__(self, other):  # (so, as in PyTorch, not hashable)
        return type(other) is type(self) and other.dtype == self.dtype

    def __repr__(self):
        numbers = "".join(f"{k}={getattr(self, k):.6g}, " for k in self._SHOWN)
        return f"{type(self).__name__}({numbers}dtype={self.dtype})"


class finfo(_Limits):
    """A float dtype's limits: ``eps`` is the gap between 1.0 and the next number, ``tiny``
    (``smallest_normal``) the smallest positive normal number, ``resolution`` 10 to the minus the
    decimal digits it keeps; ``dtype`` is its name, a string."""

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
    _SHOWN = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")

    def __init__(self, type=_DEFAULT):
        d = _limits_arg(_default_float[0] if type is _DEFAULT else type, "finfo")
        if not d.is_floating_point:  # (PyTorch's words, 'torch.finfo' where the dtype would go)
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to "
                            "handle 'torch.finfo'")
        info = np.finfo(d.np)
        self.bits, self.dtype = info.bits, d.name
        self.eps, self.max, self.min = (builtins_float(v) for v in (info.eps, info.max, info.min))
        self.tiny = self.smallest_normal = builtins_float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # 1e-06, not NumPy's float32 rounding of it


class iinfo(_Limits):
    """An integer dtype's limits: ``min``, ``max`` (Python ints), ``bits``, ``dtype`` (its name)."""

    __slots__ = ("bits", "max", "min", "dtype")
    _SHOWN = ("min", "max")

    def __init__(self, type=_DEFAULT):
        d = _limits_arg(type, "iinfo")
        if d is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(d.np)
        self.bits, self.dtype = info.bits, d.name
        self.max, self.min = builtins_int(info.max), builtins_int(info.min)


# -- questions about types: torch.promote_types, torch.result_type, torch.can_cast, is_complex ----
def _dtype_operand(d, who, name, position):
    """A dtype argument that must be given (Python's float, int, bool stand for theirs)."""
    if d.__class__ is dtype:
        return d
    if isinstance(d, type) and d in _PYTHON_TYPES:
        return _PYTHON_TYPES[d]
    raise TypeError(f"{who}(): argument '{name}' (position {position}) must be torch.dtype, not "
                    f"{typename(d)}")


def promote_types(type1, type2):
    """The smallest dtype both convert to without loss of category: the table that every
    operation on two tensors uses (``promote_types(torch.uint8, torch.int8)`` is int16)."""
    return _promote(_dtype_operand(type1, "promote_types", "type1", 1),
                    _dtype_operand(type2, "promote_types", "type2", 2))


def tensor_result_type(tensor, other):
    """``torch.result_type``: the dtype of an arithmetic op on these two operands (tensors or
    Python numbers), with the rule of :func:`result_type`: ``result_type(int_tensor, 2.5)`` is
    float32, ``result_type(float32_tensor, float64_0d)`` float32."""
    for x in (tensor, other):
        if not hasattr(x, "_data") and type(x) not in (builtins_int, builtins_float, builtins_bool):
            raise TypeError(f"result_type() received an invalid combination of arguments - got "
                            f"({typename(tensor)}, {typename(other)}), but expected one of:\n"
                            " * (Tensor tensor, Tensor other)\n * (Number scalar, Tensor tensor)\n"
                            " * (Tensor tensor, Number other)\n * (Number scalar1, Number scalar2)\n")
    return result_type(tensor, other)


def can_cast(from_, to):
    """Whether ``from_`` may be cast to ``to`` by an in-place op's type check: not from a float
    to an integer, nor from a number to bool (a cast that loses the category)."""
    from_, to = _dtype_operand(from_, "can_cast", "from_", 1), _dtype_operand(to, "can_cast", "to", 2)
    return from_._category <= to._category


def is_complex(input):
    """minigrad has no complex dtypes: False for every tensor (as ``Tensor.is_complex()``)."""
    if not hasattr(input, "_data"):
        raise TypeError(f"is_complex(): argument 'input' (position 1) must be Tensor, not {typename(input)}")
    return False


def is_nonzero(input):
    """Whether a one-element tensor's value is not 0 (``bool(t)``, with its errors)."""
    if not hasattr(input, "_data"):
        raise TypeError(f"is_nonzero(): argument 'input' (position 1) must be Tensor, not {typename(input)}")
    return input.is_nonzero()
