# Column statistics: arrays created with np.empty in compiled code and returned as a tuple.
import math
import time

import numpy as np

from mahou import njit


@njit
def column_stats(data):
    n = data.shape[0]
    m = data.shape[1]
    mean = np.empty(m)
    std = np.empty(m)
    for j in range(m):
        s = 0.0
        for i in range(n):
            s += data[i, j]
        mu = s / n
        ss = 0.0
        for i in range(n):
            d = data[i, j] - mu
            ss += d * d
        mean[j] = mu
        std[j] = math.sqrt(ss / n)
    return mean, std


def main():
    rng = np.random.default_rng(1)
    data = rng.normal(loc=3.0, scale=2.0, size=(200_000, 8))

    t0 = time.perf_counter()
    mean, std = column_stats(data)
    first = time.perf_counter() - t0

    t0 = time.perf_counter()
    mean, std = column_stats(data)
    later = time.perf_counter() - t0

    # Interpreted on 1/20 of the rows, scaled.
    part = data[: data.shape[0] // 20]
    t0 = time.perf_counter()
    ref_mean, ref_std = column_stats.py_func(part)
    interpreted = (time.perf_counter() - t0) * 20

    assert np.allclose(mean, data.mean(axis=0)) and np.allclose(std, data.std(axis=0))
    part_mean, part_std = column_stats(part)
    assert np.allclose(part_mean, ref_mean) and np.allclose(part_std, ref_std)
    print(f"column_stats({data.shape[0]}x{data.shape[1]} float64)")
    print("  mean: " + " ".join(f"{v:6.3f}" for v in mean))
    print("  std:  " + " ".join(f"{v:6.3f}" for v in std))
    print(f"  first call (compile + run): {first * 1e3:9.2f} ms")
    print(f"  later call:                 {later * 1e3:9.2f} ms")
    print(f"  interpreted (scaled):       {interpreted * 1e3:9.2f} ms")
    print(f"  speedup over interpreted:   {interpreted / later:9.1f}x")


if __name__ == "__main__":
    main()
