"""Arrays in CUDA device memory (DeviceNDArray) and the functions that make them:
to_device, device_array(_like), pinned_array, mapped_array, managed_array, the
pinned()/mapped() context managers, as_cuda_array and DLPack (from_dlpack)."""

import contextlib
import math

import numpy as np

from .. import _core
from . import _runtime
from ._runtime import stream_handle

_drv = _core.cuda
_as_strided = np.lib.stride_tricks.as_strided
_DL_CUDA, _DL_CUDA_MANAGED = 2, 13  # DLPack device types


def _span(shape, strides, itemsize):
    """(offset of the lowest byte from the first element, bytes) of an array's memory."""
    if any(n == 0 for n in shape):
        return 0, 0
    lo = hi = 0
    for n, s in zip(shape, strides):
        extent = (n - 1) * s
        if extent < 0:
            lo += extent
        else:
            hi += extent
    return lo, hi - lo + itemsize


def _normalize_shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(n) for n in shape)


def _contiguous_strides(shape, itemsize, order):
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', not {order!r}")
    strides = [0] * len(shape)
    step = itemsize
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for i in dims:
        strides[i] = step
        step *= max(shape[i], 1)
    return tuple(strides)


def _is_contiguous(shape, strides, itemsize, order):
    step = itemsize
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for i in dims:
        if shape[i] != 1 and strides[i] != step:
            return False
        step *= shape[i]
    return True


def _basic_index(index):
    """The index as a tuple, checked to be basic (ints, slices, None, Ellipsis)."""
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if isinstance(item, (bool, np.bool_)) or not (
                item is None or item is Ellipsis or isinstance(item, (slice, int, np.integer))):
            raise NotImplementedError(
                "device arrays support basic indexing only (integers, slices, None, ...), "
                f"not {type(item).__name__}")
    return items


class MemoryView:
    """`size` bytes of device memory at `device_pointer` on `device`, inside `owner` (an
    allocation, or what keeps foreign memory alive): DeviceNDArray.gpu_data of a view,
    as numba-cuda's MemoryPointer views."""

    __slots__ = ("owner", "device_pointer", "size", "device")

    def __init__(self, owner, device_pointer, size, device):
        self.owner = owner
        self.device_pointer = device_pointer
        self.size = size
        self.device = device

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self.device_pointer or None)

    def __repr__(self):
        return f"<MemoryView {self.size} bytes at {self.device_pointer:#x} on device {self.device}>"


