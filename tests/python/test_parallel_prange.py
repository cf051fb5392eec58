"""parallel=True prange loops compared with the same function run by CPython: every
reduction kind and dtype, array reductions, private variables, ranges with steps, nested
prange, exceptions raised in the body, thread counts, reproducible float sums, np.random
per thread, and the refusals (break, return, a private variable read after the loop)."""

import math

import numpy as np
import pytest

import mahou
from mahou import njit, prange
from mahou.errors import UnsupportedError

SIZES = [0, 1, 2, 7, 64, 1001]


@pytest.fixture(autouse=True)
def restore_threads():
    n = mahou.get_num_threads()
    yield
    mahou.set_num_threads(n)


def thread_counts():
    return sorted({1, 2, mahou.config.NUMBA_NUM_THREADS})


_serial = {}


def serial(fn):
    """The same function compiled without parallel=True (prange is range): the reference
    for reductions, whose types follow compiled code's rules rather than NumPy scalars'."""
    if fn not in _serial:
        _serial[fn] = njit(fn.py_func)
    return _serial[fn]


# ------------------------------------------------------------------ maps


@njit(parallel=True)
def elementwise(a, out):
    for i in prange(a.shape[0]):
        out[i] = math.sqrt(a[i]) * math.sin(a[i])


@pytest.mark.parametrize("n", SIZES)
def test_elementwise_map(n):
    a = np.random.rand(n)
    out, expected = np.full(n, -1.0), np.full(n, -1.0)
    elementwise(a, out)
    elementwise.py_func(a, expected)
    np.testing.assert_array_equal(out, expected)


def test_elementwise_map_on_views():
    base = np.random.rand(3000)
    out = np.zeros(3000)
    expected = np.zeros(3000)
    elementwise(base[::3], out[1::3])
    elementwise.py_func(base[::3], expected[1::3])
    np.testing.assert_array_equal(out, expected)


@njit(parallel=True)
def two_d(a, out):
    n, m = a.shape
    for i in prange(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])


def test_stencil_rows():
    a = np.random.rand(67, 45)
    out, expected = np.zeros_like(a), np.zeros_like(a)
    two_d(a, out)
    two_d.py_func(a, expected)
    np.testing.assert_array_equal(out, expected)


@njit(parallel=True)
def stepped(out, start, stop, step):
    for i in prange(start, stop, step):
        out[i] += i + 1


@pytest.mark.parametrize("start,stop,step", [(0, 50, 3), (49, -1, -1), (49, 3, -7), (10, 10, 1), (20, 5, 2), (5, 50, 50)])
def test_start_stop_step(start, stop, step):
    out, expected = np.zeros(50, np.int64), np.zeros(50, np.int64)
    stepped(out, start, stop, step)
    stepped.py_func(expected, start, stop, step)
    np.testing.assert_array_equal(out, expected)


def test_zero_step_raises():
    with pytest.raises(ValueError, match="must not be zero"):
        stepped(np.zeros(3, np.int64), 0, 3, 0)


# ------------------------------------------------------------------ scalar reductions


@njit(parallel=True)
def red_add(a, init):
    s = init
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=True)
def red_sub(a, init):
    s = init
    for i in prange(a.shape[0]):
        s -= a[i]
    return s


@njit(parallel=True)
def red_mul(a, init):
    s = init
    for i in prange(a.shape[0]):
        s *= a[i]
    return s


@njit(parallel=True)
def red_or(a, init):
    s = init
    for i in prange(a.shape[0]):
        s |= a[i]
    return s


@njit(parallel=True)
def red_and(a, init):
    s = init
    for i in prange(a.shape[0]):
        s &= a[i]
    return s


@njit(parallel=True)
def red_xor(a, init):
    s = init
    for i in prange(a.shape[0]):
        s ^= a[i]
    return s


@njit(parallel=True)
def red_min(a, init):
    s = init
    for i in prange(a.shape[0]):
        s = min(s, a[i])
    return s


@njit(parallel=True)
def red_max(a, init):
    s = init
    for i in prange(a.shape[0]):
        s = max(a[i], s)
    return s


@njit(parallel=True)
def red_plain(a, init):
    s = init
    for i in prange(a.shape[0]):
        s = s + 2 * a[i]
    return s


INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_TYPES = [np.float32, np.float64]


def sample(dtype, n, rng, small=False):
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        lo, hi = (max(info.min, -3), 4) if small else (max(info.min, -1000), min(info.max, 1000))
        return rng.integers(lo, hi, n, endpoint=False).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.random(n) + 1j * rng.random(n)).astype(dtype) * (0.9 if small else 10)
    return (rng.random(n) * (1.5 if small else 100) - (0 if small else 50)).astype(dtype)


