"""Calls between compiled functions: a small callee's LLVM IR (as the simplification left
it, before the vectoriser) is linked into its caller (available_externally) so that LLVM
inlines it and vectorises its loops in the caller, as Numba links its callees' IR. The
results, exceptions and reference counts must not change."""

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


@njit(fastmath=True)
def regression(x, y, n, lag):
    # a loop over a range from an argument: on its own its index might be negative
    sx = 0.0
    sxy = 0.0
    for i in range(lag, n + lag):
        sx += x[i]
        sxy += x[i] * y[i]
    return sx, sxy


def fit_rows(buf, d):
    t = 0.0
    for r in range(buf.shape[0]):
        a, b = regression(d, buf[r], buf.shape[1], 0)
        t += a * 0.5 + b
    return t


def fit_rows_lagged(buf, d, lag):
    t = 0.0
    for r in range(buf.shape[0]):
        a, b = regression(d, buf[r], buf.shape[1] - lag, lag)
        t += a + b
    return t


def test_inlined_loop_is_vectorised_in_the_caller():
    rng = np.random.default_rng(9)
    for shape in ((15, 5), (8, 9), (3, 40), (1, 1), (0, 4)):
        buf = np.round(rng.standard_normal(shape) * 8) / 8  # sums exact in any order
        d = np.arange(1.0, shape[1] + 1)
        check(fit_rows, buf, d, jit_options={"fastmath": True})
        check(fit_rows, np.asfortranarray(buf), d, jit_options={"fastmath": True})
        if shape[1] > 2:
            for lag in (1, -1, -shape[1]):  # negative lags index from the end
                check(fit_rows_lagged, buf, d, lag, jit_options={"fastmath": True})
    f = njit(fastmath=True)(fit_rows)
    f(np.ones((4, 6)), np.ones(6))
    llvm = f.inspect_llvm(f.signatures[0])
    assert "@mahou.regression" not in llvm.split("define", 2)[1]  # inlined
    # in the caller the row's index is known non-negative: consecutive loads, no gathers
    assert "llvm.masked.gather" not in llvm


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


# ---- a pow() whose exponent becomes a constant once the callee is inlined (a default
# argument) is LLVM's pow intrinsic then, as a written constant is: 1 / x for -1.0, x * x
# for 2.0; the results stay Python's

def crra_py(c, sigma=2.0):
    return (c ** (1 - sigma) - 1) / (1 - sigma)


def squared_py(c, p=2.0):
    return c ** p


crra = njit(crra_py)
squared = njit(squared_py)


def crra_total_py(cs):
    t = 0.0
    for c in cs:
        t += crra_py(c) + squared_py(c)
    return t


def crra_total(cs):
    t = 0.0
    for c in cs:
        t += crra(c) + squared(c)
    return t


def test_pow_with_an_inlined_constant_exponent():
    cs = np.random.default_rng(3).uniform(-10, 10, 2000)
    cs[:4] = [0.5, -7.25, 1e-300, 3.0]
    f = njit(crra_total)
    assert f(cs) == crra_total_py(cs)
    for c in cs[:50]:
        assert crra(c) == crra_py(c) and squared(c) == squared_py(c)
    llvm = f.inspect_llvm(f.signatures[0])
    assert "@pow(" not in llvm and "llvm.pow" not in llvm  # folded to a division and a product


def test_pow_with_a_variable_exponent_is_still_c_pow():
    for c, p in ((2.0 ** 62, -5.04), (3.7, 0.5), (0.3, -1.0), (-2.0, 3.0)):
        assert crra(c, p) == crra_py(c, p)
