"""Batches of sequences of different lengths, as ``torch.nn.utils.rnn``.

``pad_sequence`` stacks sequences ``(L_i, *)`` into one tensor, the short ones padded to
the longest: ``(T, B, *)``, or ``(B, T, *)`` with ``batch_first=True``.
"""
from collections.abc import Iterable

from ... import _creation
from ..._conventions import check_broadcast
from ..._tensor import Tensor

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Pad and stack: the result starts filled with ``padding_value`` (in the first sequence's
    dtype) and each sequence is copied into its slot, at the start (``padding_side='right'``)
    or the end (``'left'``). The copies are slice assignments, so gradients flow back to every
    sequence (``CopySlices``, as PyTorch's)."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(  # noqa: TRY004 (PyTorch's type)
            f"pad_sequence: Expected iterable for input sequences, but got arg of type: {type(sequences)}")
    sequences = tuple(sequences)
    for i, seq in enumerate(sequences):
        if not isinstance(seq, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(seq).__name__}")
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    first = sequences[0]
    max_len = max(s.shape[0] for s in sequences)
    trailing = tuple(first.shape[1:])
    shape = (len(sequences), max_len, *trailing) if batch_first else (max_len, len(sequences), *trailing)
    out = _creation.full(shape, padding_value, dtype=first.dtype)
    for i, seq in enumerate(sequences):
        length = seq.shape[0]
        check_broadcast((length, *trailing), tuple(seq.shape))  # PyTorch's copy_ into the slot says so
        start = 0 if padding_side == "right" else max_len - length
        if batch_first:
            out[i, start:start + length] = seq
        else:
            out[start:start + length, i] = seq
    return out
