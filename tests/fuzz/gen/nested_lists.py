"""Lists of lists of tuples (`[[(k, x), ...], ...]`), returned to Python (a list of
lists of tuples there too) and kept in variables: nested comprehensions over ranges (the
inner one reading the outer one's variable), displays, rows appended (a row shared
between two places, then changed through one of them: both see it, as in Python), rows
and items read, a row's tuples unpacked in a loop, and `len` of rows. The tuples hold
ints, floats, bools and strings."""

from .core import BOOL, FLOAT, INT, STR, feature, is_list, is_tuple, list_type, tuple_type
from .lists import LIMIT, range_args

ITEM_TYPES = [(INT, FLOAT), (INT, INT), (BOOL, INT, FLOAT), (STR, INT), (FLOAT,)]


def rows_type(g):
    return list_type(list_type(tuple_type(*g.rng.choice(ITEM_TYPES))))


def is_rows(t):
    return is_list(t) and is_list(t[1]) and is_tuple(t[1][1])


def rows_of(g, t=None):
    vs = g.vars_of(lambda v: is_rows(v.type) and (t is None or v.type == t))
    return g.rng.choice(vs) if vs else None


def nested_comprehension(g, t, depth):
    """`[[(..j..k..) for k in range(...)] for j in range(...)]` of a rows type."""
    if not is_rows(t):
        return None
    j, k = g.fresh("j"), g.fresh("k")
    outer = f"range({g.rng.randint(0, 4)})" if g.chance(0.5) else f"range({range_args(g, depth)})"
    # the inner range reads j reduced: the outer range may start near 10**12 (range_args)
    inner = g.rng.choice([f"range({j} % 9)", f"range({j} % 11 - 3, {g.rng.randint(-2, 6)}, {g.rng.choice([1, 2, -1])})",
                          f"range({range_args(g, depth)})"])
    g.push()
    g.declare(j, INT, assignable=False)
    g.declare(k, INT, assignable=False)
    item = g.expr(t[1][1], depth)
    cond = f" if {g.expr(BOOL, depth)}" if g.chance(0.3) else ""
    g.pop()
    # Both loops bounded: the outer range's items are cut to a few rows.
    return f"[[{item} for {k} in {inner}{cond}] for {j} in {outer}][:{g.rng.randint(1, 6)}]"


def rows_display(g, t, depth):
    if not is_rows(t):
        return None
    rows = []
    for _ in range(g.rng.randint(1, 3)):
        rows.append("[" + ", ".join(g.expr(t[1][1], depth) for _ in range(g.rng.randint(1, 3))) + "]")
    return "[" + ", ".join(rows) + "]"


def row(g, t, depth):
    """A row (a list of tuples) read from a rows variable."""
    if not is_list(t) or not is_tuple(t[1]):
        return None
    v = rows_of(g, list_type(t))
    if v is None:
        return None
    return f"{v.name}[({g.expr(INT, depth)}) % len({v.name})]"  # ZeroDivisionError when empty, both


def row_tuple(g, t, depth):
    """A tuple of a row."""
    if not is_tuple(t):
        return None
    v = rows_of(g, list_type(list_type(t)))
    if v is None:
        return None
    return f"{v.name}[{g.rng.randint(-2, 1)}][{g.rng.randint(-2, 1)}]"  # IndexError, both


def row_lengths(g, t, depth):
    v = rows_of(g)
    if v is None:
        return None
    return f"sum([len(r) for r in {v.name}])" if g.chance(0.5) else f"len({v.name})"


def new_rows(g, depth):
    t = rows_type(g)
    name = g.fresh("rows")
    value = g.expr(t, 0)
    g.declare(name, t)
    return [f"{name} = {value}"]


def share_row(g, depth):
    """A row appended to a rows list, then changed through the variable that holds it:
    the rows list sees the change (one list object in both places)."""
    v = rows_of(g)
    if v is None:
        return None
    r = g.fresh("r")
    item = g.expr(v.type[1][1], 1)
    return [f"{r} = [{item}]",
            f"if len({v.name}) < {LIMIT}:",
            f"    {v.name}.append({r})",
            f"{r}.append({g.expr(v.type[1][1], 1)})",
            f"{r}[0] = {g.expr(v.type[1][1], 1)}"]


def unpack_rows(g, depth):
    """`for row in rows: for a, b in row:` summing an int or float item into a new variable."""
    if g.loop_depth >= 1:
        return None
    v = rows_of(g)
    if v is None:
        return None
    items = v.type[1][1][1]
    numeric = [i for i, e in enumerate(items) if e in (INT, FLOAT)]
    if not numeric:
        return None
    i = g.rng.choice(numeric)
    acc, r = g.fresh("acc"), g.fresh("row")
    names = [g.fresh("u") for _ in items]
    acc_type = items[i]
    g.declare(acc, acc_type)
    return [f"{acc} = {'0' if acc_type == INT else '0.0'}",
            f"for {r} in {v.name}:",
            f"    for {', '.join(names)}{',' if len(names) == 1 else ''} in {r}:",
            f"        {acc} = {acc} + {names[i]}"]


@feature("nested_lists")
def register(reg):
    reg.add_expr("list", 1.5, nested_comprehension)
    reg.add_expr("list", 0.8, rows_display)
    reg.add_expr("list", 0.8, row)
    reg.add_expr("tuple", 0.6, row_tuple)
    reg.add_expr(INT, 0.2, row_lengths)
    reg.add_stmt(0.4, new_rows)
    reg.add_stmt(0.3, share_row)
    reg.add_stmt(0.3, unpack_rows)
    reg.add_return(0.6, rows_type)
