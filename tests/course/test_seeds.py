"""The code in the course's seed documents (``../shared/seeds/``) runs under minigrad.

The seeds are the texts this course grew from; their snippets are what learners bring
with them. Each snippet is cut out of the text here (never copied into the project),
run once with ``torch`` bound to PyTorch (or replayed from its recording, tests/oracle.py)
and once bound to minigrad, and:

- where its output does not depend on random numbers, or the snippet seeds them
  (``manual_seed``: minigrad draws PyTorch's numbers), both must print the same text;
- where it draws unseeded (``randn``, a freshly initialised ``nn.Linear``: a new stream each
  run, in PyTorch too), minigrad must run it and print the same number of lines.

Snippets that are fragments (PyTorch itself cannot run them: undefined names) are skipped.
"""
import contextlib
import io
import pathlib
import re
import sys
import types

import pytest

import minigrad
from oracle import ErrorRecord

SEEDS = pathlib.Path(__file__).resolve().parents[3] / "shared" / "seeds"
_START = re.compile(r"^(# import torch library|import torch)\s*$")
_STOP = ("Enter fullscreen mode", "Output")
_RANDOM = re.compile(r"randn|rand\(|nn\.Linear")


def _snippets():
    """(name, code) for every runnable-looking block in the seed texts."""
    if not SEEDS.is_dir():
        return []
    found = []
    for path in sorted(SEEDS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if not _START.match(line.strip()):
                continue
            block = []
            for text in lines[i:]:
                if text.strip().startswith(_STOP) and block:
                    break
                block.append(text)
            while block:  # the longest prefix that is valid Python
                try:
                    compile("\n".join(block), "<seed>", "exec")
                    break
                except SyntaxError:
                    block.pop()
            if len(block) > 2:
                found.append((f"{path.stem[:3]}:line{i + 1}", "\n".join(block)))
    return found


def _run(code, module):
    """Run ``code`` with ``import torch`` resolving to ``module``; return what it printed."""
    saved = {k: sys.modules.get(k) for k in ("torch", "torch.nn", "torch.optim")}
    sys.modules["torch"] = module
    sys.modules["torch.nn"] = module.nn
    sys.modules["torch.optim"] = module.optim
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<seed>", "exec"), {"__name__": "__seed__"})
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return re.sub(r" at 0x[0-9a-f]+", "", out.getvalue())


SNIPPETS = _snippets()


def test_seed_snippets_were_found():
    if not SEEDS.is_dir():
        pytest.skip(f"{SEEDS} is not there (it sits beside the repository in CI)")
    assert len(SNIPPETS) >= 4, [name for name, _ in SNIPPETS]


@pytest.mark.parametrize("code", [c for _, c in SNIPPETS], ids=[n for n, _ in SNIPPETS])
def test_seed_snippet_prints_what_pytorch_prints(oracle, code):
    def program(lib):
        try:
            return _run(code, lib)
        except Exception as exc:  # noqa: BLE001 - a fragment: PyTorch cannot run it either
            return ErrorRecord(type(exc).__name__, str(exc))
    expected = oracle(program)
    if isinstance(expected, ErrorRecord):
        pytest.skip(f"not a runnable program under PyTorch ({expected})")
    got = _run(code, minigrad)
    if _RANDOM.search(code) and "manual_seed" not in code:  # unseeded: same shape of output only
        assert len(got.splitlines()) == len(expected.splitlines()), got
    else:
        assert got == expected


def test_run_restores_sys_modules():
    before = sys.modules.get("torch")
    _run("import torch\nprint(torch.__name__)", minigrad)
    assert sys.modules.get("torch") is before
    assert _run("import torch\nprint(torch.__name__)", minigrad) == "minigrad\n"
    fake = types.SimpleNamespace(nn=None, optim=None)
    with pytest.raises(NameError):
        _run("undefined_name", fake)
