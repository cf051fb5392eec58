"""Harvested from Numba's tests of NumPy functions (numba/tests/test_np_functions.py):
each function with the inputs Numba checks it on, compiled vs NumPy (harvest.py).
Cases mahou does not compile yet are in EXPECTED_REFUSALS."""

import sys

import numpy as np
import pytest

from harvest import Case, run_harvested

F = np.array([1.0, -1.0, 0.0, -0.0, 0.5, -0.5, 5.0, -5.0, 5e-21, -5e-21])
C = np.array([1 + 0j, -1 + 0j, 0j, complex(-0.0, 0.0), 1j, -1j, 0.5 + 0.5j, -0.5 - 0.5j, 5 + 5j, -5 - 5j])
NANS = np.array([1.0, np.nan, -np.inf, np.inf, -0.0, 2.5])
M34 = np.arange(12.0).reshape(3, 4)
I345 = np.arange(60).reshape(3, 4, 5)


def sinc(x):
    return np.sinc(x)


def angle(x):
    return np.angle(x)


def nanargmax(a):
    return np.nanargmax(a)


def nanargmin(a):
    return np.nanargmin(a)


def angle_deg(x, deg):
    return np.angle(x, deg)


def array_equal(a, b):
    return np.array_equal(a, b)


def contains(a, key):
    return key in a


def intersect1d(a, b):
    return np.intersect1d(a, b)


def count_nonzero(a):
    return np.count_nonzero(a)


def count_nonzero_axis(a, axis):
    return np.count_nonzero(a, axis=axis)


def append(a, values, axis):
    return np.append(a, values, axis=axis)


def delete(a, obj):
    return np.delete(a, obj)


def insert(a, obj, values):
    return np.insert(a, obj, values)


def diff(a):
    return np.diff(a)


def diff_n(a, n):
    return np.diff(a, n)


def iscomplexobj(x):
    return np.iscomplexobj(x)


def isrealobj(x):
    return np.isrealobj(x)


def iscomplex(x):
    return np.iscomplex(x)


def isreal(x):
    return np.isreal(x)


def isscalar(x):
    return np.isscalar(x)


def isneginf(x):
    return np.isneginf(x)


def isposinf(x):
    return np.isposinf(x)


def isclose(a, b):
    return np.isclose(a, b)


def isclose_nan(a, b):
    return np.isclose(a, b, 1e-05, 1e-08, True)


def allclose(a, b):
    return np.allclose(a, b)


def bincount(a):
    return np.bincount(a)


def bincount_weights(a, w):
    return np.bincount(a, weights=w)


def bincount_minlength(a, n):
    return np.bincount(a, None, n)


def searchsorted_left(a, v):
    return np.searchsorted(a, v, side="left")


def searchsorted_right(a, v):
    return np.searchsorted(a, v, side="right")


def digitize(x, bins):
    return np.digitize(x, bins)


def digitize_right(x, bins, right):
    return np.digitize(x, bins, right)


def histogram_bins(a, bins):
    return np.histogram(a, bins)


def histogram_range(a, bins, rng):
    return np.histogram(a, bins, rng)


def correlate(a, v, mode):
    return np.correlate(a, v, mode=mode)


def convolve(a, v, mode):
    return np.convolve(a, v, mode=mode)


def vander(x, n, increasing):
    return np.vander(x, n, increasing)


def tri(n, m, k):
    return np.tri(n, m, k)


def tril(m, k):
    return np.tril(m, k)


def triu(m, k):
    return np.triu(m, k)


def tril_indices(n, k):
    return np.tril_indices(n, k)


def triu_indices_from(a, k):
    return np.triu_indices_from(a, k)


def indices(dims):
    return np.indices(dims)


def partition(a, kth):
    # the order inside each side is not specified: the kth item and each side's items
    p = np.partition(a, kth)
    k = kth % a.shape[0]
    return p[k], np.sort(p[:k]), np.sort(p[k + 1:])


def argpartition_sorted(a, kth):
    # the order inside each side is not specified: compare the partitioned values
    return a[np.argpartition(a, kth)][kth]


def cov(m):
    return np.cov(m)


def corrcoef(x):
    return np.corrcoef(x)


def ediff1d(a, to_end, to_begin):
    return np.ediff1d(a, to_end, to_begin)


