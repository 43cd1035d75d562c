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
    for k, out in enumerate(outputs):
        n_out = out.numel()
        for i in diff:
            x = inputs[i]
            # Numerical: perturb one element at a time; column j is d(out)/d(x_j).
            numerical = np.zeros((x.numel(), n_out))
            flat = x._data.reshape(-1)  # a view: writing into it perturbs x
            for j in range(x.numel()):  # (grad mode stays on: func may itself call autograd.grad)
                orig = flat[j]
                flat[j] = orig + eps
                plus = _outputs(func, inputs)[k]._data.astype(np.float64).ravel()
                flat[j] = orig - eps
                minus = _outputs(func, inputs)[k]._data.astype(np.float64).ravel()
                flat[j] = orig
                numerical[j] = (plus - minus) / (2 * eps)
            # Analytical: one vector-Jacobian product per output element.
            analytical = np.zeros_like(numerical)
            if out.requires_grad:
                for r in range(n_out):
                    seed = np.zeros(n_out, dtype=out._data.dtype)
                    seed[r] = 1
                    g, = autograd_grad(_outputs(func, inputs)[k], x,
                                       TensorBase._wrap(seed.reshape(out._data.shape)), allow_unused=True)
                    if g is not None:
                        analytical[:, r] = g._data.astype(np.float64).ravel()
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                                     f"numerical:{numerical}\nanalytical:{analytical}\n")
    return True
