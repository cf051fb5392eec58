#!/usr/bin/env python3
"""Steady-state speed of the public compatibility corpus (../shared/compat) under mahou and
under Numba: each program's run() in a fresh subprocess per engine, the first call (compile)
excluded, the best of the calls that follow; the ratio table goes into BENCHMARKS.md
(bench:compat (LABEL)) and a chart of the sorted ratios into docs/_static/bench/.

    python bench/compat_speed.py                      # here: mahou and numba from this Python
    python bench/compat_speed.py --numba-python /tmp/numba-venv/bin/python
    python bench/compat_speed.py --out-dir DIR --no-write   # results JSON/Markdown/PNG in DIR only
    python bench/compat_speed.py --render DIR/compat.json   # table + chart from a saved run
    python bench/compat_speed.py --resume A/compat.json --out-dir B   # the programs run A did not reach
    python bench/compat_speed.py --render A/compat.json B/compat.json  # both parts as one table

The programs are read where they lie (--compat); none is copied into the project. Programs
that fail under either engine, or whose results differ between the engines, are listed and
not timed. CUDA programs (which would run on the emulators) are skipped unless --cuda."""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

# The child: imports one program under one engine, calls run() once (compile and warm-up,
# timed as "first"), then again until `budget` seconds have passed (at least `min_reps`
# calls, at most `max_reps`), and writes the best time and the result (pickled) to `out`.
CHILD = r'''
import os, sys, pickle, runpy, time, traceback
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numba-cuda 0.30 with NumPy 2.5
compat, prog, out, budget, min_reps, max_reps = sys.argv[1:7]
sys.path.insert(0, compat)
budget, min_reps, max_reps = float(budget), int(min_reps), int(max_reps)
try:
    ns = runpy.run_path(prog, run_name="compat_program")
    run = ns["run"]
    t0 = time.perf_counter()
    result = run()
    first = time.perf_counter() - t0
    times = []
    start = time.perf_counter()
    while len(times) < max_reps and (len(times) < min_reps or time.perf_counter() - start < budget):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    try:
        blob = pickle.dumps(result)
    except Exception:
        blob = pickle.dumps(repr(result))
    res = {"status": "ok", "first": first, "best": min(times), "reps": len(times), "result": blob}
except BaseException as e:
    first_line = (str(e).strip().splitlines() or [""])[0]
    if "compat/programs/" in first_line:  # the corpus's own path, not where this machine keeps it
        head, _, tail = first_line.partition("compat/programs/")
        first_line = head[:head.rfind(" ") + 1] + "compat/programs/" + tail
    res = {"status": "error", "error": f"{type(e).__name__}: {first_line[:160]}",
           "traceback": traceback.format_exc()[-2000:]}
with open(out, "wb") as fh:
    pickle.dump(res, fh)
'''


def run_child(python, compat, prog, engine, opts):
    """One program under one engine in a fresh process: the child's dict (status ...)."""
    import pickle

    env = dict(os.environ)
    env["COMPAT_ENGINE"] = engine
    env["MAHOU_ENABLE_CUDASIM"] = "1"
    env["NUMBA_ENABLE_CUDASIM"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if opts.threads:
        env["NUMBA_NUM_THREADS"] = env["MAHOU_NUM_THREADS"] = str(opts.threads)
    with tempfile.TemporaryDirectory() as td:
        env["NUMBA_CACHE_DIR"] = os.path.join(td, "numba_cache")
        env["MAHOU_CACHE_DIR"] = os.path.join(td, "mahou_cache")
        out = os.path.join(td, "res.pkl")
        script = os.path.join(td, "child.py")
        Path(script).write_text(CHILD)
        args = [python, script, str(compat), str(prog), out, str(opts.budget), str(opts.min_reps), str(opts.max_reps)]
        try:
            p = subprocess.run(args, env=env, cwd=compat, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=opts.timeout)
        except subprocess.TimeoutExpired:
            return {"status": "error", "error": f"timeout ({opts.timeout:.0f} s)"}
        if not os.path.exists(out):
            tail = (p.stderr or b"").decode(errors="replace").strip().splitlines()[-1:] or [""]
            return {"status": "error", "error": f"crashed (exit {p.returncode}) {tail[0][:120]}"}
        with open(out, "rb") as fh:
            return pickle.load(fh)


def same(a, b, depth=0):
    """Whether two run() results agree (floats within 1e-7 relative, 1e-5 for float32)."""
    import numpy as np

    if depth > 50:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            loose = np.float32 in (a.dtype, b.dtype) or np.complex64 in (a.dtype, b.dtype)
            try:
                return bool(np.allclose(a, b, rtol=1e-5 if loose else 1e-7, atol=1e-6 if loose else 0, equal_nan=True))
            except TypeError:
                return False
        try:
            return bool(np.array_equal(a, b))
        except Exception:
            return repr(a) == repr(b)
    if isinstance(a, float) or isinstance(b, float) or isinstance(a, np.floating):
        try:
            return bool(np.isclose(a, b, rtol=1e-7, atol=0, equal_nan=True))
        except TypeError:
            return False
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, depth + 1) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], depth + 1) for k in a)
    try:
        return bool(a == b)
    except Exception:
        return repr(a) == repr(b)