def check_same(got, expected, dtype):
    if np.issubdtype(np.dtype(dtype), np.inexact):
        assert np.isclose(got, expected, rtol=1e-5 if dtype in (np.float32, np.complex64) else 1e-11, atol=1e-9)
    else:
        assert got == expected


@pytest.mark.parametrize("fn", [red_add, red_sub, red_plain], ids=["iadd", "isub", "plain"])
@pytest.mark.parametrize("dtype", INT_TYPES + FLOAT_TYPES + [np.complex128])
def test_additive_reductions(fn, dtype):
    rng = np.random.default_rng(1)
    for n in SIZES:
        a = sample(dtype, n, rng)
        init = a.dtype.type(3) if n else dtype(3)
        check_same(fn(a, init), serial(fn)(a, init), dtype)


@pytest.mark.parametrize("dtype", INT_TYPES + FLOAT_TYPES + [np.complex128])
def test_product_reduction(dtype):
    rng = np.random.default_rng(2)
    for n in [0, 1, 5, 40]:
        a = sample(dtype, n, rng, small=True)
        if np.issubdtype(dtype, np.floating):
            a = (0.9 + 0.2 * rng.random(n)).astype(dtype)
        init = dtype(1)
        check_same(red_mul(a, init), serial(red_mul)(a, init), dtype)


@pytest.mark.parametrize("fn", [red_or, red_and, red_xor], ids=["or", "and", "xor"])
@pytest.mark.parametrize("dtype", INT_TYPES + [np.bool_])
def test_bitwise_reductions(fn, dtype):
    rng = np.random.default_rng(3)
    for n in SIZES:
        a = sample(dtype, n, rng)
        for init in (dtype(0), dtype(True) if dtype == np.bool_ else dtype(-1) if np.dtype(dtype).kind == "i" else ~dtype(0)):
            check_same(fn(a, init), serial(fn)(a, init), dtype)


@pytest.mark.parametrize("fn", [red_min, red_max], ids=["min", "max"])
@pytest.mark.parametrize("dtype", INT_TYPES + FLOAT_TYPES)
def test_min_max_reductions(fn, dtype):
    rng = np.random.default_rng(4)
    for n in SIZES:
        a = sample(dtype, n, rng)
        for init in (dtype(0), a[0] if n else dtype(1)):
            check_same(fn(a, init), serial(fn)(a, init), dtype)
    if np.issubdtype(dtype, np.integer):  # the extremes of the type
        info = np.iinfo(dtype)
        a = np.array([info.min, info.max, 0], dtype)
        check_same(fn(a, dtype(0)), serial(fn)(a, dtype(0)), dtype)


def test_min_max_with_infinities_and_nan():
    a = np.array([3.0, -np.inf, np.nan, 7.0, np.inf])
    for fn in (red_min, red_max):
        for init in (0.0, np.inf, -np.inf):
            got, expected = fn(a, init), fn.py_func(a, init)
            assert got == expected or (math.isnan(got) and math.isnan(expected))


@njit(parallel=True)
def several(a):
    s = 0.0
    p = 1.0
    lo = np.inf
    count = 0
    for i in prange(a.shape[0]):
        x = a[i] * 2.0  # private
        if x > 1.0:
            count += 1
            s += x
        else:
            s -= x
        lo = min(lo, x)
        p *= 1.0 + x / 1000.0
    return s, p, lo, count


def test_several_reductions_and_private_variables():
    a = np.random.rand(5000)
    got, expected = several(a), several.py_func(a)
    np.testing.assert_allclose(got, expected, rtol=1e-11)
    assert got[3] == expected[3]


@pytest.mark.parametrize("n", [3, 1000, 100_000])
def test_float_sums_are_reproducible_for_a_thread_count(n):
    a = np.random.rand(n) * 1e6 - 5e5
    for threads in thread_counts():
        mahou.set_num_threads(threads)
        first = red_add(a, 0.0)
        for _ in range(5):
            assert red_add(a, 0.0) == first  # the same bits
        assert math.isclose(first, math.fsum(a), rel_tol=1e-9, abs_tol=1e-6)


# ------------------------------------------------------------------ array reductions


@njit(parallel=True)
def row_sum(a):
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        acc += a[i, :]
    return acc


@njit(parallel=True)
def row_ops(a, acc, prod):
    for i in prange(a.shape[0]):
        acc -= a[i]
        prod *= 1.0 + a[i] / 100.0


@pytest.mark.parametrize("shape", [(0, 4), (1, 3), (37, 5), (400, 1)])
def test_array_reductions(shape):
    a = np.random.rand(*shape)
    np.testing.assert_allclose(row_sum(a), row_sum.py_func(a), rtol=1e-12)
    acc, prod = np.full(shape[1], 2.0), np.ones(shape[1])
    acc2, prod2 = acc.copy(), prod.copy()
    row_ops(a, acc, prod)
    row_ops.py_func(a, acc2, prod2)
    np.testing.assert_allclose(acc, acc2, rtol=1e-12)
    np.testing.assert_allclose(prod, prod2, rtol=1e-12)


