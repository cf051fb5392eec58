"""Control flow: if/elif/else, for over range (1/2/3 args), while, break/continue,
for-else / while-else, pass, early returns, variables first assigned in loops."""

import numpy as np
import pytest

from conftest import check, jitted
from mahou import njit

# ---------------------------------------------------------------------------
# if / elif / else
# ---------------------------------------------------------------------------


def classify(x):
    if x < 0:
        r = -1
    elif x == 0:
        r = 0
    elif x < 10:
        r = 1
    elif x < 100:
        r = 2
    else:
        r = 3
    return r


@pytest.mark.parametrize("x", [-5, -1, 0, 1, 9, 10, 99, 100, 10**12])
def test_if_elif_else_int(x):
    check(classify, x)


@pytest.mark.parametrize("x", [-0.5, 0.0, 9.99, 10.0, 1e9])
def test_if_elif_else_float(x):
    check(classify, x)


def if_no_else(x):
    y = x
    if x > 5:
        y = x * 2
    if x > 50:
        y = y + 1
    return y


@pytest.mark.parametrize("x", [0, 6, 51, -100])
def test_if_without_else(x):
    check(if_no_else, x)


def nested_if(a, b):
    if a > 0:
        if b > 0:
            return 1
        else:
            if b == 0:
                return 2
            return 3
    else:
        if b > 0:
            return 4
    return 5


@pytest.mark.parametrize("a,b", [(1, 1), (1, 0), (1, -1), (0, 1), (0, 0), (-1, -1)])
def test_nested_if_returns(a, b):
    check(nested_if, a, b)


def if_on_float_truthiness(x):
    if x:
        return 1
    return 0


@pytest.mark.parametrize("x", [0.0, -0.0, 0.5, float("nan")])
def test_if_float_truthiness(x):
    check(if_on_float_truthiness, x)


# ---------------------------------------------------------------------------
# for over range
# ---------------------------------------------------------------------------


def range1(n):
    total = 0
    count = 0
    last = -999
    for i in range(n):
        total += i * i
        count += 1
        last = i
    return total, count, last


@pytest.mark.parametrize("n", [0, 1, 2, 10, 1000, -1, -10])
def test_range_one_arg(n):
    check(range1, n)


def range2(a, b):
    total = 0
    count = 0
    last = -999
    for i in range(a, b):
        total += i
        count += 1
        last = i
    return total, count, last


@pytest.mark.parametrize("a,b", [(0, 10), (3, 7), (5, 5), (7, 3), (-10, -2), (-3, 3), (-2, -10)])
def test_range_two_args(a, b):
    check(range2, a, b)


def range3(a, b, s):
    total = 0
    count = 0
    last = -999
    for i in range(a, b, s):
        total += i
        count += 1
        last = i
    return total, count, last


@pytest.mark.parametrize(
    "a,b,s",
    [
        (0, 10, 3),
        (0, 10, 1),
        (0, 9, 3),
        (10, 0, -3),
        (10, 0, -1),
        (10, -10, -7),
        (-10, -2, 2),
        (5, 5, 1),
        (5, 5, -1),
        (0, 10, -1),  # empty
        (10, 0, 1),  # empty
        (0, 1, 100),
        (100, 0, -100),
        (-1, -20, -4),
    ],
)
def test_range_three_args(a, b, s):
    check(range3, a, b, s)


def range_literal_steps():
    a = 0
    for i in range(10, 0, -2):
        a = a * 10 + i
    b = 0
    for i in range(-5, 5, 3):
        b = b * 7 + i
    c = 0
    for i in range(3, 3):
        c += 1
    return a, b, c


def test_range_literal_steps():
    check(range_literal_steps)


def loop_var_reassigned(n):
    # assigning to the loop variable does not change the iteration
    total = 0
    for i in range(n):
        total += i
        i = 100
        total += i
    return total


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loop_var_reassigned(n):
    check(loop_var_reassigned, n)


def range_bound_evaluated_once(n):
    count = 0
    for i in range(n):
        n = n - 1
        count += 1
    return count, n


@pytest.mark.parametrize("n", [0, 3, 10])
def test_range_bound_evaluated_once(n):
    check(range_bound_evaluated_once, n)


def float_accumulate(n, step):
    x = 0.0
    for i in range(n):
        x += step
        x = x * 1.0001
    return x


@pytest.mark.parametrize("n,step", [(0, 0.1), (10, 0.1), (1000, 0.001), (7, -2.5)])
def test_float_accumulate_exact(n, step):
    check(float_accumulate, n, step)


# ---------------------------------------------------------------------------
# while
# ---------------------------------------------------------------------------


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@pytest.mark.parametrize("n", [1, 2, 3, 7, 27, 97, 871])
def test_while_collatz(n):
    check(collatz_steps, n)


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


@pytest.mark.parametrize("a,b", [(12, 18), (17, 5), (0, 9), (9, 0), (2**40, 2**20 * 3), (-12, 18)])
def test_while_gcd(a, b):
    check(gcd, a, b)


def while_never_runs(n):
    x = 5
    while n > 100:
        x += 1
        n -= 1
    return x


def test_while_never_runs():
    check(while_never_runs, 0)
    check(while_never_runs, 103)


def newton_sqrt(x):
    g = x
    it = 0
    while abs(g * g - x) > 1e-12 * x and it < 100:
        g = 0.5 * (g + x / g)
        it += 1
    return g, it


@pytest.mark.parametrize("x", [2.0, 10.0, 1e6, 0.25])
def test_while_float_condition(x):
    check(newton_sqrt, x)


