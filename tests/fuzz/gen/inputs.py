"""Argument values for generated functions, as source text: edge cases of every
type (zero, signs, int64 extremes, NaN, infinities, -0.0) and arrays in every layout
compiled code meets (C, reversed, strided, Fortran-ordered, empty), strings (empty,
ASCII, accented, CJK, astral, digits, separators, lone surrogates), bytes, non-empty lists
and typed sets (an empty one from Python has no item type: a TypeError in compiled code as in
Numba), and arrays of U<n>/S<n> strings (items longer than the width truncated by NumPy)."""

from .core import BOOL, FLOAT, INT, STR, is_array, is_list, is_tuple, np_dtype

INTS = [0, 1, -1, 2, 3, 7, -13, 100, 255, 2**31, -(2**40), 2**62, -(2**63), 2**63 - 1]
FLOATS = ["0.0", "-0.0", "1.5", "-2.25", "1e300", "-1e-300", "math.inf", "-math.inf", "math.nan", "0.1"]


WORDS = ["", "a", "hello", "Hello World", "héllo", "日本語テキスト", "emoji 🙂!", "a,b,,c", "  pad\t", "123",
         "-42", "ß", "İstanbul", "l", "lone \ud800 surrogate", "\udcff"]


BYTES_WORDS = [b"", b"a", b"hello", b"\x00", b"a\x00b", b"\xff\x80", b"ll", b"a,b,,c", b"\xc3\xa9t\xc3\xa9",
               b"123 ", b"trailing\x00\x00"]


def int_text(rng):
    v = rng.choice(INTS) if rng.random() < 0.5 else rng.randint(-20, 20)
    return str(v)


def float_text(rng):
    if rng.random() < 0.5:
        return rng.choice(FLOATS)
    return repr(round(rng.uniform(-50, 50), rng.randint(0, 4)))


def element_text(rng, dtype):
    if dtype == "bool":
        return rng.choice(["True", "False"])
    if dtype in ("float64", "float32"):
        return float_text(rng) if rng.random() < 0.3 else repr(round(rng.uniform(-10, 10), 2))
    hi = {"uint8": 255, "int32": 2**31 - 1, "int64": 2**63 - 1}[dtype]
    lo = 0 if dtype == "uint8" else -hi - 1
    if rng.random() < 0.1:
        return str(rng.choice([lo, hi]))
    return str(rng.randint(max(lo, -9), min(hi, 9)))


def array_text(rng, dtype, ndim):
    layout = rng.choice(["C", "C", "reversed", "strided", "F", "empty"])
    if ndim == 1:
        n = 0 if layout == "empty" else rng.randint(1, 7)
        total = n * 2 if layout == "strided" else n
        base = f"np.array([{', '.join(element_text(rng, dtype) for _ in range(total))}], dtype={np_dtype(dtype)})"
        return {"reversed": base + "[::-1]", "strided": base + "[::2]"}.get(layout, base)
    rows = 0 if layout == "empty" else rng.randint(1, 4)
    cols = rng.randint(0 if layout == "empty" else 1, 4)
    rows_total = rows * 2 if layout == "strided" else rows
    nested = "[" + ", ".join("[" + ", ".join(element_text(rng, dtype) for _ in range(cols)) + "]"
                             for _ in range(rows_total)) + "]"
    base = f"np.array({nested}, dtype={np_dtype(dtype)}).reshape({rows_total}, {cols})"
    if layout == "F":
        return f"np.asfortranarray({base})"
    return {"reversed": base + "[::-1, ::-1]", "strided": base + "[::2]"}.get(layout, base)


def chararray_text(rng, kind, width):
    layout = rng.choice(["C", "C", "reversed", "strided", "empty"])
    n = 0 if layout == "empty" else rng.randint(1, 5) * (2 if layout == "strided" else 1)
    words = [rng.choice(BYTES_WORDS if kind == "S" else WORDS) for _ in range(n)]
    base = f"np.array([{', '.join(repr(w) for w in words)}], dtype=np.dtype('{kind}{width}'))"
    return {"reversed": base + "[::-1]", "strided": base + "[::2]"}.get(layout, base)


def input_text(rng, t):
    if t == INT:
        return int_text(rng)
    if t == FLOAT:
        return float_text(rng)
    if t == BOOL:
        return rng.choice(["True", "False"])
    if is_tuple(t):
        items = [input_text(rng, e) for e in t[1]]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if t == STR:
        return repr(rng.choice(WORDS))
    if isinstance(t, tuple) and t[0] == "set":
        return "{" + ", ".join(input_text(rng, t[1]) for _ in range(rng.randint(1, 5))) + "}"
    if isinstance(t, tuple) and t[0] == "tset":
        return "TypedSet([" + ", ".join(input_text(rng, t[1]) for _ in range(rng.randint(1, 5))) + "])"
    if t == ("cell",):
        return f"Cell({int_text(rng)}, {float_text(rng)})"
    if t == "bytes":
        return repr(rng.choice(BYTES_WORDS))
    if isinstance(t, tuple) and t[0] == "chararray":
        return chararray_text(rng, t[1], t[2])
    if is_list(t):
        return "[" + ", ".join(input_text(rng, t[1]) for _ in range(rng.randint(1, 6))) + "]"
    if is_array(t):
        return array_text(rng, t[1], t[2])
    raise ValueError(f"no inputs for {t}")
