"""Errors: typing errors and unsupported syntax (with file:line and a caret),
exceptions raised by compiled code, assert, boundscheck, division by zero, wrong
arity and unsupported argument types. After every error the process keeps working.

PYTEST_DONT_REWRITE: pytest must not rewrite the `assert` statements of this module,
so that the plain-Python versions of the functions below raise exactly the
AssertionError messages written in them (the compiler reads the file itself).
"""

import inspect
import math
import re

import numpy as np
import pytest

from conftest import assert_diagnostic, check, jitted, line_of, source_line
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

FILE = "test_errors.py"


def still_works(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def assert_still_working():
    """Compile and run a new function after an error."""

    def fresh(x, y):
        return x * y - (x + y), x / y

    check(fresh, 6, 4)
    check(fresh, -2.5, 0.5)
    check(still_works, 10)


def reported_lines(message):
    return [int(m) for m in re.findall(re.escape(FILE) + r":(\d+)", message)]


def assert_typing_diagnostic(message, fn, marker):
    """The message names FILE:LINE for one of the lines of fn marked with `marker`,
    shows that line's code and has a caret line."""
    lines, first = inspect.getsourcelines(fn)
    marked = {first + i for i, text in enumerate(lines) if marker in text}
    assert marked, "test bug: no marked lines"
    hits = [ln for ln in reported_lines(message) if ln in marked]
    assert hits, f"none of lines {sorted(marked)} of {FILE} reported in:\n{message}"
    assert_diagnostic(message, FILE, hits[0], source_line(fn, hits[0]))


# ---------------------------------------------------------------------------
# TypingError: one variable, incompatible types
# ---------------------------------------------------------------------------


def int_or_array(n, a):
    if n > 0:
        x = 1  # x-use
    else:
        x = a  # x-use
    return x  # x-use


def int_then_array_in_loop(a):
    x = 0  # x-use
    for i in range(a.shape[0]):
        x = a  # x-use
    return x  # x-use


@pytest.mark.parametrize("fn", [int_or_array, int_then_array_in_loop])
def test_typing_error_int_vs_array(fn):
    f = njit(fn)
    args = (1, np.zeros(3)) if fn is int_or_array else (np.zeros(3),)
    with pytest.raises(TypingError) as ei:
        f(*args)
    assert_typing_diagnostic(str(ei.value), fn, "# x-use")
    # the same call fails again the same way (no half-compiled state)
    with pytest.raises(TypingError):
        f(*args)
    assert_still_working()


def test_typing_error_in_function_defined_inside_test():
    def inner(n, a):
        y = n  # y-use
        if n > 2:
            y = a  # y-use
        return y  # y-use

    f = njit(inner)
    with pytest.raises(TypingError) as ei:
        f(3, np.ones(2))
    msg = str(ei.value)
    # the line number is the line in this file, not in the extracted snippet
    assert_typing_diagnostic(msg, inner, "# y-use")
    assert_still_working()


def test_typing_error_decorated_function():
    @njit
    def branchy(c, a):
        if c:
            z = 2.5  # z-use
        else:
            z = a  # z-use
        return z  # z-use

    with pytest.raises(TypingError) as ei:
        branchy(True, np.zeros((2, 2)))
    assert_typing_diagnostic(str(ei.value), branchy.py_func, "# z-use")
    assert_still_working()


# ---------------------------------------------------------------------------
# UnsupportedError: syntax outside the supported subset
# ---------------------------------------------------------------------------


def uses_with(n):
    s = 0
    with open("/dev/null") as fh:  # unsupported
        s = n
    return s


def uses_class(n):
    class Point:  # unsupported
        pass

    return n


def uses_yield(n):
    yield from range(n)  # unsupported (plain yield is supported: test_generators.py)


UNSUPPORTED = [uses_with, uses_class, uses_yield]


@pytest.mark.parametrize("fn", UNSUPPORTED, ids=lambda f: f.__name__)
def test_unsupported_syntax(fn):
    with pytest.raises(UnsupportedError) as ei:
        f = njit(fn)
        f(3)
    msg = str(ei.value)
    line = line_of(fn, "# unsupported")
    assert f"{FILE}:{line}" in msg, f"{FILE}:{line} not in:\n{msg}"
    assert_still_working()


def test_unsupported_inside_test_function():
    def local_global(n):
        total = 0
        global ys
        ys = total  # unsupported
        return total

    with pytest.raises(UnsupportedError) as ei:
        njit(local_global)(4)
    line = line_of(local_global, "# unsupported")
    assert f"{FILE}:{line}" in str(ei.value)
    assert_still_working()


# ---------------------------------------------------------------------------
# raise / assert in compiled code
# ---------------------------------------------------------------------------


def raise_value_error(x):
    if x < 0:
        raise ValueError("negative input")
    return x * 2


def raise_type_error(x):
    if x < 0:
        raise TypeError("bad type here")
    return x * 2


def raise_index_error(x):
    if x < 0:
        raise IndexError("index gone")
    return x * 2


def raise_key_error(x):
    if x < 0:
        raise KeyError("no such key")
    return x * 2


def raise_runtime_error(x):
    if x < 0:
        raise RuntimeError("runtime trouble")
    return x * 2


def raise_zero_division_error(x):
    if x < 0:
        raise ZeroDivisionError("custom zero division")
    return x * 2


def raise_assertion_error(x):
    if x < 0:
        raise AssertionError("explicit assertion")
    return x * 2


def raise_not_implemented_error(x):
    if x < 0:
        raise NotImplementedError("not done yet")
    return x * 2


RAISERS = [
    (raise_value_error, ValueError, "negative input"),
    (raise_type_error, TypeError, "bad type here"),
    (raise_index_error, IndexError, "index gone"),
    (raise_key_error, KeyError, "no such key"),
    (raise_runtime_error, RuntimeError, "runtime trouble"),
    (raise_zero_division_error, ZeroDivisionError, "custom zero division"),
    (raise_assertion_error, AssertionError, "explicit assertion"),
    (raise_not_implemented_error, NotImplementedError, "not done yet"),
]


@pytest.mark.parametrize("fn,cls,msg", RAISERS, ids=lambda v: getattr(v, "__name__", None))
def test_raise_builtin_exception(fn, cls, msg):
    f = jitted(fn)
    assert f(5) == 10
    with pytest.raises(cls) as ei:
        f(-1)
    assert type(ei.value) is cls
    assert ei.value.args == (msg,)
    # the function still works after raising, with a float argument too
    assert f(3) == 6
    assert f(1.5) == 3.0
    with pytest.raises(cls):
        f(-0.5)
    assert_still_working()


def find_or_raise(a, v):
    for i in range(a.shape[0]):
        if a[i] == v:
            return i
    raise KeyError("value not found")


def test_raise_after_loop():
    f = jitted(find_or_raise)
    a = np.array([4.0, 8.0, 15.0, 16.0])
    assert f(a, 15.0) == 2
    with pytest.raises(KeyError) as ei:
        f(a, 23.0)
    assert ei.value.args == ("value not found",)
    assert f(a, 4.0) == 0


def raise_in_nested_loop(n):
    total = 0
    for i in range(n):
        for j in range(n):
            if i * j > 20:
                raise ValueError("product too large")
            total += i * j
    return total


def test_raise_in_nested_loop():
    f = jitted(raise_in_nested_loop)
    assert f(4) == raise_in_nested_loop(4)
    with pytest.raises(ValueError, match="product too large"):
        f(10)


@njit
def raise_from_callee_helper(x):
    if x > 100:
        raise RuntimeError("too big")
    return x + 1


def calls_raiser(x):
    return raise_from_callee_helper(x) * 2


def test_raise_propagates_through_compiled_call():
    f = jitted(calls_raiser)
    assert f(1) == 4
    with pytest.raises(RuntimeError, match="too big"):
        f(1000)
    assert f(2) == 6


def checked_sqrt(x):
    assert x >= 0, "x must be non-negative"
    return math.sqrt(x)


def plain_assert(x):
    assert x != 3
    return x


def test_assert_with_message():
    f = jitted(checked_sqrt)
    assert f(4.0) == 2.0
    with pytest.raises(AssertionError) as ei:
        f(-1.0)
    assert ei.value.args == ("x must be non-negative",)
    assert f(9.0) == 3.0


def test_assert_without_message():
    f = jitted(plain_assert)
    assert f(2) == 2
    with pytest.raises(AssertionError):
        f(3)
    assert f(4) == 4


# ---------------------------------------------------------------------------
# boundscheck=True
# ---------------------------------------------------------------------------


def get1(a, i):
    return a[i]


def get2(a, i, j):
    return a[i, j]


def put1(a, i, v):
    a[i] = v


BC = {"boundscheck": True}


@pytest.mark.parametrize("i", [0, 4, -1, -5, 2])
def test_boundscheck_in_range(i):
    check(get1, np.arange(5.0), i, jit_options=BC)
    check(put1, np.arange(5), i, 77, jit_options=BC)


@pytest.mark.parametrize("i", [5, 6, 100, -6, -100])
def test_boundscheck_out_of_range_read(i):
    f = jitted(get1, **BC)
    with pytest.raises(IndexError):
        f(np.arange(5.0), i)
    assert f(np.arange(5.0), 1) == 1.0


@pytest.mark.parametrize("i", [5, -6])
def test_boundscheck_out_of_range_write(i):
    f = jitted(put1, **BC)
    a = np.arange(5)
    with pytest.raises(IndexError):
        f(a, i, 1)
    np.testing.assert_array_equal(a, np.arange(5))


@pytest.mark.parametrize("i,j", [(3, 0), (0, 4), (-4, 0), (0, -5), (10, 10)])
def test_boundscheck_2d(i, j):
    f = jitted(get2, **BC)
    a = np.arange(12.0).reshape(3, 4)
    with pytest.raises(IndexError):
        f(a, i, j)
    assert f(a, 2, 3) == 11.0
    assert f(a, -1, -4) == 8.0


def test_boundscheck_view():
    f = jitted(get1, **BC)
    v = np.arange(10.0)[::3]  # 4 elements
    assert f(v, 3) == 9.0
    with pytest.raises(IndexError):
        f(v, 4)


def test_boundscheck_empty():
    f = jitted(get1, **BC)
    with pytest.raises(IndexError):
        f(np.zeros(0), 0)


def sum_with_off_by_one(a):
    s = 0.0
    for i in range(a.shape[0] + 1):
        s += a[i]
    return s


def test_boundscheck_in_loop_then_still_working():
    f = jitted(sum_with_off_by_one, **BC)
    with pytest.raises(IndexError):
        f(np.ones(4))
    assert_still_working()


# ---------------------------------------------------------------------------
# Division by zero
# ---------------------------------------------------------------------------


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def truediv(a, b):
    return a / b


@pytest.mark.parametrize(
    "fn,a,b",
    [
        (floordiv, 7, 0),
        (mod, 7, 0),
        (truediv, 7, 0),
        (floordiv, -7, 0),
        (mod, 0, 0),
        (truediv, 7.0, 0.0),
        (truediv, 0.0, 0.0),
        (truediv, 1.0, -0.0),
        (floordiv, 7.0, 0.0),
        (mod, 7.0, 0.0),
        (truediv, 7, 0.0),
        (truediv, 7.0, 0),
    ],
)
def test_zero_division_python_scalars(fn, a, b):
    f = jitted(fn)
    with pytest.raises(ZeroDivisionError):
        f(a, b)
    check(fn, a, 2 if isinstance(b, int) else 2.0)


@pytest.mark.parametrize(
    "fn,a,b",
    [
        (floordiv, np.int64(7), np.int64(0)),
        (mod, np.int32(7), np.int32(0)),
        (truediv, np.int64(7), np.int64(0)),
        (truediv, np.float64(7.0), np.float64(0.0)),
        (floordiv, np.float32(7.0), np.float32(0.0)),
        (mod, np.float64(1.0), np.float64(0.0)),
    ],
)
def test_zero_division_numpy_scalars(fn, a, b):
    # compiled code follows Python's rules for scalars, not NumPy's (inf/0 + warning)
    f = jitted(fn)
    with pytest.raises(ZeroDivisionError):
        f(a, b)


def divide_arrays(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] / b[i]
    return s


def test_zero_division_in_array_loop():
    f = jitted(divide_arrays)
    assert f(np.array([1.0, 2.0]), np.array([2.0, 4.0])) == 1.0
    with pytest.raises(ZeroDivisionError):
        f(np.array([1.0, 2.0]), np.array([2.0, 0.0]))
    assert_still_working()


# ---------------------------------------------------------------------------
# Wrong arity, unsupported argument types
# ---------------------------------------------------------------------------


def two_args(a, b):
    return a + b


def first_elem(a):
    return a[0]


def test_wrong_arity():
    f = njit(two_args)
    with pytest.raises(TypeError):
        f(1)
    with pytest.raises(TypeError):
        f(1, 2, 3)
    with pytest.raises(TypeError):
        f()
    assert f(1, 2) == 3
    with pytest.raises(TypeError):
        f(1)
    assert f(1.5, 2) == 3.5


@pytest.mark.parametrize("bad", [memoryview(np.zeros(2, ">f8")), {0: 1}, (x for x in [1.0])],
                         ids=["big_endian_memoryview", "dict", "generator"])
def test_unsupported_argument_type(bad):
    f = njit(first_elem)
    with pytest.raises(TypeError):
        f(bad)
    assert f(np.array([7, 8])) == 7
    assert_still_working()


def test_many_errors_then_working():
    for _ in range(5):
        with pytest.raises(TypingError):
            njit(int_or_array)(1, np.zeros(2))
        with pytest.raises(UnsupportedError):
            njit(uses_class)(1)
        with pytest.raises(ValueError):
            jitted(raise_value_error)(-3)
        with pytest.raises(ZeroDivisionError):
            jitted(floordiv)(1, 0)
    assert_still_working()
