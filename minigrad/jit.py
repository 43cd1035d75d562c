"""torch.jit (TorchScript) is not part of minigrad: it runs your Python code as it is.

``torch.jit.script`` / ``trace`` compile a model into a program that runs without
Python; to keep a trained model, save its weights instead (``torch.save(model.state_dict(),
path)``), and to run it, call it. ``is_scripting()`` answers False, as library code asks.
"""
from ._unsupported import refusal

_INSTEAD = ("minigrad runs models as Python code and has no TorchScript. Call the model directly, and "
            "save its weights with torch.save(model.state_dict(), path).")


def script(obj, *args, **kwargs):
    raise refusal("torch.jit.script (TorchScript)", _INSTEAD)


def trace(func, *args, **kwargs):
    raise refusal("torch.jit.trace (TorchScript)", _INSTEAD)


def save(m, f, *args, **kwargs):
    raise refusal("torch.jit.save (TorchScript)", _INSTEAD)


def load(f, *args, **kwargs):
    raise refusal("torch.jit.load (TorchScript)", _INSTEAD)


def is_scripting():
    return False


def is_tracing():
    return False
