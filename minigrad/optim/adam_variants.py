"""Adamax, NAdam and RAdam: three variations on Adam (adam.py), as torch.optim's.

Each keeps Adam's running average of the gradient ``m`` (``exp_avg``) and changes what
it divides by, or how it looks ahead:

- Adamax divides by a running *maximum* of ``|g|`` instead of ``sqrt(v)`` (Kingma & Ba, 2014, sec. 7);
- NAdam adds Nesterov momentum: it steps along a mix of ``g`` and ``m`` weighted by a
  momentum schedule ``mu_t`` (Dozat, 2016);
- RAdam skips Adam's division while ``v`` is still too noisy to trust (the first few
  steps), then "rectifies" it (Liu et al., 2019).

The operations are PyTorch's single-tensor ones in PyTorch's order (``lerp_``,
``addcmul_``, ``addcdiv_``), so the numbers agree to rounding.
"""
from .. import _creation
from .adam import _check_adam_args
from .optimizer import Optimizer, _scalar, _update

__all__ = ["Adamax", "NAdam", "RAdam"]


class Adamax(Optimizer):
    """Adam with the infinity norm: ``u = max(beta2 * u, |g| + eps)`` (``exp_inf``) replaces
    ``sqrt(v)``, and ``p -= lr / (1 - beta1 ** step) * m / u``."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_adam_args(lr, betas, eps, weight_decay, differentiable, capturable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @_update  # the closure first; then the update, recording no graph (parameters stay leaves)
    def step(self, closure=None):
        for group in self.param_groups:
            lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:  # no gradient this time (e.g. unused): leave it alone
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar(0.0)
                    state["exp_avg"] = _creation.zeros_like(p)
                    state["exp_inf"] = _creation.zeros_like(p)
                exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
                state["step"].add_(1)
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_inf.copy_(exp_inf.mul_(beta2).maximum(grad.abs().add_(eps)))
                clr = lr / (1 - beta1 ** state["step"].item())
                p.addcdiv_(exp_avg, exp_inf, value=-clr)


class NAdam(Optimizer):
    """Adam with Nesterov momentum. The momentum coefficient grows over the steps,
    ``mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))``, and ``mu_product`` (their
    product so far, a float32 tensor in the state as in PyTorch) plays the part of Adam's
    bias correction. Each step moves along ``g`` (this step's gradient, weighted by
    ``1 - mu_t``) and along ``m`` (weighted by the *next* ``mu``: the look-ahead)."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_args(lr, betas, eps, weight_decay, differentiable, capturable)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_update
    def step(self, closure=None):
        for group in self.param_groups:
            lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            momentum_decay = group["momentum_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar(0.0)
                    state["mu_product"] = _scalar(1.0)
                    state["exp_avg"] = _creation.zeros_like(p)
                    state["exp_avg_sq"] = _creation.zeros_like(p)
                exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]
                state["step"].add_(1)
                step = state["step"].item()
                bias_correction2 = 1 - beta2 ** step
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                mu_product.mul_(mu)  # rounded to the state's float32, as in PyTorch
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
                mu_product_now = mu_product.item()
                mu_product_next = mu_product_now * mu_next
                p.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - mu_product_now))
                p.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))


class RAdam(Optimizer):
    """Rectified Adam. ``rho_t`` estimates how many steps' worth of gradients ``v`` averages
    (``rho_inf = 2 / (1 - beta2) - 1`` in the long run). While ``rho_t <= 5`` the variance of
    ``1 / sqrt(v)`` is too large: the step is plain momentum SGD along the bias-corrected
    ``m``. After that it is Adam's step times the rectification ``r_t`` (which tends to 1)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_args(lr, betas, eps, weight_decay, differentiable, capturable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_update
    def step(self, closure=None):
        for group in self.param_groups:
            lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar(0.0)
                    state["exp_avg"] = _creation.zeros_like(p)
                    state["exp_avg_sq"] = _creation.zeros_like(p)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                state["step"].add_(1)
                step = state["step"].item()
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                bias_corrected_exp_avg = exp_avg / bias_correction1
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                if rho_t > 5.0:
                    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq.sqrt().add_(eps)
                    p.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
                else:
                    p.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
