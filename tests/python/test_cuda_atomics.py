"""Atomic operations (add, sub, max, min, exch, cas, and_, or_, xor) over the integer
and float dtypes, warp-level primitives (shuffles, ballot, votes) and bit intrinsics."""

import numpy as np
import pytest

from mahou import cuda

pytestmark = pytest.mark.gpu

N = 4096
ATOMIC_DTYPES = [np.int32, np.int64, np.uint32, np.uint64, np.float32, np.float64]


@cuda.jit
def atomic_count(out):
    i = cuda.grid(1)
    if i < 4096:
        cuda.atomic.add(out, 0, 1)
        cuda.atomic.add(out, i % 4 + 1, 2)


@pytest.mark.parametrize("dtype", ATOMIC_DTYPES)
def test_atomic_add(dtype):
    out = np.zeros(5, dtype=dtype)
    atomic_count[N // 256, 256](out)
    np.testing.assert_array_equal(out, np.array([N, N // 2, N // 2, N // 2, N // 2], dtype))


@cuda.jit
def atomic_sub_kernel(out):
    i = cuda.grid(1)
    if i < 4096:
        cuda.atomic.sub(out, 0, 1)


@pytest.mark.parametrize("dtype", ATOMIC_DTYPES)
def test_atomic_sub(dtype):
    out = np.array([N + 5], dtype=dtype)
    atomic_sub_kernel[N // 256, 256](out)
    assert out[0] == 5


@cuda.jit
def atomic_max_min(values, out):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.max(out, 0, values[i])
        cuda.atomic.min(out, 1, values[i])


@pytest.mark.parametrize("dtype", ATOMIC_DTYPES)
def test_atomic_max_min(dtype):
    rng = np.random.default_rng(3)
    values = rng.integers(1, 1000, N).astype(dtype)
    out = np.array([0, 10_000], dtype=dtype)
    atomic_max_min[N // 256, 256](values, out)
    assert out[0] == values.max() and out[1] == values.min()


@cuda.jit
def atomic_2d(out):
    x, y = cuda.grid(2)
    if x < 16 and y < 16:
        cuda.atomic.add(out, (x % 2, y % 2), 1)


def test_atomic_add_with_tuple_index():
    out = np.zeros((2, 2), dtype=np.int32)
    atomic_2d[(2, 2), (8, 8)](out)
    np.testing.assert_array_equal(out, np.full((2, 2), 64))


@cuda.jit
def atomic_exch_kernel(out, old):
    i = cuda.grid(1)
    if i < old.size:
        old[i] = cuda.atomic.exch(out, 0, i + 1)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.uint64, np.float32,
                                   np.float64])
def test_atomic_exch(dtype):
    out = np.zeros(1, dtype=dtype)
    old = np.zeros(64, dtype=dtype)
    atomic_exch_kernel[1, 64](out, old)
    seen = np.sort(np.append(old, out))
    np.testing.assert_array_equal(seen, np.arange(65, dtype=dtype))


@cuda.jit
def cas_lock(out, counter):
    i = cuda.grid(1)
    if i < 256:
        old = cuda.atomic.cas(out, 0, 0, i + 1)  # only the first thread wins
        if old == 0:
            cuda.atomic.add(counter, 0, 1)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.uint64])
def test_atomic_cas(dtype):
    out = np.zeros(1, dtype=dtype)
    counter = np.zeros(1, dtype=np.int32)
    cas_lock[1, 256](out, counter)
    assert counter[0] == 1 and 1 <= out[0] <= 256


@cuda.jit
def bitwise_atomics(out):
    i = cuda.grid(1)
    if i < 32:
        cuda.atomic.or_(out, 0, 1 << i)
        cuda.atomic.and_(out, 1, ~(1 << i))
        cuda.atomic.xor(out, 2, 1 << (i % 4))


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.uint32])
def test_atomic_and_or_xor(dtype):
    out = np.array([0, 0xFFFFFFFF, 0], dtype=dtype)
    bitwise_atomics[1, 32](out)
    assert out[0] == 0xFFFFFFFF and out[1] == 0 and out[2] == 0


