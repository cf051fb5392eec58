"""The bad-input fuzzer: random inputs at mahou's boundaries, each case checked against
CPython and NumPy as the oracle (the same code run uncompiled), in worker subprocesses
under an address-space limit (so a huge allocation fails in both). A case whose worker
dies is a crash, one past --hang-seconds a hang; a different value or exception class
is a mismatch. Cases are deterministic in (seed, index).

  python tests/fuzz/bad_input.py --seed 1 --cases 300 [--budget 60]

Kinds of case:
  alloc     np.empty/zeros/ones/full of 1-3 extents near the limits (0, 2**31, 2**32,
            2**61, 2**62, 2**63-1, negatives), four dtypes: NumPy's exception or the array
  repeat    str and list repeats and str padding by counts near the limits
  reshape   an array reshaped into extents near the limits (-1 included)
  declared  an array (every dtype, 1-2 dimensions, C/F/strided/reversed/read-only/
            big-endian/broadcast/object/U/S strings) or another value given where an array type is
            declared: a jitclass field, a typed.List item, a typed.Dict value, an objmode
            output, an explicit signature. The value must fit the type (dtype,
            dimensions, contiguity, writeable) and give NumPy's sum, or be refused
            (TypeError/ValueError), never be read by the wrong type; a bytes, bytearray,
            memoryview or array.array there is refused
  deep      nested tuple and list arguments (up to 300 levels) and linked jitclass
            instances (up to 400,000) built and dropped
  alias     one list passed several times in one call, or held twice in a list
  iterate   a dict changed while iterated (in compiled code, or a typed.Dict from Python):
            CPython's RuntimeError (or its result)
  mixed     1-6 arguments of every kind a call takes (numbers, NumPy scalars, strings,
            arrays of several layouts, arrays of U/S strings, records of several layouts
            (one with a U field), tuples, lists, None)
            in random order, returned as they came: each must come back as it was
            (a record once had no bytes in the call buffer and the next argument
            overwrote its pointer)
"""

import argparse
import collections
import copy
import json
import os
import random
import selectors
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ["alloc", "repeat", "reshape", "declared", "deep", "alias", "iterate", "mixed"]
MIXED_MAX = 6
SIZES = [0, 1, 2, 3, 7, 2**20, 2**31, 2**32, 2**32 + 1, 2**40, 2**61, 2**62, 2**63 - 1, -1, -2, -(2**63)]
DTYPES = ["int8", "int32", "float64", "complex128"]

# ------------------------------------------------------------------ the compiled functions
# Written to a module of the worker's directory (mahou compiles from source), one per
# operation and dtype, so that every case is an ordinary call with plain arguments.


def _functions_source():
    out = ["import numpy as np", "from mahou import objmode", "import bad_input_values as V", ""]
    for op in ("empty", "zeros", "ones", "full"):
        for ndim in (1, 2, 3):
            params = ", ".join(f"n{k}" for k in range(ndim))
            shape = f"({params},)" if ndim == 1 else f"({params})"
            for dt in DTYPES:
                fill = ", 2" if op == "full" else ""
                # The sum reads every element (np.empty's are set first: they are not defined).
                out += [f"def alloc_{op}_{ndim}_{dt}({params}):",
                        f"    a = np.{op}({shape}{fill}, dtype=np.{dt})"]
                out += ["    a[...] = 1"] if op == "empty" else []
                out += ["    return a.shape, a.sum()", ""]
    out += ["def reshape2(a, n, m):", "    b = a.reshape(n, m)", "    return b.shape, b.sum()", ""]
    for name, expr in (("str_repeat", "s * n"), ("list_repeat", "xs * n"), ("ljust", "s.ljust(n)"),
                       ("center", "s.center(n)"), ("zfill", "s.zfill(n)")):
        arg = "xs" if name == "list_repeat" else "s"
        out += [f"def {name}({arg}, n):", f"    r = {expr}", "    return len(r), r[:3]", ""]
    for spec in TYPE_SPECS:
        out += [f"def om_{spec_name(spec)}():",
                f"    with objmode(y='{type_text(spec)}'):",
                "        y = V.VALUE",
                "    return y.sum()", ""]
    out += ["def total(a):", "    return a.sum()", "",
            "def first_total(xs):", "    return xs[0].sum()", "",
            "def value_total(d):", "    return d[1].sum()", "",
            "def depth(t):", "    return 1", "",
            "def first(xs):", "    return xs[0]", ""]
    for k in range(1, MIXED_MAX + 1):
        params = ", ".join(f"a{i}" for i in range(k))
        out += [f"def mixed_{k}({params}):", f"    return ({params},)", ""]
    for k, body in enumerate(ALIAS_BODIES):
        out += [f"def alias_{k}(a, b):"] + [f"    {line}" for line in body] + [""]
    for name, body in ITERATE_BODIES.items():
        loop = ["    n = 0", "    for k in d:", "        if n == at:"]
        loop += [f"            {line}" for line in body] + ["        n += 1"]
        out += [f"def it_{name}(d, at):"] + loop + ["    return n", ""]
        out += [f"def it_{name}_build(size, at):", "    d = {}", "    for i in range(size):", "        d[i] = i * 10"]
        out += loop + ["    return n, sorted(d.items())", ""]
    return "\n".join(out)


