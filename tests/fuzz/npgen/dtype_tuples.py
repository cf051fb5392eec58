"""Arrays' dtypes in tuples, as results: `(a.dtype, b.dtype)` returned (a tuple of
np.dtype on both sides), its items compared with each other, with an array's dtype and
as tuples (`==`, `!=`), and passed as `dtype=` of np.zeros/np.ones/np.full/np.empty_like
(shape and dtype) and to astype; a and b are any array expressions of the program."""

from .core import DTYPES, Val, feature_module
from .stmts import float_to_int_guard, some_shape


def _array(g):
    for _ in range(5):
        shape = some_shape(g)
        if shape and None not in shape:
            return g.array(shape, dtypes=DTYPES)
    return None


def dtype_tuple(g):
    a, b = _array(g), _array(g)
    if a is None or b is None:
        return None
    t = f"(({a.text}).dtype, ({b.text}).dtype)"
    k = g.rng.randint(0, 1)
    form = g.rng.choice(["tuple", "compare", "compare", "zeros", "full", "astype", "nested"])
    if form == "tuple":
        return [(t, None)]
    if form == "nested":
        return [(f"({t}, {t}[::-1], {t}[{k}])", None)]
    if form == "compare":
        c = _array(g)
        if c is None:
            return None
        u = f"(({c.text}).dtype, ({a.text}).dtype)"
        return [(f"({t}[0] == {t}[1], {t}[{k}] != ({c.text}).dtype, {t} == {u}, {t} != {u})", None)]
    shape = a.shape
    if form == "zeros":
        fn = g.rng.choice(["zeros", "ones", "empty_like"])
        if fn == "empty_like":  # its values are not defined: the shape and dtype only
            return [(f"np.empty_like({a.text}, dtype={t}[{k}]).shape", None),
                    (f"np.empty_like({a.text}, dtype={t}[{k}]).dtype", None)]
        return [(f"np.{fn}({shape}, dtype={t}[{k}])", None)]
    if form == "full":
        return [(f"np.full({shape}, {g.rng.choice(['1', '0', '3'])}, dtype={t}[{k}])", None)]
    src = float_to_int_guard(g, a, b.dtype)  # astype(b.dtype): the cast_edges rule for floats to ints
    if src.dtype == "complex128" and b.dtype not in ("complex128",):
        return None  # complex to real: the cast_edges feature's
    return [(f"({src.text}).astype({t}[1])", None)]


@feature_module("dtype_tuples")
def register(reg):
    reg.add_result(0.4, dtype_tuple)
