"""NumPy's ufuncs of complex numbers for CUDA kernels, in real math: np.sin(z), np.arccosh(z),
np.expm1(z), np.sign(z), ... on a complex scalar. Asked for by the compiler as
'@device_npcomplex.<name>' (the ufunc's name).

NumPy calls C99's functions (the host's csin, cacosh, ...); these are cmath's (the
library's device_cmath, CPython's algorithms) wherever the two agree, which is everywhere
but a few special values where C99 names another sign of a zero or an infinity, or a
number where CPython gives NaN: those are NumPy's here. exp2, log2, expm1 and log1p are
NumPy's own formulas (numpy/_core/src/umath/funcs.inc.src), as the host runtime's.
Arguments are complex128 (sema widens them); NaN signs are not part of the contract."""

import cmath
import math

from mahou import njit
from mahou._library import device_cmath as dc

_INF = math.inf
_NAN = math.nan
_PI = math.pi
_LN2 = 0.6931471805599453
_LOG2E = 1.4426950408889634
_LOG10E = 0.4342944819032518


@njit
def sin(z):
    x = z.real
    y = z.imag
    if math.isinf(y) and not math.isfinite(x):  # NaN + ∞j for an infinite or NaN real part
        return complex(_NAN, _INF)
    if math.isnan(x) and y == 0.0:
        return complex(_NAN, y)
    return dc.sin(z)


@njit
def cos(z):
    x = z.real
    if x == 0.0 and math.isnan(z.imag):
        return complex(_NAN, x)
    return dc.cos(z)


@njit
def tan(z):
    x = z.real
    y = z.imag
    if math.isinf(x) and math.isinf(y):
        return complex(math.copysign(0.0, x), math.copysign(1.0, y))
    if math.isnan(x) and y == 0.0:
        return complex(_NAN, y)
    return dc.tan(z)


@njit
def arcsin(z):
    if math.isinf(z.real) and math.isnan(z.imag):
        return complex(_NAN, _INF)
    return dc.asin(z)


@njit
def arccos(z):
    if math.isinf(z.real) and math.isnan(z.imag):
        return complex(_NAN, -_INF)
    return dc.acos(z)


@njit
def arctan(z):
    x = z.real
    if math.isinf(x) and math.isnan(z.imag):
        return complex(math.copysign(_PI / 2, x), 0.0)
    return dc.atan(z)


@njit
def sinh(z):
    x = z.real
    if x == 0.0 and math.isnan(z.imag):
        return complex(x, _NAN)
    return dc.sinh(z)


@njit
def cosh(z):
    y = z.imag
    if math.isnan(z.real) and y == 0.0:
        return complex(_NAN, y)
    return dc.cosh(z)


@njit
def tanh(z):
    x = z.real
    y = z.imag
    if x == 0.0 and math.isnan(y):
        return complex(x, _NAN)
    if math.isinf(x) and math.isinf(y):
        return complex(math.copysign(1.0, x), math.copysign(0.0, y))
    return dc.tanh(z)


@njit
def arcsinh(z):
    return dc.asinh(z)


@njit
def arccosh(z):
    if z.real == 0.0 and math.isnan(z.imag):
        return complex(_NAN, _PI / 2)
    return dc.acosh(z)


@njit
def arctanh(z):
    return dc.atanh(z)


@njit
def exp2(z):
    # exp(z ln 2), part by part
    return cmath.exp(complex(z.real * _LN2, z.imag * _LN2))


@njit
def log2(z):
    w = cmath.log(z)
    return complex(w.real * _LOG2E, w.imag * _LOG2E)


@njit
def expm1(z):
    x = z.real
    y = z.imag
    a = math.sin(y / 2.0)
    return complex(math.expm1(x) * math.cos(y) - 2.0 * a * a, math.exp(x) * math.sin(y))


@njit
def log1p(z):
    x = z.real + 1.0
    y = z.imag
    return complex(math.log(math.hypot(x, y)), math.atan2(y, x))


@njit
def sign(z):
    """NumPy 2: z / |z|; 0 for 0, NaN for NaN; an infinite part gives its direction
    (NaN when both are infinite)."""
    x = z.real
    y = z.imag
    r = math.hypot(x, y)
    if math.isnan(r):
        return complex(_NAN, _NAN)
    if math.isinf(r):
        if math.isinf(x) and math.isinf(y):
            return complex(_NAN, _NAN)
        if math.isinf(x):
            return complex(math.copysign(1.0, x), 0.0)
        return complex(0.0, math.copysign(1.0, y))
    if r == 0.0:
        return complex(0.0, 0.0)
    return complex(x / r, y / r)
