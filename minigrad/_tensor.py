"""The Tensor: a NumPy array plus what autograd needs to know about it.

A tensor made by the user is a *leaf*: ``grad_fn`` is None. A tensor made by a
recorded op has a ``grad_fn``: the node that knows how to send a gradient back to
the op's inputs. This file holds the Tensor's state: what it is (shape, dtype, device),
its autograd attributes, conversions, ``to``/``type`` and its repr. Its maths it inherits,
by family, from one mixin per family, each method a short call into an op of the family's
file of ``minigrad/ops/`` (the same name: _tensor_pointwise.py -> ops/pointwise.py):

    _tensor_pointwise.py   one tensor, element by element: exp, log, sin, clamp, lgamma, logit, ...
    _tensor_arithmetic.py  two tensors (or a number), element by element: operators, add, pow,
                           maximum, lerp, logaddexp, hypot, xlogy, where, ...; zero_, fill_, copy_
    _tensor_logic.py       bool results: comparisons, logical_*, bitwise, isnan, signbit, isclose
    _tensor_reduce.py      along dims: sum, mean, var, max, cumsum, norm, diff, softmax, ...
    _tensor_sorting.py     by the order of values: sort, topk, median, mode, quantile, unique, ...
    _tensor_shape.py       the same elements rearranged: view, transpose, expand, flip, unfold, t_...
    _tensor_join.py        several tensors out: split, chunk, unbind, tensor_split, hsplit, ...
    _tensor_index.py       reads by index or mask: x[key], select, narrow, gather, take, nonzero, ...
    _tensor_scatter.py     writes by index or mask: x[key] = v, scatter, index_add, masked_fill, put...
    _tensor_linalg.py      matrices: mm, bmm, addmm, tril, diagonal, trace, det, inverse, svd, ...
    _tensor_random.py      random fills and draws: normal_, bernoulli, multinomial, ...
"""
import builtins
import warnings
import weakref

import numpy as np

from . import _device, _dtype, ops
from ._conventions import C_NAMES, Size, typename
from ._conventions import dim as _dim
from ._conventions import sizes as _sizes
from ._conventions import strided
from ._conventions import is_contiguous_as, memory_format, memory_format_arg, preserve_format
from ._conventions import shape_args as _shape_args
from ._conventions import strided_zeros
from ._repr import format_tensor
from ._tensor_arithmetic import ArithmeticMixin
from ._tensor_index import IndexMixin
from ._tensor_join import JoinMixin
from ._tensor_linalg import LinalgMixin
from ._tensor_logic import LogicMixin
from ._tensor_pointwise import PointwiseMixin
from ._tensor_random import RandomMixin
from ._tensor_reduce import ReduceMixin
from ._tensor_scatter import ScatterMixin
from ._tensor_shape import ShapeMixin
from ._tensor_sorting import SortingMixin
from ._unsupported import refusal
from ._views import ViewsMixin
from .core import grad_mode
from .core.function import owner as _memory_owner
from .core.tensor import TensorBase, register


