"""nbgrader's settings for this course, read by every nbgrader command run from the
repository root (README, "Instructors").

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
