"""Statements: assignments (each variable keeps one type), augmented assignments,
if/elif/else, match statements (on ints: literal, value (`Level.MID`, an IntEnum), or-, as-,
capture and wildcard patterns, guards; on strings: literals; on tuples: sequence patterns
with literal, capture, wildcard and star items, of the tuple's length or not), bounded for and while loops with
break/continue, early returns, and try/except around code that can raise."""

from .core import BOOL, FLOAT, INT, SCALARS, STR, feature, indent, is_tuple

AUG_OPS = {INT: ["+=", "-=", "*=", "//=", "%=", "&=", "|=", "^="], FLOAT: ["+=", "-=", "*=", "/=", "//=", "%="]}
CAUGHT = ["ZeroDivisionError", "ArithmeticError", "Exception", "(ZeroDivisionError, IndexError)", "IndexError"]


def new_variable(g, depth):
    t = g.rng.choice(SCALARS + (INT, FLOAT))
    value = g.expr(t, 0)
    name = g.fresh()
    g.declare(name, t)
    return [f"{name} = {value}"]


def reassign(g, depth):
    vs = g.vars_of(lambda v: v.assignable and v.type in SCALARS)
    if not vs:
        return None
    v = g.rng.choice(vs)
    if v.type in AUG_OPS and g.chance(0.5):
        op = g.rng.choice(AUG_OPS[v.type])
        rhs_t = v.type if v.type == INT or g.chance(0.7) else INT
        return [f"{v.name} {op} {g.expr(rhs_t, 1)}"]
    return [f"{v.name} = {g.expr(v.type, 0)}"]


def if_stmt(g, depth):
    if depth >= 3:
        return None
    lines = [f"if {g.expr(BOOL, 1)}:"]
    g.push()
    lines += indent(g.stmts(depth + 1, g.rng.randint(1, 3)))
    g.pop()
    for _ in range(g.rng.randint(0, 1)):
        lines.append(f"elif {g.expr(BOOL, 1)}:")
        g.push()
        lines += indent(g.stmts(depth + 1, g.rng.randint(1, 2)))
        g.pop()
    if g.chance(0.5):
        lines.append("else:")
        g.push()
        lines += indent(g.stmts(depth + 1, g.rng.randint(1, 2)))
        g.pop()
    return lines


def match_stmt(g, depth):
    """`match` on an int: literal, or- and as-patterns, guards (reading a capture or
    not), and sometimes a last irrefutable case (`_` or a capture)."""
    if depth >= 3:
        return None

    def lit():
        if g.chance(0.2):
            return g.rng.choice(["Level.LOW", "Level.MID", "Level.HIGH"])  # a value pattern
        return str(g.rng.randint(-3, 9))

    lines = [f"match {g.expr(INT, 1)}:"]
    for _ in range(g.rng.randint(1, 4)):
        kind = g.rng.choice(["lit", "or", "as", "guard", "capture_guard"])
        g.push()
        if kind == "lit":
            head = f"case {lit()}:"
        elif kind == "or":
            head = f"case {' | '.join(lit() for _ in range(g.rng.randint(2, 3)))}:"
        elif kind == "guard":
            head = f"case {lit()} | {lit()} if {g.expr(BOOL, 1)}:"
        else:
            name = g.fresh("m")
            g.declare(name, INT)
            pattern = f"({lit()} | {lit()}) as {name}" if kind == "as" else name
            head = f"case {pattern}:" if kind == "as" else f"case {pattern} if {g.expr(BOOL, 1)}:"
        lines += indent([head] + indent(g.stmts(depth + 1, g.rng.randint(1, 2))))
        g.pop()
    if g.chance(0.5):
        g.push()
        if g.chance(0.5):
            head = "case _:"
        else:
            name = g.fresh("m")
            g.declare(name, INT)
            head = f"case {name}:"
        lines += indent([head] + indent(g.stmts(depth + 1, 1)))
        g.pop()
    return lines


STR_PATTERNS = ['""', '"a"', '"hello"', '"é"', '"ab"']


def match_str(g, depth):
    """`match` on a str: literal and or-patterns, a capture with a guard, a wildcard."""
    if depth >= 3:
        return None
    lines = [f"match {g.expr(STR, 1)}:"]
    for _ in range(g.rng.randint(1, 3)):
        g.push()
        if g.chance(0.3):
            name = g.fresh("m")
            g.declare(name, STR)
            head = f"case {name} if {g.expr(BOOL, 1)}:"
        else:
            head = f"case {' | '.join(g.rng.sample(STR_PATTERNS, g.rng.randint(1, 2)))}:"
        lines += indent([head] + indent(g.stmts(depth + 1, g.rng.randint(1, 2))))
        g.pop()
    if g.chance(0.4):
        g.push()
        lines += indent(["case _:"] + indent(g.stmts(depth + 1, 1)))
        g.pop()
    return lines


def item_pattern(g, t):
    """A pattern for one item of type t: a literal, a capture (declared) or `_`."""
    r = g.rng.random()
    if r < 0.35:
        if t == INT:
            return str(g.rng.randint(-2, 3))
        if t == BOOL:
            return g.rng.choice(["True", "False"])
        if t == FLOAT:
            return g.rng.choice(["0.0", "1.5", "-2.25"])
    if r < 0.7:
        name = g.fresh("m")
        g.declare(name, t)
        return name
    return "_"


