# `x in tuple` compiled against Python: the needle compared with each item by ==
# wherever == could find them equal (dtypes, lists, tuples, optionals), never a
# constant False for items of a type that can be equal.
import numpy as np
import pytest

import mahou
from mahou import njit
from mahou.experimental import jitclass

A = np.arange(3.0)
B = np.arange(3, dtype=np.int32)
C = np.zeros(2, dtype=np.complex64)


def dtypes_in(a, b):
    return (a.dtype in (b.dtype, a.dtype), b.dtype not in (a.dtype,), a.dtype in (b.dtype,),
            a.dtype in (1, b.dtype), b.dtype in ())


def list_in(n):
    return [n] in ([n], [1]), [n, 1] in ([1, n],), [n] not in ([2],)


def tuple_in(n):
    return (n, 1) in ((n, 1), (2, 2)), (n, 1) in ((1, n),), (n,) in ((n, 2), (n,))


def optional_in(n):
    x = None if n > 5 else n
    return x in (3, 4), x not in (1, 3), x in (None, 3)


def mixed_in(n):
    return n in ('a', 1.0, n), 'a' in ('a', n), None in (n, 2)


@jitclass([("x", mahou.int64)])
class Plain:  # == is identity
    def __init__(self, x):
        self.x = x


@jitclass([("x", mahou.int64)])
class ByValue:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return self.x == other.x


def instances_in(n):
    a, b = Plain(n), Plain(n)
    c, d = ByValue(n), ByValue(n)
    return a in (a, b), a in (b,), c in (d,), c in (ByValue(n + 1),)


def containers_in(n):
    return {n: 2} in ({n: 2},), {n} in ({1}, {2}), {n: 1} in ({2: 1},)


@pytest.mark.parametrize("a, b", [(A, B), (B, B), (C, A), (A, A)])
def test_dtypes_in_a_tuple(a, b):
    assert njit(dtypes_in)(a, b) == dtypes_in(a, b)


@pytest.mark.parametrize("fn", [list_in, tuple_in, mixed_in, instances_in, containers_in])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_items_of_other_kinds(fn, n):
    assert njit(fn)(n) == fn(n)


@pytest.mark.parametrize("n", [0, 1, 3, 4])
def test_optional_needle(n):
    assert njit(optional_in)(n) == optional_in(n)


def test_none_needle_as_numba_equality():
    # == between an optional that holds None and a number raises TypeError (Numba's
    # cast); `in` compares with the same ==, so it raises rather than answering wrong.
    with pytest.raises(TypeError, match="got None"):
        njit(optional_in)(7)
