"""Sorting, selection and counting beyond 1-D (python/mahou/_library/selection.py): sort and
argsort of N-D arrays along an axis (function and method), partition/argpartition, lexsort,
unique of N-D arrays, count_nonzero with an axis, bincount with weights and minlength,
histogram with bin edges and a range, np.where with one argument. Compared with NumPy."""

import numpy as np
import pytest

from conftest import assert_same, check
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

REAL = [np.int8, np.uint16, np.int64, np.float32, np.float64]


def data(shape, dtype, seed=3):
    rng = np.random.default_rng(seed)
    v = rng.integers(-20, 20, size=shape)
    if np.dtype(dtype).kind == "u":
        v = np.abs(v)
    if np.dtype(dtype).kind == "f":
        v = v + rng.random(shape).round(2)
    return v.astype(dtype)


def layouts(a):
    out = [a, np.asfortranarray(a)]
    big = np.zeros((a.shape[0] * 2,) + a.shape[1:], dtype=a.dtype)
    big[::2] = a
    out.append(big[::2])
    return out


# ---------------------------------------------------------------- sort, argsort
def sorts(a):
    # argsort: mahou's sort is stable; NumPy's default is not, so the reference asks for 'stable'
    return (np.sort(a), np.sort(a, 0), np.sort(a, axis=-2), np.sort(a, None), np.argsort(a, kind="stable"),
            np.argsort(a, axis=0, kind="stable"))


@pytest.mark.parametrize("dtype", REAL)
def test_sort_argsort_nd(dtype):
    for a in layouts(data((4, 5), dtype)):
        check(sorts, a)
    check(lambda a: (np.sort(a, 1), np.argsort(a, 2, kind="stable"), np.sort(a)), data((3, 2, 4), dtype))
    check(sorts, np.empty((0, 3), dtype=dtype))
    check(lambda a: np.sort(a, 0), data((6,), dtype))


def test_sort_nans_last_and_ties_in_order():
    a = np.array([[3.0, np.nan, 1.0, 1.0], [np.nan, 2.0, -0.0, 0.0]])
    check(lambda v: (np.sort(v), np.argsort(v, kind="stable"), np.sort(v, 0), np.argsort(v, 0, kind="stable")), a)


def test_sort_method_in_place_nd():
    def sort_rows(a):
        a.sort()
        return a

    def sort_cols(a):
        a.sort(axis=0)
        return a

    for a in layouts(data((3, 4), np.float64)):
        check(sort_rows, a)
        check(sort_cols, a)
        check(lambda v: v.argsort(axis=0, kind="stable"), a)


def test_sort_axis_errors():
    with pytest.raises(ValueError, match="out of bounds"):
        njit(lambda a: np.sort(a, 2))(data((2, 2), np.float64))


# ---------------------------------------------------------------- partition
def _is_partition(part, a, kths, axis=-1):
    s = np.sort(a, axis=axis)
    p = np.moveaxis(part, axis, -1)
    s = np.moveaxis(s, axis, -1)
    for k in np.atleast_1d(kths):
        np.testing.assert_array_equal(p[..., k], s[..., k])
        assert (p[..., :k] <= p[..., k:k + 1]).all() and (p[..., k + 1:] >= p[..., k:k + 1]).all()


@pytest.mark.parametrize("dtype", REAL)
def test_partition_argpartition(dtype):
    a = data((17,), dtype)
    for kth in (0, 5, -1, (2, 9)):
        got = njit(lambda v, k: np.partition(v, k))(a, kth)
        _is_partition(got, a, kth if not isinstance(kth, int) else [kth % 17])
        idx = njit(lambda v, k: np.argpartition(v, k))(a, kth)
        assert idx.dtype == np.int64
        _is_partition(a[idx], a, kth if not isinstance(kth, int) else [kth % 17])
    m = data((3, 6), dtype)
    got = njit(lambda v: np.partition(v, 2))(m)
    _is_partition(got, m, [2])
    got = njit(lambda v: np.partition(v, 1, axis=0))(m)
    _is_partition(got, m, [1], axis=0)
    with pytest.raises(ValueError, match="out of bounds"):
        njit(lambda v: np.partition(v, 17))(a)


# ---------------------------------------------------------------- lexsort, unique
def test_lexsort():
    a = np.array([1, 5, 1, 4, 3, 4, 4])
    b = np.array([9.0, 4, 0, 4, 0, 2, 1])
    check(lambda x, y: (np.lexsort((x, y)), np.lexsort((y, x)), np.lexsort((x,))), a, b)
    check(lambda k: np.lexsort(k), np.stack((a, a[::-1])))
    with pytest.raises(ValueError):
        njit(lambda x, y: np.lexsort((x, y)))(a, b[:3])


def test_unique_of_nd_arrays_and_sequences():
    check(lambda a: np.unique(a), data((4, 5), np.int32))
    check(lambda a: np.unique(a), np.asfortranarray(data((4, 5), np.float64)))
    check(lambda: np.unique([3, 1, 3, 2]))


