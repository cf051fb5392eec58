"""Float to int casts at the edges (NaN, infinities, values past the target's range,
negative values to unsigned types) and complex to real casts, which NumPy defines by
what x86-64 does: with this feature on, the guards elsewhere are dropped and casts of
raw float inputs (which hold those values) are generated."""

from .core import FLOATS, INTS, Val, feature_module, np_name


def edge_cast(g, shape, depth):
    e = g.array(shape, depth, dtypes=FLOATS + ("complex128",))
    target = g.rng.choice(INTS + ("bool", "float32", "float64") if e.dtype == "complex128" else INTS)
    return Val(f"({e.text}).astype({np_name(target)})", target, shape, e.bases)


@feature_module("cast_edges")
def register(reg):
    reg.add_array(0.8, edge_cast)
