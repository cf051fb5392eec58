"""Device memory on the GPU: DeviceNDArray fields, copies, slicing into views,
streams and events, pinned and mapped memory, __cuda_array_interface__ (CuPy, PyTorch)."""

import gc

import numpy as np
import pytest

from mahou import cuda

pytestmark = pytest.mark.gpu


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def add_one_2d(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] += 1


def test_device_array_fields():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    d = cuda.to_device(a)
    assert isinstance(d, cuda.DeviceNDArray)
    assert d.shape == (4, 6) and d.strides == a.strides and d.dtype == np.float32
    assert d.size == 24 and d.ndim == 2 and d.nbytes == 96 and len(d) == 4
    assert d.is_c_contiguous() and not d.is_f_contiguous()
    cai = d.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (4, 6) and cai["typestr"] == "<f4"
    assert cai["data"][0] == d.device_ctypes_pointer.value and cai["strides"] is None
    np.testing.assert_array_equal(np.asarray(d), a)


def test_device_array_constructors():
    d = cuda.device_array((3, 5), dtype=np.int16, order="F")
    assert d.is_f_contiguous() and d.strides == (2, 6)
    like = cuda.device_array_like(np.zeros((2, 7), dtype=np.complex64))
    assert like.shape == (2, 7) and like.dtype == np.complex64
    empty = cuda.device_array(0)
    assert empty.size == 0 and empty.copy_to_host().shape == (0,)
    add_one[1, 1](empty)
    scalar = cuda.to_device(np.float64(3.5))
    assert scalar.shape == () and scalar.copy_to_host()[()] == 3.5


def test_copy_to_host_into_given_array():
    a = np.arange(10, dtype=np.int32)
    d = cuda.to_device(a)
    add_one[1, 32](d)
    out = np.empty(10, dtype=np.int32)
    got = d.copy_to_host(out)
    assert got is out
    np.testing.assert_array_equal(out, a + 1)
    with pytest.raises(ValueError):
        d.copy_to_host(np.empty(9, dtype=np.int32))


def test_copy_to_device_and_setitem():
    d = cuda.device_array(8, dtype=np.float64)
    d.copy_to_device(np.arange(8.0))
    d[2:4] = np.array([-1.0, -2.0])
    d[7] = 70
    np.testing.assert_array_equal(d.copy_to_host(), [0, 1, -1, -2, 4, 5, 6, 70])
    other = cuda.device_array(8, dtype=np.float64)
    other.copy_to_device(d)
    np.testing.assert_array_equal(other.copy_to_host(), d.copy_to_host())
    with pytest.raises(TypeError):
        d.copy_to_device(np.zeros(8, dtype=np.float32))


def test_slices_are_views_that_keep_the_parent_alive():
    a = np.arange(20, dtype=np.float64)
    d = cuda.to_device(a)
    view = d[5:15]
    del d
    gc.collect()
    add_one[1, 32](view)
    np.testing.assert_array_equal(view.copy_to_host(), a[5:15] + 1)
    parent = view._owner
    np.testing.assert_array_equal(parent.copy_to_host()[:5], a[:5])
    np.testing.assert_array_equal(parent.copy_to_host()[5:15], a[5:15] + 1)


def test_strided_and_2d_slices():
    a = np.arange(48, dtype=np.int64).reshape(6, 8)
    d = cuda.to_device(a)
    strided = d[::2]
    assert strided.shape == (3, 8) and not strided.is_c_contiguous()
    add_one_2d[(1, 1), (8, 8)](strided)
    cols = d[1:, 1::3]
    add_one_2d[(1, 1), (8, 8)](cols)
    expected = a.copy()
    expected[::2] += 1
    expected[1:, 1::3] += 1
    np.testing.assert_array_equal(d.copy_to_host(), expected)
    np.testing.assert_array_equal(cols.copy_to_host(), expected[1:, 1::3])
    assert d[2, 3] == expected[2, 3]
    np.testing.assert_array_equal(d[-1].copy_to_host(), expected[-1])
    np.testing.assert_array_equal(d[::-1, 2].copy_to_host(), expected[::-1, 2])
    np.testing.assert_array_equal(d.T.copy_to_host(), expected.T)
    np.testing.assert_array_equal(d.reshape(8, 6).copy_to_host(), expected.reshape(8, 6))
    with pytest.raises(NotImplementedError):
        d[[0, 1]]