def _node_class():
    class Node:
        def __init__(self, v, nxt):
            self.v = v
            self.nxt = nxt
    return Node


def build_list(n):
    h = NODE(0, None)  # noqa: F821  (the jitclass, a global set by the worker)
    for i in range(1, n):
        h = NODE(i, h)  # noqa: F821
    t = 0
    p = h
    while p is not None:
        t += p.v
        p = p.nxt
    return t


ALIAS_BODIES = [
    ["a.append(1)", "b.append(2)", "return len(a) + len(b)"],
    ["a[0] = 5", "return b[0]"],
    ["b.pop()", "a.append(len(b))", "return a[-1]"],
    ["a[0][0] = 7", "return b[1][0]"],
    ["a.extend(b)", "return len(a), len(b)"],
    ["a.insert(0, 9)", "b.reverse()", "return a[0], b[0]"],
]
ALIAS_NESTED = {3}  # bodies over lists of lists

ITERATE_BODIES = {
    "add": ["d[k + 100] = 1"],
    "readd": ["v = d.pop(k)", "d[k] = v"],
    "delete": ["del d[k]"],
    "set": ["d[k] = -1"],
    "clear": ["d.clear()"],
    "popitem": ["if len(d) > 1:", "    d.popitem()"],
}
# Python's documentation: iterating a dict "while adding or deleting entries ... may raise a
# RuntimeError or fail to iterate over all entries", and which one CPython does depends on
# when its table is resized. After such a change mahou's RuntimeError is right; a result
# must still be CPython's.
CHANGES_KEYS = {"add", "readd", "delete", "clear", "popitem"}

# ------------------------------------------------------------------ declared array types

TYPE_SPECS = [(dt, ndim, layout) for dt in ("float64", "int64", "float32") for ndim in (1, 2)
              for layout in ("A", "C", "F") if not (ndim == 1 and layout == "F")]


def spec_name(spec):
    return f"{spec[0]}_{spec[1]}d_{spec[2]}"


def type_text(spec):
    dt, ndim, layout = spec
    if ndim == 1:
        return f"{dt}[{'::1' if layout == 'C' else ':'}]"
    return {"A": f"{dt}[:, :]", "C": f"{dt}[:, ::1]", "F": f"{dt}[::1, :]"}[layout]


def make_value(rng):
    """An argument for a declared array type, and its description."""
    import numpy as np
    kind = rng.choice(["array"] * 8 + ["list", "float", "str", "none", "buffer"])
    if kind == "buffer":  # bytes-like objects are their own types, never an ndarray's
        import array
        made = rng.choice([lambda: b"\x00" * 16, lambda: bytearray(8), lambda: array.array("d", [1.0, 2.0]),
                           lambda: memoryview(np.arange(6.0)), lambda: memoryview(np.arange(6.0).reshape(2, 3)),
                           lambda: memoryview(np.arange(12, dtype=np.int64))[::2]])()
        return made, f"{type(made).__name__}"
    if kind == "list":
        return [1.0, 2.0, 3.0], "list"
    if kind == "float":
        return 2.5, "float"
    if kind == "str":
        return "abc", "str"
    if kind == "none":
        return None, "None"
    dt = rng.choice(["float64", "float64", "int64", "float32", "int8", "bool", "complex128", ">f8", "object",
                     "U3", ">U3", "S2"])
    ndim = rng.choice([1, 2])
    layout = rng.choice(["C", "C", "F", "strided", "reversed", "readonly", "broadcast"])
    n = rng.randint(0, 5)
    base = np.arange(n * 6, dtype=np.int64) % 5
    rows = n * 2 if layout == "strided" else n
    a = base[:rows] if ndim == 1 else base[:rows * 3].reshape(rows, 3)
    a = a.astype(dt) if dt != "object" else a.astype(object)
    if layout == "F" and ndim == 2:
        a = np.asfortranarray(a)
    elif layout == "strided":
        a = a[::2]
    elif layout == "reversed":
        a = a[::-1]
    elif layout == "readonly":
        a = a.copy()
        a.flags.writeable = False
    elif layout == "broadcast":
        a = np.broadcast_to(a[:1] if ndim == 1 else a[:1, :], (3,) + a.shape[1:]) if a.size else a
    return a, f"array {dt} {ndim}d {layout} shape {a.shape}"


