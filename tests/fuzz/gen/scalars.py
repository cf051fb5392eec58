"""Scalar expressions: integers and floats with Python's `//`, `%`, `**` and shift
rules, comparisons, and/or/not, conditional expressions, builtins (abs, min, max,
int, float, bool, round, divmod, pow) and the math module."""

from .core import BOOL, FLOAT, INT, feature, leaf, variable

INT_LITERALS = [0, 1, -1, 2, 3, 5, 7, -13, 100, 255, -1000, 65537, 2**31, -(2**31) - 1, 2**40, 10**15,
                2**62, -(2**62)]
FLOAT_LITERALS = ["0.0", "-0.0", "0.5", "-1.5", "3.25", "1e10", "-2.5e-3", "1e300", "-1e-300", "7.0",
                  "math.inf", "-math.inf", "math.nan", "math.pi"]
INT_OPS = ["+", "-", "*", "//", "%", "&", "|", "^"]
FLOAT_OPS = ["+", "-", "*", "/", "//", "%"]
CMP_OPS = ["<", "<=", "==", "!=", ">", ">="]
UNARY_MATH = ["sqrt", "exp", "log", "log1p", "expm1", "sin", "cos", "tan", "atan", "tanh", "sinh",
              "asinh", "fabs", "erf", "log2", "log10"]
BINARY_MATH = ["atan2", "hypot", "copysign", "fmod", "pow"]


@leaf
def int_literal(g, t, depth):
    v = g.rng.choice(INT_LITERALS) if g.chance(0.6) else g.rng.randint(-50, 50)
    return f"({v})" if v < 0 else str(v)


@leaf
def float_literal(g, t, depth):
    if g.chance(0.5):
        return g.rng.choice(FLOAT_LITERALS)
    return repr(round(g.rng.uniform(-100, 100), g.rng.randint(0, 3)))


@leaf
def bool_literal(g, t, depth):
    return g.rng.choice(["True", "False"])


def int_binary(g, t, depth):
    op = g.rng.choice(INT_OPS)
    return f"({g.expr(INT, depth)} {op} {g.expr(INT, depth)})"


def int_power_or_shift(g, t, depth):
    a, b = g.expr(INT, depth), g.expr(INT, depth)
    form = g.rng.choice(["pow", "lshift", "rshift", "pow3"])
    if form == "pow":
        return f"({a} ** ({b} % 4))"  # a non-negative exponent: an int, as in Python
    if form == "pow3":
        return f"pow({a}, {b} % 5, {g.expr(INT, depth)})"
    if form == "lshift":
        return f"({a} << ({b} % 24))"
    return f"({a} >> ({b} % 80))"


def int_unary(g, t, depth):
    form = g.rng.choice(["neg", "inv", "abs", "pos"])
    x = g.expr(INT, depth)
    return {"neg": f"(-{x})", "inv": f"(~{x})", "abs": f"abs({x})", "pos": f"(+{x})"}[form]


def int_builtin(g, t, depth):
    form = g.rng.choice(["min", "max", "int_float", "int_bool", "round", "divmod_q", "divmod_r", "floor",
                         "ceil", "trunc"])
    if form in ("min", "max"):
        n = g.rng.randint(2, 3)
        return f"{form}({', '.join(g.expr(INT, depth) for _ in range(n))})"
    if form == "int_float":
        return f"int({g.expr(FLOAT, depth)})"
    if form == "int_bool":
        return f"int({g.expr(BOOL, depth)})"
    if form == "round":
        return f"round({g.expr(FLOAT, depth)})"
    if form in ("floor", "ceil", "trunc"):
        return f"math.{form}({g.expr(FLOAT, depth)})"
    which = 0 if form == "divmod_q" else 1
    return f"divmod({g.expr(INT, depth)}, {g.expr(INT, depth)})[{which}]"


def conditional(g, t, depth):
    return f"({g.expr(t, depth)} if {g.expr(BOOL, depth)} else {g.expr(t, depth)})"


