"""None and optional values: variables that are None on some paths and a number, a
bool or a string on others, `is None` / `is not None` tests (and the value used inside
`if x is not None:`), `x if x is not None else default`, conditional expressions with
None, `and`/`or` with an optional operand, and functions that return a value on some
paths and None on others; lists mixing values and None."""

from .core import BOOL, FLOAT, INT, STR, feature, indent, is_optional, leaf, optional_type, variable

VALUE_TYPES = [INT, FLOAT, BOOL, STR]


def optionals(g, t=None):
    return g.vars_of(lambda v: is_optional(v.type) and (t is None or v.type[1] == t))


@leaf
def none(g, t, depth):
    return "None"


def value(g, t, depth):
    return g.expr(t[1], depth)


def maybe(g, t, depth):
    value = g.expr(t[1], depth)
    cond = g.expr(BOOL, depth)
    return f"({value} if {cond} else None)" if g.chance(0.5) else f"(None if {cond} else {value})"


def value_or_default(g, t, depth):
    vs = optionals(g, t)
    if not vs:
        return None
    o = g.rng.choice(vs).name
    if g.chance(0.5):
        return f"({o} if {o} is not None else {g.expr(t, depth)})"
    return f"({g.expr(t, depth)} if {o} is None else {o})"


def or_and(g, t, depth):
    """`o or x` / `x and o` / `o and x` of an optional number or bool: None is false, and
    the operand whose truth decides is the value (an optional)."""
    if t[1] == STR:
        return None
    vs = optionals(g, t[1])
    if not vs:
        return None
    o, x = g.rng.choice(vs).name, g.expr(t[1], depth + 1)
    return g.rng.choice([f"({o} or {x})", f"({o} and {x})", f"({x} and {o})", f"({x} or {o})"])


def is_none(g, t, depth):
    vs = optionals(g)
    if not vs:
        return None
    return f"({g.rng.choice(vs).name} {g.rng.choice(['is', 'is not'])} None)"


def new_optional(g, depth):
    t = optional_type(g.rng.choice(VALUE_TYPES))
    name = g.fresh("o")
    cond, value = g.expr(BOOL, 1), g.expr(t[1], 1)
    g.declare(name, t)
    if g.chance(0.5):
        return [f"{name} = None", f"if {cond}:", f"    {name} = {value}"]
    return [f"{name} = {value}", f"if {cond}:", f"    {name} = None"]


def reassign(g, depth):
    vs = [v for v in optionals(g) if v.assignable]
    if not vs:
        return None
    v = g.rng.choice(vs)
    return [f"{v.name} = {g.expr(v.type, 0)}"]


def when_present(g, depth):
    """`if o is not None:` with o used as its value type inside."""
    if depth >= 3:
        return None
    vs = optionals(g)
    if not vs:
        return None
    v = g.rng.choice(vs)
    g.push()
    g.declare(v.name, v.type[1], assignable=False)
    body = g.stmts(depth + 1, g.rng.randint(1, 2))
    g.pop()
    lines = [f"if {v.name} is not None:"] + indent(body)
    if g.chance(0.4):
        g.push()
        lines += ["else:"] + indent(g.stmts(depth + 1, 1))
        g.pop()
    return lines


def list_of_optionals(g, depth):
    """A list display mixing values and None (a list of optionals), read item by item
    with `is not None` into a variable of the item type."""
    t = g.rng.choice([INT, FLOAT])
    targets = [v for v in g.vars_of(lambda v: v.type == t and v.assignable)]
    if not targets or g.loop_depth >= 2:
        return None
    acc = g.rng.choice(targets).name
    items = [g.expr(t, 1) for _ in range(g.rng.randint(1, 3))]
    items.insert(g.rng.randint(0, len(items)), "None")
    ys, y = g.fresh("ys"), g.fresh("y")
    return [f"{ys} = [{', '.join(items)}]", f"for {y} in {ys}:", f"    if {y} is not None:",
            f"        {acc} = {acc} + {y}"]


@feature("optionals")
def register(reg):
    reg.add_expr("optional", 2, none)
    reg.add_expr("optional", 3, variable)
    reg.add_expr("optional", 2, value)
    reg.add_expr("optional", 1, maybe)
    reg.add_expr("optional", 0.6, or_and)
    reg.add_expr(VALUE_TYPES, 0.4, value_or_default)
    reg.add_expr(BOOL, 0.4, is_none)
    reg.add_stmt(0.8, new_optional)
    reg.add_stmt(0.5, reassign)
    reg.add_stmt(0.6, when_present)
    reg.add_stmt(0.3, list_of_optionals)
    reg.add_return(1, lambda g: optional_type(g.rng.choice(VALUE_TYPES)))