def fits(value, spec):
    """Whether compiled code may use `value` as a value of the array type `spec`."""
    import numpy as np
    dt, ndim, layout = spec
    if not isinstance(value, np.ndarray) or value.ndim != ndim or value.dtype != np.dtype(dt):
        return False
    if not value.dtype.isnative or not value.flags.writeable:
        return False
    return layout == "A" or (value.flags.c_contiguous if layout == "C" else value.flags.f_contiguous)


# ------------------------------------------------------------------ cases

def make_case(seed, index):
    rng = random.Random(f"{seed}-{index}")
    kind = rng.choice(KINDS)
    if kind == "alloc":
        ndim = rng.randint(1, 3)
        return {"kind": kind, "op": rng.choice(["empty", "zeros", "ones", "full"]), "dtype": rng.choice(DTYPES),
                "shape": [rng.choice(SIZES) if rng.random() < 0.6 else rng.randint(0, 4) for _ in range(ndim)]}
    if kind == "repeat":
        op = rng.choice(["str_repeat", "list_repeat", "ljust", "center", "zfill"])
        # (An empty list argument has no item type: refused, as in Numba.)
        seq = rng.choice([[1, 2], [1.5], [True]]) if op == "list_repeat" else rng.choice(["", "a", "ab", "é", "🙂x"])
        return {"kind": kind, "op": op, "seq": seq, "n": rng.choice(SIZES) if rng.random() < 0.8 else rng.randint(-3, 9)}
    if kind == "reshape":
        return {"kind": kind, "size": rng.choice([0, 1, 4, 6, 12]),
                "dims": [rng.choice(SIZES + [-1, -1, 0, 2, 3, 4, 6]) for _ in range(2)]}
    if kind == "declared":
        return {"kind": kind, "where": rng.choice(["jitclass", "typed_list", "typed_dict", "objmode", "signature"]),
                "spec": list(rng.choice(TYPE_SPECS)), "value_seed": rng.randrange(2**32)}
    if kind == "deep":
        what = rng.choice(["tuple", "list", "linked"])
        n = rng.choice([1, 2, 50, 199, 256, 257, 300]) if what != "linked" else rng.choice([1, 10, 1000, 100_000, 400_000])
        return {"kind": kind, "what": what, "n": n}
    if kind == "alias":
        body = rng.randrange(len(ALIAS_BODIES))
        return {"kind": kind, "body": body, "pattern": rng.choice(["same", "same", "distinct", "nested"])}
    if kind == "mixed":
        return {"kind": kind, "values": [rng.randrange(len(MIXED_VALUES)) for _ in range(rng.randint(1, MIXED_MAX))]}
    return {"kind": "iterate", "op": rng.choice(sorted(ITERATE_BODIES)), "size": rng.randint(0, 6),
            "at": rng.randint(0, 6), "where": rng.choice(["compiled", "python"])}


def outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e).__name__)


def same(a, b):
    import numpy as np
    if a[0] != b[0]:
        return False
    if a[0] == "raised":
        return a[1] == b[1]
    x, y = a[1], b[1]
    if isinstance(x, tuple) and isinstance(y, tuple):
        return len(x) == len(y) and all(same(("value", p), ("value", q)) for p, q in zip(x, y))
    if isinstance(x, (np.generic, float, int, complex)) or isinstance(y, (np.generic, float, int, complex)):
        return complex(x) == complex(y) or (x != x and y != y)
    return x == y


