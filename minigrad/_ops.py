"""Every differentiable op: its forward and its backward, side by side.

This file is minigrad's version of PyTorch's ``derivatives.yaml``. Each op is a
``Function``: ``forward`` computes on NumPy arrays and saves what backward needs;
``backward`` receives the gradient of the output (a Tensor) and returns one
gradient per forward argument. Backward formulas are written with Tensor ops, so
with ``create_graph=True`` they are recorded too and can be differentiated again.

Two chores are left to the engine (autograd/function.py) rather than repeated
here, as PyTorch's engine does: a gradient shaped like a broadcast output is summed
back to the input's shape, and cast to the input's dtype.

``node_name`` is the class name PyTorch gives the op's ``grad_fn``.
"""
import numpy as np

from .autograd.function import Op

# PyTorch computes log(0), 1/0 or exp(1000) silently (giving -inf, inf, nan); so do we.
_quiet = np.errstate(all="ignore")


def _zeros(like):
    """A gradient of zeros (not -0.: PyTorch masks gradients rather than multiplying by 0)."""
    return type(like)._wrap(np.zeros_like(like._data))

# ---------------------------------------------------------------------------------------------
# Arithmetic (inputs may have different shapes: NumPy broadcasts, the engine un-broadcasts)
# ---------------------------------------------------------------------------------------------


class Add(Op):
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


class Sub(Op):
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return a - b

    @staticmethod
    def backward(ctx, grad):
        return grad, -grad


class Rsub(Op):
    """``number - x``"""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, x, number):
        return number - x

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Op):
    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        # Save only what is needed: a's gradient uses b, b's gradient uses a.
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None,
                grad * a if ctx.needs_input_grad[1] else None)


class Div(Op):
    node_name = "DivBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        return a / b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad / b if ctx.needs_input_grad[0] else None,
                -grad * a / (b * b) if ctx.needs_input_grad[1] else None)


class Neg(Op):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, x):
        return -x

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Reciprocal(Op):
    node_name = "ReciprocalBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x):
        out = 1 / x
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return -grad * out * out  # d(1/x)/dx = -1/x^2


class Pow(Op):
    """``x ** exponent`` with a number as exponent"""
    node_name = "PowBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x, exponent):
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        return x ** exponent

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return _zeros(grad), None
        return grad * p * x ** (p - 1), None


class PowTensor(Op):
    """``x ** y`` with both tensors"""
    node_name = "PowBackward1"

    @staticmethod
    @_quiet
    def forward(ctx, x, y):
        out = x ** y
        ctx.save_for_backward(x, y, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, y, out = ctx.saved_tensors
        grad_x = grad * y * x ** (y - 1) if ctx.needs_input_grad[0] else None
        # d(x^y)/dy = x^y log x; PyTorch takes it as 0 where x == 0 and y >= 0.
        grad_y = None
        if ctx.needs_input_grad[1]:
            grad_y = where((x == 0) & (y >= 0), 0.0, grad * out * x.log())
        return grad_x, grad_y


class RPow(Op):
    """``number ** x``"""
    node_name = "PowBackward2"

    @staticmethod
    @_quiet
    def forward(ctx, x, base):
        out = base ** x
        ctx.save_for_backward(out)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out * float(np.log(ctx.base)), None


class MatMul(Op):
    """``a @ b`` for vectors, matrices and batches of matrices."""

    @staticmethod
    def forward(ctx, a, b):
        _check_matmul_shapes(a.shape, b.shape)
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return a @ b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # A vector is a one-row matrix on the left, a one-column matrix on the right.
        left_vec, right_vec = len(ctx._inputs[0][0]) == 1, len(ctx._inputs[1][0]) == 1
        if right_vec:
            grad = grad.unsqueeze(-1)
        if left_vec:
            grad = grad.unsqueeze(-2)
        grad_a = grad_b = None
        if ctx.needs_input_grad[0]:  # dL/dA = dL/dOut @ B^T
            grad_a = grad @ (b.unsqueeze(-1) if right_vec else b).transpose(-1, -2)
            grad_a = grad_a.squeeze(-2) if left_vec else grad_a
        if ctx.needs_input_grad[1]:  # dL/dB = A^T @ dL/dOut
            grad_b = (a.unsqueeze(-2) if left_vec else a).transpose(-1, -2) @ grad
            grad_b = grad_b.squeeze(-1) if right_vec else grad_b
        return grad_a, grad_b


# PyTorch's node name depends on the operands' ranks.
class Mm(MatMul):
    node_name = "MmBackward0"


class Mv(MatMul):
    node_name = "MvBackward0"


class Dot(MatMul):
    node_name = "DotBackward0"


class VecMat(MatMul):
    node_name = "SqueezeBackward4"  # PyTorch computes vector @ matrix as a squeezed mm


class BatchMatMul(MatMul):
    node_name = "UnsafeViewBackward0"  # the last step of PyTorch's batched matmul


class Addmm(Op):
    """``bias + x @ w`` in one op: what ``nn.Linear`` computes (``w`` is the transposed weight)."""
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, x, w):
        _check_matmul_shapes(x.shape, w.shape)
        ctx.save_for_backward(x if ctx.needs_input_grad[2] else None,
                              w if ctx.needs_input_grad[1] else None)
        return bias + x @ w

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        # dL/dw = x^T @ grad, computed as (grad^T @ x)^T: the same numbers, laid out so that
        # the weight's gradient (w is weight.t()) comes out contiguous, as PyTorch arranges it.
        return (grad,  # the engine sums it over the rows, down to the bias's shape
                grad @ w.t() if ctx.needs_input_grad[1] else None,
                (grad.t() @ x).t() if ctx.needs_input_grad[2] else None)


