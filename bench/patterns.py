# The slow patterns of issue 29, each timed under mahou, Numba and its C floor (clang-19
# -O3 -march=native; -ffast-math -fveclib=libmvec for the fastmath rows) in one run,
# interleaved, best of N: loops over a jitclass's field array, transcendental functions in
# a loop (with and without fastmath), int and str set membership, a 4-D correlation, lists
# of numbers and of arrays, str-keyed dicts, a 2-D filter, a histogram, CRC-32, zero
# suppression, random walks of np.random.normal(size=) steps, a complex escape-time loop,
# np.median of many short arrays, normal equations by hand (`at[i * n + k]`), row views
# updated in place (`q[i][j] += v`), a list of lists of tuples returned
# to Python, items stored through a row of a list of lists (`g[y][x] = t`).
# Rewrites the
# bench:patterns table of BENCHMARKS.md. Usage: python bench/patterns.py [--quick] [--no-write] [--only TEXT]
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
def correlate4(img, filt, out):
    # out[i, f, r, c] += img[i, r + h, c + w, j] * filt[f, h, w, j]: seven loops
    n, H, W, C = img.shape
    F, KH, KW, _ = filt.shape
    for i in range(n):
        for f in range(F):
            for r in range(H - KH + 1):
                for c in range(W - KW + 1):
                    for h in range(KH):
                        for w in range(KW):
                            for j in range(C):
                                out[i, f, r, c] += img[i, r + h, c + w, j] * filt[f, h, w, j]

@lib.njit
def primes_list(n):
    # a list of numbers indexed in a while loop (trial division by the primes so far)
    primes = [2]
    k = 3
    while len(primes) < n:
        i = 0
        is_prime = True
        while primes[i] * primes[i] <= k:
            if k % primes[i] == 0:
                is_prime = False
                break
            i += 1
        if is_prime:
            primes.append(k)
        k += 2
    return primes[-1]

@lib.njit
def list_of_arrays(n, m, rounds):
    arrays = [np.arange(m) * 1.0 + i for i in range(n)]
    total = 0.0
    for _ in range(rounds):
        for a in arrays:
            for k in range(a.shape[0]):
                total += a[k]
    return total

@lib.njit
def str_dict(nkeys, rounds):
    d = {}
    for i in range(nkeys):
        d["key" + str(i)] = i
    keys = ["key" + str(i) for i in range(0, 2 * nkeys, 2)]
    total = 0
    for _ in range(rounds):
        for k in keys:
            total += d.get(k, -1)
    return total

@lib.njit
def box_filter(a, out):
    # 3x3 mean, 2-D stencil by hand
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            s = 0.0
            for di in range(-1, 2):
                for dj in range(-1, 2):
                    s += a[i + di, j + dj]
            out[i, j] = s / 9.0

@lib.njit
def histogram(x, lo, hi, counts):
    nbins = counts.shape[0]
    scale = nbins / (hi - lo)
    for v in x:
        if v >= lo and v < hi:
            counts[int((v - lo) * scale)] += 1

@lib.njit
def crc32(data):
    crc = np.uint32(0xFFFFFFFF)
    for b in data:
        crc ^= np.uint32(b)
        for _ in range(8):
            mask = -(crc & np.uint32(1))
            crc = (crc >> np.uint32(1)) ^ (np.uint32(0xEDB88320) & mask)
    return ~crc

@lib.njit
def zero_suppress(x, threshold, values, where):
    n = 0
    for i in range(x.shape[0]):
        if abs(x[i]) > threshold:
            values[n] = x[i]
            where[n] = i
            n += 1
    return n

@lib.njit
def normal_walks(seed, walks, steps):
    # the mean of each walk's highest point; np.random.normal(size=) per walk
    np.random.seed(seed)
    total = 0.0
    for _ in range(walks):
        z = np.random.normal(0.0, 1.0, size=steps)
        x = 0.0
        hi = 0.0
        for i in range(steps):
            x += z[i]
            hi = max(hi, x)
        total += hi
    return total / walks

@lib.njit
def escape_time(c, max_iter, out):
    # iterations of z = z * z + c0 (complex) until |z| > 2
    for k in range(c.shape[0]):
        c0 = c[k]
        z = 0j
        for i in range(1, max_iter + 1):
            if abs(z) > 2:
                break
            z = z * z + c0
        out[k] = i

