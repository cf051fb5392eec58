"""Dicts and sets with int and str keys (float keys would bring NaN's identity rules):
displays, comprehensions, set() of lists and dicts, copies; `d[k]` (KeyError
both), `get` (with and without a default), `pop`, `setdefault`, `in`, `len`,
`sum`/`min`/`max` of keys and values, comparisons; stores, `del`, `update`, `clear`,
augmented stores `d[k] += v`; literal dicts (string-constant keys, values of different
types) read with constant keys, `get`, `in` and `len`, and walked with literal_unroll over
the dict, its values() or its items(); iteration over keys, values and items (the dict changed
inside the loop: RuntimeError in both when its size changes); set algebra (`|`, `&`,
`-`, `^`), `add`, `discard`, `remove`, subset and disjoint tests; sets as parameters
and results, dicts as results.

Sets are iterated only through `sorted()`: CPython orders a set by hash, compiled
code by insertion. Every statement that can grow a container is guarded by a length
limit."""

from .core import BOOL, FLOAT, INT, STR, feature, indent, leaf, list_type, variable

LIMIT = 40
KEYS = [INT, INT, STR]
VALUES = [INT, FLOAT, BOOL, STR]


def dict_type(k, v):
    return ("dict", k, v)


def set_type(k):
    return ("set", k)


def is_dict(t):
    return isinstance(t, tuple) and t[0] == "dict"


def is_set(t):
    return isinstance(t, tuple) and t[0] == "set"


def dicts(g, pred=lambda t: True):
    return g.vars_of(lambda v: is_dict(v.type) and pred(v.type))


def sets(g, pred=lambda t: True):
    return g.vars_of(lambda v: is_set(v.type) and pred(v.type))


def small_count(g, depth):
    return f"({g.expr(INT, depth)}) % {g.rng.randint(2, 5)}"


def key_expr(g, k, depth):
    """A key likely to be present or near the present ones: small ints, short strings."""
    if k == INT:
        return f"(({g.expr(INT, depth)}) % 7)" if g.chance(0.7) else g.expr(INT, depth)
    if g.chance(0.3):
        return f"{g.expr(STR, depth)}[:2]"
    return g.rng.choice(['"a"', '"b"', '"ab"', '""', '"é"', '"🙂"'])


# ---------------------------------------------------------------- dict expressions

def literal_dict_item(g, t, depth):
    # `{'y': 1.5, 'x': e, 'w': 'ab'}['x']`: string-constant keys, values with no common type
    # (a literal dict), read with a constant key, `get` (a present or absent key), `in`, len
    items = [("x", g.expr(t, depth + 1)), ("w", repr(g.rng.choice(["w", "", "ab"]))),
             ("y", g.expr(g.rng.choice([INT, FLOAT, BOOL]), depth + 1))]
    g.rng.shuffle(items)
    if g.chance(0.2):  # a repeated key: the last value, at the first key's place
        items.append(("w", repr("again")))
    d = "{" + ", ".join(f"{k!r}: {v}" for k, v in items) + "}"
    if t == BOOL and g.chance(0.4):
        return f"({g.rng.choice(['x', 'w', 'z'])!r} {g.rng.choice(['in', 'not in'])} {d})"
    if t == INT and g.chance(0.3):
        return f"len({d})"
    if g.chance(0.3):
        return f"{d}.get('x', {g.expr(t, depth + 1)})" if g.chance(0.5) else f"{d}.get('x')"
    return f"{d}['x']"


