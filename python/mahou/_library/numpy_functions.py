"""NumPy functions in Python, compiled by mahou when compiled code calls them (see the
package docstring). Each follows NumPy's definition (numpy/lib/_function_base_impl.py
and friends) in the order NumPy computes, so that results agree to the last bit where
NumPy's own order is sequential."""

import numpy as np

from mahou import njit
from mahou._language import refuse

from .internal import size_add as _size_add, size_mul as _size_mul
from .misc import *  # noqa: F401,F403  (tri, vander, ndenumerate, iinfo, ...)
from .selection import *  # noqa: F401,F403  (sort/argsort along an axis, partition, bincount, ...)
from .selection import count_nonzero, max_before, select_kth
from .sets import *  # noqa: F401,F403  (union1d, intersect1d, setdiff1d, setxor1d, isin)
from .shapes import *  # noqa: F401,F403  (transpose, split, diag, flip, roll, tile, ...)
from .windows import *  # noqa: F401,F403  (hanning, hamming, blackman, bartlett, kaiser, i0)
from .indexing_functions import extract, take, take_along_axis  # noqa: F401
from .tri_indices import *  # noqa: F401,F403  (tril_indices, triu_indices and their _from forms, row_stack, divmod)
from .predicates import *  # noqa: F401,F403  (iscomplex, isreal, isscalar, nancumsum, sinc, indices, fill_diagonal, ...)
from .covariance import cov, corrcoef  # noqa: F401
from .float_parts import modf, frexp, ldexp  # noqa: F401

# ---------------------------------------------------------------------------
# order statistics: median, percentile, quantile and their NaN-ignoring forms
# ---------------------------------------------------------------------------


@njit
def _stat_zero(a):
    # The float type NumPy's statistics return for elements of a: float32 stays float32.
    z = np.zeros(1, dtype=a.dtype)[0]
    if isinstance(z, np.float32):
        return np.float32(0.0)
    else:
        return 0.0


@njit
def _as_stat(x, zero):
    if isinstance(zero, np.float32):
        return np.float32(x)
    else:
        return np.float64(x)


@njit
def _lerp(a, b, t, zero):
    # numpy's _lerp: a + (b - a) * t, computed from b's end when t >= 0.5; t and 1 - t
    # are float64 rounded to the statistic's type (a Python float next to float32)
    d = b - a
    if t >= 0.5:
        return b - d * _as_stat(1.0 - t, zero)
    return a + d * _as_stat(t, zero)


@njit
def _count_non_nan(s):
    # s sorted: NaNs are last
    n = s.shape[0]
    while n > 0 and s[n - 1] != s[n - 1]:
        n -= 1
    return n


@njit
def _quantile_sorted(s, n, q, zero):
    # NumPy's default 'linear' method on the first n elements of sorted s, q in [0, 1]
    if n == 0:
        return _as_stat(np.nan, zero)
    virtual = (n - 1) * q
    below = np.floor(virtual)
    lo = int(below)
    if lo > n - 1:
        lo = n - 1
    hi = lo + 1
    if hi > n - 1:
        hi = n - 1
    return _lerp(_as_stat(s[lo], zero), _as_stat(s[hi], zero), virtual - below, zero)


@njit
def _quantile_one(s, n, q, nan, zero):
    if not (q >= 0.0 and q <= 1.0):
        raise ValueError("Quantiles must be in the range [0, 1]")
    if nan:
        return _as_stat(np.nan, zero)
    return _quantile_sorted(s, n, q, zero)


@njit
def _quantiles(a, q, scale, skipnan):
    if isinstance(q, (list, tuple)):
        return _quantiles(a, np.asarray(q), scale, skipnan)
    s = np.sort(a.ravel())
    n = s.shape[0]
    nan = False
    if skipnan:
        n = _count_non_nan(s)
    else:
        nan = _count_non_nan(s) < n
    if isinstance(q, np.ndarray):
        out = np.empty(q.shape, dtype=np.float64)
        qf = q.ravel()
        of = out.ravel()
        if s.shape[0] == 0 and not skipnan:
            for i in range(qf.shape[0]):
                _quantile_one(s, 0, qf[i] / scale, True, 0.0)  # every q checked first, as NumPy
            _empty_quantile()
        for i in range(qf.shape[0]):
            of[i] = _quantile_one(s, n, qf[i] / scale, nan, 0.0)
        return out
    else:
        r = _quantile_one(s, n, q / scale, nan, _stat_zero(a))
        if s.shape[0] == 0 and not skipnan:
            _empty_quantile()
        return r


