# Helpers the benchmark scripts share: compiling a source text with a library's @njit
# (registered in linecache, since mahou compiles from source), the best of several timed
# runs, and rewriting one marked table of BENCHMARKS.md.
import argparse
import linecache
import re
import sys
import time
from pathlib import Path

BENCHMARKS_MD = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def load_source(text, label, lib):
    """The namespace of `text` executed with `lib` (mahou, numba, or None for plain Python)
    bound to the name `lib`; its functions' source is findable under the name `label`."""
    name = f"<bench {label} {getattr(lib, '__name__', 'python')}>"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    ns = {"lib": lib}
    exec(compile(text, name, "exec"), ns)
    return ns


def libraries(numba_modules=()):
    """The command line (--quick, --no-write, --only TEXT) and the libraries measured: mahou from this
    checkout, and Numba (with `numba_modules` imported) or None when it is not installed."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--only", default=None, help="time only the rows whose label contains this text")
    opts = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
    import importlib

    import mahou
    try:
        import numba
        for name in numba_modules:
            importlib.import_module(name)
    except ImportError:
        numba = None
    return opts, mahou, numba


def best_ns(fn, args, reps, warmup=0):
    """The fastest of `reps` calls fn(*args) (after `warmup` untimed ones), in nanoseconds."""
    for _ in range(warmup):
        fn(*args)
    best = None
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn(*args)
        dt = time.perf_counter_ns() - t0
        best = dt if best is None else min(best, dt)
    return best


def write_table(tag, heading, table):
    """Replaces the `bench:<tag>` block of BENCHMARKS.md (or appends it under `heading`)."""
    begin, end = f"<!-- BEGIN bench:{tag} -->", f"<!-- END bench:{tag} -->"
    text = BENCHMARKS_MD.read_text()
    block = begin + "\n" + table + "\n" + end
    if begin in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        text += f"\n## {heading}\n\n" + block + "\n"
    BENCHMARKS_MD.write_text(text)
