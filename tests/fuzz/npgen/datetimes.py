"""datetime64 / timedelta64 arrays made from the program's integer arrays (their counts,
kept small so that unit conversions stay in range, with NaT where a condition says) and
combined with each other, with module-level constants and with numbers: arithmetic of
NumPy's unit rules, comparisons, np.isnat, maximum/fmin, the calendar conversion of
years and months to days. Only what Numba accepts is generated (NumPy also accepts a
timedelta plus an int, and an average year against days, which Numba refuses)."""

from .core import INTS, feature_module
from .stmts import some_shape

TD_UNITS = ["D", "h", "m", "s", "ms", "us"]
DT_UNITS = ["Y", "M", "D", "h", "s", "ms"]
ORDER = {u: i for i, u in enumerate(["Y", "M", "W", "?", "D", "h", "m", "s", "ms", "us", "ns"])}


def constants(b, when):
    """TD_<unit>, DT_<unit>, NAT_<unit> module constants (frozen when compiled)."""
    if when != "before":
        return
    for u in TD_UNITS:
        b.module_lines.append(f"TD_{u} = np.timedelta64({b.g.rng.randint(-50, 50)}, '{u}')")
        b.module_lines.append(f"NAT_{u} = np.timedelta64('NaT', '{u}')")
    for u in DT_UNITS:
        b.module_lines.append(f"DT_{u} = np.datetime64({b.g.rng.randint(-600, 600)}, '{u}')")


def counts(g, shape):
    """Small int64 counts of an integer array of this shape (or one broadcasting to it)."""
    e = g.array(shape, dtypes=INTS)
    return f"(({e.text}).astype(np.int64) % 2000 - 1000)"


def timedelta(g, shape, unit):
    c = counts(g, shape)
    text = f"{c}.astype('m8[{unit}]')"
    if g.chance(0.4):  # NaT where the counts are multiples of 3
        text = f"np.where({c} % 3 == 0, NAT_{unit}, {text})"
    return text


def datetime(g, shape, unit):
    return f"{counts(g, shape)}.astype('M8[{unit}]')"


def compatible(a, b):
    """Timedelta units NumPy and Numba combine: both years/months or both finer."""
    return (ORDER[a] <= 1) == (ORDER[b] <= 1)


def datetime_result(g):
    shape = some_shape(g)
    rng = g.rng
    ua, ub = rng.choice(TD_UNITS), rng.choice(TD_UNITS)
    a = timedelta(g, shape, ua)
    r = rng.random()
    if r < 0.2:
        op = rng.choice(["+", "-", "<", "<=", "==", "!=", ">", ">=", "//", "/"])
        text = f"({a} {op} {timedelta(g, shape, ub) if rng.random() < 0.7 else f'TD_{ub}'})"
        return [(text, None)]
    if r < 0.35:
        num = rng.choice(["3", "-2", "0", "2.5", "-0.5", "counts"])
        if num == "counts":
            num = f"({counts(g, shape)} % 7)"
        op = rng.choice(["*", "//", "/"])
        if num in ("2.5", "-0.5") and op == "//":
            op = "/"
        return [(f"({a} {op} {num})", None)]
    if r < 0.55:
        ud = rng.choice(DT_UNITS)
        d = datetime(g, shape, ud)
        if ORDER[ud] >= 2:
            ua = rng.choice([u for u in TD_UNITS])
        op = rng.choice(["+", "-"])
        return [(f"({d} {op} {timedelta(g, shape, ua)})", None)]
    if r < 0.7:
        ud, ue = rng.choice(DT_UNITS), rng.choice(DT_UNITS)
        op = rng.choice(["-", "<", ">=", "==", "!="])
        other = datetime(g, shape, ue) if rng.random() < 0.7 else f"DT_{ue}"
        return [(f"({datetime(g, shape, ud)} {op} {other})", None)]
    if r < 0.85:
        fn = rng.choice(["maximum", "minimum", "fmax", "fmin"])
        return [(f"np.{fn}({a}, {timedelta(g, shape, ub)})", None)]
    fn = rng.choice(["np.isnat({})", "-{}", "abs({})", "np.negative({})", "np.sign({})"])
    return [(fn.format(a), None)]


@feature_module("datetimes")
def register(reg):
    reg.program.append(constants)
    reg.add_result(1, datetime_result)