class Tensor(ViewsMixin, TensorBase, PointwiseMixin, ArithmeticMixin, LogicMixin, ReduceMixin, SortingMixin,
             ShapeMixin, JoinMixin, IndexMixin, ScatterMixin, LinalgMixin, RandomMixin):
    """The full Tensor: the core's TensorBase (autograd state, backward) and PyTorch's methods,
    by family (the mixins above), each a short call into an op."""
    __slots__ = ()
    _owns_base = False  # a view of its own memory only, after t_(), resize_()...: see _tensor_shape.py
    # ``np.float64(2) * x``: NumPy's scalar defers to Tensor.__rmul__ (as it does to PyTorch's
    # tensors) instead of turning x into an array.
    __array_priority__ = 1000

    def __new__(cls, *args, **kwargs):
        """``torch.Tensor(data)`` or ``torch.Tensor(2, 3)``: PyTorch's legacy constructor, that of
        the default dtype's legacy type (``torch.FloatTensor``: see legacy_new). ``torch.tensor``
        is the one to use; minigrad makes its own tensors with ``Tensor._wrap``."""
        if cls is not Tensor:  # Parameter and the other subclasses: their __init__ sets them up
            return object.__new__(cls)
        return legacy_new(_dtype.get_default_dtype(), args, kwargs, any_dtype=True)

    def __init__(self, *args, **kwargs):
        pass  # (__new__ made it)

    # -- what a tensor is ----------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        return self.shape if dim is None else self._data.shape[_dim(dim, self._data.ndim)]

    def dim(self):
        return self._data.ndim

    ndim = property(dim)

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    @property
    def dtype(self):
        return _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def device(self):
        return _device.CPU

    @property
    def layout(self):
        return strided  # (dense: minigrad has no sparse tensors)

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return False  # minigrad has no complex dtypes

    def is_signed(self):
        return self.dtype.is_signed

    def is_nonzero(self):
        if self._data.size != 1:
            raise RuntimeError(f"Boolean value of Tensor with {'no values' if not self._data.size else 'more than one value'} "
                               "is ambiguous")
        return bool(self._data)

    ndimension = dim

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def nbytes(self):
        return self._data.nbytes

    @property
    def data(self):
        """The same numbers, detached from the graph. Unlike ``detach()``, in-place changes
        through ``.data`` are invisible to autograd (PyTorch's historic escape hatch)."""
        return Tensor._wrap(self._data)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {typename(value)}")
        if self._requires_grad and not value.dtype.is_floating_point:
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or "
                               "complex dtype")
        self._data = value._data

    @property
    def _version(self):
        if self._inference:  # nothing will ever check it (see is_inference)
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._version_box is None else self._version_box[0]

    # -- autograd attributes (the rest are TensorBase's, in minigrad/core/tensor.py) -------------
    @property
    def _base(self):
        """The tensor whose memory this view shows (PyTorch's ``._base``); None if not a view."""
        return None if self._view is None else self._view.base

    def _is_view(self):
        return self._view is not None

    def is_inference(self):
        """Made inside ``torch.inference_mode()``: it can never be part of a recorded graph."""
        return self._inference

    @TensorBase.grad.setter
    def grad(self, value):
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                            f"{typename(value)}")
        if value is not None and value.dtype is not self.dtype:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{C_NAMES[value.dtype.name]}' to a tensor "
                f"with grad_dtype '{self.dtype.legacy_name}'. The gradient must match the tensor's "
                "grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
                "caution. Diverging the dtypes of a tensor and its gradient may break downstream "
                "systems that assume they match.")
        if value is not None and value.shape != self.shape:
            raise RuntimeError(f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                               f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                               "tensor are the same size")
        self._grad = value

    # -- conversions -------------------------------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self):
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def __float__(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self._requires_grad and not Tensor._warned_float:
            Tensor._warned_float = True  # once per process, as PyTorch warns
            warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                          "behavior.\nConsider using tensor.detach() first.", UserWarning, stacklevel=2)
        return float(self.item())

    _warned_float = False

    def __int__(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with " + ("no values" if self._data.size == 0 else
                                                                  "more than one value") + " is ambiguous")
        return bool(self.item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind())

    __hash__ = object.__hash__  # by identity, as PyTorch's (== compares values): a parameter is a dict key

    def __repr__(self):
        suffixes = []
        if self._grad_fn is not None:
            suffixes.append(f"grad_fn=<{type(self._grad_fn).__name__}>")
        elif self._requires_grad:
            suffixes.append("requires_grad=True")
        return format_tensor(self._data, tuple(suffixes))

    def __format__(self, spec):
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return format(repr(self), spec)

    def to(self, *args, **kwargs):
        """``to(dtype)``, ``to(device)``, ``to(device, dtype)`` or ``to(other_tensor)``. The only
        device is the CPU (``_device.py``), so only a new dtype, or ``copy=True``, makes a copy."""
        only = args[0] if len(args) == 1 and not kwargs else None  # the usual calls, straight away:
        if isinstance(only, _dtype.dtype):  # to(torch.float64)
            return self._as(only)
        if only is _device.CPU or type(only) is str and only == "cpu":  # to(device) in a training loop
            return self
        device, dtype, copy, fmt = _to_args(args, kwargs)
        _device.check(device)
        out = self._as(_dtype.dtype_arg(dtype, "to"), copy)
        if fmt is not None and fmt is not preserve_format and not is_contiguous_as(out._data, fmt):
            raise refusal(f"x.to(memory_format={fmt}) (a copy in another layout: ToCopyBackward0)",
                          f"x.contiguous(memory_format={fmt}) makes that copy (CloneBackward0)")
        return out

    def _as(self, dtype, copy=False):
        """This tensor in ``dtype`` (itself if it has it, unless ``copy``): ``to``'s work."""
        if dtype is None or dtype is self.dtype:
            return self.clone() if copy else self
        if dtype.is_floating_point and self._requires_grad:
            return ops.ToCopy.apply(self, dtype.np)
        with np.errstate(invalid="ignore", over="ignore"):  # NaN or inf to an integer, 1e5 to float16: silently
            return Tensor._wrap(self._data.astype(dtype.np))

    def _to_np_dtype(self, np_dtype):
        """``to`` the dtype of a NumPy dtype: how the engine casts a gradient to its input's dtype."""
        return self._as(_dtype.from_numpy_dtype(np_dtype))

    def type_as(self, other):
        return self.to(other.dtype)

    def type(self, dtype=None):
        """No argument: the old tensor-type name (``'torch.FloatTensor'``); else ``to(dtype)``,
        the dtype given as a dtype or by that name."""
        if dtype is None:
            return self.dtype.tensor_type
        if isinstance(dtype, str):
            dtype = _dtype.from_tensor_type(dtype)
        elif isinstance(dtype, type) and isinstance(getattr(dtype, "dtype", None), _dtype.dtype):  # FloatTensor...
            dtype = dtype.dtype
        elif isinstance(dtype, type):  # PyTorch's old tensor types go here, not Python's float
            module = "" if dtype.__module__ == "builtins" else dtype.__module__ + "."
            raise ValueError(f"invalid type: '{module}{dtype.__qualname__}'")
        elif not isinstance(dtype, _dtype.dtype):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    def cpu(self):
        return self

    def cuda(self, device=None):
        _device.check("cuda" if device is None else device)

    is_cuda = False
    is_cpu = True

    def float(self):
        return self._as(_dtype.float32)

    def double(self):
        return self._as(_dtype.float64)

    def long(self):
        return self._as(_dtype.int64)

    def int(self):  # int32, as in PyTorch (Python's int would be int64)
        return self._as(_dtype.int32)

    def short(self):
        return self._as(_dtype.int16)

    def char(self):  # int8: C's signed char
        return self._as(_dtype.int8)

    def byte(self):  # uint8
        return self._as(_dtype.uint8)

    def bool(self):
        return self._as(_dtype.bool)

    def half(self):  # float16
        return self._as(_dtype.float16)

    def bfloat16(self):
        raise _dtype.missing("bfloat16")

    def new_zeros(self, *size, dtype=None, requires_grad=False):
        """Zeros of ``size``, with this tensor's dtype unless ``dtype`` says otherwise."""
        dtype = _dtype.dtype_arg(dtype, "new_zeros")
        array = np.zeros(_shape_args(size), dtype.np if dtype else self._data.dtype)
        return Tensor._leaf(array, requires_grad)

    def new_ones(self, *size, dtype=None, requires_grad=False):
        dtype = _dtype.dtype_arg(dtype, "new_ones")
        return self.new_full(_shape_args(size), 1, dtype=dtype, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, requires_grad=False):
        return self.new_zeros(*size, dtype=_dtype.dtype_arg(dtype, "new_empty"), requires_grad=requires_grad)

    def new_empty_strided(self, size, stride, dtype=None, requires_grad=False):
        dtype = _dtype.dtype_arg(dtype, "new_empty_strided") or self.dtype
        out = Tensor._leaf(strided_zeros(tuple(_shape_args((size,))), tuple(_shape_args((stride,))), dtype.np),
                           requires_grad)
        out._owns_base = True  # (a view of memory only it has: in-place ops on it are recorded on it)
        return out

    def new_full(self, size, fill_value, dtype=None, requires_grad=False):
        dtype = _dtype.dtype_arg(dtype, "new_full")
        dtype = dtype or self.dtype
        array = np.full(_shape_args((size,)), _dtype.scalar_for(fill_value, dtype), dtype.np)
        return Tensor._leaf(array, requires_grad)

    def new_tensor(self, data, dtype=None, requires_grad=False):
        """A new leaf from ``data``, with this tensor's dtype unless ``dtype`` says otherwise."""
        dtype = _dtype.dtype_arg(dtype, "new_tensor") or self.dtype
        return Tensor._leaf(_dtype.array_of(data, dtype), requires_grad)

    # -- where the numbers are in memory (to see views and copies) --------------------------------
    def data_ptr(self):
        """The address of the first element (0 if there is none): a view starting at the same
        element has the same one; ``x[1:]``'s is one element's bytes further."""
        return self._data.__array_interface__["data"][0] if self._data.size else 0

    def storage(self):
        """The memory as elements of this tensor's dtype (PyTorch's deprecated TypedStorage):
        prefer ``untyped_storage()``."""
        global _warned_typed_storage
        if not _warned_typed_storage:  # once per process, as PyTorch warns
            _warned_typed_storage = True
            warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will "
                          "be the only storage class. This should only matter to you if you are using storages "
                          "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead "
                          "of tensor.storage()", UserWarning, stacklevel=2)
        return TypedStorage.of(self._data)

    def untyped_storage(self):
        """The memory this tensor's numbers are in: the same for a tensor and all its views."""
        return UntypedStorage.of(self._data)

    def storage_offset(self):
        """Where the first element is in the memory, in elements: ``x[1:]`` of a matrix, a row."""
        start = self._data.__array_interface__["data"][0]
        return (start - _owner(self._data).__array_interface__["data"][0]) // self._data.itemsize

    def is_set_to(self, tensor):
        """The same memory, the same first element, shape and strides: the same numbers."""
        if not isinstance(tensor, Tensor):
            raise TypeError(f"is_set_to(): argument 'tensor' (position 1) must be Tensor, not {typename(tensor)}")
        a, b = self._data, tensor._data
        return (self.untyped_storage() == tensor.untyped_storage() and a.dtype == b.dtype
                and self.storage_offset() == tensor.storage_offset() and a.shape == b.shape and a.strides == b.strides)

    def is_same_size(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"is_same_size(): argument 'other' (position 1) must be Tensor, not {typename(other)}")
        return self._data.shape == other._data.shape

    def clone(self, *, memory_format=None):
        """A copy, recorded (CloneBackward0); by default in self's memory layout, as PyTorch's."""
        fmt = preserve_format if memory_format is None else memory_format_arg(memory_format, "clone")
        return ops.Clone.apply(self, fmt)



