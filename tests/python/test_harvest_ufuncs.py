"""Harvested from Numba's ufunc tests (numba/tests/test_ufuncs.py): every ufunc mahou
documents, called on Numba's inputs (scalars and arrays of uint32, int32, uint64, int64,
float32, float64, int8, int16, uint8, uint16, with both operands alike as Numba does,
and mixed pairs) plus complex values, NaN, infinities, -0.0 and views, compiled vs NumPy
(harvest.py). Transcendental ufuncs are compared within 8 units in the last place
(NumPy's SIMD loops vs the libm); where NumPy computes small integers in float16 and
compiled code in float32 (Numba's choice, docs/supported.md) the dtype is compared by
kind. Cases mahou does not compile yet are in EXPECTED_REFUSALS."""

import sys

import numpy as np
import pytest

from harvest import Case, run_harvested

SCALARS = [np.uint32(0), np.uint32(1), np.int32(-1), np.int32(0), np.int32(1), np.uint64(0), np.uint64(1),
           np.int64(-1), np.int64(0), np.int64(1), np.float32(-0.5), np.float32(0.0), np.float32(0.5),
           np.float64(-0.5), np.float64(0.0), np.float64(0.5), 3, -2.5, 1.5 + 0.5j]
ARRAYS = [np.array([0, 1], dtype="u4"), np.array([0, 1], dtype="u8"), np.array([-1, 0, 1], dtype="i4"),
          np.array([-1, 0, 1], dtype="i8"), np.array([-0.5, 0.0, 0.5], dtype="f4"),
          np.array([-0.5, 0.0, 0.5], dtype="f8"), np.array([0, 1], dtype=np.int8), np.array([0, 1], dtype=np.int16),
          np.array([0, 1], dtype=np.uint8), np.array([0, 1], dtype=np.uint16), np.array([True, False])]
EDGES = [np.array([np.nan, np.inf, -np.inf, -0.0, 1e300, -1e-310, 7.25, -3.0]),
         np.array([np.nan, np.inf, -0.0, 2.5], dtype=np.float32),
         np.array([1 + 2j, -0.5j, complex(np.nan, 1), complex(0, -0.0), 3 + 0j]),
         np.array([-2 ** 63, 2 ** 63 - 1, -7, 9], dtype=np.int64), np.array([0, 255, 128, 3], dtype=np.uint8),
         np.array([0, 2 ** 64 - 1, 2 ** 63], dtype=np.uint64), np.arange(12.0).reshape(3, 4)[::-1, ::2] - 5,
         np.arange(6, dtype=np.int32).reshape(2, 3).T - 2]
UNARY_INPUTS = SCALARS + ARRAYS + EDGES
# NumPy refuses bools in these (compiled code takes them as int8): not compared.
NO_BOOL = [x for x in UNARY_INPUTS if not (isinstance(x, np.ndarray) and x.dtype == np.bool_)]
BINARY_INPUTS = [(x, x) for x in UNARY_INPUTS] + [
    (np.array([1, 2, 3], dtype=np.int64), np.array([0.5, -1.5, 2.0], dtype=np.float32)),
    (np.array([1, 2, 3], dtype=np.uint64), np.array([-1, 2, 3], dtype=np.int64)),
    (np.arange(6.0).reshape(2, 3), np.array([1.0, -2.0, 0.0])), (np.arange(4, dtype=np.int8), 3),
    (2.5, np.array([1.0, 0.0, -4.0])), (np.array([7, -7, 0], dtype=np.int32), np.array([2, -3, 5], dtype=np.int32)),
    (np.array([np.nan, 1.0, -0.0]), np.array([0.0, np.nan, 0.0]))]
# np.power of integers with a negative exponent: NumPy raises, compiled code gives 0 or
# +-1 (documented, as Numba; Numba's test takes non-negative inputs only).
POWER_INPUTS = [(a, b) for a, b in BINARY_INPUTS
                if np.asarray(b).dtype.kind in "fc" or not np.any(np.asarray(b) < 0)]
