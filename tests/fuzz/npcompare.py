"""Equality for the NumPy oracle: arrays with the same shape and dtype, element by element
bit for bit (NaNs equal by position, -0.0 differs from 0.0, float32 and float64 each in
their own bits); scalars by value and bits (compiled code returns Python scalars where
NumPy returns NumPy scalars, as Numba); tuples item by item. A result slot the program
marks in TOLERANCE is compared within a bound instead: "sum" (the next slot holds the
sum of magnitudes: |got - expected| <= 256 * eps * scale, NumPy adding pairwise),
"rel" (a relative 1e-12 for float64, 1e-5 for float32), "ulp" (8 units in the last
place of the expected value, the libm's last bits). Complex values that are not the same
bits may differ by 16 eps of the expected modulus (both finite), or both be not finite: NumPy's complex loops
fuse products into FMA where the CPU has it (AVX-512), while compiled code, as CPython
and Numba, rounds each product (docs/supported.md, intended differences)."""

import math

import numpy as np


def _bits_equal(g, e):
    """Two float or complex values (NumPy or Python) of one precision are the same bits,
    NaNs equal whatever their payload."""
    if isinstance(e, (complex, np.complexfloating)):
        return _bits_equal(g.real, e.real) and _bits_equal(g.imag, e.imag)
    g, e = float(g), float(e)
    if math.isnan(e) or math.isnan(g):
        return math.isnan(e) and math.isnan(g)
    return g == e and math.copysign(1.0, g) == math.copysign(1.0, e)


def _complex_close(g, e):
    """Finite complex values within 16 eps of the expected modulus (FMA or not); or both
    not finite: a fused product turns the inf - inf (NaN) of an overflowed part into an
    infinity ((1e300+1e300j)**2: NumPy's -inf+infj, compiled code's nan+infj)."""
    g, e = np.asarray(g, dtype=np.complex128), np.asarray(e)
    eps = np.finfo(e.real.dtype).eps
    finite = np.isfinite(g) & np.isfinite(e)
    with np.errstate(all="ignore"):
        close = finite & (np.abs(g - e) <= 16 * eps * np.abs(e.astype(np.complex128)))
    return close | (~np.isfinite(g) & ~np.isfinite(e))


def _scalar_difference(got, expected, path):
    if isinstance(got, np.ndarray) and got.ndim == 0:
        got = got[()]
    if isinstance(expected, (bool, np.bool_)):
        ok = isinstance(got, (bool, np.bool_)) and bool(got) == bool(expected)
    elif isinstance(expected, (int, np.integer)):
        ok = isinstance(got, (int, np.integer)) and not isinstance(got, (bool, np.bool_)) and int(got) == int(expected)
    elif isinstance(expected, (float, np.floating, complex, np.complexfloating)):
        ok = isinstance(got, (float, np.floating, complex, np.complexfloating)) and _bits_equal(got, expected)
        if not ok and isinstance(expected, (complex, np.complexfloating)) and isinstance(got, (complex, np.complexfloating)):
            ok = bool(_complex_close(got, expected))
        if ok and isinstance(expected, np.float32):
            ok = np.float32(got) == got or math.isnan(got) or math.isinf(got)
    else:
        return f"{path}: unexpected reference value {expected!r}"
    return None if ok else f"{path}: expected {expected!r}, got {got!r}"


def _array_difference(got, expected, path):
    if not isinstance(got, np.ndarray):
        return f"{path}: expected an array {expected.dtype}{expected.shape}, got {got!r}"
    if got.shape != expected.shape or got.dtype != expected.dtype:
        return f"{path}: expected {expected.dtype}{expected.shape}, got {got.dtype}{got.shape}"
    if expected.dtype.kind in "fc":
        near = _complex_close(got, expected) if expected.dtype.kind == "c" else False
        for part in ("real", "imag") if expected.dtype.kind == "c" else (None,):
            g = getattr(got, part) if part else got
            e = getattr(expected, part) if part else expected
            width = {2: np.uint16, 4: np.uint32, 8: np.uint64}[e.dtype.itemsize]
            same = (np.ascontiguousarray(g).view(width) == np.ascontiguousarray(e).view(width)) | (np.isnan(g) & np.isnan(e)) | near
            if not same.all():
                idx = tuple(int(i) for i in np.argwhere(~same)[0])
                return f"{path}{list(idx)}: expected {expected[idx]!r}, got {got[idx]!r}"
        return None
    if expected.dtype.kind in "mM":  # datetime64 / timedelta64: the counts (NaT too) in the unit
        same = np.asarray(got).view(np.int64) == np.asarray(expected).view(np.int64)
    else:
        same = got == expected
    if not np.all(same):
        idx = tuple(int(i) for i in np.argwhere(~np.asarray(same))[0])
        return f"{path}{list(idx)}: expected {expected[idx]!r}, got {got[idx]!r}"
    return None


