"""np.linalg on LAPACK through SciPy (python/mahou/_library/linalg/): each function
compared with NumPy on float32/float64/complex/integer matrices, Fortran and strided
views, empty matrices, and the LinAlgError and ValueError cases NumPy raises; arrays
passed to C pointer parameters (their data pointers)."""

import ctypes

import numpy as np
import pytest

from mahou import njit

DTYPES = [np.float64, np.float32, np.complex128, np.complex64, np.int64]


def matrix(n, dtype, seed=3, m=None):
    rng = np.random.default_rng(seed)
    m = n if m is None else m
    a = rng.standard_normal((n, m)) * 3
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((n, m))
    if np.dtype(dtype).kind in "iu":
        a = np.round(a)
    return a.astype(dtype)


def spd(n, dtype):
    a = matrix(n, dtype).astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    h = a @ a.conj().T + n * np.eye(n)
    return h.astype(dtype)


def views(a):
    """`a`, a Fortran copy and a strided view with the same values."""
    big = np.zeros((a.shape[0] * 2,) + a.shape[1:], dtype=a.dtype)
    big[::2] = a
    return [a, np.asfortranarray(a), big[::2]]


def tol(dtype):
    return 2e-3 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


def result_dtype(dtype):
    return np.dtype(np.float64) if np.dtype(dtype).kind in "iub" else np.dtype(dtype)


def close(got, want, dtype):
    scalar = isinstance(got, (int, float, complex))  # scalars come back as Python numbers (Numba's boxing)
    got = np.asarray(got)
    want = np.asarray(want)
    if scalar:
        assert got.dtype.kind == want.dtype.kind, (got.dtype, want.dtype)
    else:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol(dtype), atol=tol(dtype) * scale)


@njit
def solve_c(a, b):
    return np.linalg.solve(a, b)


@njit
def inv_c(a):
    return np.linalg.inv(a)


@njit
def det_c(a):
    return np.linalg.det(a)


@njit
def slogdet_c(a):
    return np.linalg.slogdet(a)


@njit
def cholesky_c(a):
    return np.linalg.cholesky(a)


@njit
def eigh_c(a):
    return np.linalg.eigh(a)


@njit
def eigh_upper(a):
    return np.linalg.eigh(a, "U")


@njit
def eigvalsh_c(a):
    return np.linalg.eigvalsh(a)


@njit
def eigh_values_by_index(a):
    return np.linalg.eigh(a)[0]  # a tuple, not an optional one: the ndim checks raise first


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 4, 9])
def test_solve(dtype, n):
    a = matrix(n, dtype) + 10 * np.eye(n, dtype=dtype)
    b2 = matrix(n, dtype, seed=5, m=3)
    b1 = b2[:, 0].copy()
    for av in views(a):
        for b in (b1, b2, views(b2)[2]):
            close(solve_c(av, b), np.linalg.solve(av, b), dtype)
    assert np.array_equal(a, matrix(n, dtype) + 10 * np.eye(n, dtype=dtype))  # inputs untouched


def test_solve_mixed_types_and_empty():
    a = matrix(4, np.float32) + 10 * np.eye(4, dtype=np.float32)
    b = matrix(4, np.complex128, m=2)
    close(solve_c(a, b), np.linalg.solve(a, b), np.complex128)
    e = np.zeros((0, 0))
    assert solve_c(e, np.zeros(0)).shape == (0,)
    assert solve_c(e, np.zeros((0, 3))).shape == (0, 3)


def test_solve_errors():
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        solve_c(np.ones((3, 3)), np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        solve_c(np.ones((3, 2)), np.ones(3))
    with pytest.raises(ValueError):
        solve_c(np.eye(3), np.ones(4))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 3, 8])
def test_inv_det_slogdet(dtype, n):
    a = matrix(n, dtype) + 5 * np.eye(n, dtype=dtype)
    for av in views(a) if n else [a]:
        close(inv_c(av), np.linalg.inv(av), dtype)
        close(det_c(av), np.linalg.det(av), dtype)
        s, l = slogdet_c(av)
        es, el = np.linalg.slogdet(av)
        close(s, es, dtype)
        close(l, el, dtype)


