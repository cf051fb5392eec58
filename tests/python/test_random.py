"""np.random inside compiled code: its own per-thread stream (as in Numba), reproducible
after np.random.seed, with the distributions' shapes, dtypes, ranges and moments."""

import numpy as np
import pytest

from mahou import njit


@njit
def draws(seed, n):
    np.random.seed(seed)
    return (np.random.rand(n), np.random.randn(n, 2), np.random.randint(-3, 4, n), np.random.normal(5.0, 2.0, (n,)),
            np.random.uniform(-1.0, 1.0, n), np.random.random(n), np.random.random(), np.random.randint(7))


def test_seed_makes_the_stream_reproducible():
    a = draws(1, 1000)
    b = draws(1, 1000)
    c = draws(2, 1000)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], c[0])


def test_shapes_dtypes_and_ranges():
    u, z, k, nrm, uni, r, scalar, k7 = draws(3, 20000)
    assert u.shape == (20000,) and u.dtype == np.float64 and 0 <= u.min() and u.max() < 1
    assert z.shape == (20000, 2)
    assert k.dtype == np.int64 and k.min() == -3 and k.max() == 3
    assert -1 <= uni.min() and uni.max() < 1
    assert 0 <= r.min() and r.max() < 1 and isinstance(scalar, float) and 0 <= k7 < 7


def test_moments():
    u, z, k, nrm, uni, r, _, _ = draws(4, 200000)
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.01
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1) < 0.01
    assert abs(nrm.mean() - 5) < 0.03 and abs(nrm.std() - 2) < 0.03
    assert abs(k.mean()) < 0.05


@njit
def bad_randint():
    return np.random.randint(5, 5)


def test_randint_empty_range_raises():
    with pytest.raises(ValueError):
        bad_randint()


@njit
def monte_carlo_pi(n):
    inside = 0
    for _ in range(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def test_scalar_draws_in_a_loop():
    assert abs(monte_carlo_pi(200000) - np.pi) < 0.02