@njit(parallel=True)
def int_histogram(values, nbins):
    counts = np.zeros(nbins, np.int64)
    for i in prange(values.shape[0]):
        one = np.zeros(nbins, np.int64)
        one[values[i] % nbins] = 1
        counts += one
    return counts


def test_int_array_reduction_with_private_arrays():
    v = np.random.randint(0, 1000, 3000)
    np.testing.assert_array_equal(int_histogram(v, 7), np.bincount(v % 7, minlength=7))
    assert mahou._core.live_allocations() >= 0


# ------------------------------------------------------------------ nesting and thread counts


@njit(parallel=True)
def nested(a):
    s = 0.0
    for i in prange(a.shape[0]):
        for j in prange(a.shape[1]):
            s += a[i, j] * (i + 1)
    return s


def test_nested_prange_runs_the_inner_loop_serially():
    a = np.random.rand(30, 20)
    assert math.isclose(nested(a), nested.py_func(a), rel_tol=1e-12)
    notes = list(nested._parallel_notes.values())[0]
    assert any("nested" in line and "serially" in line for line in notes)


@njit(parallel=True)
def inner_parallel(a, k):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * k
    return s


@njit(parallel=True)
def outer_parallel(a, out):
    for k in prange(out.shape[0]):
        out[k] = inner_parallel(a, k)


def test_a_parallel_function_calling_another():
    a = np.random.rand(1000)
    out = np.zeros(40)
    outer_parallel(a, out)
    np.testing.assert_allclose(out, [a.sum() * k for k in range(40)], rtol=1e-11)


def test_every_thread_count_gives_the_serial_result():
    a = np.random.rand(10_000)
    out, expected = np.zeros_like(a), np.zeros_like(a)
    elementwise.py_func(a, expected)
    for threads in thread_counts():
        mahou.set_num_threads(threads)
        out[:] = 0
        elementwise(a, out)
        np.testing.assert_array_equal(out, expected)
        assert red_add(np.arange(10_000, dtype=np.int64), 0) == 49_995_000


# ------------------------------------------------------------------ exceptions


@njit(parallel=True, boundscheck=True)
def out_of_bounds(a, idx):
    s = 0.0
    for i in prange(idx.shape[0]):
        s += a[idx[i]]
    return s


@njit(parallel=True)
def divides(a, b):
    out = np.zeros(a.shape[0], np.int64)
    for i in prange(a.shape[0]):
        out[i] = a[i] // b[i]
    return out


@njit(parallel=True)
def raises_at(n, bad):
    s = 0
    for i in prange(n):
        if i == bad:
            raise ValueError("bad iteration")
        s += i
    return s


def test_exceptions_in_the_body_propagate():
    a = np.random.rand(10)
    idx = np.arange(1000) % 10
    assert math.isclose(out_of_bounds(a, idx), out_of_bounds.py_func(a, idx))
    idx[777] = 10
    with pytest.raises(IndexError):
        out_of_bounds(a, idx)
    b = np.ones(1000, np.int64)
    b[500] = 0
    with pytest.raises(ZeroDivisionError):
        divides(np.arange(1000), b)
    for bad in (0, 499, 999):
        with pytest.raises(ValueError, match="bad iteration"):
            raises_at(1000, bad)
    assert raises_at(1000, -1) == sum(range(1000))  # still usable afterwards


def test_the_lowest_iterations_exception_wins():
    b = np.ones(10_000, np.int64)
    b[9000] = 0
    b[10] = 0
    a = np.arange(10_000)
    for _ in range(20):
        with pytest.raises(ZeroDivisionError):
            divides(a, b)


@njit(parallel=True)
def catches(a):
    s = 0
    for i in prange(a.shape[0]):
        try:
            s += 10 // a[i]
        except ZeroDivisionError:
            s += 1000
    return s


def test_try_except_inside_the_body():
    a = np.array([1, 0, 2, 0, 5] * 100)
    assert catches(a) == serial(catches)(a) == 1700 + 200 * 1000


# ------------------------------------------------------------------ np.random per thread


