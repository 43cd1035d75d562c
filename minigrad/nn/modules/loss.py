"""Loss modules: each calls its function of ``nn.functional`` with its settings."""
import warnings

from .. import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:  # PyTorch's old arguments
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction


def _legacy_reduction(size_average, reduce):
    """What ``size_average=`` and ``reduce=`` (deprecated) mean as a ``reduction=``.
    (``MSELoss(pred, target)``, a loss called before it is made, lands here: PyTorch then
    asks ``bool(pred)``, and so does this.)"""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


class MSELoss(_Loss):
    """The mean squared error between ``input`` and ``target`` (same shape)."""

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_Loss):
    """Negative log-likelihood: ``input`` holds log-probabilities (N, C), ``target``
    class indices (N,). Put a LogSoftmax before it, or use CrossEntropyLoss."""

    def __init__(self, weight=None, *, ignore_index=-100, reduction="mean"):
        super().__init__(reduction=reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class CrossEntropyLoss(NLLLoss):
    """The loss of a classifier: ``input`` holds raw scores (logits) (N, C), ``target``
    class indices (N,). It is NLLLoss after a log_softmax, computed stably."""

    def __init__(self, weight=None, *, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(weight, ignore_index=ignore_index, reduction=reduction)
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)
