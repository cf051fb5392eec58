# Array stores with NumPy's overlap rule: the fused loop of a store whose operands are
# distinct arrays (a run-time byte-range test, then the same loop as before) against Numba,
# and an overlapping store, which goes through one temporary (Numba's answer differs there).
# Interleaved rounds, best of each, ns per element. Rewrites the bench:array_stores table
# of BENCHMARKS.md. Usage: python bench/array_stores.py [--quick] [--no-write]
import datetime
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import best_ns, libraries, load_source, write_table  # noqa: E402

SOURCE = '''
@lib.njit
def add_into(a, b, c):
    a[:] = b + c

@lib.njit
def iadd(a, b):
    a += b

@lib.njit
def shifted_copy(a, b):
    a[1:] = b[:-1]

@lib.njit
def axpy_strided(a, b, c):
    a[::2] = 2.0 * b[::2] + c[1::2]

@lib.njit
def rows_2d(m, n):
    m[:, 1:] = n[:, :-1] * 0.5

@lib.njit
def many_small(a, b, c, reps):
    for _ in range(reps):
        a[:] = b + c

@lib.njit
def overlap_shift(y):
    y[1:] = y[:-1] * 0.5
'''


def main():
    opts, mahou, numba = libraries()
    import numpy as np

    impls = {"mahou": load_source(SOURCE, "array_stores", mahou)}
    if numba is not None:
        impls["numba"] = load_source(SOURCE, "array_stores", numba)
    n = 200_000 if opts.quick else 2_000_000
    small, reps = 16, (20_000 if opts.quick else 200_000)
    rounds = 3 if opts.quick else 7
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(n) for _ in range(3))
    side = int(np.sqrt(n))
    m, m2 = rng.standard_normal((side, side)), rng.standard_normal((side, side))
    sa, sb, sc = (rng.standard_normal(small) for _ in range(3))
    cases = [  # (label, function name, arguments, elements per call)
        ("`a[:] = b + c`, distinct arrays", "add_into", (a, b, c), n),
        ("`a += b`", "iadd", (a, b), n),
        ("`a[1:] = b[:-1]`, distinct arrays", "shifted_copy", (a, b), n - 1),
        ("`a[::2] = 2.0 * b[::2] + c[1::2]` (strided)", "axpy_strided", (a, b, c), n // 2),
        ("`m[:, 1:] = n[:, :-1] * 0.5` (2-D)", "rows_2d", (m, m2), side * (side - 1)),
        (f"`a[:] = b + c` on {small} elements, in a loop", "many_small", (sa, sb, sc, reps), small * reps),
        ("`y[1:] = y[:-1] * 0.5`, overlapping (mahou: via a temporary)", "overlap_shift", (a,), n - 1),
    ]
    for ns in impls.values():  # warm up: compiles everything
        for _, fname, args, _ in cases:
            ns[fname](*args)
    results = {}
    for _ in range(rounds):
        for label, fname, args, elements in cases:
            for k, ns in impls.items():
                t = best_ns(ns[fname], args, 1) / elements
                results[(fname, k)] = min(results.get((fname, k), t), t)
    libs = list(impls)
    rows = ["| store | " + " | ".join(f"{k} ns/element" for k in libs) + (" | mahou / Numba |" if "numba" in impls else " |"),
            "|---|" + "---:|" * (len(libs) + (1 if "numba" in impls else 0))]
    for label, fname, _, _ in cases:
        vals = [results[(fname, k)] for k in libs]
        line = f"| {label} | " + " | ".join(f"{v:.3f}" for v in vals)
        line += f" | {vals[0] / vals[1]:.2f}x |" if "numba" in impls else " |"
        rows.append(line)
    meta = (f"_{datetime.date.today()}, {platform.machine()}, Python {platform.python_version()}, "
            f"mahou {getattr(mahou, '__version__', '?')}"
            + (f", Numba {numba.__version__}" if numba is not None else ", Numba not installed")
            + f"; best of {rounds} interleaved rounds, {n} float64 elements per large array._")
    table = meta + "\n\n" + "\n".join(rows)
    print(table)
    if opts.no_write:
        return
    write_table("array_stores", "Array stores and overlap (bench/array_stores.py)", table)


if __name__ == "__main__":
    main()