def literal_dict_unroll(g, depth):
    """`for k, v in literal_unroll(d.items()):` over a literal dict (values of different
    types): the body one version per item, using only what every value type has (str())."""
    if g.loop_depth >= 2:
        return None
    items = [("x", g.expr(g.rng.choice([INT, FLOAT, BOOL]), 1)), ("w", repr(g.rng.choice(["w", "", "ab"]))),
             ("y", g.expr(g.rng.choice([INT, FLOAT, BOOL, STR]), 1))]
    g.rng.shuffle(items)
    d, acc, k, v = g.fresh("ld"), g.fresh("s"), g.fresh("k"), g.fresh("x")
    lines = [f"{d} = {{" + ", ".join(f"{key!r}: {value}" for key, value in items) + "}", f"{acc} = ''"]
    form = g.rng.choice(["items", "values", "keys"])
    if form == "items":
        lines += [f"for {k}, {v} in literal_unroll({d}.items()):", f"    {acc} += {k} + '=' + str({v})[:8] + ';'"]
    elif form == "values":
        lines += [f"for {v} in literal_unroll({d}.values()):", f"    {acc} += str({v})[:8] + ','"]
    else:
        lines += [f"for {k} in literal_unroll({d}):", f"    {acc} += {k} + str({d}[{k}])[:4]"]
    g.declare(acc, STR)
    return lines


@leaf
def dict_display(g, t, depth):
    items = [f"{key_expr(g, t[1], depth)}: {g.expr(t[2], depth)}" for _ in range(g.rng.randint(0, 4))]
    if not items:
        return None  # `{}` has no item types until an insertion refines it (see new_dict)
    return "{" + ", ".join(items) + "}"


def dict_comprehension(g, t, depth):
    x = g.fresh("k")
    g.push()
    g.declare(x, INT, assignable=False)
    key = f"({x} * {g.rng.randint(1, 3)})" if t[1] == INT else f"str({x})"
    value = g.expr(t[2], depth)
    cond = f" if {g.expr(BOOL, depth)}" if g.chance(0.3) else ""
    g.pop()
    return f"{{{key}: {value} for {x} in range({small_count(g, depth)} + {g.rng.randint(0, 4)}){cond}}}"


def dict_derived(g, t, depth):
    if g.chance(0.5):
        return f"{g.expr(t, depth)}.copy()"
    return f"({g.expr(t, depth)} if {g.expr(BOOL, depth)} else {g.expr(t, depth)})"


# ---------------------------------------------------------------- set expressions

@leaf
def set_display(g, t, depth):
    return "{" + ", ".join(key_expr(g, t[1], depth) for _ in range(g.rng.randint(1, 4))) + "}"


def set_derived(g, t, depth):
    form = g.rng.choice(["algebra", "algebra", "set_of_list", "comprehension", "copy", "keys"])
    if form == "algebra":
        op = g.rng.choice(["|", "&", "-", "^"])
        return f"({g.expr(t, depth)} {op} {g.expr(t, depth)})"
    if form == "set_of_list":
        ls = g.vars_of(lambda v: v.type == list_type(t[1]))
        return f"set({g.rng.choice(ls).name})" if ls else None
    if form == "comprehension":
        x = g.fresh("k")
        g.push()
        g.declare(x, INT, assignable=False)
        item = f"({x} % {g.rng.randint(2, 6)})" if t[1] == INT else f"str({x} % 3)"
        g.pop()
        return f"{{{item} for {x} in range({small_count(g, depth)} + {g.rng.randint(0, 5)})}}"
    if form == "copy":
        return f"{g.expr(t, depth)}.copy()"
    ds = dicts(g, lambda dt: dt[1] == t[1])
    return f"set({g.rng.choice(ds).name})" if ds else None


# ---------------------------------------------------------------- scalars from dicts and sets

def value_of_dict(g, t, depth):
    ds = dicts(g, lambda dt: dt[2] == t)
    if not ds:
        return None
    d = g.rng.choice(ds)
    k = key_expr(g, d.type[1], depth)
    form = g.rng.choice(["get", "get", "subscript", "pop", "setdefault"])
    if form == "get":
        return f"{d.name}.get({k}, {g.expr(t, depth)})"
    if form == "subscript":
        return f"{d.name}[{k}]"  # KeyError when absent, both
    if form == "pop":
        return f"{d.name}.pop({k}, {g.expr(t, depth)})" if g.chance(0.7) else f"{d.name}.pop({k})"
    return f"{d.name}.setdefault({k}, {g.expr(t, depth)})"


