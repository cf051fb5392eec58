"""Tuples: build, index with constants, unpack, return, pass as argument,
heterogeneous tuples, tuples of arrays."""

import numpy as np
import pytest

from conftest import check, jitted

from mahou import njit


def build_and_index(a, b, c):
    t = (a, b, c)
    return t[0] + t[1] * t[2], t[-1], t[2] - t[-3]


@pytest.mark.parametrize("a,b,c", [(1, 2, 3), (-5, 0, 7), (2**40, 3, -1)])
def test_build_and_index_int(a, b, c):
    check(build_and_index, a, b, c)


@pytest.mark.parametrize("a,b,c", [(1.5, 2.5, -0.5), (0.1, 0.2, 0.3)])
def test_build_and_index_float(a, b, c):
    check(build_and_index, a, b, c)


def swap(a, b):
    a, b = b, a
    return a, b


@pytest.mark.parametrize("a,b", [(1, 2), (1.5, -2.5), (True, False)])
def test_swap(a, b):
    check(swap, a, b)


def rotate3(a, b, c):
    a, b, c = b, c, a
    return a * 100 + b * 10 + c


def test_rotate3():
    check(rotate3, 1, 2, 3)
    check(rotate3, 9, 0, -4)


def unpack_arg(t):
    x, y = t
    return y, x


@pytest.mark.parametrize("t", [(1, 2), (3.5, -1.0), (0, -7)])
def test_unpack_tuple_argument(t):
    check(unpack_arg, t)


def tuple_arg_index(t):
    return t[0] * t[1] - t[2]


@pytest.mark.parametrize("t", [(1, 2, 3), (-4, 5, 6), (2**31, 2**31, 1)])
def test_tuple_argument_index(t):
    check(tuple_arg_index, t)


def return_tuple(n):
    return n, n * 2, n * 3


def test_return_tuple():
    r = check(return_tuple, 7)
    assert r == (7, 14, 21) and isinstance(r, tuple)


def hetero(i, x):
    t = (i, x, i > 0)
    return t


@pytest.mark.parametrize("i,x", [(1, 2.5), (-3, 0.0), (0, -1e300)])
def test_heterogeneous_tuple(i, x):
    r = check(hetero, i, x)
    assert isinstance(r[0], (int, np.integer)) and isinstance(r[1], float)


def hetero_arg(t):
    i, x = t
    return x * 2.0, i + 1, t[0], t[1]


@pytest.mark.parametrize("t", [(1, 2.5), (-7, -0.125)])
def test_heterogeneous_tuple_argument(t):
    check(hetero_arg, t)


def nested_unpack_in_loop(n):
    a, b = 0, 1.0
    s = 0.0
    for i in range(n):
        p, q = a + i, b * 0.5
        a, b = p, q + 1.0
        s += q
    return a, b, s


@pytest.mark.parametrize("n", [0, 1, 10])
def test_unpack_in_loop(n):
    check(nested_unpack_in_loop, n)


def tuple_reassigned(n):
    t = (0, 0)
    for i in range(n):
        t = (t[1], t[0] + i)
    return t


@pytest.mark.parametrize("n", [0, 1, 7])
def test_tuple_reassigned_in_loop(n):
    check(tuple_reassigned, n)


def tuple_of_arrays_arg(t):
    a, b = t
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def test_tuple_of_arrays_argument():
    a = np.array([1.0, 2.0, 3.5])
    b = np.array([-1.0, 0.5, 2.0])
    check(tuple_of_arrays_arg, (a, b))


def tuple_of_arrays_write(t):
    a, b = t
    for i in range(a.shape[0]):
        b[i] = a[i] + b[i]
    return t[1][0]


def test_tuple_of_arrays_inplace():
    check(tuple_of_arrays_write, (np.arange(5), np.arange(5) * 10))


def return_tuple_of_arrays(a, b):
    return b, a


def test_return_tuple_of_arrays():
    a = np.arange(4.0)
    b = np.arange(6)
    r = check(return_tuple_of_arrays, a, b)
    assert isinstance(r, tuple) and len(r) == 2


def build_tuple_of_arrays(a):
    t = (a, a[1:])
    return t[1][0] + t[0][0], t


def test_build_tuple_of_arrays():
    check(build_tuple_of_arrays, np.array([3, 4, 5, 6]))


def shape_tuple(a):
    n, m = a.shape
    return n * 10 + m, a.shape


@pytest.mark.parametrize("shape", [(2, 3), (1, 1), (0, 4), (5, 0)])
def test_shape_tuple(shape):
    check(shape_tuple, np.zeros(shape))


def test_tuple_arg_different_lengths_are_different_signatures():
    f = jitted(tuple_arg_index)
    assert f((1, 2, 3)) == -1
    g = jitted(unpack_arg)
    assert g((1, 2)) == (2, 1)
    assert g((1.5, 2.5)) == (2.5, 1.5)


def _iterate_strings():
    n = 0
    out = ""
    for code in "GGT", "GGTA", "", "GGTATTTTAATT":
        n += len(code)
        out += code.lower() + "|"
    return n, out


def test_iterating_a_tuple_of_string_literals_of_different_lengths():
    assert njit(_iterate_strings)() == _iterate_strings()


def test_iterating_a_tuple_of_a_string_and_a_number_is_refused():
    from mahou.errors import UnsupportedError

    def mixed():
        n = 0
        for x in "a", 1:
            n += 1
        return n
    with pytest.raises(UnsupportedError, match="heterogeneous tuple"):
        njit(mixed)()


def string_in_mixed_tuple(n):
    s = "y" * n
    t = (s, 1, "lit")
    return "y" in t, "yy" in t, s in t, "lit" in t, s + "x" in t, "" in t


@pytest.mark.parametrize("n", [0, 1, 2])
def test_a_string_in_a_tuple_of_run_time_strings(n):
    # the needle and the items compared as strings whether literal or made at run time
    check(string_in_mixed_tuple, n)
