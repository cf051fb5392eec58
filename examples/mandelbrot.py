# Mandelbrot set on a 2-D grid: nested loops, scalar complex arithmetic written with floats.
import time

import numpy as np

from mahou import njit


@njit
def mandelbrot(out, x0, y0, dx, dy, max_iter):
    for i in range(out.shape[0]):
        ci = y0 + i * dy
        for j in range(out.shape[1]):
            cr = x0 + j * dx
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter:
                if zr * zr + zi * zi > 4.0:
                    break
                t = zr * zr - zi * zi + cr
                zi = 2.0 * zr * zi + ci
                zr = t
                n += 1
            out[i, j] = n
    return out


def render(f, height, width, max_iter):
    out = np.zeros((height, width), dtype=np.int64)
    return f(out, -2.0, -1.25, 2.5 / width, 2.5 / height, max_iter)


def main():
    height, width, max_iter = 600, 800, 200

    t0 = time.perf_counter()
    image = render(mandelbrot, height, width, max_iter)
    first = time.perf_counter() - t0

    t0 = time.perf_counter()
    image = render(mandelbrot, height, width, max_iter)
    later = time.perf_counter() - t0

    # The interpreted loop is slow: run it on every 10th row and scale.
    step = 10
    rows = (height // step, width)
    args = (-2.0, -1.25, 2.5 / width, step * 2.5 / height, max_iter)
    t0 = time.perf_counter()
    expected = mandelbrot.py_func(np.zeros(rows, dtype=np.int64), *args)
    interpreted = (time.perf_counter() - t0) * step

    assert np.array_equal(mandelbrot(np.zeros(rows, dtype=np.int64), *args), expected)
    inside = int((image == max_iter).sum())
    print(f"mandelbrot {height}x{width}, max_iter={max_iter}: {inside} points inside the set")
    for row in image[::60, ::20]:  # a coarse ASCII view
        print("  " + "".join("#" if v == max_iter else ("+" if v > 10 else ".") for v in row))
    print(f"  first call (compile + run): {first * 1e3:9.2f} ms")
    print(f"  later call:                 {later * 1e3:9.2f} ms")
    print(f"  interpreted (scaled):       {interpreted * 1e3:9.2f} ms")
    print(f"  speedup over interpreted:   {interpreted / later:9.1f}x")


if __name__ == "__main__":
    main()
