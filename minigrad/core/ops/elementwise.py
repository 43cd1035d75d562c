"""Functions of one tensor, element by element: exp, log, sqrt, abs, relu, sigmoid, tanh, clamp.

Each backward is the chain rule for one element: the incoming gradient times the function's
derivative there, often written with the saved output (``d exp(x) = exp(x)``).
"""
import numpy as np

from ..function import Op



class Exp(Op):
    node_name = "ExpBackward0"

    @staticmethod
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


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}  # by width in bytes: relu's bit masks


class Relu(Op):
    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dtype.kind == "b":
            raise RuntimeError("Boolean inputs not supported for relu")
        # x with all its bits cleared (+0.) where x < 0, all kept elsewhere: NaN stays NaN and
        # -0. stays -0., as in PyTorch (np.maximum(x, 0) gives 0. there; faster on small arrays,
        # slower on large ones). The mask as in ThresholdBackward below: 1 - 1 = 0 where x < 0,
        # 0 - 1 = all ones elsewhere.
        bits = _UNSIGNED[x.itemsize]  # an unsigned integer as wide as x's numbers
        out = (x < 0).astype(bits)
        out -= 1
        out &= x.view(bits)
        out = out.view(x.dtype)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return ThresholdBackward.apply(grad, out)


class ThresholdBackward(Op):
    """ReLU's backward, one op as in PyTorch (``threshold_backward``): the gradient passes
    where the unit is on and is 0 where it is off (output <= 0), at 0 too. Its own node shows
    up only when backward is recorded (``create_graph=True``)."""
    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(out)
        # A choice, not a product with a 0/1 mask: an inf or NaN gradient where the unit is
        # off (sqrt's at relu's 0) gives 0, not inf * 0 = NaN. A NaN output (relu(NaN)) is not
        # "<= 0", so the gradient passes there, as in PyTorch.
        # np.where(out <= 0, 0., grad) makes this choice with a branch per element, 4-10x slower
        # on the random masks ReLU makes. The same choice on the bits has no branch: all of
        # grad's bits are kept where the unit is on, all cleared (+0.) where it is off: off is
        # 1, on 0; minus 1 (unsigned, wrapping round): off 0, on all ones. In place: one array.
        bits = _UNSIGNED[grad.itemsize]  # an unsigned integer as wide as grad's floats
        keep = (out <= 0).astype(bits)
        keep -= 1
        keep &= grad.view(bits)
        return keep.view(grad.dtype)

    @staticmethod
    def backward(ctx, gg):
        out, = ctx.saved_tensors
        return ThresholdBackward.apply(gg, out), out.new_zeros(out.shape)  # the mask is flat in ``out``


class Sigmoid(Op):
    node_name = "SigmoidBackward0"

    @staticmethod
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
        return grad.where(inside, 0.0), None, None  # it passes only where x was not clipped


class ClampMin(Op):
    """``x.clamp_min(number)``: PyTorch's own op (``x.clamp(min=number)`` is ClampBackward1)."""
    node_name = "ClampMinBackward0"

    @staticmethod
    def forward(ctx, x, lo):
        ctx.save_for_backward(x)
        ctx.bound = lo
        return np.maximum(x, lo).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad.where(x >= ctx.bound, 0.0), None


class ClampMax(ClampMin):
    node_name = "ClampMaxBackward0"

    @staticmethod
    def forward(ctx, x, hi):
        ctx.save_for_backward(x)
        ctx.bound = hi
        return np.minimum(x, hi).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad.where(x <= ctx.bound, 0.0), None