def difference(got, expected, path="result"):
    """None when equal, else a description of the first difference."""
    if isinstance(expected, tuple):
        if not isinstance(got, tuple) or len(got) != len(expected):
            return f"{path}: expected a tuple of {len(expected)}, got {got!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            d = difference(g, e, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(expected, np.ndarray):
        return _array_difference(got, expected, path)
    if expected is None:
        return None if got is None else f"{path}: expected None, got {got!r}"
    if isinstance(expected, np.dtype):  # an array's dtype returned: the same np.dtype
        return None if isinstance(got, np.dtype) and got == expected else f"{path}: expected {expected!r}, got {got!r}"
    return _scalar_difference(got, expected, path)


EPS = {np.dtype("float64"): 2.0**-52, np.dtype("float32"): 2.0**-23, np.dtype("complex128"): 2.0**-52,
       np.dtype("complex64"): 2.0**-23}


def _eps(x):
    dt = x.dtype if isinstance(x, (np.ndarray, np.generic)) else np.dtype("float64")
    return EPS.get(dt, 2.0**-52)


def within(got, expected, kind, scale=None):
    """None when `got` is within the tolerance `kind` of `expected` (see the module doc)."""
    e = np.asarray(expected)
    try:
        g = np.asarray(got, dtype=e.dtype) if e.dtype.kind in "fc" else np.asarray(got)
    except (TypeError, ValueError):
        return f"expected {expected!r}, got {got!r}"
    if g.shape != e.shape:
        return f"expected shape {e.shape}, got {g.shape}"
    if isinstance(expected, np.ndarray) and (not isinstance(got, np.ndarray) or got.dtype != expected.dtype):
        return f"expected {expected.dtype}{expected.shape}, got {getattr(got, 'dtype', type(got))}"
    if e.dtype.kind not in "fc":
        return None if np.array_equal(g, e) else f"expected {expected!r}, got {got!r}"
    eps = _eps(e)
    with np.errstate(all="ignore"):
        parts = [(g.real, e.real), (g.imag, e.imag)] if e.dtype.kind == "c" else [(g, e)]
        for gp, ep in parts:
            gp, ep = gp.astype(np.float64), ep.astype(np.float64)
            nan_same = np.isnan(gp) == np.isnan(ep)
            inf_same = (np.isinf(gp) == np.isinf(ep)) & np.where(np.isinf(ep), gp == ep, True)
            diff = np.abs(gp - ep)
            if kind == "sum":
                s = np.abs(np.asarray(scale, dtype=np.complex128 if e.dtype.kind == "c" else np.float64))
                bound = 256 * eps * np.abs(s) + np.finfo(np.float64).tiny
                ok = (diff <= bound) | (np.isnan(gp) & np.isnan(ep)) | np.isinf(s) | np.isnan(s)
                ok |= (gp == ep)
            else:
                rel = {"rel": 1e-12 if eps < 1e-10 else 1e-5, "ulp": 8 * eps}[kind]
                tiny = np.finfo(np.float32 if eps > 1e-10 else np.float64).tiny
                ok = nan_same & inf_same & ((diff <= rel * np.abs(ep) + tiny) | (gp == ep) | (np.isnan(gp) & np.isnan(ep)))
            if not np.all(ok):
                bad = np.argwhere(~np.asarray(ok))
                idx = tuple(int(i) for i in bad[0]) if bad.size else ()
                return f"{list(idx)}: expected {e[idx]!r}, got {g[idx]!r} (tolerance {kind})"
    return None
