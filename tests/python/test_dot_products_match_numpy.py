# Products that must round as NumPy's: np.dot / @ of float and complex arrays of any size
# call the BLAS routine NumPy calls for that shape (?dot, ?gemv, ?gemm): the same bits.
import numpy as np
import pytest
import scipy.linalg.blas as scipy_blas

import mahou


@mahou.njit
def dot(a, b):
    return np.dot(a, b)


@mahou.njit
def matmul(a, b):
    return a @ b


@mahou.njit
def normalised(v):
    return v / np.sqrt(v @ v)


@mahou.njit
def projector_times(u, m):
    return np.dot(np.outer(u, u), m)


@mahou.njit(parallel=True)
def row_norms(m):
    out = np.empty(m.shape[0])
    for i in mahou.prange(m.shape[0]):
        out[i] = np.sqrt(m[i] @ m[i])
    return out


def rng(seed=0):
    return np.random.RandomState(seed)


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    if want.ndim:  # a float32 scalar comes back as a Python float (as from Numba)
        assert got.dtype == want.dtype
    else:
        want = want.astype(got.dtype)
    assert np.array_equal(got, want), np.abs(got - want).max()


# vector · vector: ddot / sdot for positive strides; reversed and broadcast (stride 0)
# vectors add in order, as NumPy's fallback loop does.
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7, 15, 16, 17, 64, 1001])
def test_vector_dot_bits(dtype, n):
    r = rng(n)
    a = r.randn(2 * n).astype(dtype)
    b = r.randn(2 * n).astype(dtype)
    x, y = a[:n], b[:n]
    same_bits(dot(x, y), np.dot(x, y))
    same_bits(matmul(x, y), x @ y)
    # strided vectors: ddot with incx = incy = 2, bit for bit with SciPy's BLAS (the one
    # mahou and Numba call; NumPy bundles another OpenBLAS build, whose strided kernel can
    # round differently), close to NumPy
    x, y = a[::2], b[1::2]
    routine = scipy_blas.ddot if dtype == np.float64 else scipy_blas.sdot
    same_bits(dot(x, y), routine(a, b, n=n, offx=0, incx=2, offy=1, incy=2) if n else dtype(0))
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert abs(dot(x, y) - np.dot(x, y)) <= tol * (np.abs(x) @ np.abs(y) + 1)
    for x, y in [(a[:n][::-1], b[:n]), (a[:n], np.broadcast_to(b[0:1], (n,)) if n else b[:0])]:
        # strides BLAS does not take: np.dot copies the operands and calls ddot, as mahou
        # does for both; NumPy's matmul adds in order there (close, not bit for bit)
        same_bits(dot(x, y), np.dot(x, y))
        tol = 1e-5 if dtype == np.float32 else 1e-12
        assert abs(matmul(x, y) - x @ y) <= tol * (np.abs(x) @ np.abs(y) + 1)


def test_small_vector_norm_bits():
    # sqrt(v @ v) of 3-vectors: the sequential-FMA order of BLAS's ddot, not a reassociated sum
    r = rng(1)
    for _ in range(200):
        v = r.randn(3) * 10.0 ** r.randint(-3, 4)
        same_bits(normalised(v), v / np.sqrt(v @ v))


SHAPES = [(m, k, n) for m in (1, 2, 3, 12) for k in (1, 2, 5, 12, 33) for n in (1, 2, 9)]


def views(x):
    """C order, Fortran order and a transposed view: contiguous data BLAS takes as it is."""
    yield x
    yield np.asfortranarray(x)
    yield np.ascontiguousarray(x.T).T


