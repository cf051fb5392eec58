"""NumPy breadth: np.concatenate/np.stack along any axis, argmin/argmax with an axis on
N-D arrays, print() of arrays, a.flat, and indexing with one integer array per axis.
Each compiled function is compared with CPython + NumPy on several layouts and dtypes."""

import numpy as np
import pytest

import mahou
from conftest import assert_diagnostic, check, jitted, line_of, source_line
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

FILE = "test_numpy_breadth.py"


def views(a):
    """`a` itself and non-contiguous views with the same values where possible: a
    Fortran copy, a strided view of a bigger array, a transposed copy read through .T."""
    out = [a, np.asfortranarray(a)]
    big = np.zeros((a.shape[0] * 2,) + a.shape[1:], dtype=a.dtype)
    big[::2] = a
    out.append(big[::2])
    out.append(np.ascontiguousarray(a.T).T)
    return out


def assert_refused(exc, fn, marker, *args, match=None):
    with pytest.raises(exc) as info:
        njit(fn)(*args)
    message = str(info.value)
    if match:
        assert match in message, message
    line = line_of(fn, marker)
    assert_diagnostic(message, FILE, line, source_line(fn, line))


# ---------------------------------------------------------------------------
# np.concatenate / np.stack / np.hstack / np.vstack along any axis
# ---------------------------------------------------------------------------
def cat_axes_2d(a, b):
    return (np.concatenate((a, b), axis=1), np.concatenate((a, b), axis=-1), np.concatenate((a, a, b), 1),
            np.hstack((a, b)))


def cat_axes_rows(a, c):
    return np.concatenate((a, c), axis=0), np.concatenate((a, c), axis=-2), np.vstack((a, c, a))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.bool_, np.complex128, np.uint8])
def test_concatenate_2d_axes(dtype):
    a = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    b = (np.arange(6).reshape(3, 2) % 3).astype(dtype)
    c = (np.arange(8).reshape(2, 4) % 7).astype(dtype)
    for x in views(a):
        check(cat_axes_2d, x, b)
        check(cat_axes_2d, x, b.T.copy().T)
        check(cat_axes_rows, x, c)
        check(cat_axes_rows, x, c[:, ::-1])


def cat_3d(a, b):
    return (np.concatenate((a, b), axis=0), np.concatenate((a, b), axis=1), np.concatenate((a, b), axis=2),
            np.concatenate((a, b), axis=-1), np.concatenate((a, b), axis=-3))


def test_concatenate_3d():
    a = np.arange(24.0).reshape(2, 3, 4)
    check(cat_3d, a, -a)
    check(cat_3d, a, a[:, ::-1, :])
    check(cat_3d, a, a.copy(order="F"))
    check(cat_3d, np.transpose(a, (1, 2, 0)).copy().transpose(2, 0, 1), a[::-1])


def cat_mixed(a, b):
    return np.concatenate((a, b), axis=1)


def test_concatenate_promotes_dtypes():
    check(cat_mixed, np.ones((2, 2), np.int32), np.full((2, 3), 0.5, np.float32))
    check(cat_mixed, np.ones((2, 2), np.uint8), np.full((2, 1), -3, np.int8))


def cat_none(a, b):
    return np.concatenate((a, b), axis=None)


def test_concatenate_axis_none():
    a = np.arange(6).reshape(2, 3)
    check(cat_none, a, a.T)
    check(cat_none, a[:, ::2], np.arange(4).reshape(2, 2, 1))


def cat_sequences(a, b, t):
    pair = (a, b)
    return (np.concatenate([a, b], axis=1), np.concatenate(pair, axis=-1), np.stack(t, axis=1),
            np.concatenate(t), np.vstack(pair), np.hstack([a, b, a]))


def test_concatenate_lists_and_tuple_variables():
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(6).reshape(2, 3)
    check(cat_sequences, a, b, (a.T, b.T))
    check(cat_sequences, a[:, ::-1], b, (a, a))


def cat_computed_tuple(a):
    return np.concatenate(make_pair(a), axis=0)  # MARK


