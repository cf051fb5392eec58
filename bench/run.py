# Side-by-side CPU benchmarks (mahou, Numba, clang -O3 C) in one run: kernel times, fastmath,
# per-call dispatch, compile latency per stage, cached first call, import time. Rewrites the
# tables between the bench:cpu markers in BENCHMARKS.md. Usage: python bench/run.py [--quick]
import argparse
import ctypes
import datetime
import json
import operator
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# One thread for the BLAS Numba calls (np.dot, @): every figure here is single-threaded.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import best_ns  # noqa: E402

REPO = HERE.parent
BENCHMARKS_MD = REPO / "BENCHMARKS.md"
BEGIN, END = "<!-- BEGIN bench:cpu -->", "<!-- END bench:cpu -->"
CLANG = os.environ.get("CLANG", "clang-19")
STAGES = ("parse_ms", "sema_ms", "codegen_ms", "optimize_ms", "jit_ms", "init_ms", "cache_ms")


def load_kernels(workdir):
    """Copies the kernels and their data next to each other in a fresh directory (so that the
    on-disk caches start empty) and imports them."""
    shutil.copy(HERE / "kernels.py", Path(workdir) / "bench_kernels.py")
    shutil.copy(HERE / "data.py", Path(workdir) / "bench_data.py")
    sys.path.insert(0, str(workdir))
    import bench_data
    import bench_kernels

    return bench_kernels, bench_data


def try_import(name):
    try:
        module = __import__(name)
    except Exception as e:  # an ImportError, or numba refusing the installed numpy
        return None, f"{type(e).__name__}: {e}"
    if not hasattr(module, "njit"):
        return None, f"{name} has no njit (not built yet?)"
    return module, None


# ------------------------------------------------------------------ timing
def _loop2(fn, a, b, loop):
    t0 = time.perf_counter_ns()
    for _ in loop:
        fn(a, b)
    return time.perf_counter_ns() - t0


def _loop1(fn, a, loop):
    t0 = time.perf_counter_ns()
    for _ in loop:
        fn(a)
    return time.perf_counter_ns() - t0


def _loop0(loop):
    t0 = time.perf_counter_ns()
    for _ in loop:
        pass
    return time.perf_counter_ns() - t0


def per_call_ns(fns, args, calls, reps):
    """ns per call of each function (the empty loop's cost subtracted): best of `reps`
    rounds, the functions interleaved within each round so that they see the same load."""
    loop = range(calls)
    best = {name: None for name in fns}
    empty = None
    for _ in range(reps):
        e = _loop0(loop)
        empty = e if empty is None else min(empty, e)
        for name, fn in fns.items():
            fn(*args)
            dt = _loop2(fn, *args, loop) if len(args) == 2 else _loop1(fn, *args, loop)
            best[name] = dt if best[name] is None else min(best[name], dt)
    return {name: (dt - empty) / calls for name, dt in best.items()}


# ------------------------------------------------------------------ C reference kernels
def build_c(workdir, fast=False):
    sources = sorted(str(p) for p in (HERE / "c").glob("*.c"))
    lib = Path(workdir) / ("libbench_c_fast.so" if fast else "libbench_c.so")
    cmd = [CLANG, "-O3", "-march=native", *(["-ffast-math"] if fast else []), "-shared", "-fPIC",
           "-o", str(lib), *sources, "-lm"]
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return None, f"{' '.join(cmd)} failed: {getattr(e, 'stderr', '') or e}"
    c = ctypes.CDLL(str(lib))
    P = ctypes.c_void_p
    I, D = ctypes.c_int64, ctypes.c_double
    sigs = {
        "sum_array": ([P, I], D), "dot": ([P, P, I], D),
        "mandelbrot": ([P, I, I, D, D, D, D, I], I), "nbody": ([P, P, P, I, I, D], D),
        "matmul": ([P, P, P, I, I, I], D), "sieve": ([P, I], I), "jacobi": ([P, P, I, I, I], D),
        "black_scholes": ([P, P, P, D, D, P, P, I], D),
    }
    for name, (argtypes, restype) in sigs.items():
        getattr(c, name).argtypes = argtypes
        getattr(c, name).restype = restype
    return c, None


