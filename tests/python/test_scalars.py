"""Scalars: argument types, arithmetic, promotion, bitwise ops, comparisons,
and/or, conditional expressions, the math module, casts.

NumPy scalars are only mixed with NumPy scalars (never with Python literals) where
NumPy's "weak Python scalar" rule would give a different type than Numba's rule
(a Python int/float literal is int64/float64).
"""

import math

import numpy as np
import pytest

from conftest import (
    FLOAT_DTYPES,
    INT64_MAX,
    INT64_MIN,
    INT_DTYPES,
    SIGNED_DTYPES,
    check,
    jitted,
)

# ---------------------------------------------------------------------------
# Integer arithmetic (Python ints are int64, overflow wraps)
# ---------------------------------------------------------------------------


def int_add(a, b):
    return a + b


def int_sub(a, b):
    return a - b


def int_mul(a, b):
    return a * b


def int_truediv(a, b):
    return a / b


def int_floordiv(a, b):
    return a // b


def int_mod(a, b):
    return a % b


def int_divmod_mix(a, b):
    q = a // b
    r = a % b
    return q * b + r


INT_PAIRS = [
    (7, 3),
    (-7, 3),
    (7, -3),
    (-7, -3),
    (0, 5),
    (6, 3),
    (-6, 3),
    (1, 1),
    (123456789, 1000),
    (-123456789, 1000),
    (2**62, 3),
    (-(2**62), 7),
    (INT64_MAX, 2),
    (INT64_MIN, 2),
    (INT64_MIN + 1, -1),
]


@pytest.mark.parametrize("a,b", INT_PAIRS)
@pytest.mark.parametrize("fn", [int_add, int_sub, int_mul, int_floordiv, int_mod, int_divmod_mix])
def test_int_arith(fn, a, b):
    check(fn, a, b)


@pytest.mark.parametrize("a,b", [(7, 3), (-7, 3), (7, -3), (-7, -3), (0, 5), (1, 3), (2**52, 3), (-5, 2)])
def test_int_truediv_gives_float(a, b):
    r = check(int_truediv, a, b)
    assert isinstance(r, float)


@pytest.mark.parametrize(
    "a,b",
    [
        (INT64_MAX, 1),  # wraps to INT64_MIN
        (INT64_MIN, -1),
        (2**62, 2**62),
        (-(2**62), -(2**62) - 1),
    ],
)
def test_int_add_overflow_wraps(a, b):
    r = check(int_add, a, b)
    assert INT64_MIN <= r <= INT64_MAX


@pytest.mark.parametrize(
    "a,b", [(2**62, 4), (3037000500, 3037000500), (INT64_MAX, INT64_MAX), (INT64_MIN, -1), (-(2**40), 2**40 + 3)]
)
def test_int_mul_overflow_wraps(a, b):
    check(int_mul, a, b)


def test_int_overflow_explicit_values():
    f = jitted(int_add)
    assert f(INT64_MAX, 1) == INT64_MIN
    g = jitted(int_mul)
    assert g(2**62, 4) == 0
    assert g(2**32, 2**32) == 0
    h = jitted(int_sub)
    assert h(INT64_MIN, 1) == INT64_MAX


def int_pow(a, b):
    return a**b


@pytest.mark.parametrize("a,b", [(2, 10), (-3, 5), (3, 0), (0, 0), (0, 3), (7, 1), (-1, 63), (2, 62), (10, 18), (3, 41), (2, 64)])
def test_int_pow(a, b):
    r = check(int_pow, a, b)
    assert isinstance(r, (int, np.integer))


def int_accumulate(n, k):
    x = 1
    for i in range(n):
        x = x * k + i
    return x


@pytest.mark.parametrize("n,k", [(0, 3), (5, 3), (40, 3), (100, 7), (64, 2), (30, -5)])
def test_int_wrap_in_loop(n, k):
    check(int_accumulate, n, k)


# ---------------------------------------------------------------------------
# Float arithmetic
# ---------------------------------------------------------------------------