# np.spacing(-0.0) is negative in compiled code (documented, as Numba).
SPACING_INPUTS = [x for x in UNARY_INPUTS if not np.any((np.asarray(x) == 0) & np.signbit(np.asarray(x).real))]
BINARY_NO_BOOL = [(a, b) for a, b in BINARY_INPUTS if not (isinstance(a, np.ndarray) and a.dtype == np.bool_)]


def u_negative(a):
    return np.negative(a)


def u_positive(a):
    return np.positive(a)


def u_absolute(a):
    return np.absolute(a)


def u_abs(a):
    return np.abs(a)


def u_fabs(a):
    return np.fabs(a)


def u_rint(a):
    return np.rint(a)


def u_sign(a):
    return np.sign(a)


def u_conj(a):
    return np.conj(a)


def u_conjugate(a):
    return np.conjugate(a)


def u_sqrt(a):
    return np.sqrt(a)


def u_square(a):
    return np.square(a)


def u_reciprocal(a):
    return np.reciprocal(a)


def u_floor(a):
    return np.floor(a)


def u_ceil(a):
    return np.ceil(a)


def u_trunc(a):
    return np.trunc(a)


def u_isfinite(a):
    return np.isfinite(a)


def u_isinf(a):
    return np.isinf(a)


def u_isnan(a):
    return np.isnan(a)


def u_signbit(a):
    return np.signbit(a)


def u_spacing(a):
    return np.spacing(a)


def u_logical_not(a):
    return np.logical_not(a)


def u_invert(a):
    return np.invert(a)


def u_bitwise_not(a):
    return np.bitwise_not(a)


def u_exp(a):
    return np.exp(a)


def u_exp2(a):
    return np.exp2(a)


def u_expm1(a):
    return np.expm1(a)


def u_log(a):
    return np.log(a)


def u_log2(a):
    return np.log2(a)


def u_log10(a):
    return np.log10(a)


def u_log1p(a):
    return np.log1p(a)


def u_cbrt(a):
    return np.cbrt(a)


def u_sin(a):
    return np.sin(a)


def u_cos(a):
    return np.cos(a)


def u_tan(a):
    return np.tan(a)


def u_arcsin(a):
    return np.arcsin(a)


def u_arccos(a):
    return np.arccos(a)


def u_arctan(a):
    return np.arctan(a)


def u_sinh(a):
    return np.sinh(a)


def u_cosh(a):
    return np.cosh(a)


def u_tanh(a):
    return np.tanh(a)


def u_arcsinh(a):
    return np.arcsinh(a)


def u_arccosh(a):
    return np.arccosh(a)


def u_arctanh(a):
    return np.arctanh(a)


def u_deg2rad(a):
    return np.deg2rad(a)


def u_rad2deg(a):
    return np.rad2deg(a)


def u_degrees(a):
    return np.degrees(a)


def u_radians(a):
    return np.radians(a)


def b_add(a, b):
    return np.add(a, b)


def b_subtract(a, b):
    return np.subtract(a, b)


def b_multiply(a, b):
    return np.multiply(a, b)


def b_divide(a, b):
    return np.divide(a, b)


def b_true_divide(a, b):
    return np.true_divide(a, b)


def b_floor_divide(a, b):
    return np.floor_divide(a, b)


def b_remainder(a, b):
    return np.remainder(a, b)


def b_mod(a, b):
    return np.mod(a, b)


def b_fmod(a, b):
    return np.fmod(a, b)


def b_power(a, b):
    return np.power(a, b)


def b_gcd(a, b):
    return np.gcd(a, b)


def b_lcm(a, b):
    return np.lcm(a, b)


def b_bitwise_and(a, b):
    return np.bitwise_and(a, b)


def b_bitwise_or(a, b):
    return np.bitwise_or(a, b)


def b_bitwise_xor(a, b):
    return np.bitwise_xor(a, b)


def b_left_shift(a, b):
    return np.left_shift(a, b)


def b_right_shift(a, b):
    return np.right_shift(a, b)


def b_greater(a, b):
    return np.greater(a, b)


def b_greater_equal(a, b):
    return np.greater_equal(a, b)


def b_less(a, b):
    return np.less(a, b)


def b_less_equal(a, b):
    return np.less_equal(a, b)


def b_equal(a, b):
    return np.equal(a, b)


def b_not_equal(a, b):
    return np.not_equal(a, b)


