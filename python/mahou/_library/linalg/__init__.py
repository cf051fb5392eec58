"""np.linalg in Python compiled by mahou, on LAPACK taken from SciPy as Numba does
(scipy.linalg.cython_lapack's function pointers: one LAPACK for NumPy, SciPy and mahou).

Matrices are copied into Fortran order (a C-ordered array of the transpose), LAPACK
works in place on the copy, and results come back as Fortran-ordered views of it, as
Numba returns them. Integer and bool matrices compute in float64, float32 and complex64
stay single precision (NumPy's result types). LAPACK's scalar arguments go by pointer:
each routine's integers sit in one int32 array, passed as views at their offsets.
Stacks of matrices (ndim > 2) are not supported, as in Numba.

The compiler finds '@numpy.linalg.<name>' here: the public functions of this package.
_lapack holds the routines and shared helpers; lu, eigen, svd, lstsq and norms one
family of factorisations each."""

from mahou import njit
from mahou._library.linalg._lapack import _on_matrix
from mahou._library.linalg.eigen import _cholesky_2d, _eig_2d, _eigvals_2d, eigh, eigvalsh
from mahou._library.linalg.lstsq import _qr_2d, lstsq
from mahou._library.linalg.lu import _det_2d, _inv_2d, _slogdet_2d, solve
from mahou._library.linalg.norms import _matrix_power_2d, cond, norm
from mahou._library.linalg.svd import _pinv_2d, matrix_rank, svd

__all__ = ["cholesky", "cond", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq",
           "matrix_power", "matrix_rank", "norm", "pinv", "qr", "slogdet", "solve", "svd"]


@njit
def inv(a):
    return _on_matrix(_inv_2d, a)


@njit
def det(a):
    return _on_matrix(_det_2d, a)


@njit
def slogdet(a):
    return _on_matrix(_slogdet_2d, a)


@njit
def cholesky(a):
    return _on_matrix(_cholesky_2d, a)


@njit
def eig(a):
    return _on_matrix(_eig_2d, a)


@njit
def eigvals(a):
    return _on_matrix(_eigvals_2d, a)


@njit
def qr(a):
    return _on_matrix(_qr_2d, a)


@njit
def matrix_power(a, n):
    return _on_matrix(_matrix_power_2d, a, n)


@njit
def pinv(a, rcond=1e-15):
    return _on_matrix(_pinv_2d, a, rcond)
