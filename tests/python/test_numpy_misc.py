"""NumPy features of issue 28 outside the shape and sorting functions: window functions and
np.i0, tri, vander, take, ptp, extract, iinfo/finfo, ndenumerate, nditer, 0-d arrays
(np.array(scalar), a.item()), any()/all() of arrays, `x in a`, storing lists into arrays,
np.full_like(fill_value=), NumPy functions given lists and tuples, structured arrays made
in compiled code, array methods (clip, conj, round, repeat, take, ptp), and errors inside
the NumPy library reported at the user's line."""

import numpy as np
import pytest

from conftest import assert_same, check
from mahou import njit
from mahou.errors import TypingError, UnsupportedError


# ---------------------------------------------------------------- windows
@pytest.mark.parametrize("m", [-2, 0, 1, 2, 5, 12])
def test_windows(m):
    check(lambda n: (np.hanning(n), np.hamming(n), np.blackman(n), np.bartlett(n)), m)
    # np.exp of NumPy's arrays is its own SIMD code: kaiser's values may differ in the last bit
    check(lambda n: (np.kaiser(n, 14), np.kaiser(n, 0.0), np.kaiser(n, 5.5)), m, rtol=1e-15)


def test_i0():
    x = np.array([-3.0, 0.0, 0.5, 7.9, 8.0, 8.1, 30.0, np.nan])
    check(lambda v: np.i0(v), x)
    check(lambda v: np.i0(v), np.arange(4).reshape(2, 2))
    check(lambda s: np.i0(s), 2.5)


# ---------------------------------------------------------------- tri, vander, take, ptp, extract
def test_tri():
    check(lambda: (np.tri(3), np.tri(3, 5), np.tri(4, 2, 1), np.tri(3, k=-1), np.tri(0)))
    check(lambda: (np.tri(3, dtype=np.int32), np.tri(2, 3, 0, np.bool_)))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint32, np.float32, np.float64, np.complex128])
def test_vander(dtype):
    x = np.array([1, 2, 3, 5], dtype=dtype)
    check(lambda v: (np.vander(v), np.vander(v, 3), np.vander(v, increasing=True), np.vander(v, 0)), x)
    check(lambda v: np.vander(v), x[::-2])
    check(lambda: np.vander([1.5, 2.0], 3))


def test_take_ptp_extract():
    a = np.arange(12.0).reshape(3, 4)
    check(lambda v: (np.take(v, 5), np.take(v, [0, -1, 7]), np.take(v, np.array([[1, 2], [3, 4]])), v.take(2)), a)
    check(lambda v: np.ptp(v), a[:, ::-2])
    assert njit(lambda v: v.ptp())(a[:, ::-2]) == np.ptp(a[:, ::-2])  # a method NumPy 2 dropped, as Numba has
    check(lambda v: np.extract(v % 3 == 0, v), a)
    with pytest.raises(IndexError):
        njit(lambda v: np.take(v, 12))(a)
    with pytest.raises(ValueError):
        njit(lambda v: np.ptp(v))(np.empty(0))


# ---------------------------------------------------------------- iinfo, finfo
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_iinfo(dtype):
    info = np.iinfo(dtype)
    got = njit(lambda: np.iinfo(dtype))()
    assert (got.bits, got.min, got.max) == (info.bits, info.min, info.max)
    got = njit(lambda a: (np.iinfo(a.dtype).max, np.iinfo(a.dtype).min))(np.zeros(1, dtype=dtype))
    assert got == (info.max, info.min)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_finfo(dtype):
    info = np.finfo(dtype)
    got = njit(lambda: np.finfo(dtype))()
    for name in ("bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal", "resolution", "precision",
                 "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant"):
        assert getattr(got, name) == getattr(info, name), name
    assert njit(lambda x: np.finfo(x.dtype).eps)(np.zeros(1, dtype=dtype)) == info.eps  # of the dtype's float type


