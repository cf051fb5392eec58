"""The CUDA emulator (MAHOU_ENABLE_CUDASIM=1): @cuda.jit kernels run on the CPU with the
same front end; checked in a subprocess because the switch is read at import."""

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent('''
    import numpy as np
    from mahou import cuda

    assert cuda.is_available()

    @cuda.jit
    def gpu_add(a, b, result):
        idx = cuda.grid(1)
        if idx < a.size:
            result[idx] = a[idx] + b[idx]

    a = np.array([1, 2, 3, 4, 5], dtype=np.float32)
    b = np.array([10, 20, 30, 40, 50], dtype=np.float32)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_result = cuda.to_device(np.zeros(5, dtype=np.float32))
    gpu_add[1, 5](d_a, d_b, d_result)
    assert d_result.copy_to_host().tolist() == [11.0, 22.0, 33.0, 44.0, 55.0]

    @cuda.jit
    def block_sum(x, out):
        buf = cuda.shared.array(128, dtype=np.float64)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        buf[t] = x[i] if i < x.size else 0.0
        cuda.syncthreads()
        s = 64
        while s > 0:
            if t < s:
                buf[t] += buf[t + s]
            cuda.syncthreads()
            s //= 2
        if t == 0:
            cuda.atomic.add(out, 0, buf[0])

    x = np.random.rand(10000)
    out = cuda.to_device(np.zeros(1))
    block_sum[(x.size + 127) // 128, 128](cuda.to_device(x), out)
    assert abs(out.copy_to_host()[0] - x.sum()) < 1e-9 * x.size

    @cuda.jit
    def matmul(A, B, C):
        i, j = cuda.grid(2)
        if i < C.shape[0] and j < C.shape[1]:
            acc = 0.0
            for k in range(A.shape[1]):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc

    A = np.random.rand(33, 17); B = np.random.rand(17, 9); C = np.zeros((33, 9))
    matmul[(5, 2), (8, 8)](A, B, C)
    assert np.allclose(C, A @ B)

    @cuda.jit
    def warp_sum(x, out):
        i = cuda.grid(1)
        v = x[i]
        off = 16
        while off > 0:
            v += cuda.shfl_down_sync(0xffffffff, v, off)
            off //= 2
        if cuda.laneid == 0:
            out[i // 32] = v

    x = np.arange(64, dtype=np.int64); out = np.zeros(2, dtype=np.int64)
    warp_sum[1, 64](x, out)
    assert out.tolist() == [x[:32].sum(), x[32:].sum()]

    @cuda.jit
    def oob(a):
        a[cuda.grid(1)] = 1.0

    try:
        oob[2, 8](np.zeros(10))
        raise SystemExit("no IndexError")
    except IndexError as e:  # names the kernel, the file and line, the thread and block
        msg = str(e)
        assert "in 'oob'" in msg and "ctaid=[1, 0, 0]" in msg and "tid=[" in msg, msg
        line = [i + 1 for i, text in enumerate(open(__file__)) if "a[cuda.grid(1)] = 1.0" in text][0]
        assert f"{__file__}:{line}" in msg, msg

    @cuda.jit
    def partial(a):
        if cuda.threadIdx.x < 3:
            cuda.syncthreads()
        a[0] = 1.0

    try:
        partial[1, 8](np.zeros(1))
        raise SystemExit("no error for a partial barrier")
    except RuntimeError as e:
        assert "only part of the block" in str(e), str(e)
    print("EMULATOR-OK")
''')


def test_kernels_run_in_the_emulator(tmp_path):
    path = tmp_path / "emulated.py"
    path.write_text(SCRIPT)
    env = dict(os.environ, MAHOU_ENABLE_CUDASIM="1", MAHOU_CUDASIM_CHECKS="1")
    run = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "EMULATOR-OK" in run.stdout
