"""sum(iterable, start) / sum(iterable, start=s): compiled against Python on lists,
tuples (mixed types), arrays (views, empty), sets, dict keys, comprehensions, ranges
and generators."""

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError


@njit
def gen(n):
    for i in range(n):
        yield i * 0.5


@njit
def sum_list(xs, s):
    return sum(xs, s)


@njit
def sum_keyword(xs, s):
    return sum(xs, start=s)


@njit
def sum_tuple(s):
    return sum((1, 2.5, True), s)


@njit
def sum_comprehension(n, s):
    return sum([i * i for i in range(n)], s)


@njit
def sum_range(n, s):
    return sum(range(n), s)


@njit
def sum_generator(n, s):
    return sum(gen(n), s)


@njit
def sum_set_and_dict(s):
    d = {1: 2.0, 5: 3.0}
    return sum({1, 2, 3}, s) + sum(d, s)


@pytest.mark.parametrize("xs", [[1, 2, 3], [-5, 7], [0.1, 0.2, 0.3], [1e16, 1.0, -1e16]])
@pytest.mark.parametrize("s", [0, 10, -3, 0.5, 1e16])
def test_lists(xs, s):
    for fn in (sum_list, sum_keyword):
        got, want = fn(list(xs), s), fn.py_func(list(xs), s)
        assert got == want and type(got) is type(want)


@pytest.mark.parametrize("a", [np.arange(5.0), np.empty(0), np.linspace(-1, 1, 9)[::3], np.arange(6, dtype=np.int32)])
def test_arrays(a):
    for s in (0, 2.5, -7):
        assert sum_list(a, s) == sum_list.py_func(a, s)


@pytest.mark.parametrize("s", [0, 4, 0.25])
def test_other_iterables(s):
    assert sum_tuple(s) == sum_tuple.py_func(s)
    for n in (0, 1, 6):
        assert sum_comprehension(n, s) == sum_comprehension.py_func(n, s)
        assert sum_range(n, s) == sum_range.py_func(n, s)
        assert sum_generator(n, s) == sum_generator.py_func(n, s)
    assert sum_set_and_dict(s) == sum_set_and_dict.py_func(s)


def test_strings_are_refused():
    @njit
    def f(xs):
        return sum(xs, "")

    with pytest.raises(TypingError, match="can't sum strings"):
        f(["a", "b"])
