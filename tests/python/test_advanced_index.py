"""NumPy's indexing rules in full, compiled vs NumPy: np.newaxis / None and Ellipsis in
views, integer index arrays of any ndim on N-D arrays mixed with integers and slices
(the broadcast axes placed as NumPy places them), boolean masks over some of the axes,
True / False as indices, stores and `op=` through all of these, and indexing of
computed arrays (attributes, methods, subscripts)."""

import numpy as np
import pytest

from conftest import assert_diagnostic, check, jitted, line_of, source_line
from mahou import njit
from mahou.errors import TypingError

FILE = "test_advanced_index.py"
DTYPES = [np.float64, np.int32, np.uint8, np.bool_, np.complex128]


def views(a):
    """`a`, a Fortran copy, a strided view of a bigger array and a reversed view, all
    with the same values."""
    big = np.zeros((a.shape[0] * 2,) + a.shape[1:], dtype=a.dtype)
    big[::2] = a
    rev = np.ascontiguousarray(a[::-1])[::-1]
    return [a, np.asfortranarray(a), big[::2], rev]


def arr(shape, dtype=np.float64):
    return (np.arange(int(np.prod(shape))).reshape(shape) % 7).astype(dtype)


# ---------------------------------------------------------------------------
# np.newaxis / None and Ellipsis (views)
# ---------------------------------------------------------------------------
def newaxis_2d(a):
    return a[:, None], a[None, :, 0], a[np.newaxis], a[None], a[:, np.newaxis, 1:], a[1, None]


def newaxis_3d(a):
    return a[..., 0], a[..., None], a[None, ..., None, 1], a[0, ..., None], a[:, None, ::-1, None], a[...]


def newaxis_store(a):
    a[:, None] = 5
    a[None, 0] = a[None, 1]
    b = a[..., None]
    b[1] = 2
    return a


@pytest.mark.parametrize("dtype", DTYPES)
def test_newaxis_views(dtype):
    for x in views(arr((3, 4), dtype)):
        check(newaxis_2d, x)
        check(newaxis_store, x)
    for x in views(arr((2, 3, 4), dtype)):
        check(newaxis_3d, x)


def newaxis_1d(a):
    return a[:, None] * a[None, :]


def test_newaxis_outer_and_empty():
    check(newaxis_1d, np.arange(5.0))
    check(newaxis_1d, np.arange(10.0)[::-3])
    check(newaxis_1d, np.zeros(0))
    check(newaxis_3d, np.zeros((2, 0, 3)))


# ---------------------------------------------------------------------------
# Integer index arrays on N-D arrays, mixed with integers and slices
# ---------------------------------------------------------------------------
def rows(a, i, k):
    return a[i], a[i, :], a[i, 1:], a[i, ::-1], a[-1, k], a[:, k], a[1:, k]


def rows_3d(a, i):
    # adjacent advanced indices: the broadcast axes stay in place; separated (a slice
    # between them): they come first (NumPy's rule, integers count as advanced)
    return a[i], a[:, i], a[:, :, i], a[0, i], a[i, 1], a[0, :, i], a[i, :, 2], a[..., i], a[i, ..., 0], a[:, i, None]


@pytest.mark.parametrize("dtype", DTYPES)
def test_index_array_rows(dtype):
    for x in views(arr((4, 3), dtype)):
        check(rows, x, np.array([0, 3, -1, 1]), np.array([2, -3, 2]))
        check(rows, x, np.array([2], np.uint8), np.array([1], np.uint16))
        check(rows, x, np.zeros(0, np.int64), np.zeros(0, np.int32))
    for x in views(arr((3, 3, 4), dtype)):
        check(rows_3d, x, np.array([2, -3, 0]))
        check(rows_3d, x, np.array([1, 1], np.int16))


def nd_index(a, j):
    return a[j], a[:, j], a[j, 0], a[0, j], a[j, j], a[j, ::2]


def test_nd_index_arrays():
    j = np.array([[0, 1], [2, -1], [1, 1]])
    for x in views(arr((3, 4))):
        check(nd_index, x, j)
        check(nd_index, x, j.T)
        check(nd_index, x, j[:, :1])
        check(nd_index, x, np.zeros((2, 0), np.int64))


def several(a, i, j):
    return a[i, j], a[i, :, j], a[:, i, j], a[i, j, 0], a[i, 1, j], a[j, ..., i]


