"""Range objects as values (Numba's range_state64): range(...) stored in a variable,
passed to and returned from compiled functions (a Python range argument unboxes, a
returned one is a Python range), in tuples; len(r), r[i] (negative indices; IndexError
outside), r.start/.stop/.step, iteration (loops, comprehensions, zip, enumerate,
reversed, list, sorted, set, sum/min/max), `x in r`, truth. Each compared with the
plain Python function; what a range does not support in compiled code is refused with
an error naming the line."""

import gc
import json
import os
import subprocess
import sys
import textwrap

import pytest

import mahou._core
from conftest import check, jitted
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

RANGES = [
    range(0),
    range(5),
    range(2, 9),
    range(1, 10, 3),
    range(10, 1, -3),
    range(-4, 4, 2),
    range(5, 5),
    range(9, 0, -1),
    range(0, -7, -2),
    range(3, 1),
]


def make(a, b, s):
    return range(a, b, s)


def make_stored(n):
    r = range(n)
    t = (r, range(1, n, 2))
    return t


def fields(r):
    return r.start, r.stop, r.step, len(r)


def total(r):
    t = 0
    for x in r:
        t = t * 3 + x
    return t


def items(r):
    out = []
    for i in range(-len(r) - 2, len(r) + 2):
        if -len(r) <= i < len(r):
            out.append(r[i])
    return out


def item(r, i):
    return r[i]


def contains(r):
    out = []
    for x in range(-12, 13):
        out.append(x in r)
        out.append(x not in r)
        out.append(float(x) in r)
        out.append(x + 0.5 in r)
    out.append(True in r)
    return out


def conversions(r):
    return list(r), sorted(r, reverse=True), list(reversed(r)), [x * x for x in r if x % 2 == 0]


def as_set(r):
    return set(r)


def reductions(r):
    return sum(r), len(r) > 0 and min(r) or 0, len(r) > 0 and max(r) or 0


def zipped(r):
    out = []
    for a, b in zip(r, reversed(r)):
        out.append(a * 100 + b)
    for i, x in enumerate(r, 5):
        out.append(i * 1000 + x)
    for x in reversed(r):
        out.append(x)
    return out


def reversed_literal(n):
    out = []
    for i in reversed(range(n)):
        out.append(i)
    for i in reversed(range(1, n, 3)):
        out.append(i)
    return out


def truth(r):
    return bool(r), (1 if r else 2), not r


def callee(r):
    return len(r) * 10 + (r[0] if r else -1)


callee_c = njit(callee)
make_c = njit(make)


def caller(n):
    return callee_c(range(n)), callee_c(range(n, 0, -2)), callee_c(range(0))


def returns_through(n):
    r = make_c(1, n, 2)
    return r


def zero_step(s):
    r = range(1, 5, s)
    return len(r)


def chooses(c, n):
    r = range(n)
    if c:
        r = range(n, 0, -1)
    return list(r)


def in_containers(n):
    rs = [range(n), range(1, n, 2)]
    t = 0
    for r in rs:
        for x in r:
            t += x
    d = {1: range(n, 0, -1)}
    return t, rs, len(d[1]), [(a, b) for a, b in zip(range(n), d[1])]


def optional_range(c, n):
    r = None
    if c:
        r = range(n)
    if r is None:
        return -1, -1
    return len(r), r[-1] if n > 0 else 0


def lengths(rs):
    return [len(r) + (r[True] if len(r) > 1 else 0) for r in rs]


def test_ranges_in_containers_and_optionals():
    for n in (0, 1, 5):
        got = jitted(in_containers)(n)
        assert got == in_containers(n) and all(type(r) is range for r in got[1])
        check(optional_range, True, n)
        check(optional_range, False, n)
    rs = [range(3), range(5, 0, -2), range(0)]
    assert jitted(lengths)(rs) == lengths(rs) and rs == [range(3), range(5, 0, -2), range(0)]


