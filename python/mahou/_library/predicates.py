"""Small NumPy functions compiled by mahou (re-exported by numpy_functions): the
predicates iscomplex/isreal/isscalar, asarray_chkfinite, the NaN-skipping cumulative
sum and product, sinc, indices, fill_diagonal, logspace/geomspace, nan_to_num,
unwrap (1-d), select (conditions and choices of one shape) and roots (real coefficients
give real roots; complex roots of them raise ValueError, as Numba's)."""

import numpy as np

from mahou import njit
from mahou._language import refuse, tuple_setitem

__all__ = ["iscomplex", "isreal", "isscalar", "asarray_chkfinite", "nancumsum", "nancumprod", "sinc", "indices",
           "logspace", "geomspace", "nan_to_num", "unwrap", "fill_diagonal", "select", "roots"]


@njit
def iscomplex(x):
    if isinstance(x, np.ndarray):
        return np.imag(x) != 0
    return np.bool_(x.imag != 0)


@njit
def isreal(x):
    if isinstance(x, np.ndarray):
        return np.imag(x) == 0
    return np.bool_(x.imag == 0)


@njit
def isscalar(x):
    if isinstance(x, np.ndarray) or isinstance(x, tuple) or isinstance(x, list) or x is None:
        return False
    return True


@njit
def asarray_chkfinite(a):
    a = np.asarray(a)
    f = a.ravel()
    for i in range(f.shape[0]):
        if not np.isfinite(f[i]):
            raise ValueError("array must not contain infs or NaNs")
    return a


@njit
def nancumsum(a):
    a = np.asarray(a)
    return np.where(np.isnan(a), 0, a).cumsum()


@njit
def nancumprod(a):
    a = np.asarray(a)
    return np.where(np.isnan(a), 1, a).cumprod()


@njit
def sinc(x):
    if isinstance(x, np.ndarray):
        y = np.pi * np.where(x == 0, 1.0e-20, x)
        return np.sin(y) / y
    y = np.pi * (1.0e-20 if x == 0 else x)
    return np.sin(y) / y


@njit
def indices(dimensions):
    n = len(dimensions)
    out = np.empty((n,) + dimensions, dtype=np.int64)
    for idx in np.ndindex(dimensions):
        for k in range(n):
            out[(k,) + idx] = idx[k]
    return out


@njit
def fill_diagonal(a, val, wrap=False):
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else min(a.shape[1] * a.shape[1], a.size)
    else:
        for d in a.shape:
            if d != a.shape[0]:
                raise ValueError("All dimensions of input must be of equal length")
        step = 1
        p = 1
        for d in a.shape[:-1]:
            p *= d
            step += p
        end = a.size
    vals = np.asarray(val).ravel()
    j = 0
    for i in range(0, end, step):
        if vals.size == 0:
            break
        a.flat[i] = vals[j % vals.size]
        j += 1


@njit
def logspace(start, stop, num=50, endpoint=True, base=10.0):
    if not endpoint:
        step = (stop - start) / num if num > 0 else 0.0
        y = start + np.arange(num) * step
        return np.power(base, y)
    return np.power(base, np.linspace(start, stop, num))


@njit
def geomspace(start, stop, num=50, endpoint=True):
    start = start * 1.0
    stop = stop * 1.0
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    out_sign = np.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = logspace(np.log10(start), np.log10(stop), num, endpoint, 10.0)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    return out_sign * result


@njit
def _nan_to_num_value(v, nan, posinf, neginf, big):
    if np.isnan(v):
        return nan
    if np.isinf(v):
        if v > 0:
            return big if posinf is None else posinf
        return -big if neginf is None else neginf
    return v


@njit
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    if not isinstance(x, np.ndarray):
        if isinstance(x, float):
            return _nan_to_num_value(x, nan, posinf, neginf, np.finfo(np.float64).max)
        return x
    out = x.copy() if copy else x
    f = out.reshape(out.size)
    z = np.zeros(1, dtype=out.dtype)[0]
    if isinstance(z, np.float64) or isinstance(z, np.float32):
        big = np.finfo(out.dtype).max
        for i in range(f.shape[0]):
            f[i] = _nan_to_num_value(f[i], nan, posinf, neginf, big)
    elif isinstance(z, np.complex128) or isinstance(z, np.complex64):
        big = np.finfo(out.real.dtype).max
        for i in range(f.shape[0]):
            v = f[i]
            f[i] = complex(_nan_to_num_value(v.real, nan, posinf, neginf, big),
                           _nan_to_num_value(v.imag, nan, posinf, neginf, big))
    return out


