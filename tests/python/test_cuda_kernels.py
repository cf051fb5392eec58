"""CUDA kernels on the GPU: the seed example, grid indexing in 1-3 dimensions,
grid-stride loops, scalars and dtypes, device vs NumPy arrays, launch errors."""

import numpy as np
import pytest

from mahou import cuda

pytestmark = pytest.mark.gpu


@cuda.jit
def gpu_add(a, b, result):
    idx = cuda.grid(1)
    if idx < a.size:
        result[idx] = a[idx] + b[idx]


def test_seed_example():
    a = np.array([1, 2, 3, 4, 5], dtype=np.float32)
    b = np.array([10, 20, 30, 40, 50], dtype=np.float32)
    result = np.zeros(5, dtype=np.float32)
    d_a = cuda.to_device(a)
    d_b = cuda.to_device(b)
    d_result = cuda.to_device(result)
    gpu_add[1, 5](d_a, d_b, d_result)
    result = d_result.copy_to_host()
    np.testing.assert_array_equal(result, np.array([11, 22, 33, 44, 55], dtype=np.float32))
    assert result.dtype == np.float32


def test_many_blocks():
    n = 1_000_003
    a = np.random.default_rng(0).random(n).astype(np.float32)
    b = np.arange(n, dtype=np.float32)
    out = cuda.device_array_like(a)
    threads = 256
    gpu_add[(n + threads - 1) // threads, threads](cuda.to_device(a), cuda.to_device(b), out)
    np.testing.assert_array_equal(out.copy_to_host(), a + b)


def test_numpy_arrays_are_copied_in_and_out():
    a = np.arange(10, dtype=np.float64)
    b = np.ones(10)
    out = np.zeros(10)
    gpu_add[1, 32](a, b, out)
    np.testing.assert_array_equal(out, a + 1)


def test_mixed_device_and_numpy_arguments():
    a = np.arange(10, dtype=np.int64)
    d_b = cuda.to_device(np.full(10, 7, dtype=np.int64))
    d_out = cuda.device_array(10, dtype=np.int64)
    gpu_add[1, 16](a, d_b, d_out)
    np.testing.assert_array_equal(d_out.copy_to_host(), a + 7)


@cuda.jit
def index_2d(out):
    x, y = cuda.grid(2)
    if x < out.shape[0] and y < out.shape[1]:
        out[x, y] = x * 1000 + y


def test_grid_2d():
    out = cuda.device_array((37, 53), dtype=np.int64)
    index_2d[(5, 7), (8, 8)](out)
    expected = np.arange(37)[:, None] * 1000 + np.arange(53)[None, :]
    np.testing.assert_array_equal(out.copy_to_host(), expected)


@cuda.jit
def index_3d(out):
    x = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    y = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    z = cuda.blockIdx.z * cuda.blockDim.z + cuda.threadIdx.z
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = x * 10000 + y * 100 + z


@cuda.jit
def grid_3d(out):
    x, y, z = cuda.grid(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = x * 10000 + y * 100 + z


@pytest.mark.parametrize("kernel", [index_3d, grid_3d])
def test_grid_3d(kernel):
    shape = (9, 10, 11)
    out = cuda.device_array(shape, dtype=np.int32)
    kernel[(3, 3, 3), (4, 4, 4)](out)
    x, y, z = np.indices(shape)
    np.testing.assert_array_equal(out.copy_to_host(), x * 10000 + y * 100 + z)


@cuda.jit
def block_and_grid_dims(out):
    i = cuda.grid(1)
    if i == 0:
        out[0] = cuda.gridDim.x
        out[1] = cuda.blockDim.x
        out[2] = cuda.gridsize(1)
        out[3] = cuda.warpsize


def test_dimensions():
    out = np.zeros(4, dtype=np.int64)
    block_and_grid_dims[3, 64](out)
    np.testing.assert_array_equal(out, [3, 64, 192, 32])


@cuda.jit
def grid_stride_scale(a, factor):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, a.shape[0], stride):
        a[i] = a[i] * factor


def test_gridsize_loop():
    a = np.arange(100_000, dtype=np.float64)
    d = cuda.to_device(a)
    grid_stride_scale[4, 128](d, 2.5)
    np.testing.assert_array_equal(d.copy_to_host(), a * 2.5)


@cuda.jit
def grid_stride_2d(a):
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    for x in range(x0, a.shape[0], sx):
        for y in range(y0, a.shape[1], sy):
            a[x, y] += 1


def test_gridsize_loop_2d():
    d = cuda.to_device(np.zeros((100, 70), dtype=np.int32))
    grid_stride_2d[(2, 2), (8, 8)](d)
    np.testing.assert_array_equal(d.copy_to_host(), np.ones((100, 70), dtype=np.int32))


@cuda.jit
def axpb(x, alpha, beta, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * alpha + beta


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.float32, np.float64,
                                   np.int16, np.uint8])
