# Ufunc factories side by side in one run: @vectorize (a polynomial and math.erf over 10^7
# float64) against Numba's @vectorize, NumPy's own ufunc expression and a clang -O3 C loop;
# target='parallel' against 'cpu' and Numba's parallel target; @guvectorize moving average
# over 10^4 x 10^3; @cfunc with scipy.integrate.quad (ns per integrand call) against a
# Python callback and Numba's cfunc; with --cuda, @cuda.reduce against CuPy's sum and
# target='cuda' @vectorize against numba-cuda. Engines are interleaved round by round and
# each ratio is the median over rounds of (time / time) measured in the same round.
# Usage: python bench/ufuncs.py [--quick] [--cuda] [--section NAME] [--no-write]
import argparse
import ctypes
import datetime
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
BENCHMARKS_MD = HERE.parent / "BENCHMARKS.md"
CLANG = os.environ.get("CLANG", "clang-19")


def poly(x):
    return ((0.5 * x - 1.2) * x + 3.3) * x - 0.7


def erf(x):
    return math.erf(x)


def moving_average(a, window, out):
    acc = 0.0
    for i in range(a.shape[0]):
        acc += a[i]
        if i >= window:
            acc -= a[i - window]
        out[i] = acc / min(i + 1, window)


def integrand(x):
    return math.sin(30.0 * x) * math.exp(-x)


def sum_binop(a, b):
    return a + b


# ------------------------------------------------------------------ timing
def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def compare(rows, rounds, inner):
    """rows: {name: callable}. Returns {name: (median seconds, median over rounds of its
    time / the first row's time)}; a bandwidth ratio first/other is that same number."""
    for fn in rows.values():
        fn()  # compile, warm caches
    times = {k: [] for k in rows}
    ratios = {k: [] for k in rows}
    base = next(iter(rows))
    for _ in range(rounds):
        this = {}
        for name, fn in rows.items():
            this[name] = min(timed(fn) for _ in range(inner))
            times[name].append(this[name])
        for name in rows:
            ratios[name].append(this[name] / this[base])
    return {k: (statistics.median(times[k]), statistics.median(ratios[k])) for k in rows}


def build_c(workdir):
    lib = Path(workdir) / "libufuncs_c.so"
    cmd = [CLANG, "-O3", "-march=native", "-shared", "-fPIC", "-o", str(lib), str(HERE / "c" / "ufuncs.c"), "-lm"]
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    c = ctypes.CDLL(str(lib))
    P, I = ctypes.c_void_p, ctypes.c_int64
    c.poly_loop.argtypes = c.erf_loop.argtypes = [P, P, I]
    c.moving_average.argtypes = [P, P, I, I, I]
    return c


def try_numba():
    try:
        import numba
        return numba
    except Exception as e:  # numba refusing the installed numpy, or absent
        print(f"numba unavailable: {e}")
        return None


