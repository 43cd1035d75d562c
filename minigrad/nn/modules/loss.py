"""Loss modules: each calls its function of ``nn.functional`` with its settings."""
from .. import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, *, reduction="mean"):
        super().__init__()
        self.reduction = reduction


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
