"""Language features beyond the basics: for over enumerate/zip/tuples, tuple
operations, default/keyword/*args calls, function arguments, builtins (round with
digits, divmod, isinstance, sum/min/max over arrays and tuples), cmath on complex
numbers, and try/except/else/finally. Each compiled result is compared with CPython."""

import cmath

import numpy as np
import pytest

from conftest import check, jitted
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

# --------------------------------------------------------------------------- for loops


def enum_array(a):
    s = 0.0
    for i, x in enumerate(a):
        s += i * x
    return s


def enum_range_start(n, k):
    s = 0
    for i, x in enumerate(range(n, 2 * n, 3), k):
        s += i * 10 + x
    return s


def zip_arrays(a, b):
    s = 0
    for x, y in zip(a, b):
        s += x * y
    return s


def zip_range_array(a):
    s = 0.0
    for j, (i, x) in enumerate(zip(range(10, 0, -2), a)):
        s += j * i + x
    return s


def zip_three(a, b, t):
    s = 0.0
    for x, y, z in zip(a, b, t):
        s = s * 2 + x - y + z
    return s


def iter_tuple(t):
    s = 0
    for x in t:
        s = s * 3 + x
    return s


def iter_empty_tuple(t):
    s = 5
    for x in t:
        s += 1
    else:
        s += 100
    return s


def for_else_break(a, stop):
    found = -1
    for i, x in enumerate(a):
        if x == stop:
            found = i
            break
    else:
        found = -2
    return found


def while_else_break(n, stop):
    i = 0
    r = 0
    while i < n:
        if i == stop:
            r = -i
            break
        i += 1
    else:
        r = 1000
    return r


def enum_2d(a):
    s = 0.0
    for i, row in enumerate(a):
        s += i * row.sum() if False else i * row[0]
    return s


@pytest.mark.parametrize("a", [np.arange(5.0), np.array([]), np.array([-1.5, 2.0])])
def test_enumerate_array(a):
    check(enum_array, a)


@pytest.mark.parametrize("n,k", [(0, 0), (5, 1), (7, -3)])
def test_enumerate_range(n, k):
    check(enum_range_start, n, k)


@pytest.mark.parametrize("a,b", [(np.arange(5), np.arange(3)), (np.arange(3), np.arange(6)), (np.arange(0), np.arange(2))])
def test_zip_shortest(a, b):
    check(zip_arrays, a, b)


@pytest.mark.parametrize("a", [np.arange(3.0), np.arange(9.0), np.zeros(0)])
def test_zip_range_nested(a):
    check(zip_range_array, a)


def test_zip_three():
    check(zip_three, np.arange(4.0), np.arange(6, 0, -1).astype(np.float64), (1.0, 2.0, 3.0, 4.0, 5.0))


@pytest.mark.parametrize("t", [(1, 2, 3), (7,), (-1, 0, 5, 9, 2)])
def test_iterate_tuple(t):
    check(iter_tuple, t)


def test_iterate_empty_tuple():
    check(iter_empty_tuple, ())


@pytest.mark.parametrize("stop", [3.0, 99.0, 0.0])
def test_for_else_break(stop):
    check(for_else_break, np.arange(6.0), stop)


@pytest.mark.parametrize("n,stop", [(5, 3), (5, 7), (0, 0)])
def test_while_else_break(n, stop):
    check(while_else_break, n, stop)


def test_enumerate_2d_rows():
    check(enum_2d, np.arange(12.0).reshape(4, 3))


def test_heterogeneous_tuple_iteration_refused():
    def f(t):
        s = 0.0
        for x in t:
            s += x
        return s

    with pytest.raises(UnsupportedError, match="heterogeneous"):
        njit(f)((1, 2.0))


# --------------------------------------------------------------------------- tuples


def tuple_dynamic_index(t, i):
    return t[i]


def tuple_index_loop(t):
    s = 0
    for i in range(len(t)):
        s += t[i] * (i + 1)
    return s


def tuple_in(x, t):
    return x in t, x not in t


def tuple_concat(a, b):
    return a + b + (1.5,)


def tuple_slices(t):
    return t[1:], t[:-1], t[::2], t[::-1], t[1:3], t[5:], t[-2:]


def tuple_len(t):
    return len(t) + len((1, 2))


@pytest.mark.parametrize("i", [0, 2, -1, -3])
def test_tuple_dynamic_index(i):
    check(tuple_dynamic_index, (10, 20, 30), i)


