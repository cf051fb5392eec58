"""Slice objects in compiled code: slice(...) built in compiled code or passed from
Python (and returned), their start/stop/step, s.indices(n), and slices that index
arrays (a[s], a[s, 0], a[(s1, s2)], stores through them), lists and strings; each
compared with the plain Python function. Tuple operations a slice does not have
(len, indexing, iteration, unpacking) are refused, as Python refuses them."""

import numpy as np
import pytest

from conftest import check
from mahou import njit
from mahou.errors import TypingError


def take(a, s):
    return a[s]


def build_and_take(a, lo, hi, step):
    s = slice(lo, hi, step)
    return a[s]


def stop_only(a, n):
    return a[slice(n)], a[slice(None, n, 2)], a[slice(None, None, -1)]


def fields(s):
    return s.start, s.stop, s.step


def build_fields(lo, hi):
    s = slice(lo, hi)
    t = slice(None, hi, 3)
    return s.start, s.stop, s.step, t.start, t.stop, t.step


def indices(s, n):
    return s.indices(n)


def identity(s):
    return s


def make(lo, hi):
    return slice(lo, hi), slice(None, None, -2), slice(hi)


def two_d(a, s, t):
    return a[s, 0], a[(s, t)], a[1, t]


def tuple_of_slices(a, s, t):
    idx = (s, t)
    return a[idx]


def store(a, s):
    a[s] = -1.0
    return a


def store_2d(a, s):
    a[s, 1] = 7.0
    return a


def list_and_str(xs, text, s):
    return xs[s], text[s]


def reversed_by_order(xs, order):
    step = -1 if order == "F" else 1
    s = slice(None, None, step)
    return xs[s]


def in_loop(a):
    t = 0.0
    for k in range(1, 4):
        s = slice(k, None, k)
        t += a[s].sum()
    return t


A = np.arange(10.0)
M = np.arange(24.0).reshape(4, 6)

SLICES = [slice(None), slice(2, 7), slice(None, 5), slice(3, None), slice(None, None, 2), slice(-3, None),
          slice(None, None, -1), slice(8, 1, -2), slice(-100, 100), slice(5, 2), slice(1, 9, 3)]


@pytest.mark.parametrize("s", SLICES)
def test_arrays_lists_strings(s):
    check(take, A, s)
    check(list_and_str, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "abcdefghij", s)
    check(fields, s)
    r = njit(identity)(s)
    assert type(r) is slice and r == s


@pytest.mark.parametrize("s", SLICES)
@pytest.mark.parametrize("n", [0, 3, 10, 20])
def test_indices(s, n):
    check(indices, s, n)


@pytest.mark.parametrize("lo,hi,step", [(0, 5, 1), (1, 9, 2), (8, 0, -1), (-4, -1, 1), (0, 10, 3)])
def test_built_in_compiled_code(lo, hi, step):
    check(build_and_take, A, lo, hi, step)
    check(build_fields, lo, hi)
    assert njit(make)(lo, hi) == make(lo, hi)
    check(stop_only, A, hi)


def test_two_dimensional():
    check(two_d, M, slice(1, 3), slice(None, None, 2))
    check(two_d, M, slice(None, None, -1), slice(2, None))
    check(tuple_of_slices, M, slice(1, 3), slice(0, 6, 2))
    check(store, A.copy(), slice(1, 8, 3))
    check(store_2d, M.copy(), slice(None, None, 2))


def test_qe_style_reversal():
    check(reversed_by_order, np.arange(5), "C")
    check(reversed_by_order, np.arange(5), "F")
    check(in_loop, A)


def test_returned_slice_is_a_slice():
    r = njit(make)(1, 4)
    assert r == (slice(1, 4), slice(None, None, -2), slice(None, 4, None))
    assert all(type(x) is slice for x in r)


def test_zero_step_raises():
    with pytest.raises(ValueError):
        njit(take)(A, slice(None, None, 0))
    with pytest.raises(ValueError):
        njit(indices)(slice(None, None, 0), 5)
    with pytest.raises(ValueError):
        njit(indices)(slice(1, 2), -1)


def length(s):
    return len(s)


def item(s):
    return s[0]


def loop(s):
    t = 0
    for x in s:
        t += x
    return t


def unpack(s):
    a, b, c = s
    return a


def float_bound(x):
    return slice(x, 2.5)


@pytest.mark.parametrize("fn,match", [(length, "has no len"), (item, "not subscriptable"), (loop, "not iterable"),
                                      (unpack, "cannot be unpacked")])
def test_tuple_operations_are_refused(fn, match):
    with pytest.raises(TypingError, match=match):
        njit(fn)(slice(1, 2, 3))


def test_bad_bounds():
    with pytest.raises(TypingError, match="slice bounds must be integers or None"):
        njit(float_bound)(1)
    with pytest.raises(TypeError):
        njit(take)(A, slice(1.5, 3))


def test_is_instance():
    @njit
    def kinds(s):
        return isinstance(s, slice), isinstance(s, tuple)

    assert kinds(slice(1, 2)) == (True, False)


def test_unhashable():
    @njit
    def h(s):
        return hash(s)

    with pytest.raises(TypingError, match="unhashable type: 'slice'"):
        h(slice(1, 2))
