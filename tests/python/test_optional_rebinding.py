"""Parameters defaulting to None and rebound in the body (an array or a number made when
the caller passed None), optional values passed on to other compiled functions, and the
attributes and items of an optional array after a None check (its value; TypeError when
it is None at run time, as Numba), `.shape` of a computed array, a declared return type
wider than the inferred one, and Numba's Tuple((...)) spelling in signatures."""

import numpy as np
import pytest

from conftest import assert_same, check
from mahou import njit, typed


def fill(n, tableau=None):
    if tableau is None:
        tableau = np.empty((n, n + 1))
    tableau[:] = 1.0
    tableau[0, 0] = -2.0
    return tableau.sum(), tableau.shape[1]


def default_number(x, k=None):
    if k is None:
        k = 3
    return x * k


@njit
def rows(t):
    return t.shape[0]


def passes_on(n, t=None):
    if t is None:
        t = np.zeros((n, 2))
    return rows(t) + t.shape[1]


def optional_items(n, d=None):
    if d is None:
        return 0.0
    s = 0.0
    for i in range(min(n, d.shape[0])):
        s += d[i]
    return s + d.size


def shapes_of_computed(xs):
    return xs[0].shape[1] + xs[-1].shape[0] + xs[0].strides[0]


@pytest.mark.parametrize("args", [(3,), (1,), (2, np.ones((2, 5))), (2, np.ones((4, 6))[::2, 1:])])
def test_none_default_rebound_to_an_array(args):
    check(fill, *args)


@pytest.mark.parametrize("args", [(2.0,), (-1, 4), (2.5, 0.5), (3, None)])
def test_none_default_rebound_to_a_number(args):
    check(default_number, *args)


@pytest.mark.parametrize("args", [(4,), (4, np.ones((3, 3))), (0,), (2, np.ones((5, 2))[::2])])
def test_rebound_optional_passed_on(args):
    check(passes_on, *args)


@pytest.mark.parametrize("args", [(3,), (3, np.arange(4.0)), (9, np.arange(5.0)[::-1]),
                                  (2, np.arange(3, dtype=np.int32)), (1, np.empty(0))])
def test_items_and_attributes_of_an_optional_array(args):
    check(optional_items, *args)


def test_shape_of_a_computed_array():
    xs = typed.List([np.ones((2, 3)), np.ones((4, 5))])
    assert njit(shapes_of_computed)(xs) == shapes_of_computed(xs)


def test_optional_that_is_none_at_run_time_raises():
    @njit
    def pick(flag, a):
        t = None
        if flag:
            t = a
        return t.shape[0] + t[0]

    assert pick(True, np.arange(1.0, 4.0)) == 4.0
    with pytest.raises(TypeError, match="got None"):
        pick(False, np.ones(3))


def test_declared_return_type_wider_than_inferred():
    @njit("float64(float64)")
    def f32(x):
        return np.float32(x) * np.float32(2)

    r = f32(1.1)
    assert type(r) is float and r == float(np.float32(1.1) * np.float32(2))

    @njit
    def caller(n):
        return f32(n) + f32(1.5)

    assert caller(3) == 9.0


def test_numba_tuple_spelling_in_signatures():
    @njit("float32[:](float32[:,:],Tuple((int32[:],int32[:],float32[:])))")
    def f(X, p):
        a, b, c = p
        out = c.copy()
        out[0] += a[0] + b[-1] + X[0, 0]
        return out

    X = np.ones((2, 2), np.float32)
    p = (np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32), np.ones(3, np.float32))
    assert_same(f(X, p), np.array([4.0, 1.0, 1.0], np.float32))
