"""Strings: literals (ASCII, accented, CJK, astral, empty), parameters, concatenation
and repetition (of short slices, so that loops cannot grow them without bound),
indexing, slicing with steps, iteration, comparisons, `in`, the search, case, strip,
replace, padding and predicate methods, str()/int()/float() conversions, chr/ord,
f-strings with format specs, and split/join with lists of strings."""

from .core import BOOL, FLOAT, INT, STR, feature, indent, leaf, list_type, variable

LITERALS = ['""', '"a"', '"hello"', '"Hello World"', '"héllo wörld"', '"日本語"', '"🙂x"', '"a,b,,c"',
            '"  pad\\t"', '"Ab1_"', '"ß"', '"123"', '"l"', '"ll"', '","']
CASE_METHODS = ["upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize", "swapcase"]
PREDICATES = ["isdigit", "isalpha", "isspace", "isalnum", "isdecimal", "isnumeric", "islower", "isupper",
              "istitle", "isascii", "isidentifier", "isprintable"]
SEARCHES = ["find", "rfind", "count", "startswith", "endswith"]
FORMAT_SPECS = {INT: ["", "5d", "<4", "^7", ">3", "x", "+", ",", "08b"],
                FLOAT: ["", ".3f", "10.2e", "g", ".1%", "+.2f"],
                STR: ["", ">8", "<5", "^6"]}


@leaf
def literal(g, t, depth):
    return g.rng.choice(LITERALS)


def short(g, depth):
    """A string expression cut to a few characters: what concatenation and repetition take."""
    return f"{g.expr(STR, depth)}[:{g.rng.randint(0, 6)}]"


def combine(g, t, depth):
    form = g.rng.choice(["concat", "concat", "repeat", "slice", "step", "char", "cond"])
    if form == "concat":
        return f"({short(g, depth)} + {short(g, depth)})"
    if form == "repeat":
        return f"({short(g, depth)} * ({g.expr(INT, depth)} % 3))"
    s = g.expr(STR, depth)
    if form == "slice":
        return f"{s}[{g.expr(INT, depth)}:{g.expr(INT, depth)}]"
    if form == "step":
        return f"{s}[::{g.rng.choice([-1, 2, -2, 3])}]"
    if form == "char":
        v = g.var_of_type(STR)
        if v is None:
            return None
        return f"{v.name}[({g.expr(INT, depth)}) % len({v.name})]"  # ZeroDivisionError when empty, both
    return f"({s} if {g.expr(BOOL, depth)} else {g.expr(STR, depth)})"


def method(g, t, depth):
    s = g.expr(STR, depth)
    form = g.rng.choice(["case", "case", "replace", "pad", "strip_chars"])
    if form == "case":
        return f"{s}.{g.rng.choice(CASE_METHODS)}()"
    if form == "replace":
        count = f", {g.rng.randint(0, 2)}" if g.chance(0.3) else ""
        return f"{s}.replace({g.rng.choice(LITERALS)}, {g.rng.choice(LITERALS)}{count})"
    if form == "strip_chars":
        return f"{s}.{g.rng.choice(['strip', 'lstrip', 'rstrip'])}({g.rng.choice(LITERALS)})"
    width = f"({g.expr(INT, depth)}) % 12"
    pad = g.rng.choice(["zfill", "ljust", "rjust", "center"])
    if pad == "zfill":
        return f"{s}.zfill({width})"
    fill = g.rng.choice(['', ', "*"', ', "é"'])
    return f"{s}.{pad}({width}{fill})"


