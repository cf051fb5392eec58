"""Array expressions: operators and ufuncs between arrays of one shape, arrays of other
ranks that broadcast (rows, columns of length 1), and Python scalars (weak, NEP 50);
np.where, np.clip, comparisons; the result dtype is NumPy's for the operands (asked of
NumPy on prototypes). Every value here is exact: the same bits in NumPy and in
compiled code (transcendental ufuncs, whose last bits are the libm's, are results
only: see results.py)."""

import numpy as np

from .core import FLOATS, INTS, Val, feature_module, kind, leaf, np_name, result_dtype, slice_for

# (text template, NumPy callable for the dtype, weight)
BINARY = [
    ("({a} + {b})", np.add, 3), ("({a} - {b})", np.subtract, 2), ("({a} * {b})", np.multiply, 3),
    ("({a} / {b})", np.true_divide, 1.5), ("({a} // {b})", np.floor_divide, 1), ("({a} % {b})", np.remainder, 1),
    ("({a} & {b})", np.bitwise_and, 0.7), ("({a} | {b})", np.bitwise_or, 0.7), ("({a} ^ {b})", np.bitwise_xor, 0.7),
    ("np.fmod({a}, {b})", np.fmod, 0.4), ("np.copysign({a}, {b})", np.copysign, 0.4),
    ("np.heaviside({a}, {b})", np.heaviside, 0.3), ("np.nextafter({a}, {b})", np.nextafter, 0.3),
    ("np.hypot({a}, {b})", np.hypot, 0.3), ("np.logical_and({a}, {b})", np.logical_and, 0.3),
    ("np.logical_xor({a}, {b})", np.logical_xor, 0.3), ("np.gcd({a}, {b})", np.gcd, 0.2),
    ("np.floor_divide({a}, {b})", np.floor_divide, 0.3), ("np.subtract({a}, {b})", np.subtract, 0.3),
]
# Minimum and maximum: among 0.0 and -0.0 NumPy's loops keep either (documented), so a
# float result gets `+ 0.0`.
MINMAX = [("np.minimum({a}, {b})", np.minimum), ("np.maximum({a}, {b})", np.maximum), ("np.fmin({a}, {b})", np.fmin),
          ("np.fmax({a}, {b})", np.fmax)]
COMPARE = [("({a} == {b})", np.equal), ("({a} != {b})", np.not_equal), ("({a} < {b})", np.less),
           ("({a} <= {b})", np.less_equal), ("({a} > {b})", np.greater), ("({a} >= {b})", np.greater_equal)]
UNARY = [
    ("(-{a})", np.negative, 1), ("(~{a})", np.invert, 0.5), ("abs({a})", np.abs, 0.6), ("np.abs({a})", np.abs, 0.4),
    ("np.sqrt({a})", np.sqrt, 0.6), ("np.square({a})", np.square, 0.5), ("np.floor({a})", np.floor, 0.4),
    ("np.ceil({a})", np.ceil, 0.4), ("np.trunc({a})", np.trunc, 0.4), ("np.rint({a})", np.rint, 0.4),
    ("np.isnan({a})", np.isnan, 0.3), ("np.isinf({a})", np.isinf, 0.3), ("np.isfinite({a})", np.isfinite, 0.3),
    ("np.signbit({a})", np.signbit, 0.3), ("np.logical_not({a})", np.logical_not, 0.3),
    ("np.positive({a})", np.positive, 0.2), ("np.negative({a})", np.negative, 0.2), ("np.conj({a})", np.conj, 0.2),
]