class UntypedStorage:
    """``x.untyped_storage()``: the bytes that hold a tensor's numbers, shared by its views
    (NumPy's array that owns them). As in PyTorch, while one is alive, every tensor on the
    same memory gives that same object."""

    _made = weakref.WeakValueDictionary()  # {key of the memory: its storage, while it lives}

    @classmethod
    def of(cls, array):
        owner = _owner(array)
        key = (id(owner), array.dtype) if cls is TypedStorage else id(owner)  # (it keeps owner alive: no reuse)
        storage = cls._made.get(key)
        if storage is None:
            storage = cls._made[key] = cls(array)
        return storage

    def __init__(self, array):
        self._owner = _owner(array)
        self._start = self._owner.__array_interface__["data"][0]

    def data_ptr(self):
        return self._start if self._owner.nbytes else 0

    def nbytes(self):
        return self._owner.nbytes

    size = __len__ = nbytes

    def element_size(self):
        return 1  # bytes: the storage has no dtype

    @property
    def device(self):
        return _device.CPU

    def tolist(self):
        return np.ndarray((self.nbytes(),), np.uint8, buffer=self._owner).tolist() if self.nbytes() else []

    def __getitem__(self, i):
        return self.tolist()[i]

    def __eq__(self, other):
        return isinstance(other, UntypedStorage) and (self._start, self.nbytes()) == (other._start, other.nbytes())

    def __hash__(self):
        return hash((self._start, self.nbytes()))

    def __repr__(self):
        return "".join(f" {b}\n" for b in self.tolist()) + f"[torch.storage.UntypedStorage(device=cpu) of size " \
            f"{self.nbytes()}]"


