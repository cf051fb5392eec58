"""cmath in kernels: sqrt, exp, log, log10 of complex numbers (and NumPy's sqrt/exp/log of
complex scalars) lowered in real math for the device, against the host's results (C99's
csqrt/cexp/clog, the same branch cuts and special values) and CPython's cmath; abs,
phase, polar and rect; complex64 and complex128; each kernel's PTX through ptxas.
The trigonometric and hyperbolic functions and complex ** (the library's device_cmath,
in real math) against the host's (C99's with CPython's special values) over a grid of
special values and branch cuts, and against CPython's cmath."""

import cmath
import math

import numpy as np
import pytest

from conftest import power_condition, assemble_ptx, random_complex_sample
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


# ---- sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh and **

TRIG = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]
# ±0, subnormals, ±1 (the branch points of the inverse functions), the cuts' neighbours,
# large values (overflow of e^x and the scaled formulas), ±inf, nan
GRID_PARTS = [0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310, 1e-160, 1.0, -1.0, 1.0000000000000002,
              0.9999999999999999, -1.0000001, 0.5, -2.5, 2.0, 3.0, 1e-9, 710.0, -710.0, 800.0, -1e3,
              1e154, 1e300, -1e300, math.inf, -math.inf, math.nan]
GRID = np.array([complex(a, b) for a in GRID_PARTS for b in GRID_PARTS])
ULPS = 8  # the finite values: within a few ulps of the host's C99 functions (measured: at most 4)


@cuda.jit
def trig_kernel(z, out):  # the rows in TRIG's order
    i = cuda.grid(1)
    if i < z.size:
        out[0, i] = cmath.sin(z[i])
        out[1, i] = cmath.cos(z[i])
        out[2, i] = cmath.tan(z[i])
        out[3, i] = cmath.asin(z[i])
        out[4, i] = cmath.acos(z[i])
        out[5, i] = cmath.atan(z[i])
        out[6, i] = cmath.sinh(z[i])
        out[7, i] = cmath.cosh(z[i])
        out[8, i] = cmath.tanh(z[i])
        out[9, i] = cmath.asinh(z[i])
        out[10, i] = cmath.acosh(z[i])
        out[11, i] = cmath.atanh(z[i])


@njit
def trig_host(z, out):
    for i in range(z.size):
        out[0, i] = cmath.sin(z[i])
        out[1, i] = cmath.cos(z[i])
        out[2, i] = cmath.tan(z[i])
        out[3, i] = cmath.asin(z[i])
        out[4, i] = cmath.acos(z[i])
        out[5, i] = cmath.atan(z[i])
        out[6, i] = cmath.sinh(z[i])
        out[7, i] = cmath.cosh(z[i])
        out[8, i] = cmath.tanh(z[i])
        out[9, i] = cmath.asinh(z[i])
        out[10, i] = cmath.acosh(z[i])
        out[11, i] = cmath.atanh(z[i])


def ulp_distance(p, q):
    """How many doubles lie between p and q (ordered; -0.0 and +0.0 one apart)."""
    def key(v):
        i = np.float64(v).view(np.int64)
        return int(i) if i >= 0 else -int(i & 0x7FFFFFFFFFFFFFFF) - 1
    return abs(key(p) - key(q))


def part_matches(got, want):
    # an infinity or a NaN of the host, and the sign of every value (zeros included), the
    # same; magnitudes within ULPS
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got) or math.copysign(1, want) != math.copysign(1, got):
        return want == got and math.copysign(1, want) == math.copysign(1, got)
    return ulp_distance(got, want) <= ULPS  # a zero against a subnormal too, counted in ulps


def assert_matches_host(got, want, inputs, where):
    bad = [(complex(inputs[i]), complex(got[i]), complex(want[i])) for i in range(got.size)
           if not (part_matches(got[i].real, want[i].real) and part_matches(got[i].imag, want[i].imag))]
    assert not bad, f"{where}: {len(bad)} differ (input, kernel, host), first {bad[:4]}"


def assert_power_matches_host(got, want, a, b):
    """a ** b is exp(b log a): an ulp of the device's atan2 or log (libdevice's are within 2
    ulps, the host's glibc within 1) is multiplied by |b| in the phase and the length, so
    finite results agree within ULPS ulps times that condition number, relative to |a ** b|;
    infinities, NaNs and signed zeros exactly as assert_matches_host."""
    eps = np.finfo(np.float64).eps
    bad = []
    for i in range(got.size):
        g, w = complex(got[i]), complex(want[i])
        if all(map(math.isfinite, (g.real, g.imag, w.real, w.imag))) and abs(w) > 0:
            condition = power_condition(a[i], b[i])
            ok = abs(g - w) <= ULPS * eps * condition * abs(w)
        else:
            ok = part_matches(g.real, w.real) and part_matches(g.imag, w.imag)
        if not ok:
            bad.append((complex(a[i]), complex(b[i]), g, w))
    assert not bad, f"**: {len(bad)} differ (base, exponent, kernel, host), first {bad[:4]}"