# ---------------------------------------------------------------------------
# break / continue (nested)
# ---------------------------------------------------------------------------


def find_pair(target, n):
    fi = -1
    fj = -1
    for i in range(n):
        found = False
        for j in range(n):
            if i * j == target:
                fi = i
                fj = j
                found = True
                break
        if found:
            break
    return fi, fj


@pytest.mark.parametrize("target,n", [(12, 10), (0, 5), (49, 7), (49, 8), (1, 1), (7, 0)])
def test_nested_break(target, n):
    check(find_pair, target, n)


def skip_odds(n):
    total = 0
    for i in range(n):
        if i % 2 == 1:
            continue
        for j in range(i):
            if j % 3 == 0:
                continue
            if j > 7:
                break
            total += i * j
    return total


@pytest.mark.parametrize("n", [0, 1, 5, 20, 50])
def test_nested_continue_break(n):
    check(skip_odds, n)


def while_break_continue(n):
    i = 0
    acc = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 3 == 0:
            continue
        acc += i
    return acc, i


@pytest.mark.parametrize("n", [0, 1, 10, 100])
def test_while_true_break_continue(n):
    check(while_break_continue, n)


# ---------------------------------------------------------------------------
# for-else / while-else
# ---------------------------------------------------------------------------


def is_prime(n):
    if n < 2:
        return False
    for d in range(2, n):
        if d * d > n:
            break
        if n % d == 0:
            return False
    return True


def for_else(n, stop_at):
    r = 0
    for i in range(n):
        if i == stop_at:
            r = 100 + i
            break
    else:
        r = -1
    return r


@pytest.mark.parametrize("n,stop_at", [(10, 3), (10, 10), (0, 0), (5, -1), (1, 0)])
def test_for_else(n, stop_at):
    check(for_else, n, stop_at)


def for_else_primes(n):
    count = 0
    for k in range(2, n):
        for d in range(2, k):
            if k % d == 0:
                break
        else:
            count += 1
    return count


@pytest.mark.parametrize("n", [0, 2, 3, 10, 100])
def test_for_else_primes(n):
    check(for_else_primes, n)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 17, 91, 97, 7919])
def test_is_prime(n):
    check(is_prime, n)


def while_else(n, stop_at):
    i = 0
    r = 0
    while i < n:
        if i == stop_at:
            r = 1
            break
        i += 1
    else:
        r = 2
    return r, i


@pytest.mark.parametrize("n,stop_at", [(5, 2), (5, 7), (0, 0), (3, 0)])
def test_while_else(n, stop_at):
    check(while_else, n, stop_at)


# ---------------------------------------------------------------------------
# pass, early returns in loops, variables first assigned in loops
# ---------------------------------------------------------------------------


def with_pass(n):
    total = 0
    for i in range(n):
        if i % 2:
            pass
        else:
            total += i
    if n > 3:
        pass
    while False:
        pass
    return total


@pytest.mark.parametrize("n", [0, 5, 10])
def test_pass(n):
    check(with_pass, n)


def first_divisor(n):
    for d in range(2, n):
        if n % d == 0:
            return d
    return n


@pytest.mark.parametrize("n", [2, 9, 15, 49, 97, 1000003])
def test_early_return_in_loop(n):
    check(first_divisor, n)


def early_return_nested(n):
    i = 0
    while i < n:
        for j in range(i):
            if i * j > 50:
                return i, j
        i += 1
    return -1, -1


@pytest.mark.parametrize("n", [0, 5, 20])
def test_early_return_nested(n):
    check(early_return_nested, n)


def first_assigned_in_loop(n):
    for i in range(n):
        sq = i * i
        half = sq / 2
    return sq, half


@pytest.mark.parametrize("n", [1, 2, 10])
def test_variable_first_assigned_in_loop(n):
    check(first_assigned_in_loop, n)


def first_assigned_in_branch(x):
    if x > 0:
        y = x * 3
    else:
        y = -x
    return y


@pytest.mark.parametrize("x", [5, -5, 0])
def test_variable_first_assigned_in_branch(x):
    check(first_assigned_in_branch, x)


def loop_carried_swap(n):
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
    return a


@pytest.mark.parametrize("n", [0, 1, 2, 10, 50, 90, 100])
def test_loop_carried_swap(n):
    check(loop_carried_swap, n)


def test_defined_inside_test_function():
    def count_down(n):
        out = 0
        while n > 0:
            out = out * 10 + n % 10
            n = n // 10
        return out

    for n in [0, 7, 1234, 100200]:
        check(count_down, n)


def test_decorated_inside_test_function():
    @njit
    def steps(n):
        k = 0
        for i in range(n, 0, -1):
            if i % 5 == 0:
                continue
            k += i
        return k

    assert steps(0) == 0
    assert steps(10) == sum(i for i in range(10, 0, -1) if i % 5)
    assert steps(23) == sum(i for i in range(23, 0, -1) if i % 5)


def loop_over_array_index(a):
    best = a[0]
    best_i = 0
    for i in range(1, a.shape[0]):
        if a[i] > best:
            best = a[i]
            best_i = i
    return best, best_i


@pytest.mark.parametrize("a", [np.array([3.0, 1.0, 7.5, 7.5, -2.0]), np.array([5, 4, 3]), np.array([-1])])
def test_argmax_loop(a):
    check(loop_over_array_index, a)


def test_same_function_many_signatures():
    f = jitted(range3)
    assert f(0, 10, 3) == (18, 4, 9)
    assert f(10, 0, -3) == (22, 4, 1)
    assert f(0, 0, 1) == (0, 0, -999)
