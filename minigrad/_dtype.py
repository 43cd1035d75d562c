"""The four dtypes minigrad knows, and PyTorch's type-promotion rules for them."""
import numpy as np

builtins_bool = type(True)  # the built-in, before this module's own `bool` dtype hides it


class dtype:
    """A tensor element type. Prints as PyTorch's does (``torch.float32``) so that
    output of ``import minigrad as torch`` code reads the same as under PyTorch."""

    __slots__ = ("name", "np", "is_floating_point", "itemsize", "_category")

    def __init__(self, name, np_type, category):
        self.name = name
        self.np = np.dtype(np_type)
        self.is_floating_point = category == 2
        self.itemsize = self.np.itemsize
        self._category = category  # bool < integer < floating point

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):  # pickle/deepcopy keep the singletons
        return self.name


float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)
int64 = dtype("int64", np.int64, 1)
bool = dtype("bool", np.bool_, 0)  # noqa: A001 (PyTorch's name, on purpose)
float = float32  # noqa: A001
double = float64
long = int64

_FROM_NUMPY = {d.np: d for d in (float32, float64, int64, bool)}


def from_numpy_dtype(np_dtype):
    """The minigrad dtype for a NumPy dtype: other ints become int64, other floats float32."""
    try:
        return _FROM_NUMPY[np_dtype]
    except KeyError:
        if np_dtype.kind in "iu":
            return int64
        if np_dtype.kind == "f":
            return float32 if np_dtype.itemsize <= 4 else float64
        raise TypeError(f"can't convert np.ndarray of type {np_dtype} to a minigrad tensor. "
                        "The only supported types are: float64, float32, int64 and bool.") from None


_default_float = [float32]


def get_default_dtype():
    """The dtype of tensors made from Python floats: float32 unless changed."""
    return _default_float[0]


def set_default_dtype(d):
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float[0] = d


def default_for(value):
    """PyTorch's default dtype for a Python number: the default float, int64 or bool."""
    if isinstance(value, builtins_bool):
        return bool
    if isinstance(value, int):
        return int64
    return _default_float[0]




def result_type(a, b):
    """PyTorch's promotion for a binary op on Tensors and Python numbers.

    The highest category wins (bool < int < float). Within it, a tensor with
    dimensions outranks a 0-d tensor, which outranks a Python number, so that
    ``float32_tensor * 2.5`` and ``float32_tensor * float64_scalar_tensor`` stay float32.
    """
    best = None  # (category, rank, dtype)
    for x in (a, b):
        if hasattr(x, "_data"):  # a Tensor
            d = x.dtype
            key = (d._category, 2 if x._data.ndim else 1, d)
        else:
            d = default_for(x)
            key = (d._category, 0, d)
        if best is None or key[:2] > best[:2]:
            best = key
        elif key[:2] == best[:2] and key[2].itemsize > best[2].itemsize:
            best = key
    return best[2]
