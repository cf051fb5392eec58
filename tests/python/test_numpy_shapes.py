"""NumPy's functions that rearrange arrays (python/mahou/_library/shapes.py and the
compiler's as_strided): transpose with axes, swapaxes, moveaxis, expand_dims, squeeze,
atleast_*d, the split family, append, delete, insert, diag, diagonal, real/imag, flips,
rot90, roll with an axis, tile, resize, trim_zeros, sliding_window_view, broadcast_to,
the stacking functions. Compared with NumPy over dtypes, views, empty arrays and errors."""

import numpy as np
import pytest

from conftest import assert_same, check
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex128]


def sample(shape, dtype=np.float64):
    n = int(np.prod(shape))
    v = np.arange(1, n + 1).reshape(shape) * (-1) ** np.arange(n).reshape(shape)
    if np.dtype(dtype).kind == "b":
        return (v % 3 == 0).astype(dtype)
    if np.dtype(dtype).kind == "u":
        return np.abs(v).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (v + 0.5j * v).astype(dtype)
    return v.astype(dtype)


def layouts(a):
    """`a`, its Fortran copy, a strided view and a reversed view with the same values."""
    out = [a, np.asfortranarray(a)]
    if a.ndim >= 1 and a.shape[0] > 0:
        big = np.zeros((a.shape[0] * 2,) + a.shape[1:], dtype=a.dtype)
        big[::2] = a
        out.append(big[::2])
        out.append(np.ascontiguousarray(a[::-1])[::-1])
    return out


# ---------------------------------------------------------------- transpose, swapaxes, moveaxis
def transposes(a):
    return np.transpose(a), np.transpose(a, (1, 2, 0)), np.transpose(a, [2, 0, 1]), a.transpose(0, 2, 1), \
        a.transpose((2, 1, 0)), np.transpose(a, (-1, 0, 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_transpose_axes(dtype):
    for a in layouts(sample((2, 3, 4), dtype)):
        check(transposes, a)
    check(transposes, np.empty((0, 3, 2), dtype=dtype))


def test_transpose_is_a_view_and_errors():
    def write_through(a):
        t = np.transpose(a, (1, 0))
        t[0, 1] = 99.0
        return a

    check(write_through, sample((2, 3)))
    check(lambda a: np.transpose(a), np.array(3.0))
    with pytest.raises(ValueError, match="axes don't match array"):
        njit(lambda a: np.transpose(a, (0, 1)))(sample((2, 3, 4)))
    with pytest.raises(ValueError, match="repeated axis"):
        njit(lambda a: np.transpose(a, (0, 0)))(sample((2, 3)))
    with pytest.raises(ValueError, match="out of bounds"):
        njit(lambda a: np.transpose(a, (0, 2)))(sample((2, 3)))


def swaps(a):
    return np.swapaxes(a, 0, 2), a.swapaxes(-1, 1), np.swapaxes(a, 1, 1)


def moves(a):
    return (np.moveaxis(a, 0, -1), np.moveaxis(a, -1, 0), np.moveaxis(a, (0, 1), (2, 0)),
            np.moveaxis(a, [0, 2], [1, 0]))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64])
def test_swapaxes_moveaxis(dtype):
    for a in layouts(sample((2, 3, 4), dtype)):
        check(swaps, a)
        check(moves, a)
    check(lambda v: (np.swapaxes(v, 0, 0), np.moveaxis(v, 0, 0)), sample((5,), dtype))
    with pytest.raises(ValueError, match="out of bounds"):
        njit(lambda a: np.swapaxes(a, 0, 3))(sample((2, 3, 4)))
    with pytest.raises(ValueError, match="same number of elements"):
        njit(lambda a: np.moveaxis(a, (0, 1), 2))(sample((2, 3, 4)))
    with pytest.raises(ValueError, match="repeated axis"):
        njit(lambda a: np.moveaxis(a, (0, 0), (1, 2)))(sample((2, 3, 4)))


