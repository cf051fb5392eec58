"""bytes values: literals (escapes, NULs, high bytes), parameters, slices (with steps),
indexing to ints, iteration, `in` (an int, or a bytes), comparisons, `+` and `*` (of short
slices), find/rfind/count/startswith/endswith (with start/end), decode(), hash(), len,
truth, and `a.tobytes()` of int and bool arrays; bytes as results."""

from .core import BOOL, INT, STR, feature, indent, is_array, leaf, variable

BYTES = "bytes"
LITERALS = ['b""', 'b"a"', 'b"hello"', 'b"\\x00ab"', 'b"\\xff\\xfe"', 'b"a,b,,c"', 'b"ll"', 'b"l"',
            'b"\\xc3\\xa9t\\xc3\\xa9"', 'b"AbC 1\\t"']


@leaf
def literal(g, t, depth):
    return g.rng.choice(LITERALS)


def short(g, depth):
    return f"{g.expr(BYTES, depth)}[:{g.rng.randint(0, 5)}]"


def combine(g, t, depth):
    form = g.rng.choice(["concat", "concat", "repeat", "slice", "step", "cond", "tobytes"])
    if form == "concat":
        return f"({short(g, depth)} + {short(g, depth)})"
    if form == "repeat":
        return f"({short(g, depth)} * ({g.expr(INT, depth)} % 3))"
    if form == "tobytes":
        # int and bool items only: a NaN made in compiled code may differ in its sign bit
        arrays = g.vars_of(lambda v: is_array(v.type) and v.type[1] in ("int64", "int32", "uint8", "bool"))
        if not arrays:
            return None
        return f"{g.rng.choice(arrays).name}.tobytes()[:{g.rng.choice([3, 8, 40])}]"
    b = g.expr(BYTES, depth)
    if form == "slice":
        return f"{b}[{g.expr(INT, depth)}:{g.expr(INT, depth)}]"
    if form == "step":
        return f"{b}[::{g.rng.choice([-1, 2, -2, 3])}]"
    return f"({b} if {g.expr(BOOL, depth)} else {g.expr(BYTES, depth)})"


def bytes_to_int(g, t, depth):
    form = g.rng.choice(["len", "item", "item", "search", "hash"])
    if form == "len":
        return f"len({g.expr(BYTES, depth)})"
    if form == "item":
        v = g.var_of_type(BYTES)
        if v is None:
            return None
        return f"{v.name}[({g.expr(INT, depth)}) % len({v.name})]"  # ZeroDivisionError when empty, both
    if form == "hash":
        return f"hash({g.expr(BYTES, depth)})"
    bounds = f", {g.expr(INT, depth)}" if g.chance(0.3) else ""
    return f"{g.expr(BYTES, depth)}.{g.rng.choice(['find', 'rfind', 'count'])}({g.expr(BYTES, depth)}{bounds})"


def bytes_to_bool(g, t, depth):
    form = g.rng.choice(["cmp", "cmp", "in_int", "in_bytes", "search", "truth"])
    a = g.expr(BYTES, depth)
    if form == "cmp":
        return f"({a} {g.rng.choice(['==', '!=', '<', '<=', '>', '>='])} {g.expr(BYTES, depth)})"
    if form == "in_int":
        return f"(({g.expr(INT, depth)}) % 256 {g.rng.choice(['in', 'not in'])} {a})"
    if form == "in_bytes":
        return f"({short(g, depth)} {g.rng.choice(['in', 'not in'])} {a})"
    if form == "truth":
        return f"(not {a})" if g.chance(0.5) else f"bool({a})"
    bounds = f", {g.expr(INT, depth)}" if g.chance(0.3) else ""
    return f"{a}.{g.rng.choice(['startswith', 'endswith'])}({g.expr(BYTES, depth)}{bounds})"


def decoded(g, t, depth):
    # an invalid UTF-8 sequence: ValueError compiled, its subclass UnicodeDecodeError in
    # Python (documented; the worker takes the two as the same)
    return f"{g.expr(BYTES, depth)}.decode()"


def new_bytes(g, depth):
    name = g.fresh("b")
    value = g.expr(BYTES, 0)
    g.declare(name, BYTES)
    return [f"{name} = {value}"]


def extend_bytes(g, depth):
    vs = g.vars_of(lambda v: v.type == BYTES and v.assignable)
    if not vs:
        return None
    v = g.rng.choice(vs)
    if g.chance(0.5):
        return [f"{v.name} += {short(g, 1)}"]
    return [f"{v.name} = {g.expr(BYTES, 0)}"]


def loop_over(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    b = g.expr(BYTES, 1)
    x = g.fresh("c")
    g.push()
    g.loop_depth += 1
    g.declare(x, INT, assignable=False)
    body = g.stmts(depth + 1, g.rng.randint(1, 2))
    g.loop_depth -= 1
    g.pop()
    return [f"for {x} in {b}:"] + indent(body)


@feature("bytes")
def register(reg):
    reg.add_expr(BYTES, 3, literal)
    reg.add_expr(BYTES, 4, variable)
    reg.add_expr(BYTES, 3, combine)
    reg.add_expr(INT, 0.4, bytes_to_int)
    reg.add_expr(BOOL, 0.5, bytes_to_bool)
    reg.add_expr(STR, 0.2, decoded)
    reg.add_stmt(0.5, new_bytes)
    reg.add_stmt(0.4, extend_bytes)
    reg.add_stmt(0.2, loop_over)
    reg.add_param(0.5, lambda g: BYTES)
    reg.add_return(0.5, lambda g: BYTES)
