"""Adadelta, as torch.optim.Adadelta (Zeiler, 2012): a step size without a learning rate
to tune. Two running averages (decay ``rho``): of the squared gradients (``square_avg``)
and of the squared *updates* (``acc_delta``); the update is
``g * sqrt(acc_delta + eps) / sqrt(square_avg + eps)``, so it has the units of ``p``.
``lr`` (1.0 by default) only scales it.
"""
from .. import _creation
from .optimizer import Optimizer, _check_implementation_options, _scalar, _update

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check_implementation_options(differentiable, False)
        if capturable:
            raise NotImplementedError("capturable=True is for CUDA graphs; minigrad runs on the CPU only")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    @_update  # the closure first; then the update, recording no graph (parameters stay leaves)
    def step(self, closure=None):
        for group in self.param_groups:
            lr, rho, eps, weight_decay = group["lr"], group["rho"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:  # no gradient this time (e.g. unused): leave it alone
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar(0.0)
                    state["square_avg"] = _creation.zeros_like(p)
                    state["acc_delta"] = _creation.zeros_like(p)
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                state["step"].add_(1)
                grad = -p.grad if group["maximize"] else p.grad
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
                acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                p.add_(delta, alpha=-lr)
