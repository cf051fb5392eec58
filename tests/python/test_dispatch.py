# Tests of the binding: Dispatcher calls, overloads, argument handling, errors,
# ownership of arrays crossing the boundary, and the decorator/types API.
import array
import gc

import numpy as np
import pytest

import mahou
from mahou import _core, errors, jit, njit, types


@njit
def add(a, b):
    return a + b


@njit
def sum_array(arr):
    s = 0.0
    for i in range(len(arr)):
        s += arr[i]
    return s


@njit
def make_array(n):
    out = np.zeros(n)
    for i in range(n):
        out[i] = i * 2.0
    return out


@njit
def tail(arr):
    return arr[1:]


@njit
def identity(arr):
    return arr


@njit
def checked_sqrt_floor(x):
    if x < 0:
        raise ValueError("negative input")
    r = 0
    while (r + 1) * (r + 1) <= x:
        r += 1
    return r


@njit
def scaled(x, factor=3, offset=1):
    return x * factor + offset


@njit
def uses_undefined(x):
    return x + undefined_name  # noqa: F821


@njit
def double_it(x):
    return x * 2


@njit
def calls_double(x):
    return double_it(x) + 1


def fresh_add():
    @njit
    def add2(a, b):
        return a + b

    return add2


# ---------------------------------------------------------------- calls and overloads

def test_int_and_float_calls():
    assert add(1, 2) == 3
    assert type(add(1, 2)) is int
    assert add(1.5, 2.25) == 3.75
    assert type(add(1.5, 2.25)) is float


def test_one_overload_per_signature():
    f = fresh_add()
    assert f.signatures == []
    f(1, 2)
    assert f.signatures == [(types.int64, types.int64)]
    f(3, 4)
    f(5, 6)
    assert len(f.signatures) == 1
    f(1.0, 2.0)
    assert f.signatures == [(types.int64, types.int64), (types.float64, types.float64)]
    f(7, 8)
    assert len(f.signatures) == 2


def test_array_argument():
    a = np.arange(10.0)
    assert sum_array(a) == 45.0
    assert sum_array.signatures[0] == (types.float64[::1],)
    strided = np.arange(20.0)[::2]
    assert sum_array(strided) == float(np.arange(20.0)[::2].sum())
    assert (types.float64[:],) in sum_array.signatures


def test_numpy_scalar_arguments():
    f = fresh_add()
    f(np.float32(1.5), np.float32(2.0))
    assert f.signatures == [(types.float32, types.float32)]
    f(np.int64(1), 2)  # np.int64 and int are both int64
    assert (types.int64, types.int64) in f.signatures


def numpy_scalar_values():
    """Every fixed-size NumPy scalar type (each read from its type alone on the call path),
    with edge values: extremes, -0.0, inf, nan."""
    out = []
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        info = np.iinfo(t)
        out += [t(info.min), t(info.max), t(0), t(7)]
    for t in (np.float32, np.float64):
        out += [t(-0.0), t(1.5), t(np.inf), t(-np.inf), t(np.nan), t(np.finfo(t).tiny)]
    out += [np.complex64(1 - 2j), np.complex128(-0.0 + 3j), np.bool_(True), np.bool_(False)]
    return out


def same_value(got, expected):
    if isinstance(expected, (float, complex, np.floating, np.complexfloating)):
        g, e = complex(got), complex(expected)
        return (g == e or (g != g and e != e)) and np.signbit(g.real) == np.signbit(e.real)
    return got == expected


@njit
def pass_two(x, y):
    return x, y


@njit
def scale_mix(a, lo, hi, mean, std, b, c, k):
    # arrays, float64 and int64 scalars mixed, as features computed from np.min/np.mean
    return (a[0] - lo) / (hi - lo) + mean * std + b[k] + c.size + k


def test_numpy_scalar_arguments_of_every_type():
    for x in numpy_scalar_values():
        got = pass_two(x, 2)
        assert same_value(got[0], x), (type(x), x, got)
        assert got[1] == 2
        # the second call of one overload takes the call site's fast path
        assert same_value(pass_two(x, 3)[0], x)
        assert pass_two(x, 3)[1] == 3