def int_of_container(g, t, depth):
    cs = dicts(g) + sets(g)
    if not cs:
        return None
    c = g.rng.choice(cs)
    form = g.rng.choice(["len", "len", "sum", "minmax"])
    if form == "len":
        return f"len({c.name})"
    if c.type[1] != INT:
        return None
    if form == "sum":
        return f"sum({c.name})"
    return f"{g.rng.choice(['min', 'max'])}({c.name})"  # ValueError when empty, both


def bool_of_container(g, t, depth):
    cs = dicts(g) + sets(g)
    if not cs:
        return None
    c = g.rng.choice(cs)
    form = g.rng.choice(["in", "in", "eq", "truth", "subset"])
    if form == "in":
        return f"({key_expr(g, c.type[1], depth)} {g.rng.choice(['in', 'not in'])} {c.name})"
    if form == "eq":
        if is_dict(c.type) and c.type[2] == FLOAT:
            return None  # CPython compares a value to itself by identity first (NaN)
        return f"({c.name} {g.rng.choice(['==', '!='])} {g.expr(c.type, depth)})"
    if form == "truth":
        return f"(not {c.name})"
    if not is_set(c.type):
        return None
    other = g.expr(c.type, depth)
    return g.rng.choice([f"({c.name} <= {other})", f"({c.name} < {other})", f"{c.name}.issubset({other})",
                         f"{c.name}.isdisjoint({other})", f"({c.name} >= {other})"])


def list_of_container(g, t, depth):
    if t[1] not in (INT, STR):
        ds = dicts(g, lambda dt: dt[2] == t[1])
        return f"list({g.rng.choice(ds).name}.values())" if ds else None
    form = g.rng.choice(["keys", "sorted_set", "values"])
    if form == "keys":
        ds = dicts(g, lambda dt: dt[1] == t[1])
        return f"list({g.rng.choice(ds).name})" if ds else None
    if form == "values":
        ds = dicts(g, lambda dt: dt[2] == t[1])
        return f"list({g.rng.choice(ds).name}.values())" if ds else None
    ss = sets(g, lambda st: st[1] == t[1])
    return f"sorted({g.rng.choice(ss).name})" if ss else None


# ---------------------------------------------------------------- statements

def new_dict(g, depth):
    t = dict_type(g.rng.choice(KEYS), g.rng.choice(VALUES))
    name = g.fresh("d")
    if g.chance(0.2):
        k, v = key_expr(g, t[1], 1), g.expr(t[2], 1)
        g.declare(name, t)
        return [f"{name} = {{}}", f"{name}[{k}] = {v}"]
    value = g.expr(t, 0)
    g.declare(name, t)
    return [f"{name} = {value}"]


def new_set(g, depth):
    t = set_type(g.rng.choice(KEYS))
    name = g.fresh("st")
    value = g.expr(t, 0)
    g.declare(name, t)
    return [f"{name} = {value}"]


def change_dict(g, depth):
    ds = dicts(g)
    if not ds:
        return None
    d = g.rng.choice(ds)
    x, (_, kt, vt) = d.name, d.type
    k = key_expr(g, kt, 1)
    form = g.rng.choice(["store", "store", "del", "update", "clear", "augment", "popitem"])
    if form == "store":
        return [f"if len({x}) < {LIMIT}:", f"    {x}[{k}] = {g.expr(vt, 1)}"]
    if form == "del":
        return [f"del {x}[{k}]"]  # KeyError when absent, both
    if form == "update":
        return [f"if len({x}) < {LIMIT}:", f"    {x}.update({g.expr(d.type, 1)})"]
    if form == "clear":
        return [f"{x}.clear()"]
    if form == "augment" and vt in (INT, FLOAT, STR):
        rhs = g.expr(vt, 1) if vt != STR else f"{g.expr(STR, 1)}[:3]"
        return [f"if {k} in {x}:", f"    {x}[{k}] += {rhs}"] if g.chance(0.6) else [f"{x}[{k}] += {rhs}"]
    if form == "popitem":
        return [f"if {x}:", f"    {g.fresh('_')} = {x}.popitem()"]
    return None


