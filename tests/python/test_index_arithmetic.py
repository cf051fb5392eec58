"""Indices computed from loop counters and extents (`a[i * len(x) + k]`, `a[k - len(a)]`),
compiled vs Python: the extents of array arguments are assumed bounded by their size in
bytes, which lets LLVM drop the negative-index test where the arithmetic cannot overflow;
negative indices must still wrap, on every dtype, layout and size (empty included)."""

import numpy as np
import pytest

from conftest import check

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_]


def rows_dot(at, x, out):
    for i in range(out.shape[0] if out.shape[0] < 5 else 5):
        for k in range(len(x)):
            out[i] += at[i * len(x) + k] * x[k]
    return out


def wrapped(a):
    # negative computed indices: each element from the end, then a rotation
    n = len(a)
    out = np.zeros(n, dtype=np.float64)
    for k in range(n):
        out[k] = a[k - n] * 3 + a[-1 - k]
    return out


def rows_2d(m, out):
    r, c = m.shape
    for i in range(r):
        for j in range(c):
            out[i] += m[i, j - c] - m[i - r, c - 1 - j]
    return out


def flat_of_2d(m):
    r, c = m.shape
    f = m.ravel()
    t = 0.0
    for i in range(r):
        for j in range(c):
            t += f[i * c + j] * (i + 1) - f[(i - r) * c + j]
    return t


def arrays(dtype, n):
    rng = np.random.default_rng(n)
    v = rng.integers(-5, 6, n) if np.dtype(dtype).kind in "iub" else rng.integers(-40, 40, n) / 8
    if np.dtype(dtype).kind in "ub":
        v = np.abs(v)
    return v.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 7, 33, 150])
def test_rows_dot(dtype, n):
    x = arrays(dtype, n).astype(np.float64)
    at = arrays(dtype, 5 * n).astype(np.float64)
    check(rows_dot, at, x, np.zeros(5))
    check(rows_dot, at, x, np.zeros(3))
    if n:
        check(rows_dot, arrays(np.float64, 10 * n)[::2], x, np.zeros(5))  # strided


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 9, 64])
def test_negative_computed_indices_wrap(dtype, n):
    a = arrays(dtype, n)
    check(wrapped, a)
    if n:
        check(wrapped, arrays(dtype, 2 * n)[::-2])


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.int8])
@pytest.mark.parametrize("shape", [(1, 1), (3, 4), (5, 2), (0, 3)])
def test_two_dimensional_computed_indices(dtype, shape):
    m = arrays(dtype, shape[0] * shape[1]).reshape(shape)
    check(rows_2d, m, np.zeros(shape[0]))
    check(rows_2d, np.asfortranarray(m), np.zeros(shape[0]))
    check(flat_of_2d, m)
