"""Array arguments: every dtype in 1-D, 2-D and 3-D arrays, C / Fortran / strided
layouts, indexing, attributes, element writes with casting, sum loops, basic slicing
(views) in compiled code, returning arrays and views."""

import math

import numpy as np
import pytest

from conftest import ALL_DTYPES, INT_DTYPES, check, jitted

# ---------------------------------------------------------------------------
# Test data
# ---------------------------------------------------------------------------

EDGE_VALUES = {
    np.bool_: [True, False, True, True, False],
    np.int8: [-128, 127, 0, -1, 5],
    np.int16: [-32768, 32767, 0, -1, 300],
    np.int32: [-(2**31), 2**31 - 1, 0, -1, 70000],
    np.int64: [-(2**63), 2**63 - 1, 0, -1, 2**40],
    np.uint8: [255, 0, 1, 128, 7],
    np.uint16: [65535, 0, 1, 32768, 7],
    np.uint32: [2**32 - 1, 0, 1, 2**31, 7],
    np.uint64: [2**64 - 1, 0, 1, 2**63, 7],
    np.float32: [1.5, -0.0, math.nan, math.inf, 1e-40],
    np.float64: [1.5, -0.0, math.nan, -math.inf, 1e-310],
    np.complex64: [1 + 2j, -0.0j, complex(math.nan, 1), 3.5 - 0.25j, 0j],
    np.complex128: [1 + 2j, -0.0j, complex(math.nan, 1), 3.5 - 0.25j, 1e300j],
}


def dtype_id(d):
    return np.dtype(d).name


def edge_array(dtype):
    return np.array(EDGE_VALUES[dtype], dtype=dtype)


# ---------------------------------------------------------------------------
# 1-D arrays of every dtype
# ---------------------------------------------------------------------------


def attrs_1d(a):
    return a[0], a[-1], a[len(a) - 1], a[2], a[-3], len(a), a.size, a.ndim, a.shape[0], a.shape


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_index_and_attrs_each_dtype(dtype):
    check(attrs_1d, edge_array(dtype))


def count_truthy(a):
    n = 0
    for i in range(a.shape[0]):
        if a[i]:
            n += 1
    return n


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_truthiness_of_elements(dtype):
    check(count_truthy, edge_array(dtype))


def copy_elements(a, out):
    for i in range(len(a)):
        out[i] = a[i]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_copy_elements_each_dtype(dtype):
    a = edge_array(dtype)
    check(copy_elements, a, np.zeros_like(a))


def reverse_in_place(a):
    n = a.shape[0]
    for i in range(n // 2):
        t = a[i]
        a[i] = a[n - 1 - i]
        a[n - 1 - i] = t
    return n


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_reverse_in_place_each_dtype(dtype):
    check(reverse_in_place, edge_array(dtype))


def compare_elements(a):
    eq = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[0]):
            if a[i] == a[j]:
                eq += 1
    return eq


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_compare_elements_each_dtype(dtype):
    check(compare_elements, edge_array(dtype))


def same_type_sum(a):
    s = a[0]
    for i in range(1, a.shape[0]):
        s = s + a[i]
    return s


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d is not np.bool_], ids=dtype_id)
def test_same_type_sum_each_dtype(dtype):
    check(same_type_sum, np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], dtype=dtype))


def test_same_type_sum_float32_precision():
    # accumulating in float32: 0.1f added 1000 times is not the float64 result
    a = np.full(1000, 0.1, dtype=np.float32)
    r = check(same_type_sum, a)
    s = np.float32(0.1)
    for _ in range(999):
        s = np.float32(s + np.float32(0.1))
    assert r == float(s)


def int_sum(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32], ids=dtype_id)
@pytest.mark.parametrize("n", [0, 1, 9])
def test_int_sum_loop(dtype, n):
    r = check(int_sum, np.arange(n, dtype=dtype))
    assert r == n * (n - 1) // 2


def test_int64_sum_large_wraps():
    a = np.array([2**62, 2**62, 2**62, 5], dtype=np.int64)
    r = jitted(int_sum)(a)
    assert r == -(2**62) + 5


