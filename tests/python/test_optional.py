"""None and optional values, compared with CPython: default arguments =None, `is None`
branches pruned at compile time, variables that are None on one path, functions that
return a value or None, and the TypeError when None is used as a number."""

import numpy as np
import pytest

from conftest import check
from mahou import njit


def default_none(a, b=None):
    if b is None:
        return a
    return a + b


def none_on_one_path(n):
    x = None
    if n > 0:
        x = n * 2
    if x is not None:
        return x + 1
    return -1


def value_or_none(n):
    if n % 2 == 0:
        return n // 2
    return None


def falls_off(n):
    if n > 3:
        return float(n)


def truth_of_optional(n):
    x = None
    if n > 5:
        x = n - 10
    if x:
        return 1
    return 0


def optional_array(a, scale=None):
    if scale is None:
        return a.sum()
    return (a * scale).sum()


def optional_string(flag):
    s = None
    if flag:
        s = "set"
    if s is None:
        return "none"
    return s.upper()


def compare_with_none(n):
    x = None
    if n:
        x = n
    return x == None, x != None, None is None  # noqa: E711


@pytest.mark.parametrize("n", [-2, 0, 3, 4, 8])
def test_optional_values(n):
    check(none_on_one_path, n)
    check(value_or_none, n)
    check(falls_off, n)
    check(truth_of_optional, n)
    check(compare_with_none, n)


def test_default_none():
    check(default_none, 3)
    check(default_none, 3, 4)
    check(default_none, 3, None)
    check(default_none, 1.5, 2)


def test_optional_array_and_string():
    check(optional_array, np.arange(4.0))
    check(optional_array, np.arange(4.0), 2.0)
    check(optional_string, True)
    check(optional_string, False)


def none_used_as_number(n):
    x = None
    if n > 0:
        x = n
    return x + 1


def test_none_as_number_raises_type_error():
    f = njit(none_used_as_number)
    assert f(2) == 3
    with pytest.raises(TypeError, match="got None"):
        f(-1)
    assert f(5) == 6  # still working


def print_optional(n):
    x = None
    if n > 0:
        x = n
    print(x)


def test_print_optional(capfd):
    f = njit(print_optional)
    f(3)
    f(-3)
    assert capfd.readouterr().out == "3\nNone\n"
