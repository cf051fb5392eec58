# Tests of compiled Python entries: once a call site has used an overload of int64,
# float64 and array arguments with a scalar or None result, the dispatcher's call is
# that overload's compiled entry, which checks and unboxes the arguments itself and
# hands every other call back to the dispatcher. Each case is run several times so that
# the entry is installed and then taken, and compared with the Python function.
import enum
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mahou import njit, types


def add(a, b):
    return a + b


def positive(x):
    return x > 0


def store_first(a, v):
    a[0] = v


def shape_code(a):
    return a.shape[0] * 1000 + a.shape[-1] * 10 + a.ndim


def weighted(a, w):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * w
    return s


def call_often(f, *args, times=3):
    return [f(*args) for _ in range(times)]


def same(got, want):
    if isinstance(want, float) and np.isnan(want):
        return isinstance(got, float) and np.isnan(got)
    return type(got) is type(want) and got == want


INTS = [0, 1, -1, 7, -7, 2**30 - 1, -(2**30 - 1), 2**30, -(2**30), 2**62, -(2**63), 2**63 - 1 - 5]


@pytest.mark.parametrize("a", INTS)
@pytest.mark.parametrize("b", [0, -1, 5])
def test_int_arguments_match_python(a, b):
    f = njit(add)
    want = (add(a, b) + 2**63) % 2**64 - 2**63  # int64 arithmetic wraps, as in Numba
    for got in call_often(f, a, b):
        assert same(got, want)
    assert f._python_entry == (types.int64, types.int64)


@pytest.mark.parametrize("x", [0.0, -0.0, 1.5, -2.25, float("inf"), float("-inf"), float("nan"), 1e308])
def test_float_arguments_and_results(x):
    f = njit(add)
    for got in call_often(f, x, 0.5):
        assert same(got, add(x, 0.5))
    assert f._python_entry == (types.float64, types.float64)
    p = njit(positive)
    for got in call_often(p, x):
        assert same(got, positive(x))


def test_int_past_int64_raises_overflow_through_the_entry():
    f = njit(add)
    call_often(f, 1, 2)
    assert f._python_entry is not None
    with pytest.raises(OverflowError):
        f(2**63, 1)
    with pytest.raises(OverflowError):
        f(1, -(2**64))
    assert f(3, 4) == 7


def test_other_argument_types_go_to_the_dispatcher():
    class Colour(enum.IntEnum):
        RED = 3

    class MyFloat(float):
        pass

    f = njit(add)
    call_often(f, 1, 2)
    assert f(True, 2) == 3
    assert f(Colour.RED, 2) == 5
    assert f(np.int64(5), 2) == 7
    assert f(MyFloat(1.5), 1.0) == 2.5
    assert f(1, 2.5) == 3.5
    assert f(b=2, a=1) == 3
    assert f(1, b=4) == 5
    with pytest.raises(TypeError):
        f(1)
    with pytest.raises(TypeError):
        f(1, 2, 3)
    with pytest.raises(TypeError):
        f(object(), 2)
    assert f(1, 2) == 3


def test_alternating_signatures_switch_the_entry():
    f = njit(add)
    f(1, 2), f(1.0, 2.0), f(2.0, 3)  # compiled by the dispatcher's general call
    for _ in range(4):
        assert same(f(1, 2), 3)
        assert f._python_entry == (types.int64, types.int64)
        assert same(f(1.0, 2.0), 3.0)
        assert f._python_entry == (types.float64, types.float64)
        assert same(f(2.0, 3), 5.0)
        assert f._python_entry == (types.float64, types.int64)
    assert len(f.signatures) == 3