def float_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@pytest.mark.parametrize("n", [0, 1, 10, 1000, 12345])
def test_float64_sum_loop_exact(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n) * 1e3
    r = check(float_sum, a)
    ref = 0.0
    for v in a.tolist():
        ref += v
    assert r == ref


@pytest.mark.parametrize("n", [0, 1, 10, 1000, 12345])
def test_float32_sum_loop_exact(n):
    # s = 0.0 is float64; s + float32 is float64: the same additions as a Python
    # loop over the float32 values converted to float.
    rng = np.random.default_rng(n + 1)
    a = (rng.standard_normal(n) * 1e3).astype(np.float32)
    r = jitted(float_sum)(a)
    ref = 0.0
    for v in a.tolist():
        ref += v
    assert isinstance(r, float)
    assert r == ref


def test_sum_empty_arrays():
    assert jitted(float_sum)(np.zeros(0)) == 0.0
    assert jitted(int_sum)(np.zeros(0, dtype=np.int64)) == 0
    check(attrs_len, np.zeros(0))
    check(attrs_len, np.zeros(0, dtype=np.int32))


def attrs_len(a):
    return len(a), a.size, a.ndim, a.shape[0], a.shape


# ---------------------------------------------------------------------------
# Writes with casting
# ---------------------------------------------------------------------------


def fill_float_values(a):
    for i in range(a.shape[0]):
        a[i] = i * 1.5 - 4.0


def fill_int_values(a):
    for i in range(a.shape[0]):
        a[i] = i * 3 - 7


def increment(a):
    for i in range(a.shape[0]):
        a[i] += 1
    a[0] = a[0] * 2


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int16, np.float32, np.float64], ids=dtype_id)
def test_write_float_values_cast(dtype):
    check(fill_float_values, np.zeros(8, dtype=dtype))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.float32, np.float64, np.complex128], ids=dtype_id)
def test_write_int_values_cast(dtype):
    check(fill_int_values, np.zeros(6, dtype=dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float32, np.float64], ids=dtype_id)
def test_augmented_element_write(dtype):
    check(increment, np.arange(5, dtype=dtype))


def test_write_cast_explicit_values():
    a = np.zeros(4, dtype=np.int32)
    jitted(fill_float_values)(a)
    np.testing.assert_array_equal(a, np.array([-4, -2, -1, 0], dtype=np.int32))  # truncation
    b = np.zeros(3, dtype=np.float32)
    jitted(store_value)(b, 0.1)
    assert b[0] == np.float32(0.1) and b.dtype == np.float32


def store_value(a, v):
    a[0] = v
    a[-1] = v * 3.0


@pytest.mark.parametrize(
    "dtype,v", [(np.float32, 0.1), (np.float32, 1e10 + 1.0), (np.int32, 2.9), (np.int32, -2.9), (np.float64, 0.1), (np.int64, 7.0)]
)
def test_store_scalar_arg(dtype, v):
    check(store_value, np.zeros(4, dtype=dtype), v)


def store_bool(a):
    for i in range(a.shape[0]):
        a[i] = i % 3 == 0


def test_write_bool_array():
    check(store_bool, np.zeros(7, dtype=np.bool_))


# ---------------------------------------------------------------------------
# 2-D and 3-D arrays, layouts
# ---------------------------------------------------------------------------


def weighted_sum_2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i * 100 + j + 1)
    return s


def weighted_sum_2d_chain(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i][j] * (i * 100 + j + 1)
    return s


def int_weighted_sum_2d(a):
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i * 100 + j + 1)
    return s


def attrs_2d(a):
    return a.shape, a.shape[0], a.shape[1], a.ndim, a.size, len(a), a[0, 0], a[-1, -1], a[-1][0], a[1, -2]


_BASE2 = np.arange(48, dtype=np.float64).reshape(6, 8) * 0.5 - 3.0
_BASE3 = np.arange(4 * 5 * 6, dtype=np.float64).reshape(4, 5, 6) * 0.25

LAYOUT_FUNCS_2D = {
    "C": lambda b: b,
    "F": np.asfortranarray,
    "T": lambda b: b.T,
    "rows_step": lambda b: b[::2],
    "cols_step": lambda b: b[:, ::3],
    "both_step": lambda b: b[1::2, ::-2],
    "reversed": lambda b: b[::-1, ::-1],
    "sub": lambda b: b[1:5, 2:7],
}
LAYOUTS_2D = {k: f(_BASE2) for k, f in LAYOUT_FUNCS_2D.items()}


