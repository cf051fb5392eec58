# Containers: lists, dicts, sets and strings in compiled code, and typed.List/Dict
# used from the interpreter, timed in mahou, Numba and CPython in one run (calls
# interleaved, best of several rounds). Rewrites the bench:containers table of
# BENCHMARKS.md. Usage: python bench/containers.py [--reps N] [--no-write]
import argparse
import gc
import pathlib
import random
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
BENCHMARKS_MD = HERE.parent / "BENCHMARKS.md"
BEGIN, END = "<!-- BEGIN bench:containers -->", "<!-- END bench:containers -->"


# ---------------------------------------------------------------- compiled kernels

def list_append_iterate(n):
    xs = []
    for i in range(n):
        xs.append(i)
    s = 0
    for x in xs:
        s += x
    return s


def list_of_arrays(arrays):
    out = []
    for a in arrays:
        out.append(a * 2.0)
    s = 0.0
    for a in out:
        s += a[0]
    return s


def dict_int_keys(n):
    d = {}
    for i in range(n):
        d[i * 7] = i
    s = 0
    for i in range(n):
        s += d[i * 7]
    return s


def dict_str_keys(words):
    d = {}
    for w in words:
        d[w] = len(w)
    s = 0
    for w in words:
        s += d[w]
    return s


def set_membership(n):
    s = set()
    for i in range(0, n, 3):
        s.add(i)
    hits = 0
    for i in range(n):
        if i in s:
            hits += 1
    return hits


def word_count(text):
    counts = {}
    for w in text.split():  # (Numba cannot type counts.get(w, 0) on a dict made empty)
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 1
    return len(counts)


def sort_list(xs):
    ys = xs.copy()
    ys.sort()
    return ys[0]


def typed_dict_first_call(n):
    d = {}
    for i in range(n):
        d[i] = float(i)
    return len(d)


COMPILED = [
    ("list append + iterate, 10^6 ints", list_append_iterate, lambda ctx: (1_000_000,)),
    ("list of arrays, 10^4 x 8 float64", list_of_arrays, lambda ctx: (ctx["arrays"],)),
    ("dict insert + lookup, 10^6 int keys", dict_int_keys, lambda ctx: (1_000_000,)),
    ("dict insert + lookup, 10^5 str keys", dict_str_keys, lambda ctx: (ctx["words"],)),
    ("set membership, 10^6 lookups", set_membership, lambda ctx: (1_000_000,)),
    ("word count (split + dict), 10^5 words", word_count, lambda ctx: (ctx["text"],)),
    ("sort a list of 10^5 floats", sort_list, lambda ctx: (ctx["floats"],)),
]


def best_of(fn, args, reps):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn(*args)
        t = min(t, time.perf_counter() - t0)
    return t


def make_context(numba):
    import numpy as np

    rng = random.Random(0)
    vocab = ["w%d" % i for i in range(5000)] + ["é%d" % i for i in range(100)]
    words = [rng.choice(vocab) for _ in range(100_000)]
    ctx = {
        "arrays": [np.arange(8, dtype=np.float64) + i for i in range(10_000)],
        "words": words,
        "text": " ".join(words),
        "floats": [rng.random() for _ in range(100_000)],
    }
    if numba:
        ctx["numba_arrays"] = numba.typed.List(ctx["arrays"])
        ctx["numba_words"] = numba.typed.List(words)
        ctx["numba_floats"] = numba.typed.List(ctx["floats"])
    return ctx


def numba_args(name, args, ctx):
    # Numba's reflected lists of arrays and strings are deprecated and slow to unbox:
    # it gets typed.List arguments (its recommended form); mahou gets the Python lists.
    swap = {id(ctx["arrays"]): "numba_arrays", id(ctx["words"]): "numba_words", id(ctx["floats"]): "numba_floats"}
    return tuple(ctx[swap[id(a)]] if id(a) in swap else a for a in args)


def bench_compiled(mahou, numba, reps, ctx):
    rows = []
    for label, fn, make in COMPILED:
        args = make(ctx)
        impls = {"mahou": mahou.njit(fn)}
        if numba:
            impls["numba"] = numba.njit(fn)
        impls["python"] = fn
        for impl, f in impls.items():
            f(*(numba_args(label, args, ctx) if impl == "numba" else args))  # compile / warm
        times = {k: float("inf") for k in impls}
        for _ in range(reps):  # interleaved rounds
            for impl, f in impls.items():
                a = numba_args(label, args, ctx) if impl == "numba" else args
                times[impl] = min(times[impl], best_of(f, a, 1))
        rows.append((label, times))
        print(f"  {label}: " + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in times.items()), flush=True)
    return rows


