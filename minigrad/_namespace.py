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
PyTorch too: ``'float' object has no attribute 'split'``). A keyword ``out=None`` is PyTorch's
``out=``: given a tensor, the function writes its result there (``_inplace.write_out``), and the
mark says what dtype ``out`` may have (PyTorch's kernels differ): none, any the result casts to
without losing its kind (float to int, say); ``: Same``, ``: Exact``, the result's (two wordings
of PyTorch's error); ``: Any``, any (sum computes in out's dtype). The made functions are
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
from .core import graph as _graph
from ._inplace import check_out, write_out
from ._tensor import Tensor

TABLE = """
# -- pointwise (Tensor methods: _tensor_pointwise.py) -----------------------------------------
exp              (input, *, out=None)
exp2             (input, *, out=None)
expm1            (input, *, out=None)
log              (input, *, out=None)
log2             (input, *, out=None)
log10            (input, *, out=None)
log1p            (input, *, out=None)
sqrt             (input, *, out=None)
rsqrt            (input, *, out=None)
square           (input, *, out=None)
sin              (input, *, out=None)
cos              (input, *, out=None)
tan              (input, *, out=None)
asin             (input, *, out=None)
acos             (input, *, out=None)
atan             (input, *, out=None)
arcsin           (input, *, out=None)                                  asin
arccos           (input, *, out=None)                                  acos
arctan           (input, *, out=None)                                  atan
sinh             (input, *, out=None)
cosh             (input, *, out=None)
tanh             (input, *, out=None)
sigmoid          (input, *, out=None)
relu             (input)
abs              (input, *, out: Same=None)
absolute         (input, *, out: Same=None)                            abs
sign             (input, *, out: Same=None)
reciprocal       (input, *, out=None)
floor            (input, *, out: Same=None)
ceil             (input, *, out: Same=None)
trunc            (input, *, out: Same=None)
fix              (input, *, out: Same=None)                            trunc
round            (input, *, decimals=0, out: Same=None)
frac             (input, *, out: Same=None)
nan_to_num       (input, nan=0.0, posinf=None, neginf=None, *, out: Same=None)
clamp            (input, min=None, max=None, *, out: Same=None)
clip             (input, min=None, max=None, *, out: Same=None)        clamp
clamp_min        (input, min, *, out: Same=None)
clamp_max        (input, max, *, out: Same=None)
asinh            (input, *, out=None)
acosh            (input, *, out=None)
atanh            (input, *, out=None)
arcsinh          (input, *, out=None)                                  asinh
arccosh          (input, *, out=None)                                  acosh
arctanh          (input, *, out=None)                                  atanh
deg2rad          (input, *, out=None)
rad2deg          (input, *, out=None)
logit            (input, eps=None, *, out=None)
sinc             (input, *, out=None)
erf              (input, *, out=None)
erfc             (input, *, out=None)
erfinv           (input, *, out=None)
lgamma           (input, *, out=None)
digamma          (input, *, out=None)
i0               (input, *, out=None)
sgn              (input, *, out: Same=None)
frexp            (input, *, out: Same=None)
# -- arithmetic (Tensor methods: _tensor_arithmetic.py) ---------------------------------------
neg              (input, *, out: Same=None)
negative         (input, *, out: Same=None)                            neg
positive         (input)
add              (input: Number, other, *, alpha=1, out=None)
sub              (input: Number, other, *, alpha=1, out=None)
subtract         (input: Number, other, *, alpha=1, out=None)          sub
mul              (input: Number, other, *, out=None)
multiply         (input: Number, other, *, out=None)                   mul
div              (input: Number, other, *, rounding_mode=None, out=None)
divide           (input: Number, other, *, rounding_mode=None, out=None) div
fmod             (input, other, *, out=None)
atan2            (input, other: Tensor, *, out=None)
arctan2          (input, other: Tensor, *, out=None)                           atan2
maximum          (input, other: Tensor, *, out=None)
minimum          (input, other: Tensor, *, out=None)
fmax             (input, other: Tensor, *, out=None)
fmin             (input, other: Tensor, *, out=None)
lerp             (input, end, weight, *, out=None)
logaddexp        (input, other: Tensor, *, out=None)
logaddexp2       (input, other: Tensor, *, out=None)
hypot            (input, other: Tensor, *, out=None)
nextafter        (input, other: Tensor, *, out=None)
ldexp            (input, other: Tensor, *, out=None)
heaviside        (input, values: Tensor, *, out: Same=None)
gcd              (input, other: Tensor, *, out=None)
lcm              (input, other: Tensor, *, out=None)
matmul           (input, other: Tensor, *, out: Exact=None)
addcmul          (input, tensor1: Tensor, tensor2: Tensor, *, value=1, out=None)
addcdiv          (input, tensor1: Tensor, tensor2: Tensor, *, value=1, out=None)
# -- logic (Tensor methods: _tensor_logic.py) -------------------------------------------------
isnan            (input)
isinf            (input)
isfinite         (input)
signbit          (input, *, out: Same=None)
isposinf         (input, *, out: Same=None)
isneginf         (input, *, out: Same=None)
isreal           (input)
logical_and      (input, other: Tensor, *, out: Any=None)
logical_or       (input, other: Tensor, *, out: Any=None)
logical_xor      (input, other: Tensor, *, out: Any=None)
logical_not      (input, *, out: Any=None)
bitwise_not      (input, *, out: Same=None)
equal            (input, other: Tensor)
allclose         (input, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False)
isclose          (input, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False)
# -- reduce (Tensor methods: _tensor_reduce.py) -----------------------------------------------
sum              (input, *args, out: Any=None, **kwargs)
mean             (input, *args, out=None, **kwargs)
nansum           (input, *args, out=None, **kwargs)
nanmean          (input, *args, out=None, **kwargs)
prod             (input, *args, out: Any=None, **kwargs)
var              (input, *args, out=None, **kwargs)
std              (input, *args, out=None, **kwargs)
norm             (input: Any, *args, out: Exact=None, **kwargs)
max              (input, *args, out: Exact=None, **kwargs)
min              (input, *args, out: Exact=None, **kwargs)
argmax           (input, *args, out: Exact=None, **kwargs)
argmin           (input, *args, out: Exact=None, **kwargs)
amax             (input, *args, out: Same=None, **kwargs)
amin             (input, *args, out: Same=None, **kwargs)
all              (input, *args, out: Same=None, **kwargs)
any              (input, *args, out: Same=None, **kwargs)
cumsum           (input, dim, *, dtype=None, out: Exact=None)
cumprod          (input, dim, *, dtype=None, out: Any=None)
count_nonzero    (input, dim=None)
logsumexp        (input, dim, keepdim=False, *, out=None)
softmax          (input, dim, dtype=None, *, out: Exact=None)
log_softmax      (input, dim, dtype=None, *, out: Exact=None)
cummax           (input, dim, *, out: Same=None)
cummin           (input, dim, *, out: Same=None)
logcumsumexp     (input, dim, *, out: Same=None)
aminmax          (input, *, dim=None, keepdim=False, out: Exact=None)
cov              (input, *, correction=1, fweights=None, aweights=None)
corrcoef         (input)
renorm           (input, p, dim, maxnorm, *, out: Exact=None)
diff             (input, n=1, dim=-1, prepend=None, append=None, *, out=None)
# -- sorting (Tensor methods: _tensor_sorting.py) ---------------------------------------------
median           (input, *args, out: Same=None, **kwargs)
nanmedian        (input, *args, out: Same=None, **kwargs)
sort             (input, *args, out: Exact=None, **kwargs)
argsort          (input, *args, **kwargs)
topk             (input, k, *args, out: Exact=None, **kwargs)
kthvalue         (input, k, dim=-1, keepdim=False, *, out: Same=None)
mode             (input, dim=-1, keepdim=False, *, out: Any=None)
quantile         (input, q, dim=None, keepdim=False, *, interpolation='linear', out: Same=None)
nanquantile      (input, q, dim=None, keepdim=False, *, interpolation='linear', out: Same=None)
msort            (input, *, out: Exact=None)
histc            (input, bins=100, min=0, max=0, *, out: Same=None)
histogram        (input, bins, *, range=None, weight=None, density=False, out: Same=None)
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
gather           (input, dim, index: Tensor, sparse_grad=False, *, out: Exact=None)
take_along_dim   (input, indices: Tensor, dim=None, *, out: Exact=None)
index_select     (input, dim, index: Tensor, *, out: Same=None)
masked_select    (input, mask: Tensor, *, out: Same=None)
nonzero          (input, *, as_tuple=False, out: Same=None)
argwhere         (input)
select           (input, dim, index)
narrow_copy      (input, dim, start, length, *, out: Same=None)
# -- scatter (Tensor methods: _tensor_scatter.py) ---------------------------------------------
scatter          (input, dim, index, src=None, *, value=None, reduce=None, out: Exact=None)
scatter_add      (input, dim, index: Tensor, src: Tensor, *, out: Exact=None)
index_add        (input, dim, index: Tensor, source: Tensor, *, alpha=1, out: Exact=None)
index_fill       (input, dim, index, value)
index_copy       (input, dim, index: Tensor, source: Tensor, *, out: Exact=None)
index_put        (input, indices, values, accumulate=False)
masked_fill      (input, mask, value)
scatter_reduce   (input, dim, index: Tensor, src: Tensor, reduce, *, include_self=True, out: Exact=None)
index_reduce     (input, dim, index: Tensor, source: Tensor, reduce, *, include_self=True, out: Exact=None)
masked_scatter   (input, mask: Tensor, source: Tensor)
select_scatter   (input, src: Tensor, dim, index)
slice_scatter    (input, src: Tensor, dim=0, start=None, end=None, step=1, *, out: Exact=None)
diagonal_scatter (input, src: Tensor, offset=0, dim1=0, dim2=1)
put              (input, index: Tensor, source: Tensor, accumulate=False)
# -- linalg (Tensor methods: _tensor_linalg.py) -----------------------------------------------
mm               (input, mat2: Tensor, *, out: Exact=None)
mv               (input, vec: Tensor, *, out: Same=None)
bmm              (input, mat2: Tensor, *, out: Exact=None)
dot              (input, tensor: Tensor, *, out: Same=None)
outer            (input, vec2: Tensor, *, out=None)
ger              (input, vec2: Tensor, *, out=None)                    outer
inner            (input, other: Tensor, *, out: Same=None)
kron             (input, other: Tensor, *, out=None)
vdot             (input, other: Tensor, *, out: Same=None)
cross            (input, other: Tensor, dim=None, *, out: Exact=None)
addmm            (input, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1, out: Exact=None)
addmv            (input, mat: Tensor, vec: Tensor, *, beta=1, alpha=1, out: Exact=None)
addr             (input, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1, out=None)
baddbmm          (input, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1, out: Exact=None)
addbmm           (input, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1, out: Same=None)
tril             (input, diagonal=0, *, out: Exact=None)
triu             (input, diagonal=0, *, out: Exact=None)
diag             (input, diagonal=0, *, out: Exact=None)
diagonal         (input, offset=0, dim1=0, dim2=1)
trace            (input)
logdet           (input)
slogdet          (input, *, out: Exact=None)
inverse          (input, *, out: Exact=None)
pinverse         (input, rcond=1e-15)
cholesky         (input, upper=False, *, out=None)
qr               (input, some=True, *, out: Exact=None)
svd              (input, some=True, compute_uv=True, *, out: Same=None)
diag_embed       (input, offset=0, dim1=-2, dim2=-1)
diagflat         (input, offset=0)
# -- in place (Tensor methods too: torch.sin_(x) is x.sin_(), x changed and returned) ---------
abs_             (input)
acos_            (input)
acosh_           (input)
arccos_          (input)
arccosh_         (input)
arcsin_          (input)
arcsinh_         (input)
arctan_          (input)
arctanh_         (input)
asin_            (input)
asinh_           (input)
atan_            (input)
atanh_           (input)
ceil_            (input)
cos_             (input)
cosh_            (input)
deg2rad_         (input)
detach_          (input)
erf_             (input)
erfc_            (input)
exp_             (input)
exp2_            (input)
expm1_           (input)
fix_             (input)
floor_           (input)
frac_            (input)
i0_              (input)
log_             (input)
log10_           (input)
log1p_           (input)
log2_            (input)
neg_             (input)
negative_        (input)
rad2deg_         (input)
reciprocal_      (input)
relu_            (input)
rsqrt_           (input)
sigmoid_         (input)
sin_             (input)
sinc_            (input)
sinh_            (input)
sqrt_            (input)
square_          (input)
tan_             (input)
tanh_            (input)
trunc_           (input)
zero_            (input)
clamp_           (input, min=None, max=None)
clip_            (input, min=None, max=None)
clamp_min_       (input, min)
clamp_max_       (input, max)
round_           (input, *, decimals=0)
nan_to_num_      (input, nan=0.0, posinf=None, neginf=None)
logit_           (input, eps=None)
addmv_           (input, mat: Tensor, vec: Tensor, *, beta=1, alpha=1)
gcd_             (input, other: Tensor)
lcm_             (input, other: Tensor)
ldexp_           (input, other: Tensor)
xlogy_           (input, other)
fill_            (input, value)
index_put_       (input, indices, values, accumulate=False)
resize_as_       (input, the_template: Tensor, *, memory_format=None)
# -- copies and questions (Tensor methods: _tensor.py) ----------------------------------------
clone            (input, *, memory_format=None)
detach           (input)
numel            (input)
is_floating_point (input)
is_same_size     (input, other: Tensor)
"""


