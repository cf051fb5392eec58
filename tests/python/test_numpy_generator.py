"""np.random.Generator arguments: compiled draws consume the caller's bit generator as
NumPy's methods do, so they equal NumPy's for the same seed and the caller's stream
continues after the call (random, uniform, integers, standard_normal, normal,
standard_exponential, exponential; scalars and arrays; float32; the bounds and
endpoint cases of integers; zero sizes); parameters are checked as NumPy checks them;
other methods and generators made in compiled code are refused."""

import gc

import numpy as np
import pytest

import mahou
import mahou._core
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

SEEDS = [0, 1, 12345, 2**40 + 7]


def same(a, b):
    if np.ndim(b) == 0:  # a scalar: compiled code returns it as a Python number, as Numba does
        assert not isinstance(a, np.ndarray) and (a == b or (a != a and b != b)), (a, b)
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    np.testing.assert_array_equal(a, b)


def compare(fn, *args):
    """fn(gen, *args) compiled and interpreted from the same seed; then the streams agree."""
    cf = njit(fn)
    for seed in SEEDS:
        g1, g2 = np.random.default_rng(seed), np.random.default_rng(seed)
        got, want = cf(g1, *args), fn(g2, *args)
        if isinstance(want, tuple):
            for x, y in zip(got, want):
                same(x, y)
        else:
            same(got, want)
        same(g1.random(3), g2.random(3))  # the caller's stream continues from the same place
        assert g1.bit_generator.state == g2.bit_generator.state


def test_docs_example():
    @njit
    def do_stuff(gen):
        return gen.random(size=5)

    x, y = np.random.default_rng(1), np.random.default_rng(1)
    original = x.random(size=10)
    res = do_stuff(y)
    after = y.random(size=5)
    same(np.concatenate([res, after]), original)


def test_random_sizes_and_dtypes():
    compare(lambda g: g.random())
    compare(lambda g: g.random(7))
    compare(lambda g: g.random(size=(2, 3)))
    compare(lambda g: g.random(0))
    compare(lambda g: g.random(5, np.float32))
    compare(lambda g: g.random(dtype=np.float32))
    compare(lambda g: g.random(size=(3, 0), dtype=np.float32))
    compare(lambda g, n: g.random(n), 11)


def test_draws_in_a_loop():
    def f(g, n):
        t = 0.0
        for i in range(n):
            t += g.random() * i
        return t

    compare(f, 100)


def test_uniform():
    compare(lambda g: g.uniform())
    compare(lambda g: g.uniform(2.0, 5.0))
    compare(lambda g: g.uniform(-1, 1, 6))
    compare(lambda g: g.uniform(low=-3.0, high=2.0, size=(2, 2)))
    compare(lambda g: g.uniform(4.0, 4.0, 3))
    compare(lambda g, lo, hi: g.uniform(lo, hi, 0), 0.0, 1.0)


@pytest.mark.parametrize("low, high", [
    (0, 10), (-5, 5), (7, 8), (0, 2**32), (0, 2**32 + 1), (-2**40, 2**40),
    (-2**63, 2**63 - 1), (3, 2**31), (0, 2**63 - 1),
])
def test_integers_int64(low, high):
    compare(lambda g, lo, hi: g.integers(lo, hi), low, high)
    compare(lambda g, lo, hi: g.integers(lo, hi, size=9), low, high)
    compare(lambda g, lo, hi: g.integers(lo, hi, size=(2, 3), endpoint=True), low, high)
    compare(lambda g, lo, hi: g.integers(low=lo, high=hi, size=4), low, high)
    if low > 0:
        compare(lambda g, hi: g.integers(hi, size=5), high)  # integers(high): [0, high)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint64, np.uint32])
def test_integers_dtypes(dtype):
    compare(lambda g: g.integers(0, 100, size=20, dtype=dtype))
    compare(lambda g: g.integers(5, 6, dtype=dtype))
    compare(lambda g: g.integers(0, 2**31 - 1, size=4, dtype=dtype, endpoint=True))
    compare(lambda g: g.integers(3, size=0, dtype=dtype))


def test_integers_full_32_bit_range():
    compare(lambda g: g.integers(0, 2**32, size=5, dtype=np.uint32))
    compare(lambda g: g.integers(-2**31, 2**31, size=5, dtype=np.int32))
    compare(lambda g: g.integers(0, 2**32 - 1, size=5, dtype=np.uint32, endpoint=True))


@pytest.mark.parametrize("call", [
    lambda g: g.integers(5, 5),
    lambda g: g.integers(0),
    lambda g: g.integers(-3),
    lambda g: g.integers(6, 5, endpoint=True),
    lambda g: g.integers(0, -1, endpoint=True),
    lambda g: g.integers(0, 2**31 + 1, dtype=np.int32),
    lambda g: g.integers(-2**31 - 1, 0, dtype=np.int32),
    lambda g: g.integers(-1, 5, dtype=np.uint64),
    lambda g: g.integers(0, 2**32 + 1, dtype=np.uint32),
    lambda g: g.normal(0.0, -1.0),
    lambda g: g.exponential(-2.0, 3),
    lambda g: g.normal(0.0, -0.0, 2),
    lambda g: g.uniform(3.0, -2.0),
    lambda g: g.uniform(0.0, -1.0, 4),
])
def test_bad_parameters_raise_value_error(call):
    check_raises(call, ValueError)


