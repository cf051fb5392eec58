"""Scalar float32 semantics as Numba types them, and NumPy's division semantics in
array expressions.

Numba's typing (numba/core/typing/builtins.py, mathdecl.py, cpython/numbers.py):
- `**` with a float base and an integer exponent keeps the base's type (BinOpPower has
  float32 ** int32/int64/uint64 -> float32) and is computed by repeated squaring in that
  type (int_power_impl; unrolled multiplications for a constant exponent,
  static_power_impl), 1/r for a negative exponent, pow() past 0x10000;
- `math.*` of float32 arguments (all of them) is float32, computed with the float32 libm
  function; anything else is float64 (math.pow(float32, int) is float64 ** int);
- the arithmetic operators follow the usual promotion: float32 with a Python int or float,
  int32 or int64 is float64; with bool, int8, int16, uint8, float32 it stays float32.
The expected dtypes below are those rules; the expected values are computed with NumPy
float32 arithmetic in Numba's order, or with the C library's float32 functions through
ctypes (the functions compiled code calls), so equality is exact.
"""

import ctypes
import ctypes.util
import math

import numpy as np
import pytest

from mahou import njit

F32 = np.float32
LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")


def libm_f32(name, *args):
    fn = getattr(LIBM, name)
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float] * len(args)
    return F32(fn(*[float(a) for a in args]))


def squaring_power(x, n):
    """Numba's int_power: repeated squaring in x's own type, 1/r when n < 0."""
    t = type(x)
    r, a, e = t(1), x, abs(n)
    with np.errstate(all="ignore"):
        while e:
            if e & 1:
                r = t(r * a)
            e >>= 1
            a = t(a * a)
        return t(t(1) / r) if n < 0 else r


def result_type(fn, *args):
    d = njit(fn)
    d(*args)
    return str(d.nopython_signatures[-1].return_type)


# ---------------------------------------------------------------------------
# ** : float ** integer keeps the float type, by repeated squaring
# ---------------------------------------------------------------------------
def pow2(x):
    return x ** 2


def pow3(x):
    return x ** 3


def pow6(x):
    return x ** 6


def pow_m3(x):
    return x ** -3


def pow0(x):
    return x ** 0


def pow_n(x, n):
    return x ** n


def pow_builtin(x, n):
    return pow(x, n)


def lj(r):
    return (1.0 / r) ** 6


@pytest.mark.parametrize("x", [F32(0.7), F32(1.1), F32(-2.5), F32(3e-13), F32(1e10), F32(np.inf), F32(np.nan)])
def test_float32_constant_powers(x):
    with np.errstate(all="ignore"):
        for fn, n in [(pow2, 2), (pow3, 3), (pow6, 6), (pow_m3, -3), (pow0, 0)]:
            got = njit(fn)(x)
            want = squaring_power(x, n)
            assert result_type(fn, x) == "float32"
            assert np.array_equal(F32(got), want, equal_nan=True), (fn.__name__, x, got, want)
            assert F32(got) == want or (np.isnan(got) and np.isnan(want))


def test_issue_example_bit_for_bit():
    # x ** 2 of float32 0.7 is the float32 square (Numba: 0.4899999797344208), not the
    # float64 one (0.4899999833106996).
    assert njit(pow2)(F32(0.7)) == 0.4899999797344208
    assert njit(lambda_sqrt)(F32(2.0)) == 1.4142135381698608


def lambda_sqrt(x):
    return math.sqrt(x)


