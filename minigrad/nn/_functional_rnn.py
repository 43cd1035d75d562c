"""What ``nn.RNN``, ``nn.LSTM``, ``nn.GRU`` and their cells compute: one time step written once
per kind, as the equations of PyTorch's documentation, then the loop over time, directions and
layers. The modules (nn/modules/rnn.py) hold the parameters and check the input; these
functions do the maths, with ordinary Tensor ops, so ``backward()`` (and double backward)
reaches the input, the initial states and every weight.

The steps are written the way PyTorch's CPU kernels (aten/src/ATen/native/RNN.cpp) write them,
so the graph is made of the same nodes: the input's part of the gates, ``x W_ih^T + b_ih``, is
computed for all time steps at once (one AddmmBackward0) and cut into steps (UnbindBackward0);
each step adds ``h W_hh^T + b_hh`` to its piece.

Except for a float32 LSTM: PyTorch's CPU build runs each of its layers (in each direction) as
one oneDNN kernel, recorded as one node, MkldnnRnnLayerBackward0, so minigrad runs it as one op
too (ops.MkldnnRnnLayer: the same maths, its steps in one NumPy loop). Its three outputs, every
step's h, the last h and the last c, are that node's outputs 0, 1 and 2.
"""
import warnings

from .. import _creation, _dtype, _joining, ops
from . import functional as F


def _gates(gates, n):
    """The ``n`` gates side by side in ``gates``' last dim, cut apart (UnsafeSplitBackward0)."""
    size = gates.shape[1] // n
    return list(ops.UnsafeSplit.apply(gates, 1, (size,) * n))


# -- one time step ------------------------------------------------------------------------------
# ``x_gates`` is the input's part, x W_ih^T + b_ih (all gates side by side); the hidden state's
# part is added here. Each returns the new hidden state (LSTM: the pair (h, c)).

def rnn_tanh_step(x_gates, h, w_hh, b_hh):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)"""
    return (F.linear(h, w_hh, b_hh) + x_gates).tanh()


def rnn_relu_step(x_gates, h, w_hh, b_hh):
    """h' = relu(x W_ih^T + b_ih + h W_hh^T + b_hh)"""
    return (F.linear(h, w_hh, b_hh) + x_gates).relu()


def lstm_step(x_gates, hidden, w_hh, b_hh, w_hr=None):
    """The gates, in PyTorch's order i, f, g, o:
        i = sigmoid(...), f = sigmoid(...), g = tanh(...), o = sigmoid(...)
        c' = f * c + i * g          (forget some of the cell, write some new)
        h' = o * tanh(c')           (h' = h' W_hr^T with ``proj_size``)"""
    h, c = hidden
    i, f, g, o = _gates(F.linear(h, w_hh, b_hh) + x_gates, 4)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    c = f * c + i * g
    h = o * c.tanh()
    if w_hr is not None:
        h = h.matmul(w_hr.t())
    return h, c


def gru_step(x_gates, h, w_hh, b_hh):
    """The gates, in PyTorch's order r, z, n:
        r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)        (reset)
        z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)        (update)
        n = tanh(W_in x + b_in + r * (W_hn h + b_hn))     (new)
        h' = (1 - z) * n + z * h, computed as (h - n) * z + n"""
    x_r, x_z, x_n = _gates(x_gates, 3)
    h_r, h_z, h_n = _gates(F.linear(h, w_hh, b_hh), 3)
    r = (h_r + x_r).sigmoid()
    z = (h_z + x_z).sigmoid()
    n = (x_n + h_n * r).tanh()
    return (h - n) * z + n


STEPS = {"RNN_TANH": rnn_tanh_step, "RNN_RELU": rnn_relu_step, "LSTM": lstm_step, "GRU": gru_step}