FLOAT_PAIRS = [
    (7.5, 2.0),
    (-7.5, 2.0),
    (7.5, -2.0),
    (-7.5, -2.0),
    (0.1, 0.2),
    (1e300, 1e-300),
    (0.0, 3.0),
    (-0.0, 3.0),
    (5.0, 0.3),
    (-5.0, 0.3),
    (1.0, 3.0),
    (1e16, 1.0),
    (math.inf, 2.0),
    (2.0, math.inf),
    (math.nan, 1.0),
]


def float_ops(a, b):
    return a + b, a - b, a * b, a / b


def float_floor_mod(a, b):
    return a // b, a % b


@pytest.mark.parametrize("a,b", FLOAT_PAIRS)
def test_float_arith(a, b):
    check(float_ops, a, b)


@pytest.mark.parametrize("a,b", [p for p in FLOAT_PAIRS if not any(math.isinf(v) or math.isnan(v) for v in p)])
def test_float_floordiv_mod_python_signs(a, b):
    check(float_floor_mod, a, b)


def test_float_mod_sign_explicit():
    f = jitted(float_floor_mod)
    assert f(-7.5, 2.0) == (-4.0, 0.5)
    assert f(7.5, -2.0) == (-4.0, -0.5)
    g = jitted(int_mod)
    assert g(-7, 3) == 2
    assert g(7, -3) == -2
    h = jitted(int_floordiv)
    assert h(-7, 2) == -4
    assert h(7, -2) == -4


def float_pow(a, b):
    return a**b


@pytest.mark.parametrize("a,b", [(2.0, 0.5), (1.5, 3.0), (10.0, -2.0), (0.5, 10.0), (2.0, 0.0), (0.0, 2.0), (1.1, 100.0)])
def test_float_pow(a, b):
    check(float_pow, a, b, rtol=1e-12)


@pytest.mark.parametrize("a,b", [(2.0, 3), (1.5, 10), (-2.0, 5), (0.5, 0), (10.0, -2)])
def test_float_pow_int_exponent(a, b):
    r = check(float_pow, a, b, rtol=1e-12)
    assert isinstance(r, float)


def mixed_int_float(i, x):
    return i + x, i - x, i * x, i / x, x / i, i < x, i == x


@pytest.mark.parametrize("i,x", [(3, 1.5), (-3, 1.5), (2, 2.0), (1, -0.25), (10**15, 0.5), (7, 1e-3)])
def test_mixed_int_float(i, x):
    check(mixed_int_float, i, x)


# ---------------------------------------------------------------------------
# NumPy scalar arguments of every dtype
# ---------------------------------------------------------------------------


def same_type_int_ops(x, y):
    return x + y, x * y, x // y, x % y, x - y, x > y, x == y, x != y, x <= y


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("a,b", [(13, 4), (4, 13), (9, 9), (0, 7), (100, 1)])
def test_numpy_int_scalars(dtype, a, b):
    if a < b and dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        a, b = b + 1, a + 1  # keep unsigned subtraction non-negative, no division by 0
    check(same_type_int_ops, dtype(a), dtype(b))


def signed_ops(x, y):
    return x - y, -x, x // y, x % y, abs(x), abs(y)


@pytest.mark.parametrize("dtype", SIGNED_DTYPES)
@pytest.mark.parametrize("a,b", [(-13, 4), (13, -4), (-13, -4), (-1, 5)])
def test_numpy_signed_negative(dtype, a, b):
    check(signed_ops, dtype(a), dtype(b))


def same_type_float_ops(x, y):
    return x + y, x - y, x * y, x / y, x // y, x % y, -x, x < y, x >= y


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("a,b", [(1.75, -0.5), (0.1, 0.3), (-3.25, 1.5), (1e10, 3.0), (2.5, 2.5), (1.0, 3.0)])
def test_numpy_float_scalars(dtype, a, b):
    check(same_type_float_ops, dtype(a), dtype(b))


