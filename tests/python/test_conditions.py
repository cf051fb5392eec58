"""Tests of if/while/assert/conditional expressions/comprehension filters: `and`, `or` and
`not` over operands of any type (a list, a string, a dict, an optional, numbers) take
their truth, short-circuit as Python does, and an operand known at compile time decides
without the rest being typed (`if b is not None and b.shape[0] > 1` with b None)."""

import numpy as np
import pytest

from conftest import check, same_as_python
from mahou import njit


def list_and(n, i):
    xs = [k + 1 for k in range(n)]
    if xs and xs[-1] == i:
        return 1
    elif not xs or i < 0:
        return 2
    return 3


def mixed(m, s, nd, x):
    xs = [k for k in range(m)]
    d = {k: k for k in range(nd)}
    n = 0
    while xs and (s or x > 0):
        xs.pop()
        n += 1
    r = 1 if d and not s else 0
    assert xs or not xs
    return n, r, [v for v in range(4) if v and (x or s)]


def pruned(n, b=None):
    if b is not None and b.shape[0] > 1:
        return b.sum() + b.shape[0]
    if b is None or b.ndim == 1:
        return float(n)
    return -1.0


def short_circuits(a):
    calls = [0]

    def bump(v):
        calls[0] += 1
        return v

    t = 0
    if bump(a > 0) or bump(a < -5):
        t += 1
    if bump(a > 0) and bump(a > 10):
        t += 2
    return t, calls[0]


@pytest.mark.parametrize("n,i", [(3, 3), (2, 3), (0, 0), (1, -1)])
def test_list_truth_in_and_or(n, i):
    check(list_and, n, i)


@pytest.mark.parametrize("args", [(3, "a", 1, 1), (2, "", 2, 0), (0, "x", 0, -1), (3, "", 0, 2)])
def test_mixed_operand_types(args):
    check(mixed, *args)


@pytest.mark.parametrize("args", [(3,), (2, np.arange(4.0)), (5, np.ones(1)), (1, np.ones((3, 2)))])
def test_none_checks_prune_the_rest(args):
    check(pruned, *args)


@pytest.mark.parametrize("a", [-7, -1, 3, 20])
def test_short_circuit_order(a):
    check(short_circuits, a)


def decided_after_an_operand(n, k):
    # a constant decides the test, but the operands before it still run (and may raise)
    r = 0
    if k % n < 3 and False:
        r = 1
    while n // k > 100 or True:
        r += 2
        break
    w = 0
    while w < (n % k) and False:
        w += 1
    return r + (1 if (n > 0 and k % n == 0 and False) or w == 0 else 0)


@pytest.mark.parametrize("n, k", [(3, 2), (0, 2), (2, 0), (0, 0), (-4, 7)])
def test_operands_before_a_deciding_constant_still_run(n, k):
    same_as_python(decided_after_an_operand, n, k)
