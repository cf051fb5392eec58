"""Memory API of mahou.cuda beyond device arrays: managed_array, the pinned() and
mapped() context managers, __cuda_array_interface__ v3 stream synchronisation, and
DLPack both ways (zero-copy exchange with PyTorch, CuPy and JAX)."""

import numpy as np
import pytest

from mahou import cuda

pytestmark = pytest.mark.gpu


@cuda.jit
def twice(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2


def test_managed_array_is_used_in_place():
    m = cuda.managed_array(100, dtype=np.float32)
    assert isinstance(m, np.ndarray) and isinstance(m, cuda.ManagedNDArray)
    m[:] = np.arange(100)
    twice[1, 128](m)
    cuda.synchronize()
    np.testing.assert_array_equal(m, np.arange(100) * 2)
    assert m.__cuda_array_interface__["data"][0] == m.__array_interface__["data"][0]
    grid = cuda.managed_array((3, 4), order="F")
    grid[:] = 1
    assert grid.flags["F_CONTIGUOUS"] and grid.sum() == 12
    view = m[::2]  # a view keeps working as managed memory
    twice[1, 64](view)
    cuda.synchronize()
    assert m[2] == 8 and m[1] == 2


def test_pinned_context_manager_copies():
    a = np.arange(1000, dtype=np.float64)
    with cuda.pinned(a):
        d = cuda.to_device(a)
        twice[8, 128](d)
        d.copy_to_host(a)
    np.testing.assert_array_equal(a, np.arange(1000) * 2)
    with cuda.pinned(a, a[::3]):  # overlapping memory is pinned once
        pass
    with cuda.pinned(np.zeros(0)):
        pass


def test_mapped_context_manager_gives_device_views():
    a = np.arange(64, dtype=np.int32)
    b = np.ones(64, dtype=np.int32)
    with cuda.mapped(a) as d_a:
        assert isinstance(d_a, cuda.DeviceNDArray) and d_a.shape == a.shape
        twice[1, 64](d_a)
        cuda.synchronize()
    np.testing.assert_array_equal(a, np.arange(64) * 2)
    with cuda.mapped(a, b) as (d_a, d_b):
        twice[1, 64](d_b)
        cuda.synchronize()
    assert (b == 2).all()
    with pytest.raises(TypeError):
        with cuda.mapped([1, 2, 3]):
            pass


def test_device_array_like_and_to_device_without_copy():
    a = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    d = cuda.device_array_like(a)
    assert d.shape == a.shape and d.dtype == a.dtype and d.is_f_contiguous()
    e = cuda.device_array_like(cuda.to_device(np.zeros((2, 5), np.int16)))
    assert e.shape == (2, 5) and e.dtype == np.int16
    f = cuda.to_device(a, copy=False)
    assert f.shape == a.shape
    f.copy_to_device(a)
    np.testing.assert_array_equal(f.copy_to_host(), a)


def test_device_array_methods():
    a = np.arange(24, dtype=np.float32)
    d = cuda.to_device(a)
    parts = d.split(10)
    assert [p.shape for p in parts] == [(10,), (10,), (4,)]
    np.testing.assert_array_equal(parts[2].copy_to_host(), a[20:])
    r = d.reshape(4, 6)
    assert r.is_c_contiguous() and not r.T.is_c_contiguous() and r.T.is_f_contiguous()
    np.testing.assert_array_equal(r.ravel().copy_to_host(), a)
    np.testing.assert_array_equal(d.view(np.int32).copy_to_host(), a.view(np.int32))
    out = np.empty(24, np.float32)
    s = cuda.stream()
    d.copy_to_host(out, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, a)


class Producer:
    """An array of another library: memory, an interface, and the stream it works on."""

    def __init__(self, base, stream):
        self.base = base
        self.stream = stream

    @property
    def __cuda_array_interface__(self):
        cai = dict(self.base.__cuda_array_interface__)
        cai["stream"] = int(self.stream)
        return cai


def test_cuda_array_interface_stream_is_synchronised():
    s = cuda.stream()
    base = cuda.to_device(np.arange(8, dtype=np.float64), stream=s)
    twice[1, 8, s](base)  # queued on the producer's stream
    twice[1, 8](Producer(base, s))  # the launch waits for the producer's stream first
    cuda.synchronize()
    np.testing.assert_array_equal(base.copy_to_host(), np.arange(8) * 4)
    cai = base.__cuda_array_interface__
    assert cai["version"] == 3 and cai["stream"] == int(s)

    class Bad(Producer):
        @property
        def __cuda_array_interface__(self):
            cai = dict(self.base.__cuda_array_interface__)
            cai["stream"] = 0
            return cai

    with pytest.raises(TypeError, match="stream 0"):
        twice[1, 8](Bad(base, s))


def test_dlpack_round_trip():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = cuda.to_device(a)
    assert d.__dlpack_device__() == (2, d._device_id)
    view = cuda.from_dlpack(d)  # zero copy: the same memory
    assert view._data_ptr == d._data_ptr and view.shape == (3, 4) and view.dtype == np.float32
    twice[1, 16](view.reshape(12))
    np.testing.assert_array_equal(d.copy_to_host(), a * 2)
    t = cuda.from_dlpack(d.T)  # strided
    np.testing.assert_array_equal(t.copy_to_host(), (a * 2).T)
    capsule = d.__dlpack__()
    back = cuda.from_dlpack(capsule)
    del d, view, t
    np.testing.assert_array_equal(back.copy_to_host(), a * 2)  # the capsule kept it alive
    with pytest.raises(TypeError, match="not consumed|dltensor"):
        cuda.from_dlpack(capsule)  # a capsule is consumed once
    for dtype in (np.bool_, np.int8, np.uint16, np.float16, np.complex128):
        x = cuda.to_device(np.ones(3, dtype))
        assert cuda.from_dlpack(x).dtype == np.dtype(dtype)


def test_dlpack_refuses_host_tensors():
    with pytest.raises(TypeError, match="not in CUDA device memory"):
        cuda.from_dlpack(np.arange(3))


def test_dlpack_with_torch_and_cupy():
    torch = pytest.importorskip("torch")
    if cuda.is_available() and not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    t = torch.arange(10, dtype=torch.float32, device="cuda")
    d = cuda.from_dlpack(t)
    twice[1, 16](d)
    torch.cuda.synchronize()
    assert t.cpu().tolist() == [2.0 * i for i in range(10)]
    back = torch.from_dlpack(cuda.to_device(np.arange(4, dtype=np.int64)))
    assert back.device.type == "cuda" and back.cpu().tolist() == [0, 1, 2, 3]
    cp = pytest.importorskip("cupy")
    c = cp.from_dlpack(cuda.to_device(np.arange(5.0)))
    assert c.get().tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