def run_case(case, F, mahou):
    """(status, detail) of one case (ok, refused or mismatch); F is the module of the
    compiled functions' sources."""
    import numpy as np
    k = case["kind"]
    if k == "alloc":
        fn = getattr(F, f"alloc_{case['op']}_{len(case['shape'])}_{case['dtype']}")
        return compare(mahou.njit(fn), fn, *case["shape"])
    if k == "repeat":
        fn = getattr(F, case["op"])
        return compare(mahou.njit(fn), fn, case["seq"], case["n"])
    if k == "reshape":
        a = np.arange(case["size"], dtype=np.float64)
        return compare(mahou.njit(F.reshape2), F.reshape2, a, *case["dims"])
    if k == "declared":
        return declared(case, F, mahou)
    if k == "deep":
        return deep(case, F, mahou)
    if k == "alias":
        fn = getattr(F, f"alias_{case['body']}")
        nested = case["body"] in ALIAS_NESTED
        xs, ys = ([[1, 2], [3]], [[4], [5, 6]]) if nested else ([1, 2, 3], [4, 5])
        args = {"same": (xs, xs), "distinct": (xs, ys), "nested": (xs, ys)}[case["pattern"]]
        if case["pattern"] == "nested" and nested:
            inner = [1, 2]
            args = ([inner, inner], [inner, [3]])
        ref_args = copy.deepcopy(args)  # keeps the aliasing among the arguments
        want = outcome(fn, *ref_args)
        got = outcome(mahou.njit(fn), *args)
        status = verdict(got, want)
        if status == "ok" and list(args) != list(ref_args):
            status = "mismatch"
        return status, f"got {got} {args}, CPython {want} {ref_args}"
    if k == "mixed":
        return mixed(case, F, mahou)
    return iterate(case, F, mahou)


def _mixed_values():
    """Makers of the values a mixed case passes (fresh for each side of the comparison)."""
    import numpy as np
    pair = np.dtype([("x", "f8"), ("n", "i4")])
    packed = np.dtype({"names": ["b", "d", "u"], "formats": ["i1", "f8", "u2"], "offsets": [0, 1, 9], "itemsize": 11})
    aligned = np.dtype([("b", "i1"), ("d", "f8")], align=True)
    return [
        lambda: 7, lambda: -2.5, lambda: True, lambda: 1.5 - 2j, lambda: np.float32(0.25), lambda: np.int8(-3),
        lambda: np.uint16(65535), lambda: "héllo", lambda: None, lambda: (1, 2.5), lambda: (3, (4, 5)),
        lambda: np.arange(6.0), lambda: np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)),
        lambda: np.arange(10.0)[::3], lambda: np.array([], dtype=np.int64),
        lambda: np.array([(1.5, 2), (3.5, 4)], dtype=pair)[1],
        lambda: np.array([(-1, 2.5, 7)], dtype=packed)[0],
        lambda: np.array([(5, -0.5)], dtype=aligned)[0],
        lambda: np.array([(1.5, 2), (3.5, 4)], dtype=pair),
        lambda: [1, 2, 3], lambda: [0.5],
        lambda: np.array([["ab", "", "héllo"], ["x\x00y", "日本", "z"]], dtype="U5")[:, ::2],
        lambda: np.array([b"ab", b"", b"xyz"], dtype="S3")[::-1],
        lambda: np.array([("ab", 1.5), ("cdé", 2.5)], dtype=[("name", "U4"), ("x", "f8")]),
    ]  # (a plain dict is not an argument: Numba and mahou take typed.Dict only)


MIXED_VALUES = list(range(24))  # indices into _mixed_values() (kept import-free here)


def _canonical(v):
    """A comparable form of a returned value: records and arrays by their contents."""
    import numpy as np
    if isinstance(v, np.void):
        return ("record", v.dtype.descr, v.tolist())
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.shape, v.tolist())
    if isinstance(v, tuple):
        return tuple(_canonical(x) for x in v)
    if isinstance(v, (list, dict)):
        return (type(v).__name__, repr(v))
    if isinstance(v, np.generic):  # NumPy scalars come back as Python numbers, as in Numba
        return ("value", v.item())
    return ("value", v)


def mixed(case, F, mahou):
    makers = _mixed_values()
    fn = getattr(F, f"mixed_{len(case['values'])}")
    want = outcome(fn, *[makers[i]() for i in case["values"]])
    got = outcome(mahou.njit(fn), *[makers[i]() for i in case["values"]])
    if want[0] == "value":
        want = ("value", _canonical(want[1]))
    if got[0] == "value":
        got = ("value", _canonical(got[1]))
    return verdict(got, want), f"values {case['values']}: mahou {got!r:.300}, reference {want!r:.300}"


