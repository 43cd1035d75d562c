"""The ``torch.*`` namespace's functions: the table of those that are a Tensor method under its
function name, and the list of them all.

Most of PyTorch's functions are its Tensor methods called the other way round: ``torch.exp(x)``
is ``x.exp()``, ``torch.sum(x, 1)`` is ``x.sum(1)``. Each row of ``TABLE`` below is one of them:

    name            (parameters, as PyTorch names them)        Tensor method, if another name

and the function is made from the row: ``torch.clamp(input, min=None, max=None)`` calls
``input.clamp(min, max)``, the parameters before ``*`` by position and those after it by
keyword (``*args, **kwargs``: passed on as they come, where PyTorch has several signatures).
Before the call it checks, as PyTorch's argument parser does, that the first parameter is a
tensor, and so are the others marked ``: Tensor``; if not, it raises PyTorch's TypeError:
``exp(): argument 'input' (position 1) must be Tensor, not float``. A first parameter marked
``: Number`` may be a number, made a 0-d tensor (``torch.add(2, x)``, as PyTorch's parser allows
for add, sub, mul and div); one marked ``: Any`` is not checked (``torch.split`` is Python in
PyTorch too: ``'float' object has no attribute 'split'``). The made functions are
plain Python functions (their source is shown in tracebacks, ``inspect.signature`` gives
their parameters), named and documented as ``torch.exp`` is (``__module__`` "minigrad", as
PyTorch's are "torch").

The functions that do more than call one method are written by hand in the ``_functions*.py``
files (``torch.where``, ``torch.cdist``, ``torch.dropout``...), each file's ``__all__`` naming
them; ``__all__`` here is every ``torch.*`` function: the table's and theirs.
"""
import ast
import linecache
import numbers

from . import _dtype, _functions, _functions_conv, _functions_linalg, _functions_nn, _functions_reduce, _functions_shape
from ._creation import tensor
from ._tensor import Tensor

