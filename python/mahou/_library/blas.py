"""BLAS routines for np.dot / @ / np.matmul (codegen/blas.cpp), taken from SciPy's
scipy.linalg.cython_blas as Numba does (one BLAS for NumPy, SciPy and mahou): ctypes
functions over the capsules' addresses, all arguments pointers (Fortran's convention).
Sema asks for them as '@blas.dgemm', '@blas.zgemv', ...; without SciPy the products
run in compiled loops."""

import ctypes

from scipy.linalg import cython_blas as _blas_module

_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def routine(module, name, nargs):
    """`name` of a cython_blas / cython_lapack module as a ctypes function of `nargs`
    pointers."""
    capsule = module.__pyx_capi__[name]
    address = _capsule_pointer(capsule, _capsule_name(capsule))
    return ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * nargs))(address)


# gemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
sgemm, dgemm, cgemm, zgemm = (routine(_blas_module, p + "gemm", 13) for p in "sdcz")
# dot(n, x, incx, y, incy) and dotu for complex, returning the value (codegen calls them
# with that return type)
sdot, ddot = (routine(_blas_module, p + "dot", 5) for p in "sd")
cdotu, zdotu = (routine(_blas_module, p + "dotu", 5) for p in "cz")
# gemv(trans, m, n, alpha, a, lda, x, incx, beta, y, incy)
sgemv, dgemv, cgemv, zgemv = (routine(_blas_module, p + "gemv", 11) for p in "sdcz")