@njit
def make_pair(a):
    return a, a


def test_concatenate_computed_tuple_refused():
    assert_refused(UnsupportedError, cat_computed_tuple, "# MARK", np.zeros(2), match="assign it to a variable")


def test_concatenate_empty():
    check(cat_mixed, np.zeros((3, 0)), np.ones((3, 2)))
    check(cat_mixed, np.zeros((0, 2)), np.ones((0, 5)))
    check(cat_axes_rows, np.zeros((0, 4)), np.ones((2, 4)))
    check(cat_3d, np.zeros((0, 0, 0)), np.zeros((0, 0, 0)))


def test_concatenate_mismatch_raises():
    with pytest.raises(ValueError):
        cat_mixed(np.zeros((2, 2)), np.zeros((3, 2)))
    with pytest.raises(ValueError, match="concatenation axis"):
        jitted(cat_mixed)(np.zeros((2, 2)), np.zeros((3, 2)))


def stacks(a, b):
    return (np.stack((a, b)), np.stack((a, b), axis=1), np.stack((a, b), axis=2), np.stack((a, b), axis=-1),
            np.stack((a, b, a), axis=-2), np.stack((a,), axis=1))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.bool_])
def test_stack_axes(dtype):
    a = (np.arange(6).reshape(2, 3) % 4).astype(dtype)
    for x in views(a):
        check(stacks, x, (a * 3).astype(dtype))
    check(stacks, np.zeros((0, 3), dtype), np.zeros((0, 3), dtype))


def stack_1d(a, b):
    return np.stack((a, b), axis=1), np.stack((a, b), axis=-1), np.vstack((a, b)), np.hstack((a, b))


def test_stack_1d():
    check(stack_1d, np.arange(4.0), np.arange(4.0)[::-1])
    check(stack_1d, np.arange(8)[::2], np.arange(4, dtype=np.int16))
    check(stack_1d, np.zeros(0), np.zeros(0))


def bad_stack(a, b):
    return np.stack((a, b), axis=1)


def test_stack_mismatch_raises():
    with pytest.raises(ValueError, match="same shape"):
        jitted(bad_stack)(np.zeros((2, 3)), np.zeros((2, 2)))


def cat_axis_out_of_range(a):
    return np.concatenate((a, a), axis=2)  # MARK


def stack_axis_out_of_range(a):
    return np.stack((a, a), axis=-4)  # MARK


def cat_zero_d(a):
    return np.concatenate((a[0, 0, ...], a[0, 0, ...]))  # MARK


def test_concatenate_errors():
    assert_refused(TypingError, cat_axis_out_of_range, "# MARK", np.zeros((2, 2)), match="axis 2 is out of bounds")
    assert_refused(TypingError, stack_axis_out_of_range, "# MARK", np.zeros((2, 2)), match="out of bounds")
    assert_refused(TypingError, cat_zero_d, "# MARK", np.zeros((2, 2)), match="zero-dimensional")


# ---------------------------------------------------------------------------
# argmin / argmax with an axis
# ---------------------------------------------------------------------------
def arg_2d(a):
    return (np.argmin(a, axis=0), np.argmax(a, axis=0), np.argmin(a, axis=1), np.argmax(a, axis=-1),
            a.argmin(axis=-2), a.argmax(axis=1), a.argmax(1), np.argmin(a, 0))


def arg_3d(a):
    return (a.argmin(axis=0), a.argmax(axis=1), np.argmin(a, axis=2), np.argmax(a, axis=-1), np.argmax(a, axis=-3),
            np.argmin(a, axis=-2))


def arg_1d(a):
    return a.argmin(axis=0), np.argmax(a, axis=-1)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32, np.float64, np.bool_])
def test_argminmax_axis_dtypes(dtype):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 4, size=(5, 6)).astype(dtype)  # many ties: the first one wins
    for x in views(a):
        check(arg_2d, x)
    b = rng.integers(-3, 3, size=(3, 4, 5)).astype(dtype if dtype != np.uint16 else np.int16)
    check(arg_3d, b)
    check(arg_3d, b[:, ::-1, ::2])
    check(arg_3d, np.asfortranarray(b))
    check(arg_1d, a[0])
    check(arg_1d, a[:, 1])


