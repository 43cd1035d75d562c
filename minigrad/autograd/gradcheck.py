"""gradcheck: compare autograd's gradients with central finite differences."""
import warnings

import numpy as np

from ..core.tensor import TensorBase
from ..core.engine import grad as autograd_grad


class GradcheckError(RuntimeError):
    pass


def _outputs(func, inputs):
    out = func(*inputs)
    return out if isinstance(out, (tuple, list)) else (out,)


def _values(func, inputs):
    """The outputs' values as flat float64 copies (an output may be an input: it is perturbed next)."""
    return [out._data.astype(np.float64).ravel() for out in _outputs(func, inputs)]


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    """True if, for every output element and every input that requires grad, the
    gradient autograd computes matches (f(x + eps) - f(x - eps)) / (2 eps).

    Use float64 inputs: in float32 the difference quotient is too noisy to compare.
    """
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, TensorBase) and x.requires_grad]
    for i in diff:
        if inputs[i].dtype.name != "float64":
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point "
                          "or complex. This check will likely fail if all the inputs are not of double "
                          "precision floating point or complex. ")
    outputs = _outputs(func, inputs)
    # Numerical: perturb one element at a time; row j of numerical[k, i] is d(out_k)/d(x_j).
    numerical = {(k, i): np.zeros((inputs[i].numel(), out.numel())) for k, out in enumerate(outputs) for i in diff}
    for i in diff:
        flat = inputs[i]._data.reshape(-1)  # a view: writing into it perturbs x
        for j in range(flat.size):  # (grad mode stays on: func may itself call autograd.grad)
            orig = flat[j]
            flat[j] = orig + eps
            plus = _values(func, inputs)
            flat[j] = orig - eps
            minus = _values(func, inputs)
            flat[j] = orig
            for k in range(len(outputs)):
                numerical[k, i][j] = (plus[k] - minus[k]) / (2 * eps)
    # Analytical: one vector-Jacobian product per output element, through the first graph.
    for k, out in enumerate(outputs):
        analytical = {i: np.zeros_like(numerical[k, i]) for i in diff}
        if out.requires_grad:
            for r in range(out.numel()):
                seed = np.zeros(out.numel(), dtype=out._data.dtype)
                seed[r] = 1
                grads = autograd_grad(out, [inputs[i] for i in diff], TensorBase._wrap(seed.reshape(out._data.shape)),
                                      retain_graph=True, allow_unused=True)
                for i, g in zip(diff, grads):
                    if g is not None:
                        analytical[i][:, r] = g._data.astype(np.float64).ravel()
        for i in diff:
            if not np.allclose(analytical[i], numerical[k, i], rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                                     f"numerical:{numerical[k, i]}\nanalytical:{analytical[i]}\n")
    return True
