"""Lists of ints, floats, bools and strings: displays, `[]` refined by an append,
comprehensions (over ranges and other lists, with conditions; ranges with constant and
computed bounds and steps: negative, empty, near the edges of int64, up to 1,500 items,
a step of zero: ValueError), concatenation,
repetition, slices, copies and sorted(); item reads and stores, len, sum/min/max,
any/all, `in`, count/index, comparisons; the mutating methods (append, extend,
insert, pop, remove, del, clear, reverse, sort, slice assignment, +=); iteration
(plain, enumerate, reversed) with the list changed inside the loop; aliases
(`ys = xs`); lists as parameters (written back to the caller's list) and results.

Every statement that can grow a list is guarded by `len(xs) < LIMIT`, and the
expressions that build lists from lists take short slices, so that no loop can grow
a list without bound (not even a loop over the list it appends to)."""

from .core import BOOL, FLOAT, INT, STR, feature, indent, is_list, leaf, list_type, variable

LIMIT = 40
ITEMS = [INT, INT, FLOAT, BOOL, STR]
ORDERED = (INT, BOOL, STR)  # sortable without NaN's order questions
# CPython's list searches and comparisons take an item identical to the one sought as
# equal before comparing values (`[math.nan] == [math.nan]`, `math.nan in [math.nan]`),
# which compiled code (as Numba) does not: lists of floats are searched and compared
# only through their items.
SEARCHABLE = (INT, BOOL, STR)


def lists(g, item=None, assignable=False):
    return g.vars_of(lambda v: is_list(v.type) and (item is None or v.type[1] == item) and
                     (v.assignable or not assignable))


def a_list(g, item=None):
    vs = lists(g, item)
    return g.rng.choice(vs) if vs else None


def short(g, t, depth):
    """A list expression of type t cut to a few items."""
    return f"{g.expr(t, depth)}[:{g.rng.randint(0, 5)}]"


def small_count(g, depth):
    return f"({g.expr(INT, depth)}) % {g.rng.randint(2, 4)}"


# ---------------------------------------------------------------- list expressions

@leaf
def display(g, t, depth):
    items = [g.expr(t[1], depth) for _ in range(g.rng.randint(1, 4))]
    return "[" + ", ".join(items) + "]"


# Edges of int64 that a range may start near (its items stay in int64: the stop is a few
# steps away, never past the edge).
BIG = [2 ** 62, -(2 ** 62), 2 ** 63 - 40, -(2 ** 63) + 40, 10 ** 12]


def range_args(g, depth):
    """The arguments of a range of at most a few thousand items: constant or computed
    bounds, negative and large ones, steps of either sign, empty ranges, and a step that
    is zero (constant, or computed: ValueError, both)."""
    form = g.rng.choice(["small", "small", "bounds", "step", "computed", "zero", "empty", "big", "large"])
    if form == "small":
        return f"{small_count(g, depth)} + {g.rng.randint(0, 6)}"
    if form == "bounds":
        return f"{g.rng.randint(-8, 8)}, {g.rng.randint(-8, 12)}"
    if form == "step":
        step = g.rng.choice([-3, -2, -1, 1, 2, 3, 7])
        return f"{g.rng.randint(-12, 12)}, {g.rng.randint(-12, 12)}, {step}"
    if form == "computed":  # bounds from the program's ints, a step that may be zero
        lo = f"({g.expr(INT, depth)}) % 17 - 8"
        hi = f"({g.expr(INT, depth)}) % 23 - 6"
        return f"{lo}, {hi}, ({g.expr(INT, depth)}) % 5 - 2"
    if form == "zero":
        return f"{g.rng.randint(-3, 3)}, {g.rng.randint(-3, 6)}, 0"
    if form == "empty":
        a = g.rng.randint(-5, 5)
        return g.rng.choice([f"{a}, {a}", f"{a}, {a - 3}", f"{a}, {a + 3}, -1", "0", "-4"])
    if form == "big":  # near the edges of int64
        a = g.rng.choice(BIG)
        n, step = g.rng.randint(0, 6), g.rng.choice([1, 3, -1, -5])
        if (a > 0) == (step > 0):  # toward the edge: start far enough from it
            a -= step * (n + 1)
        return f"{a}, {a + step * n}, {step}"
    step = g.rng.choice([1, 7, -1, -13, 1009])  # large: hundreds to a thousand and more items
    a = g.rng.randint(-5000, 5000)
    return f"{a}, {a + step * g.rng.randint(200, 1500)}, {step}"


