"""NumPy arrays: 1-D and 2-D parameters of several dtypes (contiguous, reversed,
strided, Fortran-ordered and empty inputs), element reads (converted to Python
scalars), stores (values reduced to the dtype's range), extents, loops over elements,
arrays made in the function (zeros, ones, arange, copy) and returned, and a few
exact reductions."""

from .core import BOOL, FLOAT, INT, array_type, feature, indent, is_array, leaf, np_dtype

DTYPES = ["float64", "float32", "int64", "int32", "uint8", "bool"]
FLOAT_DTYPES = ("float64", "float32")
INT_DTYPES = ("int64", "int32", "uint8")
# Values stored into an int array must fit its dtype (NumPy raises OverflowError).
INT_STORE = {"int64": "{}", "int32": "({}) % 2147483647", "uint8": "({}) % 256"}


def scalar_of(dtype):
    return FLOAT if dtype in FLOAT_DTYPES else BOOL if dtype == "bool" else INT


def arrays(g, ndim=None, writable=False):
    return g.vars_of(lambda v: is_array(v.type) and (ndim is None or v.type[2] == ndim))


def index(g, arr, axis, depth):
    """An index into axis `axis`: any int with boundscheck (IndexError both ways),
    else reduced modulo the extent (ZeroDivisionError both ways when it is empty)."""
    i = g.expr(INT, depth)
    if g.boundscheck and g.chance(0.6):
        return i
    return f"({i}) % {arr}.shape[{axis}]"


def element(g, v, depth):
    idx = ", ".join(index(g, v.name, k, depth) for k in range(v.type[2]))
    return f"{v.name}[{idx}]"


def read(g, t, depth):
    vs = [v for v in arrays(g) if scalar_of(v.type[1]) == t]
    if not vs:
        return None
    v = g.rng.choice(vs)
    conv = {FLOAT: "float", INT: "int", BOOL: "bool"}[t]
    return f"{conv}({element(g, v, depth)})"


@leaf
def extent(g, t, depth):
    vs = arrays(g)
    if not vs:
        return None
    v = g.rng.choice(vs)
    form = g.rng.choice(["shape", "len", "size", "ndim"])
    if form == "shape":
        return f"{v.name}.shape[{g.rng.randrange(v.type[2])}]"
    if form == "len":
        return f"len({v.name})"
    return f"{v.name}.{form}"


def reduction(g, t, depth):
    # Exact reductions only: integer and bool sums, min/max (NumPy's float sums are pairwise).
    vs = [v for v in arrays(g) if (t == INT and v.type[1] in INT_DTYPES + ("bool",)) or
          (t == FLOAT and v.type[1] in FLOAT_DTYPES)]
    if not vs:
        return None
    v = g.rng.choice(vs)
    if t == INT:
        return f"int({v.name}.sum())" if g.chance(0.5) else f"int(np.sum({v.name}))"
    # min/max raise ValueError on an empty array in both. Among equal zeros of both signs
    # compiled code returns the first, as Numba, NumPy whichever its loop keeps (seed
    # 20261416 program 107): `+ 0.0` makes the zero's sign irrelevant.
    return f"(float({v.name}.{g.rng.choice(['min', 'max'])}()) + 0.0)"


def store(g, depth):
    vs = arrays(g)
    if not vs:
        return None
    v = g.rng.choice(vs)
    dtype = v.type[1]
    value = g.expr(scalar_of(dtype), 1)
    if dtype in INT_STORE:
        value = INT_STORE[dtype].format(value)
    return [f"{element(g, v, 1)} = {value}"]


def loop_over(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    vs = arrays(g, ndim=1)
    if not vs:
        return None
    v = g.rng.choice(vs)
    e, x = g.fresh("e"), g.fresh("x")
    t = scalar_of(v.type[1])
    conv = {FLOAT: "float", INT: "int", BOOL: "bool"}[t]
    g.push()
    g.loop_depth += 1
    g.declare(x, t, assignable=False)
    if g.chance(0.5):
        i = g.fresh("i")
        g.declare(i, INT, assignable=False)
        head, first = f"for {i}, {e} in enumerate({v.name}):", f"{x} = {conv}({e})"
    else:
        head, first = f"for {e} in {v.name}:", f"{x} = {conv}({e})"
    body = g.stmts(depth + 1, g.rng.randint(1, 2))
    g.loop_depth -= 1
    g.pop()
    return [head] + indent([first] + body)


def index_loop(g, depth):
    if depth >= 3 or g.loop_depth >= 2:
        return None
    vs = arrays(g)
    if not vs:
        return None
    v = g.rng.choice(vs)
    i = g.fresh("i")
    axis = g.rng.randrange(v.type[2])
    g.push()
    g.loop_depth += 1
    g.declare(i, INT, assignable=False)
    dtype = v.type[1]
    idx = ", ".join(i if k == axis else f"({g.expr(INT, 2)}) % {v.name}.shape[{k}]" for k in range(v.type[2]))
    value = g.expr(scalar_of(dtype), 2)
    if dtype in INT_STORE:
        value = INT_STORE[dtype].format(value)
    body = [f"{v.name}[{idx}] = {value}"] if g.chance(0.5) else []
    body += g.stmts(depth + 1, 1)
    g.loop_depth -= 1
    g.pop()
    return [f"for {i} in range({v.name}.shape[{axis}]):"] + indent(body)


def new_array(g, depth):
    n = f"min(abs({g.expr(INT, 1)}) % 8, 7)"
    dtype = g.rng.choice(DTYPES)
    form = g.rng.choice(["zeros", "ones", "arange", "copy", "full"])
    name = g.fresh("a")
    if form == "copy":
        vs = arrays(g)
        if not vs:
            return None
        src = g.rng.choice(vs)
        g.declare(name, src.type)
        return [f"{name} = {src.name}.copy()"]
    if form == "arange":
        dtype = g.rng.choice(["int64", "float64"])
        g.declare(name, array_type(dtype, 1))
        return [f"{name} = np.arange({n}){'.astype(np.float64)' if dtype == 'float64' else ''}"]
    if form == "full":
        fill = g.expr(FLOAT, 1)
        g.declare(name, array_type("float64", 1))
        return [f"{name} = np.full({n}, {fill})"]
    shape = n if g.chance(0.7) else f"({n}, {g.rng.randint(0, 3)})"
    ndim = 1 if shape == n else 2
    g.declare(name, array_type(dtype, ndim))
    return [f"{name} = np.{form}({shape}, dtype={np_dtype(dtype)})"]


def array_param(g):
    return array_type(g.rng.choice(DTYPES), 1 if g.chance(0.7) else 2)


def array_value(g, t, depth):
    v = g.var_of_type(t)
    return v.name if v else None


@feature("arrays")
def register(reg):
    reg.add_expr([INT, FLOAT, BOOL], 3, read)
    reg.add_expr(INT, 1.5, extent)
    reg.add_expr([INT, FLOAT], 0.4, reduction)
    reg.add_expr("array", 1, array_value)
    reg.add_stmt(2.5, store)
    reg.add_stmt(0.8, loop_over)
    reg.add_stmt(0.8, index_loop)
    reg.add_stmt(0.8, new_array)
    reg.add_param(3, array_param)
