"""Harvested from Numba's tests of builtins, the math module and operators
(numba/tests/test_builtins.py, test_mathlib.py, test_operators.py): each function on
the values Numba checks it with (ints, floats, complex numbers, bools, mixed, zero
divisors, NaN and infinities, negative zero), compiled vs CPython (harvest.py).
Integers stay inside int64 (compiled ints wrap, a documented difference). Cases mahou
does not compile yet are in EXPECTED_REFUSALS."""

import math
import sys

import numpy as np
import pytest

from harvest import Case, run_harvested

INTS = [0, 1, -1, 2, -7, 13, 2 ** 31, -(2 ** 40)]
FLOATS = [0.0, -0.0, 0.5, -1.5, 2.0, 1e300, -1e-300, math.inf, -math.inf, math.nan, 0.1, 7.25]
COMPLEX = [0j, 1 + 2j, -0.5 - 1.5j, complex(math.inf, 1), 3j]
PAIRS_INT = [(a, b) for a in (0, 1, -1, 7, -7, 2 ** 20) for b in (1, -1, 2, -3, 5, 0)]
PAIRS_FLOAT = [(a, b) for a in (0.0, -0.0, 1.5, -7.25, 1e300, math.inf, math.nan) for b in (1.0, -2.5, 0.0, -0.0,
                                                                                         math.inf, 3.0)]
PAIRS_MIXED = [(3, 1.5), (-2, 0.25), (1.5, 2), (True, 2.5), (2, True), (7, -0.0), (1 + 1j, 2), (2.5, 1j)]
PAIRS_COMPLEX = [(a, b) for a in (1 + 2j, -0.5j, 0j) for b in (2 - 1j, 1j, 0j, 1e300 + 1e300j)]
ALL_PAIRS = PAIRS_INT + PAIRS_FLOAT + PAIRS_MIXED + PAIRS_COMPLEX
SHIFT_PAIRS = [(a, b) for a in (0, 1, -1, 7, -(2 ** 40)) for b in (0, 1, 3, 40, 63, 64, 100, -1)]


def abs_(x):
    return abs(x)


def bool_(x):
    return bool(x)


def complex_(x, y):
    return complex(x, y)


def divmod_(x, y):
    return divmod(x, y)


def enumerate_sum():
    total = 0
    for i, v in enumerate([1, 2, 3, 4]):
        total += i * v
    return total


def enumerate_start():
    total = 0
    for i, v in enumerate((10, 20, 30), 5):
        total += i * v
    return total


def float_(x):
    return float(x)


def float_inf(x):
    return float("inf") if x else float("-inf")


def hex_(x):
    return hex(x)


def oct_(x):
    return oct(x)


def str_(x):
    return str(x)


def int_base(x, base):
    return int(x, base)


def int_(x):
    return int(x)


def iter_next(x):
    it = iter(x)
    return next(it), next(it)


def max2(x, y):
    return max(x, y)


def max_iter(x):
    return max(x)


def max3(x):
    return max(x[0], x[1], x[2])


def min2(x, y):
    return min(x, y)


def min_iter(x):
    return min(x)


def round1(x):
    return round(x)


def round2(x, n):
    return round(x, n)


def sum_(x):
    return sum(x)


def sum_start(x, start):
    return sum(x, start)


def truth(p):
    return True if p else False


def chr_(x):
    return chr(x)


def ord_(x):
    return ord(x)


def zip_sum():
    total = 0
    for a, b in zip((1, 2, 3), (4, 5, 6, 7)):
        total += a * b
    return total


def zip3():
    out = 0
    for a, b, c in zip((1, 2), (3, 4), (5, 6)):
        out += a + b * c
    return out


def pow_(x, y):
    return pow(x, y)


def pow_op(x, y):
    return x ** y


def pow3(x, y, m):
    return pow(x, y, m)


def isinstance_int(a):
    return isinstance(a, int), isinstance(a, float), isinstance(a, (int, float))


