"""min() and max() of strings (several arguments, a tuple, a list, a set, a string's
characters, a generator) and of empty iterables (ValueError as Python, also of an empty
tuple), compiled and run by CPython on the same inputs."""

import numpy as np
import pytest

import mahou
from mahou import njit, typed

from conftest import same_as_python as same


def of_arguments(a, b):
    return min(a, b), max(a, b), min(a, b, "m"), max(a, "zz", b), min("q", a)


def of_containers(a, b):
    t = (a, b, a + b)
    return min(t), max(t), min([a, b]), max([b, a]), min({a, b}), max({a, b})


def of_characters(s):
    return min(s), max(s)


@njit
def words(a, b):
    yield a
    yield b
    yield a + "!"


def of_generator(a, b):
    return min(words(a, b)), max(words(a, b))


WORDS = ["", "a", "b", "ab", "B", "abc", "ñ", "🐍", "a\x00", "zz", "Z"]


@pytest.mark.parametrize("a", WORDS, ids=repr)
@pytest.mark.parametrize("b", ["", "a", "b", "ñu", "abd"], ids=repr)
def test_strings(a, b):
    same(of_arguments, a, b)
    same(of_containers, a, b)
    same(of_generator, a, b)


@pytest.mark.parametrize("s", ["hello", "a", "", "zyxñ🐍", "AaBb"], ids=repr)
def test_characters(s):
    same(of_characters, s)  # ValueError for ""


def empty_tuple(x):
    t = ()
    return max(t) if x > 0 else min(t)


def max_of(x):
    return max(x)


def min_of(x):
    return min(x)


@pytest.mark.parametrize("x", [(), typed.List.empty_list(mahou.int64), range(0), range(5, 1), "", (1, 5, 3), [2.5, -1.0], (-0.0, 0.0),
                               ["b", "a"], ("b", "c", "a"), range(-3, 4, 2)], ids=repr)
def test_empty_and_not(x):
    same(max_of, x)
    same(min_of, x)


def test_empty_tuple_raises_when_run():
    same(empty_tuple, 1)
    same(empty_tuple, -1)


def test_empty_set_dict_and_array():
    def f(n):
        return max(set(range(n)))

    def g(n):
        return min({i: i for i in range(n)})

    def h(n):
        return max(np.arange(n))
    for fn in (f, g):
        same(fn, 0)
        same(fn, 4)
    assert njit(h)(3) == 2
    with pytest.raises(ValueError):
        njit(h)(0)


def test_mixed_types_are_refused():
    from mahou.errors import TypingError

    def f(a):
        return min(a, 1)
    with pytest.raises(TypingError):
        njit(f)("x")
