"""for loops over range(start, stop, step) with a step known only at run time (the value
is its own induction, advanced by the step): continue, break and else, values at the ends
of int64, strided stores into arrays (a sieve, negative steps through negative indices,
non-contiguous views, each integer and float dtype), compiled against CPython."""

import numpy as np
import pytest

from conftest import check
from mahou import njit

BIG = 2**63 - 1


def walk(a, b, s):
    seen = []
    for i in range(a, b, s):
        if i % 5 == 0:
            continue
        if len(seen) > 40:
            break
        seen.append(i)
    else:
        seen.append(-1)
    return seen


@pytest.mark.parametrize(
    "a,b,s",
    [
        (0, 100, 3), (100, 0, -3), (-50, 50, 7), (7, 7, 2), (3, 90, 1), (90, 3, -1),
        (0, 1000, 11), (-3, -200, -9), (1, 2, 1000), (2, 1, -1000),
    ],
)
def test_continue_break_else(a, b, s):
    check(walk, a, b, s)


def ends(a, b, s):
    n = 0
    last = 0
    for i in range(a, b, s):
        n += 1
        last = i
    return n, last


@pytest.mark.parametrize(
    "a,b,s",
    [
        (0, BIG, 2**62),  # the advance after the last value passes int64's end
        (BIG - 5, BIG, 2),
        (-BIG - 1, -BIG + 10, 3),
        (BIG, -BIG - 1, -(2**62)),
        (-BIG - 1, BIG, 2**61 + 1),
        (BIG, BIG - 7, -3),
        (0, BIG, BIG),
        (-1, -BIG - 1, -BIG),
    ],
)
def test_values_at_int64_ends(a, b, s):
    check(ends, a, b, s)


def sieve(flags):
    n = flags.shape[0]
    for i in range(n):
        flags[i] = 1
    if n > 0:
        flags[0] = 0
    if n > 1:
        flags[1] = 0
    i = 2
    while i * i < n:
        if flags[i] != 0:
            for j in range(i * i, n, i):
                flags[j] = 0
        i += 1
    count = 0
    for i in range(n):
        count += int(flags[i])  # int: NumPy would keep a uint8 sum in uint8
    return count


@pytest.mark.parametrize("n", [0, 1, 2, 3, 10, 97, 1000, 100_003])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int32, np.int64, np.float32, np.float64])
def test_sieve_equals_python(n, dtype):
    want_flags = np.zeros(n, dtype)
    want = sieve(want_flags)
    got_flags = np.zeros(n, dtype)
    got = njit(sieve)(got_flags)
    assert got == want
    np.testing.assert_array_equal(got_flags, want_flags)


def strided_store(x, start, stop, step, v):
    for j in range(start, stop, step):
        x[j] = v + j
    return x


@pytest.mark.parametrize(
    "start,stop,step",
    [(0, 50, 3), (49, -1, -4), (-1, -50, -3), (-50, 0, 7), (5, 50, 13), (0, 0, 2), (-2, -51, -1)],
)
def test_strided_stores_negative_indices_and_views(start, stop, step):
    base = np.arange(150, dtype=np.int64)
    for make in (lambda a: a[:50].copy(), lambda a: a[::3], lambda a: a[::-3]):
        want = strided_store(make(base.copy()), start, stop, step, 1000)
        got = njit(strided_store)(make(base.copy()), start, stop, step, 1000)
        np.testing.assert_array_equal(got, want)


def test_zero_step_still_raises():
    with pytest.raises(ValueError):
        njit(ends)(0, 10, 0)