def test_numpy_float64_and_int64_share_the_python_overload():
    f = njit(lambda x, n: x * n)
    assert f(1.5, 2) == 3.0
    assert f(np.float64(2.5), np.int64(-3)) == -7.5
    assert f(np.float64(-0.0), np.int64(2**63 - 1)) == 0.0
    assert np.signbit(f(np.float64(-0.0), np.int64(1)))
    assert np.isnan(f(np.float64(np.nan), 1))
    assert f(1.5, np.int64(-2**63)) == 1.5 * -2**63
    assert len(f.signatures) == 1
    assert f(np.float32(1.5), 2) == 3.0  # float32: its own overload
    assert len(f.signatures) == 2


def test_numpy_scalars_in_a_call_of_many_arguments():
    a = np.linspace(-1.0, 2.0, 7)
    args = (a, np.min(a), np.max(a), np.mean(a), np.std(a), a[::2], a.reshape(7, 1), np.int64(2))
    for _ in range(3):  # first call, then the fast path's
        assert scale_mix(*args) == scale_mix.py_func(*args)
    assert scale_mix(a, 0.0, 1.0, 0.5, 2.0, a, a, 1) == scale_mix.py_func(a, 0.0, 1.0, 0.5, 2.0, a, a, 1)
    assert len(scale_mix.signatures) == 2  # the views' layouts differ; the scalars do not


def test_numpy_scalar_subclass_argument():
    class MyFloat(np.float64):  # not the exact type: typed through its dtype, as before
        pass

    assert pass_two(MyFloat(2.5), 1)[0] == 2.5
    assert pass_two(MyFloat(-1.0), 1)[0] == -1.0


# ---------------------------------------------------------------- argument errors

def test_wrong_number_of_arguments():
    with pytest.raises(TypeError, match=r"add\(\) takes 2 positional arguments but 3 were given"):
        add(1, 2, 3)
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'b'"):
        add(1)
    with pytest.raises(TypeError, match=r"sum_array\(\) takes 1 positional argument but 2 were given"):
        sum_array(np.zeros(2), 1)


@pytest.mark.parametrize("bad", [memoryview(np.zeros(2, ">f8")), {"a": 1}, object(), array.array("u", "text")],
                         ids=["big_endian_memoryview", "dict", "object", "wchar_array"])
def test_unsupported_argument_type(bad):
    with pytest.raises(TypeError) as info:
        add(bad, 1)
    message = str(info.value)
    assert type(bad).__name__ in message
    assert "argument 1" in message


def test_int_too_large():
    with pytest.raises(OverflowError):
        add(2 ** 70, 1)


def test_keyword_arguments_and_defaults():
    assert scaled(2) == 7
    assert scaled(2, 5) == 11
    assert scaled(2, offset=0) == 6
    assert scaled(offset=2, x=1, factor=10) == 12
    assert add(b=2, a=40) == 42
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        scaled(1, z=3)
    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        scaled(1, x=3)
    with pytest.raises(TypeError, match="takes from 1 to 3 positional arguments but 4 were given"):
        scaled(1, 2, 3, 4)


# ---------------------------------------------------------------- eager signatures

def test_eager_signature():
    @njit("float64(float64)")
    def half(x):
        return x / 2

    assert half.signatures == [(types.float64,)]
    assert half(3.0) == 1.5
    assert half(3) == 1.5  # converted to the declared float64
    assert len(half.signatures) == 1
    with pytest.raises(TypeError):
        half(np.zeros(3))


def test_eager_signature_list_and_type_objects():
    @njit(["int64(int64)", "float64(float64)"])
    def inc(x):
        return x + 1

    assert inc.signatures == [(types.int64,), (types.float64,)]
    assert inc(1) == 2 and type(inc(1)) is int
    assert inc(1.5) == 2.5

    @njit(types.float64(types.float64[::1]))
    def total(a):
        s = 0.0
        for i in range(len(a)):
            s += a[i]
        return s

    assert total(np.ones(4)) == 4.0
    assert total.signatures == [(types.float64[::1],)]


