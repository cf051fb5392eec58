"""Inner functions and lambdas as values: passed to @njit functions and to other inner
functions, stored in local variables and tuples, unrolled over with literal_unroll
(dispatched statically, as Numba does), compared with CPython; returning one is refused."""

import types
from functools import reduce

import numpy as np
import pytest

from conftest import assert_diagnostic, assert_no_leaks, assert_same, clone, jitted, line_of
from mahou import literal_unroll, njit
from mahou.errors import UnsupportedError


@njit
def apply(fn, x):
    return fn(x) * 7


@njit
def apply_keywords(fn, x, y):
    return fn(x, y=y) + fn(y, x)


@njit
def apply_star(fn, *args):
    return fn(*args)


@njit
def apply_nested(fn, x):
    return apply(fn, x) + 1  # the closure passed on to another @njit function


def closure_to_njit(x):
    k = 10

    def f(v):
        return v * k + 1
    return apply(f, x)


def lambda_to_njit(x):
    return apply(lambda v: v - 1, x)


def two_closures_one_callee(x):
    def f(v):
        return v + 1

    def g(v):
        return v * 2.5
    return apply(f, x), apply(g, x), apply_nested(f, x)


def keywords_through_the_parameter(x):
    off = 0.5

    def f(a, y=3):
        return a * y + off
    return apply_keywords(f, x, 2)


def star_arguments(x):
    def f(a, b):
        return a - b
    return apply_star(f, x, 1), apply_star(lambda: x)


def stored_in_a_variable(x):
    def g(y):
        return y + x
    h = g
    return h(1) + h(y=2)


def passed_to_an_inner_function(a):
    def twice(fn, v):
        return fn(fn(v))

    def inc(v):
        return v + 1
    return twice(inc, a), twice(lambda v: v * 3, a)


def held_in_a_tuple(n):
    def a(x):
        return x + 1

    def b(x):
        return x * 2
    fs = (a, b)
    return fs[0](n) + fs[1](n)


def unrolled_over_closures(n):
    def a(x):
        return [x + 1]

    def b(x):
        return [x * 2, x]
    out = []
    for f in literal_unroll((a, b)):
        out.extend(f(n))
    return out


def closure_over_an_array(a):
    def f(i):
        return a[i] * 2
    return apply(f, 1) + apply(f, 0)


def called_directly(x):
    return (lambda y: y + 1)(x)


def check(fn, *args):
    """The compiled function against CPython running it with the @njit helpers it calls
    as plain Python (a Python function cannot be passed to a compiled one)."""
    glob = dict(fn.__globals__)

    def python(f):
        return types.FunctionType(f.__code__, glob, f.__name__, f.__defaults__, f.__closure__)
    for k, v in fn.__globals__.items():
        if hasattr(v, "py_func"):
            glob[k] = python(v.py_func)
    py = python(fn)
    expected = py(*clone(args))
    got = jitted(fn)(*clone(args))
    assert_same(got, expected)
    return got


def test_passed_to_njit_functions():
    for x in (0, 3, -2):
        check(closure_to_njit, x)
        check(lambda_to_njit, x)
        check(two_closures_one_callee, x)
    check(closure_to_njit, np.arange(5))  # the closure applied to an array, as in Numba's demo
    check(star_arguments, 4)
    check(keywords_through_the_parameter, 4)
    check(keywords_through_the_parameter, 1.5)
    check(closure_over_an_array, np.array([1.5, 2.5]))


def test_variables_inner_functions_tuples_and_unrolling():
    check(stored_in_a_variable, 3)
    check(passed_to_an_inner_function, 2)
    check(passed_to_an_inner_function, 0.5)
    check(held_in_a_tuple, 5)
    check(unrolled_over_closures, 4)
    check(called_directly, 1)


def test_no_leaks_through_closures():
    f = jitted(closure_over_an_array)
    a = np.arange(4.0)
    assert_no_leaks(lambda: f(a), lambda: jitted(unrolled_over_closures)(3), repeat=200)


def map_filter_reduce(n):
    def mul(x, m):
        return x * m
    V = 20

    def big(x):
        return x > V
    a = [x ** 2 for x in range(n)]
    b = [i for i in range(n)]
    return reduce(lambda x, y: x * 2 + y, filter(big, map(mul, a, b)), 0)


def map_filter_reduce_forms(a):
    ones = list(map(lambda v: v + 1, a))
    threes = list(map(lambda x, y, z: x + y * z, a, a, a))
    return ones, threes, list(filter(None, a)), reduce(lambda x, y: x + y, a)


def reduce_of_nothing(a):
    return reduce(lambda x, y: x + y, a[:0])


def test_map_filter_and_reduce():
    for n in (0, 3, 10):
        check(map_filter_reduce, n)
    check(map_filter_reduce_forms, [0, 1, 2])
    check(map_filter_reduce_forms, [1.5, 0.0])
    for fn in (reduce_of_nothing, jitted(reduce_of_nothing)):
        with pytest.raises(TypeError, match="empty iterable"):
            fn([1, 2])


def returns_a_closure(x):
    def g(y):
        return y + x
    return g  # MARK-return


def returns_a_tuple_with_a_closure(x):
    f = lambda y: y  # noqa: E731
    return (f, x)  # MARK-tuple


def default_read_elsewhere(x):
    k = 2

    def g(y, z=k):
        return y * z
    return apply(g, x)  # MARK-default


def printed(x):
    f = lambda y: y + x  # noqa: E731
    print(f)  # MARK-print


def compared(x):
    f = lambda y: y + x  # noqa: E731
    g = lambda y: y - x  # noqa: E731
    return f == g  # MARK-compare


@pytest.mark.parametrize("fn, marker, text", [
    (printed, "MARK-print", "no text in compiled code"),
    (compared, "MARK-compare", "comparing inner functions"),
    (returns_a_closure, "MARK-return", "returning an inner function"),
    (returns_a_tuple_with_a_closure, "MARK-tuple", "returning an inner function"),
])
def test_refused_with_the_line(fn, marker, text):
    with pytest.raises(UnsupportedError) as info:
        jitted(fn)(1)
    msg = str(info.value)
    assert text in msg
    assert_diagnostic(msg, __file__, line_of(fn, marker), "")


def test_default_value_read_through_a_parameter_is_refused():
    with pytest.raises(UnsupportedError) as info:
        jitted(default_read_elsewhere)(1)
    assert "must be a constant" in str(info.value)
