"""``torch.utils.checkpoint``: keep less for backward, compute it again when backward needs it.

A graph keeps, for backward, what each op saved in forward (see it with
``torch.autograd.graph.saved_tensors_hooks``). ``checkpoint(function, *args)`` runs
``function`` so that the graph keeps only its inputs; backward runs ``function`` again to
get the rest. Memory for time. Two variants, as in PyTorch 2.13:

- ``use_reentrant=False`` (recommended): ``function`` runs with a ``saved_tensors_hooks`` of
  its own, whose ``pack`` keeps an empty *holder* instead of each tensor an op saves. The graph
  is the usual one (the output's ``grad_fn`` is its last op's node, ``ExpBackward0`` say);
  the first time backward unpacks a holder, ``function`` runs again on the saved inputs, under
  a second hook that puts each tensor saved into its holder, in order, and stops as soon as
  every holder is filled. An unpacked holder is emptied: a second backward
  (``retain_graph=True``) computes again.
- ``use_reentrant=True`` (PyTorch 2.13's default, with a warning when ``use_reentrant`` is not
  passed): one node, ``CheckpointFunctionBackward``, a ``Function`` whose forward runs
  ``function`` under ``no_grad`` and saves the inputs; its backward runs ``function`` again
  with grad on, and a backward through that (a backward inside backward: "reentrant").

Both put the random generator back as it was when forward ran, before they compute again
(``preserve_rng_state=True``): dropout inside draws the same mask twice.
What minigrad leaves out: ``debug=True``'s operator logs (it is accepted, and errors say
what PyTorch's say without them), devices other than the CPU, selective checkpointing
(``create_selective_checkpoint_contexts``), and the check that an input was not changed in
place between forward and backward (non-reentrant variant).
"""
import contextlib
import warnings
import weakref

from .. import _random, nn
from ..core import engine, function, grad_mode, graph
from ..core.tensor import TensorBase as _Tensor  # (every tensor is one)

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "noop_context_fn", "set_checkpoint_early_stop"]


class CheckpointError(RuntimeError):
    pass


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


def detach_variable(inputs):
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, _Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, _Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


def _is_checkpoint_valid():
    """False inside autograd.grad (or backward(inputs=...)): the reentrant variant's backward
    runs a backward of its own, into .grad, which such a pass must not touch."""
    return not (engine.tasks and engine.tasks[-1])


# -- use_reentrant=True: one node, CheckpointFunctionBackward ----------------------------------

class CheckpointFunction(function.Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = _random.get_rng_state()
        # The tensors are saved (saved_tensors_hooks sees them); the other arguments kept as they are.
        ctx.inputs = [None if isinstance(a, _Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, _Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, _Tensor)])
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing "
                "an `inputs` parameter to .backward(). To resolve this error, you can either set "
                "use_reentrant=False, or call .backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        with _random.fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                _random.set_rng_state(ctx.fwd_cpu_state)  # the same random draws as in forward
            detached = detach_variable(tuple(inputs))
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)  # forward again, recorded this time
        if isinstance(outputs, _Tensor):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, _Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        engine.backward([o for o, _ in pairs], [g for _, g in pairs])  # backward inside backward
        return (None, None) + tuple(inp.grad if isinstance(inp, _Tensor) else None for inp in detached)


# -- use_reentrant=False: the usual graph, its saved tensors computed again ----------------------

class _Holder:
    """What the graph keeps in place of a saved tensor: nothing, until computed again."""
    value = None
    filled = False


class _StopRecomputation(Exception):
    pass


_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


def _metadata(x):  # determinism_check="default": what must match between forward and recomputation
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_DETERMINISM_CHECKS = {"default": _metadata, "none": lambda x: None}


