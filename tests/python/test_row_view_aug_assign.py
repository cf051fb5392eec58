"""Augmented assignment to an element of a view (`q[i][j] += v`, `self.a[i][j] -= v`,
`q[i, 1:][j] *= v`): the view is made again for the store instead of held in a hidden
variable when the statement cannot change what it reads. Compiled against NumPy run by
CPython: several dtypes, negative indices, non-contiguous arrays, right-hand sides that
read the same array, out-of-range rows (IndexError), and no leaked allocations."""

import gc

import numpy as np
import pytest

import mahou._core
from mahou import njit
from mahou.experimental import jitclass
from mahou import float64, int64


def rows(c, reps):
    t = 0.0
    for _ in range(reps):
        q = np.zeros((4, 8), dtype=c.dtype)
        for u in range(32):
            for m in range(c.shape[1]):
                q[u % 4][u // 4] += c[u][m]
        t += q[3][7] + q[-1][-2]
    return t, q


def own_items(q):
    # the right-hand side reads the array being updated, through another view
    n = q.shape[0]
    for i in range(n):
        for j in range(n):
            q[i][j] -= q[j][i] * 2
            q[-1 - i][j] *= 1
    return q


def sliced_rows(q, v):
    for i in range(q.shape[0]):
        for j in range(q.shape[1] - 1):
            q[i, 1:][j] += v * j
            q[i][::2][j // 2] -= 1
    return q


def three_d(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                a[i][j][k] += i * 100 + j * 10 + k
                a[i][j, k:][0] *= 2
    return a


def bad_row(q, i):
    q[i][0] += 1
    return q


DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int8, np.complex128]


def same_arrays(got, want):
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            same_arrays(g, w)
        return
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("dtype", DTYPES)
def test_rows_equal_numpy(dtype):
    c = (np.random.default_rng(3).standard_normal((32, 4)) * 10).astype(dtype)
    same_arrays(njit(rows)(c, 5), rows(c, 5))
    cf = np.asfortranarray(c)
    same_arrays(njit(rows)(cf, 3), rows(cf, 3))
    wide = np.zeros((32, 8), dtype)
    wide[:, ::2] = c
    same_arrays(njit(rows)(wide[:, ::2], 2), rows(wide[:, ::2], 2))  # a strided view


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex128])
def test_right_hand_side_reads_the_same_array(dtype):
    q = np.arange(25).reshape(5, 5).astype(dtype)
    same_arrays(njit(own_items)(q.copy()), own_items(q.copy()))
    t = np.arange(36).reshape(6, 6).astype(dtype).T  # not C-contiguous
    same_arrays(njit(own_items)(t.copy(order="K")[::1]), own_items(t.copy(order="K")[::1]))
    same_arrays(njit(own_items)(np.empty((0, 0), dtype)), own_items(np.empty((0, 0), dtype)))


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_sliced_and_strided_rows(dtype):
    q = np.arange(30).reshape(5, 6).astype(dtype)
    same_arrays(njit(sliced_rows)(q.copy(), 3), sliced_rows(q.copy(), 3))
    big = np.arange(60).reshape(10, 6).astype(dtype)
    same_arrays(njit(sliced_rows)(big[::-2].copy(), 2), sliced_rows(big[::-2].copy(), 2))


def test_three_dimensions():
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    same_arrays(njit(three_d)(a.copy()), three_d(a.copy()))
    same_arrays(njit(three_d)(a[:, ::-1, 1:].copy()), three_d(a[:, ::-1, 1:].copy()))


@pytest.mark.parametrize("i", [4, -5, 100])
def test_out_of_range_row_raises(i):
    q = np.zeros((4, 2))
    with pytest.raises(IndexError):
        bad_row(q.copy(), i)
    with pytest.raises(IndexError):
        njit(bad_row)(q.copy(), i)


@pytest.mark.parametrize("i", [0, 3, -1, -4])
def test_rows_in_range(i):
    q = np.arange(8.0).reshape(4, 2)
    same_arrays(njit(bad_row)(q.copy(), i), bad_row(q.copy(), i))


@jitclass([("a", float64[:, :]), ("n", int64)])
class Grid:
    def __init__(self, n):
        self.n = n
        self.a = np.zeros((n, n))

    def bump(self, v):
        for i in range(self.n):
            for j in range(self.n):
                self.a[i][j] += v * (i - j)
                self.a[i, :][-1 - j] -= 1.0


def test_jitclass_field_rows():
    g = Grid(4)
    g.bump(2.0)
    g.bump(0.5)
    want = np.zeros((4, 4))
    for v in (2.0, 0.5):
        for i in range(4):
            for j in range(4):
                want[i][j] += v * (i - j)
                want[i, :][-1 - j] -= 1.0
    np.testing.assert_array_equal(g.a, want)


def test_no_leaked_allocations():
    c = np.random.default_rng(4).standard_normal((32, 4))
    f = njit(rows)
    f(c, 2)
    gc.collect()
    before = mahou._core.live_allocations()
    for _ in range(3):
        f(c, 50)
        njit(own_items)(np.ones((6, 6)))
    gc.collect()
    assert mahou._core.live_allocations() == before