def matmul_op(a_ndim, b_ndim):
    if a_ndim == 2 and b_ndim == 2:
        return Mm
    if a_ndim == 2 and b_ndim == 1:
        return Mv
    if a_ndim == 1 and b_ndim == 1:
        return Dot
    if a_ndim == 1 and b_ndim == 2:
        return VecMat
    return BatchMatMul


def _check_matmul_shapes(sa, sb):
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


# ---------------------------------------------------------------------------------------------
# Elementwise functions
# ---------------------------------------------------------------------------------------------


class Exp(Op):
    node_name = "ExpBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x):
        out = np.exp(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out  # (e^x)' = e^x: reuse the output instead of recomputing it


class Log(Op):
    node_name = "LogBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.log(x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / x


class Sqrt(Op):
    node_name = "SqrtBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x):
        out = np.sqrt(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad / (2 * out)


class Abs(Op):
    node_name = "AbsBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.abs(x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x.sign()  # sign(0) = 0: the subgradient PyTorch picks


class Sign(Op):
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        return np.sign(x)

    @staticmethod
    def backward(ctx, grad):
        return _zeros(grad)  # flat everywhere it is differentiable


class Relu(Op):
    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, x):
        out = np.maximum(x, 0)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return ThresholdBackward.apply(grad, out)


class ThresholdBackward(Op):
    """ReLU's backward, one op as in PyTorch (``threshold_backward``): the gradient passes
    where the unit is on (output > 0) and is 0 elsewhere, at 0 too. Its own node shows up
    only when backward is recorded (``create_graph=True``)."""
    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(out)
        # Multiplying by the mask is several times faster than where(); adding 0.0 turns
        # the -0. of (negative gradient * 0) into 0., as PyTorch has it.
        result = grad * (out > 0)
        result += 0.0
        return result

    @staticmethod
    def backward(ctx, gg):
        out, = ctx.saved_tensors
        return ThresholdBackward.apply(gg, out), _zeros(out)  # the mask is flat in ``out``


class Sigmoid(Op):
    node_name = "SigmoidBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x):
        out = 1 / (1 + np.exp(-x))  # exp may overflow to inf: then 1 / inf = 0, as in PyTorch
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out * (1 - out)


class Tanh(Op):
    node_name = "TanhBackward0"

    @staticmethod
    def forward(ctx, x):
        out = np.tanh(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * (1 - out * out)


class Clamp(Op):
    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, x, min, max):
        ctx.save_for_backward(x)
        ctx.bounds = (min, max)
        return np.clip(x, min, max).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        lo, hi = ctx.bounds
        inside = x == x  # all True (and False for NaN, as in PyTorch)
        if lo is not None:
            inside = inside & (x >= lo)
        if hi is not None:
            inside = inside & (x <= hi)
        return where(inside, grad, 0.0), None, None  # it passes only where x was not clipped


class Maximum(Op):
    node_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.maximum(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # Where both are equal the gradient is split in half, as PyTorch does.
        half = where(a == b, grad * 0.5, 0.0)
        return where(a > b, grad, half), where(b > a, grad, half)


# ---------------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------------


def _expand_back(grad, shape, dims, keepdim):
    """Undo a reduction's shape change: put back the reduced dims, then broadcast."""
    if not keepdim and dims is not None:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return Expand.apply(grad, shape)  # (no need for expand()'s checks: the shape fits)


class Sum(Op):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x, dims=None, keepdim=False):
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        out = x.sum(axis=dims, keepdims=keepdim)
        return out.astype(np.int64, copy=False) if x.dtype.kind in "biu" else out

    @staticmethod
    def backward(ctx, grad):  # every input element contributes once: copy grad back to all
        return _expand_back(grad, ctx.shape, ctx.dims, ctx.keepdim), None, None


class SumDim(Sum):
    node_name = "SumBackward1"


class Mean(Op):
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x, dims=None, keepdim=False):
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        out = x.mean(axis=dims, keepdims=keepdim)
        ctx.count = x.size // max(out.size, 1) if x.size else 0
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        return _expand_back(grad / ctx.count, ctx.shape, ctx.dims, ctx.keepdim), None, None


