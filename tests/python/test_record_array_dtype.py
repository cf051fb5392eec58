"""a.dtype of an array of records (or of S<n>/U<n> strings) in compiled code, as Numba:
returned to Python as the array's np.dtype, compared, passed as dtype= to np.empty and
np.zeros, held in a variable and in a tuple."""

import numpy as np
import pytest

from mahou import njit

AB = np.dtype([("a", "f8"), ("b", "i4")])
ALIGNED = np.dtype([("x", "u1"), ("y", "f8")], align=True)
PACKED = np.dtype([("x", "u1"), ("y", "f8")])
PADDED = np.dtype({"names": ["p", "q"], "formats": ["i2", "c16"], "offsets": [0, 8], "itemsize": 32})

ARRAYS = [np.zeros(3, AB), np.zeros((2, 2), AB)[:, ::-1], np.zeros(0, AB), np.ones(2, ALIGNED), np.ones(4, PACKED)[::2],
          np.zeros(2, PADDED), np.array(["ab", "c"], dtype="U5"), np.array([b"xyz"], dtype="S3")]


def ids(a):
    return f"{a.dtype}{a.shape}"


def dtype_of(a):
    return a.dtype


def held(a):
    d = a.dtype
    e = d
    return e


@pytest.mark.parametrize("a", ARRAYS, ids=ids)
def test_returned_as_the_numpy_dtype(a):
    for fn in (dtype_of, held):
        got = njit(fn)(a)
        assert isinstance(got, np.dtype) and got == a.dtype and got.itemsize == a.dtype.itemsize
        assert got.isalignedstruct == a.dtype.isalignedstruct


def same_dtype(a, b):
    return a.dtype == b.dtype, a.dtype != b.dtype


@pytest.mark.parametrize("a, b", [(ARRAYS[0], ARRAYS[1]), (ARRAYS[0], ARRAYS[3]), (ARRAYS[3], ARRAYS[4]),
                                  (ARRAYS[0], np.zeros(2)), (np.zeros(2), ARRAYS[0]), (ARRAYS[6], ARRAYS[7]),
                                  (ARRAYS[6], np.array(["q"], dtype="U5")), (ARRAYS[6], np.array(["q"], dtype="U4"))],
                         ids=lambda x: str(x.dtype))
def test_compared(a, b):
    assert njit(same_dtype)(a, b) == same_dtype(a, b)


def with_global(a):
    return a.dtype == AB, AB == a.dtype, a.dtype != AB


@pytest.mark.parametrize("a", ARRAYS[:4], ids=ids)
def test_compared_with_a_global_dtype(a):
    assert njit(with_global)(a) == with_global(a)


def made_like(a, n):
    e = np.empty(n, dtype=a.dtype)
    z = np.zeros((n, 2), a.dtype)
    return e.dtype == a.dtype, z


@pytest.mark.parametrize("a", [ARRAYS[0], ARRAYS[3], ARRAYS[5]], ids=ids)
@pytest.mark.parametrize("n", [0, 3])
def test_passed_as_dtype(a, n):
    same, z = njit(made_like)(a, n)
    want = made_like(a, n)[1]
    assert same and z.dtype == want.dtype and z.shape == want.shape
    assert z.tobytes() == want.tobytes()


def test_a_read_only_array_gives_the_same_dtype():
    a = np.zeros(2, AB)
    a.flags.writeable = False
    got = njit(dtype_of)(a)
    assert got == AB


def test_the_itemsize_of_the_dtype():
    assert njit(lambda a: a.dtype.itemsize)(ARRAYS[5]) == 32


@pytest.mark.parametrize("a", ARRAYS, ids=ids)
def test_in_a_tuple_it_is_returned(a):
    def f(a):
        t = (a.dtype, 1, (a.dtype,))
        return t, t[0] == a.dtype, np.zeros(2, dtype=t[2][0]).dtype

    got, want = njit(f)(a), f(a)
    assert got == want and isinstance(got[0][0], np.dtype) and got[0][0].itemsize == a.dtype.itemsize
