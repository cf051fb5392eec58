# Seed example: sum 10 million float64 with a compiled loop, against the interpreted loop.
import time

import numpy as np

from mahou import jit


@jit(nopython=True)
def sum_array(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total


def main():
    rng = np.random.default_rng(0)
    arr = rng.random(10_000_000)

    t0 = time.perf_counter()
    result = sum_array(arr)  # first call: compile + run
    first = time.perf_counter() - t0

    later = min(_timed(sum_array, arr) for _ in range(5))

    t0 = time.perf_counter()
    expected = sum_array.py_func(arr)  # the same function, interpreted
    interpreted = time.perf_counter() - t0

    assert result == expected, (result, expected)
    print(f"sum_array(10M float64) = {result!r}")
    print(f"  first call (compile + run): {first * 1e3:9.2f} ms")
    print(f"  later call:                 {later * 1e3:9.2f} ms")
    print(f"  interpreted:                {interpreted * 1e3:9.2f} ms")
    print(f"  speedup over interpreted:   {interpreted / later:9.1f}x")


def _timed(f, *args):
    t0 = time.perf_counter()
    f(*args)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
