"""Stochastic gradient descent, optionally with momentum, as torch.optim.SGD."""
from .optimizer import Optimizer, _check_implementation_options, _update


class SGD(Optimizer):
    """``p -= lr * g``, where ``g`` is the gradient, with optional extras:

    - ``weight_decay``: ``g += weight_decay * p`` (L2 regularisation);
    - ``momentum``: ``buf = momentum * buf + (1 - dampening) * g``, then step along ``buf``
      (the first step sets ``buf = g``); ``nesterov=True`` steps along ``g + momentum * buf``;
    - ``maximize``: climb instead of descend (use ``-g``).
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        _check_implementation_options(differentiable, fused)
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)

    @_update  # the closure first; then the update, recording no graph (parameters stay leaves)
    def step(self, closure=None):
        for group in self.param_groups:
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            weight_decay, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
            for p in group["params"]:
                grad = p.grad
                if grad is None:  # no gradient this time (e.g. unused): leave it alone
                    continue
                if maximize:
                    grad = -grad
                if weight_decay != 0:
                    grad = grad + p * weight_decay  # a new tensor: p.grad itself is not changed
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        # A copy, since grad may be p.grad itself, which the next backward adds to.
                        buf = state["momentum_buffer"] = grad.detach().clone()
                    else:
                        buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                    grad = grad + buf * momentum if nesterov else buf
                p.add_(grad, alpha=-lr)
