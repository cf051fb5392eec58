"""Array creation in compiled code: np.empty, zeros, ones, full, arange, empty_like,
zeros_like, a.copy(); shape as int or tuple; dtype= keyword."""

import numpy as np
import pytest

from conftest import check, jitted

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.bool_, np.complex128]


def dtype_id(d):
    return np.dtype(d).name


# ---------------------------------------------------------------------------
# np.empty (then fill), np.zeros, np.ones, np.full: default dtype
# ---------------------------------------------------------------------------


def empty_then_fill(n):
    a = np.empty(n)
    for i in range(n):
        a[i] = i * 0.5
    return a


def zeros_1d(n):
    return np.zeros(n)


def ones_1d(n):
    return np.ones(n)


def zeros_2d(n, m):
    return np.zeros((n, m))


def ones_3d(n, m, k):
    return np.ones((n, m, k))


def full_float(n, v):
    return np.full(n, v)


def full_2d(n, m, v):
    return np.full((n, m), v)


@pytest.mark.parametrize("n", [0, 1, 5, 1000])
def test_empty_fill(n):
    r = check(empty_then_fill, n)
    assert r.dtype == np.float64 and r.flags.c_contiguous


@pytest.mark.parametrize("n", [0, 1, 7, 100])
def test_zeros_ones_1d(n):
    check(zeros_1d, n)
    check(ones_1d, n)


@pytest.mark.parametrize("n,m", [(2, 3), (0, 3), (3, 0), (1, 1), (10, 20)])
def test_zeros_2d_tuple_shape(n, m):
    r = check(zeros_2d, n, m)
    assert r.flags.c_contiguous


@pytest.mark.parametrize("n,m,k", [(2, 3, 4), (1, 0, 2), (3, 1, 1)])
def test_ones_3d(n, m, k):
    check(ones_3d, n, m, k)


@pytest.mark.parametrize("n,v", [(3, 2.5), (0, 1.0), (4, -0.0), (5, 7), (2, True), (3, 1 + 2j)])
def test_full(n, v):
    check(full_float, n, v)


def test_full_2d():
    check(full_2d, 2, 3, 4.25)
    check(full_2d, 3, 2, -9)


def shape_from_array(a):
    z = np.zeros(a.shape)
    o = np.ones(a.shape[0])
    return z, o


@pytest.mark.parametrize("shape", [(3, 4), (0, 2), (5, 1)])
def test_shape_from_array(shape):
    check(shape_from_array, np.empty(shape))


def local_tuple_shape(n):
    shp = (n, n + 1)
    a = np.zeros(shp)
    for i in range(n):
        for j in range(n + 1):
            a[i, j] = i - j
    return a


def test_local_tuple_shape():
    check(local_tuple_shape, 4)
    check(local_tuple_shape, 0)


# ---------------------------------------------------------------------------
# dtype= keyword
# ---------------------------------------------------------------------------


def zeros_f32(n):
    return np.zeros(n, dtype=np.float32)


def zeros_i64(n):
    return np.zeros(n, dtype=np.int64)


def zeros_i32(n):
    return np.zeros((n, 2), dtype=np.int32)


def zeros_bool(n):
    return np.zeros(n, dtype=np.bool_)


def zeros_c128(n):
    return np.zeros(n, dtype=np.complex128)


def ones_f32(n):
    return np.ones(n, dtype=np.float32)


def ones_i64(n):
    return np.ones((2, n), dtype=np.int64)


def ones_i32(n):
    return np.ones(n, dtype=np.int32)


def ones_bool(n):
    return np.ones(n, dtype=np.bool_)


def ones_c128(n):
    return np.ones(n, dtype=np.complex128)


def full_f32(n):
    return np.full(n, 0.1, dtype=np.float32)


def full_i32(n):
    return np.full((n, 3), 7, dtype=np.int32)


def full_i64(n):
    return np.full(n, -3, dtype=np.int64)


def full_bool(n):
    return np.full(n, True, dtype=np.bool_)


def full_c128(n):
    return np.full(n, 2.5, dtype=np.complex128)


def empty_i32_fill(n):
    a = np.empty(n, dtype=np.int32)
    for i in range(n):
        a[i] = i * i - 3
    return a


def empty_f32_fill(n):
    a = np.empty((n, 2), dtype=np.float32)
    for i in range(n):
        a[i, 0] = i / 3
        a[i, 1] = -i
    return a


def empty_bool_fill(n):
    a = np.empty(n, dtype=np.bool_)
    for i in range(n):
        a[i] = i % 2 == 1
    return a


def empty_c128_fill(n):
    a = np.empty(n, dtype=np.complex128)
    for i in range(n):
        a[i] = i * 1.5
    return a


