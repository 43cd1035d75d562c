"""The course machinery (tools/course.py, minigrad.exercises, minigrad.doctor).

- every complete notebook is executed, by this minigrad version, and follows the exercise
  format (nbgrader schema 3 solution cell, then a locked check cell calling minigrad.exercises);
- the committed blank versions (notebooks/student/) are up to date, and are what nbgrader's
  ClearSolutions, ClearOutput and LockCells give (when nbgrader is installed);
- the exercises are real: every check cell of a blank notebook fails, typical wrong answers
  are rejected with a hint, the solutions pass;
- nbval's settings: addresses are sanitized, SVG and stderr are not compared, stdout is;
- nbgrader's own path (generate_assignment, autograde) works, when nbgrader is installed
  (``MINIGRAD_REQUIRE_NBGRADER=1``, set by .ci/run, makes a missing nbgrader a failure);
- ``python -m minigrad.doctor`` runs and exits 0.

The notebooks' stored outputs themselves are compared by nbval (``make test``).
"""
from __future__ import annotations

import copy
import functools
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import course
import wrong_answers
from test_instructors import nbgrader_or_skip

import minigrad
from minigrad import exercises

nbformat = pytest.importorskip("nbformat")

torch = minigrad  # as the notebooks name it: yours_or_reference runs a reference in its caller's namespace

COMPLETE = course.complete_notebooks()
IDS = [p.stem for p in COMPLETE]


def exercise_cells(nb):
    """[(solution cell index, check cell index)] of a notebook."""
    out = []
    for i, cell in enumerate(nb.cells):
        if course.is_solution(cell):
            out.append((i, i + 1))
    return out


