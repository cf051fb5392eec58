"""argmax/argmin of a whole contiguous array run blockwise (codegen/arg_extreme.cpp):
each block's extreme is a vectorised reduction and only the block holding the answer is
scanned again. Checked against NumPy at the block edges (512 items), with NaNs in
every position, ties across blocks, signed zeros, infinities, the integer extremes,
every real dtype, 2-D arrays, and the non-contiguous arrays that take the other path."""

import numpy as np
import pytest

import mahou

REAL = [np.float64, np.float32, np.int64, np.int32, np.int16, np.int8,
        np.uint64, np.uint32, np.uint16, np.uint8]


@mahou.njit
def argmax(a):
    return a.argmax()


@mahou.njit
def argmin(a):
    return a.argmin()


@mahou.njit
def np_argmax(a):
    return np.argmax(a)


@mahou.njit
def np_argmin(a):
    return np.argmin(a)


def check(a):
    assert argmax(a) == a.argmax(), a
    assert argmin(a) == a.argmin(), a
    assert np_argmax(a) == np.argmax(a)
    assert np_argmin(a) == np.argmin(a)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [1, 2, 7, 511, 512, 513, 1024, 1025, 3000])
def test_random_values(dtype, n):
    rng = np.random.default_rng(n)
    if np.issubdtype(dtype, np.floating):
        a = rng.standard_normal(n).astype(dtype)
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    check(a)
    check(a[::-1].copy())


@pytest.mark.parametrize("dtype", REAL)
def test_ties_across_blocks_give_the_first(dtype):
    a = np.zeros(2000, dtype)
    for pos in ([5, 600, 1500], [1500, 600], [511, 512], [1999, 0]):
        b = a.copy()
        b[pos] = 7
        b[[p + 1 for p in pos if p + 1 < b.size]] = 3
        check(b)
        c = a.copy() + 9
        c[pos] = 1
        check(c)


@pytest.mark.parametrize("dtype", REAL)
def test_all_equal_and_type_extremes(dtype):
    if np.issubdtype(dtype, np.floating):
        lows, highs = [-np.inf], [np.inf]
    else:
        info = np.iinfo(dtype)
        lows, highs = [info.min], [info.max]
    for v in lows + highs + [0]:
        for n in (1, 513, 1100):
            check(np.full(n, v, dtype))
    if not np.issubdtype(dtype, np.floating):
        a = np.full(1100, np.iinfo(dtype).min, dtype)
        a[700] = np.iinfo(dtype).max
        check(a)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 9, 512, 1300])
def test_nan_anywhere_gives_the_first_nan(dtype, n):
    rng = np.random.default_rng(1)
    base = rng.standard_normal(n).astype(dtype)
    for pos in sorted({0, n // 3, n // 2, n - 1}):
        a = base.copy()
        a[pos] = np.nan
        check(a)
        if pos + 600 < n:
            a[pos + 600] = np.nan
            check(a)
    check(np.full(n, np.nan, dtype))
    a = base.copy()
    a[-1] = np.inf
    a[0] = -np.inf
    check(a)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_signed_zeros(dtype):
    for values in ([-0.0, 0.0], [0.0, -0.0], [-1.0, -0.0, 0.0, -0.0]):
        a = np.array(values, dtype)
        check(a)
        big = np.full(1500, -5.0, dtype)
        big[[100, 900]] = values[:2]
        check(big)
        big = np.full(1500, 5.0, dtype)
        big[[100, 900]] = values[:2]
        check(big)


def test_two_dimensional_and_views():
    rng = np.random.default_rng(2)
    m = rng.standard_normal((40, 37))
    check(m)
    check(m[:, ::2])          # not contiguous: the general loop
    check(m.T)                # F-contiguous
    check(m[3])
    check(np.asfortranarray(m))
    check(rng.integers(-5, 5, (3, 700)))


def test_empty_raises():
    for f in (argmax, argmin):
        with pytest.raises(ValueError, match="empty sequence"):
            f(np.zeros(0))
        with pytest.raises(ValueError, match="empty sequence"):
            f(np.zeros((3, 0), np.int32))


def test_bool_and_complex_keep_their_path():
    a = np.array([False, True, True, False])
    assert argmax(a) == 1 and argmin(a) == 0
    z = np.array([1 + 2j, 1 + 3j, 0.5 + 9j])
    assert argmax(z) == z.argmax() and argmin(z) == z.argmin()