# out= with an input that requires grad: PyTorch's error names the op that computes the function
# (``torch.square`` is ``pow``); it raises none where the result has no gradient (argmax,
# logical_and...) or the function is made of other ops (softmax...): None here.
OUT_OP = {"square": "pow", "outer": "mul", "kron": "mul", "take_along_dim": "gather", "msort": "sort",
          "diff": "sub", "nanmean": "nansum", "norm": "linalg_vector_norm", "cross": "linalg_cross",
          "inverse": "linalg_inv_ex", "qr": "linalg_qr", "slogdet": "_linalg_slogdet", "svd": "_linalg_svd",
          **dict.fromkeys(("argmax", "argmin", "logical_and", "logical_or", "logical_xor", "logical_not",
                           "signbit", "isposinf", "isneginf", "softmax", "log_softmax", "diag", "inner",
                           "heaviside", "histc", "histogram", "quantile", "nanquantile", "slice_scatter"))}


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
        # out=: the result written into a tensor given (_inplace.write_out; `out: Exact`: of its dtype)
        out = next((a for a in self.args.kwonlyargs if a.arg == "out"), None)
        self.out = None if out is None else getattr(out.annotation, "id", "cast").lower()
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
        parts += [f"{p.arg}={p.arg}" for p in a.kwonlyargs if p.arg != "out"]
        parts += [f"**{a.kwarg.arg}"] if a.kwarg else []
        return f"{self.first}.{self.method}({', '.join(parts)})"

    def call_into_out(self, indent):
        """The lines that write the method's result into ``out``, when it is given."""
        a = self.args
        inputs = [p.arg for p in a.posonlyargs + a.args] + ([f"*{a.vararg.arg}"] if a.vararg else [])
        inputs += [p.arg for p in a.kwonlyargs if p.arg != "out"]
        return [f"{indent}if out is not None:",
                f"{indent}    check_out(out, {self.name!r}, {OUT_OP.get(self.name, OUT_OP.get(self.method, self.method))!r}, "
                f"{', '.join(inputs)})",
                f"{indent}    return write_out(out, {self.call()}, {self.out!r})"]

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
            lines += [f"    if {checks}:"] + (self.call_into_out(" " * 8) if self.out else []) + [
                f"        return {self.call()}",
                f"    return not_tensors({self.name}, {self.arguments()}, {checked})"]
        else:
            lines += (self.call_into_out(" " * 4) if self.out else []) + [f"    return {self.call()}"]
        return "\n".join(lines) + "\n"


