"""The Optimizer base class: parameter groups, per-parameter state, zero_grad, state_dict.

An optimizer holds *parameter groups*: dicts with a ``"params"`` list and every
hyperparameter (``lr``, ``momentum``, ...), so different groups can use different
settings. ``state`` maps each parameter to a dict of what the update rule carries
from step to step (momentum buffers, running averages). Subclasses write ``step``.
"""
import functools
import warnings
from collections import defaultdict
from copy import deepcopy
from itertools import chain

from .. import _creation, _dtype
from .._conventions import quietly
from .._tensor import Tensor
from ..autograd import enable_grad, no_grad


class _RequiredParameter:
    """Default value of a hyperparameter every group must set itself."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()

def _typename(obj):
    """What ``torch.typename`` says: ``torch.FloatTensor`` for tensors, else the class name."""
    if isinstance(obj, Tensor):
        return obj.dtype.tensor_type
    cls = type(obj)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def _scalar(value):
    """A 0-d tensor of PyTorch's "scalar dtype" for optimizer state (the step count, NAdam's
    ``mu_product``): float32, or float64 when that is the default dtype."""
    return _creation.tensor(value, dtype=_dtype.get_default_dtype())


def _closure_loss(closure):
    """``step(closure)``: the loss the closure computes, with gradients on (step runs without)."""
    if closure is None:
        return None
    with enable_grad():
        return closure()


def _update(step):
    """Decorates an optimizer's ``step(self, closure=None)``. The closure, if given, runs first,
    as the caller's code (gradients on); its loss is what ``step`` returns. Then the update runs
    under no_grad, so that the parameters stay leaves, and with NumPy quiet throughout, as
    backward runs: an inf or NaN passes silently, as in PyTorch, and each in-place op of the
    update finds the quiet state set instead of setting and resetting it itself."""
    @functools.wraps(step)
    def wrapper(self, closure=None):
        loss = _closure_loss(closure)
        with no_grad(), quietly():
            step(self)
        return loss
    return wrapper


def _check_implementation_options(differentiable, fused):
    """PyTorch's ``foreach`` and ``fused`` choose faster kernels for the same update, and
    ``differentiable`` records the step in the graph. minigrad has one plain implementation:
    it keeps the ``foreach`` flag (same result) but refuses the other two rather than ignore them."""
    if differentiable:
        raise NotImplementedError("minigrad's optimizers do not support differentiable=True")
    if fused:
        raise NotImplementedError("minigrad's optimizers do not support fused=True")


class Optimizer:
    """Base class of all optimizers.

    ``params`` is an iterable of tensors, or of dicts (parameter groups) whose keys
    override ``defaults`` for that group.
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors "
                            "or dicts, but got " + _typename(params))
        self.state = defaultdict(dict)  # parameter -> its state; filled lazily by step()
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def add_param_group(self, param_group):
        """Add a group of parameters, e.g. layers unfrozen while fine-tuning.

        Missing hyperparameters are filled in from ``defaults``.
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):  # a set's order changes between runs, and so would state_dict
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the "
                            "ordering of tensors in sets will change between runs. Please use a list "
                            "instead.")
        params = list(params)

        # model.named_parameters() gives (name, tensor) pairs: keep the names alongside.
        names = [p[0] for p in params if isinstance(p, tuple)]
        params = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. "
                                 "Some param names are missing")
            param_group["param_names"] = names
        param_group["params"] = params

        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(p))
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization "
                                 f"parameter {name}")
            param_group.setdefault(name, default)

        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, "
                          "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                          "information", stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not seen.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Forget the gradients, so the next ``backward()`` does not add to them.

        ``set_to_none=True`` (the default) drops them: then ``step`` skips a parameter
        that gets no new gradient. ``False`` fills the existing gradients with zeros.
        """
        for group in self.param_groups:
            for p in group["params"]:
                grad = p.grad
                if grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if grad.grad_fn is not None:  # a gradient from create_graph=True: cut it loose
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    with no_grad():
                        grad.zero_()

    def step(self, closure=None):
        """Update the parameters once from their ``.grad``. ``closure`` recomputes the loss."""
        raise NotImplementedError

    # -- saving and restoring -------------------------------------------------------------------
    def state_dict(self):
        """The optimizer's state, with parameters replaced by their position (0, 1, ...).

        ``{'state': {0: {...}, ...}, 'param_groups': [{'lr': ..., 'params': [0, 1]}, ...]}``.
        As in PyTorch, the state tensors are the live ones, not copies: ``copy.deepcopy``
        the result to keep a snapshot while training goes on.
        """
        index = {}  # id(parameter) -> position, numbered across all groups in order

        def pack(group):
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            return packed

        param_groups = [pack(g) for g in self.param_groups]
        state = {index[id(k)] if isinstance(k, Tensor) else k: v for k, v in self.state.items()}
        return {"state": state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        """Restore what ``state_dict()`` saved; the parameters are matched by position."""
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size "
                             "of optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def cast(param, value, key=None):
            """Buffers take the parameter's dtype (as PyTorch; no copy if it already has it).
            Adam's step counter keeps its own dtype."""
            if isinstance(value, Tensor):
                return value if key == "step" or not param.is_floating_point() else value.to(param.dtype)
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                state[id_map[k]] = cast(id_map[k], v)
            else:  # state not tied to a parameter is kept as it is
                state[k] = v

        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.state = state
        self.param_groups = saved_groups