def cell(mode, input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One step of a cell module (``nn.RNNCell``...), after PyTorch's checks: the input's part,
    then the step; input (batch, input_size), hx (batch, hidden_size), or (h, c) for the LSTM."""
    if mode == "LSTM":
        if not isinstance(hx, (tuple, list)):
            raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
                            f"{type(hx).__name__}")
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")
    for label, h in enumerate(hx if mode == "LSTM" else [hx]):
        if input.size(0) != h.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size "
                               f"{h.size(0)}")
        if h.size(1) != w_hh.size(1):
            raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {h.size(1)}, expected "
                               f"{w_hh.size(1)}")
    return STEPS[mode](F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


# -- over time, directions and layers ----------------------------------------------------------

def _direction(step, input, hidden, w_ih, b_ih, weights, reverse):
    """One layer in one direction over the whole sequence ``input`` (seq, batch, features):
    its outputs stacked (seq, batch, hidden) and the last hidden state."""
    x_gates = F.linear(input, w_ih, b_ih).unbind(0)  # every step's input part in one product
    outputs = []
    for x in (reversed(x_gates) if reverse else x_gates):
        hidden = step(x, hidden, *weights)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    if reverse:
        outputs.reverse()  # the output at time t is still the one of input t
    return _joining.stack(outputs, 0), hidden


_PROJECTIONS = "LSTM with projections is not supported with oneDNN. Using default implementation."
_warned = []  # (once per process, as PyTorch's TORCH_WARN_ONCE)
_ONEDNN_DTYPE = {_dtype.float16: "could not create a primitive descriptor for the LSTM forward propagation "
                                 "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to "
                                 "get additional diagnostic information."}  # (oneDNN on a state's dtype)


def _onednn(mode, input, params):
    """Whether PyTorch's CPU build runs this network with oneDNN: a float32 LSTM, no empty input,
    no projections (those it refuses, with a warning, once)."""
    if mode != "LSTM" or input.dtype is not _dtype.float32 or input.numel() == 0:
        return False
    if len(params[0]) == 5:  # (w_ih, b_ih, w_hh, b_hh, w_hr): proj_size
        if not _warned:
            _warned.append(True)
            warnings.warn(_PROJECTIONS, stacklevel=4)
        return False
    return True


def _onednn_layer(input, state, w_ih, b_ih, w_hh, b_hh, reverse):
    """One layer in one direction as one MkldnnRnnLayer node: (outputs, (last h, last c)).
    Without bias, zeros that need no gradient take the biases' places (as PyTorch's)."""
    h, c = state
    for s in state:
        if s.dtype is not _dtype.float32:
            raise RuntimeError(_ONEDNN_DTYPE.get(s.dtype, "get_mkldnn_dtype: unsupported data type"))
    if b_ih is None:
        b_ih, b_hh = (_creation.zeros(w.shape[0], dtype=w.dtype) for w in (w_ih, w_hh))
    output, h, c = ops.MkldnnRnnLayer.apply(input, w_ih, w_hh, b_ih, b_hh, h, c, reverse)
    return output, (h, c)



def rnn(mode, input, hx, params, num_layers, dropout, train, bidirectional, batch_first):
    """The whole network: ``hx`` holds the initial state of every (layer, direction) in that
    order, stacked (LSTM: the pair (h, c)), ``params`` their weights as tuples (w_ih, b_ih,
    w_hh, b_hh) (+ w_hr for an LSTM with proj_size); biases None without ``bias``. Returns the
    last layer's outputs and the final state of every (layer, direction)."""
    if input.shape[1 if batch_first else 0] == 0:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    onednn = _onednn(mode, input, params)
    layer_input = input.transpose(0, 1) if batch_first else input  # time first
    directions = 2 if bidirectional else 1
    if onednn:  # as PyTorch's: contiguous copies, each (layer, direction)'s state picked out (Select)
        layer_input = layer_input.contiguous()
        h, c = hx[0].contiguous(), hx[1].contiguous()
        hiddens = [(h[k], c[k]) for k in range(num_layers * directions)]
    else:
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if mode == "LSTM" else hx.unbind(0)
    step = STEPS[mode]
    finals = []
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            k = layer * directions + d
            if onednn:
                output, final = _onednn_layer(layer_input, hiddens[k], *params[k], reverse=d == 1)
            else:
                w_ih, b_ih, *weights = params[k]
                output, final = _direction(step, layer_input, hiddens[k], w_ih, b_ih, weights, reverse=d == 1)
            outputs.append(output)
            finals.append(final)
        layer_input = _joining.cat(outputs, 2) if bidirectional else outputs[0]
        if dropout and train and layer < num_layers - 1:  # between layers, not after the last
            layer_input = F.dropout(layer_input, dropout, True)
    if batch_first:  # back to batch first: PyTorch transposes RNN's and GRU's output in place
        # (TransposeBackward1), LSTM's not (TransposeBackward0)
        layer_input = layer_input.transpose(0, 1) if mode == "LSTM" else layer_input.transpose_(0, 1)
    return layer_input, finals
