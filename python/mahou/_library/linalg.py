"""np.linalg in Python compiled by mahou, on LAPACK taken from SciPy as Numba does
(scipy.linalg.cython_lapack's function pointers: one LAPACK for NumPy, SciPy and mahou).

Matrices are copied into Fortran order (a C-ordered array of the transpose), LAPACK
works in place on the copy, and results come back as Fortran-ordered views of it, as
Numba returns them. Integer and bool matrices compute in float64, float32 and complex64
stay single precision (NumPy's result types). LAPACK's scalar arguments go by pointer:
each routine's integers sit in one int32 array, passed as views at their offsets.
Stacks of matrices (ndim > 2) are not supported, as in Numba."""

import numpy as np
from scipy.linalg import cython_lapack as _lapack_module

from mahou import njit
from mahou._library.blas import routine as _routine_of


def _routine(name, nargs):
    # LAPACK's `name` as a ctypes function of `nargs` pointers (Fortran passes all by
    # reference), called from compiled code with arrays for the pointers
    return _routine_of(_lapack_module, name, nargs)


_sgetrf, _dgetrf, _cgetrf, _zgetrf = (_routine(p + "getrf", 6) for p in "sdcz")
_sgetri, _dgetri, _cgetri, _zgetri = (_routine(p + "getri", 7) for p in "sdcz")
_sgesv, _dgesv, _cgesv, _zgesv = (_routine(p + "gesv", 8) for p in "sdcz")
_spotrf, _dpotrf, _cpotrf, _zpotrf = (_routine(p + "potrf", 5) for p in "sdcz")
_ssyevd, _dsyevd = (_routine(p + "syevd", 11) for p in "sd")
_cheevd, _zheevd = (_routine(p + "heevd", 13) for p in "cz")
_sgeev, _dgeev = (_routine(p + "geev", 14) for p in "sd")
_cgeev, _zgeev = (_routine(p + "geev", 14) for p in "cz")
_sgesdd, _dgesdd = (_routine(p + "gesdd", 14) for p in "sd")
_cgesdd, _zgesdd = (_routine(p + "gesdd", 15) for p in "cz")
_sgeqrf, _dgeqrf, _cgeqrf, _zgeqrf = (_routine(p + "geqrf", 8) for p in "sdcz")
_sorgqr, _dorgqr = (_routine(p + "orgqr", 9) for p in "sd")
_cungqr, _zungqr = (_routine(p + "ungqr", 9) for p in "cz")
_sgelsd, _dgelsd = (_routine(p + "gelsd", 14) for p in "sd")
_cgelsd, _zgelsd = (_routine(p + "gelsd", 15) for p in "cz")

_N, _V, _L, _A, _S = 78, 86, 76, 65, 83  # LAPACK's option letters


# ---------------------------------------------------------------------------
# element types: which LAPACK prefix (s, d, c, z) and the result dtypes
# ---------------------------------------------------------------------------


@njit
def _zero(a):
    # a zero of the type LAPACK computes a's matrix in (integers and bool: float64)
    z = np.zeros(1, dtype=a.dtype)[0]
    if isinstance(z, (np.float32, np.float64, np.complex64, np.complex128)):
        return z
    else:
        return 0.0


@njit
def _real_zero(z):
    if isinstance(z, (np.float32, np.complex64)):
        return np.float32(0.0)
    else:
        return 0.0


@njit
def _empty(shape, z):
    # np.empty of z's type
    if isinstance(z, np.float32):
        return np.empty(shape, dtype=np.float32)
    elif isinstance(z, np.float64):
        return np.empty(shape, dtype=np.float64)
    elif isinstance(z, np.complex64):
        return np.empty(shape, dtype=np.complex64)
    else:
        return np.empty(shape, dtype=np.complex128)


