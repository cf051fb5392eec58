# Differential tests of min/max/argmin/argmax at the edges of each dtype's range: the
# reductions start from the comparison's identity (-inf, +inf, the type's lowest or
# highest value) at index 0, so all-equal extremes, NaNs, zeros and bools must
# still give NumPy's answers, whole-array and along an axis.
import numpy as np
import pytest

from mahou import njit


def extremes(a):
    return a.argmax(), a.argmin(), a.max(), a.min()


def arg_extremes(a):  # complex arrays: min/max values are refused, argmin/argmax are not
    return a.argmax(), a.argmin()


def along_axis(a):
    return np.argmax(a, axis=0), np.argmin(a, axis=0), a.max(axis=1), a.min(axis=1)


inf, nan = np.inf, np.nan
CASES = [
    np.array([-inf, -inf]), np.array([inf, inf]), np.array([nan, 1.0]), np.array([1.0, nan, nan]),
    np.array([-inf, nan, inf]), np.array([5.0]), np.array([-0.0, 0.0]), np.array([0.0, -0.0]),
    np.array([3, 3, 3], dtype=np.int8), np.array([-128, -128], dtype=np.int8),
    np.array([127, 127], dtype=np.int8), np.array([0, 0], dtype=np.uint64),
    np.array([2**64 - 1] * 3, dtype=np.uint64), np.array([2, 1, 2], dtype=np.uint8),
    np.array([-5, -9, -9], dtype=np.int64), np.array([2**63 - 1, -2**63], dtype=np.int64),
    np.array([-2**63, -2**63], dtype=np.int64), np.array([2**63 - 1] * 2, dtype=np.int64),
    np.array([False, False]), np.array([True, True]), np.array([False, True, False]),
    np.array([-inf, -inf], dtype=np.float32), np.array([3.0, nan], dtype=np.float32),
    np.array([1 + 1j, 1 + 2j, 0 + 5j]), np.array([1 + 1j, complex(nan, 0), 2 + 0j]),
]


def same(x, y):
    if isinstance(x, np.ndarray):
        return x.shape == y.shape and all(same(a, b) for a, b in zip(x.ravel(), y.ravel()))
    if np.iscomplexobj(x) or isinstance(x, (float, np.floating)):
        if np.isnan(x):
            return bool(np.isnan(y))
        return x == y  # the sign of a zero result is NumPy's SIMD detail (Numba differs too)
    return x == y


@pytest.mark.parametrize("a", CASES, ids=[f"{c.dtype}-{i}" for i, c in enumerate(CASES)])
def test_extremes_match_numpy(a):
    f = arg_extremes if np.iscomplexobj(a) else extremes
    got, want = njit(f)(a), f(a)
    for g, w in zip(got, want):
        assert same(g, w), (a, got, want)
    strided = np.repeat(a, 2)[::2]  # a non-contiguous view of the same values
    for g, w in zip(njit(f)(strided), f(strided)):
        assert same(g, w)


@pytest.mark.parametrize("a", [c for c in CASES if c.size >= 2 and not np.iscomplexobj(c)],
                         ids=lambda c: str(c.dtype))
def test_extremes_along_an_axis_match_numpy(a):
    m = np.stack([a, a[::-1]])
    for g, w in zip(njit(along_axis)(m.T.copy()), along_axis(m.T.copy())):
        assert same(np.asarray(g), np.asarray(w))