def test_tuple_dynamic_index_out_of_range():
    with pytest.raises(IndexError):
        jitted(tuple_dynamic_index)((1, 2, 3), 3)
    with pytest.raises(IndexError):
        jitted(tuple_dynamic_index)((1, 2, 3), -4)


def test_tuple_dynamic_index_arrays():
    a, b = np.arange(3.0), np.ones(2)
    check(tuple_dynamic_index, (a, b), 1)


def test_tuple_index_loop():
    check(tuple_index_loop, (4, 5, 6, 7))


@pytest.mark.parametrize("x", [1, 3, 4, 2.0, 2.5])
def test_tuple_in(x):
    check(tuple_in, x, (1, 2, 3))


def test_tuple_in_mixed():
    check(tuple_in, 2.0, (1, 2.0, 3j))


def test_tuple_concat():
    check(tuple_concat, (1, 2), (3.0,))
    check(tuple_concat, (), ())


def test_tuple_concat_arrays():
    a = np.arange(3)
    check(tuple_concat, (a,), (a, 2))


@pytest.mark.parametrize("t", [(1, 2, 3, 4), (1,), (1.0, 2, 3j)])
def test_tuple_slices(t):
    check(tuple_slices, t)


def test_tuple_len():
    check(tuple_len, (1, 2.0, 3))


def test_tuple_variable_index_heterogeneous_refused():
    def f(t, i):
        return t[i]

    with pytest.raises(UnsupportedError, match="heterogeneous"):
        njit(f)((1, 2.0), 0)


def test_tuple_slice_variable_bound_refused():
    def f(t, i):
        return t[i:]

    with pytest.raises(UnsupportedError, match="constant bounds"):
        njit(f)((1, 2), 1)


# --------------------------------------------------------------------------- calls


@njit
def add3(a, b=2, c=3.5):
    return a + b * c


@njit
def total(first, *rest):
    s = first
    for r in rest:
        s += r
    return s + len(rest) * 1000


@njit
def square(x):
    return x * x


@njit
def cube(x):
    return x * x * x


def call_defaults(x):
    return add3(x), add3(x, 1), add3(x, c=1.0), add3(b=4, a=x), add3(x, 2, 3)


def call_varargs(x):
    return total(x), total(x, 1), total(x, 1, 2, 3)


def apply_twice(f, x):
    return f(f(x)) + 1


@pytest.mark.parametrize("x", [1, -2.5])
def test_default_and_keyword_arguments(x):
    check(call_defaults, x)


def test_star_args_from_compiled_code():
    # *args parameters: the extra arguments arrive as one tuple, from compiled code
    # and from Python
    assert jitted(call_varargs)(10) == (10, 1011, 3016)
    assert total(1, 2) == total.py_func(1, 2) == 1003
    assert total(5) == 5 and total(1.5, 2.5, 3.0) == 2007.0


def test_function_as_argument():
    assert jitted(apply_twice)(square, 3) == apply_twice(square, 3)
    assert jitted(apply_twice)(cube, 2) == apply_twice(cube, 2)
    assert jitted(apply_twice)(square, 1.5) == apply_twice(square, 1.5)


def test_keyword_errors():
    def unexpected(x):
        return add3(x, d=1)

    def missing(x):
        return add3(b=x)

    def twice(x):
        return add3(x, a=1)

    with pytest.raises(TypingError, match="unexpected keyword argument 'd'"):
        njit(unexpected)(1)
    with pytest.raises(TypingError, match="missing required argument 'a'"):
        njit(missing)(1)
    with pytest.raises(TypingError, match="multiple values for argument 'a'"):
        njit(twice)(1)


# --------------------------------------------------------------------------- builtins


def round_digits(x):
    return round(x, 0), round(x, 1), round(x, 3), round(x, -1), round(x, -2)


def round_int_digits(n):
    return round(n, 2), round(n, None)


def divmods(a, b):
    return divmod(a, b)


def isinstances(x):
    return (isinstance(x, int), isinstance(x, float), isinstance(x, complex), isinstance(x, bool),
            isinstance(x, (int, float)), isinstance(x, tuple), isinstance(x, np.ndarray))


def sum_min_max(a):
    return sum(a), min(a), max(a)


def tuple_sum_min_max(t):
    return sum(t), min(t), max(t)


@pytest.mark.parametrize("x", [1234.5678, -0.25, 0.125, 2.5, 1e300, -7.0])
def test_round_ndigits(x):
    check(round_digits, x)


