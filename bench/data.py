# Arguments of the benchmark kernels (bench/kernels.py): size "full" for the kernel
# tables, "small" for compile-time measurements (the run itself is then negligible).
import numpy as np

KERNELS = ("sum_array", "dot", "mandelbrot", "nbody", "matmul", "sieve", "jacobi", "black_scholes")


def make_args(name, size="full"):
    small = size == "small"
    rng = np.random.default_rng(0)
    if name == "sum_array":
        return (rng.random(100 if small else 10_000_000),)
    if name == "dot":
        n = 100 if small else 10_000_000
        return (rng.random(n), rng.random(n))
    if name == "mandelbrot":
        h, w = (4, 4) if small else (300, 400)
        return (np.zeros((h, w), dtype=np.int64), -2.0, 1.0, -1.0, 1.0, 100)
    if name == "nbody":
        n = 4 if small else 512
        return (rng.random((n, 3)), np.zeros((n, 3)), rng.random(n), 1 if small else 4, 0.001)
    if name == "matmul":
        n = 4 if small else 256
        return (rng.random((n, n)), rng.random((n, n)), np.empty((n, n)))
    if name == "sieve":
        return (np.empty(100 if small else 10_000_000, dtype=np.uint8),)
    if name == "jacobi":
        n = 4 if small else 512
        a = rng.random((n, n))
        return (a, a.copy(), 1 if small else 20)
    if name == "black_scholes":
        n = 100 if small else 1_000_000
        return (rng.uniform(5, 30, n), rng.uniform(1, 100, n), rng.uniform(0.25, 10, n), 0.02, 0.3,
                np.empty(n), np.empty(n))
    raise KeyError(name)


def fresh_copy(args):
    """Kernels that update their arguments in place get fresh copies for each implementation."""
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
