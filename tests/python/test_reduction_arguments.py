"""Reductions of complex arrays (min/max lexicographic, var/std real) and the reductions'
further arguments: var/std ddof=, sum/prod dtype=, and an axis known only at run time
(sum/prod/min/max/mean/argmin/argmax/var/std, methods and np.* forms), against NumPy."""

import numpy as np
import pytest

from mahou import njit

NAN = np.nan


@njit
def complex_stats(a):
    return a.min(), a.max(), np.min(a), np.max(a), a.var(), a.std(), np.var(a), np.std(a)


@njit
def complex_axis_stats(a):
    return a.min(axis=0), np.max(a, axis=1), a.var(axis=0), np.std(a, axis=1)


def _complex_arrays(dtype):
    rng = np.random.default_rng(3)
    z = (rng.standard_normal(30) + 1j * rng.standard_normal(30)).astype(dtype)
    return [z, z[::-2], z[:1], np.array([1 + 2j, 1 + 1j, 1 - 5j, -0.0 + 0j, 0j], dtype=dtype),
            np.array([3 + 1j, complex(NAN, 1), -1j], dtype=dtype), np.array([2 + 1j, complex(2, NAN), 5j], dtype=dtype)]


def _close(got, want, dtype):
    rtol = 1e-5 if np.dtype(dtype) in (np.complex64, np.float32) else 1e-12
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_min_max_var_std(dtype):
    for a in _complex_arrays(dtype):
        got = complex_stats(a)
        want = (a.min(), a.max(), np.min(a), np.max(a), a.var(), a.std(), np.var(a), np.std(a))
        for g, w in zip(got, want):
            if np.iscomplexobj(w):
                assert complex(g) == complex(w) or (np.isnan(complex(g)) and np.isnan(complex(w))), (a, got, want)
            else:
                assert not isinstance(g, complex)  # var/std of complex numbers are real
                _close(g, w, dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_reductions_along_an_axis(dtype):
    m = (np.arange(12) - 5 + 1j * (np.arange(12) % 4)).astype(dtype).reshape(3, 4)
    for a in (m, m[:, ::-2], m.T):
        got = complex_axis_stats(a)
        want = (a.min(axis=0), np.max(a, axis=1), a.var(axis=0), np.std(a, axis=1))
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            _close(g, w, dtype)


def test_min_of_an_empty_complex_array_raises():
    with pytest.raises(ValueError):
        complex_stats(np.zeros(0, dtype=np.complex128))


@njit
def with_ddof(a, d):
    return a.var(ddof=d), a.std(ddof=d), np.var(a, ddof=d), np.std(a, ddof=d)


@njit
def with_ddof_axis(a, d):
    return a.var(axis=0, ddof=d), np.std(a, axis=1, ddof=d)


@pytest.mark.parametrize("ddof", [0, 1, 2, 1.5, 5, 9])
def test_var_std_ddof(ddof):
    cases = [np.array([1.0, 4.0, -2.0, 8.5, 0.0]), np.arange(10, dtype=np.int32), np.arange(8.0)[::-3],
             np.array([1 + 1j, -2j, 3 + 0j, 0.5 - 0.5j]), np.arange(6, dtype=np.float32)]
    with np.errstate(all="ignore"):
        for a in cases:
            want = (a.var(ddof=ddof), a.std(ddof=ddof), np.var(a, ddof=ddof), np.std(a, ddof=ddof))
            _close(with_ddof(a, ddof), want, a.dtype if a.dtype == np.float32 else np.float64)
        m = np.arange(12.0).reshape(3, 4) ** 1.5
        for g, w in zip(with_ddof_axis(m, ddof), (m.var(axis=0, ddof=ddof), np.std(m, axis=1, ddof=ddof))):
            _close(g, w, np.float64)


def test_ddof_of_a_string_is_refused():
    from mahou.errors import TypingError
    with pytest.raises(TypingError):
        with_ddof(np.arange(3.0), "a")


@njit
def sum_dtype_int8(a):
    return np.sum(a, dtype=np.int8), a.sum(dtype=np.int8)


@njit
def sum_prod_dtypes(a):
    return np.sum(a, dtype=np.float32), a.prod(dtype=np.float64), np.prod(a, dtype=np.int64), a.sum(dtype=np.complex128)


@njit
def sum_dtype_axis(a):
    return np.sum(a, axis=0, dtype=np.float32), a.prod(axis=1, dtype=np.int16)


def test_sum_prod_dtype():
    for a in (np.arange(100), np.arange(-50, 50, dtype=np.int16)[::3], np.array([True, False, True]),
              np.arange(7, dtype=np.uint8), np.array([], dtype=np.int64)):
        got, want = sum_dtype_int8(a), (np.sum(a, dtype=np.int8), a.sum(dtype=np.int8))
        assert got == want
        got = sum_prod_dtypes(a)
        want = (np.sum(a, dtype=np.float32), a.prod(dtype=np.float64), np.prod(a, dtype=np.int64),
                a.sum(dtype=np.complex128))
        for g, w in zip(got, want):
            assert g == w, (a, got, want)
    for a in (np.arange(12).reshape(3, 4), np.arange(12).reshape(4, 3)[::-1].T):
        for g, w in zip(sum_dtype_axis(a), (np.sum(a, axis=0, dtype=np.float32), a.prod(axis=1, dtype=np.int16))):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)


@njit
def by_axis(a, ax):
    return (np.sum(a, axis=ax), a.prod(axis=ax), np.min(a, ax), a.max(ax), np.mean(a, axis=ax),
            a.argmin(axis=ax), np.argmax(a, ax), a.var(axis=ax), np.std(a, axis=ax, ddof=1))


def _by_axis_numpy(a, ax):
    return (np.sum(a, axis=ax), a.prod(axis=ax), np.min(a, ax), a.max(ax), np.mean(a, axis=ax),
            a.argmin(axis=ax), np.argmax(a, ax), a.var(axis=ax), np.std(a, axis=ax, ddof=1))


def test_runtime_axis():
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal((3, 4)), rng.standard_normal((2, 3, 4)), rng.standard_normal((5, 6))[::2, ::-3],
              np.arange(24, dtype=np.int32).reshape(2, 3, 4).transpose(2, 0, 1), rng.standard_normal(5)]
    with np.errstate(all="ignore"):
        for a in arrays:
            for ax in range(-a.ndim, a.ndim):
                got, want = by_axis(a, ax), _by_axis_numpy(a, ax)
                for g, w in zip(got, want):
                    assert np.ndim(g) == np.ndim(w)
                    np.testing.assert_allclose(g, w, rtol=1e-12)


def test_runtime_axis_out_of_range_raises_value_error():
    a = np.ones((2, 3))
    for ax in (2, -3, 100):
        with pytest.raises(ValueError, match="out of bounds"):
            by_axis(a, ax)
        with pytest.raises(ValueError):  # NumPy's AxisError is a ValueError too
            np.sum(a, axis=ax)
    with pytest.raises(ValueError):
        by_axis(np.ones(3), 1)


def test_runtime_axis_of_an_empty_line():
    a = np.zeros((0, 3))
    with pytest.raises(ValueError):
        by_axis(a, 0)  # min of an empty line: NumPy raises too
    np.testing.assert_array_equal(sum_along(a, 1), np.zeros(0))
    np.testing.assert_array_equal(sum_along(a, 0), np.zeros(3))


@njit
def sum_along(a, ax):
    return a.sum(axis=ax)


def test_runtime_axis_refuses_a_float():
    from mahou.errors import TypingError
    with pytest.raises(TypingError):
        sum_along(np.ones((2, 2)), 1.0)
