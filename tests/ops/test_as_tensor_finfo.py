"""``torch.as_tensor``, ``torch.asarray``, ``torch.finfo`` and ``torch.iinfo`` against PyTorch
(answers recorded: tests/oracle.py).

Data-loading code turns NumPy arrays and lists into tensors with ``as_tensor`` (sharing the
array's memory where it can: change one, the other changes); numerics code asks
``finfo(x.dtype).eps`` or ``iinfo(torch.int64).max``. Each program returns what a learner
would see: the tensor, what a change to the array does to it, ``is`` the same object, the
repr, the error.
"""
import subprocess
import sys
import warnings

import numpy as np
import pytest
from oracle import error_of

# -- as_tensor ------------------------------------------------------------------------------------

AS_TENSOR = {
    "int list": lambda T: T.as_tensor([1, 2, 3]),
    "float list": lambda T: T.as_tensor([[1.5, 2], [3, 4]]),
    "int list as float32": lambda T: T.as_tensor([1, 2], dtype=T.float32),
    "float list as Python int": lambda T: T.as_tensor([1.7, -2.2], dtype=int),
    "int list as Python float": lambda T: T.as_tensor([1, 2], dtype=float),
    "bools": lambda T: T.as_tensor([True, False]),
    "tuple": lambda T: T.as_tensor((1, 2)),
    "empty list": lambda T: T.as_tensor([]),
    "a number": lambda T: T.as_tensor(3.5),
    "an int": lambda T: T.as_tensor(3),
    "numpy float64 scalar": lambda T: T.as_tensor(np.float64(2.5)),
    "numpy int64 scalar": lambda T: T.as_tensor(np.int64(2)),
    "list of 0-d tensors": lambda T: T.as_tensor([T.tensor(1.0), T.tensor(2.0)]),
    "float64 array": lambda T: T.as_tensor(np.array([[1.0, 2.0], [3.0, 4.0]])),
    "float32 array": lambda T: T.as_tensor(np.array([1.0, 2.0], np.float32)),
    "int64 array": lambda T: T.as_tensor(np.array([1, 2], np.int64)),
    "int32 array": lambda T: T.as_tensor(np.array([1, 2], np.int32)),
    "bool array": lambda T: T.as_tensor(np.array([True, False])),
    "0-d array": lambda T: T.as_tensor(np.array(2.5)),
    "float64 array as float32": lambda T: T.as_tensor(np.array([0.1, 0.2]), dtype=T.float32),
    "int array as Python float": lambda T: T.as_tensor(np.array([1, 2]), dtype=float),
    "uint8 image as float32": lambda T: T.as_tensor(np.array([[0, 128, 255]], np.uint8), dtype=T.float32),
    "int32 list": lambda T: T.as_tensor([1, -2], dtype=T.int32),
    "on the cpu": lambda T: T.as_tensor([1.0], device="cpu"),
}


@pytest.mark.parametrize("case", AS_TENSOR)
def test_as_tensor_values(oracle, case):
    oracle.same(lambda lib: AS_TENSOR[case](lib))


def test_as_tensor_shares_numpy_memory(oracle):
    """A NumPy array of the same dtype: one memory, changes show both ways (as from_numpy);
    another dtype: a copy."""
    def program(lib):
        a = np.array([1.0, 2.0, 3.0])
        shared, copied = lib.as_tensor(a), lib.as_tensor(a, dtype=lib.float32)
        same_dtype = lib.as_tensor(a, dtype=lib.float64)
        a[0] = 9.0
        shared[2] = -1.0
        grid = np.arange(6.0).reshape(2, 3)
        transposed = lib.as_tensor(grid.T)  # a view with strides: shared too
        grid[0, 0] = 7.0
        ints = np.array([1, 2], np.int32)
        as_int32 = lib.as_tensor(ints)
        ints[1] = 5
        return {"shared": shared, "copied": copied, "same dtype given": same_dtype, "array": a,
                "transposed": transposed, "its stride": transposed.stride(), "int32": as_int32}
    oracle.same(program)