def bench_interpreter(mahou, numba, reps):
    rows = []
    n = 100_000

    def list_ops(mk):
        def run():
            tl = mk()
            for i in range(n):
                tl.append(i)
            s = 0
            for i in range(n):
                s += tl[i]
            return s
        return run

    def dict_ops(mk):
        def run():
            d = mk()
            for i in range(n):
                d[i] = float(i)
            s = 0.0
            for i in range(n):
                s += d[i]
            return s
        return run

    for label, factory, makers in [
        ("typed.List append + index, 10^5", list_ops,
         {"mahou": lambda: mahou.typed.List.empty_list(mahou.types.int64),
          "numba": (lambda: numba.typed.List.empty_list(numba.types.int64)) if numba else None,
          "python": list}),
        ("typed.Dict set + get, 10^5", dict_ops,
         {"mahou": lambda: mahou.typed.Dict.empty(mahou.types.int64, mahou.types.float64),
          "numba": (lambda: numba.typed.Dict.empty(numba.types.int64, numba.types.float64)) if numba else None,
          "python": dict}),
    ]:
        impls = {k: factory(v) for k, v in makers.items() if v}
        times = {k: float("inf") for k in impls}
        for _ in range(max(2, reps // 2)):
            for k, f in impls.items():
                times[k] = min(times[k], best_of(f, (), 1))
        rows.append((label, times))
        print(f"  {label}: " + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in times.items()), flush=True)
    return rows


def first_call(module_name, code):
    # A fresh process: import, define, first call (compile) — the time of the call alone.
    import subprocess

    prog = f"""
import time
import {module_name} as jit
def typed_dict_first_call(n):
    d = {{}}
    for i in range(n):
        d[i] = float(i)
    return len(d)
f = jit.njit(typed_dict_first_call)
t0 = time.perf_counter(); f(10); t1 = time.perf_counter()
print(t1 - t0)
"""
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def fmt_ms(t):
    return "—" if t == float("inf") else f"{t * 1e3:.2f}"


def table(compiled, interp, firsts):
    lines = ["### Containers (ms; `bench/containers.py`; best of interleaved rounds)", "",
             "| compiled code | mahou | Numba | CPython | mahou/Numba |", "|---|---:|---:|---:|---:|"]
    for label, t in compiled:
        ratio = f"{t['mahou'] / t['numba']:.2f}" if "numba" in t else "—"
        lines.append(f"| {label} | {fmt_ms(t['mahou'])} | {fmt_ms(t.get('numba', float('inf')))} | "
                     f"{fmt_ms(t['python'])} | {ratio} |")
    lines += ["", "| from the interpreter | mahou | Numba | Python list/dict | mahou/Numba | mahou/Python |",
              "|---|---:|---:|---:|---:|---:|"]
    for label, t in interp:
        rn = f"{t['mahou'] / t['numba']:.2f}" if "numba" in t else "—"
        lines.append(f"| {label} | {fmt_ms(t['mahou'])} | {fmt_ms(t.get('numba', float('inf')))} | "
                     f"{fmt_ms(t['python'])} | {rn} | {t['mahou'] / t['python']:.2f} |")
    if firsts:
        m, n = firsts.get("mahou"), firsts.get("numba")
        lines += ["", f"First call of a function that builds a dict (fresh process, compile included): mahou "
                      f"{m * 1e3:.1f} ms, Numba {n * 1e3:.1f} ms ({m / n:.3f}x)." if n else
                      f"First call of a function that builds a dict: mahou {m * 1e3:.1f} ms."]
    return "\n".join(lines) + "\n"


def write_markdown(text):
    doc = BENCHMARKS_MD.read_text()
    block = f"{BEGIN}\n{text}{END}"
    if BEGIN in doc:
        doc = doc[:doc.index(BEGIN)] + block + doc[doc.index(END) + len(END):]
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    BENCHMARKS_MD.write_text(doc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-write", action="store_true")
    opts = ap.parse_args()
    import mahou
    try:
        import numba
        import numba.typed  # noqa: F401
    except ImportError:
        numba = None
        print("bench: numba is not installed; its columns are empty")
    gc.disable()
    ctx = make_context(numba)
    print("compiled:")
    compiled = bench_compiled(mahou, numba, opts.reps, ctx)
    print("interpreter:")
    interp = bench_interpreter(mahou, numba, opts.reps)
    firsts = {"mahou": first_call("mahou", "")}
    if numba:
        firsts["numba"] = first_call("numba", "")
    text = table(compiled, interp, firsts)
    print(text)
    if not opts.no_write:
        write_markdown(text)


if __name__ == "__main__":
    main()
