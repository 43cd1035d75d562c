"""PyTorch's autograd error messages, word for word.

Each case is code that must fail, written once against a module ``T`` (minigrad or
PyTorch). ``test_minigrad_*`` checks minigrad against the literal text below, so the
messages are pinned; ``test_pytorch_*`` checks that PyTorch's text (run live, or its
recording where PyTorch is not installed: tests/oracle.py) is the literal too (a warning
from PyTorch may end in " (Triggered internally at ...)": only the prefix is compared).
"""
import warnings

import pytest

import minigrad
from oracle import ErrorRecord, raised, warning_text

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")

HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True, check_nan=False).")

NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")


# --- the failing code --------------------------------------------------------------------------

def no_grad_fn(T):
    T.ones(2).sum().backward()


def non_scalar_implicit(T):
    x = T.ones(2, requires_grad=True)
    (x * 2).backward()


def second_backward(T):
    x = T.ones(2, requires_grad=True)
    y = x.exp().sum()
    y.backward()
    y.backward()


def second_autograd_grad(T):
    x = T.ones(2, requires_grad=True)
    y = (x * x).sum()
    T.autograd.grad(y, x)
    T.autograd.grad(y, x)


def inplace_on_leaf(T):
    x = T.ones(2, requires_grad=True)
    x.add_(1)


def modified_saved_tensor(T):
    x = T.ones(2, 2, requires_grad=True)
    h = x.exp()
    y = h.exp()
    h.add_(1)
    y.sum().backward()


def modified_saved_leaf(T):
    w = T.ones(2, requires_grad=True)
    y = (w * w).sum()
    with T.no_grad():
        w.add_(1)
    y.backward()


def weight_changed_before_backward(T):
    """optimizer.step() (or any in-place update) between forward and backward: Linear saved
    weight.t(), a view that shares the weight's version counter."""
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Linear(4, 2))
    loss = net(T.ones(5, 3)).sum()
    with T.no_grad():
        net[1].weight.add_(1)
    loss.backward()


def modified_view_base(T):
    x = T.ones(3, 2, requires_grad=True)
    h = x.exp()
    y = (h[0] * h[0]).sum()  # saves the view h[0]
    h.mul_(2)
    y.backward()


def modified_saved_double(T):
    x = T.ones(3, dtype=T.float64, requires_grad=True)
    h = x.exp()
    y = (h * h).sum()
    h.add_(1)
    h.mul_(3)
    y.backward()


def int_tensor_requires_grad(T):
    T.tensor([1, 2], requires_grad=True)


def int_requires_grad_(T):
    T.tensor([1, 2]).requires_grad_()


def int_requires_grad_setter(T):
    T.tensor([1, 2]).requires_grad = True


def matmul_mismatch(T):
    T.ones(2, 3) @ T.ones(2, 3)


def mm_mismatch(T):
    T.ones(4, 5).mm(T.ones(4, 5))


def unused_input(T):
    a = T.ones(1, requires_grad=True)
    b = T.ones(1, requires_grad=True)
    T.autograd.grad((a * 2).sum(), [a, b])


def input_without_grad(T):
    a = T.ones(1, requires_grad=True)
    T.autograd.grad((a * 2).sum(), [T.ones(1)])


def hook_without_grad(T):
    T.ones(1).register_hook(lambda g: g)


def retain_grad_without_grad(T):
    T.ones(1).retain_grad()


def requires_grad_of_non_leaf(T):
    x = T.ones(1, requires_grad=True)
    (x * 2).requires_grad = False


def function_wrong_count(T):
    class X(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, grad):
            return grad

    a = T.ones(2, 2, requires_grad=True)
    X.apply(a, a).sum().backward()


