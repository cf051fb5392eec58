"""The trigonometric and hyperbolic functions of complex numbers, compiled against CPython's
cmath and NumPy's ufuncs: special values (signed zeros, infinities, NaNs), the branch cuts
on the axes, complex64 and complex128 arrays of every shape, and the complex forms of
np.sign, np.rint, np.minimum/maximum/fmin/fmax (NumPy 2's definitions)."""

import cmath
import math

import numpy as np
import pytest

from mahou import cuda, njit
from mahou.errors import UnsupportedError

INF, NAN = math.inf, math.nan
_PARTS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -3.5, 1e-300, 30.0, -800.0, INF, -INF, NAN]
SPECIAL = [complex(r, i) for r in _PARTS for i in _PARTS]
# off the special values: the branch cuts (the real axis beyond ±1, the imaginary axis
# beyond ±i), each side of them by the sign of the zero, and ordinary points
ORDINARY = [complex(r, i) for r in (-7.25, -1.5, -1.0, -0.3, 0.0, -0.0, 0.3, 1.0, 1.5, 7.25)
            for i in (-4.0, -1.5, -1.0, -0.2, 0.0, -0.0, 0.2, 1.0, 1.5, 4.0)]

NAMES = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]


@njit
def cmath_sin(z):
    return cmath.sin(z)


@njit
def cmath_cos(z):
    return cmath.cos(z)


@njit
def cmath_tan(z):
    return cmath.tan(z)


@njit
def cmath_asin(z):
    return cmath.asin(z)


@njit
def cmath_acos(z):
    return cmath.acos(z)


@njit
def cmath_atan(z):
    return cmath.atan(z)


@njit
def cmath_sinh(z):
    return cmath.sinh(z)


@njit
def cmath_cosh(z):
    return cmath.cosh(z)


@njit
def cmath_tanh(z):
    return cmath.tanh(z)


@njit
def cmath_asinh(z):
    return cmath.asinh(z)


@njit
def cmath_acosh(z):
    return cmath.acosh(z)


@njit
def cmath_atanh(z):
    return cmath.atanh(z)


COMPILED = {name: globals()["cmath_" + name] for name in NAMES}


def _ulps(a, b):
    if a == b:
        return 0
    return abs(a - b) / math.ulp(max(abs(a), abs(b)))


def _same_part(got, want, ulps):
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want) or want == 0.0:
        return got == want  # exact (and the zero's sign below)
    return _ulps(got, want) <= ulps


def _check(name, got, want, ulps):
    for g, w, part in ((got.real, want.real, "real"), (got.imag, want.imag, "imag")):
        assert _same_part(g, w, ulps), (name, part, got, want)


def _python_or_none(name, z):
    try:
        return getattr(cmath, name)(z)
    except (ValueError, OverflowError):
        return None  # CPython raises: compiled code returns C99's value (Numba's too)


@pytest.mark.parametrize("name", NAMES)
def test_cmath_matches_cpython_on_ordinary_values(name):
    f = COMPILED[name]
    for z in ORDINARY:
        want = _python_or_none(name, z)
        if want is None:
            continue
        got = f(z)
        assert isinstance(got, complex)
        _check(name, got, want, ulps=4)


@pytest.mark.parametrize("name", NAMES)
def test_cmath_special_values_as_cpython(name):
    # CPython's special-value tables are C99 Annex G's, as the runtime's: NaNs, infinities
    # and zeros exactly (signs of zeros compared where CPython's is a zero).
    f = COMPILED[name]
    for z in SPECIAL:
        want = _python_or_none(name, z)
        if want is None:
            continue
        got = f(z)
        _check(name, got, want, ulps=4)
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            if w == 0.0 or math.isinf(w):
                assert math.copysign(1, g) == math.copysign(1, w), (name, z, got, want)


def test_cmath_branch_cuts_follow_the_sign_of_zero():
    for name, z in [("asin", complex(2, 0.0)), ("asin", complex(2, -0.0)), ("acos", complex(-3, 0.0)),
                    ("acos", complex(-3, -0.0)), ("atan", complex(0.0, 2)), ("atan", complex(-0.0, 2)),
                    ("asinh", complex(0.0, -2)), ("asinh", complex(-0.0, -2)), ("acosh", complex(0.5, -0.0)),
                    ("atanh", complex(3, 0.0)), ("atanh", complex(3, -0.0))]:
        _check(name, COMPILED[name](z), getattr(cmath, name)(z), ulps=4)


def test_cmath_of_real_and_integer_arguments():
    for name in NAMES:
        for x in (0.5, -0.25, 2, 0):
            want = _python_or_none(name, x)
            if want is None:
                continue
            _check(name, COMPILED[name](x), want, ulps=4)


