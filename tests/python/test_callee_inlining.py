"""Calls between compiled functions: a small callee's optimised LLVM IR is linked into
its caller (available_externally) so that LLVM inlines it, as Numba links its callees'
IR. The results, exceptions and reference counts must not change."""

import numpy as np
import pytest

from conftest import check
from mahou import njit


@njit
def row_helper(row):
    return row[0] * row[1] + row[2]


def sum_rows(c):
    s = 0.0
    for i in range(c.shape[0]):
        s += row_helper(c[i])
    return s


@njit
def divide(a, b):
    return a / b


def call_divide(x, y):
    return divide(x, y) + 1.0


@njit
def make_array(n):
    return np.arange(n) * 2


def use_made_arrays(n):
    total = 0
    for i in range(n):
        a = make_array(i)
        total += a.sum()
    return total


@njit
def inner_most(x):
    return x * 3


@njit
def middle(x):
    return inner_most(x) + 1


def outer(x):
    return middle(x) * 2


def test_row_view_helper():
    c = np.arange(30.0).reshape(10, 3)
    check(sum_rows, c)
    check(sum_rows, c[::2])
    check(sum_rows, np.asfortranarray(c))
    check(sum_rows, c[:0])


def test_row_view_helper_is_inlined():
    c = np.ones((4, 3))
    f = njit(sum_rows)
    f(c)
    sig = f.signatures[0]
    asm = f.inspect_asm(sig)
    assert "row_helper" not in asm, "the small callee should be inlined"


def test_exception_from_inlined_callee():
    f = njit(call_divide)
    assert f(1.0, 2.0) == 1.5
    with pytest.raises(ZeroDivisionError):
        f(1.0, 0.0)


def test_arrays_made_by_inlined_callee_are_released():
    check(use_made_arrays, 50)


def test_transitive_callees():
    check(outer, 5)
    check(outer, -7)