def conversion(g, t, depth):
    form = g.rng.choice(["str_int", "str_float", "str_bool", "chr", "fstring", "fstring"])
    if form == "str_int":
        return f"str({g.expr(INT, depth)})"
    if form == "str_float":
        return f"str({g.expr(FLOAT, depth)})"
    if form == "str_bool":
        return f"str({g.expr(BOOL, depth)})"
    if form == "chr":
        if g.chance(0.7):
            return f"chr(97 + ({g.expr(INT, depth)}) % 26)"
        return f"chr(({g.expr(INT, depth)}) % 1114112)"  # surrogates too
    parts = []
    for _ in range(g.rng.randint(1, 3)):
        vt = g.rng.choice([INT, FLOAT, STR])
        spec = g.rng.choice(FORMAT_SPECS[vt])
        parts.append(g.rng.choice(["", "x=", " - "]) + "{" + g.expr(vt, depth) + (f":{spec}" if spec else "") + "}")
    text = "".join(parts)
    if "'" in text or "\\" in text:
        return None  # the other quote and backslashes inside a field need Python 3.12
    return "f'" + text + "'"


def joined(g, t, depth):
    lists = g.vars_of(lambda v: v.type == list_type(STR))
    if not lists:
        return None
    sep = g.rng.choice(['""', '", "', '"-"', '"é"'])
    # Cut short: a join stored back into the list it joins (p.extend([sep.join(p)]) in a
    # loop) grows the strings geometrically, gigabytes within the list's length guard.
    return f"{sep}.join({g.rng.choice(lists).name})[:{g.rng.choice([6, 20, 60])}]"


def str_to_int(g, t, depth):
    form = g.rng.choice(["len", "len", "search", "ord", "int"])
    if form == "len":
        return f"len({g.expr(STR, depth)})"
    if form == "search":
        return f"{g.expr(STR, depth)}.{g.rng.choice(['find', 'rfind', 'count'])}({g.expr(STR, depth)})"
    if form == "ord":
        v = g.var_of_type(STR)
        if v is None:
            return None
        return f"ord({v.name}[({g.expr(INT, depth)}) % len({v.name})])"
    return f"int(str({g.expr(INT, depth)}))"


def str_to_float(g, t, depth):
    return f"float(str({g.expr(FLOAT, depth)}))"  # repr and parse round trip


def str_to_bool(g, t, depth):
    form = g.rng.choice(["cmp", "cmp", "in", "search", "predicate"])
    a = g.expr(STR, depth)
    if form == "cmp":
        return f"({a} {g.rng.choice(['==', '!=', '<', '<=', '>', '>='])} {g.expr(STR, depth)})"
    if form == "in":
        return f"({g.expr(STR, depth)} {g.rng.choice(['in', 'not in'])} {a})"
    if form == "search":
        return f"{a}.{g.rng.choice(['startswith', 'endswith'])}({g.expr(STR, depth)})"
    return f"{a}.{g.rng.choice(PREDICATES)}()"


def new_string(g, depth):
    name = g.fresh("s")
    value = g.expr(STR, 0)
    g.declare(name, STR)
    return [f"{name} = {value}"]


def extend_string(g, depth):
    vs = g.vars_of(lambda v: v.type == STR and v.assignable)
    if not vs:
        return None
    v = g.rng.choice(vs)
    if g.chance(0.5):
        return [f"{v.name} += {short(g, 1)}"]
    return [f"{v.name} = {g.expr(STR, 0)}"]


def loop_over(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    s = g.expr(STR, 1)
    ch = g.fresh("c")
    g.push()
    g.loop_depth += 1
    g.declare(ch, STR, assignable=False)
    body = g.stmts(depth + 1, g.rng.randint(1, 2))
    g.loop_depth -= 1
    g.pop()
    return [f"for {ch} in {s}:"] + indent(body)


@feature("strings")
def register(reg):
    reg.add_expr(STR, 3, literal)
    reg.add_expr(STR, 4, variable)
    reg.add_expr(STR, 3, combine)
    reg.add_expr(STR, 2, method)
    reg.add_expr(STR, 1.5, conversion)
    reg.add_expr(STR, 0.5, joined)
    reg.add_expr(INT, 0.6, str_to_int)
    reg.add_expr(FLOAT, 0.2, str_to_float)
    reg.add_expr(BOOL, 0.8, str_to_bool)
    reg.add_stmt(0.8, new_string)
    reg.add_stmt(0.6, extend_string)
    reg.add_stmt(0.3, loop_over)
    reg.add_param(0.8, lambda g: STR)
    reg.add_return(1, lambda g: STR)