def sliced(x):
    """Row and column slices of a wider array: BLAS takes them with a leading dimension."""
    wide = np.concatenate([x, x], axis=1)
    yield wide[:, : x.shape[1]]
    yield np.asfortranarray(np.concatenate([x, x], axis=0))[: x.shape[0]]


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_matrix_products_bits_float64(m, k, n):
    r = rng(m * 100 + k * 10 + n)
    a, b = r.randn(m, k), r.randn(k, n)
    x, y = r.randn(k), r.randn(m)
    for av in views(a):
        for bv in views(b):
            same_bits(dot(av, bv), np.dot(av, bv))
            same_bits(matmul(av, bv), av @ bv)
        same_bits(dot(av, x), np.dot(av, x))  # matrix · vector (ddot when m == 1)
        same_bits(matmul(y, av), y @ av)  # vector · matrix (ddot when k == 1)
    for av in sliced(a):
        for bv in list(views(b)) + list(sliced(b)):
            np.testing.assert_allclose(dot(av, bv), np.dot(av, bv), rtol=1e-13, atol=1e-13)
            np.testing.assert_allclose(matmul(bv.T, av.T), bv.T @ av.T, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(dot(av, x), np.dot(av, x), rtol=1e-13, atol=1e-13)


def test_projector_product_bits():
    # a rank-one matrix times a matrix: a 12 x 12 · 12 x 9 gemm, well below any size threshold
    r = rng(2)
    for _ in range(20):
        u, m = r.randn(12), r.randn(12, 9)
        same_bits(projector_times(u, m), np.dot(np.outer(u, u), m))


@pytest.mark.parametrize("m,k,n", [(2, 3, 4), (5, 7, 9), (12, 12, 9), (1, 7, 5), (5, 7, 1)])
def test_matrix_products_float32(m, k, n):
    # float32: SciPy's BLAS (which mahou and Numba call) and NumPy's bundled one can be
    # different OpenBLAS builds whose sgemv kernels round differently: bit for bit with the
    # routine called, close to NumPy.
    r = rng(k)
    a, b, x = r.randn(m, k).astype(np.float32), r.randn(k, n).astype(np.float32), r.randn(k).astype(np.float32)
    got = dot(a, b)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.dot(a, b), rtol=1e-5, atol=1e-6)
    if m > 1 and n > 1:
        same_bits(got, scipy_blas.sgemm(1.0, a, b))
    y = dot(a, x)
    np.testing.assert_allclose(y, np.dot(a, x), rtol=1e-5, atol=1e-6)
    if m > 1:
        same_bits(y, scipy_blas.sgemv(1.0, np.asfortranarray(a.T), x, trans=1))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_products_close(dtype):
    r = rng(3)
    for m, k, n in [(1, 1, 1), (1, 4, 1), (3, 4, 1), (1, 4, 3), (3, 4, 5), (12, 12, 9)]:
        a = (r.randn(m, k) + 1j * r.randn(m, k)).astype(dtype)
        b = (r.randn(k, n) + 1j * r.randn(k, n)).astype(dtype)
        x = (r.randn(k) + 1j * r.randn(k)).astype(dtype)
        tol = dict(rtol=1e-5, atol=1e-5) if dtype == np.complex64 else dict(rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(dot(a, b), np.dot(a, b), **tol)
        np.testing.assert_allclose(matmul(a, x), a @ x, **tol)
        np.testing.assert_allclose(dot(x, x), np.dot(x, x), **tol)
        same_bits(dot(x, x[::-1].copy()), np.dot(x, x[::-1].copy()))  # zdotu / cdotu
        same_bits(dot(x[::-1], x), np.dot(x[::-1], x))  # a reversed vector is copied first
        if min(m, k, n) > 1:
            same_bits(dot(a, b), np.dot(a, b))  # zgemm / cgemm
            same_bits(matmul(a, x), a @ x)  # zgemv / cgemv


def test_complex_cov_is_real():
    # x @ x.conj() of a complex vector: zdotu, whose imaginary part is exactly 0 as NumPy's
    # (a gemv kernel's fused multiply-adds leave the rounding error of a·b there)
    z = np.array([1j, 2.0, -1.0, 0.3 + 0.7j])
    got = dot(z, z.conj())
    assert got == np.dot(z, z.conj()) and got.imag == 0.0


def test_strided_views_are_copied():
    # matrices without a unit-stride axis and reversed vectors are copied in C order and
    # multiplied by BLAS, as np.dot (and NumPy's matmul for two matrices) and Numba do
    r = rng(4)
    for _ in range(5):
        a, b = r.randn(10, 14), r.randn(14, 8)
        av, bv = a[::2, ::2], b[::2, ::-1]
        x = b[::2, 0]
        same_bits(dot(av, bv), np.dot(av, bv))
        same_bits(matmul(av, bv), av @ bv)
        same_bits(dot(av, x), np.dot(av, x))
        same_bits(dot(av, x[::-1]), np.dot(av, x[::-1]))
        same_bits(dot(x[::-1], bv[:7]), np.dot(x[::-1], bv[:7]))
        np.testing.assert_allclose(matmul(av, x), av @ x, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("m,k,n", [(0, 3, 2), (3, 0, 2), (3, 2, 0), (0, 0, 0)])
def test_empty_products(m, k, n):
    a, b = np.ones((m, k)), np.ones((k, n))
    same_bits(dot(a, b), np.dot(a, b))
    same_bits(dot(a, np.ones(k)), np.dot(a, np.ones(k)))
    same_bits(dot(np.ones(k), np.ones(k)), np.dot(np.ones(k), np.ones(k)))


def test_dot_in_prange_bits():
    r = rng(5)
    m = r.randn(40, 3)
    same_bits(row_norms(m), np.array([np.sqrt(v @ v) for v in m]))


def test_mismatched_shapes_raise():
    with pytest.raises(ValueError):
        dot(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(ValueError):
        dot(np.ones(3), np.ones(4))
