# The CPU benchmark kernels, written as loops over scalars (as Numba users write them).
# bench/run.py copies this file to a temporary directory and compiles each function with
# mahou.njit and numba.njit; bench/c/*.c are the same kernels in C.
import math


def sum_array(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total


def dot(a, b):
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


def mandelbrot(out, xmin, xmax, ymin, ymax, max_iter):
    h = out.shape[0]
    w = out.shape[1]
    dx = (xmax - xmin) / w
    dy = (ymax - ymin) / h
    for i in range(h):
        y = ymin + i * dy
        for j in range(w):
            x = xmin + j * dx
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                t = zr * zr - zi * zi + x
                zi = 2.0 * zr * zi + y
                zr = t
                n += 1
            out[i, j] = n
    return out[h // 2, w // 2]


def nbody(pos, vel, mass, steps, dt):
    n = pos.shape[0]
    for s in range(steps):
        for i in range(n):
            ax = 0.0
            ay = 0.0
            az = 0.0
            xi = pos[i, 0]
            yi = pos[i, 1]
            zi = pos[i, 2]
            for j in range(n):
                dx = pos[j, 0] - xi
                dy = pos[j, 1] - yi
                dz = pos[j, 2] - zi
                r2 = dx * dx + dy * dy + dz * dz + 1e-3
                inv = mass[j] / (r2 * math.sqrt(r2))
                ax += dx * inv
                ay += dy * inv
                az += dz * inv
            vel[i, 0] += dt * ax
            vel[i, 1] += dt * ay
            vel[i, 2] += dt * az
        for i in range(n):
            pos[i, 0] += dt * vel[i, 0]
            pos[i, 1] += dt * vel[i, 1]
            pos[i, 2] += dt * vel[i, 2]
    return pos[0, 0]


def matmul(a, b, c):
    n = a.shape[0]
    m = a.shape[1]
    p = b.shape[1]
    for i in range(n):
        for j in range(p):
            c[i, j] = 0.0
        for k in range(m):
            aik = a[i, k]
            for j in range(p):
                c[i, j] += aik * b[k, j]
    return c[0, 0]


def sieve(flags):
    n = flags.shape[0]
    for i in range(n):
        flags[i] = 1
    flags[0] = 0
    flags[1] = 0
    i = 2
    while i * i < n:
        if flags[i] != 0:
            for j in range(i * i, n, i):
                flags[j] = 0
        i += 1
    count = 0
    for i in range(n):
        count += flags[i]
    return count


def jacobi(a, b, iters):
    n = a.shape[0]
    m = a.shape[1]
    for it in range(iters):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                a[i, j] = b[i, j]
    return a[n // 2, m // 2]


def black_scholes(s, k, t, r, v, call, put):
    inv_sqrt2 = 1.0 / math.sqrt(2.0)
    for i in range(s.shape[0]):
        sqrt_t = math.sqrt(t[i])
        d1 = (math.log(s[i] / k[i]) + (r + 0.5 * v * v) * t[i]) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        cnd1 = 0.5 * (1.0 + math.erf(d1 * inv_sqrt2))
        cnd2 = 0.5 * (1.0 + math.erf(d2 * inv_sqrt2))
        disc = k[i] * math.exp(-r * t[i])
        call[i] = s[i] * cnd1 - disc * cnd2
        put[i] = disc * (1.0 - cnd2) - s[i] * (1.0 - cnd1)
    return call[0]


def add(a, b):
    return a + b


def length(arr):
    return arr.shape[0]
