"""Lists of lists and lists of tuples, compared with CPython: tuples of every number dtype
boxed when a list is returned, and items stored or read through a row of a list of lists
(`g[y][x] = t`), whose row reference the JIT's refcount pass drops (incl. the raise paths)."""

import numpy as np
import pytest

from conftest import assert_no_leaks, check
from mahou import njit

NUMBER_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                 np.uint64, np.float32, np.float64, np.complex64, np.complex128]


# ---------------------------------------------------------------- lists of tuples returned

def grid_of_triples(w, h):
    return [[(i, j, i * j - 3) for j in range(w)] for i in range(h)]


def tuples_of_array_items(a):
    return [(a[i], a[len(a) - 1 - i]) for i in range(len(a))]


def mixed_tuples(a, n):
    return [(i, a[i % len(a)], i * 0.5, i % 2 == 0) for i in range(n)]


def tuples_holding_arrays(a, n):
    return [(i, a[: i + 1]) for i in range(n)]


def tuples_holding_strings(n):
    return [(str(i), i) for i in range(n)]


def nested_tuples(n):
    return [((i, -i), (i * 1.5, i)) for i in range(n)]


@pytest.mark.parametrize("w,h", [(0, 0), (3, 0), (0, 2), (1, 1), (5, 3), (40, 40)])
def test_grid_of_triples(w, h):
    check(grid_of_triples, w, h)


@pytest.mark.parametrize("dtype", NUMBER_DTYPES)
def test_tuples_of_each_dtype(dtype):
    a = (np.arange(-3, 4) * 37).astype(dtype)
    got = njit(tuples_of_array_items)(a)
    want = tuples_of_array_items(a)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert type(g) is tuple and len(g) == 2
        for x, y in zip(g, w):
            assert x == y or (x != x and y != y)
            assert type(x) in (bool, int, float, complex)


@pytest.mark.parametrize("a", [np.array([1.5, -2.0, np.nan, np.inf]), np.array([-7.0])])
def test_mixed_tuples(a):
    check(mixed_tuples, a, 9)
    check(mixed_tuples, a, 0)


def test_tuples_that_hold_objects():
    a = np.arange(6.0)[::-1]
    got = njit(tuples_holding_arrays)(a, 4)
    assert [i for i, _ in got] == [0, 1, 2, 3]
    for (i, x), (_, y) in zip(got, tuples_holding_arrays(a, 4)):
        np.testing.assert_array_equal(x, y)
    check(tuples_holding_strings, 7)
    check(nested_tuples, 5)
    assert_no_leaks(lambda: njit(tuples_holding_arrays)(a, 4), lambda: njit(tuples_holding_strings)(5),
                    repeat=200)


def test_datetime_tuples_box_as_numpy_scalars():
    @njit
    def stamps(a):
        return [(a[i], i) for i in range(len(a))]

    a = np.array(["2020-01-01", "NaT", "1969-12-31"], dtype="M8[D]")
    got = stamps(a)
    assert [i for _, i in got] == [0, 1, 2]
    assert all(isinstance(t, np.datetime64) for t, _ in got)
    assert got[0][0] == a[0] and got[2][0] == a[2] and np.isnat(got[1][0])


# ---------------------------------------------------------------- items stored through a row

def store_through_rows(w, h, reps):
    g = [[(0, 0, 0) for j in range(w)] for i in range(h)]
    for r in range(reps):
        for y in range(h):
            for x in range(w):
                g[y][x] = (x + r, y - r, x * y)
    return g


def store_negative_indices(w, h):
    g = [[0.0] * w for i in range(h)]
    for y in range(1, h + 1):
        for x in range(1, w + 1):
            g[-y][-x] = y * 10.0 + x
    return g


def read_through_rows(g):
    s = 0
    for y in range(len(g)):
        for x in range(len(g[y])):
            s += g[y][x] * (y + 1)
    return s


def store_out_of_range(w, h, y, x):
    g = [[0] * w for i in range(h)]
    g[y][x] = 5
    return g


def rows_of_arrays(n):
    g = [[np.zeros(2) for j in range(3)] for i in range(n)]
    for y in range(n):
        for x in range(3):
            g[y][x] = np.full(2, y * 3.0 + x)
    return g


def row_replaced_while_storing(n):
    # the row is replaced in the outer list between two stores through it
    g = [[i] * 3 for i in range(n)]
    for y in range(n):
        row = g[y]
        g[y] = [y * 100] * 3
        row[0] = -1
        g[y][1] = row[0] + y
    return g


@pytest.mark.parametrize("w,h,reps", [(0, 0, 1), (3, 2, 0), (1, 1, 1), (4, 5, 3), (40, 40, 2)])
def test_store_through_rows(w, h, reps):
    check(store_through_rows, w, h, reps)


@pytest.mark.parametrize("w,h", [(1, 1), (3, 4), (7, 2)])
def test_store_negative_indices(w, h):
    check(store_negative_indices, w, h)


def test_read_through_rows():
    check(read_through_rows, [[1, 2, 3], [0], [-4, 5]])
    check(read_through_rows, [[7]])


@pytest.mark.parametrize("y,x", [(0, 0), (1, -3), (-2, 2), (2, 0), (0, 3), (-3, 0), (0, -4)])
def test_store_out_of_range(y, x):
    try:
        want = store_out_of_range(3, 2, y, x)
    except IndexError as e:
        with pytest.raises(IndexError, match=str(e)):
            njit(store_out_of_range)(3, 2, y, x)
    else:
        assert njit(store_out_of_range)(3, 2, y, x) == want


def test_rows_of_arrays_and_no_leaks():
    got = njit(rows_of_arrays)(4)
    want = rows_of_arrays(4)
    for gr, wr in zip(got, want):
        for a, b in zip(gr, wr):
            np.testing.assert_array_equal(a, b)
    check(row_replaced_while_storing, 4)
    f = njit(store_out_of_range)

    def raising():
        with pytest.raises(IndexError):
            f(3, 2, 0, 9)

    assert_no_leaks(lambda: njit(rows_of_arrays)(3), lambda: njit(store_through_rows)(3, 3, 2), raising,
                    lambda: njit(row_replaced_while_storing)(3), repeat=200)
