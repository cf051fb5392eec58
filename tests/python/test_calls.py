"""Calls between compiled functions, recursion, callees defined after the caller,
module-level constants captured as globals."""

import math

import numpy as np
import pytest

from conftest import check, jitted
from mahou import jit, njit

# ---------------------------------------------------------------------------
# Module-level constants (captured when the function is compiled)
# ---------------------------------------------------------------------------

SCALE = 3
RATE = 0.25
NEG = -7
BIG = 2**40 + 1
FLAG = True
OFFSETS = (1, 2, 3)
MIXED = (2, 0.5)


# ---------------------------------------------------------------------------
# Helpers called from compiled functions
# ---------------------------------------------------------------------------


@njit
def square(x):
    return x * x


@njit
def hypot2(a, b):
    return square(a) + square(b)


@njit
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@njit
def divmod_pair(a, b):
    return a // b, a % b


@njit
def array_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def fill_with(a, v):
    for i in range(a.shape[0]):
        a[i] = v


def uses_helpers(a, b):
    return hypot2(a, b), square(a - b), clamp(a, 0, 10)


@pytest.mark.parametrize("a,b", [(3, 4), (-2, 5), (0, 0), (20, -1)])
def test_call_helper_int(a, b):
    check(uses_helpers, a, b)


@pytest.mark.parametrize("a,b", [(1.5, 2.5), (-0.5, 12.0)])
def test_call_helper_float(a, b):
    # clamp(a, 0, 10) with a float returns an int or a float depending on the path in
    # Python; the compiled version unifies to float, so compare the first two only
    r = jitted(uses_helpers)(a, b)
    assert r[0] == a * a + b * b and isinstance(r[0], float)
    assert r[1] == (a - b) * (a - b)


def test_helper_called_directly_and_from_caller():
    assert square(7) == 49
    assert hypot2(3, 4) == 25
    assert hypot2(1.5, 2.0) == 6.25
    assert square(2.5) == 6.25


def calls_tuple_helper(a, b):
    q, r = divmod_pair(a, b)
    return q * b + r, q, r


@pytest.mark.parametrize("a,b", [(17, 5), (-17, 5), (17, -5), (0, 3)])
def test_call_helper_returning_tuple(a, b):
    check(calls_tuple_helper, a, b)


def calls_array_helpers(a):
    fill_with(a, 2.5)
    return array_sum(a)


def test_call_helper_with_array():
    check(calls_array_helpers, np.zeros(4))
    check(calls_array_helpers, np.zeros(10)[::3])


def helper_in_loop(n):
    total = 0
    for i in range(n):
        total += clamp(square(i) - 20, -5, 50)
    return total


@pytest.mark.parametrize("n", [0, 1, 10, 30])
def test_call_helper_in_loop(n):
    check(helper_in_loop, n)


# ---------------------------------------------------------------------------
# Callee defined after the caller
# ---------------------------------------------------------------------------


@njit
def caller_first(n):
    return defined_later(n) + 1


@njit
def defined_later(n):
    return n * 10


def test_callee_defined_after_caller():
    assert caller_first(4) == 41
    assert caller_first(-1) == -9


# ---------------------------------------------------------------------------
# Recursion
# ---------------------------------------------------------------------------


@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@njit
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@njit
def float_power(x, n):
    if n == 0:
        return 1.0
    half = float_power(x, n // 2)
    if n % 2 == 0:
        return half * half
    return half * half * x


def _py_fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@pytest.mark.parametrize("n", [0, 1, 2, 10, 20, 25])
def test_fib(n):
    assert fib(n) == _py_fib(n)
    assert fib(n) == fib.py_func(n)


@pytest.mark.parametrize("n", [0, 1, 5, 20, 25])
def test_factorial(n):
    r = factorial(n)
    assert r == ((math.factorial(n) + 2**63) % 2**64) - 2**63  # 21! and up wrap
    assert isinstance(r, (int, np.integer))


def test_factorial_values():
    assert factorial(10) == 3628800
    assert factorial(20) == 2432902008176640000


@pytest.mark.parametrize("x,n", [(2.0, 10), (1.5, 7), (0.5, 0), (-3.0, 5)])
def test_recursive_float(x, n):
    r = float_power(x, n)
    assert r == float_power.py_func(x, n)
    assert isinstance(r, float)


def calls_fib(n):
    return fib(n) + factorial(5)


def test_call_recursive_from_compiled():
    check(calls_fib, 15)


# ---------------------------------------------------------------------------
# Globals captured as constants
# ---------------------------------------------------------------------------


def use_scalar_globals(x):
    return x * SCALE + NEG, x * RATE, BIG + x, FLAG and x > 0


@pytest.mark.parametrize("x", [0, 5, -3])
def test_scalar_globals(x):
    check(use_scalar_globals, x)


def use_tuple_global(x):
    s = 0
    a, b, c = OFFSETS
    s = a + b * x + c * x * x
    return s, OFFSETS[0], OFFSETS[-1], OFFSETS


@pytest.mark.parametrize("x", [0, 2, -4])
def test_tuple_global(x):
    check(use_tuple_global, x)


def use_mixed_tuple_global(x):
    k, w = MIXED
    return x * k + w, MIXED, MIXED[0] - MIXED[-1]


def test_mixed_tuple_global():
    check(use_mixed_tuple_global, 3)
    check(use_mixed_tuple_global, 2.5)


def use_math_constant(r):
    return math.pi * r * SCALE


def test_global_constant_with_module_constant():
    check(use_math_constant, 2.0)


def test_global_loop_bound():
    def f(a):
        for i in range(SCALE):
            a[i] = i * RATE + OFFSETS[2]
        return a

    check(f, np.zeros(5))


def test_decorated_caller_inside_test_uses_module_helper():
    @njit
    def g(x):
        return square(x) + SCALE

    assert g(4) == 19
    assert g(0.5) == 3.25


def test_jit_decorator_same_as_njit():
    @jit
    def f(x, y):
        return square(x) - y

    @jit(boundscheck=True)
    def g(a, i):
        return a[i] * SCALE

    assert f(3, 1) == 8
    assert f(0.5, 0.25) == 0.0
    assert g(np.arange(4), 2) == 6
    with pytest.raises(IndexError):
        g(np.arange(4), 4)
