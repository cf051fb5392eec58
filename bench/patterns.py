# The slow patterns of issue 29, each timed under mahou, Numba and its C floor (clang-19
# -O3 -march=native; -ffast-math -fveclib=libmvec for the fastmath rows) in one run,
# interleaved, best of N: loops over a jitclass's field array, transcendental functions in
# a loop (with and without fastmath), int and str set membership. Rewrites the
# bench:patterns table of BENCHMARKS.md. Usage: python bench/patterns.py [--quick] [--no-write]
import ctypes
import datetime
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import best_ns, libraries, load_source, write_table  # noqa: E402

CLANG = os.environ.get("CLANG", "clang-19")

SOURCE = '''
import math
import numpy as np
spec = [("size", lib.int64), ("array", lib.float32[:])]

@lib.experimental.jitclass(spec)
class Field:
    def __init__(self, n):
        self.size = n
        self.array = np.zeros(n, dtype=np.float32)

    def add(self, val):
        for i in range(self.size):
            self.array[i] += val

@lib.njit
def array_add(a, val):
    for i in range(a.shape[0]):
        a[i] += val

def transcendental(x, out):
    for i in range(x.shape[0]):
        out[i] = math.sin(x[i]) + math.exp(-x[i]) * math.log(1.0 + x[i])

transcendental_plain = lib.njit(transcendental)
transcendental_fast = lib.njit(fastmath=True)(transcendental)

@lib.njit
def int_membership(keys, queries):
    s = set(keys)
    n = 0
    for q in queries:
        if q in s:
            n += 1
    return n

@lib.njit
def str_membership(nkeys, nqueries, rounds):
    s = set()
    for i in range(0, 3 * nkeys, 3):
        s.add(str(i))
    queries = [str(j) for j in range(nqueries)]
    n = 0
    for _ in range(rounds):
        for q in queries:
            if q in s:
                n += 1
    return n
'''


def build_c(workdir):
    out = {}
    src = str(HERE / "c" / "patterns.c")
    for fast in (False, True):
        lib = Path(workdir) / f"libpatterns{'_fast' if fast else ''}.so"
        flags = ["-ffast-math", "-fveclib=libmvec"] if fast else []
        cmd = [CLANG, "-O3", "-march=native", *flags, "-shared", "-fPIC", "-o", str(lib), src, "-lm",
               *(["-lmvec"] if fast else [])]
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as e:
            print("patterns: C floor unavailable:", getattr(e, "stderr", e))
            return None
        c = ctypes.CDLL(str(lib))
        P, I = ctypes.c_void_p, ctypes.c_int64
        c.pattern_field_add.argtypes = [P, I, I]
        c.pattern_transcendental.argtypes = [P, P, I]
        c.pattern_set_count.argtypes = [P, I, P, I]
        c.pattern_set_count.restype = I
        out[fast] = c
    return out


def main():
    opts, mahou, numba = libraries(("numba.experimental",))
    impls = {"mahou": load_source(SOURCE, "patterns", mahou)}
    if numba is not None:
        impls["Numba"] = load_source(SOURCE, "patterns", numba)
    reps = 5 if opts.quick else 30
    n = 100_000
    x = np.random.default_rng(0).random(1_000_000)
    keys = np.arange(0, 3000, 3, dtype=np.int64)
    queries = np.random.default_rng(1).integers(-100, 3100, 1_000_000)
    p = lambda a: a.ctypes.data
    with tempfile.TemporaryDirectory() as td:
        c = build_c(td)
        cases = []  # (label, {impl: (fn, args)})
        fields = {k: ns["Field"](n) for k, ns in impls.items()}
        arrays = {k: np.zeros(n, np.float32) for k in impls}
        outs = {k: np.empty_like(x) for k in list(impls) + ["C"]}
        row = {k: (fields[k].add, (3,)) for k in impls}
        if c:
            ca = np.zeros(n, np.float32)
            row["C"] = (c[False].pattern_field_add, (p(ca), n, 3))
        cases.append(("jitclass method `self.array[i] += val` (float32, 100,000, int val)", row))
        row = {k: (ns["array_add"], (arrays[k], 3)) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_field_add, (p(ca), n, 3))
        cases.append(("same loop as a function over an array argument", row))
        row = {k: (ns["transcendental_plain"], (x, outs[k])) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_transcendental, (p(x), p(outs["C"]), x.shape[0]))
        cases.append(("`sin(x) + exp(-x) * log(1 + x)` loop, 1M float64", row))
        row = {k: (ns["transcendental_fast"], (x, outs[k])) for k, ns in impls.items()}
        if c:
            row["C"] = (c[True].pattern_transcendental, (p(x), p(outs["C"]), x.shape[0]))
        cases.append(("the same with fastmath (C: -ffast-math -fveclib=libmvec)", row))
        row = {k: (ns["int_membership"], (keys, queries)) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_set_count, (p(keys), keys.shape[0], p(queries), queries.shape[0]))
        cases.append(("int set membership: `q in s`, 1,000 keys, 1M queries", row))
        row = {k: (ns["str_membership"], (1000, 1000, 100)) for k, ns in impls.items()}
        cases.append(("str set membership: 1,000 keys, 100 x 1,000 queries (incl. building)", row))
        for _, row in cases:  # warm up: compile
            for fn, args in row.values():
                fn(*args)
        results = {}
        for _ in range(reps):
            for label, row in cases:
                for k, (fn, args) in row.items():
                    t = best_ns(fn, args, 1)
                    results[(label, k)] = min(results.get((label, k), t), t)
    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores, load average "
        f"{os.getloadavg()[0]:.1f}. Date: {datetime.datetime.now():%Y-%m-%d %H:%M}. Best of {reps} interleaved rounds.",
        "",
        "| pattern | mahou | Numba | C floor | mahou/Numba | mahou/C |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, row in cases:
        m = results[(label, "mahou")] / 1e6
        nb = results.get((label, "Numba"))
        cf = results.get((label, "C"))
        cell = lambda v: f"{v / 1e6:.3f} ms" if v else "—"
        ratio = lambda v: f"{m * 1e6 / v:.2f}×" if v else "—"
        lines.append(f"| {label} | {m:.3f} ms | {cell(nb)} | {cell(cf)} | {ratio(nb)} | {ratio(cf)} |")
    table = "\n".join(lines)
    print(table)
    if not opts.no_write:
        write_table("patterns", "Patterns of issue 29 (CPU)", table)


if __name__ == "__main__":
    main()
