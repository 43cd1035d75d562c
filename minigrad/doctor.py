"""Check the environment the course needs: ``python -m minigrad.doctor`` (or ``make doctor``).

Prints the versions of Python, NumPy, minigrad, Matplotlib, JupyterLab, nbval and the ``graphviz``
Python package, Graphviz's ``dot -V``, whether a Jupyter kernel for this Python is found,
and what to do about anything missing. It only reports: the exit code is 0 either way
(missing pieces are listed under "To do" in the summary).
"""
from __future__ import annotations

import importlib
import importlib.metadata
import platform
import shutil
import subprocess
import sys

import minigrad

INSTALL_DOT = ("install Graphviz: conda install -c conda-forge graphviz, sudo apt-get install "
               "graphviz, or brew install graphviz (pip-only: pip install 'minigrad[wasm]'). "
               "Without it, graphs show as text.")
FIXES = {
    "numpy": "pip install 'numpy>=2.1' (or run `make setup`)",
    "scipy": "pip install 'scipy>=1.13' (or run `make setup`): erf, GELU and trunc_normal_ need it",
    "matplotlib": "pip install 'matplotlib>=3.6' (or run `make setup`): the notebooks' plots need it",
    "graphviz": "pip install 'graphviz>=0.20' (the Python package; or run `make setup`)",
    "jupyterlab": "pip install 'minigrad[lab]' (or run `make setup`) to open the notebooks",
    "nbval": "pip install 'minigrad[dev]' (or run `make setup`) to run the notebook tests",
}


def _version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _dot_version():
    dot = shutil.which("dot")
    if dot is None:
        return None, None
    try:
        res = subprocess.run([dot, "-V"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        return dot, f"found but does not run ({e})"
    text = (res.stderr or res.stdout).strip()  # dot -V prints to stderr
    return dot, text or f"exit code {res.returncode}"


def _kernel():
    """(description, problem or None) for the Jupyter kernel of this Python."""
    try:
        importlib.import_module("ipykernel")
    except ImportError:
        return None, ("ipykernel is not installed: pip install 'minigrad[lab]' (or run "
                      "`make setup`)")
    try:
        from jupyter_client.kernelspec import KernelSpecManager

        specs = KernelSpecManager().find_kernel_specs()
    except Exception as e:  # noqa: BLE001 - report whatever went wrong
        return None, f"Jupyter cannot list kernels ({e}): pip install 'minigrad[lab]'"
    if not specs:
        return None, ("no Jupyter kernel found: python -m ipykernel install --user "
                      "--name minigrad")
    names = ", ".join(sorted(specs))
    return f"ipykernel {_version('ipykernel')}; kernels: {names}", None


def report():
    """The lines to print and the list of things to do."""
    rows = [("python", f"{platform.python_version()} ({sys.executable})"),
            ("minigrad", f"{minigrad.__version__} ({minigrad.__path__[0]})")]
    todo = []
    for name in ("numpy", "scipy", "matplotlib", "jupyterlab", "nbval", "graphviz"):
        v = _version(name)
        label = "graphviz (Python package)" if name == "graphviz" else name
        rows.append((label, v or "NOT INSTALLED"))
        if v is None:
            todo.append(f"{label}: {FIXES[name]}")
    dot, dot_text = _dot_version()
    if dot is None:
        rows.append(("dot (Graphviz)", "NOT FOUND on PATH"))
        todo.append(f"dot: {INSTALL_DOT}")
    else:
        rows.append(("dot (Graphviz)", f"{dot_text} ({dot})"))
    kernel, problem = _kernel()
    rows.append(("Jupyter kernel", kernel or "NOT FOUND"))
    if problem:
        todo.append(f"Jupyter kernel: {problem}")
    width = max(len(k) for k, _ in rows)
    lines = ["minigrad doctor: the environment for the course", ""]
    lines += [f"  {k.ljust(width)}  {v}" for k, v in rows]
    lines.append("")
    if todo:
        lines.append(f"Summary: {len(todo)} thing(s) to fix; the course runs, but see below.")
        lines.append("To do:")
        lines += [f"  - {t}" for t in todo]
    else:
        lines.append("Summary: all good: everything the course needs is here.")
    return lines, todo


def main():
    lines, _ = report()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
