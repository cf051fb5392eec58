"""Driver-level API of mahou.cuda: availability, devices, contexts, streams and
events. The driver library is loaded on first use, so importing needs no GPU."""

import collections
import collections.abc
import contextlib
import functools

from .. import _core
from ..errors import CudaSupportError

_drv = _core.cuda

# cuda.h's CUdevice_attribute values behind Numba's Device.<NAME> attributes.
_DEVICE_ATTRIBUTES = {
    "MAX_THREADS_PER_BLOCK": 1, "MAX_BLOCK_DIM_X": 2, "MAX_BLOCK_DIM_Y": 3,
    "MAX_BLOCK_DIM_Z": 4, "MAX_GRID_DIM_X": 5, "MAX_GRID_DIM_Y": 6, "MAX_GRID_DIM_Z": 7,
    "MAX_SHARED_MEMORY_PER_BLOCK": 8, "TOTAL_CONSTANT_MEMORY": 9, "WARP_SIZE": 10,
    "MULTIPROCESSOR_COUNT": 16, "PCI_BUS_ID": 33, "PCI_DEVICE_ID": 34,
    "COMPUTE_CAPABILITY_MAJOR": 75, "COMPUTE_CAPABILITY_MINOR": 76,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97,
}


@functools.lru_cache(maxsize=None)
def _availability():
    return _drv.available()


def is_available():
    """True when the CUDA driver loads and at least one device is present."""
    return bool(_availability()[0])


def _require():
    ok, why = _availability()
    if not ok:
        raise CudaSupportError(f"CUDA is not available: {why}")


def _current_device_id():
    _require()
    return _drv.current_device()


class Device:
    """A CUDA device: id, name (bytes, as Numba), compute_capability, attributes."""

    def __init__(self, device_id):
        self.id = int(device_id)
        info = _drv.device_info(self.id)
        self.name = info["name"].encode()
        self.compute_capability = tuple(info["compute_capability"])
        self.total_memory = info["total_memory"]
        self._info = info

    def __getattr__(self, attr):
        code = _DEVICE_ATTRIBUTES.get(attr)
        if code is None:
            raise AttributeError(attr)
        return _drv.device_attribute(self.id, code)

    def reset(self):
        synchronize()

    def get_device_identity(self):
        """Where the device sits on the PCI bus (what an IPC handle records of its device)."""
        return {"pci_bus_id": self._info["pci_bus_id"], "pci_device_id": self._info["pci_device_id"]}

    @classmethod
    def from_identity(cls, identity):
        """The device of this machine at that place (get_device_identity's); RuntimeError
        when there is none."""
        for device in list_devices():
            if device.get_device_identity() == identity:
                return device
        raise RuntimeError(f"No device of {identity} is found")

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name.decode()}'>"

    def __enter__(self):
        self._previous = _drv.current_device()
        select_device(self.id)
        return self

    def __exit__(self, *exc):
        select_device(self._previous)


class _GPUList(collections.abc.Sequence):
    """cuda.gpus: the devices of this machine."""

    def __getitem__(self, i):
        return Device(range(len(self))[i])

    def __len__(self):
        return _drv.device_count() if is_available() else 0

    @property
    def current(self):
        return get_current_device()

    def __repr__(self):
        return f"<{len(self)} CUDA device(s)>"


gpus = _GPUList()

MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])


class Context:
    """The primary context of a device (what Numba's current_context() returns)."""

    def __init__(self, device_id):
        self.device = Device(device_id)

    def get_memory_info(self):
        return MemoryInfo(*_drv.memory_info(self.device.id))

    def synchronize(self):
        _drv.synchronize(self.device.id)

    def can_access_peer(self, peer_device):
        """Whether this context's device can map `peer_device`'s memory (a device id;
        cuDeviceCanAccessPeer: False for the device itself)."""
        return bool(_drv.can_access_peer(self.device.id, int(peer_device)))

    def get_ipc_handle(self, memory):
        """An IpcHandle of device memory (DeviceNDArray.gpu_data: an allocation or the
        bytes a view spans) for another process to open."""
        from ._ipc import memory_ipc_handle
        return memory_ipc_handle(memory)

    def reset(self):
        self.synchronize()


def get_current_device():
    return Device(_current_device_id())


def current_context(devnum=None):
    return Context(_current_device_id() if devnum is None else devnum)


def select_device(device_id):
    """Makes `device_id` the calling thread's device; returns it."""
    _require()
    _drv.select_device(int(device_id))
    return Device(device_id)


def list_devices():
    return [gpus[i] for i in range(len(gpus))]


def close():
    """Numba tears the context down here; mahou keeps the primary context alive."""
    if is_available():
        synchronize()


def require_context(fn):
    """numba-cuda's decorator: `fn` runs with CUDA available (CudaSupportError otherwise);
    mahou makes the device's primary context current on the first operation that needs it."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _require()
        return fn(*args, **kwargs)

    return wrapper


def profile_start():
    """Starts the CUDA profiler's collection (cuProfilerStart) on the current device; the
    emulator has no profiler, so there it does nothing."""
    _drv.profiler(_current_device_id(), True)


def profile_stop():
    """Stops the CUDA profiler's collection (cuProfilerStop); nothing in the emulator."""
    _drv.profiler(_current_device_id(), False)


