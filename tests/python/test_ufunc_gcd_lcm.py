"""np.gcd and np.lcm in compiled code, compared with NumPy: scalars and arrays of every
integer dtype, negative values (the results are non-negative, as NumPy's), zeros
(gcd(0, 0) = 0, lcm(0, x) = 0), the extremes of each type (NumPy's wrapping), mixed
dtypes and Python ints (NumPy's promotion), broadcasting, out=, and floats refused
(NumPy has no float loop)."""

import itertools

import numpy as np
import pytest

from conftest import check
from mahou import njit
from mahou.errors import TypingError

INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def both(a, b):
    return np.gcd(a, b), np.lcm(a, b)


def with_python_ints(a):
    return np.gcd(a, 6), np.lcm(a, 4), np.gcd(12, a), np.lcm(3, a)


def into_out(a, b, out):
    np.gcd(a, b, out)
    return out


def scalar_loop(n):
    t = 0
    for i in range(-n, n):
        t += np.gcd(i, 12) + np.lcm(i, 8)
    return t


def values(dtype):
    info = np.iinfo(dtype)
    v = [0, 1, 2, 3, 6, 7, 12, 35, info.max, info.max - 1]
    if info.min < 0:
        v += [-1, -4, -6, -35, info.min, info.min + 1]
    return np.array(v, dtype=dtype)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: d.__name__)
def test_arrays_every_pair(dtype):
    v = values(dtype)
    a, b = (np.array(x, dtype=dtype) for x in zip(*itertools.product(v, v)))
    check(both, a, b)
    check(both, v.reshape(-1, 1), v)  # broadcasting (n, 1) with (n,)
    check(with_python_ints, v)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: d.__name__)
def test_scalars(dtype):
    v = values(dtype)
    for x in v[:8]:
        for y in v:
            check(both, x, y)


def test_python_ints_and_mixed_dtypes():
    for x, y in [(12, 18), (-12, 18), (0, 0), (0, 5), (5, 0), (2**62, 6), (-(2**63), 1)]:
        check(both, x, y)
    check(both, np.arange(-5, 5, dtype=np.int8), np.arange(10, dtype=np.int64))
    check(both, np.arange(10, dtype=np.uint8), np.arange(1, 11, dtype=np.uint32))
    check(both, True, 4)
    check(scalar_loop, 20)


def test_out_and_views():
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    b = np.arange(1, 7, dtype=np.int32)
    check(into_out, a, b, np.zeros((4, 6), np.int32))
    check(both, a[:, ::2], b[::2])
    check(both, a.T, np.arange(1, 5, dtype=np.int32))


@pytest.mark.parametrize("args", [(1.5, 2), (np.ones(3), 2), (np.float32(2), np.arange(3))])
def test_no_loop_refused(args):
    for fn in (lambda a, b: np.gcd(a, b), lambda a, b: np.lcm(a, b)):
        with pytest.raises(TypeError):
            fn(*args)  # NumPy has no loop for these types
        with pytest.raises(TypingError, match="not supported for the input types"):
            njit(fn)(*args)