def layout_2d(layout, dtype):
    """The 2-D test array (values 0..47) of this dtype in this layout."""
    base = (np.arange(48).reshape(6, 8) % 50).astype(dtype)
    return LAYOUT_FUNCS_2D[layout](base)


@pytest.mark.parametrize("layout", list(LAYOUTS_2D), ids=str)
@pytest.mark.parametrize("fn", [weighted_sum_2d, weighted_sum_2d_chain, attrs_2d])
def test_2d_layouts(fn, layout):
    check(fn, LAYOUTS_2D[layout])


@pytest.mark.parametrize("layout", list(LAYOUTS_2D), ids=str)
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.uint16], ids=dtype_id)
def test_2d_layouts_dtypes(layout, dtype):
    a = layout_2d(layout, dtype)
    check(attrs_2d, a)
    if dtype in (np.int32, np.int64):
        check(int_weighted_sum_2d, a)


def sum_3d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k] * (i * 10000 + j * 100 + k + 1)
    return s, a.shape, a.ndim, a.size, len(a), a[-1, -2, -3], a[1][2][3]


LAYOUTS_3D = {
    "C": _BASE3,
    "F": np.asfortranarray(_BASE3),
    "T": _BASE3.T,
    "strided": _BASE3[1:, ::-1, 1:],
    "steps": _BASE3[::2, ::2, ::-1],
    "transposed_axes": _BASE3.transpose(1, 0, 2),
}


@pytest.mark.parametrize("layout", list(LAYOUTS_3D), ids=str)
def test_3d_layouts(layout):
    check(sum_3d, LAYOUTS_3D[layout])


def fill_2d(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = i * 10 + j - 0.5


@pytest.mark.parametrize("layout", ["C", "F", "T", "cols_step", "reversed"], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64], ids=dtype_id)
def test_2d_write_layouts(layout, dtype):
    check(fill_2d, layout_2d(layout, dtype))


def fill_3d(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                a[i, j, k] = i * 100 + j * 10 + k


@pytest.mark.parametrize("layout", list(LAYOUTS_3D), ids=str)
def test_3d_write(layout):
    a = LAYOUTS_3D[layout]
    check(fill_3d, a)


# ---------------------------------------------------------------------------
# Non-contiguous 1-D views passed in
# ---------------------------------------------------------------------------

_BASE1 = np.arange(20, dtype=np.float64) * 1.25 - 7.0

VIEWS_1D = {
    "contig": _BASE1,
    "step2": _BASE1[::2],
    "step3_offset": _BASE1[1::3],
    "reversed": _BASE1[::-1],
    "reversed_step": _BASE1[-2::-4],
    "column": _BASE2[:, 1],
    "row": _BASE2[2],
    "diag_like": _BASE2.T[3],
}


@pytest.mark.parametrize("view", list(VIEWS_1D), ids=str)
@pytest.mark.parametrize("fn", [attrs_1d, float_sum, same_type_sum])
def test_1d_views(fn, view):
    check(fn, VIEWS_1D[view])


@pytest.mark.parametrize("view", list(VIEWS_1D), ids=str)
def test_1d_views_write(view):
    check(fill_float_values, VIEWS_1D[view])
    check(reverse_in_place, VIEWS_1D[view])


@pytest.mark.parametrize("dtype", INT_DTYPES + [np.complex64, np.bool_], ids=dtype_id)
def test_strided_views_each_dtype(dtype):
    base = np.resize(edge_array(dtype), 15)
    check(attrs_1d, base[::3])
    check(reverse_in_place, base[::-2])
    check(count_truthy, base[1::2])


def test_empty_arrays():
    for dtype in [np.float64, np.int32, np.bool_, np.complex128]:
        a = np.zeros(0, dtype=dtype)
        check(attrs_len, a)
        check(count_truthy, a)
        check(reverse_in_place, a)
        check(fill_float_values, np.zeros(0))
    check(attrs_len, np.zeros(10)[5:5])
    check(weighted_sum_2d, np.zeros((0, 3)))
    check(weighted_sum_2d, np.zeros((3, 0)))


# ---------------------------------------------------------------------------
# Basic slicing in compiled code: views
# ---------------------------------------------------------------------------


def slice_write_through(a):
    b = a[1:5]
    b[0] = 99
    b[-1] = -99
    return a[1], a[4], b.shape[0]


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int32, np.float32], ids=dtype_id)
def test_slice_is_view(dtype):
    check(slice_write_through, np.arange(8, dtype=dtype))


