"""The Tensor: a NumPy array plus what autograd needs to know about it.

A tensor made by the user is a *leaf*: ``grad_fn`` is None. A tensor made by a
recorded op has a ``grad_fn``: the node that knows how to send a gradient back to
the op's inputs. Each method below is a short call into an op of ``minigrad/ops/``
(see the table in ``ops/__init__.py``); the maths lives there. PyTorch's argument
conventions and error texts are in ``_conventions.py``, indexing in ``_indexing.py``,
in-place recording in ``_inplace.py``.
"""
import numbers
import warnings
import weakref

import numpy as np

from . import _dtype, _indexing, _inplace, ops
from ._conventions import INFERENCE_REQUIRES_GRAD, LEAF_GRAD_WARNING, MaxResult, Size, check_broadcast, new_shape, reshape_is_view
from ._conventions import dim as _dim
from ._conventions import dims as _dims
from ._conventions import shape_args as _shape_args
from ._repr import format_tensor
from .autograd import backward as _backward
from .autograd import function, grad_mode
from .autograd.function import _Handle


def _as_tensor(x, dtype):
    """A Python number (or array) as a 0-d tensor of ``dtype``: the other operand of ``x + 1``."""
    if isinstance(x, Tensor):
        if x.dtype is dtype:
            return x
        if x._requires_grad:
            return x  # float32 meeting float64: the op itself promotes (no extra node, as in PyTorch)
        return Tensor._wrap(x._data.astype(dtype.np))
    return Tensor._wrap(np.asarray(x, dtype=dtype.np))


def _binary(op, a, b):
    """Promote both operands to their common dtype (PyTorch's rules), then apply ``op``."""
    dt = None
    if type(b) is float and a._data.dtype.kind == "f":  # x * 0.5: the common case, made quick
        b = Tensor._wrap(np.array(b, a._data.dtype))
    elif not (isinstance(b, Tensor) and a._data.dtype == b._data.dtype):
        if not isinstance(b, (Tensor, numbers.Number, np.ndarray)):
            return NotImplemented
        dt = _dtype.result_type(a, b)
        a, b = _as_tensor(a, dt), _as_tensor(b, dt)
    try:
        out = op.apply(a, b)
    except ValueError:
        check_broadcast(a._data.shape, b._data.shape)
        raise
    if dt is not None and out._data.dtype != dt.np:  # NumPy ranks a 0-d float64 above a
        out._data = out._data.astype(dt.np)         # float32 tensor; PyTorch does not
    return out


def _floating(x):
    """Inputs of exp, log, ... : integers are computed as float32, as in PyTorch."""
    return x if x.dtype.is_floating_point else Tensor._wrap(x._data.astype(np.float32))


