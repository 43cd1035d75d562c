"""torch.save and torch.load: tensors, state_dicts and whole models to a file and back.

Every tutorial ends by saving its model::

    torch.save(model.state_dict(), "model.pth")
    model.load_state_dict(torch.load("model.pth"))

A file is a short header, the tensors' NumPy arrays (in NumPy's own ``.npy`` format,
which holds numbers only) and a pickle of everything else, in which each tensor is
replaced by a reference to its array. Loading can therefore be made safe: with
``weights_only=True`` (the default, as in PyTorch) the unpickler builds only tensors,
dtypes, sizes, devices and plain containers (dicts, lists, tuples, sets, numbers,
strings, OrderedDict) and refuses every other class, since unpickling a class can run
any code. ``weights_only=False`` loads anything, whole modules included: only for
files you trust.

Loading keeps each tensor's dtype, shape, ``requires_grad`` (as a leaf) and Parameter-ness,
and tensors that shared memory when saved (a tensor and its view, a tied weight) share it
again. ``.grad`` is not saved, as in PyTorch.

The format is minigrad's own: PyTorch cannot read these files, and minigrad cannot read
PyTorch's (it says so, rather than failing obscurely).
"""
import contextlib
import io
import os
import pickle

import numpy as np

from . import _dtype
from ._device import device as _device
from ._tensor import Size, Tensor
from .nn.parameter import Parameter

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "safe_globals", "clear_safe_globals"]

_MAGIC = b"minigrad.save 1\n"
_ZIP_MAGIC = b"PK\x03\x04"  # PyTorch's files are zip archives

# What weights_only=True may build besides tensors: PyTorch's plain containers and numbers.
_SAFE = {("collections", "OrderedDict"), ("builtins", "set"), ("builtins", "frozenset"),
         ("builtins", "complex"), ("builtins", "slice"), ("builtins", "bytearray")}
_user_safe = []  # classes allowed by add_safe_globals


# -- saving --------------------------------------------------------------------------------------------
def _root(array):
    """The array that owns the memory ``array`` looks into (itself if it owns it)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


class _Pickler(pickle.Pickler):
    """A pickler that sets tensors (and dtypes, sizes, devices) aside as references.

    A tensor is saved as (which array, where in it, shape, strides, ...): the array is the
    one owning the memory, saved once, so views and shared tensors share it after loading.
    """

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.arrays = {}  # id(root array) -> (its number, the array)
        self.tensors = {}  # id(tensor) -> its number: a tensor met twice is loaded once

    def persistent_id(self, obj):
        if isinstance(obj, Tensor):
            array = obj._data
            root = _root(array)
            if root.dtype != array.dtype or root.base is not None:  # not a plain view: save a copy
                root = array = np.ascontiguousarray(array)
            key, _ = self.arrays.setdefault(id(root), (len(self.arrays), root))
            offset = array.__array_interface__["data"][0] - root.__array_interface__["data"][0]
            number = self.tensors.setdefault(id(obj), len(self.tensors))
            return ("tensor", number, key, offset, array.shape, array.strides, obj.requires_grad,
                    isinstance(obj, Parameter))
        if isinstance(obj, _dtype.dtype):
            return ("dtype", obj.name)
        if isinstance(obj, Size):
            return ("size", tuple(obj))
        if isinstance(obj, _device):
            return ("device", str(obj))
        return None


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write ``obj`` (a tensor, a state_dict, any picklable object) to ``f``, a file name,
    a path or a file-like object opened for writing (``io.BytesIO``)."""
    body = io.BytesIO()
    pickler = _Pickler(body, max(pickle_protocol, 2))
    pickler.dump(obj)
    with _opened(f, "wb") as file:
        file.write(_MAGIC)
        file.write(b"%d\n" % len(pickler.arrays))
        for _, array in pickler.arrays.values():
            np.lib.format.write_array(file, array, allow_pickle=False)
        file.write(body.getvalue())


@contextlib.contextmanager
def _opened(f, mode):
    if isinstance(f, (str, os.PathLike)):
        with open(f, mode) as file:
            yield file
    else:
        needed = "write" if "w" in mode else "read"
        if not hasattr(f, needed):
            raise AttributeError(f"expected 'f' to be string, path, or a file-like object with a '{needed}' "
                                 "attribute")
        yield f


