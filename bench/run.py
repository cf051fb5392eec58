# Side-by-side CPU benchmarks (mahou, Numba, clang -O3 C, CPython) in one run; rewrites the
# tables between the bench:cpu markers in BENCHMARKS.md. Usage: python bench/run.py [--quick]
import argparse
import ctypes
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BENCHMARKS_MD = REPO / "BENCHMARKS.md"
BEGIN, END = "<!-- BEGIN bench:cpu -->", "<!-- END bench:cpu -->"
CLANG = os.environ.get("CLANG", "clang-19")

# ------------------------------------------------------------------ kernels (Python source)
KERNELS_SRC = textwrap.dedent(
    """
    def sum_array(arr):
        total = 0.0
        for i in range(arr.shape[0]):
            total += arr[i]
        return total


    def dot(a, b):
        total = 0.0
        for i in range(a.shape[0]):
            total += a[i] * b[i]
        return total


    def add(a, b):
        return a + b
    """
)


def load_kernels(workdir):
    """Writes the kernels to a module file (compilers read the source) and imports it."""
    path = Path(workdir) / "bench_kernels.py"
    path.write_text(KERNELS_SRC)
    sys.path.insert(0, str(workdir))
    import bench_kernels

    return bench_kernels


def try_import(name):
    try:
        module = __import__(name)
    except Exception as e:  # an ImportError, or numba refusing the installed numpy
        return None, f"{type(e).__name__}: {e}"
    if not hasattr(module, "njit"):
        return None, f"{name} has no njit (not built yet?)"
    return module, None


# ------------------------------------------------------------------ timing
def best_ns(fn, args, reps, warmup=1):
    for _ in range(warmup):
        fn(*args)
    best = None
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn(*args)
        dt = time.perf_counter_ns() - t0
        best = dt if best is None else min(best, dt)
    return best


def per_call_ns(fn, a, b, calls, reps):
    """Best of reps of the mean time of one call over a loop of `calls` calls."""
    fn(a, b)
    loop = range(calls)
    best = None
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        for _ in loop:
            fn(a, b)
        dt = (time.perf_counter_ns() - t0) / calls
        best = dt if best is None else min(best, dt)
    # Subtract the cost of the empty loop.
    t0 = time.perf_counter_ns()
    for _ in loop:
        pass
    return best - (time.perf_counter_ns() - t0) / calls


def build_c(workdir):
    sources = sorted(str(p) for p in (HERE / "c").glob("*.c"))
    lib = Path(workdir) / "libbench_c.so"
    cmd = [CLANG, "-O3", "-march=native", "-shared", "-fPIC", "-o", str(lib), *sources]
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return None, f"{' '.join(cmd)} failed: {getattr(e, 'stderr', '') or e}"
    c = ctypes.CDLL(str(lib))
    dptr = ctypes.POINTER(ctypes.c_double)
    c.sum_array.argtypes = [dptr, ctypes.c_int64]
    c.sum_array.restype = ctypes.c_double
    c.dot.argtypes = [dptr, dptr, ctypes.c_int64]
    c.dot.restype = ctypes.c_double
    return c, None


def c_ptr(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


# ------------------------------------------------------------------ fresh-process measurements
FIRST_CALL_SCRIPT = """
import os, sys, time
import numpy as np
sys.path.insert(0, {workdir!r})
{import_line}
import bench_kernels
f = {decorate}(bench_kernels.sum_array)
a = np.random.default_rng(0).random(10_000_000)
t0 = time.perf_counter_ns()
f(a)
first = time.perf_counter_ns() - t0
t0 = time.perf_counter_ns()
f(a)
second = time.perf_counter_ns() - t0
print(first, second)
"""


def fresh_env(cache_dir):
    env = dict(os.environ)
    # Empty on-disk caches, so a first call really compiles.
    env["XDG_CACHE_HOME"] = cache_dir
    env["NUMBA_CACHE_DIR"] = cache_dir
    env["MAHOU_CACHE_DIR"] = cache_dir
    return env


def first_call_ms(which, workdir, runs):
    import_line, decorate = {
        "mahou": ("import mahou", "mahou.njit"),
        "numba": ("import numba", "numba.njit"),
    }[which]
    script = FIRST_CALL_SCRIPT.format(workdir=str(workdir), import_line=import_line,
                                      decorate=decorate)
    best = None
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                 env=fresh_env(cache))
        if out.returncode != 0:
            raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
        first, second = (int(x) for x in out.stdout.split())
        ms = (first - second) / 1e6, first / 1e6
        best = ms if best is None or ms[1] < best[1] else best
    return best  # (compile estimate = first - second, whole first call)