class MeanDim(Mean):
    node_name = "MeanBackward1"


class Var(Op):
    """The variance over ``dims``: the squared distances from the mean, summed and divided by
    ``n - correction`` (correction 1, the unbiased estimate, is PyTorch's default)."""
    node_name = "VarBackward0"

    @staticmethod
    @_quiet  # n <= correction gives nan (or inf), as in PyTorch
    def forward(ctx, x, dims, correction, keepdim):
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return x.var(axis=dims, ddof=correction, keepdims=keepdim).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return _var_backward(grad, x, ctx), None, None, None


def _var_backward(grad, x, ctx):
    """d var / d x_i = 2 (x_i - mean) / (n - correction), times the incoming gradient."""
    mean = x.mean(ctx.dims, keepdim=True)
    n = x.numel() // max(mean.numel(), 1)
    grad = _expand_back(grad, x.shape, ctx.dims, ctx.keepdim)
    return grad * (x - mean) * (2.0 / (n - ctx.correction))


class Std(Op):
    """The standard deviation: the square root of the variance (same ``correction``)."""
    node_name = "StdBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x, dims, correction, keepdim):
        out = np.sqrt(x.var(axis=dims, ddof=correction, keepdims=keepdim)).astype(x.dtype, copy=False)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        # d sqrt(v) = dv / (2 sqrt(v)); where the std is 0 every x_i equals the mean, and
        # PyTorch sends 0 rather than 0/0.
        grad = where(out == 0, 0.0, grad / (2 * out))
        return _var_backward(grad, x, ctx), None, None, None


class Norm(Op):
    """The Euclidean (2-)norm over ``dims``: the square root of the sum of squares."""
    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        out = np.sqrt((x * x).sum(axis=dims, keepdims=keepdim)).astype(x.dtype, copy=False)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        # d |x| / d x_i = x_i / |x|; at |x| = 0 PyTorch sends 0.
        scale = where(out == 0, 0.0, grad / out)
        return x * _expand_back(scale, x.shape, ctx.dims, ctx.keepdim), None, None


class Max(Op):
    """``x.max()``: the largest element."""
    node_name = "MaxBackward1"

    @staticmethod
    def forward(ctx, x):
        out = np.max(x)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        # Ties share the gradient equally, as in PyTorch.
        is_max = x == out
        return where(is_max, grad / is_max.sum(), 0.0)


class MaxDim(Op):
    """``x.max(dim)``: the largest element along ``dim``; indices are returned separately."""
    node_name = "MaxBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, indices):
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        ctx.save_for_backward(indices)
        out = np.take_along_axis(x, np.expand_dims(indices, dim), axis=dim)
        return out if keepdim else np.squeeze(out, dim)

    @staticmethod
    def backward(ctx, grad):  # only the element that was picked receives the gradient
        indices, = ctx.saved_tensors  # saved without the reduced dim
        indices = indices.unsqueeze(ctx.dim)
        if not ctx.keepdim:
            grad = grad.unsqueeze(ctx.dim)
        return ScatterAlong.apply(grad, ctx.shape, ctx.dim, indices), None, None, None


class ScatterAlong(Op):
    """Zeros of ``shape`` with ``grad`` placed at ``indices`` along ``dim`` (max's backward)."""
    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, grad, shape, dim, indices):
        ctx.dim = dim
        ctx.save_for_backward(indices)
        out = np.zeros(shape, dtype=grad.dtype)
        np.put_along_axis(out, indices, grad, axis=dim)
        return out

    @staticmethod
    def backward(ctx, gg):
        indices, = ctx.saved_tensors
        return Gather.apply(gg, ctx.dim, indices), None, None, None


