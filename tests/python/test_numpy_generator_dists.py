"""np.random.Generator's distributions in compiled code against NumPy's Generator on the
same bit generator state, bit for bit (NumPy's current algorithms: gamma, beta, binomial,
poisson, ... with scalar and size= forms, float32 standard_gamma, parameters at the edges
of each algorithm, several bit generators), the caller's stream continuing after the
call; invalid parameters raise NumPy's errors before anything is drawn."""

import linecache

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError

SEEDS = [0, 1, 12345, 2**40 + 7]


def same(a, b):
    if isinstance(b, tuple):
        for x, y in zip(a, b):
            same(x, y)
        return
    if np.ndim(b) == 0 and not isinstance(b, np.ndarray):
        assert not isinstance(a, np.ndarray) and (a == b or (a != a and b != b)), (a, b)
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    np.testing.assert_array_equal(a, b)


def compare(fn, *args, make=np.random.PCG64):
    cf = njit(fn)
    for seed in SEEDS:
        g1, g2 = np.random.Generator(make(seed)), np.random.Generator(make(seed))
        same(cf(g1, *args), fn(g2, *args))
        same(g1.random(3), g2.random(3))
        np.testing.assert_equal(g1.bit_generator.state, g2.bit_generator.state)


DISTRIBUTIONS = [
    ("standard_gamma", (0.5,)), ("standard_gamma", (1.0,)), ("standard_gamma", (3.0,)), ("standard_gamma", (0.0,)),
    ("gamma", (2.0, 3.0)), ("gamma", (0.3, 0.5)),
    ("beta", (0.5, 0.7)), ("beta", (2.0, 3.0)), ("beta", (1e-104, 1e-105)), ("beta", (1e-3, 1e-3)), ("beta", (0.9, 5.0)),
    ("chisquare", (3.0,)), ("noncentral_chisquare", (3.0, 2.0)), ("noncentral_chisquare", (0.5, 2.0)),
    ("noncentral_chisquare", (3.0, 0.0)), ("noncentral_chisquare", (3.0, np.nan)),
    ("f", (3.0, 5.0)), ("noncentral_f", (3.0, 5.0, 1.5)), ("standard_cauchy", ()), ("standard_t", (4.0,)),
    ("vonmises", (0.5, 2.0)), ("vonmises", (0.5, 1e-9)), ("vonmises", (0.5, 1e-6)), ("vonmises", (3.0, 1e7)),
    ("pareto", (3.0,)), ("weibull", (1.5,)), ("weibull", (0.0,)), ("power", (2.0,)),
    ("laplace", (1.0, 2.0)), ("laplace", ()), ("gumbel", (1.0, 2.0)), ("logistic", (1.0, 2.0)), ("lognormal", (0.5, 0.25)),
    ("lognormal", ()), ("rayleigh", (2.0,)), ("rayleigh", ()), ("wald", (1.0, 2.0)),
    ("triangular", (0.0, 0.3, 1.0)), ("triangular", (0, 0, 1)),
    ("binomial", (10, 0.3)), ("binomial", (1000, 0.3)), ("binomial", (1000, 0.7)), ("binomial", (0, 0.5)),
    ("binomial", (7, 0.0)), ("binomial", (7, 1.0)), ("binomial", (10**6, 0.4)),
    ("negative_binomial", (5.0, 0.3)), ("negative_binomial", (0.5, 1.0)),
    ("poisson", (3.0,)), ("poisson", (30.0,)), ("poisson", (0.0,)), ("poisson", ()),
    ("zipf", (2.5,)), ("zipf", (1.01,)), ("zipf", (2000.0,)),
    ("geometric", (0.2,)), ("geometric", (0.6,)), ("geometric", (1.0,)), ("geometric", (1e-300,)),
    ("hypergeometric", (20, 30, 8)), ("hypergeometric", (200, 300, 80)), ("hypergeometric", (5, 0, 3)),
    ("hypergeometric", (10, 10, 0)), ("hypergeometric", (2000, 3000, 4990)),
    ("logseries", (0.7,)), ("logseries", (0.999,)), ("logseries", (0.0,)),
    ("exponential", (2.5,)), ("normal", (1.0, 2.0)), ("uniform", (-1.0, 3.0)),
]