class _Frame:
    """One checkpointed call: its inputs, a weak reference to each holder its forward packed
    (in order), and how to run it again."""

    def __init__(self, recompute, early_stop, metadata):
        self.recompute, self.early_stop, self.metadata = recompute, early_stop, metadata
        self.inputs = []  # the arguments, each tensor as a graph saves it (through saved_tensors_hooks)
        self.holders = []  # weak references: a holder dies with the node that kept it (backward frees it)
        self.metadatas = []

    def save_inputs(self, args):
        hooks = graph.current_hooks()  # an enclosing checkpoint's, or the learner's
        hooked = hooks is not None
        self.inputs = [(hooks[1], hooks[0](a), a.requires_grad) if hooked and isinstance(a, _Tensor)
                       else (None, a, False) for a in args]

    def get_inputs(self):
        args = []
        for unpack, a, requires_grad in self.inputs:
            if unpack is not None:
                a = unpack(a)
                if requires_grad and not a.requires_grad:  # (an enclosing checkpoint's: detached)
                    a = a.detach().requires_grad_()  # so that the recomputation records, and saves
            args.append(a)
        return args

    def pack(self, x):  # in forward: keep a holder, not the tensor
        holder = _Holder()
        self.holders.append(weakref.ref(holder))
        self.metadatas.append(self.metadata(x))
        return holder

    def unpack(self, holder):  # in backward: compute again, if this holder is empty
        if not holder.filled:
            self.count = 0
            args = self.get_inputs()
            try:
                with graph.saved_tensors_hooks(self.refill, lambda x: x), grad_mode.enable_grad():
                    self.recompute(*args)
            except _StopRecomputation:
                pass
            self.check()
        value, holder.value, holder.filled = holder.value, None, False  # used once: freed at once
        return value

    def refill(self, x):  # in the recomputation: the i-th tensor saved goes into the i-th holder
        x = x.detach() if x.requires_grad else x
        if self.count >= len(self.holders):
            raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during "
                                  f"recomputation than during the original forward pass.\n{_DEBUG_TIP}")
        holder = self.holders[self.count]()
        self.count += 1
        if holder is not None:  # (None: backward has freed that node already)
            holder.value, holder.filled = x, True
        if self.early_stop and self.count == len(self.holders):
            raise _StopRecomputation  # everything the graph needs is there: stop
        return x

    def check(self):
        if self.count != len(self.holders):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original "
                f"forward and recomputation.\nNumber of tensors saved during forward: {len(self.holders)}\n"
                f"Number of tensors saved during recomputation: {self.count}.\n{_DEBUG_TIP}")
        different = ""
        for i, (ref, meta) in enumerate(zip(self.holders, self.metadatas)):
            holder = ref()
            if holder is not None and holder.filled and self.metadata(holder.value) != meta:
                different += (f"tensor at position {i}:\nsaved metadata: {meta}\n"
                              f"recomputed metadata: {self.metadata(holder.value)}\n")
        if different:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have different "
                f"metadata than during the forward pass.\n{different}.\n{_DEBUG_TIP}")


_early_stop = None  # set_checkpoint_early_stop's setting, if any


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """``with set_checkpoint_early_stop(False):`` the recomputation runs the whole function."""
    global _early_stop
    previous, _early_stop = _early_stop, enable
    try:
        yield
    finally:
        _early_stop = previous


def _checkpoint_without_reentrant(function, preserve_rng_state, context_fn, determinism_check, early_stop,
                                  args, kwargs):
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(f"determinism_check should be one of {list(_DETERMINISM_CHECKS)}, "
                         f"but got {determinism_check}")
    forward_context, recompute_context = context_fn()
    state = _random.get_rng_state() if preserve_rng_state else None

    def recompute(*inputs):
        with _random.fork_rng(enabled=preserve_rng_state):
            if preserve_rng_state:
                _random.set_rng_state(state)  # dropout draws the mask it drew in forward
            with recompute_context:
                function(*inputs, **kwargs)

    if not grad_mode.is_grad_enabled():  # nothing will be saved: just run it
        return function(*args, **kwargs)
    frame = _Frame(recompute, early_stop if _early_stop is None else _early_stop,
                   _DETERMINISM_CHECKS[determinism_check])
    frame.save_inputs(args)
    with graph.saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


# -- the two functions a learner calls -----------------------------------------------------------

def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn, determinism_check="default",
               debug=False, early_stop=True, **kwargs):
    """Run ``function(*args, **kwargs)`` keeping only its inputs for backward (see the module's doc)."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
            "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
            "use_reentrant=False is recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
            "differences between the two variants.",
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if debug and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    return _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check, early_stop,
                                         args, kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (an nn.Sequential, or a list) one after the other, in ``segments``
    pieces, each but the last checkpointed."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
            "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
            "use_reentrant=False is recommended, but if you need to preserve the current default behavior, "
            "you can pass use_reentrant=True. Refer to docs for more details on the differences between "
            "the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))

    def run_function(start, end):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input
        return forward

    if isinstance(functions, nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1  # the last segment runs as usual: its output is needed at once
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1)(input)
