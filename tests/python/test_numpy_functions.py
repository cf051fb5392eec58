"""NumPy functions written in Python and compiled by mahou (python/mahou/_library):
order statistics, NaN-skipping reductions, differences, rounding, closeness, products,
interpolation, convolution, triangles, reordering, nonzero indices, binning, grids.
Each is compared with NumPy on several dtypes, empty arrays, NaNs and views."""

import numpy as np
import pytest

from conftest import check
from mahou import errors, njit

FLOATS = [np.float32, np.float64]
NUMERIC = [np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64]


def views(a):
    """`a`, a Fortran copy, a strided view and a reversed view with the same values."""
    out = [a]
    if a.ndim > 1:
        out.append(np.asfortranarray(a))
    big = np.zeros((a.shape[0] * 2,) + a.shape[1:], dtype=a.dtype)
    big[::2] = a
    out.append(big[::2])
    rev = np.ascontiguousarray(a[::-1])
    out.append(rev[::-1])
    return out


def samples(dtype):
    rng = np.random.default_rng(7)
    v = (rng.standard_normal(9) * 10).astype(np.float64)
    if np.dtype(dtype).kind in "iu":
        v = np.abs(v) if np.dtype(dtype).kind == "u" else v
        v = np.round(v)
    return v.astype(dtype)


# ---------------------------------------------------------------------------
# order statistics
# ---------------------------------------------------------------------------
def median_of(a):
    return np.median(a)


def nanmedian_of(a):
    return np.nanmedian(a)


def percentile_of(a, q):
    return np.percentile(a, q)


def quantile_of(a, q):
    return np.quantile(a, q)


def nanpercentile_of(a, q):
    return np.nanpercentile(a, q)


def nanquantile_of(a, q):
    return np.nanquantile(a, q)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_median_dtypes_and_views(dtype):
    for n in (1, 2, 8, 9):
        for a in views(samples(dtype)[:n]):
            check(median_of, a)
            check(percentile_of, a, 37.5)
            check(quantile_of, a, 0.9)
    check(median_of, samples(dtype)[:8].reshape(2, 4))


@pytest.mark.parametrize("q", [50.0, 0.0, 100.0, np.array([10.0, 90.0]), np.array([150.0]), 120.0])
@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_percentiles_of_empty_arrays(q, shape):
    # NumPy 2: percentile/quantile of an empty array raise IndexError (after the q range
    # check, a ValueError); the nan forms give nan, as median does
    a = np.zeros(shape)
    for fn, scale in ((percentile_of, 1.0), (quantile_of, 100.0), (nanpercentile_of, 1.0)):
        try:
            expected = ("value", fn(a, q / scale))
        except (IndexError, ValueError) as e:
            expected = ("raise", type(e))
        try:
            got = ("value", njit(fn)(a, q / scale))
        except (IndexError, ValueError) as e:
            got = ("raise", type(e))
        assert got[0] == expected[0] and (got[0] == "value" or got[1] is expected[1]), (fn.__name__, got, expected)
        if got[0] == "value":
            np.testing.assert_array_equal(got[1], expected[1])


def test_median_float32_stays_float32():
    a = np.array([0.1, 0.7, 0.2, 0.4], dtype=np.float32)
    got = njit(median_of)(a)
    assert got == np.median(a)  # the float32 mean of the middle two, as NumPy


@pytest.mark.parametrize("fn", [median_of, nanmedian_of])
def test_median_nans_and_empty(fn):
    check(fn, np.array([1.0, np.nan, 3.0, 2.0]))
    check(fn, np.array([np.nan, np.nan]))
    check(fn, np.array([2.0, 1.0, 4.0, np.nan, 3.0]))
    check(fn, np.empty(0))


