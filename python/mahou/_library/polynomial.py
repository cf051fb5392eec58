"""numpy.polynomial.polynomial's functions and polyutils' as_series/trimseq in compiled code
(asked for as '@polynomial.<name>'), NumPy's algorithms on 1-d coefficient arrays:
float64 (integers and bools are converted), complex128 for complex coefficients."""

import numpy as np

from mahou import njit
from mahou._language import refuse


@njit
def _float_coefficients(c):
    a = np.asarray(c)
    if a.ndim != 1:
        if a.ndim == 0:
            return _float_coefficients(a.reshape(1))
        refuse("polynomial coefficients in compiled code are a 1-d array")
    z = np.zeros(1, dtype=a.dtype)[0]
    if isinstance(z, np.complex128) or isinstance(z, np.complex64):
        return a.astype(np.complex128)
    return a.astype(np.float64)


@njit
def trimseq(seq):
    if len(seq) == 0 or seq[-1] != 0:
        return seq
    i = len(seq) - 1
    while i > 0 and seq[i] == 0:
        i -= 1
    return seq[:i + 1]


@njit
def _series(c):
    a = _float_coefficients(c)
    if a.size == 0:
        raise ValueError("Coefficient array is empty")
    return trimseq(a)


@njit
def as_series(alist, trim=True):
    out = []
    for a in alist:
        s = _float_coefficients(a)
        if s.size == 0:
            raise ValueError("Coefficient array is empty")
        out.append(trimseq(s) if trim else s)
    return out


@njit
def polyadd(c1, c2):
    a = _series(c1)
    b = _series(c2)
    n = max(a.size, b.size)
    ret = np.concatenate((a, np.zeros(n - a.size, a.dtype))) + np.concatenate((b, np.zeros(n - b.size, b.dtype)))
    for i in range(min(a.size, b.size), n):  # the longer one's own coefficients, as NumPy keeps them
        ret[i] = a[i] if a.size > b.size else b[i]
    return trimseq(ret)


@njit
def polysub(c1, c2):
    a = _series(c1)
    b = _series(c2)
    n = max(a.size, b.size)
    ret = np.concatenate((a, np.zeros(n - a.size, a.dtype))) - np.concatenate((b, np.zeros(n - b.size, b.dtype)))
    for i in range(min(a.size, b.size), n):
        ret[i] = a[i] if a.size > b.size else -b[i]
    return trimseq(ret)


@njit
def polymul(c1, c2):
    return trimseq(np.convolve(_series(c1), _series(c2)))


@njit
def _like(a, b):
    """a (a copy) in the common type of a and b, as polyutils.as_series converts."""
    zb = np.zeros(1, dtype=b.dtype)[0]
    if isinstance(zb, np.complex128):
        return a.astype(np.complex128)
    return a.copy()


@njit
def polydiv(c1, c2):
    a = _series(c1)
    b = _series(c2)
    a = _like(a, b)
    b = _like(b, a)
    if b[-1] == 0:
        raise ZeroDivisionError("polynomial division by zero")
    la = a.size
    lb = b.size
    if la < lb:
        return a[:1] * 0, a
    if lb == 1:
        return a / b[-1], a[:1] * 0
    scl = b[-1]
    d = b[:-1] / scl
    i = la - lb
    j = la - 1
    while i >= 0:
        a[i:j] -= d * a[j]
        i -= 1
        j -= 1
    return a[j + 1:] / scl, trimseq(a[:j + 1])


@njit
def polyval(x, c, tensor=True):
    c = _float_coefficients(c)
    if isinstance(x, (list, tuple)):
        x = np.asarray(x)
    c0 = c[-1] + x * 0
    for i in range(2, len(c) + 1):
        c0 = c[-i] + c0 * x
    return c0


@njit
def polyint(c, m=1):
    c = _float_coefficients(c).copy()
    if m < 0:
        raise ValueError("The order of integration must be non-negative")
    for _ in range(m):
        n = len(c)
        if n == 1 and c[0] == 0:
            continue
        tmp = np.empty(n + 1, c.dtype)
        tmp[0] = c[0] * 0
        tmp[1] = c[0]
        for j in range(1, n):
            tmp[j + 1] = c[j] / (j + 1)
        tmp[0] += 0 - polyval(0, tmp)
        c = tmp
    return c
from .polynomial_class import Polynomial  # noqa: E402,F401  (the class, made in compiled code)
