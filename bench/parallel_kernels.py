# The kernels of bench/parallel.py, plain Python: the loader imports this file once per
# implementation and sets `prange` (mahou's or Numba's) before compiling them.
import math

import numpy as np

prange = range  # replaced by the loader


def map_sum(a):  # elementwise map with a sum: the loop of the issue
    s = 0.0
    for i in prange(a.shape[0]):
        s += math.sqrt(a[i]) * math.sin(a[i])
    return s


def sum_reduce(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


def stencil(a, out):  # 2-D 5-point stencil, rows in parallel
    n, m = a.shape
    for i in prange(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    return out[n // 2, m // 2]


def monte_carlo_pi(n):  # np.random inside prange
    inside = 0
    for i in prange(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / n


def matmul(a, b, c):  # prange over the rows of c
    n, k = a.shape
    m = b.shape[1]
    for i in prange(n):
        for j in range(m):
            c[i, j] = 0.0
        for p in range(k):
            x = a[i, p]
            for j in range(m):
                c[i, j] += x * b[p, j]
    return c[n - 1, m - 1]


def array_expr(a, b):  # a parallel array expression (parfors)
    return np.sqrt(a * a + b * b).sum()


def imbalanced(n):  # the work of iteration i grows with i
    s = 0.0
    for i in prange(n):
        t = 0.0
        for j in range(i):
            t += math.sin(j * 1e-3)
        s += t
    return s


def tiny(out):  # 1,000 iterations of tiny work: the fork/join cost
    for i in prange(out.shape[0]):
        out[i] = i * 2.0
    return out[0]
