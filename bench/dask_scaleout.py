"""Scaling out on Dask: time from client.map of a function never called before (defined
fresh each round, so no process has it compiled or cached) to all results on a
LocalCluster of N worker processes, mahou against Numba, interleaved.

  mahou:  the client compiles once (first local call) and the pickle carries the
          machine code: workers link it. Also measured: never called in the client,
          so each worker compiles (mahou's compile, not Numba's).
  Numba:  the client compiles once; the pickle carries the source (Numba's own
          reducer), so every worker compiles again.

Both libraries are imported on every worker before timing (their import is not what
is measured). Writes a table between <!-- BEGIN bench:dask --> and <!-- END bench:dask -->
in BENCHMARKS.md (--no-write to only print).

    python bench/dask_scaleout.py [--workers N] [--rounds R] [--tasks-per-worker K]
"""

import argparse
import linecache
import os
import platform
import re
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN, END = "<!-- BEGIN bench:dask -->", "<!-- END bench:dask -->"

# The function shipped to the workers: a kernel with two callees over an array (a
# typical unit of work of a map), re-created from source each round with a new
# constant so that nothing can be reused between rounds.
TEMPLATE = '''
@{deco}
def smooth_{tag}(x):
    return x * {k} + 0.5 * math.sin(x) - math.sqrt(abs(x))

@{deco}
def clip_{tag}(x, lo, hi):
    return min(max(x, lo), hi)

@{deco}
def work_{tag}(a):
    out = np.empty_like(a)
    total = 0.0
    for i in range(a.shape[0]):
        v = clip_{tag}(smooth_{tag}(a[i]), -10.0, 10.0)
        out[i] = v
        total += v
    return total / max(a.shape[0], 1)
'''


def define(engine, tag, k):
    """Fresh functions in __main__ (pickled by value), with their source registered so
    that inspect.getsource finds it."""
    deco = "mahou.njit" if engine == "mahou" else "numba.njit"
    source = TEMPLATE.format(deco=deco, tag=tag, k=k)
    filename = f"<dask-bench-{tag}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    import __main__
    code = compile(source, filename, "exec")
    exec(code, __main__.__dict__)
    return __main__.__dict__[f"work_{tag}"]


def prepare_workers():
    import importlib
    import math  # noqa: F401
    import mahou  # noqa: F401
    import numba  # noqa: F401
    # mahou's back end (libLLVM) is loaded by the first compile or code link: load it
    # now, as numba's llvmlite is loaded by `import numba`.
    importlib.import_module("mahou._backend")
    return os.getpid()


def run_round(client, engine, tag, k, inputs, compile_in_client):
    t0 = time.perf_counter()
    f = define(engine, tag, k)
    if compile_in_client:
        f(inputs[0])
    results = client.gather(client.map(f, inputs, pure=False))
    elapsed = time.perf_counter() - t0
    expected = f.py_func(inputs[-1])
    assert abs(results[-1] - expected) <= 1e-9 * max(1.0, abs(expected)), (results[-1], expected)
    return elapsed


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=os.cpu_count())
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tasks-per-worker", type=int, default=4)
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args()

    import distributed
    import __main__
    import math
    import mahou
    import numba
    __main__.math, __main__.np, __main__.mahou, __main__.numba = math, np, mahou, numba

    n = args.workers
    t = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster)
    client.wait_for_workers(n, timeout=300)
    pids = client.run(prepare_workers)
    startup = time.perf_counter() - t
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(20_000) for _ in range(n * args.tasks_per_worker)]
    client.gather(client.scatter(inputs[:1]))

    times = {"mahou": [], "mahou-workers-compile": [], "numba": []}
    for r in range(args.rounds):
        for engine, key, in_client in (("mahou", "mahou", True), ("numba", "numba", True),
                                        ("mahou", "mahou-workers-compile", False)):
            tag = f"{key.replace('-', '_')}_{r}"
            times[key].append(run_round(client, engine, tag, 1.0 + r + 0.25 * len(key), inputs, in_client))
    client.close()
    cluster.close()

    med = {k: statistics.median(v) for k, v in times.items()}
    ratios = [m / nb for m, nb in zip(times["mahou"], times["numba"])]
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    lines = [
        f"LocalCluster of {n} worker processes (1 thread each) on {os.cpu_count()} CPUs ({cpu}); "
        f"{len(inputs)} tasks of 20,000 float64 each; cluster start and imports "
        f"({startup:.1f} s) not counted; {args.rounds} rounds, interleaved; mahou "
        f"{mahou.__version__}, Numba {numba.__version__}, Dask distributed {distributed.__version__}; "
        f"{time.strftime('%Y-%m-%d')}.",
        "",
        "| time from defining the function to all results (s) | median | rounds |",
        "|---|---:|---|",
        f"| mahou: compiled in the client once, machine code shipped | {med['mahou']:.3f} | "
        + ", ".join(f"{x:.3f}" for x in times["mahou"]) + " |",
        f"| Numba: compiled in the client, again in every worker | {med['numba']:.3f} | "
        + ", ".join(f"{x:.3f}" for x in times["numba"]) + " |",
        f"| mahou: never called in the client, every worker compiles | "
        f"{med['mahou-workers-compile']:.3f} | "
        + ", ".join(f"{x:.3f}" for x in times["mahou-workers-compile"]) + " |",
        "",
        f"mahou (shipped code) / Numba: median of per-round ratios **{statistics.median(ratios):.3f}x** "
        f"(rounds: {', '.join(f'{x:.3f}' for x in ratios)}).",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        path = os.path.join(HERE, "..", "BENCHMARKS.md")
        doc = open(path).read()
        block = f"{BEGIN}\n{text}\n{END}"
        if BEGIN in doc and END in doc:
            doc = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), lambda m: block, doc, flags=re.S)
        else:
            doc = doc.rstrip() + "\n\n## Dask: a never-before-called function on a cluster\n\n" + block + "\n"
        open(path, "w").write(doc)


if __name__ == "__main__":
    main()
