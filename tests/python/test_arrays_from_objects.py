"""np.array / np.asarray of lists held in variables (numbers, lists of numbers, arrays),
tuples stored into array slices and rows, and sort kinds, compared with NumPy."""

import numpy as np
import pytest

from conftest import check
from mahou import errors, njit


def from_lists(n):
    flat = [i * 0.5 - 1 for i in range(n)]
    nested = [[complex(i, j) for j in range(3)] for i in range(n)]
    ints = [i for i in range(n)]
    return np.array(flat), np.array(nested), np.asarray(ints), np.array(ints, dtype=np.float32)


@pytest.mark.parametrize("n", [1, 4])
def test_array_of_list_variables(n):
    check(from_lists, n)


def test_array_of_empty_lists_keeps_the_item_type():
    # NumPy sees an empty list ([] is float64, shape (0,)); compiled code knows the items'
    # type, so an empty list of lists of complex is a (0, 0) complex128 array.
    flat, nested, ints, f32 = njit(from_lists)(0)
    assert flat.shape == (0,) and flat.dtype == np.float64
    assert nested.shape == (0, 0) and nested.dtype == np.complex128
    assert ints.shape == (0,) and ints.dtype == np.int64
    assert f32.dtype == np.float32


def stacked(n):
    rows = [np.arange(3) * i for i in range(n)]
    return np.array(rows)


@pytest.mark.parametrize("n", [1, 3])
def test_array_of_a_list_of_arrays(n):
    check(stacked, n)


def test_ragged_lists_raise_value_error():
    @njit
    def ragged(n):
        rows = [[1] * (i + 1) for i in range(n)]
        return np.array(rows)

    with pytest.raises(ValueError, match="inhomogeneous"):
        ragged(2)
    assert ragged(1).shape == (1, 1)

    @njit
    def of_strings():
        return np.array(["a", "b"][:1])

    with pytest.raises(errors.UnsupportedError):
        of_strings()


def tuple_stores(x):
    a = np.zeros(4)
    a[:-1] = (x, 2.0, 3)
    b = np.zeros((2, 2), dtype=np.int64)
    b[1] = (int(x), -1)
    return a, b


@pytest.mark.parametrize("x", [1.5, -2.0])
def test_tuple_stored_into_slices_and_rows(x):
    check(tuple_stores, x)


def sort_kinds(a):
    return a.argsort(kind="quicksort"), np.sort(a, kind="stable"), np.argsort(a, kind="mergesort")


@pytest.mark.parametrize("a", [np.array([3.0, 1.0, 2.0]), np.array([5, -1, 5, 0]), np.zeros(0)])
def test_sort_kinds(a):
    check(sort_kinds, a)


def test_unknown_sort_kind_is_a_typing_error():
    @njit
    def bogus(a):
        return np.sort(a, kind="bogus")

    with pytest.raises(errors.TypingError, match="kind must be"):
        bogus(np.ones(2))


def dtype_variables(n):
    dtype = np.int_
    a = np.zeros(n, dtype=dtype)
    single = np.float32
    return a, np.ones(n, single), np.arange(n).astype(single)


@pytest.mark.parametrize("n", [0, 3])
def test_dtype_held_in_a_variable(n):
    check(dtype_variables, n)


def test_a_variable_holds_one_dtype():
    @njit
    def two(flag):
        d = np.int64
        if flag:
            d = np.float64
        return np.zeros(2, d)

    with pytest.raises(errors.TypingError, match="cannot be unified"):
        two(True)
