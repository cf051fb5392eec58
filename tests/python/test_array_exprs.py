"""Whole-array computation compiled vs NumPy: elementwise operators and ufuncs with
broadcasting (fused into one loop), stores into slices, in-place operators,
reductions with and without an axis, cumsum, dot/@, where, clip, linspace, eye,
reshape/ravel."""

import numpy as np
import pytest

import mahou
from conftest import check
from mahou import njit


def arith(a, b):
    return a * 2.0 + b - a / (b + 10.0)


def mixed_ops(a, b):
    return (a + b) * (a - b), a ** 2, -a, abs(b)


def ufuncs(a):
    return np.sqrt(np.abs(a)) + np.exp(-a * a) + np.sin(a) * np.cos(a) + np.floor(a) + np.log1p(np.abs(a))


def compare_ops(a, b):
    return a < b, a == b, (a > 0) & (b > 0), ~(a > 1.5)


def int_ops(a, b):
    return a + b, a * 3, a // 2, a % 3, a & b, a | 1, a ^ b, a << 1


def broadcast_row(m, v):
    return m + v


def broadcast_col(m, c):
    return m * c


def scalar_weak_float32(a):
    return a * 2.0 + 1


def where_clip(a):
    return np.where(a > 0.5, a, -a), np.clip(a, 0.2, 0.8), np.maximum(a, 0.5), np.minimum(a, 0.25)


ARRS = [np.linspace(-3, 3, 11), np.arange(0.0), np.array([1.5]), np.linspace(-2, 2, 12)[::2]]


@pytest.mark.parametrize("a", ARRS, ids=["c", "empty", "one", "strided"])
def test_elementwise_float(a):
    b = np.linspace(1, 2, a.size) if a.size else np.arange(0.0)
    check(arith, a, b)
    check(mixed_ops, a, b)
    # exp/sin/cos/log1p: NumPy's own SIMD routines (AVX-512 machines) and libm may differ
    # by an ulp; the rest of this test is exact.
    check(ufuncs, a, rtol=4e-16)
    check(compare_ops, a, b)
    check(where_clip, a)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8])
def test_elementwise_int(dtype):
    a = np.arange(12, dtype=dtype)
    b = (np.arange(12, dtype=dtype) * 7 + 3) % 11 + 1
    check(int_ops, a, b.astype(dtype))


def test_weak_python_scalars_keep_array_dtype():
    a = np.linspace(0, 1, 7).astype(np.float32)
    got = njit(scalar_weak_float32)(a)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, scalar_weak_float32(a), rtol=1e-6)
    ai = np.arange(5, dtype=np.int32)
    assert njit(lambda_free_int_add)(ai).dtype == np.int32


def lambda_free_int_add(a):
    return a + 1


@pytest.mark.parametrize("layout", ["C", "F", "T"])
def test_broadcasting_2d(layout):
    m = np.arange(12.0).reshape(3, 4)
    if layout == "F":
        m = np.asfortranarray(m)
    if layout == "T":
        m = np.arange(12.0).reshape(4, 3).T
    check(broadcast_row, m, np.array([1.0, 2.0, 3.0, 4.0]))
    check(broadcast_col, m, np.array([[1.0], [2.0], [3.0]]))


def test_broadcast_mismatch_raises_value_error():
    with pytest.raises(ValueError):
        njit(broadcast_row)(np.zeros((3, 4)), np.zeros(3))


def slice_stores(a):
    a[1:3] = 7.0
    a[::2] += 1.0
    a[-2:] = a[:2] * 10.0
    return a


def row_store(m, v):
    m[1] = v
    m[:, 0] = -1.0
    m[2, 1:] = 0.5
    return m


def inplace(a, b):
    a += b
    a *= 2.0
    a -= 1
    return a


def fill_all(a):
    a[:] = 3
    return a


def test_slice_stores_and_inplace():
    check(slice_stores, np.arange(8.0))
    check(row_store, np.zeros((3, 4)), np.arange(4.0))
    check(inplace, np.arange(5.0), np.linspace(0, 1, 5))
    check(fill_all, np.zeros(6, dtype=np.int32))


