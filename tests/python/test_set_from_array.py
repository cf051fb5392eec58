"""set(a) of a 1-D array, built straight from the array (no list in between), against
CPython's set of the same NumPy scalars: every dtype accepted, views that are not
contiguous, empty arrays, NaNs and signed zeros, duplicates; the set's methods after."""

import numpy as np
import pytest

from mahou import njit


def build(a):
    return set(a)


def build_sub(m, i):
    return set(m[i])


def build_col(m, j):
    return set(m[:, j])


def sizes(m):
    n = m.shape[0]
    out = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        s = set(m[i])
        for j in range(n):
            out[i, j] = len(set(m[j]).intersection(s))
    return out


DTYPES = [np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint32, np.uint64, np.float64, np.float32, np.bool_]


def sample(dtype, n=20, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if np.issubdtype(dtype, np.floating):
        return np.round(rng.standard_normal(n), 1).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -5), min(info.max, 6), n, endpoint=True).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_set_of_array_equals_python(dtype):
    f = njit(build)
    for n in (0, 1, 7, 50):
        a = sample(dtype, n)
        got = f(a)
        assert got == set(a.tolist())
        assert sorted(got) == sorted(set(a.tolist()))
        assert f(a[::-3]) == set(a[::-3].tolist())


def test_views_rows_and_columns():
    m = np.arange(-12, 12, dtype=np.int64).reshape(6, 4) % 5
    for i in range(-6, 6):
        assert njit(build_sub)(m, i) == set(m[i].tolist())
    for j in range(4):
        assert njit(build_col)(m, j) == set(m[:, j].tolist())
    assert njit(build_col)(np.asfortranarray(m), 1) == set(m[:, 1].tolist())


def test_floats_nan_and_signed_zero():
    a = np.array([0.0, -0.0, 1.5, 1.5, np.inf, -np.inf])
    got = njit(build)(a)
    assert got == {0.0, 1.5, np.inf, -np.inf} and len(got) == 4
    b = np.array([np.nan, 1.0])
    got = njit(build)(b)
    assert len(got) == 2 and 1.0 in got


def test_pairwise_intersections():
    rng = np.random.default_rng(3)
    for shape in [(12, 4), (1, 3), (5, 0)]:
        m = rng.integers(0, 8, shape)
        want = np.array([[len(set(m[j].tolist()) & set(m[i].tolist())) for j in range(shape[0])]
                         for i in range(shape[0])], dtype=np.int64).reshape(shape[0], shape[0])
        np.testing.assert_array_equal(njit(sizes)(m), want)


def test_two_d_array_is_refused():
    from mahou.errors import TypingError, UnsupportedError
    with pytest.raises((TypingError, UnsupportedError, TypeError)):
        njit(build)(np.zeros((2, 2)))