def sequence_pattern(g, items):
    """A sequence pattern for a tuple of these item types: every item, or a star among
    them; sometimes of another length (it cannot match: pruned)."""
    form = g.rng.choice(["all", "all", "star_end", "star_start", "other_length"])
    if form == "all":
        parts = [item_pattern(g, t) for t in items]
    elif form == "star_end":
        k = g.rng.randint(0, len(items))
        parts = [item_pattern(g, t) for t in items[:k]] + ["*_"]
    elif form == "star_start":
        k = g.rng.randint(0, len(items))
        parts = ["*_"] + [item_pattern(g, t) for t in items[len(items) - k:]]
    else:
        parts = ["_"] * (len(items) + g.rng.choice([-1, 1]) if len(items) > 1 else 2)
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def match_tuple(g, depth):
    """`match` on a tuple: sequence patterns, or-patterns of them, `as` the whole, guards."""
    if depth >= 3:
        return None
    ts = g.vars_of(lambda v: is_tuple(v.type))
    if not ts:
        return None
    v = g.rng.choice(ts)
    items = list(v.type[1])
    lines = [f"match {v.name}:"]
    for _ in range(g.rng.randint(1, 3)):
        g.push()
        pattern = sequence_pattern(g, items)
        if g.chance(0.2):  # an or-pattern binds no names here: its alternatives are literal-only
            other = "(" + ", ".join(g.rng.choice(["_", "0", "1"]) if t == INT else "_" for t in items) + \
                    ("," if len(items) == 1 else "") + ")"
            g.pop()
            g.push()
            pattern = f"{other} | ({', '.join('_' for _ in items)}{',' if len(items) == 1 else ''})"
        if g.chance(0.2):
            name = g.fresh("w")
            g.declare(name, v.type)
            pattern = f"{pattern} as {name}"
        guard = f" if {g.expr(BOOL, 1)}" if g.chance(0.3) else ""
        lines += indent([f"case {pattern}{guard}:"] + indent(g.stmts(depth + 1, g.rng.randint(1, 2))))
        g.pop()
    if g.chance(0.4):
        g.push()
        lines += indent(["case _:"] + indent(g.stmts(depth + 1, 1)))
        g.pop()
    return lines


def bounded(g, limit):
    """An int expression in [0, limit]: how many times a loop runs."""
    return f"min(abs({g.expr(INT, 1)}) % {limit + 1}, {limit})" if g.chance(0.7) else str(g.rng.randint(0, limit))


def for_range(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    i = g.fresh("i")
    form = g.rng.choice(["stop", "start_stop", "step"])
    n = bounded(g, 9)
    if form == "stop":
        head = f"for {i} in range({n}):"
    elif form == "start_stop":
        head = f"for {i} in range({g.rng.randint(-3, 3)}, {n}):"
    else:
        head = f"for {i} in range({n}, {g.rng.randint(-4, 0)}, {g.rng.choice([-1, -2, -3])}):"
    g.push()
    g.declare(i, INT, assignable=False)
    g.loop_depth += 1
    body = g.stmts(depth + 1, g.rng.randint(1, 3))
    if g.chance(0.3):
        body += [f"if {g.expr(BOOL, 1)}:", "    " + g.rng.choice(["break", "continue"])]
    g.loop_depth -= 1
    g.pop()
    lines = [head] + indent(body)
    if g.chance(0.15):
        g.push()
        lines += ["else:"] + indent(g.stmts(depth + 1, 1))
        g.pop()
    return lines


def while_loop(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    w = g.fresh("w")
    g.declare(w, INT, assignable=False)
    limit = bounded(g, 8)
    lines = [f"{w} = 0", f"while {w} < {limit} and {g.expr(BOOL, 1)}:", f"    {w} += 1"]
    g.push()
    g.loop_depth += 1
    body = g.stmts(depth + 1, g.rng.randint(1, 3))
    if g.chance(0.3):
        body += [f"if {g.expr(BOOL, 1)}:", "    " + g.rng.choice(["break", "continue"])]
    g.loop_depth -= 1
    g.pop()
    return lines + indent(body)


def early_return(g, depth):
    if depth == 0 or g.current is None or g.current.ret is None or g.try_depth:
        return None
    return [f"if {g.expr(BOOL, 1)}:", f"    return {g.expr(g.current.ret, 1)}"]


def try_except(g, depth):
    if depth >= 2 or g.try_depth:
        return None
    g.try_depth += 1
    g.push()
    body = g.stmts(depth + 1, g.rng.randint(1, 3))
    g.pop()
    g.push()
    handler = g.stmts(depth + 1, 1)
    g.pop()
    g.try_depth -= 1
    caught = g.rng.choice(CAUGHT)
    lines = ["try:"] + indent(body) + [f"except {caught}:"] + indent(handler)
    if g.chance(0.2):
        g.push()
        lines += ["finally:"] + indent(g.stmts(depth + 1, 1))
        g.pop()
    return lines


def raise_stmt(g, depth):
    if depth == 0:
        return None
    exc = g.rng.choice(["ValueError", "IndexError", "ZeroDivisionError", "KeyError"])
    return [f"if {g.expr(BOOL, 1)}:", f"    raise {exc}(\"generated\")"]


@feature("control")
def register(reg):
    reg.add_stmt(5, new_variable)
    reg.add_stmt(5, reassign)
    reg.add_stmt(2.5, if_stmt)
    reg.add_stmt(1, match_stmt)
    reg.add_stmt(0.4, match_str)
    reg.add_stmt(0.5, match_tuple)
    reg.add_stmt(2, for_range)
    reg.add_stmt(1, while_loop)
    reg.add_stmt(1, early_return)
    reg.add_stmt(1, try_except)
    reg.add_stmt(0.4, raise_stmt)