def test_as_tensor_of_a_tensor(oracle):
    """A tensor of the asked dtype is returned itself; another dtype is ``t.to(dtype)``: a
    copy that keeps the graph (ToCopyBackward0), so the gradient flows back."""
    def program(lib):
        t = lib.tensor([1.0, 2.0], requires_grad=True)
        same = lib.as_tensor(t)
        double = lib.as_tensor(t, dtype=lib.float64)
        (double * double).sum().backward()
        ints = lib.tensor([1, 2])
        return {"as_tensor(t) is t": same is t,
                "same dtype is t": lib.as_tensor(t, dtype=lib.float32) is t,
                "device cpu is t": lib.as_tensor(t, device="cpu") is t,
                "float64": double, "grad": t.grad,
                "ints as float": lib.as_tensor(ints, dtype=float),
                "ints is ints": lib.as_tensor(ints) is ints}
    oracle.same(program)


def first_words(error):
    """An accelerator refusal as PyTorch words it: minigrad adds why after a full stop."""
    return error if isinstance(error, str) else (error.type, error.message.split(". minigrad")[0])


AS_TENSOR_ERRORS = {
    "a string": lambda T: T.as_tensor("abc"),
    "ragged lists": lambda T: T.as_tensor([[1, 2], [3]]),
    "None": lambda T: T.as_tensor(None),
    "an array of strings": lambda T: T.as_tensor(np.array(["a", "b"])),
    "an array of objects": lambda T: T.as_tensor(np.array([1, None])),
    "strings, as float32": lambda T: T.as_tensor(np.array(["a"]), dtype=T.float32),
    "negative strides": lambda T: T.as_tensor(np.arange(4.0)[::-1]),
    "negative strides, another dtype": lambda T: T.as_tensor(np.arange(4.0)[::-1], dtype=T.float32),
    "big-endian": lambda T: T.as_tensor(np.array([1.0, 2.0], ">f8")),
    "dtype a string": lambda T: T.as_tensor([1.0], dtype="float32"),
    "dtype a string before the data": lambda T: T.as_tensor("abc", dtype="x"),
    "dtype by position": lambda T: T.as_tensor([1, 2], T.float64),
    "requires_grad is no argument": lambda T: T.as_tensor([1.0], requires_grad=True),
    "an int too big": lambda T: T.as_tensor(2 ** 70),
    "beyond int32": lambda T: T.as_tensor([2 ** 40], dtype=T.int32),
    "only one element tensors": lambda T: T.as_tensor([T.ones(2), T.ones(2)]),
}


@pytest.mark.parametrize("case", AS_TENSOR_ERRORS)
def test_as_tensor_errors(oracle, case):
    oracle.same_error(lambda lib: AS_TENSOR_ERRORS[case](lib))


def test_as_tensor_on_cuda_is_refused(oracle):
    def program(lib):
        return [first_words(error_of(lambda: lib.as_tensor([1.0], device="cuda"))),
                first_words(error_of(lambda: lib.as_tensor(lib.ones(2), device="cuda"))),
                first_words(error_of(lambda: lib.as_tensor(np.ones(2), device="cuda"))),
                first_words(error_of(lambda: lib.as_tensor("abc", device="cuda")))]  # the data first
    oracle.same(program)


def test_as_tensor_of_uint8_shares(oracle):
    def program(lib):
        a = np.array([1, 2], np.uint8)
        t = lib.as_tensor(a)
        a[0] = 9
        return t
    oracle.same(program)


# -- asarray -------------------------------------------------------------------------------------