def test_slice_is_view_explicit():
    a = np.arange(8.0)
    r = jitted(slice_write_through)(a)
    assert r == (99.0, -99.0, 4)
    assert a[1] == 99.0 and a[4] == -99.0 and a[0] == 0.0 and a[5] == 5.0


def many_slices(a):
    return (
        a[2:],
        a[:-2],
        a[::2],
        a[::-1],
        a[1:-1:3],
        a[-3:],
        a[5:1:-1],
        a[-1:-6:-2],
        a[3:100],
        a[-100:3],
        a[:],
        a[7:2],
    )


@pytest.mark.parametrize("n", [10, 11, 3, 0])
def test_slices_with_steps_and_negative_bounds(n):
    check(many_slices, np.arange(n) * 10)


def slice_vars(a, i, j, s):
    return a[i:j:s]


@pytest.mark.parametrize("i,j,s", [(0, 5, 1), (1, 9, 2), (8, 0, -3), (-2, -9, -1), (3, 3, 1), (-50, 50, 4), (9, -50, -2)])
def test_slice_variable_bounds(i, j, s):
    check(slice_vars, np.arange(10.0), i, j, s)


def slice_of_slice(a):
    b = a[2:]
    c = b[::2]
    c[1] = -1
    return c


def test_slice_of_slice():
    check(slice_of_slice, np.arange(12))


def slice_2d(a):
    b = a[1:3, ::2]
    b[0, 0] = -5.0
    b[1, -1] = -6.0
    return b


@pytest.mark.parametrize("layout", ["C", "F", "T", "sub"], ids=str)
def test_slice_2d(layout):
    check(slice_2d, LAYOUTS_2D[layout])


def row_of_2d(a):
    r = a[2]
    r[0] = 123.0
    return r, a[2:4, 1:3], a[-1]


@pytest.mark.parametrize("layout", ["C", "F", "reversed"], ids=str)
def test_row_view_2d(layout):
    check(row_of_2d, LAYOUTS_2D[layout])


def slice_loop_sum(a, k):
    s = 0.0
    for i in range(0, a.shape[0], k):
        w = a[i:i + k]
        for j in range(w.shape[0]):
            s += w[j] * (j + 1)
    return s


@pytest.mark.parametrize("k", [1, 3, 7, 100])
def test_slices_in_loop(k):
    check(slice_loop_sum, np.arange(20.0) * 0.3, k)


# ---------------------------------------------------------------------------
# Returning an input array or a view of it
# ---------------------------------------------------------------------------


def return_input(a):
    return a


def return_view(a):
    return a[1:]


def return_reversed(a):
    return a[::-1]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_return_input_each_dtype(dtype):
    a = edge_array(dtype)
    r = check(return_input, a)
    assert r.dtype == a.dtype


@pytest.mark.parametrize("layout", list(LAYOUTS_2D), ids=str)
def test_return_input_2d_layouts(layout):
    check(return_input, LAYOUTS_2D[layout])
    check(return_view, LAYOUTS_2D[layout])
    check(return_reversed, LAYOUTS_2D[layout])


def test_returned_view_writes_back():
    a = np.arange(6.0)
    v = jitted(return_view)(a)
    assert np.shares_memory(a, v)
    v[0] = 42.0
    assert a[1] == 42.0
    r = jitted(return_reversed)(a)
    assert r[0] == 5.0 and r.strides == (-8,)
    r[-1] = -1.0
    assert a[0] == -1.0


def test_returned_input_outlives_local_reference():
    f = jitted(return_view)
    r = f(np.arange(1000.0))
    import gc

    gc.collect()
    np.testing.assert_array_equal(r, np.arange(1.0, 1000.0))
