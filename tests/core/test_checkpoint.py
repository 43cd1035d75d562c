"""``torch.utils.checkpoint``: what a checkpointed graph keeps, and what backward computes again.

Against PyTorch (tests/oracle.py), for both variants (``use_reentrant=True``: one
``CheckpointFunctionBackward`` node; ``False``: the usual nodes, their saved tensors computed
again) and for ``use_reentrant`` not passed (PyTorch 2.13: a warning, then the reentrant one):
values, gradients, ``grad_fn`` graphs, warnings and errors; the tensors (and bytes) the graph
keeps, seen with ``saved_tensors_hooks``, with and without checkpoint; how many times the
function runs; dropout inside (the same mask on recomputation); ``checkpoint_sequential``.
"""
import pytest

from oracle import caught, error_of

VARIANTS = {"reentrant": {"use_reentrant": True}, "non-reentrant": {"use_reentrant": False},
            "not passed": {}}


def leaves(T):
    x = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]], requires_grad=True)
    w = T.tensor([[1.5, 2.0], [-0.5, 0.5], [-2.0, 1.0]], requires_grad=True)
    return x, w


class Packed:
    """saved_tensors_hooks that list what the graph keeps: each tensor's shape, dtype, bytes."""

    def __init__(self, T):
        self.T, self.kept, self.unpacked = T, [], 0

    def pack(self, t):
        self.kept.append([list(t.shape), str(t.dtype), t.numel() * t.element_size()])
        return t

    def unpack(self, t):
        self.unpacked += 1
        return t

    def hooks(self):
        return self.T.autograd.graph.saved_tensors_hooks(self.pack, self.unpack)

    def answer(self):  # (sorted: the order in which an op packs its tensors is not the point here)
        return {"kept": sorted(self.kept), "bytes": sum(k[2] for k in self.kept), "unpacked": self.unpacked}


def counted(fn, calls):
    def run(*args, **kwargs):
        calls.append(len(calls))
        return fn(*args, **kwargs)
    return run


def block(x, w):
    return (x @ w).tanh().exp()


# The programs: each gets (T, checkpoint keywords) and returns what it compares.

def chain(T, kw):
    """A block of four ops: the graph keeps its inputs only; backward runs the block again."""
    x, w = leaves(T)
    calls, packed = [], Packed(T)
    with packed.hooks():
        y, warned = caught(lambda: T.utils.checkpoint.checkpoint(counted(block, calls), x, w, **kw))
        loss = (y * y).sum()
    forward_calls = len(calls)
    loss.backward()
    return {"y": y, "warnings": warned, "saved": packed.answer(), "calls": [forward_calls, len(calls)],
            "grads": [x.grad, w.grad]}


def no_checkpoint(T, kw):
    """The same block without checkpoint: what the graph keeps then (more bytes)."""
    x, w = leaves(T)
    packed = Packed(T)
    with packed.hooks():
        loss = (block(x, w) ** 2).sum()
    loss.backward()
    return {"saved": packed.answer(), "grads": [x.grad, w.grad]}


def input_without_grad(T, kw):
    """Only a tensor the function closes over requires grad (a module's weight, say)."""
    x, w = leaves(T)
    x = x.detach()
    y, warned = caught(lambda: T.utils.checkpoint.checkpoint(lambda a: a @ w, x, **kw))
    answer = {"y": y, "warnings": warned}
    answer["backward"] = error_of(lambda: y.sum().backward())
    answer["w.grad"] = w.grad
    return answer


def nothing_requires_grad(T, kw):
    x, _ = leaves(T)
    y, warned = caught(lambda: T.utils.checkpoint.checkpoint(T.exp, x.detach(), **kw))
    return {"y": y, "warnings": warned}


def under_no_grad(T, kw):
    x, w = leaves(T)
    calls = []
    with T.no_grad():
        y, warned = caught(lambda: T.utils.checkpoint.checkpoint(counted(block, calls), x, w, **kw))
    return {"y": y, "warnings": warned, "calls": len(calls)}


def two_outputs(T, kw):
    x, w = leaves(T)
    y1, y2 = T.utils.checkpoint.checkpoint(lambda a, b: (a.exp(), b.sin()), x, w, **kw)
    y1.sum().backward()
    return {"y": [y1, y2], "grads": [x.grad, w.grad]}