def test_asarray_copy_of_numpy(oracle):
    """copy=None shares where it can, copy=True never, copy=False always (or refuses)."""
    def program(lib):
        a = np.array([1.0, 2.0])
        default, copied, aliased = lib.asarray(a), lib.asarray(a, copy=True), lib.asarray(a, copy=False)
        converted = lib.asarray(a, dtype=lib.float32)
        with_grad = lib.asarray(a, requires_grad=True)
        a[0] = 9.0
        return {"copy=None": default, "copy=True": copied, "copy=False": aliased, "float32": converted,
                "requires_grad": with_grad, "list": lib.asarray([1, 2]), "float list": lib.asarray([1.0, 2]),
                "list as float": lib.asarray([1, 2], dtype=float), "number": lib.asarray(3.5),
                "numpy scalar": lib.asarray(np.float32(2.5)),
                "0-d tensors": lib.asarray([lib.tensor(1.0), lib.tensor(2.0)]),
                "list, requires_grad": lib.asarray([1.0, 2.0], requires_grad=True)}
    oracle.same(program)


@pytest.mark.filterwarnings("ignore:torch.asarray. unspecified requires_grad")  # (tested below)
def test_asarray_of_a_tensor(oracle):
    """A tensor is returned itself unless a copy is asked or a new dtype needs one; the
    result requires grad as asked (None: as the tensor does), keeping its history if so."""
    def leaf(lib):
        return lib.tensor([1.0, 2.0], requires_grad=True)

    def program(lib):
        t = lib.tensor([1.0, 2.0])
        copy = lib.asarray(t, copy=True)
        copy[0] = 5.0
        out = {"is t": lib.asarray(t) is t, "copy=False is t": lib.asarray(t, copy=False) is t,
               "same dtype is t": lib.asarray(t, dtype=lib.float32) is t,
               "copy=True is not t": lib.asarray(t, copy=True) is not t, "t after the copy changed": t,
               "float64": lib.asarray(t, dtype=lib.float64)}
        for name, kwargs in {"nothing": {}, "requires_grad=False": {"requires_grad": False},
                             "requires_grad=True": {"requires_grad": True}, "copy": {"copy": True},
                             "copy, requires_grad=False": {"copy": True, "requires_grad": False},
                             "float64": {"dtype": lib.float64},
                             "float64, requires_grad=False": {"dtype": lib.float64, "requires_grad": False},
                             "float64, requires_grad=True": {"dtype": lib.float64, "requires_grad": True}
                             }.items():
            x = leaf(lib)
            y = x * 2
            with_leaf, with_result = lib.asarray(x, **kwargs), lib.asarray(y, **kwargs)
            out[name] = {"of a leaf": with_leaf, "is it": with_leaf is x,
                         "leaf requires grad": x.requires_grad,
                         "of a result": with_result, "is the result": with_result is y}
        plain = lib.tensor([1.0, 2.0])
        out["requires_grad=True on a plain tensor"] = (lib.asarray(plain, requires_grad=True) is plain, plain)
        ints = lib.tensor([1, 2])
        out["ints as float, requires_grad"] = lib.asarray(ints, dtype=lib.float32, requires_grad=True)
        with lib.no_grad():
            out["under no_grad, float64"] = lib.asarray(leaf(lib), dtype=lib.float64, requires_grad=True)
        x = leaf(lib)
        (lib.asarray(x, dtype=lib.float64, requires_grad=True) ** 2).sum().backward()
        out["grad through the copy"] = x.grad
        return out
    oracle.same(program)


ASARRAY_ERRORS = {
    "copy=False of a list": lambda T: T.asarray([1, 2], copy=False),
    "copy=False of a number": lambda T: T.asarray(3.5, copy=False),
    "copy=False of a string": lambda T: T.asarray("abc", copy=False),
    "copy=False of a numpy scalar": lambda T: T.asarray(np.float32(2.5), copy=False),
    "copy=False to another dtype": lambda T: T.asarray(np.array([1.0, 2.0]), dtype=T.float32, copy=False),
    "copy=False, int64 to int32": lambda T: T.asarray(np.array([1, 2]), dtype=T.int32, copy=False),
    "copy=False, tensor to another dtype": lambda T: T.asarray(T.ones(2), dtype=T.float64, copy=False),
    "a string": lambda T: T.asarray("abc"),
    "ragged": lambda T: T.asarray([[1], [2, 3]]),
    "an array of strings": lambda T: T.asarray(np.array(["a"])),
    "negative strides, copy=True": lambda T: T.asarray(np.arange(3.0)[::-1], copy=True),
    "None": lambda T: T.asarray(None),
    "dtype a string": lambda T: T.asarray([1, 2], dtype="x"),
    "dtype by position": lambda T: T.asarray([1, 2], T.float32),
    "ints requiring grad": lambda T: T.asarray([1, 2], requires_grad=True),
    "an int tensor requiring grad": lambda T: T.asarray(T.tensor([1, 2]), requires_grad=True),
    "an int array requiring grad": lambda T: T.asarray(np.array([1, 2]), requires_grad=True),
}