class DeviceNDArray(_core.DeviceArray):
    """An array in CUDA device memory, as Numba's DeviceNDArray. The memory is freed
    when the last array (or view) using it is collected."""

    __cuda_memory__ = True
    __array_priority__ = 1000  # NumPy binary operations defer to __array__ copies

    # ---- properties
    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self._data_ptr or None)

    @property
    def gpu_data(self):
        """The device memory the array spans, as numba-cuda's: the allocation (a
        mahou._core.cuda.DeviceMemory) when it spans all of it, else a MemoryView of
        the bytes it spans (a slice's extent)."""
        owner = self._owner
        while isinstance(owner, DeviceNDArray):
            owner = owner._owner
        lo, nbytes = _span(self.shape, self.strides, self.itemsize)
        start = self._data_ptr + lo if nbytes else 0
        if isinstance(owner, _drv.DeviceMemory) and (start, nbytes) == (owner.device_pointer, owner.size):
            return owner
        return MemoryView(owner, start, nbytes, self._device_id)

    @property
    def alloc_size(self):
        """Bytes of gpu_data (a view's extent, as numba-cuda's)."""
        return self.gpu_data.size

    @property
    def flags(self):
        return {"C_CONTIGUOUS": self.is_c_contiguous(), "F_CONTIGUOUS": self.is_f_contiguous()}

    def is_c_contiguous(self):
        return _is_contiguous(self.shape, self.strides, self.itemsize, "C")

    def is_f_contiguous(self):
        return _is_contiguous(self.shape, self.strides, self.itemsize, "F")

    @property
    def __cuda_array_interface__(self):
        handle = stream_handle(self.stream)
        return {
            "shape": self.shape,
            "strides": None if self.is_c_contiguous() else self.strides,
            "data": (self._data_ptr, False),
            "typestr": self.dtype.str,
            "stream": handle or None,
            "version": 3,
        }

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self):
        return (f"<mahou.cuda.DeviceNDArray shape={self.shape} dtype={self.dtype} "
                f"device={self._device_id} at {self._data_ptr:#x}>")

    def __array__(self, dtype=None, copy=None):
        host = self.copy_to_host()
        return host if dtype is None else host.astype(dtype, copy=False)

    # ---- DLPack (PyTorch, CuPy, JAX: torch.from_dlpack(device_array), zero copy)
    def __dlpack_device__(self):
        return (_DL_CUDA, self._device_id)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this array's memory. `stream` is the consumer's: work
        queued on this array's own stream is finished first unless it is -1."""
        if copy:
            raise BufferError("DeviceNDArray.__dlpack__: copy=True is not supported")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError("DeviceNDArray.__dlpack__: the array lives on "
                              f"{self.__dlpack_device__()}, not {tuple(dl_device)}")
        handle = stream_handle(self.stream)
        if stream != -1 and handle:
            _drv.stream_synchronize(self._device_id, handle)
        return _drv.to_dlpack(self._data_ptr, self.shape, self.strides, self.dtype, _DL_CUDA,
                              self._device_id, self)

    def get_ipc_handle(self):
        """An IpcArrayHandle (picklable) through which another process on this machine
        opens a DeviceNDArray over the same device memory (Linux; see _ipc.py)."""
        from ._ipc import array_ipc_handle
        return array_ipc_handle(self)

    def bind(self, stream=0):
        """The same array associated with another stream."""
        return self._view(self.shape, self.strides, self._data_ptr, stream=stream)

    # ---- views
    def _view(self, shape, strides, data, dtype=None, stream=None):
        return DeviceNDArray(shape, strides, self.dtype if dtype is None else dtype, data, self,
                             self.stream if stream is None else stream, self._device_id)

    def _index_view(self, items):
        if Ellipsis not in items:
            items = items + (Ellipsis,)  # a view (never a scalar read) of the dummy
        dummy = _as_strided(np.empty(1, dtype=np.uint8), shape=self.shape, strides=self.strides)
        view = dummy[items]
        offset = (view.__array_interface__["data"][0] - dummy.__array_interface__["data"][0])
        return self._view(view.shape, view.strides, self._data_ptr + offset)

    def __getitem__(self, index):
        items = _basic_index(index)
        view = self._index_view(items)
        ints = sum(isinstance(i, (int, np.integer)) for i in items)
        if ints == self.ndim and ints == len(items):
            return view.copy_to_host()[()]  # a single element: a NumPy scalar, as Numba
        return view

    def __setitem__(self, index, value):
        view = self._index_view(_basic_index(index))
        if isinstance(value, DeviceNDArray):
            view.copy_to_device(value)
            return
        host = np.broadcast_to(np.asarray(value, dtype=self.dtype), view.shape)
        view.copy_to_device(np.array(host, order="C"))  # (ascontiguousarray makes 0-d 1-d)

    @property
    def T(self):
        return self.transpose()

    def transpose(self, axes=None):
        axes = tuple(reversed(range(self.ndim))) if axes is None else tuple(axes)
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError("invalid axes for transpose")
        return self._view(tuple(self.shape[a] for a in axes),
                          tuple(self.strides[a] for a in axes), self._data_ptr)

    def reshape(self, *newshape, order="C"):
        if len(newshape) == 1 and not isinstance(newshape[0], (int, np.integer)):
            newshape = newshape[0]
        newshape = list(_normalize_shape(newshape))
        if newshape.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        if -1 in newshape:
            known = math.prod(n for n in newshape if n != -1)
            newshape[newshape.index(-1)] = self.size // known if known else 0
        newshape = tuple(newshape)
        if math.prod(newshape) != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {newshape}")
        if order not in ("C", "F"):
            raise ValueError("reshape order must be 'C' or 'F'")
        if not _is_contiguous(self.shape, self.strides, self.itemsize, order):
            raise NotImplementedError("reshape of a device array that is not contiguous "
                                      f"in order {order!r}")
        return self._view(newshape, _contiguous_strides(newshape, self.itemsize, order),
                          self._data_ptr)

    def ravel(self, order="C"):
        return self.reshape(self.size, order=order)

    def view(self, dtype):
        dtype = np.dtype(dtype)
        if dtype.itemsize == self.itemsize:
            return self._view(self.shape, self.strides, self._data_ptr, dtype=dtype)
        if self.ndim == 0 or not self.is_c_contiguous() or \
                (self.shape[-1] * self.itemsize) % dtype.itemsize:
            raise ValueError("view with a different itemsize needs a C-contiguous array "
                             "whose last dimension fits the new itemsize")
        shape = self.shape[:-1] + (self.shape[-1] * self.itemsize // dtype.itemsize,)
        return DeviceNDArray(shape, _contiguous_strides(shape, dtype.itemsize, "C"), dtype,
                             self._data_ptr, self, self.stream, self._device_id)

    def split(self, section, stream=0):
        if self.ndim != 1:
            raise ValueError("only 1-D device arrays can be split")
        return [self[i:i + section] for i in range(0, self.shape[0], section)]

    # ---- copies
    def copy_to_host(self, ary=None, stream=0):
        """A host copy (into `ary` when given). Asynchronous on a non-default stream."""
        handle = stream_handle(stream)
        if ary is not None:
            if not isinstance(ary, np.ndarray):
                raise TypeError("copy_to_host(ary): ary must be a numpy.ndarray")
            if ary.dtype != self.dtype or ary.shape != self.shape:
                raise ValueError(f"copy_to_host: array of {ary.dtype} {ary.shape} does not "
                                 f"match the device array's {self.dtype} {self.shape}")
        contiguous = self.is_c_contiguous() or self.is_f_contiguous()
        if ary is not None and contiguous and ary.strides == self.strides:
            _drv.copy_dtoh(ary, 0, self._data_ptr, self.nbytes, handle, self._device_id)
            return ary
        if contiguous:
            order = "C" if self.is_c_contiguous() else "F"
            host = np.empty(self.shape, dtype=self.dtype, order=order)
            _drv.copy_dtoh(host, 0, self._data_ptr, self.nbytes, handle, self._device_id)
        else:
            lo, nbytes = _span(self.shape, self.strides, self.itemsize)
            buf = np.empty(nbytes, dtype=np.uint8)
            _drv.copy_dtoh(buf, 0, self._data_ptr + lo, nbytes, handle, self._device_id)
            if handle:
                _drv.stream_synchronize(self._device_id, handle)
            host = np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo,
                              strides=self.strides)
        if ary is None:
            return host
        if handle:
            _drv.stream_synchronize(self._device_id, handle)
        ary[...] = host
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copies a host array (or a device array) of the same shape into this one."""
        handle = stream_handle(stream)
        if isinstance(ary, DeviceNDArray) or hasattr(ary, "__cuda_array_interface__"):
            src = ary if isinstance(ary, DeviceNDArray) else as_cuda_array(ary)
            self._check_source(src.dtype, src.shape)
            same = src.strides == self.strides and (self.is_c_contiguous() or
                                                      self.is_f_contiguous())
            if not same:
                raise NotImplementedError("device-to-device copies need arrays of the same "
                                          "contiguous layout")
            _drv.copy_dtod(self._data_ptr, src._data_ptr, self.nbytes, handle, self._device_id)
            return
        if not isinstance(ary, np.ndarray):
            ary = np.asarray(ary, dtype=self.dtype)
        self._check_source(ary.dtype, ary.shape)
        if self.is_c_contiguous() or self.is_f_contiguous():
            order = "C" if self.is_c_contiguous() else "F"
            host = np.asarray(ary, order=order)
            if host.strides != self.strides:
                host = np.array(ary, order=order, copy=True)
            _drv.copy_htod(self._data_ptr, host, 0, self.nbytes, handle, self._device_id)
            return
        # A strided view: read its memory span, update the elements, write it back.
        lo, nbytes = _span(self.shape, self.strides, self.itemsize)
        buf = np.empty(nbytes, dtype=np.uint8)
        _drv.copy_dtoh(buf, 0, self._data_ptr + lo, nbytes, 0, self._device_id)
        np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo, strides=self.strides)[...] = ary
        _drv.copy_htod(self._data_ptr + lo, buf, 0, nbytes, 0, self._device_id)

    def _check_source(self, dtype, shape):
        if dtype != self.dtype:
            raise TypeError(f"incompatible dtype: {dtype} copied into a device array of "
                            f"{self.dtype}")
        if tuple(shape) != self.shape:
            raise ValueError(f"incompatible shape: {tuple(shape)} copied into a device array "
                             f"of shape {self.shape}")


# ------------------------------------------------------------------ constructors

def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialised array in device memory."""
    shape = _normalize_shape(shape)
    dtype = np.dtype(dtype)
    strides = (_contiguous_strides(shape, dtype.itemsize, order) if strides is None
               else tuple(int(s) for s in strides))
    lo, nbytes = _span(shape, strides, dtype.itemsize)
    device = _runtime._current_device_id()
    mem = _drv.DeviceMemory(nbytes, device)
    data = mem.device_pointer - lo if nbytes else 0
    return DeviceNDArray(shape, strides, dtype, data, mem, stream, device)