@cuda.jit
def warp_sum(a, out):
    i = cuda.grid(1)
    v = a[i]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_shfl_down_reduction(dtype):
    a = np.arange(128).astype(dtype)
    out = np.zeros(4, dtype=dtype)
    warp_sum[1, 128](a, out)
    np.testing.assert_array_equal(out, a.reshape(4, 32).sum(axis=1))


@cuda.jit
def shuffles(a, bcast, up, xor):
    i = cuda.grid(1)
    v = a[i]
    bcast[i] = cuda.shfl_sync(0xFFFFFFFF, v, 3)
    up[i] = cuda.shfl_up_sync(0xFFFFFFFF, v, 1)
    xor[i] = cuda.shfl_xor_sync(0xFFFFFFFF, v, 1)


def test_shuffles():
    a = np.arange(32, dtype=np.int32) * 10
    bcast, up, xor = (np.zeros(32, dtype=np.int32) for _ in range(3))
    shuffles[1, 32](a, bcast, up, xor)
    np.testing.assert_array_equal(bcast, np.full(32, 30))
    np.testing.assert_array_equal(up, np.concatenate([[0], a[:-1]]))  # lane 0 keeps its own
    np.testing.assert_array_equal(xor, a[np.arange(32) ^ 1])


@cuda.jit
def votes(a, out):
    i = cuda.grid(1)
    pred = a[i] > 0
    ballot = cuda.ballot_sync(0xFFFFFFFF, pred)
    every = cuda.all_sync(0xFFFFFFFF, pred)
    some = cuda.any_sync(0xFFFFFFFF, pred)
    mask = cuda.activemask()  # before the branch: inside it only lane 0 is active
    if cuda.laneid == 0:
        out[0] = ballot
        out[1] = every
        out[2] = some
        out[3] = mask
    cuda.syncwarp()


def test_ballot_and_votes():
    a = np.zeros(32, dtype=np.int32)
    a[[0, 5, 31]] = 1
    out = np.zeros(4, dtype=np.int64)
    votes[1, 32](a, out)
    assert out[0] == (1 | 1 << 5 | 1 << 31)
    assert out[1] == 0 and out[2] != 0
    assert out[3] == 0xFFFFFFFF


@cuda.jit
def bit_ops(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = cuda.popc(a[i])
        out[i, 1] = cuda.clz(a[i])
        out[i, 2] = cuda.brev(a[i])


def test_popc_clz_brev():
    a = np.array([1, 2, 0xF0, 0x80000000, 0xFFFFFFFF], dtype=np.uint32)
    out = np.zeros((5, 3), dtype=np.int64)
    bit_ops[1, 8](a, out)
    np.testing.assert_array_equal(out[:, 0], [bin(int(v)).count("1") for v in a])
    np.testing.assert_array_equal(out[:, 1], [32 - int(v).bit_length() for v in a])
    np.testing.assert_array_equal(out[:, 2], [int(f"{int(v):032b}"[::-1], 2) for v in a])


@cuda.jit
def fma_kernel(a, b, c, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cuda.fma(a[i], b[i], c[i])


def test_fma():
    a, b, c = (np.arange(8, dtype=np.float64) + k for k in range(3))
    out = np.zeros(8)
    fma_kernel[1, 8](a, b, c, out)
    np.testing.assert_array_equal(out, a * b + c)


@cuda.jit
def ffs_kernel(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = cuda.ffs(a[i])


def python_ffs(v, bits):
    v = int(v) & ((1 << bits) - 1)
    return (v & -v).bit_length()  # 1 + the lowest set bit's index, 0 for 0


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64])
def test_ffs(dtype):
    # the worked example of docs/pipeline.md: a CUDA intrinsic added as a registry entry
    info = np.iinfo(dtype)
    vals = [0, 1, 2, 3, 8, 12, info.max, info.min, info.max - 1, 1 << (info.bits - 2)]
    if info.min < 0:
        vals += [-1, -2, -8]
    a = np.array(vals, dtype=dtype)
    out = np.full(a.size, 99, dtype=np.uint32)
    ffs_kernel[1, 32](a, out)
    np.testing.assert_array_equal(out, [python_ffs(v, info.bits) for v in vals])


def test_ffs_result_type():
    sig = cuda.compile_ptx(ffs_device, "(int64,)", device=True)[1]
    assert str(sig) == "uint32"


def ffs_device(x):
    return cuda.ffs(x)
