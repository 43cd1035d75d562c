"""Run learner programs as a learner would, with ``import torch`` meaning PyTorch or minigrad.

    python tests/programs/_run.py torch    program.py ...   # PyTorch itself
    python tests/programs/_run.py minigrad program.py ...   # `torch` (and every `torch.X`) is minigrad

Prints one JSON object: for each program (by file stem) what it printed (``stdout``), the
exception that stopped it (``error``: "TypeName: message", or null), its ``stderr`` and the
``seconds`` it took.

The library is imported once, here; then each program runs in a child process of its own
(``os.fork``), as ``__main__``, in an empty temporary directory: whatever a program does to
the library's state (seeds, default dtype, print options, module attributes) dies with its
child, so programs cannot see each other. Where there is no fork (Windows), each program
runs in a fresh interpreter instead (``--one``).

With ``minigrad``, a meta path finder answers ``import torch.X.Y`` with ``minigrad.X.Y`` (an
alias: the same module object, registered under both names), so ``import torch.nn as nn``,
``from torch.utils.data import DataLoader`` and ``import torch.nn.functional as F`` all
reach minigrad. A submodule minigrad does not have fails as a missing PyTorch one would
(ModuleNotFoundError: No module named 'torch.X').
"""
import contextlib
import importlib
import importlib.abc
import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback

TIMEOUT = 60  # seconds a program may take before it is stopped (it should take about one)


class _Alias(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        self.spec = self.module.__spec__  # the import system overwrites __spec__: kept, put back
        return self.module

    def exec_module(self, module):
        module.__spec__ = self.spec


class TorchIsMinigrad(importlib.abc.MetaPathFinder):
    """``import torch[.X...]`` -> ``minigrad[.X...]``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        target_name = "minigrad" + fullname[len("torch"):]
        try:
            module = importlib.import_module(target_name)
        except ModuleNotFoundError as e:
            if e.name == target_name:
                raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname) from None
            raise
        return importlib.util.spec_from_loader(fullname, _Alias(module),
                                               is_package=hasattr(module, "__path__"))


def load(library):
    if library == "minigrad":
        sys.meta_path.insert(0, TorchIsMinigrad())
    import torch
    import torch.nn.functional  # noqa: F401 (imported here, once: PyTorch's optim takes a second)
    import torch.optim  # noqa: F401
    import torch.utils.data  # noqa: F401

    if library == "torch":
        torch.set_num_threads(1)
        import torch._dynamo  # noqa: F401 (an optimizer imports it when made: 1.4 s in each child)
    try:  # many programs plot: imported here once too
        import matplotlib.pyplot  # noqa: F401
    except ImportError:
        pass
    return torch


def run_here(path):
    """Run one program in this process; return its result (a dict)."""
    out, err = io.StringIO(), io.StringIO()
    error = None
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as where:
        os.chdir(where)
        signal.signal(signal.SIGALRM, _timeout)
        signal.alarm(TIMEOUT)
        try:
            with open(path, encoding="utf-8") as f:
                code = compile(f.read(), path, "exec")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})
        except BaseException as e:  # noqa: BLE001 - SystemExit and timeouts included: the answer
            error = f"{type(e).__name__}: {e}"
            err.write(traceback.format_exc())
        finally:
            signal.alarm(0)
    return {"stdout": out.getvalue(), "error": error, "stderr": err.getvalue()[-4000:],
            "seconds": round(time.perf_counter() - start, 3)}


class Timeout(Exception):
    pass


def _timeout(signum, frame):
    raise Timeout(f"the program ran for more than {TIMEOUT} s")


def run_forked(path):
    """Run one program in a child process; the child and whatever it started (DataLoader
    workers) are one process group, killed when the program is done, so nothing outlives it."""
    fd, answer = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        pid = os.fork()
        if pid == 0:  # the child: run, write the result, end its process group
            try:
                os.setpgid(0, 0)
                with open(answer, "w", encoding="utf-8") as f:
                    json.dump(run_here(path), f)
            finally:
                sys.stdout.flush()
                os.killpg(0, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        with open(answer, encoding="utf-8") as f:
            data = f.read()
    finally:
        os.unlink(answer)
    if not data:
        return {"stdout": "", "error": f"the child process died (wait status {status})", "stderr": "",
                "seconds": None}
    return json.loads(data)


def run_fresh(library, path):
    done = subprocess.run([sys.executable, __file__, "--one", library, path], capture_output=True,
                          text=True)
    if done.returncode:
        return {"stdout": "", "error": f"the interpreter failed: {done.stderr[-2000:]}", "stderr": "",
                "seconds": None}
    return json.loads(done.stdout)[_stem(path)]


def _stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def main(argv):
    one = argv[:1] == ["--one"]
    library, paths = (argv[1], argv[2:]) if one else (argv[0], argv[1:])
    paths = [os.path.abspath(p) for p in paths]
    results = {}
    if one or not hasattr(os, "fork"):
        if one:
            load(library)
        for path in paths:
            results[_stem(path)] = run_here(path) if one else run_fresh(library, path)
    else:
        load(library)
        for path in paths:
            results[_stem(path)] = run_forked(path)
    sys.stdout.write(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])