def median_inputs(dtype):
    """Arrays long enough for the selection's partitioning (not only its insertion sort):
    random, sorted, reversed, organ-pipe, few distinct values, all equal."""
    rng = np.random.default_rng(11)
    out = []
    for n in (17, 18, 33, 100, 101, 1000, 1001):
        v = rng.standard_normal(n) * 50
        if np.dtype(dtype).kind in "iu":
            v = np.round(np.abs(v) if np.dtype(dtype).kind == "u" else v)
        out.append(v.astype(dtype))
        out.append(np.sort(v).astype(dtype))
        out.append(np.sort(v)[::-1].astype(dtype))
        out.append(np.concatenate([np.sort(v[: n // 2]), np.sort(v[n // 2:])[::-1]]).astype(dtype))
        out.append((np.arange(n) % 3).astype(dtype))
        out.append(np.full(n, 7, dtype=dtype))
    return out


@pytest.mark.parametrize("dtype", NUMERIC)
def test_median_by_selection_matches_numpy(dtype):
    for a in median_inputs(dtype):
        check(median_of, a)
        check(nanmedian_of, a)
        check(median_of, a[::3])  # a strided view
        check(median_of, a[: a.size // 4 * 4].reshape(4, -1).T)  # a transposed view


def test_median_by_selection_nans():
    rng = np.random.default_rng(5)
    for n in (40, 41, 500):
        a = rng.standard_normal(n)
        for pos in (0, n // 2, n - 1):
            b = a.copy()
            b[pos] = np.nan
            check(median_of, b)
            check(nanmedian_of, b)
        b = a.copy()
        b[::3] = np.nan
        check(nanmedian_of, b)
        check(nanmedian_of, b.astype(np.float32))
    check(nanmedian_of, np.full(30, np.nan))
    check(median_of, np.array([-0.0, 0.0] * 20 + [1.0]))


def test_select_kth_orders_around_k():
    # the median's selection (the runtime's introselect): s[k] is the sorted k-th value
    from mahou._library.selection import select_kth

    @njit
    def kth(a, n, k):
        s = a.copy()
        return select_kth(s, n, k), s

    rng = np.random.default_rng(3)
    for a in (rng.standard_normal(200), np.sort(rng.standard_normal(200)), np.ones(200), np.arange(200.0)[::-1].copy()):
        for k in (0, 57, 100, 199):
            v, s = kth(a, 200, k)
            assert v == np.sort(a)[k]
            assert np.all(s[:k] <= v) and np.all(s[k + 1:] >= v)
            assert np.array_equal(np.sort(s), np.sort(a))
        v, s = kth(a, 50, 20)  # a prefix only: the rest stays as it was
        assert v == np.sort(a[:50])[20]
        assert np.array_equal(s[50:], a[50:])


def test_median_argument_untouched():
    a = np.random.default_rng(1).standard_normal(101)
    b = a.copy()
    assert njit(median_of)(a) == np.median(b)
    assert np.array_equal(a, b)


def test_percentiles_of_arrays_of_q():
    a = samples(np.float64)
    q = np.array([0.0, 12.5, 50.0, 99.0, 100.0])
    check(percentile_of, a, q)
    check(quantile_of, a, q / 100)
    check(quantile_of, a, (q / 100).reshape(5, 1))
    b = a.copy()
    b[[1, 4]] = np.nan
    check(nanpercentile_of, b, q)
    check(nanquantile_of, b, 0.3)
    check(percentile_of, b, 40.0)


def test_quantile_out_of_range():
    with pytest.raises(ValueError, match="Quantiles must be in the range"):
        njit(quantile_of)(np.arange(3.0), 1.5)


# ---------------------------------------------------------------------------
# NaN-skipping reductions, count_nonzero
# ---------------------------------------------------------------------------
def nan_reductions(a):
    return np.nansum(a), np.nanprod(a), np.nanmin(a), np.nanmax(a)


def nan_moments(a):
    return np.nanmean(a), np.nanvar(a), np.nanstd(a)


def count_nonzero_of(a):
    return np.count_nonzero(a)


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_reductions(dtype):
    a = samples(dtype)
    a[[2, 5]] = np.nan
    for x in views(a):
        check(nan_reductions, x, rtol=1e-6)
        check(nan_moments, x, rtol=1e-5)
    check(nan_reductions, a.reshape(3, 3), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8])
def test_nan_reductions_of_integers(dtype):
    a = samples(dtype)
    check(nan_reductions, a)
    check(nan_moments, a, rtol=1e-12)


def test_nan_reductions_all_nan_and_empty():
    allnan = np.full(3, np.nan)
    check(nan_moments, allnan)
    assert np.isnan(njit(lambda a: np.nanmin(a))(allnan))
    check(lambda a: (np.nansum(a), np.nanprod(a)), np.empty(0))
    with pytest.raises(ValueError, match="zero-size array"):
        njit(lambda a: np.nanmax(a))(np.empty(0))


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float64, np.complex128])
def test_count_nonzero(dtype):
    a = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    for x in views(a):
        check(count_nonzero_of, x)
    check(count_nonzero_of, np.empty(0, dtype=dtype))


# ---------------------------------------------------------------------------
# diff, ediff1d, round, isclose, allclose, array_equal
# ---------------------------------------------------------------------------
def diff_of(a, n):
    return np.diff(a, n).copy()


def ediff1d_of(a):
    return np.ediff1d(a), np.ediff1d(a, to_begin=-1), np.ediff1d(a, to_end=np.array([7, 8]))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int64, np.float32, np.complex64])
def test_diff(dtype):
    a = (np.arange(20) * 7 % 11).astype(dtype)
    for n in (0, 1, 2, 3):  # n=0: a copy (as Numba), NumPy returns a itself
        for x in views(a):
            check(diff_of, x, n)
        for x in views(a.reshape(4, 5)):
            check(diff_of, x, n)
    check(diff_of, a.reshape(2, 2, 5), 1)
    check(diff_of, a[:1], 2)  # longer than the axis: empty
    check(diff_of, np.empty((3, 0), dtype=dtype), 1)


def test_diff_negative_order():
    with pytest.raises(ValueError, match="order must be non-negative"):
        njit(diff_of)(np.arange(3), -1)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_ediff1d(dtype):
    a = (np.arange(12) ** 2 % 7).astype(dtype)
    check(ediff1d_of, a)
    check(ediff1d_of, a.reshape(3, 4))
    check(ediff1d_of, a[::3])
    check(ediff1d_of, np.empty(0, dtype=dtype))


def round_of(a, d):
    return np.round(a, d), np.around(a, d)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_round_floats(dtype):
    a = np.array([0.5, 1.5, 2.5, -0.5, -1.55, 1.2345, 123.456, np.nan, np.inf, -0.0]).astype(dtype)
    for d in (0, 1, 2, -1, -2):
        for x in views(a):
            check(round_of, x, d)
    check(round_of, a.reshape(2, 5), 1)
    check(round_of, np.empty(0, dtype=dtype), 1)


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.uint32])
def test_round_integers(dtype):
    a = np.array([0, 5, 15, 25, 35, 149, 150, 151, 250], dtype=dtype)
    if np.dtype(dtype).kind == "i":
        a = np.concatenate([a, -a])
    for d in (0, 1, -1, -2):
        check(round_of, a, d)


def test_round_scalars():
    check(round_of, 2.675, 2)
    check(round_of, -12.5, -1)
    check(round_of, 125, -1)


def closeness(a, b):
    return np.isclose(a, b), np.isclose(a, b, equal_nan=True), np.allclose(a, b), np.isclose(a, b, 1e-3, 1e-2)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_isclose_allclose(dtype):
    a = np.array([1.0, 2.0, np.nan, np.inf, -np.inf, 1e-9, 100.0]).astype(dtype) if dtype != np.int32 else \
        np.array([1, 2, 3, 100], dtype=dtype)
    b = a.copy()
    if dtype != np.int32:
        b[0] += 1e-6
        b[-1] = 100.05
    for x in views(a):
        check(closeness, x, b)
    check(closeness, a, 1.0)
    check(closeness, 1.0, 1.0 + 1e-9)


def equal_of(a, b):
    return np.array_equal(a, b)


def test_array_equal():
    a = np.arange(6).reshape(2, 3)
    check(equal_of, a, a.copy())
    check(equal_of, a, a.T)
    check(equal_of, a, a + 1)
    check(equal_of, a, a.astype(np.float64))
    check(equal_of, a, a.ravel())
    check(equal_of, np.empty(0), np.empty(0))
    check(equal_of, np.array([np.nan]), np.array([np.nan]))


# ---------------------------------------------------------------------------
# outer, cross, kron
# ---------------------------------------------------------------------------
def products(a, b):
    return np.outer(a, b), np.kron(a, b)


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.float32, np.complex128])
def test_outer_kron(dtype):
    a = (np.arange(6) - 2).astype(dtype)
    b = (np.arange(4) * 3 % 5).astype(dtype)
    for x in views(a):
        check(products, x, b)
    check(products, a.reshape(2, 3), b.reshape(2, 2))
    check(products, a, b.astype(np.float64))
    check(products, np.empty(0, dtype=dtype), b)


