# Scaling of parallel=True (prange on oneTBB): mahou serial, mahou parallel and Numba
# parallel at 1, 2, 4, 8, 16 threads (those the machine has), interleaved, best of
# several rounds. Rewrites the bench:parallel table of BENCHMARKS.md.
# Usage: python bench/parallel.py [--quick] [--no-write] [--label TEXT]
import argparse
import datetime
import importlib.util
import os
import platform
import re
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
BENCHMARKS_MD = HERE.parent / "BENCHMARKS.md"
BEGIN, END = "<!-- BEGIN bench:parallel{} -->", "<!-- END bench:parallel{} -->"


def load_kernels(name, prange):
    spec = importlib.util.spec_from_file_location(name, HERE / "parallel_kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.prange = prange
    return module


KERNELS = ["map_sum", "sum_reduce", "stencil", "monte_carlo_pi", "matmul", "array_expr", "imbalanced", "tiny"]


def make_args(name, quick):
    rng = np.random.default_rng(0)
    scale = 10 if quick else 1
    if name in ("map_sum", "sum_reduce"):
        return (rng.random(50_000_000 // scale),)
    if name == "stencil":
        n = 4000 if not quick else 1200
        return (rng.random((n, n)), np.zeros((n, n)))
    if name == "monte_carlo_pi":
        return (20_000_000 // scale,)
    if name == "matmul":
        n = 768 if not quick else 256
        return (rng.random((n, n)), rng.random((n, n)), np.zeros((n, n)))
    if name == "array_expr":
        n = 20_000_000 // scale
        return (rng.random(n), rng.random(n))
    if name == "imbalanced":
        return (12_000 if not quick else 6_000,)
    if name == "tiny":
        return (np.zeros(1000),)
    raise KeyError(name)


def best_seconds(fn, args, reps, inner=1):
    best = None
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn(*args)
        dt = (time.perf_counter() - t0) / inner
        best = dt if best is None or dt < best else best
    return best


def fmt_time(s):
    if s is None:
        return "n/a"
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def fmt_ratio(x, y):
    return "n/a" if x is None or y is None or y == 0 else f"{x / y:.2f}"


def thread_counts(limit):
    return [t for t in (1, 2, 4, 8, 16) if t <= limit]


def write_markdown(text, label):
    begin, end = BEGIN.format(label), END.format(label)
    block = f"{begin}\n{text.strip()}\n{end}"
    doc = BENCHMARKS_MD.read_text()
    if begin in doc and end in doc:
        doc = re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda m: block, doc, flags=re.S)
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    BENCHMARKS_MD.write_text(doc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller inputs, fewer rounds")
    ap.add_argument("--no-write", action="store_true", help="print, do not touch BENCHMARKS.md")
    ap.add_argument("--label", default="", help="suffix of the BENCHMARKS.md markers (one table per machine)")
    ap.add_argument("--only", default="", help="comma-separated kernels")
    ap.add_argument("--reps", type=int, default=0, help="rounds (default 5, 3 with --quick)")
    opts = ap.parse_args()
    reps = opts.reps or (3 if opts.quick else 5)

    import mahou

    try:
        import numba
    except Exception as e:  # noqa: BLE001
        numba, why = None, f"{type(e).__name__}: {e}"
    mk = load_kernels("parallel_kernels_mahou", mahou.prange)
    serial = {k: mahou.njit(getattr(mk, k)) for k in KERNELS}
    mpar = {k: mahou.njit(parallel=True)(getattr(mk, k)) for k in KERNELS}
    npar = {}
    if numba:
        nk = load_kernels("parallel_kernels_numba", numba.prange)
        npar = {k: numba.njit(parallel=True)(getattr(nk, k)) for k in KERNELS}
    limit = mahou.config.NUMBA_NUM_THREADS
    counts = thread_counts(limit)
    kernels = [k for k in KERNELS if not opts.only or k in opts.only.split(",")]
    lines = []
    summary = []
    for name in kernels:
        args = make_args(name, opts.quick)
        inner = 200 if name == "tiny" else 1
        expected = serial[name](*args)  # compiles
        r = mpar[name](*args)
        ok = np.isclose(r, expected, rtol=1e-6) or name == "monte_carlo_pi"
        if numba:
            t0 = time.perf_counter()
            npar[name](*args)
            print(f"bench: numba compiled {name} in {time.perf_counter() - t0:.1f} s", flush=True)
        t_serial = best_seconds(serial[name], args, reps, inner)
        rows = []
        for t in counts:
            mahou.set_num_threads(t)
            if numba:
                numba.set_num_threads(t)
            tm = tn = None
            # interleaved rounds: a change of load hits both alike
            for _ in range(reps):
                x = best_seconds(mpar[name], args, 1, inner)
                tm = x if tm is None or x < tm else tm
                if numba:
                    y = best_seconds(npar[name], args, 1, inner)
                    tn = y if tn is None or y < tn else tn
            rows.append((t, tm, tn))
        mahou.set_num_threads(limit)
        if numba:
            numba.set_num_threads(limit)
        lines.append(f"**{name}**{'' if ok else ' (RESULT DIFFERS FROM SERIAL)'}: mahou serial {fmt_time(t_serial)}\n")
        lines.append("| threads | mahou parallel | Numba parallel | mahou speedup over serial | mahou / Numba |")
        lines.append("|---|---|---|---|---|")
        for t, tm, tn in rows:
            lines.append(f"| {t} | {fmt_time(tm)} | {fmt_time(tn)} | {fmt_ratio(t_serial, tm)}x | {fmt_ratio(tm, tn)} |")
        lines.append("")
        t, tm, tn = rows[-1]
        summary.append(f"| {name} | {fmt_time(t_serial)} | {fmt_time(tm)} | {fmt_time(tn)} | "
                       f"{fmt_ratio(t_serial, tm)}x | {fmt_ratio(tm, tn)} |")
        print("\n".join(lines[-len(rows) - 4:]), flush=True)
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except Exception:  # noqa: BLE001
        pass
    head = [
        f"Measured {datetime.date.today()} on {cpu} ({os.cpu_count()} CPUs, threads up to {limit}); "
        f"{'quick inputs' if opts.quick else 'full inputs'}, best of {reps} interleaved rounds; mahou's "
        f"threading layer {mahou.threading_layer()}, Numba {numba.__version__ + ' on ' + numba.threading_layer() if numba else 'absent (' + why + ')'}.",
        "",
        f"At {counts[-1]} threads:",
        "",
        "| kernel | mahou serial | mahou parallel | Numba parallel | mahou speedup | mahou / Numba |",
        "|---|---|---|---|---|---|",
        *summary,
        "",
    ]
    text = "\n".join(head + lines)
    print(text)
    if not opts.no_write:
        write_markdown(text, opts.label)


if __name__ == "__main__":
    sys.exit(main())
