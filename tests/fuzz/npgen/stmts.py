"""Statements of NumPy programs: a name bound to an array expression or a view (views
of views, reshape and ravel), stores into views (`a[1:, ::-1] = expr`), in-place
operators on views (`a[::2] += expr`, NumPy's same_kind rule) and element stores.
Without the `overlap` feature no store reads the buffer it writes except at the same
positions (`t[...] op= f(t[...])`): assignments between overlapping views are that
feature's."""

import numpy as np

from .core import FLOATS, INTS, Val, Var, feature_module, kind, result_dtype, slice_for
from .elementwise import scalar

INPLACE = [("+=", np.add), ("-=", np.subtract), ("*=", np.multiply), ("/=", np.true_divide),
           ("//=", np.floor_divide), ("%=", np.remainder), ("&=", np.bitwise_and), ("|=", np.bitwise_or),
           ("^=", np.bitwise_xor), ("**=", np.power), ("<<=", np.left_shift), (">>=", np.right_shift)]


def some_shape(g):
    """A shape for a new value: one of those in scope (so that arrays combine), a part of
    one, or the program's own."""
    shapes = [v.shape for v in g.arrays(lambda v: v.shape is not None and None not in v.shape)]
    r = g.rng.random()
    if shapes and r < 0.6:
        return g.rng.choice(shapes)
    if shapes and r < 0.8:
        s = g.rng.choice(shapes)
        return s[g.rng.randint(0, len(s) - 1):] if len(s) > 1 else s
    return g.rng.choice(g.shapes)


def declare_value(g, name, v, fragile=False, contig=False):
    if isinstance(v, Var):  # another name of the same array
        var = Var(name, v.dtype, v.shape, v.bases, True, v.writable, v.fragile)
        var.contig = getattr(v, "contig", False)
        return g.declare(var)
    writable = not (v.bases & g.readonly) if v.view else True
    fragile = fragile or getattr(v, "fragile", False)
    var = Var(name, v.dtype, v.shape, v.bases if v.view else frozenset([name]), v.view, writable, fragile)
    var.contig = contig
    return g.declare(var)


def assign(g):
    shape = some_shape(g)
    v = g.array(shape)
    name = g.fresh("v")
    declare_value(g, name, v)
    return [f"{name} = {v.text}"]


def reshaped(g):
    """reshape/ravel: a view of a C-contiguous array, a copy or a view otherwise, in
    NumPy as in compiled code; unless the array is known contiguous the result is
    fragile (no store to its buffer may come before a read of it)."""
    vs = g.arrays(lambda v: v.shape is not None and None not in v.shape)
    if not vs:
        return None
    v = g.rng.choice(vs)
    n = 1
    for d in v.shape:
        n *= d
    factors = [d for d in range(1, n + 1) if n % d == 0] or [0]
    form = g.rng.random()
    if form < 0.3:
        text, shape = (f"{v.text}.ravel()" if g.chance(0.6) else f"np.ravel({v.text})"), (n,)
    elif form < 0.4:
        text, shape = f"{v.text}.flatten()", (n,)
    else:
        a = g.rng.choice(factors)
        b = n // a if a else 0
        shape = (a, b) if g.chance(0.7) or not a else (a, b, 1)
        dims = list(shape)
        if g.chance(0.3) and n:
            dims[g.rng.randrange(len(dims))] = -1
        tup = ", ".join(map(str, dims))
        text = g.rng.choice([f"{v.text}.reshape({tup})", f"{v.text}.reshape(({tup}))", f"np.reshape({v.text}, ({tup}))"])
    name = g.fresh("v")
    if "flatten" in text:
        declare_value(g, name, Val(text, v.dtype, shape), contig=True)
    else:
        contig = getattr(v, "contig", False) and not v.view
        declare_value(g, name, Val(text, v.dtype, shape, v.bases, view=True), fragile=not contig)
    return [f"{name} = {text}"]


def copied(g):
    vs = g.arrays(lambda v: v.shape is not None)
    if not vs:
        return None
    v = g.rng.choice(vs)
    name = g.fresh("v")
    text = f"{v.text}.copy()" if g.chance(0.7) else f"np.copy({v.text})"
    declare_value(g, name, Val(text, v.dtype, v.shape), contig=True)
    return [f"{name} = {text}"]