# ---------------------------------------------------------------- expand_dims, squeeze, atleast
def expands(a):
    return np.expand_dims(a, 0), np.expand_dims(a, -1), np.expand_dims(a, 1), np.expand_dims(a, (0, 2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_expand_dims(dtype):
    for a in layouts(sample((3, 2), dtype)):
        check(expands, a)
    check(lambda x: (np.expand_dims(x, 0), np.expand_dims(x, (0, 1))), np.array(2.5))
    check(expands, np.empty((0, 2), dtype=dtype))
    with pytest.raises(ValueError, match="out of bounds"):
        njit(lambda a: np.expand_dims(a, 3))(sample((3, 2)))
    with pytest.raises(ValueError, match="repeated axis"):
        njit(lambda a: np.expand_dims(a, (1, 1)))(sample((3, 2)))


def squeezes(a):
    return np.squeeze(a, 1), a.squeeze(axis=-1), np.squeeze(a, (1,)), np.squeeze(a, ())


@pytest.mark.parametrize("dtype", DTYPES)
def test_squeeze_with_axis(dtype):
    for a in layouts(sample((3, 1, 1), dtype)):
        check(squeezes, a)
    check(lambda v: np.squeeze(v, 0), sample((1,), dtype))
    check(lambda v: np.squeeze(v), np.array(1.5))
    with pytest.raises(ValueError, match="size not equal to one"):
        njit(lambda a: np.squeeze(a, 0))(sample((3, 1)))


def test_squeeze_without_axis_is_refused_at_the_call():
    def f(a):
        return np.squeeze(a)

    with pytest.raises(UnsupportedError, match=r"test_numpy_shapes.py:\d+.*without an axis"):
        njit(f)(sample((3, 1)))


def atleasts(a):
    return np.atleast_1d(a), np.atleast_2d(a), np.atleast_3d(a)


@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (2, 3, 2), (0,)])
def test_atleast(shape):
    a = sample(shape)
    check(atleasts, a)
    check(lambda x, y: np.atleast_2d(x, y), a, sample((5,), np.int32))
    check(lambda x: (np.atleast_1d(x), np.atleast_2d(x), np.atleast_3d(x)), 2.5)


# ---------------------------------------------------------------- shape, size, ndim
def test_shape_size_ndim_of_arrays_scalars_and_sequences():
    check(lambda a: (np.shape(a), np.size(a), np.ndim(a), np.size(a, 1), np.size(a, -1)), sample((2, 3)))
    check(lambda x: (np.shape(x), np.size(x), np.ndim(x)), 3.5)
    check(lambda: (np.shape([1, 2, 3]), np.size((1.0, 2.0)), np.ndim([[1, 2], [3, 4]])))


# ---------------------------------------------------------------- splitting
def splits(a):
    return (np.split(a, 3), np.split(a, [1, 4]), np.array_split(a, 4), np.array_split(a, [2, -1, 9]),
            np.split(a, np.array([2, 2, 5])))


@pytest.mark.parametrize("dtype", DTYPES)
def test_split_array_split(dtype):
    for a in layouts(sample((6, 2), dtype)):
        check(splits, a)
        check(lambda v: (np.split(v, 2, axis=1), np.array_split(v, 3, 1), np.split(v, [1], -1)), a)
    check(lambda v: np.array_split(v, 3), np.empty(0, dtype=dtype))
    with pytest.raises(ValueError, match="equal division"):
        njit(lambda a: np.split(a, 4))(sample((6,)))
    with pytest.raises(ValueError, match="larger than 0"):
        njit(lambda a: np.array_split(a, 0))(sample((6,)))


def test_hsplit_vsplit_dsplit():
    a = sample((4, 6, 2))
    check(lambda v: (np.hsplit(v, 3), np.vsplit(v, [1, 3]), np.dsplit(v, 2)), a)
    check(lambda v: np.hsplit(v, [2, 3]), sample((6,)))
    with pytest.raises(ValueError, match="vsplit only works"):
        njit(lambda v: np.vsplit(v, 2))(sample((6,)))
    with pytest.raises(ValueError, match="dsplit only works"):
        njit(lambda v: np.dsplit(v, 2))(sample((6, 2)))


