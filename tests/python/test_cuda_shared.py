"""Shared, local and constant memory in kernels: block reductions with syncthreads,
the tiled matrix multiply of Numba's documentation, dynamic shared memory."""

import numpy as np
import pytest

from mahou import cuda, float32, float64, int64

pytestmark = pytest.mark.gpu

TPB = 128


@cuda.jit
def block_sum(a, partial):
    buf = cuda.shared.array(TPB, dtype=float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]


def test_shared_memory_reduction():
    a = np.random.default_rng(1).random(100_000)
    blocks = (a.size + TPB - 1) // TPB
    partial = np.zeros(blocks)
    block_sum[blocks, TPB](a, partial)
    np.testing.assert_allclose(partial.sum(), a.sum(), rtol=1e-12)
    np.testing.assert_allclose(partial[0], a[:TPB].sum(), rtol=1e-12)


TILE = 16


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TILE, TILE), dtype=float32)
    sB = cuda.shared.array(shape=(TILE, TILE), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TILE) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TILE]
        if x < B.shape[1] and (ty + i * TILE) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TILE, x]
        cuda.syncthreads()
        for j in range(TILE):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@pytest.mark.parametrize("n", [16, 100, 256])
def test_tiled_matmul(n):
    rng = np.random.default_rng(n)
    A = rng.random((n, n), dtype=np.float32)
    B = rng.random((n, n), dtype=np.float32)
    dC = cuda.device_array((n, n), dtype=np.float32)
    blocks = (n + TILE - 1) // TILE
    fast_matmul[(blocks, blocks), (TILE, TILE)](cuda.to_device(A), cuda.to_device(B), dC)
    np.testing.assert_allclose(dC.copy_to_host(), A @ B, rtol=1e-4)


@cuda.jit
def reverse_dynamic(a):
    buf = cuda.shared.array(0, dtype=float32)
    i = cuda.threadIdx.x
    n = cuda.blockDim.x
    buf[i] = a[i]
    cuda.syncthreads()
    a[i] = buf[n - 1 - i]


def test_dynamic_shared_memory():
    a = np.arange(256, dtype=np.float32)
    d = cuda.to_device(a)
    reverse_dynamic[1, 256, 0, a.nbytes](d)
    np.testing.assert_array_equal(d.copy_to_host(), a[::-1])


@cuda.jit
def big_dynamic_sum(a, out):
    buf = cuda.shared.array(0, dtype=float32)
    tid = cuda.threadIdx.x
    n = a.size
    for i in range(tid, n, cuda.blockDim.x):
        buf[i] = a[i]
    cuda.syncthreads()
    if tid == 0:
        s = float32(0)
        for i in range(n):
            s += buf[i]
        out[0] = s


def test_dynamic_shared_memory_above_48k():
    n = 20_000  # 80 KB of float32: needs the opt-in attribute
    a = np.ones(n, dtype=np.float32)
    out = np.zeros(1, dtype=np.float32)
    big_dynamic_sum[1, 256, 0, a.nbytes](a, out)
    assert out[0] == n


@cuda.jit
def local_prefix(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        tmp = cuda.local.array(4, dtype=int64)
        for k in range(4):
            tmp[k] = a[i, k]
        for k in range(1, 4):
            tmp[k] += tmp[k - 1]
        for k in range(4):
            out[i, k] = tmp[k]


def test_local_arrays():
    a = np.arange(40, dtype=np.int64).reshape(10, 4)
    out = np.zeros_like(a)
    local_prefix[1, 16](a, out)
    np.testing.assert_array_equal(out, np.cumsum(a, axis=1))


WEIGHTS = np.array([0.5, 1.5, 2.5, 3.5], dtype=np.float64)


@cuda.jit
def weighted(a):
    w = cuda.const.array_like(WEIGHTS)
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * w[i % 4]


def test_const_arrays():
    a = np.ones(10)
    weighted[1, 16](a)
    np.testing.assert_array_equal(a, np.resize(WEIGHTS, 10))


@cuda.jit
def count_positive(a, out):
    i = cuda.grid(1)
    pred = 1 if i < a.size and a[i] > 0 else 0
    n = cuda.syncthreads_count(pred)
    any_ = cuda.syncthreads_or(pred)
    all_ = cuda.syncthreads_and(pred)
    if cuda.threadIdx.x == 0:
        out[0] = n
        out[1] = any_
        out[2] = all_


def test_syncthreads_count_and_or():
    a = np.array([1, -1, 2, 0, 5, 6, -3, 8], dtype=np.int32)
    out = np.zeros(3, dtype=np.int32)
    count_positive[1, 8](a, out)
    assert out[0] == 5 and out[1] != 0 and out[2] == 0


@cuda.jit
def fenced(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i
        cuda.threadfence_block()
        cuda.threadfence()
        cuda.threadfence_system()


def test_threadfences():
    a = np.zeros(32, dtype=np.int64)
    fenced[1, 32](a)
    np.testing.assert_array_equal(a, np.arange(32))
