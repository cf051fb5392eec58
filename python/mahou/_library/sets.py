"""NumPy's set routines on 1-D (flattened) arrays, compiled by mahou: np.union1d,
np.intersect1d, np.setdiff1d, np.setxor1d and np.isin, with NumPy's algorithms (sorted
unique values; NaNs are never equal)."""

import numpy as np

from mahou import njit

__all__ = ["union1d", "intersect1d", "setdiff1d", "setxor1d", "isin"]


@njit
def _joined(a, b):
    # the flattened values of both, in their common dtype
    return np.concatenate((np.asarray(a).ravel(), np.asarray(b).ravel()))


@njit
def union1d(ar1, ar2):
    return np.unique(_joined(ar1, ar2))


@njit
def intersect1d(ar1, ar2):
    aux = np.sort(_joined(np.unique(np.asarray(ar1)), np.unique(np.asarray(ar2))))
    if aux.shape[0] == 0:
        return aux
    return aux[:-1][aux[1:] == aux[:-1]]


@njit
def setxor1d(ar1, ar2):
    aux = np.sort(_joined(np.unique(np.asarray(ar1)), np.unique(np.asarray(ar2))))
    n = aux.shape[0]
    keep = np.empty(n, dtype=np.bool_)
    for i in range(n):
        keep[i] = (i == 0 or aux[i] != aux[i - 1]) and (i == n - 1 or aux[i] != aux[i + 1])
    return aux[keep]


@njit
def _member(x, t):
    # x in the sorted array t
    i = np.searchsorted(t, x)
    return i < t.shape[0] and t[i] == x


@njit
def isin(element, test_elements, assume_unique=False, invert=False):
    e = np.asarray(element)
    t = np.sort(np.asarray(test_elements).ravel())
    out = np.empty(e.shape, dtype=np.bool_)
    src = e.ravel()
    dst = out.ravel()
    for i in range(src.shape[0]):
        dst[i] = _member(src[i], t) != invert
    return out


@njit
def setdiff1d(ar1, ar2, assume_unique=False):
    u = np.unique(np.asarray(ar1))
    t = np.sort(np.asarray(ar2).ravel())
    keep = np.empty(u.shape[0], dtype=np.bool_)
    for i in range(u.shape[0]):
        keep[i] = not _member(u[i], t)
    return u[keep]