@contextlib.contextmanager
def profiling():
    """`with cuda.profiling():` profiles the block (profile_start, then profile_stop)."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()


def synchronize():
    """Waits for all work on the current device."""
    _drv.synchronize(_current_device_id())


def detect():
    """Prints the CUDA devices found; True when there is at least one."""
    ok, why = _availability()
    if not ok:
        print(f"CUDA is not available: {why}")
        return False
    n = _drv.device_count()
    print(f"Found {n} CUDA devices")
    for i in range(n):
        info = _drv.device_info(i)
        major, minor = info["compute_capability"]
        print(f"id {i:<4} {info['name'].encode()!r:>30}  [SUPPORTED]")
        print(f"{'Compute Capability:':>40} {major}.{minor}")
        print(f"{'PCI Device ID:':>40} {info['pci_device_id']}")
        print(f"{'PCI Bus ID:':>40} {info['pci_bus_id']}")
        print(f"{'Multiprocessors:':>40} {info['multiprocessors']}")
        print(f"{'Memory:':>40} {info['total_memory'] / 2**30:.1f} GiB")
    print(f"Summary:\n\t{n}/{n} devices are supported")
    return n > 0


# ------------------------------------------------------------------ streams

class Stream:
    """A CUDA stream. `_handle` (int) is what kernel launches and copies read."""

    def __init__(self, handle, device_id, owned):
        self._handle = int(handle)
        self._device = device_id
        self._owned = owned

    @property
    def handle(self):
        import ctypes
        return ctypes.c_void_p(self._handle)

    def __int__(self):
        return self._handle

    def synchronize(self):
        _drv.stream_synchronize(self._device, self._handle)

    def query(self):
        """True when all work queued on the stream has finished."""
        return _drv.stream_idle(self._device, self._handle)

    @contextlib.contextmanager
    def auto_synchronize(self):
        yield self
        self.synchronize()

    def __repr__(self):
        kind = "default" if self._handle == 0 else "external" if not self._owned else "owned"
        return f"<CUDA stream {self._handle:#x} ({kind}) on device {self._device}>"

    def __del__(self):
        if getattr(self, "_owned", False) and self._handle:
            self._owned = False
            try:
                _drv.stream_destroy(self._device, self._handle)
            except Exception:  # interpreter shutdown
                pass


def stream():
    """A new stream on the current device."""
    device = _current_device_id()
    return Stream(_drv.stream_create(device, False), device, True)


def default_stream():
    """The legacy default stream (handle 0)."""
    return Stream(0, _current_device_id(), False)


def legacy_default_stream():
    return Stream(1, _current_device_id(), False)  # CU_STREAM_LEGACY


def per_thread_default_stream():
    return Stream(2, _current_device_id(), False)  # CU_STREAM_PER_THREAD


def external_stream(ptr):
    """A stream created elsewhere (CuPy, PyTorch), by its handle."""
    return Stream(int(ptr), _current_device_id(), False)


def stream_handle(stream):
    """The driver handle of a stream argument (0, None, Stream, int, foreign stream)."""
    if stream is None or stream == 0:
        return 0
    if isinstance(stream, Stream):
        return stream._handle
    if isinstance(stream, int):
        return stream
    for attr in ("handle", "ptr"):
        value = getattr(stream, attr, None)
        if value is not None:
            return int(getattr(value, "value", value) or 0)
    raise TypeError(f"invalid CUDA stream: {stream!r}")


# ------------------------------------------------------------------ events

class Event:
    """A CUDA event: record(stream), synchronize(), wait(stream), elapsed_time(end)."""

    def __init__(self, timing=True):
        self._device = _current_device_id()
        self._handle = _drv.event_create(self._device, bool(timing))
        self.timing = bool(timing)

    @property
    def handle(self):
        import ctypes
        return ctypes.c_void_p(self._handle)

    def record(self, stream=0):
        _drv.event_record(self._device, self._handle, stream_handle(stream))

    def synchronize(self):
        _drv.event_synchronize(self._device, self._handle)

    def wait(self, stream=0):
        """Makes `stream` wait for this event (no host blocking)."""
        _drv.stream_wait_event(self._device, stream_handle(stream), self._handle)

    def query(self):
        return _drv.event_done(self._device, self._handle)

    def elapsed_time(self, evtend):
        """Milliseconds between this event and `evtend` (both recorded and finished)."""
        return _drv.event_elapsed_ms(self._device, self._handle, evtend._handle)

    def __del__(self):
        handle = getattr(self, "_handle", 0)
        if handle:
            self._handle = 0
            try:
                _drv.event_destroy(self._device, handle)
            except Exception:  # interpreter shutdown
                pass


def event(timing=True):
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    return evtstart.elapsed_time(evtend)