def nested(T, kw):
    x, w = leaves(T)
    cp = T.utils.checkpoint.checkpoint
    calls = []
    inner = counted(lambda a: a.sin() * a, calls)
    y = cp(lambda a, b: cp(inner, a @ b, **kw).exp(), x, w, **kw)
    y.sum().backward()
    return {"y": y, "grads": [x.grad, w.grad], "inner calls": len(calls)}


def backward_twice(T, kw):
    x, w = leaves(T)
    calls = []
    y = T.utils.checkpoint.checkpoint(counted(block, calls), x, w, **kw)
    y.sum().backward(retain_graph=True)
    first = x.grad.clone()
    y.sum().backward()
    return {"grads": [first, x.grad], "calls": len(calls),
            "third": error_of(lambda: y.sum().backward())}


def keyword_arguments(T, kw):
    """Keyword arguments for the function: the non-reentrant variant only."""
    x, w = leaves(T)
    if kw.get("use_reentrant", True):
        return error_of(lambda: T.utils.checkpoint.checkpoint(lambda a, b=None: a @ b, x, b=w, **kw))
    y = T.utils.checkpoint.checkpoint(lambda a, b=None: a @ b, x, b=w, **kw)
    y.sum().backward()
    return {"y": y, "grads": [x.grad, w.grad]}


def non_tensor_argument(T, kw):
    x, w = leaves(T)
    y = T.utils.checkpoint.checkpoint(lambda a, p, b: (a ** p) @ b, x, 3, w, **kw)
    y.sum().backward()
    return {"y": y, "grads": [x.grad, w.grad]}


def autograd_grad(T, kw):
    x, w = leaves(T)
    y = T.utils.checkpoint.checkpoint(block, x, w, **kw)
    return error_of(lambda: T.autograd.grad(y.sum(), x)) if kw.get("use_reentrant", True) \
        else T.autograd.grad(y.sum(), x)


PROGRAMS = {f.__name__: f for f in (chain, input_without_grad, nothing_requires_grad,
                                    under_no_grad, two_outputs, nested, backward_twice, keyword_arguments,
                                    non_tensor_argument, autograd_grad)}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("program", PROGRAMS)
def test_checkpoint(oracle, program, variant):
    kw = VARIANTS[variant]
    # (with the warnings the program did not catch itself)
    oracle.same(lambda T: caught(PROGRAMS[program], T, dict(kw)))


def test_checkpoint_keeps_fewer_bytes_and_computes_again(oracle):
    """The course's point, in numbers: what the graph keeps with each variant and without
    checkpoint (same gradients), and how many times the block ran (once more in backward)."""
    def program(T):
        answer = {variant: chain(T, dict(VARIANTS[variant])) for variant in VARIANTS}
        answer = {variant: {"bytes": a["saved"]["bytes"], "calls": a["calls"], "grads": a["grads"]}
                  for variant, a in answer.items()}
        return answer | {"without": no_checkpoint(T, {})}
    answer = oracle.same(program)
    kept = [answer[v]["bytes"] for v in VARIANTS]
    assert kept == [kept[0]] * 3 and kept[0] < answer["without"]["saved"]["bytes"]
    assert answer["reentrant"]["calls"] == answer["non-reentrant"]["calls"] == [1, 2]


# -- dropout inside: the same mask when backward computes again -------------------------------

def dropout_block(T, x, w):
    return T.nn.functional.dropout(x @ w, p=0.5, training=True).tanh()


@pytest.mark.parametrize("variant", ["reentrant", "non-reentrant"])
@pytest.mark.parametrize("preserve", [True, False])
def test_dropout_inside_checkpoint(oracle, variant, preserve):
    """With preserve_rng_state (the default), the gradients are those of the same block without
    checkpoint; without it, backward draws another mask (the gradients PyTorch gives then)."""
    def program(T):
        T.manual_seed(0)
        x, w = T.randn(4, 3, requires_grad=True), T.randn(3, 5, requires_grad=True)
        y = T.utils.checkpoint.checkpoint(dropout_block, T, x, w, preserve_rng_state=preserve,
                                          **VARIANTS[variant])
        (y * y).sum().backward()
        after = T.rand(3)  # the generator goes on as if backward had drawn nothing
        T.manual_seed(0)
        x2, w2 = T.randn(4, 3, requires_grad=True), T.randn(3, 5, requires_grad=True)
        (dropout_block(T, x2, w2) ** 2).sum().backward()
        return {"y": y, "grads": [x.grad, w.grad], "after": after, "unchecked grads": [x2.grad, w2.grad],
                "same as unchecked": bool(T.allclose(x.grad, x2.grad) and T.allclose(w.grad, w2.grad))}
    answer = oracle.same(program, check_repr=False)  # (float32 sums: the last printed digit may differ)
    assert answer["same as unchecked"] is preserve


