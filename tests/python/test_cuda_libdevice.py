"""cuda.libdevice in kernels: libdevice's float math under numba-cuda's names, double
(sin) and float (sinf) forms and the fast_ approximations, against NumPy/math."""

import math

import numpy as np
import pytest

from mahou import cuda
from mahou.cuda import libdevice
from mahou.errors import TypingError, UnsupportedError

pytestmark = pytest.mark.gpu


@cuda.jit
def unary64(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[0, i] = libdevice.sin(v)
        out[1, i] = libdevice.exp10(v)
        out[2, i] = libdevice.cbrt(v)
        out[3, i] = libdevice.sinpi(v)
        out[4, i] = libdevice.cospi(v)
        out[5, i] = libdevice.erfinv(v / 4)
        out[6, i] = libdevice.erfcinv(v / 4 + 1)
        out[7, i] = libdevice.normcdf(v)
        out[8, i] = libdevice.rsqrt(v + 3.5)
        out[9, i] = libdevice.erfcx(v)
        out[10, i] = cuda.libdevice.lgamma(v + 3.5)
        out[11, i] = libdevice.normcdfinv((v + 3.5) / 7)
        out[12, i] = libdevice.rcbrt(v + 3.5)


def erfinv_ref(y):
    # bisection on math.erf: an independent reference
    lo, hi = -6.0, 6.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.erf(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def test_double_forms():
    x = np.linspace(-3, 3, 25)
    out = np.zeros((13, x.size))
    unary64[1, 32](x, out)
    np.testing.assert_allclose(out[0], np.sin(x), rtol=1e-15, atol=1e-16)
    np.testing.assert_allclose(out[1], 10.0 ** x, rtol=1e-14)
    np.testing.assert_allclose(out[2], np.cbrt(x), rtol=1e-15)
    np.testing.assert_allclose(out[3], np.sin(np.pi * x), atol=1e-15)
    np.testing.assert_allclose(out[4], np.cos(np.pi * x), atol=1e-15)
    assert out[3, 0] == 0 and out[4, 12] == 1  # sinpi(-3) and cospi(0) exact
    np.testing.assert_allclose(out[5], [erfinv_ref(v / 4) for v in x], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out[6], [-erfinv_ref(v / 4) for v in x], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out[7], [0.5 * math.erfc(-v / math.sqrt(2)) for v in x], rtol=1e-14)
    np.testing.assert_allclose(out[8], 1 / np.sqrt(x + 3.5), rtol=1e-15)
    np.testing.assert_allclose(out[9], [math.exp(v * v) * math.erfc(v) for v in x], rtol=1e-13)
    np.testing.assert_allclose(out[10], [math.lgamma(v + 3.5) for v in x], rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(out[11], [math.sqrt(2) * erfinv_ref(2 * (v + 3.5) / 7 - 1) for v in x],
                               rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(out[12], 1 / np.cbrt(x + 3.5), rtol=1e-15)


@cuda.jit
def float_forms(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        out[0, i] = libdevice.sinf(a)
        out[1, i] = libdevice.powf(b, a)
        out[2, i] = libdevice.fmaf(a, b, a)
        out[3, i] = libdevice.atan2f(a, b)
        out[4, i] = libdevice.fast_expf(a)
        out[5, i] = libdevice.fast_fdividef(a, b)
        out[6, i] = libdevice.hypotf(a, b)
        out[7, i] = libdevice.fast_powf(b, a)


def test_float_forms_and_fast_approximations():
    x = np.linspace(-2, 2, 17).astype(np.float32)
    y = np.linspace(0.5, 3, 17).astype(np.float32)
    out = np.zeros((8, x.size), np.float32)
    float_forms[1, 32](x, y, out)
    np.testing.assert_allclose(out[0], np.sin(x), rtol=3e-7, atol=1e-7)  # libdevice: 2 ulp
    np.testing.assert_allclose(out[1], np.power(y, x), rtol=5e-7)
    np.testing.assert_allclose(out[2], x * y + x, rtol=2e-7, atol=1e-7)
    np.testing.assert_allclose(out[3], np.arctan2(x, y), rtol=4e-7, atol=1e-7)
    np.testing.assert_allclose(out[4], np.exp(x), rtol=1e-5)  # approximation on the GPU
    np.testing.assert_allclose(out[5], x / y, rtol=1e-6)
    np.testing.assert_allclose(out[6], np.hypot(x, y), rtol=4e-7)
    np.testing.assert_allclose(out[7], np.power(y, x), rtol=1e-5)
    assert out.dtype == np.float32


def test_arguments_are_converted_and_checked():
    @cuda.jit
    def ints(out):
        out[0] = libdevice.sqrt(16)   # an int literal becomes float64
        out[1] = libdevice.sqrtf(9)

    out = np.zeros(2)
    ints[1, 1](out)
    assert out.tolist() == [4.0, 3.0]

    @cuda.jit
    def wrong_arity(out):
        out[0] = libdevice.pow(2.0)

    with pytest.raises(TypingError, match="takes 2"):
        wrong_arity[1, 1](np.zeros(1))

    @cuda.jit
    def not_provided(out):
        out[0] = libdevice.popc(3)

    with pytest.raises(UnsupportedError, match="float math"):
        not_provided[1, 1](np.zeros(1))

    with pytest.raises(RuntimeError, match="inside a @cuda.jit"):
        libdevice.sin(1.0)
