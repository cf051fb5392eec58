# x.real, x.imag, x.conjugate(), np.real(x) and np.imag(x) of numbers compiled against
# Python/NumPy: the value and, for Python's own numbers, its type (a bool's parts are the
# ints 1 and 0, as Python's True.real).
import numpy as np
import pytest

from mahou import njit


def parts(x):
    return x.real, x.imag, x.conjugate(), np.real(x), np.imag(x)


def printed(x):
    return str(x.real) + " " + str(x.imag) + " " + str(np.real(x)) + " " + str(np.imag(x))  # str() of a complex: refused


def arithmetic(x):
    return x.real + x.imag * 10 - np.real(x) + np.imag(x)


PYTHON_NUMBERS = [True, False, 0, -7, 2.5, -0.0, 1.5 + 2j, -3j]
NUMPY_SCALARS = [np.int8(-3), np.uint64(7), np.float32(1.5), np.complex64(1 - 2j), np.int32(0)]


@pytest.mark.parametrize("x", PYTHON_NUMBERS, ids=repr)
def test_python_numbers_value_and_type(x):
    got, want = njit(parts)(x), parts(x)
    assert got == want
    assert [type(g) for g in got] == [type(w) for w in want]
    assert njit(printed)(x) == printed(x)
    assert njit(arithmetic)(x) == arithmetic(x)


@pytest.mark.parametrize("x", NUMPY_SCALARS, ids=repr)
def test_numpy_scalars_value(x):
    got, want = njit(parts)(x), parts(x)
    assert got == tuple(w.item() for w in want)
