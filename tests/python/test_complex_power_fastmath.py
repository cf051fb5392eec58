"""Complex powers (z ** w, np.power of complex numbers and arrays) as Numba computes them,
and fastmath flag sets (fastmath={'nnan', ...}: only the flags named)."""

import cmath

import numpy as np
import pytest

from mahou import njit


@njit
def power(z, w):
    return z ** w


@njit
def np_power(z, w):
    return np.power(z, w)


@njit
def array_power(a, w):
    return a ** w


CASES = [(1 + 2j, 0.5), (1 + 2j, 2), (1 + 2j, 2.0), (-3 - 1j, 3), (0.5 - 0.25j, -2.5),
         (1 + 2j, 1 - 1j), (-1 + 0j, 0.5), (2j, 0), (1e10 + 1e10j, 3), (0.7 + 0j, 1.5j)]


@pytest.mark.parametrize("z,w", CASES)
def test_complex_power_matches_python(z, w):
    for f in (power, np_power):
        got = f(z, w)
        want = complex(z) ** w
        assert isinstance(got, complex)
        assert cmath.isclose(got, want, rel_tol=1e-12, abs_tol=1e-300), (f, z, w, got, want)


def test_complex_square_is_a_multiplication():
    for z in (1 + 2j, 1e-3 - 7j, 3.3 + 0.1j):
        assert power(z, 2) == z * z
        assert power(z, 2 + 0j) == z * z


def test_complex_power_of_zero_is_nan_not_an_error():
    # Numba's rule: CPython raises ZeroDivisionError, compiled code gives nan
    r = power(0j, -1.0)
    assert cmath.isnan(r)
    assert power(0j, 2.5) == 0
    assert power(0j, 0) == 1


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_array_power(dtype):
    a = (np.arange(1, 7) + 1j * np.arange(6, 0, -1)).astype(dtype)
    for w in (2, 0.5, 3):
        got = array_power(a, w)
        want = a ** w
        tol = 1e-5 if dtype == np.complex64 else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol)
        assert got.dtype == want.dtype


# ---------------------------------------------------------------------------
# fastmath flag sets
# ---------------------------------------------------------------------------


def self_unequal(x):
    return x != x


def test_fastmath_flag_sets():
    nan = float("nan")
    assert njit(self_unequal)(nan) is True
    assert njit(fastmath={"nsz", "arcp", "contract"})(self_unequal)(nan) is True  # NaNs kept
    assert njit(fastmath={"nnan"})(self_unequal)(nan) is False  # NaNs assumed away
    assert njit(fastmath={"fast"})(self_unequal)(nan) is False
    assert njit(fastmath={"nnan": True, "ninf": False})(self_unequal)(nan) is False
    assert njit(fastmath=set())(self_unequal)(nan) is True


def test_fastmath_bad_flags():
    with pytest.raises(ValueError, match="Unrecognized fastmath flags"):
        njit(fastmath={"nnan", "bogus"})(self_unequal)
    with pytest.raises(ValueError, match="bool, dict or set"):
        njit(fastmath="nnan")(self_unequal)


# ---------------------------------------------------------------------------
# np.vdot
# ---------------------------------------------------------------------------


@njit
def vdot(a, b):
    return np.vdot(a, b)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64, np.int64])
def test_vdot(dtype):
    a = (np.arange(6) - 2).astype(dtype)
    b = (np.arange(6) * 3 + 1).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * np.arange(6).astype(dtype)
    for x, y in ((a, b), (a.reshape(2, 3), b.reshape(3, 2)), (a[::2], b[1::2]), (a[:0], b[:0])):
        got, want = vdot(x, y), np.vdot(x, y)
        assert got == pytest.approx(want, rel=1e-6)
    with pytest.raises(ValueError):
        vdot(a, b[:5])
