"""`a % b == 0` and `a % b != 0` of signed integers compile to C's remainder test (Python's
sign fix-up cannot change whether the remainder is zero): checked against Python for
negative operands, -1 and the lowest int64 as divisors, a zero divisor
(ZeroDivisionError, or true under error_model='numpy' whose remainder is 0), int32 and
the other forms that keep the general path."""

import numpy as np
import pytest

import mahou

INT64_MIN = -(2**63)
VALUES = [0, 1, -1, 2, -2, 3, -3, 6, -6, 7, -7, 12, 2**62, -(2**62), 2**63 - 1, INT64_MIN]


@mahou.njit
def divides(a, b):
    return a % b == 0


@mahou.njit
def not_divides(a, b):
    return a % b != 0


@mahou.njit
def count_divisors(n):
    c = 0
    for d in range(-n, n + 1):
        if d != 0 and n % d == 0:
            c += 1
    return c


@mahou.njit(error_model="numpy")
def divides_numpy(a, b):
    return a % b == 0


@mahou.njit
def divides_int32(a, b):
    return np.int32(a) % np.int32(b) == 0


@mahou.njit
def remainder_is_one(a, b):
    return a % b == 1  # not a zero test: the general path


@pytest.mark.parametrize("a", VALUES)
@pytest.mark.parametrize("b", [v for v in VALUES if v != 0])
def test_against_python(a, b):
    assert divides(a, b) == (a % b == 0)
    assert not_divides(a, b) == (a % b != 0)
    assert remainder_is_one(a, b) == (((a % b + 2**63) % 2**64 - 2**63) == 1)


def test_zero_divisor():
    with pytest.raises(ZeroDivisionError, match="integer modulo by zero"):
        divides(5, 0)
    with pytest.raises(ZeroDivisionError):
        not_divides(0, 0)
    assert divides_numpy(5, 0) is True  # NumPy's model: 5 % 0 is 0


@pytest.mark.parametrize("n", [1, 6, 12, 30, 97])
def test_in_a_loop(n):
    assert count_divisors(n) == sum(1 for d in range(-n, n + 1) if d != 0 and n % d == 0)


def test_int32():
    for a in (-7, 0, 9, 2**31 - 1, -(2**31)):
        for b in (-3, -1, 1, 3, 7):
            assert divides_int32(a, b) == (a % b == 0)
