"""A variable re-bound to a value of another type (variable versions, as Numba's SSA):
assignments that never reach a common read are typed apart; where they meet (after an
if/else, around a loop, in an except handler) their types are unified, or the program is
refused with a message naming the variable, both types and the read where they meet.
Each function is compiled and run as Python on the same inputs."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from conftest import assert_diagnostic, assert_no_leaks, check, jitted, line_of
from mahou import float64, literal_unroll, njit, prange
from mahou.errors import TypingError


def straight_line(n):
    x = n
    a = x + 1
    x = n * 0.5
    b = x * 3
    x = np.arange(n)
    c = x.sum()
    x = [n, n + 1]
    x.append(7)
    d = len(x) + x[-1]
    x = "abc" * n
    return a, b, c, d, x


def array_dtypes(n):
    x = np.zeros(n)
    s = x.sum() + 1.5
    x = np.zeros(n, dtype=np.int64) + 3
    return s, x


def branches_never_meet(c, n):
    if c:
        x = np.arange(n)
        r = x.sum()
    else:
        x = "s" * n
        r = len(x)
    return r


def loop_versions_meet(n):
    x = 0
    for i in range(n):
        if i % 2:
            x = x + 1.5
        else:
            x = x + 1
    return x


def loop_head_reads_body_definition(n):
    acc = 0.5
    for i in range(n):
        t = acc * 2  # reads the value from before the loop and from the last iteration
        acc = t + 0.25
    acc = [acc]  # a new version after the loop
    return acc


def rebinding_a_parameter(a):
    a = np.full(3, a)
    a = a * 2
    s = a.sum()
    a = str(s > 10)
    return s, a


def for_targets(a):
    s = 0
    for v in range(3):
        s += v
    t = 0.0
    for v in a:
        t += v
    for v in ["a", "bc"]:
        s += len(v)
    return s, t


def while_break_continue(n):
    x = 0
    i = 0
    while i < n:
        i += 1
        if i == 3:
            continue
        x = x + i
        if x > 20:
            break
    r = x
    x = "done"
    return r, x


def try_except(a, i):
    y = 0.0
    try:
        x = a[i]
        y = x * 2.0
    except IndexError:
        y = -1.0
    x = "after"
    return y, x


def try_finally_rebinds(n):
    s = 0
    for i in range(n):
        try:
            s = s + i
            if i == 2:
                raise ValueError
        except ValueError:
            s = s * 10
        finally:
            s = s + 1
    r = s
    s = "end"
    return r, s


def comprehension_shadows(n):
    x = np.arange(n)
    y = [x * 2 for x in range(n)]
    z = x.sum()
    x = "s"
    return y, z, x


def closure_reads_other_variable(n):
    k = 3
    def g(y):
        return y * k
    x = g(n)
    x = np.arange(x)
    return x.sum()


def augmented(n):
    x = np.arange(n)
    x += 1
    s = x.sum()
    x = 2.5
    x += 1
    return s, x


def unrolled(n):
    t = 0
    for v in literal_unroll((1, 2.5, n)):
        t += v
    t = str(t > 0)
    return t


def optional_then_value(flag):
    x = None
    if flag:
        r = 1
    else:
        r = 2
    x = np.ones(r)
    return x


def test_straight_line_rebinding_across_types():
    for n in (0, 1, 3):
        check(straight_line, n)
    check(array_dtypes, 4)


def test_branches_that_never_meet():
    for c in (True, False):
        check(branches_never_meet, c, 4)


def test_versions_meeting_in_a_loop_are_unified():
    for n in (0, 1, 5):
        r = jitted(loop_versions_meet)(n)
        assert isinstance(r, float) and r == loop_versions_meet(n)  # int ∪ float = float, as Numba
    for n in (0, 1, 4):
        check(loop_head_reads_body_definition, n)


def test_parameters_loops_and_handlers():
    check(rebinding_a_parameter, 2)
    check(rebinding_a_parameter, 1.5)
    check(for_targets, np.array([0.5, 1.5]))
    for n in (0, 2, 5, 30):
        check(while_break_continue, n)
    for i in (0, 1, 5):
        check(try_except, [1.5, 2.5], i)
    for n in (0, 2, 5):
        check(try_finally_rebinds, n)


def test_scopes_augmented_assignment_and_unrolling():
    for n in (0, 3):
        check(comprehension_shadows, n)
    check(closure_reads_other_variable, 3)
    check(augmented, 4)
    check(unrolled, 2)
    check(optional_then_value, True)
    check(optional_then_value, False)


def test_prange_body_with_rebound_variables():
    def f(a):
        x = a.copy()
        s = 0.0
        for i in prange(a.shape[0]):
            t = a[i] * 2
            t = t + 1  # a version inside the body (private)
            s += t
        x = s + x.sum()
        return x

    a = np.arange(100.0)
    assert jitted(f, parallel=True)(a) == f(a)


def test_locals_declares_every_version():
    def f(n):
        x = n
        y = x + 1
        x = n * 2
        return x, y

    got = njit(locals={"x": float64})(f)(3)
    assert got == (6.0, 4.0) and isinstance(got[0], float)


def join_refused(c):
    if c:
        x = 1
    else:
        x = "one"  # MARK-join
    return x  # MARK-read


def loop_join_refused(n):
    x = 0
    for i in range(n):
        x = np.zeros(3)  # MARK-loop
    return x


def test_joins_that_cannot_be_unified_are_refused():
    with pytest.raises(TypingError) as info:
        jitted(join_refused)(True)
    msg = str(info.value)
    assert "variable 'x' is int64 elsewhere but str here" in msg
    assert f"at line {line_of(join_refused, 'MARK-read')}" in msg
    assert "$" not in msg
    assert_diagnostic(msg, __file__, line_of(join_refused, "MARK-join"), 'x = "one"')
    with pytest.raises(TypingError) as info:
        jitted(loop_join_refused)(2)
    msg = str(info.value)
    assert "variable 'x'" in msg and "array(float64" in msg and "int64" in msg
    assert_diagnostic(msg, __file__, line_of(loop_join_refused, "MARK-loop"), "x = np.zeros(3)")


def test_no_leaks_with_versions():
    f = jitted(straight_line)
    g = jitted(array_dtypes)
    h = jitted(loop_head_reads_body_definition)
    assert_no_leaks(lambda: f(3), lambda: g(5), lambda: h(3), repeat=300)


def test_rebinding_in_a_cached_function(tmp_path):
    mod = tmp_path / "rebind_cached.py"
    mod.write_text(textwrap.dedent('''
        import numpy as np
        import mahou

        @mahou.njit(cache=True)
        def f(n):
            x = np.arange(n)
            s = x.sum()
            x = "k" * n
            return s, x

        print(f(4))
    '''))
    env = {**os.environ, "MAHOU_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, str(mod)], capture_output=True, text=True, env=env) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "(6, 'kkkk')"


def _versions_across_yields(n):
    for i in range(n):
        if i % 2 == 0:
            yield i
    for i in range(n):  # another version of i, read by this loop's yield
        if i % 2 == 1:
            yield i * 10


def test_a_yield_reads_the_version_of_its_own_loop():
    """The renaming pass did not visit `yield` statements: the second loop's yield read
    the first loop's version of i."""
    gen = njit(_versions_across_yields)

    @njit
    def collect(n):
        out = []
        for x in gen(n):
            out.append(x)
        return out

    for n in (0, 1, 5, 6):
        assert collect(n) == list(_versions_across_yields(n))
