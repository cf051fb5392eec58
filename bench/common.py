# Helpers the benchmark scripts share: compiling a source text with a library's @njit
# (registered in linecache, since mahou compiles from source), the best of several timed
# runs, and rewriting one marked table of BENCHMARKS.md.
import linecache
import re
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


def best_ns(fn, args, reps):
    """The fastest of `reps` calls fn(*args), in nanoseconds."""
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
