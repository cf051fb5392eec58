"""Floats converted to integers compiled vs NumPy: out-of-range values, NaN and inf give
NumPy's integers on x86-64 (astype, array stores, np.array(..., dtype=),
np.full, scalar conversions such as np.uint8(x)), and Python's int(), round() and
math.floor/ceil/trunc raise as Python does where the value has no int64; a float
scalar stored into an integer array raises as NumPy's setitem does."""

import math
import platform
import warnings

import numpy as np
import pytest

from conftest import INT_DTYPES
from mahou import njit

x86 = pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                         reason="NumPy's out-of-range conversions are those of the host's instructions")

EDGES = [0.5, -0.5, -1.0, -3.9, 255.5, 256.0, 2.0**31, -2.0**31 - 1, 2.0**32 + 5, 2.0**63, -2.0**63, 2.0**64 + 4096,
         1e300, -1e300, math.nan, math.inf, -math.inf, 3e9, -3e9, 65537.7, -129.2, 2.0**63 - 1024, 127.99, -128.99,
         32767.5, 4294967295.5, -0.0]


def numpy_scalar(values, dtype):
    # NumPy's scalar conversion (also its strided loops'); its contiguous uint32 loop is
    # vectorised differently for values out of range, the one place NumPy disagrees with itself
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array([dtype(np.float64(v)) for v in values], dtype=dtype)


@njit
def astype(a, like):
    return a.astype(like.dtype)


@njit
def store_view(a, out):
    out[:] = a
    return out


@njit
def astype_reversed(a, like):
    return a[::-1].astype(like.dtype)[::-1]


@x86
@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("source", [np.float64, np.float32], ids=["f64", "f32"])
def test_array_conversions(dtype, source):
    with np.errstate(over="ignore"):
        a = np.array(EDGES).astype(source)
    want = numpy_scalar(a.astype(np.float64), dtype)
    like = np.zeros(0, dtype)
    for fn in (astype, astype_reversed):
        np.testing.assert_array_equal(fn(a, like), want, err_msg=fn.__name__)
    np.testing.assert_array_equal(store_view(a, np.zeros(a.shape[0], dtype)), want, err_msg="store_view")
    if dtype != np.uint32:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(a.astype(dtype), want)


def test_issue_example():
    assert astype(np.array([-3.9]), np.zeros(0, np.uint8)).tolist() == [253]


SCALAR = "def f(x):\n    return np.{0}(x), np.array([x, 1.0], dtype=np.{0})[0], np.full(2, x, dtype=np.{0})[1]\n"


@x86
@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_scalar_conversions(dtype):
    import linecache
    name = np.dtype(dtype).name
    src = SCALAR.format(name)
    fname = f"<float-int-casts-{name}>"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"np": np}
    exec(compile(src, fname, "exec"), ns)
    f = njit(ns["f"])
    want = numpy_scalar(EDGES, dtype)
    for v, w in zip(EDGES, want):
        got = f(v)
        assert [int(g) for g in got] == [int(w)] * 3, (v, got, w)
        assert all(isinstance(g, (int, np.integer)) for g in got)


@njit
def python_ints(x):
    return int(x), round(x), math.floor(x), math.ceil(x), math.trunc(x)


def test_python_int_of_floats():
    for v in [0.5, -0.5, 2.5, -3.9, 1e18, -2.0**63, 2.0**62 + 0.0]:
        assert python_ints(v) == (int(v), round(v), math.floor(v), math.ceil(v), math.trunc(v))
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        python_ints(math.nan)
    for v in (math.inf, -math.inf):
        with pytest.raises(OverflowError, match="cannot convert float infinity to integer"):
            python_ints(v)
    for v in (2.0**63, -2.0**64, 1e300):
        with pytest.raises(OverflowError):
            python_ints(v)


@njit
def store_scalar(out, x, how):
    if how == 0:
        out[1] = x
    elif how == 1:
        out[:] = x
    elif how == 2:
        out[np.array([0, 2])] = x
    elif how == 3:
        out[out == 0] = x
    elif how == 4:
        out.flat[1] = x
    else:
        out[1] += x
    return out


def numpy_store(out, x, how):
    if how == 0:
        out[1] = x
    elif how == 1:
        out[:] = x
    elif how == 2:
        out[np.array([0, 2])] = x
    elif how == 3:
        out[out == 0] = x
    elif how == 4:
        out.flat[1] = x
    else:  # out[1] += x stores a NumPy float scalar (quirky in NumPy): as a Python float
        out[1] = float(out[1]) + x
    return out


def outcome(fn, *args):
    try:
        return fn(*args).tolist()
    except (OverflowError, ValueError) as e:
        return type(e).__name__


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("source", [np.float64, np.float32], ids=["f64", "f32"])
def test_scalar_float_stores(dtype, source):
    # A float scalar stored into an integer array converts as NumPy's setitem: Python's
    # int() of it, NaN ValueError, inf and values past the dtype OverflowError (Numba wraps).
    for v in EDGES + [-1.5, 127.0, -128.0, 255.0, 65535.9]:
        with np.errstate(over="ignore"):
            x = source(v)
        for how in range(6):
            # NumPy's answer for the value as a Python float: its fancy and mask stores
            # convert a NumPy float scalar as a 0-d array instead (wrapping); compiled code
            # has one float type, and takes the Python float's semantics in every store.
            want = outcome(numpy_store, np.zeros(3, dtype), float(x), how)
            got = outcome(store_scalar, np.zeros(3, dtype), x, how)
            assert got == want, (v, how, got, want)


def test_scalar_float_store_messages():
    a = np.zeros(2, np.int64)
    with pytest.raises(OverflowError, match="cannot convert float infinity to integer"):
        store_scalar(a, math.inf, 0)
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        store_scalar(a, math.nan, 1)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        store_scalar(np.zeros(3, np.uint8), -1.5, 0)