@pytest.mark.parametrize("call", [
    lambda g: g.uniform(0.0, np.inf),
    lambda g: g.uniform(-1e308, 1e308, 3),
    lambda g: g.uniform(0.0, np.nan),
])
def test_uniform_overflow(call):
    check_raises(call, OverflowError)


def test_nan_parameters_draw():
    compare(lambda g: g.normal(0.0, np.nan, 3))
    compare(lambda g: g.exponential(np.nan))


def check_raises(call, exc):
    g = np.random.default_rng(3)
    with pytest.raises(exc) as want:
        call(g)
    cg = np.random.default_rng(3)
    with pytest.raises(exc) as got:
        njit(call)(cg)
    assert str(got.value) == str(want.value)
    assert cg.bit_generator.state == g.bit_generator.state  # nothing was drawn


def test_normal_and_exponential():
    compare(lambda g: g.standard_normal())
    compare(lambda g: g.standard_normal(200000))
    compare(lambda g: g.standard_normal(size=(3, 4), dtype=np.float32))
    compare(lambda g: g.standard_normal(200000, dtype=np.float32))
    compare(lambda g: g.normal(1.5, 2.0, 50))
    compare(lambda g: g.normal(scale=0.0))
    compare(lambda g: g.normal(loc=-3.0))
    compare(lambda g: g.standard_exponential(200000))
    compare(lambda g: g.standard_exponential(200000, dtype=np.float32))
    compare(lambda g: g.standard_exponential())
    compare(lambda g: g.exponential(3.0, (2, 5)))
    compare(lambda g: g.exponential())


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.int32, np.float32, np.uint8, np.bool_, np.complex128])
@pytest.mark.parametrize("n", [0, 1, 2, 7, 100])
def test_shuffle(dtype, n):
    def f(g, a):
        g.shuffle(a)
        return a

    cf = njit(f)
    for seed in SEEDS:
        base = (np.arange(n) * 3 % 11).astype(dtype)
        g1, g2 = np.random.default_rng(seed), np.random.default_rng(seed)
        a1, a2 = base.copy(), base.copy()
        cf(g1, a1)
        g2.shuffle(a2)
        same(a1, a2)
        same(g1.random(2), g2.random(2))
    # a strided view is shuffled in place
    g1, g2 = np.random.default_rng(4), np.random.default_rng(4)
    b1, b2 = np.arange(20.0), np.arange(20.0)
    cf(g1, b1[::3])
    g2.shuffle(b2[::3])
    same(b1, b2)


def test_permutation():
    compare(lambda g: g.permutation(10))
    compare(lambda g: g.permutation(0))
    compare(lambda g: g.permutation(-3))
    compare(lambda g, a: g.permutation(a), np.linspace(0.0, 1.0, 9))
    compare(lambda g, a: (g.permutation(a), a), np.arange(6))  # the argument is not changed
    compare(lambda g, n: g.permutation(np.arange(n) * 2), 2**33 // 2**30)


def test_shuffle_refused():
    @njit
    def two_d(g, a):
        g.shuffle(a)

    with pytest.raises((TypingError, UnsupportedError), match="1-D"):
        two_d(np.random.default_rng(0), np.zeros((2, 2)))

    @njit
    def axis(g, a):
        g.shuffle(a, axis=1)

    with pytest.raises((TypingError, UnsupportedError), match="axis"):
        axis(np.random.default_rng(0), np.zeros(3))


def test_other_bit_generators():
    def f(g):
        return (g.random(4), g.integers(0, 1000, 4), g.standard_normal(4), g.random(3, np.float32),
                g.permutation(20), g.integers(0, 2**40, 3), g.standard_exponential(3, np.float32))

    cf = njit(f)
    for make in (np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64, np.random.PCG64DXSM):
        g1, g2 = np.random.Generator(make(5)), np.random.Generator(make(5))
        for x, y in zip(cf(g1), f(g2)):
            same(x, y)
        same(g1.integers(0, 2**62, 4), g2.integers(0, 2**62, 4))


def test_passing_on_and_returning():
    @njit
    def inner(g, n):
        return g.integers(0, 10, n)

    @njit
    def outer(g):
        a = inner(g, 3)
        return g, a.sum() + inner(g, 2).sum()

    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    back, total = outer(g1)
    assert back is g1
    assert total == g2.integers(0, 10, 3).sum() + g2.integers(0, 10, 2).sum()


def test_refused():
    @njit
    def other(g):
        return g.choice(5)

    @njit
    def attribute(g):
        return g.bit_generator

    with pytest.raises(TypingError, match="bit_generator"):
        attribute(np.random.default_rng(0))

    with pytest.raises(TypingError, match="choice"):
        other(np.random.default_rng(0))

    @njit
    def made_inside(seed):
        return np.random.default_rng(seed).random()

    with pytest.raises((TypingError, UnsupportedError), match="default_rng"):
        made_inside(1)

    @njit
    def bad_dtype(g):
        return g.random(dtype=np.int64)

    with pytest.raises(TypingError, match="dtype"):
        bad_dtype(np.random.default_rng(0))


def test_no_leaks():
    @njit
    def f(g, n):
        t = 0.0
        for i in range(n):
            t += g.random(i % 4).sum() + g.integers(0, 5, (2, i % 3)).sum() + g.standard_normal(3).sum()
            t += g.permutation(i % 5).sum() + g.permutation(np.arange(3.0))[0]
        return t

    g = np.random.default_rng(0)
    f(g, 2)
    gc.collect()
    start = mahou._core.live_allocations()
    f(g, 200)
    gc.collect()
    assert mahou._core.live_allocations() == start
