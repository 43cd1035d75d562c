"""What minigrad does not do, said plainly: each refusal names what to use instead.

minigrad runs your Python code eagerly, on the CPU, with NumPy. So there is no GPU
(see _device.py), no TorchScript (``torch.jit``), no profiler, and no compiler generating
kernels. One exception: ``torch.compile(model)`` returns the model itself, so that code
written for PyTorch 2 runs unchanged (only PyTorch's speed-up is missing; for the idea
of what a compiler does, see ``minigrad.fusion``).
"""
from types import SimpleNamespace


def refusal(what, instead):
    """The error for a feature minigrad leaves out: what it is, and what to do instead."""
    return NotImplementedError(f"minigrad does not support {what}: {instead}")


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):
    """``torch.compile(model)`` or ``@torch.compile(...)``: returns ``model`` unchanged.

    PyTorch's compiler traces the model and generates fused kernels for it; minigrad
    runs it eagerly, op by op, which gives the same results (``minigrad.fusion`` shows,
    on elementwise chains, what the generated kernels do).
    """
    if model is None:  # used as @torch.compile(mode=...): a decorator that returns its function
        return lambda fn: fn
    if not callable(model):
        raise RuntimeError(f"Unsupported type {type(model).__name__} passed to torch.compile: "
                           "expected a callable (an nn.Module or a function)")
    return model


def _false(*args, **kwargs):
    return False


# torch.compiler's questions, which library code asks.
compiler = SimpleNamespace(is_compiling=_false, is_dynamo_compiling=_false, reset=lambda: None,
                           disable=lambda fn=None, recursive=True: fn if fn is not None else (lambda f: f))
