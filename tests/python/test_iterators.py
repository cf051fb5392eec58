"""iter() and next() of containers (lists, homogeneous tuples, arrays, ranges, strings,
sets, dicts and their keys/values/items), next(it, default), and for-loops that resume
an iterator where next() left it: each compiled and run by CPython on the same inputs."""

import gc

import numpy as np
import pytest

import mahou
import mahou._core
from mahou import njit
from mahou.errors import TypingError, UnsupportedError


def same(f, *args):
    try:
        want = f(*args)
    except Exception as e:  # the same exception type when compiled
        with pytest.raises(type(e)):
            njit(f)(*args)
        return
    got = njit(f)(*args)
    assert _py(got) == _py(want)  # values (an int default beside float items is a float, as in Numba)


def _py(v):
    if isinstance(v, tuple):
        return tuple(_py(x) for x in v)
    if isinstance(v, list):
        return [_py(x) for x in v]
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.tolist())
    if isinstance(v, np.generic):
        return v.item()
    return v


def two(a):
    it = iter(a)
    return next(it), next(it)


def first_then_rest(a):
    it = iter(a)
    first = next(it, -1)
    total = 0
    for x in it:  # continues after the item next() took
        total += x
    return first, total, next(it, -7)  # exhausted: the default


def pairs(a):
    it = iter(a)
    out = []
    for x in it:
        out.append((x, next(it, -1)))
    return out


def stop_iteration(a):
    it = iter(a)
    try:
        return next(it)
    except StopIteration:
        return -99


def chars(s):
    it = iter(s)
    head = next(it, "")
    return head, "-".join([c for c in it])


def table_views(n):
    d = {i: i * 1.5 - 2.0 for i in range(n)}
    k = iter(d)
    items = iter(d.items())
    values = iter(d.values())
    keys = iter(d.keys())
    return next(k, -1), next(items, (-1, 0.0)), next(values, -2.0), [x for x in keys]


def set_items(n):
    s = set(range(-n, n, 3))
    it = iter(s)
    a = next(it, 100)
    return a in s or n == 0, len([x for x in it])


def iter_of_iter(a):
    it = iter(a)
    next(it)
    return next(iter(it))  # an iterator's iter() is itself


def default_evaluated_first(a):
    calls = [0]
    it = iter(a)
    calls.append(1)
    v = next(it, len(calls))
    return v, len(calls)


def appended_while_iterating(n):
    xs = [1, 2]
    it = iter(xs)
    next(it)
    for i in range(n):
        xs.append(i)
    return [x for x in it]  # a list iterator sees items appended after it was made


LISTS = [[4, 5, 6], [-3, 8], [1.5, -2.5, 3.5, 0.0]]
ARRAYS = [np.arange(5), np.arange(10)[::-3], np.array([2.5, -1.0]), np.arange(6, dtype=np.int32)[1::2],
          np.array([True, False, True])]


@pytest.mark.parametrize("a", LISTS + ARRAYS + [(1, 2, 3), (-1.5, 2.5), range(2, 9, 3), range(5, -5, -2)],
                         ids=repr)
@pytest.mark.parametrize("f", [two, first_then_rest, pairs, stop_iteration, iter_of_iter], ids=lambda f: f.__name__)
def test_iter_next(f, a):
    same(f, a)


@pytest.mark.parametrize("f", [two, first_then_rest, pairs, stop_iteration], ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", [[7], np.arange(1), np.zeros(0), range(0), range(3, 1), (9,)], ids=repr)
def test_short_and_empty(f, a):  # StopIteration, or the default, as Python
    same(f, a)


def test_empty_typed_list():
    xs = mahou.typed.List.empty_list(mahou.int64)
    assert njit(first_then_rest)(xs) == (-1, 0, -7)
    with pytest.raises(StopIteration):
        njit(two)(xs)


@pytest.mark.parametrize("s", ["hello", "", "a", "añ🐍x"])
def test_strings(s):
    same(chars, s)
    same(two, s)  # StopIteration for the short ones


@pytest.mark.parametrize("n", [0, 1, 4])
def test_dict_and_set(n):
    same(table_views, n)
    same(set_items, n)


def test_default_and_mutation():
    same(default_evaluated_first, [5])
    same(default_evaluated_first, np.zeros(0))
    same(appended_while_iterating, 0)
    same(appended_while_iterating, 3)


def test_rows_of_2d_array():
    a = np.arange(6.0).reshape(2, 3)
    got = njit(two)(a)
    assert np.array_equal(got[0], a[0]) and np.array_equal(got[1], a[1])


def test_default_of_another_type():
    def f(a):
        it = iter(a)
        next(it, 0)
        return next(it, 0.5)  # int items, float default: float, as the unified type
    assert njit(f)([3, 4]) == 4 and njit(f)([3]) == 0.5


def test_refusals():
    def not_iterator(a):
        return next(a)
    with pytest.raises(TypingError, match="not an iterator"):
        njit(not_iterator)([1, 2])

    def not_iterable(x):
        return iter(x)
    with pytest.raises(TypingError, match="not iterable"):
        njit(not_iterable)(3)

    def hetero(x):
        return next(iter((x, 1.5)))
    with pytest.raises(UnsupportedError, match="heterogeneous"):
        njit(hetero)(1)


def test_dropped_iterator_releases_its_container():
    def f(n):
        it = iter([float(i) for i in range(n)])
        return next(it)
    g = njit(f)
    g(3)
    gc.collect()
    before = mahou._core.live_allocations()
    for _ in range(5):
        assert g(4) == 0.0
    gc.collect()
    assert mahou._core.live_allocations() == before