def empty_i64_fill(n):
    a = np.empty((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            a[i, j] = i * n + j
    return a


DTYPE_FUNCS = [
    zeros_f32, zeros_i64, zeros_i32, zeros_bool, zeros_c128,
    ones_f32, ones_i64, ones_i32, ones_bool, ones_c128,
    full_f32, full_i32, full_i64, full_bool, full_c128,
    empty_i32_fill, empty_f32_fill, empty_bool_fill, empty_c128_fill, empty_i64_fill,
]


@pytest.mark.parametrize("fn", DTYPE_FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 6])
def test_dtype_keyword(fn, n):
    check(fn, n)


def test_dtype_keyword_explicit():
    r = jitted(full_f32)(3)
    assert r.dtype == np.float32 and r[0] == np.float32(0.1)
    r = jitted(zeros_bool)(2)
    assert r.dtype == np.bool_ and not r.any()
    r = jitted(ones_i32)(4)
    assert r.dtype == np.int32 and r.sum() == 4


# ---------------------------------------------------------------------------
# np.arange
# ---------------------------------------------------------------------------


def arange1(n):
    return np.arange(n)


def arange2(a, b):
    return np.arange(a, b)


def arange3(a, b, s):
    return np.arange(a, b, s)


@pytest.mark.parametrize("n", [0, 1, 10, -3])
def test_arange_one_arg(n):
    r = check(arange1, n)
    assert r.dtype == np.int64


@pytest.mark.parametrize("a,b", [(2, 10), (5, 5), (10, 2), (-4, 3)])
def test_arange_two_args(a, b):
    check(arange2, a, b)


@pytest.mark.parametrize("a,b,s", [(0, 10, 3), (10, 0, -2), (10, 0, -3), (-5, 5, 4), (0, 10, -1), (3, 4, 10)])
def test_arange_three_args_int(a, b, s):
    check(arange3, a, b, s)


@pytest.mark.parametrize("a,b,s", [(0.5, 3.0, 0.25), (0.0, 2.0, 0.5), (3.0, 0.0, -0.75), (1.0, 1.0, 0.5), (-2.0, 2.0, 1.0)])
def test_arange_float_exact(a, b, s):
    r = check(arange3, a, b, s)
    assert r.dtype == np.float64


def test_arange_float_step_tenth():
    # values start + i*step: compare within rounding; the length must be exact
    f = jitted(arange3)
    for a, b, s in [(0.0, 1.0, 0.1), (1.0, 2.5, 0.3), (0.0, -1.0, -0.1)]:
        r = f(a, b, s)
        e = np.arange(a, b, s)
        assert r.dtype == e.dtype and r.shape == e.shape
        np.testing.assert_allclose(r, e, rtol=1e-12, atol=1e-15)


def arange_float_one(x):
    return np.arange(x)


def test_arange_float_one_arg():
    check(arange_float_one, 3.5)
    check(arange_float_one, 0.0)


def arange_mixed(n):
    return np.arange(0, n, 0.5)


def test_arange_int_start_float_step():
    r = check(arange_mixed, 3)
    assert r.dtype == np.float64 and r.shape == (6,)


# ---------------------------------------------------------------------------
# empty_like, zeros_like, copy
# ---------------------------------------------------------------------------


def like_funcs(a):
    e = np.empty_like(a)
    for i in range(a.shape[0]):
        e[i] = a[i]
    z = np.zeros_like(a)
    return e, z


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_like_1d(dtype):
    a = np.arange(5).astype(dtype)
    e, z = check(like_funcs, a)
    assert not np.shares_memory(e, a)


def zeros_like_2d(a):
    return np.zeros_like(a)


def empty_like_2d(a):
    e = np.empty_like(a)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            e[i, j] = a[i, j] * 2
    return e


@pytest.mark.parametrize(
    "a",
    [
        np.arange(12.0).reshape(3, 4),
        np.asfortranarray(np.arange(12).reshape(3, 4)),
        np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2],
        np.zeros((0, 5)),
    ],
    ids=["C", "F", "strided", "empty"],
)
def test_like_2d(a):
    check(zeros_like_2d, a)
    check(empty_like_2d, a)


def copy_and_modify(a):
    b = a.copy()
    b[0] = -1
    return b


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_copy_1d(dtype):
    a = np.arange(4).astype(dtype)
    b = check(copy_and_modify, a)
    assert not np.shares_memory(a, b)


def copy_2d(a):
    c = a.copy()
    c[0, 0] = 100
    return c


@pytest.mark.parametrize(
    "a",
    [
        np.arange(12.0).reshape(3, 4),
        np.asfortranarray(np.arange(12.0).reshape(3, 4)),
        np.arange(24).reshape(4, 6)[::2, ::-3],
        np.arange(12.0).reshape(3, 4).T,
    ],
    ids=["C", "F", "strided", "T"],
)
def test_copy_2d(a):
    c = check(copy_2d, a)
    assert c.flags.c_contiguous


def copy_of_view(a):
    v = a[::2]
    c = v.copy()
    c[0] = 7.0
    return c, v


def test_copy_of_view():
    check(copy_of_view, np.arange(9.0))


def build_in_loop(n):
    out = np.zeros(n)
    for i in range(n):
        tmp = np.ones(3)
        tmp[1] = i
        out[i] = tmp[0] + tmp[1] + tmp[2]
    return out


def test_create_in_loop():
    check(build_in_loop, 10)
    check(build_in_loop, 0)


def created_in_branch(n):
    if n > 3:
        a = np.zeros(n)
    else:
        a = np.ones(n)
    return a


@pytest.mark.parametrize("n", [0, 2, 5])
def test_created_in_branch(n):
    check(created_in_branch, n)


def return_slice_of_new(n):
    a = np.arange(n)
    return a[2:-1]


@pytest.mark.parametrize("n", [3, 10])
def test_return_slice_of_new(n):
    check(return_slice_of_new, n)
