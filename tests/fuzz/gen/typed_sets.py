"""typed.Set (`TypedSet`: mahou.typed.Set compiled, a Python set in the reference) with
int and str keys: made in Python (parameters) and in compiled code (`TypedSet()` then an
add, `TypedSet.empty(key type)`), add/discard/remove, `in`, len, `|`, `&`, `-`, `^` (typed
sets), their in-place forms, copy, comparisons, iteration (summed: order-independent,
CPython orders a set by hash), sorted(); typed sets as parameters and results."""

from .core import BOOL, INT, STR, feature, indent, leaf, list_type, variable
from .dicts import LIMIT, key_expr

KEYS = [INT, INT, STR]


def tset_type(k):
    return ("tset", k)


def is_tset(t):
    return isinstance(t, tuple) and t[0] == "tset"


def tsets(g, pred=lambda t: True):
    return g.vars_of(lambda v: is_tset(v.type) and pred(v.type))


def algebra(g, t, depth):
    op = g.rng.choice(["|", "&", "-", "^"])
    return f"({g.expr(t, depth)} {op} {g.expr(t, depth)})"


@leaf
def copied(g, t, depth):
    vs = tsets(g, lambda st: st == t)
    return f"{g.rng.choice(vs).name}.copy()" if vs else None


def new_tset(g, depth):
    t = tset_type(g.rng.choice(KEYS))
    name = g.fresh("ts")
    key_type = "INT_KEY" if t[1] == INT else "STR_KEY"
    if g.chance(0.4):
        lines = [f"{name} = TypedSet()", f"{name}.add({key_expr(g, t[1], 1)})"]  # the key type from the first key
    elif g.chance(0.5):
        k = g.fresh("k")
        g.push()
        g.declare(k, INT, assignable=False)
        key = f"({k} * {g.rng.randint(1, 3)}) % {g.rng.randint(2, 9)}" if t[1] == INT else f"str({k} % 4)"
        g.pop()
        lines = [f"{name} = TypedSet.empty({key_type})",
                 f"for {k} in range(({g.expr(INT, 1)}) % {g.rng.randint(2, 8)}):", f"    {name}.add({key})"]
    else:
        vs = tsets(g, lambda st: st == t)
        if not vs:
            return None
        lines = [f"{name} = {g.expr(t, 0)}"]
    g.declare(name, t)
    return lines


def change_tset(g, depth):
    vs = tsets(g)
    if not vs:
        return None
    s = g.rng.choice(vs)
    x, kt = s.name, s.type[1]
    form = g.rng.choice(["add", "add", "discard", "remove", "clear", "inplace"])
    if form == "add":
        return [f"if len({x}) < {LIMIT}:", f"    {x}.add({key_expr(g, kt, 1)})"]
    if form == "discard":
        return [f"{x}.discard({key_expr(g, kt, 1)})"]
    if form == "remove":
        return [f"{x}.remove({key_expr(g, kt, 1)})"]  # KeyError when absent, both
    if form == "clear":
        return [f"{x}.clear()"]
    if not s.assignable:
        return None
    op = g.rng.choice(["|=", "&=", "-=", "^="])
    return [f"if len({x}) < {LIMIT}:", f"    {x} {op} {g.expr(s.type, 1)}"]


def sum_over(g, depth):
    """`for k in s: acc += term(k)`: the same whatever order the keys come in."""
    if depth >= 3 or g.loop_depth >= 2:
        return None
    vs = tsets(g)
    accs = g.vars_of(lambda v: v.type == INT and v.assignable)
    if not vs or not accs:
        return None
    s, acc = g.rng.choice(vs), g.rng.choice(accs)
    k = g.fresh("k")
    if s.type[1] == INT:
        term = g.rng.choice([k, f"({k} % 5)", f"{k} * {k}", "1"])
    else:
        term = g.rng.choice([f"len({k})", f"ord({k}[0]) if {k} else 7", "1"])
    return [f"for {k} in {s.name}:", f"    {acc.name} += {term}"]


def int_of_tset(g, t, depth):
    vs = tsets(g)
    if not vs:
        return None
    s = g.rng.choice(vs)
    if s.type[1] == INT and g.chance(0.3):
        return f"{g.rng.choice(['min', 'max'])}(sorted({s.name}) + [{g.expr(INT, depth)}])"
    return f"len({s.name})"


def bool_of_tset(g, t, depth):
    vs = tsets(g)
    if not vs:
        return None
    s = g.rng.choice(vs)
    form = g.rng.choice(["in", "in", "eq", "subset", "truth"])
    if form == "in":
        return f"({key_expr(g, s.type[1], depth)} {g.rng.choice(['in', 'not in'])} {s.name})"
    if form == "truth":
        return f"(len({s.name}) == 0)"
    other = g.expr(s.type, depth)
    if form == "eq":
        return f"({s.name} {g.rng.choice(['==', '!='])} {other})"
    return g.rng.choice([f"({s.name} <= {other})", f"({s.name} < {other})", f"{s.name}.issubset({other})",
                         f"{s.name}.isdisjoint({other})", f"({s.name} >= {other})"])


def sorted_keys(g, t, depth):
    vs = tsets(g, lambda st: st[1] == t[1])
    return f"sorted({g.rng.choice(vs).name})" if vs else None


@feature("typed_sets")
def register(reg):
    reg.add_expr("tset", 4, variable)
    reg.add_expr("tset", 1.5, algebra)
    reg.add_expr("tset", 0.8, copied)
    reg.add_expr(INT, 0.4, int_of_tset)
    reg.add_expr(BOOL, 0.4, bool_of_tset)
    reg.add_expr("list", 0.3, sorted_keys)
    reg.add_stmt(0.7, new_tset)
    reg.add_stmt(0.8, change_tset)
    reg.add_stmt(0.4, sum_over)
    reg.add_param(0.4, lambda g: tset_type(g.rng.choice(KEYS)))
    reg.add_return(0.3, lambda g: tset_type(g.rng.choice(KEYS)))
