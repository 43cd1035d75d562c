"""The learner's workspace (``make lab``, ``make update-workspace``, ``make lab-solutions``).

- ``make lab`` on a fresh clone opens JupyterLab on ``workspace/``, a copy of the blank
  notebooks and of the data, never on the tracked notebooks; after working there (saving a
  notebook through JupyterLab's contents API) ``git status`` is clean, and a second ``make
  lab`` keeps the learner's work (a real JupyterLab server, asked through its REST API);
- ``update_workspace`` adds new notebooks, replaces only the ones the learner has not
  changed (opening and saving in JupyterLab is not a change), and offers the others as
  ``NN_name.new.ipynb`` beside the learner's file;
- the solutions are opened on purpose, as read-only copies whose names (and so JupyterLab's
  tab titles) differ from the learner's notebooks; read-only for root too (every cell locked,
  a first cell saying it is a copy).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import course

nbformat = pytest.importorskip("nbformat")

BLANK = sorted(p.name for p in course.STUDENT_DIR.glob("*.ipynb"))


def make_workspace(tmp_path, student_dir=course.STUDENT_DIR):
    ws = tmp_path / "workspace"
    lines = course.open_workspace(ws) if student_dir == course.STUDENT_DIR else \
        course.update_workspace(ws, student_dir)
    return ws, lines


def edit(path, text="x = 1  # my work"):
    nb = course.read(path)
    nb.cells.append(nbformat.v4.new_code_cell(text))
    course.write(nb, path)


# --- update_workspace ----------------------------------------------------------------------

def test_first_run_copies_the_blank_notebooks_and_the_data(tmp_path):
    ws, lines = make_workspace(tmp_path)
    assert "Made your workspace" in lines[0]
    assert sorted(p.name for p in ws.glob("*.ipynb")) == BLANK
    for name in BLANK:
        assert (ws / name).read_bytes() == (course.STUDENT_DIR / name).read_bytes()
    assert (ws / "data" / "digits.csv.gz").read_bytes() == \
        (course.DATA_DIR / "digits.csv.gz").read_bytes()
    assert not any("(solution)" in p.name or "BEGIN SOLUTION" in p.read_text()
                   for p in ws.rglob("*.ipynb")), "no solutions in the workspace unless asked"


def test_later_runs_keep_the_learners_work(tmp_path):
    ws, _ = make_workspace(tmp_path)
    edit(ws / BLANK[2])
    mine = (ws / BLANK[2]).read_text()
    assert course.open_workspace(ws) == []  # make lab again: nothing to say, nothing changed
    assert course.update_workspace(ws) == []
    assert (ws / BLANK[2]).read_text() == mine


def test_the_reference_solutions_come_along_and_are_renewed(tmp_path):
    """The fallbacks' reference solutions are copied in with the notebooks; after a `git pull`
    that changes them, `make lab` renews them (they are not the learner's work)."""
    ws, _ = make_workspace(tmp_path)
    refs = ws / course.REFERENCES_FILE
    assert refs.read_bytes() == (course.STUDENT_DIR / course.REFERENCES_FILE).read_bytes()
    refs.write_text("[]\n")  # last week's
    assert course.open_workspace(ws) == []
    assert refs.read_bytes() == (course.STUDENT_DIR / course.REFERENCES_FILE).read_bytes()


@pytest.fixture
def new_course(tmp_path):
    """A copy of notebooks/student/ to play the next week's version: one notebook changed,
    one added."""
    student = tmp_path / "student"
    shutil.copytree(course.STUDENT_DIR, student)
    return student


def change(path):
    nb = course.read(path)
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("A clearer explanation."))
    course.write(nb, path)


def test_update_adds_new_notebooks_and_offers_changed_ones_beside_the_learners(tmp_path, new_course):
    ws, _ = make_workspace(tmp_path, new_course)
    edit(ws / BLANK[0])                      # the learner works in 00
    mine = (ws / BLANK[0]).read_text()
    change(new_course / BLANK[0])            # and the course changes 00, 01 and adds 12
    change(new_course / BLANK[1])
    shutil.copy(new_course / BLANK[1], new_course / "12_more.ipynb")

    preview = course.update_workspace(ws, new_course, dry_run=True)
    assert len(preview) == 3 and not (ws / "12_more.ipynb").exists()
    lines = course.update_workspace(ws, new_course)
    assert lines == preview
    assert (ws / BLANK[0]).read_text() == mine, "the learner's work is never overwritten"
    offer = ws / BLANK[0].replace(".ipynb", ".new.ipynb")
    assert offer.read_bytes() == (new_course / BLANK[0]).read_bytes()
    assert any(str(offer) in line for line in lines)
    # Untouched notebooks are replaced; new ones added.
    assert (ws / BLANK[1]).read_bytes() == (new_course / BLANK[1]).read_bytes()
    assert (ws / "12_more.ipynb").exists()
    # Offered once: the next update has nothing to do, and still keeps the learner's file.
    offer.unlink()
    assert course.update_workspace(ws, new_course) == []
    assert (ws / BLANK[0]).read_text() == mine and not offer.exists()


def test_opening_and_saving_in_jupyterlab_is_not_a_change(tmp_path, new_course):
    from test_course import kernel_language_info, save_as_jupyterlab_does

    ws, _ = make_workspace(tmp_path, new_course)
    save_as_jupyterlab_does(ws, BLANK[3], kernel_language_info())
    change(new_course / BLANK[3])
    assert course.update_workspace(ws, new_course) == [f"updated {ws / BLANK[3]} (you had not changed it)"]
    assert (ws / BLANK[3]).read_bytes() == (new_course / BLANK[3]).read_bytes()