class TypedStorage(UntypedStorage):
    """``x.storage()``: the same memory, read as elements of the tensor's dtype."""

    _made = weakref.WeakValueDictionary()

    def __init__(self, array):
        super().__init__(array)
        self.dtype = _dtype.from_numpy_dtype(array.dtype)

    def size(self):
        return self.nbytes() // self.dtype.itemsize

    __len__ = size

    def element_size(self):
        return self.dtype.itemsize

    def tolist(self):
        n = self.size()
        return np.ndarray((n,), self.dtype.np, buffer=self._owner).tolist() if n else []

    def __repr__(self):
        return "".join(f" {v}\n" for v in self.tolist()) + \
            f"[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size {self.size()}]"


_warned_typed_storage = False


def _owner(array):
    """The array that owns ``array``'s memory (NumPy points a view at it), or, for memory NumPy
    does not own (``from_numpy`` of a buffer), the array itself."""
    owner = _memory_owner(array)
    return owner if isinstance(owner, np.ndarray) else array


# The core makes every op's output, and every gradient, of this class.
register(Tensor)


# -- to()'s arguments ---------------------------------------------------------------------------

_TO_SIGNATURES = "".join(f" * ({first}bool non_blocking = False, bool copy = False, *, torch.memory_format "
                         f"memory_format = None)\n" for first in (
                             "torch.device device = None, torch.dtype dtype = None, ",
                             "torch.dtype dtype, ", "Tensor tensor, "))