def import_ms(module, runs):
    script = (f"import time; t0 = time.perf_counter_ns(); import {module}; "
              f"print(time.perf_counter_ns() - t0)")
    best = None
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                 env=fresh_env(cache))
        if out.returncode != 0:
            return None
        ms = int(out.stdout) / 1e6
        best = ms if best is None else min(best, ms)
    return best


# ------------------------------------------------------------------ machine description
def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def clang_version():
    try:
        out = subprocess.run([CLANG, "--version"], capture_output=True, text=True, check=True)
        return out.stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError):
        return "not found"


# ------------------------------------------------------------------ formatting
def fmt_ms(ns):
    return "n/a" if ns is None else f"{ns / 1e6:.3f}"


def fmt_ratio(x, y):
    return "n/a" if x is None or y is None or y == 0 else f"{x / y:.2f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_markdown(text):
    block = f"{BEGIN}\n{text.strip()}\n{END}"
    if BENCHMARKS_MD.exists():
        doc = BENCHMARKS_MD.read_text()
    else:
        doc = "# Benchmarks\n\n"
    if BEGIN in doc and END in doc:
        doc = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), lambda m: block, doc,
                     flags=re.S)
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    BENCHMARKS_MD.write_text(doc)


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke test)")
    ap.add_argument("--no-write", action="store_true", help="print, do not touch BENCHMARKS.md")
    opts = ap.parse_args()
    reps = 3 if opts.quick else 20
    fresh_runs = 1 if opts.quick else 3
    n = 10_000_000
    interp_scale = 100  # the interpreted loop runs on n / interp_scale elements

    workdir = Path(tempfile.mkdtemp(prefix="mahou-bench-"))
    try:
        kernels = load_kernels(workdir)
        mahou, mahou_err = try_import("mahou")
        numba, numba_err = try_import("numba")
        c, c_err = build_c(workdir)
        for name, err in (("mahou", mahou_err), ("numba", numba_err), ("C", c_err)):
            if err:
                print(f"bench: skipping {name}: {err}", file=sys.stderr)

        rng = np.random.default_rng(0)
        a = rng.random(n)
        b = rng.random(n)
        small_a, small_b = a[: n // interp_scale], b[: n // interp_scale]

        impls = {}
        if mahou:
            impls["mahou"] = {"sum": mahou.njit(kernels.sum_array), "dot": mahou.njit(kernels.dot)}
        if numba:
            impls["numba"] = {"sum": numba.njit(kernels.sum_array), "dot": numba.njit(kernels.dot)}

        results = {"kernels": {}}
        kernel_rows = []
        for kname, args, small, cfunc in (
            ("sum", (a,), (small_a,), (lambda x: c.sum_array(c_ptr(x), x.shape[0])) if c else None),
            ("dot", (a, b), (small_a, small_b),
             (lambda x, y: c.dot(c_ptr(x), c_ptr(y), x.shape[0])) if c else None),
        ):
            pyfunc = kernels.sum_array if kname == "sum" else kernels.dot
            expected = float(np.sum(a) if kname == "sum" else np.dot(a, b))
            t = {}
            for impl, fns in impls.items():
                try:
                    got = fns[kname](*args)
                except Exception as e:
                    print(f"bench: {impl} {kname} failed: {type(e).__name__}: {e}", file=sys.stderr)
                    t[impl] = None
                    continue
                if not np.isclose(got, expected, rtol=1e-9):
                    print(f"bench: {impl} {kname} = {got}, expected {expected}", file=sys.stderr)
                t[impl] = best_ns(fns[kname], args, reps)
            t["C"] = best_ns(cfunc, args, reps) if cfunc else None
            t["python"] = best_ns(pyfunc, small, max(1, reps // 10)) * interp_scale
            results["kernels"][kname] = t
            gbs = lambda ns: "n/a" if ns is None else f"{len(args) * 8 * n / ns:.1f}"
            kernel_rows.append([
                f"`{kname}` ({n // 1_000_000}M float64)",
                fmt_ms(t.get("mahou")), fmt_ms(t.get("numba")), fmt_ms(t["C"]),
                fmt_ms(t["python"]), gbs(t.get("mahou")),
                fmt_ratio(t.get("mahou"), t.get("numba")), fmt_ratio(t.get("mahou"), t["C"]),
                fmt_ratio(t["python"], t.get("mahou")),
            ])
            print(f"bench: {kname}: " + ", ".join(f"{k} {fmt_ms(v)} ms" for k, v in t.items()))

        # First call (compile + run) in fresh processes with empty caches.
        first = {}
        for impl, ok in (("mahou", mahou), ("numba", numba)):
            if not ok:
                continue
            try:
                first[impl] = first_call_ms(impl, workdir, fresh_runs)
            except RuntimeError as e:
                print(f"bench: first call of {impl} failed: {e}", file=sys.stderr)
        results["first_call_ms"] = first
        print(f"bench: first call: {first}")

        # Dispatch overhead of a tiny function called from Python.
        import operator

        calls = 20_000 if opts.quick else 200_000
        dispatch = {"operator.add": per_call_ns(operator.add, 1, 2, calls, reps // 2 + 1),
                    "python": per_call_ns(kernels.add, 1, 2, calls, reps // 2 + 1)}
        for impl, mod in (("mahou", mahou), ("numba", numba)):
            if mod:
                try:
                    dispatch[impl] = per_call_ns(mod.njit(kernels.add), 1, 2, calls, reps // 2 + 1)
                except Exception as e:
                    print(f"bench: {impl} add failed: {type(e).__name__}: {e}", file=sys.stderr)
        results["dispatch_ns"] = dispatch
        print(f"bench: dispatch ns/call: {dispatch}")

        imports = {m: import_ms(m, 5 if not opts.quick else 2) for m in ("numpy", "mahou", "numba")}
        results["import_ms"] = imports
        print(f"bench: import ms: {imports}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    # ---------------------------------------------------------------- markdown
    versions = [f"Python {platform.python_version()}", f"NumPy {np.__version__}"]
    versions.append(f"mahou {getattr(mahou, '__version__', '?')}" if mahou else "mahou: not available")
    versions.append(f"Numba {numba.__version__}" if numba else f"Numba: not available ({numba_err})")
    versions.append(clang_version())
    md = [
        f"Machine: {cpu_model()}, {os.cpu_count()} logical cores, {platform.system()} "
        f"{platform.release()}. Date: {datetime.date.today().isoformat()}.  ",
        "Versions: " + "; ".join(versions) + ".  ",
        f"Best of {reps} after a warm-up; CPython runs on 1/{interp_scale} of the data, "
        f"times scaled by {interp_scale}.",
        "",
        "### Kernels (time per call, ms; ratios are time/time, < 1 means mahou is faster)",
        "",
        table(["kernel", "mahou", "Numba", "C (clang -O3)", "CPython", "mahou GB/s",
               "mahou/Numba", "mahou/C", "CPython/mahou"], kernel_rows),
        "",
        "### First call of `sum_array` (fresh process, empty caches; ms)",
        "",
        table(["", "compile (first − second call)", "whole first call"],
              [[impl, f"{v[0]:.1f}", f"{v[1]:.1f}"] for impl, v in first.items()]
              or [["n/a", "n/a", "n/a"]]),
        "",
        f"mahou/Numba first call: "
        f"{fmt_ratio(first.get('mahou', (None, None))[1], first.get('numba', (None, None))[1])}",
        "",
        "### Dispatch: `f(a, b): return a + b` on ints, called from Python (ns per call)",
        "",
        table(["callee", "ns/call"], [[k, f"{v:.0f}"] for k, v in dispatch.items()]),
        "",
        f"mahou/Numba: {fmt_ratio(dispatch.get('mahou'), dispatch.get('numba'))}",
        "",
        "### Import time (fresh process, best of 5; ms, includes NumPy)",
        "",
        table(["module", "ms"], [[k, "n/a" if v is None else f"{v:.1f}"]
                                 for k, v in imports.items()]),
    ]
    text = "\n".join(md)
    print()
    print(text)
    out_dir = HERE / "results"
    out_dir.mkdir(exist_ok=True)
    (out_dir / "cpu.json").write_text(json.dumps(results, indent=2, default=str))
    if not opts.no_write:
        write_markdown(text)
        print(f"\nbench: tables written to {BENCHMARKS_MD}")


if __name__ == "__main__":
    main()
