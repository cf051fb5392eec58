"""a.view(dtype) to a dtype of another item size, checked against NumPy: the last axis
(which must be contiguous) is re-read as items of the new size, the view shares memory,
and NumPy's ValueErrors (a non-contiguous last axis, bytes that do not divide) are
raised; a 0-d array is a TypingError (NumPy allows only the same item size there)."""

import numpy as np
import pytest

import mahou
from mahou.errors import TypingError

TARGETS = [np.int32, np.float64, np.uint8, np.int16, np.complex128]
CASES = [
    np.arange(4.0), np.arange(6.0).reshape(2, 3), np.arange(8, dtype=np.int32), np.arange(6, dtype=np.int32),
    np.arange(12.0).reshape(3, 4)[:, ::2], np.arange(12.0).reshape(3, 4)[:, :1], np.zeros((2, 0)),
    np.arange(12.0).reshape(3, 4).T, np.arange(12, dtype=np.int16).reshape(3, 4), np.arange(10, dtype=np.uint8)[::-1],
    np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, 1:],
]


def viewer(dtype):
    return mahou.njit(lambda a: a.view(dtype))


VIEWERS = {t: viewer(t) for t in TARGETS}


def outcome(fn, a):
    try:
        return "ok", fn(a)
    except Exception as e:  # noqa: BLE001
        return "raise", type(e)


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.__name__)
@pytest.mark.parametrize("k", range(len(CASES)))
def test_against_numpy(target, k):
    a = CASES[k]
    want = outcome(lambda x: x.view(target), a)
    got = outcome(VIEWERS[target], a)
    assert got[0] == want[0], (got, want)
    if want[0] == "raise":
        assert got[1] is want[1]
    else:
        assert got[1].dtype == want[1].dtype and got[1].shape == want[1].shape
        assert np.array_equal(got[1], want[1], equal_nan=True)


def test_the_view_shares_memory():
    a = np.zeros(4)
    v = VIEWERS[np.int32](a)
    v[1] = 1072693248  # the high word of 1.0
    assert a[0] == 1.0


def test_zero_dimensional_arrays_are_refused():
    with pytest.raises(TypingError, match="0-d"):
        VIEWERS[np.int32](np.array(1.5))
