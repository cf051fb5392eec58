"""@stencil calls with keyword arguments and out=, from Python and from compiled code,
and kernels annotated with names only a type checker sees (PEP 563 strings)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest

from mahou import njit, stencil

if TYPE_CHECKING:
    from numpy.typing import NDArray  # never imported at run time


@stencil
def shear(x: NDArray[np.float64], factor: float, offset: int = 0) -> NDArray[np.float64]:
    return x[0, 1] * factor - x[0, -1] + offset


@stencil
def crossing(x: NDArray[np.float64], threshold: float, zero_pos: bool) -> NDArray[np.bool_]:
    return (x[0] > threshold) != (x[-1] > threshold) or (zero_pos and x[0] == 0)


def expected_shear(x, factor, offset=0):
    out = np.zeros_like(x)
    out[:, 1:-1] = x[:, 2:] * factor - x[:, :-2] + offset
    return out


def expected_crossing(x, threshold, zero_pos):
    out = np.zeros(x.shape, dtype=np.bool_)
    a, b = x[1:] > threshold, x[:-1] > threshold
    out[1:] = (a != b) | (zero_pos & (x[1:] == 0))
    return out


X = np.arange(20.0).reshape(4, 5) ** 1.5


@pytest.mark.parametrize("kwargs", [{"factor": 2.0}, {"factor": -1.0, "offset": 3}, {"offset": 1, "factor": 0.5}])
def test_keywords_from_python(kwargs):
    np.testing.assert_allclose(shear(X, **kwargs), expected_shear(X, **kwargs))
    np.testing.assert_allclose(shear(X[:, ::-1], **kwargs), expected_shear(X[:, ::-1], **kwargs))
    with pytest.raises(TypeError):
        shear(X, factor=1.0, nope=2)


def test_out_from_python():
    out = np.full(X.shape, -7.0)
    r = shear(X, 2.0, out=out)
    assert r is out or np.shares_memory(r, out)
    inner = expected_shear(X, 2.0)[:, 1:-1]
    np.testing.assert_allclose(out[:, 1:-1], inner)
    assert (out[:, 0] == -7.0).all() and (out[:, -1] == -7.0).all()  # the border is left alone


@pytest.mark.parametrize("x", [np.array([1.0, -1.0, 0.0, 2.0, 2.0, -3.0]), np.zeros(4), np.array([5.0])])
@pytest.mark.parametrize("zero_pos", [True, False])
def test_annotated_boolean_kernel(x, zero_pos):
    np.testing.assert_array_equal(crossing(x, 0.0, zero_pos), expected_crossing(x, 0.0, zero_pos))


def test_keywords_and_out_from_compiled_code():
    @njit
    def driver(x, f):
        a = shear(x, factor=f)
        b = np.full(x.shape, 9.0)
        shear(x, f, offset=2, out=b)
        c = shear(x, offset=1, factor=f)
        return a, b, c

    a, b, c = driver(X, 1.5)
    np.testing.assert_allclose(a, expected_shear(X, 1.5))
    np.testing.assert_allclose(b[:, 1:-1], expected_shear(X, 1.5, 2)[:, 1:-1])
    assert (b[:, 0] == 9.0).all()
    np.testing.assert_allclose(c, expected_shear(X, 1.5, 1))


def test_assigning_a_stencil_result_into_a_view():
    @njit
    def fill(x, y):
        y[:] = crossing(x, 0.5, True)
        return y

    x = np.array([0.0, 1.0, 0.0, 2.0])
    np.testing.assert_array_equal(fill(x, np.zeros(4, np.bool_)), expected_crossing(x, 0.5, True))