def test_several_index_arrays():
    a = arr((4, 4, 4), np.int64)
    for x in views(a):
        check(several, x, np.array([0, 2, -1]), np.array([1, 3, 0]))
        check(several, x, np.array([[0], [2]]), np.array([1, 3, 0]))  # broadcast to (2, 3)
        check(several, x, np.array([1]), np.array([3, 0], np.uint32))
    with pytest.raises(IndexError):
        jitted(several)(a, np.array([0, 1]), np.array([0, 1, 2]))


# ---------------------------------------------------------------------------
# Boolean masks and boolean scalars
# ---------------------------------------------------------------------------
def masks(a, m):
    return a[a > 2], a[m], a[m[:, 0], 1:], a[1:, m[0]][:, ::-1], a[-1, m[0]], a[m[:, 0]], a[:, m[0]]


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint8, np.bool_])
def test_masks_nd(dtype):
    a = arr((4, 5), dtype)
    m = arr((4, 5), np.int64) % 3 == 0
    for x in views(a):
        check(masks, x, m)
        check(masks, x, np.zeros((4, 5), np.bool_))
        check(masks, x, m[::-1])


def mask_3d(a, m, n):
    return a[n], a[0, m], a[n, 1], a[:, m], a[a % 2 == 1], a[n[:, 0], :, 1:]


def test_masks_3d():
    a = arr((2, 3, 4), np.int64)
    m = np.array([[True, False, True, True], [False, False, True, False], [True, True, True, True]])
    n = np.array([[True, False, True], [False, True, True]])
    for x in views(a):
        check(mask_3d, x, m, n)
        check(mask_3d, x, ~m, ~n)
    with pytest.raises(IndexError):
        jitted(mask_3d)(a, m[:2], n)  # the mask's shape must match the axes it indexes


def bool_scalars(a, t):
    return a[True], a[False], a[t], a[True, 1], a[0, False], a[None, True, ...]


def test_bool_scalar_indices():
    for x in views(arr((3, 2))):
        check(bool_scalars, x, True)
        check(bool_scalars, x, False)


# ---------------------------------------------------------------------------
# Stores and op= through advanced indices
# ---------------------------------------------------------------------------
def store_rows(a, i, v):
    a[i, :] = v
    a[-i - 1, 0] = 1  # negative entries wrap as in NumPy
    return a


def store_cols(a, i, v):
    a[:, i] = v
    a[1, i] += 10
    return a


def store_masked(a, m, w):
    a[m] = 0
    a[m[:, 0] == False, 1:3] *= w  # noqa: E712
    a[a[:, 0] != 3] += 1
    return a


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8, np.complex128])
def test_mixed_stores(dtype):
    i = np.array([0, 2, -1])
    for x in views(arr((4, 3), dtype)):
        check(store_rows, x, i, 7)
        check(store_rows, x, i, np.array([1, 2, 3], dtype))  # broadcast along the rows
        check(store_rows, x, i, np.arange(9).reshape(3, 3).astype(dtype))
        check(store_rows, x, np.zeros(0, np.int64), 5)
        check(store_cols, x.T, i, 3)
        check(store_cols, x.T, np.array([1, 2], np.uint8), np.ones((3, 1), dtype))
    m = arr((4, 5), np.int64) % 3 == 1
    for x in views(arr((4, 5), dtype)):
        check(store_masked, x, m, 2)


def store_3d(a, i, j, v):
    a[i, :, j] = v
    a[0, ..., j] -= 1
    a[a > 5] = 5
    return a


def test_stores_3d():
    for x in views(arr((3, 4, 5))):
        check(store_3d, x, np.array([0, 2]), np.array([1, -1]), 9.5)
        check(store_3d, x, np.array([[0], [2]]), np.array([1, -1]), np.arange(4.0))


def store_value_from_dest(a, i):
    a[i, :] = a[::-1][:2]  # the value reads the destination: NumPy reads it first
    a[:, i] = a[:, :2]
    return a


def test_store_value_overlapping_destination():
    for x in views(arr((4, 4))):
        check(store_value_from_dest, x, np.array([1, 3]))
        check(store_value_from_dest, x, np.array([0, 0]))


def repeated_add(a, i):
    a[i, 1] += 1  # a repeated index is written once per occurrence: the last wins
    return a


def test_repeated_indices_in_op_assign():
    check(repeated_add, arr((3, 3)), np.array([0, 0, 2, 0]))


def store_index_is_dest(a):
    a[a[:, 0], 0] = 3  # the index array is a view of the destination
    return a


def test_store_index_view_of_destination():
    check(store_index_is_dest, np.array([[1, 5], [0, 6], [2, 7]]))


