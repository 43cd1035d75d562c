"""The instructor's whole cycle with nbgrader, as docs/instructors.md gives it, with the
repository's nbgrader_config.py, when nbgrader is installed (``MINIGRAD_REQUIRE_NBGRADER=1``,
set by .ci/run, makes a missing nbgrader a failure).

One run of the cycle (a module fixture, about 50 s on 2 cores), in a temporary folder: an
assignment made by ``tools/course.py assignment`` from notebooks 00, 01 and the capstone 12
(which reads the data set), generated, released through an nbgrader exchange in a temporary
folder, fetched and submitted by two students (alice hands in the solutions, bob the blank
notebooks), collected, autograded, its feedback generated, and the grades exported. Then:

- every command exits 0 and prints no warning (no line matching /warning/i on stdout or
  stderr) but, for now, nbconvert's "Alternative text is missing" (the xfail test below;
  docs/instructors.md says why), and ipykernel's notice that a kernel runs over TCP, which
  only Windows still prints: elsewhere the kernels use Unix sockets (nbgrader_config.py);
- the release is the blank version of the assignment's notebooks, with the data set;
- the collected submissions are in course/submitted/<student>/<assignment>/;
- the scores are right: alice full marks, bob 0, in the gradebook and in grades.csv;
- grades.csv is written under the course folder (course/grades.csv, git-ignored), not in the
  folder nbgrader runs from;
- each student has a feedback page.
"""
from __future__ import annotations

import csv
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import course

NUMBERS = ["00", "01", "12"]  # 12 reads data/digits.csv.gz, released with it
STUDENTS = ("alice", "bob")  # alice hands in the solutions, bob the blank notebooks

# ipykernel's notice, printed by every kernel started over TCP (Windows; elsewhere
# nbgrader_config.py gives the kernels Unix sockets):
# "[IPKernelApp] WARNING | Kernel is running over TCP without encryption. All communication ..."
TCP_NOTICE = re.compile(r"^\[IPKernelApp\] WARNING \| Kernel is running over TCP without encryption\.")
# nbconvert's, once per feedback page with images: "[GenerateFeedbackApp | WARNING] Alternative
# text is missing on 4 image(s)." (nbconvert/exporters/html.py; docs/instructors.md).
ALT_TEXT_NOTICE = re.compile(r"^\[GenerateFeedbackApp \| WARNING\] Alternative text is missing on \d+ image")


def nbgrader_or_skip():
    if importlib.util.find_spec("nbgrader") is None:
        if os.environ.get("MINIGRAD_REQUIRE_NBGRADER") == "1":
            pytest.fail("MINIGRAD_REQUIRE_NBGRADER=1 but nbgrader is not installed "
                        "(pip install -e '.[instructor]')")
        pytest.skip("nbgrader is not installed (pip install -e '.[instructor]')")


class Cycle:
    """The folders of one run, and what each command printed."""

    def __init__(self, base: Path):
        self.base = base
        self.instructor = base / "instructor"  # where the instructor runs nbgrader
        self.root = self.instructor / "course"  # its course folder (nbgrader_config.py)
        self.exchange = base / "exchange"
        self.logs: list[tuple[str, str]] = []  # (command, stdout + stderr)

    def run(self, cwd: Path, *args: str) -> str:
        # nbgrader runs the `alembic` command of its environment: this Python's bin/ first.
        env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
        res = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env,
                             capture_output=True, text=True, timeout=600, check=False)
        log = res.stdout + res.stderr
        command = f"(in {cwd.name}/) nbgrader {' '.join(args)}"
        assert res.returncode == 0, f"{command} exited {res.returncode}:\n{log}"
        self.logs.append((command, log))
        return log

    def instructor_run(self, *args: str) -> str:
        return self.run(self.instructor, *args)

    def student_run(self, student: str, *args: str) -> str:
        return self.run(self.base / student, *args)


