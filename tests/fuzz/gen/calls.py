"""Calls between the compiled functions of a program: each function may call those
generated before it (so the call graph has no cycles), with any argument types its
parameters take; arrays, lists and sets are passed by reference in both."""

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


@feature("calls")
def register(reg):
    for k in ("int", "float", "bool", "tuple", "str", "list", "optional", "dict", "set", "tset", "bytes"):
        reg.add_expr(k, 0.8, call)