TABLE = """
# -- pointwise (Tensor methods: _tensor_pointwise.py) -----------------------------------------
exp              (input)
exp2             (input)
expm1            (input)
log              (input)
log2             (input)
log10            (input)
log1p            (input)
sqrt             (input)
rsqrt            (input)
square           (input)
sin              (input)
cos              (input)
tan              (input)
asin             (input)
acos             (input)
atan             (input)
arcsin           (input)                                               asin
arccos           (input)                                               acos
arctan           (input)                                               atan
sinh             (input)
cosh             (input)
tanh             (input)
sigmoid          (input)
relu             (input)
abs              (input)
absolute         (input)                                               abs
sign             (input)
reciprocal       (input)
floor            (input)
ceil             (input)
trunc            (input)
fix              (input)                                               trunc
round            (input, *, decimals=0)
frac             (input)
nan_to_num       (input, nan=0.0, posinf=None, neginf=None)
clamp            (input, min=None, max=None)
clip             (input, min=None, max=None)                           clamp
clamp_min        (input, min)
clamp_max        (input, max)
asinh            (input)
acosh            (input)
atanh            (input)
arcsinh          (input)                                               asinh
arccosh          (input)                                               acosh
arctanh          (input)                                               atanh
deg2rad          (input)
rad2deg          (input)
logit            (input, eps=None)
sinc             (input)
erf              (input)
erfc             (input)
erfinv           (input)
lgamma           (input)
digamma          (input)
i0               (input)
sgn              (input)
frexp            (input)
# -- arithmetic (Tensor methods: _tensor_arithmetic.py) ---------------------------------------
neg              (input)
negative         (input)                                               neg
positive         (input)
add              (input: Number, other, *, alpha=1)
sub              (input: Number, other, *, alpha=1)
subtract         (input: Number, other, *, alpha=1)                    sub
mul              (input: Number, other)
multiply         (input: Number, other)                                mul
div              (input: Number, other, *, rounding_mode=None)
divide           (input: Number, other, *, rounding_mode=None)         div
fmod             (input, other)
atan2            (input, other: Tensor)
arctan2          (input, other: Tensor)                                        atan2
maximum          (input, other: Tensor)
minimum          (input, other: Tensor)
fmax             (input, other: Tensor)
fmin             (input, other: Tensor)
lerp             (input, end, weight)
logaddexp        (input, other: Tensor)
logaddexp2       (input, other: Tensor)
hypot            (input, other: Tensor)
nextafter        (input, other: Tensor)
ldexp            (input, other: Tensor)
heaviside        (input, values: Tensor)
gcd              (input, other: Tensor)
lcm              (input, other: Tensor)
matmul           (input, other: Tensor)
addcmul          (input, tensor1: Tensor, tensor2: Tensor, *, value=1)
addcdiv          (input, tensor1: Tensor, tensor2: Tensor, *, value=1)
# -- logic (Tensor methods: _tensor_logic.py) -------------------------------------------------
isnan            (input)
isinf            (input)
isfinite         (input)
signbit          (input)
isposinf         (input)
isneginf         (input)
isreal           (input)
logical_and      (input, other: Tensor)
logical_or       (input, other: Tensor)
logical_xor      (input, other: Tensor)
logical_not      (input)
bitwise_not      (input)
equal            (input, other: Tensor)
allclose         (input, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False)
isclose          (input, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False)
# -- reduce (Tensor methods: _tensor_reduce.py) -----------------------------------------------
sum              (input, *args, **kwargs)
mean             (input, *args, **kwargs)
nansum           (input, *args, **kwargs)
nanmean          (input, *args, **kwargs)
prod             (input, *args, **kwargs)
var              (input, *args, **kwargs)
std              (input, *args, **kwargs)
norm             (input: Any, *args, **kwargs)
max              (input, *args, **kwargs)
min              (input, *args, **kwargs)
argmax           (input, *args, **kwargs)
argmin           (input, *args, **kwargs)
amax             (input, *args, **kwargs)
amin             (input, *args, **kwargs)
all              (input, *args, **kwargs)
any              (input, *args, **kwargs)
cumsum           (input, dim, *, dtype=None)
cumprod          (input, dim, *, dtype=None)
count_nonzero    (input, dim=None)
logsumexp        (input, dim, keepdim=False)
softmax          (input, dim, dtype=None)
log_softmax      (input, dim, dtype=None)
cummax           (input, dim)
cummin           (input, dim)
logcumsumexp     (input, dim)
aminmax          (input, *, dim=None, keepdim=False)
cov              (input, *, correction=1, fweights=None, aweights=None)
corrcoef         (input)
renorm           (input, p, dim, maxnorm)
diff             (input, n=1, dim=-1, prepend=None, append=None)
# -- sorting (Tensor methods: _tensor_sorting.py) ---------------------------------------------
median           (input, *args, **kwargs)
nanmedian        (input, *args, **kwargs)
sort             (input, *args, **kwargs)
argsort          (input, *args, **kwargs)
topk             (input, k, *args, **kwargs)
kthvalue         (input, k, dim=-1, keepdim=False)
mode             (input, dim=-1, keepdim=False)
quantile         (input, q, dim=None, keepdim=False, *, interpolation='linear')
nanquantile      (input, q, dim=None, keepdim=False, *, interpolation='linear')
msort            (input)
histc            (input, bins=100, min=0, max=0)
unique_consecutive (input, return_inverse=False, return_counts=False, dim=None)
# -- shape (Tensor methods: _tensor_shape.py) -------------------------------------------------
reshape          (input, shape)
flatten          (input, start_dim=0, end_dim=-1)
ravel            (input)
unflatten        (input, dim, sizes)
transpose        (input, dim0, dim1)
swapaxes         (input, axis0, axis1)                                 transpose
swapdims         (input, dim0, dim1)                                   transpose
permute          (input, dims)
movedim          (input, source, destination)
moveaxis         (input, source, destination)                          movedim
t                (input)
unsqueeze        (input, dim)
squeeze          (input, dim=None)
sum_to_size      (input, *size)
broadcast_to     (input, size)
tile             (input, dims)
flip             (input, dims)
roll             (input, shifts, dims=None)
rot90            (input, k=1, dims=(0, 1))
fliplr           (input)
flipud           (input)
as_strided       (input, size, stride, storage_offset=None)
# -- join (Tensor methods: _tensor_join.py) ---------------------------------------------------
chunk            (input, chunks, dim=0)
split            (tensor: Any, split_size_or_sections, dim=0)
unbind           (input, dim=0)
tensor_split     (input, indices_or_sections=None, dim=0, *, sections=None, indices=None, tensor_indices_or_sections=None)
hsplit           (input, indices_or_sections)
vsplit           (input, indices_or_sections)
dsplit           (input, indices_or_sections)
split_with_sizes (input, split_sizes, dim=0)
unsafe_chunk     (input, chunks, dim=0)
unsafe_split_with_sizes (input, split_sizes, dim=0)
# -- index (Tensor methods: _tensor_index.py) -------------------------------------------------
narrow           (input, dim, start, length)
gather           (input, dim, index: Tensor)
take_along_dim   (input, indices: Tensor, dim=None)
index_select     (input, dim, index: Tensor)
masked_select    (input, mask: Tensor)
nonzero          (input, *, as_tuple=False)
argwhere         (input)
select           (input, dim, index)
narrow_copy      (input, dim, start, length)
# -- scatter (Tensor methods: _tensor_scatter.py) ---------------------------------------------
scatter          (input, dim, index, src=None, *, value=None, reduce=None)
scatter_add      (input, dim, index: Tensor, src: Tensor)
index_add        (input, dim, index: Tensor, source: Tensor, *, alpha=1)
index_fill       (input, dim, index, value)
index_copy       (input, dim, index: Tensor, source: Tensor)
index_put        (input, indices, values, accumulate=False)
masked_fill      (input, mask, value)
scatter_reduce   (input, dim, index: Tensor, src: Tensor, reduce, *, include_self=True)
index_reduce     (input, dim, index: Tensor, source: Tensor, reduce, *, include_self=True)
masked_scatter   (input, mask: Tensor, source: Tensor)
select_scatter   (input, src: Tensor, dim, index)
slice_scatter    (input, src: Tensor, dim=0, start=None, end=None, step=1)
diagonal_scatter (input, src: Tensor, offset=0, dim1=0, dim2=1)
put              (input, index: Tensor, source: Tensor, accumulate=False)
# -- linalg (Tensor methods: _tensor_linalg.py) -----------------------------------------------
mm               (input, mat2: Tensor)
mv               (input, vec: Tensor)
bmm              (input, mat2: Tensor)
dot              (input, tensor: Tensor)
outer            (input, vec2: Tensor)
ger              (input, vec2: Tensor)                                 outer
inner            (input, other: Tensor)
kron             (input, other: Tensor)
vdot             (input, other: Tensor)
cross            (input, other: Tensor, dim=None)
addmm            (input, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1)
addmv            (input, mat: Tensor, vec: Tensor, *, beta=1, alpha=1)
addr             (input, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1)
baddbmm          (input, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1)
addbmm           (input, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1)
tril             (input, diagonal=0)
triu             (input, diagonal=0)
diag             (input, diagonal=0)
diagonal         (input, offset=0, dim1=0, dim2=1)
trace            (input)
logdet           (input)
slogdet          (input)
inverse          (input)
pinverse         (input, rcond=1e-15)
cholesky         (input, upper=False)
qr               (input, some=True)
svd              (input, some=True, compute_uv=True)
diag_embed       (input, offset=0, dim1=-2, dim2=-1)
diagflat         (input, offset=0)
# -- copies and questions (Tensor methods: _tensor.py) ----------------------------------------
clone            (input, *, memory_format=None)
detach           (input)
numel            (input)
is_floating_point (input)
is_same_size     (input, other: Tensor)
"""