def test_scalars_and_dtypes(dtype):
    x = np.arange(50).astype(dtype)
    out = np.zeros_like(x)
    axpb[2, 32](x, dtype(3), dtype(2), out)
    np.testing.assert_array_equal(out, (x * dtype(3) + dtype(2)).astype(dtype))


def test_python_scalars():
    x = np.arange(8, dtype=np.float64)
    out = np.zeros_like(x)
    axpb[1, 8](x, 2, 0.5, out)  # int and float Python scalars
    np.testing.assert_array_equal(out, x * 2 + 0.5)


@cuda.jit
def flag_kernel(out, flag):
    i = cuda.grid(1)
    if i < out.size:
        if flag:
            out[i] = 1
        else:
            out[i] = -1


def test_bool_scalar():
    out = np.zeros(4, dtype=np.int64)
    flag_kernel[1, 4](out, True)
    np.testing.assert_array_equal(out, 1)
    flag_kernel[1, 4](out, False)
    np.testing.assert_array_equal(out, -1)


@cuda.jit
def complex_scale(z, w):
    i = cuda.grid(1)
    if i < z.size:
        z[i] = z[i] * w


def test_complex():
    z = (np.arange(6) + 1j * np.arange(6)).astype(np.complex128)
    d = cuda.to_device(z)
    complex_scale[1, 8](d, 2 - 1j)
    np.testing.assert_allclose(d.copy_to_host(), z * (2 - 1j))


def test_eager_signature_converts_arguments():
    @cuda.jit("void(float32[:], float32, float32, float32[:])")
    def axpb32(x, alpha, beta, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * alpha + beta

    x = np.arange(16, dtype=np.float32)
    out = np.zeros_like(x)
    axpb32[1, 16](x, 2, 1.5, out)  # Python int and float convert to float32
    np.testing.assert_array_equal(out, x * 2 + 1.5)
    with pytest.raises(TypeError):
        axpb32[1, 16](np.arange(16.0), 2, 1.5, out)  # float64 array: no matching overload


def test_overloads_per_argument_types():
    @cuda.jit
    def copy(src, dst):
        i = cuda.grid(1)
        if i < src.size:
            dst[i] = src[i]

    for dtype in (np.int32, np.float64):
        src = np.arange(10).astype(dtype)
        dst = np.zeros_like(src)
        copy[1, 16](src, dst)
        np.testing.assert_array_equal(dst, src)
    assert len(copy.signatures) == 2


def test_fortran_and_strided_arrays():
    @cuda.jit
    def add_one_2d(a):
        x, y = cuda.grid(2)
        if x < a.shape[0] and y < a.shape[1]:
            a[x, y] += 1

    f = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    d = cuda.to_device(f)
    add_one_2d[(1, 1), (4, 4)](d)
    np.testing.assert_array_equal(d.copy_to_host(), f + 1)
    host = np.arange(40.0).reshape(5, 8)
    view = host[:, ::2]  # strided NumPy view: its memory span is copied
    add_one_2d[(1, 1), (8, 8)](view)
    expected = np.arange(40.0).reshape(5, 8)
    expected[:, ::2] += 1
    np.testing.assert_array_equal(host, expected)


def test_wrong_argument_types_raise_type_error():
    with pytest.raises(TypeError):
        gpu_add[1, 5]([1.0], [2.0], [3.0])
    with pytest.raises(TypeError):
        gpu_add[1, 5](np.zeros(5), np.zeros(5))
    with pytest.raises(TypeError):
        gpu_add[1, 5](np.zeros(5), "text", np.zeros(5))


def test_invalid_launch_configuration_raises_cuda_error():
    a = cuda.to_device(np.zeros(4, dtype=np.float32))
    with pytest.raises(cuda.CudaError, match="cuLaunchKernel"):
        gpu_add[1, 2048](a, a, a)  # more threads per block than the device allows
    with pytest.raises(cuda.CudaError, match="CUDA_ERROR_INVALID_VALUE"):
        gpu_add[0, 32](a, a, a)
    gpu_add[1, 4](a, a, a)  # the context is still usable
    cuda.synchronize()


def test_many_launches_reuse_the_configuration():
    d = cuda.to_device(np.zeros(256, dtype=np.float32))
    one = cuda.to_device(np.ones(256, dtype=np.float32))
    launch = gpu_add[1, 256]
    for _ in range(100):
        launch(d, one, d)
    np.testing.assert_array_equal(d.copy_to_host(), 100)