def measure(prog, opts):
    """One program under both engines: `opts.rounds` rounds, each a fresh process per engine,
    the engines' order alternating from round to round (a shared host's slow spells, which
    last seconds, then fall on both); per engine the best call of all rounds, the first
    call of the first round."""
    import pickle

    row = {"program": prog.stem}
    engines = (("mahou", opts.mahou_python), ("numba", opts.numba_python))
    results = {}
    for k in range(max(1, opts.rounds)):
        for engine, python in (engines if k % 2 == 0 else engines[::-1]):
            r = run_child(python, opts.compat, prog, engine, opts)
            if r["status"] != "ok":
                row["status"] = f"{engine}: {r['error']}"
                return row
            if engine not in row:
                row[engine] = {"first": r["first"], "best": r["best"], "reps": r["reps"]}
                results[engine] = r["result"]
            else:
                row[engine]["best"] = min(row[engine]["best"], r["best"])
                row[engine]["reps"] += r["reps"]
    try:
        agree = same(pickle.loads(results["mahou"]), pickle.loads(results["numba"]))
    except Exception:  # a result type one side cannot unpickle
        agree = True
    row["status"] = "ok" if agree else "results differ"
    if agree:
        row["ratio"] = row["mahou"]["best"] / row["numba"]["best"]
    return row


def fmt_time(s):
    return f"{s * 1e3:,.3f} ms" if s < 1 else f"{s:,.2f} s"