_HEAP_TYPE = 1 << 9  # (CPython's Py_TPFLAGS_HEAPTYPE: a class statement's type, not a C one)


def not_tensors(function, args, kwargs, *checked):
    """The call ``function(*args, **kwargs)`` where a ``checked`` argument is not a tensor: handed
    to that argument's ``__torch_function__`` if it has one (PyTorch's protocol for objects that
    stand in for tensors, as fusion.py's traced values do), else PyTorch's TypeError."""
    if "out" in kwargs and kwargs["out"] is None:  # (out= is passed on only if given)
        kwargs = {k: v for k, v in kwargs.items() if k != "out"}
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
        t = tensor(value, dtype=_dtype.bool if isinstance(value, bool) else _dtype.result_type(value, other))
        if _graph._stack:  # a "wrapped number": saved past saved_tensors_hooks, as PyTorch saves it
            t._wrapped_number = True
        return t
    raise not_tensor(name, ("input", 1, value))


ROWS = [Row(line) for line in TABLE.splitlines() if line.strip() and not line.startswith("#")]


def _make(rows):
    """The functions of ``rows``, from their source: one text, shown in tracebacks."""
    source = "\n\n".join(row.source() for row in rows)
    filename = "<minigrad._namespace: the functions made from TABLE>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"Tensor": Tensor, "not_tensors": not_tensors, "wrapped_number": wrapped_number,
                 "check_out": check_out, "write_out": write_out, "__name__": "minigrad"}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 (our own table)
    return {row.name: namespace[row.name] for row in rows}


globals().update(_make(ROWS))

HAND_WRITTEN = (_functions, _functions_reduce, _functions_shape, _functions_linalg, _functions_nn, _functions_conv)
for _module in HAND_WRITTEN:
    globals().update((name, getattr(_module, name)) for name in _module.__all__)
__all__ = [row.name for row in ROWS] + [name for module in HAND_WRITTEN for name in module.__all__]
