"""``torch.nn.utils``: helpers around training, as PyTorch's.

``clip_grad``: limit the gradients before ``optimizer.step()`` (by their total norm, or
value by value); ``convert_parameters``: all parameters as one vector and back;
``rnn``: batch sequences of different lengths (``pad_sequence``).
"""
from . import rnn
from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_
from .clip_grad import get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "rnn", "vector_to_parameters"]
