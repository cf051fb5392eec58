# Generators: a compiled loop summing the items of a compiled generator, against the
# same loop written directly (no generator), in mahou and Numba, and Python's own
# generator for reference; also a generator returned to Python and iterated there.
# Interleaved rounds, best of each, ns per item. Rewrites the bench:generators table
# of BENCHMARKS.md. Usage: python bench/generators.py [--quick] [--no-write]
import datetime
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import best_ns, libraries, load_source, write_table  # noqa: E402

SOURCE = '''
import numpy as np

@lib.njit
def halves(n):
    for i in range(n):
        yield i * 0.5

@lib.njit
def filtered(a):
    for x in a:
        if x > 0.0:
            yield x * x

@lib.njit
def sum_generator(n):
    s = 0.0
    for x in halves(n):
        s += x
    return s

@lib.njit
def sum_direct(n):
    s = 0.0
    for i in range(n):
        s += i * 0.5
    return s

@lib.njit
def sum_filtered_generator(a):
    s = 0.0
    for x in filtered(a):
        s += x
    return s

@lib.njit
def sum_filtered_direct(a):
    s = 0.0
    for x in a:
        if x > 0.0:
            s += x * x
    return s
'''

PLAIN = SOURCE.replace("@lib.njit\n", "")


def load(lib):
    return load_source(SOURCE if lib is not None else PLAIN, "generators", lib)


def main():
    opts, mahou, numba = libraries()
    import numpy as np

    impls = {"mahou": load(mahou), "python": load(None)}
    if numba is not None:
        impls["numba"] = load(numba)
    n = 200_000 if opts.quick else 2_000_000
    rounds = 3 if opts.quick else 7
    a = np.random.default_rng(0).standard_normal(n)
    m = n // 20  # Python is slow: fewer items, per-item time is what is reported
    cases = [  # (label, function name, argument for compiled code, for Python)
        ("sum of a generator's items (`for x in halves(n)`)", "sum_generator", (n,), (m,)),
        ("the same loop without a generator", "sum_direct", (n,), (m,)),
        ("sum of a filtering generator over an array", "sum_filtered_generator", (a,), (a[:m],)),
        ("the same loop without a generator", "sum_filtered_direct", (a,), (a[:m],)),
    ]
    for ns in impls.values():  # warm up: compiles everything
        for _, fname, args, pargs in cases:
            ns[fname](*pargs)
        list(ns["halves"](10))
    for k in impls:  # the same results
        if k != "python":
            assert abs(impls[k]["sum_generator"](1000) - impls["python"]["sum_generator"](1000)) < 1e-6
    results = {}
    for _ in range(rounds):
        for label, fname, args, pargs in cases:
            for k, ns in impls.items():
                py = k == "python"
                items = m if py else n
                t = best_ns(ns[fname], pargs if py else args, 1) / items
                key = (label, fname, k)
                results[key] = min(results.get(key, t), t)
            # a generator returned to Python, iterated by Python
        for k, ns in impls.items():
            t0 = time.perf_counter_ns()
            for _ in ns["halves"](m):
                pass
            t = (time.perf_counter_ns() - t0) / m
            key = ("python iterates", "iter", k)
            results[key] = min(results.get(key, t), t)
    libs = [k for k in ("mahou", "numba") if k in impls]
    rows = []
    header = "| operation | " + " | ".join(f"{k} ns/item" for k in libs) + \
             (" | mahou / Numba" if "numba" in impls else "") + " | Python ns/item |"
    rows.append(header)
    rows.append("|---|" + "---:|" * (len(libs) + (1 if "numba" in impls else 0) + 1))
    labels = [(label, fname) for label, fname, _, _ in cases] + \
             [("a generator returned to Python, iterated by a Python `for`", "iter")]
    for label, fname in labels:
        key = label if fname != "iter" else "python iterates"
        vals = [results[(key, fname, k)] for k in libs]
        line = f"| {label} | " + " | ".join(f"{v:.2f}" for v in vals)
        if "numba" in impls:
            line += f" | {vals[0] / vals[1]:.2f}x"
        line += f" | {results[(key, fname, 'python')]:.1f} |"
        rows.append(line)
    meta = (f"_{datetime.date.today()}, {platform.machine()}, Python {platform.python_version()}, "
            f"mahou {getattr(mahou, '__version__', '?')}"
            + (f", Numba {numba.__version__}" if numba is not None else ", Numba not installed")
            + f"; best of {rounds} interleaved rounds, {n} items per compiled call ({m} for Python)._")
    table = meta + "\n\n" + "\n".join(rows)
    print(table)
    if opts.no_write:
        return
    write_table("generators", "Generators (bench/generators.py)", table)


if __name__ == "__main__":
    main()
