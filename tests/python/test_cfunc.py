"""@cfunc: C callbacks (.address, .ctypes, .cffi) used by SciPy through LowLevelCallable;
carray/farray; C function pointers (ctypes, cffi, @cfunc) called from compiled code."""

import ctypes
import ctypes.util
import math

import numpy as np
import pytest

import mahou
from mahou import carray, cfunc, farray, njit, types
from mahou.errors import TypingError

scipy = pytest.importorskip("scipy")
from scipy import LowLevelCallable, integrate, ndimage  # noqa: E402


@cfunc("float64(float64)")
def gaussian(x):
    return math.exp(-x * x / 2.0)


@cfunc(types.float64(types.intc, types.CPointer(types.float64)))
def shifted_cos(n, xx):
    return math.cos(xx[0] - xx[1])


@cfunc(types.intc(types.CPointer(types.float64), types.intp, types.CPointer(types.float64), types.voidptr))
def filter_mean(values, size, result, user_data):
    s = 0.0
    for i in range(size):
        s += values[i]
    result[0] = s / size
    return 1


def test_attributes():
    assert isinstance(gaussian.address, int) and gaussian.address != 0
    assert gaussian.native_name.endswith(".cfunc")
    assert gaussian.ctypes.restype is ctypes.c_double
    assert gaussian.ctypes.argtypes == (ctypes.c_double,)
    assert gaussian(0.5) == pytest.approx(math.exp(-0.125), rel=1e-15)
    assert gaussian.ctypes(1.0) == math.exp(-0.5)


def test_quad_low_level_callable():
    got, _ = integrate.quad(LowLevelCallable(gaussian.ctypes), -np.inf, np.inf)
    assert got == pytest.approx(math.sqrt(2 * math.pi), rel=1e-10)
    want, _ = integrate.quad(lambda x: math.exp(-x * x / 2), -3, 2)
    got, _ = integrate.quad(LowLevelCallable(gaussian.ctypes), -3, 2)
    assert got == pytest.approx(want, rel=1e-13)


def test_quad_with_extra_arguments():
    got, _ = integrate.quad(LowLevelCallable(shifted_cos.ctypes), 0, math.pi, args=(0.3,))
    want, _ = integrate.quad(lambda x, c: math.cos(x - c), 0, math.pi, args=(0.3,))
    assert got == pytest.approx(want, rel=1e-13)


def test_generic_filter_low_level_callable():
    image = np.arange(48, dtype=np.float64).reshape(6, 8) ** 1.3
    got = ndimage.generic_filter(image, LowLevelCallable(filter_mean.ctypes), size=3)
    want = ndimage.generic_filter(image, np.mean, size=3)
    np.testing.assert_allclose(got, want, rtol=1e-13)


def test_cffi_pointer():
    cffi = pytest.importorskip("cffi")
    ffi = cffi.FFI()
    fp = gaussian.cffi
    assert ffi.typeof(fp).kind == "function"  # a function pointer cdata
    assert fp(1.0) == math.exp(-0.5)


def test_integer_and_bool_signatures():
    @cfunc("int32(int8, uint16, bool)")
    def mix(a, b, flag):
        return a * 1000 + b if flag else -1

    assert mix(-3, 65535, True) == -3 * 1000 + 65535
    assert mix(5, 1, False) == -1

    @cfunc("void(CPointer(int64), int64)")
    def fill(p, n):
        for i in range(n):
            p[i] = i * i

    buf = (ctypes.c_int64 * 5)()
    fill(buf, 5)
    assert list(buf) == [0, 1, 4, 9, 16]


def test_carray_and_farray_in_cfunc():
    @cfunc(types.float64(types.CPointer(types.float64), types.int64, types.int64))
    def corner_sum(p, m, n):
        a = carray(p, (m, n))
        f = farray(p, (n, m))
        return a[0, n - 1] * 100 + f[n - 1, 0]

    data = np.arange(6.0)
    ptr = data.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    # C order: a[0, 2] = data[2]; Fortran order: f[2, 0] = data[2]
    assert corner_sum(ptr, 2, 3) == 2.0 * 100 + 2.0

    @cfunc(types.float64(types.voidptr, types.int64))
    def total(p, n):
        return carray(p, n, np.float64).sum()

    assert total(data.ctypes.data, 6) == 15.0


