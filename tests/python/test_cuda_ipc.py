"""CUDA IPC handles of device arrays (numba-cuda's DeviceNDArray.get_ipc_handle,
IpcArrayHandle, IpcHandle, cuda.open_ipc_array). Without a device: handles pickle with
their fields and refuse misuse. Under the CPU emulator (a fresh process with
MAHOU_ENABLE_CUDASIM=1): exporting records the allocation, offset and size that NumPy's
layout of the same view gives, and opening in another process is a CudaError saying that
IPC needs a GPU; peer access is the emulated driver's (every device reaches the others).
On a GPU: a spawned process opens the parent's array, reads it and writes it, and the
parent sees the writes; views with an offset, raw handle bytes, the staged copy through
the exporting device, peer access as numba-cuda answers it, and the errors of misuse."""

import multiprocessing
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mahou import cuda
from mahou.errors import CudaError

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATED = os.environ.get("MAHOU_ENABLE_CUDASIM", "0") not in ("", "0")
RAW = bytes(range(7, 71))  # 64 bytes standing for a CUipcMemHandle


# ---------------------------------------------------------------- no device needed

def test_handle_pickles_with_its_fields_and_without_its_base():
    info = {"pci_bus_id": 3, "pci_device_id": 0}
    for raw in (RAW, tuple(RAW), bytearray(RAW)):
        h = cuda.IpcHandle(object(), raw, 80, info, offset=24)
        r = pickle.loads(pickle.dumps(h))
        assert r.base is None and h.base is not None
        assert r.handle == h.handle and bytes(r.handle) == RAW and r.handle.reserved == RAW
        assert (r.size, r.offset, r.source_info) == (80, 24, info)


def test_array_handle_pickles_shape_strides_and_dtype():
    desc = {"shape": (3, 4), "strides": (8, 24), "dtype": np.dtype(np.float64)}
    h = cuda.IpcArrayHandle(cuda.IpcHandle(None, RAW, 96, offset=0), desc)
    r = pickle.loads(pickle.dumps(h))
    assert r._array_desc == desc and r._ipc_handle.handle.reserved == RAW
    assert r._ipc_handle.size == 96


def test_misuse_without_a_device():
    h = cuda.IpcHandle(None, RAW, 80)
    with pytest.raises(ValueError, match="^IpcHandle not opened$"):
        h.close()
    with pytest.raises(ValueError, match="64 bytes, not 63"):
        cuda.IpcHandle(None, RAW[:63], 80)
    with pytest.raises(TypeError, match="64 bytes"):
        cuda.IpcHandle(None, 3.5, 80)
    with pytest.raises(ValueError, match="negative"):
        cuda.IpcHandle(None, RAW, 80, offset=-8)
    # An array larger than what the handle shares is refused before anything is mapped.
    with pytest.raises(ValueError, match="spans 88 bytes; the IPC handle shares 80"):
        h.open_array(None, (11,), np.float64)
    with pytest.raises(ValueError, match="spans 152 bytes"):
        h.open_array(None, (10,), np.float64, strides=(16,))
    # Raw handle bytes record no device: no staged copy, no peer-access answer (numba-cuda's
    # errors).
    for call in (h.open_staged, lambda: h.can_access_peer(None)):
        with pytest.raises(RuntimeError, match="^IPC handle doesn't have source info$"):
            call()
    # A handle that this process exported (its pid travels with it) is not opened here.
    mine = pickle.loads(pickle.dumps(cuda.IpcHandle(None, RAW, 80, exporter=os.getpid())))
    with pytest.raises(ValueError, match="^opening IpcHandle from original process$"):
        mine.open()


# ---------------------------------------------------------------- the CPU emulator

