"""PyTorch's answers, recorded: the ``oracle`` fixture of the comparison tests.

A comparison test writes the code it compares once, as a *program* ``program(lib, *args)``
that builds tensors with ``lib`` (PyTorch or minigrad), runs the computation and returns
everything to compare: tensors (their gradients included), reprs, printed text, flags,
error texts. ``oracle(program)`` is PyTorch's answer:

- PyTorch installed: the program runs under PyTorch, and its answer must be the recording's,
  compared as minigrad's is (``assert_same``: float values up to rounding, everything else
  exactly), so a recording cannot go stale silently. (Up to rounding: PyTorch's kernels round
  differently on different CPUs, an Intel's AVX-512 and an AMD's AVX2 paths, say, so the last
  digits of a recording made on one machine are not those another computes.);
- PyTorch not installed: the recording is the answer;
- ``make record`` (pytest-regressions' ``--regen-all``, PyTorch installed): the program
  runs under PyTorch and its answer is written.

The test runs the same program under minigrad (``oracle.both`` does both) and compares
with :func:`assert_same` (tensors up to a tolerance, everything else exactly) or ``==``.

A recording is a YAML file per test, ``tests/recordings/<module>/<test>[/<params>].yml``.
Floats are written so that they read back bit for bit: float64 as Python's shortest
round-trip repr, float32 as NumPy's shortest float32 repr (``0.1``, not
``0.10000000149011612``). A tensor is written as ``!tensor`` with its dtype, shape, values,
``requires_grad``, ``is_leaf``, the ``grad_fn`` name, the graph behind it and its repr.
"""
from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
import yaml

import minigrad

RECORDINGS = Path(__file__).resolve().parent / "recordings"
RECORD_COMMAND = "make record"

# ---------------------------------------------------------------------------------------------
# What a program's answer is made of
# ---------------------------------------------------------------------------------------------


class TensorRecord:
    """Everything a learner can see of one tensor (PyTorch's or minigrad's), as plain data."""

    __slots__ = ("dtype", "shape", "values", "requires_grad", "is_leaf", "grad_fn", "graph", "repr")

    def __init__(self, dtype, shape, values, requires_grad, is_leaf, grad_fn, graph, repr):
        self.dtype = dtype                  # "torch.float32"
        self.shape = tuple(shape)
        self.values = values                # numpy array of the matching numpy dtype
        self.requires_grad = requires_grad
        self.is_leaf = is_leaf
        self.grad_fn = grad_fn              # "MulBackward0" or None
        self.graph = graph                  # graph_text(grad_fn)
        self.repr = repr

    @classmethod
    def of(cls, t):
        # (a ZeroTensor, zeros without storage, as sgn's backward gives in PyTorch: numpy() needs force)
        zeros = getattr(t, "_is_zerotensor", lambda: False)()
        values = (t.detach().numpy(force=True) if zeros else t.detach().numpy()).copy()
        grad_fn = t.grad_fn
        return cls(dtype=str(t.dtype), shape=tuple(t.shape), values=values,
                   requires_grad=bool(t.requires_grad), is_leaf=bool(t.is_leaf),
                   grad_fn=None if grad_fn is None else type(grad_fn).__name__,
                   graph=graph_text(grad_fn), repr=repr(t))

    # a few read-only Tensor methods, so that a recorded tensor reads like one
    def numpy(self):
        return self.values

    def tolist(self):
        return self.values.tolist()

    def item(self):
        return self.values.item()

    def __repr__(self):
        return self.repr

    def __eq__(self, other):
        """Exactly equal: every field, values bit for bit (NaN equal to NaN, -0. not 0.)."""
        if not isinstance(other, TensorRecord):
            return NotImplemented
        return (all(getattr(self, k) == getattr(other, k) for k in self.__slots__ if k != "values")
                and same_bits(self.values, other.values))

    __hash__ = None


class ArrayRecord:
    """A NumPy array or scalar returned by a program."""

    __slots__ = ("dtype", "values")

    def __init__(self, dtype, values):
        self.dtype = dtype
        self.values = values

    def __repr__(self):
        return f"ArrayRecord({self.values!r})"

    def __eq__(self, other):
        if not isinstance(other, ArrayRecord):
            return NotImplemented
        return self.dtype == other.dtype and same_bits(self.values, other.values)

    __hash__ = None