def comprehension(g, t, depth):
    x = g.fresh("k")
    source = a_list(g)
    if source is not None and g.chance(0.5):
        x_type, head = source.type[1], f"for {x} in {source.name}"
    else:
        x_type, head = INT, f"for {x} in range({range_args(g, depth)})"
    g.push()
    g.declare(x, x_type, assignable=False)
    item = g.expr(t[1], depth)
    cond = f" if {g.expr(BOOL, depth)}" if g.chance(0.4) else ""
    g.pop()
    return f"[{item} {head}{cond}]"


def derived(g, t, depth):
    form = g.rng.choice(["concat", "repeat", "slice", "step", "copy", "sorted", "range", "split", "cond"])
    if form == "concat":
        return f"({short(g, t, depth)} + {short(g, t, depth)})"
    if form == "repeat":
        return f"({short(g, t, depth)} * ({small_count(g, depth)}))"
    if form == "slice":
        return f"{g.expr(t, depth)}[{g.expr(INT, depth)}:{g.expr(INT, depth)}]"
    if form == "step":
        return f"{g.expr(t, depth)}[{g.rng.choice(['', '1', '-2'])}::{g.rng.choice([-1, 2, -2, 3])}]"
    if form == "copy":
        return f"{g.expr(t, depth)}.copy()" if g.chance(0.5) else f"list({g.expr(t, depth)})"
    if form == "sorted" and t[1] in ORDERED:
        rev = ", reverse=True" if g.chance(0.3) else ""
        return f"sorted({g.expr(t, depth)}{rev})"
    if form == "range" and t[1] == INT:
        if g.chance(0.5):
            return f"list(range({range_args(g, depth)}))"
        return f"list(range({g.rng.randint(-3, 3)}, {small_count(g, depth)} + {g.rng.randint(0, 6)}))"
    if form == "split" and t[1] == STR:
        sep = g.rng.choice(["", '","', '" "', '"l"'])
        return f"{g.expr(STR, depth)}.split({sep})"
    if form == "cond":
        return f"({g.expr(t, depth)} if {g.expr(BOOL, depth)} else {g.expr(t, depth)})"
    return None


# ---------------------------------------------------------------- item and scalar expressions

def item(g, t, depth):
    v = a_list(g, t)
    if v is None:
        return None
    form = g.rng.choice(["mod", "mod", "mod", "raw", "pop", "minmax"])
    if form == "mod":  # ZeroDivisionError on an empty list, both
        return f"{v.name}[({g.expr(INT, depth)}) % len({v.name})]"
    if form == "raw":  # IndexError out of range, both
        return f"{v.name}[{g.rng.randint(-4, 4)}]"
    if form == "pop":
        return f"{v.name}.pop()" if g.chance(0.6) else f"{v.name}.pop({g.rng.randint(-3, 3)})"
    return f"{g.rng.choice(['min', 'max'])}({v.name})"  # ValueError when empty, both


def int_of_list(g, t, depth):
    v = a_list(g)
    if v is None:
        return None
    form = g.rng.choice(["len", "len", "count", "index", "sum"])
    if form == "len":
        return f"len({v.name})"
    if v.type[1] not in SEARCHABLE:
        return None
    if form == "count":
        return f"{v.name}.count({g.expr(v.type[1], depth)})"
    if form == "index":
        return f"{v.name}.index({g.expr(v.type[1], depth)})"  # ValueError when absent, both
    if v.type[1] in (INT, BOOL):
        return f"sum({v.name})" if g.chance(0.6) else f"sum({v.name}, {g.expr(INT, depth)})"
    return None


def float_of_list(g, t, depth):
    v = a_list(g, FLOAT)
    # Left to right as CPython 3.11 adds; `+ 0.0`: CPython's sum of no floats is the int 0.
    if v is None:
        return None
    if g.chance(0.5):  # from a start value: left to right from it, as CPython adds
        return f"sum({v.name}, {g.expr(FLOAT, depth)})"
    return f"(sum({v.name}) + 0.0)"


def bool_of_list(g, t, depth):
    v = a_list(g)
    if v is None:
        return None
    form = g.rng.choice(["in", "in", "cmp", "anyall", "not"])
    if form in ("in", "cmp") and v.type[1] not in SEARCHABLE:
        return None
    if form == "in":
        return f"({g.expr(v.type[1], depth)} {g.rng.choice(['in', 'not in'])} {v.name})"
    if form == "cmp":
        op = g.rng.choice(["==", "!=", "<", "<=", ">", ">="])
        return f"({v.name} {op} {g.expr(v.type, depth)})"
    if form == "anyall":
        return f"{g.rng.choice(['any', 'all'])}({v.name})"
    return f"(not {v.name})"


