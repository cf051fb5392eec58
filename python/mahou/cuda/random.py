"""mahou.cuda.random: numba-cuda's xoroshiro128+ generators for kernels.

    states = create_xoroshiro128p_states(n, seed=1)   # on the host, copied to the device

    @cuda.jit
    def fill(out, states):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = xoroshiro128p_uniform_float32(states, i)

The states array has numba-cuda's record layout (xoroshiro128p_dtype: uint64 s0, s1)
and the same streams for the same seed: state i is state 0 advanced by i * 2**64
steps. Kernels see it as a uint64 array with a trailing dimension of 2. The device
functions are compiled by mahou's sema and codegen (codegen/gpu_extras.cpp)."""

import numpy as np

from .. import _core
from ._device_side import _DeviceFunction

_DEVICE_NAMESPACE = True  # kernels use cuda.random.<name> (the resolver reads this)

__all__ = [
    "xoroshiro128p_dtype", "xoroshiro128p_type", "create_xoroshiro128p_states",
    "init_xoroshiro128p_states", "xoroshiro128p_next", "xoroshiro128p_jump",
    "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64",
]

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
xoroshiro128p_type = xoroshiro128p_dtype

_UINT64_MOD = 1 << 64


def _uint64(value, what):
    value = int(value)
    if not -(1 << 63) <= value < _UINT64_MOD:
        raise ValueError(f"{what} {value} does not fit in 64 bits")
    return value % _UINT64_MOD


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Seeds a device array of xoroshiro128p_dtype: state 0 from `seed` (SplitMix64)
    advanced subsequence_start * 2**64 steps, each next state 2**64 steps further."""
    if np.dtype(states.dtype) != xoroshiro128p_dtype or states.ndim != 1:
        raise TypeError("init_xoroshiro128p_states: states must be a 1-D device array of "
                        "xoroshiro128p_dtype (see create_xoroshiro128p_states)")
    host = np.empty((states.shape[0], 2), dtype=np.uint64)
    _core.cuda.xoroshiro128p_init(host, _uint64(seed, "seed"),
                                  _uint64(subsequence_start, "subsequence_start"))
    states.copy_to_device(host.view(xoroshiro128p_dtype).reshape(states.shape[0]), stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of n generator states (independent for up to 2**64 draws each)."""
    from ._devicearray import device_array
    n = int(n)
    if n < 0:
        raise ValueError("create_xoroshiro128p_states: n must not be negative")
    states = device_array(n, dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


xoroshiro128p_next = _DeviceFunction("xoroshiro128p_next", "random.xoroshiro128p_next")
xoroshiro128p_jump = _DeviceFunction("xoroshiro128p_jump", "random.xoroshiro128p_jump")
xoroshiro128p_uniform_float32 = _DeviceFunction("xoroshiro128p_uniform_float32",
                                                "random.xoroshiro128p_uniform_float32")
xoroshiro128p_uniform_float64 = _DeviceFunction("xoroshiro128p_uniform_float64",
                                                "random.xoroshiro128p_uniform_float64")
xoroshiro128p_normal_float32 = _DeviceFunction("xoroshiro128p_normal_float32",
                                               "random.xoroshiro128p_normal_float32")
xoroshiro128p_normal_float64 = _DeviceFunction("xoroshiro128p_normal_float64",
                                               "random.xoroshiro128p_normal_float64")
