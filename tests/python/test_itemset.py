"""a.itemset(x): NumPy 1's method (removed in NumPy 2, so no NumPy to compare with here),
the one-argument form Numba compiles: the only element of an array of size 1 set to x,
as `a.flat[0] = x` (the reference below); another size is NumPy 1's ValueError."""

import numpy as np
import pytest

import mahou


@mahou.njit
def itemset(a, v):
    a.itemset(v)
    return a


def reference(a, v):
    if a.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    a.flat[0] = v
    return a


@pytest.mark.parametrize("make, v", [
    (lambda: np.zeros(1), 3.5),
    (lambda: np.zeros((1, 1)), -2.0),
    (lambda: np.zeros(1, np.int32), 7),
    (lambda: np.zeros(1, np.complex128), 1.5),
    (lambda: np.arange(6.0).reshape(2, 3)[1:, 2:], 9.0),  # a view of one element
    (lambda: np.zeros(1, np.float32), 0.1),
])
def test_against_flat_assignment(make, v):
    got, want = itemset(make(), v), reference(make(), v)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_the_view_writes_its_base():
    base = np.arange(6.0).reshape(2, 3)
    itemset(base[1:, 2:], -1.0)
    assert base[1, 2] == -1.0 and base.sum() == 0 + 1 + 2 + 3 + 4 - 1


@pytest.mark.parametrize("a", [np.zeros(0), np.zeros(2), np.zeros((2, 2))])
def test_other_sizes_raise(a):
    with pytest.raises(ValueError, match="size 1"):
        itemset(a, 1.0)
