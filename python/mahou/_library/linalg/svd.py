"""np.linalg.svd (gesdd) and what is computed from singular values: pinv and
matrix_rank (cond and the 2-norm and nuclear norm are in norms)."""

import numpy as np

from mahou import njit
from mahou._library.linalg._lapack import (
    _on_matrix,
    _A,
    _N,
    _S,
    _cgesdd,
    _check_matrix,
    _dgesdd,
    _empty,
    _eps,
    _fortran,
    _prefix,
    _real_zero,
    _sgesdd,
    _work_size,
    _zero,
    _zgesdd,
)


@njit
def _gesdd(a, jobz):
    # (u, s, vh) of 2-D a; jobz 'A' (full), 'S' (reduced) or 'N' (s only)
    _check_matrix(a, "svd")
    z = _zero(a)
    r = _real_zero(z)
    m, n = a.shape
    k = min(m, n)
    t = _fortran(a, z)
    s = _empty(k, r)
    ucols = m if jobz == _A else k
    vrows = n if jobz == _A else k
    if jobz == _N:
        ucols = 1
        vrows = 1
    u = np.empty((ucols, m), dtype=t.dtype)   # Fortran m x ucols
    vt = np.empty((n, vrows), dtype=t.dtype)  # Fortran vrows x n
    if k == 0:
        if jobz == _A:
            u = np.zeros((m, m), dtype=t.dtype)
            vt = np.zeros((n, n), dtype=t.dtype)
            for i in range(m):
                u[i, i] = 1
            for i in range(n):
                vt[i, i] = 1
        return u.T, s, vt.T
    ints = np.empty(7, dtype=np.int32)
    ints[0] = jobz
    ints[1] = m
    ints[2] = n
    ints[3] = m if jobz != _N else 1         # ldu
    ints[4] = vrows if jobz != _N else 1     # ldvt
    ints[5] = -1                             # lwork: a query first
    ints[6] = 0                              # info
    work = np.ones(1, dtype=t.dtype)
    iwork = np.empty(8 * k, dtype=np.int32)
    mx = max(m, n)
    lrwork = max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k) if jobz != _N else 7 * k
    rwork = np.empty(max(1, lrwork), dtype=s.dtype)
    p = _prefix(z)
    for query in range(2):
        if p == 0:
            _sgesdd(ints[0:], ints[1:], ints[2:], t, ints[1:], s, u, ints[3:], vt, ints[4:],
                    work, ints[5:], iwork, ints[6:])
        elif p == 1:
            _dgesdd(ints[0:], ints[1:], ints[2:], t, ints[1:], s, u, ints[3:], vt, ints[4:],
                    work, ints[5:], iwork, ints[6:])
        elif p == 2:
            _cgesdd(ints[0:], ints[1:], ints[2:], t, ints[1:], s, u, ints[3:], vt, ints[4:],
                    work, ints[5:], rwork, iwork, ints[6:])
        else:
            _zgesdd(ints[0:], ints[1:], ints[2:], t, ints[1:], s, u, ints[3:], vt, ints[4:],
                    work, ints[5:], rwork, iwork, ints[6:])
        if query == 0:
            ints[5] = _work_size(work)
            work = np.empty(ints[5], dtype=t.dtype)
    if ints[6] != 0:
        raise np.linalg.LinAlgError("SVD did not converge")
    return u.T, s, vt.T


@njit
def svd(a, full_matrices=True):
    return _on_matrix(_gesdd, a, _A if full_matrices else _S)


@njit
def _singular_values(a):
    return _gesdd(a, _N)[1]


@njit
def _pinv_2d(a, rcond=1e-15):
    u, s, vt = _gesdd(a, _S)
    m, n = a.shape
    k = s.shape[0]
    out = np.zeros((n, m), dtype=u.dtype)
    if k == 0:
        return out
    cutoff = rcond * s.max()
    for i in range(k):
        if s[i] > cutoff:
            inv_s = 1.0 / s[i]
            for r in range(n):
                v = np.conj(vt[i, r]) * inv_s
                for c in range(m):
                    out[r, c] += v * np.conj(u[c, i])
    return out


@njit
def matrix_rank(A, tol=None):
    if A.ndim < 2:
        for i in range(A.size):
            if A.flat[i] != 0:
                return 1
        return 0
    s = _singular_values(A)
    if s.shape[0] == 0:
        return 0
    if tol is None:
        z = _real_zero(_zero(A))
        limit = s.max() * max(A.shape[0], A.shape[1]) * _eps(z)
    else:
        limit = tol
    rank = 0
    for i in range(s.shape[0]):
        if s[i] > limit:
            rank += 1
    return rank
