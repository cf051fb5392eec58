"""Regressions found by the NumPy oracle (tests/fuzz --numpy, docs/fuzzing.md): each
case compiled against NumPy itself, bit for bit, over several dtypes, layouts and the
edge values that showed the bug."""

import cmath
import random
import warnings

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError


def same_bits(got, expected):
    """Arrays equal in shape, dtype and bits (NaNs by position)."""
    assert isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    if expected.dtype.kind in "fc":
        width = {4: np.uint32, 8: np.uint64}[expected.real.dtype.itemsize]
        g = np.ascontiguousarray(got).view(width)
        e = np.ascontiguousarray(expected).view(width)
        nan = np.isnan(np.ascontiguousarray(got).view(expected.real.dtype)) & \
            np.isnan(np.ascontiguousarray(expected).view(expected.real.dtype))
        assert ((g == e) | nan).all(), (got, expected)
    else:
        assert (got == expected).all(), (got, expected)


# ---- complex division: NumPy's loop in array code, CPython's in scalar code (seed 1, program 41)

def complex_values(n, seed):
    rng = random.Random(seed)
    edges = [0.0, -0.0, 1.0, -2.5, 1e300, -1e-300, 3.3, 1e-310, 0.1, float("inf"), float("nan")]

    def part():
        return rng.choice(edges) if rng.random() < 0.3 else rng.uniform(-100, 100)

    return np.array([complex(part(), part()) for _ in range(n)])


@njit
def divide(a, b):
    return a / b


@njit
def divide_by_real(a, x):
    return a / x


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_array_division_is_numpys(dtype):
    with np.errstate(all="ignore"):
        a, b = complex_values(4000, 1).astype(dtype), complex_values(4000, 2).astype(dtype)
        same_bits(divide(a, b), a / b)
        same_bits(divide(a[::-3], b[::3]), a[::-3] / b[::3])  # strided, reversed
        same_bits(divide(a, b[7]), a / b[7])  # a complex scalar broadcast


def test_complex_array_divided_by_a_real_is_numpys():
    a = complex_values(1000, 3)
    with np.errstate(all="ignore"):
        for x in (3.0, -0.1, 1e300, 7.0):
            same_bits(divide_by_real(a, x), a / x)  # the real becomes x+0j: NumPy's algorithm
        same_bits(divide_by_real(a, np.float64(3.3)), a / 3.3)


def test_complex_scalar_division_is_cpythons():
    a, b = complex_values(2000, 4), complex_values(2000, 5)
    for x, y in zip(a.tolist(), b.tolist()):
        try:
            expected = x / y
        except ZeroDivisionError:
            with pytest.raises(ZeroDivisionError):
                divide(x, y)
            continue
        got = divide(x, y)
        assert (cmath.isnan(got) and cmath.isnan(expected)) or repr(got) == repr(expected), (x, y, got, expected)


def test_complex_division_of_large_values_does_not_overflow():
    # |b|^2 overflowed in the old formula: inf/nan where both libraries give finite values.
    a = np.array([1e300 + 1e300j, 3e307 - 2e307j])
    b = np.array([2e300 + 1e300j, 1e308 + 1e307j])
    same_bits(divide(a, b), a / b)
    assert divide(1e300 + 1e300j, 2e300 + 1e300j) == (1e300 + 1e300j) / (2e300 + 1e300j)


# ---- np.sign of unsigned integers (seed 2, program 80)

@njit
def sign(a):
    return np.sign(a)


@njit
def sign_scalar(a, i):
    return np.sign(a[i])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int64])