def change_set(g, depth):
    ss = sets(g)
    if not ss:
        return None
    s = g.rng.choice(ss)
    x, kt = s.name, s.type[1]
    form = g.rng.choice(["add", "add", "discard", "remove", "update", "clear", "inplace"])
    if form == "add":
        return [f"if len({x}) < {LIMIT}:", f"    {x}.add({key_expr(g, kt, 1)})"]
    if form == "discard":
        return [f"{x}.discard({key_expr(g, kt, 1)})"]
    if form == "remove":
        return [f"{x}.remove({key_expr(g, kt, 1)})"]  # KeyError when absent, both
    if form == "update":
        return [f"if len({x}) < {LIMIT}:", f"    {x}.update({g.expr(s.type, 1)})"]
    if form == "clear":
        return [f"{x}.clear()"]
    if not s.assignable:
        return None
    op = g.rng.choice(["|=", "&=", "-=", "^="])
    return [f"if len({x}) < {LIMIT}:", f"    {x} {op} {g.expr(s.type, 1)}"]


def loop_over_dict(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    ds = dicts(g)
    if not ds:
        return None
    d = g.rng.choice(ds)
    _, kt, vt = d.type
    form = g.rng.choice(["keys", "items", "values", "sorted_set"])
    g.push()
    g.loop_depth += 1
    if form == "keys":
        k = g.fresh("k")
        g.declare(k, kt, assignable=False)
        head = f"for {k} in {d.name}:"
    elif form == "items":
        k, v = g.fresh("k"), g.fresh("x")
        g.declare(k, kt, assignable=False)
        g.declare(v, vt, assignable=False)
        head = f"for {k}, {v} in {d.name}.items():"
    elif form == "values":
        v = g.fresh("x")
        g.declare(v, vt, assignable=False)
        head = f"for {v} in {d.name}.values():"
    else:
        ss = sets(g)
        if not ss:
            g.loop_depth -= 1
            g.pop()
            return None
        s = g.rng.choice(ss)
        k = g.fresh("k")
        g.declare(k, s.type[1], assignable=False)
        head = f"for {k} in sorted({s.name}):"
    body = g.stmts(depth + 1, g.rng.randint(1, 3))
    g.loop_depth -= 1
    g.pop()
    return [head] + indent(body)


@feature("dicts")
def register(reg):
    reg.add_expr("dict", 4, variable)
    reg.add_expr("dict", 2, dict_display)
    reg.add_expr("dict", 1.2, dict_comprehension)
    reg.add_expr("dict", 1, dict_derived)
    reg.add_expr("set", 4, variable)
    reg.add_expr("set", 2, set_display)
    reg.add_expr("set", 2, set_derived)
    reg.add_expr(VALUES, 0.8, value_of_dict)
    reg.add_expr([INT, FLOAT, BOOL], 0.3, literal_dict_item)
    reg.add_expr(INT, 0.6, int_of_container)
    reg.add_expr(BOOL, 0.6, bool_of_container)
    reg.add_expr("list", 0.5, list_of_container)
    reg.add_stmt(1.0, new_dict)
    reg.add_stmt(0.6, new_set)
    reg.add_stmt(1.3, change_dict)
    reg.add_stmt(0.8, change_set)
    reg.add_stmt(0.5, loop_over_dict)
    reg.add_stmt(0.3, literal_dict_unroll)
    reg.add_param(0.5, lambda g: set_type(g.rng.choice(KEYS)))
    reg.add_return(0.6, lambda g: dict_type(g.rng.choice(KEYS), g.rng.choice(VALUES)))
    reg.add_return(0.4, lambda g: set_type(g.rng.choice(KEYS)))
