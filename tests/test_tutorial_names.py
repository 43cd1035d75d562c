"""Names that common tutorials use, against PyTorch (issue 26b): Adam and RMSprop written
from scratch (``addcmul_``, ``addcdiv_``), ``addmm`` with its factors, the methods
``allclose``, ``isclose``, ``equal``, and makemore's ``multinomial``.

Each program runs in both libraries from the same NumPy inputs (PyTorch's answer recorded,
tests/oracle.py): values, dtypes, ``grad_fn`` names, gradients and error texts.
Finite-difference checks of the gradients are in test_gradcheck.py (NEW_OPS).
"""
import numpy as np
import pytest

from test_vs_torch import FLOATS, compare, run_case

# ---------------------------------------------------------------------------------------------
# addcmul, addcdiv: input + value * tensor1 (* or /) tensor2
# ---------------------------------------------------------------------------------------------

ADDC = {
    "addcmul": lambda lib, x, a, b: x.addcmul(a, b),
    "torch.addcmul value": lambda lib, x, a, b: lib.addcmul(x, a, b, value=0.25),
    "addcdiv value": lambda lib, x, a, b: x.addcdiv(a, b, value=-3),
    "torch.addcdiv": lambda lib, x, a, b: lib.addcdiv(x, a, b),
    "addcmul_ of clone": lambda lib, x, a, b: (x * 1).addcmul_(a, b, value=0.5),
    "addcdiv_ of clone": lambda lib, x, a, b: (x * 1).addcdiv_(a, b, value=2),
}
ADDC_SHAPES = {"same": ((2, 3), (2, 3), (2, 3)), "broadcast": ((2, 3), (3,), (2, 1)),
               "0-d input": ((), (2, 3), (3,))}


@FLOATS
@pytest.mark.parametrize("shapes", ADDC_SHAPES.values(), ids=ADDC_SHAPES.keys())
@pytest.mark.parametrize("name", ADDC)
def test_addc(oracle, name, shapes, fdt):
    if name.endswith("_ of clone") and shapes[0] == ():
        pytest.skip("in place: a 0-d tensor cannot hold the broadcast result (test_addc_errors)")
    run_case(oracle, ADDC[name], [(shapes[0], "f", True), (shapes[1], "f", True), (shapes[2], "pos", True)],
             fdt, grad="rand")


ADDC_DTYPES = {
    "int": [np.array([1, 2, 3]), np.array([2, -1, 4]), np.array([3, 3, -2])],
    "int value 0.5 (cast to 0)": [np.array([1, 2, 3]), np.array([2, -1, 4]), np.array([3, 3, -2])],
    "float input, int tensors": [np.array([1.5, 2.0], np.float32), np.array([1, 2]), np.array([3, 4])],
    "int input, float64 tensor": [np.array([1, 2]), np.array([1.5, 2.0]), np.array([3.0, 4.0], np.float32)],
    "f32 tensors, f64 0-d": [np.array([1.5, 2.0], np.float32), np.array([0.5, 2.0], np.float32),
                             np.array(3.0)],
    "f32, f64": [np.array([1.5, 2.0], np.float32), np.array([0.5, 2.0], np.float64),
                 np.array([3.0, 0.1], np.float32)],
}


@pytest.mark.parametrize("name", ADDC_DTYPES)
@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
def test_addc_promotion(oracle, op, name):
    """The three tensors promote as PyTorch's (a 0-d tensor does not outrank one with
    dimensions); ``value`` does not take part: it is cast to the result's dtype."""
    arrays = ADDC_DTYPES[name]
    if op == "addcdiv" and all(a.dtype.kind == "i" for a in arrays[1:]):
        pytest.skip("integer addcdiv is an error (test_addc_errors)")
    value = 0.5 if "0.5" in name else 2
    flags = [a.dtype.kind == "f" for a in arrays]
    compare(oracle, lambda lib, *ts: getattr(lib, op)(*ts, value=value), arrays, flags)


