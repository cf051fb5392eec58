"""Identifiers as Python reads them (NFKC, PEP 3131): 'ϵ' (U+03F5) is 'ε', 'µ' (MICRO
SIGN) is 'μ', 'ﬁ' is 'fi' — for variables, parameters, keyword arguments from Python into
dispatchers and jitclass constructors, globals, closures and attributes."""

import numpy as np
import pytest

from conftest import assert_same, check
from mahou import njit
from mahou.experimental import jitclass
from mahou.types import float64

# The source spells some names with compatibility characters on purpose: Python reads
# each pair below as one name.
µ0 = 2.5  # MICRO SIGN in the source, so the global is 'μ0'


def lunate(x):
    ϵ = x * 2  # U+03F5
    return ε + 1  # U+03B5: the same variable


def micro_param(µ, n):  # MICRO SIGN
    return μ * n  # GREEK SMALL LETTER MU


def ligature(x):
    ﬁrst = x + 1  # U+FB01 LATIN SMALL LIGATURE FI
    return first * 2


def combining(x):
    café = x  # 'e' + U+0301 COMBINING ACUTE ACCENT
    return café + 1  # U+00E9: the composed letter


def reads_global(x):
    return x * μ0


def lognormal(n=4, μ=2.5, σ=0.5):
    return np.exp(μ + σ * np.arange(n) / n)


@pytest.mark.parametrize("fn,arg", [(lunate, 1.5), (lunate, -3), (micro_param, None), (ligature, 4),
                                    (combining, -2.0), (reads_global, 3)])
def test_names_compare_by_nfkc(fn, arg):
    if fn is micro_param:
        check(fn, 1.5, 3)
        check(fn, -2, 0)
    else:
        check(fn, arg)


def test_keyword_arguments_from_python():
    f = njit(lognormal)
    for kwargs in ({"μ": 1.0}, {"n": 3, "σ": 0.0}, {"μ": -1.0, "σ": 2.0}, {}):
        assert_same(f(**kwargs), lognormal(**kwargs))
    assert_same(f(5, μ=0.5), lognormal(5, μ=0.5))
    # a MICRO SIGN typed at the call site is normalised by Python too
    assert_same(eval("f(µ=0.25)"), lognormal(μ=0.25))
    with pytest.raises(TypeError, match="unexpected keyword argument 'ν'"):
        f(ν=1.0)
    with pytest.raises(TypeError, match="multiple values for argument 'μ'"):
        f(3, 1.0, μ=2.0)


def test_keyword_arguments_from_compiled_code():
    inner = njit(lognormal)

    @njit
    def outer(m):
        return inner(µ=m, n=2)  # MICRO SIGN at the call

    assert_same(outer(1.5), lognormal(μ=1.5, n=2))


def test_closure_and_inner_function():
    ϑ = 0.5  # U+03D1 GREEK THETA SYMBOL; NFKC: θ

    @njit
    def f(x):
        def g(y):
            return y * θ

        return g(x) + ϑ

    for x in (1.0, -2.0, 0.0):
        assert f(x) == x * ϑ + ϑ


@jitclass([("μ_r", float64), ("σ_r", float64)])
class Returns:
    def __init__(self, µ_r=0.1, σ_r=0.5):  # MICRO SIGN parameter
        self.µ_r = µ_r
        self.σ_r = σ_r

    def mean(self):
        return np.exp(self.μ_r + self.σ_r ** 2 / 2)


def test_jitclass_keywords_and_fields():
    r = Returns(μ_r=0.025, σ_r=0.35)
    assert r.μ_r == 0.025 and r.σ_r == 0.35
    assert r.mean() == np.exp(0.025 + 0.35 ** 2 / 2)
    r2 = Returns(σ_r=0.0)
    assert r2.μ_r == 0.1 and r2.mean() == np.exp(0.1)

    @njit
    def make(m):
        return Returns(µ_r=m).mean()

    assert make(0.5) == np.exp(0.5 + 0.125)