ARRAYS = {
    "c1d": lambda: np.arange(6.0),
    "strided": lambda: np.arange(12.0)[::2],
    "c2d": lambda: np.arange(12.0).reshape(3, 4),
    "f2d": lambda: np.asfortranarray(np.arange(12.0).reshape(3, 4)),
    "a2d": lambda: np.arange(24.0).reshape(4, 6)[::2, 1:],
    "readonly": lambda: np.frombuffer(np.arange(5.0).tobytes()),
    "empty": lambda: np.zeros(0),
    "empty2d": lambda: np.zeros((0, 3)),
    "int64": lambda: np.arange(5),
    "longlong": lambda: np.arange(5, dtype=np.longlong),
    "int32": lambda: np.arange(5, dtype=np.int32),
    "float32": lambda: np.arange(5, dtype=np.float32),
    "bool": lambda: np.ones(3, dtype=bool),
    "3d": lambda: np.zeros((2, 3, 4)),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_array_arguments_match_python(name):
    f = njit(shape_code)
    a = ARRAYS[name]()
    for got in call_often(f, a):
        assert same(got, shape_code(a))
    assert f._python_entry == (types.typeof(a),)


def test_arrays_of_other_layouts_dtypes_and_ranks_are_not_taken_for_another():
    f = njit(shape_code)
    arrays = [ARRAYS[k]() for k in sorted(ARRAYS)]
    for _ in range(3):
        for a in arrays:
            assert f(a) == shape_code(a)
            assert f._python_entry == (types.typeof(a),)
    assert f(np.zeros(3).view(np.matrix)) == 1032  # a subclass: through the dispatcher
    swapped = np.arange(4.0).astype(">f8")
    with pytest.raises(Exception):
        f(swapped)
    assert f(np.arange(4.0)) == shape_code(np.arange(4.0))


def test_array_and_scalar_arguments_and_writes():
    w = njit(weighted)
    a = np.arange(5.0)
    for got in call_often(w, a, 2.0):
        assert got == weighted(a, 2.0)
    s = njit(store_first)
    b = np.zeros(3)
    for v in (1.5, -2.5, 7.0):
        assert s(b, v) is None
        assert b[0] == v
    assert s._python_entry == (types.float64[::1], types.float64)
    ints = np.zeros(3, dtype=np.int32)
    s(ints, 1.5)  # another overload: stores int(1.5)
    assert ints[0] == 1
    assert s._python_entry == (types.int32[::1], types.float64)


def test_exceptions_raised_in_compiled_code_come_through_the_entry():
    @njit
    def floor_div(a, b):
        return a // b

    call_often(floor_div, 7, 2)
    assert floor_div._python_entry is not None
    with pytest.raises(ZeroDivisionError):
        floor_div(1, 0)
    assert floor_div(-7, 2) == -4

    @njit(boundscheck=True)
    def at(a, i):
        return a[i]

    a = np.arange(3.0)
    call_often(at, a, 1)
    assert at._python_entry is not None
    with pytest.raises(IndexError):
        at(a, 3)
    assert at(a, -1) == 2.0


def test_nogil_and_declared_return_types_keep_the_dispatcher_call():
    @njit(nogil=True)
    def nogil_add(a, b):
        return a + b

    call_often(nogil_add, 1, 2)
    assert nogil_add._python_entry is None
    assert nogil_add(2, 3) == 5

    @njit("float64(int64, int64)")
    def declared(a, b):
        return a + b

    for got in call_often(declared, 1, 2):
        assert same(got, 3.0)
    assert declared._python_entry is None


def test_results_other_than_scalars_keep_the_dispatcher_call():
    @njit
    def pair(a):
        return a, a

    @njit
    def doubled(a):
        return a * 2

    assert call_often(pair, 1) == [(1, 1)] * 3
    assert pair._python_entry is None
    a = np.arange(3.0)
    for got in call_often(doubled, a):
        np.testing.assert_array_equal(got, a * 2)
    assert doubled._python_entry is None


def test_cached_overload_has_its_entry_in_a_new_process(tmp_path):
    src = tmp_path / "cached_entry.py"
    src.write_text(textwrap.dedent("""
        import numpy as np
        from mahou import njit

        @njit(cache=True)
        def f(a, x):
            return a.sum() * x

        a = np.arange(4.0)
        results = [f(a, 2.0) for _ in range(3)]
        (stats,) = f.stats.values()
        print(results, stats["cached"], f._python_entry)
    """))
    runs = [subprocess.run([sys.executable, str(src)], capture_output=True, text=True, cwd=tmp_path)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout.startswith("[12.0, 12.0, 12.0] False (")
    assert runs[1].stdout.startswith("[12.0, 12.0, 12.0] True (")
    assert runs[1].stdout.split(" True ")[1] == runs[0].stdout.split(" False ")[1]
