"""Global NumPy arrays inside @njit: frozen into the compiled code as read-only
constants when the function is compiled (Numba's rule), checked against CPython."""

import numpy as np
import pytest
from conftest import check, jitted, line_of, assert_diagnostic

import mahou
from mahou.errors import TypingError, UnsupportedError

F64 = np.array([0.5, -1.5, 2.25, 1e300, -0.0])
I32_2D = np.arange(12, dtype=np.int32).reshape(3, 4) - 5
U8 = np.array([0, 1, 255, 128], dtype=np.uint8)
BOOLS = np.array([True, False, True])
C128 = np.array([1 + 2j, -3.5j])
EMPTY = np.zeros((0, 3))
STRIDED = np.arange(20.0)[::3]           # frozen as a contiguous copy
FORTRAN = np.asfortranarray(np.arange(6.0).reshape(2, 3))
SCALAR0D = np.array(7.5)


def weighted_sum(x):
    s = 0.0
    for i in range(x.size):
        s += x[i] * F64[i % F64.size]
    return s


def table_2d(i, j):
    return I32_2D[i, j] + I32_2D.shape[0] * I32_2D.shape[1]


def row_of_table(i):
    return I32_2D[i].sum()


def whole_expression(x):
    return x * U8 + 1


def bool_count():
    n = 0
    for b in BOOLS:
        if b:
            n += 1
    return n


def complex_total():
    return C128.sum()


def empty_shape():
    return EMPTY.shape[0], EMPTY.shape[1], EMPTY.size


def strided_values():
    return STRIDED[1] + STRIDED[-1] + STRIDED.size


def fortran_values():
    return FORTRAN[1, 0] * 10 + FORTRAN[0, 2]


def zero_d():
    return SCALAR0D[()] * 2


def returns_global():
    return F64


def returns_view():
    return I32_2D[:, 1]


def test_1d_float64_read_in_loop():
    for x in (np.ones(7), np.arange(-3.0, 3.0), np.zeros(0)):
        check(weighted_sum, x)


def test_2d_int32_indexing_and_shape():
    for i, j in ((0, 0), (2, 3), (-1, -2), (1, 2)):
        check(table_2d, i, j)
    for i in range(-3, 3):
        check(row_of_table, i)


def test_array_expression_with_global_uint8():
    check(whole_expression, np.array([1, 2, 3, 4], dtype=np.uint8))
    check(whole_expression, np.array([1.5, -2.0, 0.0, 3.0]))


def test_bool_complex_empty_strided_fortran_0d():
    check(bool_count)
    check(complex_total)
    check(empty_shape)
    check(strided_values)
    check(fortran_values)
    check(zero_d)


def test_returning_a_global_gives_a_copy():
    got = jitted(returns_global)()
    np.testing.assert_array_equal(got, F64)
    assert not np.shares_memory(got, F64)
    np.testing.assert_array_equal(jitted(returns_view)(), I32_2D[:, 1])


MUTABLE = np.array([1.0, 2.0, 3.0])


def mutable_total():
    return MUTABLE.sum()


def test_values_are_frozen_at_compile_time():
    f = mahou.njit(mutable_total)
    assert f() == 6.0
    MUTABLE[0] = 100.0  # Numba's rule: compiled code keeps the values it saw
    try:
        assert f() == 6.0
    finally:
        MUTABLE[0] = 1.0


def store_into_global(v):
    F64[0] = v  # MARK-store
    return F64[0]


def test_global_arrays_are_read_only():
    with pytest.raises(TypingError) as info:
        jitted(store_into_global)(1.0)
    assert "read-only" in str(info.value) or "readonly" in str(info.value)
    assert_diagnostic(str(info.value), __file__, line_of(store_into_global, "MARK-store"),
                      "F64[0] = v")


OBJECTS = np.array([object(), 1], dtype=object)


def uses_object_array():
    return OBJECTS.size  # MARK-object


def test_unsupported_dtype_is_refused_with_the_line():
    with pytest.raises(UnsupportedError) as info:
        jitted(uses_object_array)()
    assert "dtype object" in str(info.value)
    assert_diagnostic(str(info.value), __file__, line_of(uses_object_array, "MARK-object"),
                      "return OBJECTS.size")


def zero_d_argument(a, v):
    before = a[()]
    a[()] = v
    return before + a[()] + a.sum()


def test_zero_d_array_arguments_read_and_write():
    for dtype in (np.float64, np.int32, np.complex128):
        check(zero_d_argument, np.array(3, dtype=dtype), 2)