def scalar(g, like=None):
    """A Python scalar (weak): a literal, or a value read from an array in scope."""
    r = g.rng.random()
    reads = [v for v in g.arrays(lambda v: not v.fragile and v.shape and None not in v.shape and all(v.shape)
                                 and v.dtype in ("float64", "float32", "int64", "int32", "int16", "bool", "int8", "uint8"))]
    if reads and r < 0.3:
        v = g.rng.choice(reads)
        idx = ", ".join(str(g.rng.randrange(-n, n)) for n in v.shape)
        if kind(v.dtype) == "f":
            return Val(f"float({v.text}[{idx}])", "pyfloat", None, v.bases)
        if kind(v.dtype) == "b":
            return Val(f"bool({v.text}[{idx}])", "pybool", None, v.bases)
        return Val(f"(int({v.text}[{idx}]) % {g.rng.randint(2, 100)})", "pyint", None, v.bases)
    if like in ("f", "c") or (like is None and r < 0.65):
        return Val(g.rng.choice(["0.5", "2.0", "-1.5", "3.0", "0.0", "-0.0", "1e300", "np.nan", "np.inf", "-np.inf",
                                 "0.1", "1.0", "-7.25", "100.0"]), "pyfloat")
    if r < 0.7:
        return Val(g.rng.choice(["True", "False"]), "pybool")
    if r < 0.75 and like in (None, "c"):
        return Val(g.rng.choice(["1j", "(2 - 1j)", "(0.5 + 0j)"]), "pycomplex")
    return Val(str(g.rng.choice([0, 1, 2, 3, 5, 7, 10, 64, 100, 127])), "pyint")


def broadcast_shape(g, shape):
    """A shape that broadcasts to `shape`: itself, fewer leading axes, or ones."""
    if None in shape:
        return shape
    r = g.rng.random()
    if r < 0.65 or not shape:
        return shape
    if r < 0.85:
        return shape[g.rng.randint(1, len(shape) - 1):] if len(shape) > 1 else shape
    return tuple(1 if g.chance(0.5) else n for n in shape)


def operand(g, shape, depth, dtypes=None):
    if g.chance(0.25) and dtypes is None:
        return scalar(g)
    return g.array(broadcast_shape(g, shape), depth, dtypes)


def combine(g, template, fn, a, b):
    dtype = result_dtype(fn, a.dtype, b.dtype)
    if dtype is None:
        return None
    shape = a.shape if a.shape is not None and (b.shape is None or len(a.shape) >= len(b.shape)) else b.shape
    if shape is not None and a.shape is not None and b.shape is not None:
        shape = tuple(max(x, y) if None not in (x, y) else None for x, y in zip(a.shape[::-1], b.shape[::-1]))[::-1]
        longer = a.shape if len(a.shape) > len(b.shape) else b.shape
        shape = longer[:len(longer) - len(shape)] + shape
    return Val(template.format(a=a.text, b=b.text), dtype, shape, a.bases | b.bases)


def binary(g, shape, depth):
    if g.chance(0.15):
        template, fn = g.rng.choice(MINMAX)
    else:
        template, fn, _ = g.pick([(w, (t, f, w)) for t, f, w in BINARY])
    a = g.array(shape, depth) if g.chance(0.7) else operand(g, shape, depth)
    b = operand(g, shape, depth) if a.is_array else g.array(shape, depth)
    if g.chance(0.5):
        a, b = b, a
    if fn in (np.fmod, np.gcd) and "f" not in (kind_of(a), kind_of(b)):
        b = nonzero_int(b)
    v = combine(g, template, fn, a, b)
    if v is not None and fn in (np.minimum, np.maximum, np.fmin, np.fmax) and kind(v.dtype) == "c":
        return None  # compiled code has no complex minimum/maximum yet (a TypingError)
    if v is not None and fn in (np.minimum, np.maximum, np.fmin, np.fmax) and kind(v.dtype) == "f":
        v.text = f"({v.text} + 0.0)"
    return v if v is not None and v.shape == shape else None


def kind_of(v):
    return {"pyint": "i", "pyfloat": "f", "pybool": "b", "pycomplex": "c"}.get(v.dtype) or kind(v.dtype)


