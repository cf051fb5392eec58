"""NumPy library functions compiled vs NumPy: sort, argsort, a.sort(), unique,
searchsorted, bincount, histogram, concatenate, stack."""

import numpy as np
import pytest

from conftest import check
from mahou import njit


def sorting(a):
    b = a.copy()
    b.sort()
    return np.sort(a), np.argsort(a), b, np.unique(a)


@pytest.mark.parametrize("a", [np.array([3.0, -1.0, 2.5, 3.0, 0.0]), np.arange(0.0), np.array([5, 1, 4, 1, 5, 9, 2, 6]),
                               np.array([2.0, np.nan, 1.0]), np.linspace(3, -3, 7)[::2]])
def test_sort_argsort_unique(a):
    check(sorting, a)


def sort_only(a):
    b = a.copy()
    b.sort()
    return np.sort(a), b


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int16, np.uint8])
def test_sort_longer_arrays_with_nans(dtype):
    # past the insertion-sort sizes; NaNs (anywhere, several, all) sort last
    rng = np.random.default_rng(4)
    for n in (17, 100, 1000):
        v = rng.standard_normal(n) * 40
        if np.dtype(dtype).kind in "iu":
            v = np.abs(v) if np.dtype(dtype).kind == "u" else v
        a = v.astype(dtype)
        check(sort_only, a)
        check(sort_only, a[::-2])
        if len(np.unique(a)) == n:  # argsort: NumPy's order of ties is its own
            check(sorting, a)
        if np.dtype(dtype).kind == "f":
            for where in (slice(0, 1), slice(n - 1, n), slice(None, None, 5), slice(None)):
                b = a.copy()
                b[where] = np.nan
                check(sort_only, b)


@pytest.mark.parametrize("dtype", [np.float16, np.complex128])
def test_sorts_without_a_runtime_routine_are_refused(dtype):
    # the runtime orders no halves or complex numbers: refused with the line, never left unsorted
    from mahou.errors import UnsupportedError

    a = np.array([3, 1, 2], dtype=dtype)
    for fn in (np.sort, np.argsort, np.unique):
        with pytest.raises(UnsupportedError, match=r"test_array_library.py:\d+:\d+: np\.\w+\(\) of"):
            njit(lambda x: fn(x))(a)


def search(a, v):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right")


def test_searchsorted():
    a = np.array([1.0, 2.0, 2.0, 3.0, 5.0])
    for v in [0.0, 2.0, 2.5, 5.0, 9.0]:
        check(search, a, v)
    check(search, a, np.array([0.0, 2.0, 4.0, 6.0]))


def counts(x):
    return np.bincount(x)


def test_bincount():
    check(counts, np.array([0, 1, 1, 3, 2, 1, 7]))
    check(counts, np.zeros(0, dtype=np.int64))
    with pytest.raises(ValueError):
        njit(counts)(np.array([1, -1]))


def hist(a):
    return np.histogram(a), np.histogram(a, bins=3)


@pytest.mark.parametrize("a", [np.linspace(0, 1, 17) ** 2, np.array([2.0, 2.0]), np.arange(10).reshape(2, 5)])
def test_histogram(a):
    check(hist, a, rtol=1e-12)


def joins(a, b, m):
    return np.concatenate((a, b)), np.stack((a, b)), np.concatenate((m, m)), np.vstack((a, b)), np.hstack((a, b))


def test_concatenate_stack():
    a = np.arange(3.0)
    b = np.arange(3, dtype=np.int32)
    check(joins, a, b, np.arange(6.0).reshape(2, 3))


def bad_join(a, b):
    return np.stack((a, b))


def test_join_mismatch():
    with pytest.raises(ValueError):
        njit(bad_join)(np.zeros(2), np.zeros(3))


def fill_and_view(a):
    b = a.copy()
    b.fill(2.5)
    bits = a.view(np.int64)
    return b, bits, bits.view(np.float64)


def test_fill_and_view():
    check(fill_and_view, np.array([1.0, -0.0, np.inf, 3.25]))
    check(fill_and_view, np.arange(6.0).reshape(2, 3))