REFUSALS = ("TypingError", "UnsupportedError")  # a feature mahou does not compile: counted, not a failure


def verdict(got, want):
    if got[0] == "raised" and got[1] in REFUSALS and want != got:
        return "refused"
    if same(got, want):
        return "ok"
    # How much memory an operation takes differs (a padded string is built as code points
    # in mahou): under the address-space limit one side may run out where the other does
    # not. A value is still checked against the other side's value when both have one.
    if "MemoryError" in (got[1], want[1]) and "raised" in (got[0], want[0]) and got[0] != want[0]:
        return "resource"
    return "mismatch"


def compare(compiled, fn, *args):
    want = outcome(fn, *args)
    got = outcome(compiled, *args)
    return verdict(got, want), f"mahou {got!r:.200}, reference {want!r:.200}"


def declared(case, F, mahou):
    spec = tuple(case["spec"])
    value, what = make_value(random.Random(case["value_seed"]))
    expect_ok = fits(value, spec)
    where = case["where"]
    scalar = getattr(mahou, spec[0])
    nbtype = {(1, "A"): lambda: scalar[:], (1, "C"): lambda: scalar[::1], (2, "A"): lambda: scalar[:, :],
              (2, "C"): lambda: scalar[:, ::1], (2, "F"): lambda: scalar[::1, :]}[spec[1:]]()
    try:
        if where == "jitclass":
            cls = mahou.experimental.jitclass([("a", nbtype)])(
                type("Holder", (), {"__init__": _holder_init, "total": _holder_total}))
            # A first value of the declared type itself (a 2x2 Fortran array is F only).
            h = cls(np.zeros((2,) * spec[1], dtype=spec[0], order="F" if spec[2] == "F" else "C"))
            h.a = value
            got = h.total()
        elif where == "typed_list":
            xs = mahou.typed.List.empty_list(nbtype)
            xs.append(value)
            got = mahou.njit(F.first_total)(xs)
        elif where == "typed_dict":
            d = mahou.typed.Dict.empty(key_type=mahou.types.int64, value_type=nbtype)
            d[1] = value
            got = mahou.njit(F.value_total)(d)
        elif where == "objmode":
            sys.modules["bad_input_values"].VALUE = value
            got = mahou.njit(getattr(F, f"om_{spec_name(spec)}"))()
        else:
            got = mahou.njit(f"{spec[0]}({type_text(spec)})")(F.total)(value)
    except (TypeError, ValueError) as e:
        status = "refused" if type(e).__name__ in REFUSALS else "mismatch" if expect_ok else "ok"
        return status, f"{where} {type_text(spec)} given {what}: refused ({type(e).__name__}: {e})"
    want = value.sum() if expect_ok else None
    ok = expect_ok and complex(got) == complex(want)
    return "ok" if ok else "mismatch", (f"{where} {type_text(spec)} given {what}: got {got!r}, "
                                        f"{'NumPy ' + repr(want) if expect_ok else 'must be refused'}")


def _holder_init(self, a):
    self.a = a


def _holder_total(self):
    return self.a.sum()


def deep(case, F, mahou):
    what, n = case["what"], case["n"]
    if what == "linked":
        g = globals()
        if "NODE" not in g:
            node_t = mahou.deferred_type()
            g["NODE"] = mahou.experimental.jitclass([("v", mahou.int64), ("nxt", mahou.optional(node_t))])(_node_class())
            node_t.define(g["NODE"].class_type.instance_type)
        got = mahou.njit(build_list)(n)
        return "ok" if got == n * (n - 1) // 2 else "mismatch", f"linked list of {n}: sum {got}"
    v = 1
    for _ in range(n):
        v = (v,) if what == "tuple" else [v]
    fn = F.depth if what == "tuple" else F.first
    want = outcome(fn, v)
    got = outcome(mahou.njit(fn), v)
    # Past mahou's nesting limit (256 levels) a TypeError is the documented answer.
    status = "ok" if n > 256 and got == ("raised", "TypeError") else verdict(got, want)
    return status, f"{what} nested {n}: {got[0]} {got[1]!r:.60}"


