"""Several GPUs: cuda.gpus, `with cuda.gpus[i]:`, select_device, a context per device,
device arrays made on the current device, kernels loaded and launched per device, and
copies between devices. `make test` runs it on the emulator with two devices
(MAHOU_CUDASIM_DEVICES=2); on a machine with several GPUs it runs on them."""

import numpy as np
import pytest

from mahou import cuda

pytestmark = pytest.mark.gpu


@pytest.fixture(autouse=True)
def two_devices():
    if len(cuda.gpus) < 2:
        pytest.skip("needs two CUDA devices (the emulator gives them with MAHOU_CUDASIM_DEVICES=2)")
    start = cuda.get_current_device().id
    yield
    cuda.select_device(start)


@cuda.jit
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def test_device_list_and_attributes():
    ids = [d.id for d in cuda.gpus]
    assert ids == list(range(len(cuda.gpus)))
    for d in cuda.gpus:
        assert d.compute_capability >= (3, 5)
        assert d.MAX_THREADS_PER_BLOCK >= 256
        assert cuda.current_context(d.id).get_memory_info().total > 0
    assert [d.id for d in cuda.list_devices()] == ids


def test_with_gpus_selects_and_restores():
    cuda.select_device(0)
    with cuda.gpus[1] as dev:
        assert dev.id == 1 and cuda.get_current_device().id == 1
        with cuda.gpus[0]:
            assert cuda.get_current_device().id == 0
        assert cuda.get_current_device().id == 1
    assert cuda.get_current_device().id == 0
    assert cuda.select_device(1).id == 1 and cuda.gpus.current.id == 1


def test_arrays_and_kernels_on_each_device():
    x = np.linspace(-1, 1, 1000)
    y = np.arange(1000.0)
    results = {}
    for dev in (0, 1):
        with cuda.gpus[dev]:
            dx, dy = cuda.to_device(x), cuda.to_device(y)
            out = cuda.device_array_like(x)
            assert out._device_id == dx._device_id == dev
            axpy[8, 128](out, 2.0 + dev, dx, dy)
            results[dev] = out.copy_to_host()
            cuda.synchronize()
    for dev in (0, 1):
        np.testing.assert_array_equal(results[dev], (2.0 + dev) * x + y)


def test_memory_is_accounted_per_device():
    with cuda.gpus[1]:
        before1 = cuda.current_context().get_memory_info().free
    with cuda.gpus[0]:
        before0 = cuda.current_context().get_memory_info().free
        big = cuda.device_array(1 << 22, dtype=np.uint8)  # 4 MiB on device 0
        after0 = cuda.current_context().get_memory_info().free
    with cuda.gpus[1]:
        after1 = cuda.current_context().get_memory_info().free
    assert before0 - after0 >= 1 << 22
    assert abs(after1 - before1) < 1 << 22
    del big


def test_copies_between_devices():
    a = np.arange(64, dtype=np.float32) * 1.5
    with cuda.gpus[0]:
        d0 = cuda.to_device(a)
    with cuda.gpus[1]:
        d1 = cuda.device_array_like(a)
        d1.copy_to_device(d0)          # device 0 → device 1
        back = d1.copy_to_host()
        axpy[1, 64](d1, -1.0, cuda.to_device(np.zeros(64, np.float32)), d1)  # uses it on device 1
        twice = d1.copy_to_host()
    np.testing.assert_array_equal(back, a)
    np.testing.assert_array_equal(twice, a)
    with cuda.gpus[0]:
        d0.copy_to_device(d1)          # and back to device 0
        np.testing.assert_array_equal(d0.copy_to_host(), a)
