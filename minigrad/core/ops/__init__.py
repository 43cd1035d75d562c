"""The ops the course uses: each a class, forward and backward side by side (as notebook 04's
Function). ``forward(ctx, ...)`` computes on NumPy arrays and saves on ``ctx`` what backward
needs; ``backward(ctx, grad)`` returns one gradient per forward argument (None for a
non-tensor), written with Tensor operations, so that ``create_graph=True`` records it too.
``node_name`` is the name PyTorch gives the op's ``grad_fn``. The other ops: minigrad/ops/.
"""
from . import arithmetic, elementwise, linalg, nn, reduce, shape  # noqa: F401