def test_argminmax_axis_nan():
    a = np.array([[1.0, np.nan, 0.0, np.nan], [np.nan, 5.0, -1.0, 2.0], [3.0, 3.0, 3.0, 3.0]])
    check(arg_2d, a)
    check(arg_2d, a.astype(np.float32))
    check(arg_2d, np.array([[np.inf, -np.inf, np.nan], [-np.inf, np.inf, -np.inf]]))


def test_argminmax_axis_complex():
    a = np.array([[1 + 2j, 1 + 1j, 0 + 9j], [0 + 5j, 3 + 0j, 0 + 9j], [1 + 2j, np.nan + 0j, 2 + 0j]])
    check(arg_2d, a)
    check(arg_2d, a.astype(np.complex64))


def arg_axis0(a):
    return np.argmin(a, axis=0), np.argmax(a, axis=1)


def test_argminmax_axis_empty():
    # Reducing a non-empty axis of an array with no lines: an empty result.
    a = np.zeros((4, 0))

    def along_rows(a):
        return np.argmin(a, axis=0), np.argmax(a, axis=0)

    check(along_rows, a)
    # Reducing an empty axis raises, even when no line is reduced (shape (0, 0)).
    for shape in [(0, 3), (0, 0)]:
        with pytest.raises(ValueError, match="argmin of an empty sequence"):
            jitted(arg_axis0)(np.zeros(shape))
        with pytest.raises(ValueError):
            arg_axis0(np.zeros(shape))
    with pytest.raises(ValueError, match="argmax of an empty sequence"):
        jitted(arg_axis0)(np.zeros((1, 0)))


def arg_bad_axis(a):
    return a.argmax(axis=3)  # MARK


def test_argminmax_bad_axis():
    assert_refused(TypingError, arg_bad_axis, "# MARK", np.zeros((2, 2)), match="out of bounds")


# ---------------------------------------------------------------------------
# print() of arrays
# ---------------------------------------------------------------------------
def compare_output(capfd, fn, *args):
    """Runs fn in CPython and compiled, capturing the file descriptors, and compares."""
    fn(*args)
    expected = capfd.readouterr()
    jitted(fn)(*args)
    got = capfd.readouterr()
    assert got.out == expected.out
    assert got.err == expected.err
    return got.out


def print_one(a):
    print(a)


def print_mixed(a):
    print("x =", a, 3)
    print(a, a)
    print(1.5, a, "end")


PRINT_ARRAYS = [
    np.arange(5),
    np.arange(12).reshape(3, 4),
    np.arange(24).reshape(2, 3, 4) - 10,
    np.linspace(-1, 1, 7),
    np.linspace(0, 1, 6).reshape(2, 3).astype(np.float32),
    np.array([1e-10, 1.0, 1e10]),
    np.array([np.nan, np.inf, -np.inf, -0.0, 2.5]),
    np.array([True, False, True]),
    np.array([[True], [False]]),
    np.zeros(0),
    np.zeros((2, 0), dtype=np.int32),
    np.array([0, 255, 7], dtype=np.uint8),
    np.array([-128, 127], dtype=np.int8),
    np.array([2**63 - 1, -(2**63)], dtype=np.int64),
    np.array([2**64 - 1], dtype=np.uint64),
    np.array([1 + 2j, -0.5j]),
    np.arange(2000.0),  # summarised by NumPy with '...'
    np.arange(3000).reshape(3, 1000),
]


