"""Types and dtypes as values, as Numba types them: numba.uint32 / np.uint32 / types.uint32
held in variables, passed to compiled functions and used as dtype= arguments;
numba.uint8(x) called in compiled code; NumPy dtype objects (np.dtype('float64')), NumPy
scalar classes (np.float64) and numba type objects passed as arguments from Python
(compiled once per dtype); dtype.kind / dtype.type / dtype.itemsize; number.item()."""

import numpy as np
import pytest

import mahou
from conftest import assert_same, check
from mahou import njit, types


def zeros_of(n, t):
    return np.zeros(n, dtype=t)


def full_of(n, t, v):
    out = np.empty(n, dtype=t)
    for i in range(n):
        out[i] = t(v + i)
    return out


def kind_of(t):
    return t.kind


def size_of(a):
    return a.dtype.itemsize * a.size, a.dtype.kind


ALL_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dt", ALL_DTYPES)
def test_dtype_arguments_from_python(dt):
    f = njit(zeros_of)
    for t in (dt, np.dtype(dt)):
        got = f(3, t)
        assert got.dtype == np.dtype(dt) and got.shape == (3,) and not got.any()
    assert f(0, dt).shape == (0,)


@pytest.mark.parametrize("t", [mahou.uint32, mahou.float32, types.int16, types.complex128, mahou.boolean])
def test_numba_type_objects_as_arguments(t):
    got = njit(zeros_of)(2, t)
    assert got.dtype == np.dtype(t.name if t.name != "bool" else np.bool_)


def test_one_overload_per_dtype():
    f = njit(zeros_of)
    f(2, np.float32)
    f(3, np.dtype("float32"))
    f(4, mahou.float32)
    assert len(f.overloads) == 1
    f(2, np.int8)
    assert len(f.overloads) == 2


@pytest.mark.parametrize("t,v", [(np.int8, 120), (np.uint8, 250), (np.float32, 0.1), (np.int64, -5)])
def test_calling_a_dtype_argument_converts(t, v):
    check(full_of, 4, t, v)


@pytest.mark.parametrize("t", [np.int8, np.uint16, np.float32, np.complex64, np.bool_])
def test_dtype_kind_matches_numpy(t):
    assert njit(kind_of)(np.dtype(t)) == np.dtype(t).kind
    a = np.ones(3, dtype=t)
    assert njit(size_of)(a) == size_of(a)


def module_dtype_values(n):
    a = np.zeros(n, dtype=mahou.uint32)
    t = mahou.int8
    b = np.ones(n, dtype=t)
    return a, b, mahou.uint8(n + 250), mahou.float32(n) / mahou.float32(3)


def test_numba_module_types_in_compiled_code():
    got = njit(module_dtype_values)(7)
    assert got[0].dtype == np.uint32 and got[1].dtype == np.int8
    assert got[2] == np.uint8(257 % 256) and got[3] == np.float32(7) / np.float32(3)


@njit
def takes_dtype(n, t):
    return np.zeros(n, dtype=t).dtype.itemsize


def passes_dtype_on(n):
    return takes_dtype(n, np.uint32) + takes_dtype(n, mahou.float64)


def test_dtype_passed_to_a_compiled_function():
    assert njit(passes_dtype_on)(3) == 12


def item_of(a, i):
    return a[i].item() + a[i].item()


@pytest.mark.parametrize("a", [np.arange(5), np.arange(5.0) / 3, np.array([True, False])])
def test_number_item(a):
    check(item_of, a, 1)


def test_structured_dtype_argument():
    dt = np.dtype([("a", np.int32), ("b", np.float64)])
    got = njit(zeros_of)(3, dt)
    assert got.dtype == dt and got.shape == (3,)
    assert (got == zeros_of(3, dt)).all()


def test_unsupported_dtype_argument_is_a_type_error():
    with pytest.raises(TypeError, match="cannot compile for argument 2"):
        njit(zeros_of)(2, np.dtype(">f8"))


def test_a_returned_dtype_is_the_numpy_dtype():
    from mahou import njit

    @njit
    def dtype_of(a):
        return a.dtype

    @njit
    def named(a):
        if a.size > 2:
            return np.dtype("f4")
        return np.dtype(np.float32)

    for a in (np.arange(3), np.zeros(2, np.float32), np.zeros(1, np.complex64), np.zeros(0, np.bool_)):
        got = dtype_of(a)
        assert isinstance(got, np.dtype) and got == a.dtype
    assert named(np.arange(5)) == np.dtype(np.float32) == named(np.arange(1))
