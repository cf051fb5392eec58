"""Device arrays shared between processes through CUDA IPC (Linux), as numba-cuda's:
DeviceNDArray.get_ipc_handle() gives an IpcArrayHandle, picklable, that another process
on the same machine opens (`with handle as arr:`, or handle.open() ... handle.close()) as
a DeviceNDArray over the same device memory; cuda.open_ipc_array opens raw handle bytes.

A handle records the 64-byte CUipcMemHandle of the allocation, where the shared bytes
start in it (offset) and how many there are (size), the device it lives on and the
exporting process; an array handle adds the array's shape, strides and dtype. Opening maps
the allocation (cuIpcOpenMemHandle) once per process and device, however many handles of
it are open (views of one array share one allocation, hence one CUipcMemHandle); the
mapping stays while a handle of it is open or any array made from it is alive, so no
array ever points at unmapped memory."""

import contextlib
import os
import sys
import threading
import weakref

import numpy as np

from .. import _core
from . import _runtime

_drv = _core.cuda
_HANDLE_BYTES = 64


# This process's mappings of other processes' allocations, by (handle bytes, device): one
# cuIpcOpenMemHandle per allocation, released with its last user.
_mappings = weakref.WeakValueDictionary()
_mappings_lock = threading.Lock()


def _mapping(handle, device):
    with _mappings_lock:
        mapping = _mappings.get((handle, device))
        if mapping is None:
            mapping = _drv.IpcMapping(handle, device)
            _mappings[(handle, device)] = mapping
        return mapping


class IpcMemory:
    """Memory an open IpcHandle gives: `size` bytes at `device_pointer` on `device`,
    inside another process's allocation mapped here (kept mapped by this object)."""

    __slots__ = ("mapping", "device_pointer", "size", "device")

    def __init__(self, mapping, offset, size, device):
        self.mapping = mapping  # None for no bytes (an empty array's handle)
        self.device_pointer = mapping.base + offset if mapping is not None else 0
        self.size = size
        self.device = device

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self.device_pointer or None)

    def __repr__(self):
        return f"<IpcMemory {self.size} bytes at {self.device_pointer:#x} on device {self.device}>"


class _StagedCopy:
    """The memory open_staged copied the shared bytes into (held as a mapping is)."""

    __slots__ = ("memory", "base", "size")

    def __init__(self, memory):
        self.memory = memory
        self.base = memory.device_pointer
        self.size = memory.size


def _require_ipc():
    if not sys.platform.startswith("linux"):
        raise OSError("OS does not support CUDA IPC")


def _device_identity(device_id):
    return _runtime.Device(device_id).get_device_identity()


def _handle_bytes(handle):
    """The 64 bytes of a handle given as bytes, a sequence of ints or a handle object."""
    if isinstance(handle, MemHandle):
        return handle.reserved
    try:
        data = bytes(handle)
    except (TypeError, ValueError):
        raise TypeError("an IPC handle is 64 bytes (bytes or a sequence of ints), not "
                        f"{type(handle).__name__}") from None
    if len(data) != _HANDLE_BYTES:
        raise ValueError(f"an IPC handle is {_HANDLE_BYTES} bytes, not {len(data)}")
    return data


class MemHandle:
    """A CUipcMemHandle: its 64 bytes are `reserved` (as numba-cuda's binding type)."""

    __slots__ = ("reserved",)

    def __init__(self, reserved):
        self.reserved = reserved

    def __bytes__(self):
        return self.reserved

    def __eq__(self, other):
        return isinstance(other, MemHandle) and other.reserved == self.reserved

    def __hash__(self):
        return hash(self.reserved)

    def __repr__(self):
        return f"<CUipcMemHandle {self.reserved[:8].hex()}...>"


