"""np.modf, np.frexp (two outputs: a tuple of arrays for an array, of scalars for a scalar)
and np.ldexp, compiled against NumPy: signed zeros, infinities, NaN, float32, integer
inputs, views, empty and N-D arrays, broadcasting."""

import numpy as np
import pytest

from mahou import njit


@njit
def modf(a):
    return np.modf(a)


@njit
def frexp(a):
    return np.frexp(a)


@njit
def ldexp(a, e):
    return np.ldexp(a, e)


SPECIAL = np.array([1.5, -2.0, -0.0, 0.0, 3.25, -0.5, np.inf, -np.inf, np.nan, 1e300, 5e-324, -7.75])
ARRAYS = [SPECIAL, SPECIAL.astype(np.float32), np.arange(20.0)[::3] - 9.5, np.zeros(0), np.arange(12.0).reshape(3, 4) / 3,
          (np.arange(12.0).reshape(3, 4) - 6)[:, ::-2], np.arange(-3, 4), np.array(2.75)]


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True), (got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want)), (got, want)


@pytest.mark.parametrize("fn,ref", [(modf, np.modf), (frexp, np.frexp)])
def test_two_output_ufuncs_on_arrays(fn, ref):
    for a in ARRAYS:
        got, want = fn(a), ref(a)
        assert isinstance(got, tuple) and len(got) == 2
        for g, w in zip(got, want):
            assert isinstance(g, np.ndarray) and g.dtype == w.dtype, (a.dtype, g, w)
            _same(g, w)


@pytest.mark.parametrize("fn,ref", [(modf, np.modf), (frexp, np.frexp)])
def test_two_output_ufuncs_on_scalars(fn, ref):
    for x in [2.5, -0.0, -3.0, 7, float("inf"), float("-inf"), float("nan"), np.float32(-1.25), 1e-310]:
        got, want = fn(x), ref(x)
        assert isinstance(got, tuple) and not isinstance(got[0], np.ndarray)
        for g, w in zip(got, want):
            _same(g, w)


def test_ldexp():
    cases = [(SPECIAL, 3), (SPECIAL, -1074), (np.arange(20.0)[::3], np.arange(7, dtype=np.int32)), (0.5, 1024),
             (np.float32(1.5), 2), (np.arange(3.0).reshape(3, 1), np.arange(4)), (2.0, np.array([-1, 0, 1, 2000])),
             (np.arange(4), 2), (np.zeros(0), 5), (SPECIAL.astype(np.float32), 10)]
    for a, e in cases:
        got, want = ldexp(a, e), np.ldexp(a, e)
        if isinstance(want, np.ndarray):
            assert got.dtype == want.dtype
        _same(got, want)
