"""minigrad.fusion: run a chain of elementwise ops as one pass over memory.

    from minigrad import fusion

    @fusion.fuse
    def f(x, y):
        return ((x * 3 - 1).tanh() * y).exp()

    out = f(x, y)              # one autograd node, FusedBackward, instead of five
    print(f.graph)             # the recorded instructions (the IR)
    print(f.kernel.source)     # the Python function they compile to

Eager mode runs each op over the whole array: it reads its inputs from memory and
writes a full-sized result back, op after op. The tracer here records the chain once,
on stand-in values, then generates one function that walks the inputs block by block
(a block fits in the CPU cache) and runs the whole chain on each block with in-place
NumPy ufuncs: each input is read once and the result written once.

The backward pass is derived from the same instructions (reverse mode over the list,
using the rules in ``GRADS``) and compiled the same way. It saves only the inputs and
recomputes the intermediate values block by block, trading a little arithmetic for
memory, as torch.compile's generated kernels do. Second-order gradients are not supported.
"""
import inspect
import re

import numpy as np

from ._tensor import Tensor
from .core import grad_mode
from .core.function import Function

BLOCK = 16384  # elements per block: a few of them fit in a CPU's L2 cache

# op -> the NumPy statement(s) computing it into ``{r}`` from ``{0}``, ``{1}``
KERNELS = {
    "add": "np.add({0}, {1}, out={r})", "sub": "np.subtract({0}, {1}, out={r})",
    "mul": "np.multiply({0}, {1}, out={r})", "div": "np.divide({0}, {1}, out={r})",
    "pow": "np.power({0}, {1}, out={r})", "neg": "np.negative({0}, out={r})",
    "exp": "np.exp({0}, out={r})", "log": "np.log({0}, out={r})",
    "sqrt": "np.sqrt({0}, out={r})", "tanh": "np.tanh({0}, out={r})",
    "relu": "relu({0}, out={r})", "gt": "np.greater({0}, {1}, out={r})",
    "threshold_backward": "threshold_backward({0}, {1}, out={r})",  # relu's backward (below)
    # 1 / (1 + exp(-x)), as minigrad's eager Sigmoid computes it, in four in-place steps
    "sigmoid": "np.negative({0}, out={r}); np.exp({r}, out={r}); np.add({r}, 1.0, out={r}); "
               "np.divide(1.0, {r}, out={r})",
}


def relu(x, out):
    """relu into ``out`` as eager minigrad's Relu computes it (minigrad/ops/pointwise.py): x's bits
    kept where x >= 0 or NaN (so -0. stays -0., as in PyTorch), cleared (+0.) where x < 0.
    (np.maximum(x, 0.) gives 0. or -0. at -0., depending on the CPU's vector unit.)"""
    np.copyto(out, x)  # (out's dtype: an input may be float32 in a float64 kernel)
    bits = np.dtype(f"u{out.itemsize}")  # an unsigned integer as wide as out's floats
    keep = np.less(out, 0).astype(bits)
    keep -= 1  # 1 - 1 = 0 where x < 0, 0 - 1 = all ones elsewhere
    np.bitwise_and(out.view(bits), keep, out=out.view(bits))


def threshold_backward(grad, y, out):
    """relu's backward into ``out``, as eager minigrad's ThresholdBackward: ``grad`` where the
    unit is on (relu's output ``y`` > 0, or NaN), +0. where it is off (y <= 0), even where
    grad is inf or NaN (grad * (y > 0) would give NaN there)."""
    bits = np.dtype(f"u{out.itemsize}")
    keep = np.less_equal(y, 0).astype(bits)  # first: out may be y's buffer (reused by the kernel)
    keep -= 1
    np.copyto(out, grad)
    np.bitwise_and(out.view(bits), keep, out=out.view(bits))


# op -> its backward rule: (gradient of the output, the output, *inputs) -> gradient of each
# input. Rules use only arithmetic (but relu's, which, as eager minigrad and PyTorch do, has an
# op of its own), so they run on arrays and on traced values alike. They are
# the backward formulas of minigrad/ops/arithmetic.py and pointwise.py written again, not taken from there: an
# op's backward works on Tensors and reads what its forward saved on ``ctx``, while these must
# be traced into instructions and replayed block by block from the inputs alone.
# tests/ops/test_fusion.py checks that both give the same gradients.
GRADS = {
    "add": lambda g, out, a, b: (g, g),
    "sub": lambda g, out, a, b: (g, -g),
    "mul": lambda g, out, a, b: (g * b, g * a),
    "div": lambda g, out, a, b: (g / b, -g * a / (b * b)),
    "pow": lambda g, out, x, p: (g * p * x ** (p - 1) if p != 0 else g * 0.0, None),
    "neg": lambda g, out, x: -g,
    "exp": lambda g, out, x: g * out,
    "log": lambda g, out, x: g / x,
    "sqrt": lambda g, out, x: g / (2 * out),
    "tanh": lambda g, out, x: g * (1 - out * out),
    "sigmoid": lambda g, out, x: g * out * (1 - out),
    "relu": lambda g, out, x: g._op("threshold_backward", out),
    "gt": lambda g, out, a, b: (None, None),  # a step: flat wherever it is differentiable
    "threshold_backward": lambda g, out, grad, y: (g._op("threshold_backward", y), None),
}


