"""The course's code runs under real PyTorch (issue 16).

Every complete notebook is run a second time with ``import torch`` in place of ``import
minigrad as torch`` (tools/course.py: ``torch_version``), and what each cell prints is compared
with the notebook's stored outputs, which nbval keeps equal to minigrad's. Left out of the
PyTorch run: cells tagged ``minigrad-only`` (minigrad.viz, minigrad.fusion, minigrad's insides)
and the exercise check cells. Run, not compared: cells tagged ``random-output`` (minigrad
draws PyTorch's random numbers, so few remain: those whose float32 results differ in a last
digit; such a cell must then print something else, or its tag is not needed) and timing cells (``# NBVAL_IGNORE_OUTPUT``). The
package's own name is the one difference allowed in every output (``minigrad.nn`` reads as
``torch.nn``). notebooks/AUTHORING.md says when to use the tags; 00 tells the learner.

PyTorch's outputs are recorded per notebook (the ``oracle`` fixture, tests/oracle.py): where
PyTorch is installed the notebook runs under it and must give the recording, elsewhere the
recording is PyTorch's answer. ``make record`` rewrites them.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import course

nbformat = pytest.importorskip("nbformat")

COMPLETE = course.complete_notebooks()


def sanitizer():
    from nbval.plugin import get_sanitize_patterns

    return get_sanitize_patterns((course.NOTEBOOKS / "nbval_sanitize.cfg").read_text())


def run_under_pytorch(nb) -> dict:
    """cell id -> what the cell shows under PyTorch (course.text_outputs), for every cell that
    runs in the PyTorch version and is not a timing cell."""
    ran = course.execute(course.torch_version(nb), course.NOTEBOOKS, allow_errors=True)
    patterns = sanitizer()
    return {cell.id: course.text_outputs(ran_cell, patterns)
            for cell, ran_cell in zip(nb.cells, ran.cells)
            if not course.left_out_of_torch_run(cell)
            and not cell.source.lstrip().startswith(course.IGNORE_OUTPUT)}


@pytest.mark.parametrize("path", COMPLETE, ids=[p.stem for p in COMPLETE])
def test_notebook_prints_under_pytorch_what_it_prints_under_minigrad(path, oracle):
    nb = course.read(path)
    theirs = oracle(lambda torch: run_under_pytorch(nb))
    patterns = sanitizer()
    problems = []
    for cell in nb.cells:
        if cell.id not in theirs:
            continue
        mine = course.text_outputs(cell, patterns, as_torch=True)
        differs = {k: v for k, v in theirs[cell.id].items()} != mine
        where = f"{path.name}, cell {cell.id} ({cell.source.splitlines()[0][:60]!r})"
        if course.RANDOM_OUTPUT in course.tags(cell):
            if not differs:
                problems.append(f"{where} is tagged {course.RANDOM_OUTPUT} but prints the same "
                                "under PyTorch: remove the tag")
        elif differs:
            problems.append(f"{where} prints differently under PyTorch:\n  minigrad: {mine}\n"
                            f"  PyTorch:  {theirs[cell.id]}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", COMPLETE, ids=[p.stem for p in COMPLETE])
def test_allowed_differences_are_named_in_the_notebook(path):
    """A notebook with random-output cells tells the learner, in its title cell, that they
    print other numbers under PyTorch; every cell left out or not compared is tagged by the
    rules of tools/course.py, so its code does not name minigrad otherwise."""
    nb = course.read(path)
    if any(course.RANDOM_OUTPUT in course.tags(c) for c in nb.cells):
        title = nb.cells[0].source
        assert "*Under PyTorch*" in title and "random" in title, \
            f"{path.name}: say in the title cell that random numbers differ under PyTorch"
    for cell in nb.cells:
        if cell.cell_type == "code" and not course.left_out_of_torch_run(cell):
            course.torch_source(cell.source)  # raises on a cell that uses minigrad itself


def test_torch_source_rewrites_imports_and_refuses_minigrad_code():
    src = ("import minigrad as torch\nfrom minigrad import nn, optim, viz\n"
           "import minigrad.nn.functional as F\nfrom minigrad.utils.data import DataLoader\n"
           "from minigrad import viz  # drawings\nprint('minigrad')  # a string is fine")
    assert course.torch_source(src) == (
        "import torch\nfrom torch import nn, optim\nimport torch.nn.functional as F\n"
        "from torch.utils.data import DataLoader\nprint('minigrad')  # a string is fine")
    with pytest.raises(ValueError, match="minigrad-only"):
        course.torch_source("print(minigrad.__version__)")
    with pytest.raises(ValueError, match="minigrad-only"):
        course.torch_source("import minigrad\nx = 1")