def test_cmath_refuses_a_string():
    from mahou.errors import TypingError
    with pytest.raises(TypingError):
        COMPILED["sin"]("a")


# --- NumPy's ufuncs on complex numbers ---------------------------------------------------
UFUNCS = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
          "arctanh", "exp2", "log2", "log10", "expm1", "log1p", "sign", "rint"]
UFUNCS2 = ["maximum", "minimum", "fmax", "fmin"]


@njit
def np_sin(x):
    return np.sin(x)


@njit
def np_cos(x):
    return np.cos(x)


@njit
def np_tan(x):
    return np.tan(x)


@njit
def np_arcsin(x):
    return np.arcsin(x)


@njit
def np_arccos(x):
    return np.arccos(x)


@njit
def np_arctan(x):
    return np.arctan(x)


@njit
def np_sinh(x):
    return np.sinh(x)


@njit
def np_cosh(x):
    return np.cosh(x)


@njit
def np_tanh(x):
    return np.tanh(x)


@njit
def np_arcsinh(x):
    return np.arcsinh(x)


@njit
def np_arccosh(x):
    return np.arccosh(x)


@njit
def np_arctanh(x):
    return np.arctanh(x)


@njit
def np_exp2(x):
    return np.exp2(x)


@njit
def np_log2(x):
    return np.log2(x)


@njit
def np_log10(x):
    return np.log10(x)


@njit
def np_expm1(x):
    return np.expm1(x)


@njit
def np_log1p(x):
    return np.log1p(x)


@njit
def np_sign(x):
    return np.sign(x)


@njit
def np_rint(x):
    return np.rint(x)


@njit
def np_maximum(x, y):
    return np.maximum(x, y)


@njit
def np_minimum(x, y):
    return np.minimum(x, y)


@njit
def np_fmax(x, y):
    return np.fmax(x, y)


@njit
def np_fmin(x, y):
    return np.fmin(x, y)


UFUNC_COMPILED = {name: globals()["np_" + name] for name in UFUNCS}
UFUNC2_COMPILED = {name: globals()["np_" + name] for name in UFUNCS2}


def _assert_like_numpy(got, want, dtype):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    rtol = 2e-6 if np.dtype(dtype) == np.complex64 else 4e-15
    for part in (np.real, np.imag):
        g, w = part(got), part(want)
        assert np.array_equal(np.isnan(g), np.isnan(w)), (got, want)
        finite = np.isfinite(w)
        assert np.array_equal(g[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)]), (got, want)
        # near-zero results of large arguments: an absolute tolerance scaled to the input
        np.testing.assert_allclose(g[finite], w[finite], rtol=rtol, atol=rtol)


def _arrays(dtype):
    rng = np.random.default_rng(5)
    base = (rng.standard_normal(24) * 2 + 1j * rng.standard_normal(24) * 2).astype(dtype)
    return [base, base.reshape(4, 6), base.reshape(4, 6)[:, ::2], base[::-3], np.array(base[3]),
            base[:0], np.array(ORDINARY, dtype=dtype)]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", UFUNCS)
def test_ufunc_on_complex_arrays(name, dtype):
    f = UFUNC_COMPILED[name]
    ref = getattr(np, name)
    with np.errstate(all="ignore"):
        for a in _arrays(dtype):
            _assert_like_numpy(f(a), ref(a), dtype)


@pytest.mark.parametrize("name", UFUNCS)
def test_ufunc_on_complex_scalars(name):
    f = UFUNC_COMPILED[name]
    ref = getattr(np, name)
    with np.errstate(all="ignore"):
        for z in [0.5 + 0.25j, -1.5 - 2j, 3j, -0.0 + 0j, complex(4, -0.0)]:
            got = f(z)
            assert isinstance(got, complex)
            _assert_like_numpy(np.complex128(got), ref(np.complex128(z)), np.complex128)
            got32 = f(np.complex64(z))
            # a complex64 result comes back as a Python complex (as Numba's)
            _assert_like_numpy(np.complex64(got32), ref(np.complex64(z)), np.complex64)


