"""Checks for notebook 00, start here: a first tensor that requires grad, a first expression."""
from __future__ import annotations

import math

import minigrad

from ._common import _not_done, _passed

__all__ = ["check_length", "check_make_weight"]


def _describe(value):
    return f"{type(value).__name__}: {value!r}"


def _not_a_minigrad_tensor(value, what):
    """An AssertionError for a result that is not a minigrad tensor."""
    module = type(value).__module__ or ""
    if module.split(".")[0] == "torch":
        return AssertionError(
            f"{what} is a PyTorch tensor. The checks work with minigrad's tensors: run the "
            "setup cell (`import minigrad as torch`) and do not `import torch` in this notebook.")
    if isinstance(value, (int, float)):
        return AssertionError(
            f"{what} is a plain Python number ({_describe(value)}), not a tensor. Autograd only "
            "follows tensors: build the result with minigrad (torch.tensor and its operations).")
    return AssertionError(f"{what} should be a minigrad tensor; got {_describe(value)}")


# --- exercise 1: a tensor that requires grad -------------------------------------------

_WEIGHT_VALUES = [0.5, -1.25, 3, 0, 2.75, -4]


def check_make_weight(make_weight):
    """Check ``make_weight(value) -> tensor``: a 0-dimensional float32 leaf tensor that holds
    ``value`` and requires grad, for float and int values."""
    for value in _WEIGHT_VALUES:
        call = f"make_weight({value!r})"
        try:
            out = make_weight(value)
        except NotImplementedError:
            raise _not_done("make_weight") from None
        except RuntimeError as e:
            if "floating point" in str(e) and isinstance(value, int):
                raise AssertionError(
                    f"{call} raised RuntimeError: {e}. The value {value} is a Python int, so "
                    "the tensor got an integer dtype, and integer tensors cannot require grad. "
                    "Make sure the tensor holds a float.") from None
            raise
        if out is None:
            raise AssertionError(f"{call} returned None. Did you forget the return statement?")
        if not isinstance(out, minigrad.Tensor):
            raise _not_a_minigrad_tensor(out, f"{call}")
        if out.shape != ():
            raise AssertionError(
                f"{call} has shape {out.shape}; one number should be a 0-dimensional tensor, "
                "shape torch.Size([]). Pass the number itself to torch.tensor, not a list.")
        if out.dtype != minigrad.float32:
            raise AssertionError(
                f"{call} has dtype {out.dtype}; the course's tensors use PyTorch's default "
                "floating-point dtype, torch.float32.")
        got = out.item()
        if not math.isclose(got, value, rel_tol=1e-6, abs_tol=1e-7):
            raise AssertionError(f"{call} holds {got}; it should hold {float(value)}.")
        if not out.requires_grad:
            raise AssertionError(
                f"{call} does not require grad (out.requires_grad is False), so autograd "
                "would not record what is computed from it and backward() would never fill "
                "its .grad. Look at the keyword arguments torch.tensor accepts.")
        if not out.is_leaf:
            raise AssertionError(
                f"{call} requires grad but is not a leaf: it is the result of an operation "
                f"(its grad_fn is {out.grad_fn!r}). backward() stores gradients in the .grad "
                "of leaves only. Create the tensor directly from the value instead of "
                "computing it from another tensor.")
    _passed()


# --- exercise 2: an expression autograd can follow -------------------------------------

_LENGTH_POINTS = [(3.0, 4.0), (1.5, -2.0), (-0.6, 0.8), (5.0, 12.0), (0.25, 1.0)]


def check_length(length):
    """Check ``length(a, b) -> tensor``: sqrt(a**2 + b**2) for 0-dimensional tensors ``a`` and
    ``b`` that require grad, computed with minigrad operations so that it stays connected to
    both inputs."""
    for av, bv in _LENGTH_POINTS:
        a = minigrad.tensor(av, requires_grad=True)
        b = minigrad.tensor(bv, requires_grad=True)
        call = f"length(a, b) with a = {a}, b = {b}"
        try:
            out = length(a, b)
        except NotImplementedError:
            raise _not_done("length") from None
        if out is None:
            raise AssertionError(f"{call} returned None. Did you forget the return statement?")
        want = math.hypot(av, bv)
        if isinstance(out, (int, float)) and math.isclose(float(out), want, rel_tol=1e-5):
            raise AssertionError(
                f"{call} returned the right number, {out!r}, but as a plain Python "
                f"{type(out).__name__}: it was computed outside minigrad (math, NumPy or "
                ".item()), so autograd has no record of how it depends on a and b. Use "
                "minigrad's operations on the tensors themselves.")
        if not isinstance(out, minigrad.Tensor):
            raise _not_a_minigrad_tensor(out, call)
        if out.numel() != 1:
            raise AssertionError(f"{call} has shape {out.shape}; it should be one number.")
        got = out.detach().reshape(()).item()
        if not math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6):
            raise AssertionError(
                f"{call} gives {got:.6g}; that is not the length sqrt(a**2 + b**2). Check the "
                "formula term by term.")
        if out.dtype != minigrad.float32:
            raise AssertionError(
                f"{call} has dtype {out.dtype}; with float32 inputs the result should stay "
                "float32. Did something convert it?")
        if out.grad_fn is None:
            raise AssertionError(
                f"{call} has the right value but is not connected to the graph (its grad_fn "
                "is None): it was built from plain numbers (e.g. with .item(), math or NumPy, "
                "then torch.tensor), so backward() could not reach a and b. Use minigrad's "
                "operations on the tensors themselves.")
        out.reshape(()).backward()
        for name, t, v in (("a", a, av), ("b", b, bv)):
            if t.grad is None:
                raise AssertionError(
                    f"{call}: after backward(), {name}.grad is None, so the result is not "
                    f"connected to {name}. Was {name} replaced by a plain number or detached "
                    "somewhere?")
            if not math.isclose(t.grad.item(), v / want, rel_tol=1e-4, abs_tol=1e-6):
                raise AssertionError(
                    f"{call}: the value is right, but the gradient that reaches {name} is "
                    f"{t.grad.item():.6g}: part of the computation was hidden from autograd.")
    _passed()
