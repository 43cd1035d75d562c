#!/usr/bin/env python
"""Course machinery: run the complete notebooks, write the blank (student) versions.

    python tools/course.py notebooks [NB ...]   re-execute complete notebooks in place (make notebooks)
    python tools/course.py exercises [--out D] [NB ...]  write the blank versions to notebooks/student/ (make exercises)
    python tools/course.py list                 print the complete notebooks

*Complete* notebooks are ``notebooks/**/*.ipynb`` outside ``notebooks/student/`` and
``.ipynb_checkpoints``: they hold the solutions and their stored outputs. Their blank
versions are what nbgrader's ClearSolutions, ClearOutput and LockCells preprocessors give
(the same rules, reimplemented here so nbgrader is not needed); ``tests/test_course.py`` compares the two
when nbgrader is installed.

Executing uses nbclient with the kernel of the running Python (as ``nbval
--nbval-current-env`` does), stores no timing metadata (``execution`` is stripped), fixes
``language_info`` to ``{"name": "python"}`` so the files do not depend on the Python patch
version, and stamps ``metadata.minigrad.version``.
"""
from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
STUDENT_DIR = NOTEBOOKS / "student"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
TEXT_STUB = "YOUR ANSWER HERE"
BEGIN, END = "BEGIN SOLUTION", "END SOLUTION"


# --- finding and writing notebooks -----------------------------------------------------

def complete_notebooks(root: Path = NOTEBOOKS) -> list[Path]:
    """Every complete notebook under ``root``, sorted."""
    out = []
    for p in sorted(root.rglob("*.ipynb")):
        rel = p.relative_to(root).parts
        if ".ipynb_checkpoints" in rel or (rel and rel[0] == STUDENT_DIR.name):
            continue
        out.append(p)
    return out


def read(path: Path):
    return nbformat.read(str(path), as_version=4)


def dumps(nb) -> str:
    """The file text, exactly as Jupyter writes it (one-space indent, sorted keys)."""
    return nbformat.writes(nb) + "\n"


