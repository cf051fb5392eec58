"""np.random's functions that are made of its simpler draws, in Python, compiled by mahou
when compiled code calls them (see the package docstring): choice, permutation, shuffle,
multinomial and dirichlet. Each follows RandomState's definition (numpy/random/mtrand.pyx)
draw for draw, so that after np.random.seed(s) they give np.random.RandomState(s)'s
results: an index below n is np.random.randint(0, n) (RandomState's masked rejection is
random_interval's), uniforms are np.random.random_sample()."""

import numpy as np

from mahou import njit

_SQRT_EPS64 = 1.4901161193847656e-08  # np.sqrt(np.finfo(np.float64).eps)
_SQRT_EPS32 = 0.0003452669770922512   # np.sqrt(np.finfo(np.float32).eps)


@njit
def _count(size):
    # The number of items of an int or tuple shape.
    if isinstance(size, tuple):
        n = 1
        for d in size:
            n *= d
        return n
    return size


@njit
def _kahan_sum(p, n):
    # NumPy's kahan_sum of the first n items (0.0 when n <= 0).
    if n <= 0:
        return 0.0
    total = p[0]
    c = 0.0
    for i in range(1, n):
        y = p[i] - c
        t = total + y
        c = (t - total) - y
        total = t
    return total


@njit
def _shuffle_1d(x):
    for i in range(x.shape[0] - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t


@njit
def shuffle(x):
    if not isinstance(x, np.ndarray):  # a list: NumPy's untyped path, the same draws
        for i in range(len(x) - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            t = x[i]
            x[i] = x[j]
            x[j] = t
    elif x.ndim == 0:
        raise TypeError("len() of unsized object")
    elif x.ndim == 1:
        _shuffle_1d(x)
    else:
        # rows are swapped through a copy; i == j needs no swap (NumPy skips it too)
        for i in range(x.shape[0] - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            if i != j:
                buf = x[j].copy()
                x[j] = x[i]
                x[i] = buf


@njit
def permutation(x):
    if isinstance(x, (int, np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32, np.uint16, np.uint8)):
        # a shuffled np.arange(x)
        arr = np.arange(x)
        _shuffle_1d(arr)
        return arr
    a = np.asarray(x)
    if a.ndim == 0:
        raise IndexError("x must be an integer or at least 1-dimensional")
    if a.ndim == 1:
        arr = a.copy()
        _shuffle_1d(arr)
        return arr
    idx = np.arange(a.shape[0])
    _shuffle_1d(idx)
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[idx[i]]
    return out


@njit
def _check_p(p, pop_size):
    # NumPy's checks of choice's probabilities; p as float64.
    if p.ndim != 1:
        raise ValueError("'p' must be 1-dimensional")
    if p.size != pop_size:
        raise ValueError("'a' and 'p' must have same size")
    pd = p.astype(np.float64)
    p_sum = _kahan_sum(pd, pd.size)
    if np.isnan(p_sum):
        raise ValueError("probabilities contain NaN")
    for i in range(pd.size):
        if pd[i] < 0:
            raise ValueError("probabilities are not non-negative")
    atol = _SQRT_EPS64
    if isinstance(np.zeros(1, dtype=p.dtype)[0], np.float32):  # float32 p: a looser tolerance
        atol = _SQRT_EPS32
    if abs(p_sum - 1.0) > atol:
        raise ValueError("probabilities do not sum to 1")
    return pd


@njit
def _search_right(cdf, x):
    # cdf.searchsorted(x, side='right'): the first index whose value is > x
    lo = 0
    hi = cdf.size
    while lo < hi:
        mid = (lo + hi) >> 1
        if x < cdf[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit
def _normalised_cdf(p):
    cdf = np.cumsum(p)
    last = cdf[-1]
    for i in range(cdf.size):
        cdf[i] = cdf[i] / last
    return cdf


@njit
def _choice_indices(pop_size, n, replace, p):
    # The n indices choice draws, in NumPy's order (flat).
    idx = np.empty(n, dtype=np.int64)
    if replace:
        if p is None:
            for i in range(n):
                idx[i] = np.random.randint(0, pop_size)
        else:
            cdf = _normalised_cdf(p)
            u = np.random.random_sample(n)
            for i in range(n):
                idx[i] = _search_right(cdf, u[i])
        return idx
    if n > pop_size:
        raise ValueError("Cannot take a larger sample than population when 'replace=False'")
    if n < 0:
        raise ValueError("Negative dimensions are not allowed")
    if p is None:
        perm = np.arange(pop_size)
        _shuffle_1d(perm)
        for i in range(n):
            idx[i] = perm[i]
        return idx
    nonzero = 0
    for i in range(p.size):
        if p[i] > 0:
            nonzero += 1
    if nonzero < n:
        raise ValueError("Fewer non-zero entries in p than size")
    q = p.copy()
    n_uniq = 0
    while n_uniq < n:
        x = np.random.rand(n - n_uniq)
        for i in range(n_uniq):
            q[idx[i]] = 0.0
        cdf = _normalised_cdf(q)
        new = np.empty(x.size, dtype=np.int64)
        for i in range(x.size):
            new[i] = _search_right(cdf, x[i])
        # the first occurrence of each new index, in the order they first occur
        for i in range(new.size):
            seen = False
            for k in range(i):
                if new[k] == new[i]:
                    seen = True
                    break
            if not seen:
                idx[n_uniq] = new[i]
                n_uniq += 1
    return idx


@njit
def _choice_values(a, idx):
    if isinstance(a, np.ndarray):
        out = np.empty(idx.size, dtype=a.dtype)
        for i in range(idx.size):
            out[i] = a[idx[i]]
        return out
    return idx


@njit
def _choice(a, pop_size, size, replace, p):
    if size is None:
        samples = 1
    else:
        samples = _count(size)
    if pop_size <= 0 and (size is None or samples != 0):
        if isinstance(a, np.ndarray):
            raise ValueError("'a' cannot be empty unless no samples are taken")
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if p is None:
        pd = None
    else:
        pd = _check_p(p, pop_size)
    idx = _choice_indices(pop_size, samples, replace, pd)
    values = _choice_values(a, idx)
    if size is None:
        return values[0]
    return values.reshape(size)


@njit
def choice(a, size=None, replace=True, p=None):
    if isinstance(a, np.ndarray):
        if a.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        return _choice(a, a.shape[0], size, replace, p)
    return _choice(a, a, size, replace, p)


@njit
def multinomial(n, pvals, size=None):
    pv = np.asarray(pvals).astype(np.float64)
    if pv.ndim != 1:
        raise TypeError("pvals must be a 1-d sequence")
    d = pv.size
    for i in range(d):
        if not (pv[i] >= 0) or not (pv[i] <= 1):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if d > 0 and _kahan_sum(pv, d - 1) > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")
    if size is None:
        rows = 1
        out = np.zeros((1, d), dtype=np.int64)
    else:
        rows = _count(size)
        out = np.zeros((rows, d), dtype=np.int64)
    if n < 0:
        raise ValueError("n < 0")
    if d > 0:
        for r in range(rows):
            remaining = 1.0
            dn = n
            for j in range(d - 1):
                # unchecked binomials, with the algorithm NumPy's release uses here
                out[r, j] = np.random._multinomial_binomial(dn, pv[j] / remaining)
                dn -= out[r, j]
                if dn <= 0:
                    break
                remaining -= pv[j]
            if dn > 0:
                out[r, d - 1] = dn
    if size is None:
        return out.reshape(d)
    if isinstance(size, tuple):
        return out.reshape(size + (d,))
    return out.reshape((size, d))


@njit
def dirichlet(alpha, size=None):
    al = np.asarray(alpha).astype(np.float64)
    if al.ndim != 1:
        raise ValueError("object of too small depth for desired array")
    k = al.size
    for j in range(k):
        if al[j] <= 0:
            raise ValueError("alpha <= 0")
    if size is None:
        rows = 1
    else:
        rows = _count(size)
    out = np.zeros((rows, k), dtype=np.float64)
    for r in range(rows):
        acc = 0.0
        for j in range(k):
            out[r, j] = np.random.standard_gamma(al[j])
            acc = acc + out[r, j]
        invacc = 1 / acc
        for j in range(k):
            out[r, j] = out[r, j] * invacc
    if size is None:
        return out.reshape(k)
    if isinstance(size, tuple):
        return out.reshape(size + (k,))
    return out.reshape((size, k))