# ---------------------------------------------------------------- count_nonzero, where
@pytest.mark.parametrize("dtype", [np.bool_] + REAL)
def test_count_nonzero_axis(dtype):
    a = (data((3, 4, 2), np.int64) % 3).astype(dtype)
    check(lambda v: (np.count_nonzero(v), np.count_nonzero(v, 0), np.count_nonzero(v, axis=-1),
                     np.count_nonzero(v, 1)), a)
    check(lambda v: np.count_nonzero(v, 0), np.asfortranarray(a))
    check(lambda: np.count_nonzero([0, 1, 2]))


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64])
def test_where_one_argument(dtype):
    a = (data((3, 4), np.int64) % 2).astype(dtype)
    check(lambda v: np.where(v), a)
    check(lambda v: np.where(v > 0), data((7,), np.float64))
    check(lambda v: (np.nonzero(v), v.nonzero()), a)
    with pytest.raises(TypingError, match="both or neither"):
        njit(lambda v: np.where(v, v))(a)


# ---------------------------------------------------------------- bincount, histogram
def test_bincount_weights_minlength():
    x = np.array([0, 1, 1, 3, 2, 1, 7], dtype=np.int32)
    w = np.array([0.3, 0.5, 0.2, 0.7, 1.0, -0.6, 0.1])
    check(lambda a, b: (np.bincount(a, b), np.bincount(a, weights=b), np.bincount(a, minlength=10),
                        np.bincount(a, b, 3), np.bincount(a, minlength=2)), x, w)
    check(lambda a: np.bincount(a, minlength=4), np.empty(0, dtype=np.int64))
    check(lambda a, b: np.bincount(a, b), x.astype(np.uint8), w.astype(np.float32))
    check(lambda: np.bincount([1, 1, 4]))
    with pytest.raises(ValueError, match="negative"):
        njit(lambda a: np.bincount(a, minlength=2))(np.array([1, -1]))
    with pytest.raises(ValueError, match="same length"):
        njit(lambda a, b: np.bincount(a, b))(x, w[:3])
    with pytest.raises(ValueError, match="minlength"):
        njit(lambda a: np.bincount(a, minlength=-1))(x)
    with pytest.raises(UnsupportedError, match="integers"):
        njit(lambda a: np.bincount(a, minlength=1))(w)


def histograms(a):
    return (np.histogram(a), np.histogram(a, 4), np.histogram(a, bins=3, range=(-5.0, 5.0)),
            np.histogram(a, np.array([-10.0, -1.0, 0.0, 2.5, 30.0])), np.histogram(a, [-3, 0, 3]))


@pytest.mark.parametrize("dtype", REAL)
def test_histogram_forms(dtype):
    a = data((40,), dtype, seed=11)
    for x in layouts(a):
        check(histograms, x)
    check(histograms, a.reshape(5, 8))
    check(lambda v: np.histogram(v, 3), np.full(5, 2, dtype=dtype))
    check(lambda v: np.histogram(v, 3), np.empty(0, dtype=dtype))


def test_histogram_float32_edges_and_errors():
    a = np.linspace(-1, 1, 33).astype(np.float32)
    got = njit(lambda v: np.histogram(v, 7))(a)
    assert got[1].dtype == np.float32
    assert_same(got, np.histogram(a, 7))
    with pytest.raises(ValueError, match="monotonically"):
        njit(lambda v: np.histogram(v, np.array([1.0, 0.0])))(a)
    with pytest.raises(ValueError, match="max must be larger"):
        njit(lambda v: np.histogram(v, 3, range=(1.0, 0.0)))(a)
    with pytest.raises(ValueError, match="positive"):
        njit(lambda v: np.histogram(v, 0))(a)
    with pytest.raises(ValueError, match="not finite"):
        njit(lambda v: np.histogram(v, 2))(np.array([1.0, np.inf]))


# ---------------------------------------------------------------- set routines
SET_PAIRS = [
    (np.array([5, 7, 1, 2, 2]), np.array([2, 4, 3, 1, 5])),
    (np.array([1.0, np.nan, 3.0, -0.0]), np.array([np.nan, 3.0, 0.0])),
    (np.zeros(0), np.array([1.0])),
    (np.array([[1, 2], [3, 4]]), np.array([2.5, 3.0])),
    (np.array([3, 1], dtype=np.int32), np.zeros(0, dtype=np.int64)),
    (np.arange(10)[::-3], np.arange(5, dtype=np.uint8)),
]


@pytest.mark.parametrize("pair", range(len(SET_PAIRS)))
def test_set_routines(pair):
    a, b = SET_PAIRS[pair]
    check(lambda x, y: (np.union1d(x, y), np.intersect1d(x, y), np.setdiff1d(x, y), np.setxor1d(x, y),
                        np.isin(x, y), np.isin(x, y, invert=True)), a, b)
    check(lambda x, y: (np.union1d(y, x), np.intersect1d(y, x), np.setdiff1d(y, x), np.isin(y, x)), a, b)


def test_set_routines_of_lists():
    check(lambda: (np.union1d([3, 1], [2, 1]), np.isin([1, 5], (5, 6)), np.setdiff1d([1, 2, 3], [2])))