def function_invalid_shape(T):
    class X(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            return T.ones(1)

    X.apply(T.ones(2, 2, requires_grad=True)).sum().backward()


def anomaly_nan(T):
    x = T.zeros(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with T.autograd.detect_anomaly():
            (x.sqrt() * 0).sum().backward()


def grad_of_wrong_size(T):
    x = T.ones(2, requires_grad=True)
    x.grad = T.ones(3)


ERRORS = [
    # (code, exception type, exact message): the messages the issue lists ...
    (no_grad_fn, RuntimeError,
     "element 0 of tensors does not require grad and does not have a grad_fn"),
    (non_scalar_implicit, RuntimeError, "grad can be implicitly created only for scalar outputs"),
    (second_backward, RuntimeError, SECOND_BACKWARD),
    (inplace_on_leaf, RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (modified_saved_tensor, RuntimeError,
     "one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.FloatTensor [2, 2]], which is output 0 of Exp, is at version 1; expected "
     "version 0 instead. " + HINT),
    (int_tensor_requires_grad, RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    (int_requires_grad_, RuntimeError, "only Tensors of floating point dtype can require gradients"),
    (matmul_mismatch, RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    # ... and the same families in other spellings
    (second_autograd_grad, RuntimeError, SECOND_BACKWARD),
    (modified_saved_leaf, RuntimeError,
     "one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.FloatTensor [2]] is at version 1; expected version 0 instead. " + HINT),
    (weight_changed_before_backward, RuntimeError,
     "one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.FloatTensor [4, 2]], which is output 0 of AsStrided, is at version 2; "
     "expected version 1 instead. " + HINT),
    (modified_view_base, RuntimeError,
     "one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at version 1; "
     "expected version 0 instead. " + HINT),
    (modified_saved_double, RuntimeError,
     "one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.DoubleTensor [3]], which is output 0 of Mul, is at version 2; expected "
     "version 0 instead. " + HINT),
    pytest.param(
        int_requires_grad_setter, RuntimeError,
        "only Tensors of floating point and complex dtype can require gradients",
        id="int_requires_grad_setter"),
    (mm_mismatch, RuntimeError, "mat1 and mat2 shapes cannot be multiplied (4x5 and 4x5)"),
    # ... and other autograd errors minigrad reproduces
    (unused_input, RuntimeError,
     "The differentiated Tensor at index 1 appears to not have been used in the graph. "
     "Set allow_unused=True if this is the desired behavior."),
    (input_without_grad, RuntimeError, "One of the differentiated Tensors does not require grad"),
    (hook_without_grad, RuntimeError,
     "cannot register a hook on a tensor that doesn't require gradient"),
    (retain_grad_without_grad, RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"),
    (requires_grad_of_non_leaf, RuntimeError,
     "you can only change requires_grad flags of leaf variables. If you want to use a computed "
     "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."),
    (function_wrong_count, RuntimeError,
     "function XBackward returned an incorrect number of gradients (expected 2, got 1)"),
    (function_invalid_shape, RuntimeError,
     "Function XBackward returned an invalid gradient at index 0 - got [1] but expected shape "
     "compatible with [2, 2]"),
    (anomaly_nan, RuntimeError, "Function 'SqrtBackward0' returned nan values in its 0th output."),
    pytest.param(
        grad_of_wrong_size, RuntimeError,
        "attempting to assign a gradient of size '[3]' to a tensor of size '[2]'. Please ensure "
        "that the gradient and the tensor are the same size",
        id="grad_of_wrong_size"),
]


IDS = [(c.values[0] if hasattr(c, "values") else c[0]).__name__ for c in ERRORS]


@pytest.mark.parametrize("code, exc_type, message", ERRORS, ids=IDS)
def test_minigrad_error(code, exc_type, message):
    with pytest.raises(exc_type) as e:
        code(minigrad)
    assert type(e.value) is exc_type
    assert str(e.value) == message


@pytest.mark.parametrize("code, exc_type, message",
                         [c.values[:3] if hasattr(c, "values") else c for c in ERRORS], ids=IDS)
def test_pytorch_error(oracle, code, exc_type, message):
    theirs = oracle(raised(code))
    assert theirs == ErrorRecord(exc_type.__name__, message)


# --- the warning ---------------------------------------------------------------------------------

def non_leaf_grad(T):
    x = T.ones(2, requires_grad=True)
    h = x * 2
    (h * 3).sum().backward()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        value = h.grad
    return value, rec


def test_minigrad_non_leaf_grad_warning():
    value, rec = non_leaf_grad(minigrad)
    assert value is None
    assert len(rec) == 1
    assert rec[0].category is UserWarning
    assert str(rec[0].message) == NON_LEAF_GRAD


def test_minigrad_non_leaf_grad_warning_points_at_caller():
    with pytest.warns(UserWarning) as rec:
        x = minigrad.ones(1, requires_grad=True)
        (x * 2).grad
    assert rec[0].filename == __file__


def non_leaf_grad_answer(T):
    value, rec = non_leaf_grad(T)
    return value, [warning_text(w) for w in rec]


def test_pytorch_non_leaf_grad_warning(oracle):
    value, warnings_ = oracle(non_leaf_grad_answer)
    assert value is None
    assert warnings_ == [("UserWarning", NON_LEAF_GRAD)]


def test_minigrad_and_pytorch_warning_agree(oracle):
    mine, theirs = oracle.both(non_leaf_grad_answer)
    assert mine == theirs


def test_minigrad_float_of_tensor_that_requires_grad_warns_once(monkeypatch):
    """float(x) on a tensor that requires grad: PyTorch's UserWarning, once per process."""
    monkeypatch.setattr(minigrad.Tensor, "_warned_float", False)
    x = minigrad.tensor(2.0, requires_grad=True)
    with pytest.warns(UserWarning, match=r"Converting a tensor with requires_grad=True to a scalar may "
                                         r"lead to unexpected behavior\.\nConsider using tensor\.detach\(\) first\."):
        assert float(x) == 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        float(x)  # once only
        float(minigrad.tensor(3.0))  # no grad: never
        x.item()  # item() does not warn, in PyTorch either
