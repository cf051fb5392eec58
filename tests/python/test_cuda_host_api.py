"""numba-cuda's host API rows: pinned_array_like, mapped_array_like, cuda.compile,
compile_all and compile_for_current_device, profile_start/profile_stop/profiling,
require_context, external_stream, close and Device.reset; each used with a kernel and its
result checked against NumPy."""

import numpy as np
import pytest

import mahou
from mahou import cuda
from mahou.errors import UnsupportedError

pytestmark = pytest.mark.gpu


@cuda.jit
def twice(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = 2 * a[i]


@cuda.jit
def twice_2d(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] *= 2


@pytest.mark.parametrize("make", [cuda.pinned_array_like, cuda.mapped_array_like])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128])
def test_pinned_and_mapped_array_like(make, order, dtype):
    base = np.asarray(np.arange(12).reshape(3, 4), dtype=dtype, order=order)
    like = make(base)
    assert like.shape == base.shape and like.dtype == base.dtype and like.strides == base.strides
    like[...] = base
    twice_2d[(1, 1), (4, 4)](like)
    np.testing.assert_array_equal(like, 2 * base)


def test_array_like_of_a_non_contiguous_view_is_c_ordered():
    view = np.arange(20.0)[::2]
    for make in (cuda.pinned_array_like, cuda.mapped_array_like):
        like = make(view)
        assert like.shape == (10,) and like.flags["C_CONTIGUOUS"]
        like[:] = view
        out = np.zeros(10)
        twice[1, 32](like, out)
        np.testing.assert_array_equal(out, 2 * view)
    empty = cuda.pinned_array_like(np.zeros((0, 3), dtype=np.int32))
    assert empty.shape == (0, 3) and empty.dtype == np.int32
    with pytest.raises(TypeError):
        cuda.pinned_array_like([1, 2, 3])


def add_one(x):
    return x + 1


def test_compile_a_kernel_and_a_device_function():
    ptx, resty = cuda.compile(twice.py_func, "void(float64[::1], float64[::1])", device=False)
    assert ".entry" in ptx and resty == mahou.types.void
    ptx, resty = cuda.compile(add_one, "float64(float64)", abi="numba")
    assert ".visible .func" in ptx and resty == mahou.types.float64
    ptx, resty = cuda.compile(add_one, (mahou.types.int32,), abi="numba", cc=(8, 0))
    assert ".target sm_80" in ptx and resty == mahou.types.int64
    ptx, _ = cuda.compile_for_current_device(twice, "void(int64[::1], int64[::1])", device=False)
    cc = cuda.get_current_device().compute_capability
    assert f".target sm_{cc[0]}{cc[1]}" in ptx


def test_compile_refuses_what_it_cannot_give():
    with pytest.raises(UnsupportedError, match="ltoir"):
        cuda.compile(add_one, "float64(float64)", abi="numba", output="ltoir")
    with pytest.raises(NotImplementedError):
        cuda.compile(add_one, "float64(float64)", abi="fortran")


def test_profiling_wraps_kernels():
    a = np.arange(50.0)
    out = np.zeros(50)
    cuda.profile_start()
    twice[2, 32](a, out)
    cuda.profile_stop()
    np.testing.assert_array_equal(out, 2 * a)
    with cuda.profiling():
        twice[2, 32](out, a)
    np.testing.assert_array_equal(a, 4 * np.arange(50.0))


def test_external_stream_launches_and_copies():
    owner = cuda.stream()
    ext = cuda.external_stream(owner.handle.value if hasattr(owner.handle, "value") else owner.handle)
    a = np.arange(64, dtype=np.int64)
    d_a = cuda.to_device(a, stream=ext)
    d_out = cuda.device_array_like(a, stream=ext)
    twice[2, 32, ext](d_a, d_out)
    ext.synchronize()
    np.testing.assert_array_equal(d_out.copy_to_host(stream=ext), 2 * a)


def test_close_then_use_again():
    a = np.arange(10.0)
    out = np.zeros(10)
    twice[1, 32](a, out)
    cuda.close()
    twice[1, 32](out, a)  # the context is usable after close (mahou keeps it alive)
    np.testing.assert_array_equal(a, 4 * np.arange(10.0))


def test_compile_all():
    codes, resty = cuda.compile_all(twice.py_func, "void(float64[::1], float64[::1])", device=False, output="ptx")
    assert len(codes) == 1 and ".entry" in codes[0] and resty == mahou.types.void
    with pytest.raises(UnsupportedError, match="ltoir"):
        cuda.compile_all(twice.py_func, "void(float64[::1], float64[::1])", device=False)  # LTO-IR by default
    with pytest.raises(NotImplementedError):
        cuda.compile_all(add_one, "float64(float64)", output="cubin")


def test_require_context():
    calls = []

    @cuda.require_context
    def launch(n):
        """Doubles n values."""
        a = np.arange(float(n))
        out = np.zeros(n)
        twice[1, 32](a, out)
        calls.append(n)
        return out

    np.testing.assert_array_equal(launch(5), 2 * np.arange(5.0))
    assert calls == [5] and launch.__name__ == "launch" and launch.__doc__ == "Doubles n values."


def test_device_reset_synchronises_and_the_device_stays_usable():
    d = cuda.to_device(np.arange(8.0))
    out = cuda.device_array(8)
    twice[1, 32](d, out)
    cuda.get_current_device().reset()
    np.testing.assert_array_equal(out.copy_to_host(), 2 * np.arange(8.0))
    twice[1, 32](out, d)  # mahou keeps the primary context: allocations stay valid
    np.testing.assert_array_equal(d.copy_to_host(), 4 * np.arange(8.0))
