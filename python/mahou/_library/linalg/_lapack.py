"""LAPACK's routines from SciPy (cython_lapack) as callables of compiled code, and the
helpers every np.linalg function shares: the element type LAPACK computes in (prefix s, d,
c, z), zeros and epsilons of it, Fortran-ordered copies, workspace sizes."""

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
def _on_matrix(op, a, *args):
    # op(a, *args) for a matrix; LinAlgError for 0-d and 1-d a, TypeError for stacks
    # (ndim > 2). The ndim tests are constants when this is compiled, so the call is typed
    # only for a 2-D a.
    if a.ndim == 0:
        raise np.linalg.LinAlgError("0-dimensional array given. Array must be at least two-dimensional")
    if a.ndim == 1:
        raise np.linalg.LinAlgError("1-dimensional array given. Array must be at least two-dimensional")
    if a.ndim > 2:
        raise TypeError("np.linalg of stacks of matrices (ndim > 2) is not supported")
    return op(a, *args)


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
