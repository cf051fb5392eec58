"""Compiled functions borrow their arguments (a parameter the body never assigns takes no
reference of its own). An argument read from a container or a field is held by the
caller over the call, so a callee that drops the container's reference (clear(), a
field rebound) still reads a live value; allocations return to where they were."""

import numpy as np

import mahou
from mahou import float64, njit
from mahou.experimental import jitclass


@jitclass([("data", float64[:])])
class Holder:
    def __init__(self):
        self.data = np.arange(3.0) + 1


@njit
def take_from_list(a, xs):
    xs.clear()
    for _ in range(10):
        b = np.full(3, 100.0)  # noqa: F841  (memory the freed array could be reused for)
    return a.sum()


@njit
def list_item_argument():
    xs = [np.arange(3.0) + 1]
    return take_from_list(xs[0], xs)


@njit
def take_from_field(a, h):
    h.data = np.zeros(1)
    for _ in range(10):
        b = np.full(3, 100.0)  # noqa: F841
    return a.sum()


@njit
def field_argument():
    h = Holder()
    return take_from_field(h.data, h)


@njit
def take_string(s, xs):
    xs.clear()
    t = ""
    for i in range(10):
        t = "z" * 40 + str(i)
    return s + "!" + t[:0]


@njit
def string_item_argument(n):
    xs = ["a" * 40 + str(n)]
    return take_string(xs[0], xs)


def test_arguments_outlive_the_containers_they_came_from():
    before = mahou._core.live_allocations()
    for _ in range(3):
        assert list_item_argument() == 6.0
        assert field_argument() == 6.0
        assert string_item_argument(7) == "a" * 40 + "7!"
    assert mahou._core.live_allocations() == before
