"""mahou.cuda: CUDA kernels with Numba's API (`from mahou import cuda`).

    @cuda.jit
    def add(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]

    add[blocks, threads](x, y, out)

Importing needs no GPU: the driver (libcuda.so.1) is loaded on first use.
"""

from ..errors import CudaAPIError, CudaError, CudaSupportError
from ._decorators import (
    compile, compile_all, compile_for_current_device, compile_ptx, compile_ptx_for_current_device, declare_device, jit,
)
from . import _kernel_api  # noqa: F401  (kernel.forall, specialize, get_regs_per_thread, ...)
from . import cg, fp16, libdevice, random  # noqa: F401  (cuda.cg, cuda.fp16, cuda.libdevice, cuda.random)
from ._devicearray import (
    DeviceNDArray, ManagedNDArray, MappedNDArray, as_cuda_array, device_array, device_array_like,
    from_dlpack, is_cuda_array, is_cuda_ndarray, managed_array, mapped, mapped_array, pinned,
    mapped_array_like, pinned_array, pinned_array_like, to_device,
)
from ._ipc import IpcArrayHandle, IpcHandle, open_ipc_array
from ._device_side import *  # noqa: F401,F403  (threadIdx, grid, shared, atomic, ...)
from ._vectorize import Reduce, Reduce as reduce  # noqa: F401  (@cuda.reduce)
from ._device_side import __all__ as _device_side_names
from ._runtime import (
    Context, Device, Event, Stream, close, current_context, default_stream, detect, event,
    event_elapsed_time, external_stream, get_current_device, gpus, is_available,
    legacy_default_stream, list_devices, per_thread_default_stream, profile_start, profile_stop,
    profiling, require_context, select_device, stream, synchronize,
)

__all__ = [
    "jit", "declare_device", "compile", "compile_all", "compile_for_current_device", "compile_ptx",
    "compile_ptx_for_current_device", "CudaError", "CudaAPIError",
    "CudaSupportError", "DeviceNDArray", "MappedNDArray", "ManagedNDArray", "to_device",
    "device_array", "device_array_like", "pinned_array", "mapped_array", "managed_array",
    "pinned_array_like", "mapped_array_like", "profile_start", "profile_stop", "profiling", "require_context",
    "pinned", "mapped", "from_dlpack", "as_cuda_array",
    "is_cuda_array", "is_cuda_ndarray", "is_available", "detect", "synchronize", "stream",
    "default_stream", "legacy_default_stream", "per_thread_default_stream", "external_stream",
    "event", "event_elapsed_time", "Event", "Stream", "Device", "Context", "gpus",
    "get_current_device", "current_context", "select_device", "list_devices", "close",
    "cg", "fp16", "libdevice", "random", "reduce", "Reduce", "IpcHandle", "IpcArrayHandle",
    "open_ipc_array",
] + list(_device_side_names)

# The CPU emulator (MAHOU_ENABLE_CUDASIM=1, read at import): the driver layer itself is
# emulated in C++ (host memory, synchronous streams, kernels compiled for the CPU), so
# every name above works unchanged. MAHOU_CUDASIM_CHECKS=1 bounds-checks kernels.
import os as _os

if _os.environ.get("MAHOU_ENABLE_CUDASIM", "0") not in ("", "0"):
    from .. import _core as _core_module

    _checks = _os.environ.get("MAHOU_CUDASIM_CHECKS", "0") not in ("", "0")
    if not _core_module.cuda.use_emulator(_checks):
        raise CudaSupportError("MAHOU_ENABLE_CUDASIM=1 was set after the CUDA driver was "
                               "loaded; set it before importing mahou.cuda")
