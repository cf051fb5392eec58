"""np.random's draws that compiled code makes inline (random, uniform, standard_normal,
normal: MT19937 and RandomState's polar Gaussian emitted in the function, the thread's
state fetched once) against np.random.RandomState, bit for bit: under fastmath too, across
the 624-word refills, with seeds and runtime draws interleaved in the same loop, the
cached second Gaussian shared with the runtime's draws, in threads and in generators."""

import threading

import numpy as np
import pytest

from mahou import njit, prange

SEEDS = [0, 1, 987654, 2**32 - 1]


def loop_draws(seed, n, loc, scale):
    np.random.seed(seed)
    out = np.empty(4 * n)
    for i in range(n):
        out[4 * i] = np.random.normal(loc, scale)
        out[4 * i + 1] = np.random.random()
        out[4 * i + 2] = np.random.uniform(loc, scale)
        out[4 * i + 3] = np.random.standard_normal()
    return out


def sized_draws(seed, n, loc, scale):
    np.random.seed(seed)
    a = np.random.normal(loc, scale, size=n)
    b = np.random.uniform(loc, scale, size=(n, 2))
    c = np.random.standard_normal(n)
    d = np.random.random_sample(n)
    e = np.random.normal(loc, scale, n)
    return a, b, c, d, e


@pytest.mark.parametrize("fastmath", [False, True])
@pytest.mark.parametrize("n", [0, 1, 7, 700])  # 700 draws pass several refills
@pytest.mark.parametrize("loc,scale", [(0.0, 1.0), (-3.5, 0.25), (2.0, 0.0), (1e300, 1e10)])
def test_loop_and_sized_draws_equal_random_state(fastmath, n, loc, scale):
    f = njit(fastmath=fastmath)(loop_draws)
    g = njit(fastmath=fastmath)(sized_draws)
    for seed in SEEDS:
        np.testing.assert_array_equal(f(seed, n, loc, scale), loop_draws(seed, n, loc, scale))
        for got, want in zip(g(seed, n, loc, scale), sized_draws(seed, n, loc, scale)):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)


def seeded_in_loop(n):
    out = np.empty((n, 3))
    for i in range(n):
        np.random.seed(i)
        out[i, 0] = np.random.normal()
        out[i, 1] = np.random.standard_t(3.0)  # a runtime draw that uses the cached Gaussian
        out[i, 2] = np.random.normal(1.0, 2.0)
    return out


def test_seeds_and_runtime_draws_inside_the_loop():
    f = njit(seeded_in_loop)
    np.testing.assert_array_equal(f(50), seeded_in_loop(50))


@njit
def one_normal():
    return np.random.normal()


@njit
def one_gamma():
    return np.random.standard_gamma(2.5)  # the runtime's Gaussians


@njit
def seed(s):
    np.random.seed(s)


def test_cached_gaussian_carries_between_inline_and_runtime_draws():
    for s in SEEDS:
        seed(s)
        got = [one_normal(), one_gamma(), one_normal(), one_normal(), one_gamma(), one_normal()]
        rs = np.random.RandomState(s)
        want = [rs.normal(), rs.standard_gamma(2.5), rs.normal(), rs.normal(), rs.standard_gamma(2.5), rs.normal()]
        assert got == want


def test_each_thread_draws_its_own_seeded_stream():
    f = njit(sized_draws)
    results = {}

    def work(k):
        results[k] = f(k, 300, 0.5, 2.0)

    for round_ in range(3):  # later threads take the states of finished ones
        threads = [threading.Thread(target=work, args=(round_ * 4 + k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for k, got in results.items():
        for a, b in zip(got, sized_draws(k, 300, 0.5, 2.0)):
            np.testing.assert_array_equal(a, b)


def test_unseeded_thread_draws_in_range():
    f = njit(lambda n: np.random.random(n))
    out = []
    t = threading.Thread(target=lambda: out.append(f(1000)))
    t.start()
    t.join()
    assert out[0].shape == (1000,) and (out[0] >= 0).all() and (out[0] < 1).all()


def draws_across_yields(n):
    for i in range(n):
        yield np.random.normal(0.0, 2.0)
        yield np.random.random()


def test_generator_draws_across_yields():
    g = njit(draws_across_yields)
    for s in SEEDS:
        seed(s)
        got = list(g(9))
        np.random.seed(s)
        assert got == list(draws_across_yields(9))


@njit(parallel=True)
def parallel_normals(n):
    out = np.empty(n)
    for i in prange(n):
        out[i] = np.random.normal()
    return out


def test_parallel_loop_draws_finite_values():
    out = parallel_normals(10000)
    assert np.isfinite(out).all() and abs(out.mean()) < 0.1 and 0.9 < out.std() < 1.1


@njit(parallel=True)
def parallel_seeded(n):
    out = np.empty((n, 2))
    for i in prange(n):
        np.random.seed(i)  # this iteration's thread's state
        out[i, 0] = np.random.normal(1.0, 3.0)
        out[i, 1] = np.random.uniform(-1.0, 1.0)
    return out


def test_parallel_iterations_draw_from_their_threads_state():
    want = np.array([[rs.normal(1.0, 3.0), rs.uniform(-1.0, 1.0)]
                     for rs in (np.random.RandomState(i) for i in range(400))])
    for _ in range(3):
        np.testing.assert_array_equal(parallel_seeded(400), want)
