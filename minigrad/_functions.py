"""The ``torch.*`` functions written by hand: those that do more than call one Tensor method.

The others, ``torch.exp(x)`` that is ``x.exp()`` and the like, are made from the table in
_namespace.py. Here: the functions that take a number where PyTorch does (``torch.pow(2, x)``,
``torch.eq``, the bitwise operators), several tensors (``where``, ``broadcast_tensors``; ``cat``,
``stack``, ``hstack``, ``meshgrid`` are in _joining.py) or none (``set_warn_always``). The
reductions' are in _functions_reduce.py, those of shapes and indexing in _functions_shape.py.
"""
import builtins

import numpy as np

from . import _dtype, _random, ops
from ._creation import tensor
from ._joining import cat, concat, concatenate, stack
from ._conventions import check_broadcast
from ._tensor import Size, Tensor
from ._conventions import check_tensors
from ._inplace import into_out
from ._tensor_arithmetic import rsub

__all__ = ["is_tensor", "polygamma", "true_divide", "floor_divide", "remainder", "pow", "xlogy", "copysign",
           "float_power", "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal",
           "not_equal", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
           "where", "multinomial", "broadcast_tensors", "broadcast_shapes", "set_warn_always",
           "is_warn_always_enabled",
           "cat", "concat", "concatenate", "stack", "rsub"]  # (the last five: written in _joining.py, _tensor_arithmetic.py)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def polygamma(n, input, *, out=None):
    if out is not None:
        return into_out(out, 'polygamma', lambda: polygamma(n, input), input)
    if type(n) is not builtins.int:  # (n first: torch.polygamma(x, 1) names it)
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    check_tensors("polygamma", 2, input=input)
    return input.polygamma(n)


# Of two tensors, either may be a number


def true_divide(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'true_divide', lambda: true_divide(input, other), input, other, op='div')
    return input / other


def floor_divide(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'floor_divide', lambda: floor_divide(input, other), input, other, differentiable=False)
    return input // other


def remainder(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'remainder', lambda: remainder(input, other), input, other)
    return input % other


def pow(input, exponent, *, out=None):
    if out is not None:
        return into_out(out, 'pow', lambda: pow(input, exponent), input, exponent)
    return input ** exponent  # input may be a number: torch.pow(2, x)


def xlogy(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'xlogy', lambda: xlogy(input, other), input, other)
    """``input * log(other)``, 0 where input is 0; either may be a number (not both)."""
    if not isinstance(input, Tensor):  # a number times the log of a tensor: XlogyBackward1
        check_tensors("xlogy", 2, other=other)
        dt = _dtype.result_type(other, input)
        dt = dt if dt.is_floating_point else _dtype.get_default_dtype()
        return ops.NumberXlogy.apply(input, other.to(dt))
    return input.xlogy(other)


def copysign(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'copysign', lambda: copysign(input, other), input, other)
    if not isinstance(input, Tensor):
        raise TypeError(f"copysign() received an invalid combination of arguments - got ({type(input).__name__}, "
                        f"{type(other).__name__}), but expected one of:\n * (Tensor input, Tensor other, *, Tensor "
                        "out = None)\n * (Tensor input, Number other, *, Tensor out = None)\n")
    return input.copysign(other)


def float_power(input, exponent, *, out=None):
    if out is not None:
        return into_out(out, 'float_power', lambda: float_power(input, exponent), input, exponent, op='pow')
    if not isinstance(input, Tensor):  # a number to tensor powers: PowBackward2, in float64
        return builtins.float(input) ** exponent.double()
    return input.float_power(exponent)


# Comparisons and bitwise operators (bool or integer results, no gradients)

def eq(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'eq', lambda: eq(input, other), input, other, differentiable=False)
    return input == other


def ne(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'ne', lambda: ne(input, other), input, other, differentiable=False)
    return input != other


def lt(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'lt', lambda: lt(input, other), input, other, differentiable=False)
    return input < other


