"""torch.save / torch.load against PyTorch's: what comes back (dtype, shape, values,
requires_grad, Parameter-ness, shared memory), state_dicts of models and optimizers
(resuming training gives the uninterrupted trajectory), whole modules, and the safe
default ``weights_only=True``, which refuses anything but tensors and plain containers.

Each library reads only its own files, so a program saves and loads within one library
and returns what it got back (recorded for PyTorch, tests/oracle.py).
"""
import collections
import copy
import io
import pickle

import numpy as np
import pytest

import minigrad
from oracle import ErrorRecord, error_of


def round_trip(lib, obj, **load_options):
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    buffer.seek(0)
    return lib.load(buffer, **load_options)


def tensors(lib):
    x = lib.arange(6.0).reshape(2, 3)
    return {
        "float32": x, "float64": lib.tensor([1.5, -2.25], dtype=lib.float64), "int64": lib.tensor([[1], [2]]),
        "bool": lib.tensor([True, False]), "0-d": lib.tensor(3.5), "empty": lib.zeros(0, 4),
        "transposed": x.t(), "leaf requiring grad": lib.ones(2, requires_grad=True),
        "non-leaf": lib.ones(2, requires_grad=True) * 2,  # comes back a leaf that requires grad
        "parameter": lib.nn.Parameter(lib.full((2,), 0.5)),
        "frozen parameter": lib.nn.Parameter(lib.zeros(1), requires_grad=False),
        "dtype": lib.float64, "size": lib.Size([2, 3]), "device": lib.device("cpu"),
        "plain": [1, 2.5, "text", None, True, (1, 2), {3, 4}, 1j], "ordered": collections.OrderedDict(a=1, b=x),
    }


@pytest.mark.parametrize("kind", tensors(minigrad))
def test_round_trip_matches_torch(oracle, kind):
    def program(lib):
        loaded = round_trip(lib, tensors(lib)[kind])
        return loaded if isinstance(loaded, lib.Tensor) else repr(loaded), type(loaded).__name__
    value, type_name = oracle.same(program)
    assert type_name == {"parameter": "Parameter", "frozen parameter": "Parameter", "dtype": "dtype",
                         "size": "Size", "device": "device", "plain": "list",
                         "ordered": "OrderedDict"}.get(kind, "Tensor")


def test_gradients_are_not_saved_and_memory_is_shared_again(oracle):
    def program(lib):
        x = lib.arange(6.0).reshape(2, 3)
        w = lib.ones(2, requires_grad=True)
        (w * 3).sum().backward()
        a, row, col, w2, a_again = round_trip(lib, [x, x[1], x[:, 2], w, x])
        with lib.no_grad():
            a[1, 2] = 100.0
        return row, col, w2.grad is None, w2.is_leaf, a_again is a
    row, col, no_grad, leaf, same_object = oracle.same(program)
    assert row.tolist() == [3.0, 4.0, 100.0] and col.tolist() == [2.0, 100.0]
    assert no_grad and leaf and same_object


def model(lib):
    """A small model with fixed weights (the same in both libraries)."""
    net = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
    with lib.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(lib.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) * (i + 1) / 3)
    return net


X = np.linspace(-2, 2, 15, dtype=np.float32).reshape(5, 3)


def test_state_dict_round_trip_matches_torch(oracle, tmp_path):
    path = tmp_path / "model.pth"

    def program(lib):
        net = model(lib)
        lib.save(net.state_dict(), path)          # a pathlib.Path
        state = lib.load(str(path))               # a string path
        fresh = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
        result = fresh.load_state_dict(state)
        return (type(state).__name__, list(state), [type(v).__name__ for v in state.values()], state,
                str(result), fresh(lib.tensor(X)))
    oracle.same(program)


def train(lib, net, opt, steps):
    x, y = lib.tensor(X), lib.tensor(X[:, :2] ** 2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = lib.nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("name, kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9}), ("Adam", {"lr": 0.01}),
                                          ("AdamW", {"lr": 0.01}), ("RMSprop", {"lr": 0.01, "centered": True}),
                                          ("Adagrad", {"lr": 0.1})])
def test_checkpoint_resumes_training_as_torch(oracle, name, kwargs):
    """The tutorial's checkpoint: model, optimizer and epoch in one dict; training resumed from
    the file continues exactly as uninterrupted training does."""
    def program(lib):
        net = model(lib)
        opt = getattr(lib.optim, name)(net.parameters(), **kwargs)
        first = train(lib, net, opt, 4)
        checkpoint = round_trip(lib, {"epoch": 4, "model_state_dict": net.state_dict(),
                                      "optimizer_state_dict": opt.state_dict(), "loss": first[-1]})
        uninterrupted = train(lib, net, opt, 4)
        net2 = model(lib)
        opt2 = getattr(lib.optim, name)(net2.parameters(), **kwargs)
        net2.load_state_dict(checkpoint["model_state_dict"])
        opt2.load_state_dict(checkpoint["optimizer_state_dict"])
        resumed = train(lib, net2, opt2, 4)
        return first, uninterrupted, resumed, checkpoint["epoch"], checkpoint["optimizer_state_dict"]
    mine, theirs = oracle.both(program)
    first, uninterrupted, resumed, _, _ = mine
    assert resumed == uninterrupted  # bit for bit, within minigrad
    np.testing.assert_allclose(first + uninterrupted, theirs[0] + theirs[1], rtol=1e-5)
    assert mine[3] == theirs[3] == 4


