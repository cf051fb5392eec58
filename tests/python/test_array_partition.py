"""ndarray.partition(kth) of 1-D arrays, in place (the runtime's introselect, which
np.median also uses): the k-th value is the sorted one, nothing smaller after it and
nothing larger before it, the same values kept; NumPy's kth rules (negative kth from
the end, out of bounds a ValueError with NumPy's text, no check of an empty array),
NaNs last, every sortable dtype, non-contiguous views; refusals at compile time."""

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError, UnsupportedError


def part(a, k):
    a.partition(k)
    return a


def part_every_other(a, k):
    a[::2].partition(k)
    return a


def part_reversed(a, k):
    a[::-1].partition(k)
    return a


def assert_partitioned(got, original, k):
    n = original.shape[0]
    kk = k + n if k < 0 else k
    want = np.sort(original)
    np.testing.assert_array_equal(np.sort(got), want)  # the same values
    pivot = got[kk]
    np.testing.assert_array_equal(pivot, want[kk])
    if got.dtype.kind != "f" or not np.isnan(pivot):
        assert np.all(got[:kk] <= pivot)
        after = got[kk + 1:]
        assert np.all((after >= pivot) | (np.isnan(after) if got.dtype.kind == "f" else False))
    # the same contract NumPy's own partition meets
    ref = original.copy()
    ref.partition(k)
    np.testing.assert_array_equal(ref[kk], got[kk])


DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 7, 150, 1001])
def test_partition_equals_numpy_contract(dtype, n):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 40).astype(dtype) if dtype is not np.bool_ else rng.random(n) < 0.5
    for k in {0, n // 2, n - 1, -1, -n}:
        got = njit(part)(a.copy(), k)
        assert_partitioned(got, a, k)


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_views(dtype):
    a = (np.random.default_rng(5).standard_normal(41) * 10).astype(dtype)
    for k in (0, 5, 20, -1):
        got = njit(part_every_other)(a.copy(), k)
        assert_partitioned(got[::2], a[::2], k)
        np.testing.assert_array_equal(got[1::2], a[1::2])  # the other elements untouched
        got = njit(part_reversed)(a.copy(), k)
        assert_partitioned(got[::-1], a[::-1], k)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nans_go_last(dtype):
    a = np.array([3.0, np.nan, 1.0, np.nan, 2.0, -np.inf, np.inf, 0.0], dtype)
    for k in range(-8, 8):
        got = njit(part)(a.copy(), k)
        ref = a.copy()
        ref.partition(k)
        np.testing.assert_array_equal(got[k], ref[k])  # NaN == NaN here
        np.testing.assert_array_equal(np.sort(got), np.sort(a))
    allnan = np.full(5, np.nan, dtype)
    assert np.isnan(njit(part)(allnan.copy(), 2)).all()


def test_sorted_reversed_and_equal_values():
    for a in (np.arange(300.0), np.arange(300.0)[::-1].copy(), np.ones(300), np.repeat(np.arange(3.0), 100)):
        for k in (0, 1, 150, 298, 299):
            assert_partitioned(njit(part)(a.copy(), k), a, k)


@pytest.mark.parametrize("k", [5, -6, 100, -(2**62)])
def test_out_of_bounds_is_numpys_value_error(k):
    a = np.arange(5.0)
    with pytest.raises(ValueError) as want:
        a.copy().partition(k)
    with pytest.raises(ValueError) as got:
        njit(part)(a.copy(), k)
    assert str(got.value) == str(want.value)
    with pytest.raises(ValueError):
        njit(part_every_other)(np.arange(10.0), k)  # the strided path releases its copy


def test_empty_array_takes_any_kth():
    for k in (0, 3, -1):
        e = np.empty(0)
        e.partition(k)
        assert njit(part)(np.empty(0), k).shape == (0,)


def test_refusals():
    with pytest.raises(TypingError, match="Booleans unacceptable"):
        njit(part)(np.arange(3.0), True)
    with pytest.raises(UnsupportedError, match="1-D"):
        njit(part)(np.arange(6.0).reshape(2, 3), 1)
    with pytest.raises(UnsupportedError, match="complex"):
        njit(part)(np.arange(3.0) + 1j, 1)
    with pytest.raises(UnsupportedError, match="sequence"):
        njit(part)(np.arange(3.0), 1.5)
    ro = np.arange(3.0)
    ro.flags.writeable = False
    with pytest.raises(TypingError, match="read-only"):
        njit(part)(ro, 1)
