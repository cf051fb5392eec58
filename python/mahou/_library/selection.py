"""NumPy's sorting, selection and counting functions beyond the compiler's own 1-D ones:
sort/argsort along any axis of N-D arrays, partition/argpartition, lexsort, unique of N-D
arrays, count_nonzero with an axis, bincount (weights, minlength) and histogram (bin edges,
range), compiled by mahou. partition is the runtime's introselect of each row (a.partition),
argpartition an introselect of indices written here; both O(n) on average, NaNs last."""

import numpy as np

from mahou import njit, literal_unroll
from mahou._language import refuse

from .shapes import _axis, moveaxis

__all__ = [
    "sort", "argsort", "partition", "argpartition", "lexsort", "unique", "count_nonzero", "bincount",
    "histogram",
]


@njit
def _rows(a, ax):
    # a C-contiguous copy of `a` with axis `ax` last, as (rows, n)
    c = np.copy(moveaxis(a, ax, -1))
    n = c.shape[-1]
    rows = c.size // n if n > 0 else 0
    return c, c.reshape((rows, n))


@njit
def _unmoved(c, ax, nd):
    # c (C order, axis ax moved last) back in a's axis order, C-contiguous
    if ax == nd - 1:
        return c
    return np.ascontiguousarray(moveaxis(c, -1, ax))


@njit
def sort(a, axis=-1, kind=None):
    a = np.asarray(a)
    if axis is None:
        return np.sort(a.ravel())
    if a.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    ax = _axis(axis, a.ndim)
    if a.ndim == 1:
        return np.sort(a)
    c, flat = _rows(a, ax)
    for r in range(flat.shape[0]):
        flat[r].sort()
    return _unmoved(c, ax, a.ndim)


@njit
def argsort(a, axis=-1, kind=None):
    a = np.asarray(a)
    if axis is None:
        return np.argsort(a.ravel())
    if a.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    ax = _axis(axis, a.ndim)
    if a.ndim == 1:
        return np.argsort(a)
    c, flat = _rows(a, ax)
    out = np.empty(c.shape, dtype=np.int64)
    oflat = out.reshape(flat.shape)
    for r in range(flat.shape[0]):
        oflat[r] = np.argsort(flat[r])
    return _unmoved(out, ax, a.ndim)


@njit
def _kth_array(kth, n):
    # the kth values (an int or a sequence of ints) checked against n, negative ones counted
    # from the end, in ascending order (NumPy partitions at each, smallest first)
    if isinstance(kth, int):
        ks = np.empty(1, dtype=np.int64)
        ks[0] = kth
    else:
        ks = np.asarray(kth).ravel().astype(np.int64)
    for i in range(ks.shape[0]):
        k = ks[i]
        if k < 0:  # NumPy reports the wrapped value: kth(=-1) for -6 of 5
            k += n
            ks[i] = k
        if k < 0 or k >= n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")
    return np.sort(ks)


@njit
def _partition_row(row, ks):
    # row (contiguous) partitioned at each k of ks (ascending): the runtime's introselect
    # (a.partition: std::nth_element, NaNs last) of what is right of the previous k
    lo = 0
    for i in range(ks.shape[0]):
        k = ks[i]
        if k >= lo:
            row[lo:].partition(k - lo)
            lo = k + 1


@njit
def _nan_last_less(x, y):
    # x < y in NumPy's sort order: NaNs after every number
    return x < y or (y != y and x == x)


@njit
def _swap2(v, idx, i, j):
    t = v[i]
    v[i] = v[j]
    v[j] = t
    u = idx[i]
    idx[i] = idx[j]
    idx[j] = u


@njit
def _argselect(v, idx, lo, hi, k):
    """Introselect of v[lo:hi] (a scratch copy of the values) moving idx along with it, so
    that v[k] (and idx[k]) is what a sort puts at k, nothing smaller after it and nothing
    larger before it: median-of-three quickselect with a three-way split (O(n) on average,
    also with many equal keys), a stable argsort of what is left after 2*log2(n) rounds
    that did not finish (O(n log n) at worst)."""
    budget = 2
    m = hi - lo
    while m > 1:
        budget += 2
        m >>= 1
    while hi - lo > 16:
        if budget == 0:
            order = np.argsort(v[lo:hi], kind="mergesort")
            idx[lo:hi] = idx[lo:hi][order]
            v[lo:hi] = v[lo:hi][order]
            return
        budget -= 1
        mid = lo + (hi - lo) // 2
        last = hi - 1
        if _nan_last_less(v[mid], v[lo]):
            _swap2(v, idx, mid, lo)
        if _nan_last_less(v[last], v[mid]):
            _swap2(v, idx, last, mid)
            if _nan_last_less(v[mid], v[lo]):
                _swap2(v, idx, mid, lo)
        p = v[mid]
        # [lo, lt) < p, [lt, i) == p, [gt, hi) > p
        lt = lo
        i = lo
        gt = hi
        while i < gt:
            x = v[i]
            if _nan_last_less(x, p):
                _swap2(v, idx, lt, i)
                lt += 1
                i += 1
            elif _nan_last_less(p, x):
                gt -= 1
                _swap2(v, idx, i, gt)
            else:
                i += 1
        if k < lt:
            hi = lt
        elif k >= gt:
            lo = gt
        else:
            return
    for i in range(lo + 1, hi):  # insertion sort of a short range
        j = i
        while j > lo and _nan_last_less(v[j], v[j - 1]):
            _swap2(v, idx, j, j - 1)
            j -= 1


