"""minigrad/core/ is the idea of autograd, kept small enough to read in an afternoon.

Its budget (every line of every file, as tinygrad keeps its own in CI) and its imports: the
standard library, NumPy and itself, nothing else of minigrad. The rest of the package builds
on the core, never the other way round. Read with :mod:`ast`; nothing is imported.
"""
import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "minigrad" / "core"
BUDGET = 2500  # lines, every line of every file under minigrad/core/


def core_files():
    return sorted(CORE.rglob("*.py"))


def test_the_core_stays_within_its_line_budget():
    counts = {p.relative_to(CORE).as_posix(): len(p.read_text().splitlines()) for p in core_files()}
    total = sum(counts.values())
    biggest = ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1])[:5])
    assert total <= BUDGET, (
        f"minigrad/core/ has {total} lines, over its budget of {BUDGET} (largest: {biggest}). "
        "Move what is not the idea of autograd (PyTorch's conventions, speed-ups, rarer ops) to "
        "the rest of minigrad/, behind one of the core's named hooks if the core must call it.")


def imports_of(path):
    """(line, what) for each import in ``path``: 'numpy', 'os', '.node', '..function'..."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, "." * node.level + (node.module or "")


def test_the_core_imports_only_the_standard_library_numpy_and_itself():
    allowed = set(sys.stdlib_module_names) | {"numpy"}
    bad = []
    for path in core_files():
        depth = len(path.relative_to(CORE).parts) - 1  # how many packages below minigrad/core/
        for line, name in imports_of(path):
            level = len(name) - len(name.lstrip("."))
            if level:  # relative: it must not climb out of minigrad/core/
                if level - 1 > depth:
                    bad.append(f"{path.relative_to(CORE)}:{line}: {name}")
            elif name.split(".")[0] not in allowed:
                bad.append(f"{path.relative_to(CORE)}:{line}: {name}")
    assert not bad, f"minigrad/core/ imports beyond the standard library, NumPy and itself: {bad}"


def test_the_checks_see_the_core():
    names = {p.relative_to(CORE).as_posix() for p in core_files()}
    assert {"tensor.py", "function.py", "node.py", "engine.py", "grad_mode.py", "ops/arithmetic.py"} <= names
    assert ("numpy" in dict(imports_of(CORE / "engine.py")).values()
            or "numpy" in [n for _, n in imports_of(CORE / "engine.py")])
    assert any(n.startswith("..") for _, n in imports_of(CORE / "ops" / "arithmetic.py"))
