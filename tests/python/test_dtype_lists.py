"""Lists of dtypes and `is` between dtypes, as Numba allows them: `[a.dtype, b.dtype]` of
arrays of one dtype built, indexed, iterated, sliced, changed, searched (`in`, count,
index), compared, returned (a list of np.dtype), passed from Python and its items passed
as `dtype=`; `a.dtype is b.dtype` / `is not`. Each function compiled and run by CPython on
the same arrays. A list of different dtypes (no common type, as in Numba), `is` between
two dtypes of one type where either is held (a variable, an item: a dtype and its scalar
class cannot be told apart there), and dicts/sets of dtypes are diagnostics."""

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError, UnsupportedError
from mahou.typed import List

from dtype_values import same

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")

DTYPES = [np.float64, np.float32, np.int32, np.int64, np.uint8, np.bool_, np.complex128, np.int16]


def arrays(x, y):
    return np.arange(3).astype(x), np.ones((2, 2), dtype=y)


def built(a, c):
    return [a.dtype, c.dtype], [a.dtype], [c.dtype for _ in range(3)], [np.dtype(a.dtype)] * 2


def read(a, c):
    t = [a.dtype, c.dtype, a.dtype]
    return t[0], t[-1], t[1:], t[::-1], len(t), len([a.dtype][:0])


def searched(a, c):
    t = [a.dtype, c.dtype]
    return (a.dtype in t, c.dtype not in t, t.count(a.dtype), t.index(c.dtype), t == [c.dtype, a.dtype],
            t != [a.dtype], [a.dtype] == [c.dtype], t[0] == c.dtype)


def changed(a, c):
    t = [a.dtype]
    t.append(c.dtype)
    t.extend([a.dtype, c.dtype])
    t.insert(0, c.dtype)
    t[1] = a.dtype
    last = t.pop()
    del t[0]
    t.reverse()
    return t, last, t.copy(), list((a.dtype, c.dtype))


def as_dtype_argument(a, c):
    t = [a.dtype, c.dtype]
    out = [np.zeros(2, dtype=d) for d in t]
    n = 0
    for d in t:
        n += np.ones(3, d).size
    return out, np.full(2, 1, dtype=t[1]), a.astype(t[0]), n


def nested(a, c):
    return [[(a.dtype, 1)], [(c.dtype, 2)]], [(a.dtype, c.dtype)]


def identity(a, b):
    return (a.dtype is b.dtype, a.dtype is not b.dtype, a.dtype is a.dtype, b.dtype is np.dtype(b.dtype),
            a.dtype is np.float64, np.float64 is a.dtype, a.dtype is not np.int32, np.float64 is np.float64,
            np.float64 is np.int32)


def identity_of_different_held(a, b):
    t = [a.dtype]
    u = (b.dtype, np.int32)
    return t[0] is b.dtype, u[0] is not t[0], u[1] is t[0]


@pytest.mark.parametrize("fn", [built, read, searched, changed, as_dtype_argument, nested])
@pytest.mark.parametrize("x", DTYPES)
def test_lists_of_one_dtype_match_python(fn, x):
    a, c = arrays(x, x)
    same(njit(fn)(a, c), fn(a, c))


@pytest.mark.parametrize("x, y", [(x, y) for x in DTYPES for y in DTYPES[::3]])
def test_is_between_dtypes_matches_python(x, y):
    a, b = arrays(x, y)
    same(njit(identity)(a, b), identity(a, b))
    if a.dtype != b.dtype and np.int32 not in (a.dtype, b.dtype):  # different types are never the same object, held or not
        same(njit(identity_of_different_held)(a, b), identity_of_different_held(a, b))


@pytest.mark.parametrize("x, y", [(np.float64, np.int32), (np.uint8, np.complex128), (np.int64, np.int64)])
def test_in_with_another_dtype(x, y):
    a, b = arrays(x, y)
    fn = lambda a, b: (b.dtype in [a.dtype, a.dtype], b.dtype not in [a.dtype])
    same(njit(fn)(a, b), fn(a, b))


def test_record_dtypes_in_lists_and_is():
    r = np.zeros(2, dtype=[("x", "f8"), ("y", "i4")])
    fn = lambda r, a: ([r.dtype, r.dtype], r.dtype is r.dtype, r.dtype is a.dtype, [r.dtype][0] == r.dtype)
    a = np.arange(2.0)
    same(njit(fn)(r, a), fn(r, a))


@pytest.mark.parametrize("x", [np.float64, np.int8, np.complex64])
def test_list_of_dtypes_from_python_and_typed_list(x):
    a = np.arange(2).astype(x)
    got = njit(lambda t, a: (t, t[0] == a.dtype, len(t), [np.zeros(1, d) for d in t]))([a.dtype, a.dtype], a)
    same(got, ([a.dtype, a.dtype], True, 2, [np.zeros(1, a.dtype)] * 2))

    def grown(t, a):  # a list from Python changed in compiled code: written back
        t.append(a.dtype)
        t[0] = a.dtype
        return len(t)

    mine, theirs = [a.dtype], [a.dtype]
    assert njit(grown)(mine, a) == grown(theirs, a) and mine == theirs and len(mine) == 2

    def typed(a):
        t = List()
        t.append(a.dtype)
        t.append(a.dtype)
        return len(t), t[1] == a.dtype, np.zeros(2, t[0])

    same(njit(typed)(a), typed(a))


def test_what_stays_refused_is_a_diagnostic():
    a, b = arrays(np.float64, np.int32)

    def different(a, b):
        return [a.dtype, b.dtype]

    def different_nested(a, b):
        return [(a.dtype, 1), (b.dtype, 1)]

    def class_in_variable(a, b):
        k = np.float64
        return a.dtype is k

    def held_same_type(a, b):
        t = (a.dtype, a.dtype)
        return t[0] is t[1]

    def as_dict_value(a, b):
        return {1: a.dtype}

    def in_set(a, b):
        return {a.dtype}

    def ordered(a, b):
        return [a.dtype] < [a.dtype]

    for fn, err, what in [(different, UnsupportedError, "one type"), (different_nested, UnsupportedError, "one type"),
                          (class_in_variable, TypingError, "scalar class"),
                          (held_same_type, TypingError, "in place"), (as_dict_value, UnsupportedError, "dtype"),
                          (in_set, UnsupportedError, "dtype"), (ordered, UnsupportedError, "dtype")]:
        with pytest.raises(err, match=what):
            njit(fn)(a, b)
