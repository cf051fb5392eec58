"""List comprehensions of one loop (and list(range(...))) reserve room for its trips before appending (a hint
that never fails), and lists of lists box their rows with one plan: compared with
CPython over ranges of every sign and size, sized iterables, raising bodies, huge ranges
whose body raises early (no MemoryError from the reservation), and rows shared or empty."""

import numpy as np
import pytest

from conftest import assert_no_leaks, check, same_as_python
from mahou import njit


# ---------------------------------------------------------------- ranges

def squares(start, stop, step):
    return [i * i for i in range(start, stop, step)]


def squares_to(n):
    return [i * i for i in range(n)]


def with_appends_after(n):
    out = [i for i in range(n)]
    for k in range(3):
        out.append(-k)
    return out


@pytest.mark.parametrize("start,stop,step", [
    (0, 10, 1), (0, 0, 1), (5, 0, 1), (0, 10, 3), (10, 0, -1), (10, 0, -3), (0, 10, -1),
    (-5, 5, 2), (3, 4, 100), (-(2 ** 63), -(2 ** 63) + 5, 1), (2 ** 63 - 1, 2 ** 63 - 6, -2),
    (2 ** 63 - 1, -(2 ** 63), -(2 ** 62)),
])
def test_range_comprehension(start, stop, step):
    check(lambda a, b, c: [i for i in range(a, b, c)], start, stop, step)
    if abs(start) < 100:
        check(squares, start, stop, step)


@pytest.mark.parametrize("start,stop,step", [(0, 10, 1), (0, 0, 1), (10, 0, -3), (0, 10, -1), (-7, 40, 5)])
def test_list_of_a_range(start, stop, step):
    check(lambda a, b, c: list(range(a, b, c)), start, stop, step)
    check(lambda a, b, c: list(range(a, b, c)) + [7], start, stop, step)


def test_list_of_a_range_zero_step():
    same_as_python(lambda n: list(range(0, n, 0)), 5)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 8, 9, 40, 1000, -3])
def test_range_to_n_and_appends_after(n):
    check(squares_to, n)
    check(with_appends_after, n)


def test_zero_step_raises_value_error():
    same_as_python(squares, 0, 10, 0)
    same_as_python(lambda n: [i for i in range(0, n, 0)], 10)


def first_failing(n, bad):
    return [10 // (i - bad) for i in range(n)]


def test_huge_range_whose_body_raises_first():
    # the reservation is capped and never raises: ZeroDivisionError at i == bad, as Python
    same_as_python(first_failing, 2 ** 62, 5)
    same_as_python(first_failing, 10, 20)


def test_bounds_evaluated_once_in_order():
    def f(a):
        calls = [0]
        def bound(x):
            calls[0] = calls[0] * 10 + x
            return x
        return [i for i in range(bound(1), bound(7) + a, bound(2))], calls[0]

    same_as_python(f, 3)


# ---------------------------------------------------------------- sized iterables

def over_array(a):
    return [x * 2.0 for x in a]


def over_enumerate(a):
    return [(i, x) for i, x in enumerate(a)]


def over_zip(a, b):
    return [x + y for x, y in zip(a, b)]


def over_2d_rows(a):
    return [r.sum() for r in a]


def over_string(s):
    return [c + c for c in s]


@pytest.mark.parametrize("n", [0, 1, 5, 33])
def test_sized_iterables(n):
    a = np.arange(n, dtype=np.float64) - 2.5
    b = np.arange(n + 3, dtype=np.float64)
    check(over_array, a)
    check(over_enumerate, a)
    check(over_zip, a, b)
    check(over_2d_rows, np.arange(n * 3, dtype=np.int64).reshape(n, 3))
    check(over_string, "ab\u00e9" * n)


def with_condition(n):
    return [i for i in range(n) if i % 3 == 0]


def two_loops(n):
    return [i * j for i in range(n) for j in range(i)]


def test_conditions_and_nested_loops_unchanged():
    for n in (0, 1, 7, 20):
        check(with_condition, n)
        check(two_loops, n)


def list_of_arrays(n, m):
    return [np.arange(m) * 1.0 + i for i in range(n)]


def test_items_holding_references_no_leaks():
    check(list_of_arrays, 5, 4)
    check(lambda n: [str(i) * 2 for i in range(n)], 12)
    f = njit(list_of_arrays)
    g = njit(first_failing)

    def raising():
        with pytest.raises(ZeroDivisionError):
            g(100, 7)

    assert_no_leaks(lambda: f(7, 3), raising, repeat=200)


# ---------------------------------------------------------------- lists of lists boxed

def grid(w, h):
    return [[(i, j, i ^ j) for j in range(w)] for i in range(h)]


def grid3(n):
    return [[[float(i + j + k) for k in range(n)] for j in range(i)] for i in range(n)]


def shared_rows(n):
    row = [(i, -i) for i in range(n)]
    return [row, row, [(0, 0)], row]


def rows_of_strings(n):
    return [[str(i * j) for j in range(i)] for i in range(n)]


def rows_of_arrays(n):
    return [[np.full(j + 1, i) for j in range(i)] for i in range(n)]


@pytest.mark.parametrize("n", [0, 1, 4, 17])
def test_lists_of_lists_returned(n):
    check(grid, n, n + 2)
    check(grid3, min(n, 6))
    check(rows_of_strings, n)
    check(rows_of_arrays, min(n, 5))
    got = njit(shared_rows)(n)
    assert got == shared_rows(n)
    assert got[0] is not got[1]  # each row boxed into a list of its own, as before


def test_lists_of_lists_no_leaks():
    f, g, h = njit(grid), njit(rows_of_strings), njit(rows_of_arrays)
    assert_no_leaks(lambda: f(6, 5), lambda: g(6), lambda: h(4), repeat=200)