# -- loading -------------------------------------------------------------------------------------------
_WEIGHTS_ONLY_HELP = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, do those "
    "steps only if you trust the source of the checkpoint. \n"
    "\t(1) Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can "
    "result in arbitrary code execution. Do it only if you got the file from a trusted source.\n"
    "\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the "
    "following error message.\n"
    "\tWeightsUnpickler error: Unsupported global: GLOBAL {0} was not an allowed global by default. "
    "Please use `torch.serialization.add_safe_globals([{0}])` or the "
    "`torch.serialization.safe_globals([{0}])` context manager to allowlist this global if you trust "
    "this class/function.\n\n"
    "(weights_only=True loads tensors and plain containers only: saving `model.state_dict()` rather "
    "than the whole model avoids the question.)")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, arrays, weights_only):
        super().__init__(file)
        self.arrays = arrays
        self.weights_only = weights_only
        self.tensors = {}  # number -> the tensor loaded

    def find_class(self, module, name):
        if self.weights_only:
            where = "builtins" if module == "__builtin__" else module  # pickle protocol 2's name
            allowed = {(c.__module__, c.__qualname__): c for c in _user_safe}
            if (where, name) in allowed:
                return allowed[where, name]
            if (where, name) not in _SAFE:
                raise pickle.UnpicklingError(_WEIGHTS_ONLY_HELP.format(name if where == "builtins" else
                                                                       f"{module}.{name}"))
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind, *args = pid
        if kind == "tensor":
            number, key, offset, shape, strides, requires_grad, is_parameter = args
            if number in self.tensors:
                return self.tensors[number]
            root = self.arrays[key]
            array = np.ndarray(shape, root.dtype, buffer=root, offset=offset, strides=strides) \
                if root.size else root.reshape(shape)
            if is_parameter:
                tensor = Parameter(Tensor._wrap(array), requires_grad)
            else:
                tensor = Tensor._wrap(array).requires_grad_(requires_grad)
            self.tensors[number] = tensor
            return tensor
        if kind == "dtype":
            return _dtype.from_numpy_dtype(np.dtype(args[0]))
        if kind == "size":
            return Size(args[0])
        if kind == "device":
            return _device(args[0])
        raise pickle.UnpicklingError(f"unknown persistent id {kind!r}")


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **pickle_load_args):
    """Read back what :func:`save` wrote. ``f``: a file name, a path or a readable file-like
    object. ``map_location`` is accepted for the CPU (minigrad's only device).
    ``weights_only=True`` builds tensors and plain containers only (safe on any file);
    ``weights_only=False`` builds any object, whole modules included (trusted files only)."""
    if isinstance(map_location, (str, _device)) and _device(map_location).type != "cpu":
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                           "False. If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    with _opened(f, "rb") as file:
        magic = file.read(len(_MAGIC))
        if magic != _MAGIC:
            if magic.startswith(_ZIP_MAGIC):
                raise RuntimeError("This file was written by PyTorch's torch.save: minigrad reads only files "
                                   "written by minigrad's own save (the formats differ). Save it from PyTorch "
                                   "as NumPy arrays (t.numpy()) and build the tensors with torch.tensor.")
            raise pickle.UnpicklingError(f"invalid load key, {magic[:1]!r}: not a file written by torch.save")
        count = int(file.readline())
        arrays = [np.lib.format.read_array(file, allow_pickle=False) for _ in range(count)]
        return _Unpickler(file, arrays, weights_only).load()


def add_safe_globals(safe_globals):
    """Let ``weights_only=True`` build these classes too (only if you trust them)."""
    _user_safe.extend(safe_globals)


def get_safe_globals():
    return list(_user_safe)


def clear_safe_globals():
    _user_safe.clear()


class safe_globals:
    """``with torch.serialization.safe_globals([MyClass]): torch.load(...)``."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self.before = list(_user_safe)
        _user_safe.extend(self.safe_globals)

    def __exit__(self, *exc_info):
        _user_safe[:] = self.before
