# @jitclass: attribute reads and writes, method calls and construction from Python,
# and a compiled loop over a method and fields, mahou vs Numba (and a plain Python class
# for reference), interleaved rounds, best of each. Rewrites the bench:jitclass table
# of BENCHMARKS.md. Usage: python bench/jitclass.py [--quick] [--no-write]
import datetime
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import best_ns, libraries, load_source, write_table  # noqa: E402

# The same class, compiled by each library (`lib` is mahou or numba) and left plain.
CLASS = '''
class Acc:
    def __init__(self, x, n):
        self.x = x
        self.n = n
        self.data = np.zeros(4)

    def add(self, v):
        self.x += v
        self.n += 1
        return self.x

    def mean(self):
        return self.x / self.n
'''

PLAIN = "import numpy as np\n" + CLASS

SOURCE = '''
import numpy as np
spec = [("x", lib.float64), ("n", lib.int64), ("data", lib.float64[:])]

@lib.experimental.jitclass(spec)''' + CLASS + '''
@lib.njit
def compiled_loop(acc, m):
    s = 0.0
    for i in range(m):
        s += acc.add(i * 0.5) * 1e-9 + acc.n
    return s + acc.mean()

@lib.njit
def compiled_construct(m):
    s = 0.0
    for i in range(m):
        a = Acc(i * 1.0, 1)
        s += a.mean()
    return s
'''


def load(lib):
    return load_source(SOURCE if lib is not None else PLAIN, "jitclass", lib)


def attr_read(acc, loop):
    for _ in loop:
        acc.x
        acc.n
        acc.x
        acc.n
        acc.x
        acc.n
        acc.x
        acc.n
        acc.x
        acc.n


def attr_write(acc, loop):
    for _ in loop:
        acc.x = 1.5
        acc.n = 3
        acc.x = 1.5
        acc.n = 3
        acc.x = 1.5
        acc.n = 3
        acc.x = 1.5
        acc.n = 3
        acc.x = 1.5
        acc.n = 3


def method_call(acc, loop):
    for _ in loop:
        acc.mean()
        acc.mean()
        acc.mean()
        acc.mean()
        acc.mean()
        acc.mean()
        acc.mean()
        acc.mean()
        acc.mean()
        acc.mean()


def method_call_arg(acc, loop):
    for _ in loop:
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)
        acc.add(1.0)


def construct(cls, loop):
    for _ in loop:
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)
        cls(1.0, 2)


def c_attribute(z, loop):  # the floor: an attribute implemented in C (complex.real)
    for _ in loop:
        z.real
        z.imag
        z.real
        z.imag
        z.real
        z.imag
        z.real
        z.imag
        z.real
        z.imag


def array_field(acc, loop):
    for _ in loop:
        acc.data
        acc.data
        acc.data
        acc.data
        acc.data
        acc.data
        acc.data
        acc.data
        acc.data
        acc.data


PY_CASES = [  # (label, function, argument: "acc" or "cls", operations per loop step)
    ("read a float and an int field (`a.x`, `a.n`)", attr_read, "acc", 10),
    ("write a float and an int field (`a.x = 1.5`)", attr_write, "acc", 10),
    ("read an array field (`a.data`)", array_field, "acc", 10),
    ("call a method, no arguments (`a.mean()`)", method_call, "acc", 10),
    ("call a method with a float (`a.add(1.0)`)", method_call_arg, "acc", 10),
    ("construct (`Acc(1.0, 2)`, `__init__` runs)", construct, "cls", 10),
]


def per_op_ns(fn, arg, ops, steps, reps):
    loop = range(steps)
    best = None
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn(arg, loop)
        dt = (time.perf_counter_ns() - t0) / (steps * ops)
        best = dt if best is None else min(best, dt)
    return best


def main():
    opts, mahou, numba = libraries(("numba.experimental",))
    impls = {"mahou": load(mahou), "python": load(None)}
    if numba is not None:
        impls["numba"] = load(numba)
    steps = 2_000 if opts.quick else 20_000
    rounds = 3 if opts.quick else 7
    accs = {k: ns["Acc"](1.0, 1) for k, ns in impls.items()}
    # warm up (compiles every method and the loops)
    for k, ns in impls.items():
        for _, fn, which, _ in PY_CASES:
            fn(accs[k] if which == "acc" else ns["Acc"], range(2))
        if k != "python":
            ns["compiled_loop"](accs[k], 10)
            ns["compiled_construct"](10)
    results = {}
    for _ in range(rounds):  # interleaved: each round measures every library once
        for label, fn, which, ops in PY_CASES:
            for k, ns in impls.items():
                arg = accs[k] if which == "acc" else ns["Acc"]
                t = per_op_ns(fn, arg, ops, steps, 1)
                key = (label, k)
                results[key] = min(results.get(key, t), t)
    floor = min(per_op_ns(c_attribute, 1j, 10, steps, 1) for _ in range(rounds))
    m = 200_000 if opts.quick else 2_000_000
    compiled = {}
    for _ in range(rounds):
        for k, ns in impls.items():
            if k == "python":
                continue
            for label, f, args in (("method call + field reads in a compiled loop (per iteration)",
                                    ns["compiled_loop"], (ns["Acc"](1.0, 1), m)),
                                   ("construct in a compiled loop (per instance)", ns["compiled_construct"], (m // 10,))):
                t = best_ns(f, args, 1) / (m if "loop (per iteration)" in label else m // 10)
                key = (label, k)
                compiled[key] = min(compiled.get(key, t), t)
    rows = []
    for label, _, _, _ in PY_CASES:
        mh, py = results[(label, "mahou")], results[(label, "python")]
        nb = results.get((label, "numba"))
        rows.append((f"from Python: {label}", mh, nb, py))
    for label in ("method call + field reads in a compiled loop (per iteration)",
                  "construct in a compiled loop (per instance)"):
        rows.append((f"compiled: {label}", compiled[(label, "mahou")], compiled.get((label, "numba")), None))
    lines = ["| operation | mahou ns | Numba ns | mahou / Numba | plain Python class ns |",
             "|---|---:|---:|---:|---:|"]
    def ns(x):
        return "n/a" if x is None else f"{x:.1f}"

    for label, mh, nb, py in rows:
        ratio = f"{mh / nb:.3f}x" if nb else "n/a"
        lines.append(f"| {label} | {ns(mh)} | {ns(nb)} | {ratio} | {'' if py is None else ns(py)} |")
    versions = f"mahou {mahou.__version__}" + (f", Numba {numba.__version__}" if numba else "")
    text = "\n".join([
        f"_{datetime.date.today()}, {platform.machine()}, Python {platform.python_version()}, {versions}; "
        f"best of {rounds} interleaved rounds, {steps} steps per Python measurement. The floor of an "
        f"attribute implemented in C on this Python (`z.real` of a complex): {floor:.1f} ns._",
        "",
        *lines,
    ])
    print(text)
    if not opts.no_write:
        write_table("jitclass", "@jitclass (bench/jitclass.py)", text)


if __name__ == "__main__":
    main()
