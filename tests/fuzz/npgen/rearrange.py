"""NumPy's functions that rearrange arrays, as the compiled NumPy library gives them:
np.roll (flattened, or along an axis, negative shifts and axes too), np.transpose / .T
and np.swapaxes (views), np.fliplr / np.flipud (views), np.cumsum / np.cumprod of
an array flattened to the result's length (NumPy's accumulate: the first item as it is),
and broadcasting: np.broadcast_to and np.broadcast_arrays (read-only views of an array
with fewer or unit axes) and np.atleast_1d/2d/3d."""

import numpy as np

from .core import Val, Var, feature_module, kind, result_dtype


def _view_of(e, text, dtype, shape):
    view = e.view or isinstance(e, Var)
    out = Val(text, dtype, shape, e.bases, view=view)
    out.fragile = getattr(e, "fragile", False)
    return out


def roll(g, shape, depth):
    if None in shape or not shape:
        return None
    e = g.array(shape, depth)
    k = g.rng.randint(-7, 7)
    if g.chance(0.5):
        return Val(f"np.roll({e.text}, {k})", e.dtype, shape, e.bases)
    axis = g.rng.randrange(len(shape))
    if g.chance(0.3):
        axis -= len(shape)
    return Val(f"np.roll({e.text}, {k}, axis={axis})", e.dtype, shape, e.bases)


def transpose(g, shape, depth):
    if None in shape or len(shape) < 2:
        return None
    e = g.array(tuple(reversed(shape)), depth)
    text = f"{e.text}.T" if g.chance(0.5) else f"np.transpose({e.text})"
    return _view_of(e, text, e.dtype, shape)


def swapaxes(g, shape, depth):
    if None in shape or len(shape) < 2:
        return None
    i, j = sorted(g.rng.sample(range(len(shape)), 2))
    src = list(shape)
    src[i], src[j] = src[j], src[i]
    e = g.array(tuple(src), depth)
    return _view_of(e, f"np.swapaxes({e.text}, {i}, {j})", e.dtype, shape)


def flips(g, shape, depth):
    if None in shape or not shape:
        return None
    if len(shape) >= 2 and g.chance(0.5):
        e = g.array(shape, depth)
        return _view_of(e, f"np.fliplr({e.text})", e.dtype, shape)
    e = g.array(shape, depth)
    return _view_of(e, f"np.flipud({e.text})", e.dtype, shape)


def accumulate(g, shape, depth):
    if len(shape) != 1 or shape[0] is None:
        return None
    n = shape[0]
    rows = g.rng.choice([d for d in (1, 2, 3, 4) if n % d == 0])
    src = (rows, n // rows) if rows > 1 else (n,)
    e = g.array(src, depth)
    if kind(e.dtype) == "c" and g.chance(0.5):
        return None
    name = g.rng.choice(["cumsum", "cumprod"])
    fn = getattr(np, name)
    dtype = result_dtype(lambda x: fn(x), e.dtype)
    if dtype is None:
        return None
    text = f"np.{name}({e.text})" if g.chance(0.6) else f"({e.text}).{name}()"
    return Val(text, dtype, shape, e.bases)


def broadcast(g, shape, depth):
    # a read-only view of a smaller array (leading axes dropped, others of length 1)
    if None in shape or not shape:
        return None
    src = list(shape[g.rng.randint(0, len(shape) - 1):])
    for i in range(len(src)):
        if g.chance(0.4):
            src[i] = 1
    e = g.array(tuple(src), depth)
    r = g.rng.random()
    if r < 0.4:
        text = f"np.broadcast_to({e.text}, {tuple(shape)!r})"
    else:
        other = g.array(shape, depth)
        text = (f"np.broadcast_arrays({e.text}, {other.text})[0]" if r < 0.7
                else f"np.broadcast_arrays({other.text}, {e.text})[1]")
    # no store may reach its buffers through it (or through views of it) from here on; a
    # view of a temporary gets a buffer name of its own for that
    bases = e.bases or frozenset([g.fresh("readonly")])
    g.readonly |= bases
    out = Val(text, e.dtype, shape, bases, view=True)
    out.fragile = getattr(e, "fragile", False)
    return out


def atleast(g, shape, depth):
    if None in shape:
        return None
    if len(shape) == 1:
        e = g.array(shape, depth)
        return _view_of(e, f"np.atleast_1d({e.text})", e.dtype, shape)
    if len(shape) == 2 and shape[0] == 1:
        e = g.array(shape[1:], depth)
        return _view_of(e, f"np.atleast_2d({e.text})", e.dtype, shape)
    if len(shape) == 3 and shape[0] == 1 and shape[2] == 1:
        e = g.array(shape[1:2], depth)
        return _view_of(e, f"np.atleast_3d({e.text})", e.dtype, shape)
    return None


@feature_module("rearrange")
def register(reg):
    reg.add_array(0.3, roll)
    reg.add_array(0.3, transpose)
    reg.add_array(0.2, swapaxes)
    reg.add_array(0.2, flips)
    reg.add_array(0.3, accumulate)
    reg.add_array(0.3, broadcast)
    reg.add_array(0.1, atleast)