# ---------------------------------------------------------------- append, delete, insert
def appends(a, b):
    return np.append(a, b), np.append(a, b, axis=0), np.append(a, 7)


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128])
def test_append(dtype):
    a = sample((2, 3), dtype)
    for x in layouts(a):
        check(appends, x, sample((1, 3), np.float64))
    check(lambda x, y: np.append(x, y, axis=1), a, sample((2, 2), dtype))
    check(lambda x: np.append(x, [1, 2]), sample((3,), dtype))
    with pytest.raises(ValueError):
        njit(lambda x, y: np.append(x, y, axis=0))(a, sample((1, 2)))


def deletes(a):
    return np.delete(a, 1), np.delete(a, -1), np.delete(a, [0, 2, 2]), np.delete(a, np.array([True, False, True, False, False, True])), \
        np.delete(a, slice(1, 5, 2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_delete(dtype):
    for a in layouts(sample((6,), dtype)):
        check(deletes, a)
    check(lambda a: np.delete(a, 3), sample((2, 3), dtype))
    with pytest.raises(IndexError):
        njit(lambda a: np.delete(a, 6))(sample((6,)))
    with pytest.raises(IndexError):
        njit(lambda a: np.delete(a, [0, -7]))(sample((6,)))


def inserts(a):
    return (np.insert(a, 1, 9), np.insert(a, -1, [7, 8]), np.insert(a, len(a), 5), np.insert(a, [0, 2], 4),
            np.insert(a, [3, 1], [10, 20]), np.insert(a, [1], [7, 8]))


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.float32, np.complex128])
def test_insert(dtype):
    for a in layouts(sample((4,), dtype)):
        check(inserts, a)
    check(lambda a: np.insert(a, 2, 0.5), sample((2, 2), dtype))
    with pytest.raises(IndexError):
        njit(lambda a: np.insert(a, 5, 1))(sample((4,)))