def test_calls_from_compiled_code_use_the_explicit_signatures():
    # Numba compiles nothing new for a function with explicit signatures, also when
    # compiled code calls it: the arguments convert to a signature (int64 to int32 wraps)
    # and the result has the declared type (float32 here, rounded).
    @njit(types.float32(types.int32))
    def third(x):
        return x / 3

    @njit
    def caller(x):
        return third(x)

    for x in (10, -7, 0, 2**33 + 5, -(2**31) - 1):
        wrapped = int(np.array([x]).astype(np.int32)[0])
        assert caller(x) == float(np.float32(wrapped / 3)), x
    assert caller(np.int8(-9)) == float(np.float32(-3.0))
    assert third.signatures == [(types.int32,)]
    assert third(10) == float(np.float32(10 / 3))

    @njit(types.float64(types.float64[:], types.uint16))
    def pick(a, k):
        return a[k] * 2

    @njit
    def pick_caller(a):
        b = a.copy()  # C-contiguous: converts to the declared any-layout array
        return pick(b, 1) + pick(a[::2], 70001)  # 70001 wraps to 4465 as uint16

    a = np.arange(9000.0)
    assert pick_caller(a) == 2.0 + a[::2][70001 % 65536] * 2
    assert pick.signatures == [(types.float64[:], types.uint16)]

    @njit
    def bad_caller(a):
        return third(a)

    with pytest.raises(errors.TypingError, match="No matching definition"):
        bad_caller(np.zeros(2))


def test_eager_signature_error_is_reported_at_decoration():
    with pytest.raises(errors.MahouError):
        @njit("float64(float64)")
        def broken(x):
            return x + undefined_name  # noqa: F821


# ---------------------------------------------------------------- attributes and inspection

def test_py_func_and_wrapper_attributes():
    def original(x):
        """Docstring."""
        return x + 1

    f = njit(original)
    assert f.py_func is original
    assert f.__wrapped__ is original
    assert f.__name__ == "original"
    assert f.__doc__ == "Docstring."
    assert f.py_func(1) == 2
    assert "original" in repr(f)


def test_inspect_llvm_and_asm():
    add(1, 2)
    llvm = add.inspect_llvm()
    assert (types.int64, types.int64) in llvm
    text = llvm[(types.int64, types.int64)]
    assert text and "add" in text
    asm = add.inspect_asm(add.signatures[0])
    assert asm and "add" in asm


def test_stats():
    add(1, 2)
    stats = add.stats[(types.int64, types.int64)]
    assert set(stats) >= {"parse_ms", "sema_ms", "codegen_ms", "optimize_ms", "jit_ms"}


# ---------------------------------------------------------------- compile errors

def test_typing_error_has_location():
    line = uses_undefined.py_func.__code__.co_firstlineno + 2
    with pytest.raises(errors.TypingError) as info:
        uses_undefined(1)
    assert isinstance(info.value, errors.MahouError)
    assert f"test_dispatch.py:{line}:" in str(info.value)
    assert "undefined_name" in str(info.value)


def test_process_keeps_working_after_errors():
    for _ in range(3):
        with pytest.raises(errors.TypingError):
            uses_undefined(1)
        with pytest.raises(TypeError):
            add(object(), 2)
        with pytest.raises(ValueError):
            checked_sqrt_floor(-1)
    assert add(2, 3) == 5
    assert checked_sqrt_floor(17) == 4


# ---------------------------------------------------------------- runtime errors

def test_exception_from_compiled_code():
    assert checked_sqrt_floor(16) == 4
    with pytest.raises(ValueError, match="negative input"):
        checked_sqrt_floor(-5)
    assert checked_sqrt_floor(10) == 3


# ---------------------------------------------------------------- array ownership

def test_returned_array_is_owned_and_freed():
    gc.collect()
    start = _core.live_allocations()
    a = make_array(5)
    assert isinstance(a, np.ndarray)
    assert a.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert a.flags.writeable and a.flags.c_contiguous
    assert _core.live_allocations() == start + 1
    a[0] = 10.0  # the memory is ours to write
    del a
    gc.collect()
    assert _core.live_allocations() == start


