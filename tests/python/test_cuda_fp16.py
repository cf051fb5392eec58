"""float16 in kernels: float16 arrays (device and host) and scalars as arguments,
arithmetic and comparisons of float16 values, conversions, and the cuda.fp16
intrinsics; compared with NumPy's float16 (which computes in float32 and rounds)."""

import numpy as np
import pytest

from mahou import cuda, float16, njit
from mahou.cuda import fp16
from mahou.errors import TypingError, UnsupportedError

pytestmark = pytest.mark.gpu

H = np.float16


def halves(n, lo=-4.0, hi=4.0, seed=0):
    values = np.random.default_rng(seed).uniform(lo, hi, n).astype(H)
    values[:4] = [0.0, -0.0, 1.0, 65504.0][: min(4, n)]
    return values


@cuda.jit
def arithmetic(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[0, i] = x + y
        out[1, i] = x - y
        out[2, i] = x * y
        out[3, i] = -x
        out[4, i] = abs(x)
        out[5, i] = x * float16(0.5) + y


def test_arithmetic_matches_numpy():
    n = 200
    a, b = halves(n), halves(n, seed=1)
    out = np.zeros((6, n), H)
    arithmetic[2, 128](cuda.to_device(a), cuda.to_device(b), out)
    with np.errstate(over="ignore"):
        expected = [a + b, a - b, a * b, -a, np.abs(a), a * H(0.5) + b]
    for row, exp in zip(out, expected):
        np.testing.assert_array_equal(row, exp)
    assert out.dtype == H


@cuda.jit
def compare(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = a[i] < b[i]
        out[1, i] = a[i] == b[i]
        out[2, i] = a[i] >= b[i]


def test_comparisons_with_nan_and_inf():
    a = np.array([1, 2, np.nan, np.inf, -np.inf, 0.0], H)
    b = np.array([2, 2, 1, np.inf, 0, -0.0], H)
    out = np.zeros((3, a.size), np.bool_)
    compare[1, 8](a, b, out)
    np.testing.assert_array_equal(out, [a < b, a == b, a >= b])


@cuda.jit
def convert(x16, x32, i32, out16, out32, outi):
    i = cuda.grid(1)
    if i < x16.size:
        out16[i] = float16(x32[i])      # float32 → float16 (round to nearest even)
        out32[i] = x16[i]               # float16 → float32 (exact)
        outi[i] = int(x16[i])           # truncation toward zero
        out16[i + x16.size] = float16(i32[i])


def test_conversions():
    x32 = np.array([0.1, 1e-8, 70000.0, -2.5, 1.0009765625, 0.333], np.float32)
    with np.errstate(over="ignore"):
        x16 = x32.astype(H)
    ints = np.array([1, -2, 2049, 65519, 70000, 0], np.int32)
    out16 = np.zeros(2 * x16.size, H)
    out32 = np.zeros(x16.size, np.float32)
    outi = np.zeros(x16.size, np.int64)
    convert[1, 8](x16, x32, ints, out16, out32, outi)
    with np.errstate(over="ignore", invalid="ignore"):
        np.testing.assert_array_equal(out16[:6], x32.astype(H))
        np.testing.assert_array_equal(out16[6:], ints.astype(H))
    np.testing.assert_array_equal(out32, x16.astype(np.float32))
    finite = np.isfinite(x16)
    np.testing.assert_array_equal(outi[finite], x16[finite].astype(np.int64))


@cuda.jit
def scalar_argument(out, s):
    out[0] = s * out[0]


def test_float16_scalar_arguments_and_signature():
    out = cuda.to_device(np.array([3.0], H))
    scalar_argument[1, 1](out, H(1.5))
    assert out.copy_to_host()[0] == H(4.5)
    assert "float16" in str(scalar_argument.signatures[0])


@cuda.jit
def intrinsics(a, b, c, out, flags):
    i = cuda.grid(1)
    if i < a.size:
        x, y, z = a[i], b[i], c[i]
        out[0, i] = fp16.hadd(x, y)
        out[1, i] = fp16.hsub(x, y)
        out[2, i] = fp16.hmul(x, y)
        out[3, i] = fp16.hdiv(x, y)  # b[0] is 0: inf, as CUDA
        out[4, i] = fp16.hneg(x)
        out[5, i] = fp16.habs(x)
        out[6, i] = fp16.hfma(x, y, z)
        out[7, i] = cuda.fp16.hsqrt(z)
        out[8, i] = fp16.hexp(x)
        out[9, i] = fp16.hlog(z)
        out[10, i] = fp16.hsin(x)
        out[11, i] = fp16.hcos(x)
        out[12, i] = fp16.hfloor(x)
        out[13, i] = fp16.hceil(x)
        out[14, i] = fp16.htrunc(x)
        out[15, i] = fp16.hrint(x)
        out[16, i] = fp16.hmax(x, y)
        out[17, i] = fp16.hmin(x, y)
        out[18, i] = fp16.hexp2(x)
        out[19, i] = fp16.hexp10(x)
        out[20, i] = fp16.hlog2(z)
        out[21, i] = fp16.hlog10(z)
        out[22, i] = fp16.hrcp(z)
        out[23, i] = fp16.hrsqrt(z)
        flags[0, i] = fp16.heq(x, y)
        flags[1, i] = fp16.hne(x, y)
        flags[2, i] = fp16.hgt(x, y)
        flags[3, i] = fp16.hge(x, y)
        flags[4, i] = fp16.hlt(x, y)
        flags[5, i] = fp16.hle(x, y)


def test_fp16_intrinsics():
    n = 96
    a = halves(n, -3, 3, seed=2)
    b = halves(n, 0.25, 3, seed=3)
    b[5] = a[5]  # an equal pair
    c = halves(n, 0.125, 8, seed=4)
    c[:4] = [0.5, 1.0, 2.0, 4.0]
    out = np.zeros((24, n), H)
    flags = np.zeros((6, n), np.bool_)
    intrinsics[1, 128](a, b, c, out, flags)
    f = lambda v: v.astype(np.float32)  # noqa: E731
    with np.errstate(all="ignore"):  # 65504 overflows, x / 0 is inf: as on the GPU
        exact = [a + b, a - b, a * b, a / b, -a, np.abs(a), (f(a) * f(b) + f(c)).astype(H),
                 np.floor(a), np.ceil(a), np.trunc(a), np.rint(a), np.fmax(a, b), np.fmin(a, b)]
        approx = {7: np.sqrt(f(c)), 8: np.exp(f(a)), 9: np.log(f(c)), 10: np.sin(f(a)),
                  11: np.cos(f(a)), 18: np.exp2(f(a)), 19: np.power(10, f(a)), 20: np.log2(f(c)),
                  21: np.log10(f(c)), 22: 1 / f(c), 23: 1 / np.sqrt(f(c))}
    for row, exp in zip(out[[0, 1, 2, 3, 4, 5, 6, 12, 13, 14, 15, 16, 17]], exact):
        np.testing.assert_array_equal(row, exp)
    for row, exp in approx.items():  # within one float16 ulp of the float32 result
        np.testing.assert_allclose(out[row].astype(np.float32), exp, rtol=2 ** -10, atol=1e-4)
    np.testing.assert_array_equal(flags, [a == b, a != b, a > b, a >= b, a < b, a <= b])


def test_hmax_ignores_nan():
    a = np.array([np.nan, 1, np.nan], H)
    b = np.array([2, np.nan, np.nan], H)
    out = np.zeros((24, 3), H)
    intrinsics[1, 3](a, b, np.ones(3, H), out, np.zeros((6, 3), np.bool_))
    assert out[16, 0] == 2 and out[16, 1] == 1 and np.isnan(out[16, 2])
    assert out[17, 0] == 2 and out[17, 1] == 1 and np.isnan(out[17, 2])


def test_float16_device_arrays_round_trip():
    a = halves(1000)
    d = cuda.to_device(a)
    assert d.dtype == H and d.nbytes == 2000
    np.testing.assert_array_equal(d.copy_to_host(), a)
    e = cuda.device_array(10, dtype=np.float16)
    e[:] = 0.5
    assert (e.copy_to_host() == H(0.5)).all()


def test_fp16_needs_float16_arguments():
    @cuda.jit
    def wrong(a, out):
        out[0] = fp16.hadd(a[0], a[1])

    with pytest.raises(TypingError, match="takes float16 values, not float32"):
        wrong[1, 1](np.ones(2, np.float32), np.zeros(1, np.float32))


def test_float16_atomics_are_refused():
    @cuda.jit
    def atomic(a):
        cuda.atomic.add(a, 0, float16(1))

    with pytest.raises(UnsupportedError, match="float16"):
        atomic[1, 1](np.zeros(1, H))


def test_njit_float16_scalars_and_arrays():
    @njit
    def mix(x, y, a):
        return x * y + x, a * y + a[0], x < y

    r, arr, lt = mix(H(1.5), H(2.0), np.arange(4, dtype=H))
    assert r == 4.5 and lt
    np.testing.assert_array_equal(arr, np.arange(4, dtype=H) * H(2) + H(0))
    assert arr.dtype == H
