"""minigrad/_repr.py must print exactly what PyTorch prints.

The module is loaded by file path so these tests do not depend on
minigrad/__init__.py importing cleanly.
"""
import importlib.util
import pathlib
import re

import numpy as np
import pytest
from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

_PATH = pathlib.Path(__file__).resolve().parents[2] / "minigrad" / "_repr.py"
_spec = importlib.util.spec_from_file_location("minigrad_repr", _PATH)
_repr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_repr)
format_tensor = _repr.format_tensor


# --- literal expectations: run even without PyTorch ------------------------

LITERALS = [
    (np.array(7.0, dtype=np.float32), "tensor(7.)"),
    (np.array(3), "tensor(3)"),
    (np.array(True), "tensor(True)"),
    (np.array(1e-10, dtype=np.float32), "tensor(1.0000e-10)"),
    (np.array(-0.0, dtype=np.float32), "tensor(-0.)"),
    (np.array([-4.0, -12.0, 8.0], dtype=np.float32), "tensor([ -4., -12.,   8.])"),
    (np.array([2.0, 0.2, 0.02], dtype=np.float32), "tensor([2.0000, 0.2000, 0.0200])"),
    (np.array([1.0, 2.0]), "tensor([1., 2.], dtype=torch.float64)"),
    (np.array([], dtype=np.float32), "tensor([])"),
    (np.zeros((2, 0), dtype=np.float32), "tensor([], size=(2, 0))"),
    (np.array([], dtype=np.int64), "tensor([], dtype=torch.int64)"),
    (np.array([1, 2], dtype=np.int32), "tensor([1, 2], dtype=torch.int32)"),
    (np.array([True, False]), "tensor([ True, False])"),
    (np.array([1.0, np.nan, -np.inf], dtype=np.float32), "tensor([1., nan, -inf])"),
    (np.arange(4, dtype=np.float32).reshape(2, 2), "tensor([[0., 1.],\n        [2., 3.]])"),
    (
        np.arange(4).reshape(2, 1, 2),
        "tensor([[[0, 1]],\n\n        [[2, 3]]])",
    ),
    (np.arange(1001), "tensor([   0,    1,    2,  ...,  998,  999, 1000])"),
]


@pytest.mark.parametrize("array, expected", LITERALS)
def test_literal(array, expected):
    assert format_tensor(array) == expected


def test_literal_suffixes():
    a = np.array([1.0, 2.0])
    assert (
        format_tensor(a, ("requires_grad=True",))
        == "tensor([1., 2.], dtype=torch.float64, requires_grad=True)"
    )
    assert (
        format_tensor(np.float32(2.0), ("grad_fn=<MulBackward0>",))
        == "tensor(2., grad_fn=<MulBackward0>)"
    )


def test_unsupported_dtype():
    with pytest.raises(TypeError):
        format_tensor(np.array(["a"]))


def test_big_tensor_is_summarized_to_its_edges():
    # (No timing here: speed is measured by `make bench`, never in tests.) A tensor past
    # 1000 elements prints only 3 items at each edge of each dimension.
    a = np.arange(3000 * 3000, dtype=np.float32).reshape(3000, 3000)
    text = format_tensor(a)
    assert text.count("e+") == 6 * 6  # 3 + 3 rows of 3 + 3 numbers
    assert text.startswith("tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ...,")
    assert "\n        ...,\n" in text and text.endswith("9.0000e+06]])")


# --- comparison table against PyTorch --------------------------------------

def _f32(x):
    return np.asarray(x, dtype=np.float32)