def b_logical_and(a, b):
    return np.logical_and(a, b)


def b_logical_or(a, b):
    return np.logical_or(a, b)


def b_logical_xor(a, b):
    return np.logical_xor(a, b)


def b_maximum(a, b):
    return np.maximum(a, b)


def b_minimum(a, b):
    return np.minimum(a, b)


def b_fmax(a, b):
    return np.fmax(a, b)


def b_fmin(a, b):
    return np.fmin(a, b)


def b_copysign(a, b):
    return np.copysign(a, b)


def b_nextafter(a, b):
    return np.nextafter(a, b)


def b_heaviside(a, b):
    return np.heaviside(a, b)


def b_hypot(a, b):
    return np.hypot(a, b)


def b_logaddexp(a, b):
    return np.logaddexp(a, b)


def b_logaddexp2(a, b):
    return np.logaddexp2(a, b)


def b_arctan2(a, b):
    return np.arctan2(a, b)


def b_float_power(a, b):
    return np.float_power(a, b)


CASES = {
    "negative": Case(u_negative, NO_BOOL),
    "positive": Case(u_positive, NO_BOOL),
    "absolute": Case(u_absolute, UNARY_INPUTS),
    "abs": Case(u_abs, UNARY_INPUTS),
    "fabs": Case(u_fabs, UNARY_INPUTS),
    "rint": Case(u_rint, UNARY_INPUTS),
    "sign": Case(u_sign, NO_BOOL, zero_sign=False),  # np.sign(-0.0) is -0.0 as Numba
    "conj": Case(u_conj, UNARY_INPUTS),
    "conjugate": Case(u_conjugate, UNARY_INPUTS),
    "sqrt": Case(u_sqrt, UNARY_INPUTS, kind_only=True),
    "square": Case(u_square, UNARY_INPUTS),
    "reciprocal": Case(u_reciprocal, UNARY_INPUTS),
    "floor": Case(u_floor, UNARY_INPUTS),
    "ceil": Case(u_ceil, UNARY_INPUTS),
    "trunc": Case(u_trunc, UNARY_INPUTS),
    "isfinite": Case(u_isfinite, UNARY_INPUTS),
    "isinf": Case(u_isinf, UNARY_INPUTS),
    "isnan": Case(u_isnan, UNARY_INPUTS),
    "signbit": Case(u_signbit, UNARY_INPUTS),
    "spacing": Case(u_spacing, SPACING_INPUTS, kind_only=True),
    "logical_not": Case(u_logical_not, UNARY_INPUTS),
    "invert": Case(u_invert, UNARY_INPUTS),
    "bitwise_not": Case(u_bitwise_not, UNARY_INPUTS),
    "exp": Case(u_exp, UNARY_INPUTS, tol="ulp", kind_only=True),
    "exp2": Case(u_exp2, UNARY_INPUTS, tol="ulp", kind_only=True),
    "expm1": Case(u_expm1, UNARY_INPUTS, tol="ulp", kind_only=True),
    "log": Case(u_log, UNARY_INPUTS, tol="ulp", kind_only=True),
    "log2": Case(u_log2, UNARY_INPUTS, tol="ulp", kind_only=True),
    "log10": Case(u_log10, UNARY_INPUTS, tol="ulp", kind_only=True),
    "log1p": Case(u_log1p, UNARY_INPUTS, tol="ulp", kind_only=True),
    "cbrt": Case(u_cbrt, UNARY_INPUTS, tol="ulp", kind_only=True),
    "sin": Case(u_sin, UNARY_INPUTS, tol="ulp", kind_only=True),
    "cos": Case(u_cos, UNARY_INPUTS, tol="ulp", kind_only=True),
    "tan": Case(u_tan, UNARY_INPUTS, tol="ulp", kind_only=True),
    "arcsin": Case(u_arcsin, UNARY_INPUTS, tol="ulp", kind_only=True),
    "arccos": Case(u_arccos, UNARY_INPUTS, tol="ulp", kind_only=True),
    "arctan": Case(u_arctan, UNARY_INPUTS, tol="ulp", kind_only=True),
    "sinh": Case(u_sinh, UNARY_INPUTS, tol="ulp", kind_only=True),
    "cosh": Case(u_cosh, UNARY_INPUTS, tol="ulp", kind_only=True),
    "tanh": Case(u_tanh, UNARY_INPUTS, tol="ulp", kind_only=True),
    "arcsinh": Case(u_arcsinh, UNARY_INPUTS, tol="ulp", kind_only=True),
    "arccosh": Case(u_arccosh, UNARY_INPUTS, tol="ulp", kind_only=True),
    "arctanh": Case(u_arctanh, UNARY_INPUTS, tol="ulp", kind_only=True),
    "deg2rad": Case(u_deg2rad, UNARY_INPUTS, tol="ulp", kind_only=True),
    "rad2deg": Case(u_rad2deg, UNARY_INPUTS, tol="ulp", kind_only=True),
    "degrees": Case(u_degrees, UNARY_INPUTS, tol="ulp", kind_only=True),
    "radians": Case(u_radians, UNARY_INPUTS, tol="ulp", kind_only=True),
    "add": Case(b_add, BINARY_INPUTS),
    "subtract": Case(b_subtract, BINARY_INPUTS),
    "multiply": Case(b_multiply, BINARY_INPUTS),
    "divide": Case(b_divide, BINARY_INPUTS),
    "true_divide": Case(b_true_divide, BINARY_INPUTS),
    "floor_divide": Case(b_floor_divide, BINARY_INPUTS),
    "remainder": Case(b_remainder, BINARY_INPUTS),
    "mod": Case(b_mod, BINARY_INPUTS),
    "fmod": Case(b_fmod, BINARY_INPUTS),
    "power": Case(b_power, POWER_INPUTS, tol="ulp"),  # complex: CPython's formula
    "gcd": Case(b_gcd, BINARY_NO_BOOL),
    "lcm": Case(b_lcm, BINARY_NO_BOOL),
    "bitwise_and": Case(b_bitwise_and, BINARY_INPUTS),
    "bitwise_or": Case(b_bitwise_or, BINARY_INPUTS),
    "bitwise_xor": Case(b_bitwise_xor, BINARY_INPUTS),
    "left_shift": Case(b_left_shift, BINARY_INPUTS),
    "right_shift": Case(b_right_shift, BINARY_INPUTS),
    "greater": Case(b_greater, BINARY_INPUTS),
    "greater_equal": Case(b_greater_equal, BINARY_INPUTS),
    "less": Case(b_less, BINARY_INPUTS),
    "less_equal": Case(b_less_equal, BINARY_INPUTS),
    "equal": Case(b_equal, BINARY_INPUTS),
    "not_equal": Case(b_not_equal, BINARY_INPUTS),
    "logical_and": Case(b_logical_and, BINARY_INPUTS),
    "logical_or": Case(b_logical_or, BINARY_INPUTS),
    "logical_xor": Case(b_logical_xor, BINARY_INPUTS),
    "maximum": Case(b_maximum, BINARY_INPUTS, zero_sign=False),  # which of 0.0/-0.0
    "minimum": Case(b_minimum, BINARY_INPUTS, zero_sign=False),  # which of 0.0/-0.0
    "fmax": Case(b_fmax, BINARY_INPUTS, zero_sign=False),  # which of 0.0/-0.0
    "fmin": Case(b_fmin, BINARY_INPUTS, zero_sign=False),  # which of 0.0/-0.0
    "copysign": Case(b_copysign, BINARY_INPUTS, kind_only=True),
    "nextafter": Case(b_nextafter, BINARY_INPUTS, kind_only=True),
    "heaviside": Case(b_heaviside, BINARY_INPUTS, kind_only=True),
    "hypot": Case(b_hypot, BINARY_INPUTS, kind_only=True),
    "logaddexp": Case(b_logaddexp, BINARY_INPUTS, tol="ulp", kind_only=True),
    "logaddexp2": Case(b_logaddexp2, BINARY_INPUTS, tol="ulp", kind_only=True),
    "arctan2": Case(b_arctan2, BINARY_INPUTS, tol="ulp", kind_only=True),
    "float_power": Case(b_float_power, BINARY_INPUTS, tol="ulp", kind_only=True),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = set()


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