def cross_of(a, b):
    return np.cross(a, b)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_cross(dtype):
    a = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]], dtype=dtype)
    b = np.array([[3, 2, 1], [-1, 0, 1], [2, 2, 2]], dtype=dtype)
    check(cross_of, a[0], b[1])
    check(cross_of, a, b)
    check(cross_of, a, b[2])
    check(cross_of, a[1], b)
    check(cross_of, a.T.copy().T, b[::-1])
    check(cross_of, a[:1], b)


def test_cross_bad_shape():
    with pytest.raises(ValueError, match="incompatible dimensions"):
        njit(cross_of)(np.arange(4.0), np.arange(3.0))


# ---------------------------------------------------------------------------
# interp, convolve, correlate
# ---------------------------------------------------------------------------
def interp_of(x, xp, fp):
    return np.interp(x, xp, fp)


def interp_bounds(x, xp, fp):
    return np.interp(x, xp, fp, left=-1.0, right=99.0)


def test_interp():
    xp = np.array([0.0, 1.0, 1.5, 4.0])
    fp = np.array([3.0, -1.0, 2.0, 0.5])
    x = np.array([-1.0, 0.0, 0.25, 1.0, 1.2, 3.9, 4.0, 5.0, np.nan])
    for v in views(x):
        check(interp_of, v, xp, fp)
        check(interp_bounds, v, xp, fp)
    check(interp_of, 2.5, xp, fp)
    check(interp_of, x.reshape(3, 3), xp, fp)
    check(interp_of, x, xp[:1], fp[:1])
    check(interp_of, np.arange(5), np.arange(3), np.array([1, 5, 2]))
    check(interp_of, np.empty(0), xp, fp)


