"""Fancy indexing: reads through boolean masks (`a[a > 0]`, any ndim, a 1-D result whose
length is known only at run time) and integer index arrays (literal or computed and
reduced into range; `a[rows, cols]` of 2-D arrays), and stores through them (`a[mask] =
v`, `a[idx] = v` of a scalar or of as many values as indices)."""

import numpy as np

from .core import INTS, Val, feature_module, kind, result_dtype
from .elementwise import compare, scalar
from .stmts import declare_value, float_to_int_guard, kind_of


def mask_of(g, v):
    if g.chance(0.5):
        c = compare(g, v.shape, 1)
        if c is not None:
            return c
    return g.array(v.shape, 1, dtypes=("bool",))


def index_array(g, n, length):
    """An int64 index array of `length` items into an axis of n (n > 0): a literal, or
    an integer expression reduced into range (negative indices too)."""
    if length == 0:
        return Val("np.zeros(0, dtype=np.int64)", "int64", (0,))
    if g.chance(0.5):
        items = ", ".join(str(g.rng.randrange(-n, n)) for _ in range(length))
        return Val(f"np.array([{items}])", "int64", (length,))
    e = g.array((length,), 1, dtypes=INTS)
    shift = f" - {n}" if g.chance(0.3) and not e.dtype.startswith("u") else ""
    return Val(f"(({e.text}) % {n}{shift})", result_dtype(np.remainder, e.dtype, "pyint"), (length,), e.bases)


def sources(g, ndim=None):
    return g.arrays(lambda v: v.shape is not None and None not in v.shape and not v.fragile
                    and (ndim is None or v.ndim == ndim))


def mask_read(g):
    vs = sources(g)
    if not vs:
        return None
    v = g.rng.choice(vs)
    m = mask_of(g, v)
    name = g.fresh("m")
    declare_value(g, name, Val(f"{v.text}[{m.text}]", v.dtype, (None,)))
    return [f"{name} = {v.text}[{m.text}]"]


def int_read(g):
    vs = [v for v in sources(g) if v.ndim in (1, 2) and all(v.shape)]
    if not vs:
        return None
    v = g.rng.choice(vs)
    length = g.rng.randint(0, 6)
    if v.ndim == 1:
        text = f"{v.text}[{index_array(g, v.shape[0], length).text}]"
    else:
        rows, cols = index_array(g, v.shape[0], length), index_array(g, v.shape[1], length)
        text = f"{v.text}[{rows.text}, {cols.text}]"
    name = g.fresh("x")
    declare_value(g, name, Val(text, v.dtype, (length,)))
    return [f"{name} = {text}"]


def mask_store(g):
    vs = [v for v in sources(g) if v.writable]
    if not vs:
        return None
    v = g.rng.choice(vs)
    m = mask_of(g, v)
    if m.bases & v.bases and not g.on("overlap"):
        return None
    if m.bases & v.bases and v.dtype == "bool":
        # the mask may be a view of the target itself: NumPy reads such a mask while it
        # stores (its answer depends on its iteration; docs/supported.md, intended
        # differences), where compiled code reads it first
        return None
    val = scalar(g, like=kind(v.dtype))
    if kind(v.dtype) != "f" and kind_of(val) != kind(v.dtype) or kind(v.dtype) == "f" and kind_of(val) == "c":
        return None
    g.wrote(v.bases)
    return [f"{v.text}[{m.text}] = {val.text}"]


def int_store(g):
    vs = [v for v in sources(g, ndim=1) if v.writable and v.shape[0]]
    if not vs:
        return None
    v = g.rng.choice(vs)
    length = g.rng.randint(1, 5)
    idx = index_array(g, v.shape[0], length)
    if g.chance(0.5):
        val = scalar(g, like=kind(v.dtype))
        if kind(v.dtype) != "f" and kind_of(val) != kind(v.dtype) or kind(v.dtype) == "f" and kind_of(val) == "c":
            return None
    else:
        val = g.array((length,), 1)
        if kind_of(val) == "c" and kind(v.dtype) != "c":
            return None
        val = float_to_int_guard(g, val, v.dtype)
    if (val.bases | idx.bases) & v.bases and not g.on("overlap"):
        return None
    g.wrote(v.bases)
    return [f"{v.text}[{idx.text}] = {val.text}"]


@feature_module("indexing")
def register(reg):
    reg.add_stmt(0.8, mask_read)
    reg.add_stmt(0.8, int_read)
    reg.add_stmt(0.7, mask_store)
    reg.add_stmt(0.7, int_store)