def reductions(a):
    return (a.sum(), np.sum(a), a.prod(), a.min(), np.max(a), a.argmin(), np.argmax(a), a.mean(), a.var(), a.std(),
            (a > 0).any(), np.all(a > -100))


def int_reductions(a):
    return a.sum(), a.prod(), a.min(), a.max(), a.argmax(), a.mean()


@pytest.mark.parametrize("a", [np.linspace(-1, 2, 10), np.array([3.0, -1.0, 2.0]), np.linspace(-1, 1, 9)[::3]])
def test_reductions(a):
    check(reductions, a, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16])
def test_int_reductions(dtype):
    check(int_reductions, (np.arange(1, 9) % 5 + 1).astype(dtype))


def reduce_fused(a, b):
    return np.sum(a * b), (a - b).max(), np.mean(np.abs(a - b))


def test_reduction_of_expression_is_fused():
    a = np.linspace(0, 1, 100)
    b = np.linspace(1, 2, 100)
    check(reduce_fused, a, b, rtol=1e-12)


def axis_reductions(m):
    return m.sum(axis=0), m.sum(axis=1), np.max(m, axis=0), m.mean(axis=1), np.min(m, 1)


@pytest.mark.parametrize("layout", ["C", "F"])
def test_axis_reductions(layout):
    m = np.arange(12.0).reshape(3, 4) ** 1.5
    if layout == "F":
        m = np.asfortranarray(m)
    check(axis_reductions, m, rtol=1e-12)


def nan_reductions(a):
    return a.max(), a.min(), a.argmax(), a.sum()


def test_nan_propagates():
    a = np.array([1.0, np.nan, 3.0])
    got = njit(nan_reductions)(a)
    exp = nan_reductions(a)
    assert np.isnan(got[0]) and np.isnan(got[1]) and got[2] == exp[2] and np.isnan(got[3])


def empty_max(a):
    return a.max()


def test_empty_reduction_raises():
    with pytest.raises(ValueError):
        njit(empty_max)(np.zeros(0))


def scans(a):
    return np.cumsum(a), a.cumprod()


def test_cumsum():
    check(scans, np.arange(1.0, 7.0))
    check(scans, np.arange(1, 7, dtype=np.int32))
    check(scans, np.arange(6.0).reshape(2, 3))


def dots(m, n, v):
    return m @ v, np.dot(v, v), v @ n, m @ n, m.dot(v)


def test_dot_and_matmul():
    m = np.arange(12.0).reshape(3, 4)
    n = np.arange(8.0).reshape(4, 2) - 3
    v = np.linspace(-1, 1, 4)
    check(dots, m, n, v, rtol=1e-12)
    check(dots, m.astype(np.int64), n.astype(np.int64), np.arange(4))


def sums_3d(a):
    return a.sum(axis=0), a.sum(axis=1), a.sum(axis=2), np.prod(a, axis=0), np.prod(a, axis=1)


@pytest.mark.parametrize("shape", [(2, 3, 4), (1, 5, 1), (0, 3, 2), (3, 0, 2), (4, 2, 0)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.uint8, np.bool_, np.complex128])
def test_sum_and_prod_along_each_axis(shape, dtype):
    # Axes other than the last are summed element by element into the output in the
    # array's order; each output element still accumulates in axis order. NumPy sums in
    # another order (pairwise, SIMD), hence the tolerance.
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(shape) * 3).astype(dtype) if dtype is not np.complex128 else \
        (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
    f = njit(sums_3d)
    for arr in (a, np.asfortranarray(a), np.repeat(a, 2, axis=1)[:, ::2]):
        for got, want in zip(f(arr), sums_3d(arr)):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-6 if dtype is np.float32 else 1e-13)


def mat_vec(m, v):
    return m @ v