def target_view(g):
    """A writable array in scope and a view of part of it to store into."""
    vs = g.arrays(lambda v: v.writable and not v.fragile and v.shape is not None and None not in v.shape)
    if not vs:
        return None, None
    v = g.rng.choice(vs)
    if g.chance(0.3):
        return v, Val(v.text, v.dtype, v.shape, v.bases, view=True)
    parts, shape = [], []
    for n in v.shape:
        if n and g.chance(0.15):
            parts.append(str(g.rng.randrange(-n, n)))
        else:
            want = g.rng.randint(0, n) if g.chance(0.3) else n
            parts.append(slice_for(g.rng, n, want))
            shape.append(want)
    text = f"{v.text}[{', '.join(parts)}]"
    if not shape:  # an element
        return v, Val(text, v.dtype, None, v.bases, view=True)
    return v, Val(text, v.dtype, tuple(shape), v.bases, view=True)


def value_for(g, target, depth=1):
    """A value to store into `target` (broadcasting to its shape; overlap rules)."""
    if target.shape is None:
        return scalar(g, like=kind(target.dtype)) if kind(target.dtype) != "b" else Val("True", "pybool")
    from .elementwise import operand

    v = operand(g, target.shape, depth)
    if v.bases & target.bases and not g.on("overlap"):
        return None
    return v


def float_to_int_guard(g, v, target_dtype):
    """A float value stored into or cast to an integer dtype: NaN, infinities and values
    out of range are the `cast_edges` feature's; without it the value is clipped."""
    if g.on("cast_edges") or kind(target_dtype) != "i" or kind_of(v) != "f":
        return v
    lo = "0.0" if target_dtype.startswith("u") else "-100.0"
    text = f"np.where(np.isfinite({v.text}), np.clip({v.text}, {lo}, 100.0), 0.0)" if v.shape else \
        f"(min(max({v.text}, {lo}), 100.0) if {v.text} == {v.text} else 0.0)"
    return Val(text, v.dtype, v.shape, v.bases)


def store(g):
    var, t = target_view(g)
    if t is None:
        return None
    if t.shape is None:
        if kind(t.dtype) == "c":
            return None
        v = scalar(g, like=kind(t.dtype))
        if kind(t.dtype) == "i" and v.dtype != "pyint" or kind(t.dtype) == "f" and v.dtype not in ("pyfloat", "pyint") \
                or kind(t.dtype) == "b" and v.dtype != "pybool":
            return None
    else:
        v = value_for(g, t)
        if v is None:
            return None
        if kind(t.dtype) != "c" and kind_of(v) == "c":
            return None
        v = float_to_int_guard(g, v, t.dtype)
    g.wrote(var.bases)
    return [f"{t.text} = {v.text}" if t.text != var.text or t.shape is None else f"{t.text}[...] = {v.text}"]


def kind_of(v):
    return {"pyint": "i", "pyfloat": "f", "pybool": "b", "pycomplex": "c"}.get(v.dtype) or kind(v.dtype)


def inplace(g):
    var, t = target_view(g)
    if t is None or t.shape is None:
        return None
    op, fn = g.rng.choice(INPLACE)
    if g.chance(0.3):  # the target's own elements, at the same positions
        v = Val(t.text, t.dtype, t.shape, t.bases)
        if g.chance(0.5):
            from .elementwise import operand

            w = operand(g, t.shape, 1)
            if w.bases & t.bases and not g.on("overlap"):
                return None
            v = Val(f"({v.text} * {w.text})", result_dtype(np.multiply, t.dtype, w.dtype), t.shape, t.bases | w.bases)
            if v.dtype is None:
                return None
    else:
        v = value_for(g, t)
        if v is None:
            return None
    if fn is np.power:
        if kind(t.dtype) != "i" or kind_of(v) != "i":
            return None
        v = Val(f"({v.text} % 4)", result_dtype(np.remainder, v.dtype, "pyint"), v.shape, v.bases)
    if fn in (np.left_shift, np.right_shift):
        if kind(t.dtype) != "i" or kind_of(v) != "i":
            return None
        v = Val(f"({v.text} % 8)", result_dtype(np.remainder, v.dtype, "pyint"), v.shape, v.bases)
    if v.dtype is None:
        return None
    # NumPy's same_kind rule for the result stored back (an int array `+=` a float raises).
    if result_dtype(lambda a, b: fn(a, b, out=a), t.dtype, v.dtype) is None:
        return None
    g.wrote(var.bases)
    return [f"{t.text} {op} {v.text}"]


@feature_module("stmts")
def register(reg):
    reg.add_stmt(4, assign)
    reg.add_stmt(1, reshaped)
    reg.add_stmt(0.5, copied)
    reg.add_stmt(2.5, store)
    reg.add_stmt(2, inplace)
