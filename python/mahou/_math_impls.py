"""math.gcd, lcm, comb, perm, isclose, modf, exp2 and nextafter in compiled code: Python
implementations with CPython's results and errors, compiled through mahou.extending like a user's
@overload (imported by the resolver before the first compilation)."""

import math

import numpy as np

from . import types
from .extending import overload, register_jitable


def _integers(*ts):
    return all(isinstance(t, (types.Integer, types.Boolean)) for t in ts)


def _real(*ts):
    return all(isinstance(t, (types.Integer, types.Boolean, types.Float)) for t in ts)


@register_jitable
def _euclid(a, b):
    """gcd of two non-negative integers."""
    while b:
        a, b = b, a % b
    return a


@overload(math.gcd)
def _gcd(*args):
    if not _integers(*args):
        return None

    def impl(*args):
        g = 0
        for v in args:
            g = _euclid(g, abs(v))
        return g
    return impl


@overload(math.lcm)
def _lcm(*args):
    if not _integers(*args):
        return None

    def impl(*args):
        result = 1
        for v in args:
            if v == 0:
                return 0
            a = abs(result)
            b = abs(v)
            result = a // _euclid(a, b) * b
        return result
    return impl


@overload(math.comb)
def _comb(n, k):
    if not _integers(n, k):
        return None

    def impl(n, k):
        if n < 0 or k < 0:
            raise ValueError("n and k must be non-negative integers")
        if k > n:
            return 0
        k = min(k, n - k)
        result = 1
        for i in range(1, k + 1):
            result = result * (n - k + i) // i
        return result
    return impl


@overload(math.perm)
def _perm(n, k=None):
    if not _integers(n) or not (k is None or isinstance(k, types.NoneType) or _integers(k)):
        return None

    def impl(n, k=None):
        if k is None:
            kk = n
        else:
            kk = k
        if n < 0 or kk < 0:
            raise ValueError("n and k must be non-negative integers")
        if kk > n:
            return 0
        result = 1
        for i in range(n - kk + 1, n + 1):
            result *= i
        return result
    return impl


@overload(math.isclose)
def _isclose(a, b, rel_tol=1e-09, abs_tol=0.0):
    if not _real(a, b):
        return None

    def impl(a, b, rel_tol=1e-09, abs_tol=0.0):
        if rel_tol < 0.0 or abs_tol < 0.0:
            raise ValueError("tolerances must be non-negative")
        if a == b:
            return True
        if math.isinf(a) or math.isinf(b):
            return False
        diff = abs(b - a)
        return diff <= abs(rel_tol * b) or diff <= abs(rel_tol * a) or diff <= abs_tol
    return impl


@overload(math.modf)
def _modf(x):
    if not _real(x):
        return None

    def impl(x):
        y = float(x)
        if math.isinf(y):
            return math.copysign(0.0, y), y
        whole = np.trunc(y)
        return math.copysign(y - whole, y), whole
    return impl


@overload(math.exp2)
def _exp2(x):
    if not _real(x):
        return None

    def impl(x):
        y = float(x)
        r = np.exp2(y)
        if math.isinf(r) and math.isfinite(y):
            raise OverflowError("math range error")
        return r
    return impl


@overload(math.nextafter)
def _nextafter(x, y):
    if not _real(x, y):
        return None

    def impl(x, y):
        return float(np.nextafter(float(x), float(y)))
    return impl