class Gather(Op):
    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, x, dim, indices):
        ctx.shape, ctx.dim = x.shape, dim
        ctx.save_for_backward(indices)
        return np.take_along_axis(x, indices, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        indices, = ctx.saved_tensors
        return ScatterAlong.apply(grad, ctx.shape, ctx.dim, indices), None, None


class Softmax(Op):
    node_name = "SoftmaxBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x, dim):
        e = np.exp(x - x.max(axis=dim, keepdims=True))  # shifting by the max avoids overflow
        out = e / e.sum(axis=dim, keepdims=True)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        # The Jacobian diag(s) - s s^T applied to grad, without building it.
        return out * (grad - (grad * out).sum(ctx.dim, keepdim=True)), None


class LogSoftmax(Op):
    node_name = "LogSoftmaxBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x, dim):
        shifted = x - x.max(axis=dim, keepdims=True)
        out = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, out, ctx.dim), None


class LogSoftmaxBackwardData(Op):
    """log_softmax's backward, one op as in PyTorch: ``grad - softmax * grad.sum(dim)``,
    the softmax being ``exp(out)``."""
    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, out, dim):
        ctx.save_for_backward(grad, out)
        ctx.dim = dim
        return grad - np.exp(out) * grad.sum(axis=dim, keepdims=True)

    @staticmethod
    def backward(ctx, gg):  # only for create_graph: d/d grad and d/d out of the line above
        grad, out = ctx.saved_tensors
        p = out.exp()
        return (gg - (gg * p).sum(ctx.dim, keepdim=True),
                -gg * p * grad.sum(ctx.dim, keepdim=True), None)


class Logsumexp(Op):
    node_name = "LogsumexpBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, x, dims, keepdim):
        m = np.max(x, axis=dims, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)  # all -inf (or inf): no shift, the result is +-inf
        out = np.log(np.sum(np.exp(x - m), axis=dims, keepdims=True)) + m
        out = out if keepdim else np.squeeze(out, axis=dims)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if not ctx.keepdim:  # line the reduced result up with x again
            for d in sorted(ctx.dims):
                grad, out = grad.unsqueeze(d), out.unsqueeze(d)
        return grad * (x - out).exp(), None, None  # the softmax of x, scaled by grad


# ---------------------------------------------------------------------------------------------
# Shapes: no arithmetic, the gradient is only moved back into place
# ---------------------------------------------------------------------------------------------


class View(Op):
    node_name = "ViewBackward0"
    view = True  # the output is a view of the input: same memory, same version counter

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        return x.reshape(shape)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class UnsafeView(View):
    node_name = "UnsafeViewBackward0"  # a reshape that had to copy


class Expand(Op):
    node_name = "ExpandBackward0"
    view = True  # the output is a view of the input: same memory, same version counter

    @staticmethod
    def forward(ctx, x, shape):
        return np.broadcast_to(x, shape)

    @staticmethod
    def backward(ctx, grad):
        return grad, None  # the engine sums the broadcast gradient back to x's shape


class SumToSize(Op):
    """Sum a broadcast gradient back to ``shape`` (the inverse of expand)."""
    node_name = "SumBackward1"  # PyTorch's sum_to_size is a sum over dims

    @staticmethod
    def forward(ctx, x, shape):
        lead = x.ndim - len(shape)
        dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
        return np.sum(x, axis=dims, keepdims=True).reshape(shape) if dims else x

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx._inputs[0][0]), None


class Permute(Op):
    node_name = "PermuteBackward0"
    view = True  # the output is a view of the input: same memory, same version counter

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims
        return np.transpose(x, dims)

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(*np.argsort(ctx.dims).tolist()), None


class Transpose(Op):
    node_name = "TransposeBackward0"
    view = True  # the output is a view of the input: same memory, same version counter

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dims = (dim0, dim1)
        return np.swapaxes(x, dim0, dim1) if x.ndim else x.view()

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


class T(Transpose):
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dims = (dim0, dim1)
        return x.T  # a view; 0-d and 1-d: unchanged

    @staticmethod
    def backward(ctx, grad):
        return grad.t(), None, None


class Unsqueeze(Op):
    node_name = "UnsqueezeBackward0"
    view = True  # the output is a view of the input: same memory, same version counter

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        return np.expand_dims(x, dim)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


class Squeeze(Op):
    node_name = "SqueezeBackward0"
    view = True  # the output is a view of the input: same memory, same version counter

    @staticmethod
    def forward(ctx, x, dims):
        ctx.shape = x.shape
        return np.squeeze(x, axis=dims)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


