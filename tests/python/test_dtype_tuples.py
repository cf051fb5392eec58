"""Arrays' dtypes inside tuples, as Numba allows them: `(a.dtype, b.dtype)` built, returned
(a tuple of np.dtype), unpacked, indexed, compared item by item and as tuples, passed to
another compiled function and as `dtype=` of np.zeros/np.ones/np.full/astype; each
function compiled and run by CPython on the same arrays. What stays refused (a list of
different dtypes, a dict holding a dtype, hashing one) is a diagnostic."""

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError, UnsupportedError

from dtype_values import same

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # CPython's astype of complex

DTYPES = [np.float64, np.float32, np.int32, np.int64, np.uint8, np.bool_, np.complex128, np.complex64]
PAIRS = [(x, y) for x in DTYPES for y in DTYPES[::3]] + [(np.int16, np.int16)]


def arrays(x, y):
    return np.arange(3).astype(x), np.ones((2, 2), dtype=y)


def returned(a, b):
    return (a.dtype, b.dtype)


def nested(a, b):
    t = (a.dtype, b.dtype)
    return (t, 3, (b.dtype,)), t[::-1], t + (a.dtype,)


def compared(a, b):
    t = (a.dtype, b.dtype)
    u = (b.dtype, a.dtype)
    return (t[0] == t[1], t[0] != t[1], t[1] == b.dtype, t[0] == a.dtype, t == u, t != u,
            t == (a.dtype, b.dtype), t == (a.dtype,))


def as_dtype_argument(a, b):
    t = (a.dtype, b.dtype)
    x, y = t
    return (np.zeros(3, dtype=t[1]), np.ones(2, t[0]), np.full(2, 1, dtype=y), a.astype(t[1]),
            np.empty_like(a, dtype=x).dtype, np.arange(3, dtype=y))


@njit
def _inner(t, a):
    return np.zeros(a.shape, dtype=t[1]), t[0] == a.dtype


def passed_on(a, b):
    return _inner((a.dtype, b.dtype), a)


@pytest.mark.parametrize("fn", [returned, nested, compared, as_dtype_argument])
@pytest.mark.parametrize("x, y", PAIRS)
def test_compiled_matches_python(fn, x, y):
    a, b = arrays(x, y)
    same(njit(fn)(a, b), fn(a, b))


@pytest.mark.parametrize("x, y", [(np.float64, np.int32), (np.int8, np.int8), (np.complex64, np.float32)])
def test_passed_to_another_compiled_function(x, y):
    a, b = arrays(x, y)
    got = njit(passed_on)(a, b)
    same(got, (np.zeros(a.shape, dtype=b.dtype), True))
    # a tuple of dtypes as an argument from Python, compared with one built inside
    compare = njit(lambda t, a, b: (t == (a.dtype, b.dtype), t[0] == t[1]))
    assert compare((a.dtype, b.dtype), a, b) == (True, a.dtype == b.dtype)
    assert compare((b.dtype, a.dtype), a, b) == ((a.dtype, b.dtype) == (b.dtype, a.dtype), a.dtype == b.dtype)


def test_what_stays_refused_is_a_diagnostic():
    a, b = arrays(np.float64, np.int32)

    def in_list(a, b):  # tuples of different dtypes have no common type (a list of one: test_dtype_lists.py)
        return [(a.dtype, 1), (b.dtype, 1)]

    def as_key(a, b):
        return {(a.dtype, 1): 2}

    def hashed(a, b):
        return hash((a.dtype, b.dtype))

    def ordered(a, b):
        return (a.dtype, b.dtype) < (b.dtype, a.dtype)

    for fn, err in [(in_list, UnsupportedError), (as_key, UnsupportedError), (hashed, TypingError), (ordered, TypingError)]:
        with pytest.raises(err, match="dtype"):
            njit(fn)(a, b)
