"""The names kernels use from mahou.cuda (threadIdx, grid, shared.array, atomic.add,
...). The compiler recognises them by name; in Python they only raise."""

__all__ = [
    "grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpsize", "laneid",
    "shared", "local", "const", "atomic", "syncthreads", "syncthreads_count",
    "syncthreads_and", "syncthreads_or", "threadfence", "threadfence_block",
    "threadfence_system", "syncwarp", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
    "shfl_xor_sync", "ballot_sync", "all_sync", "any_sync", "eq_sync", "match_any_sync",
    "match_all_sync", "activemask", "lanemask_lt", "fma", "popc", "clz", "brev", "ffs", "cbrt",
    "selp", "nanosleep",
]


def _outside_kernel(name):
    return RuntimeError(
        f"cuda.{name} can only be used inside a @cuda.jit kernel or device function")


class _DeviceFunction:
    """A function that exists only in device code: calling it from Python raises."""

    def __init__(self, name, qualname=None):
        self.__name__ = name
        self.__qualname__ = qualname or name

    def __call__(self, *args, **kwargs):
        raise _outside_kernel(self.__qualname__ + "()")

    def __repr__(self):
        return f"<CUDA device function cuda.{self.__qualname__}>"


class _DeviceValue:
    """A value that exists only in device code (warpsize, laneid)."""

    def __init__(self, name):
        self.__name__ = name
        self.__qualname__ = name

    def __repr__(self):
        return f"<CUDA device value cuda.{self.__name__}>"

    def __index__(self):
        raise _outside_kernel(self.__name__)

    __int__ = __index__


class _Dim3:
    """threadIdx, blockIdx, blockDim, gridDim: .x, .y, .z inside kernels."""

    def __init__(self, name):
        self.__name__ = name
        self.__qualname__ = name

    def __getattr__(self, attr):
        if attr in ("x", "y", "z"):
            raise _outside_kernel(f"{self.__name__}.{attr}")
        raise AttributeError(f"cuda.{self.__name__} has no attribute {attr!r}")

    def __repr__(self):
        return f"<CUDA device value cuda.{self.__name__}>"


class _Namespace:
    """shared, local, const, atomic: a group of device functions."""

    def __init__(self, name, functions):
        self.__name__ = name
        self.__qualname__ = name
        for fn in functions:
            setattr(self, fn, _DeviceFunction(fn, f"{name}.{fn}"))

    def __repr__(self):
        return f"<CUDA device namespace cuda.{self.__name__}>"


grid = _DeviceFunction("grid")
gridsize = _DeviceFunction("gridsize")
threadIdx = _Dim3("threadIdx")
blockIdx = _Dim3("blockIdx")
blockDim = _Dim3("blockDim")
gridDim = _Dim3("gridDim")
warpsize = _DeviceValue("warpsize")
laneid = _DeviceValue("laneid")

shared = _Namespace("shared", ["array"])
local = _Namespace("local", ["array"])
const = _Namespace("const", ["array_like"])
atomic = _Namespace("atomic", [
    "add", "sub", "and_", "or_", "xor", "max", "min", "exch", "cas", "compare_and_swap", "inc",
    "dec", "nanmax", "nanmin",
])

_FUNCTIONS = [
    "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "threadfence",
    "threadfence_block", "threadfence_system", "syncwarp", "shfl_sync", "shfl_up_sync",
    "shfl_down_sync", "shfl_xor_sync", "ballot_sync", "all_sync", "any_sync", "eq_sync",
    "match_any_sync", "match_all_sync", "activemask", "lanemask_lt", "fma", "popc", "clz",
    "brev", "ffs", "cbrt", "selp", "nanosleep",
]
globals().update({name: _DeviceFunction(name) for name in _FUNCTIONS})