# ------------------------------------------------------------------ CPU sections
def cpu_tables(mahou, numba, c, quick):
    rounds, inner = (3, 2) if quick else (7, 3)
    n = 10**6 if quick else 10**7
    x = np.random.default_rng(0).uniform(-3, 3, n)
    out = np.empty_like(x)
    lines = []

    lines += [f"#### @vectorize over {n:,} float64 (ms per call; ratio to mahou)", "",
              "| function | mahou | Numba | NumPy expression | C -O3 | mahou / Numba | mahou / NumPy | mahou / C |",
              "|---|---|---|---|---|---|---|---|"]
    try:
        from scipy import special
    except ImportError:
        special = None
    for name, fn, npexpr, cfn in (
            ("polynomial", poly, lambda: ((0.5 * x - 1.2) * x + 3.3) * x - 0.7, "poly_loop"),
            ("math.erf", erf, (lambda: special.erf(x, out=out)) if special else None, "erf_loop")):
        rows = {"mahou": (lambda u=mahou.vectorize(["float64(float64)"])(fn): u(x, out=out))}
        if numba:
            rows["numba"] = lambda u=numba.vectorize(["float64(float64)"])(fn): u(x, out=out)
        if npexpr:
            rows["numpy"] = npexpr
        if c:
            rows["c"] = lambda f=getattr(c, cfn): f(x.ctypes.data, out.ctypes.data, n)
        r = compare(rows, rounds, inner)
        cell = lambda k: f"{r[k][0] * 1e3:.2f}" if k in r else "–"
        ratio = lambda k: f"{1 / r[k][1]:.2f}x" if k in r else "–"
        lines.append(f"| {name} | {cell('mahou')} | {cell('numba')} | {cell('numpy')} | {cell('c')} | "
                     f"{ratio('numba')} | {ratio('numpy')} | {ratio('c')} |")
    lines.append("")

    threads = mahou.get_num_threads()
    lines += [f"#### target='parallel' ({threads} threads; ms per call)", "",
              "| function | mahou cpu | mahou parallel | Numba parallel | mahou parallel speedup over cpu | mahou parallel / Numba parallel |",
              "|---|---|---|---|---|---|"]
    for name, fn in (("polynomial", poly), ("math.erf", erf)):
        rows = {"par": (lambda u=mahou.vectorize(["float64(float64)"], target="parallel")(fn): u(x, out=out)),
                "cpu": (lambda u=mahou.vectorize(["float64(float64)"])(fn): u(x, out=out))}
        if numba:
            rows["numba"] = lambda u=numba.vectorize(["float64(float64)"], target="parallel")(fn): u(x, out=out)
        r = compare(rows, rounds, inner)
        nb = f"{r['numba'][0] * 1e3:.2f}" if "numba" in r else "–"
        nbr = f"{1 / r['numba'][1]:.2f}x" if "numba" in r else "–"
        lines.append(f"| {name} | {r['cpu'][0] * 1e3:.2f} | {r['par'][0] * 1e3:.2f} | {nb} | "
                     f"{r['cpu'][1]:.2f}x | {nbr} |")
    lines.append("")

    rows_n, cols = (10**3, 10**3) if quick else (10**4, 10**3)
    a = np.random.default_rng(1).standard_normal((rows_n, cols))
    res = np.empty_like(a)
    sig = ["void(float64[:], int64, float64[:])"]
    lines += [f"#### @guvectorize moving average (window 10) over {rows_n:,} x {cols:,} float64 (ms per call)", "",
              "| mahou | mahou parallel | Numba | NumPy (cumsum) | C -O3 | mahou / Numba | mahou / NumPy | mahou / C |",
              "|---|---|---|---|---|---|---|---|"]

    def numpy_mavg():
        cs = np.cumsum(a, axis=1)
        cs[:, 10:] = cs[:, 10:] - cs[:, :-10]
        return cs / np.minimum(np.arange(1, cols + 1), 10)

    rows = {"mahou": (lambda g=mahou.guvectorize(sig, "(n),()->(n)")(moving_average): g(a, 10, res)),
            "par": (lambda g=mahou.guvectorize(sig, "(n),()->(n)", target="parallel")(moving_average): g(a, 10, res))}
    if numba:
        rows["numba"] = lambda g=numba.guvectorize(sig, "(n),()->(n)")(moving_average): g(a, 10, res)
    rows["numpy"] = numpy_mavg
    if c:
        rows["c"] = lambda: c.moving_average(a.ctypes.data, res.ctypes.data, rows_n, cols, 10)
    r = compare(rows, rounds, inner)
    cell = lambda k: f"{r[k][0] * 1e3:.2f}" if k in r else "–"
    ratio = lambda k: f"{1 / r[k][1]:.2f}x" if k in r else "–"
    lines.append(f"| {cell('mahou')} | {cell('par')} | {cell('numba')} | {cell('numpy')} | {cell('c')} | "
                 f"{ratio('numba')} | {ratio('numpy')} | {ratio('c')} |")
    lines.append("")

    try:
        from scipy import LowLevelCallable, integrate
    except ImportError:
        return lines
    lines += ["#### @cfunc with scipy.integrate.quad (sin(30x)·exp(-x) on [0, 10], limit=500; ns per integrand call)", "",
              "| Python callback | mahou cfunc | Numba cfunc | mahou / Python | mahou / Numba |", "|---|---|---|---|---|"]
    mf = mahou.cfunc("float64(float64)")(integrand)
    callables = {"mahou": LowLevelCallable(mf.ctypes), "python": integrand}
    if numba:
        callables["numba"] = LowLevelCallable(numba.cfunc("float64(float64)")(integrand).ctypes)
    neval = integrate.quad(integrand, 0, 10, limit=500, full_output=1)[2]["neval"]
    rows = {k: (lambda f=f: integrate.quad(f, 0, 10, limit=500)) for k, f in callables.items()}
    r = compare(rows, rounds, inner)
    per = lambda k: f"{r[k][0] / neval * 1e9:.1f}" if k in r else "–"
    vs = lambda k: f"{r['mahou'][0] / r[k][0]:.2f}x" if k in r else "–"
    lines.append(f"| {per('python')} | {per('mahou')} | {per('numba')} | {vs('python')} | {vs('numba')} |")
    lines.append(f"\n({neval} integrand calls per quad.)")
    lines.append("")
    return lines


