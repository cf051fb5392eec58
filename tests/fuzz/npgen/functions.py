"""Results of the NumPy library functions compiled code implements in Python
(mahou/_library/numpy_functions.py) beyond the reductions and ufuncs: diff, ediff1d,
repeat, flatnonzero, nonzero, argwhere, trace, tril/triu, isclose/allclose/array_equal,
outer, vdot, convolve/correlate, kron, around, nansum/nanprod/nanmean, median/nanmedian,
percentile/quantile (and their nan forms), digitize; exact where NumPy's arithmetic is
elementwise, within a tolerance where it sums in another order or interpolates."""

from .core import FLOATS, INTS, Val, feature_module, kind
from .stmts import some_shape

NUMBERS = INTS + FLOATS


def operand(g, shape, dtypes, ndim=None):
    """An array of this shape and one of these dtypes, or None (a broadcast value, another ndim)."""
    e = g.array(shape, dtypes=dtypes)
    if not e.is_array or e.shape != shape or None in e.shape or (ndim is not None and len(shape) != ndim):
        return None
    return e


def shape_of(g, ndim):
    shapes = [s for s in g.shapes if len(s) == ndim]
    return g.rng.choice(shapes) if shapes else None


def exact(g):
    shape = some_shape(g)
    name = g.rng.choice(["diff", "ediff1d", "repeat", "flatnonzero", "nonzero", "argwhere"])
    e = operand(g, shape, NUMBERS if name in ("diff", "ediff1d") else None)
    if e is None:
        return None
    if name == "diff":
        n = g.rng.choice(["", ", n=2", ", n=0"])  # along the last axis (Numba's np.diff has no axis=)
        return [(f"np.diff({e.text}{n})", None)]
    if name == "repeat":
        return [(f"np.repeat({e.text}, {g.rng.randint(0, 3)})", None)]
    return [(f"np.{name}({e.text})", None)]


def two_d(g):
    shape = shape_of(g, 2)
    if shape is None:
        return None
    e = operand(g, shape, NUMBERS + ("bool",) if g.chance(0.5) else NUMBERS, 2)
    if e is None:
        return None
    name = g.rng.choice(["tril", "triu", "trace", "kron"])
    if name in ("tril", "triu"):
        k = g.rng.choice(["", ", -1", ", 1", ", k=2"])
        return [(f"np.{name}({e.text}{k})", None)]
    if kind(e.dtype) == "b":
        return None
    if name == "kron":
        other = operand(g, shape, (e.dtype,), 2)
        return [(f"np.kron({e.text}, {other.text})", None)] if other is not None else None
    if kind(e.dtype) == "f":
        return [(f"np.trace({e.text})", "sum"), (f"np.trace(np.abs({e.text}))", None)]
    return [(f"np.trace({e.text})", None)]


def compare(g):
    shape = some_shape(g)
    a, b = operand(g, shape, ("float64",)), operand(g, shape, ("float64",))
    if a is None or b is None:
        return None
    name = g.rng.choice(["isclose", "allclose", "array_equal"])
    if name == "array_equal":
        return [(f"np.array_equal({a.text}, {g.rng.choice([a.text, b.text])})", None)]
    tol = g.rng.choice(["", ", rtol=1e-3", ", atol=0.5", ", equal_nan=True"])
    return [(f"np.{name}({a.text}, {b.text}{tol})", None)]


def one_d_pair(g):
    shape = shape_of(g, 1)
    if shape is None:
        return None
    dtype = g.rng.choice(["int64", "float64", "int32"])
    a = operand(g, shape, (dtype,), 1)
    b = operand(g, g.rng.choice([shape, shape_of(g, 1)]), (dtype,), 1)
    if a is None or b is None:
        return None
    name = g.rng.choice(["outer", "vdot", "convolve", "correlate"])
    if name == "vdot" and a.shape != b.shape:
        return None
    text = f"np.{name}({a.text}, {b.text})"
    if name == "outer" or dtype != "float64":
        return [(text, None)]
    return [(text, "sum"), (f"np.{name}(np.abs({a.text}), np.abs({b.text}))", None)]


def rounded(g):
    shape = some_shape(g)
    e = operand(g, shape, FLOATS)
    if e is None:
        return None
    return [(f"np.around({e.text}, {g.rng.choice([0, 1, 2, -1])})", "ulp")]


def nan_statistics(g):
    shape = some_shape(g)
    e = operand(g, shape, ("float64",))
    if e is None:
        return None
    name = g.rng.choice(["nansum", "nanprod", "nanmean", "median", "nanmedian", "percentile", "quantile",
                         "nanpercentile", "nanquantile"])
    if name in ("nansum", "nanmean"):
        return [(f"np.{name}({e.text})", "sum"), (f"np.{name}(np.abs({e.text}))", None)]
    if name == "nanprod":
        return [(f"np.nanprod({e.text})", "rel")]
    if name in ("median", "nanmedian"):
        return [(f"np.{name}({e.text})", "ulp")]
    q = g.rng.choice([0, 50, 25, 100, 90]) if "percentile" in name else g.rng.choice([0.0, 0.5, 0.25, 1.0, 0.9])
    return [(f"np.{name}({e.text}, {q})", "ulp")]


def digitized(g):
    shape = some_shape(g)
    x = operand(g, shape, ("float64", "int64"))
    bins = shape_of(g, 1)
    b = operand(g, bins, ("float64",), 1) if bins else None
    if x is None or b is None:
        return None
    right = ", right=True" if g.chance(0.3) else ""
    # bins sorted: increasing (NaNs last, as np.sort puts them) or, reversed, decreasing
    order = g.rng.choice(["np.sort({})", "np.sort({})[::-1]"]).format(b.text)
    return [(f"np.digitize({x.text}, {order}{right})", None)]


@feature_module("functions")
def register(reg):
    # light weights: each function compiles the library's Python for its signature, and
    # the fixed-seed run of `make test` has 60 s
    reg.add_result(0.25, exact)
    reg.add_result(0.2, two_d)
    reg.add_result(0.15, compare)
    reg.add_result(0.15, one_d_pair)
    reg.add_result(0.1, rounded)
    reg.add_result(0.25, nan_statistics)
    reg.add_result(0.1, digitized)
