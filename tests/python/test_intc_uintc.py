"""np.intc and np.uintc (C's int and unsigned int: int32 and uint32) as scalar constructors
and dtypes in compiled code, against NumPy."""

import numpy as np

from mahou import njit


@njit
def c_int_types(x, a):
    return (np.intc(x), np.uintc(abs(x)), np.zeros(2, dtype=np.intc), a.astype(np.uintc), a.astype(np.intc),
            np.empty(0, np.uintc))


def test_intc_uintc():
    for x, a in [(-3, np.arange(4)), (7, np.array([2.5, -1.0, 300.0])[::-1]), (0, np.zeros(0)),
                 (2 ** 31 - 1, np.arange(6).reshape(2, 3).T)]:
        got = c_int_types(x, a)
        want = (np.intc(x), np.uintc(abs(x)), np.zeros(2, dtype=np.intc), a.astype(np.uintc) if a.min(initial=0) >= 0
                else None, a.astype(np.intc), np.empty(0, np.uintc))
        assert got[0] == want[0] and got[1] == want[1]
        for g, w in zip(got[2:], want[2:]):
            if w is not None:
                assert g.dtype == w.dtype
                np.testing.assert_array_equal(g, w)
