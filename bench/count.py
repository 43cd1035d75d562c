"""Instructions per step of minigrad's benchmark workloads, counted by valgrind's callgrind.

``make bench`` measures time, the figure that matters, but on a shared virtual machine its
ratios move by several per cent between runs of the same code, more than most single changes
to the per-op bookkeeping (dispatch, node creation, the engine's loop) are worth. The number of
instructions a step executes is the same on every run of the same code (to 0.01%), whatever else
the machine is doing. It is not time: memory traffic, BLAS threads and the CPU's speed are not in
it. And a change anywhere in the package moves a whole step's count by up to about 2% (memory
layout: dict probes, the allocator), so an A/B of one change needs an effect larger than that,
or a loop over the op it touches (the per-op workloads).

Each workload runs in a fresh process under callgrind twice, with 0 and with N steps after
the same warm-up; the difference over N is the cost of one step (start-up and imports cancel
out). BLAS runs on one thread: idle OpenBLAS workers spin, and their spinning would count. The
garbage collector is off during the steps: when a collection of all objects falls depends on
everything allocated since start-up, so it would land in one run's steps and not another's
(bench/gc_chain.py and make bench's chains measure what collection costs).

Usage: ``make bench-count`` or ``.venv/bin/python bench/count.py [WORKLOAD ...]``
(``--list`` names the workloads). About 30 s per workload.
"""
from __future__ import annotations

import gc
import os
import re
import shutil
import subprocess
import sys

os.environ["MINIGRAD_BENCH_ONLY"] = "1"  # bench/run.py: no PyTorch, no micrograd (slow to load under valgrind)

def _mlp(sizes, batch):
    import minigrad
    from run import lib_mlp_step
    return lib_mlp_step(minigrad, sizes, batch)


def _floor(sizes, batch):
    from run import numpy_mlp_step
    return numpy_mlp_step(sizes, batch)


def _chain():
    import minigrad
    from run import chain_fn
    return chain_fn(lambda: minigrad.tensor(1.0, requires_grad=True), 200, lambda x: None)


def _ops(kind):
    """bench/run.py's per-op costs: 200 ops (or backward through 200 nodes) per call."""
    import minigrad
    from run import op_fns
    return op_fns(minigrad)[kind]


def _sgd():
    """The optimizer's step alone (SGD with momentum on the small MLP's six parameters)."""
    import minigrad
    from run import lib_mlp_step
    step = lib_mlp_step(minigrad, (32, 64, 64, 10), 32)
    step()
    return step.optimizer.step


WORKLOADS = {  # name -> (what it is, ops per call: the count is per op, how to make the call)
    "mlp-784": ("MLP step 784-256-256-10, batch 128", 1, lambda: _mlp((784, 256, 256, 10), 128)),
    "mlp-784-floor": ("the same step, the NumPy floor", 1, lambda: _floor((784, 256, 256, 10), 128)),
    "small-mlp": ("small MLP step 32-64-64-10, batch 32", 1, lambda: _mlp((32, 64, 64, 10), 32)),
    "small-mlp-floor": ("the same step, the NumPy floor", 1, lambda: _floor((32, 64, 64, 10), 32)),
    "sgd-step": ("SGD's step (momentum) on the small MLP's six parameters", 1, _sgd),
    "chain-200": ("scalar chain of 200 ops, forward and backward, per op", 200, _chain),
    "recorded-op": ("a recorded op on 0-d tensors, per op", 200, lambda: _ops("recorded op")),
    "unrecorded-op": ("the same op under no_grad, per op", 200, lambda: _ops("unrecorded op")),
    "backward-node": ("backward, per node (0-d chain)", 200, lambda: _ops("backward, per node")),
}


def child(name, n):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    fn = WORKLOADS[name][2]()
    for _ in range(5):
        fn()
    gc.collect()
    gc.disable()  # a collection falls on some runs' steps and not others': thousands of objects to walk
    for _ in range(n):
        fn()


def instructions(name, n):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           sys.executable, os.path.abspath(__file__), "--child", name, str(n)]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    found = re.search(r"Collected\s*:\s*(\d+)", run.stderr)
    if run.returncode != 0 or not found:
        raise SystemExit(f"bench/count.py: {name} failed under valgrind:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main(argv):
    if argv[:1] == ["--child"]:
        return child(argv[1], int(argv[2]))
    if argv[:1] == ["--list"]:
        for name, (what, _, _) in WORKLOADS.items():
            print(f"{name:16s} {what}")
        return None
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/count.py needs valgrind (Debian: apt-get install valgrind)")
    names = argv or list(WORKLOADS)
    for name in names:
        if name not in WORKLOADS:
            raise SystemExit(f"bench/count.py: no workload {name!r} (--list names them)")
    print("| workload | instructions per step (or per op) |\n|---|---:|")
    for name in names:
        what, ops, _ = WORKLOADS[name]
        steps = 20
        per_call = (instructions(name, steps) - instructions(name, 0)) / steps
        print(f"| `{name}`: {what} | {per_call / ops:,.0f} |", flush=True)
    return None


if __name__ == "__main__":
    main(sys.argv[1:])
