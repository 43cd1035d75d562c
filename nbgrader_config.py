"""nbgrader's settings for this course, read by every nbgrader command run from the
repository root (docs/instructors.md).

The course folder is ``course/`` here, which git ignores: nbgrader keeps in it the
assignments' sources, what it releases, the students' submissions, their grades and
feedback, and ``gradebook.db``, none of which belongs in the repository.

An assignment is one or more complete notebooks in ``course/source/<assignment>/``, with
the data files they read: nbgrader releases every other file of that folder beside the
blank notebooks, and autograde copies them beside each submission. ``python tools/course.py
assignment ps3 10 11`` puts notebooks 10 and 11 there, and ``notebooks/data/`` (the
capstone's data set and its licence note) with them when one of them reads ``data/``.
"""
import os

c = get_config()  # noqa: F821 (nbgrader provides it)

HERE = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.course_id = "minigrad"
c.CourseDirectory.root = os.path.join(HERE, "course")  # absolute: nbgrader warns otherwise
c.CourseDirectory.source_directory = "source"  # course/source/<assignment>/: complete notebooks, data/
c.CourseDirectory.release_directory = "release"  # course/release/<assignment>/: what students get
c.CourseDirectory.submitted_directory = "submitted"  # course/submitted/<student>/<assignment>/
# Files of the source folder that are not released (nbgrader's defaults).
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback"]

# An assignment or student nbgrader has not seen yet is added to the gradebook on the way.
c.GenerateAssignment.create_assignment = True
c.Autograde.create_student = True

# The kernels that run the students' notebooks (autograde, validate) talk to nbgrader over Unix
# sockets, not local TCP ports (Windows has no such sockets: TCP there). With TCP, several
# autograde processes at once (docs/instructors.md, "large classes") can pick the same free port:
# a kernel then dies ("Address already in use") and its notebook scores 0, as happened once
# in 30 submissions graded by 4 processes. One socket prefix per process (its pid), so none
# is shared. It also ends ipykernel's notice "Kernel is running over TCP without encryption".
if os.name == "posix":
    import tempfile

    c.KernelManager.transport = "ipc"
    c.KernelManager.ip = os.path.join(tempfile.gettempdir(), f"minigrad-nbgrader-{os.getpid()}")

# `nbgrader export` writes the grades to course/grades.csv (git-ignored with course/), not to
# grades.csv in the folder it is run from (nbgrader's default). ExportPlugin, not
# CsvExportPlugin: `nbgrader export --to FILE` (which sets ExportPlugin.to) still wins.
c.ExportPlugin.to = os.path.join(HERE, "course", "grades.csv")


def _add_submission_without_autoflush():
    """Every first autograde of a submission printed SQLAlchemy's "SAWarning: Object of type
    <SubmittedAssignment> not in session, add operation along 'Assignment.submissions' will not
    proceed" (and the same for Student.submissions and Notebook.submissions), with nbgrader
    0.9.6 and any SQLAlchemy from 2.0.19 on; harmless (the scores are right), but noise.

    Why: nbgrader's Gradebook.add_submission builds the new submission linked to the stored
    assignment and student, and adds it to the session only at the end. On the way it reads
    ``submission.assignment.notebooks``, a lazy load, which first flushes the session; SQLAlchemy 2
    no longer puts an object into the session through a backref (cascade_backrefs is gone), so
    that flush meets the not-yet-added submission in the assignment's and student's collections
    and warns that it skips it (the warning exists since SQLAlchemy 2.0.19). No version pin
    helps: 2.0.0-2.0.18 do not import on Python 3.13, and 1.4 has no wheels for it. The fix is
    what SQLAlchemy's message suggests: build the submission with autoflush off (the method
    commits it at its end). nbgrader reads this file in every command that opens the gradebook.
    Remove this once nbgrader's add_submission does the same."""
    try:
        from nbgrader.api import Gradebook
    except ImportError:
        return
    add = Gradebook.add_submission
    if getattr(add, "minigrad_no_autoflush", False):
        return

    def add_submission(self, *args, **kwargs):
        with self.db.no_autoflush:
            return add(self, *args, **kwargs)

    add_submission.minigrad_no_autoflush = True
    add_submission.__doc__ = add.__doc__
    Gradebook.add_submission = add_submission


_add_submission_without_autoflush()
