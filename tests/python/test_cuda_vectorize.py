"""target='cuda' of @vectorize/@guvectorize and @cuda.reduce, compared with NumPy and
with the same function on the CPU: host arrays in → host arrays out, device arrays in →
device arrays out, scalars, broadcasting, streams."""

import math

import numpy as np
import pytest

from mahou import cuda, float32, float64, guvectorize, int64, vectorize

pytestmark = pytest.mark.gpu


def poly(x, y):
    return 3.0 * x * x - 2.0 * x * y + y - 1.0


cuda_poly = vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")(poly)
cpu_poly = vectorize(["float32(float32, float32)", "float64(float64, float64)"])(poly)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_host_arrays(dtype):
    x = np.linspace(-2, 2, 1000).astype(dtype)
    y = np.linspace(1, 3, 1000).astype(dtype)
    got = cuda_poly(x, y)
    assert isinstance(got, np.ndarray) and got.dtype == dtype
    np.testing.assert_allclose(got, cpu_poly(x, y), rtol=1e-6 if dtype == np.float32 else 1e-14)


def test_broadcasting_scalars_and_shapes():
    a = np.arange(24.0).reshape(2, 3, 4)
    b = np.linspace(0, 1, 4)
    np.testing.assert_allclose(cuda_poly(a, b), cpu_poly(a, b))
    np.testing.assert_allclose(cuda_poly(a[:, ::2], 1.5), cpu_poly(a[:, ::2], 1.5))
    assert cuda_poly(2.0, 3.0) == poly(2.0, 3.0)
    assert cuda_poly(np.zeros((0, 3)), np.zeros(3)).shape == (0, 3)
    # int64 inputs go to the float64 loop, as NumPy chooses
    np.testing.assert_allclose(cuda_poly(np.arange(5), np.arange(5)), cpu_poly(np.arange(5.0), np.arange(5.0)))


def test_device_arrays_in_and_out():
    x = np.linspace(0, 1, 300)
    d_x = cuda.to_device(x)
    d_out = cuda_poly(d_x, d_x)
    assert cuda.is_cuda_array(d_out)
    np.testing.assert_allclose(d_out.copy_to_host(), cpu_poly(x, x))
    d_res = cuda.device_array_like(x)
    assert cuda_poly(d_x, 0.5, out=d_res) is d_res
    np.testing.assert_allclose(d_res.copy_to_host(), cpu_poly(x, 0.5))
    host_out = np.empty_like(x)
    assert cuda_poly(x, x, out=host_out) is host_out
    np.testing.assert_allclose(host_out, cpu_poly(x, x))


def test_stream():
    s = cuda.stream()
    x = np.arange(100.0)
    np.testing.assert_allclose(cuda_poly(x, x, stream=s), cpu_poly(x, x))


def test_no_loop_and_missing_signatures():
    with pytest.raises(TypeError):
        cuda_poly(np.arange(3, dtype=np.complex128), np.ones(3))
    with pytest.raises(TypeError):
        vectorize(target="cuda")(poly)


def test_math_and_int_loops():
    @vectorize(["float64(float64)", "int64(int64)"], target="cuda")
    def f(x):
        return math.sqrt(abs(x)) if x < 0 else x * 2

    np.testing.assert_allclose(f(np.array([-4.0, 3.0])), [2.0, 6.0])
    np.testing.assert_array_equal(f(np.array([-9, 3])), [3, 6])


def test_cuda_gufunc():
    @guvectorize([(float64[:], float64[:], float64[:])], "(n),(n)->()", target="cuda")
    def dot(a, b, out):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        out[0] = s

    a = np.arange(12.0).reshape(3, 4)
    b = np.ones(4)
    np.testing.assert_allclose(dot(a, b), a @ b)
    d = dot(cuda.to_device(a), cuda.to_device(np.ones((3, 4))))
    np.testing.assert_allclose(d.copy_to_host(), a.sum(axis=1))

    @guvectorize([(float64[:], int64, float64[:])], "(n),()->(n)", target="cuda")
    def shift(x, k, out):
        for i in range(x.shape[0]):
            out[i] = x[i] + k

    np.testing.assert_array_equal(shift(a, 2), a + 2)
    np.testing.assert_array_equal(shift(a, np.array([1, 2, 3])[:, None].ravel()), a + np.array([[1], [2], [3]]))


@pytest.mark.parametrize("n", [1, 7, 256, 1000, 70_001])
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32])
def test_reduce_sum(n, dtype):
    @cuda.reduce
    def sum_reduce(a, b):
        return a + b

    a = (np.arange(n) % 17).astype(dtype)
    got = sum_reduce(a)
    assert got == a.sum()
    assert sum_reduce(a, init=5) == a.sum() + 5
    assert sum_reduce(cuda.to_device(a)) == a.sum()


@pytest.mark.parametrize("n", [1023, 1024, 1025, 128 * 1024, 128 * 1024 + 1, 3 * 128 * 1024 - 1,
                               5 * 128 * 256 + 3, 9 * 128 * 256 + 77])
def test_reduce_tiles(n):
    # blocks fold whole tiles of 1024 items (four per thread), grid strided, then the one
    # partly filled tile; the sizes fall on and beside tile and grid boundaries
    @cuda.reduce
    def sum_reduce(a, b):
        return a + b

    @cuda.reduce
    def max_reduce(a, b):
        return max(a, b)

    rng = np.random.default_rng(n)
    ints = rng.integers(-1000, 1000, n)
    assert sum_reduce(ints) == ints.sum()
    assert sum_reduce(ints, init=-7) == ints.sum() - 7
    floats = rng.standard_normal(n)
    np.testing.assert_allclose(sum_reduce(floats), floats.sum(), rtol=1e-9)
    floats[n // 3] = 99.0
    assert max_reduce(floats) == 99.0
    # the scratch arrays kept between calls: other data, other streams, the same answers
    s1, s2 = cuda.stream(), cuda.stream()
    other = ints[::-1].copy() * 3
    assert sum_reduce(other, stream=s1) == other.sum()
    assert sum_reduce(ints, stream=s2) == ints.sum()
    assert sum_reduce(other) == other.sum()


def test_reduce_max_size_res_and_empty():
    def larger(a, b):
        return max(a, b)

    max_reduce = cuda.reduce(larger)
    a = np.random.default_rng(0).standard_normal(5000)
    assert max_reduce(a, init=-np.inf) == a.max()
    assert max_reduce(a, size=100, init=-np.inf) == a[:100].max()
    res = cuda.device_array(1)
    assert max_reduce(a, res=res, init=-np.inf) is None
    assert res.copy_to_host()[0] == a.max()
    assert max_reduce(np.zeros(0), init=3.0) == 3.0
    assert cuda_poly.nin == 2