def _to_args(args, kwargs):
    """``to``'s arguments as PyTorch reads them, by its three signatures (_TO_SIGNATURES, picked
    by the first argument), as ``(device, dtype, copy, memory_format)``; anything else is its
    TypeError. (``nn.Module.to`` reads its arguments so too.)"""
    if len(args) > 4:
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {len(args)} were given")
    first = args[0] if args else None
    given = dict(kwargs)
    if isinstance(first, Tensor) or not args and "tensor" in kwargs:
        names = ("tensor", "non_blocking", "copy")
    elif isinstance(first, (_dtype.dtype, builtins.float, builtins.bool)) or _python_type(first):
        names = ("dtype", "non_blocking", "copy")
    else:
        names = ("device", "dtype", "non_blocking", "copy")
    ok = len(args) <= len(names) and all(k in names and k not in names[:len(args)] or k == "memory_format"
                                         for k in kwargs)
    given.update(zip(names, args))
    dtype, d = given.get("dtype"), given.get("device")
    if names[0] == "dtype" and isinstance(dtype, (builtins.float, builtins.bool)):
        dtype = type(dtype) if type(dtype) is builtins.bool else builtins.float  # x.to(2.5): float64
    ok = (ok and (dtype is None or isinstance(dtype, _dtype.dtype) or _python_type(dtype))
          and all(type(given.get(k, False)) is builtins.bool for k in ("non_blocking", "copy"))
          and isinstance(given.get("memory_format"), (memory_format, type(None)))
          and (d is None or isinstance(d, (str, bytes, _device.device, int, np.integer))
               and not isinstance(d, builtins.bool)))
    if not ok:
        got = [_arg_type(a) for a in args] + [f"{k}={_arg_type(v)}" for k, v in reversed(kwargs.items())]
        got = ", ".join(got) if args else "".join(g + ", " for g in got)
        raise TypeError(f"to() received an invalid combination of arguments - got ({got}), but expected "
                        f"one of:\n{_TO_SIGNATURES}")
    tensor = given.get("tensor")
    d = d.decode() if isinstance(d, bytes) else int(d) if isinstance(d, np.integer) else d
    return (d, tensor.dtype if tensor is not None else dtype,
            given.get("copy"), given.get("memory_format"))  # (copy: None if not given)


