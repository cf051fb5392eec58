"""A list display mixing values and None is a list of optionals, as Numba types it:
iteration with `is None` tests, indexing, appends of values and None, stores, len,
returning it to Python; strings too (their references counted). Compiled against Python."""

import mahou
import pytest
from mahou import njit


@njit
def count_and_sum(n):
    xs = [1, None, n]
    s = 0
    c = 0
    for x in xs:
        if x is not None:
            s += x
        else:
            c += 1
    return s, c


@njit
def grow(n):
    xs = [None, 2.5, None]
    for i in range(n):
        xs.append(None if i % 2 else i * 0.5)
    xs[0] = 7.0
    return len(xs), xs[0], xs


@njit
def strings(n):
    xs = [None, "a", "b" * n]
    xs.append(None)
    return xs, xs[2]


@pytest.mark.parametrize("n", [0, 1, 5, -3])
def test_values_and_none(n):
    assert count_and_sum(n) == count_and_sum.py_func(n)
    assert grow(n) == grow.py_func(n)
    assert strings(n) == strings.py_func(n)


def test_no_references_left():
    strings(2)
    before = mahou._core.live_allocations()
    for n in range(20):
        strings(n)
        grow(n)
    assert mahou._core.live_allocations() == before


def test_only_none_is_still_refused_where_the_item_type_is_unknown():
    @njit
    def f():
        xs = [None, None]
        return len(xs)

    assert f() == 2  # a list of None