@pytest.mark.parametrize("variant", VARIANTS)
def test_checkpoint_sequential(oracle, variant):
    def program(T):
        T.manual_seed(0)
        net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Dropout(0.3), T.nn.Linear(4, 4),
                              T.nn.Tanh(), T.nn.Linear(4, 1))
        x = T.randn(5, 3, requires_grad=True)
        out, warned = caught(lambda: T.utils.checkpoint.checkpoint_sequential(net, 2, x, **VARIANTS[variant]))
        out.sum().backward()
        return {"out": out, "warnings": warned, "grads": [x.grad, net[0].weight.grad, net[5].bias.grad]}
    oracle.same(program)


# -- errors ---------------------------------------------------------------------------------------

ERRORS = {
    "keyword arguments, reentrant": lambda T, cp, x, w: cp(block, x, w=w, use_reentrant=True),
    "several unexpected": lambda T, cp, x, w: cp(block, x, w, use_reentrant=True, foo=1, bar=2),
    "context_fn, reentrant": lambda T, cp, x, w: cp(block, x, w, use_reentrant=True,
                                                    context_fn=lambda: (None, None)),
    "debug, reentrant": lambda T, cp, x, w: cp(block, x, w, use_reentrant=True, debug=True),
    "determinism_check": lambda T, cp, x, w: cp(block, x, w, use_reentrant=False, determinism_check="all"),
    "sequential keywords": lambda T, cp, x, w: T.utils.checkpoint.checkpoint_sequential(
        [T.exp], 1, x, use_reentrant=False, foo=1),
    "not a tuple": lambda T, cp, x, w: T.utils.checkpoint.detach_variable([x]),
}


@pytest.mark.parametrize("case", ERRORS)
def test_checkpoint_errors(oracle, case):
    oracle.same_error(lambda T: ERRORS[case](T, T.utils.checkpoint.checkpoint, *leaves(T)))


def test_recomputation_that_differs(oracle):
    """A function that saves other tensors when run again: PyTorch's CheckpointError (with
    determinism_check="none", the shapes are not compared)."""
    def program(T):
        answer = {}
        for name, kw in {"default": {}, "none": {"determinism_check": "none"}}.items():
            x, w = leaves(T)
            runs = []

            def fn(a):
                runs.append(1)
                return a.exp() if len(runs) == 1 else a[0].exp()
            y = T.utils.checkpoint.checkpoint(fn, x, use_reentrant=False, **kw)
            answer[name] = error_of(lambda: y.sum().backward())
            runs.clear()
            y = T.utils.checkpoint.checkpoint(fn, x, use_reentrant=False, **kw)
            runs.append(1)
            answer[name + ", more"] = error_of(lambda: (y * 1).sum().backward())
        return answer
    oracle.same(program)


def test_the_module_is_pytorchs_path(oracle):
    def program(T):
        import importlib
        module = importlib.import_module(T.__name__ + ".utils.checkpoint")
        names = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
                 "noop_context_fn", "detach_variable", "check_backward_validity", "set_checkpoint_early_stop"]
        return {"same module": module is T.utils.checkpoint,
                "has": [hasattr(module, n) for n in names],
                "error is a RuntimeError": issubclass(module.CheckpointError, RuntimeError),
                "node": T.utils.checkpoint.CheckpointFunction.__name__}
    oracle.same(program)


def test_early_stop_off_runs_the_whole_function(oracle):
    def program(T):
        x, w = leaves(T)
        seen = []

        def fn(a):
            seen.append("start")
            b = a.exp()
            seen.append("after exp")
            return b.sum()  # (saves nothing)
        counts = {}
        for stop in (True, False):
            seen.clear()
            with T.utils.checkpoint.set_checkpoint_early_stop(stop):
                y = T.utils.checkpoint.checkpoint(fn, x, use_reentrant=False)
            y.backward()
            counts[str(stop)] = list(seen)
        return counts
    oracle.same(program)
