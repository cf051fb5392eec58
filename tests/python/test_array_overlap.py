"""Stores into arrays whose value reads the destination's memory, compiled vs NumPy:
NumPy's answer is that of the right-hand side evaluated completely before the first
store (shifted, reversed, strided, transposed and broadcast views, in-place operators,
ufunc out=, np.copyto, index-array stores, N-D), while non-overlapping stores keep the
fused loop. Also in parallel=True functions and in kernels (the CUDA emulator)."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from conftest import ALL_DTYPES, check
from mahou import njit, prange


def shift_right(y):
    y[1:] = y[:-1]


def shift_left(y):
    y[:-1] = y[1:]


def add_flipped(y):
    y[:] += 2 * np.flip(y)


def add_shifted(y):
    y[1:] += y[:-1]


def sub_reversed(y):
    y -= y[::-1]


def reverse_in_place(y):
    y[:] = y[::-1]


def strided_from_halves(y):
    n = y.shape[0] // 2
    y[:2 * n:2] = y[1:2 * n:2] + y[:n]


def flip_segment(y, p, q):
    y[p:q + 1] = np.flip(y[p:q + 1])


def roll_into(y):
    y[:] = np.roll(y, 2)


def shift_in_loop(y):
    for _ in range(3):
        y[1:] = y[:-1] * 2 + y[1:]


def copyto_shifted(y):
    np.copyto(y[1:], y[:-1])


def ufunc_out_shifted(y):
    np.add(y[1:], y[:-1], out=y[1:])


def ufunc_out_positional(y):
    np.multiply(y[::-1], y, y)


def ufunc_out_exact(y):
    np.add(y, y, out=y)  # the same elements: no copy needed, still NumPy's answer


def exact_alias_view(y):
    v = y[1:]
    v += y[1:] * 3


def broadcast_element(y):
    y[2:] = y[0:1] + y[1:2]


def fill_from_first(y):
    y[1:] = y[0]


def view_assigned_through_name(y):
    b = y[1:]
    b[:] = y[:-1] + 1


def returns_view(y):
    return y[::-1]


returns_view_c = njit(returns_view)


def through_a_call(y):
    y[:] = returns_view_c(y) * 1


def tuple_of_items(y):
    y[:2] = (y[1], y[0])


SHIFTS_1D = [shift_right, shift_left, add_flipped, add_shifted, sub_reversed, reverse_in_place, strided_from_halves,
             roll_into, shift_in_loop, copyto_shifted, ufunc_out_shifted, ufunc_out_positional, ufunc_out_exact,
             exact_alias_view, broadcast_element, fill_from_first, view_assigned_through_name, through_a_call,
             tuple_of_items]


def test_issue_examples():
    for fn, want in [(shift_right, [0, 0, 1, 2, 3]), (add_flipped, [8, 7, 6, 5, 4]), (add_shifted, [0, 1, 3, 5, 7])]:
        y = np.arange(5.0)
        njit(fn)(y)
        assert y.tolist() == want, fn.__name__


@pytest.mark.parametrize("fn", SHIFTS_1D, ids=lambda f: f.__name__)
@pytest.mark.parametrize("y", [np.arange(7.0) - 3, np.linspace(-2, 5, 16)[::2], np.arange(12.0)[::-1],
                               np.array([4.0, -1.0, 2.5, 7.0])], ids=["c", "strided", "reversed", "short"])
def test_overlapping_1d(fn, y):
    check(fn, y)


@pytest.mark.parametrize("fn", [shift_right, shift_left, add_shifted, reverse_in_place, exact_alias_view],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 2])
def test_overlapping_tiny(fn, n):
    check(fn, np.arange(float(n)))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_overlapping_each_dtype(dtype):
    y = (np.arange(9) - 4).astype(dtype)
    check(shift_right, y)
    check(reverse_in_place, y)
    check(tuple_of_items, y)
    if dtype != np.bool_:
        check(add_shifted, y)
        check(sub_reversed, y)


def test_flip_segment():
    for p, q in [(0, 5), (1, 4), (2, 2), (3, 5)]:
        check(flip_segment, np.arange(6.0) * 1.5, p, q)


def transpose_in_place(m):
    m[:] = m.T


def transpose_plus(m):
    m[:, :] = m.T + 1


def add_transpose(m):
    m += m.T


def reverse_both(m):
    m[:, :] = m[::-1, ::-1] * 2


def shift_diagonal(m):
    m[1:, 1:] += m[:-1, :-1]


def row_from_column(m):
    m[1] = m[:, 0]


def column_from_row(m):
    m[:, 1] = m[0]


def broadcast_row_and_column(m):
    m[:, :] = m[0:1, :] + m[:, 0:1]


def rows_down(m):
    m[1:] = m[:-1]


def shift_3d(a):
    a[1:, :, :] = a[:-1, :, ::-1]


def transpose_3d(a):
    a[:] = a.T + a


SQUARE = [np.arange(16.0).reshape(4, 4) - 5, np.asfortranarray(np.arange(9.0).reshape(3, 3)),
          np.arange(36.0).reshape(6, 6)[::2, ::-2]]


@pytest.mark.parametrize("fn", [transpose_in_place, transpose_plus, add_transpose, reverse_both, shift_diagonal,
                                row_from_column, column_from_row, broadcast_row_and_column, rows_down],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("m", SQUARE, ids=["c", "f", "strided"])
def test_overlapping_2d(fn, m):
    check(fn, m)


def test_overlapping_3d():
    check(shift_3d, np.arange(24.0).reshape(2, 3, 4))
    check(shift_3d, np.arange(60.0).reshape(3, 4, 5)[:, ::-1, 1:])
    check(transpose_3d, np.arange(27.0).reshape(3, 3, 3))


def take_reversed(a, idx):
    a[idx] = a[::-1][:idx.shape[0]]


def index_by_itself(i):
    i[i] = np.arange(i.shape[0]) + 10


def index_by_reversed_self(i):
    i[i[::-1]] = i + 10


def mask_from_self(m):
    m[m] = m[::-1][:3]


def mask_clear(m):
    m[m] = False


def mask_store_view(a):
    a[a > a[2]] = a[:3]


@pytest.mark.parametrize("a", [np.arange(6.0), np.arange(12.0)[::2]], ids=["c", "strided"])
def test_index_array_stores(a):
    check(take_reversed, a, np.array([3, 4, 5]))
    check(take_reversed, a, np.array([0, 1, 2]))
    check(mask_store_view, a)


def test_index_array_reads_itself():
    check(index_by_itself, np.array([1, 0, 2, 4, 3]))
    check(index_by_reversed_self, np.array([1, 0, 2, 4, 3]))
    check(mask_from_self, np.array([True, False, True, True]))
    check(mask_clear, np.array([True, False, True, True]))


def distinct_add(a, b, c):
    a[:] = b + c


def distinct_iadd(a, b):
    a += b


def distinct_shift(a, b):
    a[1:] = b[:-1]


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128])
def test_distinct_arrays_unchanged(dtype):
    b = (np.arange(10) - 3).astype(dtype)
    c = (np.arange(10) * 2).astype(dtype)
    check(distinct_add, np.zeros(10, dtype), b, c)
    check(distinct_iadd, np.ones(10, dtype), b)
    check(distinct_shift, np.zeros(10, dtype), b)
    check(distinct_add, np.zeros(5, dtype), b[::2], c[1::2])


def test_same_buffer_passed_twice():
    # two arguments that are views of one buffer: the run-time test finds the overlap
    f = njit(distinct_shift)
    y = np.arange(6.0)
    f(y, y)
    x = np.arange(6.0)
    x[1:] = x[:-1].copy()
    assert y.tolist() == x.tolist()
    g = njit(distinct_add)
    y = np.arange(6.0)
    g(y[1:], y[:-1], y[:-1])
    x = np.arange(6.0)
    x[1:] = x[:-1] + x[:-1]
    assert y.tolist() == x.tolist()


def test_copyto():
    def copyto_cast(a, b):
        np.copyto(a, b)

    check(copyto_cast, np.zeros(4), np.arange(4))
    check(copyto_cast, np.zeros((2, 3)), np.arange(3.0))
    with pytest.raises(Exception, match="same_kind"):
        njit(copyto_cast)(np.zeros(4, np.int64), np.arange(4.0))

    def copyto_unsafe(a, b):
        np.copyto(a, b, casting="unsafe")

    check(copyto_unsafe, np.zeros(4, np.int64), np.arange(4.0) * 1.5)


def parallel_shift(y):
    y[1:] = y[:-1] + 1.0


def parallel_rows(m):
    for i in prange(m.shape[0]):
        m[i, 1:] = m[i, :-1] * 2.0


def test_parallel():
    y = np.arange(2000.0)
    x = y.copy()
    njit(parallel=True)(parallel_shift)(y)
    parallel_shift(x)
    assert np.array_equal(x, y)
    m = np.arange(4000.0).reshape(40, 100)
    n = m.copy()
    njit(parallel=True)(parallel_rows)(m)
    for i in range(n.shape[0]):
        n[i, 1:] = n[i, :-1] * 2.0
    assert np.array_equal(m, n)


KERNELS = textwrap.dedent('''
    import numpy as np
    from mahou import cuda

    @cuda.jit
    def shift(a, b):
        if cuda.grid(1) == 0:
            a[1:] = a[:-1] + b[1:]

    @cuda.jit
    def shift_back(a):
        if cuda.grid(1) == 0:
            a[:-1] = a[1:] * 2

    @cuda.jit
    def reverse(a):
        if cuda.grid(1) == 0:
            a[:] = a[::-1]

    for kernel, want in [(shift, lambda a: a.__setitem__(slice(1, None), a[:-1] + a[1:])),
                         (shift_back, lambda a: a.__setitem__(slice(None, -1), a[1:] * 2))]:
        a = np.arange(6.0)
        expected = a.copy()
        want(expected)
        d = cuda.to_device(a)
        if kernel is shift:
            kernel[1, 1](d, d)
        else:
            kernel[1, 1](d)
        assert d.copy_to_host().tolist() == expected.tolist(), kernel
    try:
        reverse[1, 1](cuda.to_device(np.arange(6.0)))
    except ValueError as e:
        assert "overlapping" in str(e)
    else:
        raise AssertionError("no error")
    print("ok")
''')


def test_kernels_in_emulator():
    env = dict(os.environ, MAHOU_ENABLE_CUDASIM="1")
    r = subprocess.run([sys.executable, "-c", KERNELS], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


def store_by_mask(a, v):
    a[a > 2] = v


def store_by_index(a, i, v):
    a[i] = v


def test_index_store_value_length():
    # a value of the selection's length, or of one element (broadcast); others raise
    check(store_by_mask, np.arange(6.0), np.array([7.0, 8.0, 9.0]))
    check(store_by_mask, np.arange(6.0), np.array([7.0]))
    check(store_by_index, np.arange(6.0), np.array([4, 0]), np.array([-1.0]))
    check(store_by_index, np.arange(6.0), np.array([4, 0]), np.array([-1.0, -2.0]))
    for args in [(np.arange(6.0), np.array([7.0, 8.0])), (np.arange(6.0), np.array([7.0, 8.0, 9.0, 10.0]))]:
        a = args[0].copy()
        with pytest.raises(ValueError):
            store_by_mask(*args)
        with pytest.raises(ValueError):
            njit(store_by_mask)(a, args[1])
        assert a.tolist() == list(range(6))  # nothing stored
    with pytest.raises(ValueError):
        njit(store_by_index)(np.arange(6.0), np.array([4, 0]), np.array([1.0, 2.0, 3.0]))
