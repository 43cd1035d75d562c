"""Neural-network ops: softmax, log_softmax and the mean squared error.
"""
import numpy as np

from ..function import Op



class Softmax(Op):
    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        x = np.asarray(x, order="C")  # the result is laid out row by row, as PyTorch's
        # shifting by the max avoids overflow (initial: an empty dim has no max)
        e = np.exp(x - x.max(axis=dim, keepdims=True, initial=-np.inf))
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
    def forward(ctx, x, dim):
        x = np.asarray(x, order="C")  # the result is laid out row by row, as PyTorch's
        out = x - x.max(axis=dim, keepdims=True, initial=-np.inf)  # shifted (an empty dim has no max),
        out -= np.log(np.exp(out).sum(axis=dim, keepdims=True))  # then normalised in place
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


class MseLoss(Op):
    """``((input - target) ** 2)``, then averaged (``"mean"``), summed, or not (``"none"``)."""
    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, input, target, reduction, dtype):
        ctx.save_for_backward(input, target)
        ctx.reduction = reduction
        squares = (input.astype(dtype, copy=False) - target.astype(dtype, copy=False)) ** 2
        ctx.count = squares.size  # the mean divides by the broadcast size
        if reduction == "none":
            return squares
        total = np.sum(squares)
        return total / squares.size if reduction == "mean" else total  # (empty: NaN, silently)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        # As PyTorch's mse_loss_backward, in its order (2/n first: no overflow on the way),
        # and for the target the same with the two swapped (so 0., not -0.); grad is 0-d
        # after a reduction: it broadcasts
        norm = (2 / ctx.count if ctx.count else float("inf")) if ctx.reduction == "mean" else 2.0  # (empty: 2/0)
        return (norm * (input - target) * grad if ctx.needs_input_grad[0] else None,
                norm * (target - input) * grad if ctx.needs_input_grad[1] else None, None, None)
