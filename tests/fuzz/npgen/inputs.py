"""Argument arrays of the NumPy generator, as source text: each dtype's edge values
(NaN, infinities, -0.0, huge and tiny floats, integer extremes) among small ones, in
every layout compiled code meets (C, Fortran, reversed, strided, offset, transposed)."""

import math

EDGE_FLOATS = ["np.nan", "np.inf", "-np.inf", "-0.0", "0.0", "1e300", "-1e-300", "0.5", "-2.5", "255.5", "-3.9",
               "2.0**31", "-(2.0**63)", "1e10"]
LIMITS = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1),
          "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1)}


def element(rng, dtype, edges):
    if dtype == "bool":
        return rng.choice(["True", "False"])
    if dtype in LIMITS:
        lo, hi = LIMITS[dtype]
        if edges and rng.random() < 0.12:
            return str(rng.choice([lo, hi, lo + 1, hi - 1]))
        return str(rng.randint(max(lo, -9), min(hi, 12)))
    if dtype in ("float32", "float64"):
        if edges and rng.random() < 0.15:
            return rng.choice(EDGE_FLOATS)
        return repr(rng.randint(-40, 40) / rng.choice([1, 2, 4, 8, 3, 10]))
    re_, im = element(rng, "float64", edges), element(rng, "float64", edges)
    return f"complex({re_}, {im})"


def array_text(rng, dtype, shape, layout, edges=True):
    """An ndarray of `shape` in `layout` (C, F, reversed, strided, offset)."""
    shape = tuple(shape)
    if not shape:
        return f"np.array({element(rng, dtype, edges)}, dtype={np_name(dtype)})"
    base_shape = list(shape)
    if layout == "strided":
        base_shape[0] = shape[0] * 2
    if layout == "offset":
        base_shape[-1] = shape[-1] + 1
    n = math.prod(base_shape)
    values = ", ".join(element(rng, dtype, edges) for _ in range(n))
    text = f"np.array([{values}], dtype={np_name(dtype)}).reshape({tuple(base_shape)})"
    if layout == "F":
        return f"np.asfortranarray({text})"
    if layout == "reversed":
        return text + "[" + ", ".join("::-1" for _ in shape) + "]"
    if layout == "strided":
        return text + "[::2]"
    if layout == "offset":
        return text + "[" + ", ".join(":" for _ in shape[:-1]) + ("," if len(shape) > 1 else "") + "1:]"
    if layout == "transposed" and len(shape) > 1:
        t = tuple(reversed(shape))
        values = ", ".join(element(rng, dtype, edges) for _ in range(math.prod(t)))
        return f"np.array([{values}], dtype={np_name(dtype)}).reshape({t}).T"
    return text


def layouts(ndim):
    return ["C", "C", "reversed", "strided", "offset"] + (["F", "transposed"] if ndim > 1 else [])


def np_name(dtype):
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"