def _python_type(x):  # (complex too: PyTorch's complex128, which minigrad refuses by name)
    return x is builtins.float or x is int or x is builtins.bool or x is complex


def _arg_type(x):
    """An argument's type as PyTorch's argument errors name it (``Tensor``, ``torch.dtype``)."""
    return "Tensor" if isinstance(x, Tensor) else "torch.dtype" if isinstance(x, _dtype.dtype) else \
        "torch.device" if isinstance(x, _device.device) else \
        "torch.memory_format" if isinstance(x, memory_format) else typename(x)


# -- the legacy constructors: torch.Tensor(...) and torch.FloatTensor(...) ----------------------

_NEW_SIGNATURES = ("but expected one of:\n * (*, torch.device device = None)\n * (torch.Storage storage)\n"
                   " * (Tensor other)\n * (tuple of ints size, *, torch.device device = None)\n"
                   " * (object data, *, torch.device device = None)\n")


def _options(dtype):  # how PyTorch's error describes a tensor's dtype and place
    return (f"TensorOptions(dtype={C_NAMES[dtype.name]}, device=cpu, layout=Strided, requires_grad=false "
            f"(default), pinned_memory=false (default), memory_format=(nullopt))")


def legacy_new(dtype, args, kwargs, any_dtype=False):
    """A tensor of ``dtype`` as PyTorch's legacy constructors make it: from data (a sequence or
    an array), from sizes (uninitialised in PyTorch, zeros here), from nothing (empty), or
    from a tensor (``t.alias()``: the same numbers, shared, and the gradient flows back to ``t``;
    ``torch.Tensor`` takes ``any_dtype``)."""
    _device.check(kwargs.pop("device", None))
    first = args[0] if args else None
    integer = lambda a: isinstance(a, (int, np.integer)) and not isinstance(a, builtins.bool)  # noqa: E731
    whole = lambda a: isinstance(a, (int, np.integer))  # noqa: E731 (after the first, a bool is a size)
    sizes = (not args or integer(first)) and all(whole(a) for a in args[1:])
    if kwargs or len(args) > 1 and not integer(first):
        got = [_arg_type(a) for a in args] + [f"{k}={_arg_type(v)}" for k, v in kwargs.items()]
        raise TypeError(f"new() received an invalid combination of arguments - got ({', '.join(got)}), "
                        + _NEW_SIGNATURES)
    if len(args) > 1 and not sizes:  # FloatTensor(2, 3.0)
        at, bad = next((k, a) for k, a in enumerate(args) if not whole(a))
        raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {at + 1} with error "
                        f"\"type must be tuple of ints,but got {typename(bad)}\"")
    if sizes or isinstance(first, Size):
        return Tensor._wrap(np.zeros(_sizes(args or (0,), "empty"), dtype.np))  # FloatTensor(): empty
    if isinstance(first, Tensor):  # if of this type, an alias: the same numbers, and the graph
        if first.dtype is not dtype and not any_dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(first.dtype)})")
        if not grad_mode._state.enabled:  # (PyTorch's alias then is a leaf that requires grad as first does)
            return Tensor._leaf(first._data, first.requires_grad)
        return ops.Alias.apply(first, ())  # (AliasBackward0 if first requires grad)
    if isinstance(first, str):
        raise TypeError(f"new(): invalid data type '{typename(first)}'")
    if not isinstance(first, (list, tuple, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {typename(first)})")
    return Tensor._wrap(_dtype.array_of(first, dtype))