@functools.lru_cache(maxsize=None)
def workspace():
    """A learner's workspace, as `make lab` makes it: the blank notebooks, data/, and the
    reference solutions the fallbacks use (one per test worker)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="minigrad-workspace-"))
    course.update_workspace(folder)
    return folder


def run_all(nb, folder=None):
    """``nb`` run as JupyterLab's Restart Kernel and Run All Cells does: top to bottom in a
    fresh kernel, stopping at the first error of a cell not tagged raises-exception (nbclient
    raises CellExecutionError there); in a workspace unless ``folder`` is given."""
    return course.execute(nb, folder or workspace())


WIDTH = 88  # what a failed check's lines, or a fallback's, may take: minigrad.exercises' WIDTH
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def too_wide(lines):
    return [line for line in lines if len(ANSI.sub("", line)) > WIDTH]


def errors(cell):
    return [o for o in cell.get("outputs", []) if o.output_type == "error"]


def stdout(cell):
    return "".join(o.text for o in cell.get("outputs", [])
                   if o.output_type == "stream" and o.name == "stdout")


# --- the complete notebooks ----------------------------------------------------------

def test_there_are_complete_notebooks_and_blank_versions():
    assert [p.name[:3] for p in COMPLETE] == [f"{i:02d}_" for i in range(13)], \
        "the series is notebooks 00_ ... 12_"
    for p in COMPLETE:
        assert course.student_path(p).exists(), f"no blank version of {p.name}: run `make exercises`"


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_notebook_is_executed_by_this_minigrad_version(path):
    nb = course.read(path)
    stamp = nb.metadata.get("minigrad", {}).get("version")
    assert stamp == minigrad.__version__, (
        f"{path.name}: outputs were made by minigrad {stamp}, this is {minigrad.__version__}: "
        "run `make notebooks`")
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.execution_count for c in code]
    assert None not in counts, f"{path.name} has unexecuted cells: run `make notebooks`"
    assert counts == list(range(1, len(code) + 1)), (
        f"{path.name} was not run top to bottom in one go ({counts}): run `make notebooks`")
    for c in nb.cells:
        assert "execution" not in c.metadata, "timing metadata is stored: run `make notebooks`"
        tagged = course.MAY_RAISE in c.metadata.get("tags", [])
        if tagged and not course.may_raise(c):  # tagged by hand: an error shown on purpose
            assert errors(c), f"{path.name}: cell {c.id} is tagged raises-exception but raised nothing"
        else:  # untagged, or a check or solution cell, tagged for the blank version's sake
            assert not errors(c), f"{path.name}: cell {c.id} stored an error (tag it raises-exception if meant)"


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_exercise_format(path):
    nb = course.read(path)
    pairs = exercise_cells(nb)
    assert pairs, f"{path.name} has no exercise"
    grade_ids = []
    for i, j in pairs:
        sol, check = nb.cells[i], nb.cells[j]
        md = sol.metadata["nbgrader"]
        assert md == {"schema_version": 3, "solution": True, "grade": False, "locked": False,
                      "grade_id": md["grade_id"], "task": False}
        src = sol.source.splitlines()
        assert sum("### BEGIN SOLUTION" in line for line in src) == 1
        assert sum("### END SOLUTION" in line for line in src) == 1
        cmd = check.metadata.get("nbgrader", {})
        assert cmd.get("grade") is True and cmd.get("locked") is True, \
            "the cell after a solution cell should be its locked check cell"
        assert cmd.get("schema_version") == 3 and cmd.get("solution") is False
        assert isinstance(cmd.get("points"), (int, float)) and cmd["points"] > 0
        assert re.search(r"from minigrad\.exercises import check_\w+", check.source)
        assert exercises.SUCCESS in stdout(check), "the stored check output should be the success line"
        grade_ids += [md["grade_id"], cmd["grade_id"]]
    assert len(grade_ids) == len(set(grade_ids)), "grade_ids must be unique"


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_notebook_shape(path):
    """What every notebook of the series has (notebooks/AUTHORING.md): a numbered title,
    learning goals and a time estimate, 2 to 4 exercises, at least one picture, questions
    whose answers open on demand, a summary."""
    nb = course.read(path)
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith(f"# {path.name[:2]} · ")
    assert "Learning goals" in nb.cells[0].source and "Time:" in nb.cells[0].source
    assert 2 <= len(exercise_cells(nb)) <= 4
    pictures = [c for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                if {"image/svg+xml", "image/png"} & set(o.get("data", {}))]
    assert pictures, f"{path.name} has no picture (a graph drawing or a plot)"
    assert "## Check your understanding" in md
    answers = re.findall(r"<details><summary>Show answer</summary>\n\n(.+?)\n\n</details>", md, re.S)
    assert len(answers) >= 3 and md.count("<details>") == len(answers), \
        "each answer: <details><summary>Show answer</summary>, a blank line, the answer, a blank line, </details>"
    assert "## Summary" in md


def test_the_series_keeps_to_its_length():
    """At most 24,000 words of prose over the series, 2,400 in a notebook, 1,200 in 00
    (tools/course.py length counts them), and still at least 36 exercises."""
    words = {p.name: course.prose_words(course.read(p)) for p in COMPLETE}
    over = {name: n for name, n in words.items()
            if n > (course.MAX_WORDS_START if name.startswith("00") else course.MAX_WORDS_NOTEBOOK)}
    assert not over, f"over the notebook's limit: {over}"
    assert sum(words.values()) <= course.MAX_WORDS_SERIES, f"{sum(words.values()):,} words"
    assert sum(len(exercise_cells(course.read(p))) for p in COMPLETE) >= 36


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_time_is_measured_by_the_rule(path):
    """Each exercise states its minutes, and the time in the title cell is what
    tools/course.py length computes from the notebook (run it with --write; the README's
    column follows the title cell: tests/project/test_docs.py)."""
    nb = course.read(path)
    assert all(isinstance(m, int) and m > 0 for m in course.exercise_minutes(nb)), \
        "every solution cell needs metadata.minigrad.minutes"
    assert course.time_line(nb) in nb.cells[0].source, "run tools/course.py length --write"


def test_the_series_time_is_the_sum_of_the_notebooks():
    """Where the README or a notebook says how long the whole series takes, it is the sum."""
    hours = course.series_hours()
    texts = [(course.ROOT / "README.md").read_text()] + [
        c.source for p in COMPLETE for c in course.read(p).cells if c.cell_type == "markdown"]
    stated = [int(m.group(0).split()[-2]) for t in texts for m in course.SERIES_TIME.finditer(t)]
    assert len(stated) >= 2 and set(stated) == {hours}, (stated, hours)


MYTH = "> **Myth you will meet:**"


def test_myths_are_named_and_shown():
    """A "Myth you will meet" box in at least eight notebooks, each followed by the one code
    cell that shows why the myth is wrong."""
    with_myths = 0
    for p in COMPLETE:
        cells = course.read(p).cells
        boxes = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and MYTH in c.source]
        for i in boxes:
            assert i + 1 < len(cells) and cells[i + 1].cell_type == "code", \
                f"{p.name}: a myth box is followed by the cell that shows it wrong"
        with_myths += bool(boxes)
    assert with_myths >= 8, f"myth boxes in {with_myths} notebooks"


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_a_reveal_waits_for_the_prediction(path):
    """A cell that shows a prediction's answer calls reveal_after first and may raise: Run All
    on the blank notebook does not print the answer before the learner predicts."""
    for cell in course.read(path).cells:
        if cell.cell_type == "code" and "reveal_after(" in cell.source:
            code = [line for line in cell.source.split("\n")
                    if line.strip() and not line.lstrip().startswith(("#", "from ", "import "))]
            assert code[0].lstrip().startswith("reveal_after("), cell.source
            assert course.MAY_RAISE in course.tags(cell)


# --- blank versions --------------------------------------------------------------------

def test_blank_versions_are_up_to_date():
    assert course.blank_version_problems() == []


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_blank_version_has_stubs_no_outputs_and_locked_checks(path):
    nb = course.read(course.student_path(path))
    text = course.dumps(nb)
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
        if course.is_solution(cell):
            assert "# YOUR CODE HERE" in cell.source and "raise NotImplementedError()" in cell.source
            assert cell.metadata["deletable"] is False
        if course.is_grade(cell):
            assert cell.metadata["deletable"] is False and cell.metadata["editable"] is False


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_blank_version_is_what_nbgrader_preprocessors_give(path):
    nbgrader_or_skip()
    assert nbgrader_blank_problems(path) == []


def nbgrader_blank_problems(path, root=course.NOTEBOOKS):
    """How the blank version of ``path`` differs from what nbgrader's preprocessors give
    (as far as course.comparable sees: not the metadata a front end rewrites on save)."""
    from nbgrader.preprocessors import ClearOutput, ClearSolutions, LockCells

    nb = course.read(path)
    resources = {}
    for pre in (ClearSolutions(), ClearOutput(), LockCells()):
        nb, resources = pre.preprocess(nb, resources)
    ours = course.student_path(path, root / course.STUDENT_DIR.name, root)
    return [] if course.same_notebook(nb, course.read(ours)) else [f"{ours} is not what nbgrader gives"]


# --- opening and saving in JupyterLab changes nothing the tests compare ----------------

def kernel_language_info():
    """The ``language_info`` a running kernel of this Python reports (JupyterLab copies it
    into the notebook's metadata, with the Python version, on every save)."""
    from jupyter_client import KernelManager
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    km = KernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
    km.start_kernel()
    try:
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        return kc.kernel_info(reply=True, timeout=30)["content"]["language_info"]
    finally:
        km.shutdown_kernel(now=True)


def save_as_jupyterlab_does(root, rel, language_info):
    """Open and save notebook ``rel`` under ``root`` through jupyter_server's contents manager
    (JupyterLab's save), with the kernel metadata JupyterLab sets, and no edit."""
    from jupyter_server.services.contents.filemanager import FileContentsManager

    cm = FileContentsManager(root_dir=str(root))
    model = cm.get(rel, content=True, type="notebook")
    model["content"].metadata["language_info"] = language_info
    model["content"].metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)",
                                               "language": "python", "name": "python3"}
    cm.save({"type": "notebook", "format": "json", "content": model["content"]}, rel)


