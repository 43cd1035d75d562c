"""``torch.autograd.functional``: whole derivatives of a function, built on ``grad``.

``jacobian(f, x)`` is every partial derivative d f(x)_i / d x_j: reverse mode gives one
row (a vector-Jacobian product) per output element. ``hessian(f, x)`` is the Jacobian of
the gradient. ``vjp``, ``jvp``, ``hvp`` and ``vhp`` give one product without building the
whole matrix. ``inputs`` may be a tensor or a tuple of tensors; results follow the same
structure, as PyTorch's do.
"""
from .. import ops  # above the ops (it stacks rows), so minigrad/__init__.py loads it, not autograd's
from ..core.tensor import TensorBase
from ..core.engine import grad
from ..core.grad_mode import enable_grad


def _as_tuple(x):
    return (tuple(x), True) if isinstance(x, (tuple, list)) else ((x,), False)


def _fresh(inputs, create_graph):
    """Inputs the function is differentiated at: leaves that require grad (or, to
    differentiate the result again, views that keep the caller's graph)."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True)
                 for x in inputs)


def _grads(outputs, inputs, grad_outputs, create_graph):
    """``grad`` with unused inputs given zeros, as PyTorch's functional API does."""
    if not any(o.requires_grad for o in outputs):
        return tuple(x.new_zeros(x.shape) for x in inputs)
    gs = grad(outputs, inputs, grad_outputs, retain_graph=True, create_graph=create_graph,
              allow_unused=True)
    return tuple(x.new_zeros(x.shape) if g is None else g for g, x in zip(gs, inputs))


def _detach(t, create_graph):
    return t if create_graph else t.detach()


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    inputs, many_in = _as_tuple(inputs)
    with enable_grad():
        xs = _fresh(inputs, create_graph)
        outputs, many_out = _as_tuple(func(*xs))
        result = []
        for out in outputs:
            flat = out.reshape(-1)
            rows = [_grads((flat[i],), xs, None, create_graph) for i in range(flat.numel())]
            per_input = []
            for k, x in enumerate(xs):
                if rows:
                    jac = _stack([r[k] for r in rows]).view(tuple(out.shape) + tuple(x.shape))
                else:
                    jac = x.new_zeros(tuple(out.shape) + tuple(x.shape))
                per_input.append(_detach(jac, create_graph))
            result.append(tuple(per_input) if many_in else per_input[0])
    return tuple(result) if many_out else result[0]


def _stack(tensors):
    return ops.Stack.apply(0, *tensors)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Jacobian of the gradient of ``func``, which must return a single element."""
    def gradient(*xs):
        out = func(*xs)
        if not isinstance(out, TensorBase) or out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain "
                               "a single element")
        return jacobian(func, xs if len(xs) > 1 else xs[0], create_graph=True)
    return jacobian(gradient, inputs, create_graph=create_graph)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: one reverse-mode pass."""
    inputs, many_in = _as_tuple(inputs)
    with enable_grad():
        xs = _fresh(inputs, create_graph)
        outputs, many_out = _as_tuple(func(*xs))
        if v is None and (len(outputs) != 1 or outputs[0].numel() != 1):
            raise RuntimeError("The vector v can only be None if the user-provided function returns a "
                               "single Tensor with a single element.")
        vs = None if v is None else _as_tuple(v)[0]
        gs = _grads(outputs, xs, vs, create_graph)
    outs = tuple(_detach(o, create_graph) for o in outputs)
    gs = tuple(_detach(g, create_graph) for g in gs)
    return (outs if many_out else outs[0]), (gs if many_in else gs[0])


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``, by the double-backward trick: ``u -> J^T u`` is linear in u,
    so differentiating ``<J^T u, v>`` with respect to u gives ``J v``."""
    inputs, many_in = _as_tuple(inputs)
    with enable_grad():
        xs = _fresh(inputs, create_graph)
        outputs, many_out = _as_tuple(func(*xs))
        us = tuple(o.new_zeros(o.shape).requires_grad_(True) for o in outputs)
        g = _grads(outputs, xs, us, create_graph=True)
        vs = _as_tuple(v)[0] if v is not None else tuple(x.new_ones(x.shape) for x in xs)
        jv = _grads(g, us, vs, create_graph)
    outs = tuple(_detach(o, create_graph) for o in outputs)
    jv = tuple(_detach(j, create_graph) for j in jv)
    return (outs if many_out else outs[0]), (jv if many_out else jv[0])


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)``: the gradient of ``<grad func, v>``."""
    inputs, many_in = _as_tuple(inputs)
    with enable_grad():
        xs = _fresh(inputs, create_graph)
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError("The function given to hvp should return a single element Tensor")
        g = _grads((out,), xs, None, create_graph=True)
        vs = _as_tuple(v)[0] if v is not None else tuple(x.new_ones(x.shape) for x in xs)
        hv = _grads(g, xs, vs, create_graph)
    hv = tuple(_detach(h, create_graph) for h in hv)
    return _detach(out, create_graph), (hv if many_in else hv[0])


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)``. The Hessian of a twice-differentiable function is symmetric,
    so ``H v`` and ``v^T H`` are the same numbers."""
    return vhp(func, inputs, v, create_graph, strict)