def test_interp_bad_input():
    with pytest.raises(ValueError, match="fp and xp are not of the same length"):
        njit(interp_of)(1.0, np.arange(3.0), np.arange(4.0))
    with pytest.raises(ValueError, match="array of sample points is empty"):
        njit(interp_of)(1.0, np.empty(0), np.empty(0))


def convolutions(a, v):
    return (np.convolve(a, v), np.convolve(a, v, "same"), np.convolve(a, v, "valid"),
            np.correlate(a, v), np.correlate(a, v, "same"), np.correlate(a, v, "full"))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128])
def test_convolve_correlate(dtype):
    a = (np.arange(7) * 5 % 9 - 3).astype(dtype)
    for n in (1, 2, 3, 6, 7, 9):
        v = (np.arange(n) % 4 + 1).astype(dtype)
        if dtype == np.complex128:
            v = v + 1j * np.arange(n)
        check(convolutions, a, v)
        check(convolutions, v, a)
        check(convolutions, a[::-2], v)


def test_convolve_empty_and_mode():
    with pytest.raises(ValueError, match="cannot be empty"):
        njit(convolutions)(np.arange(3.0), np.empty(0))
    with pytest.raises(ValueError, match="mode must be one of"):
        njit(lambda a: np.convolve(a, a, "bogus"))(np.arange(3.0))