# ---------------------------------------------------------------- statements

def new_list(g, depth):
    t = list_type(g.rng.choice(ITEMS))
    name = g.fresh("xs")
    if g.chance(0.15):
        value = g.expr(t[1], 1)
        g.declare(name, t)
        return [f"{name} = []", f"{name}.append({value})"]
    value = g.expr(t, 0)
    g.declare(name, t)
    return [f"{name} = {value}"]


def alias(g, depth):
    v = a_list(g)
    if v is None:
        return None
    name = g.fresh("xs")
    g.declare(name, v.type)
    return [f"{name} = {v.name}"]


def grow(g, depth):
    v = a_list(g)
    if v is None:
        return None
    x, t = v.name, v.type
    form = g.rng.choice(["append", "append", "extend", "insert", "iadd", "setslice"])
    if form == "append":
        line = f"{x}.append({g.expr(t[1], 1)})"
    elif form == "extend":
        line = f"{x}.extend({g.expr(t, 1)})"
    elif form == "insert":
        line = f"{x}.insert({g.expr(INT, 1)}, {g.expr(t[1], 1)})"
    elif form == "iadd":
        if not v.assignable:
            return None
        line = f"{x} += {short(g, t, 1)}"
    else:
        line = f"{x}[{g.expr(INT, 1)}:{g.expr(INT, 1)}] = {short(g, t, 1)}"
    return [f"if len({x}) < {LIMIT}:", f"    {line}"]


def change(g, depth):
    v = a_list(g)
    if v is None:
        return None
    x, t = v.name, v.type
    form = g.rng.choice(["store", "store", "pop", "del", "delslice", "remove", "clear", "reverse", "sort",
                         "reassign"])
    if form == "store":
        return [f"{x}[({g.expr(INT, 1)}) % len({x})] = {g.expr(t[1], 1)}"]
    if form == "pop":
        return [f"if {x}:", f"    {x}.pop({g.rng.choice(['', '0', '-1'])})"]
    if form == "del":
        return [f"del {x}[{g.rng.randint(-3, 3)}]"]
    if form == "delslice":
        return [f"del {x}[{g.expr(INT, 1)}:{g.expr(INT, 1)}]"]
    if form == "remove" and t[1] in SEARCHABLE:
        return [f"{x}.remove({g.expr(t[1], 1)})"]
    if form == "remove":
        return None
    if form == "clear":
        return [f"{x}.clear()"]
    if form == "reverse":
        return [f"{x}.reverse()"]
    if form == "sort" and t[1] in ORDERED:
        return [f"{x}.sort({'reverse=True' if g.chance(0.3) else ''})"]
    if form == "reassign" and v.assignable:
        return [f"{x} = {g.expr(t, 0)}"]
    return None


def loop_over(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    v = a_list(g)
    if v is None:
        return None
    x = g.fresh("x")
    form = g.rng.choice(["plain", "plain", "enumerate", "reversed"])
    g.push()
    g.loop_depth += 1
    g.declare(x, v.type[1], assignable=False)
    if form == "enumerate":
        i = g.fresh("i")
        g.declare(i, INT, assignable=False)
        head = f"for {i}, {x} in enumerate({v.name}):"
    elif form == "reversed":
        head = f"for {x} in reversed({v.name}):"
    else:
        head = f"for {x} in {v.name}:"
    body = g.stmts(depth + 1, g.rng.randint(1, 3))
    g.loop_depth -= 1
    g.pop()
    return [head] + indent(body)


def list_param(g):
    return list_type(g.rng.choice(ITEMS))


@feature("lists")
def register(reg):
    reg.add_expr("list", 4, variable)
    reg.add_expr("list", 2, display)
    reg.add_expr("list", 1.5, comprehension)
    reg.add_expr("list", 2, derived)
    reg.add_expr([INT, FLOAT, BOOL, STR], 1.2, item)
    reg.add_expr(INT, 0.8, int_of_list)
    reg.add_expr(FLOAT, 0.3, float_of_list)
    reg.add_expr(BOOL, 0.8, bool_of_list)
    reg.add_stmt(1.2, new_list)
    reg.add_stmt(0.3, alias)
    reg.add_stmt(1.5, grow)
    reg.add_stmt(1.2, change)
    reg.add_stmt(0.6, loop_over)
    reg.add_param(1.2, list_param)
    reg.add_return(1.5, list_param)
