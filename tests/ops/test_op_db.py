"""The op table (tests/op_db.py) is complete and says what it does.

- Every public op of minigrad is in an entry: the functions of ``torch.*``, ``torch.linalg.*``,
  ``torch.special.*`` and ``torch.nn.functional.*`` and the Tensor's methods and operators, found
  by introspection, except what is not an op (:data:`NOT_OPS`, each group with its reason) and
  the in-place forms ``x.op_()`` of an op in the table.
- An entry's other names are that op: an alias is the same function, or a sample calls it; an
  op an entry ``covers`` is called by one of its samples (a sample of several ops).
- An entry's name is a public name of minigrad's, its flags agree with its samples, and its
  known differences are the fuzzer's.
"""
from __future__ import annotations

import ast
import inspect
import types
from pathlib import Path

import pytest

import fuzz
import minigrad
import op_db

# ---------------------------------------------------------------------------------------------
# What is not an op (or not one the table checks), by group
# ---------------------------------------------------------------------------------------------

NOT_OPS = {
    # creating tensors, from nothing or from another's shape (test_vs_torch.py: test_creation, ...)
    "creation": """arange as_tensor asarray empty empty_like empty_strided eye from_numpy full full_like
        linspace logspace ones ones_like range tensor tril_indices triu_indices zeros zeros_like
        Tensor.new_empty Tensor.new_empty_strided Tensor.new_full Tensor.new_ones Tensor.new_tensor
        Tensor.new_zeros nn.functional.one_hot""",
    # random numbers: PyTorch's generator is not NumPy's, nothing to compare value for value
    # (test_seeds.py, test_random_dtype_nn_more.py compare their shapes, dtypes and statistics)
    "random": """bernoulli multinomial normal poisson rand rand_like randint randint_like randn randn_like
        randperm dropout alpha_dropout feature_alpha_dropout rrelu
        nn.functional.dropout nn.functional.dropout1d nn.functional.dropout2d nn.functional.dropout3d
        nn.functional.alpha_dropout nn.functional.feature_alpha_dropout
        Tensor.cauchy_ Tensor.exponential_ Tensor.geometric_ Tensor.log_normal_ Tensor.normal_
        Tensor.random_ Tensor.uniform_""",
    # the library's state and settings, saving and loading
    "state": """compile load save manual_seed seed initial_seed get_rng_state set_rng_state get_default_device
        set_default_device get_default_dtype set_default_dtype is_grad_enabled is_inference_mode_enabled
        is_warn_always_enabled set_warn_always set_printoptions""",
    # questions about dtypes, shapes and devices, answered in Python values (a plain name is the
    # torch.* function and the Tensor method)
    "dtype and shape utilities": """promote_types result_type can_cast broadcast_shapes allclose equal
        is_complex is_floating_point is_nonzero is_same_size is_tensor numel
        Tensor.dim Tensor.element_size Tensor.is_contiguous Tensor.is_inference Tensor.is_set_to
        Tensor.is_signed Tensor.item Tensor.itemsize Tensor.nbytes Tensor.ndim Tensor.ndimension
        Tensor.nelement Tensor.numpy Tensor.tolist Tensor.size Tensor.stride Tensor.storage
        Tensor.storage_offset Tensor.untyped_storage Tensor.data_ptr Tensor.shape Tensor.dtype
        Tensor.device Tensor.output_nr Tensor.cpu Tensor.cuda Tensor.bfloat16 Tensor.byte Tensor.char
        Tensor.half Tensor.int Tensor.short Tensor.layout""",
    # autograd's own API, not an op (test_autograd.py, test_vs_torch.py)
    "autograd": """Tensor.backward Tensor.register_hook Tensor.register_post_accumulate_grad_hook
        Tensor.requires_grad_ Tensor.retain_grad Tensor.grad Tensor.grad_fn Tensor.requires_grad
        Tensor.retains_grad Tensor.is_leaf Tensor.data""",
    # not differentiable: integer, boolean or index results, compared in test_small_ints.py,
    # test_int32.py, test_index_functions.py, test_ops_vs_torch.py
    "not differentiable": """bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift
        bitwise_xor gcd lcm bincount bucketize searchsorted histc unique unique_consecutive argwhere
        nonzero signbit isneginf isposinf isreal isclose logical_or lt le ne less less_equal not_equal
        heaviside linalg.matrix_rank histogram unravel_index""",
    # memory, not values: resize_ of a tensor that requires grad is refused (PyTorch's error,
    # test_inplace_views.py)
    "memory": "Tensor.resize_ resize_as_",
    # composite layers, compared as the modules they are (test_attention.py)
    "layers": "nn.functional.multi_head_attention_forward",
    # helpers of nn.functional's own, not PyTorch's
    "helpers": "linalg.check_tensors special.check_tensors nn.functional.check_broadcast nn.functional.pad_by_mode",
}

# The Tensor's operators that compute (the others are comparisons, listed above, or Python protocol).
OPERATORS = """__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __pow__ __rpow__
    __matmul__ __rmatmul__ __mod__ __rmod__ __floordiv__ __rfloordiv__ __neg__ __abs__ __getitem__
    __setitem__""".split()