def float_binary(g, t, depth):
    op = g.rng.choice(FLOAT_OPS)
    a = g.expr(FLOAT, depth)
    b = g.expr(g.rng.choice([FLOAT, FLOAT, INT]), depth)
    return f"({a} {op} {b})" if g.chance(0.7) else f"({b} {op} {a})"


def float_power(g, t, depth):
    # A negative base to a fractional power is a complex number in Python, and 0.0 to
    # a negative power raises ZeroDivisionError there (inf in compiled code, as in Numba).
    return f"((abs({g.expr(FLOAT, depth)}) + 0.5) ** {g.expr(g.rng.choice([FLOAT, INT]), depth)})"


def int_division(g, t, depth):
    return f"({g.expr(INT, depth)} / {g.expr(INT, depth)})"


def float_unary(g, t, depth):
    # round(x, n) is left out: it rounds x * 10**n half to even as Numba does, where
    # CPython rounds the decimal value exactly (documented).
    form = g.rng.choice(["neg", "abs", "float_int", "float_bool", "min", "max"])
    if form == "neg":
        return f"(-{g.expr(FLOAT, depth)})"
    if form == "abs":
        return f"abs({g.expr(FLOAT, depth)})"
    if form == "float_int":
        return f"float({g.expr(INT, depth)})"
    if form == "float_bool":
        return f"float({g.expr(BOOL, depth)})"
    return f"{form}({g.expr(FLOAT, depth)}, {g.expr(FLOAT, depth)})"


def float_math(g, t, depth):
    if g.chance(0.6):
        return f"math.{g.rng.choice(UNARY_MATH)}({g.expr(FLOAT, depth)})"
    return f"math.{g.rng.choice(BINARY_MATH)}({g.expr(FLOAT, depth)}, {g.expr(FLOAT, depth)})"


def comparison(g, t, depth):
    a_t = g.rng.choice([INT, FLOAT, INT])
    b_t = g.rng.choice([INT, FLOAT]) if g.chance(0.3) else a_t
    op = g.rng.choice(CMP_OPS)
    text = f"{g.expr(a_t, depth)} {op} {g.expr(b_t, depth)}"
    if g.chance(0.2):  # a chained comparison: the middle evaluated once
        text += f" {g.rng.choice(CMP_OPS)} {g.expr(b_t, depth)}"
    return f"({text})"


def bool_logic(g, t, depth):
    form = g.rng.choice(["not", "and", "or", "isnan", "isinf", "isfinite", "bool_int", "in"])
    if form == "not":
        return f"(not {g.expr(BOOL, depth)})"
    if form in ("and", "or"):
        return f"({g.expr(BOOL, depth)} {form} {g.expr(BOOL, depth)})"
    if form == "bool_int":
        return f"bool({g.expr(INT, depth)})"
    if form == "in":
        items = ", ".join(str(g.rng.randint(-3, 5)) for _ in range(g.rng.randint(1, 4)))
        return f"({g.expr(INT, depth)} in ({items},))"
    return f"math.{form}({g.expr(FLOAT, depth)})"


@feature("scalars")
def register(reg):
    reg.add_expr(INT, 3, int_literal)
    reg.add_expr(FLOAT, 3, float_literal)
    reg.add_expr(BOOL, 1, bool_literal)
    reg.add_expr([INT, FLOAT, BOOL], 6, variable)
    reg.add_expr(INT, 4, int_binary)
    reg.add_expr(INT, 1.5, int_power_or_shift)
    reg.add_expr(INT, 1, int_unary)
    reg.add_expr(INT, 1.5, int_builtin)
    reg.add_expr([INT, FLOAT, BOOL], 0.7, conditional)
    reg.add_expr(FLOAT, 4, float_binary)
    reg.add_expr(FLOAT, 1, float_power)
    reg.add_expr(FLOAT, 1, int_division)
    reg.add_expr(FLOAT, 1.5, float_unary)
    reg.add_expr(FLOAT, 2, float_math)
    reg.add_expr(BOOL, 4, comparison)
    reg.add_expr(BOOL, 2, bool_logic)
    reg.add_param(6, lambda g: g.rng.choice([INT, INT, FLOAT, FLOAT, BOOL]))
