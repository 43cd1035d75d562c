"""PyTorch's conventions for arguments, and its error messages for the ones that break them.

Nothing here knows about tensors or autograd: these functions take dims, shapes and
indices, normalise them the way PyTorch does (negative dims, ``f(2, 3)`` or ``f((2, 3))``)
and raise PyTorch's exception, with PyTorch's words, where NumPy would raise its own.
"""
import numpy as np

# PyTorch computes log(0), 1/0 or exp(1000) silently (giving -inf, inf, nan). Every op's
# forward runs under this already (Op._forward), and so does backward (run_backward); a
# NumPy computation outside the ops can be decorated with it.
quiet = np.errstate(all="ignore")

# What PyTorch says when an inference tensor (made under inference_mode) is used outside it.
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a clone "
    "to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
    "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
    "for more details.")
INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."

LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self):
        return f"torch.Size({list(self)})"

    def numel(self):
        return int(np.prod(self, dtype=np.int64))

    def __getitem__(self, key):
        item = super().__getitem__(key)
        return Size(item) if isinstance(key, slice) else item


class ValuesIndices(tuple):
    """``(values, indices)`` with names: what ``max(dim)``, ``min(dim)``, ``sort`` and ``topk``
    return. Each has its own class, named as PyTorch's (``torch.return_types.max``)."""

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def _return_type(name):
    return type(name, (ValuesIndices,), {"__module__": "minigrad.return_types"})


MaxResult, MinResult, SortResult, TopkResult = map(_return_type, ("max", "min", "sort", "topk"))


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
    return tuple(dim(i, ndim) for i in d) if isinstance(d, (tuple, list)) else (dim(d, ndim),)


def shape_args(shape):
    """Accept ``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])``, as PyTorch does."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def new_shape(shape, size):
    """The shape ``view``/``reshape`` asked for, with its one ``-1`` worked out from ``size``."""
    shape = list(shape_args(shape))
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if shape.count(-1) == 1 and 0 not in shape:
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        if known and size % known == 0:
            shape[shape.index(-1)] = size // known
    if shape.count(-1) or int(np.prod(shape, dtype=np.int64)) != size:
        raise RuntimeError(f"shape '[{', '.join(map(str, shape_args(shape)))}]' is invalid "
                           f"for input of size {size}")
    return tuple(shape)


def reshape_is_view(array, shape):
    """Whether NumPy can reshape without copying (PyTorch's view() works exactly then)."""
    try:
        np.reshape(array, shape, copy=False)
        return True
    except ValueError:
        return False


# -- errors for operands that do not fit -------------------------------------------------------

def check_broadcast(sa, sb):
    """PyTorch's error for shapes that do not broadcast, naming the first clash."""
    n = max(len(sa), len(sb))
    for i in range(1, n + 1):
        da, db = sa[-i] if i <= len(sa) else 1, sb[-i] if i <= len(sb) else 1
        if da != db and da != 1 and db != 1:
            raise RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b ({db}) "
                               f"at non-singleton dimension {n - i}")


def check_matmul_shapes(sa, sb):
    """Raise PyTorch's error message for operands that cannot be multiplied."""
    if not sa or not sb:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{len(sa)}D and {len(sb)}D")
    k_a = sa[-1]
    k_b = sb[0] if len(sb) == 1 else sb[-2]
    if k_a == k_b:
        return
    if len(sa) == 1 and len(sb) == 1:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to "
                           f"have the same number of elements, but got {sa[0]} and {sb[0]} elements "
                           "respectively")
    if len(sa) == 2 and len(sb) == 1:
        raise RuntimeError(f"size mismatch, got input ({sa[0]}), mat ({sa[0]}x{sa[1]}), vec ({sb[0]})")
    if len(sb) == 2:  # PyTorch folds a's batch dims into rows
        rows = int(np.prod(sa[:-1], dtype=np.int64))
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k_a} and "
                           f"{sb[0]}x{sb[1]})")
    batch = int(np.prod(np.broadcast_shapes(sa[:-2], sb[:-2]), dtype=np.int64))
    raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, "
                       f"{k_a}] but got: [{batch}, {k_b}].")


def check_index(shape, key):
    """PyTorch's IndexError for an int index out of range (NumPy says "axis")."""
    d = 0
    for k in key:
        if k is None:
            continue
        if k is Ellipsis:
            d = len(shape) - sum(1 for j in key if j is not None and j is not Ellipsis)
            continue
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool) and d < len(shape) \
                and not -shape[d] <= k < shape[d]:
            raise IndexError(f"index {k} is out of bounds for dimension {d} with size {shape[d]}")
        d += np.asarray(k).ndim if isinstance(k, np.ndarray) and k.dtype == np.bool_ else 1
