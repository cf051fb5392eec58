"""NumPy's indexing in full: subscripts that mix integers, slices, Ellipsis, np.newaxis /
None, literal boolean masks and integer index arrays (1-D and 2-D, literal or computed,
broadcast together) on arrays of any ndim, in reads (views when no index is an array,
new arrays otherwise) and stores (`a[ix] = v` and `a[ix] op= v` of a scalar or of an
array broadcast to the selection), and np.take / a.take / np.take_along_axis /
np.extract. NumPy itself gives the result's shape (the index applied to an empty array of
the same shape at generation time). Stores use distinct positions (which of two writes
to one element wins is not specified by NumPy for every form)."""

import numpy as np

from .core import INTS, Val, feature_module, kind, result_dtype
from .elementwise import scalar
from .indexing import index_array, sources
from .stmts import INPLACE, declare_value, float_to_int_guard, kind_of


class Part:
    """One index part: its source text and a stand-in NumPy indexes with for the shape."""

    def __init__(self, text, proto, advanced=False, bases=frozenset()):
        self.text, self.proto, self.advanced, self.bases = text, proto, advanced, frozenset(bases)


def int_array_part(g, n, shape, distinct):
    """An integer index array of `shape` into an axis of n: literal (negative entries
    too, any integer dtype at times) or computed (1-D)."""
    count = int(np.prod(shape))
    if distinct and count > n:
        return None
    if len(shape) == 1 and not distinct and g.chance(0.4):
        v = index_array(g, n, shape[0])
        return Part(v.text, np.zeros(shape, np.int64), True, v.bases)
    if distinct:
        picks = g.rng.sample(range(n), count)
        items = [p - n if g.chance(0.3) else p for p in picks]
    else:
        items = [g.rng.randrange(-n, n) for _ in range(count)]
    arr = np.array(items, dtype=np.int64).reshape(shape)
    dtype = "" if items else ", dtype=np.int64"
    if items and min(items) >= 0 and g.chance(0.3):
        dtype = ", dtype=np." + g.rng.choice(["uint8", "int16", "uint32", "int32"])
    return Part(f"np.array({arr.tolist()}{dtype})", arr, True)


def mask_part(g, n):
    bits = [g.chance(0.5) for _ in range(n)]
    return Part(f"np.array({bits})", np.array(bits, dtype=bool), True)


def build_index(g, v, store):
    """The parts of a subscript of v (or None): integers, slices, None, an Ellipsis and
    at most a few array indices (of one broadcast length)."""
    parts = []
    ndim = v.ndim
    ellipsis_at = g.rng.randrange(ndim + 1) if g.chance(0.2) else -1
    arrays = 0
    # the broadcast shape of the integer arrays (1-D, or 2-D at times)
    bshape = (g.rng.randint(0, 4),) if g.chance(0.75) else (g.rng.randint(1, 3), g.rng.randint(1, 3))
    if store and len(bshape) == 2:
        bshape = (bshape[0] * bshape[1],)
    masked = False
    for axis in range(ndim):
        if axis == ellipsis_at:
            parts.append(Part("...", Ellipsis))
            break  # the Ellipsis stands for the rest but the axes given after it
        n = v.shape[axis]
        if g.chance(0.15):
            parts.append(Part("None", None))
        r = g.rng.random()
        if r < 0.3 and (arrays < 2 or not store):
            shape = bshape
            if not store and len(bshape) == 1 and bshape[0] > 1 and arrays and g.chance(0.3):
                shape = (1,)  # a length-1 array broadcasts
            p = int_array_part(g, n, shape, store)
            if p is None:
                return None
            parts.append(p)
            arrays += 1
        elif r < 0.4 and not masked and not arrays:
            parts.append(mask_part(g, n))
            masked = True
            arrays += 1
        elif r < 0.6:
            k = g.rng.randrange(-n, n)
            parts.append(Part(str(k), k))
        else:
            from .core import slice_for

            want = g.rng.randint(0, n)
            text = slice_for(g.rng, n, want)
            parts.append(Part(text, eval(f"np.s_[{text}]")))
    if ellipsis_at >= 0:
        # a few trailing parts after the Ellipsis (indexing the last axes)
        rest = ndim - len([p for p in parts if p.proto is not None and p.proto is not Ellipsis])
        for axis in range(ndim - g.rng.randint(0, rest), ndim):
            k = g.rng.randrange(-v.shape[axis], v.shape[axis])
            parts.append(Part(str(k), k))
    if g.chance(0.1):
        parts.append(Part("None", None))
    if not parts:
        return None
    return parts


def subscript(parts):
    return ", ".join(p.text for p in parts)


def result_shape(v, parts):
    try:
        return np.empty(v.shape)[tuple(p.proto for p in parts)].shape
    except (IndexError, ValueError):
        return None


