"""NumPy ufuncs with an output argument, np.sin(x, r) / np.sin(x, out=r), as a statement:
compiled with @njit (compared with NumPy) and inside CUDA kernels."""

import numpy as np
import pytest

from mahou import cuda, njit
from mahou.errors import TypingError, UnsupportedError


def sin_into(x, r):
    np.sin(x, r)


def hypot_into(a, b, r):
    np.hypot(a, b, out=r)


def maximum_into(a, b, r):
    np.maximum(a, b, r)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_njit_unary_into_out(dtype):
    x = (np.arange(11, dtype=dtype) - 5) / 2
    for r in [np.zeros_like(x), np.zeros(22, dtype)[::2]]:
        expected = r.copy()
        np.sin(x, expected)
        njit(sin_into)(x, r)
        np.testing.assert_allclose(r, expected, rtol=1e-6)


def test_njit_binary_broadcast_and_casting():
    a = np.arange(12.0).reshape(3, 4) - 6
    b = np.array([1.0, -2.0, 3.0, 0.5])
    r = np.empty((3, 4))
    njit(hypot_into)(a, b, r)
    np.testing.assert_allclose(r, np.hypot(a, b))
    r32 = np.empty((3, 4), np.float32)  # float64 → float32 is same_kind
    njit(maximum_into)(a, b, r32)
    np.testing.assert_array_equal(r32, np.maximum(a, b).astype(np.float32))
    ints = np.arange(4)
    out = np.zeros(4, np.int64)
    njit(maximum_into)(ints, ints[::-1], out)
    np.testing.assert_array_equal(out, np.maximum(ints, ints[::-1]))
    with pytest.raises(TypingError, match="same_kind"):
        njit(sin_into)(np.arange(4.0), np.zeros(4, np.int64))


def test_njit_out_as_a_value_is_refused():
    def value(x, r):
        return np.sin(x, r)

    with pytest.raises(UnsupportedError, match="statement"):
        njit(value)(np.zeros(3), np.zeros(3))


@cuda.jit
def kernel_sin(r, x):
    np.sin(x, r)


@cuda.jit
def kernel_rows(r, x):
    i = cuda.grid(1)
    if i < r.shape[0]:
        np.sqrt(x[i], out=r[i])


@pytest.mark.gpu
def test_ufunc_into_out_in_kernels():
    x = np.arange(10, dtype=np.float32) - 5
    r = np.zeros_like(x)
    kernel_sin[1, 1](r, x)
    np.testing.assert_allclose(r, np.sin(x), rtol=1e-6, atol=1e-7)
    m = np.arange(12.0).reshape(4, 3)
    out = cuda.device_array((4, 3))
    kernel_rows[1, 4](out, cuda.to_device(m))
    np.testing.assert_allclose(out.copy_to_host(), np.sqrt(m))