def take_oob(a, i):
    return a[:, i]


def store_oob(a, i):
    a[i, 1:] = 0
    return a


def test_out_of_range_index_arrays():
    a = arr((3, 4))
    for i in (np.array([4]), np.array([-5]), np.array([1, 9], np.uint8), np.array([2**63], np.uint64)):
        with pytest.raises(IndexError):
            jitted(take_oob)(a, i)
        with pytest.raises(IndexError):
            take_oob(a, i)
    b = a.copy()
    with pytest.raises(IndexError):
        jitted(store_oob)(b, np.array([0, 3]))
    assert np.array_equal(b, a)  # checked before anything is stored
    with pytest.raises(IndexError):
        jitted(take_oob, boundscheck=False)(a, np.array([7]))  # fancy indexing always checks


def store_bad_shape(a, i):
    a[i, :] = np.ones(3)
    return a


def test_store_value_shape_mismatch():
    with pytest.raises(ValueError):
        jitted(store_bad_shape)(arr((3, 4)), np.array([0, 1]))


# ---------------------------------------------------------------------------
# Scalar indices of other integer types
# ---------------------------------------------------------------------------
def scalar_kinds(a, p, q):
    a[np.int64(p), q] = 1.5
    return a[np.int64(p)], a[np.uint8(3)], a[q, np.int16(-1)], a[p:q], a[np.uint32(1):]


def test_numpy_integer_scalars():
    for x in views(arr((5, 4))):
        check(scalar_kinds, x, 1, np.int8(2))
        check(scalar_kinds, x, np.uint64(0), np.uint16(3))
        check(scalar_kinds, x, -2, np.int32(-1))


# ---------------------------------------------------------------------------
# Computed arrays: attributes, methods, subscripts
# ---------------------------------------------------------------------------
def computed_attrs(a, b, n):
    return ((a + b).shape, np.empty(n).shape, (a * 2).T, (a + 1).ndim, (a - b).size, (a + b).shape[0],
            (a @ b.T).shape, np.zeros((n, 2)).T.shape)


def computed_methods(a, m):
    return (a * 2).sum(), a[m].mean() if m.any() else 0.0, (a + 1).max(), np.abs(a - 3).argmin(), (a.T + 0).copy()


def computed_subscripts(a, n):
    return np.arange(10)[::2], (a + 1)[0], (a * 2)[:, ::-1], np.arange(n)[n // 2:], (a[0] + a[1])[1:], np.ones(n)[None]


@njit
def helper(x):
    return x * 2


def tuple_items(a, b):
    t = (a, b)
    return t[1].shape[0], t[0].T.shape, helper(a).T, helper(a)[0], helper(a).shape


def test_computed_arrays():
    a = arr((3, 4))
    b = arr((3, 4)) - 2
    for x in views(a):
        check(computed_attrs, x, b, 5)
        check(computed_attrs, x, b, 0)
        check(computed_methods, x, x > 3)
        check(computed_subscripts, x, 7)
        check(tuple_items, x, b[:, :2])


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------
def float_index(a, f):
    return a[f, 0]  # MARK


def too_many(a, i):
    return a[i, 0, None, 1]  # MARK


def assert_refused(exc, fn, *args, match=None):
    with pytest.raises(exc) as info:
        njit(fn)(*args)
    message = str(info.value)
    if match:
        assert match in message, message
    line = line_of(fn, "# MARK")
    assert_diagnostic(message, FILE, line, source_line(fn, line))


def test_refusals():
    assert_refused(TypingError, float_index, arr((3, 3)), np.ones(2), match="integer")
    assert_refused(TypingError, too_many, arr((3, 3)), np.arange(2), match="too many indices")


# ---------------------------------------------------------------------------
# np.take, a.take, np.take_along_axis, np.extract
# ---------------------------------------------------------------------------
def takes(a, i):
    return np.take(a, i), a.take(i), np.take(a, i[0]), np.take(a, [0, -1]), a.take((1, 2))


def along(a, i, axis):
    return np.take_along_axis(a, i, axis)


def along_max(a):
    return np.take_along_axis(a, np.argmax(a, axis=1)[:, None], axis=1)


def extracts(c, a):
    return np.extract(c, a), np.extract(a > 2, a)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.complex128])
