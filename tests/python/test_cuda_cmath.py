"""cmath in kernels: sqrt, exp, log, log10 of complex numbers (and NumPy's sqrt/exp/log of
complex scalars) lowered in real math for the device, against the host's results (C99's
csqrt/cexp/clog, the same branch cuts and special values) and CPython's cmath; abs,
phase, polar and rect; complex64 and complex128; each kernel's PTX through ptxas."""

import cmath
import math

import numpy as np
import pytest

from conftest import assemble_ptx
from mahou import cuda, njit

pytestmark = pytest.mark.gpu

PARTS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-310, -1e-310, 1e-160, 1e308, -1e308, 710.0, -710.0,
         math.inf, -math.inf, math.nan, 3.0, 1.0000001, 0.7071067811865476]
SPECIAL = np.array([complex(a, b) for a in PARTS for b in PARTS])


@cuda.jit
def cmath_kernel(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[0, i] = cmath.sqrt(z[i])
        out[1, i] = cmath.exp(z[i])
        out[2, i] = cmath.log(z[i])
        out[3, i] = cmath.log10(z[i])


@njit
def cmath_host(z, out):
    for i in range(z.size):
        out[0, i] = cmath.sqrt(z[i])
        out[1, i] = cmath.exp(z[i])
        out[2, i] = cmath.log(z[i])
        out[3, i] = cmath.log10(z[i])


def same(p, q, rtol):
    if math.isnan(p) or math.isnan(q):
        return math.isnan(p) and math.isnan(q)
    if p == q:
        return math.copysign(1, p) == math.copysign(1, q)  # signed zeros too
    return abs(p - q) <= rtol * max(abs(p), abs(q))


def assert_same(got, want, rtol, where):
    bad = [(i, got[i], want[i]) for i in range(got.size)
           if not (same(got[i].real, want[i].real, rtol) and same(got[i].imag, want[i].imag, rtol))]
    assert not bad, f"{where}: {len(bad)} differ, first {bad[:3]}"


def assemble(kernel):
    for sig in kernel.signatures:
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
        assert "mahou_rt" not in ptx  # no host runtime function named in the kernel
        assemble_ptx(ptx)


def test_special_values_match_the_host():
    got = np.zeros((4, SPECIAL.size), dtype=np.complex128)
    want = np.zeros_like(got)
    cmath_kernel[(SPECIAL.size + 63) // 64, 64](SPECIAL, got)
    cmath_host(SPECIAL, want)
    for f, name in enumerate(["sqrt", "exp", "log", "log10"]):
        assert_same(got[f], want[f], 5e-16, name)  # within about 2 ulps of glibc
    assemble(cmath_kernel)


def test_random_values_match_cpython_cmath():
    rng = np.random.default_rng(11)
    z = (rng.standard_normal(500) * np.exp(rng.uniform(-30, 30, 500))
         + 1j * rng.standard_normal(500) * np.exp(rng.uniform(-30, 30, 500)))
    z[:40] = np.exp(1j * rng.uniform(-np.pi, np.pi, 40)) * (1 + rng.uniform(-1e-9, 1e-9, 40))  # |z| near 1
    z[40:50] = [complex(-v, 0.0) for v in rng.uniform(0, 5, 10)]   # the branch cut, from above
    z[50:60] = [complex(-v, -0.0) for v in rng.uniform(0, 5, 10)]  # and from below
    z[60:70] = np.conj(z[50:60] * 1j)
    got = np.zeros((4, z.size), dtype=np.complex128)
    cmath_kernel[8, 64](z, got)
    for f, fn in enumerate([cmath.sqrt, cmath.exp, cmath.log, cmath.log10]):
        want, keep = [], []
        for v in z.tolist():
            try:
                want.append(fn(v))
                keep.append(True)
            except (OverflowError, ValueError):  # CPython raises where the result overflows
                want.append(0j)
                keep.append(False)
        want, keep = np.array(want), np.array(keep)
        assert keep.sum() > 300
        np.testing.assert_allclose(got[f][keep].real, want[keep].real, rtol=1e-14, atol=1e-300 if f < 2 else 1e-16)
        np.testing.assert_allclose(got[f][keep].imag, want[keep].imag, rtol=1e-14, atol=1e-300)
    # the cut: the sign of a zero imaginary part picks the side, as in cmath
    assert (np.signbit(got[0][40:50].imag) == np.signbit(z[40:50].imag)).all()
    assert (got[2][40:50].imag == math.pi).all() and (got[2][50:60].imag == -math.pi).all()


@cuda.jit
def numpy_kernel(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[0, i] = np.sqrt(z[i])
        out[1, i] = np.exp(z[i])
        out[2, i] = np.log(z[i])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_numpy_functions_on_complex_scalars(dtype):
    with np.errstate(over="ignore"):
        z = SPECIAL.astype(dtype)
    got = np.zeros((3, z.size), dtype=dtype)
    numpy_kernel[(z.size + 63) // 64, 64](z, got)
    with np.errstate(all="ignore"):
        want = [np.sqrt(z), np.exp(z), np.log(z)]
    rtol = 4e-7 if dtype == np.complex64 else 4e-16
    for f in range(3):
        finite = np.isfinite(z) & (np.abs(z) > 0) & np.isfinite(want[f])  # special values: below
        np.testing.assert_allclose(got[f][finite], want[f][finite], rtol=rtol)
    host = np.zeros((4, z.size), dtype=np.complex128)
    cmath_host(z.astype(np.complex128), host)
    for f in range(3):
        with np.errstate(over="ignore"):
            narrowed = host[f].astype(dtype).astype(np.complex128)
        assert_same(got[f].astype(np.complex128), narrowed,
                    1.2e-7 if dtype == np.complex64 else 5e-16, f"np fn {f}")
    assemble(numpy_kernel)


@cuda.jit
def polar_kernel(z, r, out):
    i = cuda.grid(1)
    if i < z.size:
        out[0, i] = abs(z[i])
        out[1, i] = cmath.phase(z[i])
        m, p = cmath.polar(z[i])
        out[2, i] = m
        out[3, i] = p
        w = cmath.rect(r[i], p)
        out[4, i] = w.real
        out[5, i] = w.imag


def test_abs_phase_polar_rect():
    z = np.array([3 + 4j, -1 - 1j, -2 + 0j, -2 - 0j, 0j, 1e300 + 1e300j, complex(math.inf, 1), complex(math.nan, 0)])
    r = np.linspace(-2, 5, z.size)
    out = np.zeros((6, z.size))
    polar_kernel[1, 32](z, r, out)
    for i, v in enumerate(z.tolist()):
        m, p = cmath.polar(v) if math.isfinite(abs(v)) or math.isnan(abs(v)) else (abs(v), cmath.phase(v))
        w = cmath.rect(r[i], p) if math.isfinite(p) else complex(math.nan, math.nan)
        np.testing.assert_allclose(out[:4, i], [abs(v), cmath.phase(v), m, p], rtol=1e-15)
        np.testing.assert_allclose(out[4:, i], [w.real, w.imag], rtol=1e-15, atol=1e-300)
    assemble(polar_kernel)


def test_complex_power_stays_refused_in_kernels():
    from mahou.errors import UnsupportedError

    @cuda.jit
    def k(z):
        z[0] = z[0] ** z[1]

    with pytest.raises(UnsupportedError, match="complex"):
        k[1, 1](np.ones(2, dtype=np.complex128))


@cuda.jit
def numpy_log10_kernel(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = np.log10(z[i])


@njit
def numpy_log10_host(z, out):
    for i in range(z.size):
        out[i] = np.log10(z[i])


def test_numpy_log10_of_complex_in_kernels_matches_the_host():
    out_k = np.zeros(SPECIAL.size, np.complex128)
    out_h = np.zeros(SPECIAL.size, np.complex128)
    numpy_log10_kernel[(SPECIAL.size + 127) // 128, 128](SPECIAL, out_k)
    numpy_log10_host(SPECIAL, out_h)
    assert_same(out_k, out_h, 4e-16, "np.log10 kernel vs host")
    assemble(numpy_log10_kernel)


def test_other_complex_functions_are_refused_in_kernels():
    from mahou.errors import UnsupportedError

    @cuda.jit
    def k(z, out):
        out[0] = np.sin(z[0])

    with pytest.raises(UnsupportedError, match="not supported in CUDA kernels"):
        k[1, 1](np.array([1 + 1j]), np.zeros(1, np.complex128))
