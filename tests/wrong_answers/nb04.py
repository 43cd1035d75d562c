"""Typical wrong answers for the exercises of notebook 04 (see tests/wrong_answers/__init__.py)."""

_SIGMOID = '''\
class MySigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = 1 / (1 + torch.exp(-x))
        {save}
        return s

    @staticmethod
    def backward(ctx, grad_output):
        {load}
        return {grad}'''


def _sigmoid(grad, save="ctx.save_for_backward(s)", load="s, = ctx.saved_tensors"):
    return _SIGMOID.format(save=save, load=load, grad=grad)


_GATE = '''\
class MyGate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gate):
        s = torch.sigmoid(gate)
        {save}
        return x * s

    @staticmethod
    def backward(ctx, grad_output):
        {load}
        return {grads}'''


def _gate(grads, save="ctx.save_for_backward(x, s)", load="x, s = ctx.saved_tensors"):
    return _GATE.format(save=save, load=load, grads=grads)


_FORBID_SIGMOID = ["1 - s", "s * (1 - s)", "(1 - sigmoid"]
_FORBID_GATE = ["s * (1 - s)", "x * s", "1 - sigmoid", "grad_output * s"]
_FORBID_SAVED = ["exp", "sigmoid", "log", "mm", "pow", "(n, 10)", "(100, 10)", "4000"]


def _saved(bytes_="(n * 100 + 100 * 10) * 4 + 4 * n * 10 * 4", **changed):
    """An answer to exercise 3: the right dict with ``changed`` entries, and ``bytes_``."""
    saves = {"mm": "inputs", "exp": "result", "add": "nothing", "log": "inputs",
             "pow": "inputs", "sigmoid": "result", "sum": "nothing", **changed}
    return f"    saves = {saves!r}\n    return saves, {bytes_}"

WRONG = {
    "nb04_my_sigmoid": [
        ("forgets_grad_output", _sigmoid("s * (1 - s)"), "does not depend on grad_output",
         _FORBID_SIGMOID),
        ("sigmoid_twice", _sigmoid("grad_output * torch.sigmoid(s) * (1 - torch.sigmoid(s))"),
         "applied twice", _FORBID_SIGMOID),
        ("uses_x_itself", _sigmoid("grad_output * x * (1 - x)", save="ctx.save_for_backward(x)",
                                   load="x, = ctx.saved_tensors"), "uses x itself", _FORBID_SIGMOID),
        ("wrong_sign", _sigmoid("grad_output * s * (s - 1)"), "sign is wrong", _FORBID_SIGMOID),
        ("not_saved", _sigmoid("grad_output * s * (1 - s)", save="ctx.s = s", load="s = ctx.s"),
         "saved nothing", _FORBID_SIGMOID),
    ],
    "nb04_my_gate": [
        ("one_gradient", _gate("grad_output * s"), "wrong number of gradients", _FORBID_GATE),
        ("forgets_grad_output", _gate("s, x * s * (1 - s)"), "does not depend on grad_output",
         _FORBID_GATE),
        ("no_sigmoid_derivative", _gate("grad_output * s, grad_output * x * s"),
         "goes through the sigmoid", _FORBID_GATE),
        ("gate_ignores_x", _gate("grad_output * s, grad_output * s * (1 - s)"), "ignores x",
         _FORBID_GATE),
        ("swapped", _gate("grad_output * x * s * (1 - s), grad_output * s"), "swapped",
         _FORBID_GATE),
        ("not_saved", _gate("grad_output * ctx.s, grad_output * ctx.x * ctx.s * (1 - ctx.s)",
                            save="ctx.x, ctx.s = x, s", load="pass"), "saved nothing", _FORBID_GATE),
    ],
    "nb04_predict_saved": [
        ("exp_sigmoid_save_inputs", _saved(exp="inputs", sigmoid="inputs"),
         "Not all of your 7 answers", _FORBID_SAVED),
        ("every_node_saves_inputs",
         _saved(exp="inputs", add="inputs", sigmoid="inputs", sum="inputs"),
         "every node keeps its inputs", _FORBID_SAVED),
        ("mm_saves_result", _saved(mm="result", bytes_="4 * n * 10 * 4 + n * 10 * 4"),
         "Not all of your 7 answers", _FORBID_SAVED),
        ("counts_elements", _saved(bytes_="n * 100 + 100 * 10 + 4 * n * 10"),
         "count of elements", _FORBID_SAVED),
        ("forgets_w", _saved(bytes_="n * 100 * 4 + 4 * n * 10 * 4"), "does not grow with n",
         _FORBID_SAVED),
        ("shapes_of_a", _saved(bytes_="(n * 100 + 100 * 10) * 4 + 4 * n * 100 * 4"),
         "shape of each saved tensor", _FORBID_SAVED),
        ("ignores_n", _saved(bytes_="8160"), "same for every n", _FORBID_SAVED),
    ],
}
