"""Advanced indexing with one index array, compiled vs NumPy: boolean masks and integer
index arrays for reads (new arrays) and writes (scalars and arrays)."""

import numpy as np
import pytest

from conftest import check
from mahou import njit


def mask_read(a):
    return a[a > 0.5], a[a < -10.0]


def mask_write(a):
    a[a > 0.5] = 0.0
    return a


def mask_write_array(a, v):
    a[a < 0] = v
    return a


def index_read(a, idx):
    return a[idx]


def index_write(a, idx):
    a[idx] = -1
    return a


def mask_2d(m):
    return m[m % 2 == 0]


@pytest.mark.parametrize("a", [np.linspace(-1, 1, 9), np.linspace(-1, 1, 9)[::2], np.zeros(0)])
def test_boolean_masks(a):
    check(mask_read, a)
    check(mask_write, a)


def test_mask_with_array_value():
    a = np.array([1.0, -2.0, 3.0, -4.0])
    check(mask_write_array, a, np.array([10.0, 20.0]))


def test_mask_2d():
    check(mask_2d, np.arange(12).reshape(3, 4))


@pytest.mark.parametrize("idx", [np.array([0, 2, -1]), np.array([[1, 1], [0, 3]]), np.array([], dtype=np.int64)])
def test_integer_index_arrays(idx):
    a = np.arange(10.0, 15.0)
    check(index_read, a, idx)
    check(index_write, a, idx.ravel())


def test_index_out_of_range_raises():
    with pytest.raises(IndexError):
        njit(index_read)(np.arange(3.0), np.array([5]))


def test_mask_shape_mismatch_raises():
    with pytest.raises(IndexError):
        njit(index_mask)(np.arange(3.0), np.array([True, False]))


def index_mask(a, m):
    return a[m]
