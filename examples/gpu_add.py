"""The seed's GPU example: a @cuda.jit kernel adding two vectors.

Runs on the NVIDIA GPU when one is usable; otherwise in mahou's CUDA emulator
(MAHOU_ENABLE_CUDASIM=1), which runs the same kernel on the CPU.
"""

import ctypes
import os
import time

import numpy as np


def gpu_present():
    try:
        lib = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return lib.cuInit(0) == 0 and lib.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0
    except OSError:
        return False


if not gpu_present():
    os.environ.setdefault("MAHOU_ENABLE_CUDASIM", "1")

from mahou import cuda  # noqa: E402  (the emulator switch is read at import)


@cuda.jit
def gpu_add(a, b, result):
    idx = cuda.grid(1)
    if idx < a.size:
        result[idx] = a[idx] + b[idx]


def main():
    where = "CPU emulator" if os.environ.get("MAHOU_ENABLE_CUDASIM") == "1" else "GPU"
    a = np.array([1, 2, 3, 4, 5], dtype=np.float32)
    b = np.array([10, 20, 30, 40, 50], dtype=np.float32)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_result = cuda.to_device(np.zeros(5, dtype=np.float32))
    t = time.perf_counter()
    gpu_add[1, 5](d_a, d_b, d_result)
    cuda.synchronize()
    first = time.perf_counter() - t
    result = d_result.copy_to_host()
    print(f"gpu_add on the {where}: {result}  (first call, compile + launch: {first * 1e3:.1f} ms)")
    assert result.tolist() == [11.0, 22.0, 33.0, 44.0, 55.0]

    n = 1 << 22
    x = cuda.to_device(np.random.rand(n).astype(np.float32))
    y = cuda.to_device(np.random.rand(n).astype(np.float32))
    out = cuda.device_array(n, dtype=np.float32)
    threads = 256
    gpu_add[(n + threads - 1) // threads, threads](x, y, out)
    cuda.synchronize()
    t = time.perf_counter()
    gpu_add[(n + threads - 1) // threads, threads](x, y, out)
    cuda.synchronize()
    dt = time.perf_counter() - t
    assert np.allclose(out.copy_to_host(), x.copy_to_host() + y.copy_to_host())
    print(f"{n} elements: {dt * 1e3:.2f} ms ({3 * 4 * n / dt / 1e9:.1f} GB/s counting 3 arrays)")


if __name__ == "__main__":
    main()
