"""jit(locals={...}) type declarations, and the dispatcher's .overloads and .recompile()."""

import numpy as np
import pytest

import mahou
from mahou import float32, int32, int64, njit
from mahou.errors import TypingError


def accumulate(n):
    acc = 0
    k = 0
    for i in range(n):
        acc += 0.1
        k += 1
    return acc, k


def test_locals_float32_accumulator():
    f = njit(locals={"acc": float32, "k": int32})(accumulate)
    expect = np.float32(0)
    for _ in range(10):
        expect = np.float32(expect + np.float32(0.1))
    acc, k = f(10)
    assert acc == float(expect) and k == 10
    assert f.nopython_signatures[0].return_type == mahou.types.Tuple((float32, int32))
    # without the declaration the accumulator is float64
    assert njit(accumulate)(10)[0] == accumulate(10)[0]


def test_locals_truncates_like_numba():
    @njit(locals={"y": int64})
    def f(x):
        y = x * 2
        return y
    assert f(1.75) == 3
    assert f(-1.75) == -3


def test_locals_given_as_strings_and_numpy_types():
    @njit(locals={"y": "float32", "z": np.int16})
    def f(x):
        y = x
        z = x
        return y, z
    y, z = f(3)
    assert y == 3.0 and z == 3
    assert f.nopython_signatures[0].return_type == mahou.types.Tuple((float32, mahou.int16))


def test_locals_refuses_impossible_conversion():
    @njit(locals={"y": float32})
    def f(a):
        y = a
        return y
    with pytest.raises(TypingError, match="declared float32 in locals"):
        f(np.zeros(3))


def test_locals_bad_type():
    with pytest.raises(TypeError):
        njit(locals={"y": object})(lambda x: x)
    with pytest.raises(TypeError):
        njit(locals={"y": "notatype"})(lambda x: x)


def twice(x):
    return x * 2


def test_overloads_dict():
    f = njit(twice)
    assert f.overloads == {}
    f(1)
    f(1.5)
    f(np.arange(3))
    assert len(f.overloads) == 3
    assert set(f.overloads) == set(f.signatures)
    res = f.overloads[(mahou.int64,)]
    assert res.signature.return_type == mahou.int64 and res.signature.args == (mahou.int64,)
    assert isinstance(res.entry_point, int) and res.entry_point != 0


FACTOR = 2


def scaled(x):
    return x * FACTOR


def test_recompile_reads_globals_again():
    global FACTOR
    f = njit(scaled)
    assert f(3) == 6 and f(1.5) == 3.0
    FACTOR = 10
    try:
        assert f(3) == 6  # frozen at compile time, as in Numba
        f.recompile()
        assert f(3) == 30 and f(1.5) == 15.0
        assert len(f.overloads) == 2
    finally:
        FACTOR = 2


def test_recompile_keeps_eager_signatures():
    global FACTOR
    f = njit("float64(int64)")(scaled)
    assert f(2) == 4.0 and isinstance(f(2), float)
    FACTOR = 3
    try:
        f.recompile()
        assert f(2) == 6.0 and isinstance(f(2), float)
        with pytest.raises(TypeError):
            f(np.zeros(2))  # compiling stays disabled
    finally:
        FACTOR = 2


def test_recompile_error_is_raised():
    global FACTOR
    f = njit(scaled)
    f(1)
    FACTOR = object()  # (a str would be valid: int * str repeats it)
    try:
        with pytest.raises(mahou.errors.MahouError):
            f.recompile()
    finally:
        FACTOR = 2
    f.recompile()
    assert f(1) == 2


def test_eager_return_type_converts_results():
    # As Numba: the declared return type is the function's, for Python and compiled callers.
    @njit("i4(i8)")
    def doubled(x):
        return x * 2

    @njit("f4(f8)")
    def third(x):
        return x / 3

    @njit
    def caller(x):
        return doubled(x)

    assert doubled(3172171919) == np.int32(np.int64(6344343838).astype(np.int32))
    assert doubled(-5) == -10
    assert third(1.0) == float(np.float32(1.0 / 3))
    assert caller(3172171919) == doubled(3172171919)
