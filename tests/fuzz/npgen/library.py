"""NumPy library calls on arrays: np.concatenate (along any axis, negative too, and
flattened with axis=None; dtypes promoted), np.sort and a.sort() of 1-D arrays, np.flip,
and astype between every pair of dtypes (float to int of NaN, infinities and values out
of range only with the `cast_edges` feature)."""

import numpy as np

from .core import DTYPES, Val, Var, feature_module, kind, np_name, result_dtype
from .stmts import declare_value, float_to_int_guard


def concatenate(g, shape, depth):
    if None in shape or not shape:
        return None
    axis = g.rng.randrange(len(shape))
    n = shape[axis]
    cut = g.rng.randint(0, n)
    parts = []
    for m in (cut, n - cut):
        s = list(shape)
        s[axis] = m
        parts.append(g.array(tuple(s), depth))
    dtype = result_dtype(lambda a, b: np.concatenate((a, b)), parts[0].dtype, parts[1].dtype)
    if dtype is None:
        return None
    ax = axis - len(shape) if g.chance(0.3) else axis
    args = f"({parts[0].text}, {parts[1].text})"
    text = f"np.concatenate({args}, axis={ax})" if ax or g.chance(0.5) else f"np.concatenate({args})"
    return Val(text, dtype, shape, parts[0].bases | parts[1].bases)


def flattened(g, shape, depth):
    if len(shape) != 1 or shape[0] is None:
        return None
    # Two arrays of one ndim whose sizes add up to the length.
    n = shape[0]
    a = g.rng.randint(0, n)
    left = g.array((a,), depth)
    right = g.array((n - a,), depth)
    dtype = result_dtype(lambda x, y: np.concatenate((x, y)), left.dtype, right.dtype)
    if dtype is None:
        return None
    return Val(f"np.concatenate(({left.text}, {right.text}), axis=None)", dtype, shape, left.bases | right.bases)


def sort(g, shape, depth):
    if len(shape) != 1:
        return None
    e = g.array(shape, depth)
    if kind(e.dtype) == "c":
        return None
    # Equal 0.0 and -0.0 come out in either order from NumPy's sort: `+ 0.0` first.
    text = f"np.sort({e.text} + 0.0)" if kind(e.dtype) == "f" else f"np.sort({e.text})"
    return Val(text, e.dtype, shape, e.bases)


def flip(g, shape, depth):
    if None in shape:
        return None
    e = g.array(shape, depth)
    view = e.view or isinstance(e, Var)  # a view of a named array (a global: read-only)
    if not view and g.chance(0.5):
        return None
    out = Val(f"np.flip({e.text})", e.dtype, shape, e.bases, view=view)
    out.fragile = getattr(e, "fragile", False)
    return out


def astype(g, shape, depth):
    e = g.array(shape, depth)
    target = g.rng.choice(DTYPES)
    if kind(e.dtype) == "c" and kind(target) == "i" and not g.on("cast_edges"):
        return None  # the real part to an int: NaN and out-of-range values are cast_edges
    e = float_to_int_guard(g, e, target)
    return Val(f"({e.text}).astype({np_name(target)})", target, shape, e.bases)


def sort_in_place(g):
    vs = g.arrays(lambda v: v.writable and not v.fragile and v.shape is not None and len(v.shape) == 1
                  and None not in v.shape and kind(v.dtype) in "ib")
    if not vs:
        return None
    v = g.rng.choice(vs)
    g.wrote(v.bases)
    return [f"{v.text}.sort()"]


@feature_module("library")
def register(reg):
    reg.add_array(0.5, concatenate)
    reg.add_array(0.2, flattened)
    reg.add_array(0.4, sort)
    reg.add_array(0.4, flip)
    reg.add_array(0.8, astype)
    reg.add_stmt(0.3, sort_in_place)
