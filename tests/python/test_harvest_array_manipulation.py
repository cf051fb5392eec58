"""Harvested from Numba's tests of array shapes, attributes and methods
(numba/tests/test_array_manipulation.py, test_array_attr.py, test_array_methods.py):
reshape, transpose, ravel/flatten, squeeze, expand_dims, broadcasting, fill_diagonal,
resize, attributes, astype/view/copy, np.where, np.arange, clip, round, take, item,
fill, sum with dtype=, compiled vs NumPy (harvest.py). Cases mahou does not compile yet
are in EXPECTED_REFUSALS."""

import sys

import numpy as np
import pytest

from harvest import Case, run_harvested

A24 = np.arange(24)
A234 = np.arange(24).reshape(2, 3, 4)
F234 = np.arange(24).reshape(2, 3, 4).T
A55 = np.arange(25).reshape(5, 5)
STRIDED = np.arange(64).reshape(8, 4, 2)[::3, ::2, :]
EMPTY = np.array([])


def reshape_method(a, shape):
    return a.reshape(shape)


def reshape_function(a, shape):
    return np.reshape(a, shape)


def transpose_axes(a, axes):
    return a.transpose(axes)


def np_transpose_axes(a, axes):
    return np.transpose(a, axes=axes)


def transpose_then_reshape(m, n):
    r1 = np.reshape(np.arange(m * n * 3), (m, 3, n))
    r2 = np.reshape(np.arange(n * 3), (n, 3))
    d = (r1 - r2.T).T
    return np.transpose(d) + 1


def flatten(a):
    return a.flatten()


def ravel(a):
    return a.ravel()


def ravel_size(a):
    return a.ravel().size


def np_ravel(a):
    return np.ravel(a)


def transpose(a):
    return a.transpose()


def squeeze(a):
    return a.squeeze()


def expand_dims(a, axis):
    return np.expand_dims(a, axis)


def atleast_1d(a):
    return np.atleast_1d(a)


def atleast_2d(a):
    return np.atleast_2d(a)


def atleast_3d(a):
    return np.atleast_3d(a)


def add_axis(a):
    return a[:, np.newaxis, 1:, None]


def broadcast_to(a, shape):
    return np.broadcast_to(a, shape)


def broadcast_arrays(a, b):
    return np.broadcast_arrays(a, b)


def broadcast_shapes(a, b):
    return np.broadcast_shapes(a, b)


def fill_diagonal(a, val):
    np.fill_diagonal(a, val)
    return a


def np_shape(a):
    return np.shape(a)


def np_size(a):
    return np.size(a)


def resize(a, shape):
    return np.resize(a, shape)


def sliding_window(x, w):
    return np.lib.stride_tricks.sliding_window_view(x, w)


def dtype_attr(a):
    return a.dtype


def dtype_eq_int64(a):
    return a.dtype == np.dtype("int64"), a.dtype != np.dtype(np.float32), np.dtype(a.dtype) == a.dtype, np.dtype("f4").itemsize


def itemsize(a):
    return a.itemsize


def nbytes(a):
    return a.nbytes


def shape_i(a, i):
    return a.shape[i]


def strides_i(a, i):
    return a.strides[i]


def ndim(a):
    return a.ndim


def size(a):
    return a.size


def flags_c(a):
    return a.flags.c_contiguous


def flags_f(a):
    return a.flags.f_contiguous


def flags_contiguous(a):
    return a.flags.contiguous


def real_part(a):
    return a.real


def imag_part(a):
    return a.imag


def size_after_slicing(buf, i):
    return buf[i:].size


def round_array(a, d):
    return np.round(a, d)


def around_array(a, d):
    return np.around(a, d)


def round_scalar(x):
    return np.round(x)


def round_scalar_decimals(x, d):
    return np.round(x, d)


def builtin_round_array_elem(a):
    return round(a[0])


def copy_method(a):
    return a.copy()


def np_copy(a):
    return np.copy(a)


