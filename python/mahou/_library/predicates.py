"""Small NumPy functions compiled by mahou (re-exported by numpy_functions): the
predicates iscomplex/isreal/isscalar, asarray_chkfinite, the NaN-skipping cumulative
sum and product, sinc, indices and fill_diagonal."""

import numpy as np

from mahou import njit

__all__ = ["iscomplex", "isreal", "isscalar", "asarray_chkfinite", "nancumsum", "nancumprod", "sinc", "indices",
           "fill_diagonal"]


@njit
def iscomplex(x):
    if isinstance(x, np.ndarray):
        return np.imag(x) != 0
    return np.bool_(x.imag != 0)


@njit
def isreal(x):
    if isinstance(x, np.ndarray):
        return np.imag(x) == 0
    return np.bool_(x.imag == 0)


@njit
def isscalar(x):
    if isinstance(x, np.ndarray) or isinstance(x, tuple) or isinstance(x, list) or x is None:
        return False
    return True


@njit
def asarray_chkfinite(a):
    a = np.asarray(a)
    f = a.ravel()
    for i in range(f.shape[0]):
        if not np.isfinite(f[i]):
            raise ValueError("array must not contain infs or NaNs")
    return a


@njit
def nancumsum(a):
    a = np.asarray(a)
    return np.where(np.isnan(a), 0, a).cumsum()


@njit
def nancumprod(a):
    a = np.asarray(a)
    return np.where(np.isnan(a), 1, a).cumprod()


@njit
def sinc(x):
    if isinstance(x, np.ndarray):
        y = np.pi * np.where(x == 0, 1.0e-20, x)
        return np.sin(y) / y
    y = np.pi * (1.0e-20 if x == 0 else x)
    return np.sin(y) / y


@njit
def indices(dimensions):
    n = len(dimensions)
    out = np.empty((n,) + dimensions, dtype=np.int64)
    for idx in np.ndindex(dimensions):
        for k in range(n):
            out[(k,) + idx] = idx[k]
    return out


@njit
def fill_diagonal(a, val, wrap=False):
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else min(a.shape[1] * a.shape[1], a.size)
    else:
        for d in a.shape:
            if d != a.shape[0]:
                raise ValueError("All dimensions of input must be of equal length")
        step = 1
        p = 1
        for d in a.shape[:-1]:
            p *= d
            step += p
        end = a.size
    vals = np.asarray(val).ravel()
    j = 0
    for i in range(0, end, step):
        if vals.size == 0:
            break
        a.flat[i] = vals[j % vals.size]
        j += 1
