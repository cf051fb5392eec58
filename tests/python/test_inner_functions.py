"""Inner functions and closures in @njit: nested defs and lambdas assigned to a name,
called directly (Numba inlines them the same way), checked against CPython."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import assert_diagnostic, check, jitted, line_of

from mahou.errors import TypingError, UnsupportedError


def square_twice(x):
    def sq(y):
        return y * y
    return sq(x) + sq(2)


def defaults_and_keywords(a, k):
    def scale(v, factor=2.0):
        return v * factor + k
    s = 0.0
    for i in range(a.size):
        s += scale(a[i]) + scale(a[i], factor=k) + scale(factor=1.0, v=a[i])
    return s


def lambda_sees_current_values(n):
    total = 0
    add = lambda x, y=1: x + y + total  # noqa: E731
    for i in range(n):
        total = add(i)
    return total


def recursive_inner(n):
    def fact(k):
        if k <= 1:
            return 1
        return k * fact(k - 1)
    return fact(n)


def nested_two_levels(x):
    def outer(y):
        def innermost(z):
            return z + x
        return innermost(y) * 2
    return outer(x + 1)


def siblings_call_each_other(x):
    def a(y):
        return y + x
    def b(y):
        return a(y) * 3
    return b(1) + a(2)


def typed_per_call(x):
    def twice(v):
        return v + v
    return twice(x), twice(1.5), twice(np.int32(3))


def array_closure(a, lo, hi):
    def clip_one(v):
        return min(max(v, lo), hi)
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = clip_one(a[i])
    return out


def inner_returns_tuple(x):
    def split(v):
        return v // 3, v % 3
    q, r = split(x)
    return q * 10 + r


def defined_in_branch(flag, x):
    if flag:
        def pick(v):
            return v + 1
    else:
        def other(v):
            return v - 1
        return other(x)
    return pick(x)


def closure_over_array(a):
    def total():
        s = 0.0
        for v in a:
            s += v
        return s
    a[0] = 10.0
    return total()


def test_inner_function_basics():
    for x in (3, -4, 0, 2.5):
        check(square_twice, x)
    check(recursive_inner, 10)
    check(recursive_inner, 0)
    for x in (2, -7):
        check(nested_two_levels, x)
        check(siblings_call_each_other, x)
        check(inner_returns_tuple, x)


def test_defaults_keywords_and_captured_arguments():
    for a in (np.arange(5.0), np.zeros(0), np.linspace(-1, 1, 7)[::2]):
        check(defaults_and_keywords, a, 3.0)


def test_lambda_reads_captured_variable_at_call_time():
    for n in (0, 1, 5):
        check(lambda_sees_current_values, n)


def test_one_inner_function_typed_per_argument_types():
    check(typed_per_call, 4)
    check(typed_per_call, 4.5)


def test_closures_over_arrays():
    check(array_closure, np.array([-5, 0, 3, 9]), -1, 4)
    check(array_closure, np.array([-2.5, 0.5, 7.0]), -1.0, 4.0)
    check(closure_over_array, np.arange(4.0))


def test_inner_function_defined_in_a_branch():
    check(defined_in_branch, True, 5)
    check(defined_in_branch, False, 5)


def used_as_value(x):
    def g(y):
        return y
    h = g  # MARK-value
    return h(x)


def lambda_in_expression(x):
    return (lambda y: y + 1)(x)  # MARK-lambda


def defined_twice(x):
    def g(y):
        return y
    def g(y):  # MARK-twice  # noqa: F811
        return y + 1
    return g(x)


def wrong_arguments(x):
    def g(y, z):
        return y + z
    return g(x)  # MARK-args


def nonlocal_write(x):
    count = 0
    def bump():
        nonlocal count  # written back to the enclosing variable (test_global_nonlocal.py)
        count += 1
    bump()
    return count


@pytest.mark.parametrize("fn, marker, exc, text", [
    (defined_twice, "MARK-twice", UnsupportedError, "defined more than once"),
    (wrong_arguments, "MARK-args", TypingError, "missing required argument 'z'"),
])
def test_refused_with_the_line(fn, marker, exc, text):
    with pytest.raises(exc) as info:
        jitted(fn)(1)
    msg = str(info.value)
    assert text in msg
    assert_diagnostic(msg, __file__, line_of(fn, marker), "")


def test_nonlocal_write():
    check(nonlocal_write, 1)


def test_used_as_values():
    """Held in a variable, or a lambda called where it is written (test_inner_function_values.py)."""
    check(used_as_value, 3)
    check(lambda_in_expression, 3)


def test_inner_functions_in_cached_functions(tmp_path):
    """cache=True: the inner functions are part of the cached object code."""
    mod = tmp_path / "inner_cached.py"
    mod.write_text(textwrap.dedent('''
        import mahou

        @mahou.njit(cache=True)
        def f(x):
            def g(y):
                return y * 3 + x
            h = lambda z: g(z) - 1
            return h(x) + g(2)

        print(f(5), f.stats["cache_hits"] if hasattr(f, "stats") and "cache_hits" in f.stats else "")
    '''))
    env = {"MAHOU_CACHE_DIR": str(tmp_path / "cache")}
    import os
    env = {**os.environ, **env}
    first = subprocess.run([sys.executable, str(mod)], capture_output=True, text=True, env=env)
    second = subprocess.run([sys.executable, str(mod)], capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    assert first.stdout.split()[0] == second.stdout.split()[0] == str(5 * 3 + 5 - 1 + 2 * 3 + 5)


G = np.array([1.0, 2.0, 3.0])


def defined_in_a_loop(n):
    out = 0.0
    for i in range(n):
        def add(x):
            return x + i + G[i % 3]
        out = add(out)
    return out


def default_from_enclosing(x):
    scale = 3
    def f(y, z=scale):
        return y * z
    return f(x), f(x, 1)


def arrays_of_several_layouts(a):
    def g(arr):
        return arr.sum() + arr.shape[0]
    return g(a) + g(a[::2])


def reads_value_at_call_time(x):
    def inner():
        return x
    x = x + 1
    return inner()


def test_more_closure_cases():
    for n in (0, 1, 5):
        check(defined_in_a_loop, n)
    check(default_from_enclosing, 4)
    check(arrays_of_several_layouts, np.arange(6.0))
    check(arrays_of_several_layouts, np.arange(7, dtype=np.int32))
    check(reads_value_at_call_time, 1)
