"""The random module's functions that CPython writes in Python (Lib/random.py), compiled
by mahou when compiled code calls them (see the package docstring), over the primitives
compiled code draws from its own random state (random.random(), random.randrange(n) as
_randbelow(n), random.normalvariate: sema/random_python.cpp). Each is CPython's code in
CPython's order, so that after random.seed(n) in compiled code the numbers are those of
random.seed(n) in Python."""

import math
import random

import numpy as np

from mahou import njit

_TWOPI = 2.0 * math.pi
_LOG4 = math.log(4.0)
_SG_MAGICCONST = 1.0 + math.log(4.5)
_E = math.e


@njit
def uniform(a, b):
    return a + (b - a) * random.random()


@njit
def triangular(low=0.0, high=1.0, mode=None):
    u = random.random()
    if mode is None:
        c = 0.5
    else:
        if high - low == 0:  # CPython catches the ZeroDivisionError
            return low + 0.0
        c = (mode - low) / (high - low)
    lo = low + 0.0
    hi = high + 0.0
    if u > c:
        u = 1.0 - u
        c = 1.0 - c
        lo, hi = hi, lo
    return lo + (hi - lo) * math.sqrt(u * c)


@njit
def choice(seq):
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[random.randrange(n)]


@njit
def shuffle(x):
    for i in range(len(x) - 1, 0, -1):
        j = random.randrange(i + 1)
        if not isinstance(x, np.ndarray):
            t = x[i]
            x[i] = x[j]
            x[j] = t
        elif x.ndim == 1:
            t = x[i]
            x[i] = x[j]
            x[j] = t
        else:  # rows of an N-D array, through a copy
            t = x[i].copy()
            x[i] = x[j]
            x[j] = t


@njit
def expovariate(lambd=1.0):
    return -math.log(1.0 - random.random()) / lambd


@njit
def lognormvariate(mu, sigma):
    return math.exp(random.normalvariate(mu, sigma))


@njit
def vonmisesvariate(mu, kappa):
    if kappa <= 1e-6:
        return _TWOPI * random.random()
    s = 0.5 / kappa
    r = s + math.sqrt(1.0 + s * s)
    while True:
        u1 = random.random()
        z = math.cos(math.pi * u1)
        d = z / (r + z)
        u2 = random.random()
        if u2 < 1.0 - d * d or u2 <= (1.0 - d) * math.exp(d):
            break
    q = 1.0 / r
    f = (q + z) / (1.0 + q * z)
    u3 = random.random()
    if u3 > 0.5:
        theta = (mu + math.acos(f)) % _TWOPI
    else:
        theta = (mu - math.acos(f)) % _TWOPI
    return theta


@njit
def gammavariate(alpha, beta):
    if alpha <= 0.0 or beta <= 0.0:
        raise ValueError("gammavariate: alpha and beta must be > 0.0")
    if alpha > 1.0:
        # R.C.H. Cheng, "The generation of Gamma variables with non-integral shape
        # parameters", Applied Statistics, (1977), 26, No. 1, p71-74
        ainv = math.sqrt(2.0 * alpha - 1.0)
        bbb = alpha - _LOG4
        ccc = alpha + ainv
        while True:
            u1 = random.random()
            if not 1e-7 < u1 < 0.9999999:
                continue
            u2 = 1.0 - random.random()
            v = math.log(u1 / (1.0 - u1)) / ainv
            x = alpha * math.exp(v)
            z = u1 * u1 * u2
            r = bbb + ccc * v - x
            if r + _SG_MAGICCONST - 4.5 * z >= 0.0 or r >= math.log(z):
                return x * beta
    elif alpha == 1.0:
        return -math.log(1.0 - random.random()) * beta
    # alpha between 0 and 1: ALGORITHM GS of Statistical Computing - Kennedy & Gentle
    while True:
        u = random.random()
        b = (_E + alpha) / _E
        p = b * u
        if p <= 1.0:
            x = p ** (1.0 / alpha)
        else:
            x = -math.log((b - p) / alpha)
        u1 = random.random()
        if p > 1.0:
            if u1 <= x ** (alpha - 1.0):
                break
        elif u1 <= math.exp(-x):
            break
    return x * beta


@njit
def betavariate(alpha, beta):
    y = gammavariate(alpha, 1.0)
    if y:
        return y / (y + gammavariate(beta, 1.0))
    return 0.0


@njit
def paretovariate(alpha):
    u = 1.0 - random.random()
    return u ** (-1.0 / alpha)


@njit
def weibullvariate(alpha, beta):
    u = 1.0 - random.random()
    return alpha * (-math.log(u)) ** (1.0 / beta)
