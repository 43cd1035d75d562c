"""The oracle itself (tests/oracle.py): recordings read back bit for bit, a missing recording
fails and names `make record`, a recording is replayed without PyTorch, and a recording that
disagrees fails (with PyTorch: live PyTorch disagrees with it; without: minigrad does).

The end-to-end cases run pytest in a subprocess on a one-test project in a temporary
directory, with a copy of oracle.py and conftest.py (so the real fixture), PyTorch hidden;
for the live path minigrad plays PyTorch. (With PyTorch installed, every comparison test runs
the live path for real.)"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minigrad
from oracle import ErrorRecord, _escape, assert_same, dumps, loads, record, same_bits

HERE = Path(__file__).resolve().parents[1]  # tests/


# --- the YAML format ----------------------------------------------------------------------------

TRICKY = [0.0, -0.0, 1.0, 0.1, 1 / 3, 1e-45, 1e-40, 1e-5, 3.4028235e38, 1e300, 5e-324,
          np.nan, np.inf, -np.inf, 2.0 ** -30, 123456789.125]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_floats_read_back_bit_for_bit(dtype):
    with np.errstate(over="ignore"):
        values = np.array(TRICKY, dtype=dtype)
        rng = np.random.default_rng(0)
        values = np.concatenate([values, (rng.standard_normal(500) * 10.0 ** rng.integers(-30, 30, 500))
                                 .astype(dtype)])
    t = minigrad.tensor(values)
    back = loads(dumps({"t": t, "a": values}))
    assert same_bits(back["t"].values, values)
    assert same_bits(back["a"].values, values)
    assert back["t"] == record(t)


def test_float32_is_written_short():
    text = dumps(minigrad.tensor([0.1, 1e-5, -2.5], dtype=minigrad.float32))
    assert "values: [0.1, 1.0e-05, -2.5]" in text


def test_answers_read_back_as_written():
    answer = {"b": (1, [2.5, "x"], None), "a": ErrorRecord("RuntimeError", "two\nlines"),
              "t": minigrad.tensor([[1, 2]]), "z": minigrad.tensor(True), "printed": "a\n b\n",
              "empty": minigrad.zeros(0, 3), "int keys": {3: "c", 1: "d"}}
    back = loads(dumps(answer))
    assert list(back) == ["b", "a", "t", "z", "printed", "empty", "int keys"]  # not sorted
    assert back["b"] == (1, [2.5, "x"], None) and isinstance(back["b"], tuple)
    assert back["a"] == answer["a"] and back["printed"] == "a\n b\n"
    assert list(back["int keys"]) == [3, 1]
    for key in ("t", "z", "empty"):
        assert back[key] == record(answer[key])
    assert dumps(back) == dumps(answer)


def test_record_refuses_what_it_cannot_write():
    with pytest.raises(TypeError, match="cannot record"):
        record(object())
    with pytest.raises(TypeError, match="cannot record"):
        record({"dtype": minigrad.float32})


def test_assert_same_catches_differences():
    t = record(minigrad.tensor([1.0, 2.0], requires_grad=True) * 2)
    assert_same(minigrad.tensor([1.0, 2.0], requires_grad=True) * 2, t)
    for wrong in (minigrad.tensor([1.0, 2.0], requires_grad=True) * 2.001,   # values
                  minigrad.tensor([1.0, 2.0], requires_grad=True) + 2,       # grad_fn
                  minigrad.tensor([2.0, 4.0]),                               # requires_grad
                  minigrad.tensor([2.0, 4.0], dtype=minigrad.float64)):      # dtype
        with pytest.raises(AssertionError):
            assert_same(wrong, t)
    with pytest.raises(AssertionError):
        assert_same((1, 2), [1, 2])
    with pytest.raises(AssertionError):
        assert_same(1, 1.0)


def test_escaped_names_are_distinct_and_safe():
    ids = ["x+2", "x-2", "x*3", "x/2", "2/x", "x**-1", ".T", ".t()", "a b", "%2F", "x[..., 2]"]
    names = [_escape(i) for i in ids]
    assert len(set(names)) == len(ids)
    assert not any(n.startswith(".") or "/" in n or "*" in n for n in names)


def test_recording_paths_differ_on_case_insensitive_file_systems():
    files = [p.relative_to(HERE).as_posix().lower() for p in (HERE / "recordings").rglob("*.yml")]
    assert files, "no recordings"
    assert len(set(files)) == len(files)


def test_each_recording_folder_is_a_test_module_and_basenames_are_unique():
    """Recordings are kept by the test file's basename (tests/recordings/<module>/), whatever
    folder of tests/ it is in: a test file that moves keeps them, one renamed must take them
    along (else its tests fail, No recording...), and two files of one name would share them."""
    modules = [p for p in HERE.rglob("test_*.py") if "recordings" not in p.relative_to(HERE).parts]
    names = [p.stem for p in modules]
    assert len(set(names)) == len(names), sorted(n for n in names if names.count(n) > 1)
    orphans = sorted(d.name for d in (HERE / "recordings").iterdir() if d.name not in names)
    assert not orphans, f"recordings of no test module: {orphans}"


# --- end to end ---------------------------------------------------------------------------------

TEST = '''
import minigrad
from oracle import assert_same_tensor


def test_double(oracle):
    def program(lib):
        x = lib.tensor([1.5, -2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        return {"y": y, "grad": x.grad}
    mine, theirs = oracle.both(program)
    assert_same_tensor(mine["y"], theirs["y"])
    assert_same_tensor(mine["grad"], theirs["grad"], check_repr=False)
'''
RECORDING = '''answer:
  y: !tensor
    dtype: torch.float32
    shape: []
    values: 6.25
    requires_grad: true
    is_leaf: false
    grad_fn: SumBackward0
    graph: SumBackward0(MulBackward0(AccumulateGrad:0, @AccumulateGrad:0):0)
    repr: tensor(6.2500, grad_fn=<SumBackward0>)
  grad: !tensor
    dtype: torch.float32
    shape: [2]
    values: [3.0, -4.0]
    requires_grad: false
    is_leaf: true
    grad_fn: null
    graph: null
    repr: tensor([ 3., -4.])
'''


PLAYS_PYTORCH = """

