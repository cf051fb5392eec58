"""Tuples: construction from scalars, constant indexing and negative indexing,
unpacking, len, tuples as parameters and results; and lists of items of different types
(Numba's literal lists, made with a string among the items) indexed with a constant."""

from .core import BOOL, FLOAT, INT, feature, is_tuple, leaf, tuple_type


def tuple_of(g):
    return tuple_type(*[g.rng.choice([INT, FLOAT, BOOL, INT]) for _ in range(g.rng.randint(1, 4))])


def make_tuple(g, t, depth):
    items = [g.expr(e, depth) for e in t[1]]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


@leaf
def tuple_var(g, t, depth):
    v = g.var_of_type(t)
    return v.name if v else None


def item(g, t, depth):
    vs = g.vars_of(lambda v: is_tuple(v.type) and t in v.type[1])
    if not vs:
        return None
    v = g.rng.choice(vs)
    ks = [k for k, e in enumerate(v.type[1]) if e == t]
    k = g.rng.choice(ks)
    if g.chance(0.3):
        k -= len(v.type[1])  # the same item, counted from the end
    return f"{v.name}[{k}]"


def literal_list_item(g, t, depth):
    # `[x, 'w', y][k]`: a list whose items have no common type, indexed with a constant
    items = [g.expr(t, depth + 1), repr(g.rng.choice(["w", "", "ab"])),
             g.expr(g.rng.choice([INT, FLOAT, BOOL]), depth + 1)]
    order = list(range(3))
    g.rng.shuffle(order)
    k = order.index(0)
    if g.chance(0.3):
        k -= 3
    return "[" + ", ".join(items[i] for i in order) + f"][{k}]"


@leaf
def length(g, t, depth):
    vs = g.vars_of(lambda v: is_tuple(v.type))
    return f"len({g.rng.choice(vs).name})" if vs else None


def new_tuple(g, depth):
    t = tuple_of(g)
    name = g.fresh("t")
    text = make_tuple(g, t, 1)
    g.declare(name, t)
    return [f"{name} = {text}"]


def unpack(g, depth):
    vs = g.vars_of(lambda v: is_tuple(v.type))
    if not vs:
        return None
    v = g.rng.choice(vs)
    names = [g.fresh() for _ in v.type[1]]
    for n, e in zip(names, v.type[1]):
        g.declare(n, e)
    return [", ".join(names) + ("," if len(names) == 1 else "") + f" = {v.name}"]


@feature("tuples")
def register(reg):
    reg.add_expr("tuple", 2, make_tuple)
    reg.add_expr("tuple", 2, tuple_var)
    reg.add_expr([INT, FLOAT, BOOL], 1.5, item)
    reg.add_expr([INT, FLOAT, BOOL], 0.3, literal_list_item)
    reg.add_expr(INT, 0.3, length)
    reg.add_stmt(1, new_tuple)
    reg.add_stmt(0.6, unpack)
    reg.add_param(1, tuple_of)
