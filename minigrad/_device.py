"""Devices, honestly: minigrad computes on the CPU, with NumPy, and nowhere else.

PyTorch code is written to run on whatever hardware is there::

    device = "cuda" if torch.cuda.is_available() else "cpu"
    model.to(device); x = torch.zeros(3, device=device)

So minigrad has PyTorch's ``torch.device``, and answers the questions such code asks
(``torch.cuda.is_available()``, ``torch.accelerator.is_available()``,
``torch.backends.mps.is_available()``) with False. Asking for an accelerator anyway
raises PyTorch's error (its type and first words), followed by why.
"""
import re
from types import SimpleNamespace

import numpy as np

from ._conventions import typename

# The device types PyTorch's parser knows, in the order its error message lists them.
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
          "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_WHY = ("minigrad computes on the CPU, with NumPy: it has no {} support. Use device='cpu' "
        "(the usual `\"cuda\" if torch.cuda.is_available() else \"cpu\"` picks it for you).")


class device:
    """Where a tensor's numbers live: ``device(type='cpu')``, the only place minigrad uses."""

    __slots__ = ("type", "index")

    def __init__(self, *args, **kwargs):
        type, index = _parse(args, kwargs)
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int):  # torch.device(0): the accelerator's device 0, and there is none
            if type < 0:
                raise RuntimeError("Device index must not be negative")
            raise RuntimeError("Cannot access accelerator device when none is available. "
                               + _WHY.format("accelerator"))
        elif type == "":
            raise RuntimeError("Device string must not be empty")
        elif not re.fullmatch(r"[a-zA-Z_]+(:([1-9][0-9]*|0))?", type):
            raise RuntimeError(f"Invalid device string: '{type}'")
        elif ":" in type:
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index was passed "
                                   f"explicitly: {type}")
            type, _, number = type.partition(":")
            index = int(number)
        if type not in _TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of device "
                               f"string: {type}")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = type, index

    def __repr__(self):
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):  # a device equals a device, never a string (as in PyTorch)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


def _parse(args, kwargs):
    """``device``'s arguments read by PyTorch's two signatures, ``(torch.device device)`` and
    ``(str type, int index = -1)``, as (type, index): the type may still be a device or an int
    (``torch.device(0)``); anything else is PyTorch's TypeError, in its words."""
    if not kwargs and len(args) == 1 and isinstance(args[0], device):
        return args[0], None
    if not args and list(kwargs) == ["device"] and isinstance(kwargs["device"], device):
        return kwargs["device"], None
    given = dict(zip(("type", "index"), args), **kwargs)
    first, index = given.get("type"), given.get("index")
    if len(args) > 2 or "type" not in given or set(given) - {"type", "index"}:
        wrong = [k for k in kwargs if k not in ("type", "index")]
        raise _no_signature(args, kwargs, wrong and "some of the keywords were incorrect: "
                            + ", ".join(wrong))
    number = isinstance(first, (int, np.integer)) and not isinstance(first, bool)
    if "index" not in given and not (number or isinstance(first, (str, bytes))):
        # torch.device(True), torch.device(1.5), torch.device(None); by keyword, type= is what
        # the first signature (torch.device device) does not take
        raise _no_signature(args, kwargs, "some of the keywords were incorrect: type" if "type" in kwargs
                            else f"some of the arguments have invalid types: (!{_described(first)}!)")
    if "index" in given and not isinstance(first, (str, bytes)):
        where = "" if "type" in kwargs else " (position 1)"
        raise TypeError(f"device(): argument 'type'{where} must be str, not {_described(first)}")
    if index is not None and (isinstance(index, bool) or not isinstance(index, (int, np.integer))):
        where = " (position 2)" if len(args) == 2 else ""
        raise TypeError(f"device(): argument 'index'{where} must be int, not {typename(index)}")
    first = first.decode() if isinstance(first, bytes) else int(first) if number else first
    return first, None if index is None else int(index)


def _no_signature(args, kwargs, why):
    """PyTorch's TypeError for arguments that fit neither signature (``why``: for the first)."""
    got = [typename(a) for a in args] + [f"{k}={typename(v)}" for k, v in kwargs.items()]
    got = ", ".join(got) if args else "".join(g + ", " for g in got)
    why = f"      didn't match because {why}\n" if why else ""
    return TypeError(f"device() received an invalid combination of arguments - got ({got}), but expected "
                     f"one of:\n * (torch.device device)\n{why} * (str type, int index = -1)\n")


def _described(x):
    """An argument as PyTorch's argument errors describe it: ``list of [int, str]``."""
    if isinstance(x, (list, tuple)):
        names = ", ".join(dict.fromkeys(typename(e) for e in x))
        return f"list of [{names}]" if isinstance(x, list) else f"tuple of ({names},)"
    return "torch.device" if isinstance(x, device) else typename(x)


CPU = device("cpu")


def check(where):
    """``where`` (a device, a string, an index, or None) as minigrad's one device, the CPU;
    any other device raises the error PyTorch raises on a machine without it, and says why."""
    if where is None or where is CPU:
        return CPU
    d = device(where)
    if d.type == "cpu":
        return CPU
    if d.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled. " + _WHY.format("CUDA"))
    raise RuntimeError(f"PyTorch is not linked with support for {d.type} devices. "
                       + _WHY.format(d.type))


def set_default_device(device):
    """Accepted for the CPU (and None), which is already where every tensor is made."""
    check(device)


def get_default_device():
    return CPU


def _false(*args, **kwargs):
    return False


def _nothing(*args, **kwargs):
    """Seeding or synchronising a GPU that is not there: nothing to do, as PyTorch does."""


class OutOfMemoryError(RuntimeError):
    """``torch.OutOfMemoryError`` (also ``torch.cuda.OutOfMemoryError``): what PyTorch raises when
    a GPU's memory runs out. minigrad has no GPU, so it is never raised here; code that catches
    it runs unchanged. On a CPU PyTorch raises a plain RuntimeError, as minigrad does."""


OutOfMemoryError.__module__ = "torch"

# torch.cuda, torch.accelerator and torch.backends: the questions device-agnostic code asks.
cuda = SimpleNamespace(is_available=_false, device_count=lambda: 0, manual_seed=_nothing,
                       manual_seed_all=_nothing, synchronize=_nothing, empty_cache=_nothing,
                       current_device=lambda: check("cuda"), OutOfMemoryError=OutOfMemoryError)
accelerator = SimpleNamespace(is_available=_false, device_count=lambda: 0,
                              current_accelerator=lambda check_available=False: None,
                              synchronize=_nothing)
backends = SimpleNamespace(
    mps=SimpleNamespace(is_available=_false, is_built=_false),
    cuda=SimpleNamespace(is_built=_false),
    cudnn=SimpleNamespace(is_available=_false, deterministic=False, benchmark=False, enabled=True))