def iterate(case, F, mahou):
    fn = getattr(F, f"it_{case['op']}")
    changed = case["op"] in CHANGES_KEYS and case["at"] < case["size"]
    if case["where"] == "compiled":
        build = getattr(F, f"it_{case['op']}_build")
        status, detail = compare(mahou.njit(build), build, case["size"], case["at"])
        if status == "mismatch" and changed and detail.startswith("mahou ('raised', 'RuntimeError')"):
            status = "ok"
        return status, detail
    d_ref = {i: i * 10 for i in range(case["size"])}
    d = mahou.typed.Dict.empty(key_type=mahou.types.int64, value_type=mahou.types.int64)
    for k, v in d_ref.items():
        d[k] = v
    want = outcome(fn, d_ref, case["at"])
    got = outcome(fn, d, case["at"])  # the same Python code over the typed dict
    status = verdict(got, want)
    if status == "ok" and dict(d.items()) != d_ref:
        status = "mismatch"
    if status == "mismatch" and changed and got == ("raised", "RuntimeError"):
        status = "ok"
    return status, f"typed.Dict {case['op']}: {got}, dict {want}"


# ------------------------------------------------------------------ worker and driver

def worker(seed, start, count, workdir):
    import resource
    sys.path.insert(0, workdir)
    with open(os.path.join(workdir, "bad_input_values.py"), "w") as f:
        f.write("VALUE = None\n")
    path = os.path.join(workdir, "bad_input_funcs.py")
    with open(path, "w") as f:
        f.write(_functions_source())
    import numpy as np  # noqa: F401
    import mahou
    import bad_input_values  # noqa: F401
    import bad_input_funcs as F
    globals()["np"] = np
    if "asan" not in os.environ.get("LD_PRELOAD", ""):  # (AddressSanitizer reserves terabytes of shadow)
        limit = 4000 * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for index in range(start, start + count):
        print(json.dumps({"start": index}), flush=True)
        case = make_case(seed, index)
        try:
            status, detail = run_case(case, F, mahou)
        except Exception as e:  # noqa: BLE001  (the harness itself: reported, not hidden)
            status, detail = "harness", f"harness error {type(e).__name__}: {e}"
        print(json.dumps({"done": index, "status": status, "kind": case["kind"], "detail": detail[:400]}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--budget", type=float, default=0, help="stop after this many seconds (0: no limit)")
    ap.add_argument("--hang-seconds", type=float, default=120)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "build", "fuzz"))
    ap.add_argument("--verbose", action="store_true", help="also print the refused and resource cases")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    a = ap.parse_args()
    workdir = os.path.abspath(os.path.join(a.out, "bad_input"))
    os.makedirs(workdir, exist_ok=True)
    if a.worker:
        return worker(a.seed, a.start, a.count, workdir)
    t0 = time.time()
    counts, kinds, failures = collections.Counter(), collections.Counter(), []
    i = 0
    while i < a.cases and not (a.budget and time.time() - t0 > a.budget):
        count = min(a.batch, a.cases - i)
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", "--seed", str(a.seed),
                                 "--start", str(i), "--count", str(count), "--out", a.out],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        current, nxt = None, i
        while True:
            if not sel.select(timeout=a.hang_seconds):
                proc.kill()
                stuck = current if current is not None else nxt  # (or the worker never started one)
                counts["hang"] += 1
                failures.append(("hang", stuck, make_case(a.seed, stuck)))
                current, nxt = None, stuck + 1
                break
            line = proc.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            if "start" in msg:
                current = msg["start"]
                continue
            current, nxt = None, msg["done"] + 1
            counts[msg["status"]] += 1
            kinds[msg["kind"]] += 1
            if a.verbose and msg["status"] in ("refused", "resource"):
                print(f"  {msg['status']} {a.seed}-{msg['done']}: {msg['detail'][:300]}")
            if msg["status"] not in ("ok", "refused", "resource"):
                failures.append((msg["status"], msg["done"], msg["detail"]))
            if a.budget and time.time() - t0 > a.budget:
                proc.kill()
                break
        proc.wait()
        err = proc.stderr.read()
        if current is not None and not any(f[1] == current for f in failures):
            counts["crash"] += 1
            failures.append(("crash", current, f"{make_case(a.seed, current)} exit status {proc.returncode}: {err[-500:]}"))
            nxt = current + 1
        elif nxt == i:
            failures.append(("worker", i, err[-2000:]))
            break
        i = nxt
    print(f"bad_input: {sum(counts.values())} cases in {time.time() - t0:.0f} s (seed {a.seed}); " +
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
          " (" + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ")")
    for status, index, detail in failures:
        print(f"  FAILED {status} {a.seed}-{index}: {detail}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
