"""Harvested from Numba's tests of array reductions (numba/tests/test_array_reductions.py):
every reduction, method and function form, over Numba's test arrays of each dtype (a
1-D run, a 2-D one, a non-contiguous reversed 3-D one, with and without fractions and
imaginary parts) and its edge cases (NaN, infinities, empty, all-equal), compiled vs
NumPy (harvest.py). Float sums, means and the statistics built on them are compared
within a relative 1e-12 (NumPy sums pairwise, compiled code in order, as Numba).
Cases mahou does not compile yet are in EXPECTED_REFUSALS."""

import sys

import numpy as np
import pytest

from harvest import Case, run_harvested


def base_arrays(dtype):
    if dtype == np.bool_:
        def make(n):
            return np.array([False, True] * (n // 2))
    else:
        def make(n):
            return np.arange(n, dtype=dtype) + 1
    return [make(10), make(10).reshape(2, 5), make(12)[::-1].reshape((2, 3, 2), order="A")]


def arrays_of(dtype):
    arrays = base_arrays(dtype)
    if dtype == np.float32:
        arrays += [a / 10 for a in arrays]
    if dtype == np.complex64:
        extra = []
        for a in arrays:
            t = a / 10 + 1j * a / 11
            t[::2] = np.conj(t[::2])
            extra.append(t)
        arrays += extra
    return [a.astype(dtype) for a in arrays]


DTYPES = [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.float32, np.float64, np.complex64, np.bool_]
ALL = [a for d in DTYPES for a in arrays_of(d)]
REAL = [a for d in DTYPES if d != np.complex64 for a in arrays_of(d)]
EDGES = [np.array([np.nan, 1.0, 2.0]), np.array([1.0, np.nan, np.nan]), np.array([np.inf, -np.inf, 0.0]),
         np.array([-0.0, 0.0]), np.array([5.0]), np.array([-np.inf]), np.full(4, 3.0), np.array([2.0, np.nan])[::-1]]
EMPTY = [np.zeros(0), np.zeros(0, dtype=np.int32), np.zeros((0, 3))]
# min/max of 0.0 and -0.0 return the first, as Numba (NumPy's loops keep either): not compared.
EDGES_MINMAX = [a for a in EDGES if not (a.size == 2 and a[0] == 0 and a[1] == 0)]
NAN_ARRAYS = EDGES + [np.array([np.nan, np.nan]), np.arange(6.0).reshape(2, 3), np.array([1, 2, 3], dtype=np.int16)]


def r_all(a):
    return a.all()


def g_all(a):
    return np.all(a)


def r_any(a):
    return a.any()


def g_any(a):
    return np.any(a)


def r_cumprod(a):
    return a.cumprod()


def g_cumprod(a):
    return np.cumprod(a)


def r_cumsum(a):
    return a.cumsum()


def g_cumsum(a):
    return np.cumsum(a)


def r_sum(a):
    return a.sum()


def g_sum(a):
    return np.sum(a)


def r_prod(a):
    return a.prod()


def g_prod(a):
    return np.prod(a)


def r_mean(a):
    return a.mean()


def g_mean(a):
    return np.mean(a)


def r_var(a):
    return a.var()


def g_var(a):
    return np.var(a)


def r_std(a):
    return a.std()


def g_std(a):
    return np.std(a)


def r_min(a):
    return a.min()


def g_min(a):
    return np.min(a)


def g_amin(a):
    return np.amin(a)


def r_max(a):
    return a.max()


def g_max(a):
    return np.max(a)


def g_amax(a):
    return np.amax(a)


def r_argmin(a):
    return a.argmin()


def g_argmin(a):
    return np.argmin(a)


def r_argmax(a):
    return a.argmax()


def g_argmax(a):
    return np.argmax(a)


def g_median(a):
    return np.median(a)


def g_nanmin(a):
    return np.nanmin(a)


def g_nanmax(a):
    return np.nanmax(a)


def g_nanmean(a):
    return np.nanmean(a)


def g_nansum(a):
    return np.nansum(a)


def g_nanprod(a):
    return np.nanprod(a)


def g_nanstd(a):
    return np.nanstd(a)


def g_nanvar(a):
    return np.nanvar(a)


def g_nanmedian(a):
    return np.nanmedian(a)


def g_nancumsum(a):
    return np.nancumsum(a)


def g_nancumprod(a):
    return np.nancumprod(a)


def g_percentile(a, q):
    return np.percentile(a, q)


def g_nanpercentile(a, q):
    return np.nanpercentile(a, q)


def g_quantile(a, q):
    return np.quantile(a, q)


def g_nanquantile(a, q):
    return np.nanquantile(a, q)


def g_ptp(a):
    return np.ptp(a)


def sum_axis(a, axis):
    return a.sum(axis=axis)


def prod_axis(a, axis):
    return np.prod(a, axis=axis)


def min_axis(a, axis):
    return a.min(axis=axis)


def max_axis(a, axis):
    return np.max(a, axis=axis)


def argmin_axis(a, axis):
    return np.argmin(a, axis=axis)


def argmax_axis(a, axis):
    return a.argmax(axis=axis)


def mean_axis(a, axis):
    return np.mean(a, axis=axis)


def all_axis(a, axis):
    return np.all(a, axis=axis)


def any_axis(a, axis):
    return a.any(axis=axis)


def sum_axis0(a):
    return a.sum(axis=0)


def sum_axis_last(a):
    return np.sum(a, axis=-1)


def prod_axis1(a):
    return np.prod(a, axis=1)


def min_axis0(a):
    return a.min(axis=0)


def max_axis_last(a):
    return np.max(a, axis=-1)


def argmin_axis1(a):
    return np.argmin(a, axis=1)


def argmax_axis0(a):
    return a.argmax(axis=0)


def mean_axis1(a):
    return np.mean(a, axis=1)


def all_axis0(a):
    return np.all(a, axis=0)


def any_axis_last(a):
    return a.any(axis=-1)


def var_ddof(a):
    return np.var(a, ddof=1)


def std_ddof(a):
    return a.std(ddof=1)


def sum_of_expression(a, b):
    return np.sum(a * b + 1), (a - b).max(), np.argmax(a * 0.5 - b)


def count_nonzero(a):
    return np.count_nonzero(a)


def axes_of(a):
    return [(a, k) for k in range(-a.ndim, a.ndim)]


AXES = [x for a in (np.arange(24.0).reshape(2, 3, 4), np.arange(12, dtype=np.int32).reshape(3, 4)[::-1],
                    np.array([[np.nan, 1.0], [2.0, -np.inf]]), np.array([[True, False], [False, False]]),
                    np.arange(6, dtype=np.uint8).reshape(2, 3).T) for x in axes_of(a)]
AXES_2D = sorted({id(a): a for a, _ in AXES}.values(), key=lambda a: a.ndim)
QS = [0, 25, 50, 100, 33.3]

CASES = {
    "all": Case(r_all, ALL + EDGES + EMPTY), "np_all": Case(g_all, ALL + EDGES),
    "any": Case(r_any, ALL + EDGES + EMPTY), "np_any": Case(g_any, ALL + EDGES),
    "cumprod": Case(r_cumprod, ALL + EDGES + EMPTY), "np_cumprod": Case(g_cumprod, ALL),
    "cumsum": Case(r_cumsum, ALL + EDGES + EMPTY), "np_cumsum": Case(g_cumsum, ALL),
    "sum": Case(r_sum, ALL + EDGES + EMPTY, tol=1e-12), "np_sum": Case(g_sum, ALL, tol=1e-12),
    "prod": Case(r_prod, ALL + EDGES + EMPTY, tol=1e-12), "np_prod": Case(g_prod, ALL, tol=1e-12),
    "mean": Case(r_mean, ALL + EDGES + EMPTY, tol=1e-12), "np_mean": Case(g_mean, ALL, tol=1e-12),
    "var": Case(r_var, ALL + EDGES + EMPTY, tol=1e-12), "np_var": Case(g_var, ALL, tol=1e-12),
    "std": Case(r_std, ALL + EDGES, tol=1e-12), "np_std": Case(g_std, ALL, tol=1e-12),
    "min": Case(r_min, REAL + EDGES_MINMAX + EMPTY), "np_min": Case(g_min, REAL), "np_amin": Case(g_amin, REAL + EDGES_MINMAX),
    "max": Case(r_max, REAL + EDGES_MINMAX + EMPTY), "np_max": Case(g_max, REAL), "np_amax": Case(g_amax, REAL + EDGES_MINMAX),
    "min_complex": Case(r_min, arrays_of(np.complex64)), "max_complex": Case(g_max, arrays_of(np.complex64)),
    "argmin": Case(r_argmin, ALL + EDGES + EMPTY), "np_argmin": Case(g_argmin, ALL),
    "argmax": Case(r_argmax, ALL + EDGES + EMPTY), "np_argmax": Case(g_argmax, ALL),
    "median": Case(g_median, REAL + EDGES + EMPTY[:1], tol=1e-12),
    "nanmin": Case(g_nanmin, NAN_ARRAYS + REAL), "nanmax": Case(g_nanmax, NAN_ARRAYS + REAL),
    "nanmean": Case(g_nanmean, NAN_ARRAYS, tol=1e-12), "nansum": Case(g_nansum, NAN_ARRAYS + REAL, tol=1e-12),
    "nanprod": Case(g_nanprod, NAN_ARRAYS, tol=1e-12), "nanstd": Case(g_nanstd, NAN_ARRAYS, tol=1e-12),
    "nanvar": Case(g_nanvar, NAN_ARRAYS, tol=1e-12), "nanmedian": Case(g_nanmedian, NAN_ARRAYS, tol=1e-12),
    "nancumsum": Case(g_nancumsum, NAN_ARRAYS), "nancumprod": Case(g_nancumprod, NAN_ARRAYS),
    "percentile": Case(g_percentile, [(a, q) for a in REAL[:6] + EDGES for q in QS]
                       + [(np.arange(10.0), np.array([10.0, 90.0])), (np.arange(3.0), 101)], tol=1e-12),
    "nanpercentile": Case(g_nanpercentile, [(a, q) for a in NAN_ARRAYS for q in QS], tol=1e-12),
    "quantile": Case(g_quantile, [(a, q / 100) for a in REAL[:6] + EDGES for q in QS], tol=1e-12),
    "nanquantile": Case(g_nanquantile, [(a, q / 100) for a in NAN_ARRAYS for q in QS], tol=1e-12),
    "ptp": Case(g_ptp, REAL + EDGES + [np.array([2 ** 63 - 1, -2 ** 63])]),
    "sum_axis": Case(sum_axis, AXES, tol=1e-12), "prod_axis": Case(prod_axis, AXES, tol=1e-12),
    "min_axis": Case(min_axis, AXES), "max_axis": Case(max_axis, AXES),
    "argmin_axis": Case(argmin_axis, AXES), "argmax_axis": Case(argmax_axis, AXES),
    "mean_axis": Case(mean_axis, AXES, tol=1e-12), "all_axis": Case(all_axis, AXES), "any_axis": Case(any_axis, AXES),
    "sum_axis0": Case(sum_axis0, AXES_2D, tol=1e-12), "sum_axis_last": Case(sum_axis_last, AXES_2D, tol=1e-12),
    "prod_axis1": Case(prod_axis1, AXES_2D, tol=1e-12), "min_axis0": Case(min_axis0, AXES_2D),
    "max_axis_last": Case(max_axis_last, AXES_2D), "argmin_axis1": Case(argmin_axis1, AXES_2D),
    "argmax_axis0": Case(argmax_axis0, AXES_2D), "mean_axis1": Case(mean_axis1, AXES_2D, tol=1e-12),
    "all_axis0": Case(all_axis0, AXES_2D), "any_axis_last": Case(any_axis_last, AXES_2D),
    "var_ddof": Case(var_ddof, REAL[:6], tol=1e-12), "std_ddof": Case(std_ddof, REAL[:6], tol=1e-12),
    "sum_of_expression": Case(sum_of_expression, [(np.arange(10.0), np.arange(10.0)[::-1]),
                                                  (np.arange(6).reshape(2, 3), np.ones(3))], tol=1e-12),
    "count_nonzero": Case(count_nonzero, ALL + EDGES + EMPTY),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = set()


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
