"""np.linalg.cholesky (potrf), the symmetric/Hermitian eigenproblem (syevd/heevd: eigh,
eigvalsh) and the general one (geev: eig, eigvals, with Numba's rule: real input, real
results, or ValueError)."""

import numpy as np

from mahou import njit
from mahou._library.linalg._lapack import (
    _on_matrix,
    _L,
    _N,
    _V,
    _cgeev,
    _check_square,
    _cheevd,
    _cpotrf,
    _dgeev,
    _dpotrf,
    _dsyevd,
    _empty,
    _fortran,
    _is_complex,
    _prefix,
    _real_zero,
    _sgeev,
    _spotrf,
    _ssyevd,
    _work_size,
    _zero,
    _zgeev,
    _zheevd,
    _zpotrf,
)


@njit
def _cholesky_2d(a):
    _check_square(a)
    z = _zero(a)
    n = a.shape[0]
    t = _fortran(a, z)
    if n == 0:
        return t.T
    ints = np.empty(3, dtype=np.int32)
    ints[0] = _L
    ints[1] = n
    ints[2] = 0
    p = _prefix(z)
    if p == 0:
        _spotrf(ints[0:], ints[1:], t, ints[1:], ints[2:])
    elif p == 1:
        _dpotrf(ints[0:], ints[1:], t, ints[1:], ints[2:])
    elif p == 2:
        _cpotrf(ints[0:], ints[1:], t, ints[1:], ints[2:])
    else:
        _zpotrf(ints[0:], ints[1:], t, ints[1:], ints[2:])
    if ints[2] > 0:
        raise np.linalg.LinAlgError("Matrix is not positive definite")
    # t holds L in Fortran order (t[j, i] = L[i, j]): clear the upper triangle
    for j in range(n):
        for i in range(j):
            t[j, i] = 0
    return t.T


@njit
def _eigh(a, uplo, vectors):
    _check_square(a)
    z = _zero(a)
    r = _real_zero(z)
    n = a.shape[0]
    t = _fortran(a, z)
    w = _empty(n, r)
    if n == 0:
        return w, t.T
    if uplo != "L" and uplo != "U":
        raise ValueError("UPLO argument must be 'L' or 'U'")
    ints = np.empty(8, dtype=np.int32)
    ints[0] = _V if vectors else _N
    ints[1] = _L if uplo == "L" else 85
    ints[2] = n
    ints[3] = -1  # lwork: a query first
    ints[4] = -1  # lrwork
    ints[5] = -1  # liwork
    ints[6] = 0   # info
    work = np.ones(1, dtype=t.dtype)
    rwork = np.ones(1, dtype=w.dtype)
    iwork = np.ones(1, dtype=np.int32)
    p = _prefix(z)
    for query in range(2):
        if p == 0:
            _ssyevd(ints[0:], ints[1:], ints[2:], t, ints[2:], w, work, ints[3:], iwork, ints[5:], ints[6:])
        elif p == 1:
            _dsyevd(ints[0:], ints[1:], ints[2:], t, ints[2:], w, work, ints[3:], iwork, ints[5:], ints[6:])
        elif p == 2:
            _cheevd(ints[0:], ints[1:], ints[2:], t, ints[2:], w, work, ints[3:], rwork, ints[4:],
                    iwork, ints[5:], ints[6:])
        else:
            _zheevd(ints[0:], ints[1:], ints[2:], t, ints[2:], w, work, ints[3:], rwork, ints[4:],
                    iwork, ints[5:], ints[6:])
        if query == 0:
            ints[3] = _work_size(work)
            ints[4] = _work_size(rwork)
            ints[5] = max(1, iwork[0])
            work = np.empty(ints[3], dtype=t.dtype)
            rwork = np.empty(ints[4], dtype=w.dtype)
            iwork = np.empty(ints[5], dtype=np.int32)
    if ints[6] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    return w, t.T


@njit
def eigh(a, UPLO="L"):
    return _on_matrix(_eigh, a, UPLO, True)


@njit
def eigvalsh(a, UPLO="L"):
    return _on_matrix(_eigh, a, UPLO, False)[0]


# ---------------------------------------------------------------------------
# the general eigenproblem (Numba's rule: real input, real results, or ValueError)
# ---------------------------------------------------------------------------


@njit
def _geev(a, vectors):
    _check_square(a)
    z = _zero(a)
    r = _real_zero(z)
    n = a.shape[0]
    t = _fortran(a, z)
    w = np.empty(n, dtype=t.dtype)
    vr = np.empty((n, n), dtype=t.dtype)
    if n == 0:
        return w, vr
    ints = np.empty(6, dtype=np.int32)
    ints[0] = _N
    ints[1] = _V if vectors else _N
    ints[2] = n
    ints[3] = 1   # ldvl
    ints[4] = -1  # lwork: a query first
    ints[5] = 0   # info
    wi = _empty(n, r)
    vl = np.empty(1, dtype=t.dtype)
    work = np.ones(1, dtype=t.dtype)
    rwork = np.empty(2 * n, dtype=wi.dtype)
    p = _prefix(z)
    for query in range(2):
        if p == 0:
            _sgeev(ints[0:], ints[1:], ints[2:], t, ints[2:], w, wi, vl, ints[3:], vr, ints[2:],
                   work, ints[4:], ints[5:])
        elif p == 1:
            _dgeev(ints[0:], ints[1:], ints[2:], t, ints[2:], w, wi, vl, ints[3:], vr, ints[2:],
                   work, ints[4:], ints[5:])
        elif p == 2:
            _cgeev(ints[0:], ints[1:], ints[2:], t, ints[2:], w, vl, ints[3:], vr, ints[2:],
                   work, ints[4:], rwork, ints[5:])
        else:
            _zgeev(ints[0:], ints[1:], ints[2:], t, ints[2:], w, vl, ints[3:], vr, ints[2:],
                   work, ints[4:], rwork, ints[5:])
        if query == 0:
            ints[4] = _work_size(work)
            work = np.empty(ints[4], dtype=t.dtype)
    if ints[5] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    if not _is_complex(z):
        for i in range(n):
            if wi[i] != 0:
                raise ValueError("eig() argument must not cause a domain change.")
    return w, vr.T


@njit
def _eig_2d(a):
    return _geev(a, True)


@njit
def _eigvals_2d(a):
    return _geev(a, False)[0]
