"""A library-style module that extends mahou through mahou.extending only (as libraries
built on Numba do): plain Python functions that work in the interpreter, with @overload
implementations for compiled code, a method and an attribute of arrays, and a helper
registered with register_jitable. The tests compare compiled use with the interpreter
(and with MAHOU_DISABLE_JIT=1, where everything is plain Python)."""

import math

import numpy as np

from mahou import types
from mahou.extending import overload, overload_attribute, overload_method, register_jitable


@register_jitable
def clamp(x, lo, hi):
    return lo if x < lo else (hi if x > hi else x)


def smoothstep(x, edge0=0.0, edge1=1.0):
    """Hermite interpolation of x between the edges (scalars or 1-D arrays)."""
    if isinstance(x, np.ndarray):
        return np.array([smoothstep(v, edge0, edge1) for v in x])
    t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@overload(smoothstep)
def _smoothstep(x, edge0=0.0, edge1=1.0):
    if isinstance(x, types.Number) and not isinstance(x, types.Complex):
        def scalar_impl(x, edge0=0.0, edge1=1.0):
            t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)
            return t * t * (3.0 - 2.0 * t)
        return scalar_impl
    if isinstance(x, types.Array) and x.ndim == 1:
        def array_impl(x, edge0=0.0, edge1=1.0):
            out = np.empty(x.shape[0])
            for i in range(x.shape[0]):
                t = clamp((x[i] - edge0) / (edge1 - edge0), 0.0, 1.0)
                out[i] = t * t * (3.0 - 2.0 * t)
            return out
        return array_impl
    return None


def digit_sum(n, base=10):
    """Sum of the digits of |n| in `base` (integers only)."""
    if not isinstance(n, (int, np.integer)):
        raise TypeError("digit_sum() needs an integer")
    n, s = abs(int(n)), 0
    while n:
        n, d = divmod(n, base)
        s += d
    return s


@overload(digit_sum)
def _digit_sum(n, base=10):
    if not isinstance(n, types.Integer):
        raise TypeError(f"digit_sum() needs an integer, not {n}")

    def impl(n, base=10):
        m = abs(n)
        s = 0
        while m:
            s += m % base
            m //= base
        return s
    return impl


def nth_moment(a, k):
    """The k-th central moment of a 1-D array: k must be known at compile time (a
    literal) in compiled code, as the implementation unrolls the power."""
    return float(np.mean((a - a.mean()) ** k))


@overload(nth_moment)
def _nth_moment(a, k):
    if not isinstance(k, types.IntegerLiteral):
        return None  # mahou offers the literal value next
    power = k.literal_value

    def impl(a, k):
        m = a.mean()
        s = 0.0
        for x in a:
            d = x - m
            p = 1.0
            for _ in range(power):
                p *= d
            s += p
        return s / a.shape[0]
    return impl


@overload_method(types.Array, "span")
def _span(a):
    if a.ndim != 1:
        return None

    def impl(a):
        return a.max() - a.min()
    return impl


@overload_method(types.Array, "scaled_norm")
def _scaled_norm(a, scale=1.0):
    def impl(a, scale=1.0):
        s = 0.0
        for x in a.flat:
            s += x * x
        return math.sqrt(s) * scale
    return impl


@overload_attribute(types.Array, "nelem")
def _nelem(a):
    return lambda a: a.size


@overload(np.sinc)
def _np_sinc(x):
    if isinstance(x, types.Float):
        def impl(x):
            if x == 0.0:
                return 1.0
            y = np.pi * x
            return np.sin(y) / y
        return impl
    return None
