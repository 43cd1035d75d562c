"""What the course's prose says about PyTorch, checked against PyTorch (recorded, tests/oracle.py).

Most claims of the notebooks are shown by a cell whose output tests/test_course_torch.py compares
under PyTorch. The ones that a cell does not show (because the cell draws with ``minigrad.viz``,
prints random numbers, or the claim is only in the text) are checked here, one short test per
claim, named after the notebook that makes it. A test asserts the claim on PyTorch's answer and,
where minigrad can answer too, that minigrad answers the same.
"""
import math
import re
from pathlib import Path

import pytest
import yaml

import minigrad
from oracle import graph_text


def node_name(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def saved_tensors_of(node):
    """The names of the tensors a built-in PyTorch node saved (its ``_saved_*`` attributes
    that hold a tensor), without the ``_saved_`` prefix."""
    import torch

    return sorted(name[len("_saved_"):] for name in dir(node)
                  if name.startswith("_saved_") and isinstance(getattr(node, name), torch.Tensor))


# --- 00 · Start here ----------------------------------------------------------------------

def test_00_backward_adds_into_grad_on_every_call(oracle):
    """'backward() adds to .grad, so rerunning a cell that computes a result and calls
    backward() ... adds a second copy to the first.'"""
    def program(torch):
        side = torch.tensor(1.5, requires_grad=True)
        grads = []
        for _ in range(2):
            (side * side).backward()
            grads.append(side.grad.clone())
        return grads

    first, second = oracle.same(program)
    assert (first.item(), second.item()) == (3.0, 6.0)


def test_00_rerunning_only_backward_fails(oracle):
    """'Rerunning a cell that only calls backward() can even fail with an error, because the
    first call freed the values the graph had kept for it.'"""
    def program(torch):
        side = torch.tensor(1.5, requires_grad=True)
        area = side * side
        area.backward()
        area.backward()

    error = oracle.same_error(program)
    assert error.type == "RuntimeError" and "backward through the graph a second time" in error.message


def test_00_dtypes_of_ints_and_floats(oracle):
    """'torch.tensor(3) makes an integer tensor (dtype torch.int64)'; the default floating-point
    dtype is torch.float32."""
    def program(torch):
        return [str(torch.tensor(3).dtype), str(torch.tensor(0.5).dtype)]

    assert oracle.same(program) == ["torch.int64", "torch.float32"]


def test_00_a_python_float_is_cut_off_from_autograd(oracle):
    """'A Python float has no grad_fn: whatever you compute from it ... is invisible to
    autograd, even if you turn it back into a tensor'; backward from it fails with 'element 0
    of tensors does not require grad' (03 says so too)."""
    def program(torch):
        w = torch.tensor(0.5, requires_grad=True)
        cut = torch.tensor(math.exp(w.item()))
        assert cut.grad_fn is None and not cut.requires_grad
        (cut * 2).backward()

    error = oracle.same_error(program)
    assert "element 0 of tensors does not require grad" in error.message


# --- 02 · The graph -------------------------------------------------------------------------

def test_02_the_number_in_a_node_name_tells_variants_apart(oracle):
    """'x.max() over all elements gives MaxBackward1, x.max(dim=0) gives MaxBackward0.'"""
    def program(torch):
        x = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
        return [node_name(x.max()), node_name(x.max(dim=0).values)]

    assert oracle.same(program) == ["MaxBackward1", "MaxBackward0"]


def test_02_a_node_prints_with_its_memory_address(oracle):
    """'Each node prints with its memory address, <MulBackward0 object at 0x...>, in PyTorch
    as in minigrad.'"""
    def program(torch):
        v = torch.tensor(0.5, requires_grad=True)
        node = (v * 2).grad_fn
        return [bool(re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>", text))
                for text in (str(node), repr(node))]

    assert oracle.same(program) == [True, True]


def test_02_a_linear_layer_is_one_addmm_node(oracle):
    """'AddmmBackward0 is one Linear layer, bias + input @ weight.T as a single operation with
    three inputs (bias, input, transposed weight)'; the data input needs no gradient: None
    (02's and 06's graphs are drawn with minigrad.viz, so not compared by the PyTorch run)."""
    def program(torch):
        layer = torch.nn.Linear(3, 2)
        x = torch.ones(4, 3)
        out = torch.relu(layer(x))
        return graph_text(out.grad_fn)

    assert oracle.same(program) == \
        "ReluBackward0(AddmmBackward0(AccumulateGrad:0, None:0, TBackward0(AccumulateGrad:0):0):0)"


def test_02_step_and_zero_grad_record_nothing(oracle):
    """'step() changes the parameters' values using their .grad, without recording anything';
    'zero_grad() resets the .grad ... (to None, by default in recent PyTorch)'."""
    def program(torch):
        layer = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
        layer(torch.ones(3, 2)).sum().backward()
        optimizer.step()
        after_step = [layer.weight.grad_fn is None, layer.weight.is_leaf, layer.weight.requires_grad]
        optimizer.zero_grad()
        return after_step + [layer.weight.grad is None]

    assert oracle.same(program) == [True, True, True, True]


def test_02_the_graph_follows_the_python_code(oracle):
    """A loop records its body once per pass, an if only the branch taken (02 shows these
    graphs with viz.print_graph, left out of the PyTorch run)."""
    def program(torch):
        def power_by_loop(x, n):
            y = x
            for _ in range(n - 1):
                y = y * x
            return y

        def scaled_square_sum(x):
            m = x.abs().max()
            if m > 1:
                x = x / m
            return (x ** 2).sum()

        x = torch.tensor(1.2, requires_grad=True)
        small = torch.tensor([0.5, -0.2], requires_grad=True)
        big = torch.tensor([3.0, -4.0], requires_grad=True)
        return [graph_text(power_by_loop(x, 2).grad_fn), graph_text(power_by_loop(x, 4).grad_fn),
                graph_text(scaled_square_sum(small).grad_fn), graph_text(scaled_square_sum(big).grad_fn)]

    two, four, small, big = oracle.same(program)
    assert two.count("MulBackward0") == 1 and four.count("MulBackward0") == 3
    assert small == "SumBackward0(PowBackward0(AccumulateGrad:0):0)"
    assert "DivBackward0" in big and "MaxBackward1(AbsBackward0(@AccumulateGrad:0):0)" in big


def test_02_one_node_for_several_outputs(oracle):
    """'Such an operation records one node for all of its outputs: each output has that same node
    as its grad_fn' (split, chunk, unbind, linalg.qr), 'a tensor knows its own number too, as
    output_nr'; the node 'waits until a gradient has arrived for every edge that leads to it, then
    runs once' (a node prehook sees both pieces' gradients in one call), 'a piece that nothing used
    counts as zeros'."""
    def program(torch):
        w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        pieces = {"split": w.split(2), "chunk": w.chunk(2), "unbind": w.reshape(2, 2).unbind(),
                  "qr": torch.linalg.qr(w.reshape(2, 2))}
        same = {name: [p.grad_fn is ps[0].grad_fn for p in ps] for name, ps in pieces.items()}
        numbers = {name: [p.output_nr for p in ps] for name, ps in pieces.items()}
        left, right = pieces["split"]
        calls = []
        left.grad_fn.register_prehook(lambda grads: calls.append(len(grads)))
        (left * right).sum().backward()
        a, b, c = w.split([1, 2, 1])
        w.grad = None
        (b * 10).sum().backward()
        return same, numbers, calls, w.grad

    same, numbers, calls, grad = oracle.same(program)
    assert all(all(s) for s in same.values()) and numbers["split"] == [0, 1] and calls == [2]
    assert grad.tolist() == [0.0, 10.0, 10.0, 0.0]


def test_02_a_node_runs_once_with_the_sum_of_its_gradients(oracle):
    """'It runs a node only once all of them have arrived, and passes on their sum' (02), and
    05's engine, which 'sums the gradients a node receives before the node runs'."""
    def program(torch):
        calls = []

        class Probe(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 1

            @staticmethod
            def backward(ctx, grad_output):
                calls.append(grad_output.item())
                return grad_output

        x = torch.tensor(1.0, requires_grad=True)
        y = Probe.apply(x)
        (y * 2 + y * 3).backward()
        return calls

    assert oracle.same(program) == [5.0]


# --- 04 · Inside a node -----------------------------------------------------------------------

def test_04_what_each_node_saves(oracle):
    """04's table (and 05's): MulBackward0 keeps both inputs, AddBackward0 nothing,
    ExpBackward0 its result, PowBackward0 its input, ReluBackward0 its result, SumBackward0
    only the input's shape; TanhBackward0 and SigmoidBackward0 their result; a Linear layer's
    AddmmBackward0 its input and its (transposed) weight. PyTorch only: minigrad's nodes show
    what they saved through viz.saved_memory instead (04's tables)."""
    def program(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([0.5, -1.0], requires_grad=True)
        layer = torch.nn.Linear(2, 3)
        out = {"mul": a * b, "add": a + b, "exp": a.exp(), "pow": a ** 3, "relu": a.relu(),
               "sum": a.sum(), "tanh": a.tanh(), "sigmoid": a.sigmoid(), "linear": layer(a[None])}
        answer = {k: saved_tensors_of(t.grad_fn) for k, t in out.items()}
        answer["sum shape"] = [n for n in dir(out["sum"].grad_fn) if n.startswith("_saved_")]
        return answer

    saved = oracle(program)
    assert saved["mul"] == ["other", "self"]
    assert saved["add"] == []
    assert saved["exp"] == saved["tanh"] == saved["sigmoid"] == saved["relu"] == ["result"]
    assert saved["pow"] == ["self"]
    assert saved["sum"] == [] and saved["sum shape"] == ["_saved_self_sym_sizes"]
    assert saved["linear"] == ["mat1", "mat2"]


def test_04_a_function_forward_records_nothing_and_ctx_is_the_node(oracle):
    """'forward runs with recording switched off'; 'ctx is the node itself: the object that
    becomes the result's grad_fn'; 'ctx.needs_input_grad is a tuple of booleans', a number's
    place in backward's answer is None."""
    def program(torch):
        seen = {}

        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, w, k):
                seen["recording"] = torch.is_grad_enabled()
                seen["ctx"] = ctx
                seen["needs"] = ctx.needs_input_grad
                return x * w * k

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output, None, None

        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = Scale.apply(x, torch.tensor(3.0), 2.0)
        y.sum().backward()
        return [seen["recording"], y.grad_fn is seen["ctx"], list(seen["needs"]), x.grad]

    recording, ctx_is_node, needs, grad = oracle.same(program)
    assert recording is False and ctx_is_node is True and needs == [True, False, False]


def test_04_a_saved_tensor_changed_in_place_is_an_error(oracle):
    """'autograd ... raises an error if one was changed in place between forward and
    backward'."""
    def program(torch):
        class Cube(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            def backward(ctx, grad_output):
                (x,) = ctx.saved_tensors
                return grad_output * 3 * x ** 2

        a = torch.tensor([1.0, 2.0], requires_grad=True) * 1
        y = Cube.apply(a)
        a.add_(1)
        y.sum().backward()

    error = oracle.same_error(program)
    assert "modified by an inplace operation" in error.message


def test_04_gradcheck_raises_showing_both_jacobians(oracle):
    """'with the default raise_exception=True, gradcheck raises an error showing both
    Jacobians'."""
    def program(torch):
        class ForgotTheThree(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            def backward(ctx, grad_output):
                (x,) = ctx.saved_tensors
                return grad_output * x ** 2

        x = torch.tensor([-1.0, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
        try:
            torch.autograd.gradcheck(ForgotTheThree.apply, (x,))
        except RuntimeError as error:
            text = str(error)
            return [type(error).__name__, "Jacobian mismatch" in text,
                    "numerical:" in text.lower(), "analytical:" in text.lower()]
        return "no error"

    assert oracle.same(program) == ["GradcheckError", True, True, True]


def test_04_no_grad_records_no_graph(oracle):
    """'Under torch.no_grad(), nothing is recorded, so no graph and no saved tensors' (04's
    cell is minigrad-only: it measures the saved bytes)."""
    def program(torch):
        layer = torch.nn.Linear(3, 2)
        with torch.no_grad():
            out = layer(torch.ones(4, 3)).pow(2).mean()
        return [out.grad_fn is None, out.requires_grad]

    assert oracle.same(program) == [True, False]


# --- 05 · Building backward yourself ------------------------------------------------------------

def test_05_among_ready_nodes_the_newest_runs_first(oracle):
    """'among the nodes that are ready, it runs the most recently created one first, as
    PyTorch does'."""
    def program(torch):
        order = []

        def probe(name):
            class Probe(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x * 1

                @staticmethod
                def backward(ctx, grad_output):
                    order.append(name)
                    return grad_output
            return Probe

        x = torch.tensor(1.0, requires_grad=True)
        old = probe("older").apply(x)
        new = probe("newer").apply(x)
        (old + new).backward()
        return order

    assert oracle.same(program) == ["newer", "older"]


def test_05_a_ready_accumulategrad_node_runs_first_however_old(oracle):
    """'with one exception: a leaf's AccumulateGrad node runs as soon as it is ready, however
    old its leaf is ... (PyTorch ranks these nodes ahead of all others)'. The hook of a leaf
    runs when its AccumulateGrad node does."""
    def program(torch):
        order = []

        class Probe(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 1

            @staticmethod
            def backward(ctx, grad_output):
                order.append("newer node")
                return grad_output

        w = torch.tensor(2.0, requires_grad=True)
        unused = w * 1        # noqa: F841 (w's AccumulateGrad node is made here, before Probe's)
        w.register_hook(lambda grad: order.append("w's AccumulateGrad"))
        newer = Probe.apply(torch.tensor(1.0, requires_grad=True))
        (w * newer).backward()   # then both are ready at once
        return order

    assert oracle.same(program) == ["w's AccumulateGrad", "newer node"]


def test_05_retain_graph_keeps_what_the_nodes_saved(oracle):
    """'after a node has run it frees what the node saved, unless retain_graph=True'."""
    def program(torch):
        x = torch.tensor(3.0, requires_grad=True)
        y = x * x
        y.backward(retain_graph=True)
        y.backward()
        return x.grad

    assert oracle.same(program).item() == 12.0


# --- 06 · Tensors and vector-Jacobian products -------------------------------------------------
# Every claim of 05 about PyTorch's behaviour is shown by a compared cell (the Linear graph,
# drawn with viz, is test_02_a_linear_layer_is_one_addmm_node).

# --- 10 · Operator fusion ----------------------------------------------------------------------

def test_10_torch_compile_makes_one_node_and_breaks_the_graph_at_a_branch(oracle):
    """'the whole compiled region then appears as one node, CompiledFunctionBackward'; a branch
    on a tensor's value causes a graph break, not an error; after a recompilation caused by a
    changed size, that dimension is compiled as dynamic; a plain Python number is a constant
    of the graph, guarded; past the limit of versions a function runs eagerly. PyTorch only (minigrad has no
    torch.compile; notebook 10 shows its own tracer instead)."""
    def program(torch):
        from torch._dynamo.testing import CompileCounter

        def chain(x, y):
            return ((x * 3 - 1).tanh() * y).exp()

        def branchy(x):
            if x.sum() > 0:
                return x * 2
            return x * 3

        torch._dynamo.reset()
        x = torch.linspace(-1, 1, 6, requires_grad=True)
        y = torch.linspace(0, 1, 6, requires_grad=True)
        z = torch.compile(chain, backend="aot_eager")(x, y)
        same = bool(torch.allclose(z, chain(x, y)))
        b = torch.compile(branchy, backend="aot_eager")(x)
        torch._dynamo.reset()  # forget the sizes seen above
        counter = CompileCounter()
        compiled = torch.compile(chain, backend=counter)
        for n in (4, 5, 6, 7):
            compiled(torch.ones(n), torch.ones(n))
        sizes = counter.frame_count

        def scale(x, k):
            return x * k

        counter = CompileCounter()
        compiled = torch.compile(scale, backend=counter)
        compiled(torch.ones(3), 1.0)
        compiled(torch.ones(3), 2.0)          # the number 1.0 was a constant: a guard fails
        numbers = counter.frame_count

        counter = CompileCounter()
        compiled = torch.compile(lambda x: x * 2, backend=counter)
        with torch._dynamo.config.patch(recompile_limit=1):
            right = [bool(torch.equal(compiled(torch.ones(n)), torch.full((n,), 2.0))) for n in (4, 5, 6)]
        return [type(z.grad_fn).__name__, same, bool(torch.equal(b, branchy(x))), sizes, numbers,
                counter.frame_count, right]

    assert oracle(program) == ["CompiledFunctionBackward", True, True, 2, 2, 1, [True, True, True]]


# --- 11 · Capstone ---------------------------------------------------------------------------

def test_11_state_dict_holds_the_parameters_themselves(oracle):
    """'model.state_dict() returns those very tensors (detached from the graph, but on the same
    memory), so keeping it does not keep the numbers it had' (11's cell prints random numbers,
    not compared)."""
    def program(torch):
        layer = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
        kept = layer.state_dict()
        before = kept["bias"].clone()
        layer(torch.ones(3, 2)).sum().backward()
        optimizer.step()
        return [kept["bias"].requires_grad, bool(torch.equal(kept["bias"], layer.bias.detach())),
                bool(torch.equal(kept["bias"], before))]

    assert oracle.same(program) == [False, True, False]


def test_11_the_graph_of_a_classifier_step(oracle):
    """'each Linear layer is one AddmmBackward0 node ..., ReluBackward0 is the activation, and
    MulBackward0 is dropout's multiplication by its random mask. CrossEntropyLoss appears as
    its two halves, LogSoftmaxBackward0 and NllLossBackward0' (11 draws it with viz)."""
    def program(torch):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(), torch.nn.Dropout(0.2),
                                    torch.nn.Linear(5, 3))
        loss = torch.nn.CrossEntropyLoss()(model(torch.ones(6, 4)), torch.tensor([0, 1, 2, 0, 1, 2]))
        return graph_text(loss.grad_fn)

    assert oracle.same(program) == (
        "NllLossBackward0(LogSoftmaxBackward0(AddmmBackward0(AccumulateGrad:0, "
        "MulBackward0(ReluBackward0(AddmmBackward0(AccumulateGrad:0, None:0, "
        "TBackward0(AccumulateGrad:0):0):0):0, None:0):0, TBackward0(AccumulateGrad:0):0):0):0)")


def test_11_dropout_zeroes_some_and_scales_the_rest(oracle):
    """'Dropout(0.2) sets a random fifth of the activations to 0 during training (and scales the
    rest by 1 / 0.8)'; in evaluation mode it passes its input unchanged. Which elements are
    zeroed is random: the answer is the set of values and the fraction of zeros, rounded."""
    def program(torch):
        torch.manual_seed(0)
        drop = torch.nn.Dropout(0.2)
        out = drop(torch.ones(10_000))
        values = sorted({round(v, 6) for v in out.tolist()})
        zeros = round((out == 0).float().mean().item(), 1)
        drop.eval()
        return [values, zeros, bool(torch.equal(drop(torch.ones(5)), torch.ones(5)))]

    assert oracle.same(program) == [[0.0, 1.25], 0.2, True]


def test_11_batch_norm_in_evaluation_mode_treats_each_example_on_its_own(oracle):
    """'in evaluation mode every example is computed on its own (... a batch norm layer would
    use its running statistics)'; in training mode it normalises with the batch's own."""
    def program(torch):
        norm = torch.nn.BatchNorm1d(2)
        batch = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0], [2.0, 4.0]])
        alone_train = norm(batch[:2])[0]
        together_train = norm(batch)[0]
        norm.eval()
        return [bool(torch.allclose(alone_train, together_train)),
                bool(torch.allclose(norm(batch[:2])[0], norm(batch)[0]))]

    assert oracle.same(program) == [False, True]


def test_11_under_pytorch_the_model_ends_up_about_as_accurate():
    """'The same code runs under PyTorch ... the model ends up about as accurate': PyTorch's
    run of notebook 11 (recorded by tests/test_course_torch.py) raised no error and its test
    accuracy passes the notebook's own bar."""
    recording = (Path(__file__).parent / "recordings" / "test_course_torch" /
                 "test_notebook_prints_under_pytorch_what_it_prints_under_minigrad" / "11_capstone.yml")
    cells = yaml.safe_load(recording.read_text())["answer"]
    assert not [cell for cell in cells.values() if "error" in cell]
    printed = "".join(cell.get("stdout", "") for cell in cells.values())
    accuracy = float(re.search(r"test accuracy ([0-9.]+)", printed).group(1))
    assert accuracy >= 0.95