def _cases():
    rng = np.random.default_rng(1234)
    c = {}
    # 0-d
    for name, v in [("seven", 7.0), ("neg_zero", -0.0), ("zero", 0.0), ("tiny", 1e-10),
                    ("big", 1e10), ("frac", 0.5), ("pi", np.pi), ("nan", np.nan),
                    ("inf", np.inf), ("ninf", -np.inf), ("neg", -3.25)]:
        c[f"0d_{name}_f32"] = _f32(v)
        c[f"0d_{name}_f64"] = np.array(v, dtype=np.float64)
    c["0d_int"] = np.array(3)
    c["0d_int_neg"] = np.array(-123456789012)
    c["0d_true"] = np.array(True)
    c["0d_false"] = np.array(False)
    c["0d_int32"] = np.array(5, dtype=np.int32)
    c["0d_f16"] = np.array(1.5, dtype=np.float16)
    # 1-d, the float rules
    c["ints_as_float"] = _f32([-4.0, -12.0, 8.0])
    c["fixed"] = _f32([2.0, 0.2, 0.02])
    c["fixed_round_up"] = _f32([9.99996, 0.5, -9.99996])
    c["sci_ratio"] = _f32([1.0, 1001.0])
    c["no_sci_ratio"] = _f32([1.0, 999.0])
    c["sci_max"] = _f32([1e9, 2e9])
    c["sci_min"] = _f32([1e-5, 2e-5])
    c["sci_int_mode"] = _f32([1.0, 1e5])
    c["sci_exp3"] = np.array([1e-200, 1e200, -1e-150])
    c["neg_zero_mix"] = _f32([0.0, -0.0])
    c["neg_zero_fixed"] = _f32([-0.0, 0.5])
    c["zeros"] = np.zeros(5, dtype=np.float32)
    c["nan_inf_int"] = _f32([1.0, np.nan, np.inf, -np.inf, 100.0])
    c["nan_inf_fixed"] = _f32([1.5, np.nan, np.inf, -np.inf])
    c["nan_inf_sci"] = _f32([1e-10, np.nan, 0.0, np.inf])
    c["all_nan"] = _f32([np.nan, np.nan])
    c["all_inf"] = _f32([np.inf, -np.inf, 0.0])
    c["f32_max"] = _f32([np.finfo(np.float32).max, np.finfo(np.float32).tiny])
    c["f64_max"] = np.array([np.finfo(np.float64).max, 1.0])
    c["f64_subnormal"] = np.array([5e-324, 1.0])
    c["ints"] = np.array([1, -20, 300])
    c["int_extremes"] = np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max])
    c["int32"] = np.array([1, -2, 3], dtype=np.int32)
    c["f16"] = np.array([1.0, 0.333, 65504.0], dtype=np.float16)
    c["bools"] = np.array([True, False, True])
    c["all_true"] = np.array([True, True])
    # empty
    c["empty_f32"] = np.zeros(0, dtype=np.float32)
    c["empty_f64"] = np.zeros(0)
    c["empty_int"] = np.zeros(0, dtype=np.int64)
    c["empty_bool"] = np.zeros(0, dtype=bool)
    c["empty_2x0"] = np.zeros((2, 0), dtype=np.float32)
    c["empty_0x3x1"] = np.zeros((0, 3, 1), dtype=np.int64)
    # wrapping: wide rows, long 1-d, nested indentation
    c["wrap_1d_fixed"] = _f32(np.linspace(-1, 1, 50))
    c["wrap_1d_int"] = np.arange(100)
    c["wrap_2d"] = (rng.standard_normal((3, 40)) * 10).astype(np.float32)
    c["wrap_3d"] = rng.standard_normal((2, 2, 30)).astype(np.float32)
    c["one_per_line"] = np.array([1e300, -1e-300, 1.0, 2.0, 3.0] * 4)
    c["wide_ints"] = np.array([10 ** 17, -(10 ** 17)] * 10)
    # random normals: several shapes and scales, float32 and float64
    for shape in [(5,), (3, 4), (2, 3, 4), (2, 2, 2, 3), (1, 1, 1)]:
        for scale in [1e-6, 1e-3, 1.0, 1e3, 1e9]:
            x = rng.standard_normal(shape) * scale
            key = f"normal_{'x'.join(map(str, shape))}_{scale:g}"
            c[key + "_f32"] = x.astype(np.float32)
            c[key + "_f64"] = x
    c["randint_3d"] = rng.integers(-1000, 1000, (3, 4, 5))
    c["bool_2d"] = rng.random((4, 5)) > 0.5
    c["nd_4d"] = np.arange(2 * 3 * 2 * 2, dtype=np.float32).reshape(2, 3, 2, 2)
    c["nd_5d"] = np.arange(32).reshape(2, 2, 2, 2, 2)
    # summarization (> 1000 elements)
    c["sum_1d"] = np.arange(1001, dtype=np.float32)
    c["sum_1d_exact_threshold"] = np.arange(1000, dtype=np.float32)
    c["sum_2d"] = rng.standard_normal((100, 100)).astype(np.float32)
    c["sum_2d_wide"] = rng.standard_normal((2, 2000))
    c["sum_2d_tall"] = rng.integers(0, 10, (2000, 2))
    c["sum_3d"] = rng.standard_normal((20, 20, 20)).astype(np.float32)
    c["sum_4d"] = np.arange(10 * 10 * 10 * 2, dtype=np.float32).reshape(10, 10, 10, 2)
    c["sum_short_axes"] = rng.standard_normal((4, 4, 100)).astype(np.float32)
    c["sum_sci_wrap"] = np.arange(3000, dtype=np.float32).reshape(10, 300)
    c["sum_outliers_hidden"] = np.concatenate(
        [_f32([1.0] * 3), _f32([1e20, np.nan] * 500), _f32([2.0] * 3)])
    c["sum_bool"] = rng.random((40, 40)) > 0.5
    # views / non-contiguous
    c["transposed"] = np.arange(12.0, dtype=np.float32).reshape(3, 4).T
    c["strided"] = np.arange(20, dtype=np.float32)[::3]
    return c


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(oracle, name):
    a = CASES[name]
    assert format_tensor(a) == oracle(lambda lib: repr(lib.from_numpy(a)))