def c_callable(c, name):
    """A Python callable with the kernel's signature that calls the C version."""
    p = lambda a: a.ctypes.data
    return {
        "sum_array": lambda a: c.sum_array(p(a), a.shape[0]),
        "dot": lambda a, b: c.dot(p(a), p(b), a.shape[0]),
        "mandelbrot": lambda out, x0, x1, y0, y1, it: c.mandelbrot(p(out), *out.shape, x0, x1, y0, y1, it),
        "nbody": lambda pos, vel, m, steps, dt: c.nbody(p(pos), p(vel), p(m), pos.shape[0], steps, dt),
        "matmul": lambda a, b, out: c.matmul(p(a), p(b), p(out), a.shape[0], a.shape[1], b.shape[1]),
        "sieve": lambda f: c.sieve(p(f), f.shape[0]),
        "jacobi": lambda a, b, it: c.jacobi(p(a), p(b), a.shape[0], a.shape[1], it),
        "black_scholes": lambda s, k, t, r, v, call, put: c.black_scholes(
            p(s), p(k), p(t), r, v, p(call), p(put), s.shape[0]),
    }[name]


# ------------------------------------------------------------------ fresh-process measurements
FIRST_CALL_SCRIPT = """
import json, os, sys, time
sys.path.insert(0, {workdir!r})
t0 = time.perf_counter_ns()
import {module}
t_import = time.perf_counter_ns() - t0
import bench_kernels, bench_data
args = bench_data.make_args({kernel!r}, "small")
f = {module}.njit(cache={cache})(bench_kernels.{kernel})
t0 = time.perf_counter_ns()
f(*args)
first = time.perf_counter_ns() - t0
t0 = time.perf_counter_ns()
f(*args)
second = time.perf_counter_ns() - t0
stats = list(f.stats.values())[0] if {module!r} == "mahou" else None
print(json.dumps({{"first": first, "second": second, "import": t_import, "stats": stats}}))
"""


def fresh_env(cache_dir):
    env = dict(os.environ)
    # Private on-disk caches, so a first call really compiles (or loads what we stored).
    env["XDG_CACHE_HOME"] = cache_dir
    env["NUMBA_CACHE_DIR"] = cache_dir
    env["MAHOU_CACHE_DIR"] = cache_dir
    return env


def run_fresh(module, kernel, workdir, cache_dir, cache=False):
    script = FIRST_CALL_SCRIPT.format(workdir=str(workdir), module=module, kernel=kernel, cache=cache)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=fresh_env(cache_dir))
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_call(module, kernel, workdir, runs):
    """Best (smallest first call) of `runs` fresh processes with empty caches."""
    best = None
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            r = run_fresh(module, kernel, workdir, cache)
        best = r if best is None or r["first"] < best["first"] else best
    return best


def cached_first_call(module, kernel, workdir, runs):
    """First call in a process that finds the on-disk cache filled by an earlier process."""
    best = None
    with tempfile.TemporaryDirectory() as cache:
        # Numba caches beside the source (or NUMBA_CACHE_DIR), mahou in MAHOU_CACHE_DIR.
        run_fresh(module, kernel, workdir, cache, cache=True)
        for _ in range(runs):
            r = run_fresh(module, kernel, workdir, cache, cache=True)
            best = r if best is None or r["first"] < best["first"] else best
    return best


IMPORT_SCRIPTS = {
    "numpy": "import numpy",
    "mahou": "import mahou",
    "mahou + numpy": "import mahou, numpy",
    "numba": "import numba",
}


def import_ms(what, runs):
    script = (f"import sys, time; t0 = time.perf_counter_ns(); {IMPORT_SCRIPTS[what]}; "
              f"print(time.perf_counter_ns() - t0, 'numpy' in sys.modules)")
    best, numpy_loaded = None, None
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                 env=fresh_env(cache))
        if out.returncode != 0:
            return None, None
        ns, loaded = out.stdout.split()
        best = int(ns) / 1e6 if best is None else min(best, int(ns) / 1e6)
        numpy_loaded = loaded == "True"
    return best, numpy_loaded


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
def fmt_ms(ns, digits=3):
    return "n/a" if ns is None else f"{ns / 1e6:.{digits}f}"


