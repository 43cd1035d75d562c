"""What a node saved, under PyTorch's names: ``y.grad_fn._saved_result``, ``_saved_self``...

PyTorch's nodes show every value their backward formula uses as an attribute named after
the formula's argument in ``derivatives.yaml``: ``_saved_`` + ``self``, ``other``, ``mat2``
(the op's inputs), ``result`` (its output), ``dim``, ``alpha`` (its other arguments),
``self_sym_sizes`` (an input's shape, all the backward of ``sum`` needs). minigrad's ops keep
the same values their own way: the tensors in the slots of ``ctx.save_for_backward``, the
rest as attributes of ``ctx``. ``SAVED`` says, per node, where each PyTorch name's value is:

- a number: that ``save_for_backward`` slot. Read as backward reads it (``saved_tensors``):
  through ``saved_tensors_hooks``' unpack, checked for in-place changes, and, once backward
  has freed the graph, PyTorch's "Trying to backward through the graph a second time" error.
  A slot the op left empty (``a * b`` with ``b`` a constant keeps no ``a``) reads None, as in
  PyTorch;
- a function of the node: a value that is no tensor (an input's shape, ``dim``, ``alpha``).
  These stay after backward, as in PyTorch.

``install()`` gives each op's node class one property per row (so ``dir(node)`` lists them,
as PyTorch's). Not shown: ``_raw_saved_*`` (PyTorch's SavedTensor objects) and the
``*_sym_strides`` of ``mm`` and ``addmm`` (minigrad keeps no strides of an input it did not save).
"""
from ..core.function import Function
from ..core.node import SECOND_BACKWARD


def _size(i):
    """The shape of the op's i-th argument (the node keeps every input's shape and dtype)."""
    return lambda node: node._inputs[i][0]


def _numel(i):
    def numel(node):
        n = 1
        for s in node._inputs[i][0]:
            n *= s
        return n
    return numel


def _ctx(name, default=None, convert=None):
    """An attribute the op's forward set on ctx (``ctx.dim``), or ``default`` if it set none."""
    def value(node):
        v = getattr(node, name, default)
        return convert(v) if convert is not None and v is not None else v
    return value


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}  # PyTorch's at::Reduction enum, as its nodes show it
_RESULT = {"result": 0}
_SELF = {"self": 0}
_SELF_OTHER = {"self": 0, "other": 1}
_ALPHA = {"alpha": _ctx("alpha", 1)}
_DIM = {"dim": _ctx("dim")}
_REDUCED = {"dim": _ctx("dims", convert=tuple), "keepdim": _ctx("keepdim")}

SAVED = {
    # elementwise: the output (its derivative is written with it) or the input
    "ExpBackward0": _RESULT, "SigmoidBackward0": _RESULT, "TanhBackward0": _RESULT,
    "ReluBackward0": _RESULT, "SqrtBackward0": _RESULT,
    "LogBackward0": _SELF, "AbsBackward0": _SELF,
    "ClampBackward1": {"self": 0, "min": lambda n: n.bounds[0], "max": lambda n: n.bounds[1]},
    "ClampMinBackward0": {"self": 0, "min": _ctx("bound")},
    "ClampMaxBackward0": {"self": 0, "max": _ctx("bound")},
    # arithmetic
    "AddBackward0": _ALPHA, "SubBackward0": _ALPHA, "RsubBackward1": _ALPHA,
    "MulBackward0": _SELF_OTHER, "DivBackward0": _SELF_OTHER,
    "PowBackward0": {"self": 0, "exponent": _ctx("exponent")},
    "PowBackward1": {"self": 0, "exponent": 1, "result": 2},
    # matrix products
    "MmBackward0": {"self": 1, "mat2": 0, "self_sym_sizes": _size(0), "mat2_sym_sizes": _size(1)},
    "MvBackward0": {"self": 0, "vec": 1},
    "DotBackward0": {"self": 0, "tensor": 1},
    "BmmBackward0": {"self": 1, "mat2": 0},
    "AddmmBackward0": {"alpha": _ctx("alpha", 1), "beta": _ctx("beta", 1), "mat1": 0, "mat2": 1,
                       "mat1_sym_sizes": _size(1), "mat2_sym_sizes": _size(2)},
    # reductions
    "SumBackward0": {"self_sym_sizes": _size(0)},
    "SumBackward1": {**_REDUCED, "self_sym_sizes": _size(0)},
    "MeanBackward0": {"self_sym_numel": _numel(0), "self_sym_sizes": _size(0)},
    "MeanBackward1": {**_REDUCED, "self_sym_numel": _numel(0), "self_sym_sizes": _size(0)},
    "MaxBackward1": {"self": 0, "result": 1}, "MinBackward1": {"self": 0, "result": 1},
    "MaxBackward0": {**_DIM, "indices": 0, "keepdim": _ctx("keepdim"), "self_sym_sizes": _size(0)},
    "MinBackward0": {**_DIM, "indices": 0, "keepdim": _ctx("keepdim"), "self_sym_sizes": _size(0)},
    # shapes
    "ViewBackward0": {"self_sym_sizes": _size(0)}, "UnsafeViewBackward0": {"self_sym_sizes": _size(0)},
    "TransposeBackward0": {"dim0": lambda n: n.dims[0], "dim1": lambda n: n.dims[1]},
    "UnsqueezeBackward0": _DIM, "CatBackward0": _DIM,
    # nn
    "SoftmaxBackward0": {**_DIM, "result": 0}, "LogSoftmaxBackward0": {**_DIM, "result": 0},
    "MseLossBackward0": {"reduction": lambda n: _REDUCTIONS[n.reduction], "self": 0, "target": 1},
    "NativeBatchNormBackward0": {"input": 0, "weight": 1, "running_mean": 2, "running_var": 3,
                                 "result1": 4, "result2": 5, "training": _ctx("training"),
                                 "eps": _ctx("eps")},
}


def saved_slot(node, i):
    """The tensor in ``save_for_backward`` slot ``i``, as backward would get it."""
    if node._packed is None:
        raise RuntimeError(SECOND_BACKWARD)
    if i >= len(node._packed) or node._packed[i] is None:
        return None
    return node._unpack(node._packed[i], node._packed_versions[i])


def _property(where):
    if isinstance(where, int):
        return property(lambda node: saved_slot(node, where))
    return property(where)


def _node_classes(cls=Function):
    for sub in cls.__subclasses__():
        yield sub._node_cls
        yield from _node_classes(sub)


def install():
    """Give each op's node class a ``_saved_<name>`` property per row of SAVED; return the
    node names that found a class (each should: tests/core/test_graph.py checks)."""
    found = set()
    for node_cls in _node_classes():
        names = SAVED.get(node_cls.__name__)
        if names and node_cls._builtin:
            for name, where in names.items():
                setattr(node_cls, "_saved_" + name, _property(where))
            found.add(node_cls.__name__)
    return found