@njit
def _of(x, z):
    # the number x as z's type
    if isinstance(z, np.float32):
        return np.float32(x)
    elif isinstance(z, np.float64):
        return np.float64(x)
    elif isinstance(z, np.complex64):
        return np.complex64(x)
    else:
        return np.complex128(x)


@njit
def _eps(z):
    # the machine epsilon of z's precision
    if isinstance(z, (np.float32, np.complex64)):
        return np.float32(1.1920929e-07)
    else:
        return 2.220446049250313e-16


@njit
def _prefix(z):
    # 0 s, 1 d, 2 c, 3 z
    if isinstance(z, np.float32):
        return 0
    elif isinstance(z, np.float64):
        return 1
    elif isinstance(z, np.complex64):
        return 2
    else:
        return 3


@njit
def _is_complex(z):
    return isinstance(z, (np.complex64, np.complex128))


@njit
def _check_matrix(a, name):
    if a.ndim != 2:
        if a.ndim < 2:
            if a.ndim == 0:
                raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
            raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")


@njit
def _check_square(a):
    _check_matrix(a, "")
    if a.ndim == 2:
        if a.shape[0] != a.shape[1]:
            raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


@njit
def _fortran(a, z):
    # a copy of 2-D a in Fortran order (the C-ordered transpose), of z's type, in tiles
    # of 32 x 32 so that both the rows read and the rows written stay in cache
    m, n = a.shape
    t = _empty((n, m), z)
    for ib in range(0, m, 32):
        ie = min(ib + 32, m)
        for jb in range(0, n, 32):
            je = min(jb + 32, n)
            for i in range(ib, ie):
                for j in range(jb, je):
                    t[j, i] = a[i, j]
    return t


@njit
def _work_size(work):
    # the size a workspace query (lwork = -1) wrote into work[0]
    return max(1, int(work[0].real))


# ---------------------------------------------------------------------------
# LU: solve, inv, det, slogdet
# ---------------------------------------------------------------------------


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
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _solve_2d(a, b)


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


# ---------------------------------------------------------------------------
# Cholesky and the symmetric / Hermitian eigenproblem
# ---------------------------------------------------------------------------


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
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _eigh(a, UPLO, True)


@njit
def eigvalsh(a, UPLO="L"):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _eigh(a, UPLO, False)[0]


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


# ---------------------------------------------------------------------------
# SVD and what is computed from it: pinv, cond, matrix_rank, the 2-norm and nuclear norm
# ---------------------------------------------------------------------------


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
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _gesdd(a, _A if full_matrices else _S)


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


@njit
def cond(x, p=None):
    if x.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if x.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if x.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    if p is None:
        s = _singular_values(x)
        return s[0] / s[s.shape[0] - 1]
    else:
        return norm(x, p) * norm(inv(x), p)


# ---------------------------------------------------------------------------
# QR (mode='reduced', as Numba) and least squares
# ---------------------------------------------------------------------------


@njit
def _qr_2d(a):
    _check_matrix(a, "qr")
    z = _zero(a)
    m, n = a.shape
    k = min(m, n)
    t = _fortran(a, z)
    r = np.zeros((k, n), dtype=t.dtype)
    if k == 0:
        return np.zeros((k, m), dtype=t.dtype).T, r
    tau = np.empty(k, dtype=t.dtype)
    ints = np.empty(5, dtype=np.int32)
    ints[0] = m
    ints[1] = n
    ints[2] = k
    ints[3] = -1  # lwork: a query first
    ints[4] = 0   # info
    work = np.ones(1, dtype=t.dtype)
    p = _prefix(z)
    for query in range(2):
        if p == 0:
            _sgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 1:
            _dgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 2:
            _cgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        else:
            _zgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        if query == 0:
            ints[3] = _work_size(work)
            work = np.empty(ints[3], dtype=t.dtype)
    for i in range(k):
        for j in range(i, n):
            r[i, j] = t[j, i]
    ints[3] = -1
    for query in range(2):
        if p == 0:
            _sorgqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 1:
            _dorgqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 2:
            _cungqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        else:
            _zungqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        if query == 0:
            ints[3] = _work_size(work)
            work = np.empty(ints[3], dtype=t.dtype)
    return t[:k].T, r


