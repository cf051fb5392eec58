"""np.tril_indices / np.triu_indices and their _from forms, np.row_stack and np.divmod:
small NumPy functions compiled by mahou (re-exported by numpy_functions)."""

import numpy as np

from mahou import njit

__all__ = ["tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "row_stack", "divmod"]


@njit
def _tri_indices(n, k, m, lower):
    cols = n if m is None else m
    count = 0
    for i in range(n):
        for j in range(cols):
            if (j - i <= k) if lower else (j - i >= k):
                count += 1
    rows = np.empty(count, np.int64)
    columns = np.empty(count, np.int64)
    p = 0
    for i in range(n):
        for j in range(cols):
            if (j - i <= k) if lower else (j - i >= k):
                rows[p] = i
                columns[p] = j
                p += 1
    return rows, columns


@njit
def tril_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, True)


@njit
def triu_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, False)


@njit
def tril_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return _tri_indices(arr.shape[0], k, arr.shape[1], True)


@njit
def triu_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return _tri_indices(arr.shape[0], k, arr.shape[1], False)


@njit
def row_stack(tup):
    return np.vstack(tup)


@njit
def divmod(x1, x2):  # noqa: A001  (NumPy's name)
    return np.floor_divide(x1, x2), np.remainder(x1, x2)