@pytest.mark.parametrize("case", ASARRAY_ERRORS)
def test_asarray_errors(oracle, case):
    oracle.same_error(lambda lib: ASARRAY_ERRORS[case](lib))


WARNING_PROGRAM = """
import warnings
import {lib} as torch
warnings.simplefilter("always")
x = torch.tensor([1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as log:
    warnings.simplefilter("always")
    torch.asarray(x)
    torch.asarray(x * 2)
    torch.asarray(x, requires_grad=True)
for w in log:
    print(type(w.message).__name__, str(w.message).split(" (Triggered internally at ")[0])
"""


def test_asarray_says_its_default_changed(oracle):
    """PyTorch 2.13 warns, once in a process, that requires_grad=None now keeps the tensor's;
    run in a fresh process, so that no earlier test has used up the one warning."""
    def program(lib):
        res = subprocess.run([sys.executable, "-c", WARNING_PROGRAM.format(lib=lib.__name__)],
                             capture_output=True, text=True, check=True)
        return res.stdout
    oracle.same(program)


# -- lists of NumPy arrays ---------------------------------------------------------------------------
# PyTorch reads a list of arrays as nested lists: the shape from the first items, each array's
# dtype promoted with the others' (float32 arrays stay float32, with a float64 one float64), a
# 0-d array where a number belongs as a number (but not as the first item: it has no len()).