# ---------------------------------------------------------------------------
# triu, tril, trace, flip, roll, repeat, tile
# ---------------------------------------------------------------------------
def triangles(m, k):
    return np.triu(m, k), np.tril(m, k), np.trace(m, k)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64, np.complex64])
def test_triangles_trace(dtype):
    m = (np.arange(20).reshape(4, 5) % 7).astype(dtype)
    for k in (-5, -1, 0, 2, 6):
        for x in views(m):
            check(triangles, x, k)
    check(triangles, np.empty((0, 3), dtype=dtype), 0)
    check(lambda v: (np.triu(v), np.tril(v, 1)), m[0])


def flips(m):
    return np.flip(m), np.flipud(m), np.fliplr(m)


@pytest.mark.parametrize("dtype", [np.int8, np.float64])
def test_flips(dtype):
    m = np.arange(12).reshape(3, 4).astype(dtype)
    for x in views(m):
        check(flips, x)
    check(lambda v: (np.flip(v), np.flipud(v)), m[1])
    check(flips, np.empty((0, 2), dtype=dtype))


def roll_of(a, s):
    return np.roll(a, s)


@pytest.mark.parametrize("shift", [0, 1, -2, 5, 13, -13])
def test_roll(shift):
    a = np.arange(10.0)
    for x in views(a):
        check(roll_of, x, shift)
    check(roll_of, a.reshape(2, 5), shift)
    check(roll_of, np.empty(0), shift)


def repeat_of(a, r):
    return np.repeat(a, r)


def tile_of(a, r):
    return np.tile(a, r)


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.bool_])
def test_repeat_tile(dtype):
    a = (np.arange(6) % 4).astype(dtype)
    for x in views(a):
        check(repeat_of, x, 3)
        check(tile_of, x, 2)
        check(tile_of, x, (2, 3))
    check(repeat_of, a, 0)
    check(repeat_of, a.reshape(2, 3), 2)
    check(repeat_of, a, np.array([1, 0, 2, 3, 0, 1]))
    check(repeat_of, 5, 3)
    check(tile_of, a.reshape(2, 3), (2, 2))
    check(tile_of, a.reshape(2, 3), 3)
    check(tile_of, np.empty(0, dtype=dtype), 3)


def test_repeat_bad_counts():
    with pytest.raises(ValueError, match="negative dimensions"):
        njit(repeat_of)(np.arange(3), -1)
    with pytest.raises(ValueError):
        njit(repeat_of)(np.arange(3), np.array([1, 2]))


# ---------------------------------------------------------------------------
# flatnonzero, argwhere, nonzero, digitize, meshgrid
# ---------------------------------------------------------------------------
def nonzeros(a):
    return np.flatnonzero(a), np.argwhere(a), np.nonzero(a)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64])
def test_nonzero_family(dtype):
    a = (np.arange(24) * 5 % 7 % 3).astype(dtype)
    check(nonzeros, a)
    for x in views(a.reshape(4, 6)):
        check(nonzeros, x)
    check(nonzeros, a.reshape(2, 3, 4))
    check(nonzeros, np.zeros(5, dtype=dtype))
    check(nonzeros, np.empty((0, 3), dtype=dtype))


def digitize_of(x, bins):
    return np.digitize(x, bins), np.digitize(x, bins, right=True)


