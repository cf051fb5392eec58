"""np.linalg.norm (NumPy's definitions of vector and matrix norms), cond and matrix_power."""

import numpy as np

from mahou import njit
from mahou._library.linalg._lapack import (
    _on_matrix,
    _check_square,
    _real_zero,
    _zero,
)
from mahou._library.linalg.lu import _inv_2d
from mahou._library.linalg.svd import (
    _singular_values,
)


@njit
def _vector_norm(x, ord):
    if ord is None:
        return _vector_norm_of(x, 2.0)
    else:
        return _vector_norm_of(x, float(ord))


@njit
def _vector_norm_of(x, o):
    z = _real_zero(_zero(x))
    n = x.size
    if o == np.inf:
        acc = z
        for i in range(n):
            acc = max(acc, np.abs(x.flat[i]))
        return acc
    if o == -np.inf:
        if n == 0:
            raise ValueError("zero-size array to reduction operation minimum which has no identity")
        acc = np.abs(x.flat[0])
        for i in range(n):
            acc = min(acc, np.abs(x.flat[i]))
        return acc
    acc = z
    if o == 0:
        for i in range(n):
            if x.flat[i] != 0:
                acc += 1
        return acc
    if o == 1:
        for i in range(n):
            acc += np.abs(x.flat[i])
        return acc
    if o == 2:
        for i in range(n):
            v = np.abs(x.flat[i])
            acc += v * v
        return np.sqrt(acc)
    for i in range(n):
        acc += np.abs(x.flat[i]) ** o
    return acc ** (1.0 / o)


@njit
def _matrix_norm(x, ord):
    if ord is None:
        return _vector_norm_of(x, 2.0)
    elif isinstance(ord, str):
        if ord == "fro":
            return _vector_norm_of(x, 2.0)
        if ord != "nuc":
            raise ValueError("Invalid norm order for matrices.")
        if x.shape[0] == 0 or x.shape[1] == 0:
            return _real_zero(_zero(x))
        return _singular_values(x).sum()
    else:
        return _matrix_norm_of(x, float(ord))


@njit
def _matrix_norm_of(x, o):
    z = _real_zero(_zero(x))
    m, n = x.shape
    if o == 2 or o == -2:
        if m == 0 or n == 0:
            raise ValueError("zero-size array to reduction operation maximum which has no identity")
        s = _singular_values(x)
        return s.max() if o == 2 else s.min()
    if o == 1 or o == -1 or o == np.inf or o == -np.inf:
        rows = o == np.inf or o == -np.inf
        outer = m if rows else n
        inner = n if rows else m
        if outer == 0:
            raise ValueError("zero-size array to reduction operation maximum which has no identity")
        best = z
        for i in range(outer):
            acc = z
            for j in range(inner):
                acc += np.abs(x[i, j] if rows else x[j, i])
            if i == 0 or (acc > best if o > 0 else acc < best):
                best = acc
        return best
    raise ValueError("Invalid norm order for matrices.")


@njit
def norm(x, ord=None):
    if x.ndim == 1:
        return _vector_norm(x, ord)
    elif x.ndim == 2:
        return _matrix_norm(x, ord)
    else:
        raise TypeError("np.linalg.norm() of arrays of more than 2 dimensions is not supported")


@njit
def _matrix_power_2d(a, n):
    _check_square(a)
    m = a.shape[0]
    if n == 0:
        out = np.zeros((m, m), dtype=a.dtype)
        for i in range(m):
            out[i, i] = 1
        return out
    if n < 0:
        b = _inverse_for_power(a)
        k = -n
    else:
        b = a.copy()
        k = n
    result = b.copy()
    k -= 1
    while k > 0:
        if k & 1:
            result = np.dot(result, b)
        k >>= 1
        if k > 0:
            b = np.dot(b, b)
    return result


@njit
def _inverse_for_power(a):
    # a negative power of an integer matrix would change its type with the sign of n
    z = np.zeros(1, dtype=a.dtype)[0]
    if isinstance(z, (np.float32, np.float64, np.complex64, np.complex128)):
        return _inv_2d(a).copy()
    else:
        raise TypeError("np.linalg.matrix_power() of an integer matrix to a negative power is not supported")
        return a.copy()


@njit
def cond(x, p=None):
    return _on_matrix(_cond_2d, x, p)


@njit
def _cond_2d(x, p):
    if p is None:
        s = _singular_values(x)
        return s[0] / s[s.shape[0] - 1]
    else:
        return norm(x, p) * norm(_inv_2d(x), p)