class ErrorRecord:
    """An exception a program raised: its class name and message."""

    __slots__ = ("type", "message")

    def __init__(self, type, message):
        self.type = type
        self.message = message

    def __repr__(self):
        return f"{self.type}: {self.message}"

    def __eq__(self, other):
        if not isinstance(other, ErrorRecord):
            return NotImplemented
        return (self.type, self.message) == (other.type, other.message)

    __hash__ = None


class RTuple(tuple):
    """A tuple in an answer (written as ``!tuple``, so it reads back as a tuple)."""


class RList(list):
    """A list in an answer."""


class RDict(dict):
    """A dict in an answer, written in its own key order (not sorted)."""


class Text(str):
    """A string of several lines, written as a YAML block so that it reads as printed."""


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":  # NaN equals NaN (YAML's .nan keeps no sign or payload); -0. is not 0.
        numbers = ~np.isnan(a)
        return bool(np.array_equal(a, b, equal_nan=True)
                    and np.array_equal(np.signbit(a[numbers]), np.signbit(b[numbers])))
    return bool(np.array_equal(a, b))


def graph_text(node, _seen=None):
    """A grad_fn graph as one line: ``Name(child:index, ...)`` as ``next_functions`` nests it,
    ``None`` where an input needs no gradient, ``@Name`` for a node already written."""
    if node is None:
        return None
    _seen = set() if _seen is None else _seen
    name = type(node).__name__
    if id(node) in _seen:
        return "@" + name
    _seen.add(id(node))
    children = [f"{graph_text(child, _seen)}:{idx}" for child, idx in node.next_functions]
    return f"{name}({', '.join(children)})" if children else name


def _is_tensor(x):
    if isinstance(x, minigrad.Tensor):
        return True
    torch = torch_module()
    return torch is not None and isinstance(x, torch.Tensor)


def record(value):
    """A program's answer as plain, recordable data (tensors -> TensorRecord, ...).

    The same conversion is applied to PyTorch's answer (before it is written) and to
    minigrad's (before it is compared), so the two are the same kind of object."""
    if value is None or isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
        return value
    if isinstance(value, str):
        return Text(value) if "\n" in value else str(value)
    if isinstance(value, (TensorRecord, ArrayRecord, ErrorRecord)):
        return value
    if _is_tensor(value):
        return TensorRecord.of(value)
    if isinstance(value, (np.ndarray, np.generic)):
        return ArrayRecord(str(np.asarray(value).dtype), np.array(value))
    if isinstance(value, BaseException):
        return ErrorRecord(type(value).__name__, str(value))
    if isinstance(value, dict):
        return RDict((record(k), record(v)) for k, v in value.items())
    if isinstance(value, tuple):  # also torch.Size, namedtuples, torch.return_types
        return RTuple(record(v) for v in value)
    if isinstance(value, list):
        return RList(record(v) for v in value)
    raise TypeError(f"cannot record a {type(value).__module__}.{type(value).__qualname__} "
                    f"({value!r}): return plain values (repr(...), str(...), .tolist(), a tensor)")


# ---------------------------------------------------------------------------------------------
# Helpers for programs
# ---------------------------------------------------------------------------------------------