def test_whole_module_loads_with_weights_only_false(oracle):
    def program(lib):
        net = model(lib)
        loaded = round_trip(lib, net, weights_only=False)
        return (repr(loaded), [type(p).__name__ for p in loaded.parameters()], loaded(lib.tensor(X)),
                loaded is net, [p.requires_grad for p in loaded.parameters()])
    answer = oracle.same(program)
    assert answer[1] == ["Parameter"] * 4 and answer[3] is False


class Config:  # a class of the test's own: not allowed under weights_only=True
    def __init__(self, size):
        self.size = size


@pytest.mark.parametrize("what", ["module", "custom class", "function"])
def test_weights_only_refuses_anything_but_tensors(oracle, what):
    def program(lib):
        obj = {"module": lambda: lib.nn.Linear(2, 2), "custom class": lambda: {"config": Config(3)},
               "function": lambda: [len]}[what]()
        return error_of(round_trip, lib, obj)
    mine, theirs = oracle.both(program)
    assert mine.type == theirs.type == "UnpicklingError"
    first = "Weights only load failed. This file can still be loaded, to do so you have two options,"
    assert mine.message.startswith(first) and theirs.message.startswith(first)
    # the line that names the class, with the package's name masked
    names = [[line for line in e.message.splitlines() if "Unsupported global" in line][0]
             for e in (mine, theirs)]
    assert names[0].replace("minigrad.", "torch.") == names[1]
    assert "weights_only` set to `False`" in mine.message


def test_safe_globals_allow_a_trusted_class():
    saved = {"config": Config(3), "w": minigrad.ones(2)}
    with pytest.raises(pickle.UnpicklingError):
        round_trip(minigrad, saved)
    with minigrad.serialization.safe_globals([Config]):
        assert round_trip(minigrad, saved)["config"].size == 3
    assert minigrad.serialization.get_safe_globals() == []
    minigrad.serialization.add_safe_globals([Config])
    try:
        assert round_trip(minigrad, saved)["config"].size == 3
    finally:
        minigrad.serialization.clear_safe_globals()


def test_map_location_and_files(oracle, tmp_path):
    path = tmp_path / "t.pt"

    def program(lib):
        lib.save(lib.tensor([1.0, 2.0]), path)
        with open(path, "rb") as f:
            from_file = lib.load(f, map_location="cpu")
        return (from_file, lib.load(path, map_location=lib.device("cpu")),
                error_of(lib.load, path, "cuda"), error_of(lib.save, lib.ones(1), 3),
                error_of(lib.load, tmp_path / "missing.pt").type)
    oracle.same(program)


def test_files_of_the_other_library_are_refused_clearly(tmp_path):
    path = tmp_path / "from_pytorch.pt"
    path.write_bytes(b"PK\x03\x04" + bytes(60))  # PyTorch's files are zip archives
    with pytest.raises(RuntimeError, match="written by PyTorch's torch.save"):
        minigrad.load(path)
    path.write_bytes(b"hello")
    with pytest.raises(pickle.UnpicklingError, match="not a file written by torch.save"):
        minigrad.load(path)


def test_deepcopy_of_loaded_state_is_independent():
    net = model(minigrad)
    state = round_trip(minigrad, net.state_dict())
    snapshot = copy.deepcopy(state)
    with minigrad.no_grad():
        state["0.weight"].zero_()
    assert snapshot["0.weight"].abs().sum().item() > 0
    assert error_of(minigrad.load, io.BytesIO(b"")) != "no exception"
    assert isinstance(error_of(minigrad.save, minigrad.ones(1), 3), ErrorRecord)


def test_named_results_pickle_and_copy(oracle):
    """``max(dim)``, ``sort``, ``linalg.qr``... return named tuples of classes that pickle finds
    by name in ``torch.return_types``: a pickled result comes back of the same class."""
    def program(lib):
        x = lib.tensor([[1.0, 5.0], [3.0, 2.0]])
        results = {"max": lib.max(x, 0), "sort": x.sort(), "aminmax": lib.aminmax(x),
                   "linalg_qr": lib.linalg.qr(x), "frexp": lib.frexp(x)}
        out = {}
        for name, r in results.items():
            back = pickle.loads(pickle.dumps(r))
            out[name] = (repr(back), type(back) is type(r), type(r) is getattr(lib.return_types, name),
                         type(copy.deepcopy(r)) is type(r))
        out["missing"] = error_of(lambda: lib.return_types.no_such_kind)
        return out
    oracle.same(program)