class IpcHandle:
    """numba-cuda's IpcHandle: `size` bytes at `offset` in the allocation named by
    `handle`. `base` is the exported memory in the exporting process (kept alive by the
    handle there) and None in a process that received the handle."""

    def __init__(self, base, handle, size, source_info=None, offset=0, *, exporter=None):
        self.base = base
        self.handle = MemHandle(_handle_bytes(handle))
        self.size = int(size)
        self.source_info = source_info
        self.offset = int(offset)
        if self.size < 0 or self.offset < 0:
            raise ValueError("an IPC handle's size and offset cannot be negative")
        self._exporter = exporter  # the exporting process's id, when known
        self._opened = None

    def __reduce__(self):
        return (_rebuild_handle, (bytes(self.handle), self.size, self.source_info, self.offset,
                                  self._exporter))

    def _openable(self, context):
        """The device to open on (`context`'s, else the current one), after the checks
        every open makes."""
        if self.base is not None or self._exporter == os.getpid():
            raise ValueError("opening IpcHandle from original process")
        if self._opened is not None:
            raise ValueError("IpcHandle is already opened")
        _require_ipc()
        return context.device.id if context is not None else _runtime._current_device_id()

    def _mapped(self, device):
        """This handle's allocation mapped on `device`, its bytes checked."""
        mapping = _mapping(bytes(self.handle), device)
        if self.offset + self.size > mapping.size:
            raise ValueError(f"the IPC handle's allocation has {mapping.size} bytes: it has no "
                             f"{self.size} bytes at offset {self.offset}")
        return mapping

    def open(self, context=None):
        """The shared memory on `context`'s device (the current device by default): an
        IpcMemory (device_pointer, size). As numba-cuda's: mapped directly (open_direct)
        where that device is the exporting one or has peer access to it, else a copy made
        through the exporting device (open_staged). A mapping lasts until close() and
        while anything made from it is alive."""
        if self.source_info is None or self.can_access_peer(context or _runtime.current_context()):
            return self.open_direct(context)
        return self.open_staged(context)

    def open_direct(self, context=None):
        """Maps the shared memory into `context`'s device (cuIpcOpenMemHandle with lazy
        peer access; the driver's error where the devices have no peer access)."""
        device = self._openable(context)
        if self.size == 0:  # an empty array's handle: no memory to map
            self._opened = IpcMemory(None, 0, 0, device)
            return self._opened
        self._opened = IpcMemory(self._mapped(device), self.offset, self.size, device)
        return self._opened

    def can_access_peer(self, context):
        """Whether `context`'s device can reach the memory directly: True on the exporting
        device itself, else whether it has peer access to that device (found by the PCI
        identity the handle records). RuntimeError when the handle records no device (raw
        handle bytes) or this machine has no device of that identity."""
        if self.source_info is None:
            raise RuntimeError("IPC handle doesn't have source info")
        if self.source_info == context.device.get_device_identity():
            return True
        source = _runtime.Device.from_identity(self.source_info)
        return context.can_access_peer(source.id)

    def open_staged(self, context=None):
        """For a device without peer access to the exporting one, as numba-cuda's: the
        shared bytes are mapped on the exporting device (found by the handle's PCI
        identity), copied into new memory on `context`'s device (the current one by
        default) and unmapped there. An IpcMemory over that copy, which is this process's
        own: writes to it are not shared. RuntimeError when the handle records no device."""
        if self.source_info is None:
            raise RuntimeError("IPC handle doesn't have source info")
        device = self._openable(context)
        if self.size == 0:
            self._opened = IpcMemory(None, 0, 0, device)
            return self._opened
        source = _runtime.Device.from_identity(self.source_info).id
        mapping = self._mapped(source)
        copy = _StagedCopy(_drv.DeviceMemory(self.size, device))
        _drv.copy_dtod(copy.base, mapping.base + self.offset, self.size, 0, device)
        _drv.synchronize(device)  # a device-to-device copy returns before it ends
        del mapping  # unmapped with its last user
        self._opened = IpcMemory(copy, 0, self.size, device)
        return self._opened

    def open_array(self, context, shape, dtype, strides=None):
        """open(), viewed as a device array (C-contiguous unless `strides` are given)."""
        from ._devicearray import DeviceNDArray, _contiguous_strides, _normalize_shape, _span

        shape = _normalize_shape(shape)
        dtype = np.dtype(dtype)
        strides = (_contiguous_strides(shape, dtype.itemsize, "C") if strides is None
                   else _normalize_shape(strides))
        if len(strides) != len(shape):
            raise ValueError(f"strides {strides} do not match shape {shape}")
        lo, nbytes = _span(shape, strides, dtype.itemsize)
        if nbytes > self.size:
            raise ValueError(f"an array of shape {shape}, strides {strides} and dtype {dtype} "
                             f"spans {nbytes} bytes; the IPC handle shares {self.size}")
        mem = self.open(context)
        data = mem.device_pointer - lo if nbytes else 0
        return DeviceNDArray(shape, strides, dtype, data, mem, 0, mem.device)

    def close(self):
        """Ends this handle's use of the memory: it is unmapped once no array made from it
        remains. ValueError when the handle is not open."""
        if self._opened is None:
            raise ValueError("IpcHandle not opened")
        self._opened = None

    def __repr__(self):
        return (f"<IpcHandle {self.size} bytes at offset {self.offset} of "
                f"{self.handle!r}{' (exporter)' if self.base is not None else ''}>")