def test_digitize():
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 4.0, 10.0, np.nan])
    bins = np.array([0.0, 1.0, 2.5, 4.0])
    for v in views(x):
        check(digitize_of, v, bins)
        check(digitize_of, v, bins[::-1].copy())
    check(digitize_of, 2.5, bins)
    check(digitize_of, np.arange(6), np.array([1, 3]))
    with pytest.raises(ValueError, match="monotonically"):
        njit(digitize_of)(x, np.array([0.0, 2.0, 1.0]))


def meshgrid_of(x, y):
    return np.meshgrid(x, y)


def test_meshgrid():
    check(meshgrid_of, np.arange(3.0), np.arange(4))
    check(meshgrid_of, np.arange(5)[::2], np.empty(0))


# ---------------------------------------------------------------------------
# np.array / np.asarray of literal lists and tuples
# ---------------------------------------------------------------------------
def array_literals(x, n):
    return (np.array([x, 2.0, 3]), np.array([[1, 2], [3, n]]), np.array((n, n + 1), dtype=np.float32),
            np.asarray([[x], [x + 1]]), np.array([True, False]), np.array([1j, x]))


def test_array_from_literals():
    check(array_literals, 1.5, 7)
    check(array_literals, -0.0, -3)


def stacks(a, b):
    return np.array([a, b]), np.asarray((a, b, a)), np.array([a, b], dtype=np.float32)


def test_array_of_arrays_stacks():
    check(stacks, np.arange(3), np.arange(3) * 2)
    check(stacks, np.arange(6.0).reshape(2, 3), np.ones((2, 3)))


def tuple_var(n):
    t = (n, n * 2, n * 3)
    return np.array(t), np.asarray(t, dtype=np.int8)


def test_array_from_tuple_variable():
    check(tuple_var, 4)


def as_arrays(a):
    return np.asarray(a), np.ascontiguousarray(a), np.asfortranarray(a), np.array(a), np.asarray(a, np.float32)


def test_asarray_of_arrays():
    a = np.arange(12.0).reshape(3, 4)
    for x in views(a):
        check(as_arrays, x)
    got = njit(as_arrays)(a)
    assert got[0] is a or np.shares_memory(got[0], a)
    assert got[2].flags.f_contiguous
    assert not np.shares_memory(got[3], a)


def test_array_ragged_is_refused():
    from mahou.errors import TypingError

    with pytest.raises(TypingError, match="inhomogeneous"):
        njit(lambda x: np.array([[x, 1.0], [2.0]]))(1.0)


# ---------------------------------------------------------------------------
# ufuncs of Numba's list
# ---------------------------------------------------------------------------
UNARY = ["square", "cbrt", "reciprocal", "deg2rad", "rad2deg", "radians", "degrees", "negative", "positive",
         "sign", "absolute", "fabs", "rint", "floor", "ceil", "trunc", "spacing", "signbit", "logical_not",
         "isnan", "isinf", "isfinite", "conjugate", "exp2", "expm1", "log1p", "arcsinh", "arctan"]
BINARY = ["logaddexp", "logaddexp2", "heaviside", "hypot", "copysign", "nextafter", "fmin", "fmax", "minimum",
          "maximum", "arctan2", "fmod", "power", "float_power", "floor_divide", "remainder", "mod",
          "logical_and", "logical_or", "logical_xor", "true_divide", "greater", "less_equal", "not_equal"]
INT_BINARY = ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "floor_divide",
              "remainder", "fmod", "minimum", "maximum", "power", "logical_and"]
INT_UNARY = ["invert", "bitwise_not", "square", "reciprocal", "negative", "absolute", "sign", "floor",
             "logical_not", "isnan"]


def _unary(name):
    f = getattr(np, name)
    return njit(lambda a: f(a)), (lambda a: f(a))


def _close(got, expected, name, rtol):
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    # rad2deg of float32: Numba (and mahou) multiply by float32(180/pi), NumPy by 180f/pi_f
    if expected.dtype.kind in "fc" and name in ("rad2deg", "degrees", "cbrt", "exp2", "expm1", "log1p", "arcsinh", "arctan",
                                                "logaddexp", "logaddexp2", "arctan2", "hypot", "power",
                                                "float_power"):
        np.testing.assert_allclose(got, expected, rtol=rtol, equal_nan=True, err_msg=name)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=name, strict=True)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", UNARY)