@lib.njit
def medians(x, m):
    # np.median of each of the x.shape[0] // m consecutive pieces of m values
    total = 0.0
    for k in range(x.shape[0] // m):
        total += np.median(x[k * m:(k + 1) * m])
    return total

@lib.njit
def normal_equations(at, a, x, reps):
    # A^T A and A^T x of a (n, 5) design held flat, as sktime's spline fit computes them
    n = len(x)
    t = 0.0
    for _ in range(reps):
        ata = np.zeros(25)
        atb = np.zeros(5)
        for i in range(5):
            for j in range(5):
                for k in range(n):
                    ata[i * 5 + j] += at[i * n + k] * a[k * 5 + j]
        for i in range(5):
            for k in range(n):
                atb[i] += at[i * n + k] * x[k]
        t += ata[6] + atb[4]
    return t

@lib.njit
def row_view_updates(c, reps):
    # q[u % 4][u // 4] += c[u][m]: a row view in an augmented assignment, in a loop
    t = 0.0
    for _ in range(reps):
        q = np.zeros((4, 8))
        for u in range(32):
            for m in range(4):
                q[u % 4][u // 4] += c[u][m]
        t += q[3][7]
    return t

@lib.njit
def grid_of_tuples(width):
    # a list of lists of int triples built in compiled code and returned (boxed to Python)
    return [[(i, j, i ^ j) for j in range(width)] for i in range(width)]

@lib.njit
def row_item_stores(width, reps):
    # g[y][x] = (...): an item of a row list stored through the outer list, in a loop
    g = [[(0, 0, 0) for j in range(width)] for i in range(width)]
    for r in range(reps):
        for y in range(width):
            for x in range(width):
                g[y][x] = (x + r, y, x * y)
    return g[width - 1][width - 1][0]

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
        c.pattern_correlate4.argtypes = [P, P, P, I, I, I, I, I, I, I]
        c.pattern_box_filter.argtypes = [P, P, I, I]
        c.pattern_histogram.argtypes = [P, I, ctypes.c_double, ctypes.c_double, P, I]
        c.pattern_crc32.argtypes = [P, I]
        c.pattern_crc32.restype = ctypes.c_uint32
        c.pattern_zero_suppress.argtypes = [P, I, ctypes.c_double, P, P]
        c.pattern_zero_suppress.restype = I
        c.pattern_normal_walks.argtypes = [ctypes.c_uint32, I, I]
        c.pattern_normal_walks.restype = ctypes.c_double
        c.pattern_escape_time.argtypes = [P, I, I, P]
        c.pattern_normal_equations.argtypes = [P, P, P, I, I]
        c.pattern_normal_equations.restype = ctypes.c_double
        c.pattern_row_view_updates.argtypes = [P, I]
        c.pattern_row_view_updates.restype = ctypes.c_double
        c.pattern_medians.argtypes = [P, I, I]
        c.pattern_medians.restype = ctypes.c_double
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

        rng = np.random.default_rng(2)
        img = rng.random((2, 34, 34, 8))
        filt = rng.random((16, 3, 3, 8))
        corr_out = {k: np.zeros((2, 16, 32, 32)) for k in list(impls) + ["C"]}
        row = {k: (ns["correlate4"], (img, filt, corr_out[k])) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_correlate4, (p(img), p(filt), p(corr_out["C"]), 2, 34, 34, 8, 16, 3, 3))
        cases.append(("4-D correlation, seven loops (2x34x34x8 by 16x3x3x8)", row))
        row = {k: (ns["primes_list"], (5000,)) for k, ns in impls.items()}
        cases.append(("list of numbers indexed in a while loop (5,000 primes)", row))
        row = {k: (ns["list_of_arrays"], (100, 1000, 10)) for k, ns in impls.items()}
        cases.append(("list of 100 arrays of 1,000, summed 10 times (incl. building)", row))
        row = {k: (ns["str_dict"], (1000, 100)) for k, ns in impls.items()}
        cases.append(("str-keyed dict: 1,000 keys, 100 x 1,000 `get` (incl. building)", row))
        a2 = rng.random((1000, 1000))
        box_out = {k: np.zeros_like(a2) for k in list(impls) + ["C"]}
        row = {k: (ns["box_filter"], (a2, box_out[k])) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_box_filter, (p(a2), p(box_out["C"]), 1000, 1000))
        cases.append(("3x3 box filter by hand, 1000x1000 float64", row))
        hx = rng.standard_normal(1_000_000)
        counts = {k: np.zeros(100, np.int64) for k in list(impls) + ["C"]}
        row = {k: (ns["histogram"], (hx, -3.0, 3.0, counts[k])) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_histogram, (p(hx), hx.shape[0], -3.0, 3.0, p(counts["C"]), 100))
        cases.append(("histogram loop, 1M float64 into 100 bins", row))
        data = rng.integers(0, 256, 100_000, dtype=np.uint8)
        row = {k: (ns["crc32"], (data,)) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_crc32, (p(data), data.shape[0]))
        cases.append(("CRC-32 bit loop, 100,000 bytes", row))
        zx = np.where(rng.random(1_000_000) < 0.1, rng.standard_normal(1_000_000), 0.0)
        zv = {k: np.empty_like(zx) for k in list(impls) + ["C"]}
        zw = {k: np.empty(zx.shape[0], np.int64) for k in list(impls) + ["C"]}
        row = {k: (ns["zero_suppress"], (zx, 0.5, zv[k], zw[k])) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_zero_suppress, (p(zx), zx.shape[0], 0.5, p(zv["C"]), p(zw["C"])))
        cases.append(("zero suppression: values above a threshold and their indices, 1M", row))
        row = {k: (ns["normal_walks"], (7, 1000, 100)) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_normal_walks, (7, 1000, 100))
        cases.append(("random walks: `np.random.normal(size=100)` per walk, 1,000 walks", row))
        gx, gy = np.meshgrid(np.arange(40), np.arange(40))
        cgrid = ((-2.0 + 3.0 * gx / 40) + 1j * (-1.5 + 3.0 * gy / 40)).ravel()
        esc = {k: np.zeros(cgrid.shape[0], np.int64) for k in list(impls) + ["C"]}
        row = {k: (ns["escape_time"], (cgrid, 60, esc[k])) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_escape_time, (p(cgrid), cgrid.shape[0], 60, p(esc["C"])))
        cases.append(("complex escape-time loop: `abs(z) > 2`, `z = z * z + c`, 1,600 points, 60 iterations", row))
        mx = rng.standard_normal(150_000)
        row = {k: (ns["medians"], (mx, 150)) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_medians, (p(mx), mx.shape[0], 150))
        cases.append(("`np.median` of 1,000 arrays of 150 float64", row))
        nx = rng.standard_normal(150)
        nat = rng.standard_normal(750)
        na = np.ascontiguousarray(nat.reshape(5, 150).T).ravel()
        row = {k: (ns["normal_equations"], (nat, na, nx, 100)) for k, ns in impls.items()}
        if c:
            row["C"] = (c[True].pattern_normal_equations, (p(nat), p(na), p(nx), 150, 100))
        cases.append(("normal equations by hand, `at[i * n + k]`, 5 x 150, 100 times (fastmath)", row))
        cq = rng.standard_normal((32, 4))
        row = {k: (ns["row_view_updates"], (cq, 1000)) for k, ns in impls.items()}
        if c:
            row["C"] = (c[False].pattern_row_view_updates, (p(cq), 1000))
        cases.append(("row views updated in place, `q[u % 4][u // 4] += c[u][m]`, 1,000 x 128", row))
        row = {k: (ns["grid_of_tuples"], (40,)) for k, ns in impls.items()}
        cases.append(("40 x 40 list of lists of int triples, returned to Python", row))
        row = {k: (ns["row_item_stores"], (40, 100)) for k, ns in impls.items()}
        cases.append(("`g[y][x] = (...)` into a list of lists, 40 x 40, 100 times", row))
        if opts.only:
            cases = [case for case in cases if opts.only in case[0]]
        for _, row in cases:  # warm up: compile
            for fn, args in row.values():
                fn(*args)
        results = {}
        for r in range(reps):
            for label, row in cases:
                # Each engine goes first in turn: the first call of a row meets the caches
                # (and the allocator) as the previous row left them, the others as this
                # row's first call left them, which favoured the engines timed second
                # by up to 2.6x on the microsecond rows (list results returned to Python).
                order = list(row.items())
                order = order[r % len(order):] + order[:r % len(order)]
                for k, (fn, args) in order:
                    t = best_ns(fn, args, 1)
                    results[(label, k)] = min(results.get((label, k), t), t)
    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores, load average "
        f"{os.getloadavg()[0]:.1f}. Date: {datetime.datetime.now():%Y-%m-%d %H:%M}. Best of {reps} interleaved rounds (each engine first in turn).",
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
    if not opts.no_write and not opts.only:  # a partial table is never written
        write_table("patterns", "Patterns of issue 29 (CPU)", table)


if __name__ == "__main__":
    main()
