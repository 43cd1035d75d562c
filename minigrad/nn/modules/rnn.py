"""``nn.RNN``, ``nn.LSTM``, ``nn.GRU`` (whole sequences, several layers, both directions) and
``nn.RNNCell``, ``nn.LSTMCell``, ``nn.GRUCell`` (one step). The maths is in
nn/_functional_rnn.py; here are the parameters (named, shaped, ordered and initialised as
PyTorch's, so a state_dict goes from one library to the other) and PyTorch's checks of the
input and of the initial state.
"""
import math
import numbers
import warnings

from ... import _creation, _joining
from .. import _functional_rnn as R
from .. import init
from ..parameter import Parameter
from .module import Module

_PACKED = ("minigrad has no PackedSequence (nn.utils.rnn.pack_padded_sequence): give the RNN a padded "
           "tensor (seq, batch, features), and mask or pick the outputs of the padded steps yourself")


def _check_not_packed(input):
    if isinstance(input, tuple):  # PyTorch's PackedSequence is a namedtuple
        raise NotImplementedError(_PACKED)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the parameters, ``weight_ih_l{k}``, ``weight_hh_l{k}``,
    ``bias_ih_l{k}``, ``bias_hh_l{k}`` (+ ``weight_hr_l{k}`` with proj_size) for each layer k,
    ``_reverse`` for the second direction, every one drawn from U(-1/sqrt(hidden_size),
    1/sqrt(hidden_size)); the gates are stacked in the rows of a weight (LSTM: 4 of them)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers = num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero "
                          f"dropout expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", stacklevel=2)
        for name, value in (("bias", bias), ("batch_first", batch_first)):
            if not isinstance(value, bool):
                raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
        for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
            if not isinstance(value, int):
                raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"{name} must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        gate_size = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}[mode] * hidden_size

        self._flat_weights_names, self._all_weights = [], []
        out_size = proj_size or hidden_size  # the size of h
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:2 if bidirectional else 1]:
                layer_input_size = input_size if layer == 0 else out_size * (2 if bidirectional else 1)
                shapes = {"weight_ih": (gate_size, layer_input_size), "weight_hh": (gate_size, out_size)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                names = [f"{kind}_l{layer}{suffix}" for kind in shapes]
                for name, shape in zip(names, shapes.values()):
                    setattr(self, name, Parameter(_creation.empty(shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def _directions(self):
        return 2 if self.bidirectional else 1

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():  # in registration order, as PyTorch draws them
            init.uniform_(weight, -stdv, stdv)

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """A no-op, as PyTorch's is on the CPU (it packs the weights for cuDNN)."""

    def _params(self):
        """Each (layer, direction)'s weights as _functional_rnn.rnn takes them: (w_ih, b_ih, w_hh,
        b_hh) (+ w_hr with proj_size), None for the biases without ``bias``."""
        kinds = ("weight_ih", "bias_ih", "weight_hh", "bias_hh") + (("weight_hr",) if self.proj_size else ())
        params = []
        for names in self._all_weights:  # ["weight_ih_l1_reverse", "weight_hh_l1_reverse", ...]
            weights = {name.split("_l")[0]: getattr(self, name) for name in names}  # {"weight_ih": ...}
            params.append(tuple(weights.get(kind) for kind in kinds))
        return params

    # -- PyTorch's checks ----------------------------------------------------------------------
    def check_input(self, input, batch_sizes=None):
        dtype = self._flat_weights[0].dtype
        if input.dtype != dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({dtype}). "
                             f"Convert input: input.to({dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes=None):
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * self._directions(), mini_batch, self.proj_size or self.hidden_size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes=None):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        return hx  # (reorders a PackedSequence's batch; minigrad has none)

    def _zeros(self, input, size):
        batch = input.size(0) if self.batch_first else input.size(1)
        return _creation.zeros(self.num_layers * self._directions(), batch, size, dtype=input.dtype)

    def _batched(self, input, hx, name, hx_dims):
        """PyTorch's handling of an unbatched (2-D) input: a batch of one, the states too.
        Returns the input, the states (a list) and whether the input was batched."""
        _check_not_packed(input)
        if input.dim() not in (2, 3):
            tensor = " tensor" if name == "RNN" else ""
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tensor} instead")
        is_batched = input.dim() == 3
        if not is_batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        if hx is not None:
            if any(h.dim() != (3 if is_batched else 2) for h in hx):
                what = ("batched 3-D", 3) if is_batched else ("unbatched 2-D", 2)
                raise RuntimeError(f"For {what[0]} input, {hx_dims(what[1], hx)}")
            if not is_batched:
                hx = [h.unsqueeze(1) for h in hx]
        return input, hx, is_batched

    def _unbatched(self, output, is_batched):
        return output if is_batched else output.squeeze(0 if self.batch_first else 1)

    def _forward_h(self, input, hx, name):
        """RNN's and GRU's forward: one state, h."""
        input, hx, is_batched = self._batched(input, None if hx is None else [hx], name, _one_hx)
        hx = self._zeros(input, self.hidden_size) if hx is None else hx[0]
        self.check_forward_args(input, hx)
        output, finals = self._run(input, hx)
        h_n = _joining.stack(finals, 0)
        return self._unbatched(output, is_batched), h_n if is_batched else h_n.squeeze(1)

    def _run(self, input, hx):
        return R.rnn(self.mode, input, hx, self._params(), self.num_layers, self.dropout, self.training,
                     self.bidirectional, self.batch_first)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)


def _one_hx(dims, hx):
    return f"hx should also be {dims}-D but got {hx[0].dim()}-D tensor"


def _two_hx(dims, hx):
    return f"hx and cx should also be {dims}-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"


class RNN(RNNBase):
    """An Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) at every step t
    (``nonlinearity="relu"``: relu), each layer's outputs the next layer's inputs.
    ``forward(input, h_0=None)`` returns (every step's h of the last layer, every layer's last h)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:  # (input_size, hidden_size, num_layers, nonlinearity, ...)
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_" + self.nonlinearity.upper(), *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_h(input, hx, "RNN")


class GRU(RNNBase):
    """A gated recurrent unit RNN: each step computes a reset gate r, an update gate z and a
    new state n (see _functional_rnn.gru_step), h_t = (1 - z) * n + z * h_{t-1}.
    ``forward(input, h_0=None)`` returns (every step's h of the last layer, every layer's last h)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_h(input, hx, "GRU")


class LSTM(RNNBase):
    """Long short-term memory: besides h, each layer carries a cell state c that the gates
    i, f, g, o forget from and write to (see _functional_rnn.lstm_step). With ``proj_size``,
    h is projected to that size by ``weight_hr_l{k}``. ``forward(input, (h_0, c_0)=None)``
    returns (every step's h of the last layer, (every layer's last h, its last c))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes=None):
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * self._directions(), mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes=None):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def forward(self, input, hx=None):
        input, hx, is_batched = self._batched(input, hx, "LSTM", _two_hx)
        if hx is None:
            hx = [self._zeros(input, self.proj_size or self.hidden_size),
                  self._zeros(input, self.hidden_size)]
        self.check_forward_args(input, hx)
        output, finals = self._run(input, hx)
        h_n, c_n = _joining.stack([h for h, _ in finals], 0), _joining.stack([c for _, c in finals], 0)
        if not is_batched:
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return self._unbatched(output, is_batched), (h_n, c_n)


# ---------------------------------------------------------------------------------------------
# The cells: one step, for a loop of your own
# ---------------------------------------------------------------------------------------------

class RNNCellBase(Module):
    """What the cells share: ``weight_ih`` (gates * hidden_size, input_size), ``weight_hh``
    (gates * hidden_size, hidden_size), ``bias_ih``, ``bias_hh`` (None without bias), drawn
    from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(_creation.empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(_creation.empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _step(self, mode, input, hx, name):
        """PyTorch's checks, an unbatched (1-D) input as a batch of one, zeros for a missing
        state, then one step."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        states = [] if hx is None else hx if mode == "LSTM" else [hx]
        for i, h in enumerate(states):
            if h.dim() not in (1, 2):
                what = f"hx[{i}]" if mode == "LSTM" else "hidden"
                raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {h.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (hx, hx) if mode == "LSTM" else hx
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if mode == "LSTM" else hx.unsqueeze(0)
        out = R.cell(mode, input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        if is_batched:
            return out
        return (out[0].squeeze(0), out[1].squeeze(0)) if mode == "LSTM" else out.squeeze(0)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return self._step("RNN_" + self.nonlinearity.upper(), input, hx, "RNNCell")


class LSTMCell(RNNCellBase):
    """One step of an LSTM: ``forward(input, (h, c)=None)`` returns (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        return self._step("LSTM", input, hx, "LSTMCell")


class GRUCell(RNNCellBase):
    """One step of a GRU: ``forward(input, h=None)`` returns h'."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        return self._step("GRU", input, hx, "GRUCell")
