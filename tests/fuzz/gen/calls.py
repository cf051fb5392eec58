"""Calls between the compiled functions of a program: each function may call those
generated before it (so the call graph has no cycles), with any argument types its
parameters take; arrays, lists and sets are passed by reference in both. Also calls whose
value the use does not need (isinstance(f(...), int), f(...) is None): the call and what
it does to its arguments still happen."""

from .core import feature, is_array


def call(g, t, depth):
    fs = [f for f in g.callable if f.ret == t]
    if not fs:
        return None
    f = g.rng.choice(fs)
    args = []
    for _, pt in f.params:
        if is_array(pt) or pt[0] in ("chararray", "cell"):
            v = g.var_of_type(pt)
            if v is None:
                return None
            args.append(v.name)
        else:
            args.append(g.expr(pt, depth))
    return f"{f.name}({', '.join(args)})"


def unneeded_call(g, t, depth):
    """A bool decided by the called value's type alone; the call must still run."""
    inner = call(g, g.rng.choice(("int", "float", "bool", "str")), depth)
    if inner is None:
        return None
    if g.chance(0.5):
        return f"isinstance({inner}, {g.rng.choice(('int', 'float', 'bool', 'str'))})"
    return f"(({inner}) is {'not ' if g.chance(0.5) else ''}None)"


@feature("calls")
def register(reg):
    for k in ("int", "float", "bool", "tuple", "str", "list", "optional", "dict", "set", "tset", "bytes"):
        reg.add_expr(k, 0.8, call)
    reg.add_expr("bool", 0.3, unneeded_call)
