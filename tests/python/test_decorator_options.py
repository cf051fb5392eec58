"""Every option the decorators accept works or is refused with a clear error: debug=True
turns bounds checks on (as Numba), inline is checked, unknown keywords are TypeErrors
naming the decorator, options mahou cannot honour raise UnsupportedError."""

import numpy as np
import pytest

from mahou import cfunc, guvectorize, njit, stencil, vectorize
from mahou.errors import UnsupportedError


def fifth(a):
    return a[5]


def test_debug_turns_boundscheck_on():
    with pytest.raises(IndexError):
        njit(debug=True)(fifth)(np.zeros(3))
    assert njit(debug=True, boundscheck=False)(fifth)(np.arange(6.0)) == 5.0
    assert njit(debug=True)(fifth)(np.arange(6.0)) == 5.0
    with pytest.raises(IndexError):
        njit(boundscheck=True)(fifth)(np.zeros(3))


def test_inline_values():
    assert njit(inline="always")(fifth)(np.arange(6.0)) == 5.0
    assert njit(inline="never")(fifth)(np.arange(6.0)) == 5.0
    assert njit(inline=lambda *a: True)(fifth)(np.arange(6.0)) == 5.0
    with pytest.raises(ValueError, match="inline must be"):
        njit(inline="sometimes")(fifth)


def test_nopython_and_forceobj():
    assert njit(nopython=False)(fifth)(np.arange(6.0)) == 5.0  # nopython is the only mode
    assert njit(forceobj=True)(fifth)(np.arange(6.0)) == 5.0  # object mode: run as Python runs it


@pytest.mark.parametrize("make", [
    lambda: njit(bogus=1),
    lambda: njit(_nrt=False),
    lambda: vectorize(["float64(float64)"], parallel=True)(lambda x: x),
    lambda: cfunc("float64(float64)", bogus=1)(lambda x: x),
    lambda: stencil(bogus=1),
    lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", bogus=1)(lambda a, b: None),
])
def test_unknown_keywords(make):
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        make()


def test_refused_options():
    with pytest.raises(UnsupportedError, match="pipeline_class"):
        cfunc("float64(float64)", pipeline_class=object)(lambda x: x)
    with pytest.raises(UnsupportedError, match="cache"):
        vectorize(["float64(float64)"], target="cuda", cache=True)(lambda x: x)
    with pytest.raises(UnsupportedError, match="writable_args"):
        guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda", writable_args=(0,))(
            lambda a, b: None)


def test_ufunc_options_reach_the_loop():
    u = vectorize(["float64(float64)"], nogil=True, fastmath=True, debug=True, error_model="python")(lambda x: x + 1)
    assert u(np.ones(2)).tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="error_model"):
        vectorize(["float64(float64)"], error_model="fast")(lambda x: x)
