"""A StructRef (`Cell`: an int field `n` and a float field `v`; a plain class in the
reference): made in compiled code and passed in, fields read, written and changed with
op=; a caller's structure sees the writes (compared after the call)."""

from .core import FLOAT, INT, feature

CELL = ("cell",)


def cells(g):
    return g.vars_of(lambda v: v.type == CELL)


def field(g, t, depth):
    vs = cells(g)
    if not vs:
        return None
    return f"{g.rng.choice(vs).name}.{'n' if t == INT else 'v'}"


def new_cell(g, depth):
    name = g.fresh("c")
    text = f"Cell({g.expr(INT, 1)}, float({g.expr(FLOAT, 1)}))"
    g.declare(name, CELL, assignable=False)
    return [f"{name} = {text}"]


def store(g, depth):
    vs = cells(g)
    if not vs:
        return None
    c = g.rng.choice(vs).name
    if g.chance(0.5):
        if g.chance(0.4):
            return [f"{c}.n {g.rng.choice(['+=', '-=', '^='])} {g.expr(INT, 1)}"]
        return [f"{c}.n = {g.expr(INT, 1)}"]
    if g.chance(0.4):
        return [f"{c}.v {g.rng.choice(['+=', '*='])} float({g.expr(FLOAT, 1)})"]
    return [f"{c}.v = float({g.expr(FLOAT, 1)})"]


@feature("structs")
def register(reg):
    reg.add_expr(INT, 0.3, field)
    reg.add_expr(FLOAT, 0.3, field)
    reg.add_stmt(0.3, new_cell)
    reg.add_stmt(0.5, store)
    reg.add_param(0.2, lambda g: CELL)