def asfortranarray(a):
    return np.asfortranarray(a)


def ascontiguousarray(a):
    return np.ascontiguousarray(a)


def view_as(a, kind):
    if kind == 1:
        return a.view(np.int32)
    if kind == 2:
        return a.view(np.uint64)
    return a.view(np.float32)


def sliced_view(a):
    return a[0:4].view(np.float32)[0]


def astype_int8(a):
    return a.astype(np.int8)


def astype_float32(a):
    return a.astype(np.float32)


def astype_complex(a):
    return a.astype(np.complex128)


def astype_bool(a):
    return a.astype(np.bool_)


def astype_str_dtype(a):
    return a.astype("float64")


def take(a, idx):
    return a.take(idx)


def take_axis(a, idx, axis):
    return a.take(idx, axis=axis)


def arange1(n):
    return np.arange(n)


def arange2(a, b):
    return np.arange(a, b)


def arange3(a, b, c):
    return np.arange(a, b, c)


def arange_dtype(a, b, c):
    return np.arange(a, b, c, dtype=np.float32)


def arange_kw(n, step):
    return np.arange(n, step=step)


def fill(a, v):
    a.fill(v)
    return a


def item(a):
    return a.item()


def nonzero_method(a):
    return a.nonzero()


def np_nonzero(a):
    return np.nonzero(a)


def where1(c):
    return np.where(c)


def where3(c, x, y):
    return np.where(c, x, y)


def sum_dtype(a):
    return a.sum(dtype=np.float32)


def sum_axis_dtype(a, axis):
    return a.sum(axis=axis, dtype=np.int32)


def cumsum_axis(a, axis):
    return a.cumsum(axis=axis)


def sum_neg_axis(a):
    return a.sum(axis=-1)


def clip(a, lo, hi):
    return np.clip(a, lo, hi)


def clip_method(a, lo, hi):
    return a.clip(lo, hi)


def clip_out(a, lo, hi, out):
    np.clip(a, lo, hi, out=out)
    return out


def conj_method(a):
    return a.conj()


def conjugate_method(a):
    return a.conjugate()


def dot_method(a, b):
    return a.dot(b)


def unique(a):
    return np.unique(a)


def tobytes(a):
    return a.tobytes()


def frombuffer(b):
    return np.frombuffer(b, dtype=np.float64)


def sum_empty_axis(a):
    return a.sum(axis=1)


def array_ctor(n):
    return np.empty(n, dtype=np.int16).shape


WHERE_C = np.array([True, False, True, False, True])
RND = np.array([-1.5, -0.5, 0.5, 1.5, 2.5, -2.5, 1.005, 1234.5678, np.nan, np.inf, -0.0])