def device_array_like(ary, stream=0):
    order = "F" if ary.flags["F_CONTIGUOUS"] and not ary.flags["C_CONTIGUOUS"] else "C"
    return device_array(ary.shape, ary.dtype, order=order, stream=stream)


def to_device(obj, stream=0, copy=True, to=None):
    """A device copy of a host array (a device array is returned unchanged)."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    ary = np.asarray(obj)
    if ary.dtype.hasobject:
        raise TypeError("arrays of Python objects cannot be copied to the device")
    if not (ary.flags["C_CONTIGUOUS"] or ary.flags["F_CONTIGUOUS"]):
        ary = np.ascontiguousarray(ary)
    dev = device_array(ary.shape, ary.dtype, strides=ary.strides, stream=stream)
    if copy:
        dev.copy_to_device(ary, stream=stream)
    return dev


def _host_array(shape, dtype, strides, order, mapped):
    shape = _normalize_shape(shape)
    dtype = np.dtype(dtype)
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, order)
    lo, nbytes = _span(shape, strides, dtype.itemsize)
    buf, device_ptr = _drv.pinned_empty(nbytes, mapped, _runtime._current_device_id())
    arr = np.ndarray(shape, dtype, buffer=buf, offset=-lo, strides=strides)
    return arr, device_ptr - lo if mapped else 0


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory (fast, asynchronous copies)."""
    return _host_array(shape, dtype, strides, order, mapped=False)[0]