@njit
def _lstsq(a, b2, rcond, nrhs):
    # b2: the right-hand sides (1-D: one); (x as nrhs x n, residuals, rank, s)
    z = _result_zero(a, b2)
    r = _real_zero(z)
    m, n = a.shape
    k = min(m, n)
    mx = max(m, n, 1)
    t = _fortran(a, z)
    bb = np.zeros((nrhs, mx), dtype=t.dtype)
    if b2.ndim == 1:
        for i in range(m):
            bb[0, i] = b2[i]
    else:
        for j in range(nrhs):
            for i in range(m):
                bb[j, i] = b2[i, j]
    s = _empty(k, r)
    rank = 0
    if k > 0 and nrhs > 0:
        rc = np.empty(1, dtype=s.dtype)
        if rcond is None:
            rc[0] = _eps(r) * max(m, n)
        else:
            rc[0] = rcond
        ints = np.empty(8, dtype=np.int32)
        ints[0] = m
        ints[1] = n
        ints[2] = nrhs
        ints[3] = max(1, m)
        ints[4] = mx
        ints[5] = 0   # rank
        ints[6] = -1  # lwork: a query first
        ints[7] = 0   # info
        work = np.ones(1, dtype=t.dtype)
        rwork = np.ones(1, dtype=s.dtype)
        iwork = np.ones(1, dtype=np.int32)
        p = _prefix(z)
        for query in range(2):
            if p == 0:
                _sgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], iwork, ints[7:])
            elif p == 1:
                _dgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], iwork, ints[7:])
            elif p == 2:
                _cgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], rwork, iwork, ints[7:])
            else:
                _zgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], rwork, iwork, ints[7:])
            if query == 0:
                ints[6] = _work_size(work)
                work = np.empty(ints[6], dtype=t.dtype)
                rwork = np.empty(_work_size(rwork), dtype=s.dtype)
                iwork = np.empty(max(1, iwork[0]), dtype=np.int32)
        if ints[7] != 0:
            raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
        rank = int(ints[5])
    if rank == n and m > n:
        res = np.zeros(nrhs, dtype=s.dtype)
        for j in range(nrhs):
            acc = r
            for i in range(n, m):
                v = np.abs(bb[j, i])
                acc += v * v
            res[j] = acc
    else:
        res = np.zeros(0, dtype=s.dtype)
    return bb[:, :n], res, rank, s


@njit
def lstsq(a, b, rcond=None):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _lstsq_2d(a, b, rcond)


@njit
def _lstsq_2d(a, b, rcond):
    if b.shape[0] != a.shape[0]:
        raise np.linalg.LinAlgError("Incompatible dimensions")
    if b.ndim == 1:
        x, res, rank, s = _lstsq(a, b, rcond, 1)
        return x[0].copy(), res, rank, s
    else:
        x, res, rank, s = _lstsq(a, b, rcond, b.shape[1])
        return x.T, res, rank, s


# ---------------------------------------------------------------------------
# norms (NumPy's definitions) and matrix_power
# ---------------------------------------------------------------------------


@njit
def _vector_norm(x, ord):
    if ord is None:
        return _vector_norm_of(x, 2.0)
    else:
        return _vector_norm_of(x, float(ord))