def all_(x):
    return all(x)


def any_(x):
    return any(x)


def map_sum(x):
    return sum(map(abs, x))


def filter_count(x):
    n = 0
    for v in filter(None, x):
        n += 1
    return n


def format_(x, spec):
    return format(x, spec)


def m_sin(x):
    return math.sin(x)


def m_cos(x):
    return math.cos(x)


def m_tan(x):
    return math.tan(x)


def m_sinh(x):
    return math.sinh(x)


def m_cosh(x):
    return math.cosh(x)


def m_tanh(x):
    return math.tanh(x)


def m_asin(x):
    return math.asin(x)


def m_acos(x):
    return math.acos(x)


def m_atan(x):
    return math.atan(x)


def m_atan2(y, x):
    return math.atan2(y, x)


def m_asinh(x):
    return math.asinh(x)


def m_acosh(x):
    return math.acosh(x)


def m_atanh(x):
    return math.atanh(x)


def m_sqrt(x):
    return math.sqrt(x)


def np_sqrt(x):
    return np.sqrt(x)


def m_exp(x):
    return math.exp(x)


def m_exp2(x):
    return math.exp2(x)


def m_expm1(x):
    return math.expm1(x)


def m_log(x):
    return math.log(x)


def m_log_base(x, b):
    return math.log(x, b)


def m_log1p(x):
    return math.log1p(x)


def m_log10(x):
    return math.log10(x)


def m_log2(x):
    return math.log2(x)


def m_floor(x):
    return math.floor(x)


def m_ceil(x):
    return math.ceil(x)


def m_trunc(x):
    return math.trunc(x)


def m_isnan(x):
    return math.isnan(x)


def m_isinf(x):
    return math.isinf(x)


def m_isfinite(x):
    return math.isfinite(x)


def m_hypot(x, y):
    return math.hypot(x, y)


def m_nextafter(x, y):
    return math.nextafter(x, y)


def m_degrees(x):
    return math.degrees(x)


def m_radians(x):
    return math.radians(x)


def m_erf(x):
    return math.erf(x)


def m_erfc(x):
    return math.erfc(x)


def m_gamma(x):
    return math.gamma(x)


def m_lgamma(x):
    return math.lgamma(x)


def m_pow(x, y):
    return math.pow(x, y)


def m_gcd(x, y):
    return math.gcd(x, y)


def m_copysign(x, y):
    return math.copysign(x, y)


def m_frexp(x):
    return math.frexp(x)


def m_ldexp(x, e):
    return math.ldexp(x, e)


def m_fmod(x, y):
    return math.fmod(x, y)


def m_remainder(x, y):
    return math.remainder(x, y)


def m_fabs(x):
    return math.fabs(x)


def m_factorial(x):
    return math.factorial(x)


def m_isclose(a, b):
    return math.isclose(a, b)


def m_constants():
    return math.pi, math.e, math.tau, math.inf, -math.inf


def op_add(x, y):
    return x + y


def op_iadd(x, y):
    x += y
    return x


def op_sub(x, y):
    return x - y


def op_mul(x, y):
    return x * y


def op_imul(x, y):
    x *= y
    return x


def op_floordiv(x, y):
    return x // y


def op_ifloordiv(x, y):
    x //= y
    return x


def op_truediv(x, y):
    return x / y


def op_itruediv(x, y):
    x /= y
    return x


def op_mod(x, y):
    return x % y


def op_imod(x, y):
    x %= y
    return x


def op_lshift(x, y):
    return x << y


def op_rshift(x, y):
    return x >> y


def op_ilshift(x, y):
    x <<= y
    return x


def op_and(x, y):
    return x & y


def op_or(x, y):
    return x | y


def op_xor(x, y):
    return x ^ y


def op_ixor(x, y):
    x ^= y
    return x


def op_invert(x):
    return ~x


