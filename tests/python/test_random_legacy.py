"""np.random's legacy API in compiled code against np.random.RandomState: after
np.random.seed(s) in compiled code, every function gives RandomState(s)'s numbers bit for
bit (scalar and size= forms, defaults and keywords, parameters at the edges of each
algorithm), the stream continues from the same place, invalid parameters raise NumPy's
ValueError before anything is drawn, and array parameters are refused."""

import random as _pyrandom
import warnings

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError, UnsupportedError

SEEDS = [0, 1, 12345, 2**32 - 1]


@njit
def np_seed(s):
    np.random.seed(s)


@njit
def np_next(n):
    return np.random.random_sample(n)


def same(a, b):
    if isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
        return
    if np.ndim(b) == 0 and not isinstance(b, np.ndarray):
        assert not isinstance(a, np.ndarray) and (a == b or (a != a and b != b)), (a, b)
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    np.testing.assert_array_equal(a, b)


def compare(fn, *args, seeds=SEEDS):
    """fn(*args) compiled, after a compiled np.random.seed(s), against fn(*args) on the
    interpreter's np.random after np.random.seed(s); then the streams agree."""
    cf = njit(fn)
    for seed in seeds:
        np_seed(seed)
        got = cf(*args)
        np.random.seed(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # random_integers
            want = fn(*args)
        same(got, want)
        np.testing.assert_array_equal(np_next(3), np.random.random_sample(3))


# (name, parameters): each drawn as a scalar, with size=7 and with size=(2, 3).
DISTRIBUTIONS = [
    ("random_sample", ()), ("random", ()), ("ranf", ()), ("sample", ()),
    ("standard_normal", ()), ("standard_exponential", ()), ("standard_cauchy", ()),
    ("normal", (1.5, 2.0)), ("normal", (-3, 0.0)), ("normal", (0.0, np.nan)),
    ("uniform", (-2.0, 3.0)), ("uniform", (5.0, 1.0)), ("uniform", (1, 1)),
    ("exponential", (2.5,)), ("exponential", (0.0,)),
    ("standard_gamma", (0.5,)), ("standard_gamma", (1.0,)), ("standard_gamma", (3.0,)), ("standard_gamma", (0.0,)),
    ("standard_gamma", (1e-3,)), ("gamma", (2.0, 3.0)), ("gamma", (0.3, 0.5)),
    ("beta", (0.5, 0.7)), ("beta", (2.0, 3.0)), ("beta", (1.0, 1.0)), ("beta", (0.9, 5.0)), ("beta", (1e-3, 1e-3)),
    ("chisquare", (3.0,)), ("chisquare", (0.5,)),
    ("noncentral_chisquare", (3.0, 2.0)), ("noncentral_chisquare", (0.5, 2.0)), ("noncentral_chisquare", (3.0, 0.0)),
    ("f", (3.0, 5.0)), ("noncentral_f", (3.0, 5.0, 1.5)),
    ("standard_t", (4.0,)), ("standard_t", (0.5,)),
    ("vonmises", (0.5, 2.0)), ("vonmises", (-1.0, 0.0)), ("vonmises", (0.5, 1e-6)), ("vonmises", (3.0, 1e7)),
    ("vonmises", (0.0, np.nan)),
    ("pareto", (3.0,)), ("pareto", (0.1,)), ("weibull", (1.5,)), ("weibull", (0.0,)), ("power", (2.0,)), ("power", (0.3,)),
    ("laplace", (1.0, 2.0)), ("gumbel", (1.0, 2.0)), ("logistic", (1.0, 2.0)), ("lognormal", (0.5, 0.25)),
    ("rayleigh", (2.0,)), ("wald", (1.0, 2.0)), ("wald", (3.0, 0.1)),
    ("triangular", (0.0, 0.3, 1.0)), ("triangular", (-1.0, -1.0, 2.0)), ("triangular", (0, 2, 2)),
    ("binomial", (10, 0.3)), ("binomial", (1000, 0.3)), ("binomial", (1000, 0.7)), ("binomial", (10, 0.8)),
    ("binomial", (0, 0.5)), ("binomial", (7, 0.0)), ("binomial", (7, 1.0)), ("binomial", (100, 0.5)),
    ("binomial", (2**40, 1e-9)), ("binomial", (10**6, 0.4)),
    ("negative_binomial", (5.0, 0.3)), ("negative_binomial", (0.5, 0.9)), ("negative_binomial", (3, 1.0)),
    ("poisson", (3.0,)), ("poisson", (30.0,)), ("poisson", (0.0,)), ("poisson", (9.999,)), ("poisson", (10,)),
    ("zipf", (2.5,)), ("zipf", (1.01,)), ("zipf", (50.0,)),
    ("geometric", (0.2,)), ("geometric", (0.6,)), ("geometric", (1.0,)), ("geometric", (1 / 3,)),
    ("hypergeometric", (20, 30, 8)), ("hypergeometric", (200, 300, 80)), ("hypergeometric", (5, 0, 3)),
    ("hypergeometric", (10, 10, 10)), ("hypergeometric", (10, 10, 11)), ("hypergeometric", (0, 10, 1)),
    ("logseries", (0.7,)), ("logseries", (0.999,)), ("logseries", (0.0,)),
]


def _draws(name, nparams):
    ps = ", ".join(f"p{i}" for i in range(nparams))
    sep = ", " if nparams else ""
    src = (f"def fn({ps}):\n"
           f"    return (np.random.{name}({ps}), np.random.{name}({ps}{sep}size=7),\n"
           f"            np.random.{name}({ps}{sep}size=(2, 3)))\n")
    import linecache
    filename = f"<legacy-{name}-{nparams}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {"np": np}
    exec(compile(src, filename, "exec"), ns)
    return ns["fn"]


@pytest.mark.parametrize("name,params", DISTRIBUTIONS, ids=[f"{n}{p}" for n, p in DISTRIBUTIONS])
def test_distribution_equals_random_state(name, params):
    compare(_draws(name, len(params)), *params)


def test_sizes():
    compare(lambda: np.random.gamma(2.0, size=0))
    compare(lambda: np.random.gamma(2.0, size=(2, 0, 3)))
    compare(lambda: np.random.gamma(2.0, size=()))
    compare(lambda: np.random.binomial(10, 0.5, size=(3, 1)))
    compare(lambda n: np.random.poisson(size=(n, 2)), 4)
    compare(lambda: np.random.standard_normal(size=None))


def test_keywords_and_defaults():
    compare(lambda: (np.random.gamma(shape=2.0), np.random.gamma(2.0, scale=0.5), np.random.normal(scale=3.0),
                     np.random.normal(loc=1.0), np.random.uniform(high=5.0), np.random.poisson(), np.random.laplace(),
                     np.random.binomial(p=0.25, n=9), np.random.exponential(size=2), np.random.rayleigh()))


def test_parameter_types():
    compare(lambda: (np.random.gamma(2), np.random.normal(True, 1), np.random.beta(np.float32(0.5), 2),
                     np.random.binomial(np.int32(10), 0.5), np.random.binomial(np.uint8(10), 1),
                     np.random.poisson(np.int16(4)), np.random.hypergeometric(np.int8(5), 7, np.uint32(3))))


def test_gauss_pairs_carry_over_between_functions():
    @njit
    def one():
        return np.random.standard_normal()

    @njit
    def other():
        return np.random.normal(2.0, 3.0)

    for seed in SEEDS:
        np_seed(seed)
        got = [one(), other(), one(), np.random.RandomState(0) is None or other()]
        rs = np.random.RandomState(seed)
        assert got[:3] == [rs.standard_normal(), rs.normal(2.0, 3.0), rs.standard_normal()]
        assert got[3] == rs.normal(2.0, 3.0)
    np_seed(3)
    one()  # a Gaussian is pending; seeding drops it
    np_seed(3)
    assert one() == np.random.RandomState(3).standard_normal()


def test_rand_randn_randint_random_integers():
    compare(lambda: (np.random.rand(), np.random.rand(3), np.random.rand(2, 3), np.random.randn(), np.random.randn(4, 1)))
    compare(lambda: (np.random.randint(5), np.random.randint(-3, 4), np.random.randint(0, 10, 6),
                     np.random.randint(-2**62, 2**62, 3), np.random.randint(0, 2**32, 4), np.random.randint(0, 2**32 + 1, 4),
                     np.random.randint(-2**63, 2**63 - 1, 3), np.random.randint(7, 8, 2), np.random.randint(3, size=(2, 2)),
                     np.random.randint(low=2, high=9), np.random.randint(0, 5, dtype=np.int64)))
    compare(lambda: (np.random.random_integers(5), np.random.random_integers(-3, 4, size=6),
                     np.random.random_integers(0, 0, 2), np.random.random_integers(-2**63, 2**63 - 2, 2)))


def test_choice():
    a = np.arange(10.0) * 1.5
    p = np.array([0.05, 0.1, 0.2, 0.05, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])
    for x in (a, 10, np.arange(7)[::-2]):
        compare(lambda x: (np.random.choice(x), np.random.choice(x, 5), np.random.choice(x, (2, 2)),
                           np.random.choice(x, 3, replace=False), np.random.choice(x, (1, 2), False)), x)
    for x in (a, 10):
        compare(lambda x, p: (np.random.choice(x, p=p), np.random.choice(x, 6, p=p),
                              np.random.choice(x, 4, replace=False, p=p), np.random.choice(x, (3, 2), True, p)), x, p)
    p32 = np.array([0.25, 0.25, 0.5, 0.0], dtype=np.float32)
    compare(lambda p: np.random.choice(4, 5, p=p), p32)
    compare(lambda p: np.random.choice(4, 2, replace=False, p=p), np.array([0.0, 0.5, 0.0, 0.5]))
    compare(lambda: (np.random.choice(0, 0), np.random.choice(np.zeros(0), size=(0, 3)), np.random.choice(5, 0, replace=False)))


def test_permutation_and_shuffle():
    def f(x, m):
        y = x.copy()
        np.random.shuffle(y)
        z = m.copy()
        np.random.shuffle(z)
        v = x[::-2].copy()[::-1]
        np.random.shuffle(v)
        return np.random.permutation(8), np.random.permutation(x), y, z, np.random.permutation(m), v, np.random.permutation(0)

    compare(f, np.arange(9) * 2, np.arange(12.0).reshape(4, 3))
    compare(f, np.array([True, False, True]), np.arange(6, dtype=np.int32).reshape(3, 1, 2))
    compare(f, np.zeros(0), np.zeros((1, 2)))

    def g(xs):
        np.random.shuffle(xs)
        return xs, np.random.permutation([1.5, 2.5, 3.5]), np.random.permutation(np.int32(5))

    cg = njit(g)
    for seed in SEEDS:
        np_seed(seed)
        got = cg([1, 2, 3, 4, 5, 6])
        np.random.seed(seed)
        want = g([1, 2, 3, 4, 5, 6])
        assert list(got[0]) == want[0]
        same(got[1:], want[1:])


def test_multinomial_and_dirichlet():
    def f(n, pv, alpha):
        return (np.random.multinomial(n, pv), np.random.multinomial(n, pv, size=3), np.random.multinomial(n, pv, (2, 2)),
                np.random.dirichlet(alpha), np.random.dirichlet(alpha, 4), np.random.dirichlet(alpha, (2, 1)))

    compare(f, 20, np.array([0.1] * 10), np.array([0.5, 1.0, 2.0]))
    compare(f, 100, np.array([0.2, 0.3, 0.5]), np.array([1e-3, 4.0]))
    compare(f, 0, np.array([1.0, 0.0, 0.0]), np.array([1.0]))
    compare(f, 5, np.array([0.0, 1.0]), np.array([2.5, 2.5, 2.5]))
    compare(lambda: np.random.multinomial(3, [0.25, 0.75]))


BAD = [
    # one per line: a compiled lambda is found by its line
    lambda: np.random.gamma(-1.0),
    lambda: np.random.gamma(1.0, -2.0),
    lambda: np.random.normal(0.0, -1.0),
    lambda: np.random.normal(0.0, -0.0),
    lambda: np.random.exponential(-1e-300),
    lambda: np.random.standard_gamma(-1),
    lambda: np.random.beta(0.0, 1.0),
    lambda: np.random.beta(1.0, -1.0),
    lambda: np.random.chisquare(0),
    lambda: np.random.f(1.0, 0.0),
    lambda: np.random.noncentral_f(1.0, 1.0, -1.0),
    lambda: np.random.noncentral_chisquare(-1.0, 1.0),
    lambda: np.random.standard_t(0.0),
    lambda: np.random.vonmises(0.0, -1.0),
    lambda: np.random.pareto(0.0),
    lambda: np.random.weibull(-1.0),
    lambda: np.random.power(-1.0),
    lambda: np.random.laplace(0.0, -1.0),
    lambda: np.random.gumbel(0.0, -1.0),
    lambda: np.random.logistic(0.0, -1.0),
    lambda: np.random.lognormal(0.0, -1.0),
    lambda: np.random.rayleigh(-1.0),
    lambda: np.random.wald(0.0, 1.0),
    lambda: np.random.wald(1.0, -1.0),
    lambda: np.random.triangular(1.0, 0.0, 2.0),
    lambda: np.random.triangular(0.0, 3.0, 2.0),
    lambda: np.random.triangular(1.0, 1.0, 1.0),
    lambda: np.random.binomial(-1, 0.5),
    lambda: np.random.binomial(5, 1.5),
    lambda: np.random.binomial(-1, np.nan),
    lambda: np.random.negative_binomial(0.0, 0.5),
    lambda: np.random.negative_binomial(1.0, 1.5),
    lambda: np.random.poisson(-1.0),
    lambda: np.random.poisson(1e19),
    lambda: np.random.poisson(np.nan),
    lambda: np.random.zipf(1.0),
    lambda: np.random.zipf(np.nan),
    lambda: np.random.geometric(0.0),
    lambda: np.random.geometric(1.5),
    lambda: np.random.logseries(1.0),
    lambda: np.random.logseries(-0.1),
    lambda: np.random.hypergeometric(1, 2, 5),
    lambda: np.random.hypergeometric(-1, 2, 0),
    lambda: np.random.hypergeometric(1, -2, 0),
    lambda: np.random.hypergeometric(1, 2, 0),
    lambda: np.random.randint(5, 5),
    lambda: np.random.randint(0),
    lambda: np.random.randint(-3),
    lambda: np.random.randint(3, 1, size=4),
    lambda: np.random.random_integers(0),
    lambda: np.random.random_integers(3, 2),
    lambda: np.random.choice(0),
    lambda: np.random.choice(np.zeros(0)),
    lambda: np.random.choice(5, 6, replace=False),
    lambda: np.random.choice(3, p=np.array([0.5, 0.6, 0.1])),
    lambda: np.random.choice(3, p=np.array([0.5, 0.5])),
    lambda: np.random.choice(3, p=np.array([1.5, -0.5, 0.0])),
    lambda: np.random.choice(3, p=np.array([np.nan, 0.5, 0.5])),
    lambda: np.random.choice(3, 3, replace=False, p=np.array([0.5, 0.5, 0.0])),
    lambda: np.random.choice(np.zeros((2, 2))),
    lambda: np.random.multinomial(-1, np.array([0.5, 0.5])),
    lambda: np.random.multinomial(3, np.array([0.7, 0.7, 0.0])),
    lambda: np.random.multinomial(3, np.array([1.5, -0.5])),
    lambda: np.random.dirichlet(np.array([1.0, 0.0])),
    lambda: np.random.uniform(-np.inf, 0.0),
    lambda: np.random.uniform(0.0, np.nan),
    lambda: np.random.uniform(-1e308, 1e308),
    lambda: np.random.permutation(np.zeros(())),
]


@pytest.mark.parametrize("call", BAD)
def test_invalid_parameters_raise_numpys_error_before_drawing(call):
    np.random.seed(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(Exception) as want:
            call()
    np_seed(5)
    with pytest.raises(Exception) as got:
        njit(call)()
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)
    np.testing.assert_array_equal(np_next(3), np.random.RandomState(5).random_sample(3))  # nothing drawn


def test_refused():
    cases = [
        (lambda: np.random.gamma(np.ones(3)), "array parameters"),
        (lambda: np.random.binomial(2.5, 0.5), "must be an integer"),
        (lambda: np.random.hypergeometric(2.0, 3, 1), "must be an integer"),
        (lambda: np.random.normal(0.0, 1.0, 3, 4), "at most 3 positional"),
        (lambda: np.random.gamma(), "missing required argument 'shape'"),
        (lambda: np.random.gamma(1.0, shape=2.0), "multiple values"),
        (lambda: np.random.gamma(1.0, scal=2.0), "unexpected keyword"),
        (lambda: np.random.randint(0, 5, dtype=np.int8), "dtype"),
        (lambda: np.random.randint(0.5, 3), "integers"),
        (lambda: np.random.bytes(3), "bytes"),
        (lambda: np.random.RandomState(0), "cannot make a generator"),
        (lambda: np.random.seed(1.5), "integer seed"),
    ]
    for fn, message in cases:
        with pytest.raises((TypingError, UnsupportedError), match=message):
            njit(fn)()


# ---- np.random.seed / random.seed of an optional integer (`if seed is not None: seed(seed)`)

def _seeded_optional(seed):
    if seed is not None:
        np.random.seed(seed)
    return np.random.random()


def _py_seeded_optional(seed):
    if seed is not None:
        _pyrandom.seed(seed)
    return _pyrandom.random()


def test_seed_of_an_optional_integer():
    _random = _pyrandom
    _njit = njit
    f = _njit("float64(optional(int32))")(_seeded_optional)
    for s in (0, 5, 2**31 - 1):
        got = f(s)
        np.random.seed(s)
        assert got == np.random.random()
    f(None)  # fresh entropy is not asserted; the call must work and leave the state usable
    g = _njit("float64(optional(int64))")(_py_seeded_optional)
    got = g(7)
    _random.seed(7)
    assert got == _random.random()


def _seed_none_inside(seed):
    np.random.seed(seed)
    return 1


def test_seed_of_an_optional_that_is_none_raises():
    f = njit("int64(optional(int32))")(_seed_none_inside)
    assert f(3) == 1
    with pytest.raises(TypeError):
        f(None)
