"""Matplotlib helpers for the course: training curves, loss surfaces, saved memory.

Each returns a ``matplotlib.figure.Figure`` of a fixed size. The figure is closed in
pyplot before it is returned, so a notebook shows it exactly once (as the cell's
value) and pyplot does not keep every figure alive.
"""
import matplotlib.pyplot as plt
import numpy as np

from .._dtype import float64
from .._tensor import Tensor
from .._creation import tensor as _tensor
from ..autograd import grad as _grad
from ..autograd import no_grad
from .memory import SavedMemory, saved_memory


def _finish(fig):
    fig.tight_layout()
    plt.close(fig)
    return fig


def plot_curves(losses, accuracies=None, figsize=(8, 3)):
    """Loss per step (and accuracy per step, in a second panel, if given)."""
    panels = 1 if accuracies is None else 2
    fig, axes = plt.subplots(1, panels, figsize=figsize, squeeze=False)
    ax = axes[0, 0]
    ax.plot(np.arange(1, len(losses) + 1), [float(v) for v in losses], color="C0")
    ax.set(xlabel="step", ylabel="loss", title="loss")
    if accuracies is not None:
        ax = axes[0, 1]
        ax.plot(np.arange(1, len(accuracies) + 1), [float(v) for v in accuracies], color="C1")
        ax.set(xlabel="step", ylabel="accuracy", title="accuracy")
    return _finish(fig)


def _autograd_gradient(f, x, y):
    """(df/dx, df/dy) at one point by minigrad autograd; None if ``f`` does not compute
    with minigrad tensors (a NumPy function such as ``np.sin(x) * y``)."""
    tx = _tensor(float(x), dtype=float64, requires_grad=True)  # float64: arrows and paths
    ty = _tensor(float(y), dtype=float64, requires_grad=True)  # as exact as the NumPy ones
    try:
        z = f(tx, ty)
    except Exception:  # noqa: BLE001 (any error: f is not written for tensors, e.g. NumPy's)
        return None
    if not isinstance(z, Tensor) or not z.requires_grad:
        return None
    gx, gy = _grad(z, (tx, ty), allow_unused=True, materialize_grads=True)
    return float(gx.item()), float(gy.item())


def surface_gradient(f, x, y, h=1e-5):
    """(df/dx, df/dy) at (x, y): by minigrad autograd when ``f`` computes with tensors,
    else (NumPy functions, which autograd cannot see into) by central differences."""
    g = _autograd_gradient(f, x, y)
    if g is not None:
        return g
    x, y = float(x), float(y)
    return (float(f(x + h, y) - f(x - h, y)) / (2 * h), float(f(x, y + h) - f(x, y - h)) / (2 * h))


def descent_path(f, start, lr=0.1, steps=20):
    """The points gradient descent on ``f`` visits from ``start``: a (steps + 1, 2) array."""
    points = [np.asarray(start, dtype=float)]
    for _ in range(steps):
        points.append(points[-1] - lr * np.array(surface_gradient(f, *points[-1])))
    return np.array(points)


def _grid_values(f, X, Y):
    """f over the grid: one point at a time for a minigrad function (it was written for
    scalars), all at once for a NumPy function."""
    if _autograd_gradient(f, X.flat[0], Y.flat[0]) is None:
        return np.broadcast_to(np.asarray(f(X, Y), dtype=float), X.shape)
    with no_grad():
        return np.array([float(f(_tensor(float(x), dtype=float64), _tensor(float(y), dtype=float64))) for x, y in zip(X.flat, Y.flat)]
                        ).reshape(X.shape)


def plot_loss_surface(f, xlim, ylim, path=None, arrows=True, levels=20, resolution=40, figsize=(5, 4.5)):
    """Contours of a 2-D loss ``f(x, y)``, with gradient arrows and a descent path.

    ``f`` takes two minigrad scalars and returns a minigrad scalar (its arrows are
    then computed by minigrad autograd), or is a NumPy function of two arrays.
    Arrows point downhill (minus the gradient), on a 10 x 10 grid. ``path``: points
    (an (n, 2) array, e.g. from ``descent_path``), drawn as a line with markers.
    """
    xs, ys = np.linspace(*xlim, resolution), np.linspace(*ylim, resolution)
    X, Y = np.meshgrid(xs, ys)
    fig, ax = plt.subplots(figsize=figsize)
    contours = ax.contour(X, Y, _grid_values(f, X, Y), levels=levels, cmap="viridis")
    fig.colorbar(contours, ax=ax, label="loss")
    if arrows:
        AX, AY = np.meshgrid(np.linspace(*xlim, 10), np.linspace(*ylim, 10))
        G = np.array([surface_gradient(f, x, y) for x, y in zip(AX.flat, AY.flat)])
        ax.quiver(AX, AY, -G[:, 0].reshape(AX.shape), -G[:, 1].reshape(AX.shape), color="grey",
                  angles="xy")
    if path is not None:
        path = np.asarray(path, dtype=float)
        ax.plot(path[:, 0], path[:, 1], "o-", color="C3", markersize=3, label="gradient descent")
        ax.legend(loc="upper right")
    ax.set(xlim=xlim, ylim=ylim, xlabel="x", ylabel="y", title="loss surface")
    return _finish(fig)


def plot_saved_memory(tensor_or_records, figsize=(6, 3)):
    """Bar chart of the bytes each node has saved for backward (see saved_memory)."""
    memory = tensor_or_records
    if isinstance(memory, (list, tuple)):
        memory = SavedMemory(list(memory), None)
    elif not isinstance(memory, SavedMemory):
        memory = saved_memory(memory)
    labels = [f"[{r.number}] {r.name}" for r in memory.records]
    fig, ax = plt.subplots(figsize=figsize)
    ax.bar(range(len(labels)), [r.nbytes for r in memory.records], color="orange")
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
    total = f"total {memory.total} bytes" if memory.total is not None else "saved memory"
    ax.set(ylabel="bytes saved", title=total)
    return _finish(fig)