def test_unary_float_ufuncs(name, dtype):
    a = np.array([-2.5, -1.0, -0.0, 0.0, 0.3, 1.0, 2.0, 27.0, np.inf, -np.inf, np.nan], dtype=dtype)
    if name == "spacing":  # spacing(-0.0): NumPy the smallest positive, Numba (and mahou) negative
        a[2] = 0.5
    cf, pf = _unary(name)
    with np.errstate(all="ignore"):
        expected = pf(a)
        scalar = pf(a[4])
    _close(cf(a), expected, name, 4e-7 if dtype == np.float32 else 1e-15)
    _close(cf(a[::-2]), expected[::-2], name, 4e-7 if dtype == np.float32 else 1e-15)
    # a float32 scalar result comes back as a Python float (as from Numba) holding the float32 value
    got = cf(a[4])
    assert np.asarray(got, dtype=scalar.dtype) == got or np.isnan(got), (name, got)
    _close(np.asarray(got, dtype=scalar.dtype), np.asarray(scalar), name, 4e-7 if dtype == np.float32 else 1e-15)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.bool_])
@pytest.mark.parametrize("name", INT_UNARY)
def test_unary_integer_ufuncs(name, dtype):
    if dtype == np.bool_ and name in ("negative", "sign", "square", "reciprocal"):
        return  # NumPy refuses these for booleans
    a = np.array([0, 1, 2, 3, 100, 127], dtype=dtype)
    if np.dtype(dtype).kind == "i":
        a = np.concatenate([a, -a])
    cf, pf = _unary(name)
    with np.errstate(all="ignore"):
        expected = pf(a)
    _close(cf(a), expected, name, None)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", BINARY)
def test_binary_float_ufuncs(name, dtype):
    vals = np.array([-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, np.nan], dtype=dtype)
    a = np.repeat(vals, vals.size)
    b = np.tile(vals, vals.size)
    f = getattr(np, name)
    cf = njit(lambda x, y: f(x, y))
    with np.errstate(all="ignore"):
        expected = f(a, b)
        mixed = f(a, 2.0)
    rtol = 4e-7 if dtype == np.float32 else 1e-15
    _close(cf(a, b), expected, name, rtol)
    _close(cf(a, 2.0), mixed, name, rtol)
    _close(cf(a[::3], b[::3]), expected[::3], name, rtol)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.uint64])
@pytest.mark.parametrize("name", INT_BINARY)
def test_binary_integer_ufuncs(name, dtype):
    vals = np.array([0, 1, 2, 3, 7, 13], dtype=dtype)
    if np.dtype(dtype).kind == "i":
        vals = np.concatenate([vals, -vals[1:]])
    a = np.repeat(vals, vals.size)
    b = np.tile(vals, vals.size)
    if name in ("left_shift", "right_shift", "power"):
        b = np.abs(b) % 5
    f = getattr(np, name)
    cf = njit(lambda x, y: f(x, y))
    with np.errstate(all="ignore"):
        expected = f(a, b)
    _close(cf(a, b), expected, name, None)


def test_ufunc_result_dtypes_follow_numpy():
    # NumPy's loop choice: int8 → float16 is refused by Numba; int16 → float32, int32/64 → float64
    for dtype, expected in [(np.int16, np.float32), (np.int32, np.float64), (np.uint8, np.float16),
                            (np.bool_, np.float16)]:
        if expected == np.float16:
            continue
        a = np.arange(3, dtype=dtype)
        got = njit(lambda x: np.sqrt(x))(a)
        assert got.dtype == np.sqrt(a).dtype == expected