class Row:
    """One row of TABLE: a torch.* function that calls its first argument's method."""

    def __init__(self, line):
        name, rest = line.split(None, 1)
        params, _, method = rest.rpartition(")")
        self.name, self.method = name, method.strip() or name
        self.args = ast.parse(f"def f{params}): pass").body[0].args
        positional = self.args.posonlyargs + self.args.args
        self.first, self.second = positional[0].arg, positional[1].arg if len(positional) > 1 else None
        # the parameters that must be tensors, with their positions (PyTorch's error names both)
        kinds = [getattr(a.annotation, "id", None) for a in positional]
        self.tensors = [(a.arg, i) for i, (a, kind) in enumerate(zip(positional, kinds), 1)
                        if kind == "Tensor" or (i == 1 and kind is None)]
        self.number = kinds[0] == "Number"  # a number first: see source()
        self.params = ast.unparse(self._unannotated(self.args))  # "input, min=None, max=None"

    @staticmethod
    def _unannotated(args):
        for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if a is not None:
                a.annotation = None
        return args

    def call(self):
        """The method call the function makes: ``input.clamp(min, max)``."""
        a = self.args
        parts = [p.arg for p in (a.posonlyargs + a.args)[1:]]
        parts += [f"*{a.vararg.arg}"] if a.vararg else []
        parts += [f"{p.arg}={p.arg}" for p in a.kwonlyargs]
        parts += [f"**{a.kwarg.arg}"] if a.kwarg else []
        return f"{self.first}.{self.method}({', '.join(parts)})"

    def arguments(self):
        """The function's arguments as ``(args, kwargs)`` source: ``(input, min, max), {}``."""
        a = self.args
        args = [p.arg for p in a.posonlyargs + a.args] + ([f"*{a.vararg.arg}"] if a.vararg else [])
        kwargs = [f"{p.arg!r}: {p.arg}" for p in a.kwonlyargs] + ([f"**{a.kwarg.arg}"] if a.kwarg else [])
        return f"({', '.join(args)}{',' if len(args) == 1 else ''}), {{{', '.join(kwargs)}}}"

    def source(self):
        doc = f"{self.name}({self.params})\n\n    The Tensor method as a function: ``{self.call()}``."
        lines = [f"def {self.name}({self.params}):", f'    """{doc}"""']
        if self.number:  # a number first: a 0-d tensor of it, as PyTorch's ``torch.add(2, x)``
            lines += [f"    if not isinstance({self.first}, Tensor):",
                      f"        {self.first} = wrapped_number({self.name!r}, {self.first}, {self.second})"]
        if self.tensors:
            checks = " and ".join(f"isinstance({arg}, Tensor)" for arg, _ in self.tensors)
            checked = ", ".join(f"({a!r}, {i}, {a})" for a, i in self.tensors)
            lines += [f"    if {checks}:", f"        return {self.call()}",
                      f"    return not_tensors({self.name}, {self.arguments()}, {checked})"]
        else:
            lines += [f"    return {self.call()}"]
        return "\n".join(lines) + "\n"


