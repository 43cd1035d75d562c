"""RMSprop (Hinton's lecture notes) and Adagrad (Duchi et al., 2011), as torch.optim's.

Both divide each gradient by the root of an accumulated square of past gradients, so every
parameter gets its own step size: Adagrad sums all the squares (steps shrink for good),
RMSprop keeps a running average (steps adapt and stay lively). The operations are
PyTorch's, in PyTorch's order, so results agree to rounding.
"""
from .. import _creation
from .optimizer import Optimizer, _check_implementation_options, _scalar, _update


class RMSprop(Optimizer):
    """``v = alpha * v + (1 - alpha) * g * g`` and ``p -= lr * g / (sqrt(v) + eps)``.

    ``centered=True`` also keeps the average gradient ``m`` and divides by
    ``sqrt(v - m * m)``, an estimate of the gradient's variance; ``momentum`` steps along
    ``buf = momentum * buf + g / (sqrt(v) + eps)``; ``weight_decay`` adds
    ``weight_decay * p`` to ``g``; ``maximize`` uses ``-g``.
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        for what, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                            ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {what}: {value}")
        _check_implementation_options(differentiable, None)
        if capturable:
            raise NotImplementedError("capturable=True is for CUDA graphs; minigrad runs on the CPU only")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    @_update  # the closure first; then the update, recording no graph (parameters stay leaves)
    def step(self, closure=None):
        for group in self.param_groups:
            lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _scalar(0.0)
                    state["square_avg"] = _creation.zeros_like(p)
                    if momentum > 0:
                        state["momentum_buffer"] = _creation.zeros_like(p)
                    if group["centered"]:
                        state["grad_avg"] = _creation.zeros_like(p)
                state["step"].add_(1)
                if group["weight_decay"] != 0:
                    grad = grad + p * group["weight_decay"]

                square_avg = state["square_avg"]
                square_avg.mul_(alpha).add_((grad * (1 - alpha)).mul_(grad))
                if group["centered"]:
                    grad_avg = state["grad_avg"]
                    grad_avg.lerp_(grad, 1 - alpha)
                    avg = (square_avg - grad_avg * grad_avg).sqrt_()  # the spread around the mean
                else:
                    avg = square_avg.sqrt()
                avg.add_(eps)

                if momentum > 0:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).add_(grad / avg)
                    p.add_(buf, alpha=-lr)
                else:
                    p.add_((grad / avg).mul_(-lr))  # (in place on the temporary)


class Adagrad(Optimizer):
    """``s += g * g`` (all the squares so far) and ``p -= clr * g / (sqrt(s) + eps)``,
    where ``clr = lr / (1 + (step - 1) * lr_decay)``.

    ``s`` starts at ``initial_accumulator_value``; ``weight_decay`` adds ``weight_decay * p``
    to ``g``; ``maximize`` uses ``-g``. As in PyTorch, the state of every parameter exists
    from the start (``state_dict()`` shows it before the first step).
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        for what, value in (("learning rate", lr), ("lr_decay value", lr_decay),
                            ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value),
                            ("epsilon value", eps)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {what}: {value}")
        _check_implementation_options(differentiable, fused)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p)

    def _init_state(self, p):
        # As PyTorch: the defaults' initial_accumulator_value, whatever the group says.
        self.state[p]["step"] = _scalar(0.0)
        self.state[p]["sum"] = _creation.full_like(p, self.defaults["initial_accumulator_value"])

    @_update
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if len(self.state[p]) == 0:  # added with add_param_group after __init__
                    self._init_state(p)
                state = self.state[p]
                state["step"].add_(1)
                step = state["step"].item()
                grad = -p.grad if group["maximize"] else p.grad
                if group["weight_decay"] != 0:
                    grad = grad + p * group["weight_decay"]
                clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
                state["sum"].add_(grad * grad)
                std = state["sum"].sqrt().add_(group["eps"])
                p.add_((grad / std).mul_(-clr))
