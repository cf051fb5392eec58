# objmode blocks: what one `with objmode(...)` block costs inside a compiled loop (a call
# into the interpreter: boxing its inputs, running the body, unboxing its outputs), in
# mahou and Numba, with the same body run by plain Python for reference. Interleaved
# rounds, best of each, ns per block. Rewrites the bench:objmode table of BENCHMARKS.md.
# Usage: python bench/objmode.py [--quick] [--no-write]
import datetime
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import best_ns, libraries, load_source, write_table  # noqa: E402

SOURCE = '''
import numpy as np

@lib.njit
def scalar_blocks(n):
    acc = 0.0
    for i in range(n):
        with lib.objmode(v="float64"):
            v = i * 0.5
        acc += v
    return acc

@lib.njit
def array_blocks(a, n):
    acc = 0.0
    for i in range(n):
        with lib.objmode(s="float64"):
            s = a[i % 4]
        acc += s
    return acc

@lib.njit
def empty_blocks(n):
    for i in range(n):
        with lib.objmode():
            pass
    return n
'''


class _NoBlock:  # plain Python: objmode(...) is a context manager that does nothing
    def __call__(self, **kw):
        return self

    def __enter__(self):
        return None

    def __exit__(self, *a):
        return False


class _Plain:
    objmode = _NoBlock()

    @staticmethod
    def njit(f):
        return f


def main():
    opts, mahou, numba = libraries()
    import numpy as np

    impls = {"mahou": load_source(SOURCE, "objmode", mahou), "python": load_source(SOURCE, "objmode", _Plain)}
    if numba is not None:
        impls["numba"] = load_source(SOURCE, "objmode", numba)
    n = 20_000 if opts.quick else 200_000
    rounds = 3 if opts.quick else 7
    a = np.arange(4.0)
    cases = [
        ("a block with one float64 output (`v = i * 0.5`)", "scalar_blocks", (n,)),
        ("a block reading an array, one float64 output", "array_blocks", (a, n)),
        ("an empty block, no inputs or outputs", "empty_blocks", (n,)),
    ]
    for ns in impls.values():  # warm up: compiles everything, same results
        for _, fname, args in cases:
            ns[fname](*args[:-1], 10)
    for k in impls:
        assert impls[k]["scalar_blocks"](100) == impls["python"]["scalar_blocks"](100)
    results = {}
    for _ in range(rounds):
        for _, fname, args in cases:
            for k, ns in impls.items():
                t = best_ns(ns[fname], args, 1) / n
                results[(fname, k)] = min(results.get((fname, k), t), t)
    libs = [k for k in ("mahou", "numba") if k in impls]
    rows = ["| operation | " + " | ".join(f"{k} ns/block" for k in libs)
            + (" | mahou / Numba" if numba is not None else "") + " | Python ns/iteration |",
            "|---|" + "---:|" * (len(libs) + (1 if numba is not None else 0) + 1)]
    for label, fname, _ in cases:
        vals = [results[(fname, k)] for k in libs]
        line = f"| {label} | " + " | ".join(f"{v:.0f}" for v in vals)
        if numba is not None:
            line += f" | {vals[0] / vals[1]:.2f}x"
        rows.append(line + f" | {results[(fname, 'python')]:.0f} |")
    meta = (f"_{datetime.date.today()}, {platform.machine()}, Python {platform.python_version()}, "
            f"mahou {getattr(mahou, '__version__', '?')}"
            + (f", Numba {numba.__version__}" if numba is not None else ", Numba not installed")
            + f"; best of {rounds} interleaved rounds, {n} blocks per call._")
    table = meta + "\n\n" + "\n".join(rows)
    print(table)
    if not opts.no_write:
        write_table("objmode", "objmode blocks (bench/objmode.py)", table)


if __name__ == "__main__":
    main()