def op_not(x):
    return not x


def op_neg(x):
    return -x


def op_pos(x):
    return +x


def op_lt(x, y):
    return x < y


def op_le(x, y):
    return x <= y


def op_gt(x, y):
    return x > y


def op_ge(x, y):
    return x >= y


def op_eq(x, y):
    return x == y


def op_ne(x, y):
    return x != y


def op_in(x, y):
    return x in y


def op_not_in(x, y):
    return x not in y


def op_is(x, y):
    return x is y


def static_pow_neg3(x):
    return x ** -3


def static_pow_7(x):
    return x ** 7


def static_pow_half(x):
    return x ** 0.5


def matmul_op(x, y):
    return x @ y


def domain(fn, values):
    """The values where CPython's math function returns: a domain or range error is NaN
    or inf in compiled code, as in Numba (documented), and is not compared."""
    out = []
    for v in values:
        try:
            fn(*v) if isinstance(v, tuple) else fn(v)
        except (ValueError, OverflowError):
            continue
        out.append(v)
    return out


REAL = INTS + FLOATS
UNIT = [-2, -1, -0.5, 0.0, 0.5, 1, 2, 0.1, 0.2, math.nan, math.inf]
POS = [1, 10, 100, 1000, 100000, 0.1, 1.1, 0.0, -1.0, math.inf]
# max(3, 1.5) is 3.0 in compiled code: one type for the result, as in Numba (documented).
SAME_TYPE_PAIRS = PAIRS_INT + PAIRS_FLOAT
ORDERED_PAIRS = PAIRS_INT + PAIRS_FLOAT + [p for p in PAIRS_MIXED if not any(isinstance(v, complex) for v in p)]

