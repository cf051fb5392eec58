"""np.partition / np.argpartition (introselect) compared with NumPy: the partition property
(nothing before a kth item larger, nothing after it smaller, NaNs last) and the kth items
exactly, for every numeric dtype, kth as an int, a negative int or a sequence, any axis."""

import numpy as np
import pytest

from mahou import njit


@njit
def part(a, k):
    return np.partition(a, k)


@njit
def part_axis(a, k, axis):
    return np.partition(a, k, axis=axis)


@njit
def part_none(a, k):
    return np.partition(a, k, axis=None)


@njit
def apart(a, k):
    return np.argpartition(a, k)


@njit
def apart_axis(a, k, axis):
    return np.argpartition(a, k, axis=axis)


@njit
def apart_none(a, k):
    return np.argpartition(a, k, axis=None)


@njit
def method_part(a, k):
    b = a.copy()
    return b.argpartition(k), np.partition(b, k)


def _key(x):
    # NumPy's sort order as a sortable key: NaNs after every number
    x = np.asarray(x)
    if x.dtype.kind == "f":
        return np.where(np.isnan(x), np.inf, x), np.isnan(x)
    return x, np.zeros(x.shape, dtype=bool)


def _not_after(x, y):
    # x <= y in NumPy's order (elementwise)
    xv, xn = _key(x)
    yv, yn = _key(y)
    return (xn <= yn) & ((xn != yn) | yn | (xv <= yv))


def assert_partitioned_1d(got, a, kths):
    """got (1-D) is a permutation of a partitioned at each kth, as NumPy promises."""
    expected = np.sort(a)
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(np.sort(got), expected)
    n = a.shape[0]
    for k in np.atleast_1d(kths):
        k = int(k) % n
        np.testing.assert_array_equal(got[k], expected[k])  # equal NaNs compare equal
        assert np.all(_not_after(got[:k], got[k])), (k, got)
        assert np.all(_not_after(got[k], got[k + 1:])), (k, got)


def assert_partitioned(got, a, kths, axis):
    a = np.asarray(a)
    if axis is None:
        assert_partitioned_1d(got, a.ravel(), kths)
        return
    assert got.shape == a.shape
    g = np.moveaxis(got, axis, -1).reshape(-1, a.shape[axis]) if a.size else got
    r = np.moveaxis(a, axis, -1).reshape(-1, a.shape[axis]) if a.size else a
    for gi, ri in zip(g, r):
        assert_partitioned_1d(gi, ri, kths)


def assert_argpartitioned(idx, a, kths, axis):
    a = np.asarray(a)
    assert idx.dtype == np.int64 or idx.dtype == np.intp
    if axis is None:
        flat = a.ravel()
        np.testing.assert_array_equal(np.sort(idx), np.arange(flat.size))
        assert_partitioned_1d(flat[idx], flat, kths)
        return
    assert idx.shape == a.shape
    np.testing.assert_array_equal(np.sort(idx, axis=axis), np.broadcast_to(
        np.arange(a.shape[axis]).reshape([-1 if d == axis % a.ndim else 1 for d in range(a.ndim)]), a.shape))
    assert_partitioned(np.take_along_axis(a, idx, axis=axis), a, kths, axis)


DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.float32,
          np.float64, np.bool_]


def _data(rng, dtype, n, dups=False):
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(n) * 100
        if dups:
            x = np.round(x / 50)
        return x.astype(dtype)
    info = np.iinfo(dtype)
    hi = 6 if dups else min(int(info.max), 10**6)
    lo = 0 if info.min == 0 else -hi
    return rng.integers(lo, hi + 1, n).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 7, 17, 100, 1000])
