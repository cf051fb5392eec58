"""NumPy's window functions (hanning, hamming, blackman, bartlett, kaiser) and np.i0,
compiled by mahou with NumPy's formulas in NumPy's order of operations. The Chebyshev
coefficients of i0 are read from the installed NumPy."""

import numpy as np

from mahou import njit

__all__ = ["hanning", "hamming", "blackman", "bartlett", "kaiser", "i0"]


def _i0_coefficients():
    try:
        from numpy.lib import _function_base_impl as impl  # NumPy 2
    except ImportError:  # pragma: no cover - NumPy 1.x
        from numpy.lib import function_base as impl
    return np.array(impl._i0A, dtype=np.float64), np.array(impl._i0B, dtype=np.float64)


_I0A, _I0B = _i0_coefficients()


@njit
def _chbevl(x, vals):
    b0 = vals[0]
    b1 = 0.0
    b2 = 0.0
    for i in range(1, vals.shape[0]):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + vals[i]
    return 0.5 * (b0 - b2)


@njit
def _i0_scalar(x):
    x = abs(x)
    if x <= 8.0:
        return np.exp(x) * _chbevl(x / 2.0 - 2, _I0A)
    return np.exp(x) * _chbevl(32.0 / x - 2.0, _I0B) / np.sqrt(x)


@njit
def i0(x):
    if isinstance(x, (complex, np.complex64, np.complex128)):
        raise TypeError("i0 not supported for complex values")
    if isinstance(x, np.ndarray):
        if isinstance(np.zeros(1, dtype=x.dtype)[0], (complex, np.complex64, np.complex128)):
            raise TypeError("i0 not supported for complex values")
        out = np.empty(x.shape, dtype=np.float64)
        src = x.ravel()
        dst = out.ravel()
        for i in range(src.shape[0]):
            dst[i] = _i0_scalar(src[i] * 1.0)
        return out
    return np.array(_i0_scalar(x * 1.0))  # a 0-d array, as NumPy


@njit
def _window_n(M):
    # n = arange(1 - M, M, 2) with M as a float, as NumPy
    m = float(M)
    return np.arange(1.0 - m, m, 2.0), m


@njit
def hanning(M):
    if M < 1:
        return np.empty(0, dtype=np.float64)
    if M == 1:
        return np.ones(1, dtype=np.float64)
    n, m = _window_n(M)
    return 0.5 + 0.5 * np.cos(np.pi * n / (m - 1))


@njit
def hamming(M):
    if M < 1:
        return np.empty(0, dtype=np.float64)
    if M == 1:
        return np.ones(1, dtype=np.float64)
    n, m = _window_n(M)
    return 0.54 + 0.46 * np.cos(np.pi * n / (m - 1))


@njit
def blackman(M):
    if M < 1:
        return np.empty(0, dtype=np.float64)
    if M == 1:
        return np.ones(1, dtype=np.float64)
    n, m = _window_n(M)
    return 0.42 + 0.5 * np.cos(np.pi * n / (m - 1)) + 0.08 * np.cos(2.0 * np.pi * n / (m - 1))


@njit
def bartlett(M):
    if M < 1:
        return np.empty(0, dtype=np.float64)
    if M == 1:
        return np.ones(1, dtype=np.float64)
    n, m = _window_n(M)
    return np.where(n <= 0, 1 + n / (m - 1), 1 - n / (m - 1))


@njit
def kaiser(M, beta):
    if M == 1:
        return np.ones(1, dtype=np.float64)
    m = float(M)
    b = float(beta)
    n = np.arange(0.0, m)
    alpha = (m - 1) / 2.0
    out = np.empty(n.shape[0], dtype=np.float64)
    denom = _i0_scalar(b)
    for i in range(n.shape[0]):
        r = (n[i] - alpha) / alpha
        out[i] = _i0_scalar(b * np.sqrt(1 - r * r)) / denom
    return out
