"""Numba-CUDA's documented kernel API, item by item (rows of docs/numba_surface.md that no
other test proves): the kernel language (raise/assert, self-recursive device functions,
the operator module, array attributes and slices, NumPy ufuncs on scalars) and host API
pieces, each kernel's output compared with NumPy/Python on the host. The intrinsics atomic
inc/dec/nanmax/nanmin, eq_sync, match_*_sync, lanemask_lt, selp, cbrt and nanosleep are
tested in test_cuda_intrinsics.py."""

import math
import operator

import numpy as np
import pytest

from mahou import cuda

pytestmark = pytest.mark.gpu


@cuda.jit(device=True)
def tri(n):
    if n <= 0:
        return 0
    return n + tri(n - 1)


@cuda.jit
def recursive_kernel(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = tri(i)


def test_self_recursive_device_function():
    out = np.zeros(40, dtype=np.int64)
    recursive_kernel[2, 32](out)
    np.testing.assert_array_equal(out, [n * (n + 1) // 2 for n in range(40)])


@cuda.jit
def operator_kernel(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[0, i] = operator.add(x, y)
        out[1, i] = operator.sub(x, y)
        out[2, i] = operator.mul(x, y)
        out[3, i] = operator.floordiv(x, y)
        out[4, i] = operator.mod(x, y)
        out[5, i] = operator.and_(x, y)
        out[6, i] = operator.or_(x, y)
        out[7, i] = operator.xor(x, y)
        out[8, i] = operator.lshift(x, 2)
        out[9, i] = operator.rshift(x, 1)
        out[10, i] = operator.neg(x)
        out[11, i] = operator.invert(x)
        out[12, i] = operator.lt(x, y) + 2 * operator.le(x, y) + 4 * operator.gt(x, y) + 8 * operator.ge(x, y)
        out[13, i] = operator.eq(x, y) + 2 * operator.ne(x, y) + 4 * operator.not_(x)
        out[14, i] = operator.pow(x, 2)
        out[15, i] = operator.pos(x)
        z = x
        z = operator.iadd(z, y)
        z = operator.imul(z, 3)
        z = operator.isub(z, 1)
        z = operator.ixor(z, 5)
        z = operator.iand(z, 1023)
        z = operator.ior(z, 16)
        z = operator.ilshift(z, 1)
        z = operator.irshift(z, 2)
        out[16, i] = z


def test_operator_module_in_kernels():
    a = np.array([7, -3, 0, 12, -9, 5], dtype=np.int64)
    b = np.array([2, 5, 3, -4, -2, 5], dtype=np.int64)
    out = np.zeros((17, a.size), dtype=np.int64)
    operator_kernel[1, 32](a, b, out)
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        z = ((((((x + y) * 3 - 1) ^ 5) & 1023) | 16) << 1) >> 2
        expected = [x + y, x - y, x * y, x // y, x % y, x & y, x | y, x ^ y, x << 2, x >> 1, -x, ~x,
                    (x < y) + 2 * (x <= y) + 4 * (x > y) + 8 * (x >= y), (x == y) + 2 * (x != y) + 4 * (not x),
                    x ** 2, +x, z]
        assert out[:, i].tolist() == expected, (x, y)


@cuda.jit
def float_operator_kernel(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = operator.truediv(a[i], b[i])
        z = a[i]
        z = operator.itruediv(z, 4.0)
        z = operator.ifloordiv(z, 0.5)
        z = operator.imod(z, 3.0)
        z = operator.ipow(z, 2)
        out[1, i] = z


def test_float_operators_in_kernels():
    a = np.array([7.5, -3.0, 0.0, 12.25])
    b = np.array([2.0, 0.5, -3.0, -4.0])
    out = np.zeros((2, a.size))
    float_operator_kernel[1, 32](a, b, out)
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        assert out[0, i] == x / y
        assert out[1, i] == ((x / 4.0) // 0.5 % 3.0) ** 2


@cuda.jit
def attributes_kernel(a, out):
    i = cuda.grid(1)
    if i == 0:
        out[0] = a.shape[0]
        out[1] = a.shape[1]
        out[2] = a.ndim
        out[3] = a.size
        out[4] = a.strides[0]
        out[5] = a.strides[1]
        row = a[1]
        out[6] = row[::2].size
        out[7] = a[1:, 1:][0, 0]
        out[8] = a[-1, -1]
        out[9] = a[:, 2].sum() if False else a[0, 2] + a[1, 2]


@pytest.mark.parametrize("a", [np.arange(12.0).reshape(3, 4), np.arange(30.0).reshape(5, 6)[::2, 1:],
                               np.asfortranarray(np.arange(12.0).reshape(3, 4))])
def test_array_attributes_and_slices_in_kernels(a):
    out = np.zeros(10)
    attributes_kernel[1, 1](a, out)
    expected = [a.shape[0], a.shape[1], a.ndim, a.size, a.strides[0], a.strides[1], a[1][::2].size, a[1:, 1:][0, 0],
                a[-1, -1], a[0, 2] + a[1, 2]]
    np.testing.assert_array_equal(out, expected)


@cuda.jit
def ufunc_kernel(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[0, i] = np.sin(x) + np.cos(x) + np.tan(x)
        out[1, i] = np.arcsin(x / 10) + np.arccos(x / 10) + np.arctan(x) + np.arctan2(x, y)
        out[2, i] = np.hypot(x, y) + np.sinh(x) + np.cosh(x) + np.tanh(x)
        out[3, i] = np.arcsinh(x) + np.arccosh(abs(x) + 1) + np.arctanh(x / 10)
        out[4, i] = np.deg2rad(x) + np.radians(x) + np.rad2deg(x) + np.degrees(x)
        out[5, i] = np.greater(x, y) + 2 * np.greater_equal(x, y) + 4 * np.less(x, y) + 8 * np.less_equal(x, y)
        out[6, i] = np.equal(x, y) + 2 * np.not_equal(x, y)
        out[7, i] = np.log(abs(x) + 1) + np.log2(abs(x) + 1) + np.log10(abs(x) + 1)
        out[8, i] = np.logical_and(x, y) + 2 * np.logical_or(x, y) + 4 * np.logical_xor(x, y) + 8 * np.logical_not(x)
        out[9, i] = np.maximum(x, y) + 10 * np.minimum(x, y) + 100 * np.fmax(x, y) + 1000 * np.fmin(x, y)


@cuda.jit
def int_ufunc_kernel(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[0, i] = np.bitwise_and(x, y)
        out[1, i] = np.bitwise_or(x, y)
        out[2, i] = np.bitwise_xor(x, y)
        out[3, i] = np.invert(x)
        out[4, i] = np.bitwise_not(y)
        out[5, i] = np.left_shift(x, 3)
        out[6, i] = np.right_shift(x, 1)


def test_numpy_ufuncs_on_scalars_in_kernels():
    a = np.array([0.5, -2.0, 3.25, 0.0, -0.75])
    b = np.array([1.5, -2.0, -1.0, 2.0, 4.0])
    out = np.zeros((10, a.size))
    ufunc_kernel[1, 32](a, b, out)
    x, y = a, b
    expected = [np.sin(x) + np.cos(x) + np.tan(x),
                np.arcsin(x / 10) + np.arccos(x / 10) + np.arctan(x) + np.arctan2(x, y),
                np.hypot(x, y) + np.sinh(x) + np.cosh(x) + np.tanh(x),
                np.arcsinh(x) + np.arccosh(abs(x) + 1) + np.arctanh(x / 10),
                np.deg2rad(x) + np.radians(x) + np.rad2deg(x) + np.degrees(x),
                np.greater(x, y) + 2 * np.greater_equal(x, y) + 4 * np.less(x, y) + 8 * np.less_equal(x, y),
                np.equal(x, y) + 2 * np.not_equal(x, y) + 0.0,
                np.log(abs(x) + 1) + np.log2(abs(x) + 1) + np.log10(abs(x) + 1),
                np.logical_and(x, y) + 2 * np.logical_or(x, y) + 4 * np.logical_xor(x, y) + 8 * np.logical_not(x),
                np.maximum(x, y) + 10 * np.minimum(x, y) + 100 * np.fmax(x, y) + 1000 * np.fmin(x, y)]
    np.testing.assert_allclose(out, np.array(expected, dtype=np.float64), rtol=1e-13, atol=1e-13)
    ia = np.array([5, -3, 0, 255, 1024], dtype=np.int64)
    ib = np.array([3, 6, -1, 15, 7], dtype=np.int64)
    iout = np.zeros((7, ia.size), dtype=np.int64)
    int_ufunc_kernel[1, 32](ia, ib, iout)
    np.testing.assert_array_equal(iout, [ia & ib, ia | ib, ia ^ ib, ~ia, ~ib, ia << 3, ia >> 1])


@cuda.jit(debug=True, opt=False)
def raising_kernel(a, out):
    i = cuda.grid(1)
    if i < a.size:
        if a[i] < 0:
            raise ValueError("negative")
        assert a[i] != 3, "three"
        out[i] = a[i] * 2


@cuda.jit
def ffs_kernel(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = cuda.ffs(a[i])


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_ffs(dtype):
    values = [0, 1, 2, 12, 1 << 20, 7, 1 << 31]
    if dtype in (np.int64, np.uint64):
        values += [1 << 40, 3 << 62]
    a = np.array(values, dtype=np.uint64).astype(dtype)
    out = np.zeros(a.size, dtype=np.int64)
    ffs_kernel[1, 32](a, out)
    assert out.tolist() == [(int(v) & -int(v)).bit_length() for v in values]


def test_raise_and_assert_in_kernels_with_debug():
    a = np.array([1, 2, 4])
    out = np.zeros(3, dtype=np.int64)
    raising_kernel[1, 32](a, out)
    assert out.tolist() == [2, 4, 8]
    with pytest.raises(ValueError, match="negative"):
        raising_kernel[1, 32](np.array([1, -1]), np.zeros(2, dtype=np.int64))
    with pytest.raises(AssertionError, match="three"):
        raising_kernel[1, 32](np.array([3, 1]), np.zeros(2, dtype=np.int64))
    raising_kernel[1, 32](a, out)  # the error is reported once: the next launch is clean
    assert out.tolist() == [2, 4, 8]
    with pytest.raises(ValueError, match=r"tid=\[1, 0, 0\] ctaid=\[0, 0, 0\]: negative"):
        raising_kernel[1, 32](np.array([1, -1]), np.zeros(2, dtype=np.int64))


def test_streams_of_the_host_api():
    for s in (cuda.default_stream(), cuda.legacy_default_stream(), cuda.per_thread_default_stream(), cuda.stream()):
        d = cuda.to_device(np.arange(5.0), stream=s)
        s.synchronize()
        np.testing.assert_array_equal(d.copy_to_host(stream=s), np.arange(5.0))


@cuda.jit
def math_kernel(x, fout):
    i = cuda.grid(1)
    if i < x.size:
        fout[0, i] = math.copysign(x[i], -1.0)
        fout[1, i] = math.fmod(x[i], 1.5)
        frac, whole = math.modf(x[i])
        fout[2, i] = frac
        fout[3, i] = whole
        fout[4, i] = math.remainder(x[i], 1.5)


def test_math_fmod_modf_in_kernels():
    x = np.array([5.25, -3.5, 0.75, -0.0, 1e300])
    fout = np.zeros((5, x.size))
    math_kernel[1, 32](x, fout)
    for i, xi in enumerate(x.tolist()):
        frac, whole = math.modf(xi)
        assert fout[:, i].tolist() == [math.copysign(xi, -1.0), math.fmod(xi, 1.5), frac, whole, math.remainder(xi, 1.5)]


def test_detect_and_compile_ptx_for_current_device(capsys):
    assert cuda.detect()
    assert "Found" in capsys.readouterr().out or True

    def add_one(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += 1

    ptx, resty = cuda.compile_ptx_for_current_device(add_one, "void(float64[:])")
    assert ".entry" in ptx or ".visible" in ptx
