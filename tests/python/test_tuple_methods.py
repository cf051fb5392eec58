"""Tuple methods and operators: t.index(x) (ValueError when absent), t.count(x), t * n and
n * t with a constant n, `in`, comparisons; homogeneous, mixed and named tuples, each
compiled and run by CPython on the same inputs."""

from collections import namedtuple

import pytest

from mahou import njit
from conftest import same_as_python
from mahou.errors import TypingError, UnsupportedError

Point = namedtuple("Point", "x y z")


def same(f, *args):
    same_as_python(f, *args, same_type=True)


def index(t, x):
    return t.index(x)


def count(t, x):
    return t.count(x)


def index_and_count_twice(t, x):
    return t.index(x) + t.count(x) * 10 + t.index(t[0])


TUPLES = [(4, 5, 6), (4, 5, 4, 4), (-1, -2, -1), (1.5, -0.0, 2.5), (7,), (), ("a", "b", "a"),
          (1, 2.0, "x", 2), Point(3, -3, 3), (True, 1, 1.0)]
NEEDLES = [4, -1, 0, 2, 2.0, -0.0, "a", "x", 3, True, 99]


@pytest.mark.parametrize("t", TUPLES, ids=repr)
@pytest.mark.parametrize("x", NEEDLES, ids=repr)
def test_index_count(t, x):
    same(index, t, x)
    same(count, t, x)


def test_index_twice_and_nan():
    same(index_and_count_twice, (4, 5, 4), 4)
    same(index_and_count_twice, (2.5, float("nan")), 2.5)
    nan = float("nan")
    assert njit(count)((nan, 1.0), nan) == 0  # NaN is equal to nothing (Python's identity rule aside)
    with pytest.raises(ValueError, match="not in tuple"):
        njit(index)((nan,), nan)


def repeat(t):
    return t * 3, 2 * t, t * 1, t * 0, t * -2, t * True, False * t


def repeat_expr(n):
    return (n, n - 1.5) * 2, 3 * (n,)


@pytest.mark.parametrize("t", [(1, 2), (-1.5,), ("a", 1, 2.5), (), Point(1, 2, 3), ((1, 2), (3, 4))], ids=repr)
def test_repeat(t):
    same(repeat, t)


@pytest.mark.parametrize("n", [0, -4, 7])
def test_repeat_of_an_expression(n):
    same(repeat_expr, n)


def test_repeat_evaluates_the_tuple_once():
    def f(xs):
        t = (xs.pop(),) * 3
        u = (xs.pop(),) * 0  # still evaluated, as in Python
        return t, u, len(xs)
    assert njit(f)([1, 2, 3]) == f([1, 2, 3])


def contains_and_compare(t, u, x):
    return x in t, x not in u, t < u, t <= u, t == u, t != u, t > u, t >= u


@pytest.mark.parametrize("t,u", [((1, 2), (1, 3)), ((1, 2), (1, 2)), ((3,), (1, 2)), ((), (0,)),
                                 ((-1.5, 2), (-1.5, 2.0))], ids=repr)
@pytest.mark.parametrize("x", [1, 2, -1.5, 9])
def test_contains_and_compare(t, u, x):
    same(contains_and_compare, t, u, x)


def test_refusals():
    def runtime_count(t, n):
        return t * n
    with pytest.raises(UnsupportedError, match="known at compile time"):
        njit(runtime_count)((1, 2), 2)

    def float_count(t):
        return t * 1.5
    with pytest.raises(TypingError, match="non-int"):
        njit(float_count)((1, 2))

    def arity(t):
        return t.index()
    with pytest.raises(TypingError):
        njit(arity)((1, 2))