def mixed_read(g):
    vs = [v for v in sources(g) if v.ndim >= 1 and all(v.shape)]
    if not vs:
        return None
    v = g.rng.choice(vs)
    parts = build_index(g, v, store=False)
    if parts is None:
        return None
    shape = result_shape(v, parts)
    if shape is None:
        return None
    text = f"{v.text}[{subscript(parts)}]"
    advanced = any(p.advanced for p in parts)
    name = g.fresh("x")
    if shape == ():
        return None  # an element: the elementwise module's
    if advanced:
        bases = set(v.bases)
        for p in parts:
            bases |= p.bases
        declare_value(g, name, Val(text, v.dtype, tuple(shape), frozenset(bases)))
    else:
        declare_value(g, name, Val(text, v.dtype, tuple(shape), v.bases, view=True))
    return [f"{name} = {text}"]


def mixed_store(g):
    vs = [v for v in sources(g) if v.ndim >= 1 and v.writable and all(v.shape)]
    if not vs:
        return None
    v = g.rng.choice(vs)
    parts = build_index(g, v, store=True)
    if parts is None or not any(p.advanced for p in parts):
        return None
    shape = result_shape(v, parts)
    if shape is None:
        return None
    bases = frozenset().union(*[p.bases for p in parts])
    if g.chance(0.3):  # op=
        op, fn = g.rng.choice(INPLACE)
        val = scalar(g, like=kind(v.dtype)) if g.chance(0.5) or not shape else None
        if val is None:
            val = g.array(tuple(shape[g.rng.randint(0, len(shape) - 1):]), 1)
        if result_dtype(fn, v.dtype, val.dtype) is None or np.can_cast(result_dtype(fn, v.dtype, val.dtype), v.dtype,
                                                                        "same_kind") is False:
            return None
        if op in ("/=", "//=", "%=", "**=", "<<=", ">>=") and kind(v.dtype) != "f":
            return None  # integer division by zero, negative powers, shifts past the width: other features'
        if (val.bases | bases) & v.bases and not g.on("overlap"):
            return None
        g.wrote(v.bases)
        return [f"{v.text}[{subscript(parts)}] {op} {val.text}"]
    if g.chance(0.5) or not shape:
        val = scalar(g, like=kind(v.dtype))
        if kind(v.dtype) != "f" and kind_of(val) != kind(v.dtype) or kind(v.dtype) == "f" and kind_of(val) == "c":
            return None
    else:
        val = g.array(tuple(shape[g.rng.randint(0, len(shape) - 1):]), 1)  # not 0-d
        if kind_of(val) == "c" and kind(v.dtype) != "c":
            return None
        if kind(v.dtype) == "b" and kind_of(val) != "b":
            return None
        val = float_to_int_guard(g, val, v.dtype)
    if (val.bases | bases) & v.bases and not g.on("overlap"):
        return None
    g.wrote(v.bases)
    return [f"{v.text}[{subscript(parts)}] = {val.text}"]


def take_read(g):
    vs = [v for v in sources(g) if v.ndim >= 1 and all(v.shape)]
    if not vs:
        return None
    v = g.rng.choice(vs)
    size = int(np.prod(v.shape))
    r = g.rng.random()
    name = g.fresh("x")
    if r < 0.4:
        length = g.rng.randint(0, 5)
        idx = index_array(g, size, length)
        form = g.rng.choice([f"np.take({v.text}, {idx.text})", f"({v.text}).take({idx.text})"])
        declare_value(g, name, Val(form, v.dtype, (length,), v.bases | idx.bases))
        return [f"{name} = {form}"]
    if r < 0.7:
        axis = g.rng.randrange(v.ndim)
        n = v.shape[axis]
        k = g.rng.randint(0, 3)
        ishape = [d if g.chance(0.7) else 1 for d in v.shape]
        ishape[axis] = k
        if v.ndim > 3:
            return None
        arr = np.array([g.rng.randrange(-n, n) for _ in range(int(np.prod(ishape)))], dtype=np.int64).reshape(ishape)
        out = np.take_along_axis(np.empty(v.shape), arr, axis).shape
        axis_text = str(axis - v.ndim) if g.chance(0.3) else str(axis)
        itext = f"np.array({arr.tolist()}, dtype=np.int64)" if arr.size else f"np.zeros({tuple(ishape)}, dtype=np.int64)"
        form = f"np.take_along_axis({v.text}, {itext}, {axis_text})"
        declare_value(g, name, Val(form, v.dtype, tuple(out), v.bases))
        return [f"{name} = {form}"]
    cond = g.array(v.shape, 1, dtypes=("bool",) + INTS)
    form = f"np.extract({cond.text}, {v.text})"
    declare_value(g, name, Val(form, v.dtype, (None,), v.bases | cond.bases))
    return [f"{name} = {form}"]


@feature_module("mixed_index")
def register(reg):
    reg.add_stmt(0.8, mixed_read)
    reg.add_stmt(0.6, mixed_store)
    reg.add_stmt(0.3, take_read)