@pytest.mark.parametrize("a", PRINT_ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
def test_print_array(capfd, a):
    out = compare_output(capfd, print_one, a)
    assert out == str(a) + "\n"
    compare_output(capfd, print_mixed, a)


def test_print_views(capfd):
    a = np.arange(20.0).reshape(4, 5)
    for x in [a.T, a[::2], a[:, ::-2], a[1], np.asfortranarray(a)]:
        compare_output(capfd, print_one, x)


def print_computed(a):
    print(a * 2 + 1, a[::2].T)
    b = np.zeros((2, 2), dtype=np.int16)
    print(b)
    print(np.concatenate((a, a), axis=1))


def test_print_computed_arrays_do_not_leak(capfd):
    a = np.arange(6.0).reshape(3, 2)
    jitted(print_computed)(a)  # compile first
    capfd.readouterr()
    before = mahou._core.live_allocations()
    compare_output(capfd, print_computed, a)
    assert mahou._core.live_allocations() == before


def test_print_follows_numpy_print_options(capfd):
    a = np.array([1.0 / 3, 2.0 / 3, 1e-5])
    with np.printoptions(precision=3, suppress=True):
        compare_output(capfd, print_one, a)
    with np.printoptions(threshold=5, edgeitems=1):
        compare_output(capfd, print_one, np.arange(10))


def print_order(a):
    print("before")
    print(a)
    print("after", a[0])


def test_print_interleaves_with_python(capfd):
    # sys.stdout of Python and the compiled code's C stdout come out in program order.
    a = np.arange(3)
    print_order(a)
    expected = capfd.readouterr().out
    print("py", end=" ")
    print("py")
    jitted(print_order)(a)
    print("py")
    got = capfd.readouterr()
    assert got.out == "py py\n" + expected + "py\n"


# ---------------------------------------------------------------------------
# a.flat
# ---------------------------------------------------------------------------
def flat_sum(a):
    s = 0.0
    k = 0
    for x in a.flat:
        s = s * 0.5 + float(x) * (k + 1)
        k += 1
    return s, k


def flat_first_negative(a):
    for i, x in enumerate(a.flat):
        if x < 0:
            return i
    return -1


def flat_zip(a, b):
    s = 0
    for x, y in zip(a.flat, b.flat):
        s += x * y
    return s


def flat_items(a):
    n = a.size
    return a.flat[0], a.flat[n - 1], a.flat[-1], a.flat[n // 2], a.flat[-n]


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.uint8])
def test_flat_read(dtype):
    a = (np.arange(24).reshape(2, 3, 4) % 7 - 2).astype(dtype)
    for x in views(a) + [a[:, ::-1, 1:3], a.transpose(2, 0, 1)]:
        check(flat_sum, x)
        check(flat_items, x)
        check(flat_zip, x, x)
    m = (np.arange(12).reshape(3, 4) - 5).astype(dtype)
    for x in views(m):
        check(flat_sum, x)
        check(flat_first_negative, x)
        check(flat_items, x)
    check(flat_sum, np.arange(5.0)[::-2])
    check(flat_items, np.arange(5.0)[::-2])


def test_flat_empty():
    check(flat_sum, np.zeros((0, 3)))
    check(flat_sum, np.zeros((3, 0)).T)
    check(flat_first_negative, np.zeros(0))


def flat_store(a, v):
    n = a.size
    a.flat[0] = v
    a.flat[-1] = v * 2
    a.flat[n // 2] += v
    a.flat[1] *= 3
    return a.flat[1]


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int16, np.float32])
def test_flat_store(dtype):
    a = np.arange(12).reshape(3, 4).astype(dtype)
    for x in views(a) + [a[:, ::-1]]:
        check(flat_store, x, 7)
        check(flat_store, x, 2.5)


def flat_write_loop(a):
    k = 0
    for x in a.flat:
        a.flat[k] = x * 10 + k
        k += 1


def test_flat_write_while_iterating():
    a = np.arange(6.0).reshape(2, 3)
    for x in views(a):
        check(flat_write_loop, x)


def flat_at(a, i):
    return a.flat[i]


def flat_set(a, i):
    a.flat[i] = 1


def test_flat_index_out_of_range():
    a = np.arange(6).reshape(2, 3)
    for i in [6, -7, 100]:
        with pytest.raises(IndexError):
            flat_at(a, i)
        with pytest.raises(IndexError):
            jitted(flat_at)(a, i)
        with pytest.raises(IndexError):
            jitted(flat_set)(a.T, i)
    check(flat_at, a.T, -6)