@pytest.mark.parametrize(
    "name", sorted(k for k, v in CASES.items() if v.dtype.kind == "f")
)
def test_requires_grad_matches_torch(oracle, name):
    a = CASES[name]
    expected = oracle(lambda lib: repr(lib.from_numpy(a.copy()).requires_grad_()))
    assert format_tensor(a, ("requires_grad=True",)) == expected


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (12,), (2, 0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grad_fn_matches_torch(oracle, shape, dtype):
    a = np.linspace(-2, 2, int(np.prod(shape))).reshape(shape).astype(dtype)
    expected = oracle(lambda lib: repr(lib.from_numpy(a).requires_grad_() * 2))
    assert format_tensor(a * 2, ("grad_fn=<MulBackward0>",)) == expected


def test_long_suffix_wraps_like_torch(oracle):
    # _add_suffixes moves a suffix that would pass column 80 to a new line.
    a = np.arange(11, dtype=np.float64) + 0.5
    expected = oracle(lambda lib: repr(lib.from_numpy(a).requires_grad_()))
    assert format_tensor(a, ("requires_grad=True",)) == expected
    suffix = "grad_fn=<" + "X" * 60 + ">"
    for arr in (np.float32(1.0), np.arange(11, dtype=np.float64) + 0.5):
        out = format_tensor(arr, (suffix,))
        assert out.endswith(",\n       " + suffix + ")")


# --- property test: random arrays against live PyTorch (skipped without it; the cases above
# are the recorded ones) ------------------------------------------------------------------------

_special = st.sampled_from([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-30, -1e30, 1e8, 1e-4])


def _float_elems(dtype):
    bits = 32 if dtype == np.float32 else 64
    return st.one_of(
        st.floats(width=bits, allow_nan=True, allow_infinity=True),
        st.floats(-1e4, 1e4, width=bits),
        st.integers(-1000, 1000).map(float),
        _special,
    )


@st.composite
def _arrays(draw):
    dtype = draw(st.sampled_from([np.float32, np.float64, np.int64, np.bool_]))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=8))
    if dtype in (np.float32, np.float64):
        elements = _float_elems(dtype)
    elif dtype == np.int64:
        elements = st.one_of(st.integers(-1000, 1000),
                             st.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max))
    else:
        elements = st.booleans()
    return draw(hnp.arrays(dtype, shape, elements=elements))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=_arrays(), grad=st.booleans())
def test_property_matches_torch(torch, a, grad):
    t = torch.from_numpy(a.copy())
    if grad and a.dtype.kind == "f":
        assert format_tensor(a, ("requires_grad=True",)) == repr(t.requires_grad_())
    else:
        assert format_tensor(a) == repr(t)


def test_node_repr_and_ipython_display_as_pytorch(oracle):
    """A grad_fn prints as ``<MulBackward0 object at 0x...>``; IPython shows it (in
    next_functions, say) as ``<MulBackward0 at 0x...>``. Addresses differ: compared hidden."""
    from IPython.lib.pretty import pretty

    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * 2.0).sum()
        hide = lambda s: re.sub(r"0x[0-9a-f]+", "0xADDRESS", s)  # noqa: E731
        return hide(repr(y.grad_fn)), hide(str(y.grad_fn)), hide(pretty(y.grad_fn.next_functions))
    oracle.same(program)