def test_bool_array_arithmetic_as_numpy():
    a = np.array([True, False, True])
    b = np.array([True, True, False])
    check(lambda x, y: (x + y, x * y), a, b)
    from mahou.errors import TypingError

    with pytest.raises(TypingError, match="numpy boolean subtract"):
        njit(lambda x, y: x - y)(a, b)


# ---------------------------------------------------------------------------
# compile-time constants prune branches (a.ndim, None arguments)
# ---------------------------------------------------------------------------
def by_ndim(a):
    if a.ndim == 1:
        return a.sum()
    else:
        return a.shape[0]


def test_branch_on_ndim_types_only_the_live_branch():
    check(by_ndim, np.arange(4.0))
    check(by_ndim, np.ones((2, 3)))


# ---------------------------------------------------------------------------
# searchsorted: NaN sorts last, values of another type, a computed sorted array
# ---------------------------------------------------------------------------
def searches(a, v):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right"), np.searchsorted(a[::2], v)


def test_searchsorted_nan_types_and_computed_arrays():
    a = np.array([0.0, 1.0, 1.0, 2.5, np.nan, np.nan])
    for v in (-1.0, 1.0, 2.0, 3.0, np.nan):
        check(searches, a, v)
    check(searches, a, np.array([np.nan, 0.5, 1.0]))
    ints = np.array([1, 3, 3, 7])
    for v in (2.5, 3, 3.0, -0.5, 7.5):
        check(searches, ints, v)
    check(searches, ints.astype(np.uint8), 3)


# ---------------------------------------------------------------- np.shape, np.size, np.ndim
# (the worked example of docs/pipeline.md: a NumPy function added as a registry entry)

def np_shape_size_ndim(a):
    return np.shape(a), np.size(a), np.ndim(a)


def np_shape_of_computed(a):
    # the argument is a computed array: evaluated once, its shape read from a temporary
    return np.shape(a + 1), np.size(a * 2), np.ndim(a.T)


@pytest.mark.parametrize("a", [
    np.arange(6.0),
    np.arange(12, dtype=np.int32).reshape(3, 4),
    np.arange(24, dtype=np.int16).reshape(2, 3, 4)[:, ::2, 1:],  # a non-contiguous view
    np.zeros((0, 5), dtype=np.complex128),                       # empty
    np.array([True, False]),
    np.arange(10.0)[::-3],                                        # negative strides
])
def test_np_shape_size_ndim_arrays(a):
    check(np_shape_size_ndim, a)
    check(np_shape_of_computed, a)


@pytest.mark.parametrize("x", [3, -7, 2.5, -0.0, 1 + 2j, True, np.float32(1.5), np.uint8(200)])
def test_np_shape_size_ndim_scalars(x):
    check(np_shape_size_ndim, x)


def np_ndim_evaluates(n):
    # the argument is evaluated even though only its ndim is read: np.empty(-1) raises
    return np.ndim(np.empty(n)), np.size(np.empty((n, 2)))


def test_np_ndim_evaluates_its_argument():
    check(np_ndim_evaluates, 3)
    check(np_ndim_evaluates, 0)
    with pytest.raises(ValueError):
        np_ndim_evaluates(-1)
    with pytest.raises(ValueError):
        njit(np_ndim_evaluates)(-1)


def np_shape_of_sequence(t):
    return np.shape(t), np.size(t), np.ndim(t)


def np_size_along_axis(a):
    return np.size(a, 0), np.size(a, -1)


@pytest.mark.parametrize("seq", [(1, 2), (1.5, -2.0, 3.0), ((1, 2), (3, 4), (5, 6))])
def test_np_shape_size_ndim_of_a_sequence(seq):
    # a sequence goes to the NumPy library's np.shape/np.size/np.ndim (np.asarray first)
    check(np_shape_of_sequence, seq)


def test_np_size_along_an_axis():
    for a in (np.zeros((2, 3)), np.arange(5.0), np.zeros((4, 0, 2))[:, :, ::2]):
        check(np_size_along_axis, a)