@pytest.mark.parametrize("etype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64, int])
def test_float32_power_of_integer_variable(etype):
    for x in [F32(0.7), F32(-1.3), F32(2.0)]:
        for n in [0, 1, 2, 5, 7, 13, 31, 64]:
            got = njit(pow_n)(x, etype(n))
            assert result_type(pow_n, x, etype(n)) == "float32"
            assert F32(got) == squaring_power(x, n), (x, n)
            assert F32(njit(pow_builtin)(x, etype(n))) == squaring_power(x, n)


@pytest.mark.parametrize("x", [0.7, -1.3, 1.0000001, 2.0, 1e-3])
def test_float64_power_of_integer(x):
    for n in [-7, -2, -1, 0, 1, 2, 3, 6, 10, 17, 100]:
        assert njit(pow_n)(x, n) == squaring_power(x, n), (x, n)
    assert njit(pow6)(x) == squaring_power(x, 6)
    assert njit(pow_m3)(x) == squaring_power(x, -3)


def test_power_past_squaring_limit_uses_pow():
    x = 1.0000001
    assert njit(pow_n)(x, 70000) == x ** 70000.0
    assert njit(pow_n)(x, -70000) == x ** -70000.0


def test_lennard_jones_term():
    for r in [0.9, 1.0, 1.12, 2.5]:
        assert njit(lj)(r) == squaring_power(1.0 / r, 6)


def test_zero_to_negative_power_raises():
    with pytest.raises(ZeroDivisionError):
        njit(pow_m3)(0.0)
    with pytest.raises(ZeroDivisionError):
        njit(pow_m3)(F32(0.0))
    with pytest.raises(ZeroDivisionError):
        njit(pow_n)(0.0, -1)
    with pytest.raises(ZeroDivisionError):
        njit(pow_n)(0, -1)
    assert njit(pow_n)(2, -1) == 0  # Numba: int ** negative int is 0 unless the base is +-1
    assert njit(pow_n)(-1, -3) == -1
    assert njit(pow_n)(0.0, 0) == 1.0


def test_power_result_types():
    assert result_type(pow_n, F32(2), F32(3)) == "float32"
    assert result_type(pow_n, F32(2), 3.0) == "float64"
    assert result_type(pow_n, 3, F32(2)) == "float64"
    assert result_type(pow_n, 2.0, np.int32(3)) == "float64"
    assert result_type(pow_n, 2, 3) == "int64"


# ---------------------------------------------------------------------------
# Arithmetic operators: Numba's promotion of float32 with other scalars
# ---------------------------------------------------------------------------
def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def neg(a):
    return -a


def absolute(a):
    return abs(a)


@pytest.mark.parametrize("other, expected", [
    (2, "float64"), (2.0, "float64"), (F32(2), "float32"), (np.int32(2), "float64"), (np.int64(2), "float64"),
    (np.int16(2), "float32"), (np.int8(2), "float32"), (np.uint8(2), "float32"), (True, "float32"),
    (np.float64(2), "float64"),
])
def test_float32_operator_promotion(other, expected):
    x = F32(0.7)
    wide = np.float64 if expected == "float64" else F32
    for fn in (add, mul, div):
        assert result_type(fn, x, other) == expected, (fn.__name__, other)
        # NumPy 2 keeps float32 + Python scalar in float32 (NEP 50); Numba widens it.
        assert njit(fn)(x, other) == fn(wide(x), wide(other)), (fn.__name__, other)
    assert result_type(neg, x) == "float32"
    assert result_type(absolute, x) == "float32"


# ---------------------------------------------------------------------------
# math.* of float32 is float32, computed by the float32 C function
# ---------------------------------------------------------------------------
UNARY = {
    "sqrt": "sqrtf", "exp": "expf", "expm1": "expm1f", "log": "logf", "log2": "log2f", "log10": "log10f",
    "log1p": "log1pf", "sin": "sinf", "cos": "cosf", "tan": "tanf", "asin": "asinf", "acos": "acosf",
    "atan": "atanf", "sinh": "sinhf", "cosh": "coshf", "tanh": "tanhf", "asinh": "asinhf", "acosh": "acoshf",
    "atanh": "atanhf", "erf": "erff", "erfc": "erfcf", "lgamma": "lgammaf", "fabs": "fabsf",
}
BINARY = {"atan2": "atan2f", "hypot": "hypotf", "copysign": "copysignf", "pow": "powf"}


# One function per math function (compiled functions need source that inspect can find).
def m_sqrt(x): return math.sqrt(x)
def m_exp(x): return math.exp(x)
def m_expm1(x): return math.expm1(x)
def m_log(x): return math.log(x)
def m_log2(x): return math.log2(x)
def m_log10(x): return math.log10(x)
def m_log1p(x): return math.log1p(x)
def m_sin(x): return math.sin(x)
def m_cos(x): return math.cos(x)
def m_tan(x): return math.tan(x)
def m_asin(x): return math.asin(x)
def m_acos(x): return math.acos(x)
def m_atan(x): return math.atan(x)
def m_sinh(x): return math.sinh(x)
def m_cosh(x): return math.cosh(x)
def m_tanh(x): return math.tanh(x)
def m_asinh(x): return math.asinh(x)
def m_acosh(x): return math.acosh(x)
def m_atanh(x): return math.atanh(x)
def m_erf(x): return math.erf(x)
def m_erfc(x): return math.erfc(x)
def m_lgamma(x): return math.lgamma(x)
def m_fabs(x): return math.fabs(x)
def m_atan2(x, y): return math.atan2(x, y)
def m_hypot(x, y): return math.hypot(x, y)
def m_copysign(x, y): return math.copysign(x, y)
def m_pow(x, y): return math.pow(x, y)
def m_floor(x): return math.floor(x)
def m_degrees(x): return math.degrees(x)
def m_radians(x): return math.radians(x)
def m_gamma(x): return math.gamma(x)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_math_unary_float32(name):
    fn = globals()["m_" + name]
    for v in [0.7, 0.3, 1.5, 2.0, 0.05, 3.7, -0.4]:
        x = F32(v)
        with np.errstate(all="ignore"):
            want = libm_f32(UNARY[name], x)
        got = njit(fn)(x)
        assert result_type(fn, x) == "float32"
        assert np.array_equal(F32(got), want, equal_nan=True), (name, x, got, want)
    # Integers and float64 compute in float64.
    assert result_type(fn, 2) == "float64"
    assert result_type(fn, 0.5) == "float64"


@pytest.mark.parametrize("name", sorted(BINARY))
def test_math_binary_float32(name):
    fn = globals()["m_" + name]
    for a, b in [(0.7, 0.3), (-1.5, 2.5), (3.0, -0.25)]:
        x, y = F32(a), F32(b)
        with np.errstate(all="ignore"):
            want = libm_f32(BINARY[name], x, y)
        assert result_type(fn, x, y) == "float32"
        assert np.array_equal(F32(njit(fn)(x, y)), want, equal_nan=True), (name, x, y)
    # A float32 with anything else is float64.
    assert result_type(fn, F32(0.7), 0.3) == "float64"
    assert result_type(fn, F32(0.7), np.int32(3)) == "float64"


def test_math_misc_float32():
    x = F32(0.7)
    assert result_type(m_floor, x) == "int64" and njit(m_floor)(F32(-0.5)) == -1
    assert result_type(m_degrees, x) == "float32"
    assert F32(njit(m_degrees)(x)) == x * F32(180 / math.pi)
    assert F32(njit(m_radians)(x)) == x * F32(math.pi / 180)
    assert result_type(m_gamma, x) == "float32"
    assert abs(njit(m_gamma)(x) - math.gamma(float(x))) <= 2 * np.spacing(F32(math.gamma(float(x))))
    # math.pow(float32, int) is float64 ** int (repeated squaring in float64).
    assert result_type(m_pow, x, 3) == "float64"
    assert njit(m_pow)(x, 3) == squaring_power(float(x), 3)


# ---------------------------------------------------------------------------
# Array expressions divide as NumPy: no ZeroDivisionError, inf/nan, integers 0
# ---------------------------------------------------------------------------
def arr_div(a, b):
    return a / b


def arr_floordiv(a, b):
    return a // b


def arr_mod(a, b):
    return a % b


def arr_pow(a, b):
    return a ** b


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8])
def test_array_division_by_zero_as_numpy(dtype):
    a = np.array([1, 0, 3, 7, 5, 2]).astype(dtype)
    b = np.array([0, 0, 0, 2, 3, 1]).astype(dtype)
    if dtype in (np.int64, np.int32):
        a = np.array([1, 0, -3, -7, 5, -2], dtype=dtype)
        b = np.array([0, 0, 0, 2, -3, 1], dtype=dtype)
    with np.errstate(all="ignore"):
        for fn in (arr_div, arr_floordiv, arr_mod):
            want = fn(a, b)
            got = njit(fn)(a, b)
            assert got.dtype == want.dtype
            assert np.array_equal(got, want, equal_nan=True), (fn.__name__, got, want)
            # a scalar divisor too
            assert np.array_equal(njit(fn)(a, dtype(0)), fn(a, dtype(0)), equal_nan=True)


def test_array_float_power_is_numpys():
    a = np.array([0.7, 1.1, -2.5, 3.0, 0.0])
    with np.errstate(all="ignore"):
        got = njit(arr_pow)(a, 3)
        want = np.power(a, 3.0)
    np.testing.assert_allclose(got, want, rtol=2e-16)
    assert njit(arr_pow)(a.astype(np.float32), 2).dtype == np.float32


def test_scalar_division_by_zero_still_raises():
    with pytest.raises(ZeroDivisionError):
        njit(div)(1.0, 0.0)
    with pytest.raises(ZeroDivisionError):
        njit(div)(F32(1.0), F32(0.0))
