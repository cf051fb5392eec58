"""prange loops (run in parallel when the program is compiled with parallel=True,
serially otherwise; Python runs them as range): each iteration i stores into element
i of a 1-D array and adds to integer reductions, reading element i of that array,
the loop index and the scalars and strings in scope; the reductions are read after
the loop. The body is generated in a scope of its own that holds only what every
iteration may share (no lists, dicts or sets that an expression could change, no
calls of functions that could write their arguments), so iterations are independent
and the result is the same in any order. Float reductions are left out: their sum
depends on the order."""

from .core import BOOL, FLOAT, INT, STR, SCALARS, Scope, feature, indent, is_array

STORE = {"float64": "{}", "float32": "{}", "int64": "{}", "int32": "({}) % 2147483647",
         "uint8": "({}) % 256", "bool": "{}"}
SCALAR_OF = {"float64": FLOAT, "float32": FLOAT, "int64": INT, "int32": INT, "uint8": INT, "bool": BOOL}
CONVERT = {FLOAT: "float", INT: "int", BOOL: "bool"}


def prange_loop(g, depth):
    if depth >= 2 or g.loop_depth >= 1:
        return None
    visible = g.scope.all()
    targets = [v for v in visible.values() if is_array(v.type) and v.type[2] == 1]
    target = g.rng.choice(targets) if targets and g.chance(0.8) else None
    i, lines = g.fresh("i"), []
    reductions = []
    for _ in range(g.rng.randint(0 if target else 1, 2)):
        r = g.fresh("r")
        lines.append(f"{r} = {g.expr(INT, 2)}")
        reductions.append(r)
    extent = f"{target.name}.shape[0]" if target else f"({g.expr(INT, 2)}) % 40"
    # The iterations' shared view: scalars and strings (another array could be a view
    # of the target, read at other indices while they are written).
    shared = Scope()
    for name, v in visible.items():
        if v.type in SCALARS or v.type == STR:
            shared.vars[name] = v
    saved_scope, saved_callable = g.scope, g.callable
    g.scope, g.callable = Scope(shared), []
    g.declare(i, INT, assignable=False)
    body = []
    g.loop_depth += 1
    try:
        if target is not None:
            dtype = target.type[1]
            t = SCALAR_OF[dtype]
            old = g.fresh("old")
            body.append(f"{old} = {CONVERT[t]}({target.name}[{i}])")
            g.declare(old, t, assignable=False)
            for _ in range(g.rng.randint(0, 2)):
                tmp, tt = g.fresh("v"), g.rng.choice([INT, FLOAT, BOOL, STR])
                body.append(f"{tmp} = {g.expr(tt, 1)}")
                g.declare(tmp, tt, assignable=False)
            body.append(f"{target.name}[{i}] = " + STORE[dtype].format(g.expr(t, 1)))
        for r in reductions:
            body.append(f"{r} += {g.expr(INT, 1)}")
    finally:
        g.loop_depth -= 1
        g.scope, g.callable = saved_scope, saved_callable
    for r in reductions:
        g.declare(r, INT)
    return lines + [f"for {i} in prange({extent}):"] + indent(body)


@feature("prange")
def register(reg):
    reg.add_stmt(0.7, prange_loop)
