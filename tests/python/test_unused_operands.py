"""Operands whose value a use does not need are still evaluated, as Python evaluates them:
a member known from the receiver's type (a.ndim, a.dtype, a.itemsize), isinstance(), a
comparison decided at compile time (dtypes, `x is None`, a tuple against a number) and a
dtype argument all keep the effects of the expression they were given (random draws, a
list appended to, a call) and the exceptions it raises. Each function runs compiled and
interpreted from the same seed; then the next draws and the lists must agree."""

import numpy as np
import pytest

from mahou import njit


@njit
def _seed(s):
    np.random.seed(s)


@njit
def _next_draw():
    return np.random.random()


@njit
def grow(xs):  # called compiled from both runs: the effect under test is the caller's
    xs.append(len(xs))
    return np.ones(len(xs))


@njit
def nothing(xs):
    xs.append(-1)


def dtype_member(xs):
    return np.random.rand(3, 2).dtype == np.float64


def ndim_member(xs):
    return np.random.rand(3, 2).ndim


def itemsize_member(xs):
    return grow(xs).itemsize


def dtype_of_call_compared(xs):
    return grow(xs).dtype != np.random.rand(2).dtype


def dtype_tuple_item(xs):
    return (np.random.rand(2).dtype, grow(xs).dtype)[0] == np.float64


def dtype_is(xs):
    return np.random.rand(2).dtype is np.float64


def isinstance_of_draw(xs):
    return isinstance(np.random.rand(3), np.ndarray) and isinstance(np.random.random(), float)


def isinstance_of_call(xs):
    return isinstance(grow(xs), np.ndarray)


def none_compared(xs):
    return nothing(xs) is None and nothing(xs) == None  # noqa: E711


def tuple_against_number(xs):
    return (np.random.random(), 1) == 3


def dtype_keyword(xs):
    return np.full((2,), 7, dtype=grow(xs).dtype).sum() + np.zeros(1, dtype=np.random.rand(1).dtype).sum()


def astype_argument(xs):
    return np.arange(3).astype(np.random.rand(2).dtype).sum()


def float_imag(xs):
    return np.random.random().imag + float(len(xs))


def nested(xs):
    return (np.random.rand(2).dtype == grow(xs).dtype) + np.random.rand(3).ndim


def receiver_before_dtype_argument(xs):
    # the receiver's draws first, then the argument's (Python's order)
    return np.random.uniform(-1.0, 3.0, 3).astype((np.random.rand(2).dtype, np.int64)[0]).sum()


def receiver_before_arguments(xs):
    return grow(xs).astype(np.random.rand(2).dtype).sum() + len(xs)


CASES = [receiver_before_dtype_argument, receiver_before_arguments, dtype_member, ndim_member, itemsize_member, dtype_of_call_compared, dtype_tuple_item, dtype_is,
         isinstance_of_draw, isinstance_of_call, none_compared, tuple_against_number, dtype_keyword,
         astype_argument, float_imag, nested]


def _interpreted_seed(s):
    np.random.seed(s)


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("seed", [0, 7])
def test_effects_of_unneeded_operands_happen(fn, seed):
    compiled = njit(fn)
    xs_c = [0]
    compiled(list(xs_c))  # compile outside the measured stream
    _seed(seed)
    got = compiled(xs_c)
    got_next = _next_draw()
    xs_p = [0]
    _interpreted_seed(seed)
    want = fn(xs_p)
    want_next = np.random.random()
    assert got == want
    assert xs_c == xs_p
    assert got_next == want_next


def _zero_div_imag(x):
    return (1 // x).imag


def _zero_div_isinstance(x):
    return isinstance(1 // x, int)


def _zero_div_dtype_compare(a, x):
    return (a // x).dtype == np.int64 and (1 // x) is not None


@pytest.mark.parametrize("fn", [_zero_div_imag, _zero_div_isinstance])
def test_exceptions_of_unneeded_operands_are_raised(fn):
    assert njit(fn)(2) == fn(2)
    with pytest.raises(ZeroDivisionError):
        fn(0)
    with pytest.raises(ZeroDivisionError):
        njit(fn)(0)


def test_a_compile_time_comparison_still_raises():
    a = np.arange(3)
    assert njit(_zero_div_dtype_compare)(a, 2) == _zero_div_dtype_compare(a, 2)
    with pytest.raises(ZeroDivisionError):
        njit(_zero_div_dtype_compare)(a, 0)


# Conditions known at compile time after their effects: the branch is still chosen when the
# function is compiled (the dead branch is not typed, so it may hold what would not
# compile) and the effects happen first, in Python's order.

@njit
def tag(xs, v):
    xs.append(v)
    return v


def pruned_if(xs):
    if isinstance(grow(xs), np.ndarray):
        return 1
    return "never typed" + 1  # noqa: the dead branch


def pruned_not(xs):
    if not isinstance(tag(xs, 15) * 0.5, float):
        return "never typed" + 1
    return 2


def pruned_ternary(xs):
    return 3 if np.random.rand(2).dtype == np.float64 else "never typed" + 1


def and_chain(xs):
    n = 0
    if tag(xs, 1) > 0 and isinstance(tag(xs, 2), int) and tag(xs, 3) > 5:
        n += 1
    if tag(xs, 0) > 0 and isinstance(tag(xs, 4), int):  # short-circuit: 4 is never appended
        n += 10
    if isinstance(tag(xs, 5), float) or tag(xs, 6) > 0 or isinstance(tag(xs, 7), int):
        n += 100
    return n


def or_decided_after_runtime_operand(xs):
    return 1 if (tag(xs, 8) > 100 or isinstance(tag(xs, 9), int)) else 2


def none_truth(xs):
    return 1 if nothing(xs) else 2


def tuple_truth(xs):
    if (tag(xs, 10), 1):
        return 1
    return 2


CONDITIONS = [pruned_if, pruned_not, pruned_ternary, and_chain, or_decided_after_runtime_operand, none_truth,
              tuple_truth]


@pytest.mark.parametrize("fn", CONDITIONS, ids=lambda f: f.__name__)
def test_known_conditions_keep_their_effects_and_prune(fn):
    compiled = njit(fn)
    xs_c, xs_p = [0], [0]
    _seed(3)
    got = compiled(xs_c)
    got_next = _next_draw()
    _interpreted_seed(3)
    want = fn(xs_p)
    assert got == want
    assert xs_c == xs_p
    assert got_next == np.random.random()
