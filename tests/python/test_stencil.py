"""@stencil: relative indexing over the interior, cval on the border; called from Python
and from compiled code; compared with the kernel run point by point in Python."""

import itertools

import numpy as np
import pytest

import mahou
from mahou import njit, stencil


def reference(kernel, lo, hi, *args, cval=0, dtype=None):
    """The kernel at each interior point, in Python (relative indices shifted by hand)."""
    first = next(a for a in args if isinstance(a, np.ndarray))
    out = np.full(first.shape, cval, dtype=dtype or first.dtype)

    class Shifted:
        def __init__(self, a, at):
            self.a, self.at = a, at

        def __getitem__(self, rel):
            rel = rel if isinstance(rel, tuple) else (rel,)
            return self.a[tuple(i + r for i, r in zip(self.at, rel))]

    ranges = [range(-l, n - h) for l, h, n in zip(lo, hi, first.shape)]
    for at in itertools.product(*ranges):
        shifted = [Shifted(a, at) if isinstance(a, np.ndarray) else a for a in args]
        out[at] = kernel(*shifted)
    return out


def laplace(a):
    return a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1] - 4 * a[0, 0]


lap = stencil(laplace)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
def test_laplace(dtype):
    a = (np.arange(42) % 7 * 3 - 5).astype(dtype).reshape(6, 7)
    got = lap(a)
    want = reference(laplace, (-1, -1), (1, 1), a, dtype=got.dtype)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == (np.float64 if dtype == np.float64 else got.dtype)


def test_views_and_small_arrays():
    a = np.arange(80.0).reshape(8, 10)
    v = a[::2, 1::3]
    np.testing.assert_array_equal(lap(v), reference(laplace, (-1, -1), (1, 1), np.ascontiguousarray(v)))
    np.testing.assert_array_equal(lap(np.ones((2, 2))), np.zeros((2, 2)))   # no interior
    assert lap(np.zeros((0, 3))).shape == (0, 3)


def test_one_dimensional_with_extra_argument_and_cval():
    @stencil(cval=-1.0)
    def smooth(a, w):
        return w * a[-1] + (1 - 2 * w) * a[0] + w * a[2]

    a = np.linspace(0, 1, 9) ** 2
    got = smooth(a, 0.25)
    want = reference(lambda x, w: w * x[-1] + (1 - 2 * w) * x[0] + w * x[2], (-1,), (2,), a, 0.25, cval=-1.0)
    np.testing.assert_allclose(got, want)
    assert got[0] == -1.0 and got[-1] == -1.0 and got[-2] == -1.0


def test_neighborhood_with_loop_indices():
    @stencil(neighborhood=((-2, 0),))
    def trailing_mean(a):
        s = 0.0
        for i in range(-2, 1):
            s += a[i]
        return s / 3

    a = np.arange(10.0)
    np.testing.assert_allclose(trailing_mean(a), reference(lambda x: (x[-2] + x[-1] + x[0]) / 3, (-2,), (0,), a))
    @stencil
    def variable_index(a):
        return a[len(a.shape) - 1]

    with pytest.raises(mahou.errors.TypingError, match="neighborhood"):
        variable_index(np.arange(3.0))


def test_two_arrays_and_standard_indexing():
    @stencil(standard_indexing=("weights",))
    def weighted(a, b, weights):
        return weights[0] * a[0, 1] + weights[1] * b[-1, 0]

    a = np.arange(20.0).reshape(4, 5)
    b = np.ones((4, 5))
    w = np.array([2.0, 3.0])
    want = reference(lambda x, y: 2.0 * x[0, 1] + 3.0 * y[-1, 0], (-1, 0), (0, 1), a, b)
    np.testing.assert_array_equal(weighted(a, b, w), want)
    with pytest.raises(ValueError, match="same shape"):
        weighted(a, np.ones((3, 5)), w)


def test_out_argument_keeps_the_border():
    a = np.arange(25.0).reshape(5, 5)
    out = np.full((5, 5), 7.0)
    r = lap(a, out=out)
    assert r is not None
    np.testing.assert_array_equal(out[1:-1, 1:-1], lap(a)[1:-1, 1:-1])
    assert out[0, 0] == 7.0 and out[4, 2] == 7.0


def test_complex_kernel_with_loop_and_int_result():
    @stencil
    def escape(c, max_iter):
        z = 0j
        i = 0
        while i < max_iter and abs(z) <= 2:
            z = z * z + c[0, 0]
            i += 1
        return i

    def py_escape(c, m):
        z, i = 0j, 0
        while i < m and abs(z) <= 2:
            z = z * z + c
            i += 1
        return i

    c = (np.linspace(-2, 1, 6)[None, :] + 1j * np.linspace(-1, 1, 4)[:, None])
    got = escape(c, 30)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, np.vectorize(py_escape)(c, 30))


def test_called_from_compiled_code():
    @njit
    def twice(a):
        return lap(lap(a))

    a = np.arange(49.0).reshape(7, 7) ** 1.5
    np.testing.assert_allclose(twice(a), lap(lap(a)))

    @njit
    def pass_through(st, a):
        return st(a)

    np.testing.assert_allclose(pass_through(lap, a), lap(a))


def test_parallel_caller_runs_the_interior_on_threads():
    # Called from a parallel=True function the driver's outer loop is a prange (Numba's
    # parfor); the results are the serial ones, also for arrays of 0, 1 and 2 rows.
    @njit(parallel=True)
    def par(a):
        return lap(a)

    @njit
    def ser(a):
        return lap(a)

    for shape in [(300, 41), (2, 5), (1, 1), (0, 4), (3, 3)]:
        a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) ** 1.5
        np.testing.assert_array_equal(par(a), ser(a))
        np.testing.assert_array_equal(par(a), reference(laplace, (-1, -1), (1, 1), a))
    drivers = [d for (_, _, parallel), d in lap._drivers.items() if parallel]
    assert drivers and all(d.targetoptions["parallel"] for d in drivers)
    notes = "\n".join(line for d in drivers for lines in d._parallel_notes.values() for line in lines)
    assert "parallel" in notes.lower()


def test_bad_stencils():
    with pytest.raises(ValueError, match="mode"):
        stencil("reflect")(laplace)
    with pytest.raises(mahou.errors.TypingError, match="1-d array"):
        lap(np.arange(5.0))
    with pytest.raises(TypeError):
        stencil(bogus=1)