def test_finfo_of_an_integer_is_refused():
    with pytest.raises(UnsupportedError, match="float"):
        njit(lambda: np.finfo(np.int32))()
    with pytest.raises(UnsupportedError, match="float16"):
        njit(lambda: np.finfo(np.float16))()


# ---------------------------------------------------------------- ndenumerate, nditer
def test_ndenumerate():
    def pairs(a):
        out = []
        for idx, v in np.ndenumerate(a):
            out.append((idx, v))
        return out

    for a in (np.arange(6.0).reshape(2, 3), np.arange(6).reshape(3, 2).T, np.arange(4.0), np.empty((0, 2))):
        assert njit(pairs)(a) == pairs(a)


def test_nditer():
    def items(a):
        s = 0.0
        out = []
        for x in np.nditer(a):
            out.append(x.item())
            s += x[()]
        return out, s

    for a in (np.arange(6.0).reshape(2, 3), np.arange(3.0)):
        assert njit(items)(a) == items(a)
    # NumPy's default order='K' walks memory order; Numba's nditer (and mahou's) walks C order
    r = np.arange(6.0).reshape(3, 2)[::-1]
    got = njit(items)(r)
    assert got == (list(r.ravel()), 15.0)


# ---------------------------------------------------------------- 0-d arrays, item
@pytest.mark.parametrize("value", [3, 2.5, True, 1 + 2j])
def test_array_of_a_scalar(value):
    check(lambda x: (np.array(x), np.asarray(x), np.array(x, dtype=np.complex64)), value)
    if not isinstance(value, complex):
        check(lambda x: np.array(x, dtype=np.float32), value)
    check(lambda x: np.ascontiguousarray(x), value)
    check(lambda x: np.array(x).item(), value)


def test_item():
    check(lambda a: a.item(), np.array([7.5]))
    check(lambda a: a.item(), np.array([[3]], dtype=np.int16))
    check(lambda a: a[1:2].item(), np.arange(4))
    check(lambda a: a.item(), np.array(2 + 1j))
    with pytest.raises(ValueError, match="size 1"):
        njit(lambda a: a.item())(np.arange(3))


# ---------------------------------------------------------------- any(), all(), in
def test_builtin_any_all_of_arrays():
    check(lambda a: (any(a), all(a)), np.array([0, 0, 1]))
    check(lambda a: (any(a), all(a)), np.array([1.0, 2.0]))
    check(lambda a: (any(a), all(a)), np.empty(0))
    check(lambda a: (any(a[::2]), all(a > 0)), np.array([0.0, 1.0, 0.0]))
    with pytest.raises(TypingError, match="ambiguous"):
        njit(lambda a: any(a))(np.zeros((2, 2)))


def test_in_array():
    a = np.array([[1, 2], [3, 4]], dtype=np.int32)
    check(lambda v, x: (x in v, x not in v, 2.0 in v, 9 in v), a, 3)
    check(lambda v: (np.nan in v, 1.0 in v), np.array([np.nan, 1.0]))
    check(lambda v: 1 in v, np.empty(0))


# ---------------------------------------------------------------- stores of lists
def test_store_list_into_array():
    def whole(a, n):
        a[:] = [i * 2 for i in range(n)]
        return a

    def part(a):
        a[1:3] = [7, 8]
        a[3:] = [0.5]
        return a

    def rows(m):
        m[0] = [1, 2, 3]
        m[1:] = [[4, 5, 6]]
        return m

    check(whole, np.zeros(4), 4)
    check(whole, np.zeros(4, dtype=np.int32), 4)
    check(part, np.zeros(5))
    check(rows, np.zeros((3, 3)))
    with pytest.raises(ValueError):
        njit(whole)(np.zeros(3), 4)


# ---------------------------------------------------------------- full_like, array-likes
def test_full_like_keywords():
    a = np.arange(6).reshape(2, 3)
    check(lambda v: (np.full_like(v, fill_value=2.5), np.full_like(v, 7, dtype=np.float32),
                     np.full_like(v, fill_value=1, dtype=np.int8)), a)