CASES = {
    "reshape_method": Case(reshape_method, [(A24, s) for s in ((24,), (4, 6), (8, 1, 3), (1, 8, 1, 1, 3, 1))]
                           + [(A234, (4, 6)), (A234, (25,)), (A234, ()), (F234, (4, 3, 2)), (F234, (6, 4)),
                              (A55, -1), (A55, (-1, 5)), (A55, (5, -1, 5)), (A55, (-1, 4)), (A55, (-1, -2, 5, 5)),
                              (EMPTY, (0,)), (EMPTY, (1, 0, 2)), (EMPTY, (4, -1)), (EMPTY, (1, 2))]),
    "reshape_function": Case(reshape_function, [(A24, (4, 6)), (A234, (8, 3)), (A55, (-1,)), (EMPTY, 0),
                                                (STRIDED, (3, 2))]),
    "transpose_axes": Case(transpose_axes, [(A234, (2, 0, 1)), (A234, (-1, 0, 1)), (STRIDED, (1, 2, 0)),
                                            (np.arange(24).reshape(1, 2, 3, 4), (3, 1, 2, 0)), (A234, (0, 0, 1))]),
    "np_transpose_axes": Case(np_transpose_axes, [(A234, (2, 0, 1)), (np.arange(6).reshape(2, 3), None)]),
    "transpose_then_reshape": Case(transpose_then_reshape, [(3, 2), (2, 5)]),
    "flatten": Case(flatten, [np.arange(9).reshape(3, 3), np.arange(9).reshape(3, 3).T, STRIDED, EMPTY]),
    "ravel": Case(ravel, [np.arange(9).reshape(3, 3), np.arange(9).reshape(3, 3, order="F"),
                          np.arange(18).reshape(3, 3, 2)[:, :, 0], np.arange(36).reshape(2, 3, 3, 2)[:, :, :, 0]]),
    "ravel_size": Case(ravel_size, [np.arange(9).reshape(3, 3), STRIDED]),
    "np_ravel": Case(np_ravel, [np.arange(9).reshape(3, 3, order="F"), STRIDED]),
    "transpose": Case(transpose, [np.arange(9).reshape(3, 3), A234, np.arange(3)]),
    "squeeze": Case(squeeze, [np.arange(24).reshape(2, 1, 3, 1, 4), np.zeros((1, 1)), np.arange(3)]),
    "expand_dims": Case(expand_dims, [(np.arange(5), k) for k in (0, 1, -1, -2)] + [(A234, 2), (A234, 4)]),
    "atleast_1d": Case(atleast_1d, [np.arange(24), A234, 3.0]),
    "atleast_2d": Case(atleast_2d, [np.arange(24), A234, np.arange(24).reshape(6, 4)]),
    "atleast_3d": Case(atleast_3d, [np.arange(24), np.arange(24).reshape(6, 4), np.arange(24).reshape(4, 1, 6)]),
    "add_axis": Case(add_axis, [np.arange(4 * 5 * 6).reshape(4, 5, 6), np.zeros((4, 5, 6))]),
    "broadcast_to": Case(broadcast_to, [(np.ones(1), (1, 2, 3)), (np.arange(3), (2, 3)), (np.ones(1), (0,)),
                                        (np.ones((2, 1)), (2, 0)), (np.arange(3), (4,)), (np.ones(0), 0)]),
    "broadcast_arrays": Case(broadcast_arrays, [(np.arange(3), np.ones((2, 1))), (np.ones(2), np.ones(3))]),
    "broadcast_shapes": Case(broadcast_shapes, [((3, 1), (1, 4)), ((2,), (3,))]),
    "fill_diagonal": Case(fill_diagonal, [(np.zeros((3, 3)), 5.0), (np.zeros((6, 3)), 1.5), (np.zeros((3, 6)), -1.0),
                                          (np.zeros((4, 4, 4, 4)), 2.0), (np.zeros((3, 3))[::-1], np.nan),
                                          (np.asfortranarray(np.zeros((3, 3))), np.arange(4.0)),
                                          (np.zeros((3, 3), dtype=np.int32), 7)]),
    "np_shape": Case(np_shape, [A234, np.arange(3)]),
    "np_size": Case(np_size, [A234, EMPTY]),
    "resize": Case(resize, [(np.array([[1, 2], [3, 4]]), (2, 4)), (np.array([[1, 2], [3, 4]]), (4, 3)),
                            (np.array([[1, 2], [3, 4]]), (0, 2)), (np.zeros(0), (2, 1)),
                            (np.array([[1, 2], [3, 4]]), 4)]),
    "sliding_window": Case(sliding_window, [(np.arange(24), 5), (np.arange(10.0), 10)]),
    "dtype_attr": Case(dtype_attr, [A24, np.zeros(2, np.float32)]),
    "dtype_eq_int64": Case(dtype_eq_int64, [A24, np.zeros(2, np.int32), np.zeros(3, np.float32), np.zeros(1, np.uint8)]),
    "itemsize": Case(itemsize, [A24, np.zeros(2, np.float32), np.zeros(2, np.complex128), np.zeros(2, np.bool_)]),
    "nbytes": Case(nbytes, [A24, np.zeros((3, 4), np.float32), STRIDED, EMPTY]),
    "shape_i": Case(shape_i, [(A234, 0), (A234, 2), (A234, -1)]),
    "strides_i": Case(strides_i, [(A234, 0), (F234, 1), (STRIDED, 0), (np.arange(10)[::-2], 0)]),
    "ndim": Case(ndim, [A24, A234, STRIDED]),
    "size": Case(size, [A24, A234, EMPTY, STRIDED]),
    "flags_c": Case(flags_c, [A234, F234, STRIDED, np.arange(3)[::-1]]),
    "flags_f": Case(flags_f, [A234, F234, STRIDED, np.arange(3)]),
    "flags_contiguous": Case(flags_contiguous, [A234, F234, STRIDED, np.zeros((0, 3)), np.zeros((3, 1))]),
    "real_part": Case(real_part, [np.array([1 + 2j, -3j]), np.arange(3.0), np.array([1 + 2j, 3j])[::-1]]),
    "imag_part": Case(imag_part, [np.array([1 + 2j, -3j]), np.arange(3.0)]),
    "size_after_slicing": Case(size_after_slicing, [(np.arange(10), i) for i in (0, 3, 10, 12, -3)]),
    "round_array": Case(round_array, [(RND, d) for d in (0, 1, 2, -1)] + [(RND.astype(np.float32), 1),
                                                                          (np.array([15, 25, -35]), -1),
                                                                          (np.array([1.5 + 2.5j]), 0)]),
    "around_array": Case(around_array, [(RND, 0), (np.arange(10) * 11, -1)]),
    "round_scalar": Case(round_scalar, [0.5, 1.5, 2.5, -0.5, -1.5, 1.0000001, np.float32(2.5), 7, np.inf]),
    "round_scalar_decimals": Case(round_scalar_decimals, [(1.2345, 2), (1234.5, -2), (-0.5, 0), (5, -1)]),
    "builtin_round_array_elem": Case(builtin_round_array_elem, [np.array([2.5]), np.array([-3.5])]),
    "copy_method": Case(copy_method, [A234, F234, STRIDED, EMPTY]),
    "np_copy": Case(np_copy, [A234, STRIDED]),
    "asfortranarray": Case(asfortranarray, [A234, STRIDED, np.arange(4.0)]),
    "ascontiguousarray": Case(ascontiguousarray, [F234, STRIDED, np.arange(4.0)[::-1]]),
    "view_as": Case(view_as, [(np.arange(4.0), 2), (np.arange(4, dtype=np.float32), 1), (np.arange(4, dtype=np.int32), 3),
                              (np.arange(12.0).reshape(3, 4)[:, ::2], 2)]),
    "sliced_view": Case(sliced_view, [np.arange(8, dtype=np.int32)]),
    "astype_int8": Case(astype_int8, [np.arange(300, step=37), np.array([1.5, -2.7, 127.9]), np.array([True, False])]),
    "astype_float32": Case(astype_float32, [np.array([1e300, -1e-300, 0.1, np.nan]), A234, STRIDED]),
    "astype_complex": Case(astype_complex, [np.arange(3.0), np.arange(3, dtype=np.int8)]),
    "astype_bool": Case(astype_bool, [np.array([0.0, -0.0, np.nan, 2.0]), np.array([0, 3])]),
    "astype_str_dtype": Case(astype_str_dtype, [A24]),
    "take": Case(take, [(A234, 5), (A234, -3), (A234, np.array([0, 5, 23])), (A234, np.array([[1, 2], [3, 4]])),
                        (np.arange(5), 7)]),
    "take_axis": Case(take_axis, [(A234, np.array([0, 2]), 1), (A234, 1, 0)]),
    "arange1": Case(arange1, [0, 5, -1, 5.5, np.int8(4), 3.0]),
    "arange2": Case(arange2, [(2, 9), (9, 2), (0.5, 4.0), (-3, 3.5)]),
    "arange3": Case(arange3, [(0, 10, 3), (10, 0, -3), (0.0, 1.0, 0.1), (1, 2, 0), (0, 1, 0.3)]),
    "arange_dtype": Case(arange_dtype, [(0, 5, 1), (0.0, 1.0, 0.25)]),
    "arange_kw": Case(arange_kw, [(10, 2), (5.0, 0.5)]),
    "fill": Case(fill, [(np.zeros(4), 1.5), (np.zeros((2, 3), np.int32), 7), (np.zeros(6)[::2], np.nan),
                        (np.zeros(3, np.int8), 100)]),  # 300 wraps as in Numba; NumPy 2 raises
    "item": Case(item, [np.array([3.5]), np.array([[7]]), np.arange(3)]),
    "nonzero_method": Case(nonzero_method, [np.array([0, 1, 0, 3]), np.arange(12).reshape(3, 4) % 3, EMPTY]),
    "np_nonzero": Case(np_nonzero, [np.array([0.0, -0.0, np.nan, 1.0]), np.arange(12).reshape(3, 4) % 2 == 0]),
    "where1": Case(where1, [WHERE_C, np.arange(6).reshape(2, 3) > 2]),
    "where3": Case(where3, [(WHERE_C, np.arange(5), np.arange(5) * 10), (WHERE_C, 1.5, np.arange(5)),
                            (WHERE_C, np.arange(5.0), 0), (np.arange(6).reshape(2, 3) > 2, np.ones(3), -np.ones((2, 1))),
                            (WHERE_C, np.ones(5, np.float32), np.ones(5, np.int16)),
                            (np.array([True]), np.arange(4), np.arange(3))]),
    "sum_dtype": Case(sum_dtype, [A24, np.arange(10.0)]),
    "sum_axis_dtype": Case(sum_axis_dtype, [(A234, 1), (A234, 0)]),
    "cumsum_axis": Case(cumsum_axis, [(A234, 1), (A234, 0), (np.arange(5.0), 0)]),
    "sum_neg_axis": Case(sum_neg_axis, [A234, np.arange(5)]),
    "clip": Case(clip, [(np.arange(10), 2, 6), (np.arange(10.0), 2.5, 6.5), (np.arange(10), 6, 2),
                        (np.array([np.nan, -1.0, 5.0]), 0.0, 1.0), (np.arange(10), np.arange(10)[::-1], 5),
                        (3.5, 0.0, 1.0), (np.arange(-5, 5, dtype=np.int8), -3, 3)]),
    "clip_method": Case(clip_method, [(np.arange(10), 2, 6), (np.arange(10.0).reshape(2, 5), -1.0, 3.0)]),
    "clip_out": Case(clip_out, [(np.arange(10.0), 2.0, 6.0, np.zeros(10)), (np.array([np.nan, -1.0, 7.0]), 0.0, 1.0, np.ones(3)),
                                (np.arange(6.0).reshape(2, 3), np.array([1.0, 2.0, 3.0]), 4.0, np.zeros((2, 3)))]),
    "conj_method": Case(conj_method, [np.array([1 + 2j, -3j]), np.arange(3.0)]),
    "conjugate_method": Case(conjugate_method, [np.array([1 + 2j, -3j]), np.arange(3)]),
    "dot_method": Case(dot_method, [(np.arange(3.0), np.arange(3.0)), (np.arange(6.0).reshape(2, 3), np.arange(3.0))]),
    "unique": Case(unique, [np.array([3, 1, 2, 3, 1]), np.array([np.nan, 1.0, np.nan])]),
    "tobytes": Case(tobytes, [np.arange(3), np.arange(4.0).reshape(2, 2).T]),
    "frombuffer": Case(frombuffer, [b"\x00" * 16, bytearray(8)]),
    "sum_empty_axis": Case(sum_empty_axis, [np.zeros((3, 0)), np.zeros((0, 3))]),
    "array_ctor": Case(array_ctor, [3, 0, ((2, 3),)]),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = {
    'cumsum_axis',
    'reshape_method', 'squeeze', 'take_axis',
    'view_as'
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
