"""The one op the recurrent layers add (``nn.LSTM``, ``nn.GRU`` and their cells; the rest of
them is matrix products and elementwise ops, see minigrad/nn/_functional_rnn.py)."""
from .index import SplitPiece


class UnsafeSplitPiece(SplitPiece):
    """Piece ``i`` of ``gates.unsafe_chunk(n, dim)``: how PyTorch's LSTM and GRU cells cut the
    gates out of one matrix product (UnsafeSplitBackward0). The numbers and the gradient are
    chunk's (SplitPiece); PyTorch's "unsafe" only means its pieces are not tracked as views."""
    node_name = "UnsafeSplitBackward0"

    @staticmethod
    def forward(ctx, x, dim, sizes, i):
        ctx._output_nr = i  # PyTorch's one node has an output per gate: next_functions shows which
        return SplitPiece.forward(ctx, x, dim, sizes, i)