@njit
def _argpartition_row(row, out, ks):
    # out = the indices of row partitioned at each k of ks (ascending)
    v = row.copy()
    for i in range(out.shape[0]):
        out[i] = i
    lo = 0
    n = out.shape[0]
    for i in range(ks.shape[0]):
        k = ks[i]
        if k >= lo:
            _argselect(v, out, lo, n, k)
            lo = k + 1


@njit
def partition(a, kth, axis=-1):
    a = np.asarray(a)
    if a.ndim == 0:
        raise ValueError("Cannot partition a 0-d array")
    if axis is None:
        c = a.ravel().copy()
        ks = _kth_array(kth, c.size)
        if c.size > 0:
            _partition_row(c, ks)
        return c
    ax = _axis(axis, a.ndim)
    ks = _kth_array(kth, a.shape[ax])
    c, flat = _rows(a, ax)
    if flat.shape[1] > 0:
        for r in range(flat.shape[0]):
            _partition_row(flat[r], ks)
    return _unmoved(c, ax, a.ndim)


@njit
def argpartition(a, kth, axis=-1):
    a = np.asarray(a)
    if a.ndim == 0:
        raise ValueError("Cannot partition a 0-d array")
    if axis is None:
        flat1 = a.ravel()
        ks = _kth_array(kth, flat1.size)
        out1 = np.empty(flat1.size, dtype=np.int64)
        _argpartition_row(flat1, out1, ks)
        return out1
    ax = _axis(axis, a.ndim)
    ks = _kth_array(kth, a.shape[ax])
    c, flat = _rows(a, ax)
    out = np.empty(c.shape, dtype=np.int64)
    oflat = out.reshape(flat.shape)
    for r in range(flat.shape[0]):
        _argpartition_row(flat[r], oflat[r], ks)
    return _unmoved(out, ax, a.ndim)


@njit
def _lexsort_step(idx, key):
    k = np.asarray(key)
    if k.ndim != 1 or k.shape[0] != idx.shape[0]:
        raise ValueError("all keys need to be the same shape")
    return idx[np.argsort(k[idx])]


@njit
def lexsort(keys):
    # the last key is the primary one: stable sorts by each key from the first to the last
    if isinstance(keys, np.ndarray):
        if keys.ndim != 2:
            refuse("np.lexsort() of an array needs a 2-D array (one key per row)")
        idx = np.arange(keys.shape[1])
        for r in range(keys.shape[0]):
            idx = _lexsort_step(idx, keys[r])
        return idx
    if len(keys) == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    idx = np.arange(np.asarray(keys[0]).size)
    for key in literal_unroll(keys):
        idx = _lexsort_step(idx, key)
    return idx


@njit
def unique(ar):
    return np.unique(np.asarray(ar).ravel())


@njit
def count_nonzero(a, axis=None):
    a = np.asarray(a)
    if axis is None:
        f = a.ravel()
        n = 0
        for i in range(f.shape[0]):
            if f[i] != 0:
                n += 1
        return n
    if a.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    if a.ndim == 1:  # the count along the only axis is a scalar, as NumPy's
        _axis(axis, 1)
        n = 0
        for i in range(a.shape[0]):
            if a[i] != 0:
                n += 1
        return n
    ax = _axis(axis, a.ndim)
    c, flat = _rows(a, ax)
    out = np.zeros(flat.shape[0], dtype=np.int64)
    for r in range(flat.shape[0]):
        for j in range(flat.shape[1]):
            if flat[r, j] != 0:
                out[r] += 1
    return out.reshape(c.shape[:-1])


@njit
def bincount(x, weights=None, minlength=0):
    a = np.asarray(x)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1 else
                         "object of too small depth for desired array")
    if not isinstance(np.zeros(1, dtype=a.dtype)[0], int):
        refuse("np.bincount() needs an array of integers (NumPy cannot cast other dtypes safely)")
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    n = a.shape[0]
    top = -1
    for i in range(n):
        if a[i] < 0:
            raise ValueError("'list' argument must have no negative elements")
        if a[i] > top:
            top = a[i]
    size = top + 1
    if size < minlength:
        size = minlength
    if weights is None:
        out = np.zeros(size, dtype=np.int64)
        for i in range(n):
            out[a[i]] += 1
        return out
    w = np.asarray(weights)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError("The weights and list don't have the same length.")
    acc = np.zeros(size, dtype=np.float64)
    for i in range(n):
        acc[a[i]] += w[i]
    return acc