CASES = {
    "abs": Case(abs_, INTS + FLOATS + COMPLEX + [True]), "bool": Case(bool_, REAL + COMPLEX + [True]),
    "complex": Case(complex_, [(1, 2), (0.5, -0.0), (-1.5, math.nan), (3, 0)]),
    "divmod": Case(divmod_, PAIRS_INT + PAIRS_FLOAT + [p for p in PAIRS_MIXED if not isinstance(p[0] + p[1], complex)]),
    "enumerate": Case(enumerate_sum, [()]), "enumerate_start": Case(enumerate_start, [()]),
    "float": Case(float_, INTS + FLOATS + [True, "1.5", "-inf", " 3 "]), "float_inf": Case(float_inf, [True, False]),
    "hex": Case(hex_, [0, 255, -255, 2 ** 40]), "oct": Case(oct_, [0, 8, -9, 2 ** 40]),
    "str": Case(str_, [0, -17, 2 ** 62, 1.5, -0.0, 1e300, math.nan, True, "x"]),
    "int_base": Case(int_base, [("ff", 16), ("-101", 2), ("z", 36), ("12", 10), ("0x1f", 0), ("9", 8), ("0x1f", 16),
                                ("0X_1F", 0), ("0b101", 0), ("-0o17", 8), ("0o17", 16), ("010", 0), ("0_0", 0),
                                ("00", 0), ("0x", 16), ("0b2", 0), ("12", 1), ("12", 37), (" 1_000 ", 0)]),
    "int": Case(int_, [0, -3, 2.9, -2.9, True, "42", " -7 ", 1e18]),  # int(nan/inf) saturates (documented)
    "iter_next": Case(iter_next, [((1, 2, 3),), ([4.5, 6.5],)]),
    "max2": Case(max2, SAME_TYPE_PAIRS), "min2": Case(min2, SAME_TYPE_PAIRS),
    "max_iter": Case(max_iter, [((1, 5, 3),), ([2.5, -1.0, math.nan],), ((-0.0, 0.0),), ([3],), ((),)]),
    "min_iter": Case(min_iter, [((1, 5, 3),), ([2.5, -1.0, math.nan],), ((0.0, -0.0),), ([3],)]),
    "max3": Case(max3, [((1, 5, 3),), ((2.5, math.nan, 1.0),), ((math.nan, 1.0, 2.0),)]),
    "round1": Case(round1, [0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 7, -7]),  # past int64: documented
    "round2": Case(round2, [(1234.5678, -2), (0.5, 0), (-1.25, 1), (7, -1), (15, -1), (1e300, 3)]),  # Numba's digits
    "sum": Case(sum_, [((1, 2, 3),), ([0.1, 0.2, 0.3],), ((),), ([True, True],), ((1, 2.5),)]),
    "sum_start": Case(sum_start, [((1, 2), 10), ([0.5, 0.25], 1.5), ((), -3)]),
    "truth": Case(truth, REAL + COMPLEX + [True, False, "", "a"]),
    "chr": Case(chr_, [65, 0, 0x1F600, 0xD800, 0x110000, -1]), "ord": Case(ord_, ["a", "é", "😀", "ab"]),
    "zip": Case(zip_sum, [()]), "zip3": Case(zip3, [()]),
    "pow": Case(pow_, [p for p in PAIRS_INT if 0 <= p[1] and abs(p[0]) < 2 ** 12] + domain(math.pow, PAIRS_FLOAT)
                 + [(2.0, 0.5)]),
    "pow_op": Case(pow_op, [(2, 10), (-3, 3), (2, 0), (1.5, 2), (2.0, -2), (0.0, 0), (1j, 2), (2, 1.5)]),
    "pow3": Case(pow3, [(2, 10, 7), (3, 0, 5), (-2, 3, 5), (2, 3, -5), (2, 3, 0), (7, -1, 5)]),
    "isinstance": Case(isinstance_int, [1, 1.5, True, 1j]),
    "all": Case(all_, [((1, 2, 0),), ((),), ([True, True],), ((0.0,),), ((math.nan,),)]),
    "any": Case(any_, [((0, 0, 3),), ((),), ([False],), ((-0.0,),)]),
    "map": Case(map_sum, [((1, -2, 3),), ([-0.5, 1.5],)]),
    "filter": Case(filter_count, [((0, 1, 2, 0),), ([0.0, -0.0, 1.5],)]),
    "format": Case(format_, [(3.14159, ".2f"), (42, "05d"), (255, "x"), (-1.5, "e"), ("ab", ">4")]),
    "math.sin": Case(m_sin, domain(math.sin, UNIT + [1e300])),
    "math.cos": Case(m_cos, domain(math.cos, UNIT)),
    "math.tan": Case(m_tan, domain(math.tan, UNIT)),
    "math.sinh": Case(m_sinh, domain(math.sinh, UNIT + [1000.0])),
    "math.cosh": Case(m_cosh, domain(math.cosh, UNIT)),
    "math.tanh": Case(m_tanh, domain(math.tanh, UNIT)),
    "math.asin": Case(m_asin, domain(math.asin, UNIT)),
    "math.acos": Case(m_acos, domain(math.acos, UNIT)),
    "math.atan": Case(m_atan, domain(math.atan, UNIT)),
    "math.atan2": Case(m_atan2, [(x, y) for x in (-2, -0.0, 0.0, 1.5) for y in (-1, -0.0, 0.0, 2.5, math.inf)]),
    "math.asinh": Case(m_asinh, UNIT),
    "math.acosh": Case(m_acosh, domain(math.acosh, [1, 2, 0.5, 1e300, math.inf])),
    "math.atanh": Case(m_atanh, domain(math.atanh, [-0.5, 0.0, 0.2, 1.0, 2.0])),
    "math.sqrt": Case(m_sqrt, domain(math.sqrt, POS + [-0.0, 4, 2 ** 53 + 1])),
    "np.sqrt": Case(np_sqrt, POS + [4, -0.0]),
    "math.exp": Case(m_exp, domain(math.exp, UNIT + [710.0, -1000.0])),
    "math.exp2": Case(m_exp2, UNIT + [1023.0, 1024.0, -1080.0, 3, True, math.inf, -math.inf, math.nan, -0.0]),
    "math.expm1": Case(m_expm1, domain(math.expm1, UNIT + [1e-10])),
    "math.log": Case(m_log, domain(math.log, POS)),
    "math.log_base": Case(m_log_base, [(8, 2), (100, 10), (1.5, 0.5)]),
    "math.log1p": Case(m_log1p, domain(math.log1p, POS + [-1.0, -0.5])),
    "math.log10": Case(m_log10, domain(math.log10, POS)),
    "math.log2": Case(m_log2, domain(math.log2, POS)),
    "math.floor": Case(m_floor, [0.1, 1.9, -1.9, -0.0, 5, 1e18]),  # of inf, nan or past int64: documented
    "math.ceil": Case(m_ceil, [0.1, 1.9, -1.9, -0.0, 5]),
    "math.trunc": Case(m_trunc, [0.1, 1.9, -1.9, -0.0, 5, 1e18]),
    "math.isnan": Case(m_isnan, REAL),
    "math.isinf": Case(m_isinf, REAL),
    "math.isfinite": Case(m_isfinite, REAL),
    "math.hypot": Case(m_hypot, [(3, 4), (-0.0, 0.0), (1e300, 1e300), (math.inf, math.nan), (1.5, -2.5)]),
    "math.nextafter": Case(m_nextafter, [(1.0, 2.0), (0.0, -1.0), (1.0, 1.0), (math.inf, 0.0), (1.0, math.nan),
                                         (3, 4), (-0.0, 0.0), (5e-324, 0.0), (1.7976931348623157e308, math.inf)]),
    "math.degrees": Case(m_degrees, UNIT),
    "math.radians": Case(m_radians, UNIT),
    "math.erf": Case(m_erf, UNIT, tol="ulp"),
    "math.erfc": Case(m_erfc, UNIT, tol="ulp"),
    "math.gamma": Case(m_gamma, domain(math.gamma, [1, 2, 3, 4, 5, 6, 0.21, 0.34, -0.5, 0.0, -1.0, 171.7]), tol="ulp"),
    "math.lgamma": Case(m_lgamma, domain(math.lgamma, [1, 2, 3, 4, 5, 6, 0.21, 0.34, -0.5, 0.0]), tol="ulp"),
    "math.pow": Case(m_pow, domain(math.pow, [(2, 10), (2.0, -1), (-8.0, 1 / 3), (0.0, -1.0), (1e300, 2),
                                              (math.nan, 0)])),
    "math.gcd": Case(m_gcd, [(12, 18), (-4, 6), (0, 0), (0, -5), (2 ** 40, 2 ** 30)]),
    "math.copysign": Case(m_copysign, [(1.5, -0.0), (-2, 3), (math.inf, -1.0), (0.0, -1)]),
    "math.frexp": Case(m_frexp, [0.0, -0.0, 1.0, 3.5, -1e300, 5e-324, math.inf, math.nan]),
    "math.ldexp": Case(m_ldexp, domain(math.ldexp, [(1.0, 3), (0.75, -2), (1.0, 2000), (1.0, -2000), (-0.0, 5)])),
    "math.fmod": Case(m_fmod, domain(math.fmod, [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (1.0, 0.0), (math.inf, 1.0),
                                                 (3, 2)])),
    "math.remainder": Case(m_remainder, domain(math.remainder, [(5.0, 3.0), (-5.0, 3.0), (7.5, 2.0), (6.5, 2.0), (-0.0, 1.0),
                                                           (1e300, 3.0), (5.5, math.inf), (math.nan, 1.0), (1.0, 0.0),
                                                           (math.inf, 2.0), (3, 2)])),
    "math.fabs": Case(m_fabs, [-1.5, -0.0, 3, math.nan]),
    "math.factorial": Case(m_factorial, [0, 1, 5, 20, -1]),
    "math.isclose": Case(m_isclose, [(1.0, 1.0 + 1e-10), (1.0, 1.1), (math.inf, math.inf), (0.0, 1e-300)]),
    "math.constants": Case(m_constants, [()]),
    "op.add": Case(op_add, ALL_PAIRS + [("ab", "cd"), ((1, 2), (3,))]), "op.iadd": Case(op_iadd, ALL_PAIRS),
    "op.sub": Case(op_sub, ALL_PAIRS), "op.mul": Case(op_mul, ALL_PAIRS + [("ab", 3), (2, "x")]),
    "op.imul": Case(op_imul, ALL_PAIRS),
    "op.floordiv": Case(op_floordiv, PAIRS_INT + PAIRS_FLOAT + PAIRS_MIXED[:6]),
    "op.ifloordiv": Case(op_ifloordiv, PAIRS_INT + PAIRS_FLOAT),
    "op.truediv": Case(op_truediv, ALL_PAIRS), "op.itruediv": Case(op_itruediv, ALL_PAIRS),
    "op.mod": Case(op_mod, PAIRS_INT + PAIRS_FLOAT + PAIRS_MIXED[:6]), "op.imod": Case(op_imod, PAIRS_INT + PAIRS_FLOAT),
    "op.lshift": Case(op_lshift, [p for p in SHIFT_PAIRS if p[1] < 22 or p[0] == 0]),
    "op.rshift": Case(op_rshift, SHIFT_PAIRS), "op.ilshift": Case(op_ilshift, [(1, 3), (-5, 2), (3, -1)]),
    "op.and": Case(op_and, PAIRS_INT + [(True, False), (True, 3)]), "op.or": Case(op_or, PAIRS_INT + [(True, False)]),
    "op.xor": Case(op_xor, PAIRS_INT + [(True, True)]), "op.ixor": Case(op_ixor, PAIRS_INT),
    "op.invert": Case(op_invert, INTS + [True, False]), "op.not": Case(op_not, REAL + COMPLEX + [True]),
    "op.neg": Case(op_neg, INTS + FLOATS + COMPLEX + [True]), "op.pos": Case(op_pos, INTS + FLOATS + COMPLEX + [True]),
    "op.lt": Case(op_lt, ORDERED_PAIRS + [("a", "b"), ((1, 2), (1, 3))]), "op.le": Case(op_le, ORDERED_PAIRS),
    "op.gt": Case(op_gt, ORDERED_PAIRS), "op.ge": Case(op_ge, ORDERED_PAIRS),
    "op.eq": Case(op_eq, ALL_PAIRS + [("a", "a"), ((1, 2), (1, 2))]), "op.ne": Case(op_ne, ALL_PAIRS),
    "op.in": Case(op_in, [(1, (1, 2)), (3, (1, 2)), ("b", "abc"), (2.0, [1.0, 2.0])]),
    "op.not_in": Case(op_not_in, [(1, (1, 2)), ("z", "abc")]),
    "op.is": Case(op_is, [(None, None), (1, 1), ((1,), (1,))]),
    "pow.static_neg3": Case(static_pow_neg3, [2, -3, 2.0, -0.5, True]),  # complex: polar formula (documented)
    "pow.static_7": Case(static_pow_7, [2, -3, 1.5, 1e40, 1 + 1j, np.float32(1.5)], tol="ulp"),  # squaring
    "pow.static_half": Case(static_pow_half, [4, 2.0, 0.0, -0.0, math.inf]),  # (-1) ** 0.5 is nan (C pow)
    "op.matmul": Case(matmul_op, [(np.arange(6.0).reshape(2, 3), np.arange(3.0)), (np.eye(2), np.eye(2))]),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = {
    'all', 'any', 'format', 'hex', 'map', 'math.factorial',
    'oct', 'op.is'
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