@njit(parallel=True)
def monte_carlo_pi(n):
    inside = 0
    for i in prange(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / n


@njit(parallel=True)
def draws(out):
    for i in prange(out.shape[0]):
        out[i] = np.random.random()


def test_random_inside_prange():
    for threads in thread_counts():
        mahou.set_num_threads(threads)
        assert abs(monte_carlo_pi(400_000) - math.pi) < 0.02
    out = np.zeros(100_000)
    draws(out)
    assert len(np.unique(out)) == out.size  # the threads' streams do not repeat each other
    assert 0.49 < out.mean() < 0.51


# ------------------------------------------------------------------ refusals and diagnostics


def test_break_and_return_are_refused():
    def with_break(a):
        for i in prange(a.shape[0]):
            if a[i] > 0:
                break
        return 0

    def with_return(a):
        for i in prange(a.shape[0]):
            if a[i] > 0:
                return i
        return -1

    for f, word in ((with_break, "'break'"), (with_return, "'return'")):
        with pytest.raises(UnsupportedError, match=word):
            njit(parallel=True)(f)(np.ones(3))
        assert njit(f)(np.ones(3)) == f(np.ones(3))  # prange is range without parallel=True


def test_break_in_an_inner_loop_is_fine():
    @njit(parallel=True)
    def first_positive_per_row(a, out):
        for i in prange(a.shape[0]):
            for j in range(a.shape[1]):
                if a[i, j] > 0:
                    out[i] = j
                    break

    a = np.random.rand(20, 10) - 0.7
    out, expected = np.full(20, -1), np.full(20, -1)
    first_positive_per_row(a, out)
    first_positive_per_row.py_func(a, expected)
    np.testing.assert_array_equal(out, expected)


def test_a_private_variable_read_after_the_loop_is_refused():
    def last_value(a):
        x = 0.0
        for i in prange(a.shape[0]):
            x = a[i] * 2
        return x

    with pytest.raises(UnsupportedError, match="'x' is assigned in this prange loop and read after it"):
        njit(parallel=True)(last_value)(np.ones(3))

    def reassigned_after(a, out):
        x = 0.0
        for i in prange(a.shape[0]):
            x = a[i] * 2
            out[i] = x
        x = 1.0
        return x

    out = np.zeros(4)
    assert njit(parallel=True)(reassigned_after)(np.ones(4), out) == 1.0
    np.testing.assert_array_equal(out, 2.0)


def test_parallel_diagnostics(capsys):
    several(np.ones(3))
    several.parallel_diagnostics(level=1)
    text = capsys.readouterr().out
    assert "runs in parallel" in text
    for fact in ("s (+)", "p (*)", "lo (min)", "count (+)"):
        assert fact in text

    @njit(parallel=True)
    def no_loop(a):
        return a[0] + a.max()

    no_loop(np.ones(3))
    no_loop.parallel_diagnostics()
    assert "runs serially" in capsys.readouterr().out
    with pytest.raises(ValueError):
        no_loop.parallel_diagnostics(level=0)
    assert no_loop.targetoptions["parallel"] is True


# ------------------------------------------------------------------ array expressions (parfors)


@njit(parallel=True)
def array_exprs(a, b, k):
    c = a * k + b
    return c, np.sqrt(a * a + b * b).sum(), np.sum(a), (b * 2).prod(), np.sum(a > 0.5)


@pytest.mark.parametrize("n", [0, 1, 5, 100_000])
@pytest.mark.parametrize("dtypes", [(np.float64, np.float64), (np.float32, np.float64), (np.int32, np.int64)])
def test_array_expressions_run_in_parallel_with_numpys_results(n, dtypes):
    rng = np.random.default_rng(5)
    a = (rng.random(n) * 2).astype(dtypes[0])
    b = (0.5 + rng.random(n) * 0.01).astype(dtypes[1])
    got, expected = array_exprs(a, b, 3), serial(array_exprs)(a, b, 3)
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[0].dtype == expected[0].dtype
    rtol = 1e-4 if np.float32 in dtypes else 1e-9  # float32 sums in another order
    for x, y in zip(got[1:], expected[1:]):
        assert np.isclose(x, y, rtol=rtol) and type(x) is type(y)


def test_array_expressions_on_views_and_broadcasting():
    a = np.random.rand(3000)
    for x, y in ((a[::3], a[1::3]), (a[:1000], a[1:2]), (a[1:2], a[:1000])):  # the last two broadcast
        got, expected = array_exprs(x, y, 2.0), serial(array_exprs)(x, y, 2.0)
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-15)
        np.testing.assert_allclose(got[1:], expected[1:], rtol=1e-9)
    with pytest.raises(ValueError):
        array_exprs(a[:10], a[:11], 1.0)
    notes = [line for lines in array_exprs._parallel_notes.values() for line in lines]
    assert any(line.startswith("array expression") for line in notes)


@njit(parallel=True)
def membership(a, out):
    count = 0
    for i in prange(a.shape[0]):
        hit = a[i] * 2 in (2, 4, 6)  # a hidden variable bound inside the expression
        out[i] = hit
        if hit:
            count += 1
    return count


def test_hidden_variables_of_expressions_are_private():
    a = np.arange(10_000) % 5
    out, expected = np.zeros(10_000, np.bool_), np.zeros(10_000, np.bool_)
    assert membership(a, out) == membership.py_func(a, expected)
    np.testing.assert_array_equal(out, expected)
