"""cmath's trigonometric and hyperbolic functions and complex `**` for CUDA kernels, in
real math: the host calls its runtime (C99's functions with CPython's special values),
which the device does not have. Asked for by the compiler as '@device_cmath.<name>'.

The algorithms are CPython's (Modules/cmathmodule.c): the finite cases by its formulas,
scaled where an intermediate would overflow; the special values (infinite and NaN parts,
signed zeros) as C99 Annex G gives them, with CPython's choices where C99 leaves a sign
open, which is what the host returns. Arguments are complex128 (sema widens them); NaN
signs are not part of the contract."""

import cmath
import math

from mahou import njit

_INF = math.inf
_NAN = math.nan
_LARGE = 4.49423283715578976932e+307  # DBL_MAX / 4: beyond it, CPython's scaled formulas
_SQRT_LARGE = 6.70390396497129854469e+153  # sqrt(DBL_MAX / 4)
_T = 709.0895657128241  # 1023 ln 2: e^x past it overflows, scaled by e^_T steps (as C99's)
_EXP_T = 8.98846567431186e+307  # exp(_T), as rounded (not 2^1023: the steps must compose to e^x)
_DBL_MAX = 1.7976931348623157e+308
_DBL_MIN = 2.2250738585072014e-308
_EPS = 2.220446049250313e-16
_TINY = 3.725290298461914e-09  # 2^-28: below it z^3 / 6 is lost against z
_SQRT_DBL_MIN = 1.49166814624004134866e-154  # sqrt(DBL_MIN)
_LN2 = 0.6931471805599453
_PI = math.pi


@njit
def _neg(x):
    # -x, but a NaN stays a positive NaN (the host's identities do not see a NaN's sign)
    if math.isnan(x):
        return math.fabs(x)
    return -x


@njit
def _finite(x, y):
    return math.isfinite(x) and math.isfinite(y)


@njit
def _scaled_exp(x, c, s):
    # (e^|x| c, e^|x| s) for |x| past _T, by steps of e^_T, so that a small c or s keeps the
    # product finite (C99's implementations do the same; CPython's overflows there)
    rx = math.fabs(x) - _T
    c *= _EXP_T / 2.0
    s *= _EXP_T / 2.0
    if rx > _T:
        rx -= _T
        c *= _EXP_T
        s *= _EXP_T
    if rx > _T:
        return complex(_DBL_MAX * c, _DBL_MAX * s)
    ev = math.exp(rx)
    return complex(ev * c, ev * s)


@njit
def sinh(z):
    x = z.real
    y = z.imag
    if _finite(x, y):
        if y == 0.0:  # exactly real (no inf * 0 where sinh(x) overflows)
            return complex(math.sinh(x), y)
        if math.fabs(x) > _T:
            return _scaled_exp(x, math.copysign(1.0, x) * math.cos(y), math.sin(y))
        return complex(math.sinh(x) * math.cos(y), math.cosh(x) * math.sin(y))
    if math.isinf(x):
        if math.isfinite(y):
            if y == 0.0:
                return complex(x, y)
            return complex(math.copysign(_INF, math.cos(y)) * math.copysign(1.0, x), math.copysign(_INF, math.sin(y)))
        return complex(_INF, _NAN)  # an infinite or NaN imaginary part: +inf, as the host
    if x == 0.0:  # y infinite or NaN
        if math.isnan(y):
            return complex(0.0, _NAN)
        return complex(x, _NAN)
    if math.isnan(x) and y == 0.0:
        return complex(_NAN, y)
    return complex(_NAN, _NAN)


@njit
def cosh(z):
    x = z.real
    y = z.imag
    if _finite(x, y):
        if y == 0.0:
            return complex(math.cosh(x), y * math.copysign(1.0, x))
        if math.fabs(x) > _T:
            return _scaled_exp(x, math.cos(y), math.copysign(1.0, x) * math.sin(y))
        return complex(math.cosh(x) * math.cos(y), math.sinh(x) * math.sin(y))
    if math.isinf(x):
        if math.isfinite(y):
            if y == 0.0:
                return complex(_INF, math.copysign(1.0, x) * y)
            return complex(math.copysign(_INF, math.cos(y)), math.copysign(_INF, math.sin(y)) * math.copysign(1.0, x))
        return complex(_INF, _NAN)
    if x == 0.0:  # y infinite or NaN: NaN + 0j
        return complex(_NAN, 0.0)
    if math.isnan(x) and y == 0.0:
        return complex(_NAN, 0.0)
    return complex(_NAN, _NAN)


