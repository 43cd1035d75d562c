#!/usr/bin/env python
"""Course machinery: run the complete notebooks, write the blank (student) versions.

    python tools/course.py notebooks [NB ...]   re-execute complete notebooks in place (make notebooks)
    python tools/course.py exercises [--out D] [NB ...]  write the blank versions to notebooks/student/ (make exercises)
    python tools/course.py list                 print the complete notebooks
    python tools/course.py workspace [--update] the learner's copy in workspace/ (make lab, make update-workspace)
    python tools/course.py solutions            read-only copies of the complete notebooks (make lab-solutions)
    python tools/course.py assignment NAME NN [NN ...] [--with-references]  an nbgrader assignment in course/source/NAME/
    python tools/course.py length [--write]    words and time of each notebook; --write puts the times in
                                                the title cells and the README's table

*Complete* notebooks are ``notebooks/**/*.ipynb`` outside ``notebooks/student/`` and
``.ipynb_checkpoints``: they hold the solutions and their stored outputs. Their blank
versions are what nbgrader's ClearSolutions, ClearOutput and LockCells preprocessors give
(the same rules, reimplemented here so nbgrader is not needed); ``tests/course/test_course.py`` compares the two
when nbgrader is installed.

Executing uses nbclient with the kernel of the running Python (as ``nbval
--nbval-current-env`` does), stores no timing metadata (``execution`` is stripped), fixes
``language_info`` to ``{"name": "python"}`` so the files do not depend on the Python patch
version, and stamps ``metadata.minigrad.version``.

What the tests compare (:func:`comparable`) leaves out the notebook metadata a front end
rewrites from the kernel it runs on every save (:data:`FRONTEND_METADATA`): opening and
saving a notebook in JupyterLab changes nothing that ``make test`` compares.

The *workspace* (``workspace/``, git-ignored) is the learner's own copy of the blank
notebooks and of ``notebooks/data/``: ``make lab`` opens it, never the tracked files. It is
made on first use; afterwards only ``make update-workspace`` changes it, and it never
overwrites a notebook the learner has changed (:func:`update_workspace`).
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import shutil
import stat
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from minigrad.exercises import REFERENCES_FILE  # noqa: E402 (where yours_or_reference looks for them)

NOTEBOOKS = ROOT / "notebooks"
STUDENT_DIR = NOTEBOOKS / "student"
DATA_DIR = NOTEBOOKS / "data"
WORKSPACE = ROOT / "workspace"
COURSE = ROOT / "course"  # nbgrader's course folder (nbgrader_config.py), git-ignored
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
MAY_RAISE = "raises-exception"  # JupyterLab's Run All, nbclient and nbval go on past such a cell
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


# --- what the tests compare ---------------------------------------------------------------

# Notebook metadata that a front end rewrites on every save from the kernel it runs: JupyterLab
# copies the kernel's `language_info` (Python's version, the lexer, ...) and its `kernelspec`
# into the notebook, edited or not. They describe the reader's machine, not the course: the
# files written here carry fixed values (KERNELSPEC, {"name": "python"}), and comparisons
# leave them out. nbval and nbgrader do not look at them either.
FRONTEND_METADATA = ("kernelspec", "language_info")


def comparable(nb):
    """``nb`` as the tests compare it: without :data:`FRONTEND_METADATA` (a new notebook)."""
    nb = copy.deepcopy(nb)
    for key in FRONTEND_METADATA:
        nb.metadata.pop(key, None)
    return nb


def same_notebook(a, b) -> bool:
    """Whether two notebooks agree in everything the tests compare."""
    return dumps(comparable(a)) == dumps(comparable(b))


def blank_version_problems(root: Path = NOTEBOOKS) -> list[str]:
    """What is wrong with the blank versions in ``root/student/`` (``make test`` wants none):
    each should be :func:`blank` of its complete notebook, as far as :func:`comparable` sees."""
    student_dir = root / STUDENT_DIR.name
    want = {student_path(p, student_dir, root): p for p in complete_notebooks(root)}
    have = sorted(p for p in student_dir.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    problems = []
    if have != sorted(want):
        problems.append(f"{student_dir} holds {[p.name for p in have]}, the complete notebooks "
                        f"give {sorted(p.name for p in want)}: run `make exercises`")
    for target, source in sorted(want.items()):
        if target.exists() and not same_notebook(read(target), blank(read(source))):
            problems.append(f"{target.relative_to(root)} is stale: run `make exercises`")
    untagged = [p.name for p in complete_notebooks(root) if mark_may_raise(read(p))]
    if untagged:
        problems.append(f"cells of {untagged} lack the {MAY_RAISE!r} tag: run `make exercises`")
    refs = student_dir / REFERENCES_FILE
    if not refs.exists() or refs.read_text(encoding="utf-8") != references_text(complete_notebooks(root)):
        problems.append(f"{refs.relative_to(root)} is stale: run `make exercises`")
    return problems


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


# --- cells that may fail, and the reference solutions ------------------------------------

def may_raise(cell) -> bool:
    """Whether Run All must go on past ``cell`` when it fails: a check cell (it fails until its
    exercise is done), a solution cell whose stub raises where it stands (04's classes), and a
    reveal (a cell that calls ``reveal_after``: it waits for the learner's prediction). The
    cells that show an error on purpose carry the tag by hand (AUTHORING.md)."""
    if is_grade(cell) or (cell.cell_type == "code" and "reveal_after(" in cell.source):
        return True
    return is_solution(cell) and any(BEGIN in line and not line[:1].isspace()
                                     for line in cell.source.split("\n"))


def mark_may_raise(nb) -> bool:
    """Tag every cell :func:`may_raise` says so (the complete notebooks carry the tags, so that
    nbgrader's release has them too); returns whether anything changed."""
    changed = False
    for cell in nb.cells:
        if may_raise(cell) and MAY_RAISE not in tags(cell):
            cell.metadata["tags"] = tags(cell) + [MAY_RAISE]
            changed = True
    return changed


def references(notebooks: list[Path] | None = None) -> list[dict]:
    """The reference solutions the cells after an exercise fall back on (minigrad.exercises'
    yours_or_reference): each solution cell's functions and classes, as the complete notebook
    has them, in notebook order."""
    import ast

    out = []
    for p in notebooks or complete_notebooks():
        for cell in read(p).cells:
            if not is_solution(cell) or cell.cell_type != "code":
                continue
            lines = cell.source.split("\n")
            defs = [node for node in ast.parse(cell.source).body
                    if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
            pieces = [lines[min([d.lineno] + [x.lineno for x in d.decorator_list]) - 1:d.end_lineno]
                      for d in defs]
            code = "\n\n".join("\n".join(line for line in piece if BEGIN not in line and END not in line)
                               for piece in pieces)
            out.append({"exercise": nbgrader_md(cell)["grade_id"], "notebook": p.name,
                        "name": defs[-1].name, "code": code})
    return out


def references_text(notebooks: list[Path] | None = None) -> str:
    return json.dumps(references(notebooks), indent=1) + "\n"


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
    set_kernel_metadata(nb)  # whatever the front end last wrote into the complete notebook
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


def student_path(path: Path, out_dir: Path = STUDENT_DIR, root: Path = NOTEBOOKS) -> Path:
    return out_dir / path.relative_to(root)


def write_exercises(out_dir: Path = STUDENT_DIR, notebooks: list[Path] | None = None) -> list[Path]:
    """The blank versions, and the reference solutions beside them (:data:`REFERENCES_FILE`,
    always of every notebook); first tags the complete notebooks' cells that may fail."""
    written = []
    for p in notebooks or complete_notebooks():
        nb = read(p)
        if mark_may_raise(nb):
            write(nb, p)
        target = student_path(p, out_dir)
        write(blank(nb), target)
        written.append(target)
    refs = out_dir / REFERENCES_FILE
    out_dir.mkdir(parents=True, exist_ok=True)
    refs.write_text(references_text(), encoding="utf-8")
    return written + [refs]


# --- the learner's workspace -----------------------------------------------------------

# In the workspace: for each notebook, the digest of the blank version last copied in (or
# offered as NN_name.new.ipynb), so that an update can tell the learner's changes from ours.
MANIFEST = ".minigrad-workspace.json"
SOLUTIONS = "solutions"  # workspace/solutions/: read-only copies of the complete notebooks


def _digest(nb) -> str:
    return hashlib.sha256(dumps(comparable(nb)).encode()).hexdigest()


def _digest_of_file(path: Path) -> str | None:
    try:
        return _digest(read(path))
    except (OSError, ValueError):  # not a readable notebook: still the learner's file
        return None


def _data_to_copy(data_dir: Path, target: Path) -> list[tuple[Path, Path]]:
    """(source, copy) for each data file the notebooks read that is missing or different."""
    pairs = [(p, target / p.relative_to(data_dir)) for p in sorted(data_dir.rglob("*")) if p.is_file()]
    return [(src, dst) for src, dst in pairs if not dst.exists() or dst.read_bytes() != src.read_bytes()]


def _copy_data(data_dir: Path, target: Path) -> list[str]:
    done = []
    for src, dst in _data_to_copy(data_dir, target):
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        done.append(f"copied {dst}")
    return done


def update_workspace(workspace: Path = WORKSPACE, student_dir: Path = STUDENT_DIR,
                     data_dir: Path = DATA_DIR, dry_run: bool = False) -> list[str]:
    """Bring ``workspace`` up to date with the blank versions, never overwriting the learner's
    work; returns what it did (or, with ``dry_run``, would do), a line each. Per notebook:

    - not in the workspace: copied in;
    - in it as copied (or only opened and saved: :func:`comparable`), and the blank version
      changed since: replaced by the new version;
    - changed by the learner, and the blank version changed since: the learner's file is kept
      and the new version is written beside it as ``NN_name.new.ipynb``, once;
    - otherwise nothing.

    The data files and the reference solutions (:data:`REFERENCES_FILE`) are copied where
    missing or different (they are not the learner's to edit).
    """
    manifest_path = workspace / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    done = []
    for src in sorted(student_dir.glob("*.ipynb")):
        name, dst = src.name, workspace / src.name
        new = _digest(read(src))
        mine = _digest_of_file(dst) if dst.exists() else None
        if mine == new:
            manifest[name] = new  # up to date
            continue
        if dst.exists() and manifest.get(name) == new:
            continue  # the learner's changes to the version copied in (or offered) last time
        if not dst.exists():
            done.append(f"added {dst}")
        elif mine is not None and mine == manifest.get(name):
            done.append(f"updated {dst} (you had not changed it)")
        else:
            offer = dst.with_suffix(".new.ipynb")
            done.append(f"kept your {dst}; its new version is {offer}: copy over what you need")
            if not dry_run:
                shutil.copyfile(src, offer)
            manifest[name] = new
            continue
        if not dry_run:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        manifest[name] = new
    if dry_run:
        return done + [f"copy {dst}" for _, dst in _data_to_copy(data_dir, workspace / data_dir.name)]
    done += _copy_data(data_dir, workspace / data_dir.name)
    _copy_references(student_dir, workspace)
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return done


def _copy_references(student_dir: Path, workspace: Path) -> None:
    """The reference solutions the fallbacks use (:data:`REFERENCES_FILE`): not the learner's
    to edit, so renewed whenever they differ."""
    src, dst = student_dir / REFERENCES_FILE, workspace / REFERENCES_FILE
    if src.exists() and (not dst.exists() or dst.read_bytes() != src.read_bytes()):
        shutil.copyfile(src, dst)


def open_workspace(workspace: Path = WORKSPACE) -> list[str]:
    """What ``make lab`` does before starting JupyterLab: make the workspace on first use;
    later, change none of the learner's files (the reference solutions are renewed) and say
    whether ``make update-workspace`` has something new."""
    if not (workspace / MANIFEST).exists():
        update_workspace(workspace)
        return [f"Made your workspace, {workspace}: the blank notebooks (yours to edit; "
                "git ignores them) and the data they read."]
    _copy_references(STUDENT_DIR, workspace)
    pending = update_workspace(workspace, dry_run=True)
    if pending:
        return [f"The course has {len(pending)} change(s) your workspace lacks; "
                "`make update-workspace` brings them in without overwriting your work:"] + \
               ["  " + line for line in pending]
    return []


def write_solutions(workspace: Path = WORKSPACE, root: Path = NOTEBOOKS) -> Path:
    """Read-only copies of the complete notebooks in ``workspace/solutions/``, named
    ``NN_name (solution).ipynb`` so that their tabs in JupyterLab differ from the learner's
    ``NN_name.ipynb``; rewritten on every call (nothing there is the learner's).

    Read-only twice: the file's mode (JupyterLab then opens it read-only, except for root,
    who can write any file), and in the notebook itself, which root's Ctrl+S cannot undo: a
    first cell saying it is a copy that the next call renews, and every cell marked
    ``editable: false`` and ``deletable: false`` (JupyterLab refuses to edit or delete it)."""
    target = workspace / SOLUTIONS
    for p in complete_notebooks(root):
        nb = read(p)
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(
            f"**A read-only copy of `{p.name}`, with its solutions.** `make lab-solutions` "
            f"renews it, so a change made here is lost: your own work is `{p.name}` in your "
            "workspace.", id="minigrad-solution-copy"))
        for cell in nb.cells:
            cell.metadata["editable"] = False
            cell.metadata["deletable"] = False
        dst = target / f"{p.stem} (solution).ipynb"
        if dst.exists():
            dst.unlink()
        write(nb, dst)
        dst.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # JupyterLab opens it read-only
    _copy_data(root / DATA_DIR.name, target / DATA_DIR.name)
    return target


# --- nbgrader assignments ---------------------------------------------------------------

def reads_data(nb) -> bool:
    """Whether a notebook's code opens a file of notebooks/data/."""
    return any("data/" in c.source for c in nb.cells if c.cell_type == "code")


def write_assignment(name: str, numbers: list[str], course: Path = COURSE,
                     with_references: bool = False) -> Path:
    """nbgrader's source folder of assignment ``name``: the complete notebooks whose names
    start with the given numbers (e.g. "10"), and, when one of them reads ``data/``, a copy of
    notebooks/data/ (nbgrader releases it with the notebooks).

    Graded by default: nothing released holds a solution, and a cell that needs an unfinished
    exercise says so. ``with_references`` (practice) adds those notebooks' reference solutions
    (:data:`REFERENCES_FILE`), so that such cells go on with the reference, as for self-learners."""
    chosen = [p for p in complete_notebooks() if p.name[:2] in numbers]
    missing = set(numbers) - {p.name[:2] for p in chosen}
    if missing:
        raise SystemExit(f"no complete notebook numbered {', '.join(sorted(missing))}")
    target = course / "source" / name
    target.mkdir(parents=True, exist_ok=True)
    for p in chosen:
        shutil.copyfile(p, target / p.name)
    if any(reads_data(read(p)) for p in chosen):
        _copy_data(DATA_DIR, target / DATA_DIR.name)
    refs = target / REFERENCES_FILE
    if with_references:
        refs.write_text(references_text(chosen), encoding="utf-8")
    elif refs.exists():
        refs.unlink()
    return target


# --- executing ---------------------------------------------------------------------------

def minigrad_version() -> str:
    import minigrad

    return minigrad.__version__


ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")


def normalize(nb):
    """No timing metadata, fixed kernel metadata, the minigrad version stamp; a stored error
    keeps its message, not the traceback (whose frames name this machine's paths and the
    package's line numbers; nbval does not compare tracebacks anyway). Memory addresses in
    printed text (``<MulBackward0 object at 0x7f...>``) become stable stand-ins, numbered in
    order of appearance in the notebook: the same object keeps the same address, and running
    the notebooks twice gives the same files (nbval masks addresses anyway)."""
    stand_ins = {}

    def stand_in(match):
        return stand_ins.setdefault(match.group(0), f"0x7f00000{len(stand_ins) + 1:05x}0")

    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                out.traceback = [f"{out.ename}: {out.evalue}"]
                out.evalue = ADDRESS.sub(stand_in, out.evalue)
            elif out.output_type == "stream":
                out.text = ADDRESS.sub(stand_in, out.text)
            elif "text/plain" in out.get("data", {}):
                out.data["text/plain"] = ADDRESS.sub(stand_in, out.data["text/plain"])
    set_kernel_metadata(nb)
    nb.metadata["minigrad"] = {"version": minigrad_version()}
    return nb


def set_kernel_metadata(nb) -> None:
    """The fixed :data:`FRONTEND_METADATA` the committed files carry (not this Python's version)."""
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}


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
    # cleanup_kc: shut the kernel down afterwards; nbclient keeps a kernel it did not start
    # itself (km= given) alive until the process exits, and a test run executes hundreds.
    client.execute(cwd=str(cwd), cleanup_kc=True)
    return nb


def run_notebook(path: Path) -> None:
    nb = read(path)
    mark_may_raise(nb)
    nb = execute(nb, path.parent)
    failed = [c.id for c in nb.cells if (is_grade(c) or is_solution(c))
              and any(o.output_type == "error" for o in c.get("outputs", []))]
    if failed:  # nbclient went on past them (raises-exception): a complete notebook's must pass
        raise SystemExit(f"{path.name}: the solution or check cells {failed} failed")
    write(normalize(nb), path)


# --- the same code under PyTorch ----------------------------------------------------------
#
# tests/course/test_course_torch.py runs every complete notebook a second time with PyTorch in place
# of minigrad and compares what each cell prints with the stored (minigrad) outputs. Two cell
# tags, defined here once (notebooks/AUTHORING.md says when to use them):
#
# - ``minigrad-only``: the cell is left out of the PyTorch run (it uses minigrad.viz,
#   minigrad.fusion, or looks inside minigrad). nbgrader check cells are left out without a
#   tag: they call minigrad.exercises.
# - ``random-output``: the cell runs, but its outputs are not compared: minigrad draws
#   PyTorch's random numbers, so this is for the few cells whose float32 results still differ
#   in a last digit (they must differ, or the tag is not needed).
#
# Cells starting with ``# NBVAL_IGNORE_OUTPUT`` (timings) run and are not compared either.

MINIGRAD_ONLY = "minigrad-only"
RANDOM_OUTPUT = "random-output"
IGNORE_OUTPUT = "# NBVAL_IGNORE_OUTPUT"
MINIGRAD_OWN = {"viz", "fusion", "exercises", "doctor"}  # minigrad's modules PyTorch has not
KEPT_EXERCISE_NAMES = {"yours_or_reference", "reveal_after"}  # imported in the PyTorch run too


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
    (viz, fusion, exercises, doctor) dropped from ``from minigrad import ...``, except that
    ``from minigrad.exercises import`` of KEPT_EXERCISE_NAMES stays: the course's fallback for
    an exercise left undone, and a reveal, call the learner's function, whichever library it
    uses. Any other mention of minigrad in the code (comments aside) is an error: tag that cell
    minigrad-only."""
    out, checked = [], []
    for line in source.split("\n"):
        m = re.fullmatch(r"\s*from minigrad\.exercises import ([\w ,]+?)\s*(#.*)?", line)
        if m and {n.strip() for n in m.group(1).split(",")} <= KEPT_EXERCISE_NAMES:
            out.append(line)
            continue
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
        checked.append(line)
    code = "\n".join(out)
    if _names_minigrad("\n".join(checked)):
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


# --- length and time -------------------------------------------------------------------

# The series' length budget (tests/course/test_course.py holds the course to it).
MAX_WORDS_SERIES, MAX_WORDS_NOTEBOOK, MAX_WORDS_START = 24_000, 2_400, 1_200

# The time rule: prose read at 200 words a minute; code at 50 words a minute (read it, run it,
# read what it prints); each exercise the minutes in its solution cell's metadata
# (``metadata.minigrad.minutes``), set from the tries of a reader new to it. The total is
# rounded to 5 minutes.
PROSE_RATE, CODE_RATE = 200, 50
TIME_LINE = re.compile(r"^\*{0,2}Time:?\*{0,2}.*$", re.M)


def prose_words(nb) -> int:
    """Words of prose: the markdown cells without fenced code blocks and HTML tags."""
    total = 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text = re.sub(r"```.*?```", " ", cell.source, flags=re.S)
            total += len(re.sub(r"<[^>]+>", " ", text).split())
    return total


def code_words(nb) -> int:
    """Words of code the learner reads: every code cell but the locked check cells."""
    return sum(len(c.source.split()) for c in nb.cells if c.cell_type == "code" and not is_grade(c))


def exercise_minutes(nb) -> list[int]:
    """Each exercise's minutes (its solution cell's ``metadata.minigrad.minutes``; None where
    it is missing)."""
    return [c.metadata.get("minigrad", {}).get("minutes") for c in nb.cells if is_solution(c)]


def minutes(nb) -> dict:
    """The notebook's time by the rule above: reading, code, exercises and the rounded total."""
    reading, code = prose_words(nb) / PROSE_RATE, code_words(nb) / CODE_RATE
    exercises = sum(m or 0 for m in exercise_minutes(nb))
    total = max(5, 5 * round((reading + code + exercises) / 5))
    return {"reading": round(reading), "code": round(code), "exercises": exercises, "total": total}


def time_line(nb) -> str:
    m = minutes(nb)
    return (f"*Time: about {m['total']} minutes (reading {m['reading']}, code {m['code']}, "
            f"exercises {m['exercises']}).*")


SERIES_TIME = re.compile(r"(whole series takes about )\d+( hours)")


def series_hours() -> int:
    """The whole series' time, in hours: the notebooks' times added up, rounded."""
    return round(sum(minutes(read(p))["total"] for p in complete_notebooks()) / 60)


def write_times(paths: list[Path], readme: Path = ROOT / "README.md") -> list[Path]:
    """Puts each notebook's time in its title cell (the line that starts with ``Time``) and in
    the README's table (the row that starts ``| NN |``, its third column), and the series'
    hours where the README or a notebook says "the whole series takes about N hours"; returns
    the changed files."""
    changed = []
    text = readme.read_text()
    new_text = text
    for path in paths:
        nb = read(path)
        title = nb.cells[0]
        line = time_line(nb)
        new = TIME_LINE.sub(line, title.source, count=1) if TIME_LINE.search(title.source) \
            else title.source.rstrip() + "\n\n" + line
        if new != title.source:
            title.source = new
            write(nb, path)
            changed.append(path)
        number = path.name[:2]
        new_text = re.sub(rf"^(\| {number} \|[^|\n]*\| )[^|\n]*( \|)",
                          rf"\g<1>{minutes(nb)['total']} min\g<2>", new_text, flags=re.M)
    hours = series_hours()
    new_text = SERIES_TIME.sub(rf"\g<1>{hours}\g<2>", new_text)
    if new_text != text:
        readme.write_text(new_text)
        changed.append(readme)
    for path in complete_notebooks():
        nb = read(path)
        cells = [c for c in nb.cells if c.cell_type == "markdown" and SERIES_TIME.search(c.source)]
        for cell in cells:
            cell.source = SERIES_TIME.sub(rf"\g<1>{hours}\g<2>", cell.source)
        if cells and not same_notebook(nb, read(path)):
            write(nb, path)
            changed.append(path)
    return changed


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
    p_ws = sub.add_parser("workspace", help="make the learner's workspace, or update it")
    p_ws.add_argument("--update", action="store_true", help="bring in new and changed notebooks")
    p_ws.add_argument("--dir", type=Path, default=WORKSPACE)
    p_sol = sub.add_parser("solutions", help="read-only copies of the complete notebooks")
    p_sol.add_argument("--dir", type=Path, default=WORKSPACE)
    p_as = sub.add_parser("assignment", help="an nbgrader assignment's source folder")
    p_as.add_argument("name")
    p_as.add_argument("numbers", nargs="+", help="the notebooks' numbers, e.g. 00 01")
    p_as.add_argument("--course", type=Path, default=COURSE)
    p_as.add_argument("--with-references", action="store_true",
                      help="release the reference solutions too (practice, not graded): cells "
                           "after an unfinished exercise go on with the reference")
    p_len = sub.add_parser("length", help="words and time of each notebook")
    p_len.add_argument("--write", action="store_true",
                       help="put the times in the title cells and the README's table")
    p_len.add_argument("paths", nargs="*", type=Path)
    args = ap.parse_args(argv)

    if args.cmd == "list":
        for p in complete_notebooks():
            print(p.relative_to(ROOT))
    elif args.cmd == "notebooks":
        paths = [p.resolve() for p in args.paths] or complete_notebooks()
        for p in paths:
            print(f"executing {p.relative_to(ROOT)}", flush=True)
            run_notebook(p)
    elif args.cmd == "workspace":
        if args.update:
            lines = update_workspace(args.dir.resolve()) or [f"{args.dir} is up to date."]
        else:
            lines = open_workspace(args.dir.resolve())
        print("\n".join(lines))
    elif args.cmd == "solutions":
        target = write_solutions(args.dir.resolve())
        print(f"The complete notebooks, with solutions, are in {target} (read-only copies, "
              "renewed each time).")
    elif args.cmd == "assignment":
        target = write_assignment(args.name, args.numbers, args.course.resolve(), args.with_references)
        print(f"wrote {target}: " + ", ".join(sorted(p.name for p in target.iterdir())))
    elif args.cmd == "length":
        paths = [p.resolve() for p in args.paths] or complete_notebooks()
        total = 0
        for p in paths:
            nb = read(p)
            words, m = prose_words(nb), minutes(nb)
            total += words
            limit = MAX_WORDS_START if p.name.startswith("00") else MAX_WORDS_NOTEBOOK
            print(f"{p.name:34} {words:6,} words (at most {limit:,})  code {code_words(nb):5,} words  "
                  f"exercises {exercise_minutes(nb)}  {m['total']:3} min")
        if not args.paths:
            print(f"{'series':34} {total:6,} words (at most {MAX_WORDS_SERIES:,})")
        if args.write:
            for p in write_times(paths):
                print(f"wrote {p.relative_to(ROOT)}")
    elif args.cmd == "exercises":
        for p in write_exercises(args.out.resolve(), [p.resolve() for p in args.paths] or None):
            print(f"wrote {p.relative_to(ROOT) if p.is_relative_to(ROOT) else p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