@pytest.fixture(scope="module")
def cycle(tmp_path_factory):
    nbgrader_or_skip()
    c = Cycle(tmp_path_factory.mktemp("nbgrader"))
    # The instructor: the repository's config, in a folder of its own (its course folder is
    # instructor/course), and the exchange a JupyterHub would have in /srv/nbgrader/exchange,
    # made beforehand and writable by all (else release_assignment warns that it makes it).
    c.instructor.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", c.instructor / "nbgrader_config.py")
    c.exchange.mkdir()
    c.exchange.chmod(0o777)
    exchange = f"--Exchange.root={c.exchange}"
    # The students: each a folder with the config a hub gives them. Here all are one OS
    # user, so each names itself (--student) and keeps its own cache of what it submitted.
    for student in STUDENTS:
        (c.base / student).mkdir()
        (c.base / student / "nbgrader_config.py").write_text(
            "c = get_config()  # noqa: F821\n"
            'c.CourseDirectory.course_id = "minigrad"\n'
            f"c.Exchange.root = {str(c.exchange)!r}\n"
            f"c.Exchange.cache = {str(c.base / student / 'cache')!r}\n")

    course.write_assignment("ps1", NUMBERS, c.root)
    c.instructor_run("generate_assignment", "ps1")
    c.instructor_run("release_assignment", "ps1", exchange)
    for student in STUDENTS:
        c.student_run(student, "fetch_assignment", "ps1")
    # alice solves everything: the complete notebooks in place of the fetched ones.
    for p in (c.root / "source" / "ps1").glob("*.ipynb"):
        shutil.copy(p, c.base / "alice" / "ps1" / p.name)
    for student in STUDENTS:
        c.student_run(student, "submit", "ps1", f"--student={student}")
    # check_owner: every submission here belongs to the one OS user, not to its student.
    c.instructor_run("collect", "ps1", exchange, "--ExchangeCollect.check_owner=False")
    c.instructor_run("autograde", "ps1")
    c.instructor_run("generate_feedback", "ps1")
    c.instructor_run("export")
    return c


def test_every_command_is_quiet_but_for_the_kernels_tcp_notice(cycle):
    """No SQLAlchemy SAWarning (nbgrader_config.py), no nbgrader warning, no Python warning."""
    loud = [f"{command}: {line}" for command, log in cycle.logs for line in log.splitlines()
            if re.search(r"warning", line, re.IGNORECASE)
            and not TCP_NOTICE.match(line) and not ALT_TEXT_NOTICE.match(line)]
    assert loud == []
    commands = [command.split(") ")[1].split()[1] for command, _ in cycle.logs]
    assert commands == ["generate_assignment", "release_assignment", "fetch_assignment",
                        "fetch_assignment", "submit", "submit", "collect", "autograde",
                        "generate_feedback", "export"]


@pytest.mark.skipif(os.name != "posix", reason="Windows has no Unix sockets: kernels use TCP")
def test_kernels_use_unix_sockets(cycle):
    """nbgrader_config.py: one socket prefix per process, so that autograde processes running
    at once cannot take the same TCP port (docs/instructors.md, large classes)."""
    autograde = next(log for command, log in cycle.logs if "autograde" in command)
    assert "Converting notebook" in autograde
    assert not [line for line in autograde.splitlines() if TCP_NOTICE.match(line)]


@pytest.mark.xfail(strict=True, reason="the drawings (SVG) and figures (PNG) carry no alt text "
                   "that nbconvert's feedback template reads: see docs/instructors.md")
def test_feedback_images_have_alt_text(cycle):
    feedback = next(log for command, log in cycle.logs if "generate_feedback" in command)
    assert not [line for line in feedback.splitlines() if ALT_TEXT_NOTICE.match(line)]