MODULES = {"": minigrad, "linalg.": minigrad.linalg, "special.": minigrad.special,
           "nn.functional.": minigrad.nn.functional}


def _public_functions(module):
    return {n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))
            and not inspect.isclass(getattr(module, n)) and not isinstance(getattr(module, n), types.ModuleType)}


def public_ops():
    """Every public op of minigrad, by qualified name: "exp" (torch.exp), "Tensor.exp",
    "linalg.det", "special.erf", "nn.functional.gelu", "Tensor.__add__"."""
    ops = {prefix + n for prefix, module in MODULES.items() for n in _public_functions(module)}
    T = minigrad.Tensor
    ops |= {"Tensor." + n for n in dir(T) if not n.startswith("_")
            and (callable(getattr(T, n, None)) or isinstance(inspect.getattr_static(T, n, None), property))}
    ops |= {"Tensor." + n for n in OPERATORS if hasattr(T, n)}
    return ops


def not_ops():
    """The qualified names NOT_OPS lists (a plain name: the torch.* function and the Tensor method)."""
    return {q for group in NOT_OPS.values() for n in group.split() for q in qualified(n)}


def qualified(name):
    """The public names an entry's name (or alias) stands for: a plain name is both the ``torch.*``
    function and the Tensor method; "__add__" is the Tensor's operator."""
    if name.startswith("__"):
        return {"Tensor." + name}
    if "." in name:
        return {name}
    return {name, "Tensor." + name}


def in_the_table(table=None):
    names = set()
    for op in table if table is not None else op_db.OPS:
        for n in (op.name, *op.aliases, *op.covers):
            names |= qualified(n)
    return names


def missing_ops(table=None, public=None):
    """The public ops in no entry (an in-place form ``op_`` is in the table, or not an op, with
    ``op``)."""
    covered, excluded = in_the_table(table), not_ops()
    out = []
    for name in sorted((public_ops() if public is None else public) - excluded):
        if name in covered or (name.endswith("_") and not name.endswith("__") and name[:-1] in covered | excluded):
            continue
        out.append(name)
    return out


def test_every_public_op_is_in_the_table():
    missing = missing_ops()
    assert not missing, (
        f"{len(missing)} public op(s) of minigrad are in no entry of the op table, tests/op_db.py's OPS: "
        f"{', '.join(missing)}.\nFor each, add an OpInfo (name as PyTorch spells it, alphabetically): "
        f"vs_torch samples (compared with PyTorch by tests/ops/test_ops_vs_torch.py: record PyTorch's "
        f"answers with `make record` and commit tests/recordings/) and, if it is differentiable, "
        f"gradcheck samples (tests/ops/test_gradcheck.py); or, if it is another name of an entry's op, "
        f"add it to that entry's aliases; or, if it is not an op (creation, a dtype or device "
        f"utility, ...), add it to NOT_OPS in tests/ops/test_op_db.py with its group's reason.")


def test_the_coverage_test_can_fail(monkeypatch):
    """A new function of torch.*, a new Tensor method and a new nn.functional function, in no
    entry, are reported; an in-place form of a table op is not; an op that leaves the table is."""
    monkeypatch.setattr(minigrad, "brand_new_op", lambda x: x, raising=False)
    monkeypatch.setattr(minigrad.Tensor, "brand_new_method", lambda self: self, raising=False)
    monkeypatch.setattr(minigrad.nn.functional, "brand_new_loss", lambda x: x, raising=False)
    monkeypatch.setattr(minigrad.Tensor, "exp2_", lambda self: self, raising=False)
    assert {"brand_new_op", "Tensor.brand_new_method", "nn.functional.brand_new_loss"} <= set(missing_ops())
    assert "Tensor.exp2_" not in missing_ops()
    without_exp = [op for op in op_db.OPS if op.name != "exp"]
    assert {"exp", "Tensor.exp", "Tensor.exp_"} <= set(missing_ops(without_exp))


def test_not_ops_are_public_names():
    """NOT_OPS lists only names that exist (a renamed or removed function leaves it)."""
    public = public_ops()
    stale = sorted(n for group in NOT_OPS.values() for n in group.split() if not qualified(n) & public)
    assert not stale, f"NOT_OPS names what minigrad does not have (remove them): {stale}"


def test_no_op_is_both_in_the_table_and_not_an_op():
    both = sorted(not_ops() & in_the_table())
    assert not both, f"in the table and in NOT_OPS: {both}"


# ---------------------------------------------------------------------------------------------
# Names, aliases and what the samples call
# ---------------------------------------------------------------------------------------------


def resolve(name):
    """minigrad's object of a qualified name, or None."""
    if name.startswith("Tensor."):
        return inspect.getattr_static(minigrad.Tensor, name[len("Tensor."):], None)
    obj = minigrad
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


@pytest.mark.parametrize("op", op_db.OPS, ids=lambda op: op.name)
def test_entry_names_a_public_op(op):
    assert any(resolve(n) is not None for n in qualified(op.name)), \
        f"{op.name!r} is not a public name of minigrad's (torch.*, Tensor, linalg, special, nn.functional)"


