"""NumPy arrays of fixed-width strings as parameters: `U<n>` items read as str and
written from str, `S<n>` items read as bytes and written from bytes (truncated to the
width and NUL-padded, as NumPy stores them), `+=` on an item, a slice stored with one
value, iteration, len; the arrays are compared with the reference's after each call."""

from .bytes_values import BYTES
from .core import INT, STR, feature, indent

WIDTHS = [1, 3, 5]


def chararray_type(kind, width):
    return ("chararray", kind, width)


def is_chararray(t):
    return isinstance(t, tuple) and t[0] == "chararray"


def arrays(g, kind=None):
    return g.vars_of(lambda v: is_chararray(v.type) and (kind is None or v.type[1] == kind))


def item_type(t):
    return STR if t[1] == "U" else BYTES


def index(g, a, depth):
    return f"({g.expr(INT, depth)}) % len({a})"  # ZeroDivisionError when empty, both


def item(g, t, depth):
    vs = arrays(g, "U" if t == STR else "S")
    if not vs:
        return None
    a = g.rng.choice(vs).name
    return f"{a}[{index(g, a, depth)}]"


def length(g, t, depth):
    vs = arrays(g)
    return f"len({g.rng.choice(vs).name})" if vs else None


def value(g, t, depth):
    """A value to store: a str or bytes (often longer than the width), or another item."""
    return g.expr(item_type(t), depth)


def store(g, depth):
    vs = arrays(g)
    if not vs:
        return None
    v = g.rng.choice(vs)
    a = v.name
    form = g.rng.choice(["item", "item", "augment", "slice"])
    if form == "item":
        return [f"if len({a}) > 0:", f"    {a}[{index(g, a, 1)}] = {value(g, v.type, 1)}"]
    if form == "augment":
        return [f"if len({a}) > 0:", f"    {a}[{index(g, a, 1)}] += {value(g, v.type, 1)}"]
    return [f"{a}[{g.rng.randint(0, 2)}:{g.rng.randint(1, 4)}] = {value(g, v.type, 1)}"]


def loop_over(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    vs = arrays(g)
    if not vs:
        return None
    v = g.rng.choice(vs)
    x = g.fresh("c")
    g.push()
    g.loop_depth += 1
    g.declare(x, item_type(v.type), assignable=False)
    body = g.stmts(depth + 1, g.rng.randint(1, 2))
    g.loop_depth -= 1
    g.pop()
    return [f"for {x} in {v.name}:"] + indent(body)


@feature("char_arrays")
def register(reg):
    reg.add_expr([STR, BYTES], 0.6, item)
    reg.add_expr(INT, 0.2, length)
    reg.add_stmt(0.7, store)
    reg.add_stmt(0.3, loop_over)
    reg.add_param(0.4, lambda g: chararray_type(g.rng.choice("US"), g.rng.choice(WIDTHS)))