def geomean(xs):
    import math

    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def markdown(data):
    rows = data["rows"]
    timed = sorted((r for r in rows if "ratio" in r), key=lambda r: -r["ratio"])
    ratios = [r["ratio"] for r in timed]
    lines = [
        f"Machine: {data['machine']}. Date: {data['date']}.  ",
        f"Versions: {data['versions']}.  ",
        f"Each program's `run()` in a fresh process per engine ({data.get('rounds', 1)} per engine, the engines "
        f"alternating): the first call (compilation) excluded, "
        f"then the best of the calls that follow ({data['budget']} s or at least {data['min_reps']} calls a process); "
        f"threads: {data['threads'] or 'all'}. Ratio = mahou / Numba, < 1 means mahou is faster.",
        "",
        f"**{len(timed)} programs timed**: geometric mean {geomean(ratios):.2f}×, "
        f"{sum(x > 1.0 for x in ratios)} above 1.0×, {sum(x > 1.1 for x in ratios)} above 1.1×, "
        f"worst {max(ratios, default=float('nan')):.2f}×.",
        "",
        "| program | mahou | Numba | mahou/Numba | mahou first call | Numba first call |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in timed:
        m, n = r["mahou"], r["numba"]
        lines.append(f"| {r['program']} | {fmt_time(m['best'])} | {fmt_time(n['best'])} | {r['ratio']:.2f}× | "
                     f"{fmt_time(m['first'])} | {fmt_time(n['first'])} |")
    others = [r for r in rows if "ratio" not in r]
    if others:
        lines += ["", "Not timed:", ""]
        lines += [f"- {r['program']}: {r['status']}" for r in sorted(others, key=lambda r: r["program"])]
    return "\n".join(lines) + "\n"


def chart(data, path):
    """Ratio per program, sorted, with a line at 1.0 (PNG); skipped without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("compat_speed: no matplotlib, no chart")
        return
    timed = sorted((r for r in data["rows"] if "ratio" in r), key=lambda r: r["ratio"])
    if not timed:
        return
    fig, ax = plt.subplots(figsize=(10, max(3, 0.2 * len(timed) + 1)))
    names = [r["program"] for r in timed]
    ratios = [r["ratio"] for r in timed]
    colors = ["tab:red" if x > 1.1 else "tab:orange" if x > 1.0 else "tab:blue" for x in ratios]
    ax.barh(range(len(timed)), ratios, color=colors)
    ax.set_yticks(range(len(timed)), names, fontsize=6)
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("mahou time / Numba time (steady state, log scale; < 1: mahou faster)")
    ax.set_title(f"Compat corpus, {data['label']}: geometric mean {geomean(ratios):.2f}×", fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def publish(data, opts):
    md = markdown(data)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", data["label"]).strip("-")
    out_dir = Path(opts.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "compat.md").write_text(md)
    chart(data, out_dir / f"compat_speed-{slug}.png")
    if not opts.no_write:
        from common import write_table

        write_table(f"compat ({data['label']})", f"Compat corpus, steady state ({data['label']})", md)
        chart(data, ROOT / "docs" / "_static" / "bench" / f"compat_speed-{slug}.png")
    print(md)


NOT_REACHED = "not run (deadline)"


def merge_runs(runs):
    """One run's data from several partial runs of the same corpus (a later row of a program
    replaces an earlier one unless the later one was not reached); header from the first."""
    data = dict(runs[0])
    rows = {}
    for run in runs:
        for r in run["rows"]:
            if r["status"] != NOT_REACHED or r["program"] not in rows:
                rows[r["program"]] = r
    data["rows"] = list(rows.values())
    if len(runs) > 1:
        data["date"] = f"{runs[0]['date']} to {runs[-1]['date']} ({len(runs)} calls)"
    return data


def versions(python, engine):
    code = f"import platform, numpy, {engine}; print(platform.python_version(), numpy.__version__, {engine}.__version__)"
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=120).stdout.split()
        return out if len(out) == 3 else None
    except Exception:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compat", default=str(ROOT.parent / "shared" / "compat"), help="the corpus folder")
    ap.add_argument("--mahou-python", default=sys.executable)
    ap.add_argument("--numba-python", default=sys.executable)
    ap.add_argument("--only", action="append", default=[], help="substring of a program's name (repeatable)")
    ap.add_argument("--cuda", action="store_true", help="also the CUDA programs (on the emulators)")
    ap.add_argument("--budget", type=float, default=0.5, help="seconds of timed calls per program and engine")
    ap.add_argument("--min-reps", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=1, help="processes per program and engine, the engines "
                    "alternating; the best call of all (for a noisy shared host)")
    ap.add_argument("--max-reps", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--threads", type=int, default=0, help="NUMBA_NUM_THREADS for both (0: all)")
    ap.add_argument("--jobs", type=int, default=1, help="programs measured at once (1 for quiet timings)")
    ap.add_argument("--deadline", type=float, default=0, help="start no program after this many seconds")
    ap.add_argument("--label", help="the table's name in BENCHMARKS.md (default: N-core host or development "
                    "machine; with --render, the saved run's)")
    ap.add_argument("--out-dir", default=str(HERE / "results"))
    ap.add_argument("--no-write", action="store_true", help="leave BENCHMARKS.md and docs/ as they are")
    ap.add_argument("--render", nargs="+", help="compat.json files of earlier runs (one run split over several "
                    "calls): only write their merged table and chart")
    ap.add_argument("--resume", nargs="+", default=[], help="compat.json files of earlier runs: measure only "
                    "the programs they did not reach (a run split over several calls)")
    opts = ap.parse_args()

    if opts.render:
        data = merge_runs([json.loads(Path(f).read_text()) for f in opts.render])
        data["label"] = opts.label or data["label"]
        publish(data, opts)
        return
    cores = os.cpu_count() or 1
    opts.label = opts.label or f"{cores}-core {'host' if cores >= 8 else 'development machine'}"
    compat = Path(opts.compat).resolve()
    opts.compat = compat
    progs = sorted((compat / "programs").glob("*.py"), key=lambda p: (len(p.stem.split("_")[0]), p.stem))
    if not opts.cuda:
        progs = [p for p in progs if "cuda" not in p.stem]
    if opts.only:
        progs = [p for p in progs if any(s in p.stem for s in opts.only)]
    if opts.resume:
        reached = {r["program"] for f in opts.resume for r in json.loads(Path(f).read_text())["rows"]
                   if r["status"] != NOT_REACHED}
        progs = [p for p in progs if p.stem not in reached]
    mv, nv = versions(opts.mahou_python, "mahou"), versions(opts.numba_python, "numba")
    try:
        load = f"{os.getloadavg()[0]:.1f}"
    except OSError:
        load = "?"
    data = {
        "label": opts.label,
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores, "
                   f"{platform.system()} {platform.release()}, load average {load} when the run started",
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "versions": f"Python {mv[0] if mv else '?'}; NumPy {mv[1] if mv else '?'}; mahou {mv[2] if mv else '?'}; "
                    f"Numba {nv[2] if nv else 'not installed'}",
        "budget": opts.budget, "min_reps": opts.min_reps, "threads": opts.threads,
        "rounds": opts.rounds, "rows": [],
    }
    start = time.time()

    def one(prog):
        if opts.deadline and time.time() - start > opts.deadline:
            return {"program": prog.stem, "status": NOT_REACHED}
        row = measure(prog, opts)
        ratio = f"{row['ratio']:.2f}x" if "ratio" in row else row["status"]
        print(f"{prog.stem:50s} {ratio}", flush=True)
        return row

    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        data["rows"] = list(pool.map(one, progs))
    Path(opts.out_dir).mkdir(parents=True, exist_ok=True)
    # a program's captured output may be bytes (a timeout): written as text
    (Path(opts.out_dir) / "compat.json").write_text(
        json.dumps(data, indent=1, default=lambda o: o.decode(errors="replace") if isinstance(o, bytes) else str(o)))
    publish(data, opts)


if __name__ == "__main__":
    main()
