"""How the cost of a chain of ops grows with the graph, and what the graph holds.

    PYTHONPATH=. .venv/bin/python bench/gc_chain.py [--reps 3] [--sizes 200,10000,50000] [--cpu] [--quick]

A chain ``y = y * 1.0001 + 0.0001`` of n ops (alternating * and +) on a 0-d tensor,
forward and backward, timed per op with the cyclic GC on and off; then, per op, how
many GC-tracked objects the live graph holds, which kinds they are, the collections
that ran, and whether anything is left for the collector once the graph is dropped.
"""
import argparse
import collections
import gc
import time

import minigrad

clock = time.perf_counter


def chain(n):
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for i in range(n // 2):
        y = y * 1.0001
        y = y + 0.0001
    return x, y


def run(n):
    x, y = chain(n)
    y.backward()
    return x


def time_per_op(n, reps, gc_on):
    best = float("inf")
    for _ in range(max(reps, 20000 // n)):  # small chains: more repetitions, they are quick
        gc.collect()
        if not gc_on:
            gc.disable()
        t = clock()
        run(n)
        best = min(best, clock() - t)
        gc.enable()
    return best / n * 1e6


class Collections:
    """Counts and times the collections of each generation (gc.callbacks)."""

    def __init__(self):
        self.count, self.seconds, self._t = [0, 0, 0], [0.0, 0.0, 0.0], 0.0
        self.walked = [0, 0, 0]  # objects the collections of each generation walked, summed

    def __call__(self, phase, info):
        if phase == "start":
            self.walked[info["generation"]] += sum(len(gc.get_objects(g))
                                                    for g in range(info["generation"] + 1))
            self._t = time.perf_counter()
        else:
            self.count[info["generation"]] += 1
            self.seconds[info["generation"]] += time.perf_counter() - self._t

    def __enter__(self):
        gc.collect()
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc):
        gc.callbacks.remove(self)


def allocations(n):
    """GC-tracked objects allocated per op and not freed again: what drives the
    collector (every 700 of them a young collection, every 10 of those a middle one,
    every 10 of those a full one if the old generation grew by a quarter)."""
    gc.collect()
    gc.disable()
    before = gc.get_count()[0]
    x, y = chain(n)
    after = gc.get_count()[0]
    gc.enable()
    return (after - before) / n


def census(n):
    """Tracked objects the live graph adds per op, by type (after a collection has
    untracked the tuples that hold only untracked objects)."""
    gc.collect()
    before = collections.Counter(type(o).__name__ for o in gc.get_objects())
    x, y = chain(n)
    gc.collect()
    after = collections.Counter(type(o).__name__ for o in gc.get_objects())
    diff = {k: (after[k] - before[k]) / n for k in after if after[k] - before[k] > n // 100}
    # What one Mul node and one Add node hold that a collection still has to walk: each
    # attribute that is a GC-tracked object (after a collection, which untracks the tuples
    # holding only untracked objects), and inside it, any tracked container (records, pairs).
    z = y * 1.0001
    w = z + 0.0001
    gc.collect()
    gc.collect()  # a tuple is untracked only once its items are: a second pass finishes the job
    pieces = {}
    for name, node in (("Mul", z.grad_fn), ("Add", w.grad_fn)):
        held = {}
        for attr, value in list(vars(node).items()):
            if gc.is_tracked(value):
                inner = [type(v).__name__ for v in value if gc.is_tracked(v)] if type(value) is tuple else []
                held[attr] = type(value).__name__ + (f" of {inner}" if inner else "")
        pieces[name] = held
    del x, y, z, w
    return diff, pieces


def leftover(n):
    """Once everything is dropped after backward: does a collection find cycles?"""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        x = run(n)
        del x
        found = gc.collect()
        kinds = collections.Counter(type(o).__name__ for o in gc.garbage)
        gc.garbage.clear()
        x, y = chain(n)
        del x, y  # without backward
        found_nb = gc.collect()
        kinds_nb = collections.Counter(type(o).__name__ for o in gc.garbage)
        gc.garbage.clear()
    finally:
        gc.set_debug(0)
    return found, dict(kinds), found_nb, dict(kinds_nb)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--sizes", default="200,10000,50000")
    p.add_argument("--quick", action="store_true", help="timings only")
    p.add_argument("--cpu", action="store_true", help="time.process_time (steadier on a busy machine)")
    a = p.parse_args()
    if a.cpu:
        global clock
        clock = time.process_time
    sizes = [int(s) for s in a.sizes.split(",")]
    print(minigrad.__file__, "thresholds", gc.get_threshold(), "tracked at start", len(gc.get_objects()))
    run(200)  # warm up
    rows = []
    for n in sizes:
        on = time_per_op(n, a.reps, True)
        off = time_per_op(n, a.reps, False)
        rows.append((n, on, off))
    print(f"{'n':>7} {'us/op gc on':>12} {'gc off':>8} {'on/off':>7} {'on vs n0':>9}")
    for n, on, off in rows:
        print(f"{n:>7} {on:>12.2f} {off:>8.2f} {on / off:>7.2f} {on / rows[0][1]:>9.2f}")
    if a.quick:
        return
    for n in sizes[1:]:
        with Collections() as c:
            run(n)
        print(f"n={n}: collections gen0/1/2 {c.count}, ms spent "
              f"{[round(s * 1e3, 1) for s in c.seconds]}, objects walked per op "
              f"{[round(w / n, 1) for w in c.walked]}")
    print("net GC allocations per op:", round(allocations(2000), 2))
    diff, pieces = census(10000)
    print("live tracked objects per op, by type:", {k: round(v, 2) for k, v in diff.items()},
          "total", round(sum(diff.values()), 2))
    for name, held in pieces.items():
        print(f"a {name} node's tracked attributes:", held)
    found, kinds, found_nb, kinds_nb = leftover(10000)
    print(f"cyclic garbage after backward + del: {found} objects {kinds}; "
          f"without backward: {found_nb} {kinds_nb}")


if __name__ == "__main__":
    main()