def test_sign_of_integers(dtype):
    info = np.iinfo(dtype)
    a = np.array([0, 1, info.max, info.max // 2 + 1, info.min, 7], dtype=dtype)
    same_bits(sign(a), np.sign(a))
    same_bits(sign(a[::-2]), np.sign(a[::-2]))
    for i in range(len(a)):
        assert sign_scalar(a, i) == np.sign(a[i])


# ---- cumsum keeps a leading -0.0 (seed 2, program 42)

@njit
def cumsums(a):
    return np.cumsum(a), a.cumsum()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_cumsum_of_negative_zeros(dtype):
    for values in ([-0.0], [-0.0, -0.0, 1.0], [-0.0, 0.0], [2.0, -0.0], []):
        a = np.array(values, dtype=dtype)
        for got in cumsums(a):
            same_bits(got, np.cumsum(a))
    b = np.array([[-0.0, 1.0], [-0.0, -0.0]], dtype=dtype)
    same_bits(cumsums(b.T)[0], np.cumsum(b.T))


def test_cumsum_of_complex_negative_zero_parts():
    a = np.array([complex(-0.0, -0.0), complex(1.0, -0.0)])
    same_bits(cumsums(a)[0], np.cumsum(a))


# ---- cumprod copies its first item: 1 * (-31-infj) would be nan-infj (seed 109, program 338)

@njit
def cumprods(a):
    return np.cumprod(a), a.cumprod()


@pytest.mark.parametrize("values", [
    [complex(-31.0, -np.inf)], [complex(np.nan, np.inf)], [complex(np.inf, 0.0), 2.0],
    [complex(-0.0, -0.0), 1.0], [-0.0], [],
])
def test_cumprod_first_item_as_it_is(values):
    a = np.array(values, dtype=np.complex128)
    with np.errstate(all="ignore"):
        expected = np.cumprod(a)
        for got in cumprods(a):
            same_bits(got, expected)
        same_bits(cumprods(a[::-1])[0], np.cumprod(a[::-1]))
    f = np.array([-0.0, np.inf, 2.0])
    with np.errstate(all="ignore"):
        same_bits(cumprods(f)[0], np.cumprod(f))
        same_bits(cumprods(np.array([3, -2, 5], dtype=np.int32))[0], np.cumprod(np.array([3, -2, 5], dtype=np.int32)))


# ---- np.transpose(a) (refused before)

@njit
def transposes(a):
    return np.transpose(a), np.transpose(a) + a.T, np.transpose(a[::-1])


@pytest.mark.parametrize("shape", [(6,), (2, 3), (2, 3, 4), (0, 3)])
def test_np_transpose(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    for arr in (a, np.asfortranarray(a), a[..., ::-1]):
        got = transposes(arr)
        same_bits(got[0], np.transpose(arr))
        same_bits(got[1], np.transpose(arr) + arr.T)
        same_bits(got[2], np.transpose(arr[::-1]))


def test_np_transpose_is_a_view():
    @njit
    def write(a):
        t = np.transpose(a)
        t[0, 1] = 99.0
        return a

    assert write(np.zeros((2, 3)))[1, 0] == 99.0


def test_np_transpose_with_axes():  # the library's (shapes.py): a view, as NumPy
    @njit
    def f(a):
        return np.transpose(a, (1, 0))

    a = np.arange(6.0).reshape(2, 3)
    got = f(a)
    assert np.array_equal(got, a.T) and np.shares_memory(got, a)


# ---- bool arrays under //, %, **, << and >> are int8, as NumPy's loops (seed 3, program 82)

def bool_ops():
    def floordiv(a, b):
        return a // b

    def mod(a, b):
        return a % b

    def power(a, b):
        return a ** b

    def lshift(a, b):
        return a << b

    def rshift(a, b):
        return a >> b

    def np_floor_divide(a, b):
        return np.floor_divide(a, b)

    return [floordiv, mod, power, lshift, rshift, np_floor_divide]


@pytest.mark.parametrize("fn", bool_ops(), ids=lambda f: f.__name__)
def test_bool_array_arithmetic_dtype(fn):
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    compiled = njit(fn)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        same_bits(compiled(a, b), fn(a, b))
        same_bits(compiled(a[::-1], True), fn(a[::-1], True))
        same_bits(compiled(a.reshape(2, 2), b[:2]), fn(a.reshape(2, 2), b[:2]))
    # Python bools stay Python ints
    assert compiled(True, True) == fn(True, True)


def test_negative_and_positive_of_bool_arrays_are_refused():
    @njit
    def neg(a):
        return -a

    @njit
    def pos(a):
        return +a

    for f in (neg, pos):
        with pytest.raises(TypingError):
            f(np.array([True, False]))
    assert neg(True) == -1  # a Python bool is an int


# ---- ufuncs called on scalars are NumPy's loops; array shifts by negative counts (harvest)

@njit
def scalar_ufuncs(a, b):
    return (np.divide(a, b), np.true_divide(a, b), np.floor_divide(a, b), np.remainder(a, b), np.mod(a, b),
            np.left_shift(a, b), np.right_shift(a, b))


@pytest.mark.parametrize("make", [np.int32, np.int64, np.uint32, np.int8])
def test_ufuncs_on_scalars_do_not_raise(make):
    for a, b in ((0, 0), (7, 0), (-1, -1), (5, -2), (-8, 70), (3, 2)):
        if np.dtype(make).kind == "u" and (a < 0 or b < 0):
            continue  # unsigned
        x, y = make(a), make(b)
        with np.errstate(all="ignore"):
            expected = (np.divide(x, y), np.true_divide(x, y), np.floor_divide(x, y), np.remainder(x, y),
                        np.mod(x, y), np.left_shift(x, y), np.right_shift(x, y))
        got = scalar_ufuncs(x, y)
        for g, e in zip(got, expected):
            assert (np.isnan(g) and np.isnan(e)) or g == e, (a, b, got, expected)


@njit
def float_scalar_ufuncs(a, b):
    return np.divide(a, b), np.true_divide(a, b), np.floor_divide(a, b), np.remainder(a, b), np.mod(a, b)


def test_float_ufuncs_on_scalars_do_not_raise():
    with np.errstate(all="ignore"):
        got = float_scalar_ufuncs(1.5, 0.0)
        expected = (np.divide(1.5, 0.0), np.true_divide(1.5, 0.0), np.floor_divide(1.5, 0.0),
                    np.remainder(1.5, 0.0), np.mod(1.5, 0.0))
    for g, e in zip(got, expected):
        assert (np.isnan(g) and np.isnan(e)) or g == e


def test_python_operators_on_scalars_still_raise():
    @njit
    def div(a, b):
        return a // b

    @njit
    def shift(a, b):
        return a << b

    with pytest.raises(ZeroDivisionError):
        div(1, 0)
    with pytest.raises(ValueError):
        shift(1, -1)


@njit
def array_shifts(a, b):
    return a << b, a >> b


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64])
def test_array_shifts_by_any_count(dtype):
    signed = np.dtype(dtype).kind == "i"
    a = np.array([1, -1 if signed else 5, 7, 0, 100], dtype=dtype)
    counts = np.array([-1, -70, 64, 3, 120] if signed else [255, 70, 64, 3, 8], dtype=dtype)
    with np.errstate(all="ignore"):
        for got, expected in zip(array_shifts(a, counts), (a << counts, a >> counts)):
            same_bits(got, expected)
        for got, expected in zip(array_shifts(a[::-1], 3), (a[::-1] << 3, a[::-1] >> 3)):
            same_bits(got, expected)


# ---- np.reciprocal of complex numbers is NumPy's formula (harvest: 1/(0+0j) is nan+nanj)

@njit
def reciprocal(a):
    return np.reciprocal(a)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_reciprocal(dtype):
    with np.errstate(all="ignore"):
        a = complex_values(2000, 7).astype(dtype)
        a[:4] = [0j, complex(0, -0.0), complex(-0.0, 0), 1e300 + 1e300j]
        same_bits(reciprocal(a), np.reciprocal(a))
        same_bits(reciprocal(a[::-2]), np.reciprocal(a[::-2]))


# ---- a copy of a read-only (global) array is writable (seed 6, program 392; seed 7, program 125)

G_READ_ONLY = np.arange(12.0).reshape(3, 4)


def test_copies_of_read_only_arrays_are_writable():
    @njit
    def copies():
        a = G_READ_ONLY.flatten()
        a[::2] = -1.0
        b = G_READ_ONLY.T.ravel()  # not contiguous: a copy
        b[0] = 7.0
        c = np.reshape(G_READ_ONLY.T, (12,))
        c[1] = 8.0
        d = G_READ_ONLY[::2].reshape(8)
        d[2] = 9.0
        return a, b, c, d

    a, b, c, d = copies()
    ea = G_READ_ONLY.flatten()
    ea[::2] = -1.0
    same_bits(a, ea)
    assert b[0] == 7.0 and c[1] == 8.0 and d[2] == 9.0
    assert (G_READ_ONLY == np.arange(12.0).reshape(3, 4)).all()


def test_views_of_read_only_arrays_stay_read_only():
    @njit
    def store():
        v = G_READ_ONLY.ravel()  # C-contiguous: a view of the constant
        v[0] = 1.0
        return v

    with pytest.raises(TypingError):
        store()


# ---- harvested builtins: an int to a negative constant power; int(s, 0) and prefixes

def test_int_to_a_negative_constant_power_is_a_float():
    @njit
    def powers(x):
        return x ** -3, x ** -1, x ** 2

    for x in (2, -3, 1, 7, True):
        assert powers(x) == (x ** -3, x ** -1, x ** 2)
        assert type(powers(x)[0]) is float


@pytest.mark.parametrize("text,base", [("0x1f", 0), ("0X_1F", 0), ("0b101", 0), ("-0o17", 8), ("0x1f", 16),
                                       ("0o17", 16), ("010", 0), ("0_0", 0), ("00", 0), ("0x", 16), ("0b2", 0),
                                       ("12", 1), ("12", 37), (" 1_000 ", 0), ("z", 36), ("-101", 2)])
def test_int_of_a_string_with_a_base(text, base):
    @njit
    def to_int(s, b):
        return int(s, b)

    try:
        expected = int(text, base)
    except ValueError:
        with pytest.raises(ValueError):
            to_int(text, base)
        return
    assert to_int(text, base) == expected


# ---- astype of complex arrays to a real dtype keeps the real part (an internal compiler
# error before; found with the cast_edges feature, seed 13)

@njit
def complex_to_real(a):
    return a.astype(np.float64), a.astype(np.float32), a.astype(np.bool_), a.astype(np.int32)


def test_complex_astype_to_real():
    a = np.array([1.5 + 2j, -3.7 - 1j, 0j, complex(0, 5), complex(np.nan, 1), complex(-0.0, 0)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for src in (a, a[::-2], a.astype(np.complex64)):
            got = complex_to_real(src)
            for g, dtype in zip(got[:3], (np.float64, np.float32, np.bool_)):
                same_bits(g, src.astype(dtype))
            finite = np.isfinite(src.real)
            same_bits(got[3][finite], src.astype(np.int32)[finite])


# ---- np.trace and np.kron of arrays with an empty axis: NumPy's values (an IndexError
# from the library's own zero of the result type before; seed 51207, programs 198, 356)

@njit
def trace_of(a):
    return np.trace(a)


@njit
def kron_of(a, b):
    return np.kron(a, b)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 4), (0, 2, 3), (2, 2, 0)])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float64, np.bool_])
def test_trace_of_arrays_with_an_empty_axis(shape, dtype):
    a = np.zeros(shape, dtype)
    got, want = trace_of(a), np.trace(a)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("sa, sb", [((1, 0), (1, 0)), ((1, 0), (2, 3)), ((0, 2), (3, 1)), ((2, 3), (0, 0)),
                                    ((3,), (0,)), ((2, 2), (0,))])
def test_kron_of_arrays_with_an_empty_axis(sa, sb):
    a = np.arange(int(np.prod(sa)), dtype=np.int64).reshape(sa)
    b = np.ones(sb, np.float32)
    got, want = kron_of(a, b), np.kron(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