def test_functions_given_lists_and_tuples():
    check(lambda: (np.median([3, 1, 2]), np.percentile((1.0, 5.0, 2.0), 50), np.cross([1, 0, 0], [0, 1, 0]),
                   np.kron([1, 2], [3, 4]), np.outer([1, 2], (3.0, 4.0)), np.diff([1, 4, 9]),
                   np.convolve([1, 2], [1, 1]), np.interp(1.5, [1, 2], [10, 20]), np.repeat([1, 2], 2),
                   np.trace(np.eye(3)), np.flatnonzero([0, 3, 0, 4]), np.nanmax([1.0, np.nan])))
    check(lambda x: np.transpose([[1, 2], [3, 4]]) + x, 1)


# ---------------------------------------------------------------- structured arrays
REC = np.dtype([("x", np.float64), ("n", np.int32), ("flag", np.bool_)])


def test_structured_arrays_made_in_compiled_code():
    def make(n):
        a = np.zeros(n, dtype=REC)
        for i in range(n):
            a[i].x = i * 0.5
            a[i].n = i
        b = np.empty(2, REC)
        b[0].x = 1.5
        return a, b[0].x

    got = njit(make)(3)
    expected = np.zeros(3, dtype=REC)
    expected["x"] = [0.0, 0.5, 1.0]
    expected["n"] = [0, 1, 2]
    assert got[0].dtype == REC
    np.testing.assert_array_equal(got[0], expected)
    assert got[1] == 1.5
    check(lambda a: np.zeros_like(a), np.ones(2, dtype=REC))
    with pytest.raises(UnsupportedError, match="structured dtype"):
        njit(lambda n: np.ones(n, dtype=REC))(2)


# ---------------------------------------------------------------- array methods
def test_array_methods():
    a = np.array([[1.5, -2.25], [3.0, -0.5]])
    check(lambda v: (v.clip(0.0, 2.0), v.clip(None, 1.0), v.clip(-1.0), v.round(), v.round(1), v.repeat(2),
                     v.conj(), v.conjugate(), v.take([0, 3])), a)
    # Numba's keyword names (NumPy 2 calls them min and max)
    assert np.array_equal(njit(lambda v: v.clip(a_max=1.0))(a), a.clip(max=1.0))
    assert np.array_equal(njit(lambda v: v.clip(a_min=0.0))(a[::-1]), a[::-1].clip(min=0.0))
    c = np.array([1 + 2j, 3 - 1j])
    check(lambda v: (v.conj(), v.conjugate()), c)


# ---------------------------------------------------------------- errors in the library
def test_library_error_points_at_the_users_line():
    def f(a):
        return np.median(a)  # a tuple of strings has no median

    with pytest.raises((TypingError, UnsupportedError)) as info:
        njit(f)(("a", "b"))
    text = str(info.value)
    assert "test_numpy_misc.py" in text and "np.median()" in text and "mahou/_library/" in text


# ---------------------------------------------------------------- trapezoid, dtype values, scalar item
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_trapezoid(dtype):
    y = np.array([1, 4, 9, 3, -2], dtype=dtype)
    x = np.array([0.0, 0.5, 2.0, 2.5, 4.0])
    check(lambda v, w: (np.trapezoid(v, w), np.trapezoid(v), np.trapezoid(v, dx=0.5), np.trapezoid(v, x=w[::-1])),
          y, x)
    check(lambda v: (np.trapezoid(v), np.trapezoid(v[::2])), y)
    check(lambda v: np.trapezoid(v), np.empty(0, dtype=dtype))
    check(lambda: np.trapezoid([1.0, 2.0, 4.0], [0, 1, 3]))
    with pytest.raises(ValueError):
        njit(lambda v, w: np.trapezoid(v, w))(y, x[:3])
    with pytest.raises(UnsupportedError, match="dimension"):
        njit(lambda v: np.trapezoid(v))(np.ones((2, 2)))