@njit
def _empty_quantile():
    # NumPy 2's percentile/quantile of an empty array index its last item (the nan forms
    # give nan)
    raise IndexError("index -1 is out of bounds for axis 0 with size 0")


@njit
def percentile(a, q):
    a = np.asarray(a)
    return _quantiles(a, q, 100.0, False)


@njit
def nanpercentile(a, q):
    a = np.asarray(a)
    return _quantiles(a, q, 100.0, True)


@njit
def quantile(a, q):
    a = np.asarray(a)
    return _quantiles(a, q, 1.0, False)


@njit
def nanquantile(a, q):
    a = np.asarray(a)
    return _quantiles(a, q, 1.0, True)


@njit
def _median_sorted(s, n, zero):
    if n == 0:
        return _as_stat(np.nan, zero)
    h = n // 2
    if n % 2 == 1:
        return _as_stat(s[h], zero)
    return (_as_stat(s[h - 1], zero) + _as_stat(s[h], zero)) / _as_stat(2, zero)


@njit
def _median_selected(s, n, zero):
    # the median of s[:n] (no NaNs; s is a scratch copy) by selection, not by a sort:
    # the same two middle values, found in O(n)
    if n == 0:
        return _as_stat(np.nan, zero)
    h = n // 2
    upper = select_kth(s, n, h)
    if n % 2 == 1:
        return _as_stat(upper, zero)
    return (_as_stat(max_before(s, h), zero) + _as_stat(upper, zero)) / _as_stat(2, zero)


@njit
def _selectable(a):
    # ints and floats select with '<'; bool and complex keep the sort
    e = np.zeros(1, dtype=a.dtype)[0]
    return not isinstance(e, (np.bool_, np.complex64, np.complex128))


@njit
def median(a):
    a = np.asarray(a)
    zero = _stat_zero(a)
    if _selectable(a):
        s = a.flatten()
        n = s.shape[0]
        for i in range(n):
            if s[i] != s[i]:
                return _as_stat(np.nan, zero)
        return _median_selected(s, n, zero)
    s = np.sort(a.ravel())
    if _count_non_nan(s) < s.shape[0]:
        return _as_stat(np.nan, zero)
    return _median_sorted(s, s.shape[0], zero)


@njit
def nanmedian(a):
    a = np.asarray(a)
    zero = _stat_zero(a)
    if _selectable(a):
        s = a.flatten()
        m = 0
        for i in range(s.shape[0]):
            x = s[i]
            if x == x:
                s[m] = x
                m += 1
        return _median_selected(s, m, zero)
    s = np.sort(a.ravel())
    return _median_sorted(s, _count_non_nan(s), zero)


# ---------------------------------------------------------------------------
# reductions that skip NaNs
# ---------------------------------------------------------------------------


@njit
def nansum(a):
    a = np.asarray(a)
    return np.where(np.isnan(a), 0, a).sum()


@njit
def nanprod(a):
    a = np.asarray(a)
    return np.where(np.isnan(a), 1, a).prod()


@njit
def _nan_extreme(a, want_min):
    f = a.ravel()
    found = False
    best = f[0] if f.shape[0] > 0 else np.zeros(1, dtype=a.dtype)[0]
    for i in range(f.shape[0]):
        x = f[i]
        if x != x:
            continue
        if not found or (x < best if want_min else x > best):
            best = x
            found = True
    if not found:
        if f.shape[0] == 0:
            raise ValueError("zero-size array to reduction operation which has no identity")
        return best  # all NaN: NaN (NumPy warns)
    return best


@njit
def nanmin(a):
    a = np.asarray(a)
    return _nan_extreme(a, True)


@njit
def nanmax(a):
    a = np.asarray(a)
    return _nan_extreme(a, False)


