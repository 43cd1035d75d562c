"""minigrad against PyTorch, micrograd and hand-written NumPy (issue 6).

Run with ``make bench`` (or ``.venv/bin/python bench/run.py``). One process, one run: every
workload is timed for each library in the same process, the libraries interleaved round-robin
(the starting library rotates each round) so that noise on this machine hits all of them equally;
each library is warmed up first; the figure reported is the median time per step over the rounds.
Prints a markdown table and writes it, with the machine's details, to bench/RESULTS.md. Where a
target of the issue is not met, the results file gets a profile of minigrad on that workload
(top functions by own time, pyinstrument; cProfile if pyinstrument is missing).

Not part of the test suite. PyTorch and micrograd are optional (the ``bench`` extra): a missing
one shows as "n/a".

Options: ``--quick`` (fewer, shorter rounds, for trying the script), ``--out PATH``.
"""
from __future__ import annotations

import argparse
import ctypes
import datetime
import gc
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

# The libraries run interleaved in one process on few cores. After a call, idle OpenBLAS workers
# (NumPy's, so minigrad's and the floor's) spin for ~0.1 s by default and PyTorch's OpenMP workers
# for a few ms, taking the cores from whichever library runs next. So OpenBLAS's spin is cut to
# 2**22 cycles (1.2-2.1 ms at 2-3.5 GHz), and each timed sample starts after a pause (SETTLE_S,
# 5 ms) in which the previous library's workers go to sleep. The spin must still outlast the gaps
# between the BLAS calls of one step, or the worker sleeps and is woken again inside the step, a
# cost no training loop with the default spin pays: at 2**20 cycles (0.4 ms) minigrad's
# 784-256-256-10 step, whose SGD update and Python bookkeeping run between matrix products, put it
# to sleep about five times a step (strace of a process running 200 steps: 1,108 futex calls,
# 35 at 2**22; the floor's: 39 and 26). Must be set before NumPy loads; an explicit setting in
# the environment wins.
THREAD_ENV = {"OPENBLAS_THREAD_TIMEOUT": "22"}
for _k, _v in THREAD_ENV.items():
    os.environ.setdefault(_k, _v)
SETTLE_S = 0.005

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import minigrad  # noqa: E402
import minigrad.nn  # noqa: E402
import minigrad.optim  # noqa: E402
from minigrad.viz import saved_memory  # noqa: E402

MINIGRAD_ONLY = bool(os.environ.get("MINIGRAD_BENCH_ONLY"))  # bench/count.py: minigrad and NumPy only
try:
    if MINIGRAD_ONLY:
        raise ImportError
    import torch
except ImportError:  # optional
    torch = None
try:
    if MINIGRAD_ONLY:
        raise ImportError
    import micrograd
    from micrograd import nn as mg_nn
    from micrograd.engine import Value
except ImportError:  # optional
    micrograd = None

QUICK = False
LIBS = ("minigrad", "pytorch", "numpy", "micrograd")


# --- machine ---------------------------------------------------------------

def blas_info():
    """(description, thread count) of the BLAS NumPy uses (OpenBLAS as bundled by NumPy's wheels)."""
    cfg = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    desc = f"{cfg.get('name')} {cfg.get('version')}"
    libdir = Path(np.__file__).parent.parent / "numpy.libs"
    for path in glob.glob(str(libdir / "*openblas*.so*")):
        lib = ctypes.CDLL(path)
        for prefix, suffix in (("scipy_openblas_", "64_"), ("scipy_openblas_", ""), ("openblas_", "")):
            fn = getattr(lib, f"{prefix}get_num_threads{suffix}", None)
            if fn is not None:
                fn.restype = ctypes.c_int
                return desc, fn()
    env = os.environ.get("OPENBLAS_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS")
    return desc + " (thread count from environment/CPU count)", int(env) if env else os.cpu_count()


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def rss_mb(field="VmRSS"):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(field)


# --- timing ----------------------------------------------------------------

def bench(fns, *, sample_s=0.02, rounds=31, warmup=3, max_inner=1000):
    """Median seconds per call of each callable in ``fns`` (name -> fn), interleaved round-robin.

    Each callable is warmed up, then calibrated to ``inner`` calls per sample (about
    ``sample_s`` seconds). Each round times one sample of every callable, in an order that
    rotates from round to round. Returns name -> median seconds per call.
    """
    if QUICK:
        rounds = max(5, rounds // 4)
    names = list(fns)
    inner = {}
    for name in names:
        fn = fns[name]
        for _ in range(warmup):
            fn()
        t0 = time.perf_counter()
        fn()
        one = time.perf_counter() - t0
        inner[name] = max(1, min(max_inner, int(sample_s / max(one, 1e-9))))
    samples = {name: [] for name in names}
    gc.collect()
    for r in range(rounds):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            fn, n = fns[name], inner[name]
            time.sleep(SETTLE_S)
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter() - t0) / n)
    return Timings(samples)


class Timings(dict):
    """name -> median seconds per call; ``ratio(a, b)``: the median over rounds of a's time over b's.

    A ratio of samples taken moments apart in the same round cancels load that drifts over the
    workload's run, so the ratios are steadier than the ratio of the medians.
    """

    def __init__(self, samples):
        super().__init__({name: statistics.median(s) for name, s in samples.items()})
        self.samples = samples

    def ratio(self, a, b):
        if a not in self.samples or b not in self.samples:
            return None
        return statistics.median(x / y for x, y in zip(self.samples[a], self.samples[b]))

    def excess(self, a, b):
        """The median over rounds of a's time minus b's (paired as in ``ratio``)."""
        return statistics.median(x - y for x, y in zip(self.samples[a], self.samples[b]))


# --- MLP training step (float32, SGD with momentum, cross-entropy) --------------------

