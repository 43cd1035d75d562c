"""``nn.Module``: the base class of every layer and model.

A Module keeps three ordered tables, filled by plain attribute assignment:
``_parameters`` (Parameters), ``_buffers`` (tensors that are state but not trained,
like BatchNorm's running mean) and ``_modules`` (sub-modules). Everything else
(``parameters()``, ``state_dict()``, ``train()``, ``repr``) walks these tables, in
the order the attributes were assigned, as PyTorch does.
"""
import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping


from ... import _device, _dtype
from ..._tensor import Tensor, _to_args
from ...autograd import no_grad
from ...core.function import Op
from ..parameter import Parameter


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()


def _addindent(text, spaces):
    """Indent every line but the first: how a child's repr nests inside its parent's."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


class Module:
    """Subclass it, create parameters and sub-modules in ``__init__`` (after
    ``super().__init__()``), and compute the output in ``forward``."""

    training = True

    def __init__(self):
        # object.__setattr__: our own __setattr__ needs these tables to exist already.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers", set())
        object.__setattr__(self, "_modules", OrderedDict())
        for table in _HOOK_TABLES:
            object.__setattr__(self, table, OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        d = self.__dict__
        if not (d.get("_forward_pre_hooks") or d.get("_forward_hooks") or d.get("_backward_hooks")
                or d.get("_backward_pre_hooks")):
            return self.forward(*args, **kwargs)  # no hooks: nothing else to do
        return self._call_with_hooks(args, kwargs)

    # -- hooks ---------------------------------------------------------------------------------
    def _call_with_hooks(self, args, kwargs):
        """PyTorch's order: forward pre-hooks (may replace the input), forward, forward hooks
        (may replace the output); backward hooks watch the gradients at the module's
        inputs and outputs through identity nodes (``BackwardHookFunctionBackward``)."""
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        watch = _BackwardWatch(self) if self._backward_hooks or self._backward_pre_hooks else None
        if watch is not None:
            args = watch.inputs(args)
        output = self.forward(*args, **kwargs)
        for hook_id, hook in list(self._forward_hooks.items()):
            result = (hook(self, args, kwargs, output) if hook_id in self._forward_hooks_with_kwargs
                      else hook(self, args, output))
            if result is not None:
                output = result
        return output if watch is None else watch.outputs(output)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` runs before ``forward``; returning something replaces the
        input (a non-tuple is wrapped in one). With ``with_kwargs``: ``hook(module, args, kwargs)``
        returning None or ``(args, kwargs)``."""
        return _RemovableHandle(self._forward_pre_hooks, hook, prepend,
                                self._forward_pre_hooks_with_kwargs if with_kwargs else None)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook(module, args, output)`` runs after ``forward``; returning something replaces
        the output. With ``with_kwargs``: ``hook(module, args, kwargs, output)``."""
        return _RemovableHandle(self._forward_hooks, hook, prepend,
                                self._forward_hooks_with_kwargs if with_kwargs else None)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs when the gradients of the outputs are known;
        returning a tuple replaces them."""
        return _RemovableHandle(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs when the gradients of the module's
        inputs are known (tuples, None where an input is not a tensor needing a gradient);
        returning a tuple replaces ``grad_input``."""
        return _RemovableHandle(self._backward_hooks, hook, prepend)

    # -- registering by attribute assignment -------------------------------------------------
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)
            self._modules[name] = value
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = None
        elif params is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, keep=None):
        """Drop ``name`` from wherever it was before being registered in table ``keep``
        (where it keeps its place: reassigning ``self.fc`` does not change the order)."""
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._buffers, self._modules):
            if table is not keep:
                table.pop(name, None)
        self._non_persistent_buffers.discard(name)

    def __getattr__(self, name):
        # Only called when normal lookup fails: the name may be in one of the tables.
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                self._non_persistent_buffers.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules))

    def _check_name(self, kind, name, table):
        """PyTorch's checks of a name given to register_buffer / register_parameter / add_module."""
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."' + (f", got: {name}" if kind == "module" else ""))
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in table:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name("parameter", name, self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Keep ``tensor`` as state: in ``state_dict`` (unless not persistent) and converted
        by ``.double()``, but not a parameter, so no optimizer will train it."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name("buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._forget(name, keep=self._buffers)
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent_buffers.add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        self._check_name("module", name, self._modules)
        self._modules[name] = module

    register_module = add_module

    # -- walking the tree --------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """This module and every module inside it, depth first, with dotted names."""
        memo = set() if memo is None else memo
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name,
                                                remove_duplicate)

    def get_submodule(self, target):
        """The module at dotted path ``target`` ("" is this module)."""
        module = self
        for item in target.split(".") if target else ():
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, table, prefix, recurse, remove_duplicate=True):
        """(dotted name, tensor) for every entry of ``table`` in this module (and inside it);
        a tensor shared by two modules is listed once, as PyTorch does."""
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        seen = set()
        for module_prefix, module in modules:
            for name, value in getattr(module, table).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def apply(self, fn):
        """Call ``fn`` on every sub-module (children first), then on this one."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- modes and gradients -----------------------------------------------------------------
    def train(self, mode=True):
        """Training mode (Dropout drops, BatchNorm uses batch statistics), for this module
        and every module inside it."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")  # noqa: TRY004 (PyTorch's type)
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Clear the gradients that ``backward()`` accumulated into the parameters."""
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                g = p.grad.detach_() if p.grad.grad_fn is not None else p.grad.requires_grad_(False)
                g.zero_()

    # -- dtype conversion --------------------------------------------------------------------
    def _apply(self, fn, floats_only=True):
        """Replace, in place, the numbers of every floating-point parameter, gradient and
        buffer (every one, if not ``floats_only``) by ``fn`` of them. The Parameter objects stay
        the same, so an optimizer built before ``.double()`` still holds the model's parameters."""
        for module in self.modules():
            for p in module._parameters.values():
                if p is not None and (p.is_floating_point() or not floats_only):
                    p.data = fn(p.data)
                    if p._grad is not None:
                        p._grad.data = fn(p._grad.data)
            for name, b in module._buffers.items():
                if b is not None and (b.is_floating_point() or not floats_only):
                    module._buffers[name] = fn(b)
        return self

    def to(self, *args, **kwargs):
        """``.to(dtype)``, ``.to("cpu")``, ``.to("cpu", dtype)``, ``.to(tensor)`` (its dtype) or
        ``.to(memory_format=...)`` (of 4-D weights): read as ``Tensor.to`` reads them, then
        applied to the floating-point parameters and buffers (integer ones keep their dtype)."""
        device, dtype, copy, fmt = _to_args(args, kwargs)
        if copy is not None:
            raise RuntimeError(".to() does not accept copy argument")
        dtype = _dtype.dtype_arg(dtype, "to")
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        _device.check(device)  # only the CPU: an accelerator raises PyTorch's error
        if fmt is not None:  # (PyTorch converts the layout of 4-D and 5-D tensors only)
            self._apply(lambda t: t.contiguous(memory_format=fmt) if t.dim() in (4, 5) else t,
                        floats_only=False)
        return self if dtype is None else self._apply(lambda t: t.to(dtype))

    def double(self):
        return self.to(_dtype.float64)

    def float(self):
        return self.to(_dtype.float32)

    def half(self):
        return self.to(_dtype.float16)

    def bfloat16(self):
        raise _dtype.missing("bfloat16")

    def type(self, dst_type):
        """Every parameter and buffer, integer ones too (unlike ``to``), cast by
        ``tensor.type(dst_type)``: a dtype, or an old tensor type (``torch.DoubleTensor``)."""
        return self._apply(lambda t: t.type(dst_type), floats_only=False)

    def cpu(self):
        return self

    def cuda(self, device=None):
        _device.check("cuda" if device is None else device)

    # -- saving and loading ------------------------------------------------------------------
    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer, by dotted name.
        The tensors are detached but share their numbers with the module (as in PyTorch):
        copy them (``copy.deepcopy``) to keep a snapshot while training goes on."""
        destination = OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True):
        """Copy the tensors of ``state_dict`` into this module's parameters and buffers.
        With ``strict``, a missing or unexpected key is an error (PyTorch's message)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        self._load(dict(state_dict), "", missing, unexpected, errors)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _load(self, state_dict, prefix, missing, unexpected, errors):
        """Load this module's own tensors, then each child's (PyTorch's order of keys)."""
        local = {**{k: v for k, v in self._parameters.items() if v is not None},
                 **{k: v for k, v in self._buffers.items()
                    if v is not None and k not in self._non_persistent_buffers}}
        for name, current in local.items():
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            given = state_dict[key]
            if not isinstance(given, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                              f"Tensor-like object from checkpoint but received {type(given)}")
            elif given.shape != current.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape {given.shape} from "
                              f"checkpoint, the shape in current model is {current.shape}.")
            else:
                with no_grad():
                    current.copy_(given)
        for key in state_dict:
            if key.startswith(prefix):
                head, *rest = key[len(prefix):].split(".", 1)
                if head not in (self._modules if rest else local):
                    unexpected.append(key)
        for name, module in self._modules.items():
            if module is not None:
                child = prefix + name + "."
                module._load({k: v for k, v in state_dict.items() if k.startswith(child)}, child,
                             missing, unexpected, errors)

    # -- printing ----------------------------------------------------------------------------
    def extra_repr(self):
        """The text between the parentheses of this module's repr; override it."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): {_addindent(repr(module), 2)}" for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        elif lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


_HOOK_TABLES = ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
                "_forward_hooks_with_kwargs", "_backward_pre_hooks", "_backward_hooks")


class _RemovableHandle:
    """What ``register_*_hook`` returns: ``.remove()`` takes the hook away again (also at the
    end of a ``with`` block)."""

    _ids = itertools.count()

    def __init__(self, hooks, hook, prepend=False, extra=None):
        self.hooks, self.extra, self.id = hooks, extra, next(self._ids)
        hooks[self.id] = hook
        if prepend:
            hooks.move_to_end(self.id, last=False)
        if extra is not None:
            extra[self.id] = True  # the hook takes kwargs too

    def remove(self):
        self.hooks.pop(self.id, None)
        if self.extra is not None:
            self.extra.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class BackwardHookFunction(Op):
    """The identity, as one node: where backward hooks see a module's gradients pass by.
    ``report`` gets the gradient and returns the one to pass on."""
    node_name = "BackwardHookFunctionBackward"

    @staticmethod
    def forward(ctx, x, report):
        ctx.report = report
        return x.view()

    @staticmethod
    def backward(ctx, grad):
        return ctx.report(grad), None


class _BackwardWatch:
    """One call's backward hooks. The outputs' identity nodes run first in backward: they
    collect ``grad_output`` and run the pre-hooks; the inputs' nodes run once the gradients
    have gone through the module: they collect ``grad_input`` and run the hooks."""

    def __init__(self, module):
        self.module = module
        self.n_inputs = self.n_outputs = 0
        self.wanted = []  # positions of the inputs that need a gradient
        self.grad_outputs, self.grad_inputs = {}, {}

    def inputs(self, args):
        self.n_inputs = len(args)
        self.wanted = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        return tuple(BackwardHookFunction.apply(a, self._input_reporter(i)) if i in self.wanted else a
                     for i, a in enumerate(args))

    def outputs(self, output):
        single = isinstance(output, Tensor)
        outs = (output,) if single else tuple(output)
        self.n_outputs = len(outs)
        self.out_wanted = [i for i, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
        outs = tuple(BackwardHookFunction.apply(o, self._output_reporter(i)) if i in self.out_wanted else o
                     for i, o in enumerate(outs))
        return outs[0] if single else type(output)(outs)

    def _output_reporter(self, i):
        def report(grad):
            self.grad_outputs[i] = grad
            if len(self.grad_outputs) < len(self.out_wanted):
                return grad
            grads = tuple(self.grad_outputs.get(k) for k in range(self.n_outputs))
            for hook in list(self.module._backward_pre_hooks.values()):
                result = hook(self.module, grads)
                if result is not None:
                    grads = tuple(result) if isinstance(result, (tuple, list)) else (result,)
            self.grad_output = grads
            self.grad_outputs = {}
            if not self.wanted and self.module._backward_hooks:  # no input needs a gradient: run them now
                warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                              "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
                              "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for "
                              "more details.", UserWarning, stacklevel=2)
                for hook in list(self.module._backward_hooks.values()):
                    result = hook(self.module, (None,) * self.n_inputs, grads)
                    if result is not None and not (isinstance(result, tuple) and all(r is None for r in result)):
                        raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                           "always return None or None for all gradients.")
            return grads[i]
        return report

    def _input_reporter(self, i):
        def report(grad):
            self.grad_inputs[i] = grad
            if len(self.grad_inputs) < len(self.wanted):
                return grad
            grads = tuple(self.grad_inputs.get(k) for k in range(self.n_inputs))
            self.grad_inputs = {}
            for hook in list(self.module._backward_hooks.values()):
                result = hook(self.module, grads, self.grad_output)
                if result is None:
                    continue
                result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
                if len(result) != self.n_inputs:
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, got "
                                       f"{len(result)}, but expected {self.n_inputs}")
                if len(self.wanted) > 1 and any(r is not g for r, g in zip(result, grads)):
                    # One identity node per input: the others' gradients have gone on already.
                    raise RuntimeError("minigrad's full backward hooks can replace grad_input only for "
                                       "modules with one input that requires grad")
                grads = result
            return grads[i]
        return report


def _type_name(value):
    """How PyTorch names a value's type in its assignment errors (tensors by legacy name)."""
    if isinstance(value, Tensor):
        return value.dtype.tensor_type
    return f"{type(value).__module__}.{type(value).__qualname__}".removeprefix("builtins.")