class Tensor:
    __slots__ = ("_data", "_requires_grad", "_grad", "_grad_fn", "_version_box", "__weakref__",
                 "__dict__")
    _hooks = None  # {id: fn} of a leaf's hooks, made when the first one is registered
    _accumulator = None  # weak reference to a leaf's AccumulateGrad node
    _inference = False  # made inside inference_mode: see is_inference()

    def __init__(self, data, dtype=None, requires_grad=False):
        array = _dtype.array_of(data, dtype)
        if requires_grad and array.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self._init(array, bool(requires_grad))

    def _init(self, array, requires_grad=False, grad_fn=None, version_box=None):
        self._data = array
        self._requires_grad = requires_grad
        self._grad = None
        self._grad_fn = grad_fn
        self._version_box = version_box  # None until needed: see _version_counter()
        if grad_mode._state.inference:
            self._inference = True

    @classmethod
    def _wrap(cls, array, grad_fn=None, version_box=None):
        """A tensor around an existing array (no copy): how every op makes its output."""
        t = object.__new__(cls)
        t._init(array, grad_fn is not None, grad_fn, version_box)
        return t

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

    @property
    def dtype(self):
        return _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def device(self):
        return "cpu"

    def is_floating_point(self):
        return self.dtype.is_floating_point

    @property
    def data(self):
        """The same numbers, detached from the graph. Unlike ``detach()``, in-place changes
        through ``.data`` are invisible to autograd (PyTorch's historic escape hatch)."""
        return Tensor._wrap(self._data)

    @data.setter
    def data(self, value):
        self._data = value._data

    @property
    def _version(self):
        if self._inference:  # nothing will ever check it (see is_inference)
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._version_box is None else self._version_box[0]

    def _version_counter(self):
        """The box holding the version, shared with detach() and views: an in-place change
        through any of them shows in all. Made when first needed, as most tensors are never
        changed in place, viewed or saved as an op's output: an object fewer per tensor for
        Python's garbage collector to count."""
        if self._version_box is None:
            self._version_box = [0]
        return self._version_box

    # -- autograd attributes -------------------------------------------------------------
    @property
    def grad_fn(self):
        return self._grad_fn

    def is_inference(self):
        """Made inside ``torch.inference_mode()``: it can never be part of a recorded graph."""
        return self._inference

    @property
    def is_leaf(self):
        return self._grad_fn is None

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        if self._grad_fn is not None:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if flag and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if flag and self._inference and not grad_mode._state.inference:
            raise RuntimeError(INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(flag)

    def requires_grad_(self, requires_grad=True):
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self):
        if self._grad is None and self._grad_fn is not None and not self.retains_grad:
            warnings.warn(LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None and value.shape != self.shape:
            raise RuntimeError(f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                               f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                               "tensor are the same size")
        self._grad = value

    @property
    def retains_grad(self):
        node = self._grad_fn
        return node is not None and node._retain is not None and node._retain() is self

    def retain_grad(self):
        """Keep this non-leaf's gradient in ``.grad`` during backward (leaves always do)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is not None:
            self._grad_fn._retain = weakref.ref(self)

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient. ``.remove()`` on the returned handle takes the hook away."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            return self._grad_fn.register_prehook(hook)
        if self._hooks is None:
            self._hooks = {}
        return _Handle(self._hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute d(self)/d(leaf) for every leaf that requires grad and add it to ``leaf.grad``."""
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """The same data, cut from the graph (a new leaf). Shares the version counter."""
        out = Tensor._wrap(self._data, version_box=self._version_counter())
        if self._inference:
            out._inference = True  # still the inference tensor's memory
        return out

    def detach_(self):
        self._grad_fn, self._requires_grad = None, False
        return self

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
        return int(self.item())

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind())

    def unbind(self, dim=0):
        d = _dim(dim, self._data.ndim)
        return tuple(ops.Unbind.apply(self, (slice(None),) * d + (i,)) for i in range(self._data.shape[d]))

    def __hash__(self):
        return id(self)

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

    def to(self, dtype, *args, **kwargs):
        if isinstance(dtype, str):  # a device: minigrad has only the CPU
            return self
        if dtype is self.dtype:
            return self
        if dtype.is_floating_point and self._requires_grad:
            return ops.ToCopy.apply(self, dtype.np)
        return Tensor._wrap(self._data.astype(dtype.np))

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def long(self):
        return self.to(_dtype.int64)

    def bool(self):
        return self.to(_dtype.bool)

    def cpu(self):
        return self

    def new_zeros(self, *size, dtype=None, requires_grad=False):
        """Zeros of ``size``, with this tensor's dtype unless ``dtype`` says otherwise."""
        array = np.zeros(_shape_args(size), dtype.np if dtype else self._data.dtype)
        return Tensor(array, requires_grad=requires_grad) if requires_grad else Tensor._wrap(array)

    def clone(self):
        return ops.Clone.apply(self)

    def contiguous(self):
        return self if self._data.flags.c_contiguous else self.clone()

    # -- arithmetic ----------------------------------------------------------------------------
    def __add__(self, other):
        return _binary(ops.Add, self, other)

    __radd__ = __add__

    def __sub__(self, other):
        return _binary(ops.Sub, self, other)

    def __rsub__(self, other):
        if isinstance(other, numbers.Number):
            dt = _dtype.result_type(self, other)
            return ops.Rsub.apply(_as_tensor(self, dt), other)
        return _binary(ops.Sub, _as_tensor(other, self.dtype), self)

    def __mul__(self, other):
        return _binary(ops.Mul, self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return _binary(ops.Div, _floating(self), other)  # int / int is a float, as in PyTorch

    def __rtruediv__(self, other):
        return self.reciprocal() * other  # PyTorch computes 2 / x as x.reciprocal() * 2

    def __pow__(self, exponent):
        if isinstance(exponent, Tensor):
            return _binary(ops.PowTensor, self, exponent)
        if isinstance(exponent, float) and not self.dtype.is_floating_point:
            return ops.Pow.apply(_floating(self), exponent)
        return ops.Pow.apply(self, exponent)

    def __rpow__(self, base):
        return ops.RPow.apply(_floating(self) if isinstance(base, float) else self, base)

    def __matmul__(self, other):
        a, b = (self, other) if self._data.dtype == other._data.dtype else (
            _as_tensor(self, _dtype.result_type(self, other)),
            _as_tensor(other, _dtype.result_type(self, other)))
        return ops.matmul_op(a._data.ndim, b._data.ndim).apply(a, b)

    def __rmatmul__(self, other):
        return Tensor._wrap(np.asarray(other)) @ self

    def __neg__(self):
        return ops.Neg.apply(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    def reciprocal(self):
        return ops.Reciprocal.apply(_floating(self))

    def add(self, other, *, alpha=1):
        return self + (other if alpha == 1 else other * alpha)

    def sub(self, other, *, alpha=1):
        return self - (other if alpha == 1 else other * alpha)

    mul = __mul__
    div = __truediv__
    pow = __pow__
    matmul = __matmul__
    neg = __neg__

    def mm(self, other):
        return self @ other

    # -- comparisons (not differentiable: they give bool tensors) ----------------------------
    def _compare(self, other, fn):
        other = other._data if isinstance(other, Tensor) else other
        return Tensor._wrap(np.asarray(fn(self._data, other)))

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    def __and__(self, other):
        return self._compare(other, np.logical_and if self.dtype is _dtype.bool else np.bitwise_and)

    def __or__(self, other):
        return self._compare(other, np.logical_or if self.dtype is _dtype.bool else np.bitwise_or)

    def __invert__(self):
        return Tensor._wrap(np.logical_not(self._data) if self.dtype is _dtype.bool else ~self._data)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def where(self, condition, other):
        """This tensor where ``condition`` holds, else ``other`` (a tensor or a number)."""
        dt = _dtype.result_type(self, other)
        cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
        return ops.Where.apply(cond, _as_tensor(self, dt), _as_tensor(other, dt))

    # -- elementwise functions -----------------------------------------------------------------
    def exp(self):
        return ops.Exp.apply(_floating(self))

    def log(self):
        return ops.Log.apply(_floating(self))

    def sqrt(self):
        return ops.Sqrt.apply(_floating(self))

    def abs(self):
        return ops.Abs.apply(self)

    def sign(self):
        return ops.Sign.apply(self)

    def relu(self):
        return ops.Relu.apply(self)

    def sigmoid(self):
        return ops.Sigmoid.apply(_floating(self))

    def tanh(self):
        return ops.Tanh.apply(_floating(self))

    def clamp(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        return ops.Clamp.apply(self, min, max)

    clip = clamp

    def maximum(self, other):
        return _binary(ops.Maximum, self, other)

    # -- reductions ----------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(dtype)
        dims = _dims(dim, x._data.ndim)
        return (ops.Sum if dims is None else ops.SumDim).apply(x, dims, keepdim)

    def mean(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(dtype)
        if not x.dtype.is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a "
                               f"floating point or complex dtype. Got: {x.dtype.legacy_name}")
        dims = _dims(dim, x._data.ndim)
        return (ops.Mean if dims is None else ops.MeanDim).apply(x, dims, keepdim)

    def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Var, dim, unbiased, keepdim, correction)

    def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
        return self._spread(ops.Std, dim, unbiased, keepdim, correction)

    def _spread(self, op, dim, unbiased, keepdim, correction):
        if isinstance(dim, bool):  # x.std(False): the old positional ``unbiased``
            dim, unbiased = None, dim
        if not self.dtype.is_floating_point:
            raise RuntimeError("std and var only support floating point and complex dtypes")
        correction = (1 if unbiased else 0) if correction is None else correction
        return op.apply(self, _dims(dim, self._data.ndim), correction, keepdim)

    def norm(self, p="fro", dim=None, keepdim=False):
        if p not in ("fro", 2):
            raise NotImplementedError("minigrad's norm computes the 2-norm only (p=2 or 'fro')")
        if not self.dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                               f"Got {self.dtype.legacy_name}")
        return ops.Norm.apply(self, _dims(dim, self._data.ndim), keepdim)

    def max(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            return self.maximum(dim)
        if dim is None:
            return ops.Max.apply(self)
        if self._data.ndim == 0:  # dim 0 of a 0-d tensor: the value itself, at index 0
            _dim(dim, 0)
            values, indices = self.unsqueeze(0).max(0, keepdim)
            return MaxResult(values.squeeze(0) if keepdim else values, indices.reshape(()))
        d = _dim(dim, self._data.ndim)
        indices = np.argmax(self._data, axis=d)  # the first of equal maxima, as in PyTorch
        values = ops.MaxDim.apply(self, d, keepdim, indices)
        indices = np.expand_dims(indices, d) if keepdim else indices
        return MaxResult(values, Tensor._wrap(indices.astype(np.int64)))

    def argmax(self, dim=None, keepdim=False):
        if dim is None:
            return Tensor._wrap(np.asarray(np.argmax(self._data), dtype=np.int64))
        return self.max(dim, keepdim).indices

    def softmax(self, dim):
        return ops.Softmax.apply(_floating(self), _dim(dim, self._data.ndim))

    def log_softmax(self, dim):
        return ops.LogSoftmax.apply(_floating(self), _dim(dim, self._data.ndim))

    def logsumexp(self, dim, keepdim=False):
        return ops.Logsumexp.apply(_floating(self), _dims(dim, self._data.ndim), keepdim)

    # -- shapes --------------------------------------------------------------------------------
    def view(self, *shape):
        shape = new_shape(shape, self._data.size)
        if not reshape_is_view(self._data, shape):
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return ops.View.apply(self, shape)

    def reshape(self, *shape):
        shape = new_shape(shape, self._data.size)
        if reshape_is_view(self._data, shape):
            return ops.View.apply(self, shape)
        return ops.UnsafeView.apply(self.clone(), shape)  # copy first, as PyTorch does

    def flatten(self, start_dim=0, end_dim=-1):
        if self._data.ndim == 0:
            return self.reshape(1)
        s, e = _dim(start_dim, self._data.ndim), _dim(end_dim, self._data.ndim)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = self._data.shape
        return self.reshape(shape[:s] + (-1,) + shape[e + 1:])

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def expand(self, *shape):
        shape = _shape_args(shape)
        lead = len(shape) - self._data.ndim
        shape = tuple(self._data.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        for i, size in enumerate(self._data.shape):
            if size != 1 and size != shape[i + lead]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({shape[i + lead]}) must match the existing size "
                    f"({size}) at non-singleton dimension {i + lead}.  Target sizes: {list(shape)}.  "
                    f"Tensor sizes: {list(self._data.shape)}")
        return ops.Expand.apply(self, shape)

    def expand_as(self, other):
        return self.expand(other.shape)

    def sum_to_size(self, *shape):
        shape = _shape_args(shape)
        return self if shape == self._data.shape else ops.SumToSize.apply(self, shape)

    def permute(self, *dims):
        dims = _shape_args(dims)
        if len(dims) != self._data.ndim:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not "
                               "match the length of the desired ordering of dimensions i.e. input.dim() "
                               f"= {self._data.ndim} is not equal to len(dims) = {len(dims)}")
        dims = tuple(_dim(d, self._data.ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return ops.Permute.apply(self, dims)

    def transpose(self, dim0, dim1):
        n = self._data.ndim
        return ops.Transpose.apply(self, _dim(dim0, n), _dim(dim1, n))

    def t(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return ops.T.apply(self, 0, max(self._data.ndim - 1, 0))

    @property
    def T(self):
        if self._data.ndim != 2:
            warnings.warn(
                "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
                if self._data.ndim == 0 else
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
                "reverse the dimensions of a tensor.", UserWarning, stacklevel=2)
        return self.permute(*reversed(range(self._data.ndim)))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def unsqueeze(self, dim):
        return ops.Unsqueeze.apply(self, _dim(dim, self._data.ndim + 1))

    def squeeze(self, dim=None):
        if dim is None:
            return ops.Squeeze.apply(self, None)
        dims = tuple(d for d in _dims(dim, self._data.ndim) if self._data.shape[d] == 1)
        return (ops.SqueezeDims if isinstance(dim, (tuple, list)) else ops.SqueezeDim).apply(self, dims)

    def __getitem__(self, key):
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        _indexing.setitem(self, key, value)

    # -- in-place ops --------------------------------------------------------------------------
    def add_(self, other, alpha=1):
        return _inplace.apply(self, Tensor.__add__, other if alpha == 1 else other * alpha, ufunc=np.add)

    def sub_(self, other, alpha=1):
        return _inplace.apply(self, Tensor.__sub__, other if alpha == 1 else other * alpha, ufunc=np.subtract)

    def mul_(self, other):
        return _inplace.apply(self, Tensor.__mul__, other, ufunc=np.multiply)

    def div_(self, other):
        return _inplace.apply(self, Tensor.__truediv__, other, ufunc=np.divide)

    def clamp_(self, min=None, max=None):
        return _inplace.apply(self, Tensor.clamp, min, max)

    def relu_(self):
        return _inplace.apply(self, Tensor.relu)

    def zero_(self):
        return _inplace.apply(self, ops.Zero.apply)

    def fill_(self, value):
        return _inplace.apply(self, ops.Fill.apply, value)

    def copy_(self, src):
        return _inplace.apply(self, ops.Copy.apply, src if isinstance(src, Tensor) else Tensor(src))

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_


# The one link back down: autograd (and the modules beside this one) make Tensors too.
function.Tensor = Tensor
