"""Assignments between overlapping views of one buffer, which NumPy evaluates as if the
right-hand side were computed completely before the first store: shifted slices
(`y[1:] = y[:-1]`), reversed ones (`y[:] += 2.0 * np.flip(y)`), transposes of square
blocks (`a[:] = a.T`), in-place operators and stores through index arrays whose value
reads the target. (With this feature on, the other stores may read their target too.)"""

from .core import feature_module, kind, slice_for
from .stmts import INPLACE, kind_of, result_dtype


def targets(g, pred=lambda v: True):
    return g.arrays(lambda v: v.writable and not v.fragile and v.shape is not None and None not in v.shape
                    and v.ndim >= 1 and pred(v))


def shifted(g):
    """t[s1] (op)= f(t[s2]) along one axis, both of one length, in any directions."""
    vs = targets(g, lambda v: v.shape[0] >= 2)
    if not vs:
        return None
    v = g.rng.choice(vs)
    n = v.shape[0]
    want = g.rng.randint(1, n - 1) if n > 2 else 1
    a, b = slice_for(g.rng, n, want), slice_for(g.rng, n, want)
    rest = ", :" * (v.ndim - 1)
    src = f"{v.text}[{b}{rest}]"
    if g.chance(0.3):
        src = f"np.flip({src})" if v.ndim == 1 or g.chance(0.5) else f"{src}[::-1]"
    if g.chance(0.3) and kind(v.dtype) in "if":
        src = f"({src} * 2)"
    op = "="
    if g.chance(0.4):
        op, fn = g.rng.choice(INPLACE[:3])
        if result_dtype(lambda x, y: fn(x, y, out=x), v.dtype, v.dtype) is None:
            op = "="
    if op == "=" and v.ndim == 1 and not src.startswith("(") and not copies_as_numpy(n, a, b, src.startswith("np.flip")):
        src = f"({src} + 0)"  # NumPy does not copy this one (docs/supported.md, intended differences)
    g.wrote(v.bases)
    return [f"{v.text}[{a}{rest}] {op} {src}"]


def copies_as_numpy(n, a, b, flipped):
    """Whether NumPy's `y[a] = y[b]` (1-D, `flipped`: the source reversed) equals the
    copy-first answer: NumPy does not copy when both views step in one direction, and
    then iterates (forward, or backward when the source starts first), so a source with
    another step length is read after some of its elements were overwritten."""
    import numpy as np

    y = np.arange(n, dtype=np.float64)
    expected = y.copy()
    src = y[eval(f"np.s_[{b}]")]
    src = src[::-1] if flipped else src
    expected[eval(f"np.s_[{a}]")] = src.copy()
    y[eval(f"np.s_[{a}]")] = src
    return bool((y == expected).all())


def transposed(g):
    vs = targets(g, lambda v: v.ndim == 2 and min(v.shape) >= 2)
    if not vs:
        return None
    v = g.rng.choice(vs)
    k = g.rng.randint(2, min(v.shape))
    block = f"{v.text}[:{k}, :{k}]" if (k, k) != v.shape else v.text
    target = f"{block}[...]" if block == v.text else block
    src = g.rng.choice([f"{block}.T", f"np.transpose({block})", f"{block}[::-1].T", f"({block}.T + {block})"])
    g.wrote(v.bases)
    return [f"{target} {g.rng.choice(['=', '=', '+='])} {src}"]


def reversed_whole(g):
    vs = targets(g, lambda v: kind(v.dtype) in "if")
    if not vs:
        return None
    v = g.rng.choice(vs)
    flip = g.rng.choice([f"np.flip({v.text})", f"{v.text}[::-1]"])
    line = g.rng.choice([f"{v.text}[:] += 2 * {flip}", f"{v.text}[...] = {flip}", f"{v.text}[:] = {flip} - {v.text}"])
    g.wrote(v.bases)
    return [line]


def fancy(g):
    vs = targets(g, lambda v: v.ndim == 1 and v.shape[0] >= 1)
    if not vs:
        return None
    v = g.rng.choice(vs)
    n = v.shape[0]
    idx = ", ".join(str(g.rng.randrange(-n, n)) for _ in range(n))
    g.wrote(v.bases)
    return [f"{v.text}[np.array([{idx}])] = {v.text}[::-1]"]


@feature_module("overlap")
def register(reg):
    reg.add_stmt(1.5, shifted)
    reg.add_stmt(0.6, transposed)
    reg.add_stmt(0.6, reversed_whole)
    reg.add_stmt(0.3, fancy)
