"""minigrad's core: what ``loss.backward()`` does, and nothing else. Read it in this order.

1. tensor.py       TensorBase: an array, ``requires_grad``, ``grad``, ``grad_fn``, ``backward()``.
2. function.py     Function and Op: ``apply`` runs an op's forward and records its node.
3. node.py         Node: the backward graph's vertex; what forward saved, checked for in-place
                   changes; AccumulateGrad, a leaf's node, which adds into ``.grad``.
4. engine.py       The backward pass: order the nodes, sum the gradients, free what was saved.
5. grad_mode.py    no_grad, enable_grad, inference_mode: when ops record nothing.
6. ops/            The ops the course uses most, each a class, forward and backward side by side:
                   arithmetic.py (+ - * / **), elementwise.py (exp, relu, tanh, ...),
                   reduce.py (sum, mean, max), shape.py (view, transpose, stack, x[i]),
                   linalg.py (matmul, addmm), nn.py (softmax, log_softmax, mse_loss).

Beside them: numpy_errors.py (NumPy computes 1/0 silently, as PyTorch does), anomaly_mode.py
(detect_anomaly) and graph.py (saved_tensors_hooks).

The rest of minigrad/ is PyTorch's breadth, built on this: the full Tensor (minigrad/_tensor.py)
extends TensorBase with PyTorch's methods, views (minigrad/_views.py) and in-place ops
(minigrad/_inplace.py); minigrad/ops/ holds the other ops, minigrad/nn/ the modules.
The core imports only the standard library, NumPy and itself, in at most 2,500 lines
(tests/project/test_core_budget.py).
"""
from . import anomaly_mode, engine, function, grad_mode, graph, node, numpy_errors, ops, tensor
from .function import Function, Op
from .node import AccumulateGrad, Node
from .tensor import TensorBase