class FusionError(TypeError):
    """The traced function did something that is not an elementwise op on its inputs."""


class Graph:
    """The IR: ``inputs`` named values, then one instruction ``(op, args)`` per recorded op.

    Value ``i`` is input ``i`` for ``i < len(inputs)``, else the result of instruction
    ``i - len(inputs)``; an argument is a value number or a Python float (a constant).
    """

    def __init__(self, inputs):
        self.inputs, self.instrs, self.outputs = list(inputs), [], []

    def emit(self, op, *args):
        args = tuple(a.index if isinstance(a, Value) else float(a) for a in args)
        self.instrs.append((op, args))
        return Value(self, len(self.inputs) + len(self.instrs) - 1)

    def name(self, v):
        return repr(v) if isinstance(v, float) else self.inputs[v] if v < len(self.inputs) \
            else f"t{v - len(self.inputs)}"

    def __repr__(self):
        lines = [f"def fused({', '.join(self.inputs)}):"]
        for i, (op, args) in enumerate(self.instrs):
            lines.append(f"    t{i} = {op}({', '.join(self.name(a) for a in args)})")
        return "\n".join(lines + [f"    return {', '.join(self.name(v) for v in self.outputs)}"])

    def grad(self, wanted):
        """The backward graph: inputs (*self.inputs, grad), outputs the gradient of each
        input in ``wanted``. It replays the forward instructions (recomputing, not saving),
        then applies each op's rule from the last instruction to the first."""
        bwd = Graph(self.inputs + ["grad"])
        vals = [Value(bwd, i) for i in range(len(self.inputs))]
        for op, args in self.instrs:  # recompute the forward values
            vals.append(bwd.emit(op, *(vals[a] if isinstance(a, int) else a for a in args)))
        grads = {self.outputs[0]: Value(bwd, len(self.inputs))}
        for i in reversed(range(len(self.instrs))):
            op, args = self.instrs[i]
            out = len(self.inputs) + i
            if out not in grads:
                continue  # nothing downstream depends on it
            res = GRADS[op](grads[out], vals[out], *(vals[a] if isinstance(a, int) else a for a in args))
            for a, g in zip(args, res if isinstance(res, (tuple, list)) else (res,)):
                if isinstance(a, int) and g is not None:  # constants get no gradient
                    grads[a] = grads[a] + g if a in grads else g
        bwd.wanted = [i for i in wanted if i in grads]  # an input fn never used gets None
        bwd.outputs = [grads[i].index for i in bwd.wanted]
        return bwd.pruned()

    def pruned(self):
        """The same graph without instructions no output depends on (e.g. the gradients of
        constants, which the rules compute and nobody reads)."""
        n_in, needed = len(self.inputs), set(self.outputs)
        for i in reversed(range(len(self.instrs))):
            if n_in + i in needed:
                needed.update(a for a in self.instrs[i][1] if isinstance(a, int))
        new, renum = Graph(self.inputs), dict(enumerate(range(n_in)))
        for i, (op, args) in enumerate(self.instrs):
            if n_in + i in needed:
                renum[n_in + i] = len(new.inputs) + len(new.instrs)
                new.instrs.append((op, tuple(renum[a] if isinstance(a, int) else a for a in args)))
        new.outputs, new.wanted = [renum[v] for v in self.outputs], getattr(self, "wanted", None)
        return new