@njit
def _nan_count_sum(a):
    f = a.ravel()
    zero = _stat_zero(a)
    s = zero
    n = 0
    for i in range(f.shape[0]):
        x = f[i]
        if x == x:
            s += x
            n += 1
    return s, n


@njit
def nanmean(a):
    a = np.asarray(a)
    s, n = _nan_count_sum(a)
    return s / _as_stat(n, s) if n > 0 else _as_stat(np.nan, s)


@njit
def nanvar(a, ddof=0):
    a = np.asarray(a)
    s, n = _nan_count_sum(a)
    if n - ddof <= 0:
        return _as_stat(np.nan, s)
    mean = s / _as_stat(n, s)
    f = a.ravel()
    acc = _stat_zero(a)
    for i in range(f.shape[0]):
        x = f[i]
        if x == x:
            d = x - mean
            acc += d * d
    return acc / _as_stat(n - ddof, acc)


@njit
def nanstd(a, ddof=0):
    return np.sqrt(nanvar(a, ddof))


# ---------------------------------------------------------------------------
# differences, rounding, closeness
# ---------------------------------------------------------------------------


@njit
def _diff_last(a):
    m = a.shape[-1]
    rows = a.size // m if m > 0 else 0
    flat = np.ascontiguousarray(a).reshape((rows, m))
    k = m - 1 if m > 0 else 0
    out = np.empty((rows, k), dtype=a.dtype)
    for r in range(rows):
        for j in range(k):
            hi = flat[r, j + 1]
            lo = flat[r, j]
            if isinstance(hi, np.bool_):
                out[r, j] = hi != lo
            else:
                out[r, j] = hi - lo
    return out


@njit
def diff(a, n=1):
    a = np.asarray(a)
    if n < 0:
        raise ValueError("order must be non-negative")
    shape = a.shape
    d = _diff_last(a)
    if n == 0:
        d = np.ascontiguousarray(a).reshape((d.shape[0], shape[-1]))
    for _ in range(n - 1):
        d = _diff_last(d)
    m = shape[-1] - n
    if m < 0:
        m = 0
    return d.reshape(shape[:-1] + (m,))


@njit
def _as_flat(x, dtype_of):
    # to_begin/to_end of ediff1d: None, a number or an array, as a 1-D array of a's dtype
    if x is None:
        return np.empty(0, dtype=dtype_of.dtype)
    elif isinstance(x, np.ndarray):
        return x.ravel().astype(dtype_of.dtype)
    else:
        out = np.empty(1, dtype=dtype_of.dtype)
        out[0] = x
        return out


@njit
def trapezoid(y, x=None, dx=1.0):
    # NumPy's trapezoid rule along the last axis of 1-D data: sum(d * (y[1:] + y[:-1]) / 2)
    v = np.asarray(y)
    if v.ndim != 1:
        refuse("np.trapezoid() of more than one dimension is not supported (as Numba)")
    if x is None:
        return (dx * (v[1:] + v[:-1]) / 2.0).sum()
    xs = np.asarray(x)
    if xs.ndim != 1:
        refuse("np.trapezoid() of more than one dimension is not supported (as Numba)")
    return (np.diff(xs) * (v[1:] + v[:-1]) / 2.0).sum()


@njit
def trapz(y, x=None, dx=1.0):
    return trapezoid(y, x, dx)


@njit
def ediff1d(ary, to_end=None, to_begin=None):
    ary = np.asarray(ary)
    f = ary.ravel()
    head = _as_flat(to_begin, f)
    tail = _as_flat(to_end, f)
    n = f.shape[0] - 1 if f.shape[0] > 0 else 0
    out = np.empty(head.shape[0] + n + tail.shape[0], dtype=f.dtype)
    for i in range(head.shape[0]):
        out[i] = head[i]
    for i in range(n):
        out[head.shape[0] + i] = f[i + 1] - f[i]
    for i in range(tail.shape[0]):
        out[head.shape[0] + n + i] = tail[i]
    return out