def pinned_array_like(ary):
    """A pinned_array of `ary`'s shape and dtype, with its strides when it is contiguous
    one way or the other (C order otherwise), as numba-cuda's."""
    shape, dtype, strides = _like(ary)
    return pinned_array(shape, dtype, strides=strides)


def _like(ary):
    """(shape, dtype, strides) for an array made like `ary` (numba-cuda's rule: its own
    strides when it is C or F contiguous, else C order)."""
    if not isinstance(ary, np.ndarray) and not hasattr(ary, "__cuda_array_interface__"):
        raise TypeError(f"expected an array, not {type(ary).__name__}")
    flags = ary.flags
    contiguous = flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"]
    return ary.shape, ary.dtype, (ary.strides if contiguous and ary.size else None)


class MappedNDArray(np.ndarray):
    """A host array in mapped page-locked memory that kernels can use in place."""

    def __array_finalize__(self, obj):
        self._mahou_host_base = getattr(obj, "_mahou_host_base", None)
        self._mahou_device_base = getattr(obj, "_mahou_device_base", None)

    @property
    def __cuda_array_interface__(self):
        if self._mahou_device_base is None:
            raise AttributeError("__cuda_array_interface__")
        host = self.__array_interface__["data"][0]
        return {
            "shape": self.shape,
            "strides": None if self.flags["C_CONTIGUOUS"] else self.strides,
            "data": (self._mahou_device_base + (host - self._mahou_host_base), False),
            "typestr": self.dtype.str,
            "stream": None,
            "version": 3,
        }


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False,
                 wc=False):
    """A host array kernels read and write in place (mapped page-locked memory)."""
    arr, device_ptr = _host_array(shape, dtype, strides, order, mapped=True)
    arr = arr.view(MappedNDArray)
    arr._mahou_host_base = arr.__array_interface__["data"][0]
    arr._mahou_device_base = device_ptr
    return arr


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped_array of `ary`'s shape and dtype (its strides when it is contiguous)."""
    shape, dtype, strides = _like(ary)
    return mapped_array(shape, dtype, strides=strides, stream=stream, portable=portable, wc=wc)


def _host_span(ary):
    """(address of the lowest byte, bytes) of a NumPy array's memory."""
    if not isinstance(ary, np.ndarray):
        raise TypeError(f"expected a numpy.ndarray, not {type(ary).__name__}")
    lo, nbytes = _span(ary.shape, ary.strides, ary.itemsize)
    return ary.__array_interface__["data"][0] + lo, nbytes, lo