class Value:
    """A stand-in for a tensor while tracing: each op on it appends an instruction."""

    def __init__(self, graph, index):
        self.graph, self.index = graph, index

    def _op(self, op, *args):
        for a in args:
            if not isinstance(a, (Value, int, float)) or isinstance(a, bool):
                raise FusionError(f"fusion: {op}() got a {type(a).__name__}; a fused function can "
                                  "combine only its inputs and Python numbers")
        return self.graph.emit(op, self, *args)

    __add__ = __radd__ = lambda self, o: self._op("add", o)
    __mul__ = __rmul__ = lambda self, o: self._op("mul", o)
    __sub__ = lambda self, o: self._op("sub", o)
    __rsub__ = lambda self, o: self.graph.emit("sub", _const(o), self)
    __truediv__ = lambda self, o: self._op("div", o)
    __rtruediv__ = lambda self, o: self.graph.emit("div", _const(o), self)
    __neg__ = lambda self: self._op("neg")
    __gt__ = lambda self, o: self._op("gt", o)
    add, mul, sub, div, neg = __add__, __mul__, __sub__, __truediv__, __neg__
    # x.exp(), x.log(), ...: one method per unary op, each recording its own name
    exp, log, sqrt, tanh, sigmoid, relu = (lambda s, _op=op: s._op(_op) for op in
                                           ("exp", "log", "sqrt", "tanh", "sigmoid", "relu"))

    def __pow__(self, p):
        if not isinstance(p, (int, float)) or isinstance(p, bool):
            raise FusionError("fusion: only a number can be an exponent (x ** 2), not a tensor")
        return self._op("pow", p)

    pow = __pow__

    def reciprocal(self):
        return 1.0 / self

    def __bool__(self):
        raise FusionError("fusion: the traced function branches on a tensor's value (an if, "
                          "and, or, or a comparison used as a bool); a trace records one path only")

    def __repr__(self):
        return f"<traced value {self.graph.name(self.index)}>"

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):  # torch.exp(x) is x.exp()
        return getattr(args[0], func.__name__)(*args[1:], **(kwargs or {}))

    def __getattr__(self, name):  # any other tensor method: say why it cannot be traced
        if name.startswith("_"):  # Python's and IPython's probes (__array__, _repr_html_, ...)
            raise AttributeError(name)
        raise FusionError(f"fusion: {name}() is not an elementwise op, so it cannot be fused. "
                          f"Fusable: {', '.join(sorted(set(KERNELS) - {'gt', 'threshold_backward'}))}, "
                          "and +, -, *, /, ** with numbers. Call it outside the fused function.")

    def __matmul__(self, other):
        return self.matmul(other)

    __rmatmul__ = __matmul__


def _const(x):
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        raise FusionError(f"fusion: got a {type(x).__name__}; a fused function can combine only "
                          "its inputs and Python numbers")
    return float(x)


def trace(fn, *names):
    """Record ``fn`` as a Graph. ``names``: the inputs' names (default: fn's parameters)."""
    names = list(names) or list(inspect.signature(fn).parameters)
    graph = Graph(names)
    out = fn(*(Value(graph, i) for i in range(len(names))))
    if not isinstance(out, Value) or out.graph is not graph:
        raise FusionError(f"fusion: the traced function must return one tensor computed from its "
                          f"inputs; it returned {type(out).__name__}")
    graph.outputs = [out.index]
    return graph


class Kernel:
    """A Graph compiled to one Python function; ``.source`` is its text."""

    def __init__(self, graph, name="kernel"):
        self.graph, self.source = graph, _generate(graph, name)
        self.used = set(graph.outputs) | {a for _, args in graph.pruned().instrs
                                          for a in args if isinstance(a, int)}
        scope = {"np": np, "relu": relu, "threshold_backward": threshold_backward}
        exec(compile(self.source, f"<fused {name}>", "exec"), scope)  # noqa: S102 (our own generated code)
        self.fn = scope[name]

    def __call__(self, *arrays):
        """Evaluate on NumPy arrays (broadcast to one shape); returns one array per output."""
        used = [a for i, a in enumerate(arrays) if i in self.used]  # as eager: unused inputs
        shape = np.broadcast_shapes(*(a.shape for a in used))      # set neither shape nor dtype
        dtype = np.result_type(*used)
        flat = [np.broadcast_to(a, shape).reshape(-1) if i in self.used else a.reshape(-1)
                for i, a in enumerate(arrays)]  # a view, unless an input must be broadcast: a copy
        outs = [np.empty(shape, dtype) for _ in self.graph.outputs]
        with np.errstate(all="ignore"):  # log(0), exp(1000): inf and nan, silently, as eager does
            self.fn(*flat, *(o.reshape(-1) for o in outs), block=BLOCK)
        return outs


def _literal(c):
    return repr(c) if np.isfinite(c) else f"float('{c}')"  # inf and nan have no literal


