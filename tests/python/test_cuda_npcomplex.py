"""NumPy's ufuncs of complex scalars in kernels (np.sin, np.arccosh, np.expm1, np.sign,
np.power, ..., the library's device_npcomplex and device_cmath in real math) against NumPy
on the host: a grid of special values (±0, subnormals, ±1, huge, ±inf, nan) and random
values, complex64 and complex128; infinities, NaNs and signed zeros exactly, finite
values within a few ulps. Also in device functions and @vectorize(target="cuda"); each
kernel's PTX through ptxas."""

import math
import warnings

import numpy as np
import pytest

from conftest import assemble_ptx, power_condition, random_complex_sample
from mahou import cuda, njit, vectorize

pytestmark = pytest.mark.gpu

UNARY = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
         "arccosh", "arctanh", "exp2", "log2", "expm1", "log1p", "sign", "sqrt", "exp", "log", "log10"]
GRID_PARTS = [0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310, 1e-160, 1e-40, 1.0, -1.0, 1.0000000000000002,
              0.9999999999999999, -1.0000001, 0.5, -2.5, 2.0, 3.0, 1e-9, 44.5, 89.5, -100.0, 710.0, -710.0,
              800.0, -1e3, 1e38, 1e154, 1e300, -1e300, math.inf, -math.inf, math.nan]
GRID = np.array([complex(a, b) for a in GRID_PARTS for b in GRID_PARTS])


def all_unary(v, out, i):  # the rows in UNARY's order; compiled for the device and the host
    out[0, i] = np.sin(v)
    out[1, i] = np.cos(v)
    out[2, i] = np.tan(v)
    out[3, i] = np.arcsin(v)
    out[4, i] = np.arccos(v)
    out[5, i] = np.arctan(v)
    out[6, i] = np.sinh(v)
    out[7, i] = np.cosh(v)
    out[8, i] = np.tanh(v)
    out[9, i] = np.arcsinh(v)
    out[10, i] = np.arccosh(v)
    out[11, i] = np.arctanh(v)
    out[12, i] = np.exp2(v)
    out[13, i] = np.log2(v)
    out[14, i] = np.expm1(v)
    out[15, i] = np.log1p(v)
    out[16, i] = np.sign(v)
    out[17, i] = np.sqrt(v)
    out[18, i] = np.exp(v)
    out[19, i] = np.log(v)
    out[20, i] = np.log10(v)


all_unary_device = cuda.jit(device=True)(all_unary)
all_unary_host = njit(all_unary)


@cuda.jit
def unary_kernel(z, out):
    i = cuda.grid(1)
    if i < z.size:
        all_unary_device(z[i], out, i)


@njit
def unary_host(z, out):
    for i in range(z.size):
        all_unary_host(z[i], out, i)


def ordered(v, dtype):
    """The float's position among its type's values (-0.0 and +0.0 one apart)."""
    ity = np.int64 if dtype == np.float64 else np.int32
    i = int(np.array(v, dtype).view(ity))
    mask = 0x7FFFFFFFFFFFFFFF if dtype == np.float64 else 0x7FFFFFFF
    return i if i >= 0 else -(i & mask) - 1


def part_matches(got, want, dtype, ulps):
    # a NaN, an infinity and the sign of every value (zeros included) the same; magnitudes
    # within `ulps` of the part's type (a zero against a subnormal too)
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got) or math.copysign(1, want) != math.copysign(1, got):
        return want == got and math.copysign(1, want) == math.copysign(1, got)
    return abs(ordered(got, dtype) - ordered(want, dtype)) <= ulps


def mismatches(got, want, inputs, ulps, log_real=False):
    """The (input, got, want) triples whose parts differ. log_real: the real part is a
    logarithm of a modulus (np.log, log2, log10, log1p): near |.| = 1 it is ill-conditioned
    (an ulp of the modulus, where a device's hypot may differ from glibc's by one, is a
    whole unit of eps in the result), so it may also differ by `ulps` eps absolutely."""
    part = np.float64 if got.dtype == np.complex128 else np.float32
    eps = float(np.finfo(part).eps)

    def real_ok(g, w):
        if part_matches(g, w, part, ulps):
            return True
        return log_real and math.isfinite(g) and math.isfinite(w) and abs(g - w) <= ulps * eps

    return [(complex(inputs[i]), complex(got[i]), complex(want[i])) for i in range(got.size)
            if not (real_ok(float(got[i].real), float(want[i].real))
                    and part_matches(float(got[i].imag), float(want[i].imag), part, ulps))]


def power_mismatches(got, want, base, exponent, ulps):
    """As mismatches, for base ** exponent: finite results within `ulps` ulps times the
    power's condition number (conftest.power_condition), relative to the result."""
    part = np.float64 if got.dtype == np.complex128 else np.float32
    eps = float(np.finfo(part).eps)
    bad = []
    for i in range(got.size):
        g, w = complex(got[i]), complex(want[i])
        if all(map(math.isfinite, (g.real, g.imag, w.real, w.imag))) and abs(w) > 0:
            ok = abs(g - w) <= ulps * eps * power_condition(base[i], exponent[i]) * abs(w)
        else:
            ok = not mismatches(got[i:i + 1], want[i:i + 1], base[i:i + 1], ulps)
        if not ok:
            bad.append((complex(base[i]), complex(exponent[i]), g, w))
    return bad