def _rebuild_handle(handle, size, source_info, offset, exporter):
    return IpcHandle(None, handle, size, source_info, offset, exporter=exporter)


class IpcArrayHandle:
    """A device array's IPC handle (picklable): open() in another process gives a
    DeviceNDArray over the same memory; close() ends that use; `with handle as arr:`
    does both."""

    def __init__(self, ipc_handle, array_desc):
        self._ipc_handle = ipc_handle
        self._array_desc = dict(array_desc)

    def open(self):
        """A DeviceNDArray sharing the exporting process's memory (not in that process)."""
        return self._ipc_handle.open_array(None, **self._array_desc)

    def close(self):
        self._ipc_handle.close()

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        d = self._array_desc
        return f"<IpcArrayHandle shape={d['shape']} dtype={d['dtype']} {self._ipc_handle!r}>"


def export_memory(base, pointer, nbytes, device):
    """The IpcHandle of `nbytes` at device address `pointer` (kept alive by `base`)."""
    _require_ipc()
    if nbytes == 0:
        return IpcHandle(base, bytes(_HANDLE_BYTES), 0, _device_identity(device), 0,
                         exporter=os.getpid())
    handle, alloc_base, _alloc_size = _drv.ipc_export(pointer, device)
    return IpcHandle(base, handle, nbytes, _device_identity(device), pointer - alloc_base,
                     exporter=os.getpid())


def array_ipc_handle(arr):
    """DeviceNDArray.get_ipc_handle: the handle of the memory the array spans."""
    mem = arr.gpu_data
    ipch = export_memory(arr, mem.device_pointer, mem.size, arr._device_id)
    return IpcArrayHandle(ipch, {"shape": arr.shape, "strides": arr.strides, "dtype": arr.dtype})


def memory_ipc_handle(memory):
    """Context.get_ipc_handle(memory): DeviceNDArray.gpu_data (an allocation, or the
    MemoryView of the bytes a view spans), or a device array itself."""
    from ._devicearray import DeviceNDArray, MemoryView

    if isinstance(memory, DeviceNDArray):
        memory = memory.gpu_data
    if isinstance(memory, (_drv.DeviceMemory, MemoryView)):
        return export_memory(memory, memory.device_pointer, memory.size, memory.device)
    raise TypeError(f"get_ipc_handle: expected device memory or a device array, not "
                    f"{type(memory).__name__}")


@contextlib.contextmanager
def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """Opens raw IPC handle bytes (another process's CUipcMemHandle) as a device array of
    `shape`, `dtype` and `strides` (C-contiguous by default) at byte `offset` in the
    allocation, for the block; the handle is closed when it ends."""
    from ._devicearray import _contiguous_strides, _normalize_shape, _span

    shape = _normalize_shape(shape)
    dtype = np.dtype(dtype)
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, "C")
    size = _span(shape, _normalize_shape(strides), dtype.itemsize)[1]
    ipch = IpcHandle(None, handle, size, offset=offset)
    arr = ipch.open_array(None, shape, dtype, strides)
    try:
        yield arr
    finally:
        ipch.close()


__all__ = ["IpcArrayHandle", "IpcHandle", "IpcMemory", "open_ipc_array"]