def test_trig_and_hyperbolic_special_values_match_the_host():
    got = np.zeros((len(TRIG), GRID.size), np.complex128)
    want = np.zeros_like(got)
    trig_kernel[(GRID.size + 127) // 128, 128](GRID, got)
    trig_host(GRID, want)
    for k, name in enumerate(TRIG):
        assert_matches_host(got[k], want[k], GRID, name)
    # the values Annex G fixes, spot-checked by hand: tanh(800+1j) = 1+0j, sin(1+700j)
    # finite (no overflow on the way), asinh of a huge value by log-scaling
    probe = np.array([800 + 1j, 1 + 700j, 1e300 + 1e300j, complex(-0.0, 2.0), complex(2.0, -0.0)])
    p = np.zeros((len(TRIG), probe.size), np.complex128)
    trig_kernel[1, 32](probe, p)
    assert p[TRIG.index("tanh"), 0] == 1 + 0j and not np.signbit(p[TRIG.index("tanh"), 0].imag)
    assert np.isfinite(p[TRIG.index("sin"), 1])
    np.testing.assert_allclose(p[TRIG.index("asinh"), 2].real, math.log(2 * math.hypot(1e300, 1e300)), rtol=1e-15)
    # the cuts: asin/acos on the real axis past ±1, atan/asinh on the imaginary axis past ±i
    # take their side from the zero's sign
    assert np.signbit(p[TRIG.index("asinh"), 3].real) and not np.signbit(p[TRIG.index("asin"), 4].real)
    assert p[TRIG.index("asin"), 4].imag < 0 and p[TRIG.index("acos"), 4].imag > 0
    assemble(trig_kernel)


def test_trig_and_hyperbolic_values_match_cpython_cmath():
    rng = np.random.default_rng(5)
    n = 600
    z = random_complex_sample(rng, n, 25, 100)
    got = np.zeros((len(TRIG), n), np.complex128)
    want_host = np.zeros_like(got)
    trig_kernel[(n + 127) // 128, 128](z, got)
    trig_host(z, want_host)
    for k, name in enumerate(TRIG):
        assert_matches_host(got[k], want_host[k], z, name)
        fn = getattr(cmath, name)
        checked = 0
        for i, v in enumerate(z.tolist()):
            try:
                w = fn(v)
            except (OverflowError, ValueError):  # CPython raises where the result overflows
                continue
            checked += 1
            g = complex(got[k, i])
            for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
                assert part_matches(gp, wp) or abs(gp - wp) <= 1e-300, (name, v, g, w)
        assert checked > 400


@cuda.jit
def narrow_and_real_kernel(z64, x, n, out):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = cmath.tan(z64[i])    # complex64 widens to complex128, as on the host
        out[1, i] = cmath.acosh(x[i])    # a real argument widens to complex
        out[2, i] = cmath.atanh(x[i])
        out[3, i] = cmath.asin(np.float32(x[i]))
        out[4, i] = cmath.cos(n[i])


@njit
def narrow_and_real_host(z64, x, n, out):
    for i in range(x.size):
        out[0, i] = cmath.tan(z64[i])
        out[1, i] = cmath.acosh(x[i])
        out[2, i] = cmath.atanh(x[i])
        out[3, i] = cmath.asin(np.float32(x[i]))
        out[4, i] = cmath.cos(n[i])


def test_complex64_and_real_arguments_widen_as_on_the_host():
    x = np.array([0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -7.0, 1e300, math.inf, -math.inf, math.nan])
    z64 = (np.where(np.isfinite(x) & (np.abs(x) < 1e30), x, 3.0) + 0.25j).astype(np.complex64)
    n = np.array([0, -1, 2, 3, -7, 10**15, -(10**15), 2**62, 5, 6, 7, 8], dtype=np.int64)
    got = np.zeros((5, x.size), np.complex128)
    want = np.zeros_like(got)
    narrow_and_real_kernel[1, 32](z64, x, n, got)
    narrow_and_real_host(z64, x, n, want)
    for k in range(5):
        assert_matches_host(got[k], want[k], x, f"row {k}")
    np.testing.assert_allclose(got[1][:5], [cmath.acosh(v) for v in x[:5]], rtol=1e-15)
    assemble(narrow_and_real_kernel)


@cuda.jit(device=True)
def tan_twice(z):
    return cmath.tan(z) + cmath.atanh(z)


@cuda.jit
def device_function_kernel(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = tan_twice(z[i])


def test_in_a_device_function():
    z = np.array([0.5 + 0.5j, -2 + 1e-3j, complex(-0.0, 3.0), 1e300 + 1j])
    out = np.zeros(z.size, np.complex128)
    device_function_kernel[1, 32](z, out)
    for i, v in enumerate(z.tolist()):
        w = cmath.tan(v) + cmath.atanh(v)
        np.testing.assert_allclose([out[i].real, out[i].imag], [w.real, w.imag], rtol=1e-14, atol=1e-300)


# ---- complex **

POW_BASES = [0j, complex(-0.0, 0.0), 1 + 0j, -1 + 0j, 1j, -1j, 2 + 3j, -0.5 + 0.25j, 1e-200 + 1e-200j,
             1e200 - 1e200j, complex(-2.0, 0.0), complex(-2.0, -0.0), complex(math.inf, 1.0), complex(1.0, math.nan)]
POW_EXPONENTS = [0j, 1 + 0j, 2 + 0j, 3 + 0j, -1 + 0j, -2 + 0j, 0.5 + 0j, 0.5j, 1 - 1j, -2.5 + 3j, 100 + 0j,
                 complex(2.0, -0.0), complex(math.nan, 0.0)]


@cuda.jit
def pow_kernel(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] ** b[i]


@njit
def pow_host(a, b, out):
    for i in range(a.size):
        out[i] = a[i] ** b[i]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_power_matches_the_host(dtype):
    a = np.array([p for p in POW_BASES for _ in POW_EXPONENTS])
    b = np.array([q for _ in POW_BASES for q in POW_EXPONENTS])
    with np.errstate(over="ignore"):
        a, b = a.astype(dtype), b.astype(dtype)
    got = np.zeros(a.size, dtype)
    want = np.zeros(a.size, dtype)
    pow_kernel[(a.size + 127) // 128, 128](a, b, got)
    pow_host(a, b, want)
    if dtype == np.complex128:
        assert_power_matches_host(got, want, a, b)
    else:  # narrowed from complex128 on both sides: the same float32, or one float32 ulp
        w = want.astype(np.complex128)
        g = got.astype(np.complex128)
        for i in range(a.size):
            for gp, wp in ((g[i].real, w[i].real), (g[i].imag, w[i].imag)):
                assert (math.isnan(gp) and math.isnan(wp)) or gp == wp or abs(gp - wp) <= 1.2e-7 * abs(wp), (a[i], b[i], g[i], w[i])
    # against CPython where it does not raise (0 ** negative or complex)
    for i in range(a.size):
        try:
            w = complex(a[i]) ** complex(b[i])
        except (ZeroDivisionError, OverflowError):
            continue
        if dtype == np.complex128 and all(map(math.isfinite, (w.real, w.imag))) and abs(w) < 1e300:
            g = complex(got[i])
            tol = 1e-13 * max(abs(w), 1e-300) + 1e-290
            assert abs(g - w) <= tol, (a[i], b[i], g, w)
    assemble(pow_kernel)


@cuda.jit
def mixed_pow_kernel(z, x, n, out):
    i = cuda.grid(1)
    if i < z.size:
        out[0, i] = z[i] ** n[i]       # an integer exponent
        out[1, i] = x[i] ** z[i]       # a real base
        out[2, i] = z[i] ** x[i]
        w = z[i]
        w **= 3                        # a constant integer, augmented
        out[3, i] = w
        out[4, i] = z[i] ** 2


@njit
def mixed_pow_host(z, x, n, out):
    for i in range(z.size):
        out[0, i] = z[i] ** n[i]
        out[1, i] = x[i] ** z[i]
        out[2, i] = z[i] ** x[i]
        w = z[i]
        w **= 3
        out[3, i] = w
        out[4, i] = z[i] ** 2


def test_complex_power_of_mixed_types_matches_the_host():
    z = np.array([2 + 3j, -1 - 1j, 0j, 0.5j, 1e-3 + 7j, complex(-4.0, -0.0), 1e150 + 1e150j])
    x = np.array([2.0, -1.5, 0.0, 3.0, 0.5, -2.0, 1e-3])
    n = np.array([3, -2, 0, 5, 1, -1, 2], dtype=np.int64)
    got = np.zeros((5, z.size), np.complex128)
    want = np.zeros_like(got)
    mixed_pow_kernel[1, 32](z, x, n, got)
    mixed_pow_host(z, x, n, want)
    for k in range(5):
        assert_matches_host(got[k], want[k], z, f"row {k}")
    np.testing.assert_allclose(got[4], z * z)
    np.testing.assert_allclose(got[3][:5], z[:5] ** 3, rtol=1e-14)
    assemble(mixed_pow_kernel)


def test_complex_power_of_arrays_is_refused_in_kernels():
    from mahou.errors import UnsupportedError

    @cuda.jit
    def k(z, out):
        out[:] = z ** z

    with pytest.raises(UnsupportedError, match="complex"):
        k[1, 1](np.ones(2, dtype=np.complex128), np.ones(2, dtype=np.complex128))