class Index(Op):
    """``x[key]``: basic indexing (ints, slices, None, ...) or advanced (integer arrays, masks)."""
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.shape, ctx.key = x.shape, key
        return x[key]

    @staticmethod
    def backward(ctx, grad):
        return IndexPut.apply(grad, ctx.shape, ctx.key), None


class Select(Index):
    node_name = "SelectBackward0"  # x[i] along one dimension
    view = True  # the output is a view of the input: same memory, same version counter


class Slice(Index):
    node_name = "SliceBackward0"  # x[a:b:c] along one dimension
    view = True  # the output is a view of the input: same memory, same version counter


class Alias(Index):
    node_name = "AliasBackward0"  # x[:] or x[...]: the same elements
    view = True  # the output is a view of the input: same memory, same version counter


class Unbind(Index):
    node_name = "UnbindBackward0"  # for x in tensor: ... (PyTorch makes one node for all slices)
    view = True  # the output is a view of the input: same memory, same version counter


class IndexPut(Op):
    """Zeros of ``shape`` with ``grad`` added in at ``key``: indexing's backward.
    ``np.add.at`` adds once per occurrence, so a repeated index gathers every gradient."""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, dtype=grad.dtype)
        np.add.at(out, key, grad)
        return out

    @staticmethod
    def backward(ctx, gg):
        return gg[ctx.key], None, None


class Cat(Op):
    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *xs):
        ctx.dim, ctx.sizes = dim, [x.shape[dim] for x in xs]
        return np.concatenate(xs, axis=dim)

    @staticmethod
    def backward(ctx, grad):  # cut the gradient into the inputs' pieces
        bounds = np.cumsum([0] + ctx.sizes)
        before = (slice(None),) * (ctx.dim % grad.dim())
        return (None,) + tuple(grad[before + (slice(int(lo), int(hi)),)]
                               for lo, hi in zip(bounds[:-1], bounds[1:]))


class Stack(Op):
    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *xs):
        ctx.dim = dim
        return np.stack(xs, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        before = (slice(None),) * (ctx.dim % grad.dim())
        return (None,) + tuple(grad[before + (i,)] for i in range(grad.shape[ctx.dim]))


class Where(Op):
    node_name = "WhereBackward0"

    @staticmethod
    def forward(ctx, condition, a, b):  # condition: a bool array, not a graph input
        ctx.save_for_backward(condition)
        return np.where(condition, a, b)

    @staticmethod
    def backward(ctx, grad):
        condition, = ctx.saved_tensors
        return None, where(condition, grad, 0.0), where(condition, 0.0, grad)


def where(condition, a, b):
    from ._tensor import where as _where
    return _where(condition, a, b)


# ---------------------------------------------------------------------------------------------
# Copies, dtype changes, and what in-place ops record
# ---------------------------------------------------------------------------------------------


class Clone(Op):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x):
        return x.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad


class ToCopy(Op):
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, np_dtype):
        return x.astype(np_dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad, None  # the engine casts it back to x's dtype


class Zero(Op):
    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, x):
        return np.zeros_like(x)

    @staticmethod
    def backward(ctx, grad):
        return _zeros(grad)  # the old values no longer matter


class Fill(Op):
    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        return np.full_like(x, value)

    @staticmethod
    def backward(ctx, grad):
        return _zeros(grad), None


class Copy(Op):
    node_name = "CopyBackwards"
    node_qualname = "torch::autograd::CopyBackwards"  # what PyTorch's grad_fn.name() says

    @staticmethod
    def forward(ctx, x, src):
        return np.broadcast_to(src, x.shape).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        return _zeros(grad), grad  # the engine sums and casts src's share to src's shape and dtype


# ---------------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------------


class MseLoss(Op):
    """``((input - target) ** 2)``, then averaged (``"mean"``), summed, or not (``"none"``)."""
    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, input, target, reduction):
        ctx.save_for_backward(input, target)
        ctx.reduction = reduction
        squares = (input - target) ** 2
        ctx.count = squares.size  # the mean divides by the broadcast size
        if reduction == "none":
            return squares
        return np.mean(squares) if reduction == "mean" else np.sum(squares)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        g = 2 * (input - target) * grad  # grad is 0-d after a reduction: it broadcasts
        if ctx.reduction == "mean":
            g = g / ctx.count
        return (g if ctx.needs_input_grad[0] else None,
                -g if ctx.needs_input_grad[1] else None, None)