def test_take(dtype):
    for x in views(arr((3, 4), dtype)):
        check(takes, x, np.array([[0, -1], [5, 11]]))
        check(takes, x, np.array([3], np.uint8))
        check(takes, x, np.array([-12, 0, 7], np.int16))
    check(takes, arr((5,), dtype)[::-1], np.array([4, 0]))
    with pytest.raises(IndexError):
        jitted(takes)(arr((3, 4), dtype), np.array([12]))
    with pytest.raises(IndexError):
        jitted(takes)(arr((3, 4), dtype), np.array([0, -13]))
    check(takes, arr((3, 4), dtype), np.array([11, 0], np.uint64))
    with pytest.raises(IndexError):
        jitted(takes)(arr((3, 4), dtype), np.array([0, 2**64 - 1], np.uint64))


def test_take_along_axis():
    a = arr((3, 4))
    for x in views(a):
        check(along, x, np.array([[0, 2, 1, 0]]), 0)
        check(along, x, np.array([[0], [3], [-1]]), 1)
        check(along, x, np.array([[0, 1], [3, 3], [-1, 0]]), -1)
        check(along, x, np.array([0, 11, -2]), None)
        check(along, x, np.zeros((0, 4), np.int64), 0)
        check(along_max, x)
    b = arr((2, 3, 4), np.int64)
    for x in views(b):
        check(along, x, np.zeros((2, 1, 4), np.int64) + 2, 1)
        check(along, x, np.array([[[1, 0]], [[3, 3]]]), 2)
        check(along, x, np.array([[[1], [0], [1]]]), 0)
    check(along, np.arange(5.0)[::-1], np.array([4, 0, -1]), 0)
    with pytest.raises(IndexError):
        jitted(along)(a, np.array([[4]]), 1)
    with pytest.raises(ValueError):
        jitted(along)(a, np.array([1]), 0)  # not the array's number of dimensions
    with pytest.raises(ValueError):
        jitted(along)(a, np.array([[1]]), 2)  # no such axis


def test_extract():
    a = arr((3, 4))
    for x in views(a):
        check(extracts, x > 3, x)
        check(extracts, np.zeros((3, 4), np.bool_), x)
        check(extracts, np.array([1, 0, 2]), x)  # a shorter condition, not boolean
    check(extracts, np.zeros(0, np.bool_), np.zeros(0))
    with pytest.raises(IndexError):
        jitted(extracts)(np.ones(13, np.bool_), a)


def store_through_own_transpose(b):
    b[b.T] = True  # a Fortran-layout mask sharing the destination's memory (read from a copy)
    return b


def test_mask_is_transposed_destination():
    b = np.array([[True, False, False], [True, False, True], [False, False, False]])
    check(store_through_own_transpose, b)
    check(store_through_own_transpose, np.asfortranarray(b))


# ---------------------------------------------------------------------------
# Arrays that may be None (a None default replaced in the body): subscripts and
# attributes unwrap them, a TypeError when None (as Numba)
# ---------------------------------------------------------------------------
@njit
def _negate_into(d, out):
    for i in range(out.shape[0]):
        out[i] = -d[i]
    return d.shape[0] + d.size


def optional_array(n, d=None):
    if d is None:
        d = np.ones(n)
    out = np.empty(n)
    k = _negate_into(d, out)
    d[0] = 5.0
    d[1:] += 2.0
    return out, k, d[1:].sum(), d.T.shape, d.sum(), d


def maybe_none(d, flag):
    if flag:
        d = None
    return d.shape[0]


def test_optional_arrays():
    check(optional_array, 3)
    check(optional_array, 4, np.arange(4.0))
    check(optional_array, 3, np.arange(6.0)[::-2])
    assert jitted(maybe_none)(np.ones(2), False) == 2
    with pytest.raises(TypeError):
        jitted(maybe_none)(np.ones(2), True)


def store_lists(a, x):
    a[1:] = [x, x + 1, 3]
    a[np.array([0, 2])] = [7, x]
    a[a > 8] = [x - 1]
    return a


def store_nested_list(a, x):
    a[:, 0] = [x, 2 * x]
    a[np.array([1]), :] = [[1, 2, 3]]
    return a


def test_store_lists():
    for dtype in (np.float64, np.int32):
        check(store_lists, np.arange(4).astype(dtype), 9)
        check(store_lists, np.arange(8).astype(dtype)[::-2], -2)
        check(store_nested_list, np.zeros((2, 3), dtype), 4)


def where_one(a):
    return np.where(a > 2), a[np.where(a > 2)], np.where(a % 2 == 0)[0]


def test_where_one_argument():
    for a in (np.arange(6.0), np.arange(6).reshape(2, 3)[:, ::-1], np.zeros(0), np.arange(24).reshape(2, 3, 4) % 5):
        check(where_one, a)