@pytest.mark.parametrize("n", [7, -13])
def test_round_int_ndigits(n):
    check(round_int_digits, n)


@pytest.mark.parametrize("a,b", [(7, 3), (-7, 3), (7, -3), (-7.5, 2.0), (7.5, -2.0), (6, 2.5)])
def test_divmod(a, b):
    check(divmods, a, b)


def test_divmod_by_zero():
    with pytest.raises(ZeroDivisionError):
        jitted(divmods)(1, 0)


@pytest.mark.parametrize("x", [1, 1.5, 2j, True, (1, 2), np.arange(2)])
def test_isinstance(x):
    check(isinstances, x)


@pytest.mark.parametrize("a", [np.array([3.0, -1.0, 2.0]), np.arange(5), np.array([7.5])])
def test_sum_min_max_arrays(a):
    check(sum_min_max, a)


def test_min_of_empty_array_raises():
    with pytest.raises(ValueError):
        jitted(sum_min_max)(np.zeros(0))


@pytest.mark.parametrize("t", [(4, 2, 9), (1.5, -2.0, 3.0), (5,)])
def test_sum_min_max_tuples(t):
    check(tuple_sum_min_max, t)


def pow_mod(a, b, m):
    return pow(a, b, m)


POW_MOD_VALUES = [0, 1, 2, 7, -1, -7, 10**9 + 7, -(2**62), 2**63 - 1, -(2**63)]


@pytest.mark.parametrize("m", [1, -1, 7, -7, 13, 10**9 + 7, 2**63 - 1, 2**61 - 1])
def test_pow_with_modulus(m):
    """Python's rules: the result takes the modulus' sign; a negative exponent uses the
    modular inverse (ValueError when there is none)."""
    for a in POW_MOD_VALUES:
        for b in (0, 1, 2, 5, 2**63 - 1, -1, -2, -(2**63)):
            try:
                expected = pow(a, b, m)
            except ValueError:
                with pytest.raises(ValueError, match="not invertible"):
                    jitted(pow_mod)(a, b, m)
                continue
            assert jitted(pow_mod)(a, b, m) == expected, (a, b, m)


def test_pow_with_modulus_errors():
    with pytest.raises(ValueError, match="cannot be 0"):
        jitted(pow_mod)(2, 3, 0)
    with pytest.raises(TypingError, match="not allowed unless all arguments are integers"):
        jitted(pow_mod)(2.0, 3, 5)
    check(pow_mod, True, 3, 5)
    assert jitted(pow_mod)(np.int32(-3), np.uint8(3), np.int16(11)) == pow(-3, 3, 11)


def test_print_tuple_refused():
    def f(a):
        print((a, a))

    with pytest.raises(UnsupportedError, match="not supported"):
        njit(f)(np.arange(3))


def complex_builtin(a, b):
    return complex(a, b), complex(a)


def test_complex_builtin():
    check(complex_builtin, 1.5, -2)


# --------------------------------------------------------------------------- cmath


def cmath_funcs(z):
    return (cmath.sqrt(z), cmath.exp(z), cmath.log(z), abs(z), cmath.phase(z), cmath.polar(z),
            cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z))


def cmath_rect(r, phi):
    return cmath.rect(r, phi)


@pytest.mark.parametrize("z", [1 + 2j, -3 - 0.5j, 0.25j, -4 + 0j, 2.0, 3])
def test_cmath(z):
    check(cmath_funcs, z, rtol=1e-14)


def test_cmath_nan_inf():
    check(cmath_funcs, complex(float("nan"), 1.0), rtol=1e-14)
    got = jitted(cmath_funcs)(complex(float("inf"), 1.0))
    assert got[7] is True or got[7] == True  # noqa: E712
    assert got[8] == False  # noqa: E712


@pytest.mark.parametrize("r,phi", [(2.0, 0.5), (1.0, -3.0), (0.0, 1.0)])
def test_cmath_rect(r, phi):
    check(cmath_rect, r, phi, rtol=1e-14)


# --------------------------------------------------------------------------- strings


def strings(x):
    s = "ab" + "cd"
    if s == "abcd" and len(s) == 4 and s != "x":
        return x + len("hello")
    return -1


def test_strings():
    check(strings, 3)


# --------------------------------------------------------------------------- exceptions


@njit
def may_fail(x):
    if x < 0:
        raise ValueError("negative")
    if x == 0:
        raise ZeroDivisionError("zero")
    if x > 100:
        raise IndexError("big")
    return x * 2


def try_specific(a, b):
    try:
        return a // b
    except ZeroDivisionError:
        return -1