def make_data(sizes, batch, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, sizes[0]), dtype=np.float32)
    y = rng.integers(0, sizes[-1], size=batch)
    # Linear's default init, U(-1/sqrt(fan_in), 1/sqrt(fan_in)), the same weights for everyone.
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        bound = 1 / np.sqrt(fan_in)
        params.append((rng.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32),
                       rng.uniform(-bound, bound, fan_out).astype(np.float32)))
    return x, y, params


def lib_mlp_step(lib, sizes, batch, lr=0.01, momentum=0.9):
    """A training step of a Linear/ReLU MLP in ``lib`` (minigrad or torch)."""
    x, y, params = make_data(sizes, batch)
    layers = []
    for i, (w, b) in enumerate(params):
        lin = lib.nn.Linear(w.shape[1], w.shape[0])
        with lib.no_grad():
            lin.weight.copy_(lib.tensor(w))
            lin.bias.copy_(lib.tensor(b))
        layers.append(lin)
        if i < len(params) - 1:
            layers.append(lib.nn.ReLU())
    model = lib.nn.Sequential(*layers)
    loss_fn = lib.nn.CrossEntropyLoss()
    opt = lib.optim.SGD(model.parameters(), lr=lr, momentum=momentum)
    X, Y = lib.tensor(x), lib.tensor(y)

    def step():
        loss = loss_fn(model(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss

    def phases():
        """One step, timed by phase: forward (with the loss), zero_grad, backward, step."""
        t0 = time.perf_counter()
        loss = loss_fn(model(X), Y)
        t1 = time.perf_counter()
        opt.zero_grad()
        t2 = time.perf_counter()
        loss.backward()
        t3 = time.perf_counter()
        opt.step()
        return t1 - t0, t2 - t1, t3 - t2, time.perf_counter() - t3

    step.optimizer = opt
    step.forward = lambda: loss_fn(model(X), Y)
    step.loss = lambda: float(step().detach())
    step.phases = phases
    return step


def numpy_mlp_step(sizes, batch, lr=0.01, momentum=0.9, allocate=False):
    """The floor: the same step written by hand in NumPy, buffers preallocated, updates in place.

    ``allocate=True``: the same NumPy calls, but each makes its result anew (``out=None``), as
    minigrad's and PyTorch's ops do; the updates stay in place. What allocating costs, alone."""
    x, y, params = make_data(sizes, batch)
    ws = [w.copy() for w, _ in params]
    bs = [b.copy() for _, b in params]
    n = len(ws)
    acts = [np.empty((batch, w.shape[0]), np.float32) for w in ws]      # layer outputs
    deltas = [np.empty((batch, w.shape[0]), np.float32) for w in ws]    # dL/d(pre-activation)
    gws = [np.empty_like(w) for w in ws]
    gbs = [np.empty_like(b) for b in bs]
    vws = [np.zeros_like(w) for w in ws]                                # momentum buffers
    vbs = [np.zeros_like(b) for b in bs]
    tmp = [np.empty_like(w) for w in ws]
    rows = np.arange(batch)
    mask = [np.empty((batch, w.shape[0]), bool) for w in ws[:-1]]
    sumexp = np.empty((batch, 1), np.float32)

    def buffer(b):  # where a result goes: its preallocated buffer, or (allocate) a new array
        return None if allocate else b

    def step(clock=None):
        # forward
        t0 = clock and clock()
        h, inputs = x, []
        for i in range(n):
            inputs.append(h)
            a = np.matmul(h, ws[i].T, out=buffer(acts[i]))
            a += bs[i]
            if i < n - 1:
                a = np.maximum(a, 0, out=buffer(a))
            h = a
        logits = h
        logits -= logits.max(axis=1, keepdims=True)
        picked = logits[rows, y]
        e = np.exp(logits, out=buffer(deltas[-1]))
        s = np.sum(e, axis=1, keepdims=True, out=buffer(sumexp))
        loss = float(np.mean(np.log(s[:, 0]) - picked))
        t1 = clock and clock()
        # backward: d loss / d logits = (softmax - onehot) / batch
        e /= s
        e[rows, y] -= 1
        e *= 1.0 / batch
        d, gw, gb = e, [None] * n, [None] * n
        for i in range(n - 1, -1, -1):
            gw[i] = np.matmul(d.T, inputs[i], out=buffer(gws[i]))
            gb[i] = np.sum(d, axis=0, out=buffer(gbs[i]))
            if i > 0:
                d_in = np.matmul(d, ws[i], out=buffer(deltas[i - 1]))
                d_in *= np.greater(inputs[i], 0, out=buffer(mask[i - 1]))
                d = d_in
        t2 = clock and clock()
        # SGD with momentum: v = m v + g; p -= lr v (torch's rule; v starts at 0, so the first v = g)
        for p, g, v, t in zip(ws + bs, gw + gb, vws + vbs, tmp + [None] * n):
            v *= momentum
            v += g
            if t is None:
                p -= lr * v
            else:
                p -= np.multiply(v, lr, out=buffer(t))
        if clock:  # no zero_grad: the gradient buffers are overwritten
            return t1 - t0, 0.0, t2 - t1, clock() - t2
        return loss

    step.phases = lambda: step(time.perf_counter)
    return step


def check_mlp_agree(sizes, batch):
    """The three implementations compute the same loss trajectory (a sanity check)."""
    steps = {"numpy": numpy_mlp_step(sizes, batch), "minigrad": lib_mlp_step(minigrad, sizes, batch).loss}
    if torch is not None:
        steps["pytorch"] = lib_mlp_step(torch, sizes, batch).loss
    losses = {k: [float(s()) for _ in range(3)] for k, s in steps.items()}
    ref = losses["numpy"]
    for k, v in losses.items():
        if not np.allclose(v, ref, rtol=1e-3, atol=1e-4):
            raise SystemExit(f"bench: {k} disagrees with the NumPy floor on the {sizes} step: {v} vs {ref}")


def mlp_workload(sizes, batch, **kw):
    check_mlp_agree(sizes, batch)
    fns = {"minigrad": lib_mlp_step(minigrad, sizes, batch)}
    if torch is not None:
        fns["pytorch"] = lib_mlp_step(torch, sizes, batch)
    fns["numpy"] = numpy_mlp_step(sizes, batch)
    return bench(fns, **kw), fns["minigrad"]


TOY = ([8, 8, 8, 4], 4)  # an MLP step whose arithmetic is nearly free: what is left is bookkeeping


def gap_breakdown(sizes, batch, pairs=100):
    """Where minigrad's time over the floor goes, measured rather than guessed. Interleaved as
    every workload: minigrad and the floor; the floor allocating each result as minigrad does
    (allocation alone); minigrad and the floor at toy sizes (minigrad's bookkeeping alone). Then
    the toy step timed right after a full-size floor step, whose large arrays have just gone
    through the caches, and right after another toy step, ``pairs`` times each, alternating.
    Returns (Timings, {"after floor": s, "after toy": s}), the latter medians."""
    fns = {"minigrad": lib_mlp_step(minigrad, sizes, batch), "numpy": numpy_mlp_step(sizes, batch),
           "numpy, allocating": numpy_mlp_step(sizes, batch, allocate=True),
           "minigrad, toy": lib_mlp_step(minigrad, *TOY), "numpy, toy": numpy_mlp_step(*TOY)}
    t = bench(fns, rounds=15)
    toy, floor = fns["minigrad, toy"], fns["numpy"]
    after = {"after floor": [], "after toy": []}
    for _ in range(max(25, pairs // 4) if QUICK else pairs):
        for k, before in (("after floor", floor), ("after toy", toy)):
            before()
            t0 = time.perf_counter()
            toy()
            after[k].append(time.perf_counter() - t0)
    return t, {k: statistics.median(v) for k, v in after.items()}


PHASES = ("forward (with the loss)", "zero_grad", "backward", "step (SGD, momentum)")


def mlp_phases(sizes, batch, rounds=15, steps=10):
    """Each library's step by phase: per phase, the median over rounds of the mean over
    ``steps`` steps; libraries interleaved round-robin as in ``bench``."""
    fns = {"minigrad": lib_mlp_step(minigrad, sizes, batch).phases}
    if torch is not None:
        fns["pytorch"] = lib_mlp_step(torch, sizes, batch).phases
    fns["numpy"] = numpy_mlp_step(sizes, batch).phases
    if QUICK:
        rounds = max(5, rounds // 4)
    names = list(fns)
    for fn in fns.values():
        for _ in range(3):
            fn()
    samples = {name: [] for name in names}
    for r in range(rounds):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            time.sleep(SETTLE_S)
            times = [fns[name]() for _ in range(steps)]
            samples[name].append([sum(t[i] for t in times) / steps for i in range(len(PHASES))])
    # (the floor has no zero_grad: its phase is left out, n/a)
    return [Timings({name: [s[i] for s in samples[name]] for name in names if any(s[i] for s in samples[name])})
            for i in range(len(PHASES))]


# --- small CNN -------------------------------------------------------------------


def lib_cnn_step(lib, batch=32, lr=0.01):
    """A training step of the small CNN a learner meets after the MLP: 1x28x28 -> Conv2d(1, 8, 3)
    -> ReLU -> MaxPool2d(2) -> Flatten -> Linear(8*13*13, 10), cross-entropy, SGD."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, 1, 28, 28), dtype=np.float32)
    y = rng.integers(0, 10, size=batch)
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 13 * 13, 10))
    with lib.no_grad():  # the same starting weights for both libraries (the default init's bounds)
        for p, fan_in in zip(model.parameters(), (9, 9, 8 * 13 * 13, 8 * 13 * 13)):
            bound = 1 / np.sqrt(fan_in)
            p.copy_(lib.tensor(rng.uniform(-bound, bound, tuple(p.shape)).astype(np.float32)))
    loss_fn, opt = nn.CrossEntropyLoss(), lib.optim.SGD(model.parameters(), lr=lr)
    X, Y = lib.tensor(x), lib.tensor(y)

    def step():
        loss = loss_fn(model(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss

    step.loss = lambda: float(step().detach())
    return step


def cnn_workload(**kw):
    fns = {"minigrad": lib_cnn_step(minigrad)}
    if torch is not None:
        fns["pytorch"] = lib_cnn_step(torch)
        mine, theirs = ([lib_cnn_step(lib).loss() for _ in range(3)] for lib in (minigrad, torch))
        if not np.allclose(mine, theirs, rtol=1e-4, atol=1e-5):
            raise SystemExit(f"bench: minigrad disagrees with PyTorch on the CNN step: {mine} vs {theirs}")
    return bench(fns, **kw), fns["minigrad"]


# --- GELU ----------------------------------------------------------------------------


def gelu_workload(shape=(256, 1024), **kw):
    """nn.GELU's default (exact, erf) form, forward and backward, on a transformer MLP's hidden
    activations (batch x tokens, 4 x width). minigrad's erf is SciPy's."""
    x = np.random.default_rng(0).standard_normal(shape, dtype=np.float32)
    fns, grads = {}, {}
    for name, lib in (("minigrad", minigrad), ("pytorch", torch)):
        if lib is None:
            continue
        leaf = lib.tensor(x, requires_grad=True)

        def step(lib=lib, leaf=leaf):
            leaf.grad = None
            lib.nn.functional.gelu(leaf).sum().backward()
            return leaf.grad

        fns[name], grads[name] = step, step().numpy()
    if "pytorch" in grads and not np.allclose(grads["minigrad"], grads["pytorch"], rtol=1e-4, atol=1e-6):
        raise SystemExit("bench: minigrad's GELU gradient disagrees with PyTorch's")
    return bench(fns, **kw)


# --- scalar chain ----------------------------------------------------------------

C = 1.0001


def chain_fn(make_leaf, n, reset):
    def run():
        x = make_leaf()
        y = x
        for i in range(n):
            y = y * C if i % 2 == 0 else y + C
        y.backward()
        reset(x)
        return x
    return run


def chain_workload(n, with_micrograd=True, **kw):
    fns = {"minigrad": chain_fn(lambda: minigrad.tensor(1.0, requires_grad=True), n, lambda x: None)}
    if torch is not None:
        fns["pytorch"] = chain_fn(lambda: torch.tensor(1.0, requires_grad=True), n, lambda x: None)
    notes = []
    if micrograd is not None and with_micrograd:
        fns["micrograd"] = chain_fn(lambda: Value(1.0), n, lambda x: None)
        need = 2 * n + 500  # micrograd's topological sort recurses once per node (2 Values per op)
        if sys.getrecursionlimit() < need:
            sys.setrecursionlimit(need)
            notes.append(f"chain of {n:,} ops: micrograd's recursive topological sort needs "
                         f"`sys.setrecursionlimit({need})` (raised for it)")
        try:
            fns["micrograd"]()
        except RecursionError as e:
            del fns["micrograd"]
            notes.append(f"micrograd fails: RecursionError ({e})")
    # gradients agree: d/dx of the chain is C ** (n // 2 + n % 2)
    want = C ** ((n + 1) // 2)
    for name, fn in fns.items():
        got = fn().grad
        got = float(got)
        # float32: each op may round by half an ulp (6e-8), and the errors add up along the chain
        if not np.isclose(got, want, rtol=1e-4 + n * 6e-8):
            raise SystemExit(f"bench: {name}'s chain gradient {got} != {want}")
    return bench(fns, **kw), fns["minigrad"], notes


# --- micrograd MLP step --------------------------------------------------------

def micrograd_mlp_workload(batch=64, lr=0.01, **kw):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((batch, 2))
    y = np.sign(x[:, :1] * x[:, 1:])  # a toy target in {-1, 1}
    sizes = [2, 16, 16, 1]
    fns = {}

    def lib_step(lib):
        layers = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
            layers.append(lib.nn.Linear(a, b))
            if i < len(sizes) - 2:
                layers.append(lib.nn.ReLU())
        model = lib.nn.Sequential(*layers)
        loss_fn = lib.nn.MSELoss()
        opt = lib.optim.SGD(model.parameters(), lr=lr)
        X = lib.tensor(x, dtype=lib.float32)
        Y = lib.tensor(y, dtype=lib.float32)

        def step():
            loss = loss_fn(model(X), Y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            return loss
        return step

    fns["minigrad"] = lib_step(minigrad)
    if torch is not None:
        fns["pytorch"] = lib_step(torch)
    if micrograd is not None:
        model = mg_nn.MLP(2, sizes[1:])  # ReLU hidden layers, linear output
        xs = [[Value(float(a)) for a in row] for row in x]  # inputs built once, like the tensors
        ys = [float(t) for t in y[:, 0]]

        def mg_step():
            outs = [model(row) for row in xs]
            loss = sum((o - t) ** 2 for o, t in zip(outs, ys)) * (1.0 / batch)
            model.zero_grad()
            loss.backward()
            for p in model.parameters():
                p.data -= lr * p.grad
            return loss
        fns["micrograd"] = mg_step
    # micrograd takes ~0.1-1 s a step: few rounds, one call per sample for it
    return bench(fns, rounds=kw.pop("rounds", 9), warmup=1, **kw), fns["minigrad"]


# --- import time ----------------------------------------------------------------

CHAIN_GROWTH = r"""
import json, sys, time
import minigrad
def run(n):
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for i in range(n):
        y = y * 1.0001 if i % 2 == 0 else y + 1.0001
    y.backward()
out = {}
for n, reps in ((200, 200), (50000, 5)):
    run(n)
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter(); run(n); best = min(best, time.perf_counter() - t)
    out[str(n)] = best / n
print(json.dumps(out))
"""


def chain_growth():
    """Seconds per op of the 0-d chain at 200 and 50,000 ops, in a fresh process with only minigrad."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", CHAIN_GROWTH], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True)
    return json.loads(res.stdout)


def import_time(module, repeats=10):
    """Median seconds of ``import module`` (and of the whole process) over fresh processes, as a
    learner's every import after the first: the first compiles the sources and caches the
    bytecode (__pycache__), so one untimed import runs first, with bytecode writing on even where
    the environment turns it off (PYTHONDONTWRITEBYTECODE: otherwise every timed import would
    compile the sources again, and the time would be Python's compiler's)."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, check=True, env=env, cwd=ROOT)
    times, walls = [], []
    for _ in range(3 if QUICK else repeats):
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=env, cwd=ROOT)
        walls.append(time.perf_counter() - t0)
        times.append(float(out.stdout.strip()))
    return statistics.median(times), statistics.median(walls)


# --- memory ----------------------------------------------------------------

def memory_workload(steps=1000):
    step = lib_mlp_step(minigrad, [784, 256, 256, 10], 128)
    gc.collect()
    before = rss_mb()
    try:  # reset the peak (VmHWM) to the current RSS, so that the peak is that of these steps
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        peak_scope = "these steps"
    except OSError:
        peak_scope = "the whole benchmark process so far"
    rss = {}
    for i in range(1, steps + 1):
        step()
        if i in (100, steps):
            rss[i] = rss_mb()
    return before, rss[100], rss[steps], rss_mb("VmHWM"), peak_scope


def saved_bytes():
    out = {}
    loss = lib_mlp_step(minigrad, [784, 256, 256, 10], 128).forward()
    out["minigrad"] = saved_memory(loss).total
    if torch is not None:
        storages = {}

        def pack(t):
            s = t.untyped_storage()
            storages[s.data_ptr()] = s.nbytes()
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            lib_mlp_step(torch, [784, 256, 256, 10], 128).forward()
        out["pytorch"] = sum(storages.values())
    return out


# --- profile ----------------------------------------------------------------

def profile(fn, seconds=1.5, top=12):
    """Top functions of ``fn`` by own time, as a markdown table (pyinstrument; cProfile without it)."""
    if QUICK:
        seconds = 0.3
    try:
        from pyinstrument import Profiler
    except ImportError:
        Profiler = None
    rows = []
    if Profiler is not None:
        prof = Profiler(interval=0.0002)
        prof.start()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            fn()
        session = prof.stop()
        root = session.root_frame()  # pyinstrument.frame.Frame, not flattened
        own, by_file, total = {}, {}, 0.0
        stack = [(root, None)]
        while stack:
            f, parent = stack.pop()
            stack.extend((c, f) for c in f.children)
            if f.is_synthetic or f.total_self_time <= 0:
                continue
            path = f.file_path or ""
            func = qualname(path, f.line_no, f.function or "?")
            if path.startswith("<") and parent is not None:  # a C function: say who called it
                func += f" (from {qualname(parent.file_path or '', parent.line_no, parent.function or '?')})"
            key = (func, short_path(path), f.line_no)
            own[key] = own.get(key, 0.0) + f.total_self_time
            where = short_path(path) if "minigrad/" in path else (
                "C built-ins (NumPy etc.)" if path.startswith("<") else "other Python (NumPy, stdlib)")
            by_file[where] = by_file.get(where, 0.0) + f.total_self_time
            total += f.total_self_time
        tool = "pyinstrument (sampling every 0.2 ms)"
        for (func, path, line), t in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
            rows.append((f"{100 * t / total:.1f}%", func, f"{path}:{line}"))
        summary = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in
                            sorted(by_file.items(), key=lambda kv: -kv[1]) if v / total >= 0.01)
    else:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            fn()
        prof.disable()
        st = pstats.Stats(prof)
        total = sum(v[2] for v in st.stats.values())
        tool = "cProfile"
        summary = ""
        for (path, line, func), v in sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]:
            rows.append((f"{100 * v[2] / total:.1f}%", func, f"{short_path(path)}:{line}"))
    lines = [f"Top {top} functions of minigrad by own time ({tool}; a Python function's own time includes "
             "the NumPy calls it makes, which the profiler cannot see into):", "",
             "| own time | function | where |", "| ---: | --- | --- |"]
    lines += [f"| {a} | `{b}` | `{c}` |" for a, b, c in rows]
    if summary:
        lines += ["", f"Own time by file: {summary}."]
    return "\n".join(lines)


def python_calls(fn, reps=50):
    """Python-level function calls per call of ``fn`` (cProfile's count: deterministic)."""
    import cProfile
    import pstats
    fn()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(reps):
        fn()
    prof.disable()
    return pstats.Stats(prof).total_calls / reps


def op_fns(lib):
    """The per-op workloads of ``lib``: each call runs 200 ops on 0-d tensors (or backward
    through 200 nodes)."""
    x = lib.tensor(1.0, requires_grad=True)
    y = x
    for i in range(200):
        y = y * C if i % 2 == 0 else y + C
    z = x.detach()  # needs no gradient: nothing is recorded
    return {"recorded op": lambda: [x * C for _ in range(200)],
            "unrecorded op": lambda: [z * C for _ in range(200)],
            "backward, per node": lambda: y.backward(retain_graph=True)}  # 200 nodes


def op_costs():
    """Per-op bookkeeping of each library on 0-d tensors (so the arithmetic itself is ~free):
    a recorded multiply, the same multiply under no_grad, and backward per node. Each kind is
    timed for every library in the same rounds, interleaved, as the other workloads are: the
    ratio of two samples taken moments apart cancels load that drifts. Returns kind -> Timings
    (seconds per op)."""
    libs = {"minigrad": op_fns(minigrad)}
    if torch is not None:
        libs["pytorch"] = op_fns(torch)
    out = {}
    for kind in libs["minigrad"]:
        t = bench({lib: f[kind] for lib, f in libs.items()}, rounds=15)
        out[kind] = Timings({lib: [x / 200 for x in samples] for lib, samples in t.samples.items()})
    return out


def explain_overhead(name, mg_fn, t, costs, breakdown=None):
    """Why a step is slower than the floor: how many Python calls it makes, what one op costs;
    with ``breakdown`` (``gap_breakdown``'s), how much of the gap allocation and bookkeeping take."""
    calls = python_calls(mg_fn)
    lines = [f"A step makes **{calls:,.0f} Python function calls** (cProfile's count, deterministic)."]
    mg, npf, pt = t.get("minigrad"), t.get("numpy"), t.get("pytorch")
    if npf is not None:
        extra = mg - npf
        lines.append(f"It takes {fmt_t(mg)} against the NumPy floor's {fmt_t(npf)}: {fmt_t(extra)} more "
                     f"({extra / calls * 1e9:.0f} ns per Python call, if it were all bookkeeping). The "
                     "floor allocates every buffer once and computes in place (`out=`); minigrad, like "
                     "PyTorch, allocates each op's result anew, so on large arrays part of the gap can be "
                     "memory traffic, not Python.")
    if breakdown is not None:
        lines.append(explain_gap(*breakdown))
    if pt is not None and "pytorch" in costs:
        m, p = costs["minigrad"], costs["pytorch"]
        lines.append("Per op on 0-d tensors (arithmetic nearly free, so this is the bookkeeping): "
                     + "; ".join(f"{k}: minigrad {v * 1e6:.2f} µs, PyTorch {p[k] * 1e6:.2f} µs"
                                 for k, v in m.items()) + ".")
        lines.append("PyTorch does this bookkeeping (dispatch, building the node, the engine's queue) in "
                     "C++; minigrad does it in Python, where each op, node and gradient costs a few "
                     "function calls of about 0.1 µs each. When the arithmetic is small, as here, that is "
                     "what the ratio measures. Making it smaller would mean fewer Python layers per op "
                     "(forward and backward of each op fused into special cases, the engine inlined), "
                     "which is the readability this package exists for.")
    return " ".join(lines)


def explain_gap(t, after):
    """``gap_breakdown``'s figures in words."""
    gap, alloc = t.excess("minigrad", "numpy"), t.excess("numpy, allocating", "numpy")
    bookkeeping = t.excess("minigrad, toy", "numpy, toy")
    toy_sizes = "-".join(map(str, TOY[0]))
    slower = after["after floor"] / after["after toy"]
    share = f", {(alloc + bookkeeping) / gap:.0%} of the gap" if gap > 0 else ""
    return (f"Where the gap goes (a second interleaved measurement, in which minigrad's step is "
            f"{fmt_t(gap)} over the floor's {fmt_t(t['numpy'])}): the floor making every result anew, "
            f"as minigrad does, takes {fmt_t(abs(alloc))} {'more' if alloc >= 0 else 'less'} "
            f"({fmt_r(t.ratio('numpy, allocating', 'numpy'))} the floor): "
            + ("that is what allocation and memory traffic cost. " if alloc > 0.05 * t["numpy"] else
               "allocation and memory traffic cost little. ")
            + f"minigrad's bookkeeping alone, the same model at toy sizes ({toy_sizes}, batch "
            f"{TOY[1]}) where the arithmetic is nearly free, takes {fmt_t(bookkeeping)} over the floor's toy "
            f"step. Together {fmt_t(alloc + bookkeeping)}{share}. The toy step takes {fmt_t(after['after floor'])} "
            f"right after a full-size floor step, whose large arrays have just gone through the caches, and "
            f"{fmt_t(after['after toy'])} right after another toy step ({slower:.2f}x): "
            + ("bookkeeping costs more between large array operations than alone, which the toy figure "
               "leaves out." if slower > 1.1 else "no clear slowdown after the large arrays."))


_QUALNAMES = {}


def qualname(path, line, name):
    """``Class.method`` for a function defined at ``path:line`` (read from the source), else ``name``."""
    if path not in _QUALNAMES:
        import ast
        table = _QUALNAMES[path] = {}
        try:
            tree = ast.parse(Path(path).read_text())
        except (OSError, SyntaxError, ValueError):
            tree = None

        def visit(node, prefix):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    q = prefix + child.name
                    if not isinstance(child, ast.ClassDef):
                        first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                        for ln in range(first, child.lineno + 1):
                            table[ln] = q
                    visit(child, q + ".")
        if tree is not None:
            visit(tree, "")
    return _QUALNAMES[path].get(line, name)


def short_path(path):
    path = str(path)
    for marker in ("minigrad/", "site-packages/", "lib/python"):
        i = path.rfind(marker)
        if i >= 0:
            return path[i:] if marker == "minigrad/" else path[i + len(marker):]
    return path


# --- report ----------------------------------------------------------------

def fmt_t(s):
    if s is None:
        return "n/a"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} µs"


def ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.2f}x"


def fmt_r(r):
    return "n/a" if r is None else f"{r:.2f}x"


def speedup(r):
    if r is None:
        return "n/a"
    return f"{r:,.0f}x faster" if r >= 10 else f"{r:.2f}x faster" if r >= 1 else f"{1 / r:.2f}x slower"


def main():
    global QUICK
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds (for trying the script)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    args = ap.parse_args()
    QUICK = args.quick
    t_start = time.perf_counter()

    blas, threads = blas_info()
    if torch is not None:
        torch.set_num_threads(threads)
    mg_version = getattr(micrograd, "__version__", None) if micrograd is not None else None
    if micrograd is not None and mg_version is None:
        try:
            from importlib.metadata import version
            mg_version = version("micrograd")
        except Exception:
            mg_version = "?"
    machine = [
        ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("CPU", f"{cpu_model()}, {os.cpu_count()} logical cores ({platform.machine()}, {platform.system()})"),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("NumPy", f"{np.__version__}, BLAS {blas}, {threads} threads"),
        ("PyTorch", f"{torch.__version__}, torch.set_num_threads({threads}) -> {torch.get_num_threads()} threads"
         if torch is not None else "not installed"),
        ("micrograd", mg_version or "not installed"),
        ("minigrad", f"{minigrad.__version__} ({git_rev()})"),
    ]
    machine.append(("threads", f"OpenBLAS workers spin at most 2**n cycles after a call, "
        f"{SETTLE_S * 1e3:.0f} ms pause before each timed sample: " + ", ".join(
        f"{k}={os.environ[k]}" for k in THREAD_ENV) + "; load average at start " + load_avg()))
    steady_start, cpu_start = python_steadiness(), cpu_times()
    for k, v in machine:
        print(f"{k}: {v}", flush=True)

    rows, profiles, notes = [], [], []

    def add(name, t, target, met, reason_fn=None):
        """t: lib -> seconds (missing = n/a)."""
        mg, pt, npf, mc = (t.get(k) for k in LIBS)
        r_pt, r_np, r_mc = t.ratio("minigrad", "pytorch"), t.ratio("minigrad", "numpy"), t.ratio("micrograd", "minigrad")
        rows.append([name, fmt_t(mg), fmt_t(pt), fmt_t(npf), fmt_t(mc),
                     fmt_r(r_pt), fmt_r(r_np), speedup(r_mc), target,
                     "—" if met is None else ("met" if met else "**not met**")])
        print(" | ".join(str(c) for c in rows[-1]), flush=True)
        if met is False and reason_fn is not None:
            profiles.append((name, reason_fn()))

    op_timings = op_costs()
    costs = {lib: {k: t[lib] for k, t in op_timings.items()} for lib in op_timings["recorded op"]}
    print("per-op costs: " + ", ".join(f"{lib} {k} {v * 1e6:.2f} µs" for lib, c in costs.items()
                                       for k, v in c.items()), flush=True)
    for k, label in [("recorded op", "0-d op, recorded (forward, per op)"),
                     ("unrecorded op", "0-d op, under no_grad (per op)"),
                     ("backward, per node", "backward, per node (0-d chain)")]:
        t = op_timings[k]
        target = "≤1.5x PyTorch" if k != "unrecorded op" else "—"
        add(label, t, target, t.ratio("minigrad", "pytorch") <= 1.5 if target != "—" and "pytorch" in t else None)

    # MLP steps
    for name, sizes, batch, target, check in [
        ("MLP step 784-256-256-10, batch 128", [784, 256, 256, 10], 128,
         "≤1.2x PyTorch and ≤1.2x NumPy",
         lambda t: t.ratio("minigrad", "numpy") <= 1.2 and (t.ratio("minigrad", "pytorch") or 0) <= 1.2),
        ("small MLP step 32-64-64-10, batch 32", [32, 64, 64, 10], 32,
         "≤1.4x PyTorch", lambda t: t.ratio("minigrad", "pytorch") <= 1.4 if "pytorch" in t else None),
        ("wide step 2048-2048-10, batch 256", [2048, 2048, 10], 256, "—", lambda t: None),
    ]:
        t, mg_fn = mlp_workload(sizes, batch)
        add(name, t, target, check(t),
            lambda fn=mg_fn, t=t, sizes=sizes, batch=batch: explain_overhead(
                name, fn, t, costs, gap_breakdown(sizes, batch) if sizes == [784, 256, 256, 10] else None)
            + "\n\n" + profile(fn))
        if sizes == [784, 256, 256, 10]:  # where the time of the step goes, against the floor's
            for phase, tp in zip(PHASES, mlp_phases(sizes, batch)):
                add(f"&nbsp;&nbsp;… {phase}", tp, "—", None)

    # small CNN (reported only)
    t, mg_fn = cnn_workload()
    add("small CNN step 1x28x28 conv8-pool-linear, batch 32", t, "— (reported)", None)
    t = gelu_workload(rounds=11, sample_s=0.05)
    add("GELU (erf) forward+backward, 256x1024 float32", t, "— (reported)", None)

    # scalar chains
    t, fn, n1 = chain_workload(200)
    add("scalar chain, 200 ops, fwd+bwd", t, "≤1.4x PyTorch",
        t.ratio("minigrad", "pytorch") <= 1.4 if "pytorch" in t else None,
        lambda: explain_overhead("chain", fn, t, costs) + "\n\n" + profile(fn))
    t, fn, n2 = chain_workload(10_000, rounds=11, sample_s=0.05)
    add("scalar chain, 10,000 ops, fwd+bwd", t, "—", None)
    notes += n1 + n2
    # micrograd's recursive topological sort would overflow the C stack at this depth
    t, fn, _ = chain_workload(50_000, with_micrograd=False, rounds=7, sample_s=0.05)
    growth = chain_growth()
    flat = growth["50000"] / growth["200"]
    add("scalar chain, 50,000 ops, fwd+bwd", t, "per op ≤1.2x the 200-op chain's (fresh process)",
        flat <= 1.2, lambda: profile(fn))
    notes.append(f"scalar chains, cost per op as the graph grows (minigrad, in a fresh process that imports "
                 f"only minigrad, as a learner's session, best of several runs, garbage collector on): "
                 f"{growth['200'] * 1e6:.2f} µs at 200 ops, {growth['50000'] * 1e6:.2f} µs at 50,000 "
                 f"({flat:.2f}x). In this benchmark's own process the collector also walks PyTorch's and "
                 f"micrograd's objects, so every library's cost per op grows there (see the table).")

    # micrograd MLP
    t, fn = micrograd_mlp_workload()
    add("MLP 2-16-16-1 step, batch 64 (vs micrograd)", t, "≥1000x faster than micrograd",
        t.ratio("micrograd", "minigrad") >= 1000 if "micrograd" in t else None, lambda: profile(fn))

    # import
    imp_mg, wall_mg = import_time("minigrad")
    imp_pt, wall_pt = import_time("torch") if torch is not None else (None, None)
    imp_np, _ = import_time("numpy")
    rows.append(["`import minigrad` (fresh process)", fmt_t(imp_mg), fmt_t(imp_pt), "n/a", "n/a",
                 ratio(imp_mg, imp_pt), "n/a", "n/a", "< 0.15 s", "met" if imp_mg < 0.15 else "**not met**"])
    print(" | ".join(rows[-1]), flush=True)
    notes.append(f"import: median of {3 if QUICK else 10} fresh processes, after one untimed import that caches "
                 "the bytecode (as a learner's first import does), time of the import statement alone; "
                 f"whole `python -c 'import ...'` process: minigrad {fmt_t(wall_mg)}, torch {fmt_t(wall_pt)}. "
                 f"`import numpy` alone (which minigrad imports): {fmt_t(imp_np)}.")
    if imp_mg >= 0.15:
        prof = subprocess.run([sys.executable, "-X", "importtime", "-c", "import minigrad"], capture_output=True,
                              text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT).stderr
        worst = sorted((ln for ln in prof.splitlines() if ln.startswith("import time:") and "|" in ln
                        and ln.split("|")[1].strip().isdigit()), key=lambda ln: -int(ln.split("|")[1]))[:12]
        profiles.append(("`import minigrad`", "`python -X importtime` (cumulative µs), slowest:\n\n```\n"
                         + "\n".join(worst) + "\n```"))

    # memory
    steps = 200 if QUICK else 1000
    before, r100, rend, hwm, peak_scope = memory_workload(steps)
    flat = abs(rend - r100) <= 5.0
    rows.append([f"memory: RSS over {steps:,} steps of the 784-256-256-10 model (minigrad)",
                 f"RSS {r100:.1f} MB after step 100, {rend:.1f} MB after step {steps} ({rend - r100:+.1f} MB, "
                 f"{'flat' if flat else 'grows'}); peak {hwm:.1f} MB", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a",
                 "no growth", "met" if flat else "**not met**"])
    print(" | ".join(rows[-1]), flush=True)
    notes.append(f"memory: RSS of the benchmark process (which also holds PyTorch) {before:.1f} MB before the "
                 f"first step; peak RSS (VmHWM) over {peak_scope} {hwm:.1f} MB; \"flat\" means within 5 MB "
                 f"from step 100 to step {steps}.")
    sb = saved_bytes()
    rows.append(["memory: saved-tensor bytes, one 784-256-256-10 step", f"{sb['minigrad'] / 2**20:.2f} MiB",
                 f"{sb['pytorch'] / 2**20:.2f} MiB" if "pytorch" in sb else "n/a", "n/a", "n/a",
                 ratio(sb["minigrad"], sb.get("pytorch")), "n/a", "n/a", "—", "—"])
    print(" | ".join(rows[-1]), flush=True)
    notes.append("saved-tensor bytes: minigrad from `minigrad.viz.saved_memory(loss).total`; PyTorch from "
                 "`torch.autograd.graph.saved_tensors_hooks`, the bytes of the distinct storages packed "
                 "(both count the parameters and the input batch that the graph saves).")

    cpu = cpu_model()
    header = [f"workload ({cpu})", "minigrad", "PyTorch", "NumPy floor", "micrograd", "minigrad / PyTorch",
              "minigrad / NumPy", "vs micrograd", "target", "target met"]
    table = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    table += ["| " + " | ".join(r) + " |" for r in rows]
    elapsed = time.perf_counter() - t_start
    notes.append(f"load average at the end: {load_avg()} (this machine is shared; the interleaving and "
                 "medians are there so that other load hits every library alike).")
    notes.append(f"steadiness: CPU time stolen by the hypervisor during the run: {steal_share(cpu_start, cpu_times())}. "
                 f"A fixed pure-Python loop, timed {STEADY_SAMPLES} times, took {steady_start:.2f}x its best time at the median "
                 f"at the start, {python_steadiness():.2f}x at the end (1.00: every sample as fast as the best; the "
                 "higher, the less steady the machine ran, and the less one run's ratios say).")
    print("\n" + "\n".join(table))
    print(f"\nbench: {elapsed:.0f} s")

    doc = [f"{CPU_HEADING}{cpu}", "", "### Machine", ""]
    doc += [f"- **{k}**: {v}" for k, v in machine]
    doc += ["", "### Results", "", *table, "", "Notes:", ""]
    doc += [f"- {n}" for n in [
        "MLP steps: float32, `Linear`/`ReLU`, `CrossEntropyLoss`, `SGD(lr=0.01, momentum=0.9)`: forward, "
        "loss, `zero_grad`, `backward`, `step`; the same initial weights and batch for all three, whose "
        "losses are checked to agree. The NumPy floor is the same forward, backward and update written by "
        "hand with preallocated buffers and in-place updates.",
        "Scalar chains: a 0-d tensor (micrograd: `Value`) requiring grad, alternately `* c` and `+ c`, then "
        "`backward()`; the gradients are checked to agree. No NumPy floor (n/a).",
        "micrograd MLP: `micrograd.nn.MLP(2, [16, 16, 1])` (ReLU hidden layers), mean squared error over "
        "the batch of 64, `zero_grad`, `backward`, plain SGD (lr 0.01) on every parameter; minigrad and "
        "PyTorch run the same model as float32 tensors.",
        *notes,
        f"The whole benchmark took {elapsed:.0f} s.",
    ]]
    if profiles:
        doc += ["", "### Targets not met: where minigrad's time goes", ""]
        for name, text in profiles:
            doc += [f"#### {name}", "", text, ""]
    else:
        doc += ["", "Every target is met.", ""]
    write_results(Path(args.out), cpu, "\n".join(doc).rstrip())
    print(f"bench: wrote {os.path.relpath(args.out, ROOT)}")


CPU_HEADING = "## Results on "
RESULTS_INTRO = (
    "# minigrad benchmark results\n\n"
    "Written by `make bench` (`bench/run.py`); do not edit by hand. One section per CPU model it has "
    "been run on, the last run of each: the ratios differ between CPUs. One process, one run: each "
    "workload times every library in the same process, interleaved round-robin (the order rotates "
    "each round), after a warm-up; times are medians per step. Ratios are minigrad's time over the "
    "other's (lower is better for minigrad), the median over rounds of the ratio of the two samples "
    "taken in the same round; \"vs micrograd\" is how many times faster minigrad is. Targets are "
    "judged on these ratios.")


def write_results(path, cpu, section):
    """Replace this CPU's section of the results file, keeping the other CPUs' sections."""
    sections = {}
    if path.exists():
        for part in path.read_text().split("\n" + CPU_HEADING)[1:]:
            name = part.split("\n", 1)[0].strip()
            sections[name] = (CPU_HEADING + part).rstrip()
    sections[cpu] = section
    path.write_text(RESULTS_INTRO + "\n\n" + "\n\n".join(sections[k] for k in sorted(sections)) + "\n")


def load_avg():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def cpu_times():
    """(stolen, total) CPU time so far, in clock ticks, from Linux's /proc/stat; None elsewhere.
    Stolen: time the hypervisor gave this virtual machine's CPUs to other guests."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def steal_share(start, end):
    if start is None or end is None or end[1] == start[1]:
        return "n/a"
    return f"{100 * (end[0] - start[0]) / (end[1] - start[1]):.1f}%"


STEADY_SAMPLES = 60


def python_steadiness(samples=STEADY_SAMPLES):
    """How steadily this machine runs Python code now: a fixed pure-Python loop (about 0.1 ms)
    timed ``samples`` times, after the pause each timed sample of the workloads gets, as its
    median time over its best time."""
    def loop():
        s = 0
        for i in range(2000):
            s += i * i
        return s
    times = []
    for _ in range(samples):
        time.sleep(SETTLE_S)
        t0 = time.perf_counter()
        loop()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) / min(times)


def git_rev():
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=ROOT, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "minigrad"], capture_output=True,
                               text=True, cwd=ROOT).stdout.strip()
        return f"git {rev}{' + uncommitted changes in minigrad/' if dirty else ''}"
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"


if __name__ == "__main__":
    main()
