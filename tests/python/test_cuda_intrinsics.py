"""numba-cuda's further kernel intrinsics: atomic inc/dec (CUDA's wrapping counters),
atomic nanmax/nanmin, selp, cbrt, nanosleep, lanemask_lt, eq_sync, match_any_sync and
match_all_sync; each kernel's results against a NumPy/Python reference, and each
kernel's PTX assembled by ptxas when it is present."""

import math
import os
import subprocess
import tempfile

import numpy as np
import pytest

from conftest import find_ptxas
from mahou import cuda
from mahou.errors import TypingError

pytestmark = pytest.mark.gpu


def assemble(kernel, sig):
    """The kernel's PTX for sm_90 assembles (when ptxas is present)."""
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
    ptxas = find_ptxas()
    if not ptxas:
        return ptx
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
    try:
        run = subprocess.run([ptxas, "-arch=sm_90", f.name, "-o", os.devnull], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    finally:
        os.unlink(f.name)
    return ptx


def sig(dtype, arrays, *rest):
    """A kernel signature: `arrays` 1-D arrays of dtype, then the `rest` types."""
    return "void(" + ", ".join([np.dtype(dtype).name + "[::1]"] * arrays + list(rest)) + ")"


# ------------------------------------------------------------------ atomic inc / dec

def inc_ref(old, bound):
    return 0 if old >= bound else old + 1


def dec_ref(old, bound):
    return bound if old == 0 or old > bound else old - 1


@cuda.jit
def inc_dec_each(ary, bounds, olds, dec):
    i = cuda.grid(1)
    if i < ary.size:
        if dec:
            olds[i] = cuda.atomic.dec(ary, i, bounds[i])
        else:
            olds[i] = cuda.atomic.inc(ary, i, bounds[i])


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("dec", [False, True])
def test_atomic_inc_dec_each_element(dtype, dec):
    top = np.iinfo(dtype).max
    start = np.array([0, 1, 5, 6, 7, 0, 3, top, top - 1, 10], dtype=dtype)
    bounds = np.array([5, 5, 5, 5, 5, 0, 0, top, top, 3], dtype=dtype)
    ary = start.copy()
    olds = np.zeros_like(start)
    inc_dec_each[1, 32](ary, bounds, olds, dec)
    ref = dec_ref if dec else inc_ref
    np.testing.assert_array_equal(olds, start)
    np.testing.assert_array_equal(ary, [ref(int(o), int(b)) for o, b in zip(start, bounds)])
    assemble(inc_dec_each, sig(dtype, 3, "bool"))


@cuda.jit
def inc_dec_count(counter, n, bound):
    i = cuda.grid(1)
    if i < n:
        cuda.atomic.inc(counter, (0, 0), bound)
        cuda.atomic.dec(counter, (0, 1), bound)


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("n", [0, 1, 7, 1000, 4096])
def test_atomic_inc_dec_concurrent_wrap(dtype, n):
    bound = 6
    counter = np.zeros((1, 2), dtype=dtype)
    inc_dec_count[max(1, (n + 255) // 256), 256](counter, n, bound)
    # each inc counts modulo bound + 1 from 0; each dec counts down modulo bound + 1 from 0
    assert counter[0, 0] == n % (bound + 1)
    assert counter[0, 1] == (-n) % (bound + 1)


@cuda.jit
def inc_on_a_device_view(ary, bound):
    i = cuda.grid(1)
    if i < ary.size:
        cuda.atomic.inc(ary, i, bound)


def test_atomic_inc_on_a_non_contiguous_device_view():
    base = np.arange(20, dtype=np.uint32)
    d = cuda.to_device(base)
    inc_on_a_device_view[1, 32](d[::2], 9)
    ref = base.copy()
    ref[::2] = [inc_ref(int(v), 9) for v in base[::2]]
    np.testing.assert_array_equal(d.copy_to_host(), ref)


def test_atomic_inc_dec_refuse_signed_and_float_arrays():
    @cuda.jit
    def k(a):
        cuda.atomic.inc(a, 0, 1)

    for dtype in (np.int32, np.int64, np.float64):
        with pytest.raises(TypingError, match="uint32 or uint64"):
            k[1, 1](np.zeros(2, dtype=dtype))


# ------------------------------------------------------------------ atomic nanmax / nanmin

def nanmax_ref(old, val):
    if math.isnan(val):
        return old
    return val if math.isnan(old) or old < val else old


def nanmin_ref(old, val):
    if math.isnan(val):
        return old
    return val if math.isnan(old) or old > val else old


@cuda.jit
def nan_minmax_each(hi, lo, vals, olds):
    i = cuda.grid(1)
    if i < vals.size:
        olds[0, i] = cuda.atomic.nanmax(hi, i, vals[i])
        olds[1, i] = cuda.atomic.nanmin(lo, i, vals[i])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_atomic_nanmax_nanmin_each_element(dtype):
    nan, inf = float("nan"), float("inf")
    start = np.array([1.0, 1.0, nan, nan, -2.0, 3.0, -inf, inf, 0.0, -0.5], dtype=dtype)
    vals = np.array([2.0, nan, 5.0, nan, -3.0, 3.0, 1.0, -1.0, -0.0, -0.25], dtype=dtype)
    hi, lo = start.copy(), start.copy()
    olds = np.zeros((2, start.size), dtype=dtype)
    nan_minmax_each[1, 32](hi, lo, vals, olds)
    np.testing.assert_array_equal(olds[0], start)
    np.testing.assert_array_equal(olds[1], start)
    np.testing.assert_array_equal(hi, np.array([nanmax_ref(float(o), float(v)) for o, v in zip(start, vals)], dtype))
    np.testing.assert_array_equal(lo, np.array([nanmin_ref(float(o), float(v)) for o, v in zip(start, vals)], dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.uint64])
def test_atomic_nanmax_nanmin_of_integers(dtype):
    rng = np.random.default_rng(5)
    start = rng.integers(0, 100, 16).astype(dtype)
    vals = rng.integers(0, 100, 16).astype(dtype)
    if np.dtype(dtype).kind == "i":
        start[::3] *= -1
        vals[::4] *= -1
    hi, lo = start.copy(), start.copy()
    olds = np.zeros((2, 16), dtype=dtype)
    nan_minmax_each[1, 32](hi, lo, vals, olds)
    np.testing.assert_array_equal(olds[0], start)
    np.testing.assert_array_equal(hi, np.maximum(start, vals))
    np.testing.assert_array_equal(lo, np.minimum(start, vals))


@cuda.jit
def nan_reduce(values, out):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.nanmax(out, 0, values[i])
        cuda.atomic.nanmin(out, 1, values[i])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_atomic_nanmax_nanmin_concurrent_reduction(dtype):
    rng = np.random.default_rng(7)
    values = rng.standard_normal(4096).astype(dtype)
    values[::7] = np.nan
    out = np.array([np.nan, np.nan], dtype=dtype)  # a NaN start is replaced
    nan_reduce[16, 256](values, out)
    assert out[0] == np.nanmax(values) and out[1] == np.nanmin(values)
    out = np.array([np.nan, np.nan], dtype=dtype)
    nan_reduce[1, 32](np.full(8, np.nan, dtype=dtype), out)  # only NaNs: unchanged
    assert np.isnan(out).all()
    assemble(nan_reduce, sig(dtype, 2))


# ------------------------------------------------------------------ selp, cbrt, nanosleep

@cuda.jit
def selp_kernel(p, a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cuda.selp(p[i] > 0, a[i], b[i])


@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
                                   np.float32, np.float64])
def test_selp(dtype):
    p = np.array([1, 0, -1, 5, 0, 2])
    a = np.array([1, 2, 3, 4, 5, 6]).astype(dtype)
    b = np.array([10, 20, 30, 40, 50, 60]).astype(dtype)
    out = np.zeros(6, dtype=dtype)
    selp_kernel[1, 32](p, a, b, out)
    np.testing.assert_array_equal(out, np.where(p > 0, a, b))


@cuda.jit
def selp_mixed(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cuda.selp(x[i] < 0, -x[i], 0)  # int32 and a literal int: NumPy's promotion


def test_selp_promotes_its_operands():
    x = np.array([-3, 4, -1, 0], dtype=np.int32)
    out = np.zeros(4, dtype=np.int64)
    selp_mixed[1, 32](x, out)
    np.testing.assert_array_equal(out, np.where(x < 0, -x, 0))


@cuda.jit
def cbrt_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cuda.cbrt(x[i])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cbrt(dtype):
    x = np.array([27.0, -8.0, 0.0, -0.0, 2.0, 1e-30, -1e30, np.inf, -np.inf, np.nan], dtype=dtype)
    out = np.zeros_like(x)
    cbrt_kernel[1, 32](x, out)
    np.testing.assert_allclose(out, np.cbrt(x), rtol=2e-7 if dtype == np.float32 else 1e-15)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(np.cbrt(x)))
    ptx = assemble(cbrt_kernel, sig(dtype, 2))
    assert ".extern" not in ptx  # libdevice's cbrt linked in, not named


def test_cbrt_refuses_integers():
    @cuda.jit
    def k(a):
        a[0] = cuda.cbrt(a[1])

    with pytest.raises(TypingError, match="float32 or float64"):
        k[1, 1](np.zeros(2, dtype=np.int64))


@cuda.jit
def sleepy(out):
    i = cuda.grid(1)
    cuda.nanosleep(100)
    cuda.nanosleep(i)
    if i < out.size:
        out[i] = i


def test_nanosleep():
    out = np.zeros(40, dtype=np.int64)
    sleepy[2, 32](out)
    np.testing.assert_array_equal(out, np.arange(40))
    ptx = assemble(sleepy, "void(int64[::1])")
    assert "nanosleep.u32" in ptx


# ------------------------------------------------------------------ warp: lanemask_lt, eq, match

@cuda.jit
def lanemask(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cuda.lanemask_lt()


def test_lanemask_lt():
    out = np.zeros(70, dtype=np.uint32)
    lanemask[1, 96](out)
    lanes = np.arange(70) % 32
    np.testing.assert_array_equal(out, ((1 << lanes) - 1).astype(np.uint32))


@cuda.jit
def eq_votes(a, out):
    i = cuda.grid(1)
    out[i] = cuda.eq_sync(0xFFFFFFFF, a[i] > 0)


def test_eq_sync():
    a = np.zeros(128, dtype=np.int32)
    a[32:64] = 1          # warp 1: all true
    a[64 + 5] = 1         # warp 2: mixed
    a[96:128:2] = 3       # warp 3: mixed
    out = np.zeros(128, dtype=np.int32)
    eq_votes[1, 128](a, out)
    expect = np.repeat([1, 1, 0, 0], 32)
    np.testing.assert_array_equal(out != 0, expect != 0)


@cuda.jit
def eq_votes_masked(a, out):
    i = cuda.grid(1)
    out[i] = cuda.eq_sync(0x0000FFFF, a[i] > 0) if cuda.laneid < 16 else 7


def test_eq_sync_only_counts_the_masked_lanes():
    a = np.zeros(32, dtype=np.int32)
    a[20] = 1  # outside the mask
    out = np.zeros(32, dtype=np.int32)
    eq_votes_masked[1, 32](a, out)
    assert (out[:16] != 0).all() and (out[16:] == 7).all()


@cuda.jit
def matches(a, anymask, allmask, allpred):
    i = cuda.grid(1)
    v = a[i]
    anymask[i] = cuda.match_any_sync(0xFFFFFFFF, v)
    m, p = cuda.match_all_sync(0xFFFFFFFF, v)
    allmask[i] = m
    allpred[i] = p


def match_ref(a):
    anym, allm, allp = [], [], []
    for w in range(0, a.size, 32):
        warp = a[w:w + 32]
        same_all = bool((warp.view(f"u{warp.itemsize}") == warp.view(f"u{warp.itemsize}")[0]).all())
        full = (1 << warp.size) - 1
        for x in warp.view(f"u{warp.itemsize}"):
            anym.append(sum(1 << j for j, y in enumerate(warp.view(f"u{warp.itemsize}")) if y == x))
            allm.append(full if same_all else 0)
            allp.append(same_all)
    return anym, allm, allp


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64])
def test_match_any_and_all(dtype):
    a = np.concatenate([np.arange(32) % 3, np.full(32, 7), -(np.arange(32) // 8)]).astype(dtype)
    if np.dtype(dtype).kind == "u":
        a = np.concatenate([np.arange(32) % 3, np.full(32, 7), np.arange(32) // 8]).astype(dtype)
    anymask = np.zeros(96, dtype=np.uint32)
    allmask = np.zeros(96, dtype=np.uint32)
    allpred = np.zeros(96, dtype=np.bool_)
    matches[1, 96](a, anymask, allmask, allpred)
    anym, allm, allp = match_ref(a)
    np.testing.assert_array_equal(anymask, np.array(anym, dtype=np.uint32))
    np.testing.assert_array_equal(allmask, np.array(allm, dtype=np.uint32))
    np.testing.assert_array_equal(allpred, allp)
    ptx = assemble(matches, sig(dtype, 1, "uint32[::1]", "uint32[::1]", "bool[::1]"))
    assert "match.any.sync" in ptx and "match.all.sync" in ptx


def test_match_refuses_small_values():
    @cuda.jit
    def k(a, out):
        out[0] = cuda.match_any_sync(0xFFFFFFFF, a[0])

    with pytest.raises(TypingError, match="32- or 64-bit"):
        k[1, 32](np.zeros(2, dtype=np.int8), np.zeros(1, dtype=np.uint32))


def test_intrinsic_kernels_assemble():
    assert "atom.global.cas.b32" in assemble(inc_dec_each, "void(uint32[::1], uint32[::1], uint32[::1], bool)")
    ptx = assemble(eq_votes, "void(int32[::1], int32[::1])")
    assert "vote.sync.uni" in ptx
    ptx = assemble(lanemask, "void(uint32[::1])")
    assert "%lanemask_lt" in ptx
    ptx = assemble(selp_kernel, "void(int64[::1], float64[::1], float64[::1], float64[::1])")
    assert "selp" in ptx