def test_a_broken_file_of_the_learner_is_kept(tmp_path, new_course):
    ws, _ = make_workspace(tmp_path, new_course)
    (ws / BLANK[4]).write_text("{ half-saved")
    change(new_course / BLANK[4])
    course.update_workspace(ws, new_course)
    assert (ws / BLANK[4]).read_text() == "{ half-saved"
    assert (ws / BLANK[4].replace(".ipynb", ".new.ipynb")).exists()


def test_solutions_are_read_only_copies_with_their_own_names(tmp_path):
    ws, _ = make_workspace(tmp_path)
    target = course.write_solutions(ws)
    assert target == ws / "solutions"
    names = sorted(p.name for p in target.glob("*.ipynb"))
    assert names == [n.replace(".ipynb", " (solution).ipynb") for n in BLANK]
    for name in names:
        p = target / name
        assert not os.stat(p).st_mode & 0o222, f"{name} should be read-only"
        # Read-only for root too, who can write the file: JupyterLab refuses to edit or
        # delete a cell marked so, and the first cell says the file is a copy.
        copy_, complete = course.read(p), course.read(course.NOTEBOOKS / name.replace(" (solution)", ""))
        assert all(c.metadata.get("editable") is False and c.metadata.get("deletable") is False
                   for c in copy_.cells)
        note = copy_.cells[0]
        assert note.cell_type == "markdown" and "read-only copy" in note.source
        assert "make lab-solutions" in note.source and name.replace(" (solution)", "") in note.source
        nbformat.validate(copy_)

        def unlocked(cells):  # the cells as written, without those two keys
            return [{**c, "metadata": {k: v for k, v in c.metadata.items()
                                       if k not in ("editable", "deletable")}} for c in cells]

        assert unlocked(copy_.cells[1:]) == unlocked(complete.cells), "the solutions and outputs, as they are"
        assert copy_.metadata == complete.metadata
    assert (target / "data" / "digits.csv.gz").exists()
    course.write_solutions(ws)  # renewed: no permission error on the read-only files
    assert sorted(p.name for p in ws.glob("*.ipynb")) == BLANK, "the learner's files are untouched"


# --- make lab on a fresh clone -------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(port, path, token, method="GET", body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.load(res)


def git(repo, *args):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                          cwd=repo, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def clone(tmp_path):
    """A fresh repository holding what `make lab` needs, committed."""
    if shutil.which("make") is None or shutil.which("git") is None:
        pytest.skip("needs GNU make and git")
    repo = tmp_path / "clone"
    repo.mkdir()
    for name in ("Makefile", ".gitignore"):
        shutil.copy(ROOT / name, repo / name)
    shutil.copytree(ROOT / "tools", repo / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(course.NOTEBOOKS, repo / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a fresh clone")
    return repo


def run_make_lab(repo, target="lab"):
    """Start `make <target>` (without its setup step: this Python's environment stands in for
    .venv) on a free port; returns (process, port, token) once JupyterLab answers."""
    venv = Path(sys.executable).parent.parent
    if not (venv / "bin" / "jupyter").exists():
        pytest.skip(f"no jupyter in {venv}/bin")
    port, token = free_port(), "minigrad-test"
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    proc = subprocess.Popen(
        ["make", "-o", "setup", target, f"VENV={venv}",
         f"LAB_ARGS=--port={port} --IdentityProvider.token={token} --ServerApp.port_retries=0"],
        cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    deadline = time.monotonic() + 90
    while True:
        try:
            api(port, "status", token)
            return proc, port, token
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop(proc)
                pytest.fail(f"JupyterLab did not start:\n{proc.stdout.read()}")
            time.sleep(0.5)


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        return proc.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return proc.communicate()[0]


def test_make_lab_opens_a_workspace_and_git_status_stays_clean(clone):
    proc, port, token = run_make_lab(clone)
    try:
        listing = api(port, "contents/", token)
        names = sorted(item["name"] for item in listing["content"])
        assert names == sorted(BLANK + ["data"]), "JupyterLab opens the workspace, not notebooks/"
        # The learner works: opens a notebook, fills in an exercise, saves (as JupyterLab does).
        model = api(port, f"contents/{BLANK[2]}", token)
        nb = model["content"]
        solution = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution"))
        solution["source"] = "def my_print_graph(node, depth=0):\n    print(node)"
        api(port, f"contents/{BLANK[2]}", token, "PUT", {"type": "notebook", "format": "json", "content": nb})
    finally:
        log = stop(proc)
    assert "Starting JupyterLab on workspace/" in log, log
    assert git(clone, "status", "--porcelain") == "", "the learner's work is git-ignored"
    mine = (clone / "workspace" / BLANK[2]).read_text()
    assert "print(node)" in mine
    # make lab again, then the solutions on purpose: the learner's work stays.
    proc, port, token = run_make_lab(clone, "lab-solutions")
    try:
        solutions = sorted(item["name"] for item in api(port, "contents/solutions", token)["content"])
        assert "02_the_graph (solution).ipynb" in solutions
    finally:
        stop(proc)
    assert (clone / "workspace" / BLANK[2]).read_text() == mine
    assert git(clone, "status", "--porcelain") == ""
