"""What random fills and draws record: nodes whose gradient is zero.

A tensor refilled with random numbers (``x.normal_()``, ``x.bernoulli_(0.3)``) no longer
depends on its old values, and a draw (``torch.bernoulli(p)``, ``torch.poisson(rate)``)
is not a smooth function of its parameters: PyTorch still records a node, so that the
result stays in the graph, and its gradient is zeros (derivatives.yaml: ``zeros_like``).
The numbers are drawn before the op (minigrad/_tensor_random.py), from the generator the
caller chose; the op only puts them in place and records the node PyTorch records.
"""
from ..core.function import Op


class Normal(Op):
    """``x.normal_()``: the new values, drawn by the caller; the gradient of ``x`` is zeros."""
    node_name = "NormalBackward0"

    @staticmethod
    def forward(ctx, x, values):
        return values

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad.shape), None


# The other in-place fills, named as PyTorch names them (one class each: a node's name is its class's).
class Uniform(Normal):
    node_name = "UniformBackward0"


class RandomFromTo(Normal):
    node_name = "RandomBackward0"  # random_(from, to)


class RandomTo(Normal):
    node_name = "RandomBackward1"  # random_(to)


class RandomAll(Normal):
    node_name = "RandomBackward2"  # random_()


class Exponential(Normal):
    node_name = "ExponentialBackward0"


class Cauchy(Normal):
    node_name = "CauchyBackward0"


class Geometric(Normal):
    node_name = "GeometricBackward0"


class LogNormal(Normal):
    node_name = "LogNormalBackward0"


class BernoulliNumber(Normal):
    node_name = "BernoulliBackward2"  # x.bernoulli_(0.3)


class Bernoulli(Normal):
    node_name = "BernoulliBackward0"  # torch.bernoulli(probabilities): not in place, the same zeros


class Poisson(Normal):
    node_name = "PoissonBackward0"  # torch.poisson(rates)


class BernoulliTensor(Op):
    """``x.bernoulli_(p)`` with a tensor ``p``: both ``x`` and ``p`` are the node's inputs,
    and both get zeros."""
    node_name = "BernoulliBackward1"

    @staticmethod
    def forward(ctx, x, p, values):
        return values

    @staticmethod
    def backward(ctx, grad):
        zeros = grad.new_zeros(grad.shape)
        return zeros, zeros, None  # (the engine sums p's to p's shape)


class BernoulliProbability(Normal):
    """``x.bernoulli(p)`` out of place with a number ``p``: PyTorch has no derivative for it
    and records a node whose backward refuses."""
    node_name = "NotImplemented"
    node_qualname = "torch::autograd::NotImplemented"  # what PyTorch's grad_fn.name() says

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::bernoulli is not implemented")