@contextlib.contextmanager
def _registered(arrays, mapped):
    device = _runtime._current_device_id()
    done, views = [], []
    try:
        for ary in arrays:
            start, nbytes, lo = _host_span(ary)
            if not nbytes:
                views.append(device_array(ary.shape, ary.dtype, strides=ary.strides) if mapped else ary)
                continue
            registered, device_ptr = _drv.host_register(start, nbytes, mapped, device)
            if registered:
                done.append(start)
            if mapped:
                views.append(DeviceNDArray(ary.shape, ary.strides, ary.dtype, device_ptr - lo, ary, 0,
                                           device))
        yield views
    finally:
        for start in done:
            _drv.host_unregister(start, device)


@contextlib.contextmanager
def pinned(*arrays):
    """Page-locks the arrays' memory for the block (faster, asynchronous copies)."""
    with _registered(arrays, mapped=False):
        yield


@contextlib.contextmanager
def mapped(*arrays, stream=0):
    """Page-locks and maps the arrays for the block; yields device arrays (one, or a
    list) that kernels read and write in place."""
    with _registered(arrays, mapped=True) as views:
        yield views[0] if len(views) == 1 else views


class ManagedNDArray(np.ndarray):
    """A NumPy array in managed (unified) memory: the host and kernels use the same
    memory (call cuda.synchronize() before reading what a kernel wrote)."""

    def __array_finalize__(self, obj):
        self._mahou_managed = getattr(obj, "_mahou_managed", False)

    @property
    def __cuda_array_interface__(self):
        if not self._mahou_managed:
            raise AttributeError("__cuda_array_interface__")
        return {
            "shape": self.shape,
            "strides": None if self.flags["C_CONTIGUOUS"] else self.strides,
            "data": (self.__array_interface__["data"][0], False),
            "typestr": self.dtype.str,
            "stream": None,
            "version": 3,
        }


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """An array in managed memory, usable on the host and in kernels without copies.
    CudaError when the device has no managed memory."""
    shape = _normalize_shape(shape)
    dtype = np.dtype(dtype)
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, order)
    lo, nbytes = _span(shape, strides, dtype.itemsize)
    buf, _ = _drv.managed_empty(nbytes, _runtime._current_device_id())
    arr = np.ndarray(shape, dtype, buffer=buf, offset=-lo, strides=strides).view(ManagedNDArray)
    arr._mahou_managed = True
    return arr


def from_dlpack(obj):
    """A DeviceNDArray view (zero copy) of a CUDA tensor of another library (PyTorch,
    CuPy, JAX) through DLPack; the tensor stays alive as long as the view."""
    if type(obj).__name__ == "PyCapsule":
        capsule = obj
    else:
        if not hasattr(obj, "__dlpack__"):
            raise TypeError(f"from_dlpack: {type(obj).__name__} does not support DLPack")
        kind, _ = obj.__dlpack_device__()
        if kind not in (_DL_CUDA, _DL_CUDA_MANAGED):
            raise TypeError("from_dlpack: the tensor is not in CUDA device memory (device type "
                            f"{kind}); copy host data with cuda.to_device")
        capsule = obj.__dlpack__(stream=1)  # our launches use the legacy default stream
    data, shape, strides, typestr, _kind, device, keeper = _drv.from_dlpack(capsule)
    return DeviceNDArray(shape, strides, np.dtype(typestr), data, keeper, 0, device)


def is_cuda_array(obj):
    return hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj, sync=True):
    """A DeviceNDArray view of an object with __cuda_array_interface__ (keeps it alive)."""
    if isinstance(obj, DeviceNDArray):
        return obj
    cai = obj.__cuda_array_interface__
    if cai.get("mask") is not None:
        raise NotImplementedError("masked __cuda_array_interface__ arrays are not supported")
    dtype = np.dtype(cai["typestr"])
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, "C")
    stream = cai.get("stream")
    if sync and stream not in (None, 0, 1, 2):
        _drv.stream_synchronize(_runtime._current_device_id(), int(stream))
    return DeviceNDArray(shape, tuple(strides), dtype, int(cai["data"][0]), obj, 0,
                         _runtime._current_device_id())


def is_cuda_ndarray(obj):
    return getattr(obj, "__cuda_memory__", False) is True