def nonzero_int(v):
    """np.fmod and np.gcd of integers by zero: 0 in NumPy, left out (an operand | 1)."""
    if v.dtype == "pyint":
        return Val(str(int(v.text) | 1) if v.text.isdigit() else f"({v.text} | 1)", "pyint", None, v.bases)
    return Val(f"({v.text} | 1)", result_dtype(np.bitwise_or, v.dtype, "pyint") or v.dtype, v.shape, v.bases)


def power(g, shape, depth):
    """Integer powers: the exponent reduced to 0..3 (NumPy raises for a negative one);
    float bases to a small integer power are exact (squaring), other float powers are
    results only (pow's last bit)."""
    # Not bool bases: NumPy computes `b ** 2` as np.square (int8), `b ** 3` as int64.
    a = g.array(shape, depth, dtypes=INTS)
    if g.chance(0.5):
        b = Val(str(g.rng.randint(0, 3)), "pyint")
    else:
        b0 = operand(g, shape, depth, dtypes=INTS)
        b = Val(f"({b0.text} % 4)", result_dtype(np.remainder, b0.dtype, "pyint"), b0.shape, b0.bases)
    return combine(g, "({a} ** {b})", np.power, a, b) if b.shape is None or len(b.shape) <= len(shape) else None


def shift(g, shape, depth):
    a = g.array(shape, depth, dtypes=INTS)
    if g.chance(0.5):
        b = Val(str(g.rng.randint(0, 7)), "pyint")
    else:
        b0 = operand(g, shape, depth, dtypes=INTS)
        b = Val(f"({b0.text} % 8)", result_dtype(np.remainder, b0.dtype, "pyint"), b0.shape, b0.bases)
    op = g.rng.choice([("({a} << {b})", np.left_shift), ("({a} >> {b})", np.right_shift)])
    v = combine(g, op[0], op[1], a, b)
    return v if v is not None and v.shape == shape else None


def compare(g, shape, depth):
    template, fn = g.rng.choice(COMPARE)
    a = g.array(shape, depth)
    b = operand(g, shape, depth)
    if "c" in (kind_of(a), kind_of(b)) and fn not in (np.equal, np.not_equal):
        return None
    if g.chance(0.5):
        a, b = b, a
    v = combine(g, template, fn, a, b)
    return v if v is not None and v.shape == shape else None


def unary(g, shape, depth):
    template, fn, _ = g.pick([(w, (t, f, w)) for t, f, w in UNARY])
    a = g.array(shape, depth)
    dtype = result_dtype(fn, a.dtype)
    if dtype is None or (fn is np.rint and kind(a.dtype) == "c"):  # complex rint: not compiled yet
        return None
    if fn is np.abs and kind(a.dtype) == "c":
        return None  # |z|: NumPy's SIMD loop and C's hypot differ in the last bit (a result: results.py)
    text = template.format(a=a.text)
    return Val(text, dtype, shape, a.bases)


def sign(g, shape, depth):
    # np.sign(-0.0) is -0.0 in compiled code (as Numba), 0.0 in NumPy: `+ 0.0` (documented).
    a = g.array(shape, depth, dtypes=INTS + FLOATS)
    if kind(a.dtype) == "f":
        return Val(f"(np.sign({a.text}) + 0.0)", a.dtype, shape, a.bases)
    return Val(f"np.sign({a.text})", a.dtype, shape, a.bases)


def where(g, shape, depth):
    c = g.array(shape, depth, dtypes=("bool",)) if g.chance(0.6) else compare(g, shape, depth)
    if c is None:
        return None
    x = operand(g, shape, depth)
    y = operand(g, shape, depth)
    dtype = result_dtype(lambda c_, x_, y_: np.where(c_, x_, y_), "bool", x.dtype, y.dtype)
    if dtype is None:
        return None
    return Val(f"np.where({c.text}, {x.text}, {y.text})", dtype, shape, c.bases | x.bases | y.bases)


