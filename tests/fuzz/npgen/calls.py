"""Calls between a program's compiled functions: a later function calls an earlier one
with views and expressions of its parameters' dtypes and shapes (other layouts than the
inputs': another specialisation), for its results or for what it writes into them."""

from .core import NoValue, Var, feature_module


def arguments(g, f):
    args, bases = [], frozenset()
    for _, t in f.params:
        if t[0] != "array":
            return None
        try:
            v = g.array(t[2], 1, dtypes=(t[1],))
        except NoValue:
            return None
        if v.bases & bases and not g.on("overlap"):
            return None  # the callee could write one while reading another
        aliases = v.view or isinstance(v, Var)  # the callee's stores reach the caller's array
        if aliases and (v.bases & g.readonly or any(w.fragile and w.bases & v.bases for w in g.vars)):
            return None
        args.append(v)
        bases |= v.bases
    return args, bases


def call_result(g):
    fs = [f for f in g.callable if not f.tolerance]
    if not fs:
        return None
    f = g.rng.choice(fs)
    got = arguments(g, f)
    if got is None:
        return None
    args, _ = got
    return [(f"{f.name}({', '.join(a.text for a in args)})", None)]


def call_stmt(g):
    if not g.callable:
        return None
    f = g.rng.choice(g.callable)
    got = arguments(g, f)
    if got is None:
        return None
    args, bases = got
    g.wrote(bases)
    return [f"{f.name}({', '.join(a.text for a in args)})"]


@feature_module("calls")
def register(reg):
    reg.add_result(0.5, call_result)
    reg.add_stmt(0.4, call_stmt)