def test_carray_from_python():
    data = np.arange(6.0)
    ptr = data.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    np.testing.assert_array_equal(carray(ptr, (2, 3)), data.reshape(2, 3))
    np.testing.assert_array_equal(farray(ptr, (2, 3)), data.reshape(2, 3, order="F"))
    np.testing.assert_array_equal(carray(data.ctypes.data, 6, np.float64), data)
    with pytest.raises(TypeError):
        carray(data.ctypes.data, 6)


def test_exception_is_unraisable_and_returns_zero(capsys):
    @cfunc("float64(float64)")
    def checked(x):
        if x < 0:
            raise ValueError("negative input")
        return math.sqrt(x)

    assert checked(4.0) == 2.0
    seen = []
    import sys
    old = sys.unraisablehook
    sys.unraisablehook = lambda u: seen.append(u)
    try:
        assert checked(-1.0) == 0.0
    finally:
        sys.unraisablehook = old
    assert len(seen) == 1 and isinstance(seen[0].exc_value, ValueError)


def test_not_c_representable():
    with pytest.raises(mahou.errors.TypingError, match="C-representable"):
        cfunc("float64(float64[:])")(lambda a: a[0])
    with pytest.raises(mahou.errors.TypingError, match="C-representable"):
        cfunc("complex128(float64)")(lambda x: x)
    with pytest.raises(TypeError, match="return type"):
        cfunc("(float64)")(lambda x: x)


# ---- C function pointers called from compiled code

libm = ctypes.CDLL(ctypes.util.find_library("m"))
c_cos = libm.cos
c_cos.restype = ctypes.c_double
c_cos.argtypes = (ctypes.c_double,)
c_ldexp = libm.ldexp
c_ldexp.restype = ctypes.c_double
c_ldexp.argtypes = (ctypes.c_double, ctypes.c_int)


def test_ctypes_function_from_njit():
    @njit
    def f(x):
        return c_cos(x) + c_ldexp(x, 3)

    for x in (0.0, 1.5, -2.25):
        assert f(x) == math.cos(x) + math.ldexp(x, 3)

    @njit
    def over(a):
        s = 0.0
        for v in a:
            s += c_cos(v)
        return s

    a = np.linspace(0, 3, 11)
    assert over(a) == pytest.approx(sum(math.cos(v) for v in a), rel=1e-15)


def test_cffi_function_from_njit():
    cffi = pytest.importorskip("cffi")
    ffi = cffi.FFI()
    ffi.cdef("double sin(double);")
    lib = ffi.dlopen(ctypes.util.find_library("m"))
    c_sin = lib.sin

    @njit
    def g(x):
        return c_sin(x) * 2

    assert g(0.7) == math.sin(0.7) * 2


def test_ffi_from_buffer_passes_an_arrays_data():
    # Numba's ffi.from_buffer(array) in compiled code: the array's memory for a cffi
    # function's pointer parameter
    cffi = pytest.importorskip("cffi")
    ffi = cffi.FFI()
    ffi.cdef("void *memset(void *s, int c, size_t n); double frexp(double x, int *exp);")
    libc = ffi.dlopen(None)
    memset = libc.memset

    @njit
    def clear(a, start):
        memset(ffi.from_buffer(a[start:]), 0, a[start:].nbytes)
        return a.sum()

    a = np.arange(1.0, 6.0)
    assert clear(a, 2) == 3.0 and a.tolist() == [1.0, 2.0, 0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="C-contiguous"):
        clear(np.arange(10.0)[::2], 0)
    with pytest.raises(TypingError, match="no attribute 'missing'"):
        njit(lambda a: ffi.missing(a))(a)


def test_cfunc_from_njit():
    @njit
    def h(x):
        return gaussian(x) + 1

    assert h(0.5) == math.exp(-0.125) + 1

    untyped = ctypes.CDLL(ctypes.util.find_library("m")).sin   # no argtypes: not callable

    @njit
    def bad(x):
        return untyped(x)

    with pytest.raises(mahou.errors.UnsupportedError):
        bad(1.0)
