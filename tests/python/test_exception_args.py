"""`raise E(...)` with run-time values in compiled code: the Python exception carries
the arguments as Python's would (`e.args == ("bad value", 3)`), for numbers, bools,
strings (f-strings, run-time strings), None and several arguments; raised in a callee,
caught by try/except in compiled code, in prange bodies; each compared with the plain
Python function's exception."""

import gc

import numpy as np
import pytest

import mahou._core
from mahou import njit, prange
from mahou.errors import UnsupportedError


def raised(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001
        return type(e), e.args
    return None


def check_raises(fn, *args, same_types=True):
    expected = raised(fn, *args)
    got = raised(njit(fn), *args)
    assert expected is not None
    assert got == expected, f"{got} != {expected}"
    if same_types:
        assert [type(a) for a in got[1]] == [type(a) for a in expected[1]]


def two_args(x):
    if x > 2:
        raise ValueError("bad value", x)
    return x


def fstring(x):
    raise ValueError(f"bad {x} and {x * 2.5:.2f}")


def runtime_string(s):
    raise KeyError(s + "!")


def several(x, y, s):
    raise IndexError(x, y, s, None, x > y, -x)


def only_number(x):
    raise RuntimeError(x)


def small_ints(a):
    raise ValueError(a[0], a[1])


def constant_global():
    raise ValueError(MESSAGE, 1)


MESSAGE = "the message"


@pytest.mark.parametrize("x", [3, 7, 2**62])
def test_two_arguments(x):
    check_raises(two_args, x)


@pytest.mark.parametrize("x", [0, -3, 10**9])
def test_formatted_messages(x):
    check_raises(fstring, x)
    check_raises(fstring, float(x) / 3)


@pytest.mark.parametrize("s", ["", "key", "ünïcödé ✓", "x" * 100])
def test_runtime_strings(s):
    check_raises(runtime_string, s)


@pytest.mark.parametrize("x,y,s", [(1, 2, "a"), (5, -1.5, ""), (0, 0, "ß")])
def test_several_arguments(x, y, s):
    check_raises(several, x, y, s)


@pytest.mark.parametrize("x", [3, 2.5, True, -1])
def test_single_value(x):
    check_raises(only_number, x)


def test_small_integer_types():
    # NumPy scalars arrive in Python as int and float (as Numba boxes them)
    check_raises(small_ints, np.array([-3, 200], dtype=np.int16), same_types=False)
    check_raises(small_ints, np.array([3, 2**64 - 1], dtype=np.uint64), same_types=False)
    check_raises(small_ints, np.array([1.5, -0.25], dtype=np.float32), same_types=False)
    check_raises(constant_global)


def test_long_strings_are_cut_not_crashed():
    @njit
    def f(n):
        raise ValueError("a" * n, n)

    with pytest.raises(ValueError) as info:
        f(10000)
    args = info.value.args
    assert len(args) == 2
    assert args[0] == "a" * len(args[0]) and 0 < len(args[0]) < 10000
    assert args[1] == 10000  # later arguments keep room


def callee(x):
    if x < 0:
        raise ValueError("negative", x)
    return x * 2


callee_jit = njit(callee)


def caller(x):
    return callee_jit(x) + 1


def catcher(x):
    try:
        callee_jit(x)
    except ValueError:
        return -1
    return 1


def test_raised_in_a_callee_and_caught():
    with pytest.raises(ValueError) as info:
        njit(caller)(-4)
    assert info.value.args == ("negative", -4)
    assert njit(catcher)(-4) == -1
    assert njit(catcher)(4) == 1


def reraise(x):
    try:
        raise ValueError("first", x)
    except ValueError:
        raise


def test_bare_reraise_keeps_the_arguments():
    with pytest.raises(ValueError) as info:
        njit(reraise)(5)
    assert info.value.args == ("first", 5)


def parallel_body(n):
    s = 0
    for i in prange(n):
        if i == 37:
            raise ValueError("bad index", i)
        s += i
    return s


def test_in_a_prange_body():
    f = njit(parallel=True)(parallel_body)
    with pytest.raises(ValueError) as info:
        f(100)
    assert info.value.args == ("bad index", 37)
    assert f(10) == 45


def bad_arg(a):
    raise ValueError("array", a)


def test_unsupported_argument_types():
    with pytest.raises(UnsupportedError, match="exception arguments must be"):
        njit(bad_arg)(np.zeros(2))


def test_no_leaks():
    f = njit(runtime_string)
    g = njit(fstring)
    raised(f, "a")
    raised(g, 1)
    gc.collect()
    before = mahou._core.live_allocations()
    for i in range(200):
        raised(f, str(i))
        raised(g, i)
    gc.collect()
    assert mahou._core.live_allocations() == before


def assert_fstring(x):
    assert x > 0, f"x must be positive, got {x}"
    return x


def assert_value(x):
    assert x != 3, x
    return x


@njit
def _boom(x):
    raise RuntimeError("the message was evaluated", x)


def assert_lazy(x):
    assert x > 0, _boom(x)
    return x


def test_assert_with_runtime_message():
    # (pytest rewrites the asserts of test modules, so the expected args are written out)
    assert raised(njit(assert_fstring), -2) == (AssertionError, ("x must be positive, got -2",))
    assert raised(njit(assert_value), 3) == (AssertionError, (3,))
    assert njit(assert_fstring)(4) == 4
    assert njit(assert_lazy)(5) == 5  # the message is evaluated only when the assertion fails
    with pytest.raises(RuntimeError) as info:
        njit(assert_lazy)(-5)
    assert info.value.args == ("the message was evaluated", -5)