def write(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = dumps(nb)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def nbgrader_md(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_solution(cell) -> bool:
    return bool(nbgrader_md(cell).get("solution", False))


def is_grade(cell) -> bool:
    return bool(nbgrader_md(cell).get("grade", False))


def is_locked(cell) -> bool:
    md = nbgrader_md(cell)
    if not md or is_solution(cell):
        return False
    return is_grade(cell) or bool(md.get("locked", False))


# --- blank versions (nbgrader's ClearSolutions + ClearOutput + LockCells) ----------------

def _replace_solution_region(cell) -> bool:
    lines = cell.source.split("\n")
    stub = (CODE_STUB if cell.cell_type == "code" else TEXT_STUB).split("\n")
    new, inside, replaced = [], False, False
    for line in lines:
        if BEGIN in line:
            if inside:
                raise RuntimeError(f"nested {BEGIN} in cell:\n{cell.source}")
            inside = replaced = True
            indent = re.match(r"\s*", line).group(0)
            new.extend(indent + s for s in stub)
        elif END in line:
            inside = False
        elif not inside:
            new.append(line)
    if inside:
        raise RuntimeError(f"no {END} in cell:\n{cell.source}")
    cell.source = "\n".join(new)
    return replaced


def blank(nb):
    """The student version of a complete notebook (a new notebook; ``nb`` is unchanged)."""
    nb = copy.deepcopy(nb)
    language = nb.metadata.get("kernelspec", {}).get("language", "python")
    if language != "python":
        raise ValueError(f"only Python notebooks are supported, not {language!r}")
    # ClearSolutions
    for cell in nb.cells:
        replaced = _replace_solution_region(cell)
        if replaced and not is_solution(cell):
            raise RuntimeError("solution region in a cell without nbgrader solution metadata:\n"
                               + cell.source)
        if is_solution(cell) and not replaced:
            cell.source = CODE_STUB if cell.cell_type == "code" else TEXT_STUB
    nb.metadata.pop("celltoolbar", None)
    # ClearOutput
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            for field in ("collapsed", "scrolled"):
                cell.metadata.pop(field, None)
    # LockCells (nbgrader's defaults: lock solution, grade and read-only cells)
    for cell in nb.cells:
        if is_solution(cell):
            cell.metadata["deletable"] = False
        elif is_grade(cell) or is_locked(cell):
            cell.metadata["deletable"] = False
            cell.metadata["editable"] = False
    return nb


def student_path(path: Path, out_dir: Path = STUDENT_DIR) -> Path:
    return out_dir / path.relative_to(NOTEBOOKS)


def write_exercises(out_dir: Path = STUDENT_DIR, notebooks: list[Path] | None = None) -> list[Path]:
    written = []
    for p in notebooks or complete_notebooks():
        target = student_path(p, out_dir)
        write(blank(read(p)), target)
        written.append(target)
    return written


# --- executing ---------------------------------------------------------------------------

def minigrad_version() -> str:
    sys.path.insert(0, str(ROOT))
    import minigrad

    return minigrad.__version__


def normalize(nb):
    """No timing metadata, fixed kernel metadata, the minigrad version stamp; a stored error
    keeps its message, not the traceback (whose frames name this machine's paths and the
    package's line numbers; nbval does not compare tracebacks anyway)."""
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                out.traceback = [f"{out.ename}: {out.evalue}"]
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["minigrad"] = {"version": minigrad_version()}
    return nb


def execute(nb, cwd: Path, allow_errors: bool = False, timeout: int = 300):
    """Run ``nb`` top to bottom in a fresh kernel of this Python (nbclient); returns it."""
    from jupyter_client import KernelManager
    from nbclient import NotebookClient
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    km = KernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME,
                       kernel_spec_manager=NbvalKernelspecManager())
    # coalesce_streams: a cell's printed lines are stored as one stdout output, however the
    # kernel happened to split them into messages, so re-running gives the same file.
    client = NotebookClient(nb, km=km, timeout=timeout, allow_errors=allow_errors,
                            record_timing=False, coalesce_streams=True,
                            resources={"metadata": {"path": str(cwd)}})
    client.execute(cwd=str(cwd))
    return nb


def run_notebook(path: Path) -> None:
    nb = execute(read(path), path.parent)
    write(normalize(nb), path)


# --- the same code under PyTorch ----------------------------------------------------------
#
# tests/test_course_torch.py runs every complete notebook a second time with PyTorch in place
# of minigrad and compares what each cell prints with the stored (minigrad) outputs. Two cell
# tags, defined here once (notebooks/AUTHORING.md says when to use them):
#
# - ``minigrad-only``: the cell is left out of the PyTorch run (it uses minigrad.viz,
#   minigrad.fusion, or looks inside minigrad). nbgrader check cells are left out without a
#   tag: they call minigrad.exercises.
# - ``random-output``: the cell runs, but what it prints depends on random numbers, which
#   PyTorch's generator draws differently; its outputs are not compared (and must differ, or
#   the tag is not needed).
#
# Cells starting with ``# NBVAL_IGNORE_OUTPUT`` (timings) run and are not compared either.

MINIGRAD_ONLY = "minigrad-only"
RANDOM_OUTPUT = "random-output"
IGNORE_OUTPUT = "# NBVAL_IGNORE_OUTPUT"
MINIGRAD_OWN = {"viz", "fusion", "exercises", "doctor"}  # minigrad's modules PyTorch has not


def tags(cell) -> list:
    return list(cell.get("metadata", {}).get("tags", []))


def left_out_of_torch_run(cell) -> bool:
    return cell.cell_type != "code" or MINIGRAD_ONLY in tags(cell) or is_grade(cell)


def compared_with_torch(cell) -> bool:
    return (not left_out_of_torch_run(cell) and RANDOM_OUTPUT not in tags(cell)
            and not cell.source.lstrip().startswith(IGNORE_OUTPUT))


def torch_source(source: str) -> str:
    """A cell's code with PyTorch in place of minigrad: ``import minigrad as torch`` ->
    ``import torch``, ``minigrad.x`` -> ``torch.x`` in imports, and minigrad's own modules
    (viz, fusion, exercises, doctor) dropped from ``from minigrad import ...``. Any other
    mention of minigrad in the code (comments aside) is an error: tag that cell minigrad-only."""
    out = []
    for line in source.split("\n"):
        m = re.fullmatch(r"(\s*)from minigrad import ([\w ,]+?)\s*(#.*)?", line)
        if m:
            names = [n.strip() for n in m.group(2).split(",")]
            kept = [n for n in names if n.split(" as ")[0].strip() not in MINIGRAD_OWN]
            if kept:
                out.append(f"{m.group(1)}from torch import {', '.join(kept)}")
            continue
        line = re.sub(r"\bimport minigrad as torch\b", "import torch", line)
        line = re.sub(r"\b(from|import) minigrad\.", r"\1 torch.", line)
        out.append(line)
    code = "\n".join(out)
    if _names_minigrad(code):
        raise ValueError(f"a cell uses minigrad itself:\n{source}\ntag it {MINIGRAD_ONLY!r} or "
                         "write it with `torch`")
    return code


def _names_minigrad(code: str) -> bool:
    """Whether the code names minigrad (as a Python name: strings and comments do not count)."""
    import io
    import tokenize

    lines = [line for line in code.split("\n") if not line.lstrip().startswith(("%", "!"))]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        return "minigrad" in code
    return any(t.type == tokenize.NAME and t.string == "minigrad" for t in tokens)


def torch_version(nb):
    """The notebook as it runs under PyTorch: cells left out emptied (ids kept), imports
    rewritten by torch_source."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        cell.source = "" if left_out_of_torch_run(cell) else torch_source(cell.source)
    return nb


def text_outputs(cell, patterns=(), as_torch=False) -> dict:
    """What a cell shows as text, as nbval compares it: stdout, the text/plain of results and
    displays, and an error's type and message (not stderr, not pictures); ``patterns`` are
    nbval's sanitizer's (regex, replacement) pairs. ``as_torch``: the package's name, the
    one difference allowed everywhere, is written ``torch`` (``minigrad.nn.Linear`` ->
    ``torch.nn.Linear``)."""
    def clean(s):
        for regex, repl in patterns:
            s = re.sub(regex, repl, s)
        return re.sub(r"\bminigrad\b", "torch", s) if as_torch else s

    shown = {}
    for out in cell.get("outputs", []):
        if out.output_type == "stream" and out.name == "stdout":
            shown["stdout"] = shown.get("stdout", "") + clean(out.text)
        elif out.output_type in ("execute_result", "display_data") and "text/plain" in out.data:
            shown.setdefault("text", []).append(clean(out.data["text/plain"]))
        elif out.output_type == "error":
            shown["error"] = f"{out.ename}: {clean(out.evalue)}"
    return shown


# --- command line ------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_nb = sub.add_parser("notebooks", help="re-execute complete notebooks and store their outputs")
    p_nb.add_argument("paths", nargs="*", type=Path)
    p_ex = sub.add_parser("exercises", help="write the blank versions")
    p_ex.add_argument("--out", type=Path, default=STUDENT_DIR)
    p_ex.add_argument("paths", nargs="*", type=Path)
    sub.add_parser("list", help="print the complete notebooks")
    args = ap.parse_args(argv)

    if args.cmd == "list":
        for p in complete_notebooks():
            print(p.relative_to(ROOT))
    elif args.cmd == "notebooks":
        paths = [p.resolve() for p in args.paths] or complete_notebooks()
        for p in paths:
            print(f"executing {p.relative_to(ROOT)}", flush=True)
            run_notebook(p)
    elif args.cmd == "exercises":
        for p in write_exercises(args.out.resolve(), [p.resolve() for p in args.paths] or None):
            print(f"wrote {p.relative_to(ROOT) if p.is_relative_to(ROOT) else p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