def test_float32_stays_float32():
    # 0.1f + 0.2f computed in float32 is not the float64 sum.
    r = check(int_add, np.float32(0.1), np.float32(0.2))
    assert r == float(np.float32(np.float32(0.1) + np.float32(0.2)))
    assert float(r) != 0.1 + 0.2


def complex_ops(z, w):
    return z + w, z - w, z * w, z == w, z != w, -z


def complex_div(z, w):
    return z / w


COMPLEX_PAIRS = [(1 + 2j, 3 - 4j), (-1.5 + 0.5j, 2j), (0j, 1 + 1j), (2.5 + 0j, 2.5 + 0j), (1e10 - 1e-10j, -3 + 7j)]


@pytest.mark.parametrize("z,w", COMPLEX_PAIRS)
def test_python_complex(z, w):
    check(complex_ops, z, w)
    check(complex_div, z, w, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("z,w", [(1 + 2j, 3 - 4j), (-1.5 + 0.5j, 2j), (0.25 - 0.75j, 0.5 + 0.5j)])
def test_numpy_complex(dtype, z, w):
    check(complex_ops, dtype(z), dtype(w))
    check(complex_div, dtype(z), dtype(w), rtol=1e-12 if dtype is np.complex128 else 1e-6)


def test_complex_abs():
    check(abs_fn, 3 + 4j, rtol=1e-12)
    check(abs_fn, -1.5 + 0.25j, rtol=1e-12)
    check(abs_fn, np.complex64(3 + 4j), rtol=1e-6)


# ---------------------------------------------------------------------------
# Type promotion of mixed NumPy scalar types (NumPy's rules)
# ---------------------------------------------------------------------------


def add(a, b):
    return a + b


def mul(a, b):
    return a * b


@pytest.mark.parametrize(
    "a,b",
    [
        # int64 + float32 -> float64 (not float32: the sum is not representable in float32)
        (np.int64(2**40 + 1), np.float32(0.5)),
        (np.int64(-3), np.float32(0.1)),
        # int32 + int64 -> int64 (overflows int32)
        (np.int32(2**31 - 1), np.int64(2**31 - 1)),
        (np.int32(-(2**31)), np.int64(-(2**31))),
        # uint64 + int64 -> float64
        (np.uint64(2**63 + 4096), np.int64(-5)),
        (np.uint64(5), np.int64(3)),
        # int32 + float32 -> float64
        (np.int32(16777217), np.float32(1.0)),
        # float32 + float64 -> float64
        (np.float32(0.1), np.float64(0.2)),
        # int8 + float64 -> float64, int16 + int32 -> int32
        (np.int8(-7), np.float64(0.1)),
        (np.int16(300), np.int32(70000)),
        # uint32 + int32 -> int64
        (np.uint32(4000000000), np.int32(-5)),
        # complex64 + float64 -> complex128
        (np.complex64(1 + 2j), np.float64(0.1)),
    ],
)
def test_promotion(a, b):
    check(add, a, b)
    check(mul, a, b)


def test_promotion_result_kinds():
    f = jitted(add)
    r = f(np.uint64(5), np.int64(3))
    assert isinstance(r, (float, np.floating)) and r == 8.0
    r = f(np.int64(3), np.float32(1.5))
    assert isinstance(r, (float, np.floating)) and r == 4.5
    r = f(np.int32(2**31 - 1), np.int64(1))
    assert isinstance(r, (int, np.integer)) and r == 2**31
    r = f(np.int64(2**40 + 1), np.float32(0.5))
    assert r == 2.0**40 + 1.5


def test_unification_int_then_float():
    # x is an int on entry and a float after the loop: its one type is float64,
    # so even when the loop does not run the result is a float.
    def f(n):
        x = 0
        for i in range(n):
            x = x + 0.5
        return x

    cf = jitted(f)
    r = cf(0)
    assert isinstance(r, float) and r == 0.0
    assert cf(3) == 1.5 and isinstance(cf(3), float)


def test_unification_branches():
    def g(c):
        if c:
            y = 1
        else:
            y = 2.5
        return y

    cg = jitted(g)
    r = cg(True)
    assert isinstance(r, float) and r == 1.0
    assert cg(False) == 2.5


# ---------------------------------------------------------------------------
# Unary operators
# ---------------------------------------------------------------------------


def unary_int(x):
    return -x, +x, ~x, not x


def unary_float(x):
    return -x, +x, not x


@pytest.mark.parametrize("x", [0, 1, -1, 5, -17, 2**40, INT64_MAX, INT64_MIN])
def test_unary_int(x):
    check(unary_int, x)


@pytest.mark.parametrize("x", [0.0, -0.0, 1.5, -2.25, 1e300, math.inf, math.nan])
def test_unary_float(x):
    check(unary_float, x)


def not_bool(b):
    return not b


@pytest.mark.parametrize("b", [True, False, np.bool_(True), np.bool_(False)])
def test_not_bool(b):
    check(not_bool, b)


# ---------------------------------------------------------------------------
# Bitwise operators
# ---------------------------------------------------------------------------


def bitwise(a, b):
    return a & b, a | b, a ^ b


def shifts(a, n):
    return a << n, a >> n


@pytest.mark.parametrize("a,b", [(12, 10), (-12, 10), (-12, -10), (0, -1), (2**62 + 5, 3), (INT64_MIN, INT64_MAX), (255, 256)])
def test_bitwise(a, b):
    check(bitwise, a, b)


@pytest.mark.parametrize("a,n", [(1, 0), (1, 62), (1, 63), (-1, 63), (5, 3), (-17, 2), (INT64_MAX, 63), (INT64_MIN, 63), (12345, 40), (-12345, 7)])
def test_shifts(a, n):
    check(shifts, a, n)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_bitwise_numpy_ints(dtype):
    check(bitwise, dtype(12), dtype(10))
    check(shifts, dtype(5), dtype(2))


# ---------------------------------------------------------------------------
# Comparisons (chained), and/or, conditional expressions
# ---------------------------------------------------------------------------


def chained(a, b, c):
    return a < b < c, a <= b == c, a != b > c, a < b > c, a == b == c, a >= b >= c


@pytest.mark.parametrize("a,b,c", [(1, 2, 3), (3, 2, 1), (2, 2, 2), (1, 3, 2), (-1, 0, 0), (0, 0, 1)])
def test_chained_int(a, b, c):
    check(chained, a, b, c)


@pytest.mark.parametrize("a,b,c", [(1.0, 2.5, 3.0), (math.nan, 1.0, 2.0), (0.0, -0.0, 0.0), (-math.inf, 0.0, math.inf)])
def test_chained_float(a, b, c):
    check(chained, a, b, c)


def chained_short_circuit(a, b, n):
    # n // b is evaluated only when a < b holds: b == 0 makes that false first
    return a < b < n // b


def test_chained_short_circuit():
    check(chained_short_circuit, 1, 2, 10)
    check(chained_short_circuit, 1, 0, 10)  # 1 < 0 is false: no division by zero


def and_or(a, b):
    return a and b, a or b


@pytest.mark.parametrize("a,b", [(0, 5), (3, 0), (3, 5), (0, 0), (-1, 7)])
def test_and_or_ints_return_operands(a, b):
    check(and_or, a, b)


@pytest.mark.parametrize("a,b", [(0.0, 2.5), (1.5, 0.0), (1.5, 2.5), (0.0, 0.0)])
def test_and_or_floats(a, b):
    check(and_or, a, b)


@pytest.mark.parametrize("a,b", [(True, False), (False, True), (True, True), (False, False)])
def test_and_or_bools(a, b):
    check(and_or, a, b)


def short_circuit(n):
    ok = n != 0 and 100 // n > 3
    ok2 = n == 0 or 100 % n == 0
    return ok, ok2


@pytest.mark.parametrize("n", [0, 1, 7, 30, 50, -3])
def test_short_circuit(n):
    check(short_circuit, n)


def cond_expr(a, b):
    m = a if a > b else b
    s = -1 if a < 0 else (0 if a == 0 else 1)
    return m, s


@pytest.mark.parametrize("a,b", [(1, 2), (2, 1), (0, 0), (-5, -7), (-5, 3)])
def test_cond_expr_int(a, b):
    check(cond_expr, a, b)


@pytest.mark.parametrize("a,b", [(1.5, 2.5), (-0.5, -1.5), (0.0, 0.0)])
def test_cond_expr_float(a, b):
    check(cond_expr, a, b)


# ---------------------------------------------------------------------------
# math module and NumPy scalar functions
# ---------------------------------------------------------------------------


def math_transcendental(x):
    return math.sqrt(x), math.exp(x), math.log(x), math.sin(x), math.cos(x)


@pytest.mark.parametrize("x", [0.5, 1.0, 2.0, math.e, 10.0, 1e-8, 123.456, 700.0])
def test_math_transcendental(x):
    check(math_transcendental, x, rtol=1e-12)


def math_sqrt(x):
    return math.sqrt(x)


@pytest.mark.parametrize("x", [0.0, 1.0, 2.0, 4.0, 1e-300, 1e300, 0.1, math.inf])
def test_math_sqrt_exact(x):
    check(math_sqrt, x)


def math_sqrt_int(n):
    return math.sqrt(n)


@pytest.mark.parametrize("n", [0, 1, 2, 49, 10**12])
def test_math_sqrt_of_int(n):
    r = check(math_sqrt_int, n)
    assert isinstance(r, float)


def math_trig_neg(x):
    return math.sin(x), math.cos(x), math.exp(x)


@pytest.mark.parametrize("x", [-0.5, -3.0, -100.0, 0.0])
def test_math_negative_args(x):
    check(math_trig_neg, x, rtol=1e-12)


def math_floor(x):
    return math.floor(x)


@pytest.mark.parametrize("x", [2.5, -2.5, 2.0, -2.0, 0.0, -0.0, 0.999, -0.001, 1e15 + 0.5, -1e15 - 0.5])
def test_math_floor_returns_int(x):
    r = check(math_floor, x)
    assert isinstance(r, (int, np.integer)) and not isinstance(r, bool)


def math_fabs(x):
    return math.fabs(x)


@pytest.mark.parametrize("x", [-2.5, 2.5, 0.0, -0.0, -math.inf, 1e-320])
def test_math_fabs(x):
    check(math_fabs, x)


def test_math_fabs_int():
    r = check(math_fabs, -7)
    assert isinstance(r, float) and r == 7.0


def math_constants(r):
    return math.pi * r * r, math.e * r, r < math.inf, -math.inf < r, math.inf


@pytest.mark.parametrize("r", [0.0, 1.0, 2.5, -3.0, 1e308])
def test_math_constants(r):
    check(math_constants, r)


def math_isnan(x):
    return math.isnan(x)


@pytest.mark.parametrize("x", [math.nan, 1.0, math.inf, -math.inf, 0.0, -math.nan])
def test_math_isnan(x):
    r = check(math_isnan, x)
    assert r == (x != x)


def nan_from_inf(x):
    y = x - x
    return math.isnan(y), y


@pytest.mark.parametrize("x", [math.inf, 1.0])
def test_nan_generated(x):
    check(nan_from_inf, x)


def np_scalar_funcs(x):
    return np.sqrt(x), np.exp(x)


@pytest.mark.parametrize("x", [0.0, 0.25, 1.0, 2.0, 10.0, -1.5, 50.0])
def test_np_sqrt_exp_float64(x):
    check(np_scalar_funcs, x, rtol=1e-12)


@pytest.mark.parametrize("x", [0.0, 0.25, 1.0, 2.0, 10.0, 50.0])
def test_np_sqrt_exp_float32(x):
    check(np_scalar_funcs, np.float32(x), rtol=1e-6)


def np_sqrt(x):
    return np.sqrt(x)


@pytest.mark.parametrize("x", [np.float32(2.0), np.float32(0.1), np.float64(2.0), 9.0])
def test_np_sqrt_exact(x):
    check(np_sqrt, x)


def test_np_sqrt_int_gives_float():
    r = check(np_sqrt, 16)
    assert isinstance(r, (float, np.floating)) and r == 4.0


# ---------------------------------------------------------------------------
# Casts and builtins
# ---------------------------------------------------------------------------


def cast_int(x):
    return int(x)


@pytest.mark.parametrize("x", [2.7, -2.7, 0.0, -0.5, 1e18, -1e18, 123.0, True, False, 42, np.int32(-5), np.float32(3.75), np.uint8(200)])
def test_int_cast(x):
    r = check(cast_int, x)
    assert isinstance(r, (int, np.integer)) and not isinstance(r, bool)


def cast_float(x):
    return float(x)


@pytest.mark.parametrize("x", [3, -3, 0, 2**53, 2.5, np.int16(-7), np.float32(0.1), np.uint64(2**64 - 1)])
def test_float_cast(x):
    r = check(cast_float, x)
    assert isinstance(r, (float, np.floating))


def cast_bool(x):
    return bool(x)


@pytest.mark.parametrize("x", [0, 3, -1, 0.0, -0.0, -0.5, math.nan, math.inf, np.int8(0), np.float32(2.0), True, False])
def test_bool_cast(x):
    check(cast_bool, x)


def abs_fn(x):
    return abs(x)


@pytest.mark.parametrize("x", [5, -5, 0, INT64_MAX, INT64_MIN + 1, INT64_MIN, 2.5, -2.5, -0.0, -math.inf, math.nan])
def test_abs(x):
    check(abs_fn, x)


def min_max(a, b):
    return min(a, b), max(a, b)


@pytest.mark.parametrize("a,b", [(1, 2), (2, 1), (-5, -5), (INT64_MIN, INT64_MAX), (1.5, -2.5), (-0.5, 0.5), (3.0, 3.0)])
def test_min_max(a, b):
    check(min_max, a, b)


@pytest.mark.parametrize("dtype", [np.int32, np.uint16, np.float32])
def test_min_max_numpy(dtype):
    check(min_max, dtype(3), dtype(9))
    check(min_max, dtype(9), dtype(3))


def min_max_mixed_vars(a, b):
    lo = min(a, b)
    hi = max(a, b)
    return hi - lo


@pytest.mark.parametrize("a,b", [(10, 3), (3, 10), (-4, 4)])
def test_min_max_in_expr(a, b):
    check(min_max_mixed_vars, a, b)


# ---------------------------------------------------------------------------
# Bool arguments and bool arithmetic
# ---------------------------------------------------------------------------


def bool_logic(a, b):
    r = 0
    if a:
        r += 1
    if b:
        r += 2
    if a and not b:
        r += 4
    return r, a == b, int(a) + int(b)


@pytest.mark.parametrize("a,b", [(True, False), (False, True), (True, True), (False, False)])
def test_bool_args(a, b):
    check(bool_logic, a, b)


@pytest.mark.parametrize("a,b", [(True, False), (True, True), (False, False)])
def test_numpy_bool_args(a, b):
    check(bool_logic, np.bool_(a), np.bool_(b))


def bool_plus_int(b, n):
    return b + n, b * n, True + True


@pytest.mark.parametrize("b,n", [(True, 5), (False, 5), (True, -1)])
def test_bool_int_arith(b, n):
    check(bool_plus_int, b, n)


def identity(x):
    return x


@pytest.mark.parametrize(
    "x",
    [True, False, 0, -1, INT64_MAX, INT64_MIN, 0.5, -0.0, math.inf, math.nan, 1 + 2j]
    + [d(7) for d in INT_DTYPES]
    + [np.float32(1.5), np.float64(-2.25), np.complex64(1 - 1j), np.complex128(2 + 3j), np.bool_(True)],
)
def test_identity_each_scalar_type(x):
    check(identity, x)


def test_uint64_large_roundtrip():
    r = check(identity, np.uint64(2**64 - 1))
    assert r == 2**64 - 1
    r = check(add, np.uint64(2**63), np.uint64(5))
    assert r == 2**63 + 5
