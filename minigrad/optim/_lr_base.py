"""The base class of the lr schedulers (lr_scheduler.py, _lr_cyclic.py), and what they share."""
import warnings

from .optimizer import Optimizer

_EPOCH_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. "
    "Please use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from "
    "None, the closed form is used instead of the new chainable form, where available. Please open an issue "
    "if you are unable to replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")
_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you "
    "should call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure "
    "to do this will result in PyTorch skipping the first value of the learning rate schedule. See more "
    "details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


_OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler initialization. Please, "
    "make sure to call `optimizer.step()` before `lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


def _lrs(optimizer):
    return [group["lr"] for group in optimizer.param_groups]


def _warn_unless_stepping(scheduler):
    """``get_lr()`` computes the *next* lr (and, recursively, from the current one): outside
    ``step()`` it is not what a learner wants, and PyTorch says so."""
    if not scheduler._get_lr_called_within_step:
        warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                      UserWarning, stacklevel=3)


class LRScheduler:
    """Base class: subclasses write ``get_lr()``, the new lr of each group at ``last_epoch``.

    Creating a scheduler records each group's starting lr as ``"initial_lr"`` (in
    ``base_lrs`` too) and takes step 0, which sets ``last_epoch = 0``.
    """

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                                   "scheduler with last_epoch >= 0.\nThis typically happens when:\n1. You're "
                                   "trying to resume training from a checkpoint but haven't properly loaded the "
                                   "optimizer state\n2. You're using last_epoch >= 0 for a fresh training run "
                                   "(not recommended)")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _notice_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self):
        """Step 0 (at creation; SequentialLR also calls it when a scheduler's turn comes):
        the schedule's first lr, with ``_is_initial`` set for the recursive forms."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self):
        """Everything but the optimizer (which has its own ``state_dict``)."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        """The lr of each group, as the last ``step()`` left it."""
        return self._last_lr

    def get_lr(self):
        raise NotImplementedError

    def step(self, epoch=None):
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):  # replaced since: cannot tell
                warnings.warn(_OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_EPOCH_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        """Set each group's lr to the schedule's next value (or its value at ``epoch``)."""
        self._get_lr_called_within_step = True
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:  # deprecated: jump to an epoch, computed from the closed form where there is one
            self.last_epoch = epoch
            values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = _lrs(self.optimizer)


def _notice_optimizer_steps(optimizer):
    """Wrap ``optimizer.step`` so that it notes it has run (``_opt_called``): the scheduler's
    first ``step()`` warns if the optimizer has not stepped yet (a common slip)."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step = optimizer.step

    def wrapper(*args, **kwargs):
        optimizer._opt_called = True
        return step(*args, **kwargs)
    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


def _format_param(name, optimizer, param):
    """One value per parameter group: a list as given (of the right length), or one value for all."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has {len(param)} "
                             f"values, param_groups has {len(optimizer.param_groups)}.")
        return list(param)
    return [param] * len(optimizer.param_groups)