def fliplr(a):
    return np.fliplr(a)


def flipud(a):
    return np.flipud(a)


def flip(a):
    return np.flip(a)


def logspace(start, stop, num):
    return np.logspace(start, stop, num=num)


def geomspace(start, stop, num):
    return np.geomspace(start, stop, num=num)


def rot90(a, k):
    return np.rot90(a, k)


def array_split(a, n, axis):
    return np.array_split(a, n, axis=axis)


def split(a, n, axis):
    return np.split(a, n, axis=axis)


def hsplit(a, n):
    return np.hsplit(a, n)


def vsplit(a, n):
    return np.vsplit(a, n)


def roll(a, shift):
    return np.roll(a, shift)


def extract(cond, a):
    return np.extract(cond, a)


def trapezoid(y, x):
    return np.trapezoid(y, x)


def average(a):
    return np.average(a)


def average_weights(a, w):
    return np.average(a, weights=w)


def interp(x, xp, fp):
    return np.interp(x, xp, fp)


def asarray(a):
    return np.asarray(a)


def repeat(a, repeats):
    return np.repeat(a, repeats)


def array_repeat(a, repeats):
    return a.repeat(repeats)


def select(conds, choices, default):
    return np.select(conds, choices, default=default)


def bartlett(m):
    return np.bartlett(m)


def blackman(m):
    return np.blackman(m)


def hamming(m):
    return np.hamming(m)


def hanning(m):
    return np.hanning(m)


def kaiser(m, beta):
    return np.kaiser(m, beta)


def cross(a, b):
    return np.cross(a, b)


def trim_zeros(a, trim):
    return np.trim_zeros(a, trim)


def union1d(a, b):
    return np.union1d(a, b)


def asarray_chkfinite(a):
    return np.asarray_chkfinite(a)


def unwrap(p):
    return np.unwrap(p)


def swapaxes(a, a1, a2):
    return np.swapaxes(a, a1, a2)


def moveaxis(a, src, dst):
    return np.moveaxis(a, src, dst)


def take_along_axis(a, idx, axis):
    return np.take_along_axis(a, idx, axis)


def nan_to_num(x):
    return np.nan_to_num(x)


def nan_to_num_values(x, nan, posinf, neginf):
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def diagflat(v, k):
    return np.diagflat(v, k)


def setxor1d(a, b):
    return np.setxor1d(a, b)


def setdiff1d(a, b):
    return np.setdiff1d(a, b)


def isin(a, b):
    return np.isin(a, b)


def isin_invert(a, b):
    return np.isin(a, b, invert=True)


def finfo_eps(x):
    return np.finfo(x.dtype).eps


def iinfo_max(x):
    return np.iinfo(x.dtype).max


def iinfo_min(x):
    return np.iinfo(x.dtype).min


def unique(a):
    return np.unique(a)


def median(a):
    return np.median(a)


def percentile(a, q):
    return np.percentile(a, q)


def round_decimals(a, d):
    return np.round(a, d)


def nanmean(a):
    return np.nanmean(a)


def nanmin(a):
    return np.nanmin(a)


def cumsum_nan(a):
    return np.nancumsum(a)


def argwhere(a):
    return np.argwhere(a)


def flatnonzero(a):
    return np.flatnonzero(a)


def meshgrid(x, y):
    return np.meshgrid(x, y)


def triu_2(m):
    return np.triu(m)


def outer(a, b):
    return np.outer(a, b)


def kron(a, b):
    return np.kron(a, b)


def trace(a):
    return np.trace(a)


SORTED = np.arange(5) ** 2
VALUES = np.arange(20) - 1
NAN_SORTED = np.array(list(SORTED) + [np.nan] * 3) / 2.0
DIGITS = np.array([0, 0.99, 1, 4.4, 4.5, 7, 8, 9, 9.5, np.inf, -np.inf, np.nan])
BINS = np.array([1.0, 3, 4.5, 8])

