"""Integer constants and operands evaluated once.

Integer constant expressions are folded exactly as Python folds them: a constant
that fits int64 is an int64, one from 2**63 to 2**64 - 1 a uint64 (as Numba types
such an int), a larger one is refused with a TypingError naming it (never wrapped).
An integer to a negative constant power is a float, as in Python. divmod() and
chained comparisons evaluate each operand once, also when it calls a function,
allocates, or has effects."""

import numpy as np
import pytest

from conftest import assert_diagnostic, check, jitted, line_of, njit, source_line
from mahou.errors import TypingError


def exact_constants(x):
    return (x + 2**62, -2**63, -9223372036854775808, (-2) ** 63, 2**63 // 2**2, 7 * 3**5 - 1,
            1 << 62, -1 >> 1, ~5, 0xFF & 0x0F | 0x100 ^ 3, (-7) // 2, (-7) % 2, 7 % -2)


def negative_powers(x):
    return 2**-1 + x, 3**-2, (-2) ** -3


def uint64_constants(x):
    return 2**64 - 1, 1 << 63, 0xFFFFFFFFFFFFFFFF, 18446744073709551615 // 3


@pytest.mark.parametrize("x", [0, 5, -3])
def test_constant_expressions_fold_exactly(x):
    check(exact_constants, x)
    check(negative_powers, x)


def test_constants_past_int64_are_uint64():
    got = jitted(uint64_constants)(1)
    assert got == uint64_constants(1)
    assert all(isinstance(v, int) for v in got)


def add_big_power(x):
    return x + 2 ** 100  # marker: power


def add_long_literal(x):
    return x + 1267650600228229401496703205376  # marker: literal


def shifted_past_64_bits(x):
    return x + (1 << 64)  # marker: shift


def product_past_64_bits(x):
    return x * 10**20  # marker: product


def past_int128(x):
    return x + 2**200 - 2**200  # marker: huge


@pytest.mark.parametrize("fn,marker", [(add_big_power, "marker: power"), (add_long_literal, "marker: literal"),
                                       (shifted_past_64_bits, "marker: shift"),
                                       (product_past_64_bits, "marker: product"), (past_int128, "marker: huge")])
def test_constants_past_64_bits_are_refused(fn, marker):
    with pytest.raises(TypingError) as ei:
        njit(fn)(1)
    message = str(ei.value)
    assert "does not fit in 64 bits" in message
    line = line_of(fn, marker)
    assert_diagnostic(message, fn.__code__.co_filename, line, source_line(fn, line))


def test_runtime_arithmetic_still_wraps():
    def f(x):
        return x * 2

    assert njit(f)(2**62) == -(2**63)


def index_with_constant_expression(a):
    return a[2**2 - 1] + a[-(1 << 1)]


def test_constant_expressions_as_indices():
    check(index_with_constant_expression, np.arange(10.0))


# ---------------------------------------------------------------- evaluated once

@njit
def bump(counter, value):
    counter[0] += 1
    counter[int(counter[0])] = value
    return value


def divmod_of_calls(counter, a, b):
    return divmod(bump(counter, a), bump(counter, b))


def divmod_of_allocations(n, d):
    return divmod(np.arange(n).sum(), len(np.zeros(d)) + 1)


def divmod_of_float_calls(counter, a, b):
    q, r = divmod(bump(counter, a), bump(counter, b))
    return q, r, q * b + r


@pytest.mark.parametrize("a,b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5)])
def test_divmod_evaluates_each_operand_once_in_order(a, b):
    counter = np.zeros(4)
    check(divmod_of_calls, counter, a, b)
    got = np.zeros(4)
    jitted(divmod_of_calls)(got, a, b)
    np.testing.assert_array_equal(got, [2, a, b, 0])  # two calls, left first


@pytest.mark.parametrize("a,b", [(7.5, 2.0), (-7.5, 2.0), (7.5, -0.5), (0.0, 3.0)])
def test_divmod_of_float_calls(a, b):
    check(divmod_of_float_calls, np.zeros(4), a, b)


@pytest.mark.parametrize("n,d", [(10, 2), (0, 0), (7, 5)])
def test_divmod_of_allocating_operands(n, d):
    check(divmod_of_allocations, n, d)


def divmod_by_zero_call(counter, a):
    try:
        return divmod(bump(counter, a), bump(counter, 0))
    except ZeroDivisionError:
        return (-1, -1)


def test_divmod_by_a_zero_call_raises_once():
    check(divmod_of_calls_zero := divmod_by_zero_call, np.zeros(4), 5)
    got = np.zeros(4)
    assert jitted(divmod_of_calls_zero)(got, 5) == (-1, -1)
    assert got[0] == 2


def chained_with_call(counter, x):
    return 0 < bump(counter, x) <= 10


def chained_three_calls(counter, a, b, c):
    return bump(counter, a) < bump(counter, b) < bump(counter, c)


def chained_with_allocation(n):
    return 0 <= np.arange(n).sum() < 100 <= n * 50


@pytest.mark.parametrize("x", [-1, 0, 5, 10, 11])
def test_chained_comparison_evaluates_the_middle_once(x):
    check(chained_with_call, np.zeros(4), x)


@pytest.mark.parametrize("a,b,c", [(1, 2, 3), (2, 1, 3), (1, 3, 2), (3, 3, 3)])
def test_chained_comparison_short_circuits_in_order(a, b, c):
    check(chained_three_calls, np.zeros(5), a, b, c)


@pytest.mark.parametrize("n", [0, 3, 14, 15])
def test_chained_comparison_with_allocation(n):
    check(chained_with_allocation, n)


def chain_of_arrays(a):
    return 0 < a < 1


def chain_ending_in_array(a, x):
    return 0 < x < a


def test_chained_comparisons_of_arrays_are_refused():
    from mahou.errors import UnsupportedError

    with pytest.raises(TypingError, match="ambiguous"):
        njit(chain_of_arrays)(np.ones(3))
    with pytest.raises(UnsupportedError, match="chained comparison"):
        njit(chain_ending_in_array)(np.ones(3), 0.5)


def in_with_calls(counter, x):
    return bump(counter, x) in (1, 2, bump(counter, 3))


def not_in_with_calls(counter, x):
    return bump(counter, x) not in (1, 2.5)


@pytest.mark.parametrize("x", [1, 2, 3, 4])
def test_in_evaluates_each_operand_once(x):
    check(in_with_calls, np.zeros(4), x)
    check(not_in_with_calls, np.zeros(4), x)