def le(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'le', lambda: le(input, other), input, other, differentiable=False)
    return input <= other


def gt(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'gt', lambda: gt(input, other), input, other, differentiable=False)
    return input > other


def ge(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'ge', lambda: ge(input, other), input, other, differentiable=False)
    return input >= other


greater, less, greater_equal, less_equal, not_equal = gt, lt, ge, le, ne


def bitwise_and(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'bitwise_and', lambda: bitwise_and(input, other), input, other, differentiable=False)
    return input & other  # (input may be a number: torch.bitwise_and(2, t))


def bitwise_or(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'bitwise_or', lambda: bitwise_or(input, other), input, other, differentiable=False)
    return input | other  # (input may be a number: torch.bitwise_or(2, t))


def bitwise_xor(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'bitwise_xor', lambda: bitwise_xor(input, other), input, other, differentiable=False)
    return input ^ other  # (input may be a number: torch.bitwise_xor(2, t))


def bitwise_left_shift(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'bitwise_left_shift', lambda: bitwise_left_shift(input, other), input, other, differentiable=False)
    return input << other


def bitwise_right_shift(input, other, *, out=None):
    if out is not None:
        return into_out(out, 'bitwise_right_shift', lambda: bitwise_right_shift(input, other), input, other, differentiable=False)
    return input >> other


# -- several tensors (cat, stack, hstack, meshgrid... are in _joining.py) --------------------


def where(condition, input=None, other=None, *, out=None):
    """``input`` where ``condition`` holds, else ``other`` (either may be a number);
    ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``."""
    if out is not None:
        return into_out(out, "where", lambda: where(condition, input, other), condition, input, other)
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    if not isinstance(input, Tensor):  # torch.where(mask, 0.0, x)
        input = tensor(input, dtype=_dtype.result_type(input, other))
    return input.where(condition, other)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices drawn with the probabilities in ``input``, row by row (see Tensor.multinomial)."""
    check_tensors("multinomial", 1, input=input)
    return Tensor._wrap(_random.multinomial(input._data, num_samples, replacement, generator, first=2))


# -- broadcasting ---------------------------------------------------------------------------------
def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (a tensor already of that shape: itself)."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    shape = ()
    for t in tensors:
        check_broadcast(shape, t.shape)
        shape = np.broadcast_shapes(shape, t.shape)
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)


def broadcast_shapes(*shapes):
    """The shape tensors of these shapes broadcast to (PyTorch's torch._refs._broadcast_shapes:
    its checks, its words)."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for s in shapes:
        if not isinstance(s, (tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}")
    common = [1] * builtins.max((len(s) for s in shapes), default=0)
    for k, s in enumerate(shapes):
        for i in range(-1, -1 - len(s), -1):
            if s[i] == common[i]:
                continue
            if common[i] == 1:
                if s[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = s[i]
            if s[i] != 1 and common[i] != s[i]:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[i]} at {i}! Mismatching "
                                   f"argument at index {k} had {s}; but expected shape should be broadcastable "
                                   f"to {common}")
    return Size(common)


# -- torch.set_warn_always ----------------------------------------------------------------------
# PyTorch gives a few warnings only once per process (TORCH_WARN_ONCE in its C++); this flag
# makes those appear every time. minigrad has no once-per-process warnings: each of its
# warnings goes through Python's ``warnings.warn`` every time, and Python's filters decide
# what is shown (by default, once per line of code that triggers it). So the flag is kept and
# read back, as in PyTorch, and changes nothing; ``warnings.simplefilter("always")`` is what
# shows every repeat.
_warn_always = False


def set_warn_always(b, /):
    """Set the flag that ``is_warn_always_enabled()`` reads back (it changes no warning)."""
    global _warn_always
    if type(b) is not builtins.bool:
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _warn_always = b


def is_warn_always_enabled():
    return _warn_always
