"""Transcendental functions in loops compiled with fastmath ('afn'): on x86-64 Linux the
loop vectoriser calls glibc's libmvec (at most 4 ulp); without fastmath the scalar libm
functions stay (CPython's results). Compiled against NumPy/CPython, float32 and float64,
empty, short and long arrays, views, special values."""

import math
import platform
import re

import numpy as np
import pytest

from mahou import njit

LIBMVEC = platform.system() == "Linux" and platform.machine() == "x86_64" and "glibc" in platform.libc_ver()[0]


def kernel(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        out[i] = math.sin(v) + math.cos(v) * math.exp(-abs(v)) + math.log(1.0 + abs(v)) + math.pow(abs(v), 0.7)


def kernel_tan(x, out):
    for i in range(x.shape[0]):
        out[i] = math.tan(x[i])


def reference(x, f):
    out = np.empty_like(x)
    f(x, out)  # the Python function: CPython's math module
    return out


def close(got, want, dtype):
    ulps = 64 if dtype == np.float32 else 16  # a sum of five terms of up to 4 ulp each
    tol = ulps * np.finfo(dtype).eps * np.maximum(np.abs(want), 1.0)
    same_nan = np.isnan(got) == np.isnan(want)
    assert same_nan.all()
    with np.errstate(invalid="ignore"):  # inf - inf
        ok = np.isnan(want) | (np.abs(got - want) <= tol) | (got == want)
    assert ok.all(), (got[~ok][:5], want[~ok][:5])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 3, 8, 1001])
@pytest.mark.parametrize("flags", [True, {"afn"}, {"afn", "contract"}])
def test_fastmath_loops_match_python(dtype, n, flags):
    f = njit(fastmath=flags)(kernel)
    g = njit(fastmath=flags)(kernel_tan)
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 10).astype(dtype)
    for arr in (x, x[::-1], np.ascontiguousarray(x[::2])):
        out = np.empty_like(arr)
        f(arr, out)
        close(out, reference(arr, kernel).astype(dtype), dtype)
        out = np.empty_like(arr)
        g(arr, out)
        close(out, reference(arr, kernel_tan).astype(dtype), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_special_values_with_approximate_functions_only(dtype):
    # 'afn' alone: NaN and infinity keep their meaning.
    @njit(fastmath={"afn"})
    def f(x, out):
        for i in range(x.shape[0]):
            out[i, 0] = math.sin(x[i])
            out[i, 1] = math.exp(x[i])
            out[i, 2] = math.log(x[i]) if x[i] >= 0 else -1.0
            out[i, 3] = math.cos(x[i])

    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, 710.0, -750.0, 1e22, 3.0] * 3, dtype=dtype)
    out = np.empty((x.shape[0], 4), dtype)
    f(x, out)
    with np.errstate(all="ignore"):
        want = np.stack([np.sin(x), np.exp(x), np.where(x >= 0, np.log(np.abs(x)), -1.0).astype(dtype), np.cos(x)], axis=1)
    close(out, want, dtype)


def test_without_fastmath_results_are_cpythons():
    f = njit(kernel)
    x = np.random.default_rng(1).standard_normal(1000) * 5
    out = np.empty_like(x)
    f(x, out)
    np.testing.assert_array_equal(out, reference(x, kernel))
    assert "_ZGV" not in f.inspect_asm(f.signatures[0])


@pytest.mark.skipif(not LIBMVEC, reason="libmvec is glibc's, on x86-64")
def test_fastmath_loop_calls_libmvec():
    f = njit(fastmath=True)(kernel)
    x = np.linspace(0, 1, 100)
    f(x, np.empty_like(x))
    asm = f.inspect_asm(f.signatures[0])
    names = set(re.findall(r"_ZGV\w+_(sin|cos|exp|log|pow)\b", asm))
    assert {"sin", "cos", "exp", "log"} <= names, names