@njit
def _float_kind(a):
    # the edges' dtype of np.histogram with a number of bins: a's float type, float64 for others
    z = np.zeros(1, dtype=a.dtype)[0]
    if isinstance(z, np.float32):
        return np.float32(0.0)
    elif isinstance(z, np.float16):
        return np.float16(0.0)
    else:
        return 0.0


@njit
def _hist_linspace(first, last, nbins, czero, ozero):
    # NumPy's linspace(first, last, nbins + 1) computed in czero's dtype (the edges found from a
    # float32 array are computed in float32; from a range, in float64), then cast to ozero's
    dt = np.asarray(czero).dtype
    delta = last - first
    div = np.full(1, nbins, dtype=dt)[0]
    step = delta / div
    y = np.arange(nbins + 1).astype(dt)
    if step == 0:
        y = y / div * delta
    else:
        y = y * step
    y = y + first
    y[nbins] = last
    return y.astype(np.asarray(ozero).dtype)


@njit
def _hist_uniform(a, nbins, first, last, zero, edges):
    # NumPy's uniform-bins path: index by scaling, then corrected against the edges
    counts = np.zeros(nbins, dtype=np.int64)
    norm_denom = (last - first) + zero
    for i in range(a.shape[0]):
        v = a[i]
        if not (v >= first and v <= last):
            continue
        x = v + zero
        j = int(((x - first) / norm_denom) * nbins)
        if j == nbins:
            j -= 1
        if x < edges[j]:
            j -= 1
        elif j != nbins - 1 and x >= edges[j + 1]:
            j += 1
        counts[j] += 1
    return counts, edges


@njit
def _hist_edges(a, edges):
    e = np.asarray(edges)
    if e.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    for i in range(e.shape[0] - 1):
        if e[i] > e[i + 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    nb = e.shape[0] - 1
    if nb < 0:
        nb = 0
    counts = np.zeros(nb, dtype=np.int64)
    if nb == 0:
        return counts, e
    kind = a[:0] * 0 + e[:0] * 0  # compared in the common dtype (NumPy's searchsorted)
    s = np.sort(a.astype(kind.dtype))
    ec = e.astype(kind.dtype)
    for j in range(nb):
        lo = np.searchsorted(s, ec[j], side="left")
        if j == nb - 1:  # the last bin holds its right edge
            hi = np.searchsorted(s, ec[j + 1], side="right")
        else:
            hi = np.searchsorted(s, ec[j + 1], side="left")
        counts[j] = hi - lo
    return counts, e


@njit
def histogram(a, bins=10, range=None):
    data = np.asarray(a).ravel()
    if not isinstance(bins, int):
        return _hist_edges(data, bins)
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    zero = _float_kind(data)
    dt = np.asarray(zero).dtype
    if range is None:
        if data.shape[0] == 0:
            first = zero + 0.0
            last = zero + 1.0
        else:
            first = data.min() + zero
            last = data.max() + zero
            if not (np.isfinite(first) and np.isfinite(last)):
                raise ValueError("autodetected range of [" + str(first) + ", " + str(last) + "] is not finite")
        if first == last:
            first = first - 0.5
            last = last + 0.5
        edges = _hist_linspace(first, last, bins, zero, zero)
    else:
        lo = float(range[0])
        hi = float(range[1])
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError("supplied range of [" + str(lo) + ", " + str(hi) + "] is not finite")
        if lo == hi:
            lo = lo - 0.5
            hi = hi + 0.5
        # NumPy: the range's Python floats meet the data in its dtype; the edges are computed
        # in float64 and cast
        edges = _hist_linspace(lo, hi, bins, 0.0, zero)
        first = np.full(1, lo, dtype=dt)[0]
        last = np.full(1, hi, dtype=dt)[0]
    return _hist_uniform(data, bins, first, last, zero, edges)


# ---------------------------------------------------------------------------
# selection of the k-th smallest element (for median), in a scratch copy
# ---------------------------------------------------------------------------


@njit
def select_kth(s, n, k):
    """Rearranges s[:n] (1-D, contiguous) in place so that s[k] holds the value a sort
    would put there, with s[:k] <= s[k] <= s[k+1:n]; returns s[k]. The runtime's
    introselect (a.partition, std::nth_element): O(n), O(n log n) at worst."""
    s[:n].partition(k)
    return s[k]


@njit
def max_before(s, k):
    """The largest of s[:k] (k >= 1)."""
    best = s[0]
    for i in range(1, k):
        if best < s[i]:
            best = s[i]
    return best
