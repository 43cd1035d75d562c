"""PyTorch's module paths under minigrad, and what minigrad refuses (clearly).

``import minigrad as torch`` gives ``torch.optim.lr_scheduler.StepLR``, but a line
``from torch.optim.lr_scheduler import StepLR`` imports by path: each such line that
tutorials write must work with ``minigrad`` in place of ``torch``, importing the same
names (the test runs each line under both libraries, recorded for PyTorch).
"""
import importlib
import types

import pytest

import minigrad
from oracle import error_of

# The import lines of PyTorch's tutorials, d2l and the usual examples.
IMPORT_LINES = [
    "from torch import nn, optim, Tensor",
    "from torch import nn, Tensor",
    "from torch.nn import functional as F",
    "import torch.nn.functional as F",
    "import torch.nn as nn",
    "import torch.optim as optim",
    "from torch.nn import init",
    "from torch.nn.init import xavier_uniform_, kaiming_normal_, zeros_, normal_, constant_",
    "from torch.nn.parameter import Parameter",
    "from torch.nn import Parameter, Module, Sequential, Linear",
    "from torch.nn.modules import Module",
    "from torch.nn.modules.loss import MSELoss, CrossEntropyLoss",
    "from torch.optim import SGD, Adam, AdamW, RMSprop, Adagrad, Optimizer",
    "from torch.optim.optimizer import Optimizer",
    "from torch.optim.lr_scheduler import StepLR, MultiStepLR, ExponentialLR",
    "from torch.optim.lr_scheduler import CosineAnnealingLR, LambdaLR, ReduceLROnPlateau, LRScheduler",
    "from torch.optim import lr_scheduler",
    "from torch.utils.data import DataLoader, Dataset, TensorDataset",
    "from torch.utils.data import random_split, Subset, ConcatDataset",
    "from torch.utils.data.sampler import SubsetRandomSampler, RandomSampler, SequentialSampler",
    "from torch.utils import data",
    "import torch.utils.data as data",
    "from torch.utils.checkpoint import checkpoint, checkpoint_sequential, CheckpointError",
    "from torch.autograd import grad, Function",
    "from torch.autograd.functional import jacobian, hessian",
    "from torch.serialization import add_safe_globals, safe_globals",
    "from torch.profiler import profile, record_function, ProfilerActivity",
    "import torch.jit",
    "import torch.linalg as LA",
    "from torch.linalg import norm, solve, inv, det, svd, eigh, LinAlgError",
]


def run_import(lib, line):
    """Run ``line`` with ``lib``'s name for torch; the names it binds, with their kinds
    (a module and its name, a class, or some other callable)."""
    namespace = {}
    exec(line.replace("torch", lib.__name__), namespace)  # noqa: S102 (our own fixed lines)
    kind = lambda v: (f"module {v.__name__.replace(lib.__name__, 'torch')}" if isinstance(v, types.ModuleType)
                      else "class" if isinstance(v, type) else "callable" if callable(v) else type(v).__name__)
    return sorted((name.replace(lib.__name__, "torch"), kind(value)) for name, value in namespace.items()
                  if name != "__builtins__")


@pytest.mark.parametrize("line", IMPORT_LINES)
def test_import_line_works_as_in_torch(oracle, line):
    answer = oracle.same(lambda lib: run_import(lib, line))
    assert answer


@pytest.mark.parametrize("path", ["optim.lr_scheduler", "nn.init", "nn.parameter", "nn.functional", "nn.modules",
                                  "utils.data", "utils.data.sampler", "utils.checkpoint", "autograd.functional", "serialization",
                                  "optim.optimizer", "jit", "profiler"])
def test_submodule_exists_at_pytorchs_path(path):
    module = importlib.import_module(f"minigrad.{path}")
    assert module.__name__ == f"minigrad.{path}"
    parent, _, last = f"minigrad.{path}".rpartition(".")
    assert getattr(importlib.import_module(parent), last) is module  # torch.optim.lr_scheduler too


# -- what minigrad does not do -----------------------------------------------------------------------
def test_compile_returns_the_model_unchanged():
    net = minigrad.nn.Linear(2, 1)
    assert minigrad.compile(net) is net
    assert minigrad.compile(net, mode="reduce-overhead", fullgraph=True) is net

    @minigrad.compile(mode="max-autotune")
    def f(x):
        return (x * 2).sin()
    x = minigrad.tensor([1.0, 2.0])
    assert minigrad.equal(f(x), (x * 2).sin())
    assert minigrad.compile(f)(x).tolist() == f(x).tolist()
    assert minigrad.compiler.is_compiling() is False
    with pytest.raises(RuntimeError, match="Unsupported type"):
        minigrad.compile(3)


def refusals(lib):
    net = lib.nn.Linear(2, 1)
    return {
        "tensor.cuda()": lambda: lib.ones(2).cuda(),
        "tensor.to('cuda')": lambda: lib.ones(2).to("cuda"),
        "device='cuda'": lambda: lib.zeros(2, device="cuda"),
        "model.cuda()": lambda: net.cuda(),
        "model.to('cuda')": lambda: net.to("cuda"),
        "model.to(device)": lambda: net.to(lib.device("cuda:0")),
        "model.to('mps')": lambda: net.to("mps"),
    }


@pytest.mark.parametrize("case", refusals(minigrad))
def test_accelerators_are_refused_with_pytorchs_error_and_why(oracle, case):
    """PyTorch without a GPU raises these; minigrad raises the same type and first words, then says why."""
    mine, theirs = oracle.both(lambda lib: error_of(refusals(lib)[case]))
    assert mine.type == theirs.type
    assert mine.message.startswith(theirs.message.split(".")[0])
    assert "minigrad computes on the CPU" in mine.message


@pytest.mark.parametrize("call, says", [
    (lambda: minigrad.jit.script(minigrad.nn.Linear(2, 1)), "torch.jit.script"),
    (lambda: minigrad.jit.trace(minigrad.nn.Linear(2, 1), minigrad.ones(1, 2)), "torch.jit.trace"),
    (lambda: minigrad.jit.save(None, "m.pt"), "torch.save(model.state_dict()"),
    (lambda: minigrad.profiler.profile(activities=[minigrad.profiler.ProfilerActivity.CPU]), "%timeit"),
    (lambda: minigrad.profiler.record_function("forward"), "cProfile"),
])
def test_what_minigrad_leaves_out_says_so_and_what_to_use(call, says):
    with pytest.raises(NotImplementedError, match="minigrad does not support") as info:
        call()
    assert says in str(info.value)
    assert minigrad.jit.is_scripting() is False
