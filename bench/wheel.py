#!/usr/bin/env python3
"""The installed wheel side by side with Numba's: wheel sizes, installed sizes, `import`
time (alone and with NumPy) and the first compile and call of a small function in a fresh
process, each the best of N interleaved rounds.

    python bench/wheel.py --mahou-python VENV/bin/python --numba-python OTHER/bin/python \\
        [--wheels dist/mahou-...whl numba-...whl llvmlite-...whl] [--rounds 7]

Either Python may be left out; each must have its package installed (mahou from the wheel,
numba with llvmlite)."""

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

FIRST = """
import time, numpy as np
t0 = time.perf_counter()
import {m}
t1 = time.perf_counter()
@{m}.njit
def f(a):
    s = 0.0
    for x in a:
        s += x * x
    return s
f(np.arange(10.0))
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""

SITE = "import {m}, os; print(os.path.dirname(os.path.dirname({m}.__file__)))"


def elapsed(python, code):
    t = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - t


def du_mb(paths):
    total = 0
    for p in paths:
        for root, _, files in os.walk(p):
            total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total / 2**20


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mahou-python")
    ap.add_argument("--numba-python")
    ap.add_argument("--wheels", nargs="*", default=[])
    ap.add_argument("--rounds", type=int, default=7)
    opts = ap.parse_args()
    pythons = {m: p for m, p in (("mahou", opts.mahou_python), ("numba", opts.numba_python)) if p}
    res = {m: {"pass": [], "import": [], "import_np": [], "first": [], "in_process": []} for m in pythons}
    for _ in range(opts.rounds):
        for m, p in pythons.items():
            r = res[m]
            r["pass"].append(elapsed(p, "pass"))
            r["import"].append(elapsed(p, f"import {m}"))
            r["import_np"].append(elapsed(p, f"import numpy, {m}"))
            out = subprocess.run([p, "-c", FIRST.format(m=m)], check=True, capture_output=True, text=True)
            a, b = out.stdout.split()
            r["in_process"].append(float(a))
            r["first"].append(float(b))
    if opts.wheels:
        print("| wheel | MB |\n|---|---:|")
        for wheel in opts.wheels:
            print(f"| `{Path(wheel).name}` | {os.path.getsize(wheel) / 2**20:.1f} |")
        print()
    print("| | " + " | ".join(pythons) + " |")
    print("|---|" + "---:|" * len(pythons))
    for m, p in pythons.items():
        site = subprocess.run([p, "-c", SITE.format(m=m)], check=True, capture_output=True, text=True).stdout.strip()
        names = {"mahou": ["mahou", "mahou.libs"], "numba": ["numba", "llvmlite"]}[m]
        res[m]["installed"] = du_mb([os.path.join(site, n) for n in names])

    def row(label, f):
        print(f"| {label} | " + " | ".join(f(res[m]) for m in pythons) + " |")
    row("installed size, package + its LLVM (MB)", lambda r: f"{r['installed']:.0f}")
    row("`import` alone, fresh process (ms)", lambda r: f"{1e3 * (min(r['import']) - min(r['pass'])):.0f}")
    row("`import numpy` and it (ms)", lambda r: f"{1e3 * (min(r['import_np']) - min(r['pass'])):.0f}")
    row("import after NumPy, in the process (ms)", lambda r: f"{min(r['in_process']):.0f}")
    row("first compile and call of a 5-line loop (ms, best)", lambda r: f"{min(r['first']):.0f}")
    row("the same, median of the rounds (ms)", lambda r: f"{statistics.median(r['first']):.0f}")
    print(f"\nBest of {opts.rounds} interleaved rounds; load average {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