def error_of(fn, *args):
    """The exception ``fn(*args)`` raises, as an ErrorRecord, or the string "no exception"."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 - any exception is the answer
        return ErrorRecord(type(e).__name__, str(e))
    return "no exception"


def raised(fn, *args):
    """A program that answers the exception ``fn(lib, *args)`` raises (see error_of)."""
    return lambda lib: error_of(fn, lib, *args)


def warning_text(w):
    """A caught warning as (category name, message); PyTorch's C++ warnings end in
    " (Triggered internally at <its source file>)", which is left out."""
    return type(w.message).__name__, str(w.message).split(" (Triggered internally at ")[0]


def caught(fn, *args):
    """Run ``fn(*args)``; return (its result, the warnings it raised as warning_text)."""
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        result = fn(*args)
    return result, [warning_text(w) for w in log]


# ---------------------------------------------------------------------------------------------
# Comparing minigrad's answer with PyTorch's
# ---------------------------------------------------------------------------------------------


def default_tolerance(dtype):
    return (1e-5, 1e-6) if dtype == "torch.float32" else (1e-10, 1e-12)


def assert_same_tensor(mine, theirs, rtol=None, atol=None, check_repr=True, check_graph=True,
                       what="output"):
    """Everything a learner can see about one tensor: minigrad's ``mine`` against PyTorch's
    ``theirs`` (both TensorRecords; live tensors are recorded first). Float values agree up to
    ``rtol``/``atol`` (by default 1e-5/1e-6 in float32, 1e-10/1e-12 in float64), the rest
    exactly."""
    mine, theirs = record(mine), record(theirs)
    assert isinstance(theirs, TensorRecord), f"{what}: PyTorch's answer is not a tensor: {theirs!r}"
    assert isinstance(mine, TensorRecord), f"{what}: minigrad's answer is not a tensor: {mine!r}"
    assert mine.dtype == theirs.dtype, f"{what}: dtype {mine.dtype}, PyTorch {theirs.dtype}"
    assert mine.shape == theirs.shape, f"{what}: shape {mine.shape}, PyTorch {theirs.shape}"
    mv, tv = mine.values, theirs.values
    assert mv.dtype == tv.dtype, f"{what}: numpy dtype {mv.dtype}, PyTorch {tv.dtype}"
    if tv.dtype.kind == "f":
        if rtol is None:
            rtol, atol = default_tolerance(theirs.dtype)
        np.testing.assert_allclose(mv, tv, rtol=rtol, atol=atol or 0, err_msg=what)
    else:
        np.testing.assert_array_equal(mv, tv, err_msg=what)
    assert mine.requires_grad == theirs.requires_grad, f"{what}: requires_grad"
    assert mine.is_leaf == theirs.is_leaf, f"{what}: is_leaf"
    assert mine.grad_fn == theirs.grad_fn, f"{what}: grad_fn {mine.grad_fn}, PyTorch {theirs.grad_fn}"
    if check_graph:
        assert mine.graph == theirs.graph, f"{what}: graph\n  minigrad {mine.graph}\n  PyTorch  {theirs.graph}"
    if check_repr:
        assert mine.repr == theirs.repr, f"{what}: repr\nminigrad:\n{mine.repr}\nPyTorch:\n{theirs.repr}"


def assert_same(mine, theirs, what="answer", **tensor_options):
    """minigrad's answer against PyTorch's, walking both: tensors with assert_same_tensor
    (``tensor_options``: rtol, atol, check_repr, check_graph), NumPy float arrays up to the
    same tolerance, everything else exactly (the kind of container too: a tuple is not a
    list)."""
    mine, theirs = record(mine), record(theirs)
    if isinstance(theirs, TensorRecord):
        assert_same_tensor(mine, theirs, what=what, **tensor_options)
    elif isinstance(theirs, ArrayRecord):
        assert isinstance(mine, ArrayRecord), f"{what}: minigrad gave {mine!r}, PyTorch an array"
        assert mine.dtype == theirs.dtype, f"{what}: dtype {mine.dtype}, PyTorch {theirs.dtype}"
        assert mine.values.shape == theirs.values.shape, f"{what}: shape"
        if theirs.values.dtype.kind == "f":
            rtol, atol = tensor_options.get("rtol"), tensor_options.get("atol")
            if rtol is None:
                rtol, atol = default_tolerance("torch." + theirs.dtype)
            np.testing.assert_allclose(mine.values, theirs.values, rtol=rtol, atol=atol or 0, err_msg=what)
        else:
            np.testing.assert_array_equal(mine.values, theirs.values, err_msg=what)
    elif isinstance(theirs, dict):
        assert isinstance(mine, dict), f"{what}: minigrad gave {type(mine).__name__}, PyTorch a dict"
        assert list(mine) == list(theirs), f"{what}: keys {list(mine)}, PyTorch {list(theirs)}"
        for k in theirs:
            assert_same(mine[k], theirs[k], f"{what}[{k!r}]", **tensor_options)
    elif isinstance(theirs, (list, tuple)):
        assert _kind(mine) is _kind(theirs), \
            f"{what}: minigrad gave a {type(mine).__name__}, PyTorch a {_kind(theirs).__name__}"
        assert len(mine) == len(theirs), f"{what}: length {len(mine)}, PyTorch {len(theirs)}"
        for i, (a, b) in enumerate(zip(mine, theirs)):
            assert_same(a, b, f"{what}[{i}]", **tensor_options)
    elif isinstance(theirs, float) and theirs != theirs:
        assert isinstance(mine, float) and mine != mine, f"{what}: minigrad {mine!r}, PyTorch nan"
    else:
        assert _kind(mine) is _kind(theirs) and mine == theirs, \
            f"{what}: minigrad {mine!r}, PyTorch {theirs!r}"


def _kind(x):
    """The type that matters when comparing (a recorded str is a str, however it was written)."""
    for kind in (bool, str, tuple, list, dict):
        if isinstance(x, kind):
            return kind
    return type(x)


# ---------------------------------------------------------------------------------------------
# YAML: writing and reading recordings
# ---------------------------------------------------------------------------------------------


def _flow(dumper, values):
    return dumper.represent_sequence("tag:yaml.org,2002:seq", values, flow_style=True)


def _plain(array):
    """Array values as nested lists of Python scalars that read back bit for bit."""
    a = np.asarray(array)
    if a.dtype.kind == "f" and a.dtype != np.float64:
        # The shortest decimal that reads back as this float32 (float16); through float64
        # it rounds to the same value, which is checked here.
        out = np.array([float(str(v)) if np.isfinite(v) else float(v) for v in a.ravel()],
                       dtype=np.float64).reshape(a.shape)
        assert same_bits(out.astype(a.dtype), a), f"{a.dtype} values do not read back exactly: {a}"
        return out.tolist()
    return a.tolist()


def _represent_values(dumper, array):
    plain = _plain(array)
    if isinstance(plain, list):
        return _flow(dumper, plain)
    return dumper.represent_data(plain)


def _represent_tensor(dumper, t):
    return dumper.represent_mapping("!tensor", [
        ("dtype", t.dtype), ("shape", _FlowList(t.shape)), ("values", _Values(t.values)),
        ("requires_grad", t.requires_grad), ("is_leaf", t.is_leaf), ("grad_fn", t.grad_fn),
        ("graph", t.graph), ("repr", record(t.repr)),
    ])


class _FlowList(list):
    pass


class _Values:
    def __init__(self, array):
        self.array = array


def _register(dumper):
    add = dumper.add_multi_representer
    add(TensorRecord, _represent_tensor)
    add(ArrayRecord, lambda d, a: d.represent_mapping("!ndarray", [
        ("dtype", a.dtype), ("shape", _FlowList(a.values.shape)), ("values", _Values(a.values))]))
    add(ErrorRecord, lambda d, e: d.represent_mapping("!error", [("type", e.type),
                                                                 ("message", record(e.message))]))
    add(RTuple, lambda d, t: d.represent_sequence("!tuple", list(t), flow_style=_all_scalars(t)))
    add(RList, lambda d, t: d.represent_sequence("tag:yaml.org,2002:seq", list(t),
                                                 flow_style=_all_scalars(t)))
    add(RDict, lambda d, m: d.represent_mapping("tag:yaml.org,2002:map", list(m.items())))
    add(Text, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", str(s), style="|"))
    add(_FlowList, lambda d, v: _flow(d, list(v)))
    add(_Values, lambda d, v: _represent_values(d, v.array))


def _all_scalars(items):
    """Short sequences of numbers, flags and one-line strings are written on one line."""
    return bool(items) and all(x is None or isinstance(x, (bool, int, float)) or
                               isinstance(x, str) and not isinstance(x, Text) for x in items)


def _dumper():
    from pytest_regressions.data_regression import RegressionYamlDumper

    if not getattr(RegressionYamlDumper, "_minigrad_oracle", False):
        _register(RegressionYamlDumper)
        RegressionYamlDumper._minigrad_oracle = True
    return RegressionYamlDumper


def dumps(answer):
    """The YAML text of an answer (what data_regression writes)."""
    return yaml.dump_all([RDict(answer=record(answer))], Dumper=_dumper(), default_flow_style=False,
                         allow_unicode=True, indent=2)


_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):
    pass


def _construct_tensor(loader, node):
    m = loader.construct_mapping(node, deep=True)
    np_dtype = {"torch.bool": np.bool_}.get(m["dtype"], m["dtype"].replace("torch.", ""))
    values = np.array(m["values"], dtype=np_dtype).reshape(m["shape"])
    return TensorRecord(dtype=m["dtype"], shape=m["shape"], values=values,
                        requires_grad=m["requires_grad"], is_leaf=m["is_leaf"], grad_fn=m["grad_fn"],
                        graph=m["graph"], repr=m["repr"])


def _construct_ndarray(loader, node):
    m = loader.construct_mapping(node, deep=True)
    return ArrayRecord(m["dtype"], np.array(m["values"], dtype=m["dtype"]).reshape(m["shape"]))


def _construct_error(loader, node):
    m = loader.construct_mapping(node, deep=True)
    return ErrorRecord(m["type"], m["message"])


_Loader.add_constructor("!tensor", _construct_tensor)
_Loader.add_constructor("!ndarray", _construct_ndarray)
_Loader.add_constructor("!error", _construct_error)
_Loader.add_constructor("!tuple", lambda loader, node: tuple(loader.construct_sequence(node, deep=True)))


def loads(text):
    return yaml.load(text, Loader=_Loader)["answer"]


def _rounded_apart(answer):
    """``answer`` as two CPUs' roundings of it compare: printed numbers (a tensor's repr,
    printed text) with their digits as 0, without signs and spaces (their words and punctuation
    kept), each float a float64 array (compared up to a tolerance)."""
    if isinstance(answer, TensorRecord):
        return TensorRecord(answer.dtype, answer.shape, answer.values, answer.requires_grad, answer.is_leaf,
                            answer.grad_fn, answer.graph, _masked(answer.repr))
    if isinstance(answer, str):
        return _masked(answer)
    if isinstance(answer, float):
        return ArrayRecord("float64", np.array(answer))
    if isinstance(answer, dict):
        return {k: _rounded_apart(v) for k, v in answer.items()}
    if isinstance(answer, (list, tuple)):
        return type(answer)(_rounded_apart(v) for v in answer)
    return answer


def _masked(text):
    return re.sub(r"[-+\s]", "", re.sub(r"[0-9]", "0", text))  # (a sign can change the padding too)


# ---------------------------------------------------------------------------------------------
# Where a test's recording lives
# ---------------------------------------------------------------------------------------------

_SAFE = re.compile(r"[A-Za-z0-9 _.,=+@()\[\]-]")


def _escape(name):
    """A test id as a file name on any system: characters outside a safe set (``/``, ``*``,
    ``:``, ``'``, ...) as %XX; a leading dot too, so that no recording is a hidden file."""
    out = "".join(c if _SAFE.fullmatch(c) else "".join(f"%{b:02X}" for b in c.encode()) for c in name)
    return "%2E" + out[1:] if out.startswith(".") else out


def recording_path(item):
    """tests/recordings/<module>/[<Class>.]<test>.yml, or <test>/<params id>.yml when
    parametrized."""
    module = Path(str(item.fspath)).stem
    name = getattr(item, "originalname", None) or item.name.split("[")[0]
    if getattr(item, "cls", None) is not None:
        name = f"{item.cls.__name__}.{name}"
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        return RECORDINGS / module / _escape(name) / f"{_escape(callspec.id)}.yml"
    return RECORDINGS / module / f"{_escape(name)}.yml"


# ---------------------------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------------------------

_UNSET = object()
_torch = _UNSET


def torch_module():
    """PyTorch, or None where it is not installed (imported once)."""
    global _torch
    if _torch is _UNSET:
        try:
            import torch
        except ImportError:
            torch = None
        else:
            torch.set_default_dtype(torch.float32)
        _torch = torch
    return _torch


def require_torch_env():
    return os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1"


def recording_mode(config):
    return bool(config.getoption("regen_all", False) or config.getoption("force_regen", False))


class Oracle:
    """PyTorch's answer to one program per test: live and checked against the recording
    where PyTorch is installed, the recording where it is not."""

    def __init__(self, request):
        self.request = request
        self.path = recording_path(request.node)
        self.torch = torch_module()
        self.recording = recording_mode(request.config)
        self._used = False

    @property
    def live(self):
        return self.torch is not None

    def _relpath(self):
        return self.path.relative_to(RECORDINGS.parent.parent).as_posix()

    def __call__(self, program, *args):
        """PyTorch's answer to ``program(torch, *args)``."""
        __tracebackhide__ = True
        if self._used:
            raise RuntimeError("a test asks the oracle once: return everything it compares from one "
                               "program")
        self._used = True
        if not self.live:
            if self.recording:
                pytest.fail(f"`{RECORD_COMMAND}` needs PyTorch (it installs the `torch` extra)",
                            pytrace=False)
            if require_torch_env():
                pytest.fail("MINIGRAD_REQUIRE_TORCH=1 but PyTorch is not installed", pytrace=False)
            return self._load()
        if not self.path.is_file() and not self.recording:
            self._missing()
        answer = record(program(self.torch, *args))
        if self.recording:
            _dumper()  # teaches data_regression's YAML dumper the answer's types
            self.request.getfixturevalue("data_regression").check(RDict(answer=answer), fullpath=self.path)
            return self._load()
        recorded = self._load()
        try:
            self.holds(loads(dumps(answer)), recorded)  # (written out and read back, as the recording was)
        except AssertionError as e:
            raise AssertionError(
                f"PyTorch {self.torch.__version__} no longer gives the recorded answer "
                f"({self._relpath()}): the recording is stale, or the program changed. Review the "
                f"difference (PyTorch now, then the recording); if PyTorch is right, re-record with "
                f"`{RECORD_COMMAND}` and commit the file.\n{e}") from None
        return recorded

    @staticmethod
    def holds(now, recorded):
        """PyTorch's answer ``now`` is the ``recorded`` one, up to rounding: float values (in
        tensors, arrays and plain numbers) to 1e-3 relative (float32 results of ill-conditioned
        sums move by 1e-4 between CPUs: a stale recording differs by far more), a tensor's repr
        and printed text with their digits and signs masked (3.1324 and 3.1325, -1.2e-09 and
        0.0000e+00), everything else exactly."""
        assert_same(_rounded_apart(now), _rounded_apart(recorded), rtol=1e-3, atol=1e-5)

    def _missing(self):
        pytest.fail(f"No recording of PyTorch's answer for this test ({self._relpath()}). A new or "
                    f"changed comparison test needs one: run `{RECORD_COMMAND}` (it installs the "
                    f"`torch` extra) and commit tests/recordings/.", pytrace=False)

    def _load(self):
        if not self.path.is_file():
            self._missing()
        return loads(self.path.read_text(encoding="utf-8"))

    def both(self, program, *args):
        """(minigrad's answer, PyTorch's answer) to ``program(lib, *args)``; PyTorch's first, so
        that it is recorded even where minigrad then fails."""
        theirs = self(program, *args)
        return record(program(minigrad, *args)), theirs

    def same(self, program, *args, **tensor_options):
        """Assert that minigrad answers ``program`` as PyTorch does (assert_same); return
        PyTorch's answer."""
        __tracebackhide__ = True
        mine, theirs = self.both(program, *args)
        assert_same(mine, theirs, **tensor_options)
        return theirs

    def same_error(self, fn, *args):
        """``fn(lib, *args)`` raises the same exception type with the same message in both."""
        __tracebackhide__ = True
        mine, theirs = self.both(raised(fn, *args))
        assert isinstance(theirs, ErrorRecord), f"PyTorch raised nothing: {theirs!r}"
        assert isinstance(mine, ErrorRecord), f"minigrad raised nothing, PyTorch {theirs!r}"
        assert mine.type == theirs.type, f"minigrad raised {mine!r}\nPyTorch raised {theirs!r}"
        assert mine.message == theirs.message, f"minigrad raised {mine!r}\nPyTorch raised {theirs!r}"
        return theirs

