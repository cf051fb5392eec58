"""Device functions (@cuda.jit(device=True), and @njit functions called from kernels)
and the math module in kernels (libdevice): results compared with NumPy."""

import math

import numpy as np
import pytest

import mahou
from mahou import cuda

pytestmark = pytest.mark.gpu


@cuda.jit(device=True)
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@cuda.jit(device=True)
def smooth(a, i):
    left = a[i - 1] if i > 0 else a[i]
    right = a[i + 1] if i + 1 < a.size else a[i]
    return clamp((left + a[i] + right) / 3.0, 0.0, 10.0)


@cuda.jit
def smooth_kernel(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = smooth(a, i)


def test_device_functions_calling_device_functions():
    a = np.array([0.0, 3.0, 30.0, 3.0, -30.0, 1.0])
    out = np.zeros_like(a)
    smooth_kernel[1, 8](a, out)
    padded = np.concatenate([[a[0]], a, [a[-1]]])
    expected = np.clip((padded[:-2] + padded[1:-1] + padded[2:]) / 3.0, 0.0, 10.0)
    np.testing.assert_allclose(out, expected)


@cuda.jit(device=True)
def divmod_pair(a, b):
    return a // b, a % b


@cuda.jit
def tuple_returns(a, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i], r[i] = divmod_pair(a[i], 7)


def test_device_function_returning_a_tuple():
    a = np.arange(-20, 20, dtype=np.int64)
    q, r = np.zeros_like(a), np.zeros_like(a)
    tuple_returns[1, 64](a, q, r)
    np.testing.assert_array_equal(q, a // 7)
    np.testing.assert_array_equal(r, a % 7)


@cuda.jit(device=True)
def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@cuda.jit
def fib_kernel(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = fib(i)


def test_device_function_with_loops_and_different_types():
    out = np.zeros(30, dtype=np.int64)
    fib_kernel[1, 32](out)
    expected = [0, 1]
    while len(expected) < 30:
        expected.append(expected[-1] + expected[-2])
    np.testing.assert_array_equal(out, expected)


@mahou.njit
def hypot_plain(x, y):
    return math.sqrt(x * x + y * y)


@cuda.jit
def calls_njit(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = hypot_plain(x[i], y[i])


def test_kernel_calls_an_njit_function():
    x = np.arange(10.0)
    y = np.arange(10.0) + 1
    out = np.zeros(10)
    calls_njit[1, 16](x, y, out)
    np.testing.assert_allclose(out, np.hypot(x, y), rtol=1e-15)


@cuda.jit
def math_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[0, i] = math.sin(v)
        out[1, i] = math.cos(v)
        out[2, i] = math.exp(v)
        out[3, i] = math.sqrt(v)
        out[4, i] = math.log(v)
        out[5, i] = math.tanh(v)
        out[6, i] = math.atan2(v, 2.0)
        out[7, i] = math.pow(v, 1.5)
        out[8, i] = math.floor(v * 3.0)
        out[9, i] = abs(-v)


def _expected_math(x):
    return np.stack([np.sin(x), np.cos(x), np.exp(x), np.sqrt(x), np.log(x), np.tanh(x),
                     np.arctan2(x, 2.0), np.power(x, 1.5), np.floor(x * 3.0), np.abs(x)])


@pytest.mark.parametrize("dtype,rtol", [(np.float64, 1e-13), (np.float32, 2e-6)])
def test_math_functions(dtype, rtol):
    x = np.linspace(0.1, 5.0, 200).astype(dtype)
    out = np.zeros((10, x.size), dtype=dtype)
    math_kernel[1, 256](x, out)
    np.testing.assert_allclose(out, _expected_math(x).astype(dtype), rtol=rtol)


@cuda.jit(fastmath=True)
def fast_exp(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.exp(x[i])


def test_fastmath_option():
    x = np.linspace(-2, 2, 64).astype(np.float32)
    out = np.zeros_like(x)
    fast_exp[1, 64](x, out)
    np.testing.assert_allclose(out, np.exp(x), rtol=1e-5)
    assert fast_exp.targetoptions["fastmath"] is True


@cuda.jit
def integer_math(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] // 3 + a[i] % 5 - min(a[i], 7) + max(a[i], -2)


def test_integer_semantics_match_python():
    a = np.arange(-50, 50, dtype=np.int64)
    out = np.zeros_like(a)
    integer_math[1, 128](a, out)
    expected = [v // 3 + v % 5 - min(v, 7) + max(v, -2) for v in a.tolist()]
    np.testing.assert_array_equal(out, expected)


@cuda.jit
def inner_function_kernel(a, out, k):
    def shifted(v, by=1.0):
        return v * k + by

    poly = lambda v: shifted(v) * shifted(v, by=-1.0)  # noqa: E731
    i = cuda.grid(1)
    if i < a.size:
        out[i] = poly(a[i])


def test_inner_functions_and_lambdas_in_kernels():
    a = np.linspace(-2.0, 2.0, 37)
    out = np.zeros_like(a)
    inner_function_kernel[2, 32](a, out, 3.0)
    np.testing.assert_allclose(out, (a * 3.0 + 1.0) * (a * 3.0 - 1.0))


@cuda.jit("float32(int32)", device=True)
def third32(x):
    return x / 3


@mahou.njit(mahou.float32(mahou.int32))
def third_njit(x):
    return x / 3


@cuda.jit
def call_fixed_signatures(xs, out):
    i = cuda.grid(1)
    if i < xs.size:
        out[i, 0] = third32(xs[i])
        out[i, 1] = third_njit(xs[i])


def test_device_functions_with_explicit_signatures():
    # As numba-cuda: the int64 arguments convert to the declared int32 (wrapping) and the
    # result has the declared float32 type (rounded), for device functions and for @njit
    # functions with explicit signatures alike.
    xs = np.array([10, -7, 0, 2**33 + 5, -(2**31) - 1], dtype=np.int64)
    out = np.zeros((xs.size, 2))
    call_fixed_signatures[1, 32](xs, out)
    expected = (xs.astype(np.int32) / 3).astype(np.float32).astype(np.float64)
    np.testing.assert_array_equal(out[:, 0], expected)
    np.testing.assert_array_equal(out[:, 1], expected)