def try_chain(x):
    r = 0
    try:
        r = may_fail(x)
    except ValueError:
        r = -1
    except (IndexError, KeyError):
        r = -2
    except ArithmeticError:
        r = -3
    return r


def try_bare(x):
    try:
        r = may_fail(x)
    except:  # noqa: E722
        r = 7
    return r


def try_exception(x):
    try:
        r = may_fail(x)
    except Exception:
        r = 8
    return r


def try_lookup(x):
    try:
        r = may_fail(x)
    except LookupError:
        r = 9
    return r


def try_else_finally(x):
    r = 0
    try:
        r = may_fail(x)
    except ValueError:
        r += 100
    else:
        r += 10
    finally:
        r += 1000
    return r


def try_finally_propagates(x):
    r = 0
    try:
        try:
            r = may_fail(x)
        finally:
            r += 1
    except ValueError:
        r += 50
    return r


def try_reraise(x):
    r = 0
    try:
        try:
            r = may_fail(x)
        except ValueError:
            r = 5
            raise
    except ValueError:
        r += 20
    return r


def try_in_loop(a):
    s = 0
    for x in a:
        try:
            if x == 3:
                raise KeyError("three")
            s += x
        except KeyError:
            s += 100
            continue
        s += 1
    return s


def try_raise_in_handler(x):
    try:
        may_fail(x)
    except ValueError:
        raise IndexError("converted")
    return 1


def try_array_index(a, i):
    try:
        return a[i]
    except IndexError:
        return -1.0


def try_assert(x):
    try:
        assert x > 0, "positive"
        return 1
    except AssertionError:
        return 2


@pytest.mark.parametrize("b", [2, 0, -3])
def test_try_specific(b):
    check(try_specific, 7, b)


@pytest.mark.parametrize("x", [5, -1, 0, 101])
def test_try_clauses(x):
    check(try_chain, x)
    check(try_bare, x)
    check(try_exception, x)
    check(try_else_finally, x) if x >= 0 and x != 0 and x <= 100 or x < 0 else None


@pytest.mark.parametrize("x", [5, 101])
def test_try_lookup(x):
    check(try_lookup, x)


def test_try_uncaught_propagates():
    with pytest.raises(ValueError, match="negative"):
        jitted(try_lookup)(-1)
    with pytest.raises(ZeroDivisionError):
        jitted(try_else_finally)(0)


@pytest.mark.parametrize("x", [5, -1])
def test_try_else_finally(x):
    check(try_else_finally, x)


@pytest.mark.parametrize("x", [5, -1])
def test_try_finally_propagates(x):
    check(try_finally_propagates, x)


def test_try_finally_uncaught():
    with pytest.raises(IndexError):
        jitted(try_finally_propagates)(1000)


@pytest.mark.parametrize("x", [5, -1])
def test_bare_reraise(x):
    check(try_reraise, x)


def test_try_in_loop_continue():
    check(try_in_loop, np.arange(6))


def test_raise_in_handler():
    assert jitted(try_raise_in_handler)(3) == 1
    with pytest.raises(IndexError, match="converted"):
        jitted(try_raise_in_handler)(-3)


@pytest.mark.parametrize("i", [0, 2, 5])
def test_try_boundscheck(i):
    check(try_array_index, np.arange(3.0), i, jit_options={"boundscheck": True})


@pytest.mark.parametrize("x", [1, -1])
def test_try_assert(x):
    check(try_assert, x)


def test_except_as_refused():
    def f(x):
        try:
            return may_fail(x)
        except ValueError as e:  # noqa: F841
            return 0

    with pytest.raises(UnsupportedError, match="as e"):
        njit(f)(1)


def test_return_in_finally_try_refused():
    def f(x):
        try:
            return x
        finally:
            x += 1

    with pytest.raises(UnsupportedError, match="finally"):
        njit(f)(1)


def test_bare_raise_outside_handler_refused():
    def f(x):
        raise

    with pytest.raises(UnsupportedError, match="bare 'raise'"):
        njit(f)(1)


def test_no_leak_through_handler():
    import mahou

    def f(n):
        s = 0.0
        for i in range(n):
            try:
                a = np.ones(3)
                if i % 2 == 0:
                    raise ValueError("x")
                s += a.sum() if False else a[0]
            except ValueError:
                s += 10
        return s

    check(f, 5)
    before = mahou._core.live_allocations()
    jitted(f)(7)
    assert mahou._core.live_allocations() == before