def _draws(name, nparams):
    ps = ", ".join(f"p{i}" for i in range(nparams))
    sep = ", " if nparams else ""
    src = (f"def fn(g{sep}{ps}):\n"
           f"    return (g.{name}({ps}), g.{name}({ps}{sep}size=7), g.{name}({ps}{sep}size=(2, 3)))\n")
    filename = f"<generator-{name}-{nparams}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {"np": np}
    exec(compile(src, filename, "exec"), ns)
    return ns["fn"]


@pytest.mark.parametrize("name,params", DISTRIBUTIONS, ids=[f"{n}{p}" for n, p in DISTRIBUTIONS])
def test_distribution_equals_numpys_generator(name, params):
    compare(_draws(name, len(params)), *params)


def test_float32_standard_gamma_and_keywords():
    compare(lambda g: (g.standard_gamma(0.5, dtype=np.float32), g.standard_gamma(3.0, 4, np.float32),
                       g.standard_gamma(shape=1.0, size=(2, 2), dtype=np.float32), g.standard_gamma(2.0, dtype=np.float64)))
    compare(lambda g: (g.gamma(shape=2.0), g.binomial(p=0.5, n=4), g.poisson(lam=2.5, size=3), g.standard_exponential(method="zig")))


@pytest.mark.parametrize("make", [np.random.MT19937, np.random.Philox, np.random.SFC64])
def test_other_bit_generators(make):
    compare(lambda g: (g.gamma(2.0, 1.0, 5), g.binomial(1000, 0.3, 3), g.poisson(40.0, 3), g.beta(0.5, 0.5, 3),
                       g.hypergeometric(200, 300, 80, 3), g.vonmises(0.0, 4.0, 3)), make=make)


BAD = [
    lambda g: g.gamma(-1.0),
    lambda g: g.gamma(1.0, -1.0),
    lambda g: g.standard_gamma(-0.0),
    lambda g: g.beta(0.0, 1.0),
    lambda g: g.chisquare(0.0),
    lambda g: g.f(1.0, -1.0),
    lambda g: g.noncentral_f(1.0, 1.0, -1.0),
    lambda g: g.standard_t(-1.0),
    lambda g: g.vonmises(0.0, -1.0),
    lambda g: g.pareto(0.0),
    lambda g: g.weibull(-1.0),
    lambda g: g.power(0.0),
    lambda g: g.laplace(0.0, -1.0),
    lambda g: g.wald(1.0, 0.0),
    lambda g: g.triangular(1.0, 0.0, 2.0),
    lambda g: g.triangular(0.0, 0.0, 0.0),
    lambda g: g.binomial(-1, 0.5),
    lambda g: g.binomial(3, np.nan),
    lambda g: g.negative_binomial(np.nan, 0.5),
    lambda g: g.negative_binomial(1.0, 0.0),
    lambda g: g.negative_binomial(1e30, 1e-10),
    lambda g: g.poisson(-1.0),
    lambda g: g.poisson(1e19),
    lambda g: g.zipf(0.5),
    lambda g: g.geometric(0.0),
    lambda g: g.logseries(1.0),
    lambda g: g.hypergeometric(10**9, 1, 1),
    lambda g: g.hypergeometric(1, 2, 4),
    lambda g: g.hypergeometric(-1, 2, 0),
    lambda g: g.hypergeometric(1, 2, -1),
]


@pytest.mark.parametrize("call", BAD)
def test_invalid_parameters_raise_numpys_error_before_drawing(call):
    g = np.random.default_rng(3)
    with pytest.raises(ValueError) as want:
        call(g)
    cg = np.random.default_rng(3)
    with pytest.raises(ValueError) as got:
        njit(call)(cg)
    assert str(got.value) == str(want.value)
    assert cg.bit_generator.state == g.bit_generator.state


def test_refused():
    with pytest.raises(TypingError, match="array parameters"):
        njit(lambda g: g.gamma(np.ones(2)))(np.random.default_rng(0))
    with pytest.raises(TypingError, match="dtype"):
        njit(lambda g: g.standard_gamma(1.0, dtype=np.int64))(np.random.default_rng(0))
    with pytest.raises(TypingError, match="multinomial"):
        njit(lambda g: g.multinomial(3, np.ones(2) / 2))(np.random.default_rng(0))