def fmt_ratio(x, y):
    return "n/a" if x is None or y is None or y == 0 else f"{x / y:.2f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_markdown(text):
    block = f"{BEGIN}\n{text.strip()}\n{END}"
    doc = BENCHMARKS_MD.read_text() if BENCHMARKS_MD.exists() else "# Benchmarks\n\n"
    if BEGIN in doc and END in doc:
        doc = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), lambda m: block, doc, flags=re.S)
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    BENCHMARKS_MD.write_text(doc)


def log(msg):
    print(f"bench: {msg}", flush=True)


def close(x, y):
    return np.allclose(np.asarray(x, dtype=float), np.asarray(y, dtype=float), rtol=1e-6, atol=1e-9)


# ------------------------------------------------------------------ sections
def bench_kernels(kernels, data, impls, c, reps):
    times, rows = {}, []
    for name in data.KERNELS:
        args = data.make_args(name)
        t, results = {}, {}
        fns = {impl: fns[name] for impl, fns in impls.items()}
        if c:
            fns["C"] = c_callable(c, name)
        own = {}
        for impl, fn in fns.items():
            own[impl] = data.fresh_copy(args)
            try:
                results[impl] = fn(*own[impl])
            except Exception as e:
                log(f"{impl} {name} failed: {type(e).__name__}: {e}")
        # Best of `reps` rounds, the implementations interleaved within each round so that
        # a change of the machine's load (2 shared cores) hits them alike.
        round_ratios = []  # mahou/Numba within each round: robust to load that lasts a round
        for _ in range(reps):
            this = {}
            for impl in results:
                this[impl] = dt = best_ns(fns[impl], own[impl], 1, warmup=0)
                t[impl] = dt if impl not in t else min(t[impl], dt)
            if "mahou" in this and "numba" in this:
                round_ratios.append(this["mahou"] / this["numba"])
        ref = results.get("numba", results.get("C"))
        for impl, got in results.items():
            if ref is not None and not close(got, ref):
                log(f"{name}: {impl} returned {got}, reference {ref}")
        times[name] = t
        median = f"{statistics.median(round_ratios):.2f}" if round_ratios else "n/a"
        rows.append([f"`{name}`", fmt_ms(t.get("mahou")), fmt_ms(t.get("numba")), fmt_ms(t.get("C")),
                     fmt_ratio(t.get("mahou"), t.get("numba")), median, fmt_ratio(t.get("mahou"), t.get("C"))])
        log(f"{name}: " + ", ".join(f"{k} {fmt_ms(v)} ms" for k, v in t.items()))
    return times, rows


def bench_fastmath(kernels, data, mahou, numba, cfast, reps):
    times, rows = {}, []
    for name in ("sum_array", "dot"):
        args = data.make_args(name)
        fns = {}
        if mahou:
            fns["mahou"] = mahou.njit(getattr(kernels, name))
            fns["mahou fastmath"] = mahou.njit(fastmath=True)(getattr(kernels, name))
        if numba:
            fns["numba fastmath"] = numba.njit(fastmath=True)(getattr(kernels, name))
        if cfast:
            fns["C -ffast-math"] = c_callable(cfast, name)
        t = {impl: best_ns(fn, args, reps, warmup=1) for impl, fn in fns.items()}
        times[name] = t
        rows.append([f"`{name}`", fmt_ms(t.get("mahou")), fmt_ms(t.get("mahou fastmath")),
                     fmt_ratio(t.get("mahou"), t.get("mahou fastmath")),
                     fmt_ms(t.get("numba fastmath")), fmt_ms(t.get("C -ffast-math"))])
        log(f"fastmath {name}: " + ", ".join(f"{k} {fmt_ms(v)} ms" for k, v in t.items()))
    return times, rows


def bench_numpy_ops(mahou, numba, reps):
    """NumPy operations in compiled code (bench/numpy_ops.py): ms per call, interleaved."""
    sys.path.insert(0, str(HERE))
    import numpy_ops

    times, rows = {}, []
    for name, args in numpy_ops.make_args().items():
        fns = {impl: mod.njit(getattr(numpy_ops, name)) for impl, mod in (("mahou", mahou), ("numba", numba)) if mod}
        t = {}
        for _ in range(reps):
            for impl, fn in fns.items():
                dt = best_ns(fn, args, 1, warmup=1 if impl not in t else 0)
                t[impl] = dt if impl not in t else min(t[impl], dt)
        times[name] = t
        rows.append([f"`{name}`", fmt_ms(t.get("mahou"), 4), fmt_ms(t.get("numba"), 4),
                     fmt_ratio(t.get("mahou"), t.get("numba"))])
        log(f"numpy op {name}: " + ", ".join(f"{k} {fmt_ms(v)} ms" for k, v in t.items()))
    return times, rows


