"""np.modf, np.frexp and np.ldexp (NumPy's two-output and float-and-exponent ufuncs) in
Python: arrays of any layout give new arrays (a tuple of two for modf/frexp), scalars give
scalars; float32 stays float32, integers and bools compute in float64."""

import math

import numpy as np

from mahou import njit


@njit
def _as_float(x):
    # x (array or scalar) as its float type: float32 stays, others float64; -0.0 kept
    z = np.zeros(1, dtype=np.asarray(x).dtype)[0]
    if isinstance(z, np.float32):
        return x * np.float32(1.0)
    return x * 1.0


@njit
def _modf_one(y):
    if math.isinf(y):
        return math.copysign(0.0, y), y
    whole = np.trunc(y)
    return math.copysign(y - whole, y), whole


@njit
def modf(x):
    xf = _as_float(x)
    if isinstance(xf, np.ndarray):
        whole = np.trunc(xf)
        frac = np.where(np.isinf(xf), np.copysign(0.0, xf), np.copysign(xf - whole, xf))
        return frac.astype(xf.dtype), whole
    return _modf_one(xf)


@njit
def frexp(x):
    xf = _as_float(x)
    if isinstance(xf, np.ndarray):
        m = np.empty(xf.shape, dtype=xf.dtype)
        e = np.empty(xf.shape, dtype=np.int32)
        for idx in np.ndindex(xf.shape):
            mk, ek = math.frexp(xf[idx])
            m[idx] = mk
            e[idx] = ek
        return m, e
    mk, ek = math.frexp(xf)
    return mk, np.int32(ek)


@njit
def ldexp(x, i):
    xf = _as_float(x)
    if not isinstance(xf, np.ndarray) and not isinstance(i, np.ndarray):
        if isinstance(xf, np.float32):
            return np.float32(math.ldexp(xf, i))
        return math.ldexp(xf, i)
    if isinstance(xf, np.ndarray) and isinstance(i, np.ndarray):
        shape = (np.zeros_like(xf) + np.zeros_like(i)).shape
        xb = np.broadcast_to(xf, shape)
        ib = np.broadcast_to(i, shape)
        out = np.empty(shape, dtype=xf.dtype)
        for idx in np.ndindex(shape):
            out[idx] = math.ldexp(xb[idx], ib[idx])
        return out
    if isinstance(xf, np.ndarray):
        out = np.empty(xf.shape, dtype=xf.dtype)
        for idx in np.ndindex(xf.shape):
            out[idx] = math.ldexp(xf[idx], i)
        return out
    out = np.empty(i.shape, dtype=np.asarray(xf).dtype)
    for idx in np.ndindex(i.shape):
        out[idx] = math.ldexp(xf, i[idx])
    return out
