"""A jitclass method taken from an instance as a value (`f = obj.method`, Numba's
BoundFunction): called later with the instance first, passed to other compiled functions,
held in tuples and lists; returning one, or reading an attribute of one, is refused."""

import numpy as np
import pytest

from mahou import float64, njit
from mahou.errors import TypingError, UnsupportedError
from mahou.experimental import jitclass


@jitclass([("gamma", float64), ("scale", float64)])
class Utility:
    def __init__(self, gamma, scale):
        self.gamma = gamma
        self.scale = scale

    def u_prime(self, c):
        return self.scale * c ** (-self.gamma)

    def u_prime_inv(self, c):
        return (c / self.scale) ** (-1 / self.gamma)

    def shift(self, c, by=1.0):
        return c + by * self.scale


def round_trip(u, cs):
    up, upi = u.u_prime, u.u_prime_inv
    out = np.empty_like(cs)
    for i in range(cs.shape[0]):
        out[i] = upi(up(cs[i]))
    return out


@njit
def apply(f, x):
    return f(x)


def through_other_function(u, x):
    return apply(u.u_prime, x), apply(u.u_prime_inv, x)


def with_keywords(u, x):
    f = u.shift
    return f(x), f(x, by=2.0), f(c=x)


def in_containers(u, x):
    fs = [u.u_prime, u.u_prime]
    pair = (u.shift, u.u_prime)
    return fs[0](x) + fs[1](2 * x) + pair[0](x) + pair[1](x)


def python_utility(gamma, scale):
    class P:
        pass
    p = P()
    p.gamma, p.scale = gamma, scale
    p.u_prime = lambda c: scale * c ** (-gamma)
    p.u_prime_inv = lambda c: (c / scale) ** (-1 / gamma)
    p.shift = lambda c, by=1.0: c + by * scale
    return p


@pytest.mark.parametrize("gamma,scale", [(2.0, 1.5), (0.5, 1.0), (3.0, 0.25)])
def test_bound_methods_as_values(gamma, scale):
    u, p = Utility(gamma, scale), python_utility(gamma, scale)
    cs = np.linspace(0.25, 4.0, 9)
    np.testing.assert_allclose(njit(round_trip)(u, cs), round_trip(p, cs), rtol=1e-14)
    np.testing.assert_allclose(njit(round_trip)(u, cs[::-2]), round_trip(p, cs[::-2]), rtol=1e-14)
    assert njit(through_other_function)(u, 2.0) == (p.u_prime(2.0), p.u_prime_inv(2.0))
    assert njit(with_keywords)(u, -3.0) == with_keywords(p, -3.0)
    assert njit(in_containers)(u, 1.5) == in_containers(p, 1.5)


def test_two_methods_through_one_callee_stay_apart():
    u = Utility(2.0, 3.0)
    a, b = njit(through_other_function)(u, 2.0)
    assert a == 3.0 * 2.0 ** -2.0 and b == (2.0 / 3.0) ** -0.5


def returns_it(u):
    return u.u_prime


def reads_from_it(u):
    f = u.u_prime
    return f.gamma


def test_returning_a_bound_method_is_refused():
    with pytest.raises(UnsupportedError, match="bound method"):
        njit(returns_it)(Utility(2.0, 1.0))


def test_attributes_of_a_bound_method_are_refused():
    with pytest.raises(TypingError, match="no attribute 'gamma'"):
        njit(reads_from_it)(Utility(2.0, 1.0))