def test_adam_from_scratch(oracle):
    """The update of a hand-written Adam (no_grad, in place), three steps, as the tutorials
    write it; then the same ops recorded, with their in-place grad_fn names."""
    def program(lib):
        p = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
        m, v = lib.zeros_like(p), lib.zeros_like(p)
        lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
        for step in range(1, 4):
            p.grad = None
            ((p ** 3).sum() + (p * p.sin()).sum()).backward()
            with lib.no_grad():
                m.mul_(b1).add_(p.grad, alpha=1 - b1)
                v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                denom = (v.sqrt() / (1 - b2 ** step) ** 0.5).add_(eps)
                p.addcdiv_(m, denom, value=-lr / (1 - b1 ** step))
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        y.addcmul_(x, x, value=0.5).addcdiv_(x, x + 1, value=2)
        y.sum().backward()
        return {"p": p.detach(), "m": m, "v": v, "y": y, "x.grad": x.grad}

    oracle.same(program)


def test_addc_errors(oracle):
    def program(lib):
        f, i = lib.ones(3), lib.tensor([1, 2, 3])
        b = lib.tensor([True, False, True])
        cases = {
            "addcdiv of ints": lambda: lib.addcdiv(f, i, i),
            "addcdiv of int tensors, int input": lambda: i.addcdiv(i, i),
            "addcdiv of bools": lambda: f.addcdiv(b, b),
            "addcmul of bools": lambda: lib.addcmul(b, b, b),
            "shapes do not broadcast": lambda: lib.addcmul(f, lib.ones(4), f),
            "tensor2 does not broadcast": lambda: f.addcdiv(lib.ones(2, 1), lib.ones(2, 4)),
            "in place grows": lambda: f.addcmul_(lib.ones(2, 3), f),
            "in place int into float": lambda: i.addcmul_(f, f),
            "number as tensor2": lambda: lib.addcmul(f, f, 2),
            "number as input": lambda: lib.addcdiv(1.0, f, f),
            "method: number as tensor1": lambda: f.addcmul(2.0, f),
            "value given by position": lambda: lib.addcmul(f, f, f, 2),
            "leaf in place": lambda: lib.ones(3, requires_grad=True).addcmul_(f, f),
        }
        out = {}
        for name, case in cases.items():
            try:
                case()
                out[name] = "no error"
            except Exception as e:  # noqa: BLE001 (the error is the answer)
                out[name] = f"{type(e).__name__}: {e}"
        return out

    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# addmm: beta * input + alpha * (mat1 @ mat2)
# ---------------------------------------------------------------------------------------------

ADDMM = {
    "torch.addmm": lambda lib, x, a, b: lib.addmm(x, a, b),
    "addmm beta alpha": lambda lib, x, a, b: x.addmm(a, b, beta=0.5, alpha=-2),
    "torch.addmm alpha": lambda lib, x, a, b: lib.addmm(x, a, b, alpha=3),
    "addmm beta=0": lambda lib, x, a, b: x.addmm(a, b, beta=0),
}
ADDMM_SHAPES = {"full": (2, 4), "row": (4,), "column": (2, 1), "0-d": ()}


@FLOATS
@pytest.mark.parametrize("shape", ADDMM_SHAPES.values(), ids=ADDMM_SHAPES.keys())
@pytest.mark.parametrize("fn", ADDMM.values(), ids=ADDMM.keys())
def test_addmm(oracle, fn, shape, fdt):
    run_case(oracle, fn, [(shape, "f", True), ((2, 3), "f", True), ((3, 4), "f", True)], fdt, grad="rand")


def test_addmm_special_values(oracle):
    """beta = 0 ignores input, NaNs included (PyTorch's documented promise); integer tensors
    take the factors as integers (beta=0.5 is 0); no gradient for an input not needing one."""
    def program(lib):
        m1 = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        m2 = lib.tensor([[0.5, -1.0], [2.0, 1.0]])
        nan = lib.full((2,), float("nan"))
        out = lib.addmm(nan, m1, m2, beta=0, alpha=2)
        out.sum().backward()
        i = lib.tensor([[1, 2], [3, 4]])
        return {"beta=0": out, "m1.grad": m1.grad,
                "ints": lib.addmm(lib.ones(2, 2, dtype=lib.long), i, i, beta=3, alpha=2),
                "ints, beta 0.5": i.addmm(i, i, beta=0.5, alpha=1.9)}

    oracle.same(program)


