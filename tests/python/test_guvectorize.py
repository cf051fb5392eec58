"""@guvectorize: NumPy generalised ufuncs over compiled loops, compared with the same
function run in Python over the outer dimensions and with NumPy's results."""

import numpy as np
import pytest

import mahou
from mahou import float32, float64, guvectorize, int64, njit


def moving_average(a, window, out):
    n = a.shape[0]
    acc = 0.0
    for i in range(n):
        acc += a[i]
        if i >= window:
            acc -= a[i - window]
        out[i] = acc / min(i + 1, window)


mavg = guvectorize([(float32[:], int64, float32[:]), (float64[:], int64, float64[:])], "(n),()->(n)")(moving_average)


def matmul_core(a, b, c):
    m, n = a.shape
    p = b.shape[1]
    for i in range(m):
        for j in range(p):
            s = 0.0
            for k in range(n):
                s += a[i, k] * b[k, j]
            c[i, j] = s


gmatmul = guvectorize(["void(float64[:, :], float64[:, :], float64[:, :])"], "(m,n),(n,p)->(m,p)")(matmul_core)


def py_mavg(a, window):
    out = np.empty_like(a)
    for idx in np.ndindex(*a.shape[:-1]):
        moving_average(a[idx], window, out[idx])
    return out


def test_is_a_gufunc():
    assert isinstance(mavg.ufunc, np.ufunc)
    assert mavg.signature == "(n),()->(n)"
    assert mavg.types == ["fl->f", "dl->d"]
    assert mavg.nin == 2 and mavg.nout == 1


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_moving_average(dtype):
    a = np.random.default_rng(1).standard_normal((7, 50)).astype(dtype)
    got = mavg(a, 5)
    assert got.dtype == dtype
    # (the reference sums float32 in float32 under NEP 50; compiled code sums in float64, as Numba)
    np.testing.assert_allclose(got, py_mavg(a, 5), rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-6 if dtype == np.float32 else 0)


def test_views_broadcasting_and_out():
    a = np.arange(60.0).reshape(3, 20)
    v = a[:, ::2]                      # strided core dimension
    np.testing.assert_allclose(mavg(v, 3), py_mavg(np.ascontiguousarray(v), 3))
    t = np.asfortranarray(a)
    np.testing.assert_allclose(mavg(t, 4), py_mavg(a, 4))
    w = np.array([1, 2, 3])            # the scalar argument broadcast over the outer dims
    got = mavg(a, w)
    for i in range(3):
        np.testing.assert_allclose(got[i], py_mavg(a[i], i + 1))
    out = np.empty_like(a)
    assert mavg(a, 2, out=out) is out
    np.testing.assert_allclose(out, py_mavg(a, 2))
    assert mavg(np.zeros((0, 4)), 2).shape == (0, 4)
    assert mavg(np.zeros((3, 0)), 2).shape == (3, 0)


def test_matmul_layout():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((4, 3, 5))
    b = rng.standard_normal((5, 2))
    np.testing.assert_allclose(gmatmul(a, b), a @ b)
    with pytest.raises(ValueError):
        gmatmul(a, rng.standard_normal((4, 2)))   # core dimension n differs: NumPy's error


def test_scalar_output_and_inputs_written():
    @guvectorize([(int64[:], int64, int64[:])], "(n),()->()")
    def total(x, y, res):
        acc = 0
        for i in range(x.shape[0]):
            acc += x[i] + y
        res[0] = acc

    assert total(np.arange(5), 2) == 20
    np.testing.assert_array_equal(total(np.arange(12).reshape(3, 4), -1), [2, 18, 34])

    @guvectorize([(float64[:], float64[:])], "()->()")
    def init(invals, outvals):
        invals[0] = 6.5
        outvals[0] = 4.2

    inv = np.zeros((3, 3))
    np.testing.assert_array_equal(init(inv), np.full((3, 3), 4.2))
    np.testing.assert_array_equal(inv, np.full((3, 3), 6.5))


def test_unwritten_output_is_not_an_error():
    @guvectorize([(float64[:], float64[:])], "(n)->(n)")
    def skip(x, out):
        if x.shape[0] > 100:
            out[0] = 1.0

    assert skip(np.zeros(3)).shape == (3,)


def test_layout_without_outputs_writes_its_arguments():
    @guvectorize(["(f8[:], f8[:])"], "(n), (k)")
    def diffs(r, out):
        n = r.shape[0]
        out[0] = r[0]
        for i in range(1, n):
            out[i] = r[i] - r[i - 1]
        out[n] = 1 - r[n - 1]

    r = np.array([[0.2, 0.5], [0.1, 0.9]])
    x = np.empty((2, 3))
    diffs(r, x)
    np.testing.assert_allclose(x, [[0.2, 0.3, 0.5], [0.1, 0.8, 0.1]])


