"""Memory: arrays created in compiled code are reference counted. Returned arrays
(and views of them) keep their block alive while they live and free it when
dropped; temporaries die inside the function. mahou._core.live_allocations()
counts the blocks alive now."""

import gc

import numpy as np
import pytest

import mahou._core
from conftest import jitted


def live():
    gc.collect()
    return mahou._core.live_allocations()


def make(n):
    a = np.zeros(n)
    for i in range(n):
        a[i] = i
    return a


def make_2d(n):
    return np.ones((n, 3), dtype=np.int32)


def make_copy(a):
    return a.copy()


def test_live_allocations_is_int():
    v = mahou._core.live_allocations()
    assert isinstance(v, int) and v >= 0


@pytest.mark.parametrize("fn,arg", [(make, 100), (make, 0), (make_2d, 7)], ids=["1d", "empty", "2d"])
def test_returned_arrays_freed_when_dropped(fn, arg):
    f = jitted(fn)
    f(arg)  # compile; result dropped at once
    start = live()
    results = [f(arg) for _ in range(200)]
    assert live() == start + 200  # one block per returned array
    for r in results:
        np.testing.assert_array_equal(r, fn(arg))
    del results, r
    assert live() == start


def test_many_calls_no_growth():
    f = jitted(make)
    f(3)
    start = live()
    for _ in range(2000):
        r = f(64)
        assert r[63] == 63.0
        del r
    assert mahou._core.live_allocations() == start  # freed by refcounting, no gc needed
    assert live() == start


def test_returned_arrays_are_independent():
    f = jitted(make)
    a = f(5)
    b = f(5)
    assert not np.shares_memory(a, b)
    b[0] = 42.0
    assert a[0] == 0.0
    del a
    gc.collect()
    c = f(5)  # may reuse a's memory: b must not change
    c[1] = -1.0
    np.testing.assert_array_equal(b, [42.0, 1.0, 2.0, 3.0, 4.0])


def test_copy_of_input_is_owned():
    f = jitted(make_copy)
    src = np.arange(10.0)
    f(src)
    start = live()
    c = f(src)
    assert live() == start + 1
    assert not np.shares_memory(c, src)
    del c
    assert live() == start


# ---------------------------------------------------------------------------
# Temporaries
# ---------------------------------------------------------------------------


def temps_in_loop(n):
    s = 0.0
    for i in range(n):
        t = np.zeros(3)
        t[0] = i
        u = np.ones((2, 2))
        s += t[0] + u[1, 1]
    return s


def reassigned_in_loop(n):
    a = np.zeros(4)
    for i in range(n):
        a = np.full(4, i * 1.0)
    return a


def temps_in_branches(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            t = np.arange(i + 1)
            total += t[-1]
        else:
            w = np.empty(2, dtype=np.int64)
            w[0] = i
            w[1] = 1
            total += w[0] * w[1]
            if i > 5:
                continue
        if i > 50:
            break
    return total


def temp_copy_and_slices(a):
    s = 0.0
    for i in range(a.shape[0]):
        c = a.copy()
        v = c[i:]
        s += v[0]
    return s


@pytest.mark.parametrize("n", [0, 1, 100])
def test_temporaries_in_loop_freed(n):
    f = jitted(temps_in_loop)
    f(1)
    start = live()
    r = f(n)
    assert r == temps_in_loop(n)
    assert live() == start


@pytest.mark.parametrize("n", [0, 1, 10])
def test_reassigned_array_frees_previous(n):
    f = jitted(reassigned_in_loop)
    f(2)
    start = live()
    r = f(n)
    np.testing.assert_array_equal(r, reassigned_in_loop(n))
    assert live() == start + 1
    del r
    assert live() == start


@pytest.mark.parametrize("n", [0, 7, 100])
def test_temporaries_in_branches_break_continue(n):
    f = jitted(temps_in_branches)
    f(3)
    start = live()
    assert f(n) == temps_in_branches(n)
    assert live() == start


def test_temporary_copies_and_views_freed():
    f = jitted(temp_copy_and_slices)
    a = np.arange(20.0)
    f(a)
    start = live()
    assert f(a) == temp_copy_and_slices(a)
    assert live() == start


# ---------------------------------------------------------------------------
# Views of arrays allocated inside
# ---------------------------------------------------------------------------


def view_of_new(n):
    a = np.arange(n)
    return a[2:5]


def pair_of_views(n):
    a = np.zeros(n)
    a[1] = 5.0
    return a, a[1:]


def test_returned_view_keeps_block_alive():
    f = jitted(view_of_new)
    f(10)
    start = live()
    v = f(10)
    assert live() == start + 1
    np.testing.assert_array_equal(v, [2, 3, 4])
    w = v[1:]  # NumPy view of the returned view
    del v
    assert live() == start + 1  # w still refers to the block
    _ = np.zeros(1000)  # some unrelated allocation
    np.testing.assert_array_equal(w, [3, 4])
    del w
    assert live() == start


def test_tuple_of_base_and_view():
    f = jitted(pair_of_views)
    f(3)
    start = live()
    a, v = f(4)
    assert live() == start + 1  # one block shared by both
    assert np.shares_memory(a, v)
    v[0] = 9.0
    assert a[1] == 9.0
    del a
    assert live() == start + 1
    assert v[0] == 9.0
    del v
    assert live() == start


def test_many_views_freed():
    f = jitted(view_of_new)
    f(6)
    start = live()
    views = [f(6) for _ in range(100)]
    assert live() == start + 100
    del views
    assert live() == start


def test_no_leak_with_boundscheck():
    from mahou import njit

    def alloc_then_index(a, i):
        t = np.zeros(3)
        t[0] = a[i]
        return t[0]

    f = njit(boundscheck=True)(alloc_then_index)
    f(np.ones(2), 0)
    start = live()
    for _ in range(10):
        assert f(np.ones(2), 1) == 1.0
    assert live() == start