@njit
def tanh(z):
    x = z.real
    y = z.imag
    if _finite(x, y):
        if math.fabs(x) > _T / 2.0:  # tanh(x) is ±1; the imaginary part 4 sin y cos y e^-2|x|
            im = 4.0 * math.sin(y) * math.cos(y) / _EXP_T
            rx = math.fabs(x) - _T / 2.0
            if rx > _T / 2.0:
                im /= _EXP_T
            else:
                im /= math.exp(2.0 * rx)
            return complex(math.copysign(1.0, x), im)
        # (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y)
        sy = y
        cy = 1.0
        if math.fabs(y) > _DBL_MIN:
            sy = math.sin(y)
            cy = math.cos(y)
        shx = x
        chx = 1.0
        if math.fabs(x) > _DBL_MIN:
            shx = math.sinh(x)
            chx = math.cosh(x)
        if math.fabs(shx) > math.fabs(cy) * _EPS:
            den = shx * shx + cy * cy
        else:
            den = cy * cy
        return complex(shx * chx / den, sy * cy / den)
    if math.isinf(x):
        if math.isfinite(y):
            if math.fabs(y) > 1.0:
                return complex(math.copysign(1.0, x), math.copysign(0.0, math.sin(y) * math.cos(y)))
            return complex(math.copysign(1.0, x), math.copysign(0.0, y))
        if math.isinf(y):
            return complex(math.copysign(1.0, x), 0.0)
        return complex(math.copysign(1.0, x), math.copysign(0.0, y))
    if x == 0.0 and math.isinf(y):
        return complex(x, _NAN)
    if math.isnan(x) and y == 0.0:
        return complex(_NAN, y)
    return complex(_NAN, _NAN)


@njit
def asinh(z):
    x = z.real
    y = z.imag
    if _finite(x, y):
        if math.fabs(x) > _LARGE or math.fabs(y) > _LARGE:  # log|2z| without overflow
            r = math.log(math.hypot(x / 2.0, y / 2.0)) + 2.0 * _LN2
            if y >= 0.0:
                re = math.copysign(r, x)
            else:
                re = -math.copysign(r, -x)
            return complex(re, math.atan2(y, math.fabs(x)))
        if math.fabs(x) < _TINY and math.fabs(y) < _TINY:  # asinh z = z (1 + O(z^2)); the
            return z  # formula would lose the subnormals' digits (C99's keeps them)
        s1 = cmath.sqrt(complex(1.0 + y, -x))
        s2 = cmath.sqrt(complex(1.0 - y, x))
        return complex(math.asinh(s1.real * s2.imag - s2.real * s1.imag),
                       math.atan2(y, s1.real * s2.real - s1.imag * s2.imag))
    if math.isinf(x):
        if math.isinf(y):
            return complex(x, math.copysign(_PI / 4, y))
        if math.isnan(y):
            return complex(x, _NAN)
        return complex(x, math.copysign(0.0, y))
    if math.isinf(y):
        if math.isnan(x):
            return complex(_INF, _NAN)
        return complex(math.copysign(_INF, x), math.copysign(_PI / 2, y))
    if math.isnan(x) and y == 0.0:
        return complex(_NAN, y)
    return complex(_NAN, _NAN)


@njit
def acosh(z):
    x = z.real
    y = z.imag
    if _finite(x, y):
        if math.fabs(x) > _LARGE or math.fabs(y) > _LARGE:
            return complex(math.log(math.hypot(x / 2.0, y / 2.0)) + 2.0 * _LN2, math.atan2(y, x))
        if math.fabs(x) < _EPS / 4.0 and math.fabs(y) < _TINY:  # i pi/2 - i z, rounded
            return complex(math.fabs(y), math.copysign(_PI / 2, y))
        s1 = cmath.sqrt(complex(x - 1.0, y))
        s2 = cmath.sqrt(complex(x + 1.0, y))
        return complex(math.asinh(s1.real * s2.real + s1.imag * s2.imag), 2.0 * math.atan2(s1.imag, s2.real))
    if math.isinf(y):
        if math.isinf(x):
            return complex(_INF, math.copysign(_PI / 4 if x > 0 else 3 * _PI / 4, y))
        if math.isnan(x):
            return complex(_INF, _NAN)
        return complex(_INF, math.copysign(_PI / 2, y))
    if math.isinf(x):
        if math.isnan(y):
            return complex(_INF, _NAN)
        return complex(_INF, math.copysign(0.0 if x > 0 else _PI, y))
    return complex(_NAN, _NAN)