@pytest.mark.parametrize("name", ["sign", "rint", "maximum", "minimum", "fmax", "fmin"])
def test_exact_ufuncs_on_special_values(name):
    # sign, rint and the comparisons are exact: NumPy's results bit for bit (NaN for NaN)
    vals = np.array(SPECIAL + [complex(2.5, -1.5), complex(-0.5, 3.5)], dtype=np.complex128)
    with np.errstate(all="ignore"):
        if name in UFUNCS2:
            x = np.repeat(vals, len(vals))
            y = np.tile(vals, len(vals))
            got, want = UFUNC2_COMPILED[name](x, y), getattr(np, name)(x, y)
        else:
            got, want = UFUNC_COMPILED[name](vals), getattr(np, name)(vals)
    assert got.dtype == want.dtype
    for part in (np.real, np.imag):
        g, w = part(got), part(want)
        assert np.array_equal(g, w, equal_nan=True), (name, np.flatnonzero(~((g == w) | (np.isnan(g) & np.isnan(w)))))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", UFUNCS2)
def test_min_max_of_complex_arrays(name, dtype):
    f = UFUNC2_COMPILED[name]
    ref = getattr(np, name)
    a = np.array([1 + 2j, 1 + 1j, -1 + 5j, complex(NAN, 0), 2 + 0j, complex(0, NAN), 3 - 1j], dtype=dtype)
    b = np.array([1 + 3j, 1 + 1j, -2 + 9j, 4 + 0j, complex(NAN, 1), 1 + 0j, complex(3, NAN)], dtype=dtype)
    got = f(a, b)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, ref(a, b))
    np.testing.assert_array_equal(f(a.reshape(7, 1), b[::-1]), ref(a.reshape(7, 1), b[::-1]))  # broadcast
    np.testing.assert_array_equal(f(a[:0], b[:0]), ref(a[:0], b[:0]))
    assert f(1 + 2j, 1 + 3j) == ref(1 + 2j, 1 + 3j)


@njit
def np_sinc(x):
    return np.sinc(x)


def test_sinc_of_complex():
    f = np_sinc
    a = np.array([0j, 0.5 + 0.5j, -1.5 + 0.25j, 2j, 3 + 0j], dtype=np.complex128)
    np.testing.assert_allclose(f(a), np.sinc(a), rtol=1e-14, atol=1e-16)


def test_cmath_where_cpython_raises_gives_c99s_value():
    # documented difference: C99's infinities, no exception
    assert cmath_atanh(1 + 0j) == complex(INF, 0.0)
    assert cmath_sinh(1000 + 0j).real == INF
    assert cmath_cos(1000j).real == INF
    assert cmath_atan(1j).imag == INF


def test_min_max_of_mixed_complex_and_real():
    a = np.array([1 + 1j, 2 - 1j, -1 + 0j])
    b = np.array([1.0, 3.0, -1.0])
    for name in UFUNCS2:
        np.testing.assert_array_equal(UFUNC2_COMPILED[name](a, b), getattr(np, name)(a, b))


def _kernel_complex_sin(a, out):
    out[:] = np.arcsinh(a)  # of scalars: the library's device functions (test_cuda_npcomplex.py)


def test_kernels_refuse_the_host_complex_functions_of_arrays():
    # the runtime's functions do not exist on the device: a clean refusal, not bad PTX
    with pytest.raises(UnsupportedError, match="complex arrays in CUDA kernels"):
        cuda.compile_ptx(_kernel_complex_sin, "void(complex128[::1], complex128[::1])")


@njit
def complex_orderings(x, y):
    return np.less(x, y), np.less_equal(x, y), np.greater(x, y), np.greater_equal(x, y)


def test_complex_comparisons_are_lexicographic():
    # NumPy 2: real parts first, then imaginary parts; false where a NaN decides
    a = np.array([1 + 2j, 1 + 1j, -1 + 5j, complex(NAN, 0), 2 + 0j, complex(0, NAN), 3 - 1j, 1 + 1j, complex(2, -0.0)])
    b = np.array([1 + 3j, 1 + 1j, -2 + 9j, 4 + 0j, complex(NAN, 1), 1 + 0j, complex(3, NAN), 1 + 0j, 2 + 0j])
    refs = (np.less, np.less_equal, np.greater, np.greater_equal)
    with np.errstate(all="ignore"):
        for x, y in [(a, b), (b, a), (a.astype(np.complex64), b), (a, 1.0), (a[::-2], b[::-2]), (a.reshape(3, 3), b[:3]),
                     (a[:0], b[:0])]:
            for g, ref in zip(complex_orderings(x, y), refs):
                w = ref(x, y)
                assert g.dtype == np.bool_
                np.testing.assert_array_equal(g, w)
        for x, y in [(1 + 2j, 1 + 3j), (1 + 2j, 1.0), (np.complex64(1 + 2j), 2), (complex(1, NAN), 0j)]:
            assert complex_orderings(x, y) == tuple(bool(ref(x, y)) for ref in refs)
