"""The CUDA emulator (MAHOU_ENABLE_CUDASIM=1, read when mahou.cuda is imported).

Kernels are compiled for the CPU by the same front end and typed IR as on the GPU;
threads of a block run as fibers so cuda.syncthreads() and warp operations work for
any block size, and blocks are spread over the CPU cores. "Device" arrays are host
memory behind the DeviceNDArray API; streams and events behave as on a GPU (events
time the host). With MAHOU_CUDASIM_CHECKS=1 every array access in a kernel is bounds
checked: an IndexError names the thread and block.
"""

import os
import time

import numpy as np

from .. import _core
from ..decorators import _source_of
from .._resolver import make_resolver
from . import _decorators
from ._decorators import jit as _gpu_jit
from ._device_side import *  # noqa: F401,F403  (threadIdx, grid, shared, atomic, ...)

_core._import_numpy()


def _checks():
    return os.environ.get("MAHOU_CUDASIM_CHECKS", "0") == "1"


class DeviceNDArray:
    """Host memory standing in for device memory, with Numba's DeviceNDArray API."""

    def __init__(self, ary):
        self._ary = ary

    shape = property(lambda self: self._ary.shape)
    strides = property(lambda self: self._ary.strides)
    dtype = property(lambda self: self._ary.dtype)
    size = property(lambda self: self._ary.size)
    ndim = property(lambda self: self._ary.ndim)
    nbytes = property(lambda self: self._ary.nbytes)

    def __len__(self):
        return len(self._ary)

    def __getitem__(self, index):
        item = self._ary[index]
        return DeviceNDArray(item) if isinstance(item, np.ndarray) else item

    def __setitem__(self, index, value):
        self._ary[index] = value._ary if isinstance(value, DeviceNDArray) else value

    def copy_to_host(self, ary=None, stream=0):
        if ary is None:
            return self._ary.copy()
        ary[...] = self._ary
        return ary

    def copy_to_device(self, ary, stream=0):
        self._ary[...] = ary._ary if isinstance(ary, DeviceNDArray) else ary

    def is_c_contiguous(self):
        return self._ary.flags.c_contiguous

    def is_f_contiguous(self):
        return self._ary.flags.f_contiguous

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "strides": self.strides, "typestr": self.dtype.str,
                "data": (self._ary.ctypes.data, False), "version": 3}

    def __repr__(self):
        return f"<mahou.cuda simulator DeviceNDArray shape={self.shape} dtype={self.dtype}>"


def to_device(obj, stream=0, copy=True, to=None):
    if to is not None:
        to.copy_to_device(obj)
        return to
    return DeviceNDArray(np.array(obj, copy=True))


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    return DeviceNDArray(np.zeros(shape, dtype=dtype, order=order))


def device_array_like(ary, stream=0):
    return DeviceNDArray(np.zeros_like(ary._ary if isinstance(ary, DeviceNDArray) else ary))


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    return np.zeros(shape, dtype=dtype, order=order)


mapped_array = pinned_array


def is_cuda_array(obj):
    return isinstance(obj, DeviceNDArray)


def as_cuda_array(obj):
    return obj if isinstance(obj, DeviceNDArray) else DeviceNDArray(np.asarray(obj))


def is_available():
    return True


def detect():
    print("Found 1 CUDA device (the mahou CPU emulator, MAHOU_ENABLE_CUDASIM=1)")
    return True


def synchronize():
    pass


class Stream:
    def synchronize(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def stream():
    return Stream()


default_stream = legacy_default_stream = per_thread_default_stream = stream


class Event:
    """Records the host time (kernels finish before their launch returns)."""

    def __init__(self, timing=True):
        self._t = None

    def record(self, stream=0):
        self._t = time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=0):
        pass

    def query(self):
        return True

    def elapsed_time(self, end):
        return (end._t - self._t) * 1000.0


def event(timing=True):
    return Event(timing)


def event_elapsed_time(start, end):
    return start.elapsed_time(end)


def _dims(value):
    if isinstance(value, tuple):
        dims = tuple(int(v) for v in value) + (1,) * (3 - len(value))
    else:
        dims = (int(value), 1, 1)
    if len(dims) != 3 or min(dims) < 1:
        raise ValueError(f"invalid launch dimensions {value!r}")
    return dims


class _Configured:
    def __init__(self, kernel, grid, block, shared):
        self._kernel, self._grid, self._block, self._shared = kernel, grid, block, shared

    def __call__(self, *args):
        self._kernel._launch(args, self._grid, self._block, self._shared)


class SimKernel:
    """A @cuda.jit kernel for the emulator: kernel[grid, block](args)."""

    def __init__(self, func):
        self.py_func = func
        source, filename, firstlineno = _source_of(func)
        self._kernel = _core.SimKernel(func, source, filename, firstlineno, func.__name__, make_resolver(func), _checks())
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__

    def __getitem__(self, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError("launch configuration must be [grid, block], [grid, block, stream] or "
                             "[grid, block, stream, dynamic_shared_bytes]")
        shared = int(config[3]) if len(config) == 4 else 0
        return _Configured(self, _dims(config[0]), _dims(config[1]), shared)

    def _launch(self, args, grid, block, shared):
        host = []
        copies = []
        for a in args:
            if isinstance(a, DeviceNDArray):
                host.append(a._ary)
            elif isinstance(a, np.ndarray):
                host.append(a)  # host memory is device memory here: no copies needed
            elif hasattr(a, "__cuda_array_interface__") and not isinstance(a, (int, float, complex)):
                arr = np.asarray(a)
                host.append(arr)
                copies.append((a, arr))
            else:
                host.append(a)
        self._kernel.launch(tuple(host), grid, block, shared)

    def __call__(self, *args):
        raise TypeError("a CUDA kernel is launched with kernel[grid, block](args)")


def compile_ptx(pyfunc, sig, **kwargs):
    """PTX needs no GPU: the real compiler, given the kernel's Python function."""
    return _decorators.compile_ptx(getattr(pyfunc, "py_func", pyfunc), sig, **kwargs)


def compile_ptx_for_current_device(pyfunc, sig, **kwargs):
    return compile_ptx(pyfunc, sig, **kwargs)


def jit(func_or_sig=None, device=False, **options):
    """cuda.jit for the emulator: kernels run on the CPU; device functions are the real
    (target-independent) device-function objects."""
    if device:
        return _gpu_jit(func_or_sig, device=True, **options)

    def make(func):
        return SimKernel(func)

    if callable(func_or_sig) and not isinstance(func_or_sig, (str, list, tuple)):
        return make(func_or_sig)
    return make


__all__ = ["jit", "to_device", "device_array", "device_array_like", "pinned_array", "mapped_array", "DeviceNDArray",
           "is_cuda_array", "as_cuda_array", "is_available", "detect", "synchronize", "stream", "default_stream",
           "legacy_default_stream", "per_thread_default_stream", "event", "event_elapsed_time", "Event", "Stream",
           "SimKernel", "compile_ptx", "compile_ptx_for_current_device"]