@njit
def _atanh_right(x, y):
    # atanh(x + yj) for x >= +0 (atanh is odd)
    ay = math.fabs(y)
    if math.isnan(x) or math.isnan(y):
        if math.isinf(x) or math.isinf(y):  # the infinite part decides: 0 + ±pi/2 j or 0 + nan j
            if math.isinf(y):
                return complex(0.0, math.copysign(_PI / 2, y))
            return complex(0.0, _NAN)
        if x == 0.0:
            return complex(x, _NAN)
        return complex(_NAN, _NAN)
    if x > _SQRT_LARGE or ay > _SQRT_LARGE:  # |z| huge: 1/z's real part, +-pi/2
        if math.isinf(x) or math.isinf(y):
            return complex(0.0, math.copysign(_PI / 2, y))
        h = math.hypot(x / 2.0, y / 2.0)
        return complex(x / 4.0 / h / h, -math.copysign(_PI / 2, -y))
    if x == 1.0 and ay < _SQRT_DBL_MIN:
        if ay == 0.0:
            return complex(_INF, y)
        return complex(-math.log(math.sqrt(ay) / math.sqrt(math.hypot(ay, 2.0))),
                       math.copysign(math.atan2(2.0, -ay) / 2.0, y))
    return complex(math.log1p(4.0 * x / ((1.0 - x) * (1.0 - x) + ay * ay)) / 4.0,
                   -math.atan2(-2.0 * y, (1.0 - x) * (1.0 + x) - ay * ay) / 2.0)


@njit
def atanh(z):
    x = z.real
    y = z.imag
    if math.copysign(1.0, x) < 0.0:
        r = _atanh_right(-x, _neg(y))
        return complex(-r.real, _neg(r.imag))
    return _atanh_right(x, y)


@njit
def acos(z):
    x = z.real
    y = z.imag
    if _finite(x, y):
        if math.fabs(x) > _LARGE or math.fabs(y) > _LARGE:
            r = math.log(math.hypot(x / 2.0, y / 2.0)) + 2.0 * _LN2
            if x < 0.0:
                im = -math.copysign(r, y)
            else:
                im = math.copysign(r, -y)
            return complex(math.atan2(math.fabs(y), x), im)
        if math.fabs(x) < _EPS / 4.0 and math.fabs(y) < _TINY:  # pi/2 - z, rounded
            return complex(_PI / 2, -y)
        s1 = cmath.sqrt(complex(1.0 - x, -y))
        s2 = cmath.sqrt(complex(1.0 + x, y))
        return complex(2.0 * math.atan2(s1.real, s2.real), math.asinh(s2.real * s1.imag - s2.imag * s1.real))
    if math.isinf(y):
        if math.isinf(x):
            return complex(_PI / 4 if x > 0 else 3 * _PI / 4, -y)
        if math.isnan(x):
            return complex(_NAN, -y)
        return complex(_PI / 2, -y)
    if math.isinf(x):
        if math.isnan(y):
            return complex(_NAN, _INF)
        return complex(0.0 if x > 0 else _PI, -math.copysign(_INF, y))
    if x == 0.0 and math.isnan(y):
        return complex(_PI / 2, _NAN)
    return complex(_NAN, _NAN)


# CPython's identities: f(z) = -i g(iz), with iz = (-y, x) and -i (a + bj) = b - aj.
@njit
def sin(z):
    s = sinh(complex(_neg(z.imag), z.real))
    return complex(s.imag, -s.real)


@njit
def cos(z):
    return cosh(complex(_neg(z.imag), z.real))


@njit
def tan(z):
    s = tanh(complex(_neg(z.imag), z.real))
    return complex(s.imag, -s.real)


@njit
def asin(z):
    s = asinh(complex(_neg(z.imag), z.real))
    return complex(s.imag, -s.real)


@njit
def atan(z):
    s = atanh(complex(_neg(z.imag), z.real))
    return complex(s.imag, -s.real)


@njit
def power(a, b):
    """a ** b as the host: a square is a multiplication in a's own type; otherwise
    CPython's polar formula in complex128 (1 for a zero exponent, 0 ** b is 0 for a
    positive real b and nan where Python raises)."""
    if b.real == 2.0 and b.imag == 0.0:
        return a * a
    ar = a.real * 1.0
    ai = a.imag * 1.0
    br = b.real * 1.0
    bi = b.imag * 1.0
    if br == 0.0 and bi == 0.0:
        return complex(1.0, 0.0)
    if ar == 0.0 and ai == 0.0:
        if bi != 0.0 or br < 0.0:
            return complex(_NAN, _NAN)
        return complex(0.0, 0.0)
    magnitude = math.hypot(ar, ai)
    angle = math.atan2(ai, ar)
    length = math.pow(magnitude, br)
    phase = angle * br
    if bi != 0.0:
        length /= math.exp(angle * bi)
        phase += bi * math.log(magnitude)
    return complex(length * math.cos(phase), length * math.sin(phase))
