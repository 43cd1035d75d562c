"""Averaged SGD, as torch.optim.ASGD (Polyak & Juditsky, 1992): SGD whose step size
``eta`` decays as ``lr / (1 + lambd * lr * step) ** alpha``, with a weight decay of
``lambd * eta``, and which keeps a running average of the parameters (``ax``), from step
``t0`` on. The average, not ``p``, is the answer: copy ``state['ax']`` into the model to use it.
"""
from .. import _creation
from .optimizer import Optimizer, _check_implementation_options, _scalar, _update

__all__ = ["ASGD"]


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check_implementation_options(differentiable, False)
        if capturable:
            raise NotImplementedError("capturable=True is for CUDA graphs; minigrad runs on the CPU only")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    @_update  # the closure first; then the update, recording no graph (parameters stay leaves)
    def step(self, closure=None):
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            weight_decay = group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:  # no gradient this time (e.g. unused): leave it alone
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar(0.0)
                    state["eta"] = _scalar(lr)  # (float32: the step size used is lr rounded so)
                    state["mu"] = _scalar(1.0)
                    state["ax"] = _creation.zeros_like(p)
                mu, ax, eta = state["mu"], state["ax"], state["eta"]
                state["step"].add_(1)
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                eta_value = eta.item()
                p.mul_(1 - lambd * eta_value)  # decay
                p.add_(grad, alpha=-eta_value)  # the SGD step
                if mu.item() != 1:
                    ax.add_(p.sub(ax).mul_(mu))  # the running average, once step > t0
                else:
                    ax.copy_(p)  # before t0 the "average" is the last p
                step = state["step"].item()
                eta.copy_(_scalar(lr / ((1 + lambd * lr * step) ** alpha)))
                mu.copy_(_scalar(1 / max(1, step - t0)))
