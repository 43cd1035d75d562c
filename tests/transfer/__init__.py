"""The transfer suite: the PyTorch learners meet elsewhere, run under ``import minigrad as torch``.

Each program is a function ``program(torch)``, written for this project in the style of one
kind of standard learner material (PyTorch's tutorials, d2l's preliminaries, the autograd
notes, micrograd's tests against PyTorch, ...): it prints what such material prints.
tests/api/test_transfer.py runs it under PyTorch (recorded, tests/oracle.py) and under minigrad
and compares the printed text character for character. Where a program uses random numbers
it prints only what does not depend on them (shapes, dtypes, devices, gradients of exact
formulas), so that "the same everywhere" holds.

One module per kind of material. To add programs: write them in a module here, list them in
its ``PROGRAMS``, and add the module to ``MODULES`` below; then record PyTorch's answers
(``make record``) and commit tests/recordings/test_transfer/.
"""
import contextlib
import io
import re

from . import (autograd_material, cnn, d2l_preliminaries, devices, functional, nn_tutorials, optim_and_files,
               tensor_tutorial)
from . import makemore

MODULES = [tensor_tutorial, autograd_material, devices, functional, d2l_preliminaries, nn_tutorials, cnn,
           optim_and_files, makemore]
PROGRAMS = [p for m in MODULES for p in m.PROGRAMS]


def run(program, lib):
    """What ``program(lib)`` prints, with what must differ between the libraries masked:
    memory addresses, and the package name in class paths (``<class 'minigrad.Tensor'>``
    is ``<class 'torch.Tensor'>`` under ``import minigrad as torch``)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        program(lib)
    text = re.sub(r" at 0x[0-9a-f]+", " at 0xADDRESS", out.getvalue())
    return text.replace(f"<class '{lib.__name__}.", "<class 'torch.")