def test_many_returned_arrays_do_not_leak():
    gc.collect()
    start = _core.live_allocations()
    for n in range(50):
        assert make_array(n).shape == (n,)
    gc.collect()
    assert _core.live_allocations() == start


def test_returned_view_keeps_argument_alive():
    x = np.arange(6.0)
    v = tail(x)
    assert v.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert v.base is x or v.base is x.base or np.shares_memory(v, x)
    del x
    gc.collect()
    assert v.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    v[0] = 42.0
    assert v[0] == 42.0


def test_returning_the_argument_gives_it_back():
    x = np.arange(3.0)
    assert identity(x) is x


def test_view_of_readonly_argument_stays_readonly():
    x = np.arange(4.0)
    x.flags.writeable = False
    assert not tail(x).flags.writeable


def test_view_of_returned_array_is_owned():
    gc.collect()
    start = _core.live_allocations()
    v = tail(make_array(4))
    assert v.tolist() == [2.0, 4.0, 6.0]
    del v
    gc.collect()
    assert _core.live_allocations() == start


# ---------------------------------------------------------------- dispatchers as globals

def test_dispatcher_called_from_compiled_code():
    assert calls_double(4) == 9
    assert calls_double(1.5) == 4.0
    assert (types.int64,) in double_it.signatures


# ---------------------------------------------------------------- decorator API

def test_decorator_forms():
    def f(x):
        return x + 1

    assert njit(f)(1) == 2
    assert njit()(f)(1) == 2
    assert njit(cache=True)(f)(1) == 2
    assert jit(f)(1) == 2
    assert jit(nopython=True, fastmath=True, boundscheck=False, nogil=True)(f)(1) == 2
    assert mahou.jit is mahou.njit


def test_unknown_option_is_rejected():
    with pytest.raises(TypeError, match="not_an_option"):
        njit(not_an_option=True)


def test_forceobj_is_object_mode():
    assert type(jit(forceobj=True)(lambda: 1)).__name__ == "ObjectModeDispatcher"


def test_prange_runs_as_range_in_python():
    assert list(mahou.prange(3)) == [0, 1, 2]
    assert list(mahou.prange(1, 7, 2)) == [1, 3, 5]


# ---------------------------------------------------------------- types

def test_type_syntax():
    assert str(types.float64) == "float64"
    assert types.float64[:] == types.Array(types.float64, 1, "A")
    assert types.float64[::1].layout == "C"
    assert types.float64[:, ::1].layout == "C"
    assert types.float64[::1, :].layout == "F"
    assert types.float32[:, :].ndim == 2
    assert types.UniTuple(types.int64, 3) == types.Tuple([types.int64] * 3)
    assert str(types.float64(types.float64[:], types.int64)) == \
        "float64(array(float64, 1d, A), int64)"
    for t in (types.float64[:, ::1], types.UniTuple(types.int32, 2),
              types.Tuple(types.int64, types.float32), types.boolean, types.complex128):
        assert _core.parse_type(str(t)) == str(t)
    assert _core.parse_signature("f8(f8[:])") == ("float64", ["array(float64, 1d, A)"])


def test_typeof():
    assert mahou.typeof(1) == types.int64
    assert mahou.typeof(1.0) == types.float64
    assert mahou.typeof(True) == types.boolean
    assert mahou.typeof(np.float32(1)) == types.float32
    assert mahou.typeof(np.zeros((2, 3))) == types.float64[:, ::1]
    assert mahou.typeof(np.zeros((2, 3), order="F")) == types.float64[::1, :]
    assert mahou.typeof(np.zeros((4, 4))[:, ::2]) == types.float64[:, :]
    assert mahou.typeof((1, 2.0)) == types.Tuple(types.int64, types.float64)
    with pytest.raises(ValueError):
        mahou.typeof([])  # an empty list has no item type
    assert str(mahou.typeof([1, 2])) == "list(int64)"
    assert str(mahou.typeof("text")) == "unicode_type"


def test_errors_hierarchy():
    assert issubclass(errors.TypingError, errors.MahouError)
    assert issubclass(errors.UnsupportedError, errors.MahouError)
    assert issubclass(errors.InternalCompilerError, errors.MahouError)
    assert errors.NumbaError is errors.MahouError
