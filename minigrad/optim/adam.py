"""Adam and AdamW, as torch.optim's (Kingma & Ba, 2014; amsgrad from Reddi et al., 2018;
AdamW from Loshchilov & Hutter, 2019)."""
from .. import _creation
from .optimizer import Optimizer, _check_implementation_options, _scalar, _update


def _check_adam_args(lr, betas, eps, weight_decay, differentiable, capturable, fused=None):
    """The checks, and PyTorch's words, that all of Adam's family share."""
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")
    _check_implementation_options(differentiable, fused)
    if capturable:
        raise NotImplementedError("capturable=True is for CUDA graphs; minigrad runs on the CPU only")


class Adam(Optimizer):
    """Steps along a running average of the gradient, divided by the root of a running
    average of its square, so every parameter moves by roughly ``lr`` per step:

    - ``m = beta1 * m + (1 - beta1) * g`` and ``v = beta2 * v + (1 - beta2) * g * g``;
    - both start at zero, so early on they are too small: divide by ``1 - beta ** step``;
    - ``p -= lr * m_hat / (sqrt(v_hat) + eps)``.

    ``weight_decay`` adds ``weight_decay * p`` to ``g`` (or, with
    ``decoupled_weight_decay=True``, shrinks ``p`` directly, which is AdamW);
    ``amsgrad`` divides by the largest ``v`` so far; ``maximize`` uses ``-g``.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_adam_args(lr, betas, eps, weight_decay, differentiable, capturable, fused)
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")  # noqa: TRY004 (PyTorch's)
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    @_update  # the closure first; then the update, recording no graph (parameters stay leaves)
    def step(self, closure=None):
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
            for p in group["params"]:
                if p.grad is None:  # no gradient this time (e.g. unused): leave it alone
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:  # first step: the state starts at zero
                    # The step count is a tensor, as in PyTorch (float32 unless the default
                    # dtype is float64), so state_dict() looks the same.
                    state["step"] = _scalar(0.0)
                    state["exp_avg"] = _creation.zeros_like(p)
                    state["exp_avg_sq"] = _creation.zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = _creation.zeros_like(p)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                state["step"].add_(1)
                step = state["step"].item()

                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad + p * weight_decay

                # The operations below are PyTorch's, in PyTorch's order, so results agree
                # to rounding: m.lerp_(g, 1 - beta1), i.e. m + (1 - beta1) * (g - m) ...
                exp_avg.add_(grad - exp_avg, alpha=1 - beta1)
                # ... v.mul_(beta2).addcmul_(g, g, value=1 - beta2) ...
                exp_avg_sq.mul_(beta2).add_((grad * (1 - beta2)).mul_(grad))

                bias_correction1 = 1 - beta1 ** step
                bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
                step_size = lr / bias_correction1
                if amsgrad:
                    max_exp_avg_sq = state["max_exp_avg_sq"]
                    max_exp_avg_sq.copy_(max_exp_avg_sq.maximum(exp_avg_sq))
                    denom = max_exp_avg_sq.sqrt().div_(bias_correction2_sqrt).add_(eps)
                else:
                    denom = exp_avg_sq.sqrt().div_(bias_correction2_sqrt).add_(eps)
                # ... and p.addcdiv_(m, denom, value=-step_size). (In place on temporaries
                # this step made: fewer large arrays allocated per step.)
                p.add_((exp_avg * -step_size).div_(denom))


class AdamW(Adam):
    """Adam with *decoupled* weight decay: each step first shrinks ``p`` by
    ``lr * weight_decay * p``, instead of adding ``weight_decay * p`` to the gradient
    (where Adam's division by ``sqrt(v)`` would rescale it). PyTorch's AdamW is the same:
    ``Adam(..., decoupled_weight_decay=True)``, with ``weight_decay=1e-2`` by default.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