def test_numpy_function_held_in_a_variable():
    def f(y, x, flag):
        if flag:
            rule = np.trapezoid
        else:
            rule = np.trapezoid
        return rule(y, x)

    check(f, np.array([1.0, 3.0, 2.0]), np.array([0.0, 1.0, 3.0]), True)
    with pytest.raises(TypingError, match="incompatible types"):
        njit(lambda y, flag: (np.trapezoid if flag else np.median)(y))(np.ones(3), True)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.complex128])
def test_dtype_kind_and_itemsize(dtype):
    check(lambda a: (a.dtype.kind, a.dtype.itemsize, a.dtype.kind == "f"), np.zeros(2, dtype=dtype))
    assert njit(lambda: (REC.kind, REC.itemsize))() == ("V", REC.itemsize)


def test_dtype_names_of_numpy_and_mahou():
    import mahou

    check(lambda x: (np.int_(x), np.double(x), np.intp(x)), 2.75)
    assert njit(lambda x: mahou.uint8(x))(300) == np.uint8(300 % 256)
    got = njit(lambda n: np.zeros(n, dtype=mahou.uint32))(3)
    assert got.dtype == np.uint32 and got.shape == (3,)


def test_scalar_item():
    check(lambda a: (a[0].item(), a[1].item(), (a[0] + 1).item()), np.array([3, -4], dtype=np.int16))
    check(lambda a: a[0].item(), np.array([2.5]))


def test_array_of_a_list_of_tuples():
    def pairs(n):
        path = []
        for i in range(n):
            path.append((i, -i * 2))
        return np.array(path), np.transpose(np.array(path)[::-1]), np.asarray(path, dtype=np.float32)

    check(pairs, 1)
    check(pairs, 4)
    assert njit(pairs)(0)[0].shape == (0, 0)  # NumPy's is (0,): not 2-D
    check(lambda x: np.array([(x, 2.5), (3, 4)]), 1)


# ---------------------------------------------------------------- average, isposinf/isneginf, is*obj
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_average(dtype):
    a = np.array([[1, -2, 3], [4, 5, -6]], dtype=dtype)
    w = np.array([[1.0, 0.5, 2.0], [0.0, 1.0, 3.0]])
    check(lambda v, x: (np.average(v), np.average(v, weights=x), np.average(v[:, ::-1], weights=v[:, ::-1].real)),
          a, w, rtol=1e-6 if dtype == np.float32 else 1e-15)
    # complex / complex: NumPy multiplies by the reciprocal (an ulp from a plain division)
    check(lambda v: np.average(v, weights=np.ones(v.shape, dtype=np.int64)), a, rtol=1e-15)
    with pytest.raises(ZeroDivisionError):
        njit(lambda v, x: np.average(v, weights=x))(a, np.zeros(a.shape))
    with pytest.raises(TypeError, match="shapes"):
        njit(lambda v, x: np.average(v, weights=x))(a, w[0])
    with pytest.raises(UnsupportedError, match="axis"):
        njit(lambda v: np.average(v, axis=0))(a)


def test_isposinf_isneginf_and_kind_tests():
    x = np.array([1.0, np.nan, -np.inf, np.inf, -0.0])
    check(lambda v: (np.isposinf(v), np.isneginf(v), np.isposinf(v[::-2].astype(np.float32))), x)
    check(lambda s: (np.isposinf(s), np.isneginf(s)), -np.inf)
    with pytest.raises(TypeError):
        njit(lambda v: np.isposinf(v))(x + 1j)
    for v in (1, 2.5, 1 + 0j, np.arange(3), np.zeros(2, dtype=np.complex64)):
        check(lambda u: (np.iscomplexobj(u), np.isrealobj(u)), v)