def bench_dispatch(kernels, mahou, numba, calls, reps):
    a = np.arange(10.0)
    cases = {"2 ints: f(1, 2)": ((1, 2), "add", {"operator.add": operator.add}),
             "1 array: f(a)": ((a,), "length", {"len": len})}
    out = {}
    for label, (args, kname, builtins) in cases.items():
        fns = dict(builtins)
        fns["python"] = getattr(kernels, kname)
        for impl, mod in (("mahou", mahou), ("numba", numba)):
            if mod:
                fns[impl] = mod.njit(getattr(kernels, kname))
        out[label] = per_call_ns(fns, args, calls, reps)
        log(f"dispatch {label}: " + ", ".join(f"{k} {v:.0f} ns" for k, v in out[label].items()))
    return out


CALLGRIND_SCRIPT = """
import operator, sys
sys.path.insert(0, {workdir!r})
import numpy as np
import bench_kernels as k
which, n = sys.argv[1], int(sys.argv[2])
a = np.arange(10.0)
if which.startswith("mahou"):
    import mahou
fns = {{"operator.add": (operator.add, (1, 2)), "len": (len, (a,)),
        "mahou f(1, 2)": (lambda: mahou.njit(k.add), (1, 2)),
        "mahou f(a)": (lambda: mahou.njit(k.length), (a,)), "empty": (None, ())}}
fn, args = fns[which]
if which.startswith("mahou"):
    fn = fn()
    fn(*args)
def loop2(f, x, y, r):
    for _ in r: f(x, y)
def loop1(f, x, r):
    for _ in r: f(x)
def loop0(r):
    for _ in r: pass
r = range(n)
(loop0(r) if fn is None else loop2(fn, *args, r) if len(args) == 2 else loop1(fn, *args, r))
"""


def callgrind_instructions(workdir, which, calls):
    """Instructions executed by `calls` iterations of the call loop (valgrind's callgrind,
    whole process, the same run with 0 iterations subtracted) / calls, or None."""
    script = Path(workdir) / "callgrind_dispatch.py"
    script.write_text(CALLGRIND_SCRIPT.format(workdir=str(workdir)))
    totals = []
    for n in (0, calls):
        out = Path(workdir) / f"callgrind.{n}.out"
        try:
            r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                                sys.executable, str(script), which, str(n)],
                               capture_output=True, text=True, timeout=600,
                               env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
        except (OSError, subprocess.TimeoutExpired):
            return None
        m = re.search(r"Collected : (\d+)", r.stderr)
        if r.returncode != 0 or not m:
            return None
        totals.append(int(m.group(1)))
    return (totals[1] - totals[0]) / calls