_HEAP_TYPE = 1 << 9  # (CPython's Py_TPFLAGS_HEAPTYPE: a class statement's type, not a C one)


def not_tensors(function, args, kwargs, *checked):
    """The call ``function(*args, **kwargs)`` where a ``checked`` argument is not a tensor: handed
    to that argument's ``__torch_function__`` if it has one (PyTorch's protocol for objects that
    stand in for tensors, as fusion.py's traced values do), else PyTorch's TypeError."""
    for _, _, value in checked:
        if not isinstance(value, Tensor) and hasattr(type(value), "__torch_function__"):
            result = value.__torch_function__(function, (type(value),), args, kwargs)
            if result is not NotImplemented:
                return result
    raise not_tensor(function.__name__, *checked)


def not_tensor(name, *args):
    """PyTorch's TypeError for the first of ``args`` ((parameter, position, value) triples)
    that is not a tensor."""
    for arg, position, value in args:
        if not isinstance(value, Tensor):
            kind = type(value)  # PyTorch prints the type's C name: float, list, numpy.ndarray, Foo
            written_in_python = kind.__flags__ & _HEAP_TYPE
            kind = kind.__name__ if kind.__module__ == "builtins" or written_in_python else \
                f"{kind.__module__}.{kind.__name__}"
            return TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {kind}")
    raise AssertionError("not_tensor: every argument is a tensor")


def wrapped_number(name, value, other):
    """``value``, a number, as the 0-d tensor PyTorch makes of it in ``torch.add(2, x)`` (a
    "wrapped number": promoted as the number would be; a bool stays a bool)."""
    if isinstance(value, numbers.Real):
        return tensor(value, dtype=_dtype.bool if isinstance(value, bool) else _dtype.result_type(value, other))
    raise not_tensor(name, ("input", 1, value))


ROWS = [Row(line) for line in TABLE.splitlines() if line.strip() and not line.startswith("#")]


def _make(rows):
    """The functions of ``rows``, from their source: one text, shown in tracebacks."""
    source = "\n\n".join(row.source() for row in rows)
    filename = "<minigrad._namespace: the functions made from TABLE>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"Tensor": Tensor, "not_tensors": not_tensors, "wrapped_number": wrapped_number, "__name__": "minigrad"}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 (our own table)
    return {row.name: namespace[row.name] for row in rows}


globals().update(_make(ROWS))

HAND_WRITTEN = (_functions, _functions_reduce, _functions_shape, _functions_linalg, _functions_nn, _functions_conv)
for _module in HAND_WRITTEN:
    globals().update((name, getattr(_module, name)) for name in _module.__all__)
__all__ = [row.name for row in ROWS] + [name for module in HAND_WRITTEN for name in module.__all__]