def test_saving_in_jupyterlab_changes_nothing_the_tests_compare(tmp_path):
    """The notebooks the issue saw change when JupyterLab merely opened them: saved the same
    way in a copy of notebooks/, they still pass make test's comparisons (blank versions up to
    date and equal to nbgrader's, executed by this version, nbval)."""
    root = tmp_path / "notebooks"
    shutil.copytree(course.NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    saved = ["02_the_graph.ipynb", "12_capstone.ipynb", "student/02_the_graph.ipynb"]
    language_info = kernel_language_info()
    for rel in saved:
        save_as_jupyterlab_does(root, rel, language_info)
        assert (root / rel).read_text() != (course.NOTEBOOKS / rel).read_text(), \
            "the save should rewrite the file's metadata, as JupyterLab's does"
    assert course.blank_version_problems(root) == []
    for rel in saved[:2]:
        test_notebook_is_executed_by_this_minigrad_version(root / rel)
        test_exercise_format(root / rel)
        if importlib.util.find_spec("nbgrader") is not None:
            assert nbgrader_blank_problems(root / rel, root) == []
    code, log = _nbval(tmp_path / "nbval", course.read(root / saved[0]))
    assert code == 0, log


# --- the exercises are real --------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def blank_run(path):
    """The blank version of ``path``, run as Run All runs it (once per worker: several tests
    read it); fails the test if Run All stops before the last cell."""
    return run_all(course.read(course.student_path(path)))


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_every_check_of_a_blank_notebook_fails_as_not_done(path):
    nb = blank_run(path)
    checks = [c for c in nb.cells if course.is_grade(c)]
    assert checks
    for cell in checks:
        errs = errors(cell)
        assert errs, f"check cell {cell.id} of the blank {path.name} did not fail"
        assert errs[0].ename == "NotDoneYet" and "still raises NotImplementedError" in " ".join(errs[0].evalue.split())
        assert exercises.SUCCESS not in stdout(cell)
        # What Jupyter shows: the hint, not a traceback through the checker's code; "not
        # done yet" once (the exception's name), every line within WIDTH columns.
        shown = stdout(cell) + "\n".join(errs[0].traceback)
        assert len(shown.splitlines()) <= 5 and "minigrad/exercises" not in shown \
            and "_nb" not in shown, f"check cell {cell.id} of the blank {path.name} shows:\n{shown}"
        assert re.sub(r"\W", "", shown.lower()).count("notdoneyet") == 1, shown
        assert not too_wide(shown.splitlines()), shown


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_skipped_exercises_do_not_break_the_rest_of_the_notebook(path):
    """The blank notebook, every exercise left undone, run as Run All runs it: it reaches the
    last cell (blank_run), only the cells tagged raises-exception fail (the checks, 04's class
    stubs, the errors shown on purpose). The cells after an exercise that use its result go
    on with the reference solution, say so in one line (per exercise), and then show what the
    complete notebook shows."""
    nb = blank_run(path)
    complete = course.read(path)
    for cell, done in zip(nb.cells, complete.cells):
        if "yours_or_reference" not in cell.source:
            continue
        out = stdout(cell)
        notes = re.findall(r"\(\w+ is not done yet: this cell uses the reference solution\.\)\n", out)
        assert notes and len(notes) == len(set(notes)), \
            f"cell {cell.id} should say, once per exercise, that it uses the reference:\n{out}"
        assert not too_wide("".join(notes).splitlines()), notes
        for note in notes:
            out = out.replace(note, "")
        assert out == stdout(done), f"cell {cell.id}: the reference shows other output than the solution"


def test_references_are_the_solutions_and_match_the_cells_that_use_them():
    """The reference solutions (notebooks/student/.minigrad-references.json, written by `make
    exercises`: test_blank_versions_are_up_to_date keeps it fresh) are the complete notebooks'
    solution cells, one per exercise, named as the cells after it call them; none ships with
    the package, so a graded course's students cannot import them."""
    refs = {e["exercise"]: e for e in course.references()}
    gids = [gid for _, gid in EXERCISES]
    assert list(refs) == gids
    for p in COMPLETE:
        for cell in course.read(p).cells:
            for name, gid in re.findall(r'yours_or_reference\((\w+), "(\w+)"\)', cell.source):
                assert refs[gid]["notebook"] == p.name and refs[gid]["name"] == name, (gid, name)
    package = Path(minigrad.__file__).parent
    for gid, entry in refs.items():
        body = entry["code"].split("\n", 2)[-1].strip()  # below the def line and docstring
        assert not any(body in f.read_text() for f in package.rglob("*.py")), \
            f"the solution of {gid} is in the installed package"


def reference(exercise):
    """The reference solution of ``exercise``, as yours_or_reference gives it to a notebook
    of the workspace that imports minigrad as torch."""
    namespace = {"torch": minigrad, "nn": minigrad.nn, "F": minigrad.nn.functional,
                 "optim": minigrad.optim, "math": __import__("math"), "np": __import__("numpy")}
    exec(f"from minigrad.exercises import yours_or_reference\n"  # noqa: S102
         f"ref = yours_or_reference(None, {exercise!r})", namespace)
    return namespace["ref"]


def test_a_graded_release_runs_to_the_first_cell_that_needs_an_unfinished_exercise(tmp_path):
    """A blank notebook as nbgrader releases it (no references file beside it): the checks
    fail as usual, and the first cell that needs an unfinished exercise stops Run All with one
    line naming it; up to there, nothing else fails."""
    from nbclient.exceptions import CellExecutionError

    nb = course.read(course.student_path(course.NOTEBOOKS / "02_the_graph.ipynb"))
    with pytest.raises(CellExecutionError):
        run_all(nb, tmp_path)
    ran = [c for c in nb.cells if c.cell_type == "code" and c.execution_count is not None]
    (err,) = errors(ran[-1])
    assert "yours_or_reference(my_print_graph" in ran[-1].source and err.ename == "NotDoneYet"
    assert "this cell needs my_print_graph, which is not done yet. Finish" in " ".join(err.evalue.split())
    assert not too_wide(err.traceback) and len(err.traceback) <= 3
    assert all(course.is_grade(c) for c in ran[:-1] if errors(c))


def test_yours_or_reference_keeps_yours_until_its_check_fails(capsys, monkeypatch):
    monkeypatch.chdir(workspace())
    a, b = minigrad.tensor(3.0), minigrad.tensor(4.0)

    def length(a, b):
        raise NotImplementedError()

    use = exercises.yours_or_reference(length, "nb00_length")  # never checked: yours, until it raises
    assert use(a, b).item() == 5.0 and use(a, b).item() == 5.0
    assert capsys.readouterr().out.count("length is not done yet: this cell uses the reference") == 1
    with pytest.raises(exercises.NotDoneYet):
        exercises.check_length(length)  # the learner's name still holds the stub
    assert exercises.yours_or_reference(length, "nb00_length")(a, b).item() == 5.0

    def mine(a, b):
        return a + b

    assert exercises.yours_or_reference(mine, "nb00_length")(a, b).item() == 7.0
    assert capsys.readouterr().out.count("is not done yet") == 1, "a learner's unchecked function is used, silently"
    with pytest.raises(AssertionError):
        exercises.check_length(mine)
    assert exercises.yours_or_reference(mine, "nb00_length")(a, b).item() == 5.0
    assert capsys.readouterr().out == "(length did not pass its check: this cell uses the reference solution.)\n"

    def right(a, b):
        return (a ** 2 + b ** 2).sqrt() + 0

    exercises.check_length(right)
    assert exercises.yours_or_reference(right, "nb00_length") is not right  # wrapped, but
    assert exercises.yours_or_reference(right, "nb00_length")(a, b).item() == 5.0
    assert capsys.readouterr().out == exercises.SUCCESS + "\n"


def test_yours_or_reference_takes_a_class_once_it_passes(capsys, monkeypatch):
    """04's exercises are Function classes: the stub cell raises before the class exists, so
    the name still holds None (reference), or holds the learner's class."""
    monkeypatch.chdir(workspace())
    assert reference("nb04_my_sigmoid").__name__ == "MySigmoid"
    assert "MySigmoid is not done yet" in capsys.readouterr().out

    class MySigmoid(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.sigmoid()

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output  # the local derivative forgotten

    assert exercises.yours_or_reference(MySigmoid, "nb04_my_sigmoid") is MySigmoid
    with pytest.raises(AssertionError):
        exercises.check_my_sigmoid(MySigmoid)
    assert exercises.yours_or_reference(MySigmoid, "nb04_my_sigmoid") is not MySigmoid
    assert "MySigmoid did not pass its check" in capsys.readouterr().out


def test_reveal_after_waits_for_a_prediction():
    """A reveal stops with one line while the prediction is the stub, and shows once the
    learner has predicted, right or wrong, or when no check has seen it (the PyTorch run)."""
    def length(a, b):
        raise NotImplementedError()

    exercises.reveal_after(length)  # no check has seen it
    with pytest.raises(exercises.NotDoneYet):
        exercises.check_length(length)
    with pytest.raises(exercises.NotDoneYet, match="shows the answer to the exercise above") as info:
        exercises.reveal_after(length)
    assert not too_wide(info.value._render_traceback_())

    def wrong(a, b):
        return a + b

    with pytest.raises(AssertionError):
        exercises.check_length(wrong)
    exercises.reveal_after(wrong)


def test_a_graded_course_has_no_reference_and_says_what_to_finish(monkeypatch, tmp_path):
    """Without the references file (what nbgrader releases by default), a cell that needs an
    unfinished exercise fails with one line that names it."""
    monkeypatch.chdir(tmp_path)

    def leaves_of(tensor):
        raise NotImplementedError()

    with pytest.raises(exercises.NotDoneYet) as info:
        exercises.check_leaves_of(leaves_of)
    with pytest.raises(exercises.NotDoneYet, match="needs leaves_of, which is not done yet. Finish"):
        exercises.yours_or_reference(leaves_of, "nb02_leaves_of")
    assert not too_wide(info.value._render_traceback_())


# grade_id of the solution cell -> typical wrong answers (tests/wrong_answers/nbNN.py)
WRONG = wrong_answers.WRONG
EXERCISES = [(p, course.read(p).cells[i].metadata["nbgrader"]["grade_id"])
             for p in COMPLETE for i, _ in exercise_cells(course.read(p))]


@pytest.mark.fast  # the exercise checks: make test-fast
def test_every_exercise_has_wrong_answers():
    gids = {gid for _, gid in EXERCISES}
    assert gids and all(WRONG.get(g) for g in gids), f"add typical wrong answers for {gids - set(WRONG)}"


def substitute(source: str, code: str) -> str:
    lines = source.split("\n")
    start = next(i for i, line in enumerate(lines) if "### BEGIN SOLUTION" in line)
    end = next(i for i, line in enumerate(lines) if "### END SOLUTION" in line)
    return "\n".join(lines[:start] + code.split("\n") + lines[end + 1:])


_checked = {}  # path -> {grade_id: [check cells]}, one kernel per notebook (see exercise_checks)


def exercise_checks(path, grade_ids):
    """Each exercise of ``grade_ids`` in the complete notebook ``path``, with its solution and
    each of its typical wrong answers, each followed by its check cell; returns
    {grade_id: [check cells]}, the solution's first.

    One kernel per notebook (its start and imports cost more than most exercises): the cells
    run in order up to the last of ``grade_ids``; at an exercise, the solution runs first, then
    each wrong answer and the check after it, then the solution again, so that the cells
    after it run on the solution's results, as in the complete notebook."""
    from jupyter_client import KernelManager
    from nbclient import NotebookClient
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    nb = course.read(path)
    last = max(i for i, c in enumerate(nb.cells)
               if course.is_solution(c) and c.metadata["nbgrader"]["grade_id"] in grade_ids)
    km = KernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
    client = NotebookClient(nb, km=km, timeout=300, allow_errors=True,
                            resources={"metadata": {"path": str(course.NOTEBOOKS)}})
    checks = {}
    with client.setup_kernel(cwd=str(course.NOTEBOOKS), cleanup_kc=True):  # see course.execute
        for i, cell in enumerate(nb.cells[:last + 1]):
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id") if course.is_solution(cell) else None
            if grade_id in grade_ids:
                sources = [cell.source] + [substitute(cell.source, w[1]) for w in WRONG[grade_id]]
                checks[grade_id] = []
                for source in sources:
                    solution, check = copy.deepcopy(cell), copy.deepcopy(nb.cells[i + 1])
                    solution.source = source
                    client.execute_cell(solution, i)
                    client.execute_cell(check, i + 1)
                    checks[grade_id].append(check)
            client.execute_cell(copy.deepcopy(cell), i)
    return checks


@pytest.fixture(scope="module")
def selected_exercises(request):
    """{notebook: the grade ids this session checks in it} (all, or those -k or -m picked)."""
    wanted = {}
    for item in request.session.items:
        if item.path == request.path and item.originalname == "test_check_rejects_wrong_answers_and_accepts_the_solution":
            wanted.setdefault(item.callspec.params["path"], set()).add(item.callspec.params["grade_id"])
    return wanted


# make test-fast: each notebook's first exercise (the one after the fewest cells)
FIRST_EXERCISES = {p: g for p, g in reversed(EXERCISES)}


@pytest.mark.parametrize("path,grade_id", [
    pytest.param(p, g, id=f"{p.stem}-{g}", marks=[pytest.mark.fast] if FIRST_EXERCISES[p] == g else [])
    for p, g in EXERCISES])
def test_check_rejects_wrong_answers_and_accepts_the_solution(path, grade_id, selected_exercises):
    """The solution passes; each typical wrong answer (tests/wrong_answers/) is rejected with
    an AssertionError whose hint names the mistake without giving the answer away (shown in
    Jupyter as the hint alone)."""
    if path not in _checked:
        _checked[path] = exercise_checks(path, selected_exercises[path])
    wrongs = WRONG[grade_id]
    solution, *checks = _checked[path][grade_id]
    assert not errors(solution) and stdout(solution) == exercises.SUCCESS + "\n", errors(solution)
    problems = []
    for (name, _, phrase, forbidden), check in zip(wrongs, checks):
        errs = errors(check)
        hint = " ".join(errs[0].evalue.split()) if errs else ""  # as one line: it is wrapped at WIDTH
        if not errs:
            problems.append(f"{name}: passed the check")
        elif errs[0].ename != "AssertionError":
            problems.append(f"{name}: {errs[0].ename}: {errs[0].evalue}")
        elif phrase not in hint:
            problems.append(f"{name}: the hint lacks {phrase!r}: {errs[0].evalue}")
        elif any(word in hint for word in forbidden):
            problems.append(f"{name}: the hint gives the answer away: {errs[0].evalue}")
        elif "minigrad/exercises" in "".join(errs[0].traceback):
            problems.append(f"{name}: Jupyter shows the checker's code, not the hint alone")
        elif too_wide(errs[0].traceback):
            problems.append(f"{name}: lines wider than {WIDTH} columns: {errs[0].traceback}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", COMPLETE, ids=IDS)
def test_a_wrong_answer_does_not_break_the_rest_of_the_notebook(path):
    """The notebook with a typical wrong answer in every exercise (the first of
    tests/wrong_answers/), run as Run All runs it: it reaches the last cell; each check fails
    with its hint; the cells that use an exercise's result go on with the reference solution,
    say so in one line, and show what the complete notebook shows."""
    complete = course.read(path)
    nb = copy.deepcopy(complete)
    for cell in nb.cells:
        if course.is_solution(cell):
            cell.source = substitute(cell.source, WRONG[cell.metadata["nbgrader"]["grade_id"]][0][1])
        if cell.cell_type == "code":
            cell.outputs = []
    run_all(nb)
    for cell, done in zip(nb.cells, complete.cells):
        if course.is_grade(cell):
            (err,) = errors(cell)
            assert err.ename == "AssertionError", f"cell {cell.id}: {err.ename}: {err.evalue}"
            assert not too_wide(err.traceback), err.traceback
        if "yours_or_reference" in cell.source:
            out = stdout(cell)
            notes = re.findall(r"\(\w+ did not pass its check: this cell uses the reference solution\.\)\n", out)
            assert notes, f"cell {cell.id} should say that it uses the reference:\n{out}"
            assert not too_wide("".join(notes).splitlines()), notes
            for note in notes:
                out = out.replace(note, "")
            assert out == stdout(done), f"cell {cell.id}: the reference shows other output than the solution"


@pytest.mark.fast  # the exercise checks: make test-fast
def test_checks_in_process(monkeypatch):
    """The same checks, called directly (fast, and with exact exception types)."""
    monkeypatch.chdir(workspace())
    def stub(*args):
        raise NotImplementedError()

    with pytest.raises(exercises.NotDoneYet, match="still raises NotImplementedError"):
        exercises.check_line_grads(stub)
    exercises.check_line_grads(lambda w, x, b: (minigrad.tensor(x), w, 1))  # tensors are fine
    with pytest.raises(AssertionError, match="swapped"):
        exercises.check_line_grads(lambda w, x, b: (w, x, 1.0))

    right = {"A": "same", "B": "no change", "C": "different", "D": "error", "E": "no change",
             "F": "same"}
    exercises.check_loop_predictions(lambda: ({k: v.upper() + " " for k, v in right.items()}, -0.008))
    with pytest.raises(AssertionError, match="not every loop outcome is right") as info:
        exercises.check_loop_predictions(lambda: ({**right, "C": "same"}, -0.008))
    with pytest.raises(AssertionError) as other:
        exercises.check_loop_predictions(lambda: ({**right, "A": "error", "B": "same"}, -0.008))
    assert str(info.value) == str(other.value)  # neither named nor counted: trying letters finds nothing

    fixed_evaluate = reference("nb09_fixed_evaluate")

    def usual_pattern(model, loader, loss_fn):  # right numbers, but always back to training mode
        result = fixed_evaluate(model, loader, loss_fn)
        model.train()
        return result

    with pytest.raises(AssertionError, match="mode it was in"):
        exercises.check_fixed_evaluate(usual_pattern)


@pytest.mark.fast  # the exercise checks: make test-fast
def test_a_failed_check_shows_its_hint_only():
    """In IPython a check's failure renders as the hint (_render_traceback_); it is still an
    AssertionError, so the cell fails (and nbgrader scores it zero). An AssertionError raised
    by the learner's own code is left as it is, traceback and all."""
    with pytest.raises(AssertionError, match="swapped") as info:
        exercises.check_line_grads(lambda w, x, b: (w, x, 1.0))
    assert info.value._render_traceback_() == f"\x1b[0;31mAssertionError\x1b[0m: {info.value}".split("\n")
    with pytest.raises(exercises.NotDoneYet) as info:
        exercises.check_line_grads(lambda w, x, b: exec("raise NotImplementedError()"))
    assert info.value._render_traceback_() == f"\x1b[0;31mNotDoneYet\x1b[0m: {info.value}".split("\n")

    def mine(w, x, b):
        assert w > 100, "my own assertion"

    with pytest.raises(AssertionError, match="my own assertion") as info:
        exercises.check_line_grads(mine)
    assert not hasattr(info.value, "_render_traceback_")


# --- nbval settings ----------------------------------------------------------------------

def test_sanitizer_replaces_memory_addresses():
    from nbval.plugin import get_sanitize_patterns

    patterns = get_sanitize_patterns((course.NOTEBOOKS / "nbval_sanitize.cfg").read_text())
    assert patterns

    def clean(s):
        for regex, repl in patterns:
            s = re.sub(regex, repl, s)
        return s

    assert clean("<Generator at 0x7fad40046bd0>") == clean("<Generator at 0x7f29a0d23090>")
    assert clean("tensor(2.)") == "tensor(2.)"


def _nbval(tmp_path, nb):
    """Run nbval as ``make test`` does on one notebook in tmp_path; returns the exit code."""
    tmp_path.mkdir(exist_ok=True)
    shutil.copy(course.NOTEBOOKS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    course.write(nb, tmp_path / "nb.ipynb")
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval",
         "--nbval-current-env", "--nbval-sanitize-with", str(course.NOTEBOOKS / "nbval_sanitize.cfg"),
         "nb.ipynb"], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    return res.returncode, res.stdout + res.stderr


@pytest.fixture
def graph_notebook():
    """A complete notebook with a Graphviz drawing and printed output."""
    for p in COMPLETE:
        nb = course.read(p)
        for i, c in enumerate(nb.cells):
            if any("image/svg+xml" in o.get("data", {}) for o in c.get("outputs", [])) and stdout(c):
                return nb, i
    pytest.skip("no complete notebook stores an SVG drawing")


def test_nbval_ignores_svg_stderr_and_addresses(tmp_path, graph_notebook):
    nb, i = graph_notebook
    nb = copy.deepcopy(nb)
    outs = nb.cells[i].outputs
    for o in outs:
        if "image/svg+xml" in o.get("data", {}):
            o.data["image/svg+xml"] = "<svg>drawn by another Graphviz</svg>"
    outs.insert(0, nbformat.v4.new_output("stream", name="stderr", text="a warning at 0x1234\n"))
    code, log = _nbval(tmp_path, nb)
    assert code == 0, log


def test_nbval_still_compares_stdout(tmp_path, graph_notebook):
    nb, i = graph_notebook
    nb = copy.deepcopy(nb)
    for o in nb.cells[i].outputs:
        if o.output_type == "stream" and o.name == "stdout":
            o.text = o.text.replace("AddBackward0", "SubBackward0")
    code, log = _nbval(tmp_path, nb)
    assert code != 0, log


# --- doctor ------------------------------------------------------------------------------

def test_doctor_runs_and_reports():
    res = subprocess.run([sys.executable, "-m", "minigrad.doctor"], capture_output=True,
                         text=True, timeout=120, cwd=ROOT, check=False)
    assert res.returncode == 0, res.stderr
    for word in ("python", "numpy", "minigrad", "jupyterlab", "nbval", "graphviz", "dot",
                 "Jupyter kernel", "Summary:"):
        assert word in res.stdout, res.stdout
    assert minigrad.__version__ in res.stdout


def test_doctor_says_what_to_do_without_dot(monkeypatch):
    from minigrad import doctor

    monkeypatch.setattr(doctor.shutil, "which", lambda name: None)
    lines, todo = doctor.report()
    assert any(t.startswith("dot:") and "install Graphviz" in t for t in todo)
    assert "To do:" in lines