@njit
def _round_value(x, decimals):
    if isinstance(x, (np.float32, np.float64, float)):
        if decimals >= 0:
            f = _as_float_of(10.0 ** decimals, x)
            return np.rint(x * f) / f
        else:
            f = _as_float_of(10.0 ** -decimals, x)
            return np.rint(x / f) * f
    elif isinstance(x, (complex, np.complex64, np.complex128)):
        return complex(_round_value(x.real, decimals), _round_value(x.imag, decimals))
    else:
        if decimals >= 0:
            return x
        f = 1
        for _ in range(-decimals):
            f *= 10
        # integers round half to even, as NumPy does through the float path
        q = x // f
        r = x - q * f
        if 2 * r > f or (2 * r == f and q % 2 == 1):
            q += 1
        return q * f


@njit
def _as_float_of(v, x):
    if isinstance(x, np.float32):
        return np.float32(v)
    else:
        return np.float64(v)


@njit
def around(a, decimals=0):
    if isinstance(a, np.ndarray):
        out = np.empty(a.shape, dtype=a.dtype)
        src = a.ravel()
        dst = out.ravel()
        for i in range(src.shape[0]):
            dst[i] = _round_value(src[i], decimals)
        return out
    else:
        return _round_value(a, decimals)


@njit
def round(a, decimals=0):
    return around(a, decimals)


@njit
def round_(a, decimals=0):
    return around(a, decimals)


@njit
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x = a * 1.0
    y = b * 1.0
    r = ((np.abs(x - y) <= atol + rtol * np.abs(y)) & np.isfinite(y)) | (x == y)
    if equal_nan:
        r = r | (np.isnan(x) & np.isnan(y))
    return r


@njit
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    r = isclose(a, b, rtol, atol, equal_nan)
    if isinstance(r, np.ndarray):
        return bool(r.all())
    else:
        return bool(r)


@njit
def array_equal(a1, a2):
    a1 = np.asarray(a1)
    a2 = np.asarray(a2)
    if a1.ndim != a2.ndim:
        return False
    for k in range(a1.ndim):
        if a1.shape[k] != a2.shape[k]:
            return False
    return bool((a1 == a2).all())


# ---------------------------------------------------------------------------
# products of vectors and matrices
# ---------------------------------------------------------------------------