def test_singular():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        inv_c(a)
    assert det_c(a) == 0.0
    assert slogdet_c(a) == (0.0, -np.inf)
    with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
        inv_c(np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        det_c(np.ones((2, 3)))
    with pytest.raises(ValueError):  # LinAlgError is a ValueError, as NumPy's
        inv_c(np.zeros((2, 2)))


def test_det_exact_on_integers():
    a = np.array([[2, 0, 1], [1, 3, 2], [1, 1, 1]])
    assert det_c(a) == pytest.approx(np.linalg.det(a), abs=1e-12)
    assert det_c(np.eye(3, dtype=np.int32)) == 1.0


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_cholesky(dtype, n):
    a = spd(n, dtype)
    for av in views(a) if n else [a]:
        close(cholesky_c(av), np.linalg.cholesky(av), dtype)


def test_cholesky_not_positive_definite():
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        cholesky_c(-np.eye(3))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("n", [0, 1, 6])
def test_eigh(dtype, n):
    a = spd(n, dtype)
    for av in views(a) if n else [a]:
        w, v = eigh_c(av)
        ew, ev = np.linalg.eigh(av)
        close(w, ew, dtype)
        assert v.dtype == ev.dtype and v.shape == ev.shape
        # eigenvectors: the same up to a unit factor per column
        close(np.abs(v.conj().T @ ev), np.eye(n, dtype=w.dtype), dtype)
        close(eigvalsh_c(av), np.linalg.eigvalsh(av), dtype)
        close(eigh_values_by_index(av), ew, dtype)
    if n:
        close(eigh_upper(np.triu(a))[0], np.linalg.eigh(np.triu(a), "U")[0], dtype)


# ---------------------------------------------------------------------------
# eig, svd, qr, lstsq and what is computed from them
# ---------------------------------------------------------------------------


@njit
def eig_c(a):
    return np.linalg.eig(a)


@njit
def eigvals_c(a):
    return np.linalg.eigvals(a)


@njit
def svd_c(a):
    return np.linalg.svd(a)


@njit
def svd_reduced(a):
    return np.linalg.svd(a, full_matrices=False)


@njit
def pinv_c(a):
    return np.linalg.pinv(a)


@njit
def rank_c(a):
    return np.linalg.matrix_rank(a)


@njit
def cond_c(a):
    return np.linalg.cond(a)


@njit
def norm_c(a):
    return np.linalg.norm(a)


@njit
def norm_ord(a, o):
    return np.linalg.norm(a, o)


@njit
def norm_fro(a):
    return np.linalg.norm(a, "fro")


@njit
def norm_nuc(a):
    return np.linalg.norm(a, "nuc")


@njit
def power_c(a, n):
    return np.linalg.matrix_power(a, n)


def sorted_eigs(w):
    return w[np.lexsort((np.round(w.imag, 6), np.round(w.real, 6)))] if w.dtype.kind == "c" else np.sort(w)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
def test_eig(dtype):
    a = spd(5, dtype) if np.dtype(dtype).kind == "f" else matrix(5, dtype)
    w, v = eig_c(a)
    assert w.dtype == np.dtype(dtype) and v.dtype == np.dtype(dtype)
    close(a @ v, v * w, dtype)  # A v = v diag(w)
    close(sorted_eigs(w), sorted_eigs(np.linalg.eigvals(a).astype(dtype)), dtype)
    close(sorted_eigs(eigvals_c(a)), sorted_eigs(w), dtype)


def test_eig_real_input_complex_eigenvalues():
    with pytest.raises(ValueError, match="domain change"):
        eig_c(np.array([[0.0, -1.0], [1.0, 0.0]]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (6, 3), (3, 6), (0, 3)])
def test_svd(dtype, shape):
    a = matrix(shape[0], dtype, m=shape[1])
    for f in (svd_c, svd_reduced):
        u, s, vh = f(a)
        eu, es, evh = np.linalg.svd(a, full_matrices=f is svd_c)
        close(s, es, dtype)
        assert u.shape == eu.shape and vh.shape == evh.shape and u.dtype == eu.dtype
        k = len(s)
        close((u[:, :k] * s) @ vh[:k], a.astype(result_dtype(dtype)), dtype)
    if a.size:
        close(pinv_c(a), np.linalg.pinv(a), dtype)
        assert rank_c(a) == np.linalg.matrix_rank(a)
        close(norm_nuc(a), np.linalg.norm(a, "nuc"), dtype)
        close(norm_ord(a, 2), np.linalg.norm(a, 2), dtype)
        close(norm_ord(a, -2), np.linalg.norm(a, -2), dtype)
    if shape[0] == shape[1]:
        close(cond_c(a), np.linalg.cond(a), dtype)


def test_matrix_rank_and_svd_nan():
    a = np.ones((4, 4))
    assert rank_c(a) == 1
    assert rank_c(np.zeros((3, 3))) == 0
    a[1, 1] = np.nan
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        svd_c(a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_norms(dtype):
    a = matrix(4, dtype, m=3)
    v = a[:, 0].copy()
    for x in (v, a, views(a)[2], v[:0], a[:0]):
        close(norm_c(x), np.linalg.norm(x), dtype)
        close(norm_fro(x) if x.ndim == 2 else norm_c(x), np.linalg.norm(x), dtype)
    for o in (1, 2, 3, 0, np.inf, -np.inf, 0.5):
        close(norm_ord(v, o), np.linalg.norm(v, o), dtype)
    for o in (1, -1, np.inf, -np.inf):
        close(norm_ord(a, o), np.linalg.norm(a, o), dtype)
    with pytest.raises(ValueError, match="Invalid norm order"):
        norm_ord(a, 3)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int64, np.float32])
def test_matrix_power(dtype):
    a = matrix(3, dtype) / (3 if np.dtype(dtype).kind != "i" else 1)
    for n in (0, 1, 2, 5, 8):
        close(power_c(a, n), np.linalg.matrix_power(a, n), dtype)
    if np.dtype(dtype).kind != "i":
        close(power_c(a + 3 * np.eye(3, dtype=dtype), -3),
              np.linalg.matrix_power(a + 3 * np.eye(3, dtype=dtype), -3), dtype)