@njit
def _vector_norm_of(x, o):
    z = _real_zero(_zero(x))
    n = x.size
    if o == np.inf:
        acc = z
        for i in range(n):
            acc = max(acc, np.abs(x.flat[i]))
        return acc
    if o == -np.inf:
        if n == 0:
            raise ValueError("zero-size array to reduction operation minimum which has no identity")
        acc = np.abs(x.flat[0])
        for i in range(n):
            acc = min(acc, np.abs(x.flat[i]))
        return acc
    acc = z
    if o == 0:
        for i in range(n):
            if x.flat[i] != 0:
                acc += 1
        return acc
    if o == 1:
        for i in range(n):
            acc += np.abs(x.flat[i])
        return acc
    if o == 2:
        for i in range(n):
            v = np.abs(x.flat[i])
            acc += v * v
        return np.sqrt(acc)
    for i in range(n):
        acc += np.abs(x.flat[i]) ** o
    return acc ** (1.0 / o)


@njit
def _matrix_norm(x, ord):
    if ord is None:
        return _vector_norm_of(x, 2.0)
    elif isinstance(ord, str):
        if ord == "fro":
            return _vector_norm_of(x, 2.0)
        if ord != "nuc":
            raise ValueError("Invalid norm order for matrices.")
        if x.shape[0] == 0 or x.shape[1] == 0:
            return _real_zero(_zero(x))
        return _singular_values(x).sum()
    else:
        return _matrix_norm_of(x, float(ord))


@njit
def _matrix_norm_of(x, o):
    z = _real_zero(_zero(x))
    m, n = x.shape
    if o == 2 or o == -2:
        if m == 0 or n == 0:
            raise ValueError("zero-size array to reduction operation maximum which has no identity")
        s = _singular_values(x)
        return s.max() if o == 2 else s.min()
    if o == 1 or o == -1 or o == np.inf or o == -np.inf:
        rows = o == np.inf or o == -np.inf
        outer = m if rows else n
        inner = n if rows else m
        if outer == 0:
            raise ValueError("zero-size array to reduction operation maximum which has no identity")
        best = z
        for i in range(outer):
            acc = z
            for j in range(inner):
                acc += np.abs(x[i, j] if rows else x[j, i])
            if i == 0 or (acc > best if o > 0 else acc < best):
                best = acc
        return best
    raise ValueError("Invalid norm order for matrices.")


@njit
def norm(x, ord=None):
    if x.ndim == 1:
        return _vector_norm(x, ord)
    elif x.ndim == 2:
        return _matrix_norm(x, ord)
    else:
        raise TypeError("np.linalg.norm() of arrays of more than 2 dimensions is not supported")


@njit
def _matrix_power_2d(a, n):
    _check_square(a)
    m = a.shape[0]
    if n == 0:
        out = np.zeros((m, m), dtype=a.dtype)
        for i in range(m):
            out[i, i] = 1
        return out
    if n < 0:
        b = _inverse_for_power(a)
        k = -n
    else:
        b = a.copy()
        k = n
    result = b.copy()
    k -= 1
    while k > 0:
        if k & 1:
            result = np.dot(result, b)
        k >>= 1
        if k > 0:
            b = np.dot(b, b)
    return result


@njit
def _inverse_for_power(a):
    # a negative power of an integer matrix would change its type with the sign of n
    z = np.zeros(1, dtype=a.dtype)[0]
    if isinstance(z, (np.float32, np.float64, np.complex64, np.complex128)):
        return inv(a).copy()
    else:
        raise TypeError("np.linalg.matrix_power() of an integer matrix to a negative power is not supported")
        return a.copy()


# ---------------------------------------------------------------------------
# the public functions of one matrix: other ndims refused first (raising before the call
# types only the live side)
# ---------------------------------------------------------------------------


@njit
def inv(a):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _inv_2d(a)


@njit
def det(a):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _det_2d(a)


@njit
def slogdet(a):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _slogdet_2d(a)


@njit
def cholesky(a):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _cholesky_2d(a)


@njit
def eig(a):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _eig_2d(a)


@njit
def eigvals(a):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _eigvals_2d(a)


@njit
def qr(a):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _qr_2d(a)


@njit
def matrix_power(a, n):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _matrix_power_2d(a, n)


@njit
def pinv(a, rcond=1e-15):
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return _pinv_2d(a, rcond)
