"""What a NumPy program's functions return: exact array expressions and reductions
(integer sums and products, min/max, argmin/argmax, any/all, cumsum, with and without
`axis=`; the NaN-ignoring nanmin/nanmax/nanargmin/nanargmax), compared bit for bit; and the values whose last bits are not NumPy's by
design, compared with a tolerance that the program records (TOLERANCE): float sums,
products and means (NumPy sums pairwise, compiled code in order, as Numba: a bound of
n * eps * sum(|x|), the scale returned next to the value) and transcendental ufuncs
(NumPy's SIMD loops and the libm differ in the last bits: a few units in the last
place)."""

from .core import FLOATS, INTS, Val, feature_module, kind, result_dtype
from .stmts import some_shape

import numpy as np

TRANSCENDENTAL = ["sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "arcsin", "arccos",
                  "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "cbrt", "deg2rad", "rad2deg"]


def exact_array(g):
    shape = some_shape(g)
    v = g.array(shape)
    return [(v.text, None)]


def axis_text(g, ndim):
    k = g.rng.randrange(ndim)
    return str(k - ndim if g.chance(0.3) else k)


def call_form(g, fname, e, axis=None, method=True):
    """np.fname(e[, axis=k]) or (e).fname([axis=k])."""
    args = f", axis={axis}" if axis is not None else ""
    if method and g.chance(0.5):
        return f"({e.text}).{fname}({args[2:]})"
    return f"np.{fname}({e.text}{args})"


def reduction(g):
    shape = some_shape(g)
    e = g.array(shape)
    k = kind(e.dtype)
    axis = axis_text(g, e.ndim) if e.ndim > 1 or g.chance(0.2) else None
    if None in e.shape:
        axis = None
    r = g.rng.random()
    if r < 0.25:
        name = g.rng.choice(["sum", "prod"])
        text = call_form(g, name, e, axis)
        if k in "ib":
            return [(text, None)]
        if name == "prod":
            return [(text, "rel")]
        # NumPy adds pairwise (8 partial sums from 8 items up), compiled code in order.
        return [(text, "sum"), (call_form(g, name, Val(f"np.abs({e.text})", e.dtype, e.shape), axis), None)]
    if r < 0.4:
        if k == "c":
            return None
        name = g.rng.choice(["min", "max", "amin", "amax"])
        text = call_form(g, name, e, axis, method=name in ("min", "max"))
        return [(f"({text} + 0.0)" if k == "f" else text, None)]
    if r < 0.55:
        if k == "c":
            return None
        return [(call_form(g, g.rng.choice(["argmin", "argmax"]), e, axis), None)]
    if r < 0.7:
        return [(call_form(g, g.rng.choice(["any", "all"]), e, axis), None)]
    if r < 0.85:
        name = g.rng.choice(["cumsum", "cumprod"])
        text = call_form(g, name, e)
        return [(text, None)]  # both accumulate in order
    name = "mean"
    text = call_form(g, name, e, axis)
    scale = call_form(g, name, Val(f"np.abs({e.text})", e.dtype, e.shape), axis)
    return [(text, "sum"), (scale, None)]


def transcendental(g):
    shape = some_shape(g)
    e = g.array(shape, dtypes=FLOATS + INTS)
    fn = g.rng.choice(TRANSCENDENTAL)
    if result_dtype(getattr(np, fn), e.dtype) is None:
        return None
    return [(f"np.{fn}({e.text})", "ulp")]


def nan_reduction(g):
    # NaN-ignoring reductions over the whole array (an all-NaN or empty array raises
    # ValueError for the arg forms, on both sides)
    shape = some_shape(g)
    e = g.array(shape, dtypes=FLOATS + INTS)
    name = g.rng.choice(["nanargmin", "nanargmax", "nanmin", "nanmax"])
    text = f"np.{name}({e.text})"
    if name in ("nanmin", "nanmax") and kind(e.dtype) == "f":
        text = f"({text} + 0.0)"
    return [(text, None)]


def complex_angle(g):
    shape = some_shape(g)
    e = g.array(shape, dtypes=("complex128", "float64"))
    return [(f"np.angle({e.text}, deg={g.chance(0.5)})", "ulp")]


def complex_abs(g):
    shape = some_shape(g)
    e = g.array(shape, dtypes=("complex128",))
    return [(f"np.abs({e.text})", "ulp")]


def float_power(g):
    shape = some_shape(g)
    a = g.array(shape, dtypes=FLOATS)
    # Not 0.5: NumPy computes `a ** 0.5` as np.sqrt (sqrt(-inf) is nan, pow's inf).
    b = g.rng.choice(["3", "-1", "2.5", "-0.5", "1.5"])
    return [(f"({a.text} ** {b})", "ulp")]


@feature_module("results")
def register(reg):
    reg.add_result(3, exact_array)
    reg.add_result(3, reduction)
    reg.add_result(1, transcendental)
    reg.add_result(0.3, float_power)
    reg.add_result(0.3, complex_abs)
    reg.add_result(0.3, nan_reduction)
    reg.add_result(0.2, complex_angle)