def flat_as_value(a):
    f = a.flat  # MARK
    return f[0]


def flat_slice(a):
    return a.flat[1:3]  # MARK


def flat_array_index(a, idx):
    return a.flat[idx]  # MARK


def test_flat_refusals():
    assert_refused(UnsupportedError, flat_as_value, "# MARK", np.zeros(3), match="a.flat")
    assert_refused(UnsupportedError, flat_slice, "# MARK", np.zeros(3), match="a.flat")
    assert_refused(UnsupportedError, flat_array_index, "# MARK", np.zeros(3), np.arange(2), match="index array")


# ---------------------------------------------------------------------------
# a[i0, i1]: one integer index array per axis (reads)
# ---------------------------------------------------------------------------
def take2(a, i, j):
    return a[i, j]


def take3(a, i, j, k):
    return a[i, j, k]


def test_multi_index_arrays():
    a = np.arange(20.0).reshape(4, 5)
    i = np.array([0, 3, -1, 2])
    j = np.array([4, 0, -5, 2], dtype=np.int32)
    for x in views(a):
        check(take2, x, i, j)
        check(take2, x, i[::-1], j[::-1])
    check(take2, a, np.array([2]), j)  # a length-1 array broadcasts
    check(take2, a, i, np.array([1], dtype=np.uint8))
    check(take2, a, np.zeros(0, np.int64), np.zeros(0, np.int64))
    check(take2, a.astype(np.bool_), i, j)
    b = np.arange(24).reshape(2, 3, 4)
    check(take3, b, np.array([0, 1, 1]), np.array([2, 0, 1]), np.array([3, 3, -4]))


def test_multi_index_errors():
    a = np.arange(20.0).reshape(4, 5)
    with pytest.raises(IndexError):
        jitted(take2)(a, np.array([0, 1, 2]), np.array([0, 1]))
    with pytest.raises(IndexError):
        jitted(take2)(a, np.array([4]), np.array([0]))
    with pytest.raises(IndexError):
        jitted(take2)(a, np.array([0]), np.array([-6]))


def take_mixed(a, i, k):
    return a[i, k], a[k, i], a[i, -1], a[0, i]


def test_multi_index_with_integers():
    a = np.arange(20.0).reshape(4, 5)
    for x in views(a):
        check(take_mixed, x, np.array([0, 3, -1]), 2)
        check(take_mixed, x, np.array([1], np.int16), -4)
        check(take_mixed, x, np.zeros(0, np.int64), 1)
    with pytest.raises(IndexError):  # checked although nothing is selected, as NumPy does
        jitted(take_mixed)(a, np.zeros(0, np.int64), 7)
    with pytest.raises(IndexError):
        take_mixed(a, np.zeros(0, np.int64), 7)


def take_partial(a, i, j):
    return a[i, j]


def test_multi_index_general_forms():
    # Index arrays over some of the axes, booleans among them, broadcasting N-D arrays
    # (NumPy's rules; test_advanced_index.py covers them at length).
    check(take_partial, np.arange(8.0).reshape(2, 2, 2), np.arange(2), np.arange(2))
    check(take_partial, np.arange(4.0).reshape(2, 2), np.arange(2), np.array([True, False]))
    check(take_partial, np.arange(4.0).reshape(2, 2), np.arange(2), np.ones((2, 1), np.int64))


def take_float_index(a, i, j):
    return a[i, j]  # MARK


def test_multi_index_refusals():
    assert_refused(TypingError, take_float_index, "# MARK", np.zeros((2, 2)), np.arange(2), np.ones(2),
                   match="integer")


def store_multi(a, i, j):
    a[i, j] = 1
    return a


def test_multi_index_store():
    check(store_multi, np.zeros((2, 3)), np.arange(2), np.array([2, -1]))
    check(store_multi, np.zeros((2, 3)), np.array([1, 1]), np.array([[0], [2]]))
