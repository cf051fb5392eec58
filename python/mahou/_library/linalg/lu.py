"""np.linalg on LU factorisations (LAPACK getrf/getri/gesv): solve, inv, det, slogdet."""

import numpy as np

from mahou import njit
from mahou._library.linalg._lapack import (
    _on_matrix,
    _cgesv,
    _cgetrf,
    _cgetri,
    _check_square,
    _dgesv,
    _dgetrf,
    _dgetri,
    _empty,
    _fortran,
    _of,
    _prefix,
    _real_zero,
    _sgesv,
    _sgetrf,
    _sgetri,
    _work_size,
    _zero,
    _zgesv,
    _zgetrf,
    _zgetri,
)


@njit
def _gesv(t, b, n, nrhs):
    # solves in place: t the matrix (Fortran copy), b the right-hand sides (n x nrhs,
    # Fortran: a C array of the transpose); the info value
    ints = np.empty(5, dtype=np.int32)
    ints[0] = n
    ints[1] = nrhs
    ints[2] = max(1, n)
    ints[3] = 0
    ipiv = np.empty(max(1, n), dtype=np.int32)
    p = _prefix(_zero(t))
    if p == 0:
        _sgesv(ints[0:], ints[1:], t, ints[2:], ipiv, b, ints[2:], ints[3:])
    elif p == 1:
        _dgesv(ints[0:], ints[1:], t, ints[2:], ipiv, b, ints[2:], ints[3:])
    elif p == 2:
        _cgesv(ints[0:], ints[1:], t, ints[2:], ipiv, b, ints[2:], ints[3:])
    else:
        _zgesv(ints[0:], ints[1:], t, ints[2:], ipiv, b, ints[2:], ints[3:])
    return ints[3]


@njit
def _result_zero(a, b):
    # the common type of a's and b's LAPACK types
    return _zero(a) + _zero(b)


@njit
def solve(a, b):
    return _on_matrix(_solve_2d, a, b)


@njit
def _solve_2d(a, b):
    _check_square(a)
    z = _result_zero(a, b)
    n = a.shape[0]
    if b.ndim == 1:
        if b.shape[0] != n:
            raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
        x = _empty((1, n), z)
        for i in range(n):
            x[0, i] = b[i]
        nrhs = 1
    else:
        if b.ndim != 2:
            raise TypeError("np.linalg.solve() of stacks of matrices (ndim > 2) is not supported")
        if b.shape[0] != n:
            raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
        x = _fortran(b, z)
        nrhs = b.shape[1]
    t = _fortran(a, z)
    if n > 0 and nrhs > 0 and _gesv(t, x, n, nrhs) > 0:
        raise np.linalg.LinAlgError("Singular matrix")
    if b.ndim == 1:
        return x[0]
    return x.T


@njit
def _inv_2d(a):
    # LU (getrf), then the inverse from it (getri), as Numba (NumPy solves A X = I)
    _check_square(a)
    z = _zero(a)
    n = a.shape[0]
    t = _fortran(a, z)
    if n == 0:
        return t.T
    ipiv = np.empty(n, dtype=np.int32)
    if _getrf(t, n, ipiv) > 0:
        raise np.linalg.LinAlgError("Singular matrix")
    ints = np.empty(3, dtype=np.int32)
    ints[0] = n
    ints[1] = -1  # lwork: a query first
    ints[2] = 0   # info
    work = np.ones(1, dtype=t.dtype)
    p = _prefix(z)
    for query in range(2):
        if p == 0:
            _sgetri(ints[0:], t, ints[0:], ipiv, work, ints[1:], ints[2:])
        elif p == 1:
            _dgetri(ints[0:], t, ints[0:], ipiv, work, ints[1:], ints[2:])
        elif p == 2:
            _cgetri(ints[0:], t, ints[0:], ipiv, work, ints[1:], ints[2:])
        else:
            _zgetri(ints[0:], t, ints[0:], ipiv, work, ints[1:], ints[2:])
        if query == 0:
            ints[1] = _work_size(work)
            work = np.empty(ints[1], dtype=t.dtype)
    if ints[2] != 0:
        raise np.linalg.LinAlgError("Singular matrix")
    return t.T


@njit
def _getrf(t, n, ipiv):
    # LU in place of the n x n Fortran copy t; the info value
    ints = np.empty(3, dtype=np.int32)
    ints[0] = n
    ints[1] = max(1, n)
    ints[2] = 0
    p = _prefix(_zero(t))
    if p == 0:
        _sgetrf(ints[0:], ints[0:], t, ints[1:], ipiv, ints[2:])
    elif p == 1:
        _dgetrf(ints[0:], ints[0:], t, ints[1:], ipiv, ints[2:])
    elif p == 2:
        _cgetrf(ints[0:], ints[0:], t, ints[1:], ipiv, ints[2:])
    else:
        _zgetrf(ints[0:], ints[0:], t, ints[1:], ipiv, ints[2:])
    return ints[2]


@njit
def _det_2d(a):
    _check_square(a)
    z = _zero(a)
    n = a.shape[0]
    t = _fortran(a, z)
    ipiv = np.empty(max(1, n), dtype=np.int32)
    if n > 0 and _getrf(t, n, ipiv) > 0:
        return z
    d = _of(1, z)
    for i in range(n):
        d = d * t[i, i]
        if ipiv[i] != i + 1:
            d = -d
    return d


@njit
def _slogdet_2d(a):
    _check_square(a)
    z = _zero(a)
    r = _real_zero(z)
    n = a.shape[0]
    t = _fortran(a, z)
    ipiv = np.empty(max(1, n), dtype=np.int32)
    if n > 0 and _getrf(t, n, ipiv) > 0:
        return z, _of(-np.inf, r)
    sign = _of(1, z)
    logdet = r
    for i in range(n):
        d = t[i, i]
        ad = np.abs(d)
        sign = sign * (d / ad)
        logdet = logdet + np.log(ad)
        if ipiv[i] != i + 1:
            sign = -sign
    return sign, logdet
