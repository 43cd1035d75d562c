"""minigrad: tensors and reverse-mode autograd on NumPy, behaving like PyTorch.

``import minigrad as torch`` runs the PyTorch code learners meet: tensors record
the operations done to them, and ``loss.backward()`` walks that record backwards.

Start reading at core/: the idea of autograd, small and on its own (core/__init__.py gives the
order). Everything else is PyTorch's breadth, built on it:

    core/                        TensorBase and backward(), Function and Op, the nodes, the
                                 engine, grad modes, and the ops the course uses
    _dtype.py, _conventions.py   dtypes and promotion; PyTorch's argument checks and error texts
    autograd/                    PyTorch's names for the core's (torch.autograd.grad, Function,
                                 ...), gradcheck, functional (jacobian, hessian)
    _tensor.py  ->  ops/         the full Tensor, extending core's TensorBase: its methods call the
                                 ops (minigrad/ops/: the rest of them, by family; the course's are
                                 core/ops/); its maths comes from one mixin per family, the
                                 family's name in both places (_tensor_pointwise.py ->
                                 ops/pointwise.py): pointwise (exp, lgamma), arithmetic (add,
                                 logaddexp2), logic (eq, isnan), reduce (sum, cumsum), sorting
                                 (sort, unique; _selection.py: kthvalue's and mode's ties), shape
                                 (view, unfold), join (split), index (x[key], gather), scatter
                                 (x[key] = v, scatter_reduce), linalg (mm, tril, svd; ops/decomp.py
                                 too), random; ops/memory.py (clone, copy_) and the nn ops
                                 (activation, loss, nn, conv, attention, resample) have no mixin;
                                 _views.py (views share their base's memory and version),
                                 _indexing.py and _inplace.py: x[key] and x.add_(y)
    _creation.py, _namespace.py  the torch.* functions: making tensors; the table that makes torch.exp,
    _functions*.py               torch.sum... from Tensor methods; the hand-written ones (torch.where...)
    linalg.py                    torch.linalg (on _tensor_linalg.py and ops/decomp.py)
    nn/, optim/, utils/          modules and losses, optimizers, data loading
    serialization.py             torch.save / torch.load; _unsupported.py, jit.py, profiler.py: refusals
    viz/, fusion.py, exercises/  for the course: pictures of the graph, operator fusion, checks
"""
__version__ = "0.2.0"

from . import _dtype, autograd
from ._creation import (arange, empty, empty_like, empty_strided, eye, from_numpy, full, full_like, linspace, logspace,
                        normal, ones, ones_like, rand, rand_like, randint, randn, randn_like, randperm,
                        tensor, zeros, zeros_like)
from ._creation import range  # noqa: A004 (PyTorch's deprecated torch.range: the end included)
from ._device import OutOfMemoryError, accelerator, backends, cuda, device, get_default_device, set_default_device
from ._dtype import (bool, double, dtype, float, float32, float64, get_default_dtype, int64, long,
                     set_default_dtype)
from ._dtype import int, int32  # noqa: A004 (torch.int is int32, as in PyTorch)
from ._dtype import int8, int16, short, uint8  # images come as uint8
from ._dtype import float16, half  # (half precision: storage and conversion; NumPy's arithmetic)
from ._creation import as_tensor, asarray  # (data loading: share memory where possible)
from ._creation import BoolTensor, DoubleTensor, FloatTensor, IntTensor, LongTensor  # legacy types
from ._creation import ByteTensor, CharTensor, HalfTensor, ShortTensor
from ._dtype import finfo, iinfo  # a dtype's limits: finfo(torch.float32).eps
from ._dtype import can_cast, is_complex, is_nonzero, promote_types  # questions about types
from ._dtype import tensor_result_type as result_type  # (_dtype.result_type: the ops' own, on arrays too)
from ._einsum import einsum
from ._repr import set_printoptions  # how tensors print: precision, threshold, sci_mode...
from ._joining import block_diag, cartesian_prod, combinations
from ._conventions import channels_last, contiguous_format, memory_format, preserve_format  # layouts
from ._conventions import layout, strided  # (torch.strided: the one layout, of dense tensors)
from ._joining import (atleast_1d, atleast_2d, atleast_3d, column_stack, dstack, hstack, meshgrid,  # joins
                       row_stack, vstack)
from ._random import Generator, default_generator, manual_seed
from ._random import bernoulli, get_rng_state, initial_seed, poisson, seed, set_rng_state  # random draws, states
from ._creation import randint_like
from ._tensor import Size, Tensor, UntypedStorage  # (UntypedStorage: x.untyped_storage())
from .autograd import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                       no_grad, set_grad_enabled)
from . import nn, optim, utils  # noqa: E402 (they build on everything above)
from ._namespace import *  # noqa: E402, F403 (the torch.* functions: _namespace.py's table, _functions*.py)
from .nn._functional_loss import cosine_similarity, pairwise_distance, pdist  # noqa: E402 (nn.functional's distances)
from .autograd import functional as _autograd_functional  # noqa: E402, F401 (torch.autograd.functional)
from . import functional  # noqa: E402 (torch.functional: einsum, split, meshgrid... written in Python in PyTorch)
from .functional import unravel_index  # noqa: E402
from . import special  # noqa: E402 (torch.special: erf, erfc, erfinv, expit...)
from . import random  # noqa: E402 (torch.random: manual_seed, get_rng_state, fork_rng...)
from . import linalg  # noqa: E402 (torch.linalg: det, inv, solve, svd, eigh, norms...)
from . import return_types  # noqa: E402 (the named results' classes: torch.return_types.max...)
from . import serialization  # noqa: E402 (torch.save / torch.load: tensors and modules to files)
from .serialization import load, save  # noqa: E402
from . import jit, profiler  # noqa: E402 (not supported: each says what to use instead)
from ._unsupported import compile, compiler  # noqa: E402 (compile(model) returns the model)
from .autograd import _saved  # noqa: E402 (every op is defined now: give the nodes PyTorch's _saved_* names)
_saved.install()



def __getattr__(name):
    """``torch.bfloat16`` and PyTorch's other dtypes minigrad lacks: an AttributeError that says which
    dtypes there are (``hasattr(torch, "bfloat16")`` is still False)."""
    raise _dtype.missing(name) or AttributeError(f"module 'minigrad' has no attribute '{name}'")


# Public classes print with their public path, as PyTorch's do: <class 'minigrad.Tensor'>.
for _cls in (Tensor, Size, dtype, device, Generator, finfo, iinfo, memory_format, layout):
    _cls.__module__ = "minigrad"
del _cls
