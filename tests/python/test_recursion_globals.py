"""Global names resolved when a function is compiled (a callee defined later in the
module than its caller), self-recursion in a function compiled eagerly from an explicit
signature (the name is not bound yet when the decorator compiles it, also as a closure
variable), and mutual recursion as Numba allows it (each cycle with a base case that
returns first)."""

import numpy as np
import pytest

from conftest import assert_same
from mahou import njit
from mahou.errors import TypingError


@njit
def calls_later(x):
    return defined_later(x) + 1


@njit
def defined_later(x):
    return x * 2


def test_callee_defined_after_the_caller():
    assert calls_later(3) == 7
    assert calls_later(-1.5) == -2.0


@njit("float64(float64)")
def fact(n):
    if n <= 1.0:
        return 1.0
    return n * fact(n - 1.0)


@njit("int64(int64)")
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n=n - 2)


def make_fib():
    @njit("i8(i8)")
    def fib2(n):  # a closure variable, not bound until the decorator returns
        if n < 2:
            return n
        return fib2(n - 1) + fib2(n - 2)

    return fib2


@pytest.mark.parametrize("n", [0, 1, 2, 10, 20])
def test_eager_self_recursion(n):
    def py_fib(k):
        return k if k < 2 else py_fib(k - 1) + py_fib(k - 2)

    assert fib(n) == py_fib(n)
    assert make_fib()(n) == py_fib(n)
    assert fact(float(n)) == float(np.prod(np.arange(1, n + 1, dtype=np.float64)))
    assert len(fib.overloads) == 1


def test_unbound_other_name_is_still_an_error():
    with pytest.raises(TypingError, match="name 'not_defined_anywhere' is not defined"):
        @njit("int64(int64)")
        def bad(n):
            return not_defined_anywhere(n)  # noqa: F821


@njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@njit
def ping(x, depth):
    if depth <= 0:
        return x
    return pong(x * 0.5, depth - 1) + 1.0


@njit
def pong(x, depth):
    if depth <= 0:
        return x
    return pang(x + 1.0, depth - 1)


@njit
def pang(x, depth):
    if depth <= 0:
        return x
    return ping(x, depth - 1) * 2.0


def py_ping(x, depth):
    return x if depth <= 0 else py_pong(x * 0.5, depth - 1) + 1.0


def py_pong(x, depth):
    return x if depth <= 0 else py_pang(x + 1.0, depth - 1)


def py_pang(x, depth):
    return x if depth <= 0 else py_ping(x, depth - 1) * 2.0


@pytest.mark.parametrize("n", [0, 1, 7, 10])
def test_mutual_recursion(n):
    assert is_even(n) == (n % 2 == 0)
    assert is_odd(n) == (n % 2 == 1)


@pytest.mark.parametrize("x,depth", [(1.0, 0), (3.0, 5), (-2.5, 9)])
def test_three_function_cycle(x, depth):
    assert ping(x, depth) == py_ping(x, depth)
    assert pang(x, depth) == py_pang(x, depth)


@njit
def walk_a(a, i):
    if i >= a.shape[0]:
        return 0.0
    return a[i] + walk_b(a, i + 1)


@njit
def walk_b(a, i):
    if i >= a.shape[0]:
        return 0.0
    return -a[i] + walk_a(a, i + 1)


def test_mutual_recursion_over_arrays():
    for a in (np.arange(6.0), np.empty(0), np.arange(10.0)[::3], np.arange(5, dtype=np.float32)):
        expected = sum(x if k % 2 == 0 else -x for k, x in enumerate(a.tolist()))
        assert walk_a(a, 0) == expected


@njit
def base_late_a(n):
    if n > 0:
        return base_late_b(n - 1)
    return 1.0


@njit
def base_late_b(n):
    if n > 0:
        return base_late_a(n - 1)
    return 2


def test_mutual_recursion_without_a_base_case_first_is_refused():
    # The first function's base case comes after its recursive call: nothing tells the
    # type of the call back to it (Numba refuses it too).
    with pytest.raises(TypingError, match="cannot infer the return type of the recursive call"):
        base_late_a(3)