def run_emulated(code, devices=None):
    env = dict(os.environ, MAHOU_ENABLE_CUDASIM="1",
               PYTHONPATH=os.pathsep.join([HERE] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    if devices is not None:
        env["MAHOU_CUDASIM_DEVICES"] = str(devices)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=HERE,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_emulator_exports_the_allocation_offset_and_size_numpy_gives():
    """Every view's handle names its allocation and the byte range the view spans, the
    range NumPy's layout of the same view on the host gives."""
    run_emulated("""
        import pickle
        import numpy as np
        from mahou import cuda

        def span(view, host):
            lo = hi = view.__array_interface__["data"][0]
            for n, s in zip(view.shape, view.strides):
                lo, hi = (lo + (n - 1) * s, hi) if s < 0 else (lo, hi + (n - 1) * s)
            return lo - host.__array_interface__["data"][0], hi - lo + view.itemsize

        host = np.arange(60, dtype=np.float64).reshape(6, 10)
        d = cuda.to_device(host)
        whole = d.get_ipc_handle()._ipc_handle
        assert whole.base is d and len(whole.handle.reserved) == 64
        views = [(), (slice(2, 5),), (slice(1, None), slice(3, 8)), (slice(None, None, -2),),
                 (slice(4, 1, -1), slice(9, 0, -3)), (3,), (slice(2, 3), 7), (5, slice(None, None, -1))]
        for index in views:
            v, hv = d[index], host[index]
            h = v.get_ipc_handle()
            ih = h._ipc_handle
            assert (ih.offset, ih.size) == span(hv, host), (index, ih.offset, ih.size, span(hv, host))
            assert ih.handle == whole.handle, index  # one allocation, one handle
            assert h._array_desc == {"shape": hv.shape, "strides": hv.strides, "dtype": hv.dtype}
            r = pickle.loads(pickle.dumps(h))
            assert r._array_desc == h._array_desc and r._ipc_handle.base is None
            assert (r._ipc_handle.offset, r._ipc_handle.size) == (ih.offset, ih.size)
        t = d.T  # a transposed (F-ordered) array spans the whole allocation
        assert (t.get_ipc_handle()._ipc_handle.offset, t.get_ipc_handle()._ipc_handle.size) == (0, 480)
        other = cuda.to_device(np.ones(5)).get_ipc_handle()._ipc_handle
        assert other.handle != whole.handle
        empty = cuda.device_array((0, 3)).get_ipc_handle()._ipc_handle
        assert (empty.size, empty.offset) == (0, 0)
        # Context.get_ipc_handle of DeviceNDArray.gpu_data: the allocation, or the bytes
        # a view spans (numba-cuda's MemoryPointer views), which alloc_size counts
        ctx = cuda.current_context()
        assert d.gpu_data.size == d.alloc_size == 480
        g = ctx.get_ipc_handle(d.gpu_data)
        assert (g.offset, g.size, g.handle, g.base) == (0, 480, whole.handle, d.gpu_data)
        for index in views:
            v, hv = d[index], host[index]
            g = ctx.get_ipc_handle(v.gpu_data)
            assert (g.offset, g.size, g.handle) == span(hv, host) + (whole.handle,), index
            assert v.alloc_size == g.size and v.gpu_data.device_pointer - g.offset == d.gpu_data.device_pointer
    """)


def test_emulator_refuses_to_open_and_says_that_ipc_needs_a_gpu():
    out = run_emulated("""
        import multiprocessing, pickle
        import numpy as np
        from mahou import cuda
        from mahou.errors import CudaError
        import ipc_helpers

        d = cuda.to_device(np.arange(10, dtype=np.int64))
        h = d.get_ipc_handle()
        for handle in (h, pickle.loads(pickle.dumps(h))):  # the exporter never opens its own
            try:
                handle.open()
            except ValueError as e:
                assert str(e) == "opening IpcHandle from original process"
            else:
                raise AssertionError("opened in the exporting process")
        raw = h._ipc_handle.handle.reserved
        try:
            with cuda.open_ipc_array(raw, 10, np.int64):
                pass
        except CudaError as e:
            assert "IPC handles need a GPU" in str(e) and "cuIpcOpenMemHandle" in str(e), e
        else:
            raise AssertionError("open_ipc_array opened emulator memory")
        try:
            with cuda.mapped(np.zeros(4)) as m:
                m.get_ipc_handle()
        except CudaError as e:
            print("mapped:", e)
        else:
            raise AssertionError("host memory exported")
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            err = pool.apply_async(ipc_helpers.open_error, (h,)).get(120)
            assert err[0] == "CudaError" and "IPC handles need a GPU" in err[1], err
            # An empty array shares no memory: it opens anywhere.
            e = cuda.device_array((0, 4), dtype=np.float32).get_ipc_handle()
            shape = pool.apply_async(ipc_helpers.open_empty, (e,)).get(120)
            assert shape == (0, 4), shape
        print("ok")
    """)
    assert "mapped: cuMemGetAddressRange" in out and out.rstrip().endswith("ok")


def test_emulator_peer_access_and_device_identities():
    """Context.can_access_peer is cuDeviceCanAccessPeer: on the emulator (two devices, one
    address space) every device reaches the other and none is its own peer; an IpcHandle
    answers True on its exporting device, the driver's answer elsewhere, and RuntimeError
    for a device this machine lacks. Device.from_identity finds each device by its PCI
    identity. open_staged maps through the exporting device, which the emulator refuses."""
    out = run_emulated("""
        import multiprocessing, os
        import numpy as np
        from mahou import cuda
        import ipc_helpers

        n = len(cuda.gpus)
        assert n == 2, n
        ids = [cuda.gpus[i].get_device_identity() for i in range(n)]
        assert ids[0] != ids[1], ids
        for i in range(n):
            assert cuda.Device.from_identity(ids[i]).id == i
            ctx = cuda.current_context(i)
            for j in range(n):
                assert ctx.can_access_peer(j) is (i != j), (i, j)
        try:
            cuda.Device.from_identity({"pci_bus_id": 99, "pci_device_id": 0})
        except RuntimeError as e:
            assert "No device of" in str(e)
        else:
            raise AssertionError("found a device that is not there")
        try:
            cuda.current_context(0).can_access_peer(2)
        except Exception as e:
            assert "invalid CUDA device 2" in str(e), e
        else:
            raise AssertionError("a device that is not there")
        with cuda.gpus[1]:
            d = cuda.to_device(np.arange(6.0))
        h = d.get_ipc_handle()._ipc_handle
        assert h.source_info == ids[1]
        assert h.can_access_peer(cuda.current_context(1)) is True   # its own device
        assert h.can_access_peer(cuda.current_context(0)) is True   # the emulator's peer access
        far = cuda.IpcHandle(None, bytes(64), 8, {"pci_bus_id": 7, "pci_device_id": 3})
        try:
            far.can_access_peer(cuda.current_context(0))
        except RuntimeError as e:
            assert "No device of" in str(e)
        else:
            raise AssertionError("peer access to a device that is not there")
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            err = pool.apply_async(ipc_helpers.open_error, (d.get_ipc_handle(),)).get(120)
            assert err[0] == "CudaError" and "IPC handles need a GPU" in err[1], err
            err = pool.apply_async(ipc_helpers.staged_error, (d.get_ipc_handle(),)).get(120)
            assert err[0] == "CudaError" and "IPC handles need a GPU" in err[1], err
        print("ok")
    """, devices=2)
    assert out.rstrip().endswith("ok")


# ---------------------------------------------------------------- a GPU

gpu_only = pytest.mark.skipif(EMULATED, reason="CUDA IPC needs a GPU (the emulator refuses to open)")


@pytest.fixture(scope="module")
def worker():
    """One spawned process that opens the handles (its own CUDA context, as another
    program's): worker(fn, *args) runs ipc_helpers.fn there."""
    import ipc_helpers

    pool = multiprocessing.get_context("spawn").Pool(1)
    yield lambda name, *args: pool.apply_async(getattr(ipc_helpers, name), args).get(120)
    pool.terminate()
    pool.join()


@pytest.mark.gpu
def test_the_childs_kernel_writes_views_in_place():
    """The kernel the child runs (here, on the emulator too, so its PTX is assembled)."""
    import ipc_helpers

    a = np.arange(20, dtype=np.float64)
    d = cuda.to_device(a)
    ipc_helpers._negate_plus.forall(8)(d[3:19:2], 1.5)
    expect = a.copy()
    expect[3:19:2] = -expect[3:19:2] + 1.5
    np.testing.assert_array_equal(d.copy_to_host(), expect)


@pytest.mark.gpu
@gpu_only
@pytest.mark.parametrize("pickled", [False, True])
def test_the_child_reads_and_writes_and_the_parent_sees_it(worker, pickled):
    a = np.arange(1000, dtype=np.float64) * 0.5
    d = cuda.to_device(a)
    h = d.get_ipc_handle()
    if pickled:  # what a multiprocessing queue or pipe sends
        h = pickle.loads(pickle.dumps(h))
    before, after = worker("read_then_write", h, 3.0)
    np.testing.assert_array_equal(before, a)
    np.testing.assert_array_equal(after, -a + 3.0)
    np.testing.assert_array_equal(d.copy_to_host(), -a + 3.0)


@pytest.mark.gpu
@gpu_only
@pytest.mark.parametrize("index", [(slice(10, 70, 3),), (slice(None, None, -1),), (slice(5, 6),),
                                   (slice(1, 5), slice(2, 7)), (slice(4, 0, -2), slice(None, None, 3)),
                                   "T"], ids=str)
def test_a_view_with_an_offset_shares_its_elements_only(worker, index):
    host = np.arange(96, dtype=np.int32)
    if index == "T" or len(index) == 2:
        host = host.reshape(8, 12)
    d = cuda.to_device(host)
    view = d.T if index == "T" else d[index]
    expect = host.copy()
    hv = expect.T if index == "T" else expect[index]
    before, after = worker("read_then_write", view.get_ipc_handle(), 1000)
    np.testing.assert_array_equal(before, hv)
    hv[...] = -hv + 1000  # the child's writes, on the host copy
    np.testing.assert_array_equal(after, hv)
    np.testing.assert_array_equal(d.copy_to_host(), expect)  # the rest is untouched


@pytest.mark.gpu
@gpu_only
def test_raw_handle_bytes_open_with_open_ipc_array(worker):
    a = np.arange(64, dtype=np.float32)
    d = cuda.to_device(a)
    ih = d.get_ipc_handle()._ipc_handle
    before = worker("open_raw", bytes(ih.handle), (8,), np.float32, 16 * 4, 7.0)
    np.testing.assert_array_equal(before, a[16:24])
    expect = a.copy()
    expect[16:24] = 7.0
    np.testing.assert_array_equal(d.copy_to_host(), expect)
    # numba-cuda's lower-level form: Context.get_ipc_handle of the array's memory
    g = cuda.current_context().get_ipc_handle(d.gpu_data)
    assert (g.size, g.offset, g.handle) == (256, 0, ih.handle)
    before = worker("open_raw", tuple(g.handle.reserved), (2, 32), np.float32, 0, -1.0)
    np.testing.assert_array_equal(before, expect.reshape(2, 32))
    np.testing.assert_array_equal(d.copy_to_host(), np.full(64, -1.0, np.float32))
    err = worker("oversized", bytes(ih.handle), 33)  # 264 bytes of a 256-byte allocation
    assert err[0] == "ValueError" and "has 256 bytes: it has no 264 bytes at offset 0" in err[1], err


class _Foreign:
    """An array of another library, seen through __cuda_array_interface__ only."""

    def __init__(self, arr):
        self.__cuda_array_interface__ = arr.__cuda_array_interface__
        self._keep = arr


@pytest.mark.gpu
@gpu_only
@pytest.mark.parametrize("foreign", [False, True], ids=["mahou", "foreign"])
@pytest.mark.parametrize("index", [None, slice(3, None), slice(3, 8), slice(None, 8)], ids=str)
def test_context_get_ipc_handle_of_gpu_data_as_numba_cuda(worker, index, foreign):
    """numba-cuda's own test: ctx.get_ipc_handle(devarr.gpu_data) of a slice (or of a
    foreign array) pickled; the child opens size // itemsize items and sees the slice."""
    d = cuda.to_device(np.arange(10, dtype=np.intp))
    if index is not None:
        d = d[index]
    if foreign:
        d = cuda.as_cuda_array(_Foreign(d))
    expect = d.copy_to_host()
    ipch = cuda.current_context().get_ipc_handle(d.gpu_data)
    again = pickle.loads(pickle.dumps(ipch))
    assert again.base is None and again.size == ipch.size == expect.nbytes
    assert again.handle.reserved == ipch.handle.reserved
    np.testing.assert_array_equal(worker("open_low_level", again, np.intp), expect)


@pytest.mark.gpu
@gpu_only
def test_misuse_opened_twice_closed_twice_and_in_the_exporting_process(worker):
    a = np.arange(32, dtype=np.int64)
    d = cuda.to_device(a)
    h = d.get_ipc_handle()
    out = worker("misuse", h)
    assert out["close_unopened"] == ("ValueError", "IpcHandle not opened")
    assert out["open_twice"] == ("ValueError", "IpcHandle is already opened")
    assert out["close_twice"] == ("ValueError", "IpcHandle not opened")
    np.testing.assert_array_equal(out["after_close"], a)
    np.testing.assert_array_equal(out["reopened"], a)
    for handle in (h, pickle.loads(pickle.dumps(h))):
        with pytest.raises(ValueError, match="^opening IpcHandle from original process$"):
            handle.open()
    with pytest.raises(CudaError, match="cuIpcOpenMemHandle"):  # the driver refuses its own handle
        with cuda.open_ipc_array(bytes(h._ipc_handle.handle), 32, np.int64):
            pass
    e = cuda.device_array(0, dtype=np.int64).get_ipc_handle()
    assert worker("open_empty", e) == (0,)


@pytest.mark.gpu
@gpu_only
def test_two_views_of_one_array_open_together_over_one_mapping(worker):
    a = np.arange(50, dtype=np.float32)
    d = cuda.to_device(a)
    first, second = d[10:20].get_ipc_handle(), d[15:30].get_ipc_handle()
    assert first._ipc_handle.handle == second._ipc_handle.handle  # one allocation
    x, y = worker("two_views", first, second)
    expect = a.copy()
    expect[10:20] = 7
    np.testing.assert_array_equal(x, expect[10:20])
    np.testing.assert_array_equal(y, expect[15:30])
    np.testing.assert_array_equal(d.copy_to_host(), expect)


@pytest.mark.gpu
@gpu_only
def test_handles_interoperate_with_numba_cuda():
    """The handle bytes are the driver's CUipcMemHandle: numba-cuda (in its own spawned
    process) opens what mahou exports, and mahou opens what numba-cuda exports."""
    import ipc_helpers

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        def call(fn, *args):
            return pool.apply_async(fn, args).get(120)

        a = np.arange(40, dtype=np.float64)
        d = cuda.to_device(a)
        before = call(ipc_helpers.numba_cuda_opens, bytes(d.get_ipc_handle()._ipc_handle.handle), 40)
        if before is None:
            pytest.skip("numba-cuda cannot be imported here")
        np.testing.assert_array_equal(before, a)
        np.testing.assert_array_equal(d.copy_to_host(), -a)
        raw = call(ipc_helpers.numba_cuda_exports, 24)
        with cuda.open_ipc_array(raw, 24, np.float64) as arr:
            np.testing.assert_array_equal(arr.copy_to_host(), np.arange(24.0))
            arr.copy_to_device(np.full(24, 5.0))
            cuda.synchronize()
        np.testing.assert_array_equal(call(ipc_helpers.numba_cuda_read_back), np.full(24, 5.0))


@pytest.mark.gpu
@gpu_only
def test_staged_open_copies_through_the_exporting_device(worker):
    """IpcHandle.open_staged (what open() uses where the devices have no peer access):
    the child gets a copy of the shared bytes made through the exporting device; writes
    to the copy stay in the child. can_access_peer answers True on the exporting device."""
    a = np.arange(24, dtype=np.float64).reshape(4, 6)
    d = cuda.to_device(a)
    for arr, host in ((d, a), (d[1:3, ::2], a[1:3, ::2])):
        before, after, peer, again = worker("open_staged_copy", arr.get_ipc_handle(), -5.0)
        np.testing.assert_array_equal(before, host)
        np.testing.assert_array_equal(after, np.full(host.shape, -5.0))
        assert peer is True
        assert again == ("ValueError", "IpcHandle is already opened")
    np.testing.assert_array_equal(d.copy_to_host(), a)  # the exporter's memory is unchanged


@pytest.mark.gpu
@gpu_only
def test_peer_access_matches_numba_cuda(worker):
    """Context.can_access_peer for every pair of devices, as numba-cuda answers (in its own
    spawned process); a device is never its own peer."""
    n = len(cuda.gpus)
    for i in range(n):
        assert cuda.current_context(i).can_access_peer(i) is False
    theirs = worker("numba_cuda_peer_access")
    if theirs is None or n < 2:
        pytest.skip("numba-cuda is not installed, or one device")
    ours = {(i, j): cuda.current_context(i).can_access_peer(j) for i in range(n) for j in range(n) if i != j}
    assert ours == theirs
