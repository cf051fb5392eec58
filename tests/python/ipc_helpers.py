"""What the CUDA IPC tests run in a second process (importable there: the tests'
directory is on spawned workers' sys.path): open a handle the parent exported, read
the array, write to it, and report errors as (type name, message)."""

import numpy as np

from mahou import cuda


@cuda.jit
def _negate_plus(a, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = -a[i] + k


def _error(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 (reported to the parent)
        return type(exc).__name__, str(exc)
    return None


def read_then_write(handle, k):
    """Opens the array handle, copies it to the host, runs a kernel that writes
    -a + k into it, synchronises and closes: (host copy before, host copy after)."""
    with handle as arr:
        before = arr.copy_to_host()
        if arr.ndim == 1:
            _negate_plus.forall(arr.size)(arr, k)
        else:  # an n-d view: write through the host (copy_to_device takes strided views)
            arr.copy_to_device(-before + k)
        cuda.synchronize()
        after = arr.copy_to_host()
    return before, after


def open_raw(handle_bytes, shape, dtype, offset, value):
    """cuda.open_ipc_array of raw handle bytes: fills the array with `value`; its
    values before."""
    with cuda.open_ipc_array(handle_bytes, shape, dtype, offset=offset) as arr:
        before = arr.copy_to_host()
        arr.copy_to_device(np.full(arr.shape, value, dtype=arr.dtype))
        cuda.synchronize()
    return before


def misuse(handle):
    """The errors of an array handle used wrongly: opened twice, closed twice, closed
    before it was opened; and whether an array opened once stays usable after close."""
    out = {"close_unopened": _error(handle.close)}
    arr = handle.open()
    out["open_twice"] = _error(handle.open)
    handle.close()
    out["close_twice"] = _error(handle.close)
    out["after_close"] = arr.copy_to_host()  # the array keeps the mapping alive
    again = handle.open()  # a closed handle opens again
    out["reopened"] = again.copy_to_host()
    handle.close()
    return out


def oversized(handle_bytes, nitems):
    """open_ipc_array asking for more bytes than the allocation has."""
    def go():
        with cuda.open_ipc_array(handle_bytes, nitems, np.float64):
            pass
    return _error(go)


def open_error(handle):
    """The error opening a handle raises here (the emulator refuses), or None."""
    def go():
        with handle as arr:
            arr.copy_to_host()
    return _error(go)


def staged_error(handle):
    """The error IpcHandle.open_staged raises here (the emulator refuses to map), or None."""
    return _error(lambda: handle._ipc_handle.open_staged())


def open_empty(handle):
    """An empty array's handle opens (nothing is mapped): the array's shape."""
    with handle as arr:
        return arr.shape


def two_views(first, second):
    """Opens two handles of one allocation at once (one mapping in this process): writes
    7 through the first, then reads both."""
    with first as a, second as b:
        a.copy_to_device(np.full(a.shape, 7, dtype=a.dtype))
        cuda.synchronize()
        return a.copy_to_host(), b.copy_to_host()


def numba_cuda_opens(handle_bytes, n):
    """numba-cuda (when installed) opens a handle mahou exported: negates the float64
    array; its values before. None when numba-cuda cannot be imported here."""
    if not hasattr(np, "row_stack"):  # numba-cuda releases that still call it on NumPy 2.5
        np.row_stack = np.vstack
    try:
        from numba import cuda as ncuda
    except Exception:  # noqa: BLE001
        return None
    with ncuda.open_ipc_array(handle_bytes, shape=n, dtype=np.float64) as d:
        before = d.copy_to_host()
        d.copy_to_device(-before)
        ncuda.synchronize()
    return before


def numba_cuda_exports(n):
    """numba-cuda (when installed) exports arange(n) as float64 and keeps it: (handle
    bytes, a function reading it back)."""
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    try:
        from numba import cuda as ncuda
    except Exception:  # noqa: BLE001
        return None
    d = ncuda.to_device(np.arange(n, dtype=np.float64))
    _kept.append(d)
    return bytes(ncuda.current_context().get_ipc_handle(d.gpu_data).handle.reserved)


def numba_cuda_read_back():
    return _kept[-1].copy_to_host()


_kept = []


def open_low_level(ipch, dtype):
    """numba-cuda's lower-level form: IpcHandle.open_array(context, shape=size //
    itemsize, dtype), copied to the host, then close()."""
    dtype = np.dtype(dtype)
    arr = ipch.open_array(cuda.current_context(), shape=ipch.size // dtype.itemsize, dtype=dtype)
    host = arr.copy_to_host()
    ipch.close()
    return host


def open_staged_copy(handle, value):
    """IpcHandle.open_staged of an array handle (a copy made through the exporting
    device), viewed as the array: its values, then fills the copy with `value` (which
    the exporter must not see); and the answer of can_access_peer on this device."""
    from mahou.cuda._devicearray import DeviceNDArray

    ipch, desc = handle._ipc_handle, handle._array_desc
    ctx = cuda.current_context()
    peer = ipch.can_access_peer(ctx)
    mem = ipch.open_staged(ctx)
    arr = DeviceNDArray(desc["shape"], desc["strides"], desc["dtype"], mem.device_pointer, mem, 0, mem.device)
    before = arr.copy_to_host()
    arr.copy_to_device(np.full(arr.shape, value, dtype=arr.dtype))
    cuda.synchronize()
    again = _error(lambda: ipch.open_staged(ctx))
    ipch.close()
    return before, arr.copy_to_host(), peer, again


def numba_cuda_peer_access():
    """numba-cuda's Context.can_access_peer for every pair of devices (None when
    numba-cuda cannot be imported here)."""
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    try:
        from numba import cuda as ncuda
    except Exception:  # noqa: BLE001
        return None
    out = {}
    for i in range(len(ncuda.gpus)):
        with ncuda.gpus[i]:
            ctx = ncuda.current_context()
            for j in range(len(ncuda.gpus)):
                if i != j:
                    out[(i, j)] = bool(ctx.can_access_peer(j))
    return out