_LIBS = {"lib", "minigrad", "torch", "mg"}
_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.Pow: "pow",
           ast.MatMult: "matmul", ast.Mod: "mod", ast.FloorDiv: "floordiv"}


def _chain(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


def calls_in(tree):
    """The qualified names an expression calls or reads: ``lib.exp`` "exp", ``x.exp`` "Tensor.exp",
    ``F.gelu`` "nn.functional.gelu", ``a + b`` "Tensor.__add__" and "Tensor.__radd__", ``x[i]``
    "Tensor.__getitem__"."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain = _chain(node)
            if chain and chain[0] in _LIBS:
                names.add(".".join(chain[1:]))
            elif chain and chain[0] == "F":
                names.add("nn.functional." + ".".join(chain[1:]))
            else:
                names.add("Tensor." + node.attr)
        elif isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            names |= {f"Tensor.__{_BINOPS[type(node.op)]}__", f"Tensor.__r{_BINOPS[type(node.op)]}__"}
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            names.add("Tensor.__neg__")
        elif isinstance(node, ast.Subscript):
            names.add("Tensor.__getitem__")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "abs":
            names.add("Tensor.__abs__")
    return names


def fuzz_line(family, template):
    """The Python expression a fuzz template stands for (fuzz.py's ``_op_text``)."""
    text = template
    for key, value in {"{v}": "v", "{a}": "a", "{b}": "b", "{d}": "0", "{k}": "True", "{shape}": "(2, 3)",
                       "{ndim}": "2", "{sts}": "1", "{rest}": "1"}.items():
        text = text.replace(key, value)
    if family == "activation":
        return "torch.nn.functional." + text
    if family in ("unary", "reduce", "dim", "shape") and not text.startswith(("torch.", "v")):
        return "v." + text
    return text


def entry_calls():
    """{entry name: the qualified names its samples and fuzz templates call}, read from the
    source of tests/op_db.py."""
    tree = ast.parse(Path(op_db.__file__).read_text(encoding="utf-8"))
    ops = next(n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "OPS")
    out = {}
    for call in ops.value.elts:
        name = call.args[0].value
        names = set()
        for kw in call.keywords:
            if kw.arg in ("vs_torch", "gradcheck"):
                names |= calls_in(kw.value)
        op = op_db.by_name()[name]
        for family, templates in op.fuzz.items():
            for t in templates:
                names |= calls_in(ast.parse(fuzz_line(family, t), mode="eval"))
        out[name] = names
    return out


def test_an_alias_is_the_op():
    """An alias is the same function as the entry's op (as ``torch.*`` function or Tensor method), or
    one of the entry's samples calls it; an op an entry covers is called by one of its samples."""
    calls = entry_calls()
    wrong = []
    for op in op_db.OPS:
        for alias in op.aliases:
            same = any(resolve(a) is not None and resolve(a) is resolve(b)
                       for a in qualified(alias) for b in qualified(op.name))
            if not same and not qualified(alias) & calls[op.name]:
                wrong.append(f"{op.name}: alias {alias!r}")
        for other in op.covers:
            if not qualified(other) & calls[op.name]:
                wrong.append(f"{op.name}: covers {other!r}")
    assert not wrong, ("these other names are neither the entry's function nor called by its samples "
                       f"(add a sample that calls them, or their own entry): {wrong}")


def test_calls_in_reads_the_spellings():
    """calls_in, which the alias test relies on, tells the spellings apart."""
    tree = ast.parse("lambda lib, x, a: (lib.exp(x), x.sin(), F.gelu(x), lib.linalg.det(x), "
                     "lib.nn.functional.elu(x), 2 ** x, x[0], -x, abs(x))")
    assert {"exp", "Tensor.sin", "nn.functional.gelu", "linalg.det", "nn.functional.elu", "Tensor.__rpow__",
            "Tensor.__getitem__", "Tensor.__neg__", "Tensor.__abs__"} <= calls_in(tree)
    assert "Tensor.exp" not in calls_in(tree) and "gelu" not in calls_in(tree)


# ---------------------------------------------------------------------------------------------
# Flags and known differences
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", op_db.OPS, ids=lambda op: op.name)
def test_entry_is_consistent(op):
    assert op.vs_torch or op.gradcheck or op.fuzz, f"{op.name}: an entry without samples"
    if not op.differentiable:
        assert not op.gradcheck, f"{op.name}: differentiable=False, yet gradcheck samples"
    if not op.gradgrad:
        assert not [s for s in op.gradcheck if "second" in s.orders], \
            f"{op.name}: gradgrad=False, yet second-order samples"
    unknown = [k for k in op.known if k not in fuzz.KNOWN_DIFFERENCES]
    assert not unknown, f"{op.name}: known={unknown} are not keys of fuzz.KNOWN_DIFFERENCES"
    assert set(op.fuzz) <= {"unary", "activation", "scalar", "binary", "reduce", "dim", "shape"}, op.fuzz


def test_entries_are_unique_and_in_order():
    names = [op.name for op in op_db.OPS]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    key = [n.lstrip("_").lower() for n in names]
    assert key == sorted(key), "the entries are alphabetical (by name, leading underscores aside)"