@njit
def unwrap(p, discont=None, axis=-1, period=6.283185307179586):
    p = np.asarray(p)
    if p.ndim == 0:
        refuse("np.unwrap() of a 0-d array")
    nd = p.ndim
    ax = axis + nd if axis < 0 else axis
    if ax < 0 or ax >= nd:
        raise ValueError("axis is out of bounds for array")
    high = period / 2
    low = -high
    cut = high if discont is None else max(discont, high)
    # the unwrapped axis last, in a float64 copy whose rows are the lines to unwrap
    up = np.ascontiguousarray(np.moveaxis(p, ax, -1)).astype(np.float64)
    n = up.shape[-1]
    if up.size == 0:
        return np.moveaxis(up, -1, ax)
    rows = up.reshape(-1, n)
    for r in range(rows.shape[0]):
        correction = 0.0
        prev = rows[r, 0]
        for i in range(1, n):
            cur = rows[r, i]
            dd = cur - prev
            ddmod = np.mod(dd - low, period) + low
            if ddmod == low and dd > 0:
                ddmod = high
            ph = ddmod - dd
            if abs(dd) < cut:
                ph = 0.0
            correction += ph
            rows[r, i] = cur + correction
            prev = cur
    return np.moveaxis(up, -1, ax)


@njit
def _broadcast_same_ndim(shape, other):
    # the broadcast of two shapes of one length (Numba's np.select broadcasts only those)
    if len(shape) != len(other):
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    out = shape
    for i in range(len(shape)):
        a = shape[i]
        b = other[i]
        if a == b or b == 1:
            continue
        if a == 1:
            out = tuple_setitem(out, i, b)
        else:
            raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    return out


@njit
def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    first = np.asarray(choicelist[0])
    value = np.zeros(1, first.dtype)[0] + default  # NumPy's result type of the choices and the default
    shape = first.shape
    for k in range(len(condlist)):
        shape = _broadcast_same_ndim(shape, np.asarray(condlist[k]).shape)
        shape = _broadcast_same_ndim(shape, np.asarray(choicelist[k]).shape)
    out = np.full(shape, value)
    for k in range(len(condlist) - 1, -1, -1):
        cond = np.asarray(condlist[k])
        choice = np.asarray(choicelist[k])
        if cond.shape == out.shape and choice.shape == out.shape:
            c = cond.ravel()
            v = choice.ravel()
            o = out.reshape(out.size)
            for i in range(o.shape[0]):
                if c[i]:
                    o[i] = v[i]
        else:  # broadcast views of the smaller ones
            cb = np.broadcast_to(cond, shape)
            vb = np.broadcast_to(choice, shape)
            for idx in np.ndindex(shape):
                if cb[idx]:
                    out[idx] = vb[idx]
    return out


@njit
def roots(p):
    p = np.asarray(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    z = np.zeros(1, dtype=p.dtype)[0]
    if isinstance(z, np.complex128) or isinstance(z, np.complex64):
        c = p.astype(np.complex128)
    else:
        c = p.astype(np.float64)
    non_zero = np.nonzero(c)[0]
    if len(non_zero) == 0:
        return np.zeros(0, dtype=c.dtype)
    trailing_zeros = len(c) - non_zero[-1] - 1
    c = c[int(non_zero[0]):int(non_zero[-1]) + 1]
    n = len(c)
    if n > 1:
        a = np.diag(np.ones(n - 2, dtype=c.dtype), -1)
        a[0, :] = -c[1:] / c[0]
        r = np.linalg.eigvals(a)  # real coefficients with complex roots: ValueError, as Numba's
    else:
        r = np.zeros(0, dtype=c.dtype)
    return np.concatenate((r, np.zeros(trailing_zeros, dtype=r.dtype)))