def clip(g, shape, depth):
    a = g.array(shape, depth, dtypes=INTS + FLOATS)
    lo = scalar(g, like=kind(a.dtype))
    hi = scalar(g, like=kind(a.dtype))
    if lo.dtype == "pyint" and hi.dtype == "pyint" and lo.text.isdigit() and hi.text.isdigit() and int(lo.text) > int(hi.text):
        lo, hi = hi, lo
    dtype = result_dtype(lambda a_, l_, h_: np.clip(a_, l_, h_), a.dtype, lo.dtype, hi.dtype)
    if dtype is None or "pybool" in (lo.dtype, hi.dtype):
        return None
    text = f"np.clip({a.text}, {lo.text}, {hi.text})"
    if kind(dtype) == "f":
        text = f"({text} + 0.0)"  # the sign of a zero between min and max: NumPy's loops keep either
    return Val(text, dtype, shape, a.bases | lo.bases | hi.bases)


@leaf
def view(g, shape, depth):
    """A view of an array in scope with this shape: slices with steps (negative too)
    on its axes, integer indices on the axes it has beyond them, `.T` first at times."""
    if None in shape:
        vs = [v for v in g.arrays(lambda v: v.shape == shape and not v.fragile)]
        return g.rng.choice(vs) if vs else None
    cands = []
    for v in g.arrays(lambda v: v.shape is not None and None not in v.shape and v.ndim >= len(shape)):
        for transposed in (False, True) if v.ndim > 1 else (False,):
            s = tuple(reversed(v.shape)) if transposed else v.shape
            extra = len(s) - len(shape)
            if all(s[extra + k] >= n for k, n in enumerate(shape)) and all(s[:extra]):
                cands.append((v, transposed, s, extra))
    if not cands:
        return None
    v, transposed, s, extra = g.rng.choice(cands)
    if v.shape == shape and not transposed and g.chance(0.5):
        return v
    base = v.text
    if transposed:
        base = f"{base}.T" if g.chance(0.7) else f"np.transpose({base})"
    parts = [str(g.rng.randrange(-n, n)) for n in s[:extra]]
    parts += [slice_for(g.rng, s[extra + k], n) for k, n in enumerate(shape)]
    text = base if all(p == ":" for p in parts) and transposed else f"{base}[{', '.join(parts)}]"
    out = Val(text, v.dtype, shape, v.bases, view=True)
    out.fragile = v.fragile  # a view of a reshape that may be a copy: never stored through
    return out


@leaf
def fresh(g, shape, depth):
    """An array made here: np.zeros/ones/full/arange, of any dtype."""
    if None in shape:
        return None
    dtype = g.rng.choice(["float64", "float32", "int64", "int32", "uint8", "bool", "int16"])
    form = g.rng.random()
    shape_text = str(shape[0]) if len(shape) == 1 and g.chance(0.5) else str(tuple(shape))
    if form < 0.3:
        return Val(f"np.zeros({shape_text}, dtype={np_name(dtype)})", dtype, shape)
    if form < 0.5:
        return Val(f"np.ones({shape_text}, dtype={np_name(dtype)})", dtype, shape)
    if form < 0.75 and dtype != "bool":
        fill = g.rng.choice(["2", "7", "0"]) if kind(dtype) == "i" else g.rng.choice(["1.5", "-2.0", "np.nan", "0.25"])
        return Val(f"np.full({shape_text}, {fill}, dtype={np_name(dtype)})", dtype, shape)
    n = 1
    for d in shape:
        n *= d
    text = f"np.arange({n})" if len(shape) == 1 else f"np.arange({n}).reshape({tuple(shape)})"
    return Val(text, "int64", shape)


@feature_module("elementwise")
def register(reg):
    reg.add_array(4, view)
    reg.add_array(0.8, fresh)
    reg.add_array(3, binary)
    reg.add_array(0.5, power)
    reg.add_array(0.4, shift)
    reg.add_array(1, compare)
    reg.add_array(1.2, unary)
    reg.add_array(0.3, sign)
    reg.add_array(0.6, where)
    reg.add_array(0.5, clip)
