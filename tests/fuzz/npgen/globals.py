"""Global arrays: module-level arrays that several compiled functions read (frozen as
constants when a function is compiled, as in Numba; never written)."""

from .core import Var, feature_module
from .inputs import array_text


def module_arrays(b, when):
    if when != "before":
        return
    g = b.g
    for _ in range(g.rng.randint(0, 2)):
        name = f"G{len(g.globals)}"
        dtype = g.rng.choice(["float64", "float32", "int64", "int32", "uint8", "bool", "int16"])
        shape = g.rng.choice(g.shapes)
        b.module_lines.append(f"{name} = {array_text(g.rng, dtype, shape, 'C')}")
        var = Var(name, dtype, shape, frozenset([name]), view=False, writable=False)
        var.contig = True
        g.globals.append(var)
        g.readonly.add(name)


@feature_module("globals")
def register(reg):
    reg.program.append(module_arrays)