CASES = {
    "sinc": Case(sinc, [F, F.astype(np.float32), C, 0.5, -0.0, 5.0, 1 + 1j, F[::-2]], tol="ulp"),
    "angle": Case(angle, [F, C, C.astype(np.complex64), 1.0, -1.0, 0.5 + 0.5j, -5 - 5j], tol="ulp"),
    "nanargmax": Case(nanargmax, [NANS, F, M34, np.array([3, 1, 3]), np.array([np.nan, np.nan]), np.zeros(0),
                                  NANS.astype(np.float32)]),
    "nanargmin": Case(nanargmin, [NANS, F, M34[:, ::-2], np.array([np.nan, -np.inf]), np.array([np.nan]), np.zeros(0)]),
    "angle_deg": Case(angle_deg, [(C, True), (C, False), (F, True), (-5 - 5j, True)], tol="ulp"),
    "array_equal": Case(array_equal, [(np.array([]), np.array([])), (np.array([1, 2]), np.array([1, 2])),
                                      (np.array([]), np.array([1])), (M34, M34), (M34, M34.T),
                                      (np.arange(10).reshape(5, 2), np.arange(10.0).reshape(5, 2)),
                                      (np.array([1.0, np.nan]), np.array([1.0, np.nan]))]),
    "contains": Case(contains, [(np.arange(10, 50), 20), (np.arange(6), 10), (np.array([20]), 20),
                                (np.array([20]), 13), (np.array([True, False]), True), (np.array([0.5, 0.25]), 0.25),
                                (np.array([1 + 1j, 2j]), 2j), (np.arange(15, dtype=np.uint8), 5), (M34, 11.0)]),
    "intersect1d": Case(intersect1d, [(np.array([1.0]), np.array([2.0])), (np.array([1, 2, 2]), np.array([2, 2])),
                                      (np.array([5, 7, 1, 2]), np.array([2, 4, 3, 1, 5])),
                                      (np.array([5, 5, 7, 1, 2]), np.array([2, 1, 4, 3, 3, 1, 5])),
                                      (np.zeros(0), np.zeros(0))]),
    "count_nonzero": Case(count_nonzero, [np.array([]), np.zeros(10), np.arange(10), np.ones(10, dtype=np.bool_),
                                          I345, NANS]),
    "count_nonzero_axis": Case(count_nonzero_axis, [(np.ones(10, dtype=np.bool_), 0), (np.arange(12).reshape(3, 4), 0),
                                                    (np.arange(12).reshape(3, 4), 1), (np.array([0.0, -1.5, 0.0]), -1),
                                                    (np.arange(5)[::2], 0), (np.zeros(0), 0), (np.arange(3), 1),
                                                    (np.arange(24).reshape(2, 3, 4) % 3, 2)]),
    "append": Case(append, [(np.arange(10), 3, None), (np.arange(10), np.arange(3), None),
                            (np.arange(10).reshape(5, 2), np.arange(3), None),
                            (np.array([[1, 2, 3], [4, 5, 6]]), np.array([[7, 8, 9]]), 0),
                            (np.array([[1, 2, 3], [4, 5, 6]]), np.array([[1, 2, 3], [4, 5, 6]]), 1)]),
    "delete": Case(delete, [(np.arange(10), 3), (np.arange(10), -3), (np.arange(10), np.array([3, 5, 6])),
                            (I345, 2), (np.arange(10.0), 20)]),
    "insert": Case(insert, [(np.arange(10), 3, 99), (np.arange(10), -1, 99), (np.arange(10), 10, 99),
                            (np.array([1.5, 2.5, 3.5]), 1, 9.9), (np.arange(5), 10, 9)]),
    "diff": Case(diff, [np.arange(12) ** 3, (np.arange(12) ** 3).reshape(3, 4), np.arange(24).reshape(3, 2, 4) ** 3,
                        NANS, np.array([True, False, False]), np.zeros(0), np.arange(10, dtype=np.uint8)[::-1]]),
    "diff_n": Case(diff_n, [(np.arange(12) ** 3, n) for n in (0, 1, 2, 3, 11, 12, 13, 421)]
                   + [((np.arange(12) ** 3).reshape(3, 4), 2), (np.arange(10), -1)]),
    "iscomplexobj": Case(iscomplexobj, [1, 1 + 0j, np.array([3, 1 + 0j]), np.arange(3), 2.5]),
    "isrealobj": Case(isrealobj, [1, 1 + 0j, np.array([3, 1 + 0j]), np.arange(3), 2.5]),
    "iscomplex": Case(iscomplex, [np.array([1 + 1j, 1 + 0j, 4.5, 3, 2, 2j]), np.array([1, 2, 3]), 3, 12j, 10 + 0j,
                                  np.arange(8).reshape(4, 2)]),
    "isreal": Case(isreal, [np.array([1 + 1j, 1 + 0j, 4.5, 3, 2, 2j]), np.array([1, 2, 3]), 3, 12j, 10 + 0j]),
    "isscalar": Case(isscalar, [3, np.asarray([3]), (3,), 3j, "numba", np.int16(12345), 4.234, True, None]),
    "isneginf": Case(isneginf, [-np.inf, np.inf, NANS, np.array([-np.inf, 0.0, np.inf], dtype=np.float32)]),
    "isposinf": Case(isposinf, [-np.inf, np.inf, NANS, np.array([-np.inf, 0.0, np.inf], dtype=np.float32)]),
    "isclose": Case(isclose, [(1e10, 1.00001e10), (1e10, np.nan), (np.array([1e-8, 1e-7]), np.array([0.0, 0.0])),
                              (np.array([1e10, 1e-8]), np.array([1.00001e10, 1e-9])),
                              (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
                              (np.array([1, np.inf, 2]), np.array([3, np.inf, 4])),
                              (np.array([1e-8, np.inf, -np.inf, np.nan]), 0), (np.inf, np.inf), (-np.inf, np.inf),
                              (np.arange(3), np.array([0, 1, 2.1])), (np.nan, np.array([np.nan, np.nan]))]),
    "isclose_nan": Case(isclose_nan, [(np.array([1.0, np.nan]), np.array([1.0, np.nan])),
                                      (np.array([np.nan, np.nan]), np.array([1.0, np.nan]))]),
    "allclose": Case(allclose, [(np.array([0, 1]), np.array([1, 0])), (np.array([100, 1000]), np.array([100, 1000])),
                                (np.array([np.inf, 0]), np.array([1, np.inf])), (np.inf, np.inf),
                                (np.array([np.nan, 0]), np.array([np.nan, 0])), (np.iinfo(np.int64).min, 0)]),
    "bincount": Case(bincount, [np.array([5, 8, 42, 5]), np.array([1, 2, 5, 2, 3, 20]),
                                np.arange(100, dtype=np.int8) % 37, np.array([2, -1]), np.zeros(0, dtype=np.int64)]),
    "bincount_weights": Case(bincount_weights, [(np.array([5, 8, 42, 5]), np.array([0.5, -1.0, 2.0, 3.0])),
                                                (np.array([1, 2, 5]), np.array([1, 2, 3])),
                                                (np.array([2, 1]), np.array([0.0]))]),
    "bincount_minlength": Case(bincount_minlength, [(np.array([5, 8, 42, 5]), 42), (np.array([5, 8, 42, 5]), 44),
                                                    (np.array([1, 2]), -1)]),
    "searchsorted_left": Case(searchsorted_left, [(SORTED, v) for v in (-1, 0, 3, 16, 17)]
                              + [(SORTED, VALUES), (SORTED, VALUES.reshape(4, 5)), (NAN_SORTED, VALUES - 0.5),
                                 (NAN_SORTED, np.nan), (np.array([False, False, True, True]), np.array([False, True])),
                                 (np.arange(1), np.arange(0)), (np.ones(5), np.full(5, np.nan))]),
    "searchsorted_right": Case(searchsorted_right, [(SORTED, VALUES), (NAN_SORTED, VALUES - 0.5),
                                                    (np.array([9, np.nan], dtype=np.float32),
                                                     np.array([np.nan], dtype=np.float32))]),
    "digitize": Case(digitize, [(DIGITS, BINS), (DIGITS, BINS[::-1]), (DIGITS.reshape(3, 4), BINS),
                                (np.arange(-6, 5), np.arange(-5, 5)), (np.arange(5, -6, -1), np.arange(5, -5, -1)),
                                (np.array([-1, 0, 1, 2]), np.array([0, 0, 1])),
                                (np.array([np.nan, 1]), np.array([1.5, np.nan])),
                                (np.array([2 ** 54]), np.array([2 ** 54 - 1, 2 ** 54 + 1]))]),
    "digitize_right": Case(digitize_right, [(DIGITS, BINS, True), (DIGITS, BINS[::-1], True),
                                            (np.arange(-6, 5), np.arange(-6, 4), True)]),
    "histogram_bins": Case(histogram_bins, [(DIGITS[np.isfinite(DIGITS)], 7), (np.arange(12.0), 5),
                                            (np.array([0.0, 0.99, 1, 4.4, 4.5, 7, 8, 9, 9.5, 42.5, -1.0, -0.0]), 7)]),
    "histogram_range": Case(histogram_range, [(np.arange(12.0), 7, (1.0, 13.5))]),
    "correlate": Case(correlate, [(np.arange(n, dtype=d), np.arange(m, dtype=d), mode)
                                  for n in (1, 3, 7) for m in (1, 2, 7) for mode in ("full", "valid", "same")
                                  for d in (np.int32, np.float64)] + [(np.arange(3) + 1j * np.arange(3),
                                                                        np.arange(2.0), "full")], tol=1e-12),
    "convolve": Case(convolve, [(np.arange(n, dtype=np.float64), np.arange(m, dtype=np.int8), mode)
                                for n in (1, 2, 7) for m in (1, 3, 7) for mode in ("full", "valid", "same")]
                     + [(np.ones(0), np.arange(5.0), "full")], tol=1e-12),
    "vander": Case(vander, [(np.array([1, 2, 3, 5]), None, False), (np.arange(7) - 10.5, 3, True),
                            (np.array([1.2, np.nan, np.inf, -np.inf]), None, False), (np.array([]), 2, False),
                            (np.array([True, False]), 3, False), (np.arange(5.0), 0, True)]),
    "tri": Case(tri, [(n, m, k) for n in (-1, 0, 3, 5) for m in (None, 0, 4) for k in (-2, 0, 3)]),
    "tril": Case(tril, [(np.arange(63.0).reshape(9, 7), k) for k in (-10, -1, 0, 2, 10)]
                 + [(np.arange(36).reshape(4, 3, 3), 1), (np.arange(5.0), 0)]),
    "triu": Case(triu, [(np.arange(63.0).reshape(9, 7), k) for k in (-10, -1, 0, 2, 10)]
                 + [(np.arange(36).reshape(4, 3, 3), -1), (np.arange(5.0), 0)]),
    "tril_indices": Case(tril_indices, [(n, k) for n in (0, 1, 4) for k in (-3, 0, 2)]),
    "triu_indices_from": Case(triu_indices_from, [(np.ones((4, 4)), 0), (np.ones((3, 5)), 1), (np.ones((2, 2)), -1)]),
    "indices": Case(indices, [((4,),), ((2, 3),), ((0, 2),)]),
    "partition": Case(partition, [(np.array([3, 4, 2, 1]), 0), (np.array([3, 4, 2, 1]), 3),
                                  (np.array([3.0, np.nan, 2.0, -np.inf]), 1), (np.arange(10)[::-1], -1)]),
    "argpartition_sorted": Case(argpartition_sorted, [(np.array([3, 4, 2, 1]), 2), (np.arange(10.0)[::-1], 5)]),
    "cov": Case(cov, [np.array([[0.0, 2.0], [1.0, 1.0], [2.0, 0.0]]).T, np.array([-2.1, -1, 4.3]),
                      np.arange(12.0).reshape(3, 4), np.array([1.0, np.nan, 2.0])], tol=1e-12),
    "corrcoef": Case(corrcoef, [np.array([[0.0, 2.0], [1.0, 1.0], [2.0, 0.0]]).T, np.arange(12.0).reshape(3, 4)],
                     tol=1e-12),
    "ediff1d": Case(ediff1d, [(np.array([1, 2, 4, 7, 0]), None, None), (np.array([1, 2, 4, 7, 0]), 88, np.array([-99])),
                              (np.arange(12.0).reshape(3, 4), None, 5), (np.zeros(0), None, None)]),
    "fliplr": Case(fliplr, [M34, I345, np.arange(5.0)]),
    "flipud": Case(flipud, [M34, I345, np.arange(5.0), np.arange(5.0)[::-2]]),
    "flip": Case(flip, [M34, I345, np.arange(5.0), np.zeros((0, 2))]),
    "logspace": Case(logspace, [(0, 3, 4), (-1.5, 2.0, 7), (1, 1, 1)], tol="ulp"),
    "geomspace": Case(geomspace, [(1, 1000, 4), (-1, -1000, 4), (1, 256, 9)], tol="ulp"),
    "rot90": Case(rot90, [(M34, k) for k in (-5, -1, 0, 1, 2, 3, 4)] + [(I345, 1)]),
    "array_split": Case(array_split, [(np.arange(10), 3, 0), (M34, 2, 1), (np.arange(5.0), 7, 0)]),
    "split": Case(split, [(np.arange(9), 3, 0), (M34, 2, 1), (np.arange(10), 3, 0)]),
    "hsplit": Case(hsplit, [(M34, 2), (np.arange(8.0), 4)]),
    "vsplit": Case(vsplit, [(np.arange(16.0).reshape(4, 4), 2)]),
    "roll": Case(roll, [(np.arange(10), s) for s in (-13, -1, 0, 2, 10, 27)] + [(M34, 5), (np.zeros(0), 3)]),
    "extract": Case(extract, [(np.arange(12).reshape(3, 4) % 3 == 0, np.arange(12).reshape(3, 4)),
                              (np.array([1, 0, 2]), np.array([5.0, 6.0, 7.0])), (np.zeros(0), np.zeros(0))]),
    "trapezoid": Case(trapezoid, [(np.arange(5.0), np.linspace(0, 1, 5)), (np.array([1.0, np.nan]), np.arange(2.0))],
                      tol=1e-12),
    "average": Case(average, [np.arange(10.0), M34, np.array([1, 2, 3])], tol=1e-12),
    "average_weights": Case(average_weights, [(np.arange(4.0), np.array([1.0, 0.0, 2.0, 1.0])),
                                              (np.arange(3.0), np.zeros(3))], tol=1e-12),
    "interp": Case(interp, [(np.linspace(-1, 4, 11), np.array([0.0, 1, 2, 3]), np.array([1.0, 3, 2, 5])),
                            (2.5, np.array([1.0, 2, 3]), np.array([3.0, 2, 0])),
                            (np.array([np.nan, np.inf, -np.inf]), np.arange(3.0), np.arange(3.0)),
                            (np.array([0.5]), np.zeros(0), np.zeros(0))], tol=1e-12),
    "asarray": Case(asarray, [np.arange(3), ((1, 2, 3),), 5.0, np.array([True])]),
    "repeat": Case(repeat, [(np.arange(3), 2), (np.arange(3), 0), (np.arange(3), np.array([1, 0, 2])),
                            (M34, 2), (np.arange(3), -1)]),
    "array_repeat": Case(array_repeat, [(np.arange(3), 2), (M34, 1), (np.arange(3.0), np.array([3, 0, 1]))]),
    "select": Case(select, [([np.arange(5) < 2, np.arange(5) > 3], [np.arange(5), np.arange(5) * 10], -1)]),
    "bartlett": Case(bartlett, [-1, 0, 1, 5, 6], tol="ulp"),
    "blackman": Case(blackman, [-1, 0, 1, 5, 6], tol="ulp"),
    "hamming": Case(hamming, [-1, 0, 1, 5, 6], tol="ulp"),
    "hanning": Case(hanning, [-1, 0, 1, 5, 6], tol="ulp"),
    "kaiser": Case(kaiser, [(5, 0.0), (6, 5.0), (1, 2.0)], tol="ulp"),
    "cross": Case(cross, [(np.array([1.0, 2, 3]), np.array([4.0, 5, 6])),
                          (np.arange(6.0).reshape(2, 3), np.array([1.0, 0, 0])),
                          (np.array([1, 2, 3]), np.array([4, 5, 6]))]),
    "trim_zeros": Case(trim_zeros, [(np.array([0, 0, 1, 2, 0]), "fb"), (np.array([0, 0, 1, 2, 0]), "f"),
                                    (np.array([0, 0, 1, 2, 0]), "b"), (np.zeros(3), "fb"), (np.zeros(0), "fb")]),
    "union1d": Case(union1d, [(np.array([-1, 0, 1]), np.array([-2, 0, 2])), (np.zeros(0), np.array([1.0]))]),
    "asarray_chkfinite": Case(asarray_chkfinite, [np.arange(3.0), np.array([1.0, np.nan]), np.array([np.inf])]),
    "unwrap": Case(unwrap, [np.array([0.0, 1, 2, -1, 0]), np.linspace(0, 20, 11), np.zeros(0)], tol="ulp"),
    "swapaxes": Case(swapaxes, [(M34, 0, 1), (I345, -1, 0), (I345, 1, 1)]),
    "moveaxis": Case(moveaxis, [(I345, 0, -1), (I345, 2, 0), (M34, 1, 0)]),
    "take_along_axis": Case(take_along_axis, [(np.array([[10, 30, 20], [60, 40, 50]]),
                                               np.array([[0, 2], [1, 0]]), 1),
                                              (np.arange(6.0).reshape(2, 3), np.array([[1, 0, 1]]), 0)]),
    "nan_to_num": Case(nan_to_num, [NANS, NANS.astype(np.float32), np.array([complex(np.nan, np.inf)]), 1.0,
                                    np.nan, np.arange(3)]),
    "nan_to_num_values": Case(nan_to_num_values, [(NANS, 1.5, 2.0, -2.0), (NANS, 0.0, None, None)]),
    "diagflat": Case(diagflat, [(np.array([1, 2]), 0), (np.array([[1, 2], [3, 4]]), 1), (np.arange(3.0), -2)]),
    "setxor1d": Case(setxor1d, [(np.array([5, 7, 1, 2]), np.array([2, 4, 3, 1, 5])), (np.zeros(0), np.array([1.0]))]),
    "setdiff1d": Case(setdiff1d, [(np.array([5, 7, 1, 2]), np.array([2, 4, 3, 1, 5])), (np.array([1.0]), np.zeros(0))]),
    "isin": Case(isin, [(np.array([5, 7, 1, 2]), np.array([2, 4, 3, 1, 5])), (M34, np.array([1.0, 5.0]))]),
    "isin_invert": Case(isin_invert, [(np.array([5, 7, 1, 2]), np.array([2, 4, 3, 1, 5]))]),
    "finfo_eps": Case(finfo_eps, [np.zeros(1), np.zeros(1, np.float32)]),
    "iinfo_max": Case(iinfo_max, [np.zeros(1, np.int8), np.zeros(1, np.uint64), np.zeros(1, np.int32)]),
    "iinfo_min": Case(iinfo_min, [np.zeros(1, np.int8), np.zeros(1, np.int64), np.zeros(1, np.uint16)]),
    "unique": Case(unique, [np.array([3, 1, 3, 2]), np.array([np.nan, 1.0, np.nan, -0.0, 0.0]), np.zeros(0),
                            np.array([True, False, True]), np.arange(10)[::-3]]),
    "median": Case(median, [np.array([3.0, 1, 2]), np.arange(10.0), np.array([1.0, np.nan]), np.array([5])]),
    "percentile": Case(percentile, [(np.arange(10.0), 50), (np.arange(10.0), np.array([0.0, 25, 100])),
                                    (np.array([1.0, np.nan]), 30)], tol=1e-12),
    "round_decimals": Case(round_decimals, [(np.array([0.5, 1.5, 2.5, -0.5, 1.005]), 0),
                                            (np.array([1.234, -5.678]), 2), (np.array([1234.0, 55]), -1),
                                            (np.array([1, 15, 25]), -1)]),
    "nanmean": Case(nanmean, [NANS, np.array([np.nan, 1.0, 3.0]), np.array([np.nan])], tol=1e-12),
    "nanmin": Case(nanmin, [np.array([np.nan, 1.0, -3.0]), np.array([np.nan, np.nan]), np.arange(4)]),
    "nancumsum": Case(cumsum_nan, [np.array([np.nan, 1.0, 3.0]), np.arange(4)]),
    "argwhere": Case(argwhere, [M34 > 5, np.arange(5) % 2, np.zeros(0)]),
    "flatnonzero": Case(flatnonzero, [M34 % 3, np.array([0.0, -0.0, np.nan])]),
    "meshgrid": Case(meshgrid, [(np.arange(3), np.arange(2.0))]),
    "outer": Case(outer, [(np.arange(3), np.arange(4.0)), (M34, np.arange(2))]),
    "kron": Case(kron, [(np.array([1, 10]), np.array([5, 6, 7])), (np.eye(2), np.ones((2, 2)))]),
    "trace": Case(trace, [M34, np.eye(3, dtype=np.int8), I345]),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = set()


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