# ---------------------------------------------------------------------------
# arrays to C pointer parameters
# ---------------------------------------------------------------------------
_libc = ctypes.CDLL(None)
_memset = _libc.memset
_memset.restype = ctypes.c_void_p
_memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]


@njit
def fill_bytes(a, value, offset):
    _memset(a[offset:], value, (a.size - offset) * a.itemsize)


def test_array_to_pointer_parameter():
    a = np.ones(6, dtype=np.float64)
    fill_bytes(a, 0, 2)
    assert a.tolist() == [1, 1, 0, 0, 0, 0]
    b = np.ones(4, dtype=np.int32)
    fill_bytes(b, 0, 0)
    assert not b.any()


@njit
def qr_c(a):
    return np.linalg.qr(a)


@njit
def lstsq_c(a, b):
    return np.linalg.lstsq(a, b)


@njit
def lstsq_rcond(a, b, r):
    return np.linalg.lstsq(a, b, rcond=r)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (7, 3), (3, 7), (0, 3)])
def test_qr(dtype, shape):
    a = matrix(shape[0], dtype, m=shape[1])
    for av in views(a) if a.size else [a]:
        q, r = qr_c(av)
        eq, er = np.linalg.qr(av)
        assert q.shape == eq.shape and r.shape == er.shape and q.dtype == eq.dtype
        close(np.abs(r), np.abs(er), dtype)  # the same up to the signs of rows
        close(q @ r, av.astype(result_dtype(dtype)), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(7, 3), (3, 7), (5, 5)])
def test_lstsq(dtype, shape):
    a = matrix(shape[0], dtype, m=shape[1])
    b2 = matrix(shape[0], dtype, seed=9, m=2)
    for b in (b2, b2[:, 1].copy(), views(b2)[2]):
        got = lstsq_c(a, b)
        want = np.linalg.lstsq(a, b)
        for g, w in zip(got, want):
            close(g, w, dtype)
    rank_deficient = np.ones((4, 2))
    got = lstsq_rcond(rank_deficient, np.arange(4.0), 1e-10)
    want = np.linalg.lstsq(rank_deficient, np.arange(4.0), rcond=1e-10)
    for g, w in zip(got, want):
        close(g, w, np.float64)


# ---------------------------------------------------------------------------
# np.dot / @ on BLAS (gemm, gemv) above a small size, the loops below and for views BLAS
# cannot take
# ---------------------------------------------------------------------------


@njit
def matmul_c(a, b):
    return a @ b


@njit
def dot_c(a, b):
    return np.dot(a, b)


def layouts(a):
    big = np.zeros((a.shape[0] * 2, a.shape[1] * 3), dtype=a.dtype)
    big[::2, ::3] = a
    wide = np.zeros((a.shape[0] + 2, a.shape[1] + 5), dtype=a.dtype)
    wide[1:-1, 2:-3] = a
    return [a, np.asfortranarray(a), big[::2, ::3], wide[1:-1, 2:-3], a.T.copy().T]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("mnk", [(3, 4, 5), (40, 30, 20), (64, 1, 70), (1, 50, 90)])
def test_matmul_blas(dtype, mnk):
    m, n, k = mnk
    a = matrix(m, dtype, m=k)
    b = matrix(k, dtype, seed=4, m=n)
    for av in layouts(a):
        for bv in layouts(b)[:3]:
            close(matmul_c(av, bv), av @ bv, dtype)
            close(dot_c(av, bv[:, 0]), av @ bv[:, 0], dtype)   # matrix · vector
            close(dot_c(av[0], bv), av[0] @ bv, dtype)         # vector · matrix
        close(dot_c(av, b[::-1, 0]), av @ b[::-1, 0], dtype)   # a reversed vector: the loops


def test_matmul_mixed_and_empty():
    a = matrix(70, np.float32, m=80)
    b = matrix(80, np.float64, m=60)
    close(matmul_c(a, b), a @ b, np.float64)
    close(matmul_c(np.zeros((0, 100)), np.ones((100, 100))), np.zeros((0, 100)), np.float64)
    close(matmul_c(np.zeros((100, 0)), np.ones((0, 100))), np.zeros((100, 100)), np.float64)
    with pytest.raises(ValueError):
        matmul_c(np.ones((100, 100)), np.ones((90, 100)))


@njit
def inv_or_zeros(a):
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        return np.zeros_like(a)


@njit
def raise_linalg(x):
    if x < 0:
        raise np.linalg.LinAlgError("negative")
    return x


def test_linalg_error_caught_and_raised():
    assert not inv_or_zeros(np.ones((2, 2))).any()
    np.testing.assert_allclose(inv_or_zeros(2 * np.eye(2)), 0.5 * np.eye(2))
    assert raise_linalg(1.0) == 1.0
    with pytest.raises(np.linalg.LinAlgError, match="negative"):
        raise_linalg(-1.0)