ARRAY_LISTS = {
    "float64 arrays": lambda T: T.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
    "float32 arrays": lambda T: T.tensor([np.array([1, 2], np.float32), np.array([3, 4], np.float32)]),
    "float32 and float64": lambda T: T.tensor([np.array([1, 2], np.float32), np.array([3, 4], np.float64)]),
    "int and float arrays": lambda T: T.tensor([np.array([1, 2]), np.array([3.0, 4])]),
    "int32 arrays": lambda T: T.tensor([np.array([1, 2], np.int32), np.array([3, 4], np.int32)]),
    "int32 array and ints": lambda T: T.tensor([np.array([1, 2], np.int32), [3, 4]]),
    "float32 array and floats": lambda T: T.tensor([np.array([1, 2], np.float32), [3.5, 4]]),
    "bool arrays": lambda T: T.tensor([np.array([True]), np.array([False])]),
    "one array": lambda T: T.tensor([np.array([1, 2])]),
    "a tuple of arrays": lambda T: T.tensor((np.array([1.0, 2.0]), np.array([3.0, 4.0]))),
    "nested": lambda T: T.tensor([[np.array([1, 2])], [np.array([3, 4])]]),
    "a list, then an array": lambda T: T.tensor([[3, 4], np.array([1, 2])]),
    "2-d arrays and lists": lambda T: T.tensor([np.array([[1, 2]]), [[3, 4]]]),
    "reversed array": lambda T: T.tensor([np.array([1, 2])[::-1]]),
    "an array and a tensor": lambda T: T.tensor([np.array([1.0, 2.0]), T.tensor([3.0, 4.0])]),
    "0-d arrays": lambda T: T.tensor([np.array(1.0), np.array(2.0)]),
    "a number, then a 0-d array": lambda T: T.tensor([1, np.array(2.0)]),
    "0-d array inside": lambda T: T.tensor([[1, 2], [np.array(3.0), 4]]),
    "0-d tensor and 0-d array": lambda T: T.tensor([T.tensor(1.0, dtype=T.float64), np.array(2, np.float32)]),
    "NumPy scalars": lambda T: T.tensor([np.float64(1.0), np.float32(2.0)]),
    "float64 scalar and int": lambda T: T.tensor([np.float64(1.0), 2]),
    "float64 tensor and float": lambda T: T.tensor([T.tensor(1.0, dtype=T.float64), 2.0]),
    "dtype=int64": lambda T: T.tensor([np.array([1.5, 2.0]), [3, 4]], dtype=T.int64),
    "dtype=float32": lambda T: T.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])], dtype=T.float32),
    "empty arrays": lambda T: T.tensor([np.array([]), np.array([])]),
    "nothing to read": lambda T: T.tensor([[], [1]]),
    "as_tensor": lambda T: T.as_tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
    "as_tensor, dtype=": lambda T: T.as_tensor([np.array([1, 2])], dtype=T.float32),
    "asarray": lambda T: T.asarray([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
    "torch.Tensor": lambda T: T.Tensor([np.array([1, 2])]),
    # PyTorch's errors
    "ragged arrays": lambda T: T.tensor([np.array([1, 2]), np.array([3])]),
    "an array, then a short list": lambda T: T.tensor([np.array([1, 2]), [3]]),
    "0-d array first": lambda T: T.tensor([np.array(1.0), 2]),
    "an array, then a number": lambda T: T.tensor([np.array([1, 2]), 3]),
    "an array, then a 0-d array": lambda T: T.tensor([np.array([1, 2]), np.array(3.0)]),
    "a number, then an int array": lambda T: T.tensor([1, np.array([2, 3])]),
    "a float, then an array": lambda T: T.tensor([1.5, np.array([2, 3])]),
    "too deep an array": lambda T: T.tensor([[1, 2], np.array([[1], [2]])]),
    "too shallow an array": lambda T: T.tensor([[[1], [2]], np.array([1, 2])]),
    "an array of objects": lambda T: T.tensor([np.array([None])]),
    "overflow into int32": lambda T: T.tensor([np.array([1e10]), [2]], dtype=T.int32),
    # the same rules for lists (NumPy's words before)
    "ragged below": lambda T: T.tensor([[[1, 2]], [[3]]]),
    "a list, then a number": lambda T: T.tensor([[1, 2], 3]),
    "a number, then a list": lambda T: T.tensor([3, [1, 2]]),
    "a float, then a list": lambda T: T.tensor([1.5, (1, 2)]),
    "an int, then a tensor": lambda T: T.tensor([1, T.tensor([2, 3])]),
    "a list of strings": lambda T: T.tensor(["a"]),
}


@pytest.mark.parametrize("case", ARRAY_LISTS)
def test_lists_of_arrays(oracle, case):
    def program(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (said once in a process: see the test below)
            error = error_of(ARRAY_LISTS[case], lib)
            return ARRAY_LISTS[case](lib) if error == "no exception" else error
    oracle.same(program)


def test_list_of_uint8_arrays(oracle):
    oracle.same(lambda lib: lib.tensor([np.array([0, 255], np.uint8), np.array([7, 8], np.uint8)]))


B = np.bool_(True)
# NumPy bools (what comparing NumPy values gives) in a list: an integer tensor reads one by
# __index__, which NumPy refuses; a float or bool tensor reads it. PyTorch raises at the first
# item it cannot store, so the order of problems counts.
NUMPY_BOOLS = {
    "bool, int": lambda T: T.tensor([B, 2]),
    "int, bool": lambda T: T.tensor([2, B]),
    "bool, float": lambda T: T.tensor([B, 2.5]),
    "bools and bools": lambda T: T.tensor([B, np.bool_(False), True]),
    "bool alone, dtype=int64": lambda T: T.tensor(B, dtype=T.int64),
    "bools, dtype=int32": lambda T: T.tensor([B, np.bool_(False)], dtype=T.int32),
    "bool, float, dtype=int64": lambda T: T.tensor([B, 2.5], dtype=T.int64),
    "bool, int, dtype=float32": lambda T: T.tensor([B, 2], dtype=T.float32),
    "bool, int, dtype=bool": lambda T: T.tensor([B, 2], dtype=T.bool),
    "nested": lambda T: T.tensor([[2], [B]]),
    "NumPy ints": lambda T: T.tensor([np.int32(3), B]),
    "bool, then a short list": lambda T: T.tensor([[B], [2, 3]]),
    "a short list, then a bool": lambda T: T.tensor([[2, 3], [B]]),
    "bool, then a list": lambda T: T.tensor([B, [2]]),
    "bool, then an int too big": lambda T: T.tensor([B, 2 ** 70]),
    "an int too big, then a bool": lambda T: T.tensor([2 ** 70, B]),
    "an int too big in floats": lambda T: T.tensor([B, 2 ** 70, 1.5]),
    "bool arrays": lambda T: T.tensor([np.array([True]), np.array([False])]),
    "bool arrays, dtype=int64": lambda T: T.tensor([np.array([True]), np.array([False])], dtype=T.int64),
    "bool array, then ints": lambda T: T.tensor([np.array([True]), [2]]),
    "bool array, then ints, dtype=float64": lambda T: T.tensor([np.array([True]), [2]], dtype=T.float64),
    "int, 0-d bool array": lambda T: T.tensor([2, np.array(True)]),
    "int, 0-d bool array, dtype=bool": lambda T: T.tensor([2, np.array(True)], dtype=T.bool),
    "float, 0-d bool array": lambda T: T.tensor([2.5, np.array(True)]),
    "bool, int tensor": lambda T: T.tensor([B, T.tensor(2)]),
    "bool, bool tensor": lambda T: T.tensor([B, T.tensor(True)]),
    "as_tensor": lambda T: T.as_tensor([B, 2]),
    "as_tensor, dtype=float32": lambda T: T.as_tensor([B, 2], dtype=T.float32),
    "new_tensor of an int tensor": lambda T: T.zeros(1, dtype=T.int64).new_tensor([B, np.bool_(False)]),
    "LongTensor": lambda T: T.LongTensor([B, 2]),
    "FloatTensor": lambda T: T.FloatTensor([B, 2]),
}


@pytest.mark.parametrize("case", NUMPY_BOOLS)
def test_numpy_bools_in_lists(oracle, case):
    def program(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (a list of arrays: said once in a process)
            error = error_of(NUMPY_BOOLS[case], lib)
            return NUMPY_BOOLS[case](lib) if error == "no exception" else error
    oracle.same(program)


ARRAYS_WARNING_AFTER_AN_ERROR = """
import warnings
import numpy as np
import {lib} as torch
with warnings.catch_warnings(record=True) as log:
    warnings.simplefilter("always")
    for data in ([[1, 2], [3], np.array([1, 2])], [np.bool_(True), np.array([2])], [[2 ** 70], np.array([1])]):
        try:
            torch.tensor(data)  # (an error before the array: no warning)
        except (TypeError, ValueError) as e:
            print(type(e).__name__, e)
    print(len(log))
    print(torch.tensor([[2 ** 70], np.array([1.0])]))  # (a float tensor takes the int: the array is read)
    print(len(log))
"""


def test_lists_of_arrays_warn_only_when_read(oracle):
    """PyTorch warns when it reads an array in a list: not if it raised at an item before it."""
    def program(lib):
        res = subprocess.run([sys.executable, "-c", ARRAYS_WARNING_AFTER_AN_ERROR.format(lib=lib.__name__)],
                             capture_output=True, text=True, check=True)
        return res.stdout
    oracle.same(program)


ARRAYS_WARNING_PROGRAM = """
import warnings
import numpy as np
import {lib} as torch
with warnings.catch_warnings(record=True) as log:
    warnings.simplefilter("always")
    torch.tensor([np.array([]), np.array([])])  # (nothing read: no warning)
    torch.tensor([np.float64(1.0), 2.0])  # (NumPy scalars are not arrays)
    print(len(log))
    torch.tensor([1.0, np.array(2.0)])
    torch.tensor([np.array([1.0]), np.array([2.0])])
for w in log:
    print(type(w.message).__name__, str(w.message).split(" (Triggered internally at ")[0])
"""


def test_lists_of_arrays_warn_once(oracle):
    """PyTorch warns, once in a process, that a list of arrays is slow to read, at the first
    array it reads in a list; run in a fresh process, so that no earlier test used it up."""
    def program(lib):
        res = subprocess.run([sys.executable, "-c", ARRAYS_WARNING_PROGRAM.format(lib=lib.__name__)],
                             capture_output=True, text=True, check=True)
        return res.stdout
    oracle.same(program)


# -- finfo and iinfo ------------------------------------------------------------------------------

def limits(info, names):
    return {name: getattr(info, name) for name in names} | {"repr": repr(info), "str": str(info)}


FINFO = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
IINFO = ("bits", "max", "min", "dtype")


def test_finfo(oracle):
    def program(lib):
        out = {repr(d): limits(lib.finfo(d), FINFO) for d in (lib.float32, lib.float64, float)}
        out["no argument"] = repr(lib.finfo())
        out["of x.dtype"] = lib.finfo(lib.ones(2).dtype).min
        out["type of eps"] = type(lib.finfo(lib.float32).eps).__name__
        out["equal"] = (lib.finfo(lib.float32) == lib.finfo(lib.float32),
                        lib.finfo(lib.float32) == lib.finfo(lib.float64), lib.finfo(lib.float32) == 3)
        out["unhashable"] = not isinstance(error_of(hash, lib.finfo(lib.float32)), str)
        out["keyword"] = repr(lib.finfo(type=lib.float64))
        out["one epsilon over 1"] = (lib.tensor(1.0) + lib.finfo(lib.float32).eps / 2).item()
        lib.set_default_dtype(lib.float64)
        try:
            out["no argument, float64 default"] = repr(lib.finfo())
        finally:
            lib.set_default_dtype(lib.float32)
        return out
    oracle.same(program)


def test_iinfo(oracle):
    def program(lib):
        out = {repr(d): limits(lib.iinfo(d), IINFO) for d in (lib.int64, lib.int32, int, lib.long, lib.int)}
        out["type of max"] = type(lib.iinfo(lib.int64).max).__name__
        out["equal"] = (lib.iinfo(lib.int32) == lib.iinfo(lib.int32),
                        lib.iinfo(lib.int32) == lib.iinfo(lib.int64))
        out["max + 1 wraps"] = (lib.tensor([lib.iinfo(lib.int32).max], dtype=lib.int32) + 1).tolist()
        return out
    oracle.same(program)


INFO_ERRORS = {
    "finfo of int64": lambda T: T.finfo(T.int64),
    "finfo of int32": lambda T: T.finfo(T.int32),
    "finfo of bool": lambda T: T.finfo(T.bool),
    "finfo of Python int": lambda T: T.finfo(int),
    "finfo of a string": lambda T: T.finfo("float32"),
    "finfo of None": lambda T: T.finfo(None),
    "finfo of a NumPy type": lambda T: T.finfo(np.float32),
    "finfo of a tensor": lambda T: T.finfo(T.ones(1)),
    "iinfo of float32": lambda T: T.iinfo(T.float32),
    "iinfo of float64": lambda T: T.iinfo(T.float64),
    "iinfo of Python float": lambda T: T.iinfo(float),
    "iinfo of bool": lambda T: T.iinfo(T.bool),
    "iinfo of Python bool": lambda T: T.iinfo(bool),
    "iinfo of a string": lambda T: T.iinfo("int64"),
    "iinfo with no argument": lambda T: T.iinfo(),
}


@pytest.mark.parametrize("case", INFO_ERRORS)
def test_finfo_iinfo_errors(oracle, case):
    oracle.same_error(lambda lib: INFO_ERRORS[case](lib))