@pytest.mark.parametrize("r", RANGES, ids=str)
def test_operations(r):
    check(fields, r)
    check(total, r)
    check(items, r)
    check(contains, r)
    check(conversions, r)
    check(as_set, r)
    check(reductions, r)
    check(zipped, r)
    check(truth, r)


@pytest.mark.parametrize("args", [(0, 5, 1), (5, 0, -1), (1, 10, 4), (-3, 3, 2), (3, 3, 7)])
def test_made_and_returned(args):
    got = jitted(make)(*args)
    assert type(got) is range and got == make(*args)
    assert jitted(returns_through)(args[1]) == returns_through(args[1])
    got = jitted(make_stored)(args[1])
    assert got == make_stored(args[1]) and all(type(x) is range for x in got)


def test_index_errors():
    f = jitted(item)
    for r in RANGES:
        for i in (-len(r) - 1, len(r), len(r) + 5, -100):
            with pytest.raises(IndexError, match="range object index out of range"):
                f(r, i)
        for i in range(-len(r), len(r)):
            assert f(r, i) == r[i]


def test_zero_step_is_value_error():
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        jitted(zero_step)(0)
    assert jitted(zero_step)(2) == zero_step(2)


def test_calls_between_compiled_functions():
    for n in (0, 1, 6):
        check(caller, n)
        check(reversed_literal, n)
    for c in (False, True):
        check(chooses, c, 4)


def test_argument_bounds_beyond_int64():
    with pytest.raises(OverflowError):
        jitted(fields)(range(2**70))


def range_unpack(r):
    a, b = r
    return a


def range_slice(r):
    return r[1:]


def range_hash(r):
    return hash(r)


def range_equal(r):
    return r == range(3)


def range_print(r):
    print(r)


def range_method(r):
    return r.index(2)


@pytest.mark.parametrize("fn", [range_unpack, range_slice, range_hash, range_equal, range_print, range_method])
def test_refused(fn):
    with pytest.raises((TypingError, UnsupportedError)) as e:
        njit(fn)(range(3))
    assert "test_range_objects.py" in str(e.value)


def range_float(x):
    return range(x)


def test_float_bound_refused():
    with pytest.raises(TypingError, match="integer"):
        njit(range_float)(1.5)


def test_no_leaks():
    fns = [(conversions, range(1, 10, 2)), (as_set, range(6)), (reductions, range(4)), (zipped, range(5))]
    for fn, r in fns:
        jitted(fn)(r)
    gc.collect()
    start = mahou._core.live_allocations()
    for _ in range(50):
        for fn, r in fns:
            jitted(fn)(r)
        try:
            jitted(item)(range(3), 7)
        except IndexError:
            pass
    gc.collect()
    assert mahou._core.live_allocations() == start


CACHED_MODULE = """
from mahou import njit

@njit(cache=True)
def takes(r):
    return len(r) + r[-1]

@njit(cache=True)
def gives(n):
    r = range(1, n, 2)
    return sum(r), r
"""

CACHED_MAIN = """
import json, cachedrange
a, b = cachedrange.takes(range(3, 9)), cachedrange.gives(8)
print(json.dumps([a, b[0], repr(b[1]), [next(iter(f.stats.values()))["cached"]
                                         for f in (cachedrange.takes, cachedrange.gives)]]))
"""


def test_cached_in_a_fresh_process(tmp_path):
    (tmp_path / "cachedrange.py").write_text(textwrap.dedent(CACHED_MODULE))
    env = dict(os.environ, MAHOU_CACHE_DIR=str(tmp_path / "cache"))
    out = []
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", CACHED_MAIN], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        out.append(json.loads(p.stdout.strip().splitlines()[-1]))
    assert out[0] == [14, 16, "range(1, 8, 2)", [False, False]]
    assert out[1] == [14, 16, "range(1, 8, 2)", [True, True]]


def test_signature_names_the_type():
    f = njit("int64(range_state64)")(lambda r: len(r) * 100 + r.step)
    assert f(range(0, 10, 3)) == 403