# ------------------------------------------------------------------ CUDA section
def cuda_tables(mahou, quick):
    from mahou import cuda
    lines = []
    n = 2**24 if quick else 2**27
    host = np.random.default_rng(2).standard_normal(n)
    d = cuda.to_device(host)
    red = cuda.reduce(sum_binop)
    red(d)
    rows = {"mahou": lambda: red(d)}
    try:
        import cupy
        cx = cupy.asarray(host)
        rows["cupy"] = lambda: float(cx.sum())
    except Exception as e:
        print(f"cupy unavailable: {e}")
    try:
        np.row_stack = np.vstack  # numba-cuda 0.30 against NumPy 2.5
        from numba import cuda as ncuda
        nred = ncuda.reduce(sum_binop)
        nd = ncuda.to_device(host)
        rows["numba"] = lambda: nred(nd)
    except Exception as e:
        print(f"numba-cuda unavailable: {e}")
    r = compare(rows, 5 if quick else 9, 3)
    gbs = lambda k: f"{n * 8 / r[k][0] / 1e9:.0f}" if k in r else "–"
    lines += [f"#### @cuda.reduce sum of {n:,} float64 on the device (GB/s; a value returned to the host)", "",
              "| mahou | CuPy x.sum() | numba-cuda reduce | mahou / CuPy bandwidth | mahou / numba-cuda bandwidth |",
              "|---|---|---|---|---|",
              f"| {gbs('mahou')} | {gbs('cupy')} | {gbs('numba')} | "
              f"{r['cupy'][1] if 'cupy' in r else float('nan'):.2f}x | "
              f"{r['numba'][1] if 'numba' in r else float('nan'):.2f}x |", ""]
    # @vectorize(target='cuda') on device arrays
    m = 2**24 if quick else 2**26
    x = cuda.to_device(np.random.default_rng(3).uniform(-3, 3, m))
    outd = cuda.device_array(m)
    mv = mahou.vectorize(["float64(float64)"], target="cuda")(poly)
    rows = {"mahou": lambda: (mv(x, out=outd), cuda.synchronize())}
    try:
        from numba import vectorize as nvec
        nv = nvec(["float64(float64)"], target="cuda")(poly)
        nx = ncuda.to_device(x.copy_to_host())
        nout = ncuda.device_array(m)
        rows["numba"] = lambda: (nv(nx, out=nout), ncuda.synchronize())
    except Exception as e:
        print(f"numba-cuda vectorize unavailable: {e}")
    r = compare(rows, 5 if quick else 9, 3)
    gb = lambda k: f"{2 * m * 8 / r[k][0] / 1e9:.0f}" if k in r else "–"
    lines += [f"#### @vectorize(target='cuda') polynomial over {m:,} float64 device arrays (GB/s, in + out)", "",
              "| mahou | numba-cuda | mahou / numba-cuda bandwidth |", "|---|---|---|",
              f"| {gb('mahou')} | {gb('numba')} | {r['numba'][1] if 'numba' in r else float('nan'):.2f}x |", ""]
    return lines


def write_section(name, lines):
    begin, end = f"<!-- BEGIN bench:{name} -->", f"<!-- END bench:{name} -->"
    text = BENCHMARKS_MD.read_text()
    block = begin + "\n" + "\n".join(lines) + "\n" + end
    if begin in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    BENCHMARKS_MD.write_text(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cuda", action="store_true")
    ap.add_argument("--no-cpu", action="store_true")
    ap.add_argument("--section", default="ufuncs")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    import mahou
    numba = try_numba()
    header = [f"Measured {datetime.date.today()} on {platform.node() or 'this machine'} "
              f"({os.cpu_count()} CPUs; {platform.processor() or platform.machine()}), "
              f"NumPy {np.__version__}, Numba {getattr(numba, '__version__', '–')}; "
              "`python bench/ufuncs.py`" + (" --cuda" if args.cuda else "") + ".", ""]
    lines = list(header)
    if not args.no_cpu:
        with tempfile.TemporaryDirectory() as tmp:
            c = build_c(tmp)
            lines += cpu_tables(mahou, numba, c, args.quick)
    if args.cuda:
        lines += cuda_tables(mahou, args.quick)
    print("\n".join(lines))
    if not args.no_write:
        write_section(args.section, lines)


if __name__ == "__main__":
    main()