def _generate(graph, name):
    """The source of ``name(*inputs, *outputs, block)``: a loop over blocks in which each
    instruction writes into a scratch buffer (reused once its value is dead) or, for the
    last step of an output, straight into the output."""
    n_in = len(graph.inputs)
    ok = len(set(graph.inputs)) == n_in and all(  # else in0, in1, ...: no clash with our names
        re.fullmatch(r"[A-Za-z](\w*[A-Za-z0-9])?", s)
        and not re.fullmatch(r"np|n|lo|hi|block|relu|threshold_backward|([soS]|out|in)\d+", s)
        for s in graph.inputs)
    params = graph.inputs if ok else [f"in{i}" for i in range(n_in)]
    graph = graph.pruned()
    last_use = {a: i for i, (_, args) in enumerate(graph.instrs) for a in args if isinstance(a, int)}
    where = {i: f"{p}_" for i, p in enumerate(params)}  # value -> the variable holding this block
    free, scratch, n_scratch, body, written = [], set(), 0, [], set()
    for i, (op, args) in enumerate(graph.instrs):
        v = n_in + i
        for a in {a for a in args if isinstance(a, int)}:  # read for the last time: buffer is free
            if last_use[a] == i and where[a] in scratch:
                free.append(where[a])
        if v in graph.outputs and v not in written:
            where[v] = f"o{graph.outputs.index(v)}"
            written.add(v)
        else:
            if not free:
                free.append(f"s{n_scratch}")
                n_scratch += 1
                scratch.add(free[-1])
            where[v] = free.pop()
        code = KERNELS[op].format(*(_literal(a) if isinstance(a, float) else where[a] for a in args),
                                  r=where[v])
        body.append(f"{code}  # {graph.name(v)} = {op}({', '.join(graph.name(a) for a in args)})")
    for k, v in enumerate(graph.outputs):  # an output no instruction wrote (an input, a duplicate)
        if where[v] != f"o{k}":
            body.append(f"o{k}[:] = {where[v]}")
    outs = [f"out{k}" for k in range(len(graph.outputs))]
    lines = [f"def {name}({', '.join(params + outs)}, block={BLOCK}):",
             "    n = out0.size",
             *(f"    S{j} = np.empty(min(n, block), out0.dtype)  # scratch, reused by every block"
               for j in range(n_scratch)),
             "    for lo in range(0, n, block):",
             "        hi = min(lo + block, n)",
             *(f"        {p}_ = {p}[lo:hi]" for p in params),
             *(f"        o{k} = out{k}[lo:hi]" for k in range(len(outs))),
             *(f"        s{j} = S{j}[:hi - lo]" for j in range(n_scratch)),
             *(f"        {line}" for line in body)]
    return "\n".join(lines) + "\n"


class Fused(Function):
    """The autograd node of a fused call: ``grad_fn`` prints as ``FusedBackward``."""

    @staticmethod
    def forward(ctx, fused, *inputs):
        ctx.fused = fused
        ctx.save_for_backward(*inputs)  # the inputs only: backward recomputes the rest
        out, = fused.kernel(*(t._data for t in inputs))
        return Tensor._wrap(out)

    @staticmethod
    def backward(ctx, grad):
        if grad_mode.is_grad_enabled():
            raise RuntimeError("fusion: create_graph=True is not supported: the fused backward "
                               "is not itself recorded, so it cannot be differentiated again")
        inputs = ctx.saved_tensors
        wanted = tuple(i for i, need in enumerate(ctx.needs_input_grad[1:]) if need)
        kernel = ctx.fused.backward_kernel(wanted)
        grads = kernel(*(t._data for t in inputs), grad._data)
        out = [None] * len(inputs)
        for i, g in zip(kernel.graph.wanted, grads):
            out[i] = Tensor._wrap(g)  # the engine sums broadcast gradients down, casts dtypes
        return (None, *out)


class FusedFunction:
    """What ``fuse(fn)`` returns: call it on tensors; ``.graph``, ``.kernel``,
    ``.backward_graph()`` and ``.backward_kernel()`` show what it runs."""

    def __init__(self, fn):
        self.fn, self.__name__, self.__doc__ = fn, getattr(fn, "__name__", "fused"), fn.__doc__
        self.graph = trace(fn)
        self.kernel = Kernel(self.graph, "fused_forward")
        self._backward = {}

    def backward_graph(self, wanted=None):
        return self.graph.grad(range(len(self.graph.inputs)) if wanted is None else wanted)

    def backward_kernel(self, wanted=None):
        wanted = tuple(range(len(self.graph.inputs)) if wanted is None else wanted)
        if wanted not in self._backward:
            self._backward[wanted] = Kernel(self.backward_graph(wanted), "fused_backward")
        return self._backward[wanted]

    def __call__(self, *inputs):
        if len(inputs) != len(self.graph.inputs):
            raise TypeError(f"{self.__name__}() takes {len(self.graph.inputs)} tensors, got {len(inputs)}")
        for t in inputs:
            if not isinstance(t, Tensor) or not t.dtype.is_floating_point:
                raise TypeError(f"{self.__name__}(): every input must be a floating-point tensor, "
                                f"got {t.dtype if isinstance(t, Tensor) else type(t).__name__}")
        return Fused.apply(self, *inputs)


def fuse(fn):
    """Trace ``fn`` (a function of tensors made of elementwise ops) once and return a
    FusedFunction that runs it as one kernel and one autograd node."""
    return FusedFunction(fn)