class NllLoss(Op):
    """``-input[n, target[n]]``: minus the log-probability given to each target class,
    with classes along dim 1 (dim 0 for a single sample), times the class ``weight``.
    ``"mean"`` divides the sum by the total weight; a target equal to ``ignore_index``
    counts for nothing. ``target`` and ``weight`` come as arrays: they get no gradient."""
    node_name = "NllLossBackward0"

    @staticmethod
    @_quiet
    def forward(ctx, input, target, weight, reduction, ignore_index):
        axis = 0 if input.ndim == 1 else 1
        keep = target != ignore_index
        index = np.expand_dims(np.where(keep, target, 0), axis)  # ignored rows pick class 0, weight 0
        w = keep.astype(input.dtype)
        if weight is not None:
            w *= weight[index.squeeze(axis)]
        losses = -np.take_along_axis(input, index, axis).squeeze(axis) * w
        ctx.save_for_backward(index, w)
        ctx.shape, ctx.axis, ctx.reduction = input.shape, axis, reduction
        if reduction == "none":
            return losses
        ctx.total = float(w.sum())
        return losses.sum() / ctx.total if reduction == "mean" else losses.sum()

    @staticmethod
    def backward(ctx, grad):
        index, w = ctx.saved_tensors
        scale = 1 / ctx.total if ctx.reduction == "mean" else 1.0
        return (NllLossBackward.apply(grad, index._data, w._data, scale, ctx.shape, ctx.axis),
                None, None, None, None)


class NllLossBackward(Op):
    """nll_loss's backward, one op as in PyTorch: only the picked log-probabilities reach
    the loss, so the gradient is zero but at ``index``, where it is ``-weight * grad``
    (times ``scale``: 1 / total weight for the mean)."""
    node_name = "NllLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, index, w, scale, shape, axis):
        ctx.save_for_backward(index, w)
        ctx.scale, ctx.axis, ctx.reduced = scale, axis, grad.ndim < index.ndim - 1
        out = np.zeros(shape, dtype=grad.dtype)
        np.put_along_axis(out, index, np.expand_dims(-w * (grad * scale), axis), axis=axis)
        return out

    @staticmethod
    def backward(ctx, gg):  # only for create_graph: the op is linear in grad
        index, w = ctx.saved_tensors
        picked = Gather.apply(gg, ctx.axis, index._data).squeeze(ctx.axis)
        grad = -(picked * w * ctx.scale)
        return grad.sum() if ctx.reduced else grad, None, None, None, None, None


class NllLoss2d(NllLoss):
    node_name = "NllLoss2DBackward0"  # PyTorch's name for inputs with spatial dims (N, C, H, W)


# ---------------------------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------------------------


class NativeBatchNorm(Op):
    """Batch normalisation in one node, as PyTorch records it. Each channel (dim 1) is
    normalised with ``mean`` and ``invstd`` (1 / standard deviation), then scaled by
    ``weight`` and shifted by ``bias``. ``training``: the statistics are the batch's own,
    so they depend on x too, and backward must account for that."""
    node_name = "NativeBatchNormBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, mean, invstd, training, eps):
        ctx.training, ctx.eps = training, eps
        ctx.save_for_backward(x, weight, mean, invstd)
        out = (x - mean) * invstd
        if weight is not None:
            out = out * weight.reshape(mean.shape)
        if bias is not None:
            out = out + bias.reshape(mean.shape)
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, weight, mean, invstd = ctx.saved_tensors
        dims = (0,) + tuple(range(2, x.dim()))  # every dim but the channels
        if ctx.training:  # recompute the statistics from x with tensor ops: differentiable again
            centred = x - x.mean(dims, keepdim=True)
            invstd = ((centred * centred).mean(dims, keepdim=True) + ctx.eps) ** -0.5
            x_hat = centred * invstd
        else:
            x_hat = (x - mean) * invstd
        g = grad if weight is None else grad * weight.reshape(mean.shape)
        if ctx.training:
            # The mean and the variance move with every element: subtract their share.
            grad_x = invstd * (g - g.mean(dims, keepdim=True) - x_hat * (g * x_hat).mean(dims, keepdim=True))
        else:
            grad_x = g * invstd
        grad_w = (grad * x_hat).sum(dims) if weight is not None and ctx.needs_input_grad[1] else None
        grad_b = grad.sum(dims) if ctx.needs_input_grad[2] else None
        return grad_x, grad_w, grad_b, None, None, None, None