def bench_dispatch_instructions(workdir, calls=200_000):
    """Instructions per call (the loop's own subtracted): deterministic, unlike times."""
    if not shutil.which("valgrind"):
        return {}
    per = {w: callgrind_instructions(workdir, w, calls)
           for w in ("empty", "operator.add", "mahou f(1, 2)", "len", "mahou f(a)")}
    if per["empty"] is None:
        return {}
    out = {w: v - per["empty"] for w, v in per.items() if w != "empty" and v is not None}
    log("dispatch instructions per call: " + ", ".join(f"{k} {v:.0f}" for k, v in out.items()))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke test)")
    ap.add_argument("--no-write", action="store_true", help="print, do not touch BENCHMARKS.md")
    opts = ap.parse_args()
    reps = 3 if opts.quick else 20
    fresh_runs = 1 if opts.quick else 3
    calls = 20_000 if opts.quick else 100_000

    workdir = Path(tempfile.mkdtemp(prefix="mahou-bench-"))
    results = {}
    try:
        kernels, data = load_kernels(workdir)
        mahou, mahou_err = try_import("mahou")
        numba, numba_err = try_import("numba")
        c, c_err = build_c(workdir)
        cfast, _ = build_c(workdir, fast=True)
        for name, err in (("mahou", mahou_err), ("numba", numba_err), ("C", c_err)):
            if err:
                log(f"skipping {name}: {err}")
        impls = {}
        for impl, mod in (("mahou", mahou), ("numba", numba)):
            if mod:
                impls[impl] = {k: mod.njit(getattr(kernels, k)) for k in data.KERNELS}

        results["kernels_ns"], kernel_rows = bench_kernels(kernels, data, impls, c, reps)
        results["fastmath_ns"], fast_rows = bench_fastmath(kernels, data, mahou, numba, cfast, reps)
        results["numpy_ops_ns"], ops_rows = bench_numpy_ops(mahou, numba, reps)
        results["dispatch_ns"] = dispatch = bench_dispatch(kernels, mahou, numba, calls,
                                                           3 if opts.quick else 15)
        results["dispatch_instructions"] = instructions = (
            bench_dispatch_instructions(workdir) if mahou else {})

        # Compile latency: first call of each kernel in a fresh process with empty caches.
        first = {}
        for impl, mod in (("mahou", mahou), ("numba", numba)):
            if not mod:
                continue
            first[impl] = {}
            for name in data.KERNELS:
                try:
                    first[impl][name] = first_call(impl, name, workdir, fresh_runs)
                except RuntimeError as e:
                    log(f"first call of {impl} {name} failed: {e}")
            log(f"first call {impl}: " + ", ".join(
                f"{k} {v['first'] / 1e6:.0f} ms" for k, v in first[impl].items()))
        results["first_call"] = first

        cached = {}
        for impl, mod in (("mahou", mahou), ("numba", numba)):
            if mod:
                try:
                    cached[impl] = cached_first_call(impl, "sum_array", workdir, fresh_runs)
                except RuntimeError as e:
                    log(f"cached first call of {impl} failed: {e}")
        results["cached_first_call"] = cached
        log("cached first call: " + ", ".join(f"{k} {v['first'] / 1e6:.1f} ms" for k, v in cached.items()))

        imports = {what: import_ms(what, 2 if opts.quick else 5) for what in IMPORT_SCRIPTS}
        results["import_ms"] = imports
        log("import ms: " + ", ".join(f"{k} {v[0]}" for k, v in imports.items()))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    # ---------------------------------------------------------------- markdown
    versions = [f"Python {platform.python_version()}", f"NumPy {np.__version__}"]
    versions.append(f"mahou {getattr(mahou, '__version__', '?')}" if mahou else "mahou: not available")
    versions.append(f"Numba {numba.__version__}" if numba else f"Numba: not available ({numba_err})")
    versions.append(clang_version())
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    md = [
        f"Machine: {cpu_model()}, {os.cpu_count()} logical cores, {platform.system()} "
        f"{platform.release()}, load average {load:.1f} when the run started. "
        f"Date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}.  ",
        "Versions: " + "; ".join(versions) + ".  ",
        f"Kernels: best of {reps} calls after a warm-up call, the implementations interleaved call by call; first calls: best of {fresh_runs} "
        f"fresh processes. Single-threaded (OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')} for the BLAS Numba calls).",
        "",
        "### Kernels (steady state, ms per call; ratios are time/time, < 1 means mahou is faster)",
        "",
        table(["kernel", "mahou", "Numba", "C (clang -O3 -march=native)", "mahou/Numba (best)",
               "mahou/Numba (median of rounds)", "mahou/C"], kernel_rows),
        "",
        "### fastmath=True (ms per call)",
        "",
        table(["kernel", "mahou", "mahou fastmath", "gain (x)", "Numba fastmath", "C -ffast-math"],
              fast_rows),
        "",
        "### NumPy operations in compiled code (ms per call; `bench/numpy_ops.py`)",
        "",
        table(["operation", "mahou", "Numba", "mahou/Numba"], ops_rows),
        "",
        "### Dispatch (ns per call from a Python loop, the loop's own cost subtracted)",
        "",
    ]
    disp_rows = []
    op_add = next((d["operator.add"] for d in dispatch.values() if "operator.add" in d), None)
    for label, d in dispatch.items():
        builtin = "operator.add" if "ints" in label else "len"
        disp_rows.append([label, f"{d.get('mahou', float('nan')):.0f}", f"{d.get('numba', float('nan')):.0f}",
                          f"{d[builtin]:.0f} ({builtin})", f"{d['python']:.0f}",
                          fmt_ratio(d.get("mahou"), d.get("numba")), fmt_ratio(d.get("mahou"), d[builtin]),
                          fmt_ratio(d.get("mahou"), op_add)])
    md += [table(["call", "mahou", "Numba", "C builtin", "Python function", "mahou/Numba",
                  "mahou/builtin", "mahou/operator.add(1, 2)"], disp_rows), ""]
    if instructions:
        ins = lambda k: f"{instructions[k]:.0f}" if k in instructions else "n/a"
        ratio = lambda a, b: (f"{instructions[a] / instructions[b]:.2f}"
                              if a in instructions and b in instructions else "n/a")
        md += ["Instructions per call (valgrind's callgrind, the loop's own subtracted; exact "
               "counts, unaffected by the machine's load, though not a measure of time):", "",
               table(["call", "mahou", "C builtin", "mahou/builtin"],
                     [["2 ints: f(1, 2)", ins("mahou f(1, 2)"), f"{ins('operator.add')} (operator.add)",
                       ratio("mahou f(1, 2)", "operator.add")],
                      ["1 array: f(a)", ins("mahou f(a)"), f"{ins('len')} (len)",
                       ratio("mahou f(a)", "len")]]), ""]
    md += ["### Compile latency: first call in a fresh process, empty caches (ms)", ""]
    fm, fn = first.get("mahou", {}), first.get("numba", {})
    rows, ratios = [], []
    for name in data.KERNELS:
        m, n = fm.get(name), fn.get(name)
        ratio = fmt_ratio(m and m["first"], n and n["first"])
        if m and n:
            ratios.append(m["first"] / n["first"])
        st = (m or {}).get("stats") or {}
        rows.append([f"`{name}`", fmt_ms(m and m["first"], 1), fmt_ms(n and n["first"], 1), ratio]
                    + [f"{st.get(s, 0):.1f}" for s in STAGES[:-1]])
    md += [table(["kernel", "mahou", "Numba", "mahou/Numba", "parse", "sema", "LLVM IR", "optimize",
                  "codegen + link", "JIT init"], rows), ""]
    if ratios:
        md += [f"Median mahou/Numba over the kernels: {statistics.median(ratios):.3f}. The stage "
               f"columns are mahou's own timers (Dispatcher.stats) in that process: parse = "
               f"source → AST, sema = name resolution + type inference + IR verifier, LLVM IR = "
               f"lowering, optimize = the LLVM pass pipeline (O3 for functions with loops, O1 "
               f"without), codegen + link = instruction selection to an object file and linking "
               f"it (ORC JITLink), JIT init = creating LLVM's target and the LLJIT (once per "
               f"process).", ""]
    md += ["### Cached first call of `sum_array` (cache=True, a second fresh process; ms)", ""]
    crow = []
    for impl in ("mahou", "numba"):
        if impl in cached:
            r = cached[impl]
            unc = first.get(impl, {}).get("sum_array")
            crow.append([impl, f"{r['first'] / 1e6:.2f}", fmt_ms(unc and unc["first"], 1),
                         f"{r['import'] / 1e6:.0f}"])
    md += [table(["", "cached first call", "uncached first call", "import (same process)"], crow), ""]
    if "mahou" in cached and "numba" in cached:
        md += [f"mahou/Numba cached first call: "
               f"{fmt_ratio(cached['mahou']['first'], cached['numba']['first'])}", ""]
    md += ["### Import time (fresh process, best of 5; ms)", ""]
    md += [table(["statement", "ms", "NumPy imported"],
                 [[f"`{IMPORT_SCRIPTS[k]}`", "n/a" if v[0] is None else f"{v[0]:.1f}",
                   "n/a" if v[1] is None else ("yes" if v[1] else "no")] for k, v in imports.items()]), ""]
    if imports.get("mahou", (None,))[0] and imports.get("numba", (None,))[0]:
        md += [f"mahou/Numba: {imports['mahou'][0] / imports['numba'][0]:.2f} (`import mahou` alone; "
               f"NumPy is imported by the first `@njit`), "
               f"{imports['mahou + numpy'][0] / imports['numba'][0]:.2f} with NumPy."]
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