def test_dynamic_gufunc():
    @guvectorize("(),(k)->(k)")
    def scaled(s, r, out):
        for j in range(r.shape[0]):
            out[j] = r[j] * s

    out = np.empty(3)
    scaled(2.0, np.array([1.0, 2.0, 3.0]), out)
    np.testing.assert_array_equal(out, [2.0, 4.0, 6.0])
    iout = np.empty((2, 3), dtype=np.int64)
    scaled(3, np.arange(6).reshape(2, 3), iout)
    np.testing.assert_array_equal(iout, np.arange(6).reshape(2, 3) * 3)
    assert scaled.is_dynamic and scaled.ntypes == 2
    with pytest.raises(TypeError, match="Too few arguments"):
        scaled(2.0, np.ones(3))


def test_writable_args():
    @guvectorize([(float64[:], float64[:])], "(n)->(n)", writable_args=(0,))
    def bump(x, out):
        for i in range(x.shape[0]):
            x[i] += 1.0
            out[i] = x[i]

    x = np.arange(4, dtype=np.float32)   # cast to float64 by NumPy: written back
    out = bump(x)
    np.testing.assert_array_equal(out, [1, 2, 3, 4])
    np.testing.assert_array_equal(x, [1, 2, 3, 4])


def test_exception_is_raised():
    @guvectorize([(float64[:], float64[:])], "(n)->()")
    def first_positive(x, out):
        for i in range(x.shape[0]):
            if x[i] > 0:
                out[0] = x[i]
                return
        raise ValueError("no positive value")

    np.testing.assert_array_equal(first_positive(np.array([[-1.0, 2.0], [3.0, 4.0]])), [2.0, 3.0])
    with pytest.raises(ValueError, match="no positive value"):
        first_positive(np.array([[-1.0, 2.0], [-3.0, -4.0]]))


def test_bad_layouts_and_signatures():
    with pytest.raises(ValueError, match="invalid gufunc layout"):
        guvectorize([(float64[:], float64[:])], "(n->(n)")(moving_average)
    with pytest.raises(ValueError, match="test_guvectorize.py"):
        guvectorize([(float64[:], float64[:])], "(n)->(n)")(moving_average)   # 3 parameters
    with pytest.raises(TypeError, match="mismatch"):
        guvectorize([(float64[:, :], int64, float64[:])], "(n),()->(n)")(moving_average)
    with pytest.raises(TypeError, match="scalar type"):
        guvectorize([(float64, int64, float64[:])], "(n),()->(n)")(moving_average)
    with pytest.raises(mahou.errors.TypingError, match="returns nothing"):
        @guvectorize([(float64[:], float64[:])], "(n)->(n)")
        def returns(x, out):
            return x


def test_called_with_njit_function_inside():
    @njit
    def helper(v):
        return v * 2.0

    @guvectorize([(float64[:], float64[:])], "(n)->(n)")
    def doubled(x, out):
        for i in range(x.shape[0]):
            out[i] = helper(x[i])

    np.testing.assert_array_equal(doubled(np.arange(4.0)), np.arange(4.0) * 2)


# ---- target='parallel'

def test_parallel_gufunc_matches_cpu():
    pavg = guvectorize([(float64[:], int64, float64[:])], "(n),()->(n)", target="parallel")(moving_average)
    a = np.random.default_rng(3).standard_normal((101, 37))
    np.testing.assert_array_equal(pavg(a, 4), mavg(a, 4))
    np.testing.assert_array_equal(pavg(a[::2, ::3], 2), mavg(a[::2, ::3], 2))
    np.testing.assert_array_equal(pavg(a[0], 3), mavg(a[0], 3))


def test_parallel_gufunc_no_outputs_and_errors():
    @guvectorize(["(f8[:], f8[:])"], "(n), (k)", target="parallel")
    def fill(r, out):
        if r[0] < 0:
            raise ValueError("negative row")
        for i in range(out.shape[0]):
            out[i] = r[0] * i

    r = np.arange(50.0).reshape(25, 2)
    x = np.empty((25, 4))
    fill(r, x)
    np.testing.assert_array_equal(x, r[:, :1] * np.arange(4.0))
    r[13, 0] = -1.0
    with pytest.raises(ValueError, match="negative row"):
        fill(r, x)


def test_sort_in_place_of_a_strided_core_view():
    @guvectorize([(float64[:], float64[:])], "(n)->(n)")
    def sorted_copy(x, out):
        x.sort()
        for i in range(x.shape[0]):
            out[i] = x[i]

    a = np.array([[3.0, 9.0, 1.0, 7.0, 2.0, 8.0]])
    v = a[:, ::2]                       # strided: [3, 1, 2]
    np.testing.assert_array_equal(sorted_copy(v), [[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(a, [[1.0, 9.0, 2.0, 7.0, 3.0, 8.0]])

    @njit
    def sort_view(b):
        b[::-2].sort()

    b = np.array([5, 0, 4, 0, 3, 0, 9], dtype=np.int64)
    sort_view(b)
    np.testing.assert_array_equal(b, [9, 0, 5, 0, 4, 0, 3])  # b[6], b[4], b[2], b[0] sorted ascending