@njit
def outer(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    x = a.ravel()
    y = b.ravel()
    return x.reshape((x.shape[0], 1)) * y


@njit
def vdot(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    # the dot product of the flattened arrays, the first conjugated
    x = a.ravel()
    y = b.ravel()
    if x.shape[0] != y.shape[0]:
        raise ValueError("cannot reshape array: vdot of arrays of different sizes")
    return np.dot(np.conj(x), y)


@njit
def _cross_rows(a, b):
    # a, b 2-D with 3 columns; rows broadcast when one has a single row
    n = max(a.shape[0], b.shape[0])
    if (a.shape[0] != n and a.shape[0] != 1) or (b.shape[0] != n and b.shape[0] != 1):
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    kind = a[:0, 0] * b[:0, 0]  # an empty array of the product's dtype
    out = np.empty((n, 3), dtype=kind.dtype)
    for i in range(n):
        ia = i if a.shape[0] > 1 else 0
        ib = i if b.shape[0] > 1 else 0
        out[i, 0] = a[ia, 1] * b[ib, 2] - a[ia, 2] * b[ib, 1]
        out[i, 1] = a[ia, 2] * b[ib, 0] - a[ia, 0] * b[ib, 2]
        out[i, 2] = a[ia, 0] * b[ib, 1] - a[ia, 1] * b[ib, 0]
    return out


@njit
def cross(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        raise ValueError("incompatible dimensions for cross product (dimension must be 3)")
    if a.ndim == 1 and b.ndim == 1:
        return _cross_rows(a.reshape((1, 3)), b.reshape((1, 3))).reshape(3)
    elif a.ndim == 1:
        return _cross_rows(a.reshape((1, 3)), b)
    elif b.ndim == 1:
        return _cross_rows(a, b.reshape((1, 3)))
    else:
        return _cross_rows(a, b)


@njit
def kron(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    if a.ndim == 1 and b.ndim == 1:
        return outer(a, b).ravel()
    elif a.ndim > 2 or b.ndim > 2:
        raise NotImplementedError("np.kron() of arrays of more than 2 dimensions is not supported")
    else:
        x = a.reshape((1, a.shape[0])) if a.ndim == 1 else a
        y = b.reshape((1, b.shape[0])) if b.ndim == 1 else b
        m, n = x.shape[0], x.shape[1]
        p, q = y.shape[0], y.shape[1]
        kind = x[:0, :0] * y[:0, :0]  # empty, of the product's dtype (an axis may be empty)
        out = np.empty((_size_mul(m, p), _size_mul(n, q)), dtype=kind.dtype)
        for i in range(m):
            for j in range(n):
                for k in range(p):
                    for l in range(q):
                        out[i * p + k, j * q + l] = x[i, j] * y[k, l]
        return out


# ---------------------------------------------------------------------------
# interpolation, convolution
# ---------------------------------------------------------------------------


@njit
def _interp_one(x, xp, fp, left, right):
    n = xp.shape[0]
    if x != x:
        return x
    if x > xp[n - 1]:
        return right
    if x < xp[0]:
        return left
    if x == xp[n - 1]:
        return fp[n - 1] * 1.0
    j = np.searchsorted(xp, x, side="right") - 1
    if j >= n - 1:
        j = n - 2
    if x == xp[j]:
        return fp[j] * 1.0
    slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
    r = slope * (x - xp[j]) + fp[j]
    if r != r:
        r = slope * (x - xp[j + 1]) + fp[j + 1]
        if r != r and fp[j] == fp[j + 1]:
            r = fp[j] * 1.0
    return r


@njit
def interp(x, xp, fp, left=None, right=None):
    xp = np.asarray(xp)
    fp = np.asarray(fp)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("Data points must be 1-D sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    xs = xp * 1.0
    lo = fp[0] * 1.0 if left is None else left * 1.0
    hi = fp[fp.shape[0] - 1] * 1.0 if right is None else right * 1.0
    if isinstance(x, (list, tuple)):
        return interp(np.asarray(x), xp, fp, left, right)
    if isinstance(x, np.ndarray):
        out = np.empty(x.shape, dtype=np.float64)
        src = x.ravel()
        dst = out.ravel()
        if xp.shape[0] == 1:
            for i in range(src.shape[0]):
                v = src[i] * 1.0
                dst[i] = lo if v < xs[0] else hi if v > xs[0] else fp[0] * 1.0
        else:
            for i in range(src.shape[0]):
                dst[i] = _interp_one(src[i] * 1.0, xs, fp, lo, hi)
        return out
    else:
        v = x * 1.0
        if xp.shape[0] == 1:
            return lo if v < xs[0] else hi if v > xs[0] else fp[0] * 1.0
        return _interp_one(v, xs, fp, lo, hi)


@njit
def _correlate_valid(a, v, lo, hi, out):
    # out[k - lo] = sum_n a[n + k] * v[n] over the n where both exist, k in [lo, hi)
    na = a.shape[0]
    nv = v.shape[0]
    for k in range(lo, hi):
        s = a[0] * v[0] * 0
        for n in range(nv):
            i = n + k
            if i >= 0 and i < na:
                s += a[i] * v[n]
        out[k - lo] = s


@njit
def _correlate_mode(a, v, mode):
    # The full correlation c[k] = sum_n a[n + k] * v[n], k = -(nv - 1) .. na - 1, and
    # NumPy's windows of it ('valid', 'same'); when v is longer, NumPy correlates the
    # swapped pair and reverses, which moves the window of an even length by one.
    na = a.shape[0]
    nv = v.shape[0]
    if na == 0:
        raise ValueError("a cannot be empty")
    if nv == 0:
        raise ValueError("v cannot be empty")
    kind = a[:0] * v[:0]
    full = na + nv - 1
    short = min(na, nv)
    start, length = 0, 0
    if mode == "full":
        start, length = 0, full
    elif mode == "same":
        start, length = (short - 1) // 2, max(na, nv)
    elif mode == "valid":
        start, length = short - 1, max(na, nv) - short + 1
    else:
        raise ValueError("mode must be one of 'valid', 'same' or 'full'")
    if nv > na:
        start = full - start - length
    lo = start - (nv - 1)
    out = np.empty(length, dtype=kind.dtype)
    _correlate_valid(a, v, lo, lo + length, out)
    return out


@njit
def correlate(a, v, mode="valid"):
    a = np.asarray(a)
    v = np.asarray(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    else:
        return _correlate_mode(a, np.conj(v), mode)


@njit
def convolve(a, v, mode="full"):
    a = np.asarray(a)
    v = np.asarray(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    else:
        if a.shape[0] < v.shape[0]:
            return _correlate_mode(v, a[::-1], mode)
        return _correlate_mode(a, v[::-1], mode)


# ---------------------------------------------------------------------------
# matrices: triangles, trace; reordering: fliplr, flipud, repeat
# ---------------------------------------------------------------------------


@njit
def _triangle(m, k, upper):
    if m.ndim > 2:  # the last two axes of each item of the leading ones (a C copy: views)
        x = np.copy(m)
        rows, cols = x.shape[x.ndim - 2], x.shape[x.ndim - 1]
        stack = x.reshape((-1, rows, cols))
        for s in range(stack.shape[0]):
            for i in range(rows):
                for j in range(cols):
                    if (upper and j - i < k) or (not upper and j - i > k):
                        stack[s, i, j] = 0
        return x
    if m.ndim == 1:
        x = np.empty((m.shape[0], m.shape[0]), dtype=m.dtype)
        for i in range(m.shape[0]):
            x[i] = m
    else:
        x = np.copy(m)
    rows, cols = x.shape[0], x.shape[1]
    for i in range(rows):
        for j in range(cols):
            if (upper and j - i < k) or (not upper and j - i > k):
                x[i, j] = 0
    return x


@njit
def triu(m, k=0):
    m = np.asarray(m)
    return _triangle(m, k, True)


@njit
def tril(m, k=0):
    m = np.asarray(m)
    return _triangle(m, k, False)


@njit
def trace(a, offset=0):
    a = np.asarray(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    elif a.ndim == 2:
        return _trace2(a, offset)
    else:  # the diagonals of the first two axes, for each position of the others
        rest = 1  # the other axes' positions (counted: an axis may be empty)
        for k in range(2, a.ndim):
            rest *= a.shape[k]
        flat = np.ascontiguousarray(a).reshape((a.shape[0], a.shape[1], rest))
        out = np.full(rest, a.ravel()[:0].sum())  # zeros of the sum's type
        for r in range(rest):
            out[r] = _trace2(flat[:, :, r], offset)
        return out.reshape(a.shape[2:])


@njit
def _trace2(a, offset):
    acc = a[:0, :0].sum()  # a zero of the sum's type (an axis may be empty)
    for i in range(a.shape[0]):
        j = i + offset
        if j >= 0 and j < a.shape[1]:
            acc += a[i, j]
    return acc


@njit
def fliplr(m):
    m = np.asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    else:
        return m[:, ::-1]


@njit
def flipud(m):
    m = np.asarray(m)
    return m[::-1]


@njit
def repeat(a, repeats):
    f = np.asarray(a).ravel()
    n = f.shape[0]
    if isinstance(repeats, (list, tuple)):
        return repeat(f, np.asarray(repeats))
    if isinstance(repeats, np.ndarray):
        r = repeats.ravel()
        if r.shape[0] == 1:
            return repeat(f, r[0])
        if r.shape[0] != n:
            raise ValueError("operands could not be broadcast together")
        total = 0
        for i in range(n):
            if r[i] < 0:
                raise ValueError("negative dimensions are not allowed")
            total = _size_add(total, r[i])
        out = np.empty(total, dtype=f.dtype)
        p = 0
        for i in range(n):
            for _ in range(r[i]):
                out[p] = f[i]
                p += 1
        return out
    else:
        if repeats < 0:
            raise ValueError("negative dimensions are not allowed")
        out = np.empty(_size_mul(n, repeats), dtype=f.dtype)
        for i in range(n):
            for j in range(repeats):
                out[i * repeats + j] = f[i]
        return out


# ---------------------------------------------------------------------------
# indices of nonzero elements; binning; grids
# ---------------------------------------------------------------------------


@njit
def flatnonzero(a):
    a = np.asarray(a)
    f = a.ravel()
    n = count_nonzero(f)
    out = np.empty(n, dtype=np.int64)
    p = 0
    for i in range(f.shape[0]):
        if f[i] != 0:
            out[p] = i
            p += 1
    return out


@njit
def argwhere(a):
    a = np.asarray(a)
    f = np.ascontiguousarray(a).ravel()
    nd = a.ndim
    idx = flatnonzero(f)
    out = np.empty((idx.shape[0], nd), dtype=np.int64)
    for r in range(idx.shape[0]):
        rest = idx[r]
        for k in range(nd - 1, -1, -1):
            out[r, k] = rest % a.shape[k]
            rest //= a.shape[k]
    return out


@njit
def nonzero(a):
    a = np.asarray(a)
    w = argwhere(a)
    if a.ndim == 1:
        return (np.ascontiguousarray(w[:, 0]),)
    elif a.ndim == 2:
        return (np.ascontiguousarray(w[:, 0]), np.ascontiguousarray(w[:, 1]))
    elif a.ndim == 3:
        return (np.ascontiguousarray(w[:, 0]), np.ascontiguousarray(w[:, 1]), np.ascontiguousarray(w[:, 2]))
    elif a.ndim == 4:
        return (np.ascontiguousarray(w[:, 0]), np.ascontiguousarray(w[:, 1]), np.ascontiguousarray(w[:, 2]),
                np.ascontiguousarray(w[:, 3]))
    else:
        raise NotImplementedError("np.nonzero() of more than 4 dimensions is not supported")


@njit
def digitize(x, bins, right=False):
    bins = np.asarray(bins)
    n = bins.shape[0]
    # NumPy's test: past equal leading values, the first different one gives the
    # direction (a NaN compares neither way: decreasing), the rest must follow it.
    first = 1
    while first < n and bins[first] == bins[first - 1]:
        first += 1
    increasing = True
    if first < n:
        increasing = bins[0] < bins[first]
        for i in range(first, n - 1):
            if (increasing and bins[i] > bins[i + 1]) or (not increasing and bins[i] < bins[i + 1]):
                raise ValueError("bins must be monotonically increasing or decreasing")
    asc = bins if increasing else bins[::-1]
    asc = np.ascontiguousarray(asc)
    if isinstance(x, np.ndarray):
        out = np.empty(x.shape, dtype=np.int64)
        src = x.ravel()
        dst = out.ravel()
        for i in range(src.shape[0]):
            dst[i] = _digitize_one(src[i], asc, n, increasing, right)
        return out
    else:
        return _digitize_one(x, asc, n, increasing, right)


@njit
def _digitize_one(v, asc, n, increasing, right):
    if right:
        k = np.searchsorted(asc, v, side="left")
    else:
        k = np.searchsorted(asc, v, side="right")
    return k if increasing else n - k


@njit
def meshgrid(x, y):
    x = np.asarray(x)
    y = np.asarray(y)
    xs = x.ravel()
    ys = y.ravel()
    nx, ny = xs.shape[0], ys.shape[0]
    gx = np.empty((ny, nx), dtype=xs.dtype)
    gy = np.empty((ny, nx), dtype=ys.dtype)
    for i in range(ny):
        for j in range(nx):
            gx[i, j] = xs[j]
            gy[i, j] = ys[i]
    return gx, gy


@njit
def _nan_arg_extreme(a, want_min):
    # The first index of the least (greatest) item that is not NaN; -1 when all are NaN.
    f = a.ravel()
    k = -1
    best = f[0]
    for i in range(f.shape[0]):
        x = f[i]
        if x != x:
            continue
        if k < 0 or (x < best if want_min else x > best):
            best = x
            k = i
    return k


@njit
def _nan_arg(a, want_min):
    a = np.asarray(a)
    if a.size == 0:
        if want_min:
            raise ValueError("attempt to get argmin of an empty sequence")
        raise ValueError("attempt to get argmax of an empty sequence")
    k = _nan_arg_extreme(a, want_min)
    if k < 0:
        raise ValueError("All-NaN slice encountered")
    return k


@njit
def nanargmin(a):
    return _nan_arg(a, True)


@njit
def nanargmax(a):
    return _nan_arg(a, False)


@njit
def angle(z, deg=False):
    # NumPy's definition: arctan2 of the imaginary and real parts (0 or pi for reals)
    a = np.arctan2(np.imag(z), np.real(z))
    if deg:
        a = a * (180.0 / np.pi)
    return a