def test_addmm_errors(oracle):
    def program(lib):
        m, n, b = lib.ones(2, 3), lib.ones(3, 4), lib.ones(4)
        cases = {
            "mat1 1-D": lambda: lib.addmm(b, m[0], n),
            "mat2 1-D": lambda: b.addmm(m, n[0]),
            "shapes": lambda: lib.addmm(b, m, lib.ones(2, 4)),
            "input does not expand": lambda: lib.addmm(lib.ones(3), m, n),
            "input has more dims": lambda: lib.addmm(lib.ones(1, 2, 4), m, n),
            "input double": lambda: lib.addmm(b.double(), m, n),
            "mat1 double": lambda: lib.addmm(b, m.double(), n),
            "mat2 double": lambda: b.addmm(m, n.double()),
            "mat1 int, mat2 int": lambda: b.addmm(m.long(), n.long()),
            "number input": lambda: lib.addmm(1.0, m, n),
            "number mat2": lambda: b.addmm(m, 2),
        }
        out = {}
        for name, case in cases.items():
            try:
                case()
                out[name] = "no error"
            except Exception as e:  # noqa: BLE001 (the error is the answer)
                out[name] = f"{type(e).__name__}: {e}"
        return out

    oracle.same(program)


# ---------------------------------------------------------------------------------------------
# isclose, allclose, equal (methods and functions)
# ---------------------------------------------------------------------------------------------


def test_closeness(oracle):
    def program(lib):
        inf, nan = float("inf"), float("nan")
        a = lib.tensor([1.0, 2.0, nan, inf, -inf, 1e10, 0.0, 1.0])
        b = lib.tensor([1.0, 2.00001, nan, inf, inf, 1.00001e10, 1e-9, 1.1])
        i, j = lib.tensor([1, 5, 100000001]), lib.tensor([2, 5, 100000002])
        flags = lib.tensor([True, False])
        return {
            "isclose": a.isclose(b),
            "torch.isclose equal_nan": lib.isclose(a, b, equal_nan=True),
            "isclose rtol=0 atol=0": a.isclose(b, rtol=0, atol=0),
            "isclose rtol=0.1": a.isclose(b, rtol=0.1),
            "isclose broadcast": lib.ones(3).isclose(lib.ones(2, 1)),
            "isclose of ints": i.isclose(j),
            "isclose of ints, rtol 0.5": i.isclose(j, rtol=0.5, atol=0),
            "isclose of ints, atol 0.5": lib.isclose(i, j, rtol=0, atol=0.5),
            "isclose of bools": flags.isclose(flags),
            "isclose requires_grad": lib.ones(2, requires_grad=True).isclose(lib.ones(2)),
            "allclose": a.allclose(b),
            "allclose equal_nan": a.allclose(b, equal_nan=True, atol=1e-8, rtol=0.1),
            "torch.allclose broadcast": lib.allclose(lib.ones(3), lib.ones(1)),
            "allclose of float64": a.double().allclose(b.double(), 1e-3, 1e-3, True),
            "equal": a.equal(a),
            "equal without NaN": a[:2].equal(a[:2].clone()),
            "equal float and int": lib.tensor([1.0, 2.0]).equal(lib.tensor([1, 2])),
            "torch.equal shapes": lib.equal(lib.ones(2, 1), lib.ones(2)),
            "equal broadcastable": lib.ones(1).equal(lib.ones(3)),
        }

    oracle.same(program)


CLOSENESS_ERRORS = {
    "isclose float and double": lambda lib: lib.ones(2).isclose(lib.ones(2).double()),
    "allclose float and long": lambda lib: lib.allclose(lib.ones(2), lib.ones(2, dtype=lib.long)),
    "isclose bool and long": lambda lib: lib.tensor([True]).isclose(lib.tensor([1])),
    "isclose shapes": lambda lib: lib.ones(3).isclose(lib.ones(2)),
    "isclose negative rtol": lambda lib: lib.ones(3).isclose(lib.ones(3), rtol=-1),
    "allclose negative atol": lambda lib: lib.ones(3).allclose(lib.ones(3), atol=-1),
    "isclose number": lambda lib: lib.ones(3).isclose(1.0),
    "torch.isclose number": lambda lib: lib.isclose(lib.ones(3), 1.0),
    "allclose number": lambda lib: lib.ones(3).allclose(1.0),
    "torch.allclose number first": lambda lib: lib.allclose(1.0, lib.ones(3)),
    "equal number": lambda lib: lib.ones(3).equal(1),
    "torch.equal number": lambda lib: lib.equal(lib.ones(3), 1.0),
    "torch.equal number first": lambda lib: lib.equal(1.0, lib.ones(3)),
}


@pytest.mark.parametrize("fn", CLOSENESS_ERRORS.values(), ids=CLOSENESS_ERRORS.keys())
def test_closeness_errors(oracle, fn):
    oracle.same_error(fn)