# --- torch.set_printoptions ---------------------------------------------------------------------

PRINT_OPTIONS = {
    "precision=2": dict(precision=2), "precision=6": dict(precision=6), "precision=10": dict(precision=10),
    "precision=0": dict(precision=0),
    "sci_mode=True": dict(sci_mode=True), "sci_mode=False": dict(sci_mode=False),
    "sci_mode=None": dict(sci_mode=None), "precision=2, sci_mode=True": dict(precision=2, sci_mode=True),
    "profile=short": dict(profile="short"), "profile=full": dict(profile="full"),
    "profile=default": dict(profile="default"), "profile=short, precision=6": dict(profile="short", precision=6),
    "threshold=5": dict(threshold=5), "threshold=10, edgeitems=1": dict(threshold=10, edgeitems=1),
    "threshold=5, edgeitems=0": dict(threshold=5, edgeitems=0), "edgeitems=5": dict(edgeitems=5),
    "linewidth=40": dict(linewidth=40), "linewidth=20": dict(linewidth=20), "linewidth=120": dict(linewidth=120),
    "linewidth=30, precision=6": dict(linewidth=30, precision=6),
}


def _printed(lib):
    """The reprs of tensors that exercise every print option."""
    g = np.random.default_rng(0)
    arrays = {
        "small floats": np.array([0.123456789, -2.5, 3.0, 1 / 3], np.float32),
        "whole floats": np.array([1.0, -20.0, 300.0], np.float32),
        "wide range": np.array([1e-5, 1.0, 12345.678], np.float32),
        "huge": np.array([1e9, 2.5], np.float32),
        "nan inf zero": np.array([np.nan, np.inf, -0.0, 0.5], np.float32),
        "float64 pi": np.array([np.pi, -np.e]),
        "0-d": np.array(0.1, np.float32),
        "ints": np.array([1, -200, 30000]),
        "bools": np.array([True, False, True]),
        "vector of 40": (g.standard_normal(40) * 10).astype(np.float32),
        "matrix 12x12": g.standard_normal((12, 12)).astype(np.float32),
        "3-d": np.arange(60, dtype=np.float32).reshape(3, 4, 5) / 7,
        "int vector of 1001": np.arange(1001),
        "int matrix 8x8": np.arange(64).reshape(8, 8),
    }
    reprs = {name: repr(lib.tensor(a)) for name, a in arrays.items()}
    reprs["requires grad"] = repr(lib.tensor(arrays["small floats"], requires_grad=True))
    reprs["grad_fn"] = repr(lib.tensor(arrays["vector of 40"][:12], requires_grad=True) * 2)
    return reprs


@pytest.fixture
def default_print_options():
    """Every print options test leaves PyTorch's and minigrad's defaults behind it."""
    import minigrad
    from oracle import torch_module
    yield
    for lib in (minigrad, torch_module()):
        if lib is not None:
            lib.set_printoptions(profile="default")


@pytest.mark.parametrize("case", PRINT_OPTIONS)
def test_set_printoptions(oracle, case, default_print_options):
    def program(lib):
        lib.set_printoptions(**PRINT_OPTIONS[case])
        try:
            return _printed(lib)
        finally:
            lib.set_printoptions(profile="default")

    oracle.same(program)


def test_set_printoptions_keeps_what_it_is_not_given(oracle, default_print_options):
    """Options left out keep their values, but sci_mode, which is always set (None if left out);
    profile sets the first four, then the others change them; an unknown profile does nothing."""
    def program(lib):
        x = lib.tensor([1.23456789, 1e-5, 100.0])
        steps = [dict(precision=6), dict(linewidth=30), dict(sci_mode=False), dict(threshold=2),
                 dict(edgeitems=1), dict(profile="nonsense"), dict(profile="short", linewidth=25),
                 dict(profile="default")]
        answer = []
        try:
            for options in steps:
                lib.set_printoptions(**options)
                answer.append(repr(x))
        finally:
            lib.set_printoptions(profile="default")
        return answer

    oracle.same(program)
