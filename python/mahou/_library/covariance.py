"""np.cov and np.corrcoef compiled by mahou (re-exported by numpy_functions): NumPy's
formulas on float64 (complex128 for complex input); a 1-d input without y gives a 0-d
array from np.cov and a scalar from np.corrcoef, as NumPy's; a 2-d input with a single row is refused at run time (ValueError), as
in Numba, since the number of dimensions of NumPy's result would depend on it."""

import numpy as np

from mahou import njit
from mahou._language import refuse

__all__ = ["cov", "corrcoef"]


@njit
def _as_2d(a, dtype_of):
    a = np.asarray(a)
    if a.ndim > 2:
        refuse("np.cov()/np.corrcoef() of an array of more than 2 dimensions")
    z = np.zeros(1, dtype=dtype_of.dtype)[0]
    if isinstance(z, np.complex128) or isinstance(z, np.complex64):
        return np.atleast_2d(a).astype(np.complex128)
    return np.atleast_2d(a).astype(np.float64)


@njit
def _probe(m, y):
    # an array of the common dtype of m and y
    if y is None:
        return np.zeros(1, dtype=np.asarray(m).dtype)
    return np.zeros(1, dtype=np.asarray(m).dtype) + np.zeros(1, dtype=np.asarray(y).dtype)


@njit
def _cov_matrix(m, y, rowvar, bias, ddof):
    probe = _probe(m, y)
    X = _as_2d(m, probe)
    if not rowvar and np.asarray(m).ndim != 1:
        X = X.T
    if np.asarray(m).ndim == 2 and X.shape[0] == 1 and y is None:
        raise ValueError("np.cov() of a 2-d array with a single row: pass the row as a 1-d array (m[0])")
    if y is not None:
        Y = _as_2d(y, probe)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        if X.shape[1] != Y.shape[1]:
            raise ValueError("all the input array dimensions except for the concatenation axis must match exactly")
        X = np.concatenate((X, Y))
    if ddof is None:
        dd = 0 if bias else 1
    else:
        dd = ddof
    n = X.shape[0]
    if X.shape[0] == 0 or X.shape[1] == 0:
        return np.full((n, n), np.nan) + X[:0, :0].sum()
    fact = max(X.shape[1] - dd, 0.0)
    Xc = np.ascontiguousarray(X - X.mean(axis=1).reshape(n, 1))
    c = np.dot(Xc, np.ascontiguousarray(np.conj(Xc.T)))
    return c * np.true_divide(1, fact)


@njit
def cov(m, y=None, rowvar=True, bias=False, ddof=None):
    c = _cov_matrix(m, y, rowvar, bias, ddof)
    if np.asarray(m).ndim < 2 and y is None:
        return np.array(c[0, 0])
    return c


@njit
def _clip(x):
    return np.where(np.fabs(x) > 1, np.sign(x), x)


@njit
def corrcoef(x, y=None, rowvar=True):
    c = _cov_matrix(x, y, rowvar, False, None)
    if np.asarray(x).ndim < 2 and y is None:
        return c[0, 0] / c[0, 0]  # NumPy divides two 0-d arrays: a scalar
    d = np.diag(c)
    stddev = np.sqrt(d.real)
    for i in range(c.shape[0]):
        c[i, :] /= stddev
        c[:, i] /= stddev
    z = np.zeros(1, dtype=c.dtype)[0]
    if isinstance(z, np.complex128):
        return _clip(c.real) + 1j * _clip(c.imag)
    return _clip(c)