# ---------------------------------------------------------------- diagonals, real, imag
def diags(v, m):
    return np.diag(v), np.diag(v, 1), np.diag(v, -2), np.diag(m), np.diag(m, 1), np.diag(m, -1), np.diag(m, 9), \
        np.diagflat(m), m.diagonal(), m.diagonal(-1), np.diagonal(m, 2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag_and_diagonal(dtype):
    v = sample((3,), dtype)
    for m in layouts(sample((3, 4), dtype)):
        check(diags, v, m)
    check(diags, np.empty(0, dtype=dtype), np.empty((0, 2), dtype=dtype))
    with pytest.raises(ValueError, match="1- or 2-d"):
        njit(lambda x: np.diag(x))(sample((2, 2, 2)))


def test_diagonal_is_a_read_only_view():
    def write(m):
        m.diagonal()[0] = 1.0

    with pytest.raises(TypingError, match="read-only"):
        njit(write)(sample((2, 2)))
    check(lambda m: m.diagonal().copy(), sample((3, 3)))


def test_real_imag_functions():
    c = sample((2, 3), np.complex128)
    check(lambda a: (np.real(a), np.imag(a), np.real(3 + 4j), np.imag(2.5)), c)
    check(lambda a: (np.real(a), np.imag(a)), sample((4,), np.int32))

    def write_real(a):
        np.real(a)[0] = 9.0
        return a

    check(write_real, c[0].copy())


# ---------------------------------------------------------------- flips, rot90, roll
def flips(a):
    return np.flip(a), np.flip(a, 0), np.flip(a, -1), np.flip(a, (0, 2)), np.fliplr(a), np.flipud(a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_flip_axes(dtype):
    for a in layouts(sample((2, 3, 2), dtype)):
        check(flips, a)
    check(lambda a: np.flip(a), sample((2, 2, 2, 2, 2), dtype))


def rotations(a):
    return np.rot90(a), np.rot90(a, 2), np.rot90(a, -1), np.rot90(a, 3), np.rot90(a, 1, (1, 0)), np.rot90(a, 4)


@pytest.mark.parametrize("dtype", [np.int8, np.float64])
def test_rot90(dtype):
    for a in layouts(sample((2, 3), dtype)):
        check(rotations, a)
    check(lambda a: np.rot90(a, 1, (0, 2)), sample((2, 3, 4), dtype))
    with pytest.raises(ValueError):
        njit(lambda a: np.rot90(a, 1, (0, 0)))(sample((2, 3)))


def rolls(a):
    return np.roll(a, 2), np.roll(a, -1, 0), np.roll(a, 4, axis=1), np.roll(a, (1, 2), (0, 1)), np.roll(a, 1, (1, 0))


@pytest.mark.parametrize("dtype", DTYPES)
def test_roll_with_axis(dtype):
    for a in layouts(sample((3, 4), dtype)):
        check(rolls, a)
    check(rolls, np.empty((0, 3), dtype=dtype))


# ---------------------------------------------------------------- tile, resize, trim_zeros
def tiles(a):
    return np.tile(a, 2), np.tile(a, (2, 1)), np.tile(a, (1, 2, 2)), np.tile(a, (3,)), np.tile(a, 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_tile(dtype):
    for a in layouts(sample((2, 3), dtype)):
        check(tiles, a)
    check(tiles, sample((3,), dtype))
    check(lambda x: np.tile(x, (2, 2)), np.array(1.5))
    with pytest.raises(ValueError):
        njit(lambda a: np.tile(a, -1))(sample((3,)))


def test_resize():
    for a in layouts(sample((2, 3))):
        check(lambda v: (np.resize(v, 4), np.resize(v, (3, 4)), np.resize(v, (2, 0))), a)
    check(lambda v: np.resize(v, (2, 2)), np.empty(0, dtype=np.int32))


def test_trim_zeros():
    a = np.array([0, 0, 1, 2, 0, 3, 0], dtype=np.int32)
    check(lambda v: (np.trim_zeros(v), np.trim_zeros(v, "f"), np.trim_zeros(v, "b"), np.trim_zeros(v, "fB")), a)
    check(lambda v: np.trim_zeros(v), np.zeros(3))
    check(lambda v: np.trim_zeros(v), np.empty(0))


# ---------------------------------------------------------------- strided views
def test_as_strided_and_sliding_window_view():
    from numpy.lib.stride_tricks import as_strided, sliding_window_view

    def windows(a):
        return as_strided(a, (4, 3), (a.strides[0], a.strides[0])).copy()

    check(windows, np.arange(6.0))
    check(lambda a: np.lib.stride_tricks.as_strided(a, strides=(0, 8), shape=(2, 3)).copy(), np.arange(3.0))
    check(lambda a: sliding_window_view(a, 3).copy(), np.arange(7))
    check(lambda a: sliding_window_view(a, (2, 2)).copy(), sample((3, 4)))
    check(lambda a: sliding_window_view(a, 2, axis=1).copy(), sample((3, 4)))
    check(lambda a: np.lib.stride_tricks.sliding_window_view(a[::2], 2).sum(), np.arange(10.0))
    with pytest.raises(ValueError, match="larger than input"):
        njit(lambda a: sliding_window_view(a, 9))(np.arange(4.0))
    with pytest.raises(UnsupportedError, match="strides"):
        njit(lambda a: as_strided(a, (2,)))(np.arange(4.0))

    def write(a):
        sliding_window_view(a, 2)[0, 0] = 1.0

    with pytest.raises(TypingError, match="read-only"):
        njit(write)(np.arange(4.0))


def strided_len(a, n, m):
    return np.lib.stride_tricks.as_strided(a, shape=(n, m), strides=(0, 0)).shape[0]


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.int8])
def test_as_strided_size_check_as_numpy(dtype):
    # NumPy refuses a view whose size in bytes passes int64 (whatever its strides); so do
    # compiled views (the functions they reach assume their extents within that size)
    a = np.zeros(3, dtype=dtype)
    item = np.dtype(dtype).itemsize
    limit = np.iinfo(np.int64).max // item
    for n, m in ((5, 2), (limit, 1), (limit + 1, 1), (2**32, 2**31), (0, 2**62), (2**31, 2**31 // item)):
        if n > np.iinfo(np.int64).max:  # not an int64 argument (int8: limit is int64's max)
            continue
        try:
            expected = strided_len(a, n, m)
        except ValueError as e:
            with pytest.raises(ValueError, match="array is too big"):
                njit(strided_len)(a, n, m)
            assert "too big" in str(e)
        else:
            assert njit(strided_len)(a, n, m) == expected


def test_broadcast_to():
    check(lambda a: np.broadcast_to(a, (2, 3)).copy(), np.arange(3.0))
    check(lambda a: np.broadcast_to(a, (4, 2, 1)).copy(), sample((2, 1)))
    check(lambda x: np.broadcast_to(x, 3).copy(), np.array(2.0))
    with pytest.raises(ValueError):
        njit(lambda a: np.broadcast_to(a, (2, 4)))(np.arange(3.0))



@pytest.mark.parametrize("shapes", [
    ((3, 1), (1, 4)), ((6, 7), (5, 6, 1), (7,), (5, 1, 7)), (3, (2, 1)), ((),), (), ((0,), (1,)),
    ((1,), (0, 1)), ((2, 1, 3), 3, (1,)), ((4,),)])
def test_broadcast_shapes(shapes):
    check(broadcast_shapes, *shapes)


def broadcast_shapes(*s):
    return np.broadcast_shapes(*s)


def test_broadcast_shapes_errors():
    for bad in [((2,), (3,)), ((2, 3), (3, 2)), ((-1,),)]:
        with pytest.raises(ValueError):
            np.broadcast_shapes(*bad)
        with pytest.raises(ValueError):
            njit(broadcast_shapes)(*bad)


@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_arrays(dtype):
    a = sample((3,), dtype)
    for x in layouts(a):
        check(lambda x, y: np.broadcast_arrays(x, y), x, sample((2, 1), np.int32))
        check(lambda x: np.broadcast_arrays(x), x)
    check(lambda x, y, z: np.broadcast_arrays(x, y, z), sample((2, 3), dtype)[:, ::2], 5.0,
          sample((3, 1, 1)))
    check(lambda x, y: np.broadcast_arrays(x, y), sample((0, 1), dtype), sample((4,)))
    # the views share the arrays' memory and cannot be written
    u, v = njit(lambda x, y: np.broadcast_arrays(x, y))(a, sample((2, 1)))
    assert not u.flags.writeable and not v.flags.writeable
    assert u.shape == (2, 3) and v.strides == (sample((2, 1)).strides[0], 0)

    def write(x, y):
        u, v = np.broadcast_arrays(x, y)
        u[0, 0] = 1

    with pytest.raises(TypingError, match="read-only"):
        njit(write)(a, sample((2, 1)))
    with pytest.raises(ValueError):
        njit(lambda x, y: np.broadcast_arrays(x, y))(sample((2,)), sample((3,)))


def atleast_each(a, b, c, d, e):
    return np.atleast_1d(a, b, c, d, e), np.atleast_2d(a, b, c, d, e), np.atleast_3d(a, b, c, d, e)


def test_atleast_of_many_arrays():
    check(atleast_each, 2.5, sample((3,)), sample((2, 2), np.int32), sample((1, 2, 3)), sample(()))

# ---------------------------------------------------------------- stacking
def stacks(a, b):
    return np.dstack((a, b)), np.column_stack((a, b)), np.vstack((a, b)), np.hstack((a, b)), np.stack((a, b), 1)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_stacking_functions(dtype):
    for shape in [(3,), (2, 3)]:
        a = sample(shape, dtype)
        for x in layouts(a):
            check(stacks, x, sample(shape, np.float32))
    check(lambda a, b: (np.dstack((a, b)), np.hstack((a, a))), sample((2, 3, 2)), sample((2, 3, 1)))
    check(lambda a, b: np.column_stack((a, b)), sample((3,)), sample((3, 2)))
    check(lambda a, b: np.vstack((a, b)), sample((3,)), sample((2, 3)))
    t = (sample((3,)), sample((3,)))
    check(lambda t: (np.dstack(t), np.column_stack(t)), t)
    with pytest.raises(ValueError):
        njit(lambda a, b: np.column_stack((a, b)))(sample((3,)), sample((4,)))


def test_results_compare_with_views():
    # a view made by the library keeps the array it came from alive
    def f(n):
        a = np.arange(n * 2.0).reshape(n, 2)
        return np.swapaxes(a, 0, 1)

    r = njit(f)(4)
    assert_same(r, f(4))
    assert r.base is not None


def test_trim_zeros_bad_trim():
    with pytest.raises(ValueError, match="unexpected character"):
        njit(lambda v: np.trim_zeros(v, "x"))(np.zeros(3))
