"""All of a model's parameters as one flat vector, and back, as
``torch.nn.utils.convert_parameters``: what second-order methods and weight averaging
work on."""
from ... import _joining
from ..._conventions import typename
from ..._tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """One 1-D tensor: each parameter flattened, one after the other (differentiable: a ``cat``)."""
    return _joining.cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Give each parameter the next ``numel()`` numbers of ``vec``, in order. As PyTorch does,
    through ``param.data``: the parameters then share ``vec``'s memory."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