def test_partition_every_dtype(dtype, n):
    rng = np.random.default_rng(n)
    for dups in (False, True):
        a = _data(rng, dtype, n, dups)
        for k in sorted({0, n // 2, n - 1, -1, -n}):
            assert_partitioned(part(a, k), a, k, -1)
            assert_argpartitioned(apart(a, k), a, k, -1)
        ks = [0, n - 1, n // 3] if n > 2 else [0]
        assert_partitioned(part(a, ks), a, ks, -1)
        assert_argpartitioned(apart(a, np.array(ks)), a, ks, -1)
        np.testing.assert_array_equal(a, _data(np.random.default_rng(n), dtype, n, False)) if not dups else None


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nans_are_ordered_last(dtype):
    rng = np.random.default_rng(5)
    for n in [1, 3, 20, 500]:
        a = rng.standard_normal(n).astype(dtype)
        a[rng.random(n) < 0.3] = np.nan
        a[rng.random(n) < 0.1] = np.inf
        a[rng.random(n) < 0.1] = -np.inf
        for k in sorted({0, n // 2, n - 1, -1}):
            got = part(a, k)
            assert_partitioned(got, a, k, -1)
            np.testing.assert_array_equal(got[k], np.partition(a, k)[k])
            idx = apart(a, k)
            assert_argpartitioned(idx, a, k, -1)
            np.testing.assert_array_equal(a[idx[k]], a[np.argpartition(a, k)[k]])
    allnan = np.full(40, np.nan, dtype=dtype)
    assert np.isnan(part(allnan, 3)).all()
    assert sorted(apart(allnan, 3)) == list(range(40))


@pytest.mark.parametrize("shape", ["sorted", "reversed", "organ", "equal", "sawtooth"])
def test_adversarial_orders(shape):
    n = 5000
    base = {"sorted": np.arange(n), "reversed": np.arange(n)[::-1].copy(),
            "organ": np.concatenate([np.arange(n // 2), np.arange(n // 2)[::-1]]),
            "equal": np.full(n, 7), "sawtooth": np.arange(n) % 13}[shape].astype(np.float64)
    for k in [0, 1, n // 2, n - 2, -1, [10, 2000, 4000]]:
        assert_partitioned(part(base, k), base, k, -1)
        assert_argpartitioned(apart(base, k), base, k, -1)


@pytest.mark.parametrize("axis", [0, 1, -1, -2, None])
@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.int8])
def test_axes_of_2d_and_3d(axis, dtype):
    rng = np.random.default_rng(3)
    for shape in [(4, 9), (9, 4), (3, 5, 6)]:
        a = _data(rng, dtype, int(np.prod(shape)), True).reshape(shape)
        if axis is not None and axis >= a.ndim:
            continue
        size = a.size if axis is None else a.shape[axis]
        for k in [0, size - 1, -2, [1, size // 2]]:
            if axis is None:
                got, idx = part_none(a, k), apart_none(a, k)
                expected = np.partition(a, k, axis=None)
            else:
                got, idx = part_axis(a, k, axis), apart_axis(a, k, axis)
                expected = np.partition(a, k, axis=axis)
            assert got.shape == expected.shape
            assert_partitioned(got, a, k, axis)
            assert_argpartitioned(idx, a, k, axis)


def test_non_contiguous_views_and_default_axis():
    rng = np.random.default_rng(8)
    a = rng.standard_normal((8, 30))
    for view in [a[:, ::3], a[::-2, 1::2], a.T, a[2, ::-1]]:
        before = view.copy()
        k = [0, view.shape[-1] // 2]
        assert_partitioned(part(view, k), view, k, -1)
        assert_argpartitioned(apart(view, k), view, k, -1)
        np.testing.assert_array_equal(view, before)  # the argument is not changed


def test_array_methods():
    a = np.array([5, -1, 3, 3, 0, 9, -7])
    idx, got = method_part(a, 2)
    assert_argpartitioned(idx, a, 2, -1)
    assert_partitioned(got, a, 2, -1)


def test_empty_arrays():
    for a in [np.zeros(0), np.zeros((3, 0)), np.zeros((0, 4))]:
        got = part_axis(a, 0, 0) if a.shape[0] else None
        if got is not None:
            assert got.shape == np.partition(a, 0, axis=0).shape
    e = np.zeros((0, 4))
    assert part(e, 1).shape == (0, 4)
    assert apart(e, 1).shape == (0, 4)


@pytest.mark.parametrize("k", [5, -6, [0, 5], 100])
def test_kth_out_of_bounds(k):
    a = np.arange(5.0)
    with pytest.raises(ValueError) as expected:
        np.partition(a, k)
    with pytest.raises(ValueError, match="out of bounds") as got:
        part(a, k)
    assert str(got.value) == str(expected.value)
    with pytest.raises(ValueError, match="out of bounds"):
        apart(a, k)


def test_zero_d_is_refused_as_numpy():
    with pytest.raises(ValueError, match="0-d"):
        part(np.array(3.0), 0)