def test_the_release_is_the_blank_version_with_the_data(cycle):
    release = cycle.root / "release" / "ps1"
    assert (release / "data" / "digits.csv.gz").read_bytes() == \
        (course.DATA_DIR / "digits.csv.gz").read_bytes(), "the data set is released with 12"
    notebooks = sorted(p.name for p in (cycle.root / "source" / "ps1").glob("*.ipynb"))
    assert [n[:2] for n in notebooks] == NUMBERS
    for name in notebooks:
        released = course.read(release / name)
        ours = course.blank(course.read(cycle.root / "source" / "ps1" / name))
        assert [c.source for c in released.cells] == [c.source for c in ours.cells], \
            f"nbgrader's release of {name} differs from tools/course.py's blank version"
        fetched = course.read(cycle.base / "bob" / "ps1" / name)
        assert [c.source for c in fetched.cells] == [c.source for c in released.cells]


def test_collect_puts_submissions_in_the_course_folder(cycle):
    for student in STUDENTS:
        folder = cycle.root / "submitted" / student / "ps1"
        assert sorted(p.name[:2] for p in folder.glob("*.ipynb")) == NUMBERS
        assert (folder / "timestamp.txt").exists()


def total_points():
    return sum(c.metadata["nbgrader"]["points"] for p in course.complete_notebooks()
               if p.name[:2] in NUMBERS for c in course.read(p).cells if course.is_grade(c))


def test_scores_solved_full_marks_blank_zero(cycle):
    from nbgrader.api import Gradebook

    total = total_points()
    assert total > 0
    with Gradebook(f"sqlite:///{cycle.root / 'gradebook.db'}") as gb:
        alice, bob = (gb.find_submission("ps1", s) for s in STUDENTS)
        assert (alice.score, alice.max_score) == (total, total)
        assert (bob.score, bob.max_score) == (0, total)


def test_grades_csv_is_in_the_course_folder_and_git_ignored(cycle):
    grades = cycle.root / "grades.csv"
    assert not (cycle.instructor / "grades.csv").exists(), "nbgrader's default: the folder it runs in"
    with grades.open() as f:
        rows = {row["student_id"]: row for row in csv.DictReader(f)}
    total = total_points()
    assert sorted(rows) == sorted(STUDENTS)
    assert float(rows["alice"]["score"]) == total and float(rows["bob"]["score"]) == 0
    assert all(float(row["max_score"]) == total and row["assignment"] == "ps1" for row in rows.values())
    # In the repository: course/ (where grades.csv goes) and any stray grades.csv are ignored.
    if shutil.which("git") and (ROOT / ".git").exists():
        for path in ("course/grades.csv", "grades.csv"):
            res = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
            assert res.returncode == 0, f"git does not ignore {path}"


def test_each_student_has_a_feedback_page(cycle):
    for student in STUDENTS:
        pages = sorted(p.name[:2] for p in (cycle.root / "feedback" / student / "ps1").glob("*.html"))
        assert pages == NUMBERS


def test_feedback_shows_each_failed_check_as_its_hint_within_88_columns(cycle):
    """Under autograde a failed check is an error output (it scores zero); the feedback page
    shows it as the hint alone, no traceback through the checker's code, and no line of it
    scrolls sideways (the hints are wrapped at 88 columns, "NotDoneYet: " included)."""
    import html

    for p in (cycle.root / "autograded" / "bob" / "ps1").glob("*.ipynb"):
        for cell in (c for c in course.read(p).cells if course.is_grade(c)):
            (err,) = [o for o in cell.outputs if o.output_type == "error"]
            assert err.ename == "NotDoneYet" and "minigrad/exercises" not in "".join(err.traceback)
    pages = sorted((cycle.root / "feedback" / "bob" / "ps1").glob("*.html"))
    assert [p.name[:2] for p in pages] == NUMBERS
    for page in pages:
        blocks = [html.unescape(re.sub(r"<[^>]+>", "", block)) for block in
                  re.findall(r"(?s)<pre>(.*?)</pre>", page.read_text(encoding="utf-8"))]
        hints = [b for b in blocks if "NotDoneYet" in b]
        assert hints, f"{page.name}: no failed check's hint on the page"
        for hint in hints:
            assert "Traceback" not in hint and "_nb" not in hint, hint
            assert max(len(line) for line in hint.splitlines()) <= 88, hint
