"""Rprop, as torch.optim.Rprop (Riedmiller & Braun, 1993): only the *sign* of the gradient
is used. Each number has its own step size: multiplied by ``etaplus`` while the gradient
keeps its sign, by ``etaminus`` when it flips (a minimum was jumped over: that step is
then skipped), clamped to ``step_sizes``. Meant for full-batch training.
"""
from .. import _creation
from .optimizer import Optimizer, _check_implementation_options, _scalar, _update

__all__ = ["Rprop"]


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False,
                 foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        _check_implementation_options(differentiable, False)
        if capturable:
            raise NotImplementedError("capturable=True is for CUDA graphs; minigrad runs on the CPU only")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @_update  # the closure first; then the update, recording no graph (parameters stay leaves)
    def step(self, closure=None):
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            for p in group["params"]:
                if p.grad is None:  # no gradient this time (e.g. unused): leave it alone
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar(0.0)
                    state["prev"] = _creation.zeros_like(p)  # the last gradient used
                    state["step_size"] = _creation.full_like(grad, group["lr"])  # every number starts at lr
                prev, step_size = state["prev"], state["step_size"]
                state["step"].add_(1)
                sign = grad.mul(prev).sign()  # +1: same sign as last time, -1: flipped, 0: no last time
                factor = sign.clone()
                factor[sign.gt(0)] = etaplus
                factor[sign.lt(0)] = etaminus
                factor[sign.eq(0)] = 1
                step_size.mul_(factor).clamp_(step_size_min, step_size_max)
                grad = grad.clone()
                grad[factor.eq(etaminus)] = 0  # after a flip: no step, and no flip counted next time
                p.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