# test_oracle.py: minigrad plays PyTorch here, to run the oracle's live path without PyTorch
import minigrad as _minigrad
import oracle as _oracle
_oracle._torch = _minigrad
"""


@pytest.fixture
def project(tmp_path):
    tests = tmp_path / "tests"
    tests.mkdir()
    for name in ("oracle.py", "conftest.py"):
        shutil.copy(HERE / name, tests / name)
    (tests / "test_it.py").write_text(TEST)
    blocker = tmp_path / "no_torch"
    blocker.mkdir()
    (blocker / "torch.py").write_text("raise ImportError('PyTorch is hidden for this test')\n")
    return tmp_path


def run_pytest(project, *args, plays_pytorch=False, require_torch=False):
    """pytest on the project, PyTorch hidden (minigrad playing it if ``plays_pytorch``); only
    the plugins the oracle needs, so that it starts in a fraction of a second."""
    conftest = (HERE / "conftest.py").read_text() + (PLAYS_PYTORCH if plays_pytorch else "")
    (project / "tests" / "conftest.py").write_text(conftest)
    path = [str(project / "no_torch"), str(Path(minigrad.__file__).parent.parent)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    env.pop("MINIGRAD_REQUIRE_TORCH", None)
    if require_torch:
        env["MINIGRAD_REQUIRE_TORCH"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "pytest_datadir.plugin",
                           "-p", "pytest_regressions.plugin", "-q", "tests", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)


def recording(project):
    return project / "tests" / "recordings" / "test_it" / "test_double.yml"


def test_missing_recording_fails_and_names_make_record(project):
    result = run_pytest(project)
    assert result.returncode == 1, result.stdout
    assert "No recording of PyTorch's answer for this test (tests/recordings/test_it/test_double.yml)" \
        in result.stdout
    assert "run `make record`" in result.stdout
    result = run_pytest(project, "--regen-all")
    assert result.returncode == 1 and "`make record` needs PyTorch" in result.stdout
    assert not recording(project).exists()


def test_recording_is_replayed_without_pytorch_and_a_wrong_one_fails(project):
    recording(project).parent.mkdir(parents=True)
    recording(project).write_text(RECORDING)
    result = run_pytest(project)
    assert result.returncode == 0, result.stdout
    result = run_pytest(project, require_torch=True)
    assert result.returncode == 1 and "MINIGRAD_REQUIRE_TORCH=1 but PyTorch is not installed" in result.stdout
    recording(project).write_text(RECORDING.replace("values: [3.0, -4.0]", "values: [3.0, -4.5]"))
    result = run_pytest(project)
    assert result.returncode == 1 and "Mismatched elements: 1 / 2" in result.stdout


def test_live_answer_is_recorded_and_must_equal_the_recording(project):
    result = run_pytest(project, "--regen-all", plays_pytorch=True)
    assert result.returncode == 0, result.stdout
    assert recording(project).read_text() == RECORDING  # (what PyTorch 2.13 answers, too)
    assert run_pytest(project, plays_pytorch=True).returncode == 0
    recording(project).write_text(RECORDING.replace("values: 6.25", "values: 6.5"))
    result = run_pytest(project, plays_pytorch=True)
    assert result.returncode == 1
    assert "no longer gives the recorded answer (tests/recordings/test_it/test_double.yml)" in result.stdout
    assert "ACTUAL: array(6.25" in result.stdout and "DESIRED: array(6.5" in result.stdout
    # Rounded apart (recorded on a CPU whose kernels round otherwise): the recording still holds.
    recording(project).write_text(RECORDING.replace("values: 6.25", "values: 6.250001"))
    assert run_pytest(project, plays_pytorch=True).returncode == 0


def test_the_live_torch_fixture_is_for_hypothesis_tests_only(project):
    (project / "tests" / "test_it.py").write_text("def test_fixed_inputs(torch):\n    pass\n")
    result = run_pytest(project)
    assert result.returncode == 1
    assert "the `torch` fixture is for Hypothesis tests only" in result.stdout