@pytest.mark.parametrize("rows", [0, 1, 3, 4, 5, 8, 9, 13])
@pytest.mark.parametrize("cols", [0, 1, 7])
def test_matrix_vector_any_row_count(rows, cols):
    # Float64 products call BLAS (gemv, ddot for one row) as NumPy does: the same bits.
    # The compiled loops (mixed float32 · float64 here) compute rows four at a time, the
    # rest one by one; each row sums in order k = 0, 1, ..., so the result equals the
    # sequential sum exactly.
    rng = np.random.default_rng(rows * 10 + cols)
    m, v = rng.standard_normal((rows, cols)), rng.standard_normal(cols)
    got = njit(mat_vec)(m, v)
    assert got.shape == (rows,)
    np.testing.assert_array_equal(got, m @ v)
    np.testing.assert_array_equal(njit(mat_vec)(m.T.copy().T, v), m.T.copy().T @ v)
    m32 = m.astype(np.float32)
    want = np.array([sum((float(m32[i, k]) * v[k] for k in range(cols)), 0.0) for i in range(rows)])
    np.testing.assert_array_equal(njit(mat_vec)(m32, v), want)
    np.testing.assert_array_equal(njit(mat_vec)(m32.T.copy().T, v[::-1].copy()[::-1]), want)
    big = rng.standard_normal((2 * rows + 1, 2 * cols))
    np.testing.assert_allclose(njit(mat_vec)(big[::2, ::2], v), big[::2, ::2] @ v, rtol=1e-12, atol=1e-12)
    ints = rng.integers(-5, 5, (rows, cols))
    np.testing.assert_array_equal(njit(mat_vec)(ints, np.arange(cols)), ints @ np.arange(cols))
    c = m + 1j * m[::-1]
    np.testing.assert_allclose(njit(mat_vec)(c, v + 0.5j), c @ (v + 0.5j), rtol=1e-12, atol=1e-12)


def dot_mismatch(a, b):
    return np.dot(a, b)


def test_dot_shape_mismatch():
    with pytest.raises(ValueError):
        njit(dot_mismatch)(np.zeros(3), np.zeros(4))


def creation(n):
    return np.linspace(0.0, 1.0, n), np.eye(n), np.eye(n, k=1), np.identity(n), np.linspace(-1, 1, 0)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_linspace_eye(n):
    check(creation, n)


def shapes(a):
    b = a.reshape(3, 4)
    c = a.reshape((2, -1))
    b[0, 0] = 100.0
    return b, c, b.ravel(), np.ravel(b), b.T.flatten()


def test_reshape_views_and_copies():
    check(shapes, np.arange(12.0))


def bad_reshape(a):
    return a.reshape(5, 5)


def test_bad_reshape_raises():
    with pytest.raises(ValueError):
        njit(bad_reshape)(np.arange(12.0))


def temporaries(a):
    s = 0.0
    for i in range(10):
        s += ((a + i) * 2.0).sum()
    return s


def test_no_leaks_from_array_temporaries():
    a = np.arange(100.0)
    f = njit(temporaries)
    f(a)
    before = mahou._core.live_allocations()
    for _ in range(5):
        f(a)
    assert mahou._core.live_allocations() == before
    assert f(a) == temporaries(a)


def vec_dot(a, b):
    return np.dot(a, b), a @ b


@pytest.mark.parametrize("n", [0, 1, 3, 7, 8, 9, 33, 1000, 100_003])
def test_vector_dot_matches_numpy_closely(n):
    # The adds are reassociated (vectorised partial sums, as BLAS does): close to NumPy's
    # result and to the exact sum, not bit-identical to a sequential loop.
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    exact = float(sum(np.array(a, dtype=np.longdouble) * np.array(b, dtype=np.longdouble)))
    for got in njit(vec_dot)(a, b):
        assert abs(got - exact) <= 1e-12 * max(1.0, np.abs(a * b).sum())
    got, _ = njit(vec_dot)(a[::-1], b[::-1])
    assert abs(got - exact) <= 1e-12 * max(1.0, np.abs(a * b).sum())
    ints = rng.integers(-100, 100, n)
    assert njit(vec_dot)(ints, ints)[0] == int(ints @ ints)
    c = a + 1j * b
    np.testing.assert_allclose(njit(vec_dot)(c, c)[0], np.dot(c, c), rtol=1e-10, atol=1e-10)
    f32 = a.astype(np.float32)
    np.testing.assert_allclose(njit(vec_dot)(f32, f32)[0], np.dot(f32, f32), rtol=1e-4)