def is_log(name):
    return name.startswith("log")


def numpy_rows(z):
    with np.errstate(all="ignore"):
        return [getattr(np, name)(z) for name in UNARY]


def assemble(kernel):
    for sig in kernel.signatures:
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
        assert "mahou_rt" not in ptx  # no host runtime function named in the kernel
        assemble_ptx(ptx)


def run_unary(z):
    got = np.zeros((len(UNARY), z.size), z.dtype)
    unary_kernel[(z.size + 127) // 128, 128](z, got)
    return got


def test_special_values_complex128_match_numpy():
    got = run_unary(GRID)
    want = numpy_rows(GRID)
    for k, name in enumerate(UNARY):
        bad = mismatches(got[k], want[k], GRID, 8, is_log(name))
        assert not bad, f"np.{name}: {len(bad)} differ (input, kernel, numpy), first {bad[:4]}"
    host = np.zeros_like(got)
    unary_host(GRID, host)  # the compiled host loop (the C99 runtime) agrees too
    for k, name in enumerate(UNARY):
        assert not mismatches(got[k], host[k], GRID, 8, is_log(name)), name
    assemble(unary_kernel)


def test_numpy_special_values_named_by_hand():
    z = np.array([complex(-0.0, -0.0), 0j, complex(-0.0, math.nan), complex(math.inf, math.nan),
                  complex(math.nan, 0.0), complex(-math.inf, math.inf)])
    got = run_unary(z)
    row = {name: got[k] for k, name in enumerate(UNARY)}
    assert row["sqrt"][0] == 0 and np.signbit(row["sqrt"][0].imag)  # sqrt(-0-0j) = 0-0j
    assert row["log"][1].real == -math.inf and row["log"][1].imag == 0  # log(0j) = -inf+0j
    assert np.signbit(row["sinh"][2].real) and math.isnan(row["sinh"][2].imag)  # C99's sign, not cmath's +0
    assert math.isnan(row["arccosh"][2].real) and row["arccosh"][2].imag == math.pi / 2  # cmath: nan+nanj
    assert row["arccos"][3].imag == -math.inf  # cmath: +inf
    assert row["tan"][4].imag == 0 and math.isnan(row["tan"][4].real)  # cmath: nan+nanj
    assert row["tan"][5] == complex(-0.0, 1.0) and np.signbit(row["tan"][5].real)


def numpy_narrowed(z):
    """NumPy's functions of complex64 values computed in complex128 and narrowed: what the
    kernel and the host compute. NumPy's own float32 loops (csinf, ...) round their
    intermediates to float32 (exp2 of 89.5j is off by 2e-6 there; csinhf(89.5+1j)
    overflows where the value fits float32)."""
    with np.errstate(all="ignore"):
        return [w.astype(np.complex64) for w in numpy_rows(z.astype(np.complex128))]


def test_special_values_complex64_match_numpy():
    with np.errstate(over="ignore"):
        z = GRID.astype(np.complex64)
    got = run_unary(z)
    want = numpy_narrowed(z)
    host = np.zeros_like(got)
    unary_host(z, host)
    float32_loops = numpy_rows(z)
    for k, name in enumerate(UNARY):
        bad = mismatches(got[k], host[k], z, 2, is_log(name))
        assert not bad, f"np.{name} against the host: {len(bad)} differ, first {bad[:4]}"
        bad = mismatches(got[k], want[k], z, 2, is_log(name))
        assert not bad, f"np.{name} against NumPy: {len(bad)} differ (input, kernel, numpy), first {bad[:4]}"
        # NumPy's float32 loops on the special values proper (each part ±0, ±inf or nan):
        # the same results (elsewhere float32's rounded intermediates can move a phase)
        for g, w, x in zip(got[k], float32_loops[k], z):
            if all(p == 0 or not math.isfinite(p) for p in (x.real, x.imag)):
                for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
                    assert part_matches(float(gp), float(wp), np.float32, 2), (name, x, g, w)
    assemble(unary_kernel)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_random_values_match_numpy(dtype):
    rng = np.random.default_rng(17)
    n = 800
    z = random_complex_sample(rng, n, 20, 200)
    z = z.astype(dtype)
    got = run_unary(z)
    want = numpy_rows(z) if dtype == np.complex128 else numpy_narrowed(z)
    for k, name in enumerate(UNARY):
        keep = np.isfinite(want[k])
        assert keep.sum() > n // 2, name
        bad = mismatches(got[k][keep], want[k][keep], z[keep], 8 if dtype == np.complex128 else 2, is_log(name))
        assert not bad, f"np.{name} {dtype.__name__}: {len(bad)} differ, first {bad[:4]}"


def all_parts(v, w, out, re, i):  # compiled for the device and the host
    out[0, i] = np.conj(v)
    out[1, i] = np.conjugate(v)
    out[2, i] = np.power(v, w)
    out[3, i] = np.negative(v)
    out[4, i] = np.square(v)
    out[5, i] = np.reciprocal(v)
    re[0, i] = np.abs(v)
    re[1, i] = np.absolute(v)
    re[2, i] = np.real(v)
    re[3, i] = np.imag(v)


all_parts_device = cuda.jit(device=True)(all_parts)
all_parts_host = njit(all_parts)


@cuda.jit
def parts_kernel(z, w, out, re):
    i = cuda.grid(1)
    if i < z.size:
        all_parts_device(z[i], w[i], out, re, i)


@njit
def parts_host(z, w, out, re):
    for i in range(z.size):
        all_parts_host(z[i], w[i], out, re, i)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_abs_conj_real_imag_power(dtype):
    rng = np.random.default_rng(3)
    base = GRID[:: 7]
    w = np.resize(np.array([2 + 0j, 0.5 + 0j, 1 - 1j, -2.5 + 3j, 3 + 0j, 0j, -1 + 0j]), base.size)
    with np.errstate(over="ignore"):
        z, w = base.astype(dtype), w.astype(dtype)
    real = np.float32 if dtype == np.complex64 else np.float64
    got, got_re = np.zeros((6, z.size), dtype), np.zeros((4, z.size), real)
    want, want_re = np.zeros_like(got), np.zeros_like(got_re)
    parts_kernel[(z.size + 127) // 128, 128](z, w, got, got_re)
    parts_host(z, w, want, want_re)
    for k in range(6):
        bad = power_mismatches(got[k], want[k], z, w, 2) if k == 2 else mismatches(got[k], want[k], z, 2)
        assert not bad, f"row {k}: {len(bad)} differ from the host, first {bad[:4]}"
    with np.errstate(all="ignore"):
        ref = [np.conj(z), np.conjugate(z), None, np.negative(z), np.square(z), np.reciprocal(z)]
        ref_re = [np.abs(z), np.absolute(z), np.real(z), np.imag(z)]
    for k in (0, 1, 3):
        assert not mismatches(got[k], ref[k], z, 0), k
    for k in range(4):  # np.abs(inf+nanj) is inf, np.abs(nan+1j) nan: hypot's
        for g, r in zip(got_re[k], ref_re[k]):
            assert part_matches(float(g), float(r), real, 2), (k, g, r)
    # np.power against NumPy on ordinary values (the host's algorithm is CPython's, as Numba's)
    zz = (rng.uniform(-3, 3, 64) + 1j * rng.uniform(-3, 3, 64)).astype(dtype)
    ww = (rng.uniform(-3, 3, 64) + 1j * rng.uniform(-3, 3, 64)).astype(dtype)
    out, out_re = np.zeros((6, 64), dtype), np.zeros((4, 64), real)
    parts_kernel[1, 64](zz, ww, out, out_re)
    rtol = 1e-5 if dtype == np.complex64 else 1e-12
    np.testing.assert_allclose(out[2], np.power(zz, ww), rtol=rtol)
    assemble(parts_kernel)


@cuda.jit(device=True)
def np_trig_sum(z):
    return np.tan(z) + np.arccosh(z) + np.expm1(z)


@cuda.jit
def device_function_kernel(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = np_trig_sum(z[i])


def test_in_a_device_function():
    z = np.array([0.5 + 0.5j, -2 + 1e-3j, complex(-0.0, 3.0), 1e300 + 1j, 3 - 4j])
    out = np.zeros(z.size, np.complex128)
    device_function_kernel[1, 32](z, out)
    with np.errstate(all="ignore"):
        want = np.tan(z) + np.arccosh(z) + np.expm1(z)
    assert not mismatches(out, want, z, 8)


def test_vectorize_cuda_on_complex():
    def f(z):
        return np.sin(z) * np.arctanh(z) + np.sign(z)

    vf = vectorize(["complex64(complex64)", "complex128(complex128)"], target="cuda")(f)
    rng = np.random.default_rng(9)
    for dtype in (np.complex64, np.complex128):
        z = (rng.uniform(-2, 2, 300) + 1j * rng.uniform(-2, 2, 300)).astype(dtype)
        got = vf(z)
        assert got.dtype == dtype
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = f(z)
        np.testing.assert_allclose(got, want, rtol=2e-5 if dtype == np.complex64 else 1e-13)


def test_complex_arrays_are_refused_in_kernels():
    from mahou.errors import UnsupportedError

    @cuda.jit
    def k(z, out):
        out[:] = np.sin(z)

    with pytest.raises(UnsupportedError, match="complex arrays in CUDA kernels"):
        k[1, 1](np.ones(2, dtype=np.complex128), np.zeros(2, dtype=np.complex128))