def test_memory_is_freed_when_collected():
    ctx = cuda.current_context()
    gc.collect()
    before = ctx.get_memory_info().free
    arrays = [cuda.device_array(256 * 2**20, dtype=np.uint8) for _ in range(4)]
    during = ctx.get_memory_info().free
    assert before - during >= 900 * 2**20
    del arrays
    gc.collect()
    after = ctx.get_memory_info().free
    assert after >= before - 64 * 2**20


def test_streams_and_async_copies():
    s = cuda.stream()
    a = np.arange(100_000, dtype=np.float32)
    d = cuda.to_device(a, stream=s)
    add_one[(a.size + 255) // 256, 256, s](d)
    out = cuda.pinned_array(a.shape, dtype=np.float32)
    d.copy_to_host(out, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, a + 1)
    with s.auto_synchronize():
        add_one[(a.size + 255) // 256, 256, s](d)
    np.testing.assert_array_equal(d.copy_to_host(), a + 2)
    assert cuda.default_stream() is not None
    cuda.synchronize()


def test_events_time_a_kernel():
    d = cuda.to_device(np.zeros(1 << 22, dtype=np.float32))
    start, end = cuda.event(), cuda.event()
    s = cuda.stream()
    start.record(s)
    add_one[(d.size + 255) // 256, 256, s](d)
    end.record(s)
    end.synchronize()
    ms = start.elapsed_time(end)
    assert ms > 0
    assert cuda.event_elapsed_time(start, end) == ms
    assert end.query()
    other = cuda.stream()
    end.wait(other)
    other.synchronize()


def test_dynamic_shared_bytes_argument_and_stream_none():
    d = cuda.to_device(np.zeros(4, dtype=np.float32))
    add_one[1, 4, None, 0](d)
    add_one[1, 4, 0](d)
    np.testing.assert_array_equal(d.copy_to_host(), 2)


def test_pinned_and_mapped_arrays():
    p = cuda.pinned_array((4, 4), dtype=np.float64)
    p[:] = 3
    d = cuda.to_device(p)
    add_one_2d[(1, 1), (4, 4)](d)
    np.testing.assert_array_equal(d.copy_to_host(), 4)
    m = cuda.mapped_array(16, dtype=np.int32)
    m[:] = np.arange(16)
    add_one[1, 16](m)  # the kernel works on the mapped host memory in place
    cuda.synchronize()
    np.testing.assert_array_equal(m, np.arange(16) + 1)


def test_devices():
    dev = cuda.get_current_device()
    assert dev.compute_capability >= (3, 0)
    assert isinstance(dev.name, bytes)
    assert dev.MULTIPROCESSOR_COUNT > 0
    assert len(cuda.gpus) >= 1
    assert cuda.detect()


def test_cupy_interop():
    cp = pytest.importorskip("cupy")
    x = cp.arange(10, dtype=cp.float32)
    add_one[1, 32](x)  # CuPy array passed directly
    np.testing.assert_array_equal(cp.asnumpy(x), np.arange(10, dtype=np.float32) + 1)
    view = cuda.as_cuda_array(x)
    assert cuda.is_cuda_array(x) and view.shape == (10,)
    d = cuda.to_device(np.arange(6, dtype=np.int64).reshape(2, 3))
    y = cp.asarray(d)  # our __cuda_array_interface__ consumed by CuPy
    np.testing.assert_array_equal(cp.asnumpy(y), np.arange(6).reshape(2, 3))
    z = cp.arange(24, dtype=cp.float64).reshape(4, 6)[:, ::2]  # strided CuPy view
    add_one_2d[(1, 1), (8, 8)](z)
    expected = np.arange(24.0).reshape(4, 6)[:, ::2] + 1
    np.testing.assert_array_equal(cp.asnumpy(z), expected)


def test_torch_interop():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    t = torch.arange(10, dtype=torch.float32, device="cuda")
    add_one[1, 32](t)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(t.cpu().numpy(), np.arange(10, dtype=np.float32) + 1)
